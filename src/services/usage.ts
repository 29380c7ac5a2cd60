/**
 * Usage: the rows that meter the work, and the report `GET /v1/usage` answers from them (DESIGN.md
 * section 3: totals from immutable rows, never counters).
 *
 * Writing: the activity that did the metered work calls `recordUsage(row)` once, where the work is known
 * to have happened, with a row from one of the builders below; each gives the row a deterministic `_id`
 * (src/models/usage.ts), so a retried or crashed activity writes it once. The same call adds the row to
 * the per-day rollups (src/services/usage-rollups.ts, whose header gives how a retry or a crash between
 * the row and its rollups still counts it exactly once).
 *
 * Reading: `usageReport` sums the rollups of one organization, mode and scope (all, one agent, one
 * agent version) over a period of local days: one rollup document per UTC day the period touches, however
 * many rows the days hold. `usageReportFromRows` sums the rows themselves, in Node, over one bounded
 * query: for a period whose days do not start on quarter-hours (the rollups' unit), and as the reference
 * the rollups are tested against. Not with `$group`: FerretDB 1.x computes only the first accumulator of
 * a `$group` and returns 0 for the others (FerretDB/FerretDB#4616, seen on v1.24.2), and has no date
 * operators to bucket days in a time zone.
 */
import { Call, renderCall, type CallDoc } from '../models/calls';
import { Conversation } from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import {
  addRow,
  emptyMeasures,
  MEASURE_FIELDS,
  REALTIME_TOKEN_FIELDS,
  UsageRecord,
  type MessageChannel,
  type CostFields,
  type RealtimeTokens,
  type UsageMeasures,
  type UsageRecordDoc,
  type UsageReport,
  type UsageRow,
} from '../models/usage';
import type { WebhookDeliveryInput } from '../shared/webhooks';
import { logger } from '../logger';
import { dayStartOf, localDate, utcMidnight } from '../platform/calendar';
import { llmTokens } from '../platform/metrics';
import { addLlmTokens } from './quotas';
import { chatCost, costFields, countCost, endedCallCost } from './costs';
import {
  dayIndex,
  FOLD_LEASE_MS,
  foldAbandonedRows,
  foldIfAbandoned,
  foldUsageRows,
  rollupKey,
  sumRollups,
} from './usage-rollups';

export type { UsageRow, UsageMeasures, UsageReport } from '../models/usage';

/** Who pays for a metered thing. */
export interface UsageOwner {
  orgId: string;
  livemode: boolean;
}

/** A usage report's scope: the owner's rows, of one agent (and one of its versions) when given. */
export interface UsageScope extends UsageOwner {
  agentId?: string;
  agentVersion?: number;
}

/**
 * Stores a usage row, once: a row with the same `_id` already stored is left as it is (a retry), and
 * adds it to the per-day rollups (`foldUsageRows`); a retry that finds the row stored but not yet added
 * (the attempt that stored it crashed) adds it, once its writer's lease has expired. The
 * tokens of a stored LLM or analysis row count toward the organization's daily `llm_tokens_per_day`
 * (src/services/quotas.ts `addLlmTokens`), and so do a realtime response's (text and audio alike).
 * Measures must be non-negative integers. `null` (a builder's "nothing to meter") records nothing.
 * With `foldBehind` (a conversation's turn, where the caller waits for the next answer) only the row's
 * insert is awaited: the tokens' count and the fold go on behind it, and a fold that fails (or a process
 * that stops first) leaves the row pending under its lease, folded by the next usage report once the
 * lease has expired (src/services/usage-rollups.ts), the daily count then under by the row, never over.
 * @returns true when this call stored the row
 * @throws Error on a malformed row; the store's errors (the activity then fails and Temporal retries it)
 */
