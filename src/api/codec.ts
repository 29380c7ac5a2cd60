/**
 * The codec server (Temporal's "codec server" pattern,
 * https://docs.temporal.io/production-deployment/data-encryption): `POST /codec/decode` and
 * `POST /codec/encode` run the service's payload codec (src/platform/payload-codec.ts) for the Temporal
 * Web UI and CLI, so that operators read the encrypted inputs and results of runs. The protocol looks only
 * at the URL's last segment, so `/codec/<token>/decode` is the same operation with the operator token in
 * the path, for a Web UI that sends no `Authorization` header (the dev server's `--ui-codec-endpoint`).
 *
 * Authorization: the operator token `CODEC_TOKEN`, as `Authorization: Bearer <token>` (a proxy in front of
 * the UI, or the UI's "pass access token" setting) or in the path; compared in constant time; 401
 * `codec_token_invalid` otherwise, and always when `CODEC_TOKEN` is unset. CORS: the Web UI's origins
 * (`CODEC_CORS_ORIGINS`, default `http://localhost:8233` and `http://127.0.0.1:8233`) may call it with
 * credentials and the headers the UI sends (`Authorization`, `X-Namespace`, `Content-Type`); preflights
 * are answered.
 */
import crypto from 'node:crypto';
import cors from 'cors';
import express, { Router, type Request } from 'express';
import type { z } from 'zod';
import { config } from '../config';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { CodecPayloadsObject, type CodecPayload } from '../models/codec';
import { configuredCodec } from '../platform/payload-codec';
import type { Payload } from '@temporalio/common';
import { operation, operationsRouter } from './operations';

const tag = 'Service';
/** Largest request: a page of a long history's payloads (Temporal allows 2 MB per payload). */
const BODY_LIMIT = '16mb';

type JsonPayload = z.infer<typeof CodecPayload>;

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});

const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

/** 401 unless the request carries `CODEC_TOKEN` (header or path); see the module comment. */
function checkToken(req: Request): void {
  const token = config().codecToken;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const given = [bearer, typeof req.params.token === 'string' ? req.params.token : undefined];
  const expected = Buffer.from(token ?? '');
  const ok =
    !!token &&
    given.some((g) => {
      const b = Buffer.from(g ?? '');
      return b.length === expected.length && crypto.timingSafeEqual(b, expected);
    });
  if (!ok)
    throw new ApiError(
      401,
      'authentication_error',
      'codec_token_invalid',
      'Send the operator token: `Authorization: Bearer <CODEC_TOKEN>` (or the codec endpoint `/codec/<CODEC_TOKEN>`).',
    );
}

/**
 * One codec operation at `path`: decode opens each sealed payload (one it cannot open, under an unknown
 * key or altered, comes back as it was, and is logged); encode seals each.
 */
const codecOperation = (kind: 'decode' | 'encode', path: string) =>
  operation({
    method: 'post',
    path,
    operationId: `codec${kind === 'decode' ? 'Decode' : 'Encode'}${path.includes('{token}') ? 'WithPathToken' : ''}`,
    tag,
    summary: kind === 'decode' ? 'Decode Temporal payloads (codec server)' : 'Encode Temporal payloads (codec server)',
    description:
      kind === 'decode'
        ? "Decrypts workflow payloads for the Temporal Web UI or CLI (Temporal's codec server protocol). Needs the operator token `CODEC_TOKEN` (Bearer header or path); payloads that are not encrypted come back unchanged."
        : 'Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal --codec-endpoint`). Needs the operator token `CODEC_TOKEN`.',
    body: CodecPayloadsObject,
    response: CodecPayloadsObject,
    errors: { '401': ['codec_token_invalid'] },
    before: [
      (req, _res, next) => {
        try {
          checkToken(req);
          next();
        } catch (err) {
          next(err);
        }
      },
    ],
    handler: async (req, res, { body }) => {
      const codec = configuredCodec();
      const payloads = await Promise.all(
        body.payloads.map(async (p) => {
          if (kind === 'encode') return toJson((await codec.encode([fromJson(p)]))[0]);
          try {
            return toJson((await codec.decode([fromJson(p)]))[0]);
          } catch (err) {
            logger.warn('codec server: a payload did not decode', { error: (err as Error).message });
            return p;
          }
        }),
      );
      res.json({ payloads });
    },
  });

/**
 * `POST /codec/decode`, `/codec/encode` and their `/codec/{token}/…` forms, with their CORS and JSON body
 * parser; mounted at the root by src/api/app.ts.
 */
export function codecRouter(): Router {
  const router = Router();
  const cfg = config();
  router.use(
    '/codec',
    cors({
      origin: cfg.codecCorsOrigins,
      credentials: true,
      methods: ['POST'],
      allowedHeaders: ['Authorization', 'X-Namespace', 'Content-Type'],
      maxAge: 600,
    }),
    express.json({ limit: BODY_LIMIT }),
  );
  router.use(
    '/codec',
    operationsRouter('/codec', [
      codecOperation('decode', '/codec/decode'),
      codecOperation('encode', '/codec/encode'),
      codecOperation('decode', '/codec/{token}/decode'),
      codecOperation('encode', '/codec/{token}/encode'),
    ]),
  );
  return router;
}
