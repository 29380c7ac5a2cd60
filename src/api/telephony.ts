/**
 * The organization's Twilio account (src/services/telephony-accounts.ts): `GET /v1/telephony/connection`
 * shows which account its live telephony runs in (its subaccount of the platform's account, the default,
 * or its own connected account), `POST` connects its own account with an API key, `DELETE` goes back to
 * the subaccount. Scopes as `/v1/account` (src/api/account.ts): reading is `account:read` (every secret or
 * restricted key), changing is `account:write` (secret keys only). Live keys only: test mode simulates
 * telephony and has no Twilio account (403 `live_mode_only` for a test key).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { ApiError } from '../errors';
import { TelephonyConnectionObject } from '../models/telephony-accounts';
import {
  connectOwnAccount,
  ConnectionRefused,
  disconnectOwnAccount,
  telephonyConnection,
} from '../services/telephony-accounts';
import { idempotent } from './idempotency';
import { operation, operationsRouter } from './operations';

const tag = 'Account';

/** 403 `live_mode_only` for a test key (before its body is read): test mode has no Twilio account. */
function refuseTestKey(livemode: boolean): void {
  if (!livemode)
    throw new ApiError(
      403,
      'permission_error',
      'live_mode_only',
      'Test mode simulates telephony and has no Twilio account; use a live key.',
    );
}

/**
 * `POST /v1/telephony/connection` body: the organization's own Twilio account and an API key of it
 * (https://www.twilio.com/docs/iam/api-keys), and the account's auth token, used only to verify the
 * signatures of its webhooks (Twilio signs them with the account's auth token, which no API key can stand
 * in for: https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 */
export const connectTelephonySchema = z.strictObject({
  account_sid: z.string().regex(/^AC[0-9a-f]{32}$/, 'must be a Twilio account SID (AC followed by 32 hex digits)'),
  api_key_sid: z.string().regex(/^SK[0-9a-f]{32}$/, 'must be a Twilio API key SID (SK followed by 32 hex digits)'),
  api_key_secret: z.string().min(1).max(256),
  auth_token: z
    .string()
    .regex(/^[0-9a-f]{32}$/, "must be the account's auth token (32 hex digits)")
    .describe("The account's auth token: only to verify the X-Twilio-Signature of its webhooks; never returned."),
});

/** `GET /v1/telephony/connection` → the `telephony_connection` object. */
const retrieveConnection = operation({
  method: 'get',
  path: '/v1/telephony/connection',
  operationId: 'retrieveTelephonyConnection',
  tag,
  summary: 'Retrieve the telephony connection',
  description:
    "Which Twilio account the organization's live calls and messages run in: `subaccount` (the platform's subaccount of the organization, created on first live use) or `connected` (its own account). Never shows a secret.",
  scope: 'account:read',
  errors: { '403': ['live_mode_only'] },
  response: TelephonyConnectionObject,
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    refuseTestKey(livemode);
    res.json(await telephonyConnection(orgId));
  },
});

/**
 * `POST /v1/telephony/connection` `{account_sid, api_key_sid, api_key_secret, auth_token}` → the
 * `telephony_connection` object (`connected`). The credentials are verified by fetching the account with
 * the API key and with the auth token; the secrets are sealed at rest and never returned.
 * Errors: 400 `twilio_credentials_invalid` naming `api_key_secret` or `auth_token` when Twilio refuses
 * them (nothing stored); 400 `twilio_account_taken` for an account another organization uses (it does not
 * say which); 400 `parameter_invalid` for a malformed SID or token; 403 for a test or restricted key.
 */
const connect = operation({
  method: 'post',
  path: '/v1/telephony/connection',
  operationId: 'connectTelephonyAccount',
  tag,
  summary: 'Connect your own Twilio account',
  description:
    "From then on the organization's live calls and messages run in its own Twilio account, with the API key; the auth token only verifies its webhooks. Verified with Twilio first: 400 `twilio_credentials_invalid` and nothing stored when Twilio refuses. Secret keys only.",
  scope: 'account:write',
  errors: { '400': ['twilio_credentials_invalid', 'twilio_account_taken'], '403': ['live_mode_only'] },
  body: connectTelephonySchema,
  example: {
    account_sid: 'AC' + '0'.repeat(32),
    api_key_sid: 'SK' + '0'.repeat(32),
    api_key_secret: 'your API key secret',
    auth_token: '0'.repeat(32),
  },
  response: TelephonyConnectionObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    refuseTestKey(livemode);
    await idempotent(req, res, 'tconn', async () => {
      try {
        const connection = await connectOwnAccount(orgId, {
          accountSid: body.account_sid,
          apiKeySid: body.api_key_sid,
          apiKeySecret: body.api_key_secret,
          authToken: body.auth_token,
        });
        return { status: 200, body: connection };
      } catch (err) {
        if (!(err instanceof ConnectionRefused)) throw err;
        throw new ApiError(400, 'invalid_request_error', err.code, err.message, err.param);
      }
    });
  },
});

/** `DELETE /v1/telephony/connection` → the `telephony_connection` object (`subaccount`): back to the platform's subaccount. */
const disconnect = operation({
  method: 'delete',
  path: '/v1/telephony/connection',
  operationId: 'disconnectTelephonyAccount',
  tag,
  summary: 'Disconnect your own Twilio account',
  description:
    "The organization's live telephony runs in its subaccount of the platform's account again (created on next use); the connected account's secrets are erased. Calls in progress in the connected account can no longer be reached. Secret keys only.",
  scope: 'account:write',
  errors: { '403': ['live_mode_only'] },
  response: TelephonyConnectionObject,
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    refuseTestKey(livemode);
    res.json(await disconnectOwnAccount(orgId));
  },
});

/** Routes under `/v1/telephony` (mounted there by src/api/app.ts). */
export function telephonyRouter(): Router {
  return operationsRouter('/v1/telephony', [retrieveConnection, connect, disconnect]);
}