export async function recordUsage(row: UsageRow | null, opts: { foldBehind?: boolean } = {}): Promise<boolean> {
  if (!row) return false;
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === 'number' && !(Number.isSafeInteger(v) && v >= 0))
      throw new Error(`usage row ${row._id}: ${k} must be a non-negative integer, not ${v}`);
  }
  const now = Date.now();
  const doc = {
    ...(await withAgent(row)),
    recorded_ms: now,
    rollup: 'pending' as const,
    rollup_key: rollupKey(row._id),
    rollup_lease_ms: now + FOLD_LEASE_MS,
  };
  const stored = await insertIfAbsent(UsageRecord, doc);
  if (stored) countCost(row as CostFields, row.livemode);
  const settle = async () => {
    // The day's tokens against the organization's `llm_tokens_per_day`, once per row (a retry that finds
    // the row stored adds nothing; a crash between the two leaves the cap under by this row, never over).
    if (stored && (row.kind === 'llm_request' || row.kind === 'analysis' || row.kind === 'realtime_response'))
      await addLlmTokens(row.org_id, row.prompt_tokens + row.completion_tokens, row.occurred_ms);
    if (stored) await foldUsageRows([doc]);
    else await foldIfAbandoned(row._id);
  };
  if (!opts.foldBehind) await settle();
  else
    void settle().catch((err: Error) =>
      logger.warn('usage: folding behind failed; the row stays pending until a report folds it', {
        row: row._id,
        error: err.message,
      }),
    );
  return stored;
}

/** The agent and version of calls seen (fixed at a call's creation): a turn's usage row reads the call once. */
const callAgents = new Map<string, { id: string; version: number | null }>();
const CALL_AGENTS_CACHED = 10_000;

/**
 * The row with the agent and version its subject ran (usage by version), read by `_id` from
 * the call (`call_…`) or the conversation (`conv_…`) it meters; other rows, and rows whose writer named
 * the agent (a squad call's requests: the member's), as they are.
 */
async function withAgent(row: UsageRow): Promise<UsageRow & { agent_id?: string; agent_version?: number }> {
  if (row.agent_id !== undefined) return row; // the writer named it (a squad member's request)
  const id = row.subject_id;
  let agent: { id: string; version: number | null } | null = null;
  if (id.startsWith('call_')) {
    agent = callAgents.get(id) ?? null;
    const call = agent ? null : await Call.findById(id, { agent_id: 1, agent_version: 1 }).lean();
    if (call) {
      agent = { id: call.agent_id, version: call.agent_version ?? null };
      if (callAgents.size >= CALL_AGENTS_CACHED) callAgents.delete(callAgents.keys().next().value!);
      callAgents.set(id, agent);
    }
  } else if (id.startsWith('conv_')) {
    const conv = await Conversation.findById(id, { agent_id: 1, agent_version: 1, agent_version_of: 1 }).lean();
    if (conv?.agent_id)
      agent = {
        id: conv.agent_id,
        version: conv.agent_version_of === conv.agent_id ? (conv.agent_version ?? null) : null,
      };
  }
  if (!agent) return row;
  return { ...row, agent_id: agent.id, ...(agent.version != null ? { agent_version: agent.version } : {}) };
}

/**
 * The usage row of a call that the status transition `patch` ends (it sets `ended_ms`), or null for
 * any other transition. Reads the call (before the patch is applied, so the row can be stored before
 * the call shows as ended) and applies the patch to what it read; the row is `endedCallUsage`'s, with
 * the call's cost (src/services/costs.ts `endedCallCost`, priced now: the row is written once, so the
 * cost is too).
 * @throws Error when the call does not exist
 */
export async function callUsage(callId: string, patch: Record<string, unknown>): Promise<UsageRow | null> {
  if (typeof patch.ended_ms !== 'number') return null;
  const doc = (await Call.findById(callId).lean()) as WithId<CallDoc> | null;
  if (!doc) throw new Error(`call ${callId} has no document`);
  return pricedCallUsage({ ...doc, ...patch } as WithId<CallDoc>);
}

/** `endedCallUsage` with the call's cost (`endedCallCost`) in its `cost_*` fields; null if it has not ended. */
export async function pricedCallUsage(doc: WithId<CallDoc>): Promise<UsageRow | null> {
  const row = endedCallUsage(doc);
  if (!row || row.kind !== 'call') return row;
  return { ...row, ...costFields(await endedCallCost(doc, row.billable_minutes)) };
}

/**
 * The usage row of an ended call document (null if it has not ended): `call:<call id>`, on the day the
 * call ended; `talk_seconds` = the call's `duration_seconds`; `billable_minutes` = talk time rounded up
 * to the minute, at least 1 for an answered call (telephony's per-minute billing), 0 for an unanswered one.
 * Without a cost (`pricedCallUsage` adds it).
 */
