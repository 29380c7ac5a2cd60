/**
 * Bring your own carrier: an organization's SIP trunks (`POST /v1/sip_trunks`, src/api/sip-trunks.ts),
 * designed on Twilio's BYOC trunking (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc).
 *
 * - **Numbers.** Each number a trunk carries is one of the organization's phone numbers: a row of
 *   src/models/conversations.ts with `source: "sip_trunk"` and `sip_trunk_id`, taking the number's
 *   `route_key` (`live:<number>`, unique), so the rules of numbers apply unchanged: a number another
 *   organization holds is refused (without saying who holds it), the number may be a live call's `from`
 *   (src/services/caller-ids.ts), inbound calls to it are answered by its agent (and `POST
 *   /v1/phone_numbers/{id}` sets that, like any number's), and its country counts in the dialing
 *   permissions. Deleting the number (`DELETE /v1/phone_numbers/{id}`) takes it off the trunk; deleting
 *   the trunk or leaving the number out of `numbers` deletes the row.
 * - **Live mode.** In the organization's Twilio account (src/services/telephony-accounts.ts): a
 *   Connection Policy whose target is the termination URI, and a BYOC trunk using it whose Voice URL is
 *   the service's inbound voice webhook and whose status callback is the numbers' (`serviceNumberUrls`).
 *   Calls the carrier sends to the trunk arrive at `POST /twilio/voice/inbound` and are answered like
 *   calls to the number their `To` names (a SIP URI's E.164 user part, src/shared/sip-trunks.ts
 *   `numberOfSipTo`). Test mode: the trunk is stored only (its numbers simulated, like test numbers).
 * - **Outbound.** A live call (or warm-transfer leg, or cold transfer) from one of a trunk's numbers to an
 *   E.164 number dials `sip:<E.164>@<termination host>` in the organization's account, with the trunk's
 *   SIP credentials (`trunkRoute`; Twilio's "Making SIP calls", `SipAuthUsername`/`SipAuthPassword`, and
 *   `<Dial><Sip username password>`). The dial gate judges the E.164 number (permissions, calling hours,
 *   do-not-call) and the account's pacer paces it, as any dial.
 * - **Nothing half-created.** The trunk is stored `pending` first, then its numbers are claimed (rows
 *   `pending`), then Twilio is asked (each resource looked up by the trunk's FriendlyName before it is
 *   made: src/providers/twilio-byoc.ts), then everything is completed. Twilio's refusal (4xx) removes
 *   what was made at Twilio and deletes the rows: 400 `sip_trunk_rejected` with Twilio's code and message,
 *   nothing stored. Any other failure also tries to undo; when Twilio cannot be reached to undo, the
 *   pending trunk stays (not listed, dialing nothing), and a retry of the request (same Idempotency-Key,
 *   same id) finishes it without a second BYOC trunk.
 */
import { ApiError, TwilioRefusedError } from '../errors';
import { numberRouteKey, PhoneNumber } from '../models/conversations';
import { SipTrunk, type SipTrunkDoc } from '../models/sip-trunks';
import { isDuplicateKey, type WithId } from '../models/store';
import { ensureByoc, removeByoc, retarget } from '../providers/twilio-byoc';
import { twilioRefusal } from '../providers/twilio-numbers';
import { openSecret, sealSecret } from '../secrets';
import { idTime, newId } from '../shared/ids';
import { parseTerminationUri, trunkDialUri } from '../shared/sip-trunks';
import { orgTelephony, serviceNumberUrls } from './number-provisioning';

type Tenant = { orgId: string; livemode: boolean };

/** The most numbers one trunk carries. */
export const SIP_TRUNK_MAX_NUMBERS = 100;

/** What `POST /v1/sip_trunks` takes (checked by the API). */
export interface SipTrunkInput {
  termination_uri: string;
  numbers: string[];
  username?: string;
  password?: string;
  name?: string;
  agent_id?: string;
  /** Instead of `agent_id`: the squad answering the trunk's calls (the route checks it is live). */
  squad_id?: string;
}

/** What `POST /v1/sip_trunks/{id}` takes: any of the create's fields; null clears an optional one. */
export interface SipTrunkUpdate {
  termination_uri?: string;
  numbers?: string[];
  username?: string | null;
  password?: string | null;
  name?: string | null;
  agent_id?: string | null;
  /** Setting one of `agent_id` and `squad_id` clears the other (the route refuses both). */
  squad_id?: string | null;
}

/**
 * The FriendlyName of a trunk's Connection Policy and BYOC trunk at Twilio: deterministic, so a creation
 * whose answer was lost is found again rather than made twice.
 */
