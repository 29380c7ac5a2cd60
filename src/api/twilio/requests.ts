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
import type { CallDoc } from '../../models/calls';
import type { WithId } from '../../models/store';
import { ApiError } from '../../errors';
import type { TransferProgress } from '../../shared/calls';

/** The public URL Twilio used for a request to `path` (its signature covers it); `ws` for the relay's wss URL. */
export function publicUrl(path: string, ws = false): string {
  const base = config().publicBaseUrl;
  return (ws ? base.replace(/^http/, 'ws') : base) + path;
}

/** True when `signature` is Twilio's for `url` and `params` (false without an auth token configured). */
export function signatureValid(signature: string | undefined, url: string, params: Record<string, unknown>): boolean {
  const token = config().twilioAuthToken;
  return Boolean(token && signature && twilio.validateRequest(token, signature, url, params));
}

/** The call statuses in which Twilio may connect the call to the assistant. */
export const LIVE_STATUSES: readonly string[] = ['ringing', 'in_progress'];

/**
 * The form parser and signature check of every callback under `/twilio` (mounted there by src/api/app.ts,
 * before the call and messaging callbacks): 403 `twilio_signature_invalid` for a request whose
 * signature does not verify, which then changes nothing.
 */
export const twilioCallbackGuard: RequestHandler[] = [
  express.urlencoded({ extended: false, limit: '64kb' }),
  (req, _res, next) => {
    if (!signatureValid(req.get('X-Twilio-Signature'), publicUrl(req.originalUrl), req.body ?? {})) {
      return next(
        new ApiError(
          403,
          'permission_error',
          'twilio_signature_invalid',
          'The X-Twilio-Signature header does not verify.',
        ),
      );
    }
    next();
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
