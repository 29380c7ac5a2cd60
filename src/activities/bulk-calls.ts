/**
 * A bulk campaign's activities: the only writers of its document and result rows once the API created
 * them (src/models/bulk-calls.ts), called by its own workflow (src/workflows/bulk-calls.ts) one write at a
 * time. Each is idempotent: a retry sets the same values and emits the same event ids.
 *
 * - `ensureBulkCallRecord`: the campaign document, insert-if-absent (first run).
 * - `loadBulkCallPage`: a page of contacts with each one's calling-window zone, and the window intervals.
 * - `bulkCallWindows`: window intervals again, when the workflow has used up the ones it has.
 * - `prepareBulkCalls`: at dial time, the do-not-call check and each call's `callWorkflow` input
 *   (src/services/calls.ts `newCallInput`, as `POST /v1/calls` builds it).
 * - `recordBulkCallProgress`: result rows, pending contacts ended by a cancel or `ends_at`, the campaign's
 *   status and counts, and the events `bulk_call.contact_completed` / `bulk_call.completed`.
 * - `checkBulkCalls`: the store's and Temporal's view of calls that have not reported in time.
 */
import { aiDisclosureEnabled } from '../services/ai-disclosure';
import { blockedPhones } from '../services/do-not-call';
import { Context } from '@temporalio/activity';
import { findLiveAgent } from '../models/agents';
import { BulkCall, BulkCallResult, renderBulkCall, renderBulkCallResult, rowContact } from '../models/bulk-calls';
import { Call } from '../models/calls';
import { Form, formDefinition } from '../models/forms';
import { findByIds, insertIfAbsent } from '../models/store';
import { emitEvent } from '../services/events';
import { redactFormValues } from '../services/redaction-policy';
import { newCallInput, type SimulationRequest } from '../services/calls';
import { agentVersionPicker, type VersionedAgent } from '../services/agent-versions';
import { findLiveSquad } from '../models/squads';
import { squadForCall } from '../services/squads';
import { ApiError } from '../errors';
import type { CallSquad } from '../shared/calls';
import {
  attemptVoicemail,
  contactCallRequest,
  contactZoneKey,
  DEFAULT_US_WINDOW,
  windowIntervals,
  windowRule,
  type CampaignSchedule,
  type WindowRule,
} from '../services/bulk-calls';
import {
  bulkCallResultId,
  type BulkCallCounts,
  type BulkCallStatus,
  type PageContact,
  type ResultStatus,
  type WindowInterval,
} from '../shared/bulk-calls';
import {
  effectiveVoicemail,
  TERMINAL_STATUSES,
  type CallStatus,
  type CallWorkflowInput,
  type EndReason,
} from '../shared/calls';
import type { FormValues } from '../shared/forms';

async function campaign(bulkCallId: string) {
  const doc = await BulkCall.findById(bulkCallId).lean();
  // The API writes the document before the workflow's first activity runs, or the first run does.
  if (!doc) throw new Error(`bulk call ${bulkCallId} has no document`);
  return doc;
}

const scheduleOf = (doc: { schedule_json?: string | null }): CampaignSchedule | null =>
  doc.schedule_json ? (JSON.parse(doc.schedule_json) as CampaignSchedule) : null;

/** Inserts the campaign's document if it is not there (the API normally wrote it already). */
export async function ensureBulkCallRecord(record: Record<string, unknown>): Promise<void> {
  await insertIfAbsent(BulkCall, record);
}

export interface LoadBulkCallPageResult {
  /** The contacts of `[fromIndex, fromIndex + limit)`, in order, each with its window's zone key (null: none). */
  contacts: PageContact[];
  /** Window intervals from now, for each zone key of the page. */
  windows: Record<string, WindowInterval[]>;
}

/** Loads contacts `[fromIndex, fromIndex + limit)` of a campaign with their calling-window zones. */
export async function loadBulkCallPage(input: {
  bulkCallId: string;
  fromIndex: number;
  limit: number;
}): Promise<LoadBulkCallPageResult> {
  const doc = await campaign(input.bulkCallId);
  const schedule = scheduleOf(doc);
  const expected = Math.max(0, Math.min(input.limit, doc.counts.total - input.fromIndex));
  const rows = (
    await findByIds(
      BulkCallResult,
      Array.from({ length: expected }, (_, i) => bulkCallResultId(input.bulkCallId, input.fromIndex + i)),
      { index: 1, phone: 1 },
    )
  ).sort((a, b) => a.index - b.index);
  if (rows.length !== expected)
    throw new Error(
      `bulk call ${input.bulkCallId}: ${rows.length} result rows from ${input.fromIndex}, expected ${expected}`,
    );
  const rules = new Map<string, WindowRule>();
  const contacts: PageContact[] = [];
  for (const row of rows) {
    const rule = windowRule(schedule, doc.livemode, row.phone);
    const zone = rule ? await contactZoneKey(row.phone, schedule?.timezone) : null;
    if (zone && rule) rules.set(zone, rule);
    contacts.push({ index: row.index, zone });
  }
  const now = Date.now();
  return {
    contacts,
    windows: Object.fromEntries([...rules].map(([zone, rule]) => [zone, windowIntervals(rule, zone, now)])),
  };
}

