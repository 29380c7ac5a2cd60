/**
 * Usage rows: one immutable row per metered thing, from which `GET /v1/usage` computes its totals
 * (DESIGN.md section 3: totals from immutable rows, never counters). Written once, through
 * `recordUsage` (src/services/usage.ts, insert-if-absent), by the activity that did the metered work, at the
 * point where the work is known to have happened; never deleted, and never updated but for its rollup state.
 *
 * The `_id` is deterministic per metered thing, so a retried or crashed activity writes its row once:
 * - `call:<call id>`: a finished call, written by `transitionCall` (src/activities/calls.ts) with the
 *   call's end, before the call document shows the end; or by `reconcileCalls` for a call whose run was
 *   terminated before it recorded its end (the row written first stands).
 * - `llm:<workflow id>:<run id>:<activity id>:<attempt>`: one Chat Completions response received by
 *   `generateReply` (src/activities/llm.ts). Each attempt that got an answer has its own row: a retried
 *   request that reached the provider cost tokens too, and the provider bills it. An attempt whose answer
 *   never reached us (worker killed mid-request) has no row: its token counts are unknown to us.
 * - `wh:<delivery id>:<attempt>`: one HTTP attempt of a webhook delivery (src/activities/webhooks.ts),
 *   after the request was made, whatever its outcome.
 * - `msg:<message id>`: one message sent or received (WhatsApp/SMS conversations).
 * - `ks:<key>`: one knowledge search; the searcher chooses a key that a retry repeats.
 * - `ana:<analysis id>:<request>`: one model request of an analysis (src/services/analysis.ts),
 *   `request` 1 or 2 (the retry with the validation errors): a retried activity meters it once.
 * - `rt:<realtime call id>:<response id>`: one response of a realtime call's speech-to-speech session
 *   (its `response.done`, read by the sideband activity, src/activities/realtime.ts): a response is
 *   metered once, however often its event is seen again (a re-attached socket, a retried activity).
 *
 * Every row carries `org_id`, `livemode`, `kind`, `occurred_ms` (when the work happened: the day it is
 * counted on) and the measures of its kind; the measures of other kinds are absent. Rows that carry a
 * cost (src/pricing/costs.ts, computed once from the price table when the row is built, never again) have
 * the `cost_*` fields, in integer micro-units of the table's currency: a `call` row (its telephony,
 * recording, platform fee and the model tokens of the whole call), an `analysis` row (its request's
 * tokens), an `llm_request` row of a conversation (`conv_…`: its turn's tokens; a call's requests are in
 * its `call` row's cost instead, never twice), and an `llm_request` row of a squad call's member (it names
 * the member in `squad_member` and carries its request's cost, which the call's `call` row then leaves out:
 * the call's cost is its `call` row's plus its members' rows', and each member's agent is charged its own
 * model cost in `GET /v1/usage?agent_id=…`). `rollup`,
 * `rollup_key` and `rollup_lease_ms` track the row's addition to the per-day rollups that `GET /v1/usage`
 * reads (src/services/usage-rollups.ts): the only fields updated after the insert.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions } from './store';
import { apiObject, unix } from './wire';
import { TERMINAL_STATUSES } from '../shared/calls';

/** What a usage row meters. */
export const USAGE_KINDS = [
  'call',
  'llm_request',
  'webhook_attempt',
  'message',
  'knowledge_search',
  'analysis',
  'realtime_response',
] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

