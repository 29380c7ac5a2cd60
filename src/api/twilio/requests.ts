/**
 * What every Twilio-facing entry point shares (the callbacks under `/twilio`, src/api/twilio/index.ts and
 * src/api/twilio/messaging.ts, and the ConversationRelay socket, src/api/twilio/relay.ts): the public URL
 * Twilio signed, the signature check (`X-Twilio-Signature`, HMAC-SHA1 of the full URL and the POST
 * parameters with the auth token, checked by `twilio.validateRequest`;
 * https://www.twilio.com/docs/usage/webhooks/webhooks-security), and the failed warm transfer a comeback
 * names. Helpers only: no route is declared here, so the routers that use them import no router.
 */
import express, { type RequestHandler } from 'express';
import twilio from 'twilio';
import { config } from '../../config';
import { Call, type CallDoc } from '../../models/calls';
import { Message, numberRouteKey, PhoneNumber } from '../../models/conversations';
import { accountInUse, webhookAccount } from '../../services/telephony-accounts';
import type { WithId } from '../../models/store';
import { ApiError } from '../../errors';
import type { TransferProgress } from '../../shared/calls';
import { numberOfSipTo } from '../../shared/sip-trunks';

/** The public URL Twilio used for a request to `path` (its signature covers it); `ws` for the relay's wss URL. */
export function publicUrl(path: string, ws = false): string {
  const base = config().publicBaseUrl;
  return (ws ? base.replace(/^http/, 'ws') : base) + path;
}

/** True when `signature` is Twilio's for `url` and `params` under `authToken`. */
function signedWith(authToken: string, signature: string | undefined, url: string, params: Record<string, unknown>) {
  return Boolean(signature && twilio.validateRequest(authToken, signature, url, params));
}

/**
 * The organization a request of Twilio's is about, from what it names: the number called or written to
 * (`/voice/inbound`, `/messaging`: `To`), the call (a `{call id}` in the path, or `CallSid` for
 * `/status/inbound`), the message (`/messaging/status/{message id}`, or `MessageSid`). Null when it
 * names nothing stored (the route then ignores it, or answers that the number takes no calls).
 */
async function requestOwner(path: string, body: Record<string, string>): Promise<string | null> {
  if (path === '/voice/inbound' || path === '/messaging') {
    // A call arriving through a BYOC trunk may name its number as a SIP URI (`sip:+1…@…`): its E.164 user part.
    const to = numberOfSipTo(String(body.To ?? '').replace(/^whatsapp:/, ''));
    return (
      (await PhoneNumber.findOne({ route_key: numberRouteKey('', true, to) }, { org_id: 1 }).lean())?.org_id ?? null
    );
  }
  if (path === '/status/inbound')
    return (
      (await Call.findOne({ provider_call_sid: String(body.CallSid ?? '') }, { org_id: 1 }).lean())?.org_id ?? null
    );
  const message = /^\/messaging\/status(?:\/([^/]+))?$/.exec(path);
  if (message) {
    const row = await (
      message[1]
        ? Message.findById(message[1], { org_id: 1 })
        : Message.findOne({ provider_sid: String(body.MessageSid ?? '') }, { org_id: 1 })
    ).lean();
    return row?.org_id ?? null;
  }
  const call = /^\/(?:voice|status|amd|transfer|recording|pay)\/([^/]+)/.exec(path);
  if (call) return (await Call.findById(call[1], { org_id: 1 }).lean())?.org_id ?? null;
  return null;
}

/** Whether live number `row` lives in the platform's account `platformSid` (see `checkTwilioRequest`). */
function numberInPlatform(row: { account_sid?: string | null; source?: string | null }, platformSid: string): boolean {
  if (row.account_sid) return row.account_sid === platformSid;
  // A trunk's BYOC resources are made in the organization's own account, like bought and imported numbers.
  return row.source !== 'bought' && row.source !== 'imported' && row.source !== 'sip_trunk';
}

/** Whether a call (`provider_account_sid`) lives in the platform's account `platformSid`. */
const callInPlatform = (call: { provider_account_sid?: string | null }, platformSid: string): boolean =>
  !call.provider_account_sid || call.provider_account_sid === platformSid;

/** Whether the live number `number` (E.164; `whatsapp:` taken off, a SIP URI read as its user part) lives in the platform's account; null when unknown. */
async function liveNumberInPlatform(number: string, platformSid: string): Promise<boolean | null> {
  const row = await PhoneNumber.findOne(
    { route_key: numberRouteKey('', true, numberOfSipTo(number.replace(/^whatsapp:/, ''))) },
    { account_sid: 1, source: 1 },
  ).lean();
  return row ? numberInPlatform(row, platformSid) : null;
}

/**
 * Whether what a request of the platform's account (`platformSid`) names lives in the platform's account
 * (the rules of `checkTwilioRequest`); true when it names nothing stored.
 */