export function endedCallUsage(doc: WithId<CallDoc>): UsageRow | null {
  if (doc.ended_ms == null) return null;
  const call = renderCall(doc);
  const answered = call.answered_at !== null;
  const talk = call.duration_seconds ?? 0;
  return {
    _id: `call:${doc._id}`,
    kind: 'call',
    org_id: doc.org_id,
    livemode: doc.livemode,
    subject_id: doc._id,
    occurred_ms: doc.ended_ms,
    status: call.status,
    answered: answered ? 1 : 0,
    talk_seconds: talk,
    billable_minutes: answered ? Math.max(1, Math.ceil(talk / 60)) : 0,
  };
}

/**
 * Which activity attempt made an LLM request (Temporal's `activityInfo()` has these fields;
 * `workflowExecution` is absent for an activity run outside a workflow).
 */
export interface ActivityAttempt {
  workflowExecution?: { workflowId: string; runId: string };
  activityId: string;
  attempt: number;
}

/** The usage row of one Chat Completions response (`llmRequestUsage`). */
export type LlmRequestRow = Extract<UsageRow, { kind: 'llm_request' }>;

/**
 * The usage row of one Chat Completions response: `llm:<workflow id>:<run id>:<activity id>:<attempt>`,
 * so each attempt that got an answer counts (it cost tokens), once.
 * @param input.subjectId the conversation the request was made for (a call id), the provider's `user`
 * @param input.owner who pays; when absent, the call or conversation `subjectId` names (null, with a
 *   warning, if there is none: usage is never worth failing an answer for)
 * @param input.usage the response's `usage` field (`prompt_tokens`, `completion_tokens`); absent → 0
 */
export async function llmRequestUsage(input: {
  subjectId: string;
  owner?: UsageOwner;
  request: ActivityAttempt;
  model: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  occurredMs?: number;
  /** The agent the request ran for when not the subject's (a squad member's): the row carries it. */
  agent?: { id: string; version?: number };
  /**
   * A squad call's member the request was made for: the row names it (`squad_member`) and carries the
   * request's own cost, which the call's `call` row then leaves out (src/services/costs.ts `callTokens`).
   */
  squadMember?: string;
}): Promise<LlmRequestRow | null> {
  const owner = input.owner ?? (await callOwner(input.subjectId));
  if (!owner) {
    logger.warn('LLM usage not recorded: no owner for the conversation', { subject_id: input.subjectId });
    return null;
  }
  const { workflowExecution: wf, activityId, attempt } = input.request;
  const tokens = (v: number | undefined) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  const prompt = tokens(input.usage?.prompt_tokens);
  const completion = tokens(input.usage?.completion_tokens);
  return {
    _id: `llm:${wf ? `${wf.workflowId}:${wf.runId}` : 'standalone'}:${activityId}:${attempt}`,
    kind: 'llm_request',
    org_id: owner.orgId,
    livemode: owner.livemode,
    subject_id: input.subjectId,
    occurred_ms: input.occurredMs ?? Date.now(),
    model: input.model,
    prompt_tokens: prompt,
    completion_tokens: completion,
    ...(input.agent ? { agent_id: input.agent.id } : {}),
    ...(input.agent?.version !== undefined ? { agent_version: input.agent.version } : {}),
    ...(input.squadMember !== undefined ? { squad_member: input.squadMember } : {}),
    // A conversation never ends: each turn's cost is recorded with its request. A call's requests are
    // priced once, in its `call` row, when it ends; but a squad member's, priced here, are the member's
    // (the call's cost is then its `call` row's plus theirs: src/services/costs.ts `recordedCallCost`).
    ...(input.subjectId.startsWith('call_') && input.squadMember === undefined
      ? {}
      : costFields(chatCost(input.model, prompt, completion))),
  };
}

/** Who pays for a request made for call or conversation `id` (`call_…`, `conv_…`), read from it; null if unknown. */
async function callOwner(id: string): Promise<UsageOwner | null> {
  const doc = id.startsWith('conv_')
    ? await Conversation.findById(id, { org_id: 1, livemode: 1 }).lean()
    : await Call.findById(id, { org_id: 1, livemode: 1 }).lean();
  return doc ? { orgId: doc.org_id, livemode: doc.livemode } : null;
}

