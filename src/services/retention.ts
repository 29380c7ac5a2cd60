/**
 * Retention: deletes what a tenant keeps past its `retention` (src/services/privacy.ts),
 * one bounded batch at a time. Each function here is one batch of one kind: it reads at most `limit`
 * documents by an indexed query (`{org_id, livemode, created…}`: equalities, then the time range), deletes
 * or empties them; it counts what it will change before it acts and keeps that plan under the activity's
 * id, so a batch redone after a crash carries out the same plan and counts it once. Called by the activities of `retentionSweepWorkflow` (src/activities/privacy.ts).
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
import { ErasureBatch } from '../models/erasures';
import { ReplayTurn } from '../models/replays';
import { insertIfAbsent } from '../models/store';
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

/** A batch planned before it acts: the ids it will change and the counts of what that changes. */
interface RetentionPlan {
  ids: string[];
  result: RetentionBatchResult;
}

/**
 * The transcripts batch's plan: up to `CALLS_PER_BATCH` ended calls created before the cutoff and not yet
 * emptied, and their turns counted.
 */
async function planTranscripts(b: RetentionBatchInput): Promise<RetentionPlan> {
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
  for (const { _id } of calls) turns += await CallTurn.countDocuments({ call_id: _id });
  return {
    ids: calls.map((c) => c._id),
    result: {
      counts: { transcript_turns: turns, skeletons: calls.length },
      more: calls.length === sized(b, CALLS_PER_BATCH),
    },
  };
}

/**
 * Empties the transcripts of the planned calls: deletes their turns (and their replays, src/models/replays.ts)
 * and live-stream entries, clears
 * `context`, form answers, transfer notes and the inbound webhook's answer, and marks the call
 * (`text_expired_ms`). The call stays as a skeleton. Idempotent.
 */
async function expireTranscripts(ids: string[], nowMs: number): Promise<void> {
  for (const _id of ids) {
    await CallTurn.deleteMany({ call_id: _id });
    await ReplayTurn.deleteMany({ call_id: _id });
    await CallStreamEntry.deleteMany({ call_id: _id });
    await Call.updateOne({ _id }, { $set: { ...CALL_TEXT_CLEARED, text_expired_ms: nowMs } });
  }
}

/** The fields of a call that hold what was said or given about the person, emptied (a skeleton's). */
export const CALL_TEXT_CLEARED = {
  context_json: '{}',
  form_json: null,
  transfer_json: null,
  inbound_webhook_json: null,
  /** A `collect_payment` outcome: the card's last four digits and the confirmation code are the person's. */
  payment_json: null,
} as const;

/** Deletes the documents of `model` by their ids, one `_id` equality each (FerretDB pushes those down). */
async function deleteByIds(model: typeof Message | typeof Analysis | typeof Event, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await (model as typeof Message).bulkWrite(
    ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
}

/** The models of the kinds whose batch deletes documents by id. */
const MODELS = { messages: Message, analyses: Analysis, events: Event } as const;

/** A plan of `kind` (messages, analyses, events): the tenant's documents created before the cutoff, oldest first. */
async function planExpired(kind: keyof typeof MODELS, b: RetentionBatchInput): Promise<RetentionPlan> {
  const docs = await (MODELS[kind] as typeof Message)
    .find({ ...tenantOf(b), created: { $lt: Math.floor(b.cutoffMs / 1000) } }, { _id: 1 })
    .sort({ created: 1 })
    .limit(sized(b, RETENTION_BATCH))
    .lean();
  return {
    ids: docs.map((d) => d._id as string),
    result: { counts: { [kind]: docs.length }, more: docs.length === sized(b, RETENTION_BATCH) },
  };
}

/** Deletes the planned analyses, and the copy on their call. Idempotent. */
async function expireAnalyses(ids: string[]): Promise<void> {
  for (const _id of ids) {
    const doc = await Analysis.findById(_id, { subject_id: 1 }).lean();
    if (doc?.subject_id)
      await Call.updateOne({ _id: doc.subject_id, analysis_id: _id }, { $set: { analysis_json: null } });
  }
  await deleteByIds(Analysis, ids);
}

/**
 * Deletes the planned events with their webhook deliveries and the deliveries' attempts (whose stored
 * response bodies may echo the payload). Idempotent.
 */
async function expireEvents(ids: string[]): Promise<void> {
  for (const _id of ids) {
    for (const d of await WebhookDelivery.find({ event_id: _id }, { _id: 1 }).lean())
      await WebhookAttempt.deleteMany({ delivery_id: d._id });
    await WebhookDelivery.deleteMany({ event_id: _id });
  }
  await deleteByIds(Event, ids);
}

/** The plan of a kind's batch: what it will change, counted before anything changes. */
async function planBatch(b: RetentionBatchInput): Promise<RetentionPlan> {
  switch (b.kind) {
    case 'transcripts':
      return planTranscripts(b);
    case 'messages':
    case 'analyses':
    case 'events':
      return planExpired(b.kind, b);
    case 'recordings': {
      const ids = await expiredRecordingIds(b, b.cutoffMs, sized(b, RECORDINGS_PER_BATCH));
      return {
        ids,
        result: { counts: { recordings: ids.length }, more: ids.length === sized(b, RECORDINGS_PER_BATCH) },
      };
    }
  }
}

/** Carries out a plan (every step idempotent: a plan carried out again changes nothing more). */
async function actBatch(temporal: Client, b: RetentionBatchInput, ids: string[]): Promise<void> {
  switch (b.kind) {
    case 'transcripts':
      return expireTranscripts(ids, b.nowMs);
    case 'messages':
      return deleteByIds(Message, ids);
    case 'analyses':
      return expireAnalyses(ids);
    case 'events':
      return expireEvents(ids);
    case 'recordings':
      for (const id of ids) await deleteRecording(temporal, id, b.nowMs);
  }
}

/**
 * One retention batch of one kind for one tenant: plans (selects at most a bounded
 * number of documents created before `cutoffMs` and counts what deleting or emptying them changes), stores
 * the plan under `batchKey` (the activity's workflow run and activity id: the same on a retry), then acts.
 * A batch run again under the same key (a worker died mid-way) carries out the stored plan and answers its
 * counts, so a crash never loses nor doubles a count.
 * @param temporal the client that emits `recording.deleted` for deleted recordings
 * @returns the counts of what it changed, and whether more may remain (run it again)
 */
export async function retentionBatch(
  temporal: Client,
  b: RetentionBatchInput,
  batchKey: string | null = null,
): Promise<RetentionBatchResult> {
  const prior = batchKey ? await ErasureBatch.findById(batchKey).lean() : null;
  let plan: RetentionPlan;
  if (prior) plan = JSON.parse(prior.result_json) as RetentionPlan;
  else {
    plan = await planBatch(b);
    if (batchKey) {
      await insertIfAbsent(ErasureBatch, { _id: batchKey, result_json: JSON.stringify(plan), created_ms: b.nowMs });
      const stored = await ErasureBatch.findById(batchKey).lean();
      if (stored) plan = JSON.parse(stored.result_json) as RetentionPlan;
    }
  }
  await actBatch(temporal, b, plan.ids);
  return plan.result;
}