export const MESSAGE_CHANNELS = ['sms', 'whatsapp', 'web'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

const usageSchema = new Schema(
  {
    /** Deterministic per metered thing (see the header). */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    kind: { type: String, enum: USAGE_KINDS, required: true },
    /** When the metered work happened (ms): a call's end, an LLM answer, a webhook attempt's start. */
    occurred_ms: { type: Number, required: true },
    /** The metered thing's id (call, message, delivery id…), to trace a row back. */
    subject_id: { type: String, required: true },
    /** When the row was written (ms). */
    recorded_ms: { type: Number, required: true },
    /**
     * The agent and its version the metered thing ran, when it belongs to a call or a
     * conversation (`recordUsage` reads them from the subject); absent otherwise and in rows written before.
     */
    agent_id: { type: String },
    agent_version: { type: Number },
    /**
     * A squad call's model request: the member it was made for (src/services/usage.ts `llmRequestUsage`);
     * such a row carries its own cost, which its call's `call` row leaves out. Absent otherwise.
     */
    squad_member: { type: String },

    // kind `call`
    /** The call's terminal status (`completed`, `busy`…). */
    status: { type: String },
    /** 1 when the call was answered (reached `in_progress`), else 0. */
    answered: { type: Number },
    /** Whole seconds from answer to end (the call's `duration_seconds`); 0 when unanswered. */
    talk_seconds: { type: Number },
    /** `ceil(talk_seconds / 60)`: minutes rounded up per call, as telephony is billed. */
    billable_minutes: { type: Number },

    // kind `llm_request` and `analysis`
    model: { type: String },
    /** The provider's `usage.prompt_tokens` / `usage.completion_tokens` (0 when it sent none). */
    prompt_tokens: { type: Number },
    completion_tokens: { type: Number },

    // kind `realtime_response` (also `model`, `prompt_tokens` = the response's `input_tokens`,
    // `completion_tokens` = its `output_tokens`): their parts as the Realtime API's usage details give them.
    /** `input_token_details.text_tokens` / `.audio_tokens` / `.cached_tokens` (the cached ones are part of the others). */
    prompt_text_tokens: { type: Number },
    prompt_audio_tokens: { type: Number },
    prompt_cached_tokens: { type: Number },
    /** `output_token_details.text_tokens` / `.audio_tokens`. */
    completion_text_tokens: { type: Number },
    completion_audio_tokens: { type: Number },

    // kind `webhook_attempt`
    /** 1 when the endpoint answered 2xx in time, else 0. */
    succeeded: { type: Number },

    // kind `message`
    channel: { type: String, enum: MESSAGE_CHANNELS },
    direction: { type: String, enum: ['inbound', 'outbound'] },
    /** 1 for an outbound WhatsApp template message (billed apart from session messages), else 0. */
    template: { type: Number },

    // Any kind that carries a cost (see the header): integer micro-units (millionths of a dollar).
    cost_total_micros: { type: Number },
    cost_telephony_micros: { type: Number },
    /** 0 when `cost_incomplete` (a model missing from the price table). */
    cost_model_micros: { type: Number },
    cost_recording_micros: { type: Number },
    cost_platform_micros: { type: Number },
    /** 1 when a model used is missing from the price table (its price is not in the total), else 0. */
    cost_incomplete: { type: Number },
    /** Where the telephony part came from: `twilio` (its reported price) or `table`. */
    cost_source: { type: String, enum: ['twilio', 'table'] },

    // The row's place in the per-day rollups (src/services/usage-rollups.ts); absent on rows stored before them.
    /** `pending` until the row is added to its rollups, then `done`. */
    rollup: { type: String, enum: ['pending', 'done'] },
    /** The marker its folds leave in a rollup's `applied` (a hash of the `_id` it was stored under). */
    rollup_key: { type: String },
    /** While pending: until when the writer that stored it (or took it over) alone may fold it (ms). */
    rollup_lease_ms: { type: Number },
  },
  schemaOptions,
);
usageSchema.index({ org_id: 1, livemode: 1, occurred_ms: 1 });
/** `GET /v1/usage?agent_id=…[&agent_version=…]`: one agent's rows (of one version) in the period. */
usageSchema.index({ org_id: 1, livemode: 1, agent_id: 1, agent_version: 1, occurred_ms: 1 });
/** A usage report first folds its tenant's pending rows whose writer did not (src/services/usage-rollups.ts). */
usageSchema.index({ org_id: 1, livemode: 1, rollup: 1 });
/** Erasure: a conversation's rows, re-keyed when their key holds the number (src/services/erasure.ts). */
usageSchema.index({ subject_id: 1 });
export const UsageRecord = mongoose.model('UsageRecord', usageSchema, 'usage_records');

export type UsageRecordDoc = InferSchemaType<typeof usageSchema> & { _id: string };

/** The fields every row has; `recorded_ms` is set by `recordUsage`. */
interface RowBase {
  _id: string;
  org_id: string;
  livemode: boolean;
  occurred_ms: number;
  subject_id: string;
  /**
   * The agent (and version) the metered work ran, set by the writer when it knows better than the subject
   * does: a squad call's model requests are the answering member's (src/activities/llm.ts). Absent: read
   * from the call or conversation (src/services/usage.ts `withAgent`).
   */
  agent_id?: string;
  agent_version?: number;
  /** A squad call's model request: the member it was made for (the row then carries its own cost). */
  squad_member?: string;
}

/** The cost fields of a row that carries a cost (micro-units; see the header). */
export interface CostFields {
  cost_total_micros?: number;
  cost_telephony_micros?: number;
  cost_model_micros?: number;
  cost_recording_micros?: number;
  cost_platform_micros?: number;
  cost_incomplete?: 0 | 1;
  cost_source?: 'twilio' | 'table';
}

/** A usage row as written, by kind (the measures of the other kinds are absent). */
export type UsageRow =
  | (RowBase &
      CostFields & { kind: 'call'; status: string; answered: 0 | 1; talk_seconds: number; billable_minutes: number })
  | (RowBase & CostFields & { kind: 'llm_request'; model: string; prompt_tokens: number; completion_tokens: number })
  | (RowBase & { kind: 'webhook_attempt'; succeeded: 0 | 1 })
  | (RowBase & { kind: 'message'; channel: MessageChannel; direction: 'inbound' | 'outbound'; template: 0 | 1 })
  | (RowBase & { kind: 'knowledge_search' })
  | (RowBase & CostFields & { kind: 'analysis'; model: string; prompt_tokens: number; completion_tokens: number })
  | (RowBase & { kind: 'realtime_response'; model: string } & RealtimeTokens);

/** The tokens of one realtime response (`response.done`'s `response.usage`), as a row and the usage object count them. */
export interface RealtimeTokens {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_text_tokens: number;
  prompt_audio_tokens: number;
  prompt_cached_tokens: number;
  completion_text_tokens: number;
  completion_audio_tokens: number;
}
/** The token fields of a `realtime_response` row, in the order the usage object shows them. */
export const REALTIME_TOKEN_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'prompt_text_tokens',
  'prompt_audio_tokens',
  'prompt_cached_tokens',
  'completion_text_tokens',
  'completion_audio_tokens',
] as const satisfies readonly (keyof RealtimeTokens)[];