export const byocFriendlyName = (trunkId: string): string => `svc-assistant ${trunkId}`;

/**
 * The tenant of a trunk, as a filter of its number rows: every query of them names it, so that the
 * numbers' index `{org_id, livemode, _id}` serves it (the organization's numbers are few).
 */
const scopeOf = (trunk: { org_id: string; livemode: boolean }) => ({ org_id: trunk.org_id, livemode: trunk.livemode });

/** The E.164 numbers trunk `doc` carries (its completed number rows), sorted. */
export async function trunkNumbers(doc: WithId<SipTrunkDoc>): Promise<string[]> {
  const rows = await PhoneNumber.find(
    { ...scopeOf(doc), sip_trunk_id: doc._id, pending: { $ne: true } },
    { number: 1 },
  ).lean();
  return rows.map((r) => r.number).sort();
}

/**
 * Creates trunk `id` of the tenant (see the module's comment). A retry with the same id finishes a
 * pending trunk, or answers the trunk it made.
 * @throws ApiError 409 `phone_number_already_connected` (a number the organization has already) or 400
 *   `phone_number_not_owned` (a number another organization holds), naming `numbers`; TwilioRefusedError
 *   400 `sip_trunk_rejected` naming `termination_uri` with Twilio's code and message; nothing stored
 */
export async function createSipTrunk(tenant: Tenant, id: string, input: SipTrunkInput): Promise<WithId<SipTrunkDoc>> {
  let trunk: WithId<SipTrunkDoc> | null = await SipTrunk.findById(id).lean();
  // A pending trunk found here is an earlier attempt's, which may have made resources at Twilio.
  let atTwilio = Boolean(trunk?.livemode);
  if (!trunk) {
    const doc: WithId<SipTrunkDoc> = {
      _id: id,
      org_id: tenant.orgId,
      livemode: tenant.livemode,
      name: input.name ?? null,
      termination_uri: input.termination_uri,
      username: input.username ?? null,
      password: input.password ? sealSecret(input.password) : null,
      agent_id: input.agent_id ?? null,
      squad_id: input.squad_id ?? null,
      pending: true,
      connection_policy_sid: null,
      target_sid: null,
      byoc_trunk_sid: null,
      created: Math.floor(idTime(id) / 1000),
    };
    try {
      await SipTrunk.collection.insertOne(doc as never);
      trunk = doc;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      trunk = await SipTrunk.findById(id).lean();
      if (!trunk) throw err;
    }
  }
  const stored: WithId<SipTrunkDoc> = trunk;
  if (!stored.pending) return stored;
  try {
    await claimNumbers(stored, input.numbers);
    atTwilio = stored.livemode;
    if (stored.livemode) await provisionAtTwilio(stored);
  } catch (err) {
    await abandonCreation(stored, atTwilio);
    throw refusalOf(err);
  }
  await PhoneNumber.updateMany({ ...scopeOf(stored), sip_trunk_id: id, pending: true }, { $set: { pending: false } });
  return (await SipTrunk.findOneAndUpdate(
    { _id: id },
    { $set: { pending: false } },
    { returnDocument: 'after' },
  ).lean())!;
}

/** Makes (or finds) the trunk's Connection Policy, target and BYOC trunk, storing their SIDs as they come. */
async function provisionAtTwilio(trunk: WithId<SipTrunkDoc>): Promise<void> {
  const { client } = await orgTelephony(trunk.org_id);
  const urls = serviceNumberUrls();
  const sids = await ensureByoc(
    client,
    byocFriendlyName(trunk._id),
    trunk.termination_uri,
    { voiceUrl: urls.voiceUrl, statusCallbackUrl: urls.statusCallback },
    {
      ...(trunk.connection_policy_sid ? { connectionPolicySid: trunk.connection_policy_sid } : {}),
      ...(trunk.byoc_trunk_sid ? { byocTrunkSid: trunk.byoc_trunk_sid } : {}),
    },
  );
  await SipTrunk.updateOne(
    { _id: trunk._id },
    {
      $set: {
        connection_policy_sid: sids.connectionPolicySid,
        target_sid: sids.targetSid,
        byoc_trunk_sid: sids.byocTrunkSid,
      },
    },
  );
}

/**
 * Undoes a creation that failed: removes what Twilio may hold (`atTwilio`: Twilio was asked, now or by an
 * earlier attempt; found by FriendlyName), then the pending number rows and the trunk. When Twilio cannot
 * be reached to undo, the pending trunk and rows are kept for a retry (see the module's comment).
 */
