/**
 * Erasure: removes or irreversibly redacts one person's data in a tenant, one bounded,
 * idempotent batch of one kind at a time (the activities of `erasureWorkflow`, src/activities/privacy.ts).
 * Every batch finds its documents by an indexed query that the erasure itself makes stop matching (a
 * redacted call no longer has the number in `to`; a deleted message is gone), or by a scan position the
 * workflow keeps (events, idempotency records): a batch redone after a crash changes, and counts, only
 * what was still there.
 *
 * What it reaches: the contact and its records; calls to or from the number (turns, live-stream entries,
 * dial intent, recording audio and analyses deleted; the numbers replaced by `[redacted]`; context,
 * metadata, form answers, analysis copy, transfer notes cleared); the WhatsApp and SMS conversations with
 * the number (their workflow terminated so the next message starts clean, messages, analyses and the
 * conversation deleted); campaign result rows with the number; the tenant's events whose payload names the
 * person (redacted in place) and their deliveries' stored response bodies; idempotency records whose
 * cached response names the person (deleted). Knowledge search trails are kept on transcript turns and
 * messages (`knowledge_json`, `tool_calls_json`) and go with them. What stays: the README's "Erasure".
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { config } from '../config';
import { Analysis } from '../models/analyses';
import { BulkCallResult } from '../models/bulk-calls';
import { Call, CallStreamEntry, CallTurn, DialIntent } from '../models/calls';
import { Contact, ContactRecord } from '../models/contacts';
import { Conversation, Message } from '../models/conversations';
import { Erasure, ErasureBatch, renderErasure } from '../models/erasures';
import { Event } from '../models/events';
import { IdempotencyRecord } from '../models/idempotency';
import { Recording, recordingIdOf } from '../models/recordings';
import { forkedCallId, Replay, ReplayCall, ReplayTurn } from '../models/replays';
import { insertIfAbsent } from '../models/store';
import { UsageRecord } from '../models/usage';
import { settleUsageRow } from './usage-rollups';
import { WebhookAttempt, WebhookDelivery } from '../models/webhooks';
import { openSecret, secretsMac } from '../secrets';
import { MESSAGING_CHANNELS } from '../shared/conversations';
import { findConversation } from './conversations';
import { derivedId } from '../shared/ids';
import {
  ERASURE_WORKFLOW,
  REDACTED,
  type ErasureWorkflow,
  type ErasureBatchResult,
  type ErasureCounts,
  type ErasurePerson,
  type ErasureSubject,
} from '../shared/privacy';
import { emitEvent } from './events';
import type { Tenant } from './privacy';
import { deleteRecording } from './recordings';
import { CALL_TEXT_CLEARED } from './retention';

/** Documents one scan batch reads (events, idempotency records). */
export const ERASURE_SCAN_BATCH = 500;
/** Calls one batch erases (each with its turns, recording and analyses). */
const CALLS_PER_BATCH = 20;

const tenantOf = (t: Tenant) => ({ org_id: t.orgId, livemode: t.livemode });
/** A batch's size: the default, or the input's `batchLimit` when lower. */
const sized = (limit: number | undefined, dflt: number) => Math.max(1, Math.min(dflt, limit ?? dflt));

/** The subject shown in the erasure object: a contact id as is, a number or external id masked. */
export function maskSubject(subject: ErasureSubject): string {
  if (subject.type === 'contact') return subject.contactId;
  const v = subject.type === 'phone' ? subject.phone : subject.externalId;
  if (v.length <= 4) return '•'.repeat(v.length);
  const head = subject.type === 'phone' ? Math.min(5, v.length - 4) : 1;
  return `${v.slice(0, head)}${'•'.repeat(Math.max(3, v.length - head - 4))}${v.slice(-4)}`;
}

/**
 * Stores a new erasure (`running`, zero counts), insert-if-absent by its id (a retried request with the
 * same Idempotency-Key finds the same one). The subject is stored masked with a keyed hash, never in clear.
 * @returns the erasure as stored
 */