const count = z.number().int();
/** The measures of a period (the `totals` of the usage object, and each of its `daily` entries). */
const measures = {
  calls: z.object({
    /** Calls that ended in the period, whatever their status. */
    count,
    answered: count,
    by_status: z.record(z.string(), count),
    talk_seconds: count,
    billable_minutes: count,
  }),
  messages: z.object({
    /** `whatsapp` counts session (free-form) messages; templates are `whatsapp_template`; `web` the widget's chat. */
    outbound: z.object({ sms: count, whatsapp: count, whatsapp_template: count, web: count }),
    inbound: z.object({ sms: count, whatsapp: count, web: count }),
  }),
  llm: z.object({ requests: count, prompt_tokens: count, completion_tokens: count }),
  knowledge: z.object({ searches: count }),
  /** Model requests of call and conversation analyses, apart from the conversations' own `llm`. */
  analysis: z.object({ requests: count, prompt_tokens: count, completion_tokens: count }),
  webhooks: z.object({ attempts: count, succeeded: count }),
  /**
   * The speech-to-speech model of realtime calls (OpenAI's Realtime API): its `responses`, their
   * `prompt_tokens` and `completion_tokens` (input and output, text and audio), and those split as the
   * API reports them: text, audio, cached (a part of the prompt's text and audio).
   */
  realtime: z.object({
    responses: count,
    prompt_tokens: count,
    completion_tokens: count,
    prompt_text_tokens: count,
    prompt_audio_tokens: count,
    prompt_cached_tokens: count,
    completion_text_tokens: count,
    completion_audio_tokens: count,
  }),
  /**
   * What the period's calls, conversation turns and analyses cost, in integer micro-units of `currency`
   * (millionths of a dollar: `total_micros: 23400` is $0.0234), as recorded when each ended
   * (README "Costs"). `incomplete`: how many of those costs lack a model missing from the price table
   * (their `model_micros` counts 0).
   */
  cost: apiObject(
    'UsageCost',
    'What the calls, conversation turns and analyses of a period cost: the sums of their recorded `Cost`s, in integer micro-units (millionths) of the dollar; `incomplete` counts the costs that lack a model missing from the price table.',
    z.object({
      total_micros: count,
      telephony_micros: count,
      model_micros: count,
      recording_micros: count,
      platform_micros: count,
      incomplete: count,
    }),
  ),
};
/** The measures of a period (the `totals` of the usage object, and each of its `daily` entries). */
export type UsageMeasures = z.output<z.ZodObject<typeof measures>>;

/** The `usage` object (README "Usage"; the OpenAPI component `Usage`), computed by `usageReport` (src/services/usage.ts). */
export const UsageObject = apiObject(
  'Usage',
  "The organization's usage over a period of local days: totals and one entry per day.",
  z.object({
    object: z.literal('usage'),
    livemode: z.boolean(),
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    /** The currency of the `cost` measures (the price table's: `usd`). */
    currency: z.literal('usd'),
    /** Unix seconds: the report counts every row stored before this instant. */
    as_of: unix,
    totals: z.object(measures),
    daily: z.array(z.object({ date: z.string(), ...measures })),
  }),
);
/** The `usage` object as `usageReport` computes it. */
export type UsageReport = z.output<typeof UsageObject>;

