/**
 * Retention (issue 36 item 1): deletes what a tenant keeps past its `retention` (src/services/privacy.ts),
 * one bounded batch at a time. Each function here is one batch of one kind: it reads at most `limit`
 * documents by an indexed query (`{org_id, livemode, created…}`: equalities, then the time range), deletes
 * or empties them, and reports what it actually changed, so a batch redone after a crash counts only what
 * was still there. Called by the activities of `retentionSweepWorkflow` (src/activities/privacy.ts).
 *
 * What stays (the README's "Retention"): calls and conversations as skeletons — ids, timestamps, status,
 * direction, agent, numbers, duration, usage rows and `metadata` (your own keys, for reconciliation; keep
 * personal data out of it) — while a call's transcript turns, live-stream entries, `context`, collected
 * form answers and transfer notes go. The conversation's own document holds no text (no preview is kept).
 * The widget's conversation log holds message ids only and stays. Usage rows are never touched here.
 */
import type { Client } from '@temporalio/client';
import { Analysis } from '../models/analyses';
import { Call, CallStreamEntry, CallTurn } from '../models/calls';
import { Message } from '../models/conversations';
import { Event } from '../models/events';
import { WebhookAttempt, WebhookDelivery } from '../models/webhooks';
import type { RetentionBatchResult, RetentionKind } from '../shared/privacy';
import type { Tenant } from './privacy';
import { deleteRecording, expiredRecordingIds } from './recordings';

/** Documents read by one batch (calls: `CALLS_PER_BATCH`, each with its turns). */
export const RETENTION_BATCH = 500;
/** Calls emptied by one batch (each deletes the call's turns: a few hundred documents at most). */
const CALLS_PER_BATCH = 50;
/** Recordings deleted by one batch (each removes a file and emits an event). */
const RECORDINGS_PER_BATCH = 50;

/** One batch of a kind: the tenant, the time before which its documents expire (ms), and the clock. */
export interface RetentionBatchInput extends Tenant {
  kind: RetentionKind;
  cutoffMs: number;
  nowMs: number;
  /** At most this many documents per batch, below the defaults (tests). */
  batchLimit?: number;
}

/** A batch's size: the default, or the input's `batchLimit` when lower. */
const sized = (b: { batchLimit?: number }, dflt: number) => Math.max(1, Math.min(dflt, b.batchLimit ?? dflt));

const tenantOf = (t: Tenant) => ({ org_id: t.orgId, livemode: t.livemode });

/**
 * Empties the transcripts of up to `CALLS_PER_BATCH` ended calls created before the cutoff and not yet
 * emptied: deletes their turns and live-stream entries, clears `context`, form answers, transfer notes and
 * the inbound webhook's answer, and marks the call (`text_expired_ms`). The call stays as a skeleton.
 */
async function expireTranscripts(b: RetentionBatchInput): Promise<RetentionBatchResult> {
  const calls = await Call.find(
    {
      ...tenantOf(b),
      created: { $lt: Math.floor(b.cutoffMs / 1000) },
      ended_ms: { $ne: null },
      text_expired_ms: null,
    },
    { _id: 1 },
  )
    .sort({ created: 1 })
    .limit(sized(b, CALLS_PER_BATCH))
    .lean();
  let turns = 0;
  for (const { _id } of calls) {
    turns += (await CallTurn.deleteMany({ call_id: _id })).deletedCount;
    await CallStreamEntry.deleteMany({ call_id: _id });
    await Call.updateOne({ _id }, { $set: { ...CALL_TEXT_CLEARED, text_expired_ms: b.nowMs } });
  }
  return {
    counts: { transcript_turns: turns, skeletons: calls.length },
    more: calls.length === sized(b, CALLS_PER_BATCH),
  };
}

/** The fields of a call that hold what was said or given about the person, emptied (a skeleton's). */
export const CALL_TEXT_CLEARED = {
  context_json: '{}',
  form_json: null,
  transfer_json: null,
  inbound_webhook_json: null,
} as const;

