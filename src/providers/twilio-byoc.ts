/**
 * Twilio's BYOC (bring your own carrier) resources of the Voice v1 API (`voice.twilio.com/v1`) through the
 * `twilio` package, each on the REST client of the account it acts in (the caller passes it):
 * - ConnectionPolicies and their Targets (where calls sent to the carrier go; a target is a `sip:` URI):
 *   https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/connectionpolicy-resource,
 *   https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/connectionpolicytarget-resource
 * - ByocTrunks (the trunk: the Voice URL calls arriving from the carrier are answered by, its status
 *   callback, its Connection Policy): https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/byoctrunk-resource
 *
 * Twilio's creates take no idempotency key and its lists take no FriendlyName filter: `ensureByoc` lists
 * (every page) and matches the FriendlyName before it creates, so a retry after a lost answer or a crash
 * finds what an earlier attempt made instead of making a second one.
 */
import type twilio from 'twilio';

type TwilioClient = twilio.Twilio;

/** Where a BYOC trunk sends what arrives from the carrier: the service's inbound voice webhook and status callback. */
export interface ByocUrls {
  voiceUrl: string;
  statusCallbackUrl: string;
}

/** The SIDs of a trunk's resources at Twilio. */
export interface ByocSids {
  /** `NY…` */
  connectionPolicySid: string;
  /** `NE…` */
  targetSid: string;
  /** `BY…` */
  byocTrunkSid: string;
}

/** The Connection Policy named `friendlyName` in the account, or null. */
async function findPolicy(client: TwilioClient, friendlyName: string): Promise<string | null> {
  const found = (await client.voice.v1.connectionPolicies.list({ pageSize: 1000 })).find(
    (p) => p.friendlyName === friendlyName,
  );
  return found?.sid ?? null;
}

/** The BYOC trunk named `friendlyName` in the account, or null. */
async function findTrunk(client: TwilioClient, friendlyName: string): Promise<string | null> {
  const found = (await client.voice.v1.byocTrunks.list({ pageSize: 1000 })).find(
    (t) => t.friendlyName === friendlyName,
  );
  return found?.sid ?? null;
}

/**
 * The Connection Policy (target `target`) and BYOC trunk named `friendlyName` in the account, made when
 * absent (each looked up first, see the module's comment); an existing policy's target is pointed at
 * `target` when it names another URI. `known` are SIDs an earlier attempt stored (used without a lookup).
 * @throws the package's RestException when Twilio refuses (src/providers/twilio-numbers.ts `twilioRefusal`)
 */
export async function ensureByoc(
  client: TwilioClient,
  friendlyName: string,
  target: string,
  urls: ByocUrls,
  known: Partial<ByocSids> = {},
): Promise<ByocSids> {
  const connectionPolicySid =
    known.connectionPolicySid ??
    (await findPolicy(client, friendlyName)) ??
    (await client.voice.v1.connectionPolicies.create({ friendlyName })).sid;
  const targets = client.voice.v1.connectionPolicies(connectionPolicySid).targets;
  const existing = await targets.list({ pageSize: 50 });
  const same = existing.find((t) => t.target === target);
  let targetSid: string;
  if (same) targetSid = same.sid;
  else if (existing[0]) targetSid = (await targets(existing[0].sid).update({ target })).sid;
  else targetSid = (await targets.create({ target, friendlyName })).sid;
  const byocTrunkSid =
    known.byocTrunkSid ??
    (await findTrunk(client, friendlyName)) ??
    (
      await client.voice.v1.byocTrunks.create({
        friendlyName,
        voiceUrl: urls.voiceUrl,
        voiceMethod: 'POST',
        statusCallbackUrl: urls.statusCallbackUrl,
        statusCallbackMethod: 'POST',
        connectionPolicySid,
      })
    ).sid;
  return { connectionPolicySid, targetSid, byocTrunkSid };
}

/** Points a Connection Policy's target at `target` (a trunk's new termination URI). */
export async function retarget(
  client: TwilioClient,
  sids: { connectionPolicySid: string; targetSid: string },
  target: string,
): Promise<void> {
  await client.voice.v1.connectionPolicies(sids.connectionPolicySid).targets(sids.targetSid).update({ target });
}

/** Ignores Twilio's 404 (a resource already gone is removed). */
async function gone(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}

/**
 * Removes a trunk's BYOC trunk and Connection Policy (its targets with it), the trunk first (it names the
 * policy). SIDs not known are looked up by `friendlyName` (what an attempt that died before storing them
 * may have made); resources already gone are no error.
 * @throws Twilio's errors but 404 (the caller keeps its record, so a retry finishes the work)
 */
export async function removeByoc(
  client: TwilioClient,
  friendlyName: string,
  known: { connectionPolicySid?: string | null; byocTrunkSid?: string | null },
): Promise<void> {
  const trunk = known.byocTrunkSid ?? (await findTrunk(client, friendlyName));
  if (trunk) await gone(() => client.voice.v1.byocTrunks(trunk).remove());
  const policy = known.connectionPolicySid ?? (await findPolicy(client, friendlyName));
  if (policy) await gone(() => client.voice.v1.connectionPolicies(policy).remove());
}
