/**
 * Express middleware used by every route, each written once (DESIGN.md section 5):
 * request ids and version headers, JSON body parsing with clear errors, bearer authentication,
 * scope checks, JSON 404 for unknown routes, and the one error renderer.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { ApiError, serviceUnavailable } from '../errors';
import { API_VERSION, config } from '../config';
import { consumeRateLimit, type RateLimitResult } from '../platform/rate-limit';
import { rateLimited } from '../platform/metrics';
import { newId } from '../shared/ids';
import { isStoreUnavailable } from '../models/store';
import { isTemporalUnavailable } from '../platform/temporal';
import { hashKey, IMPLIED_SCOPES, parseKey, verifyKeyHash, type KeyKind } from '../keys';
import { addLogContext, logger } from '../logger';
import { roleRefusal } from '../services/console-sessions';

/** What authentication attaches to `req.auth`. */
export interface AuthContext {
  orgId: string;
  /** The key's id; for a console session (`kind: 'user'`), the staff user's id (`usr_…`): who acted. */
  keyId: string;
  /** The key's kind, or `user`: a staff user's console session (src/api/console.ts). */
  kind: KeyKind | 'user';
  livemode: boolean;
  scopes: string[];
  /** Console sessions: the staff user (`usr_…`) and their role. */
  userId?: string;
  role?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    auth?: AuthContext;
  }
}

/** Versions this API answers; a request may pin one with `Svc-Version` (spec section 9). */
const KNOWN_VERSIONS = [API_VERSION];

/** Sets `Request-Id` and `Svc-Version` on every response; refuses an unknown pinned version. */
export const requestContext: RequestHandler = (req, res, next) => {
  req.requestId = newId('req');
  addLogContext({ request_id: req.requestId });
  res.setHeader('Request-Id', req.requestId);
  res.setHeader('Svc-Version', API_VERSION);
  const pinned = req.get('Svc-Version');
  if (pinned !== undefined && !KNOWN_VERSIONS.includes(pinned)) {
    return next(
      new ApiError(
        400,
        'invalid_request_error',
        'api_version_invalid',
        `Unknown API version '${pinned}'. Known versions: ${KNOWN_VERSIONS.join(', ')}.`,
        'Svc-Version',
      ),
    );
  }
  next();
};

/** How deep a request body may nest (objects and arrays); deeper bodies are refused before any use. */
export const MAX_BODY_DEPTH = 32;

/**
 * The nesting depth of a parsed JSON value (a scalar is 0, `{}` is 1), computed without recursion so
 * that a hostile body cannot overflow the stack; stops counting past `limit`.
 */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth]);
  }
  return max;
}

/** Content encodings the body parsers decode (body-parser: gzip, deflate, br); `identity` is none. */
const BODY_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'];

/**
 * The API takes JSON bodies only (spec section 5): a request that carries a body (a `Content-Length` above 0
 * or `Transfer-Encoding`) must say `Content-Type: application/json` (or a `+json` type), else 415
 * `content_type_unsupported`; a `Content-Encoding` other than gzip, deflate or br is 415
 * `content_encoding_unsupported` (RFC 9110 section 15.5.16), checked before a byte of the body is read.
 * A POST without a body (`/end`, `/pause`) needs neither header.
 */
export const jsonContentType: RequestHandler = (req, _res, next) => {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return next();
  if (!req.is(['application/json', '+json']))
    return next(
      new ApiError(
        415,
        'invalid_request_error',
        'content_type_unsupported',
        `Send the request body as JSON with \`Content-Type: application/json\` (got ${req.get('Content-Type') ? `'${req.get('Content-Type')}'` : 'no Content-Type'}).`,
        'Content-Type',
      ),
    );
  const encoding = (req.get('Content-Encoding') ?? 'identity').trim().toLowerCase();
  if (!BODY_ENCODINGS.includes(encoding))
    return next(
      new ApiError(
        415,
        'invalid_request_error',
        'content_encoding_unsupported',
        `Content-Encoding '${encoding}' is not supported; send the body as is, or with gzip, deflate or br.`,
        'Content-Encoding',
      ),
    );
  next();
};

/**
 * Parses JSON bodies whatever the Content-Type (the API speaks only JSON); an empty body is `{}`.
 * Malformed JSON, a body that is not an object, or one nested deeper than `MAX_BODY_DEPTH` → 400
 * `body_invalid` (never a 500: later steps such as validation and the idempotency fingerprint walk the body).
 */
export const jsonBody: RequestHandler[] = [
  express.json({ limit: '1mb', type: () => true, strict: false }),
  (req, _res, next) => {
    if (req.body === undefined) req.body = {}; // no body: no parameters
    // A JSON `null` is a body, and not an object (the fuzzer sent one to a route that takes none).
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      return next(
        new ApiError(400, 'invalid_request_error', 'body_invalid', 'The request body must be a JSON object.'),
      );
    }
    if (jsonDepth(req.body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
      const param = Object.keys(req.body).find((k) => jsonDepth(req.body[k], MAX_BODY_DEPTH - 1) > MAX_BODY_DEPTH - 1);
      return next(
        new ApiError(
          400,
          'invalid_request_error',
          'body_invalid',
          `The request body is nested too deeply${param ? ` in ${param}` : ''} (at most ${MAX_BODY_DEPTH} levels of objects and arrays).`,
          param,
        ),
      );
    }
    next();
  },
];

