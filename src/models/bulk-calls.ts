/**
 * Bulk call campaigns (`bulk_…`, object `bulk_call`) and their per-contact results (object
 * `bulk_call_result`, rows keyed `<bulk id>:<index, 6 digits>`, so they sort in contact order).
 *
 * Who writes what (DESIGN.md section 3, one writer per document):
 * - The API inserts a campaign's result rows (`pending`, one per contact after duplicates were removed)
 *   and then its document, both insert-if-absent under the idempotency record's id, before and after
 *   starting the campaign's workflow; the workflow's first activity inserts the document too, so a crash
 *   between the two loses nothing.
 * - From then on only the campaign's own workflow writes them, through its activities
 *   (src/activities/bulk-calls.ts), one at a time: `status`, `counts` (a snapshot the workflow computes,
 *   not a counter) and `completed_ms` on the campaign; `status`, `attempts`, `call_ids` and `form_json` on
 *   the rows (the form values come from the call's own report; the call keeps them too); a cancel or
 *   `ends_at` ends the pending rows at once through `pending_ended_as` on the campaign, not row by row.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import {
  BULK_CALL_STATUSES,
  REDIAL_OUTCOMES,
  RESULT_STATUSES,
  type BulkCallCounts,
  type BulkCallStatus,
  type RedialOutcome,
  type ResultStatus,
} from '../shared/bulk-calls';
import { SIMULATION_OUTCOMES } from '../shared/calls';
import { schemaOptions as base, seconds, type WithId } from './store';
import { apiObject, formValuesObject, metadataObject, unix } from './wire';

const countsSchema = new Schema(
  {
    total: { type: Number, required: true },
    pending: { type: Number, required: true },
    in_progress: { type: Number, required: true },
    completed: { type: Number, required: true },
    not_reached: { type: Number, required: true },
    failed: { type: Number, required: true },
    skipped: { type: Number, required: true },
  },
  { _id: false, versionKey: false },
);

const bulkCallSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, default: null },
    agent_id: { type: String, required: true },
    /** The squad its calls run (`sqd_…`): `agent_id` is then its start member's agent; null: one agent. */
    squad_id: { type: String, default: null },
    form_id: { type: String, required: true },
    from: { type: String, default: null },
    max_concurrency: { type: Number, required: true },
    max_duration_seconds: { type: Number, required: true },
    /** The request's `schedule` as JSON (`{window, days, timezone, ends_at}`), or null. */
    schedule_json: { type: String, default: null },
    /** The redial rules as JSON (`{max_attempts, on, interval_seconds}`), defaults applied. */
    retry_json: { type: String, required: true },
    metadata_json: { type: String, default: '{}' },
    /** Test mode: the campaign-wide `simulation` as JSON (a contact's own wins), or null. */
    simulation_json: { type: String, default: null },
    duplicates_removed: { type: Number, required: true },
    status: { type: String, required: true },
    counts: { type: countsSchema, required: true },
    created: { type: Number, required: true },
    completed_ms: { type: Number, default: null },
    /**
     * Set when a cancel or `ends_at` ended every contact still pending: the status those rows have now
     * (`canceled` or `window_expired`). Applied when rows are read, not written to each row: FerretDB 1.x
     * reads the whole collection for such a filter and writes each matching document apart, so a mass
     * update of 10,000 rows would take a long time.
     */
    pending_ended_as: { type: String, default: null },
    updated_ms: { type: Number, required: true },
  },
  base,
);
bulkCallSchema.index({ org_id: 1, livemode: 1, _id: -1 });
bulkCallSchema.index({ status: 1 }); // campaigns running or paused, read at each metrics scrape
// GET /v1/bulk-calls?status=…: one organization's campaigns in that status, newest first (declared after
// the list's own index, which the embedded store keeps for the list without a status: same prefix).
bulkCallSchema.index({ org_id: 1, livemode: 1, status: 1, _id: -1 });
export const BulkCall = mongoose.model('BulkCall', bulkCallSchema, 'bulk_calls');