export async function createErasure(t: Tenant, erasureId: string, subject: ErasureSubject, nowMs = Date.now()) {
  const raw =
    subject.type === 'contact' ? subject.contactId : subject.type === 'phone' ? subject.phone : subject.externalId;
  const doc = {
    _id: erasureId,
    ...tenantOf(t),
    subject_type: subject.type,
    subject_masked: maskSubject(subject),
    subject_hash: secretsMac('erasure-subject v1', `${t.orgId}|${t.livemode}|${subject.type}|${raw}`),
    status: 'running',
    counts_json: '{}',
    created_ms: nowMs,
    completed_ms: null,
  };
  await insertIfAbsent(Erasure, doc);
  return (await Erasure.findById(erasureId).lean())!;
}

/** The tenant's erasure, or null. */
export async function findErasure(t: Tenant, id: string) {
  return Erasure.findOne({ _id: id, ...tenantOf(t) }).lean();
}

/**
 * The person an erasure looks for: the subject, completed from the tenant's contact found by id, phone or
 * external id (its number, external id and name). An unknown person resolves to what the subject gives.
 */
export async function resolvePerson(t: Tenant, subject: ErasureSubject): Promise<ErasurePerson> {
  const by =
    subject.type === 'contact'
      ? { _id: subject.contactId }
      : subject.type === 'phone'
        ? { phone_key: subject.phone }
        : { external_key: subject.externalId };
  const contact = await Contact.findOne({ ...by, ...tenantOf(t) }).lean();
  const records = contact ? await ContactRecord.countDocuments({ contact_id: contact._id, ...tenantOf(t) }) : 0;
  return {
    records,
    contactId: contact?._id ?? null,
    phone: contact?.phone ?? (subject.type === 'phone' ? subject.phone : null),
    externalId: contact?.external_id ?? (subject.type === 'external_id' ? subject.externalId : null),
    name: contact?.name ?? null,
  };
}

/**
 * The strings that identify the person in stored text: the number in E.164, its digits without `+` and,
 * for a North American number, its ten national digits; the external id; the name (3 characters or more).
 */
export function needlesOf(p: ErasurePerson): string[] {
  const out = new Set<string>();
  if (p.phone) {
    out.add(p.phone);
    out.add(p.phone.replace(/^\+/, ''));
    if (/^\+1\d{10}$/.test(p.phone)) out.add(p.phone.slice(2));
  }
  if (p.externalId) out.add(p.externalId);
  if (p.name && p.name.length >= 3) out.add(p.name);
  return [...out].filter((n) => n.length >= 3);
}

/** Keys whose string values are free text about the person, emptied wherever a payload names them. */
const TEXT_KEYS = new Set(['text', 'summary', 'transcript', 'name', 'body', 'title', 'reason']);
/** Keys whose object values are the caller's own data (context, metadata, answers), emptied likewise. */
const OBJECT_KEYS = new Set(['context', 'metadata', 'fields', 'form', 'data', 'structured_data', 'contact']);

/** `value` with every needle replaced by `[redacted]`, and (`deep`) free-text fields emptied. */
export function redactValue(value: unknown, needles: string[], key = ''): unknown {
  if (typeof value === 'string') {
    if (TEXT_KEYS.has(key) && value.length > 0) return REDACTED;
    let s = value;
    for (const n of needles) s = s.split(n).join(REDACTED);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, needles));
  if (value && typeof value === 'object') {
    if (OBJECT_KEYS.has(key) && key !== 'data') return {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, needles, k)]));
  }
  return value;
}

/** True when `text` holds one of the needles. */
const names = (text: string | null | undefined, needles: string[]) => !!text && needles.some((n) => text.includes(n));

/** What erasing one call will change: its turns, its recording (if kept), its analyses (counted before acting). */
async function callCounts(callId: string): Promise<Partial<ErasureCounts>> {
  const rec = await Recording.findById(recordingIdOf(callId), { deleted_ms: 1 }).lean();
  return {
    calls: 1,
    transcript_turns: await CallTurn.countDocuments({ call_id: callId }),
    recordings: rec && rec.deleted_ms == null ? 1 : 0,
    analyses: await Analysis.countDocuments({ subject_id: callId }),
  };
}

