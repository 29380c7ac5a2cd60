/**
 * Recordings' rules, Node-side: the signed audio links, storing and deleting audio in
 * the store's GridFS bucket, starting a call's `recordingWorkflow`, the organization's retention
 * (`retention.recordings_days` per mode, src/services/privacy.ts; `svcctl recordings set-retention`) and the Temporal Schedule
 * that enforces it. The contract is src/shared/recordings.ts; the documents src/models/recordings.ts.
 */
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client } from '@temporalio/client';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import mongoose from 'mongoose';
import { config } from '../config';
import { Org } from '../models/orgs';
import { Recording, recordingBucket, renderRecording, type RecordingDoc } from '../models/recordings';
import type { WithId } from '../models/store';
import { secretsMac } from '../secrets';
import { derivedId } from '../shared/ids';
import {
  RECORDING_LINK_TTL_SECONDS,
  RECORDING_RETENTION_SCHEDULE_ID,
  RECORDING_RETENTION_WORKFLOW,
  RECORDING_WORKFLOW,
  recordingWorkflowId,
  type RecordingRetentionWorkflow,
  type RecordingWorkflow,
  type RecordingWorkflowInput,
} from '../shared/recordings';
import { RETENTION_DAYS_RANGE } from '../shared/privacy';
import { emitEvent } from './events';
import {
  checkRetentionDays as checkDays,
  privacyOf,
  retentionTenants,
  setPrivacySettings,
  type Tenant,
} from './privacy';

/** The HMAC purpose of audio links (src/secrets.ts `secretsMac`). */
const LINK_PURPOSE = 'recording-audio-link v1';

/** What a link's signature covers: the recording and the link's expiry (unix seconds). */
const linkPayload = (recordingId: string, expires: number) => `${recordingId}.${expires}`;

/**
 * A signed link to a recording's audio on the API (`GET /v1/recordings/{id}/audio?expires=&signature=`,
 * under `PUBLIC_BASE_URL`), valid `RECORDING_LINK_TTL_SECONDS` (10 minutes) from `nowMs`; HMAC-SHA256
 * with a key derived from `SECRETS_KEY`, so every API process verifies what any one signed.
 * @returns the URL and its expiry (unix seconds)
 */
export function signedAudioLink(recordingId: string, nowMs = Date.now()): { url: string; expiresAt: number } {
  const expiresAt = Math.floor(nowMs / 1000) + RECORDING_LINK_TTL_SECONDS;
  const signature = secretsMac(LINK_PURPOSE, linkPayload(recordingId, expiresAt));
  const url = `${config().publicBaseUrl}/v1/recordings/${recordingId}/audio?expires=${expiresAt}&signature=${signature}`;
  return { url, expiresAt };
}

/**
 * Whether an audio link's `expires` and `signature` are the service's for `recordingId` and not past
 * (`nowMs`). A link edited in any part (another recording, a later expiry, a changed signature) fails.
 */
export function audioLinkValid(recordingId: string, expires: string, signature: string, nowMs = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= nowMs) return false;
  const expected = Buffer.from(secretsMac(LINK_PURPOSE, linkPayload(recordingId, Number(expires))));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * Writes audio into the recordings' GridFS bucket under `filename`, from `chunks` (a stream or chunks).
 * @returns the file's id (ObjectId hex) and its size in bytes
 */
export async function storeAudio(
  filename: string,
  chunks: Readable | Iterable<Buffer> | AsyncIterable<Buffer>,
  metadata: Record<string, unknown>,
): Promise<{ fileId: string; sizeBytes: number }> {
  const upload = recordingBucket().openUploadStream(filename, { metadata });
  let sizeBytes = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        sizeBytes += chunk.length;
        yield chunk;
      }
    })(),
  );
  await pipeline(counted, upload);
  return { fileId: upload.id.toString(), sizeBytes };
}

/** Removes a stored audio file; one already gone is not an error. */
export async function removeAudio(fileId: string): Promise<void> {
  try {
    await recordingBucket().delete(new mongoose.Types.ObjectId(fileId));
  } catch (err) {
    if (!/File not found|FileNotFound/i.test((err as Error).message)) throw err;
  }
}

/** Removes every stored file named `filename` (what an interrupted earlier attempt left behind). */
export async function removeAudioNamed(filename: string): Promise<void> {
  for (const f of await recordingBucket().find({ filename }).toArray()) await removeAudio(f._id.toString());
}