/** Window intervals from now for each zone key (the campaign's window, else the +1 default). */
export async function bulkCallWindows(input: {
  bulkCallId: string;
  zones: string[];
}): Promise<Record<string, WindowInterval[]>> {
  const schedule = scheduleOf(await campaign(input.bulkCallId));
  const rule: WindowRule = schedule
    ? { start: schedule.window.start, end: schedule.window.end, days: schedule.days }
    : DEFAULT_US_WINDOW;
  const now = Date.now();
  return Object.fromEntries(input.zones.map((zone) => [zone, windowIntervals(rule, zone, now)]));
}

/** What `prepareBulkCalls` decided for one contact. */
export type PreparedCall =
  | { index: number; kind: 'call'; input: CallWorkflowInput }
  | { index: number; kind: 'do_not_call' }
  | { index: number; kind: 'failed'; error: string };

/**
 * At dial time, for each `{index, attempt, callId}`: `do_not_call` when the number must not be called
 * (src/services/do-not-call.ts `blockedPhones`: the organization's list, its contacts marked so, the
 * national registry; checked now, so a number listed after the campaign started is still skipped), `failed`
 * when the agent (deleted too: `findLiveAgent`), the squad (or a member's agent) or form no longer exists,
 * else the call's `callWorkflow` (a squad's campaign: a squad call, `input.squad`)
 * input under `callId` (an attempt the campaign would redial on voicemail hangs up on a machine instead of
 * leaving the message when the agent says `leave_message_on: "last_attempt"`: `attemptVoicemail`).
 */
export async function prepareBulkCalls(input: {
  bulkCallId: string;
  items: { index: number; attempt: number; callId: string }[];
}): Promise<PreparedCall[]> {
  const doc = await campaign(input.bulkCallId);
  const tenant = { orgId: doc.org_id, livemode: doc.livemode };
  // By `_id` alone, the tenant checked here (see `findByIds`: FerretDB reads everything for other filters).
  const ours = <T extends { org_id: string; livemode: boolean }>(d: T | null) =>
    d && d.org_id === doc.org_id && d.livemode === doc.livemode ? d : null;
  const [answering, form, rows] = await Promise.all([
    campaignAnswering(doc, tenant),
    Form.findById(doc.form_id).lean().then(ours),
    findByIds(
      BulkCallResult,
      input.items.map((i) => bulkCallResultId(input.bulkCallId, i.index)),
    ),
  ]);
  const byIndex = new Map(rows.map((r) => [r.index, r]));
  const blocked = await blockedPhones(
    tenant,
    rows.map((r) => r.phone),
  );
  const settings = {
    from: doc.from ?? null,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    simulation: doc.simulation_json ? (JSON.parse(doc.simulation_json) as SimulationRequest) : null,
    max_duration_seconds: doc.max_duration_seconds,
  };
  const retry = JSON.parse(doc.retry_json) as { max_attempts: number; on: string[] };
  const callTenant = { ...tenant, aiDisclosure: await aiDisclosureEnabled(tenant) };
  const out: PreparedCall[] = [];
  for (const item of input.items) {
    const row = byIndex.get(item.index);
    if (!row) throw new Error(`bulk call ${input.bulkCallId} has no result row ${item.index}`);
    if (blocked.has(row.phone)) {
      out.push({ index: item.index, kind: 'do_not_call' });
      continue;
    }
    const who = typeof answering === 'string' ? answering : await answering(row.phone);
    if (typeof who === 'string') {
      out.push({ index: item.index, kind: 'failed', error: who });
      continue;
    }
    if (!form) {
      out.push({ index: item.index, kind: 'failed', error: `the form ${doc.form_id} no longer exists` });
      continue;
    }
    const callInput = newCallInput(item.callId, callTenant, who.agent, contactCallRequest(settings, rowContact(row)));
    if (who.squad) callInput.squad = who.squad;
    const voicemail = effectiveVoicemail(callInput);
    const attemptSetting = attemptVoicemail(voicemail, retry, item.attempt);
    if (attemptSetting !== voicemail && attemptSetting) callInput.voicemail = attemptSetting;
    callInput.campaign = {
      bulkCallId: input.bulkCallId,
      contactIndex: item.index,
      attempt: item.attempt,
      form: formDefinition(form),
    };
    out.push({ index: item.index, kind: 'call', input: callInput });
  }
  return out;
}