/** Deletes up to `limit` documents of `model` by their ids, one `_id` equality each (FerretDB pushes those down). */
async function deleteByIds(model: typeof Message | typeof Analysis | typeof Event, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { deletedCount } = await (model as typeof Message).bulkWrite(
    ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
  return deletedCount;
}

/** Ids of the tenant's documents of `model` created before the cutoff, oldest first, at most `RETENTION_BATCH`. */
async function expiredIds(model: typeof Message | typeof Analysis | typeof Event, b: RetentionBatchInput) {
  const docs = await (model as typeof Message)
    .find({ ...tenantOf(b), created: { $lt: Math.floor(b.cutoffMs / 1000) } }, { _id: 1, subject_id: 1 })
    .sort({ created: 1 })
    .limit(sized(b, RETENTION_BATCH))
    .lean();
  return docs as unknown as { _id: string; subject_id?: string }[];
}

/** Deletes up to `RETENTION_BATCH` conversation messages created before the cutoff. */
async function expireMessages(b: RetentionBatchInput): Promise<RetentionBatchResult> {
  const docs = await expiredIds(Message, b);
  const n = await deleteByIds(
    Message,
    docs.map((d) => d._id),
  );
  return { counts: { messages: n }, more: docs.length === sized(b, RETENTION_BATCH) };
}

/** Deletes up to `RETENTION_BATCH` analyses created before the cutoff, and the copy on their call. */
async function expireAnalyses(b: RetentionBatchInput): Promise<RetentionBatchResult> {
  const docs = await expiredIds(Analysis, b);
  for (const d of docs)
    if (d.subject_id)
      await Call.updateOne({ _id: d.subject_id, analysis_id: d._id }, { $set: { analysis_json: null } });
  const n = await deleteByIds(
    Analysis,
    docs.map((d) => d._id),
  );
  return { counts: { analyses: n }, more: docs.length === sized(b, RETENTION_BATCH) };
}

/**
 * Deletes up to `RETENTION_BATCH` events created before the cutoff, with their webhook deliveries and
 * the deliveries' attempts (whose stored response bodies may echo the payload).
 */
async function expireEvents(b: RetentionBatchInput): Promise<RetentionBatchResult> {
  const docs = await expiredIds(Event, b);
  for (const { _id } of docs) {
    for (const d of await WebhookDelivery.find({ event_id: _id }, { _id: 1 }).lean())
      await WebhookAttempt.deleteMany({ delivery_id: d._id });
    await WebhookDelivery.deleteMany({ event_id: _id });
  }
  const n = await deleteByIds(
    Event,
    docs.map((d) => d._id),
  );
  return { counts: { events: n }, more: docs.length === sized(b, RETENTION_BATCH) };
}

/** Deletes up to `RECORDINGS_PER_BATCH` recordings created before the cutoff (the recordings' own path). */
async function expireRecordingBatch(temporal: Client, b: RetentionBatchInput): Promise<RetentionBatchResult> {
  const ids = await expiredRecordingIds(b, b.cutoffMs, sized(b, RECORDINGS_PER_BATCH));
  let n = 0;
  for (const id of ids) if (await deleteRecording(temporal, id, b.nowMs)) n++;
  return { counts: { recordings: n }, more: ids.length === sized(b, RECORDINGS_PER_BATCH) };
}

/**
 * One retention batch of one kind for one tenant (issue 36 item 1): deletes (or empties, for calls) at
 * most a bounded number of documents created before `cutoffMs`.
 * @param temporal the client that emits `recording.deleted` for deleted recordings
 * @returns the counts of what it changed, and whether more may remain (run it again)
 */
export async function retentionBatch(temporal: Client, b: RetentionBatchInput): Promise<RetentionBatchResult> {
  switch (b.kind) {
    case 'transcripts':
      return expireTranscripts(b);
    case 'messages':
      return expireMessages(b);
    case 'analyses':
      return expireAnalyses(b);
    case 'events':
      return expireEvents(b);
    case 'recordings':
      return expireRecordingBatch(temporal, b);
  }
}
