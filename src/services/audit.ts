/**
 * The audit log's writes and retention (the entry is src/models/audit.ts).
 *
 * Crash-safe by construction: no entry waits in a process's memory after the answer it records. The
 * API's audit middleware (src/api/audit.ts) writes an authenticated request's entry before the handler
 * runs (`openAuditEvent`, outcome pending) and its outcome before the answer leaves (`closeAuditEvent`);
 * the console's own endpoints (sign-in, keys) and the streams (`auditTranscriptRead`) await
 * `recordAuditEvent` before they answer. So a process killed at any point leaves either no change and no
 * answer, or the entry (with status 0 when it died between the change and the answer).
 * `expireAuditEvents` deletes, in bounded batches, the entries older than `AUDIT_RETENTION_DAYS`.
 */
import crypto from 'node:crypto';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { config } from '../config';
import { logger } from '../logger';
import { AuditEvent, type AuditActorType } from '../models/audit';
import { insertIfAbsentGrouped, updateOneGrouped } from '../models/store';
import { derivedId, newId } from '../shared/ids';
import { AUDIT_RETENTION_SCHEDULE_ID, AUDIT_RETENTION_WORKFLOW, type AuditRetentionWorkflow } from '../shared/audit';
import { writeWhenStored } from '../platform/store-outage';

/** What an audit entry says; see src/models/audit.ts for each field. */
export interface AuditEntry {
  orgId: string;
  livemode: boolean;
  actor: { type: AuditActorType; id: string };
  /** `METHOD /route/{template}`, or a console action's name (`console.sign_in`). */
  action: string;
  objectIds?: string[];
  requestId?: string | null;
  ip?: string | null;
  outcome: { status: number; errorCode?: string | null };
  /** When it happened (ms since the epoch; default now). */
  atMs?: number;
}

/** The stored document of an entry under `id` (src/models/audit.ts). */
function auditDoc(id: string, entry: AuditEntry, atMs: number) {
  return {
    _id: id,
    org_id: entry.orgId,
    livemode: entry.livemode,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    action: entry.action,
    object_ids: [...new Set(entry.objectIds ?? [])],
    request_id: entry.requestId ?? null,
    ip: entry.ip ?? null,
    outcome: { status: entry.outcome.status, error_code: entry.outcome.errorCode ?? null },
    created: Math.floor(atMs / 1000),
  };
}

/** A fresh entry id of the instant `atMs` (given: an entry dated in the past takes an id of its own instant). */
function auditId(atMs: number, given: boolean): string {
  // `newId` keeps ids monotonic within a process, so an entry dated in the past (a console action reported
  // late, a test) takes an id of its own instant instead.
  return given ? derivedId('aud', atMs, crypto.randomUUID()) : newId('aud', atMs);
}

/**
 * Appends one audit entry under a fresh `aud_…` id, and resolves once it is stored. The write is
 * idempotent (insert-if-absent under that id; grouped with the entries of concurrent requests,
 * src/models/store.ts `insertIfAbsentGrouped`) and rides out a store blip
 * (src/platform/store-outage.ts `writeWhenStored`: at most 4 s here, then retried in the background for
 * 15 minutes). Never throws: a write that fails otherwise is logged as an error with the entry (without
 * it the log would be silently short). Callers await it before they answer, so an answered request's
 * entry is stored, not waiting in the process's memory.
 * @returns the entry's id
 */
export async function recordAuditEvent(entry: AuditEntry): Promise<string> {
  const atMs = entry.atMs ?? Date.now();
  const id = auditId(atMs, entry.atMs !== undefined);
  const doc = auditDoc(id, entry, atMs);
  try {
    await writeWhenStored(`audit event ${id}`, () => insertIfAbsentGrouped(AuditEvent, doc));
  } catch (err) {
    logger.error('audit event not written', { error: (err as Error).message, audit_event: doc });
  }
  return id;
}

/** An entry written before the change it records (`openAuditEvent`), completed by `closeAuditEvent`. */
export interface OpenAuditEvent {
  id: string;
  entry: AuditEntry;
  atMs: number;
  /** True once the opening write is stored (false while it is deferred by a store outage). */
  stored: boolean;
}

