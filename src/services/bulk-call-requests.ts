/**
 * A campaign's start as named steps (`POST /v1/bulk-calls`, src/api/bulk-calls.ts; spec section 4's bulk
 * calls), which a route or a test calls directly: `prepareBulkCall` (the reads and checks, and the
 * settings with their defaults) and `startBulkCall` (its result rows, its workflow and its document).
 */
import type { Client } from '@temporalio/client';
import { notFound } from '../errors';
import { config } from '../config';
import { BulkCall, BulkCallResult, initialCounts, type BulkCallDoc, type CampaignContact } from '../models/bulk-calls';
import { Form } from '../models/forms';
import { insertIfAbsent, type WithId } from '../models/store';
import { bulkCallResultId, type RedialOutcome } from '../shared/bulk-calls';
import { idTime } from '../shared/ids';
import { DAY_NAMES, startBulkCallWorkflow, type CampaignSchedule, type DayName } from './bulk-calls';
import { MAX_DURATION } from './calls';
import { answeringOf, callerNumber, type Tenant } from './call-requests';
import { squadForCall } from './squads';

/** `max_concurrency`: default and bounds. */
export const CONCURRENCY = { default: 5, max: 50 };
/** Redial defaults when `retry` is given (absent `retry`: one call per contact). */
export const RETRY_DEFAULTS = {
  max_attempts: 3,
  on: ['no_answer', 'failed'] as RedialOutcome[],
  interval_seconds: 3600,
};

/** A campaign as asked for, already validated (the contacts parsed and deduplicated by the route). */
export interface BulkCallRequest {
  /** The agent that answers each call; exactly one of `agent_id` and `squad_id` (the route checks). */
  agent_id?: string;
  /** A squad instead: each call starts as a squad call, its `start` member answering. */
  squad_id?: string;
  form_id: string;
  name?: string;
  from?: string;
  max_concurrency?: number;
  max_duration_seconds?: number;
  schedule?: {
    window: { start: string; end: string };
    days?: DayName[];
    timezone?: string;
    ends_at?: number;
  };
  retry?: { max_attempts?: number; on?: RedialOutcome[]; interval_seconds?: number };
  metadata?: Record<string, string>;
  simulation?: unknown;
  /** The contacts to call, in order, each number once; `given` is each as the request wrote it. */
  contacts: CampaignContact[];
  given: unknown[];
  /** Rows dropped as a number already listed. */
  duplicates: number;
}

/** What `prepareBulkCall` read and settled: the agent and form, the schedule and redial rules with defaults. */
export interface PreparedBulkCall {
  request: BulkCallRequest;
  /** The agent of its calls; a squad's campaign: its start member's agent now. */
  agentId: string;
  /** The squad its calls run (each call snapshots the members when it is dialed); null: one agent. */
  squadId: string | null;
  formId: string;
  /** The number its calls are placed from (src/services/call-requests.ts `callerNumber`). */
  from: string | null;
  schedule: CampaignSchedule | null;
  retry: { max_attempts: number; on: RedialOutcome[]; interval_seconds: number };
}

/**
 * The reads and checks of a campaign: its live agent, or live squad (its members' agents usable now:
 * src/services/squads.ts `squadForCall`), and form (read side by side), Twilio configured for
 * a live key; the schedule (every day unless `days`) and the redial rules (`RETRY_DEFAULTS`; without
 * `retry` one call per contact) with their defaults; a live campaign's `from` checked, or chosen when
 * absent, as a call's is (`callerNumber`: the organization's voice number or verified caller ID).
 * @throws ApiError 404 naming `agent_id`, `squad_id` or `form_id`, 503 `telephony_not_configured`, 400
 *   `from_not_owned` / `parameter_missing` naming `from`
 */