/**
 * A call's model usage (the call object's `usage`, `GET /v1/calls/{id}`): the usage object's `llm`,
 * `realtime` and `analysis` measures over the call's own rows (src/services/usage.ts `callModelUsage`).
 */
export const CallUsageObject = z
  .object({ llm: measures.llm, realtime: measures.realtime, analysis: measures.analysis })
  .describe(
    "The call's model usage so far, summed from its usage rows as `GET /v1/usage` counts them: `llm` (the pipeline's model requests), `realtime` (the speech-to-speech session's responses, audio tokens apart), `analysis`.",
  );

/** Measures of nothing: every field present, zero. */
export function emptyMeasures(): UsageMeasures {
  return {
    calls: {
      count: 0,
      answered: 0,
      by_status: Object.fromEntries(TERMINAL_STATUSES.map((s) => [s, 0])),
      talk_seconds: 0,
      billable_minutes: 0,
    },
    messages: {
      outbound: { sms: 0, whatsapp: 0, whatsapp_template: 0, web: 0 },
      inbound: { sms: 0, whatsapp: 0, web: 0 },
    },
    llm: { requests: 0, prompt_tokens: 0, completion_tokens: 0 },
    knowledge: { searches: 0 },
    analysis: { requests: 0, prompt_tokens: 0, completion_tokens: 0 },
    webhooks: { attempts: 0, succeeded: 0 },
    realtime: {
      responses: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      prompt_text_tokens: 0,
      prompt_audio_tokens: 0,
      prompt_cached_tokens: 0,
      completion_text_tokens: 0,
      completion_audio_tokens: 0,
    },
    cost: {
      total_micros: 0,
      telephony_micros: 0,
      model_micros: 0,
      recording_micros: 0,
      platform_micros: 0,
      incomplete: 0,
    },
  };
}

/** The fields `addRow` reads (the projection of the usage query). */
export const MEASURE_FIELDS = [
  'kind',
  'occurred_ms',
  'status',
  'answered',
  'talk_seconds',
  'billable_minutes',
  'prompt_tokens',
  'completion_tokens',
  'prompt_text_tokens',
  'prompt_audio_tokens',
  'prompt_cached_tokens',
  'completion_text_tokens',
  'completion_audio_tokens',
  'succeeded',
  'channel',
  'direction',
  'template',
  'cost_total_micros',
  'cost_telephony_micros',
  'cost_model_micros',
  'cost_recording_micros',
  'cost_platform_micros',
  'cost_incomplete',
] as const;

/**
 * Adds one stored row to `m` (integers only, so sums are exact): its kind's measures, and its cost when it
 * carries one (`cost_total_micros`). A row of an unknown kind adds nothing.
 */
export function addRow(m: UsageMeasures, row: Partial<UsageRecordDoc>): void {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  if (typeof row.cost_total_micros === 'number' && (USAGE_KINDS as readonly string[]).includes(row.kind ?? '')) {
    m.cost.total_micros += n(row.cost_total_micros);
    m.cost.telephony_micros += n(row.cost_telephony_micros);
    m.cost.model_micros += n(row.cost_model_micros);
    m.cost.recording_micros += n(row.cost_recording_micros);
    m.cost.platform_micros += n(row.cost_platform_micros);
    m.cost.incomplete += n(row.cost_incomplete);
  }
  switch (row.kind) {
    case 'call': {
      m.calls.count += 1;
      m.calls.answered += n(row.answered);
      const status = row.status ?? 'unknown';
      m.calls.by_status[status] = (m.calls.by_status[status] ?? 0) + 1;
      m.calls.talk_seconds += n(row.talk_seconds);
      m.calls.billable_minutes += n(row.billable_minutes);
      break;
    }
    case 'llm_request':
      m.llm.requests += 1;
      m.llm.prompt_tokens += n(row.prompt_tokens);
      m.llm.completion_tokens += n(row.completion_tokens);
      break;
    case 'webhook_attempt':
      m.webhooks.attempts += 1;
      m.webhooks.succeeded += n(row.succeeded);
      break;
    case 'message': {
      const channel = row.channel === 'whatsapp' || row.channel === 'web' ? row.channel : 'sms';
      if (row.direction === 'inbound') m.messages.inbound[channel] += 1;
      else if (channel === 'whatsapp' && row.template) m.messages.outbound.whatsapp_template += 1;
      else m.messages.outbound[channel] += 1;
      break;
    }
    case 'knowledge_search':
      m.knowledge.searches += 1;
      break;
    case 'analysis':
      m.analysis.requests += 1;
      m.analysis.prompt_tokens += n(row.prompt_tokens);
      m.analysis.completion_tokens += n(row.completion_tokens);
      break;
    case 'realtime_response':
      m.realtime.responses += 1;
      for (const f of REALTIME_TOKEN_FIELDS) m.realtime[f] += n(row[f]);
      break;
  }
}

