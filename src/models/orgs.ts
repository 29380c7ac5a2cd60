/**
 * Organizations and API keys (DESIGN.md section 5). Written by `svcctl` and `npm start`'s seed
 * (src/keys.ts); read by authentication. Keys are stored as SHA-256 hashes, never in clear.
 * An organization carries its concurrency limit per mode (read and written through
 * src/services/limits.ts), its retention and redaction per mode (src/services/privacy.ts) and is shown to itself as the `account` object (`GET /v1/account`).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { DEFAULT_CALLS_PER_SECOND } from '../shared/dial-pace';
import { RETENTION_DAYS_RANGE, RETENTION_KINDS, type PrivacySettings } from '../shared/privacy';
import { schemaOptions as base } from './store';
import { apiObject } from './wire';
import { DialingPermissionsObject } from './dialing';

/** One mode's retention: a days field per kind of src/shared/privacy.ts `RETENTION_KINDS`, null by default. */
function retentionPaths() {
  return Object.fromEntries(RETENTION_KINDS.map((k) => [`${k}_days`, { type: Number, default: null }]));
}

const orgSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    demo: { type: Boolean, default: false },
    created: { type: Number, required: true },
    /**
     * At most this many live-mode calls at once, whatever their direction or channel;
     * null: the default (src/services/limits.ts `DEFAULT_MAX_CONCURRENT_CALLS`). Set by `svcctl limits set`.
     */
    max_concurrent_calls_live: { type: Number, default: null },
    /** The same for test-mode calls. */
    max_concurrent_calls_test: { type: Number, default: null },
    /**
     * New live calls per second the organization's Twilio account admits (its CPS), the pace of its
     * dials (src/services/dial-pace.ts); null: Twilio's default, 1. Set by `svcctl pace set`.
     */
    calls_per_second: { type: Number, default: null },
    /**
     * Days each kind of the live mode's data is kept (`POST /v1/account`, and
     * `svcctl recordings set-retention` for `recordings_days` in both modes); null: for ever. Read through
     * src/services/privacy.ts.
     */
    retention_live: retentionPaths(),
    /** The same for test-mode data. */
    retention_test: retentionPaths(),
    /** PII redaction before storage in live mode, off by default. */
    redaction_live: { enabled: { type: Boolean, default: false } },
    /** The same in test mode. */
    redaction_test: { enabled: { type: Boolean, default: false } },
    /**
     * The Twilio Pay Connector card payments go through in live mode (`POST /v1/account`
     * `payments.connector`, src/services/payments.ts); null: no payments (`collect_payment` not offered).
     */
    payments_live: { connector: { type: String, default: null } },
    /** The same in test mode (simulated payments, no Twilio). */
    payments_test: { connector: { type: String, default: null } },
    /**
     * Whether live calls open with the AI disclosure (src/services/ai-disclosure.ts); null: on, the default.
     * Set by `POST /v1/account` `ai_disclosure`.
     */
    ai_disclosure_live: { type: Boolean, default: null },
    /** The same for test-mode calls. */
    ai_disclosure_test: { type: Boolean, default: null },
    /**
     * The organization's own daily caps (src/services/quotas.ts), set by `svcctl quotas set`; null: the
     * operator's default (`QUOTA_*_PER_DAY`).
     */
    quotas: {
      llm_tokens_per_day: { type: Number, default: null },
      test_suite_runs_per_day: { type: Number, default: null },
      analysis_reruns_per_day: { type: Number, default: null },
    },
    /**
     * The organization's calling hours, `{start, end}` local `HH:MM` JSON (`POST /v1/account`
     * `calling_hours`, both modes): narrows the country defaults of src/services/calling-hours.ts; null: none.
     */
    calling_hours_json: { type: String, default: null },
    /**
     * The organization's own dialing permissions (`POST /v1/account` `dialing_permissions`, both modes),
     * JSON `{allowed_countries: string[] | null, sip_domains: string[]}`; null: the defaults
     * (src/services/dialing-permissions.ts).
     */
    dialing_permissions_json: { type: String, default: null },
    /**
     * The high-cost number types the operator lets it dial (src/shared/dialing.ts `HIGH_COST_NUMBER_TYPES`),
     * set by `svcctl dialing allow-number-types`; empty: none.
     */
    allowed_number_types: { type: [String], default: [] },
    /** True once a retention was set in either mode (never unset): the retention sweeps' organizations. */
    retention_set: { type: Boolean, default: false },
  },
  base,
);
/** The retention sweeps (src/services/privacy.ts `retentionTenants`): organizations with a retention. */
orgSchema.index({ retention_set: 1 });
/** The demo organization of `npm start` (src/dev/seed.ts): one row at most has `demo: true`. */
orgSchema.index({ demo: 1 });
export const Org = mongoose.model('Org', orgSchema, 'orgs');

const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    kind: { type: String, enum: ['secret', 'restricted', 'publishable'], required: true },
    scopes: { type: [String], default: [] },
    /** sha256 hex of the full key; the key itself is never stored. */
    hash: { type: String, required: true, unique: true },
    /** The key's prefix and last four characters, for display (`svc_sk_test_…a1b2`). */
    redacted: { type: String, required: true },
    name: { type: String },
    created: { type: Number, required: true },
    revoked: { type: Number, default: null },
  },
  base,
);
/** An organization's keys, newest first (`svcctl keys list`, src/keys.ts). */
apiKeySchema.index({ org_id: 1, _id: -1 });
export const ApiKey = mongoose.model('ApiKey', apiKeySchema, 'api_keys');

