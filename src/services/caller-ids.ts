/**
 * Caller ID that cannot be borrowed: a live call's `from` is one of the organization's own voice numbers
 * (a live number it bought or imported, src/services/number-provisioning.ts) or a caller ID it verified
 * through Twilio's Outgoing Caller IDs flow (https://www.twilio.com/docs/voice/api/outgoing-caller-ids),
 * else 400 `from_not_owned` naming `from` (`checkFrom`). A call without `from` takes the agent's number
 * (a voice number whose `agent_id` is the agent), else the organization's oldest voice number
 * (`defaultFrom`).
 *
 * Verification (`startVerification`, `POST /v1/caller_ids`): Twilio's ValidationRequests create starts a
 * call to the number that asks for the answer's `validation_code`; the caller ID is `pending` until the
 * organization's Twilio account lists the number among its OutgoingCallerIds. The service polls that list
 * (one lookup per pending caller ID) when the caller ID is read (`GET /v1/caller_ids[/{id}]`) and when a
 * call names it as `from`, rather than taking the verification's StatusCallback: a read never misses a
 * callback that was lost, and no callback route has to know which account signed it. A number the account
 * already lists is verified at once, with no call.
 *
 * One Twilio account: a caller ID is verified in one account, and a number is held by one; a call placed
 * in another account can show neither (Twilio refuses the `From`, error 21210). So each row records its
 * account (`account_sid`), and a live `from` counts only when its number or caller ID is of the account the
 * organization's telephony runs in now (src/services/telephony-accounts.ts `accountInUse`): after the
 * organization connects its own Twilio account, the caller IDs verified in its subaccount and the numbers
 * bought there are no longer `from` of its calls (their inbound calls and messages still arrive, signed by
 * the subaccount), and the reverse after it disconnects. A caller ID of the other account shows
 * `active: false`, and becomes active again as soon as the account in use lists it among its
 * OutgoingCallerIds (checked when read or used, as for a pending one), or is verified again there
 * (`POST /v1/caller_ids`). Rows with no account recorded count as of the account in use.
 *
 * Test mode: caller IDs are simulated (verified at once, a made-up code shown) and test calls' `from` is
 * not checked (a simulated call rings nobody and shows no number).
 */
import crypto from 'node:crypto';
import { ApiError, TwilioRefusedError } from '../errors';
import { CallerId, inAccountInUse, type CallerIdDoc } from '../models/caller-ids';
import { PhoneNumber, numberRouteKey } from '../models/conversations';
import { isDuplicateKey, type WithId } from '../models/store';
import {
  findOutgoingCallerId,
  removeOutgoingCallerId,
  requestValidation,
  twilioRefusal,
} from '../providers/twilio-numbers';
import { idTime } from '../shared/ids';
import { orgTelephony } from './number-provisioning';
import { accountInUse } from './telephony-accounts';

/** A tenant: the organization and the key's mode. */
interface Tenant {
  orgId: string;
  livemode: boolean;
}

/**
 * Whether number row `row` can be a `from` of the organization's calls placed in account `inUse`: one
 * held by that account, or recorded under none (simulated, or stored before numbers needed proof).
 */
const numberInAccount = (row: { livemode: boolean; account_sid?: string | null }, inUse: string | null) =>
  !row.livemode || !row.account_sid || row.account_sid === inUse;

/**
 * Whether `number` is one of the tenant's own voice numbers (stored, provisioned, taking voice) held by
 * the account in use `inUse`.
 */
async function isOwnVoiceNumber(tenant: Tenant, number: string, inUse: string | null): Promise<boolean> {
  const row = await PhoneNumber.findOne({ route_key: numberRouteKey(tenant.orgId, tenant.livemode, number) }).lean();
  return Boolean(
    row &&
    row.org_id === tenant.orgId &&
    !row.pending &&
    (row.channels ?? []).includes('voice') &&
    numberInAccount(row, inUse),
  );
}

