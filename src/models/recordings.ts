/**
 * Call recordings (`rcd_…`, object `recording`): one per call, its id derived from the
 * call id (`recordingIdOf`), so the call's recording is found by `_id` and written once whoever writes
 * it. The audio lives in GridFS (bucket `recordings`, through the MongoDB driver under mongoose's
 * connection): shared by every API and worker process, never one process's disk. Written by the
 * recording activities (src/activities/recordings.ts); deleted (`deleted_ms` set, the audio removed) by
 * `DELETE /v1/calls/{id}/recording` and the retention pass (src/services/recordings.ts).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { derivedId, idTime } from '../shared/ids';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

const recordingSchema = new Schema(
  {
    /** `rcd_…`, `recordingIdOf(call id)`. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    call_id: { type: String, required: true },
    /** The audio's GridFS file id (ObjectId hex) in the `recordings` bucket; null once deleted. */
    file_id: { type: String, default: null },
    /** `audio/wav` (or `audio/mpeg`). */
    content_type: { type: String, required: true },
    channels: { type: Number, required: true },
    duration_ms: { type: Number, required: true },
    size_bytes: { type: Number, required: true },
    /** Where the audio came from: `twilio`, `synthesized` (test mode) or `room` (browser voice). */
    source: { type: String, required: true },
    /** A live call's recording at Twilio (`RE…`), deleted there once copied; null otherwise. */
    provider_recording_sid: { type: String, default: null },
    created_ms: { type: Number, required: true },
    /** When the recording was deleted (through the API or by retention), ms; null while kept. */
    deleted_ms: { type: Number, default: null },
  },
  base,
);
recordingSchema.index({ org_id: 1, created_ms: 1 });
/** The retention sweeps: a tenant's recordings by age (src/services/recordings.ts `expiredRecordingIds`). */
recordingSchema.index({ org_id: 1, livemode: 1, created_ms: 1 });
/** Twilio's copy is deleted in the account of the recording's call (src/services/telephony-accounts.ts `recordingCredentials`). */
recordingSchema.index({ provider_recording_sid: 1 });
export const Recording = mongoose.model('Recording', recordingSchema, 'recordings');
export type RecordingDoc = InferSchemaType<typeof recordingSchema>;

/** The GridFS bucket holding recordings' audio (collections `recordings_audio.files` and `.chunks`). */
export const RECORDING_BUCKET = 'recordings_audio';

/** The recordings' GridFS bucket (the driver's `GridFSBucket`, as mongoose re-exports it) on mongoose's connection (connected: src/models/register.ts `connectStore`). */
export function recordingBucket(): mongoose.mongo.GridFSBucket {
  const db = mongoose.connection.db;
  if (!db) throw new Error('the store is not connected');
  return new mongoose.mongo.GridFSBucket(db, { bucketName: RECORDING_BUCKET });
}

/** The id of a call's recording: derived from the call id (its time part the call's), the same every time. */
export const recordingIdOf = (callId: string): string => derivedId('rcd', idTime(callId) || 0, `${callId}:recording`);

/** The `recording` object as the API answers it (the OpenAPI component `Recording`). */
export const RecordingObject = apiObject(
  'Recording',
  "A call's recording, kept in the service's own store (a live call's copy at Twilio is deleted once copied): two channels, the caller on the first, the assistant on the second.",
  z.object({
    id: z.string().meta({ examples: ['rcd_01jd5x2v7c0000000000000000'] }),
    object: z.literal('recording'),
    livemode: z.boolean(),
    call_id: z.string(),
    duration_ms: z.number().int().describe('Length of the audio, ms.'),
    channels: z.number().int().describe('2: the caller (or visitor) on channel 1, the assistant on channel 2.'),
    content_type: z.enum(['audio/wav', 'audio/mpeg']),
    size_bytes: z.number().int(),
    created: unix,
    url: z
      .string()
      .nullable()
      .describe(
        'A signed link to the audio that needs no API key and serves `Range` requests (seekable in an `<audio>` element); valid 10 minutes, then 403. Null in events: retrieve the recording for a fresh link.',
      ),
    url_expires_at: unix.nullable().describe('When `url` stops working.'),
  }),
);
export type RecordingObject = z.output<typeof RecordingObject>;

/** The recording object; `link` is the signed audio link and its expiry (unix s), or null (events). */
export function renderRecording(
  doc: WithId<RecordingDoc>,
  link: { url: string; expiresAt: number } | null,
): RecordingObject {
  return {
    id: doc._id,
    object: 'recording' as const,
    livemode: doc.livemode,
    call_id: doc.call_id,
    duration_ms: doc.duration_ms,
    channels: doc.channels,
    content_type: doc.content_type === 'audio/mpeg' ? 'audio/mpeg' : 'audio/wav',
    size_bytes: doc.size_bytes,
    created: Math.floor(doc.created_ms / 1000),
    url: link?.url ?? null,
    url_expires_at: link?.expiresAt ?? null,
  };
}
