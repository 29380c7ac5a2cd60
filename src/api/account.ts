/**
 * The account: `GET /v1/account` shows the key's organization
 * to itself in the key's mode — its id, name, mode, limits (`max_concurrent_calls`, set by the operator
 * with `svcctl limits set`; `calls_per_second`, the pace of its live dials, read-only, set by the operator
 * with `svcctl pace set`: src/services/dial-pace.ts), daily quotas (src/services/quotas.ts: LLM tokens, test-suite runs, analysis
 * re-runs, with today's use and the next reset at 00:00 UTC; set by the operator with `svcctl quotas
 * set`), retention, redaction and the AI disclosure (src/services/ai-disclosure.ts). Any secret or restricted key may read it (scope
 * `account:read`, which every restricted key holds: src/keys.ts `IMPLIED_SCOPES`); a publishable key is
 * 403 as everywhere but the widget. `POST /v1/account` sets the mode's retention, redaction and `ai_disclosure`: scope
 * `account:write`, which only secret keys hold (it is not a scope a restricted key can be given).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { notFound } from '../errors';
import { AccountObject } from '../models/orgs';
import { retrieveAccount } from '../services/limits';
import { PAYMENT_CONNECTOR_PATTERN, setPaymentConnector } from '../services/payments';
import { setPrivacySettings } from '../services/privacy';
import { setAiDisclosure } from '../services/ai-disclosure';
import { setOrgCallingHours } from '../services/dial-gate';
import { setDialingPermissions } from '../services/dialing-permissions';
import { dialingPermissionsSchema } from './dialing';
import { RETENTION_DAYS_RANGE, RETENTION_KINDS, type RetentionSettings } from '../shared/privacy';
import { idempotent } from './idempotency';
import { operation, operationsRouter } from './operations';

/** A retention's days: an integer 1–3,650, or null to keep for ever. */
const days = z
  .number()
  .int('must be an integer (days)')
  .min(RETENTION_DAYS_RANGE.min, `must be at least ${RETENTION_DAYS_RANGE.min} (or null to keep for ever)`)
  .max(RETENTION_DAYS_RANGE.max, `must be at most ${RETENTION_DAYS_RANGE.max}`)
  .nullable()
  .optional();

/**
 * `POST /v1/account` body: `retention` (any of the days fields), `redaction.enabled` and
 * `payments.connector` (a Twilio Pay Connector's unique name, or null to turn payments off); each optional.
 */
export const updateAccountSchema = z.strictObject({
  retention: z
    .strictObject(
      Object.fromEntries(RETENTION_KINDS.map((k) => [`${k}_days`, days])) as Record<
        keyof RetentionSettings,
        typeof days
      >,
    )
    .optional(),
  redaction: z.strictObject({ enabled: z.boolean().optional() }).optional(),
  payments: z
    .strictObject({
      connector: z
        .string()
        .regex(PAYMENT_CONNECTOR_PATTERN, 'must be a Twilio Pay Connector unique name (letters, digits, _ and -, 1-64)')
        .nullable(),
    })
    .optional(),
  ai_disclosure: z
    .boolean()
    .optional()
    .describe(
      "false: calls no longer open by saying they are an automated assistant (the mode's calls created from then on).",
    ),
  /** Local `HH:MM` start and end at the callee; null clears (src/services/calling-hours.ts: only narrows). */
  calling_hours: z
    .strictObject({
      start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)'),
      end: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be HH:MM (24-hour, 24:00 allowed)'),
    })
    .refine((w) => w.start < w.end, 'start must be before end')
    .nullable()
    .optional(),
  dialing_permissions: dialingPermissionsSchema.optional(),
});

/**
 * `GET /v1/account` → the `account` object of the key's organization and mode.
 * Errors: 401 without a valid key; 403 `scope_missing` for a publishable key; 404 `resource_missing` when
 * the organization no longer exists; 400 `parameter_unknown` for any query parameter.
 */
const retrieveAccountOperation = operation({
  method: 'get',
  path: '/v1/account',
  operationId: 'retrieveAccount',
  tag: 'Account',
  summary: 'Retrieve the account',
  description:
    "The key's organization in the key's mode: id, name, mode, limits, daily quotas (cap, today's use, reset time; both modes together), retention and redaction. Every secret or restricted key may read it.",
  scope: 'account:read',
  response: AccountObject,
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    const account = await retrieveAccount({ orgId, livemode });
    if (!account) throw notFound('organization', orgId);
    res.json(account);
  },
});

/**
 * `POST /v1/account` body `{retention?: {transcripts_days?, messages_days?, recordings_days?,
 * analyses_days?, events_days?}, redaction?: {enabled?}, payments?: {connector}, ai_disclosure?: boolean,
 * calling_hours?, dialing_permissions?: {allowed_countries?: [ISO 3166-1 alpha-2…] | null, sip_domains?: [host…]}}`
 * (src/api/dialing.ts) → the `account` object after the change, in the
 * key's mode. Fields not given are unchanged; a days value of null keeps that
 * kind for ever. Takes an `Idempotency-Key` like every POST (a retry answers the first response).
 * Errors: 400 `parameter_invalid` naming e.g. `retention.transcripts_days` for days outside 1–3,650 or not
 * an integer, or `dialing_permissions.allowed_countries.1` for a code that is no country, nothing written; 400 `parameter_unknown` for another field; 403 `scope_missing` for a
 * restricted or publishable key; 404 when the organization no longer exists.
 */
const updateAccountOperation = operation({
  method: 'post',
  path: '/v1/account',
  operationId: 'updateAccount',
  tag: 'Account',
  summary: 'Update the account',
  description:
    "Sets the key's mode's retention (days to keep transcripts, messages, recordings, analyses and events; null keeps for ever; an hourly schedule deletes what is older, leaving calls and conversations as skeletons), PII redaction before storage, the Twilio Pay Connector card payments go through (`payments.connector`), the AI disclosure calls open with (`ai_disclosure`, on by default), the organization's calling hours (they only narrow the country defaults) and its dialing permissions (`dialing_permissions`: the countries and SIP domains its calls and transfers may reach, both modes). Secret keys only.",
  scope: 'account:write',
  body: updateAccountSchema,
  example: {
    retention: { transcripts_days: 30, recordings_days: 7, events_days: null },
    redaction: { enabled: true },
    payments: { connector: 'stripe_connector' },
  },
  response: AccountObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    if (!(await retrieveAccount({ orgId, livemode }))) throw notFound('organization', orgId);
    await idempotent(req, res, 'acct', async () => {
      const {
        payments,
        ai_disclosure: aiDisclosure,
        calling_hours: callingHours,
        dialing_permissions: dialing,
        ...privacy
      } = body;
      await setPrivacySettings({ orgId, livemode }, privacy);
      if (payments) await setPaymentConnector({ orgId, livemode }, payments.connector);
      if (aiDisclosure !== undefined) await setAiDisclosure({ orgId, livemode }, aiDisclosure);
      if (callingHours !== undefined) await setOrgCallingHours(orgId, callingHours);
      if (dialing) await setDialingPermissions(orgId, dialing);
      return { status: 200, body: await retrieveAccount({ orgId, livemode }) };
    });
  },
});

/** Routes under `/v1/account` (mounted there by src/api/app.ts). */
export function accountRouter(): Router {
  return operationsRouter('/v1/account', [retrieveAccountOperation, updateAccountOperation]);
}