/** File name of a browser room recording's parts in the bucket (joined into `<id>.wav` when the call ends). */
export const roomPartFilename = (recordingId: string): string => `${recordingId}.part`;

/**
 * Stores one part of a browser room's recording (src/voice/room-recorder.ts) as its own file in the
 * recordings' bucket, so a worker's crash loses at most the part being recorded, never the ones before.
 * @param part interleaved two-channel 16-bit PCM from `startMs` (ms since the epoch)
 * @param session the attendance that recorded it (run, activity, attempt), for operators
 */
export async function storeRoomPart(
  call: { callId: string; orgId: string; recordingId: string },
  part: { startMs: number; frames: number; sampleRate: number; pcm: Buffer },
  session: string,
): Promise<void> {
  await storeAudio(roomPartFilename(call.recordingId), [part.pcm], {
    recording_id: call.recordingId,
    call_id: call.callId,
    org_id: call.orgId,
    start_ms: part.startMs,
    frames: part.frames,
    sample_rate: part.sampleRate,
    session,
  });
}

/**
 * Marks a browser room's recording as complete: the attendance that ended with the call stored its last
 * part (an empty file among the parts, metadata `last: true`; `roomParts` skips it). Without the mark
 * (no attendance was in the room at the end: its worker died) the recording is joined once no attendance
 * can still be storing one (src/activities/recordings.ts `storeRecording`).
 */
export async function markRoomRecorded(
  call: { callId: string; orgId: string; recordingId: string },
  session: string,
): Promise<void> {
  await storeAudio(roomPartFilename(call.recordingId), [], {
    recording_id: call.recordingId,
    call_id: call.callId,
    org_id: call.orgId,
    last: true,
    session,
  });
}

/** Whether the attendance that ended with the call marked the room's recording complete (`markRoomRecorded`). */
export async function roomRecordedMarked(recordingId: string): Promise<boolean> {
  const marks = await recordingBucket()
    .find({ filename: roomPartFilename(recordingId), 'metadata.last': true })
    .limit(1)
    .toArray();
  return marks.length > 0;
}

/** A stored part of a room's recording: its start (ms since the epoch), rate, and a reader of its bytes. */
export interface StoredRoomPart {
  startMs: number;
  sampleRate: number;
  chunks: () => AsyncIterable<Buffer>;
}

/** The stored parts of a room's recording, every attendance's, in order of their start. */
export async function roomParts(recordingId: string): Promise<StoredRoomPart[]> {
  const bucket = recordingBucket();
  const files = await bucket.find({ filename: roomPartFilename(recordingId) }).toArray();
  return files
    .filter((f) => f.metadata?.last !== true)
    .map((f) => ({
      startMs: Number(f.metadata?.start_ms),
      sampleRate: Number(f.metadata?.sample_rate),
      chunks: () => bucket.openDownloadStream(f._id) as AsyncIterable<Buffer>,
    }))
    .sort((a, b) => a.startMs - b.startMs);
}

/**
 * Deletes a recording: marks it deleted (it is gone for the API from then on), removes its audio, and
 * emits `recording.deleted` under an id derived from the recording, so a retried or concurrent deletion
 * emits it once. A recording already deleted is finished the same way (its audio removed, the event
 * emitted once).
 * @param temporal the client that starts the event's webhook deliveries
 * @returns the recording as deleted
 */
export async function deleteRecording(
  temporal: Client,
  recordingId: string,
  nowMs = Date.now(),
): Promise<WithId<RecordingDoc> | null> {
  const marked = await Recording.findOneAndUpdate(
    { _id: recordingId, deleted_ms: null },
    { $set: { deleted_ms: nowMs } },
    { returnDocument: 'after' },
  ).lean();
  const doc = marked ?? (await Recording.findById(recordingId).lean());
  if (!doc || doc.deleted_ms == null) return null;
  if (doc.file_id) await removeAudio(doc.file_id);
  await emitEvent(temporal, {
    id: derivedId('evt', doc.deleted_ms, `${doc._id}:recording.deleted`),
    orgId: doc.org_id,
    livemode: doc.livemode,
    type: 'recording.deleted',
    createdMs: doc.deleted_ms,
    object: renderRecording(doc, null),
  });
  return doc;
}

/**
 * Starts the call's `recordingWorkflow` (workflow id derived from the call id, `REJECT_DUPLICATE`): a
 * second start for the same call (a repeated provider callback) is a no-op.
 * @returns false when it had already been started
 */