const resultSchema = new Schema(
  {
    /** `<bulk id>:<index, 6 digits>` (src/shared/bulk-calls.ts `bulkCallResultId`). */
    _id: { type: String, required: true },
    bulk_call_id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** Position of the contact in the request, after duplicates were removed (from 0). */
    index: { type: Number, required: true },
    phone: { type: String, required: true },
    /** The contact exactly as the request gave it (an E.164 string or an object), as JSON. */
    contact_json: { type: String, required: true },
    status: { type: String, required: true },
    attempts: { type: Number, required: true },
    call_ids: { type: [String], default: [] },
    form_json: { type: String, default: null },
    updated_ms: { type: Number, required: true },
  },
  base,
);
resultSchema.index({ bulk_call_id: 1, _id: 1 });
resultSchema.index({ bulk_call_id: 1, status: 1, _id: 1 });
/** Erasure: a tenant's result rows of a number (src/services/erasure.ts). */
resultSchema.index({ org_id: 1, livemode: 1, phone: 1 });
export const BulkCallResult = mongoose.model('BulkCallResult', resultSchema, 'bulk_call_results');

export type BulkCallDoc = InferSchemaType<typeof bulkCallSchema>;
export type BulkCallResultDoc = InferSchemaType<typeof resultSchema>;

/** A contact of a campaign in the object form (an E.164 string given alone becomes `{phone}`). */
export interface CampaignContact {
  phone: string;
  name?: string;
  external_id?: string;
  context?: Record<string, unknown>;
  metadata?: Record<string, string>;
  simulation?: Record<string, unknown>;
}

/** The contact of a row in the object form. */
export function rowContact(row: { contact_json: string }): CampaignContact {
  const given = JSON.parse(row.contact_json) as string | CampaignContact;
  return typeof given === 'string' ? { phone: given } : given;
}

/** Counts of a campaign that has not dialed anyone yet. */
export function initialCounts(total: number): BulkCallCounts {
  return { total, pending: total, in_progress: 0, completed: 0, not_reached: 0, failed: 0, skipped: 0 };
}

/** A test-mode `simulation` as a campaign or a contact took it (src/api/validation.ts `simulationSchema`). */
const simulationObject = apiObject(
  'Simulation',
  'Test mode: how a simulated call goes (what the caller says, the outcome, timings, a transfer).',
  z.object({
    caller: z.array(z.string()).optional().describe("The caller's lines, in order."),
    outcome: z.enum(SIMULATION_OUTCOMES).optional(),
    ring_seconds: z.number().optional(),
    pause_seconds: z.number().optional(),
    transfer: z
      .object({ answer: z.enum(['answered', 'no_answer', 'busy']), after_seconds: z.number().optional() })
      .optional()
      .describe('What the person a warm transfer dials does.'),
  }),
);

/** A campaign's `schedule` as stored (src/shared/bulk-calls.ts `CampaignSchedule`). */
const campaignScheduleObject = z.object({
  window: z.object({
    start: z.string().describe('Local opening time, `HH:MM`.'),
    end: z.string().describe('Local closing time, `HH:MM` (`24:00` for midnight).'),
  }),
  days: z.array(z.string()).describe('Days it calls (`sun`…`sat`).'),
  timezone: z.string().optional().describe("IANA zone; absent: each contact's, from the number's region."),
  ends_at: unix.optional().describe('When the campaign stops dialing; its pending contacts end as `window_expired`.'),
});

type SimulationObject = z.output<typeof simulationObject>;
type CampaignScheduleObject = z.output<typeof campaignScheduleObject>;

/** The `bulk_call` object as the API answers it (the OpenAPI component `BulkCall`). */
export const BulkCallObject = apiObject(
  'BulkCall',
  'A campaign that calls a list of contacts and fills a form on each call.',
  z.object({
    id: z.string().meta({ examples: ['bulk_01jd5x2v7c0000000000000000'] }),
    object: z.literal('bulk_call'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    status: z.enum(BULK_CALL_STATUSES),
    agent_id: z.string().describe("The agent of its calls; a squad's campaign: the squad's start member's agent."),
    squad_id: z
      .string()
      .nullable()
      .describe(
        'The squad its calls run (each starts as a squad call: `POST /v1/calls` with `squad_id`); null: one agent.',
      ),
    form_id: z.string(),
    from: z.string().nullable(),
    max_concurrency: z.number().int(),
    max_duration_seconds: z.number().int(),
    schedule: campaignScheduleObject.nullable().describe('When contacts are called; null: at once, any time.'),
    retry: z.object({
      max_attempts: z.number().int(),
      on: z.array(z.enum(REDIAL_OUTCOMES)),
      interval_seconds: z.number().int(),
    }),
    metadata: metadataObject,
    simulation: simulationObject.optional().describe("Test mode: the campaign-wide simulation (a contact's own wins)."),
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      in_progress: z.number().int(),
      completed: z.number().int(),
      not_reached: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int(),
    }),
    duplicates_removed: z.number().int(),
    created: unix,
    completed_at: unix.nullable(),
  }),
);
export type BulkCallObject = z.output<typeof BulkCallObject>;

