/**
 * Recordings: `GET /v1/calls/{id}/recording` (`calls:read`) → the recording object with
 * a signed link, `DELETE /v1/calls/{id}/recording` (`calls:write`) → deleted (`recording.deleted`), and
 * the link itself, `GET /v1/recordings/{id}/audio?expires=&signature=`, which needs no API key: the
 * signature (HMAC under `SECRETS_KEY`, src/services/recordings.ts) is the credential, for 10 minutes.
 * The audio is served from the store's GridFS bucket with `Range` support (RFC 9110 section 14: 206 with
 * `Content-Range`, 416 for a range outside the file), so a browser's `<audio>` can seek in it.
 */
import type { Client } from '@temporalio/client';
import type { Request, Response, Router } from 'express';
import mongoose from 'mongoose';
import { z } from 'zod';
import { ApiError, notFound } from '../errors';
import { Recording, recordingBucket, recordingIdOf, RecordingObject, renderRecording } from '../models/recordings';
import { DeletedObject } from '../models/wire';
import { recordAuditEvent } from '../services/audit';
import { audioLinkValid, deleteRecording, signedAudioLink } from '../services/recordings';
import { findCall } from '../services/call-requests';
import { operation, operationsRouter } from './operations';

const tag = 'Recordings';

/** The kept recording of the key's call `req.params.id`; 404 `resource_missing` when none (or deleted). */
async function findRecording(req: Request) {
  const call = await findCall(req.auth!, String(req.params.id));
  const doc = await Recording.findById(recordingIdOf(call._id)).lean();
  if (!doc || doc.deleted_ms != null || !doc.file_id) throw notFound('recording', call._id, 'id');
  return doc;
}

/** `GET /v1/calls/{id}/recording` → the recording object with a fresh signed `url` (10 minutes). */
const retrieveRecording = operation({
  method: 'get',
  path: '/v1/calls/{id}/recording',
  operationId: 'retrieveCallRecording',
  tag,
  summary: "Retrieve a call's recording",
  description:
    'The recording of a call whose agent or request enabled `recording`, once stored (`recording.ready`); 404 before, and after it was deleted. `url` needs no key and works for 10 minutes.',
  scope: 'calls:read',
  response: RecordingObject,
  handler: async (req, res) => {
    const doc = await findRecording(req);
    res.json(renderRecording(doc, signedAudioLink(doc._id)));
  },
});

/** `DELETE /v1/calls/{id}/recording` → `{id, object: "recording", deleted: true}`; emits `recording.deleted`. */
const deleteCallRecording = (temporal: Client) =>
  operation({
    method: 'delete',
    path: '/v1/calls/{id}/recording',
    operationId: 'deleteCallRecording',
    tag,
    summary: "Delete a call's recording",
    description: 'Removes the audio from the store at once (links stop working) and emits `recording.deleted`.',
    scope: 'calls:write',
    response: DeletedObject,
    handler: async (req, res) => {
      const doc = await findRecording(req);
      await deleteRecording(temporal, doc._id);
      res.json({ id: doc._id, object: 'recording', deleted: true as const });
    },
  });

/** 403 for a link that is expired, altered or of a deleted recording: nothing about the audio is sent. */
const linkRefused = () =>
  new ApiError(
    403,
    'permission_error',
    'recording_link_invalid',
    'The recording link has expired or is not valid; retrieve the recording for a new one.',
  );

/**
 * `GET /v1/recordings/{id}/audio?expires=&signature=` → the audio (200 whole, 206 for a `Range`), or 403
 * `recording_link_invalid` (expired, tampered, deleted) before any byte. No API key.
 */
const recordingAudio = operation({
  method: 'get',
  path: '/v1/recordings/{id}/audio',
  operationId: 'recordingAudio',
  tag,
  summary: "A recording's audio (signed link)",
  description:
    'The `url` of a recording: no API key; 10 minutes from its issue, then 403. Serves `Range` requests (206, `Accept-Ranges: bytes`), so players can seek.',
  query: [
    {
      name: 'expires',
      description: 'When the link expires (unix seconds), as signed.',
      required: true,
      schema: z.int().min(0),
    },
    { name: 'signature', description: "The service's signature of the recording id and `expires`.", required: true },
  ],
  content: {
    'audio/wav': { schema: { type: 'string', contentMediaType: 'audio/wav' } },
    'audio/mpeg': { schema: { type: 'string', contentMediaType: 'audio/mpeg' } },
  },
  errors: { '403': ['recording_link_invalid'], '503': ['service_unavailable'] },
  handler: async (req, res) => {
    const id = String(req.params.id);
    const expires = typeof req.query.expires === 'string' ? req.query.expires : '';
    const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
    if (!audioLinkValid(id, expires, signature)) throw linkRefused();
    const doc = await Recording.findById(id).lean();
    if (!doc || doc.deleted_ms != null || !doc.file_id) throw linkRefused();
    // Every read of a recording is audited. A player asks for many byte ranges of one
    // playback: only a request from the first byte (a playback or a download starting) makes an entry,
    // stored before the first byte goes out.
    if (!/^bytes=(?!0-)/.test(req.headers.range ?? ''))
      await recordAuditEvent({
        orgId: doc.org_id,
        livemode: doc.livemode,
        actor: { type: 'signed_link', id },
        action: 'GET /v1/recordings/{id}/audio',
        objectIds: [id, doc.call_id],
        requestId: req.requestId ?? null,
        ip: req.ip ?? null,
        outcome: { status: req.headers.range ? 206 : 200 },
      });
    await sendAudio(req, res, doc.file_id, doc.size_bytes, doc.content_type);
  },
});

/**
 * Streams a stored file, whole or the one byte range asked (`Range: bytes=a-b`, `a-`, `-n`; several
 * ranges are answered with their span). A range that cannot be satisfied: 416 with `Content-Range: bytes
 * *\/size`. Private caching only for the link's lifetime.
 */
async function sendAudio(req: Request, res: Response, fileId: string, size: number, contentType: string) {
  res.set({
    'Accept-Ranges': 'bytes',
    'Content-Type': contentType,
    'Cache-Control': 'private, max-age=600',
  });
  let start = 0;
  let end = size - 1;
  if (req.headers.range) {
    const ranges = req.range(size, { combine: true });
    if (ranges === -1) {
      res.status(416).set('Content-Range', `bytes */${size}`).end();
      return;
    }
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length > 0) {
      start = ranges[0].start;
      end = ranges[ranges.length - 1].end;
      res.status(206).set('Content-Range', `bytes ${start}-${end}/${size}`);
    }
  }
  res.set('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const stream = recordingBucket().openDownloadStream(new mongoose.Types.ObjectId(fileId), { start, end: end + 1 });
  stream.on('error', (err) => res.destroy(err));
  stream.pipe(res);
}

/** `GET`/`DELETE /v1/calls/{id}/recording`, mounted under `/v1/calls` behind the key check. */
export function callRecordingsRouter(temporal: Client): Router {
  return operationsRouter('/v1/calls', [retrieveRecording, deleteCallRecording(temporal)]);
}

/** `GET /v1/recordings/{id}/audio`: mounted on the app before the key check (the link is its credential). */
export function recordingAudioRouter(): Router {
  return operationsRouter('', [recordingAudio]);
}