/**
 * The usage row of one webhook delivery attempt that made its HTTP request: `wh:<delivery id>:<attempt>`.
 * @param atMs when the attempt started (the attempt log's time)
 * @param ok the endpoint answered 2xx in time
 */
export function webhookAttemptUsage(input: WebhookDeliveryInput, attempt: number, atMs: number, ok: boolean): UsageRow {
  return {
    _id: `wh:${input.deliveryId}:${attempt}`,
    kind: 'webhook_attempt',
    org_id: input.orgId,
    livemode: input.livemode,
    subject_id: input.deliveryId,
    occurred_ms: atMs,
    succeeded: ok ? 1 : 0,
  };
}

/**
 * The usage row of one message: `msg:<message id>`. Record an outbound message once the provider has
 * accepted it (a refused send is not usage), an inbound one once it is stored. `template`: an outbound
 * WhatsApp template message (counted apart: providers bill templates differently).
 */
export function messageUsage(
  input: UsageOwner & {
    messageId: string;
    channel: MessageChannel;
    direction: 'inbound' | 'outbound';
    template: boolean;
    occurredMs: number;
  },
): UsageRow {
  return {
    _id: `msg:${input.messageId}`,
    kind: 'message',
    org_id: input.orgId,
    livemode: input.livemode,
    subject_id: input.messageId,
    occurred_ms: input.occurredMs,
    channel: input.channel,
    direction: input.direction,
    template: input.template && input.channel === 'whatsapp' && input.direction === 'outbound' ? 1 : 0,
  };
}

/**
 * The usage row of one knowledge search: `ks:<key>`, where `key` is the same on a retry of the same
 * search (in an activity: `<workflow id>:<run id>:<activity id>`, without the attempt: a search is
 * counted once however often it is retried). `subjectId`: the agent or conversation searched for.
 */
export function knowledgeSearchUsage(
  input: UsageOwner & { key: string; subjectId: string; occurredMs: number },
): UsageRow {
  return {
    _id: `ks:${input.key}`,
    kind: 'knowledge_search',
    org_id: input.orgId,
    livemode: input.livemode,
    subject_id: input.subjectId,
    occurred_ms: input.occurredMs,
  };
}

/**
 * The usage row of one model request of an analysis: `ana:<analysis id>:<request>`, `request`
 * 1 or 2 (the second asks again with the validation errors), without the activity's attempt, so a
 * retried activity meters the request once.
 * @param input.usage the response's `usage` field; absent → 0 tokens
 */
export function analysisUsage(
  input: UsageOwner & {
    analysisId: string;
    request: number;
    subjectId: string;
    model: string;
    usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
    occurredMs: number;
  },
): UsageRow {
  const tokens = (v: number | undefined) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  const prompt = tokens(input.usage?.prompt_tokens);
  const completion = tokens(input.usage?.completion_tokens);
  return {
    _id: `ana:${input.analysisId}:${input.request}`,
    kind: 'analysis',
    org_id: input.orgId,
    livemode: input.livemode,
    subject_id: input.subjectId,
    occurred_ms: input.occurredMs,
    model: input.model,
    prompt_tokens: prompt,
    completion_tokens: completion,
    ...costFields(chatCost(input.model, prompt, completion)),
  };
}

/** A realtime response's `usage` as the Realtime API sends it (`response.done`'s `response.usage`). */
export interface RealtimeUsageReport {
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { text_tokens?: number; audio_tokens?: number; cached_tokens?: number };
  output_token_details?: { text_tokens?: number; audio_tokens?: number };
}

/**
 * The usage row of one response of a realtime call's session: `rt:<realtime call id>:<response id>`
 * (OpenAI's ids: unique per response, so a response seen again, by a re-attached socket or a retried
 * activity, is metered once). `prompt_tokens`/`completion_tokens` are the response's `input_tokens` /
 * `output_tokens` (text and audio); the parts are the usage details (cached tokens are part of the
 * input's text and audio, as the Realtime API counts them). Absent counts are 0.
 * @param input.callId our call (the row's subject); its organization pays
 * @returns null, with a warning, when the call is unknown (usage is never worth failing a call for)
 */