export type OrgDoc = InferSchemaType<typeof orgSchema>;
export type ApiKeyDoc = InferSchemaType<typeof apiKeySchema>;

/** One daily quota of the account: its cap and what the day used. */
function quotaObject(what: string) {
  return z
    .object({
      limit: z.number().int().nullable().describe('The cap per UTC day; null: none.'),
      used: z.number().int().describe('Used today (UTC).'),
    })
    .describe(`${what} per UTC day.`);
}

/** The `account` object as the API answers it (the OpenAPI component `Account`). */
export const AccountObject = apiObject(
  'Account',
  "The key's organization as it sees itself in the key's mode: its name and limits.",
  z.object({
    /** The organization's id (`org_…`). */
    id: z.string(),
    object: z.literal('account'),
    name: z.string(),
    livemode: z.boolean(),
    mode: z.enum(['test', 'live']),
    limits: z.object({
      max_concurrent_calls: z
        .number()
        .int()
        .describe(
          "At most this many of the mode's calls are live at once (outbound, inbound, widget voice); an outbound call past it waits `queued`.",
        ),
      calls_per_second: z
        .number()
        .int()
        .describe(
          "New live calls per second the organization's Twilio account admits (Twilio's CPS, 1 by default; set by the operator): every live dial (API calls, campaigns, callbacks, scheduled calls, warm-transfer legs) waits its turn, so none goes faster.",
        ),
    }),
    quotas: z
      .object({
        llm_tokens_per_day: quotaObject('LLM tokens (prompt and completion) of calls, conversations and analyses'),
        test_suite_runs_per_day: quotaObject('Test-suite runs (`POST /v1/test_suites/{id}/runs`)'),
        analysis_reruns_per_day: quotaObject(
          'Analyses asked for (`POST /v1/calls/{id}/analyze`, `POST /v1/conversations/{id}/analyze`)',
        ),
        resets_at: z
          .number()
          .int()
          .describe('When the day ends and every quota starts again (00:00 UTC), unix seconds.'),
      })
      .describe(
        "The organization's daily caps, both modes together, set by the operator (`svcctl quotas set`). New work past a cap is refused with 429 `quota_exceeded` naming it; work already running goes on.",
      ),
    retention: z
      .object(
        Object.fromEntries(
          RETENTION_KINDS.map((k) => [
            `${k}_days`,
            z
              .number()
              .int()
              .min(RETENTION_DAYS_RANGE.min)
              .max(RETENTION_DAYS_RANGE.max)
              .nullable()
              .describe(`Days the mode's ${k} are kept from their creation; null: for ever.`),
          ]),
        ) as Record<`${(typeof RETENTION_KINDS)[number]}_days`, z.ZodNullable<z.ZodNumber>>,
      )
      .describe('How long each kind of data is kept; an hourly sweep deletes what is older.'),
    redaction: z
      .object({ enabled: z.boolean().describe('Personal data is replaced by typed placeholders before storage.') })
      .describe('PII redaction before storage, off by default (card numbers are redacted whatever the setting).'),
    payments: z
      .object({
        connector: z
          .string()
          .nullable()
          .describe(
            'The unique name of the Twilio Pay Connector calls take card payments with (`collect_payment`); null: payments are not set up.',
          ),
      })
      .describe(
        'Card payments on calls through Twilio `<Pay>`: the card is keyed in by the caller, never heard by the assistant.',
      ),
    ai_disclosure: z
      .boolean()
      .describe(
        "Every call's first sentence says the caller is speaking with an automated assistant, in the agent's language (EU AI Act art. 50). On by default.",
      ),
    calling_hours: z
      .object({ start: z.string(), end: z.string() })
      .nullable()
      .describe(
        "The organization's calling hours (local `HH:MM` at the callee, both modes): they narrow the country defaults (US/CA 08:00-21:00, GB 08:00-21:00 weekdays and 09:00-21:00 weekends, others 09:00-20:00), never widen them. Null: the defaults.",
      ),
    dialing_permissions: DialingPermissionsObject,
  }),
);

/**
 * The `account` object of `org` in one mode.
 * @param maxConcurrentCalls the mode's limit with its default applied (src/services/limits.ts)
 * @param quotas the daily quotas with today's use (src/services/quotas.ts `quotasOf`)
 * @param paymentConnector the mode's payment connector (src/services/payments.ts), or null
 */
export function renderAccount(
  org: Pick<OrgDoc, 'name'> & { _id: string; calling_hours_json?: string | null; calls_per_second?: number | null },
  livemode: boolean,
  maxConcurrentCalls: number,
  privacy: PrivacySettings,
  quotas: z.output<typeof AccountObject>['quotas'],
  paymentConnector: string | null,
  aiDisclosure: boolean,
  dialingPermissions: z.output<typeof DialingPermissionsObject>,
): z.output<typeof AccountObject> {
  return {
    id: org._id,
    object: 'account' as const,
    name: org.name,
    livemode,
    mode: livemode ? 'live' : 'test',
    limits: {
      max_concurrent_calls: maxConcurrentCalls,
      calls_per_second: org.calls_per_second ?? DEFAULT_CALLS_PER_SECOND,
    },
    quotas,
    retention: privacy.retention,
    redaction: privacy.redaction,
    payments: { connector: paymentConnector },
    ai_disclosure: aiDisclosure,
    calling_hours: org.calling_hours_json ? JSON.parse(org.calling_hours_json) : null,
    dialing_permissions: dialingPermissions,
  };
}