/**
 * The JSON body parser of a route that takes more than the API's 1 MB (a campaign's 10,000 contacts, a
 * connector's bundle, a knowledge document): mounted before `jsonBody`, which then finds the body read
 * and steps aside. A body over `limit` (body-parser's `entity.too.large`) is answered with `tooLarge()`
 * (413 `body_too_large`, or the route's own error); anything else as `jsonBody` would.
 */
export function largeJsonBody(limit: string | number, tooLarge: () => Error): RequestHandler {
  const parse = express.json({ limit, type: () => true, strict: false });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) =>
      next((err as { type?: string } | undefined)?.type === 'entity.too.large' ? tooLarge() : err),
    );
}

/**
 * Counts the request against its key's rate limit (`API_RATE_LIMIT` per `API_RATE_LIMIT_WINDOW_MS`, shared
 * by every API process through the store, src/platform/rate-limit.ts). Resolves to null when the limit is off
 * or the store could not count (a limiter outage must not take the API down with it).
 */
async function countRequest(keyHash: string): Promise<RateLimitResult | null> {
  const { apiRateLimit, apiRateLimitWindowMs } = config();
  if (apiRateLimit === 0) return null;
  try {
    return await consumeRateLimit(`key:${keyHash}`, apiRateLimit, apiRateLimitWindowMs);
  } catch (err) {
    logger.warn('rate limit not counted', { error: String(err) });
    return null;
  }
}

/**
 * Sets the IETF `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) headers; a request
 * past the limit is 429 `rate_limit_exceeded` (`rate_limit_error`, as Stripe) with `Retry-After`.
 * `subject` says whose limit it is in the message ("with this API key", "from this IP address").
 */
export function applyRateLimit(
  res: Response,
  rate: RateLimitResult | null,
  subject = 'with this API key',
  windowMs = config().apiRateLimitWindowMs,
): ApiError | null {
  if (!rate) return null;
  res.setHeader('RateLimit-Limit', String(rate.limit));
  res.setHeader('RateLimit-Remaining', String(rate.remaining));
  res.setHeader('RateLimit-Reset', String(rate.retryAfterSeconds));
  if (rate.allowed) return null;
  res.setHeader('Retry-After', String(rate.retryAfterSeconds));
  return new ApiError(
    429,
    'rate_limit_error',
    'rate_limit_exceeded',
    `Too many requests ${subject}: at most ${rate.limit} per ${windowMs / 1000} s. Retry after ${rate.retryAfterSeconds} s.`,
  );
}

/**
 * Bearer authentication (spec section 5). Missing header → 401 `api_key_missing`; unknown, malformed or
 * revoked key → 401 `api_key_invalid`; a valid key past its rate limit → 429 (counted in
 * `svc_rate_limited_total` under the key's id). The key itself is never logged. The key lookup and the rate count run side by side (both by the key's hash); a key verified in
 * the last few seconds is not read again (src/keys.ts `verifyKeyHash`, `KEY_CACHE_TTL_MS`: a revocation
 * reaches every API process within it). A well-formed key not verified lately while the store does not
 * answer → 503 `service_unavailable` (its lookup fails; `errorHandler`).
 */
export const authenticate: RequestHandler = async (req, res, next) => {
  if (req.auth) return next(); // a console session already authenticated it (src/api/console.ts)
  const header = req.get('Authorization');
  if (!header)
    return next(
      new ApiError(
        401,
        'authentication_error',
        'api_key_missing',
        'No API key provided. Send `Authorization: Bearer <API_KEY>`.',
      ),
    );
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  const key = m?.[1];
  if (!key || !parseKey(key))
    return next(new ApiError(401, 'authentication_error', 'api_key_invalid', 'Invalid API key provided.'));
  const hash = hashKey(key);
  const [verified, rate] = await Promise.all([verifyKeyHash(hash), countRequest(hash)]);
  if (!verified) return next(new ApiError(401, 'authentication_error', 'api_key_invalid', 'Invalid API key provided.'));
  const limited = applyRateLimit(res, rate);
  const { id: keyId, orgId, kind, livemode, scopes } = verified;
  if (limited) {
    rateLimited.inc({ limit: 'api_key', key_id: keyId }); // the key's id, never the key
    return next(limited);
  }
  req.auth = { orgId, keyId, kind, livemode, scopes };
  next();
};

/**
 * True when the authenticated key holds `scope`: secret keys hold all; restricted keys their own and
 * `IMPLIED_SCOPES` (`x:write` implies `x:read`); publishable keys none.
 */
