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
import { webhookAccount } from '../../services/telephony-accounts';
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

/**
 * Checks a request of Twilio's: its `X-Twilio-Signature` (HMAC-SHA1 of the full URL and the POST
 * parameters) must verify under the auth token of the account its `AccountSid` names — the platform's
 * (also when no `AccountSid` comes), an organization's subaccount or its connected own account
 * (src/services/telephony-accounts.ts `webhookAccount`); Twilio signs each account's webhooks with that
 * account's own auth token (https://www.twilio.com/docs/usage/webhooks/webhooks-security). An
 * organization's account may only speak of that organization's numbers, calls and messages
 * (`requestOwner`); the platform's, the parent of every subaccount and where calls made before
 * organizations had accounts live, speaks of any.
 * @throws ApiError 403 `twilio_signature_invalid` (an unknown account, or a signature that does not
 *   verify) or `twilio_account_mismatch` (another organization's account)
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
  if (account.orgId === null) return;
  const owner = await requestOwner(path, body);
  if (owner !== null && owner !== account.orgId)
    throw new ApiError(
      403,
      'permission_error',
      'twilio_account_mismatch',
      'The request comes from a Twilio account that does not hold this number, call or message.',
    );
}

/**
 * True when `signature` verifies the ConversationRelay handshake `url` of live call `call` (no
 * parameters): under the auth token of the account the call is in (`provider_account_sid`), or the
 * platform's (see `checkTwilioRequest`).
 */
export async function relaySignatureValid(
  signature: string | undefined,
  url: string,
  call: { org_id: string; provider_account_sid?: string | null },
): Promise<boolean> {
  const platform = await webhookAccount(undefined);
  if (platform && signedWith(platform.authToken, signature, url, {})) return true;
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