async function platformHolds(path: string, body: Record<string, string>, platformSid: string): Promise<boolean> {
  if (path === '/voice/inbound' || path === '/messaging')
    return (await liveNumberInPlatform(String(body.To ?? ''), platformSid)) ?? true;
  const message = /^\/messaging\/status(?:\/([^/]+))?$/.exec(path);
  if (message) {
    const fields = { org_id: 1, direction: 1, from: 1, to: 1 };
    const row = await (
      message[1]
        ? Message.findById(message[1], fields)
        : Message.findOne({ provider_sid: String(body.MessageSid ?? '') }, fields)
    ).lean();
    if (!row) return true;
    const known = await liveNumberInPlatform(String(row.direction === 'inbound' ? row.to : row.from), platformSid);
    return known ?? (await accountInUse(row.org_id)) === null;
  }
  const callPath = /^\/(?:voice|status|amd|transfer|recording|pay)\/([^/]+)/.exec(path);
  const call =
    path === '/status/inbound'
      ? await Call.findOne({ provider_call_sid: String(body.CallSid ?? '') }, { provider_account_sid: 1 }).lean()
      : callPath && callPath[1] !== 'inbound'
        ? await Call.findById(callPath[1], { provider_account_sid: 1 }).lean()
        : null;
  return call ? callInPlatform(call, platformSid) : true;
}

/**
 * Checks a request of Twilio's: its `X-Twilio-Signature` (HMAC-SHA1 of the full URL and the POST
 * parameters) must verify under the auth token of the account its `AccountSid` names — the platform's
 * (also when no `AccountSid` comes), an organization's subaccount or its connected own account
 * (src/services/telephony-accounts.ts `webhookAccount`); Twilio signs each account's webhooks with that
 * account's own auth token (https://www.twilio.com/docs/usage/webhooks/webhooks-security). Then the
 * account must be the one that holds what the request speaks of (`requestOwner`):
 * - an organization's account speaks only of that organization's numbers, calls and messages;
 * - the platform's account speaks only of what lives in the platform's account itself
 *   (`platformHolds`), never of what lives in an organization's subaccount or connected account, since
 *   Twilio signs a subaccount's webhooks with the subaccount's token, not the parent's. What lives there
 *   is decided from what is stored: a call whose `provider_account_sid` is the platform's or null (placed
 *   or received before organizations had accounts, or not placed yet); a number recorded in the
 *   platform's account, or, unrecorded, one stored before numbers needed proof (`source` `connected` or
 *   null) or simulated; a message whose service number (`from` of an outbound message, `to` of an
 *   inbound one) is such a number, or, that number gone, a message of an organization that has no
 *   account of its own yet. A request that names nothing stored is left to the route (it ignores it).
 * @throws ApiError 403 `twilio_signature_invalid` (an unknown account, or a signature that does not
 *   verify) or `twilio_account_mismatch` (another organization's account, or the platform's speaking of
 *   what an organization's account holds)
 */
export async function checkTwilioRequest(
  signature: string | undefined,
  url: string,
  path: string,
  body: Record<string, string>,
): Promise<void> {
  const account = await webhookAccount(typeof body.AccountSid === 'string' ? body.AccountSid : undefined);
  if (!account || !signedWith(account.authToken, signature, url, body))
    throw new ApiError(
      403,
      'permission_error',
      'twilio_signature_invalid',
      'The X-Twilio-Signature header does not verify.',
    );
  const mismatch =
    account.orgId === null
      ? !(await platformHolds(path, body, account.accountSid))
      : await requestOwner(path, body).then((owner) => owner !== null && owner !== account.orgId);
  if (mismatch)
    throw new ApiError(
      403,
      'permission_error',
      'twilio_account_mismatch',
      'The request comes from a Twilio account that does not hold this number, call or message.',
    );
}

/**
 * True when `signature` verifies the ConversationRelay handshake `url` of live call `call` (no
 * parameters) under the auth token of the account the call is in: its `provider_account_sid` (an
 * organization's subaccount or connected account, held by the call's organization), or the platform's
 * only for a call that lives in the platform's account (`provider_account_sid` the platform's or null;
 * see `checkTwilioRequest`).
 */
export async function relaySignatureValid(
  signature: string | undefined,
  url: string,
  call: { org_id: string; provider_account_sid?: string | null },
): Promise<boolean> {
  const platform = await webhookAccount(undefined);
  if (platform && callInPlatform(call, platform.accountSid) && signedWith(platform.authToken, signature, url, {}))
    return true;
  const own = call.provider_account_sid ? await webhookAccount(call.provider_account_sid) : null;
  return Boolean(own && own.orgId === call.org_id && signedWith(own.authToken, signature, url, {}));
}

/** The call statuses in which Twilio may connect the call to the assistant. */
export const LIVE_STATUSES: readonly string[] = ['ringing', 'in_progress'];

/**
 * The form parser and the request check of every callback under `/twilio` (mounted there by
 * src/api/app.ts, before the call and messaging callbacks; `checkTwilioRequest`): 403
 * `twilio_signature_invalid` or `twilio_account_mismatch`, and the request then changes nothing.
 */
export const twilioCallbackGuard: RequestHandler[] = [
  express.urlencoded({ extended: false, limit: '64kb' }),
  (req, _res, next) => {
    checkTwilioRequest(
      req.get('X-Twilio-Signature'),
      publicUrl(req.originalUrl),
      req.path,
      (req.body ?? {}) as Record<string, string>,
    ).then(() => next(), next);
  },
];

/**
 * The failed warm transfer a `resume` value names: the call's latest transfer, when it is warm, `failed`
 * and has that `attempt`; null otherwise (a stale or forged comeback).
 */
export function failedTransfer(call: WithId<CallDoc> | null, resume: string): TransferProgress | null {
  const transfer = JSON.parse(call?.transfer_json ?? 'null') as TransferProgress | null;
  return transfer?.mode === 'warm' && transfer.status === 'failed' && String(transfer.attempt) === resume
    ? transfer
    : null;
}