/**
 * A recorded cost (the `cost` of a call, a conversation or an analysis: README "Costs"), in integer
 * micro-units of `currency` (millionths of a dollar: `total_micros: 23400` is $0.0234), the way
 * `GET /v1/usage` sums them, so sums are exact. Computed once, when the thing ends, from the price
 * table then in force; a later table never changes it.
 */
export const CostObject = apiObject(
  'Cost',
  "What a call, a conversation or an analysis cost, in integer micro-units (millionths) of `currency`, computed once when it ended from the price table then in force (or Twilio's reported price); a later table never changes it.",
  z.object({
    currency: z.literal('usd'),
    total_micros: count.describe('The sum of the parts (a null `model_micros` counts 0: then a lower bound).'),
    telephony_micros: count.describe("Twilio's minutes (its reported price when it gave one, else the table's)."),
    model_micros: count
      .nullable()
      .describe('The model tokens at the table prices; null when a model used is missing from the table.'),
    recording_micros: count,
    platform_micros: count.describe("The platform's own per-minute fee."),
    source: z
      .enum(['twilio', 'table'])
      .describe("`twilio`: telephony is Twilio's reported price of the call; `table`: the price table's."),
  }),
);
export type CostView = z.output<typeof CostObject>;

/**
 * One member's part of a squad call's cost (the call object's `cost_by_member`): the model requests the
 * member made (its `llm_request` rows, priced each at its own model's price), and for the member the call
 * started with also the call's own row (telephony, recording, the platform's fee, and any model tokens not
 * metered to a member). The parts add up to the call's `cost` exactly.
 */
export const MemberCostObject = apiObject(
  'MemberCost',
  "A squad member's part of a squad call's cost: its model requests priced at its own model's price; the start member's part also holds the call's telephony, recording and platform fee. The parts add up to the call's `cost`.",
  z.object({
    member: z.string().describe('The member (its name in the squad).'),
    agent_id: z.string().nullable().describe("The member's agent."),
    agent_version: count.nullable().describe("The member's agent version the call ran."),
    requests: count.describe('The model requests the member made.'),
    prompt_tokens: count,
    completion_tokens: count,
    cost: CostObject,
  }),
);
export type MemberCostView = z.output<typeof MemberCostObject>;

/** The recorded cost of a row carrying `cost_*` fields (`CostObject`), null when it has none. */
export function costOfRow(row: Partial<UsageRecordDoc> | CostFields | null | undefined): CostView | null {
  if (!row || typeof row.cost_total_micros !== 'number') return null;
  return {
    currency: 'usd',
    total_micros: row.cost_total_micros,
    telephony_micros: row.cost_telephony_micros ?? 0,
    model_micros: row.cost_incomplete ? null : (row.cost_model_micros ?? 0),
    recording_micros: row.cost_recording_micros ?? 0,
    platform_micros: row.cost_platform_micros ?? 0,
    source: row.cost_source === 'twilio' ? 'twilio' : 'table',
  };
}

/**
 * The sum of the recorded costs of `rows` (`CostObject`; a row without a cost adds nothing), `model_micros`
 * null when any of them lacks its model's price; null when none carries a cost.
 */
export function sumCostOfRows(rows: (Partial<UsageRecordDoc> | null)[]): CostView | null {
  const costs = rows.map((r) => costOfRow(r)).filter((c): c is CostView => c !== null);
  if (!costs.length) return null;
  const add = (f: 'total_micros' | 'telephony_micros' | 'recording_micros' | 'platform_micros') =>
    costs.reduce((n, c) => n + c[f], 0);
  const incomplete = costs.some((c) => c.model_micros === null);
  return {
    currency: 'usd',
    total_micros: add('total_micros'),
    telephony_micros: add('telephony_micros'),
    model_micros: incomplete ? null : costs.reduce((n, c) => n + (c.model_micros ?? 0), 0),
    recording_micros: add('recording_micros'),
    platform_micros: add('platform_micros'),
    source: costs.some((c) => c.source === 'twilio') ? 'twilio' : 'table',
  };
}