async function abandonCreation(trunk: WithId<SipTrunkDoc>, atTwilio: boolean): Promise<void> {
  if (atTwilio) {
    try {
      const { client } = await orgTelephony(trunk.org_id);
      const stored = await SipTrunk.findById(trunk._id).lean();
      await removeByoc(client, byocFriendlyName(trunk._id), {
        connectionPolicySid: stored?.connection_policy_sid ?? null,
        byocTrunkSid: stored?.byoc_trunk_sid ?? null,
      });
    } catch {
      return;
    }
  }
  await PhoneNumber.deleteMany({ ...scopeOf(trunk), sip_trunk_id: trunk._id, pending: true });
  await SipTrunk.deleteOne({ _id: trunk._id, pending: true });
}

/** Twilio's refusal as the API's 400 `sip_trunk_rejected` (naming `termination_uri`); other errors as they are. */
function refusalOf(err: unknown): unknown {
  const refusal = twilioRefusal(err);
  if (!refusal || err instanceof ApiError) return err;
  return new TwilioRefusedError(
    400,
    'sip_trunk_rejected',
    `Twilio refused the SIP trunk${refusal.code ? ` (error ${refusal.code})` : ''}: ${refusal.message}`,
    'termination_uri',
    refusal.code,
    refusal.message,
  );
}

/**
 * Claims `numbers` for `trunk`: a number row each (`pending`, answered by the trunk's agent or squad), unless the
 * trunk has it already (a retry). The caller deletes the pending rows when this throws.
 * @throws ApiError 409 `phone_number_already_connected` / 400 `phone_number_not_owned` naming `numbers`
 */
async function claimNumbers(trunk: WithId<SipTrunkDoc>, numbers: string[]): Promise<void> {
  for (const number of numbers) {
    const id = newId('pn');
    const row = {
      _id: id,
      route_key: numberRouteKey(trunk.org_id, trunk.livemode, number),
      org_id: trunk.org_id,
      livemode: trunk.livemode,
      number,
      channels: ['voice'],
      agent_id: trunk.agent_id ?? null,
      squad_id: trunk.squad_id ?? null,
      inbound_webhook_url: null,
      inbound_webhook_secret: null,
      inbound_webhook_timeout_ms: null,
      overflow_to: null,
      source: 'sip_trunk',
      sip_trunk_id: trunk._id,
      twilio_sid: null,
      pending: true,
      buying: false,
      previous_urls_json: null,
      created: Math.floor(idTime(id) / 1000),
    };
    try {
      await PhoneNumber.collection.insertOne(row as never);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const holder = await PhoneNumber.findOne({ route_key: row.route_key }, { org_id: 1, sip_trunk_id: 1 }).lean();
      if (holder?.sip_trunk_id === trunk._id) continue;
      if (holder?.org_id === trunk.org_id)
        throw new ApiError(
          409,
          'invalid_request_error',
          'phone_number_already_connected',
          `${number} is already one of your organization's numbers (${holder._id}); delete it there to carry it on this trunk.`,
          'numbers',
        );
      // Answered like a number the organization cannot have: the answer never tells that a tenant holds it.
      throw new ApiError(
        400,
        'invalid_request_error',
        'phone_number_not_owned',
        `${number} cannot be carried on this trunk: it is not your organization's number.`,
        'numbers',
      );
    }
  }
}

/** The trunk `id` of the tenant, completed (null when unknown or still pending). */
export async function findSipTrunk(tenant: Tenant, id: string): Promise<WithId<SipTrunkDoc> | null> {
  return await SipTrunk.findOne({
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    pending: { $ne: true },
  }).lean();
}

/**
 * Updates trunk `id` of the tenant (`POST /v1/sip_trunks/{id}`): only the fields given change. New
 * numbers are claimed first (as on create), then a new termination URI is given to the live Connection
 * Policy's target, then the numbers left out are deleted and the trunk stored; a refusal at any step
 * changes nothing. `agent_id` and `squad_id` are set on every number of the trunk (one clears the other).
 * @returns the trunk after, or null when unknown
 * @throws like `createSipTrunk`; ApiError 400 `parameter_invalid` naming `password` for a password
 *   without a username
 */