/**
 * Moves a live caller ID that is pending, or verified in another account than the one in use, to
 * `verified` in the account in use when that account now lists it among its OutgoingCallerIds (one
 * lookup). Answers the row as it is after.
 */
async function refreshCallerId(doc: WithId<CallerIdDoc>): Promise<WithId<CallerIdDoc>> {
  if (!doc.livemode) return doc;
  if (doc.status === 'verified' && inAccountInUse(doc, await accountInUse(doc.org_id))) return doc;
  const { client, accountSid } = await orgTelephony(doc.org_id);
  const sid = await findOutgoingCallerId(client, doc.phone_number);
  if (!sid) return doc;
  const updated = await CallerId.findOneAndUpdate(
    { _id: doc._id },
    { $set: { status: 'verified', twilio_sid: sid, validation_code: null, account_sid: accountSid } },
    { returnDocument: 'after' },
  ).lean();
  return updated ?? doc;
}

/** Refreshes every pending caller ID of a page (see `refreshCallerId`). */
export async function refreshCallerIds(docs: WithId<CallerIdDoc>[]): Promise<WithId<CallerIdDoc>[]> {
  return await Promise.all(docs.map((d) => refreshCallerId(d)));
}

/**
 * Checks a live call's `from` (see the module's comment); nothing to check in test mode or without `from`.
 * @throws ApiError 400 `from_not_owned` naming `from`
 */
export async function checkFrom(tenant: Tenant, from: string | null | undefined): Promise<void> {
  if (!tenant.livemode || !from) return;
  if (await ownsCallerNumber(tenant, from)) return;
  throw new ApiError(
    400,
    'invalid_request_error',
    'from_not_owned',
    `${from} is neither one of your organization's voice numbers nor a caller ID it verified (POST /v1/caller_ids).`,
    'from',
  );
}

/**
 * Whether a live call of the tenant may show `from`: its voice number, or its verified caller ID, of the
 * Twilio account its telephony runs in now (see the module's comment).
 */
export async function ownsCallerNumber(tenant: Tenant, from: string): Promise<boolean> {
  const inUse = tenant.livemode ? await accountInUse(tenant.orgId) : null;
  if (await isOwnVoiceNumber(tenant, from, inUse)) return true;
  const caller = await CallerId.findOne({ org_id: tenant.orgId, livemode: tenant.livemode, phone_number: from }).lean();
  if (!caller) return false;
  const fresh = await refreshCallerId(caller);
  // The refresh may have moved it into the account in use (and created the subaccount on first use).
  return (
    fresh.status === 'verified' && inAccountInUse(fresh, tenant.livemode ? await accountInUse(tenant.orgId) : null)
  );
}

/**
 * The number a call without `from` is placed from: the agent's (the oldest voice number answered by
 * `agentId`), else the organization's oldest voice number, of those the account in use holds; null when
 * it has none.
 */
export async function defaultFrom(tenant: Tenant, agentId: string | null): Promise<string | null> {
  const numbers = await PhoneNumber.find({ org_id: tenant.orgId, livemode: tenant.livemode }).sort({ _id: 1 }).lean();
  const inUse = tenant.livemode ? await accountInUse(tenant.orgId) : null;
  const voice = numbers.filter((n) => !n.pending && (n.channels ?? []).includes('voice') && numberInAccount(n, inUse));
  return (voice.find((n) => agentId && n.agent_id === agentId) ?? voice[0])?.number ?? null;
}

/**
 * Starts verifying `phoneNumber` as a caller ID of the tenant (`POST /v1/caller_ids`) and stores it as
 * `id`: live, verified at once when the account already lists it, else `pending` with the code Twilio's
 * verification call asks for (ValidationRequests create); asked again for a number still pending (a new
 * call, a new code). Test mode: verified at once, a made-up code.
 * @throws ApiError 409 `caller_id_exists` (already verified); TwilioRefusedError 400
 *   `caller_id_verification_failed` naming `phone_number` with Twilio's code and message
 */