/** Who answers a campaign's call to a number: an agent at its version, and the squad a squad's call carries. */
type CallAnswering = (phone: string) => Promise<{ agent: VersionedAgent; squad?: CallSquad } | string>;

/**
 * Who answers the campaign's calls, as a function of the number (each call's version is fixed at dial
 * time, per contact: the agent's traffic split, or every squad member's: src/services/squads.ts
 * `squadForCall`); a string when no call can be placed (the agent or squad deleted, a member unusable).
 */
async function campaignAnswering(
  doc: { agent_id: string; squad_id?: string | null },
  tenant: { orgId: string; livemode: boolean },
): Promise<CallAnswering | string> {
  if (doc.squad_id) {
    const squad = await findLiveSquad(tenant, doc.squad_id);
    if (!squad) return `the squad ${doc.squad_id} no longer exists`;
    return async (phone) => {
      try {
        const { squad: carried, start } = await squadForCall(squad, tenant, { phone });
        return { agent: start, squad: carried };
      } catch (err) {
        if (err instanceof ApiError) return `the squad ${doc.squad_id} cannot run: ${err.message}`;
        throw err;
      }
    };
  }
  const agent = await findLiveAgent(tenant, doc.agent_id);
  if (!agent) return `the agent ${doc.agent_id} no longer exists`;
  const pick = await agentVersionPicker(agent);
  return async (phone) => ({ agent: pick({ phone }) });
}

/** One result row to write. */
export interface ResultWrite {
  index: number;
  status: ResultStatus;
  attempts: number;
  callIds: string[];
  /** The form's values; undefined leaves the stored ones. */
  form?: FormValues | null;
  /** Set when the contact is final: the id of its `bulk_call.contact_completed` event. */
  eventId: string | null;
}

export interface RecordBulkCallProgressInput {
  bulkCallId: string;
  /** Workflow time of the write (ms): `updated_ms`, `completed_ms` and the events' `created`. */
  atMs: number;
  rows: ResultWrite[];
  /** Ends every row still `pending` with this status (after `rows` are written). */
  endPending: 'canceled' | 'window_expired' | null;
  status: BulkCallStatus;
  counts: BulkCallCounts;
  /** Set once the campaign is over: `completed_at`. */
  completed: boolean;
  /** The id of `bulk_call.completed`, emitted after the campaign's document shows it over. */
  completedEventId: string | null;
}

/** Result-row updates sent in one `update` command (see `recordBulkCallProgress`). */
const ROWS_PER_UPDATE_COMMAND = 20;

/**
 * The form answers of `input`'s rows as they are stored, by row index: redacted when the campaign's
 * organization has redaction on (each contact's own number kept), like the answers on the contact's call
 * (src/activities/calls.ts); rows without answers are absent.
 */
async function storedForms(input: RecordBulkCallProgressInput): Promise<Map<number, FormValues>> {
  const out = new Map<number, FormValues>();
  const withForm = input.rows.filter((r) => r.form);
  if (withForm.length === 0) return out;
  const campaign = await BulkCall.findById(input.bulkCallId, { org_id: 1, livemode: 1 }).lean();
  if (!campaign) return out;
  const tenant = { orgId: campaign.org_id, livemode: campaign.livemode };
  const rows = await findByIds(
    BulkCallResult,
    withForm.map((r) => bulkCallResultId(input.bulkCallId, r.index)),
  );
  const phoneOf = new Map(rows.map((row) => [row.index, row.phone as string | null]));
  for (const r of withForm) out.set(r.index, await redactFormValues(tenant, r.form!, phoneOf.get(r.index) ?? null));
  return out;
}

/**
 * Writes what the workflow decided since its last write: result rows, the mass ending of pending rows,
 * the campaign's status and counts; then emits the per-contact events and, at the end, `bulk_call.completed`
 * (each event's `data.object` is the row or campaign as now stored).
 */