export async function updateSipTrunk(
  tenant: Tenant,
  id: string,
  input: SipTrunkUpdate,
): Promise<WithId<SipTrunkDoc> | null> {
  const trunk = await findSipTrunk(tenant, id);
  if (!trunk) return null;
  const set: Partial<SipTrunkDoc> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.agent_id !== undefined) set.agent_id = input.agent_id;
  if (input.squad_id !== undefined) set.squad_id = input.squad_id;
  if (input.agent_id) set.squad_id = null;
  if (input.squad_id) set.agent_id = null;
  if (input.username !== undefined) set.username = input.username;
  if (input.password !== undefined) set.password = input.password ? sealSecret(input.password) : null;
  const username = set.username !== undefined ? set.username : trunk.username;
  const password = set.password !== undefined ? set.password : trunk.password;
  if (password && !username)
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'A password needs a username.', 'password');
  const retargeted = input.termination_uri !== undefined && input.termination_uri !== trunk.termination_uri;
  if (retargeted) set.termination_uri = input.termination_uri;
  try {
    if (input.numbers) await claimNumbers({ ...trunk, ...set }, input.numbers);
    if (retargeted && trunk.livemode && trunk.connection_policy_sid && trunk.target_sid) {
      const { client } = await orgTelephony(trunk.org_id);
      await retarget(
        client,
        { connectionPolicySid: trunk.connection_policy_sid, targetSid: trunk.target_sid },
        input.termination_uri!,
      );
    }
  } catch (err) {
    await PhoneNumber.deleteMany({ ...scopeOf(trunk), sip_trunk_id: id, pending: true });
    throw refusalOf(err);
  }
  const rows = { ...scopeOf(trunk), sip_trunk_id: id };
  if (input.numbers) await PhoneNumber.deleteMany({ ...rows, number: { $nin: input.numbers } });
  await PhoneNumber.updateMany({ ...rows, pending: true }, { $set: { pending: false } });
  const answerer = { agent_id: set.agent_id, squad_id: set.squad_id };
  for (const [k, v] of Object.entries(answerer)) if (v === undefined) delete answerer[k as keyof typeof answerer];
  if (Object.keys(answerer).length) await PhoneNumber.updateMany(rows, { $set: answerer });
  return await SipTrunk.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' }).lean();
}

/**
 * Deletes trunk `id` of the tenant (`DELETE /v1/sip_trunks/{id}`; a pending one too): live, its BYOC
 * trunk and Connection Policy are removed from the organization's account first; then its numbers are
 * released (their rows deleted: calls to them are no longer taken, calls may not show them).
 * @returns false when unknown
 * @throws Twilio's errors (the trunk is kept, so a retried DELETE finishes the work)
 */
export async function deleteSipTrunk(tenant: Tenant, id: string): Promise<boolean> {
  const trunk = await SipTrunk.findOne({ _id: id, org_id: tenant.orgId, livemode: tenant.livemode }).lean();
  if (!trunk) return false;
  if (trunk.livemode) {
    const { client } = await orgTelephony(trunk.org_id);
    await removeByoc(client, byocFriendlyName(trunk._id), {
      connectionPolicySid: trunk.connection_policy_sid,
      byocTrunkSid: trunk.byoc_trunk_sid,
    });
  }
  await PhoneNumber.deleteMany({ ...scopeOf(trunk), sip_trunk_id: id });
  return (await SipTrunk.deleteOne({ _id: id })).deletedCount > 0;
}

/** How a live dial goes out through a trunk: the SIP URI Twilio dials, and the trunk's SIP credentials. */
export interface TrunkRoute {
  to: string;
  sipAuthUsername?: string;
  sipAuthPassword?: string;
}

/**
 * The route of a live dial from organization `orgId`'s number `orgNumber` to `to` when that number is
 * carried by one of its (completed) SIP trunks and `to` is an E.164 number: `sip:<to>@<termination host>`
 * with the trunk's credentials; null otherwise (the dial goes out as it is).
 */
export async function trunkRoute(orgId: string, orgNumber: string | null, to: string): Promise<TrunkRoute | null> {
  if (!orgNumber || !/^\+[1-9]\d{1,14}$/.test(to)) return null;
  const row = await PhoneNumber.findOne(
    { route_key: numberRouteKey(orgId, true, orgNumber) },
    { org_id: 1, source: 1, sip_trunk_id: 1, pending: 1 },
  ).lean();
  if (!row || row.org_id !== orgId || row.source !== 'sip_trunk' || !row.sip_trunk_id || row.pending) return null;
  const trunk = await SipTrunk.findOne({ _id: row.sip_trunk_id, org_id: orgId, pending: { $ne: true } }).lean();
  if (!trunk) return null;
  const uri = parseTerminationUri(trunk.termination_uri);
  if ('error' in uri) return null;
  const password = trunk.username && trunk.password ? openSecret(trunk.password) : null;
  return {
    to: trunkDialUri(to, uri),
    ...(trunk.username && password ? { sipAuthUsername: trunk.username, sipAuthPassword: password } : {}),
  };
}