export async function startRecordingWorkflow(temporal: Client, input: RecordingWorkflowInput): Promise<boolean> {
  try {
    await temporal.workflow.start<RecordingWorkflow>(RECORDING_WORKFLOW, {
      workflowId: recordingWorkflowId(input.callId),
      taskQueue: config().taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Recording of ${input.callId} (${input.source.kind})`,
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Bounds of `recording_retention_days` (inclusive): a day to ten years (src/shared/privacy.ts). */
export const RECORDING_RETENTION_RANGE = RETENTION_DAYS_RANGE;

/** What `svcctl recordings set-retention` and `get-retention` print. */
export interface RecordingRetentionView {
  object: 'recording_retention';
  org: string;
  /** Days a recording is kept from its creation; null: kept until deleted. */
  recording_retention_days: number | null;
}

/**
 * Checks a retention an operator asked for: an integer within `RECORDING_RETENTION_RANGE`, or null (keep).
 * @throws Error naming the range and the value
 */
export function checkRetentionDays(days: number | null, shown = String(days)): number | null {
  return checkDays(days, 'recording_retention_days', shown);
}

/**
 * Sets how long the organization's recordings (both modes) are kept, in days from their creation; null
 * keeps them until deleted. One source of truth with `POST /v1/account`'s `retention.recordings_days`
 *: this sets that field in both modes. Enforced by the retention schedules.
 * @throws Error for a value out of range or an unknown organization
 */
export async function setRecordingRetention(orgId: string, days: number | null): Promise<RecordingRetentionView> {
  checkRetentionDays(days);
  for (const livemode of [true, false])
    await setPrivacySettings({ orgId, livemode }, { retention: { recordings_days: days } });
  return { object: 'recording_retention', org: orgId, recording_retention_days: days };
}

/**
 * The organization's recording retention: the live mode's `retention.recordings_days` (what
 * `set-retention` sets in both modes; `POST /v1/account` may set a mode's own).
 * @throws Error when the organization does not exist
 */
export async function recordingRetention(orgId: string): Promise<RecordingRetentionView> {
  const org = await Org.findById(orgId).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  const days = privacyOf(org, true).retention.recordings_days;
  return { object: 'recording_retention', org: orgId, recording_retention_days: days };
}

/**
 * The recordings of `tenant` created before `cutoffMs` and not yet deleted, at most `limit`, oldest
 * first: an equality on `{org_id, livemode, deleted_ms}` and a range on `created_ms` (index
 * `{org_id, livemode, deleted_ms, created_ms}`).
 */
export async function expiredRecordingIds(tenant: Tenant, cutoffMs: number, limit: number): Promise<string[]> {
  const docs = await Recording.find(
    { org_id: tenant.orgId, livemode: tenant.livemode, deleted_ms: null, created_ms: { $lt: cutoffMs } },
    { _id: 1 },
  )
    .sort({ created_ms: 1 })
    .limit(limit)
    .lean();
  return docs.map((d) => d._id);
}

/**
 * Deletes every kept recording older than its tenant's `retention.recordings_days` at `nowMs` (each
 * through `deleteRecording`: `recording.deleted` once). Tenants without one keep theirs.
 * @returns how many recordings it deleted
 */
export async function expireRecordings(temporal: Client, nowMs: number): Promise<number> {
  let deleted = 0;
  for (const tenant of await retentionTenants()) {
    const days = tenant.retention.recordings_days;
    if (days == null) continue;
    for (const id of await expiredRecordingIds(tenant, nowMs - days * 86_400_000, 10_000))
      if (await deleteRecording(temporal, id, nowMs)) deleted++;
  }
  return deleted;
}

/**
 * Creates the Temporal Schedule that starts `recordingRetentionWorkflow` every 10 minutes, unless it
 * exists (overlap policy SKIP). Called by every worker at start, like the call reconciler's.
 */
export async function ensureRecordingRetentionSchedule(
  temporal: Client,
  taskQueue = config().taskQueue,
): Promise<void> {
  try {
    await temporal.schedule.create<RecordingRetentionWorkflow>({
      scheduleId: RECORDING_RETENTION_SCHEDULE_ID,
      spec: { intervals: [{ every: '10 minutes' }] },
      action: { type: 'startWorkflow', workflowType: RECORDING_RETENTION_WORKFLOW, taskQueue, args: [{}] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