export function hasScope(auth: AuthContext, scope: string): boolean {
  if (auth.kind === 'secret' || (auth.kind === 'user' && auth.role === 'admin')) return true;
  if (auth.kind === 'publishable') return false;
  if (auth.scopes.includes(scope) || IMPLIED_SCOPES.includes(scope)) return true;
  const [resource, access] = scope.split(':');
  return access === 'read' && auth.scopes.includes(`${resource}:write`);
}

/** Requires `scope` (spec section 4's table); else 403 `scope_missing` naming it. */
export function requireScope(scope: string): RequestHandler {
  return (req, _res, next) => {
    const auth = req.auth!;
    if (hasScope(auth, scope)) return next();
    const message =
      auth.kind === 'publishable'
        ? `A publishable key can only open widget sessions; this endpoint needs a secret or restricted key with the '${scope}' scope.`
        : auth.kind === 'user'
          ? roleRefusal(auth.role ?? 'viewer', scope)
          : `This API key does not have the required scope '${scope}'.`;
    next(new ApiError(403, 'permission_error', 'scope_missing', message));
  };
}

/** JSON 404 for every path no route matched. */
export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(
    new ApiError(
      404,
      'invalid_request_error',
      'route_unknown',
      `Unrecognized request URL (${req.method}: ${req.path}).`,
    ),
  );
};

/**
 * Renders every error as `{"error":{type,code,message,param?,request_id}}`; no stack traces leave. Besides
 * `ApiError`s: body-parser's errors (400/413/415), a path parameter that does not percent-decode (400
 * `url_invalid`), a dependency that did not answer (503 `service_unavailable` naming the store or Temporal,
 * with `Retry-After`: src/models/store.ts `isStoreUnavailable`, src/platform/temporal.ts
 * `isTemporalUnavailable`); anything else is a 500 `internal_error`, logged with its stack.
 */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (isBodyParserError(err)) apiError = bodyParserError(err);
  else if (err instanceof URIError && (err as { status?: unknown }).status === 400)
    // Express's router could not percent-decode a path parameter (`/v1/calls/%ff`).
    apiError = new ApiError(
      400,
      'invalid_request_error',
      'url_invalid',
      `The request URL has a malformed percent-escape (${req.method}: ${req.originalUrl.split('?')[0]}); encode path parameters as UTF-8 with encodeURIComponent.`,
    );
  else if (isStoreUnavailable(err) || isTemporalUnavailable(err)) {
    const dependency = isStoreUnavailable(err) ? 'store' : 'temporal';
    logger.warn('dependency unavailable', {
      request_id: req.requestId,
      path: req.path,
      dependency,
      error: String(err),
    });
    apiError = serviceUnavailable(dependency);
  } else {
    logger.error('unhandled error', {
      request_id: req.requestId,
      path: req.path,
      error: err instanceof Error ? err.stack : String(err),
    });
    apiError = new ApiError(
      500,
      'api_error',
      'internal_error',
      'An internal error occurred. Retry with the same Idempotency-Key; it is safe.',
    );
  }
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
  res.status(apiError.status).json({ error: { ...apiError.toBody(), request_id: req.requestId } });
}

/** The `type` of every error body-parser raises (https://github.com/expressjs/body-parser#errors). */
const BODY_PARSER_ERRORS = [
  'entity.',
  'encoding.unsupported',
  'charset.unsupported',
  'request.aborted',
  'request.size.invalid',
  'stream.',
  'parameters.too.many',
];

/**
 * An error body-parser raised: one of its typed errors, or a client error it wrapped with `http-errors`
 * (status 4xx, `expose`), such as a gzip body that does not inflate.
 */
function isBodyParserError(err: unknown): err is { type: string; status: number } {
  if (typeof err !== 'object' || err === null) return false;
  const { type, status, expose } = err as { type?: unknown; status?: unknown; expose?: unknown };
  if (typeof type === 'string' && BODY_PARSER_ERRORS.some((t) => type.startsWith(t))) return true;
  return expose === true && typeof status === 'number' && status >= 400 && status < 500;
}

/** A body-parser error as the API's error: 413 too large, 415 encoding or charset, else 400 `body_invalid`. */
function bodyParserError(err: { type: string }): ApiError {
  switch (err.type) {
    case 'entity.too.large':
      return new ApiError(413, 'invalid_request_error', 'body_too_large', 'The request body is larger than 1 MB.');
    case 'encoding.unsupported':
      return new ApiError(
        415,
        'invalid_request_error',
        'content_encoding_unsupported',
        'This Content-Encoding is not supported; send the body as is, or with gzip, deflate or br.',
        'Content-Encoding',
      );
    case 'charset.unsupported':
      return new ApiError(
        415,
        'invalid_request_error',
        'content_type_unsupported',
        'Send the request body as UTF-8 JSON.',
        'Content-Type',
      );
    case 'entity.parse.failed':
      return new ApiError(400, 'invalid_request_error', 'body_invalid', 'The request body is not valid JSON.');
    default:
      return new ApiError(400, 'invalid_request_error', 'body_invalid', 'The request body could not be read.');
  }
}