export async function startVerification(
  tenant: Tenant,
  id: string,
  input: { phone_number: string; friendly_name?: string },
): Promise<WithId<CallerIdDoc>> {
  const existing = await CallerId.findOne({
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    phone_number: input.phone_number,
  }).lean();
  const fresh = existing ? await refreshCallerId(existing) : null;
  const inUse = tenant.livemode ? await accountInUse(tenant.orgId) : null;
  if (fresh && fresh.status === 'verified' && inAccountInUse(fresh, inUse))
    throw new ApiError(
      409,
      'invalid_request_error',
      'caller_id_exists',
      `${input.phone_number} is already a verified caller ID (${fresh._id}).`,
      'phone_number',
    );
  const fields = tenant.livemode
    ? await liveVerification(tenant, input)
    : {
        status: 'verified',
        validation_code: String(crypto.randomInt(100000, 1000000)),
        call: null,
        sid: null,
        accountSid: null,
      };
  const set = {
    status: fields.status,
    validation_code: fields.validation_code,
    validation_call_sid: fields.call,
    twilio_sid: fields.sid,
    account_sid: fields.accountSid,
    friendly_name: input.friendly_name ?? existing?.friendly_name ?? null,
  };
  if (existing) {
    const updated = await CallerId.findOneAndUpdate({ _id: existing._id }, { $set: set }, { returnDocument: 'after' });
    return (updated?.toObject() as WithId<CallerIdDoc>) ?? existing;
  }
  const doc = {
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    phone_number: input.phone_number,
    ...set,
    created: Math.floor(idTime(id) / 1000),
  };
  try {
    await CallerId.collection.insertOne(doc as never);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const raced = await CallerId.findOne({
      org_id: tenant.orgId,
      livemode: tenant.livemode,
      phone_number: input.phone_number,
    }).lean();
    if (raced) return raced;
    throw err;
  }
  return doc as WithId<CallerIdDoc>;
}

/** The live part of `startVerification`: the account's list first, then Twilio's verification call. */
async function liveVerification(
  tenant: Tenant,
  input: { phone_number: string; friendly_name?: string },
): Promise<{
  status: 'pending' | 'verified';
  validation_code: string | null;
  call: string | null;
  sid: string | null;
  accountSid: string;
}> {
  const { client, accountSid } = await orgTelephony(tenant.orgId);
  const sid = await findOutgoingCallerId(client, input.phone_number);
  if (sid) return { status: 'verified', validation_code: null, call: null, sid, accountSid };
  try {
    const v = await requestValidation(client, input.phone_number, input.friendly_name ?? null);
    return { status: 'pending', validation_code: v.validationCode, call: v.callSid, sid: null, accountSid };
  } catch (err) {
    const refusal = twilioRefusal(err);
    if (!refusal) throw err;
    throw new TwilioRefusedError(
      400,
      'caller_id_verification_failed',
      `Twilio refused to verify ${input.phone_number}${refusal.code ? ` (error ${refusal.code})` : ''}: ${refusal.message}`,
      'phone_number',
      refusal.code,
      refusal.message,
    );
  }
}

/**
 * Deletes caller ID `id` of the tenant (`DELETE /v1/caller_ids/{id}`): a verified live one of the account
 * in use is removed from that account's OutgoingCallerIds first (its calls can no longer show it); one of
 * another account is only forgotten. Answers false when unknown.
 */
export async function deleteCallerId(tenant: Tenant, id: string): Promise<boolean> {
  const filter = { _id: id, org_id: tenant.orgId, livemode: tenant.livemode };
  const doc = await CallerId.findOne(filter).lean();
  if (!doc) return false;
  // Removed at Twilio only from the account in use: one of another account (an own account since
  // disconnected, or the subaccount while an own account is connected) is no longer the service's to change.
  if (doc.livemode && doc.twilio_sid && inAccountInUse(doc, await accountInUse(doc.org_id))) {
    const { client } = await orgTelephony(doc.org_id);
    await removeOutgoingCallerId(client, doc.twilio_sid);
  }
  return (await CallerId.deleteOne(filter)).deletedCount > 0;
}