export async function recordBulkCallProgress(input: RecordBulkCallProgressInput): Promise<void> {
  // Progress by heartbeat (the workflow's heartbeat timeout): every step is idempotent, so a retry after a
  // lost worker simply does them again.
  const heartbeat = (step: string) => Context.current().heartbeat(step);
  const forms = await storedForms(input);
  // A few rows per command: FerretDB 1.24 keeps every statement's read cursor of one `update` command open
  // until the command ends, each holding one of its 100 SQLite connections, so a command of 100 updates
  // waits for ever for a connection to write with.
  for (let i = 0; i < input.rows.length; i += ROWS_PER_UPDATE_COMMAND) {
    await BulkCallResult.bulkWrite(
      input.rows.slice(i, i + ROWS_PER_UPDATE_COMMAND).map((r) => ({
        updateOne: {
          filter: { _id: bulkCallResultId(input.bulkCallId, r.index) },
          update: {
            $set: {
              status: r.status,
              attempts: r.attempts,
              call_ids: r.callIds,
              updated_ms: input.atMs,
              ...(r.form !== undefined
                ? { form_json: r.form ? JSON.stringify(forms.get(r.index) ?? r.form) : null }
                : {}),
            },
          },
        },
      })),
      { ordered: false },
    );
    heartbeat(`result rows ${i}`);
  }
  const doc = await BulkCall.findOneAndUpdate(
    { _id: input.bulkCallId },
    {
      $set: {
        status: input.status,
        counts: input.counts,
        updated_ms: input.atMs,
        ...(input.completed ? { completed_ms: input.atMs } : {}),
        // Rows still pending show this status from now on (src/models/bulk-calls.ts `pending_ended_as`).
        ...(input.endPending ? { pending_ended_as: input.endPending } : {}),
      },
    },
    { returnDocument: 'after' },
  ).lean();
  if (!doc) throw new Error(`bulk call ${input.bulkCallId} has no document`);
  const client = Context.current().client;
  const finals = input.rows.filter((r) => r.eventId);
  if (finals.length) {
    const rows = await findByIds(
      BulkCallResult,
      finals.map((r) => bulkCallResultId(input.bulkCallId, r.index)),
    );
    const byIndex = new Map(rows.map((r) => [r.index, r]));
    for (const r of finals) {
      const row = byIndex.get(r.index);
      if (!row) continue;
      heartbeat(`event ${r.eventId}`);
      await emitEvent(client, {
        id: r.eventId!,
        orgId: doc.org_id,
        livemode: doc.livemode,
        type: 'bulk_call.contact_completed',
        createdMs: input.atMs,
        object: renderBulkCallResult(row),
      });
    }
  }
  if (input.completedEventId) {
    await emitEvent(client, {
      id: input.completedEventId,
      orgId: doc.org_id,
      livemode: doc.livemode,
      type: 'bulk_call.completed',
      createdMs: input.atMs,
      object: renderBulkCall(doc),
    });
  }
}

/** What the store and Temporal say about a call that has not reported to its campaign. */
export interface CheckedCall {
  callId: string;
  /** The call's terminal status, or null while it runs. */
  status: CallStatus | null;
  endReason: EndReason | null;
  form: FormValues | null;
}

/**
 * For calls that have not reported in time: a call whose document shows it ended is reported from the
 * document; a call whose workflow is closed without an ending (terminated by an operator) is `failed`;
 * any other call is still running (status null). Keeps a lost report from holding a campaign's slot.
 */
export async function checkBulkCalls(input: { callIds: string[] }): Promise<CheckedCall[]> {
  const docs = await findByIds(Call, input.callIds);
  const byId = new Map(docs.map((d) => [d._id, d]));
  const out: CheckedCall[] = [];
  for (const callId of input.callIds) {
    const doc = byId.get(callId);
    if (doc && (TERMINAL_STATUSES as readonly string[]).includes(doc.status)) {
      out.push({
        callId,
        status: doc.status as CallStatus,
        endReason: (doc.end_reason ?? null) as EndReason | null,
        form: doc.form_json ? (JSON.parse(doc.form_json) as FormValues) : null,
      });
      continue;
    }
    let closed: boolean;
    try {
      const described = await Context.current().client.workflow.getHandle(callId).describe();
      closed = described.status.name !== 'RUNNING';
    } catch (err) {
      if ((err as Error).name !== 'WorkflowNotFoundError') throw err;
      closed = true;
    }
    out.push(
      closed
        ? { callId, status: 'failed', endReason: 'error', form: null }
        : { callId, status: null, endReason: null, form: null },
    );
  }
  return out;
}
