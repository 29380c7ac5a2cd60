/**
 * Recording activities, run by `recordingWorkflow` and `recordingRetentionWorkflow`
 * (src/workflows/recordings.ts). Each is idempotent: the recording's id is derived from the call id, its
 * document is inserted once, and events carry ids fixed by the workflow (or derived from the recording).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { Call, CallTurn } from '../models/calls';
import { Recording, recordingIdOf, renderRecording } from '../models/recordings';
import { insertIfAbsent } from '../models/store';
import { deleteTwilioRecording, fetchRecordingAudio } from '../providers/twilio';
import { callCredentials, recordingCredentials } from '../services/telephony-accounts';
import { emitEvent } from '../services/events';
import {
  joinedWav,
  ROOM_SAMPLE_RATE,
  synthesizedWav,
  turnSegments,
  WAV_HEADER_BYTES,
} from '../services/recording-audio';
import {
  expireRecordings as expire,
  removeAudio,
  removeAudioNamed,
  roomParts,
  roomPartFilename,
  roomRecordedMarked,
  storeAudio,
} from '../services/recordings';
import type { RecordingRetentionInput, RecordingWorkflowInput } from '../shared/recordings';

/**
 * Copies a call's audio into the store and records the recording (`rcd_…`, id derived from the call):
 * a live call's WAV fetched from Twilio, a test-mode call's synthesized from its transcript (a tone per
 * turn on the speaker's channel, the call's length from answer to end; with `fromSeq`, consent given
 * during the call, from that turn to the end), a browser room's joined from the
 * parts its attendances stored (src/voice/room-recorder.ts; silence where none was kept, e.g. while a
 * crashed worker's attendance was being retried), the call's length from answer to end, the parts then
 * removed. A room call that has not ended yet, or whose last part may still be on its way, throws a
 * retryable failure (`roomSettled`). A recording already recorded is returned as it is (a retry); a file left by an
 * interrupted attempt is removed first. A call that is not the organization's, or was never answered
 * (test mode), has nothing to record: null.
 * @returns the recording's id, or null
 */
export async function storeRecording(input: RecordingWorkflowInput): Promise<{ recordingId: string | null }> {
  const recordingId = recordingIdOf(input.callId);
  const existing = await Recording.findById(recordingId).lean();
  if (existing) {
    if (input.source.kind === 'room') await removeAudioNamed(roomPartFilename(recordingId)); // left by a crash
    return { recordingId: existing.deleted_ms == null ? recordingId : null };
  }
  const call = await Call.findById(input.callId).lean();
  if (!call || call.org_id !== input.orgId || call.livemode !== input.livemode) return { recordingId: null };
  const filename = `${recordingId}.wav`;
  const metadata = { recording_id: recordingId, call_id: call._id, org_id: call.org_id };
  let stored: { fileId: string; sizeBytes: number; durationMs: number };
  const { source } = input;
  if (source.kind === 'room') {
    // Started as the visitor arrives, maybe before the answer is written: the end tells.
    const endedMs = await roomSettled(call._id, recordingId, call.ended_ms ?? null);
    if (call.answered_ms == null) return { recordingId: null };
    const durationMs = Math.max(0, endedMs - call.answered_ms);
    const parts = (await roomParts(recordingId)).map((p) => ({
      startMs: p.startMs - call.answered_ms!,
      chunks: p.chunks,
    }));
    await removeAudioNamed(filename);
    stored = { ...(await storeAudio(filename, joinedWav(durationMs, ROOM_SAMPLE_RATE, parts), metadata)), durationMs };
  } else if (source.kind === 'synthesized') {
    if (call.answered_ms == null || call.ended_ms == null) return { recordingId: null };
    const all = await CallTurn.find({ call_id: call._id }).sort({ seq: 1 }).lean();
    // Consent given during the call: the recording starts at that turn (nothing before it is kept).
    const turns = source.fromSeq !== undefined ? all.filter((t) => t.seq >= source.fromSeq!) : all;
    const startMs =
      source.fromSeq !== undefined ? Math.max(call.answered_ms, turns[0]?.at_ms ?? call.ended_ms) : call.answered_ms;
    const durationMs = Math.max(0, call.ended_ms - startMs);
    const segments = turnSegments(
      turns.map((t) => ({ role: t.role, atMs: t.at_ms })),
      startMs,
      call.ended_ms,
    );
    await removeAudioNamed(filename);
    stored = { ...(await storeAudio(filename, synthesizedWav(durationMs, segments), metadata)), durationMs };
  } else {
    await removeAudioNamed(filename);
    const body = await fetchRecordingAudio(source.recordingSid, await callCredentials(input.callId));
    const file = await storeAudio(filename, Readable.fromWeb(body as WebReadableStream<Uint8Array>), metadata);
    // 16-bit stereo at Twilio's 8 kHz: the length from the size when the callback did not say it.
    const durationMs = source.durationMs ?? Math.round(((file.sizeBytes - WAV_HEADER_BYTES) / (8000 * 4)) * 1000);
    stored = { ...file, durationMs };
  }
  const inserted = await insertIfAbsent(Recording, {
    _id: recordingId,
    org_id: call.org_id,
    livemode: call.livemode,
    call_id: call._id,
    file_id: stored.fileId,
    content_type: 'audio/wav',
    channels: 2,
    duration_ms: stored.durationMs,
    size_bytes: stored.sizeBytes,
    source: source.kind,
    provider_recording_sid: source.kind === 'twilio' ? source.recordingSid : null,
    created_ms: Date.now(),
    deleted_ms: null,
  });
  if (!inserted) await removeAudio(stored.fileId); // another attempt's copy won
  if (source.kind === 'room') await removeAudioNamed(roomPartFilename(recordingId)); // joined: the parts go
  return { recordingId };
}