/** Erases one call: its turns (and their replays), stream, dial intent, recording, analyses; then redacts the call itself. */
async function eraseCall(temporal: Client, callId: string, phone: string, nowMs: number): Promise<void> {
  await CallTurn.deleteMany({ call_id: callId });
  await ReplayTurn.deleteMany({ call_id: callId }); // its turns replayed against other agent versions

  await CallStreamEntry.deleteMany({ call_id: callId });
  await DialIntent.deleteOne({ _id: callId });
  const rec = await Recording.findById(recordingIdOf(callId), { deleted_ms: 1 }).lean();
  if (rec && rec.deleted_ms == null) await deleteRecording(temporal, rec._id, nowMs);
  await Analysis.deleteMany({ subject_id: callId });
  const call = await Call.findById(callId, { to: 1, from: 1, transferred_to: 1, compliance_json: 1 }).lean();
  const set: Record<string, unknown> = {
    ...CALL_TEXT_CLEARED,
    metadata_json: '{}',
    analysis_json: null,
    contact_id: null,
    error_message: null,
    text_expired_ms: nowMs,
  };
  for (const f of ['to', 'from', 'transferred_to'] as const) if (call?.[f] === phone) set[f] = REDACTED;
  // The dial gate's record stays (when and under which rules the call was dialed), without the number.
  if (call?.compliance_json) set.compliance_json = call.compliance_json.split(phone).join(REDACTED);
  await Call.updateOne({ _id: callId }, { $set: set });
}

/**
 * The forked calls `fork` replays made of recorded call `callId` (src/services/replay-forks.ts), not yet
 * erased: by its replay rows (index `{call_id}`) and their replays' mode.
 */
async function forkedCallsOf(callId: string): Promise<string[]> {
  const rows = await ReplayCall.find({ call_id: callId }, { replay_id: 1, index: 1 }).lean();
  const out: string[] = [];
  for (const row of rows) {
    const replay = await Replay.findById(row.replay_id, { mode: 1 }).lean();
    if (replay?.mode !== 'fork') continue;
    const id = forkedCallId(row.replay_id, callId, row.index);
    const call = await Call.findById(id, { text_expired_ms: 1 }).lean();
    if (call && call.text_expired_ms == null) out.push(id);
  }
  return out;
}

/** One batch of calls to or from the number (found by `{org_id, livemode, to}` then `{…, from}`). */
async function eraseCalls(temporal: Client, b: ErasureBatchInput, commit: Commit): Promise<ErasureBatchResult> {
  const { person: p, nowMs } = b;
  if (!p.phone) return commit({ counts: {}, more: false });
  const n = sized(b.batchLimit, CALLS_PER_BATCH);
  const found = [
    ...(await Call.find({ ...tenantOf(b), to: p.phone }, { _id: 1 })
      .limit(n)
      .lean()),
    ...(await Call.find({ ...tenantOf(b), from: p.phone }, { _id: 1 })
      .limit(n)
      .lean()),
  ];
  const recorded = [...new Set(found.map((c) => c._id))];
  // With each call, the test-mode calls `fork` replays made of it: the person's lines seeded their persona.
  const ids = [...recorded, ...(await Promise.all(recorded.map(forkedCallsOf))).flat()];
  let counts: Partial<ErasureCounts> = {};
  for (const id of ids) counts = sum(counts, await callCounts(id));
  const result = await commit({ counts, more: found.length > 0 });
  // Forks first: a batch redone after a crash finds the recorded call again only while it is not erased.
  for (const id of ids.slice(recorded.length)) await eraseCall(temporal, id, p.phone, nowMs);
  for (const id of recorded) await eraseCall(temporal, id, p.phone, nowMs);
  return result;
}

function sum(a: Partial<ErasureCounts>, b: Partial<ErasureCounts>): Partial<ErasureCounts> {
  const out: Record<string, number> = { ...a } as Record<string, number>;
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + (v ?? 0);
  return out as Partial<ErasureCounts>;
}