/** The `bulk_call` object: the request's settings, `status`, `counts`; times in unix seconds. */
export function renderBulkCall(doc: WithId<BulkCallDoc>): BulkCallObject {
  const c = doc.counts;
  return {
    id: doc._id,
    object: 'bulk_call' as const,
    livemode: doc.livemode,
    name: doc.name ?? null,
    status: doc.status as BulkCallStatus,
    agent_id: doc.agent_id,
    squad_id: doc.squad_id ?? null,
    form_id: doc.form_id,
    from: doc.from ?? null,
    max_concurrency: doc.max_concurrency,
    max_duration_seconds: doc.max_duration_seconds,
    schedule: doc.schedule_json ? (JSON.parse(doc.schedule_json) as CampaignScheduleObject) : null,
    retry: JSON.parse(doc.retry_json) as { max_attempts: number; on: RedialOutcome[]; interval_seconds: number },
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    ...(doc.simulation_json ? { simulation: JSON.parse(doc.simulation_json) as SimulationObject } : {}),
    counts: {
      total: c.total,
      pending: c.pending,
      in_progress: c.in_progress,
      completed: c.completed,
      not_reached: c.not_reached,
      failed: c.failed,
      skipped: c.skipped,
    },
    duplicates_removed: doc.duplicates_removed,
    created: doc.created,
    completed_at: seconds(doc.completed_ms),
  };
}

/**
 * The status a row shows: its own, except that a `pending` row of a campaign whose pending contacts were
 * ended (`pending_ended_as`) shows that status.
 */
export function effectiveResultStatus(rowStatus: string, pendingEndedAs: string | null | undefined): ResultStatus {
  return (rowStatus === 'pending' && pendingEndedAs ? pendingEndedAs : rowStatus) as ResultStatus;
}

/** The store filter for rows that show `status` (see `effectiveResultStatus`). */
export function resultStatusFilter(status: ResultStatus, pendingEndedAs: string | null | undefined): unknown {
  if (!pendingEndedAs) return status;
  if (status === 'pending') return { $in: [] };
  return status === pendingEndedAs ? { $in: [status, 'pending'] } : status;
}

/** The `bulk_call_result` object, one contact's outcome (the OpenAPI component `BulkCallResult`). */
export const BulkCallResultObject = apiObject(
  'BulkCallResult',
  'One contact of a campaign: its outcome, attempts, calls and filled form.',
  z.object({
    id: z.string(),
    object: z.literal('bulk_call_result'),
    livemode: z.boolean(),
    bulk_call_id: z.string(),
    index: z.number().int(),
    contact: z
      .union([
        z.string().describe('A phone number given alone (E.164).'),
        z.object({
          phone: z.string(),
          name: z.string().optional(),
          external_id: z.string().optional(),
          context: z.record(z.string(), z.unknown()).optional(),
          metadata: metadataObject.optional(),
          simulation: simulationObject.optional(),
        }),
      ])
      .describe('The contact as given in the request: a phone number, or the contact object.'),
    status: z.enum(RESULT_STATUSES),
    attempts: z.number().int(),
    call_ids: z.array(z.string()),
    form: formValuesObject.nullable(),
    updated: unix.nullable(),
  }),
);
export type BulkCallResultObject = z.output<typeof BulkCallResultObject>;

/**
 * The `bulk_call_result` object of a row.
 * @param pendingEndedAs the campaign's `pending_ended_as` (a pending row then shows that status)
 */
export function renderBulkCallResult(
  row: WithId<BulkCallResultDoc>,
  pendingEndedAs: string | null = null,
): BulkCallResultObject {
  return {
    id: row._id,
    object: 'bulk_call_result' as const,
    livemode: row.livemode,
    bulk_call_id: row.bulk_call_id,
    index: row.index,
    contact: JSON.parse(row.contact_json) as BulkCallResultObject['contact'],
    status: effectiveResultStatus(row.status, pendingEndedAs),
    attempts: row.attempts,
    call_ids: [...(row.call_ids ?? [])],
    form: row.form_json ? (JSON.parse(row.form_json) as Record<string, string | number | boolean>) : null,
    updated: seconds(row.updated_ms),
  };
}