export async function prepareBulkCall(tenant: Tenant, request: BulkCallRequest): Promise<PreparedBulkCall> {
  const [answering, form] = await Promise.all([
    answeringOf(tenant, request),
    Form.findOne({ _id: request.form_id, org_id: tenant.orgId, livemode: tenant.livemode }).lean(),
  ]);
  if (!form) throw notFound('form', request.form_id, 'form_id');
  if (answering.squad) await squadForCall(answering.squad, tenant, {}); // every member usable now
  const agent = answering.agent;
  const from = await callerNumber(tenant, request.from, agent._id); // and Twilio configured for a live campaign
  const s = request.schedule;
  const schedule: CampaignSchedule | null = s
    ? {
        window: s.window,
        days: s.days ?? [...DAY_NAMES],
        ...(s.timezone ? { timezone: s.timezone } : {}),
        ...(s.ends_at !== undefined ? { ends_at: s.ends_at } : {}),
      }
    : null;
  const retry = request.retry
    ? {
        max_attempts: request.retry.max_attempts ?? RETRY_DEFAULTS.max_attempts,
        on: request.retry.on ?? RETRY_DEFAULTS.on,
        interval_seconds: request.retry.interval_seconds ?? RETRY_DEFAULTS.interval_seconds,
      }
    : { max_attempts: 1, on: [], interval_seconds: 0 };
  return {
    request,
    agentId: agent._id,
    squadId: answering.squad?._id ?? null,
    formId: form._id,
    from,
    schedule,
    retry,
  };
}

/**
 * Starts campaign `bulkCallId`: its result rows (one per contact, `pending`; rows a crashed attempt
 * already wrote are kept), its workflow, then its document (insert-if-absent: the workflow's first
 * activity writes it too, so a crash between them loses nothing).
 * @returns the campaign's document as stored
 */
export async function startBulkCall(
  temporal: Client,
  tenant: Tenant,
  bulkCallId: string,
  prepared: PreparedBulkCall,
): Promise<WithId<BulkCallDoc>> {
  const { request, schedule, retry } = prepared;
  const { orgId, livemode } = tenant;
  const now = Date.now();
  await insertRows(
    request.contacts.map((c, index) => ({
      _id: bulkCallResultId(bulkCallId, index),
      bulk_call_id: bulkCallId,
      org_id: orgId,
      livemode,
      index,
      phone: c.phone,
      contact_json: JSON.stringify(request.given[index]),
      status: 'pending',
      attempts: 0,
      call_ids: [],
      form_json: null,
      updated_ms: now,
    })),
  );
  const record = {
    _id: bulkCallId,
    org_id: orgId,
    livemode,
    name: request.name ?? null,
    agent_id: prepared.agentId,
    squad_id: prepared.squadId,
    form_id: prepared.formId,
    from: prepared.from ?? request.from ?? null,
    max_concurrency: request.max_concurrency ?? CONCURRENCY.default,
    max_duration_seconds: request.max_duration_seconds ?? MAX_DURATION.default,
    schedule_json: schedule ? JSON.stringify(schedule) : null,
    retry_json: JSON.stringify(retry),
    metadata_json: JSON.stringify(request.metadata ?? {}),
    simulation_json: !livemode && request.simulation ? JSON.stringify(request.simulation) : null,
    duplicates_removed: request.duplicates,
    status: 'running',
    counts: initialCounts(request.contacts.length),
    created: Math.floor(idTime(bulkCallId) / 1000),
    completed_ms: null,
    updated_ms: now,
  };
  await startBulkCallWorkflow(
    temporal,
    {
      bulkCallId,
      orgId,
      livemode,
      total: request.contacts.length,
      maxConcurrency: record.max_concurrency,
      retry: { maxAttempts: retry.max_attempts, on: retry.on, intervalMs: retry.interval_seconds * 1000 },
      endsAtMs: schedule?.ends_at !== undefined ? schedule.ends_at * 1000 : null,
      pageSize: config().bulkCallPageSize,
      record,
    },
    prepared.agentId,
  );
  await insertIfAbsent(BulkCall, record);
  return ((await BulkCall.findById(bulkCallId).lean()) ?? record) as WithId<BulkCallDoc>;
}

/** Inserts result rows 1,000 at a time; rows already there (a retried start) are kept, not an error. */
async function insertRows(rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    try {
      await BulkCallResult.collection.insertMany(rows.slice(i, i + 1000) as never[], { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (list.length === 0 || !list.every((e) => e.code === 11000)) throw err;
    }
  }
}
