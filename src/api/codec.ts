/**
 * The codec server (Temporal's "codec server" pattern,
 * https://docs.temporal.io/production-deployment/data-encryption): `POST /codec/decode` and
 * `POST /codec/encode` run the service's payload codec (src/platform/payload-codec.ts) for the Temporal
 * Web UI and CLI, so that operators read the encrypted inputs, results and failure messages of runs. The
 * protocol looks only at the URL's last segment, so `/codec/<token>/decode` is the same operation with the
 * operator token in the path, for a Web UI that sends no `Authorization` header (the dev server's
 * `--ui-codec-endpoint`). The namespace the UI names (`X-Namespace`, default `TEMPORAL_NAMESPACE`) is
 * the one payloads must have been sealed for.
 *
 * In this order, each before a byte of the body is read: CORS (the Web UI's origins, `CODEC_CORS_ORIGINS`,
 * default `http://localhost:8233` and `http://127.0.0.1:8233`, may call it with credentials and the
 * headers the UI sends; preflights are answered), the rate limit (`CODEC_RATE_LIMIT` requests per client
 * address per minute, across API processes: 429 `rate_limit_exceeded` with `Retry-After`), the operator
 * token (`CODEC_TOKEN`, at least 32 characters, as `Authorization: Bearer <token>` or in the path, compared
 * in constant time; 401 `codec_token_invalid` otherwise, and always when `CODEC_TOKEN` is unset). Only then
 * is the body parsed, up to `BODY_LIMIT` (413 `body_too_large`). A caller without the token never makes
 * the service buffer or parse a body.
 *
 * Where: on the API's port by default; with `CODEC_PORT`, only on its own operator listener
 * (`CODEC_HOST`, default 127.0.0.1; `codecApp`, started by src/api/server.ts).
 */
import crypto from 'node:crypto';
import cors from 'cors';
import express, { Router, type Request, type RequestHandler } from 'express';
import type { z } from 'zod';
import { config, MIN_CODEC_TOKEN_LENGTH } from '../config';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { CodecPayloadsObject, type CodecPayload } from '../models/codec';
import { configuredCodec } from '../platform/payload-codec';
import type { Payload } from '@temporalio/common';
import { consumeRateLimit } from '../platform/rate-limit';
import { applyRateLimit, errorHandler, largeJsonBody, requestContext, unknownRoute } from './middleware';
import { operation, operationsRouter } from './operations';

const tag = 'Service';
/**
 * Largest request body: the Web UI decodes an event's payloads per request, and Temporal refuses an
 * event's payloads over 2 MB (`limit.blobSize.error`), about 2.7 MB in base64 with the seal; the CLI the same.
 */
export const CODEC_BODY_LIMIT = '4mb';
/** The rate limit's window: `CODEC_RATE_LIMIT` requests per client address per minute. */
const RATE_WINDOW_MS = 60_000;

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

/**
 * The token in the path of `/codec/<token>/decode` (under the router's `/codec` mount, `req.path` is
 * `/<token>/decode`), percent-decoded; undefined for `/codec/decode` or a segment that does not decode.
 */
function pathToken(req: Request): string | undefined {
  const segment = /^\/([^/]+)\/(?:decode|encode)$/.exec(req.path)?.[1];
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * 401 unless the request carries `CODEC_TOKEN` (header or path); see the module comment. A configured
 * token shorter than `MIN_CODEC_TOKEN_LENGTH` (set by code, not `loadConfig`, which refuses it) opens nothing.
 */
function checkToken(req: Request): void {
  const token = config().codecToken;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const given = [bearer, pathToken(req)];
  const expected = Buffer.from(token ?? '');
  const ok =
    !!token &&
    token.length >= MIN_CODEC_TOKEN_LENGTH &&
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

/** The token check as middleware: before the body parser, so a request without the token is never read. */
const requireToken: RequestHandler = (req, _res, next) => {
  try {
    checkToken(req);
    next();
  } catch (err) {
    next(err);
  }
};

/**
 * Counts the request against its client address's budget (`CODEC_RATE_LIMIT` per minute, in the store
 * across API processes, src/platform/rate-limit.ts); past it, 429 `rate_limit_exceeded` with
 * `Retry-After`. Counted before the token check, so guesses are limited too. A store that cannot count
 * lets the request through (an outage of the limiter must not blind operators).
 */
const codecRateLimit: RequestHandler = async (req, res, next) => {
  const limit = config().codecRateLimit;
  if (limit === 0) return next();
  let rate = null;
  try {
    rate = await consumeRateLimit(`codec-ip:${req.ip ?? ''}`, limit, RATE_WINDOW_MS);
  } catch (err) {
    logger.warn('codec rate limit not counted', { error: String(err) });
  }
  next(applyRateLimit(res, rate, 'to the codec server from this address', RATE_WINDOW_MS) ?? undefined);
};

/** 413 `body_too_large`: the codec's body limit. */
const tooLarge = () =>
  new ApiError(
    413,
    'invalid_request_error',
    'body_too_large',
    `The request body is larger than ${CODEC_BODY_LIMIT.replace('mb', ' MB')}: send fewer payloads per request.`,
  );

/**
 * 413 at once for a body whose `Content-Length` is over `CODEC_BODY_LIMIT`: the body parser would read
 * (and discard) all of it before answering, the same.
 */
const refuseDeclaredTooLarge: RequestHandler = (req, _res, next) => {
  const declared = Number(req.headers['content-length'] ?? 0);
  next(declared > parseInt(CODEC_BODY_LIMIT, 10) * 1024 * 1024 ? tooLarge() : undefined);
};

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
        ? "Decrypts workflow payloads (and failures' encoded attributes) for the Temporal Web UI or CLI (Temporal's codec server protocol), for the namespace `X-Namespace` names (default the service's). Needs the operator token `CODEC_TOKEN` (Bearer header or path), checked before the body is read; bodies up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute. Payloads that are not encrypted, or do not decode (another namespace, an unknown key), come back unchanged."
        : 'Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.',
    body: CodecPayloadsObject,
    response: CodecPayloadsObject,
    errors: { '401': ['codec_token_invalid'], '429': ['rate_limit_exceeded'] },
    handler: async (req, res, { body }) => {
      const namespace = req.get('X-Namespace') || undefined;
      const codec = configuredCodec(namespace);
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
 * `POST /codec/decode`, `/codec/encode` and their `/codec/{token}/…` forms, behind CORS, the rate limit,
 * the token check and then the body parser (`CODEC_BODY_LIMIT`), in that order; mounted at the root by
 * src/api/app.ts, or by `codecApp` on the operator listener.
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
    codecRateLimit,
    requireToken,
    refuseDeclaredTooLarge,
    largeJsonBody(CODEC_BODY_LIMIT, tooLarge),
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

/**
 * The operator listener's app (`CODEC_PORT`): the codec server alone, with the API's request ids, JSON
 * 404 and error renderer; nothing of `/v1`. src/api/server.ts listens with it on `CODEC_HOST`.
 */
export function codecApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config().trustProxy);
  app.use(requestContext);
  app.use(codecRouter());
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