export async function realtimeResponseUsage(input: {
  callId: string;
  realtimeCallId: string;
  responseId: string;
  model: string;
  usage: RealtimeUsageReport;
  occurredMs: number;
}): Promise<UsageRow | null> {
  const owner = await callOwner(input.callId);
  if (!owner) {
    logger.warn('realtime usage not recorded: no such call', { call: input.callId, response: input.responseId });
    return null;
  }
  const tokens = (v: number | undefined) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  const { usage } = input;
  const counts: RealtimeTokens = {
    prompt_tokens: tokens(usage.input_tokens),
    completion_tokens: tokens(usage.output_tokens),
    prompt_text_tokens: tokens(usage.input_token_details?.text_tokens),
    prompt_audio_tokens: tokens(usage.input_token_details?.audio_tokens),
    prompt_cached_tokens: tokens(usage.input_token_details?.cached_tokens),
    completion_text_tokens: tokens(usage.output_token_details?.text_tokens),
    completion_audio_tokens: tokens(usage.output_token_details?.audio_tokens),
  };
  return {
    _id: `rt:${input.realtimeCallId}:${input.responseId}`,
    kind: 'realtime_response',
    org_id: owner.orgId,
    livemode: owner.livemode,
    subject_id: input.callId,
    occurred_ms: input.occurredMs,
    model: input.model,
    ...counts,
  };
}

/**
 * Stores the usage row of one realtime response (`realtimeResponseUsage`), for the sideband activity,
 * which must not stop the session for it: tried 3 times, 500 ms then 1 s apart, then given up with a
 * warning (the response goes unmetered; a row stored by an earlier try is never stored twice). Counts
 * the tokens in `svc_llm_tokens_total` (by model, prompt/completion) once, when this call stored the row.
 */