/**
 * Writes a request's entry before the request changes anything, with the outcome not yet known
 * (`outcome.status` 0): a process killed between the change and its answer (SIGKILL, OOM, a lost
 * machine) leaves the entry in the log, status 0 ("the process stopped before it answered; the change
 * may have been made"). `closeAuditEvent` records the outcome before the answer is sent. Same write
 * guarantees as `recordAuditEvent` (never throws; rides out a blip of up to 4 s, then goes on in the background).
 */
export async function openAuditEvent(entry: Omit<AuditEntry, 'outcome'>): Promise<OpenAuditEvent> {
  const atMs = entry.atMs ?? Date.now();
  const opened: OpenAuditEvent = {
    id: auditId(atMs, entry.atMs !== undefined),
    entry: { ...entry, outcome: { status: 0 } },
    atMs,
    stored: false,
  };
  const doc = auditDoc(opened.id, opened.entry, atMs);
  try {
    await writeWhenStored(`audit event ${opened.id}`, async () => {
      await insertIfAbsentGrouped(AuditEvent, doc);
      opened.stored = true;
    });
  } catch (err) {
    logger.error('audit event not written', { error: (err as Error).message, audit_event: doc });
  }
  return opened;
}

/**
 * Records the outcome of an entry `openAuditEvent` wrote (its status, error code and the ids the answer
 * named), and resolves once stored: callers send the answer after it. When the opening write had not
 * reached the store, the whole entry is inserted (the late opening write then finds it and adds
 * nothing). Never throws.
 */
export async function closeAuditEvent(
  opened: OpenAuditEvent,
  outcome: AuditEntry['outcome'],
  objectIds: string[],
): Promise<void> {
  const entry: AuditEntry = { ...opened.entry, outcome, objectIds: [...(opened.entry.objectIds ?? []), ...objectIds] };
  const doc = auditDoc(opened.id, entry, opened.atMs);
  const update = { $set: { outcome: doc.outcome, object_ids: doc.object_ids } };
  try {
    await writeWhenStored(`audit event ${opened.id} outcome`, async () => {
      if (opened.stored || !(await insertIfAbsentGrouped(AuditEvent, doc)))
        await updateOneGrouped(AuditEvent, { _id: opened.id }, update);
    });
  } catch (err) {
    logger.error('audit event outcome not written', { error: (err as Error).message, audit_event: doc });
  }
}

/** Entries one `expireAuditEvents` call deletes at most. */
export const AUDIT_EXPIRY_BATCH = 500;

/**
 * Deletes up to `limit` of the oldest entries created before `nowMs - AUDIT_RETENTION_DAYS` (by id: ids
 * are time-ordered, so the cutoff is the smallest id of that instant): reads the batch's ids oldest first,
 * then deletes through the last of them, one bounded statement. Idempotent: a crash between the two
 * leaves the batch for the next call.
 * @returns how many it deleted, and whether more may be left (a full batch)
 */
export async function expireAuditEvents(
  nowMs: number,
  limit = AUDIT_EXPIRY_BATCH,
): Promise<{ deleted: number; more: boolean }> {
  const cutoff = derivedId('aud', nowMs - config().auditRetentionDays * 86_400_000, '').replace(
    /.{16}$/,
    '0'.repeat(16),
  );
  const batch = await AuditEvent.find({ _id: { $lt: cutoff } }, { _id: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  if (batch.length === 0) return { deleted: 0, more: false };
  const { deletedCount } = await AuditEvent.deleteMany({ _id: { $lte: batch[batch.length - 1]._id } });
  return { deleted: deletedCount, more: batch.length === limit };
}

/**
 * Creates the Temporal Schedule `audit-retention` that starts `auditRetentionWorkflow` every hour, unless
 * it exists (overlap policy SKIP), as `ensureRecordingRetentionSchedule` does. Called at start by every
 * worker process and `npm start`.
 * @param taskQueue the queue of the workers that run it
 */
export async function ensureAuditRetentionSchedule(temporal: Client, taskQueue = config().taskQueue): Promise<void> {
  try {
    await temporal.schedule.create<AuditRetentionWorkflow>({
      scheduleId: AUDIT_RETENTION_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: AUDIT_RETENTION_WORKFLOW, taskQueue, args: [{}] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