/**
 * How long after a room call's end its parts are joined without the mark of the attendance that ended
 * with it (ms): an attendance still in the room learns of the end from the room's deletion at once, or at
 * the latest from its next heartbeat's answer (sent at most every 8 s), then stores its last part.
 */
const ROOM_SETTLE_MS = 15_000;

/**
 * Resolves once a room call's parts can be joined: the call has ended (the attendance starts the
 * recording's workflow as the recording begins, and again as it leaves, maybe before the end is written),
 * and either the attendance that ended with it marked its last part stored, or `ROOM_SETTLE_MS` passed
 * since the end (no attendance was in the room then: its worker died, and no retry joined before the end).
 * Until the end, attempts fail fast and are retried (up to a minute apart, src/workflows/recordings.ts),
 * so the recording of a long call is joined up to a minute after its end; an attempt never waits for the
 * end in the activity, since one on a worker that dies (no heartbeat timeout) would only be retried after
 * its 15-minute start-to-close timeout.
 * @returns the call's end (ms since the epoch)
 * @throws ApplicationFailure `CallNotEnded` (retryable, benign: not logged as an activity error)
 */
async function roomSettled(callId: string, recordingId: string, endedMs: number | null): Promise<number> {
  if (endedMs == null)
    throw ApplicationFailure.create({
      message: `Call ${callId} has not ended yet.`,
      type: 'CallNotEnded',
      category: ApplicationFailureCategory.BENIGN,
    });
  // Waited out here (at most ROOM_SETTLE_MS), not by a retry: retries of a call in progress are up to a
  // minute apart, which would delay the recording of a call that ended without an attendance.
  while (Date.now() - endedMs < ROOM_SETTLE_MS && !(await roomRecordedMarked(recordingId)))
    await new Promise((r) => setTimeout(r, 500));
  return endedMs;
}

/** Deletes a live call's recording at Twilio once the copy is stored (404: already gone). */
export async function deleteProviderRecording(input: { recordingSid: string }): Promise<void> {
  await deleteTwilioRecording(input.recordingSid, await recordingCredentials(input.recordingSid));
}

/**
 * Emits `recording.ready` for a stored recording under the workflow's event id (`data.object` the
 * recording, without a link: a webhook consumer retrieves the recording for a fresh one). A recording
 * deleted meanwhile emits nothing.
 */
export async function emitRecordingReady(input: { recordingId: string; eventId: string; atMs: number }): Promise<void> {
  const doc = await Recording.findById(input.recordingId).lean();
  if (!doc || doc.deleted_ms != null) return;
  await emitEvent(Context.current().client, {
    id: input.eventId,
    orgId: doc.org_id,
    livemode: doc.livemode,
    type: 'recording.ready',
    createdMs: input.atMs,
    object: renderRecording(doc, null),
  });
}

/**
 * The retention pass: deletes every recording past its organization's `recording_retention_days` at
 * `nowMs` (absent: now; tests inject a later time), emitting `recording.deleted` for each once.
 * @returns how many it deleted
 */
export async function expireRecordings(input: RecordingRetentionInput): Promise<{ deleted: number }> {
  return { deleted: await expire(Context.current().client, input.nowMs ?? Date.now()) };
}
