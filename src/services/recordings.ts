/**
 * Recordings' rules (issue 30 item 5), Node-side: the signed audio links, storing and deleting audio in
 * the store's GridFS bucket, starting a call's `recordingWorkflow`, the organization's retention
 * (`recording_retention_days`, set with `svcctl recordings set-retention`) and the Temporal Schedule
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
import { emitEvent } from './events';

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

/** Bounds of `recording_retention_days` (inclusive): a day to ten years. */
export const RECORDING_RETENTION_RANGE = { min: 1, max: 3650 } as const;

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
  const { min, max } = RECORDING_RETENTION_RANGE;
  if (days !== null && (!Number.isInteger(days) || days < min || days > max))
    throw new Error(`recording_retention_days must be an integer from ${min} to ${max}; got ${shown}.`);
  return days;
}

/**
 * Sets how long the organization's recordings (both modes) are kept, in days from their creation; null
 * keeps them until deleted. Enforced by the retention schedule (`ensureRecordingRetentionSchedule`).
 * @throws Error for a value out of range or an unknown organization
 */
export async function setRecordingRetention(orgId: string, days: number | null): Promise<RecordingRetentionView> {
  checkRetentionDays(days);
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: { recording_retention_days: days } });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
  return { object: 'recording_retention', org: orgId, recording_retention_days: days };
}

/** The organization's retention. @throws Error when the organization does not exist */
export async function recordingRetention(orgId: string): Promise<RecordingRetentionView> {
  const org = await Org.findById(orgId).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  return { object: 'recording_retention', org: orgId, recording_retention_days: org.recording_retention_days ?? null };
}

/**
 * Deletes every kept recording older than its organization's `recording_retention_days` at `nowMs`
 * (each through `deleteRecording`: `recording.deleted` once). Organizations without a retention keep theirs.
 * @returns how many recordings it deleted
 */
export async function expireRecordings(temporal: Client, nowMs: number): Promise<number> {
  let deleted = 0;
  // A range (retentions are at least RECORDING_RETENTION_RANGE.min days), which MongoDB serves from the
  // `recording_retention_days` index; the embedded store reads the organizations table, once per sweep.
  const orgs = await Org.find(
    { recording_retention_days: { $gte: RECORDING_RETENTION_RANGE.min } },
    { recording_retention_days: 1 },
  ).lean();
  for (const org of orgs) {
    const days = org.recording_retention_days;
    if (days == null) continue;
    const expired = await Recording.find(
      { org_id: org._id, deleted_ms: null, created_ms: { $lt: nowMs - days * 86_400_000 } },
      { _id: 1 },
    ).lean();
    for (const r of expired) if (await deleteRecording(temporal, r._id, nowMs)) deleted++;
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