export async function recordRealtimeUsage(input: {
  callId: string;
  realtimeCallId: string;
  responseId: string;
  model: string;
  usage: RealtimeUsageReport;
  occurredMs: number;
}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const row = await realtimeResponseUsage(input);
      if (row && (await recordUsage(row)) && row.kind === 'realtime_response') {
        llmTokens.inc({ model: row.model, type: 'prompt' }, row.prompt_tokens);
        llmTokens.inc({ model: row.model, type: 'completion' }, row.completion_tokens);
      }
      return;
    } catch (err) {
      if (attempt >= 3) {
        logger.warn('realtime usage not recorded', {
          call: input.callId,
          response: input.responseId,
          error: (err as Error).message,
        });
        return;
      }
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/** A call's model usage (the call object's `usage`): its model requests, realtime responses and analyses. */
export type CallUsage = Pick<UsageMeasures, 'llm' | 'realtime' | 'analysis'>;

/**
 * The model usage of one call, summed from its usage rows (index `{subject_id}`): the pipeline's model
 * requests (`llm`), the realtime session's responses with their audio tokens (`realtime`), its analyses.
 * Rows are written as the work happens, so a call not yet over shows its usage so far.
 */
export async function callModelUsage(callId: string): Promise<CallUsage> {
  const m = emptyMeasures();
  const rows = await UsageRecord.find(
    { subject_id: callId, kind: { $in: ['llm_request', 'realtime_response', 'analysis'] } },
    Object.fromEntries(['kind', 'prompt_tokens', 'completion_tokens', ...REALTIME_TOKEN_FIELDS].map((f) => [f, 1])),
  ).lean();
  for (const row of rows) addRow(m, row as Partial<UsageRecordDoc>);
  return { llm: m.llm, realtime: m.realtime, analysis: m.analysis };
}

/** A period of whole local days: `from` to `to` inclusive (`YYYY-MM-DD`), in IANA time zone `timezone`. */
export interface UsagePeriod {
  from: string;
  to: string;
  timezone: string;
}

/**
 * The usage report of `owner` over `period`: `totals`, and one `daily` entry per local day of the
 * period (empty days included, oldest first). A row counts on the local day its `occurred_ms` falls
 * on, days being computed in `period.timezone` (23 or 25 hours on DST changes); integers, so `daily`
 * sums exactly to `totals`. Read from the per-day rollups of the owner's scope (first folding the
 * owner's rows whose writer crashed before folding them: `foldAbandonedRows`); from the rows when a
 * day of the period does not start on a quarter-hour of UTC. Same answer as `usageReportFromRows`.
 * @param period a valid period of at most 366 days (checked by the API: src/api/usage.ts)
 */
export async function usageReport(owner: UsageScope, period: UsagePeriod, nowMs = Date.now()): Promise<UsageReport> {
  const { starts, daily, totals } = reportFrame(period);
  await foldAbandonedRows(owner.orgId, owner.livemode); // leases run on the clock, whatever `as_of` is asked
  const scope =
    owner.agentId === undefined
      ? 'all'
      : owner.agentVersion === undefined
        ? `a:${owner.agentId}`
        : `v:${owner.agentId}:${owner.agentVersion}`;
  const rollups = { orgId: owner.orgId, livemode: owner.livemode, scope, timezone: period.timezone };
  if (!(await sumRollups(rollups, starts, daily, totals))) return usageReportFromRows(owner, period, nowMs);
  return reportOf(owner, period, nowMs, totals, daily);
}

/** The first instant of each day of `period` (and its end, `starts[count]`), and empty measures for each. */
function reportFrame(period: UsagePeriod): {
  starts: number[];
  daily: UsageReport['daily'];
  totals: UsageReport['totals'];
} {
  const first = utcMidnight(period.from);
  const count = Math.round((utcMidnight(period.to) - first) / 86_400_000) + 1;
  // starts[i] = first instant of day i; starts[count] = end of the period.
  const starts = Array.from({ length: count + 1 }, (_, i) => dayStartOf(first + i * 86_400_000, period.timezone));
  const daily = starts
    .slice(0, count)
    .map((_, i) => ({ date: new Date(first + i * 86_400_000).toISOString().slice(0, 10), ...emptyMeasures() }));
  return { starts, daily, totals: emptyMeasures() };
}

function reportOf(
  owner: UsageScope,
  period: UsagePeriod,
  nowMs: number,
  totals: UsageReport['totals'],
  daily: UsageReport['daily'],
): UsageReport {
  return {
    object: 'usage',
    livemode: owner.livemode,
    from: period.from,
    to: period.to,
    timezone: period.timezone,
    currency: 'usd',
    as_of: Math.floor(nowMs / 1000),
    totals,
    daily,
  };
}

/**
 * `usageReport` computed from the usage rows themselves: reads every row of the owner's scope in the
 * period (one query over the index `{org_id, livemode, occurred_ms}`, or the agent's). For periods the
 * rollups cannot split into local days, and as the rollups' reference in tests.
 */
export async function usageReportFromRows(
  owner: UsageScope,
  period: UsagePeriod,
  nowMs = Date.now(),
): Promise<UsageReport> {
  const { starts, daily, totals } = reportFrame(period);
  const count = daily.length;
  const projection = Object.fromEntries(MEASURE_FIELDS.map((f) => [f, 1]));
  const cursor = UsageRecord.find(
    {
      org_id: owner.orgId,
      livemode: owner.livemode,
      // One agent's rows (of one version), read through their own index: the cost stays the agent's.
      ...(owner.agentId !== undefined ? { agent_id: owner.agentId } : {}),
      ...(owner.agentVersion !== undefined ? { agent_version: owner.agentVersion } : {}),
      occurred_ms: { $gte: starts[0], $lt: starts[count] },
    },
    projection,
  )
    .lean()
    .batchSize(5000)
    .cursor();
  for await (const row of cursor as AsyncIterable<Partial<UsageRecordDoc>>) {
    const day = dayIndex(starts, row.occurred_ms!);
    if (day < 0) continue;
    addRow(daily[day], row);
    addRow(totals, row);
  }
  return reportOf(owner, period, nowMs, totals, daily);
}

/** Today's date and the first day of its month in `timezone`: the defaults of `to` and `from`. */
export function defaultPeriod(timezone: string, nowMs = Date.now()): { from: string; to: string } {
  const to = localDate(nowMs, timezone);
  return { from: `${to.slice(0, 8)}01`, to };
}