/**
 * One batch of the conversations with the number (one per messaging channel, found by its unique `key`):
 * terminates the conversation's workflow (its memory goes with it, so the next message starts a new
 * conversation), deletes up to `ERASURE_SCAN_BATCH` of its messages, and once none are left its analyses
 * and the conversation itself.
 */
async function eraseConversations(temporal: Client, t: ErasureBatchInput, commit: Commit): Promise<ErasureBatchResult> {
  const p = t.person;
  if (!p.phone) return commit({ counts: {}, more: false });
  const n = sized(t.batchLimit, ERASURE_SCAN_BATCH);
  let counts: Partial<ErasureCounts> = {};
  let more = false;
  const work: { convId: string; messages: string[]; last: boolean }[] = [];
  for (const channel of MESSAGING_CHANNELS) {
    // The workflow id hashes the number (src/services/conversations.ts `conversationWorkflowIds`): the
    // stored conversation names the id its workflow runs under.
    const conv = await findConversation({ orgId: t.orgId, livemode: t.livemode, channel, customerNumber: p.phone });
    if (!conv) continue;
    try {
      await temporal.workflow.getHandle(conv.key).terminate('erasure of the customer');
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    const msgs = await Message.find({ conversation_id: conv._id }, { _id: 1 }).sort({ _id: -1 }).limit(n).lean();
    const last = msgs.length < n;
    more ||= !last;
    counts = sum(counts, { messages: msgs.length });
    if (last)
      counts = sum(counts, { analyses: await Analysis.countDocuments({ subject_id: conv._id }), conversations: 1 });
    work.push({ convId: conv._id, messages: msgs.map((m) => m._id), last });
  }
  const result = await commit({ counts, more });
  for (const w of work) {
    for (const id of w.messages) await Message.deleteOne({ _id: id });
    if (!w.last) continue;
    await rekeyUsageRows(w.convId, p.phone);
    await Analysis.deleteMany({ subject_id: w.convId });
    await Conversation.deleteOne({ _id: w.convId });
  }
  return result;
}

/**
 * Usage rows stay (usage totals must stay true), but a conversation's LLM rows are keyed by the activity
 * that made them, whose workflow id holds the number: each such row is copied under a hashed key and the
 * original deleted (insert first, so a crash between leaves a duplicate key never a missing row: the copy
 * is found by the same `subject_id` and the original deleted on the redo).
 */
async function rekeyUsageRows(subjectId: string, phone: string): Promise<void> {
  for (const found of await UsageRecord.find({ subject_id: subjectId }).lean()) {
    if (!found._id.includes(phone)) continue;
    // In its rollups first: the copy must never be added to them again under its new key.
    const row = await settleUsageRow(found);
    const hashed = `${row._id.split(':')[0]}:${crypto.createHash('sha256').update(row._id).digest('hex')}`;
    await insertIfAbsent(UsageRecord, { ...row, _id: hashed });
    await UsageRecord.deleteOne({ _id: row._id });
  }
}

/**
 * One batch of campaign result rows with the number (`{org_id, livemode, phone}`): number and contact
 * redacted (the contact becomes the string `[redacted]`, a form the result's `contact` takes: a number given alone).
 */
async function eraseBulkCallResults(t: ErasureBatchInput, commit: Commit): Promise<ErasureBatchResult> {
  const p = t.person;
  if (!p.phone) return commit({ counts: {}, more: false });
  const n = sized(t.batchLimit, ERASURE_SCAN_BATCH);
  const rows = await BulkCallResult.find({ ...tenantOf(t), phone: p.phone }, { _id: 1 })
    .limit(n)
    .lean();
  const result = await commit({ counts: { bulk_call_results: rows.length }, more: rows.length === n });
  for (const r of rows)
    await BulkCallResult.updateOne(
      { _id: r._id },
      { $set: { phone: REDACTED, contact_json: JSON.stringify(REDACTED), form_json: null } },
    );
  return result;
}

/**
 * One scan batch of the tenant's events, by `_id` after `after` (index `{org_id, livemode, _id}`): each
 * event whose payload names the person has its payload redacted in place (`redactValue`), and the stored
 * response bodies of its deliveries' attempts cleared.
 */
async function eraseEvents(
  t: ErasureBatchInput,
  needles: string[],
  after: string | null,
  commit: Commit,
): Promise<ErasureBatchResult> {
  const n = sized(t.batchLimit, ERASURE_SCAN_BATCH);
  const docs = await Event.find(
    { ...tenantOf(t), ...(after ? { _id: { $gt: after } } : {}) },
    { _id: 1, payload_json: 1 },
  )
    .sort({ _id: 1 })
    .limit(n)
    .lean();
  const counts: Partial<ErasureCounts> = { events: 0, webhook_attempts: 0 };
  const hits: { id: string; payload: string; deliveries: string[] }[] = [];
  for (const e of docs) {
    if (!names(e.payload_json, needles)) continue;
    const deliveries = (await WebhookDelivery.find({ event_id: e._id }, { _id: 1 }).lean()).map((d) => d._id);
    counts.events!++;
    for (const d of deliveries) counts.webhook_attempts! += await WebhookAttempt.countDocuments({ delivery_id: d });
    hits.push({ id: e._id, payload: JSON.stringify(redactValue(JSON.parse(e.payload_json), needles)), deliveries });
  }
  const result = await commit({ counts, more: docs.length === n, after: docs[docs.length - 1]?._id ?? after });
  for (const h of hits) {
    await Event.updateOne({ _id: h.id }, { $set: { payload_json: h.payload } });
    for (const d of h.deliveries)
      await WebhookAttempt.updateMany({ delivery_id: d }, { $set: { response_body: null, error: null } });
  }
  return result;
}

/**
 * One scan batch of the tenant's idempotency records, by `_id` after `after` (index
 * `{org_id, livemode, _id}`): a record whose cached response names the person is deleted (a retry of that
 * request then runs anew, as after the records' 24 hours).
 */
async function eraseIdempotencyRecords(
  t: ErasureBatchInput,
  needles: string[],
  after: string | null,
  commit: Commit,
): Promise<ErasureBatchResult> {
  const n = sized(t.batchLimit, ERASURE_SCAN_BATCH);
  const docs = await IdempotencyRecord.find(
    { ...tenantOf(t), ...(after ? { _id: { $gt: after } } : {}) },
    { _id: 1, response_json: 1 },
  )
    .sort({ _id: 1 })
    .limit(n)
    .lean();
  const hits = docs.filter((r) => names(openSecret(r.response_json), needles)).map((r) => r._id);
  const result = await commit({
    counts: { idempotency_records: hits.length },
    more: docs.length === n,
    after: docs.at(-1)?._id ?? after,
  });
  for (const id of hits) await IdempotencyRecord.deleteOne({ _id: id });
  return result;
}

/**
 * The contact and its records, deleted (again: the request that started the erasure deleted them at once,
 * so `GET /v1/contacts/{id}` is 404 as soon as it answers). Counted as resolved at the start, so the
 * counts are the same whoever deleted them first.
 */
async function eraseContact(t: Tenant, p: ErasurePerson): Promise<ErasureBatchResult> {
  if (!p.contactId) return { counts: {}, more: false };
  await ContactRecord.deleteMany({ contact_id: p.contactId, ...tenantOf(t) });
  await Contact.deleteOne({ _id: p.contactId, ...tenantOf(t) });
  return { counts: { records: p.records, contacts: 1 }, more: false };
}

/**
 * Starts an erasure: resolves the person, stores the erasure (`running`), starts its
 * `erasureWorkflow` (workflow id = the erasure id; a second start of the same id, a retried request, is a
 * no-op), then deletes the contact and its records at once (the workflow does the rest).
 * @param erasureId `ers_…` (from the Idempotency-Key's record when there is one)
 * @returns the erasure as stored
 */
export async function startErasure(temporal: Client, t: Tenant, erasureId: string, subject: ErasureSubject) {
  const person = await resolvePerson(t, subject);
  const doc = await createErasure(t, erasureId, subject);
  try {
    await temporal.workflow.start<ErasureWorkflow>(ERASURE_WORKFLOW, {
      workflowId: erasureId,
      taskQueue: config().taskQueue,
      args: [{ erasureId, orgId: t.orgId, livemode: t.livemode, subject, person }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Erasure of ${subject.type === 'contact' ? subject.contactId : maskSubject(subject)}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  if (person.contactId) await eraseContact(t, person);
  return doc;
}

/** One batch of an erasure: the kind, the person, the scan position (events, idempotency records). */
export interface ErasureBatchInput extends Tenant {
  kind: import('../shared/privacy').ErasureKind;
  person: ErasurePerson;
  after: string | null;
  nowMs: number;
  /** At most this many documents per batch, below the defaults (tests). */
  batchLimit?: number;
}

/**
 * Hands a batch's result over before the batch acts: the result is stored first (`ErasureBatch`), so a
 * batch redone after a crash mid-way answers the counts it planned, not only what was left to change.
 */
type Commit = (result: ErasureBatchResult) => Promise<ErasureBatchResult>;

/** Runs one batch of `b.kind`, planning (counting) before acting through `commit`. */
async function runBatch(temporal: Client, b: ErasureBatchInput, commit: Commit): Promise<ErasureBatchResult> {
  const needles = needlesOf(b.person);
  switch (b.kind) {
    case 'calls':
      return eraseCalls(temporal, b, commit);
    case 'conversations':
      return eraseConversations(temporal, b, commit);
    case 'bulk_call_results':
      return eraseBulkCallResults(b, commit);
    case 'events':
      return needles.length ? eraseEvents(b, needles, b.after, commit) : commit({ counts: {}, more: false });
    case 'idempotency_records':
      return needles.length
        ? eraseIdempotencyRecords(b, needles, b.after, commit)
        : commit({ counts: {}, more: false });
    case 'contacts':
      return commit(await eraseContact(b, b.person));
  }
}

/**
 * One bounded, idempotent batch of one kind of an erasure. A batch counts what it will
 * change, stores that under `batchKey` (the activity's workflow run and activity id: the same on a retry),
 * then acts; a batch run again under the same key (a worker died mid-way) acts on what is left and answers
 * the stored counts, so a crash never loses nor doubles a count.
 * @param temporal the client that terminates conversation workflows and emits `recording.deleted`
 * @returns what it changed, whether more may remain, and where a scan continues
 */
export async function erasureBatch(
  temporal: Client,
  b: ErasureBatchInput,
  batchKey: string | null = null,
): Promise<ErasureBatchResult> {
  const prior = batchKey ? await ErasureBatch.findById(batchKey).lean() : null;
  if (prior) {
    await runBatch(temporal, b, async (r) => r);
    return JSON.parse(prior.result_json) as ErasureBatchResult;
  }
  return runBatch(temporal, b, async (result) => {
    if (batchKey)
      await insertIfAbsent(ErasureBatch, { _id: batchKey, result_json: JSON.stringify(result), created_ms: b.nowMs });
    return result;
  });
}

/** Stores an erasure's counts so far (`GET /v1/erasures/{id}` shows them while it runs). */
export async function saveErasureCounts(erasureId: string, counts: ErasureCounts): Promise<void> {
  await Erasure.updateOne({ _id: erasureId, status: 'running' }, { $set: { counts_json: JSON.stringify(counts) } });
}

/**
 * Completes an erasure: its final counts, `completed`, and the `erasure.completed` event (its id derived
 * from the erasure's, so a retry emits it once).
 */
export async function completeErasure(temporal: Client, erasureId: string, counts: ErasureCounts, nowMs: number) {
  await Erasure.updateOne(
    { _id: erasureId, status: 'running' },
    { $set: { counts_json: JSON.stringify(counts), status: 'completed', completed_ms: nowMs } },
  );
  const doc = await Erasure.findById(erasureId).lean();
  if (!doc) return;
  await emitEvent(temporal, {
    id: derivedId('evt', doc.completed_ms ?? nowMs, `${erasureId}:erasure.completed`),
    orgId: doc.org_id,
    livemode: doc.livemode,
    type: 'erasure.completed',
    createdMs: doc.completed_ms ?? nowMs,
    object: renderErasure(doc),
  });
}
