/**
 * The staff console's server side: its own JSON endpoints under `/console/api` (sign-in and the
 * session, the mode switch, admin-only keys and users, the live stream), the cookie session as an
 * alternative to a bearer key on every `/v1` route (`consoleSessionAuth`), CSRF protection of
 * cookie-authenticated writes, the built browser app under `/console` (`dist/console/`), and the
 * security headers of every `/console` response. The contract is docs/console-contract.md.
 *
 *   POST   /console/api/session            sign in {email, password} → session object + cookie
 *   GET    /console/api/session            the session object
 *   DELETE /console/api/session            sign out
 *   POST   /console/api/session/mode       {mode: test|live}
 *   GET    /console/api/keys               (admin) the mode's API keys, without secrets
 *   POST   /console/api/keys               (admin) a new key, its secret shown once
 *   POST   /console/api/keys/{id}/revoke   (admin)
 *   GET    /console/api/users              (admin) the organization's staff users
 *   GET    /console/api/staff              every role: the staff's ids and emails (who took a conversation)
 *   GET    /console/api/stream             text/event-stream of conversation and message changes
 *
 * The console's requests run against the same routes and service functions as the REST API: a session
 * becomes `req.auth` (kind `user`, the role's scopes, src/services/console-sessions.ts `ROLE_SCOPES`), so
 * no rule is implemented twice. These endpoints are left out of the public OpenAPI document (`internal`).
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam, notFound } from '../errors';
import { createKey, listKeys, revokeKey } from '../keys';
import { addLogContext } from '../logger';
import { ApiKey } from '../models/orgs';
import { User, type UserDoc } from '../models/users';
import { logger } from '../logger';
import {
  consoleOrigin,
  createSession,
  endSession,
  endSessionOfToken,
  renderSession,
  resolveSession,
  ROLE_SCOPES,
  safeEqual,
  SESSION_COOKIE,
  SESSION_COOKIE_SECURE,
  setSessionMode,
  type ActiveSession,
} from '../services/console-sessions';
import { beginSignin, finishSignin } from '../services/console-signin';
import { recordAuditEvent } from '../services/audit';
import { decoyVerify, listUsers, verifyPassword } from '../services/users';
import type { UserRole } from '../models/users';
import { jsonBody, jsonContentType, type AuthContext } from './middleware';
import { operation, operationsRouter } from './operations';
import { serveConsoleStream } from './console-stream';

const tag = 'Console';

/** The Content-Security-Policy of every `/console` response (no inline scripts, no framing). */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "media-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Where the browser app is built (`dist/console/index.html` and its hashed assets). */
const CONSOLE_DIR = path.resolve(__dirname, '..', '..', 'console');

/** Security headers on every `/console` response; `Cache-Control: no-store` on the API's answers. */
const consoleHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  if (req.path.startsWith('/api/') || req.path === '/api') res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The value of cookie `name` in the request's `Cookie` header, or undefined. */
function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The session cookie's name: `__Host-svc_console` when `PUBLIC_BASE_URL` is https (the browser then takes it
 * only with `Secure`, `Path=/` and no `Domain`, so no other host or path can set or shadow it), else
 * `svc_console` (plain-HTTP development, where a `Secure` cookie would never come back).
 */
export function sessionCookieName(): string {
  return consoleOrigin().secure ? SESSION_COOKIE_SECURE : SESSION_COOKIE;
}

/**
 * The `Set-Cookie` of the session cookie: `HttpOnly; SameSite=Lax; Path=/`, and `Secure` when
 * `PUBLIC_BASE_URL` is https. Never from the request's own scheme: behind a TLS proxy the connection is
 * plain HTTP, and an `X-Forwarded-Proto` may come from anyone.
 */
function sessionCookie(token: string | null): string {
  const attrs = ['Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (consoleOrigin().secure) attrs.push('Secure');
  if (token === null) attrs.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  return `${sessionCookieName()}=${token ?? ''}; ${attrs.join('; ')}`;
}

const sessionError = (why: 'missing' | 'expired') =>
  why === 'missing'
    ? new ApiError(401, 'authentication_error', 'session_missing', 'Sign in to the console first.')
    : new ApiError(401, 'authentication_error', 'session_expired', 'Your console session has ended; sign in again.');

/**
 * The request's live session (401 `session_missing` / `session_expired` otherwise), kept on
 * `res.locals.console` for the handler.
 */
async function requireSession(req: Request, res: Response): Promise<ActiveSession> {
  const token = readCookie(req, sessionCookieName());
  if (!token) throw sessionError('missing');
  const resolved = await resolveSession(token);
  if (!resolved.ok) throw sessionError(resolved.why);
  res.locals.console = resolved.active;
  addLogContext({ user_id: resolved.active.user._id });
  return resolved.active;
}

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * CSRF: a cookie-authenticated request that may change something must carry
 * `X-CSRF-Token` equal to its session's token (compared in constant time) and, when it has an `Origin`,
 * come from the console's origin; else 403 `csrf_token_invalid`, before any handler runs. The origin is
 * `PUBLIC_BASE_URL`'s when that is https (a TLS proxy in front; no `X-Forwarded-*` header is consulted);
 * over plain HTTP (development) the request's own `http://<Host>` is accepted too.
 */
function checkCsrf(req: Request, active: ActiveSession): void {
  if (SAFE_METHODS.includes(req.method)) return;
  const refuse = (why: string) => new ApiError(403, 'permission_error', 'csrf_token_invalid', why);
  const token = req.get('X-CSRF-Token');
  if (!token || !safeEqual(token, active.session.csrf_token))
    throw refuse("Missing or wrong X-CSRF-Token: send the session's csrf_token (GET /console/api/session).");
  const origin = req.get('Origin');
  const own = consoleOrigin();
  const allowed = own.secure ? [own.origin] : [own.origin, `http://${req.get('host')}`];
  if (origin !== undefined && !allowed.includes(origin))
    throw refuse(`Cross-origin request refused: Origin ${origin} is not this console's origin.`);
}

/** The `req.auth` of a session: the user's organization in the session's mode, with the role's scopes. */
function authOf({ session, user }: ActiveSession): AuthContext {
  const role = user.role as UserRole;
  return {
    orgId: session.org_id,
    keyId: user._id,
    kind: 'user',
    livemode: session.mode === 'live',
    scopes: ROLE_SCOPES[role],
    userId: user._id,
    role,
  };
}

/**
 * `/v1` with a console session: a request without an `Authorization` header and with a
 * `svc_console` cookie is authenticated by its session (401 `session_missing` / `session_expired` when it
 * is not live) and checked for CSRF (403); a request with a bearer key, or without the cookie, goes on to
 * the key check (src/api/middleware.ts `authenticate`) unchanged.
 */
export const consoleSessionAuth: RequestHandler = async (req, res, next) => {
  if (req.get('Authorization') !== undefined || readCookie(req, sessionCookieName()) === undefined) return next();
  try {
    await authenticateSession(req, res);
    next();
  } catch (err) {
    next(err);
  }
};

/**
 * The request's session as `req.auth`, after the CSRF check of a write (src/api/console.ts `checkCsrf`);
 * a refused write is still audited with the session's user as its actor (on `/v1`: src/api/audit.ts
 * `auditRefusedSession`, mounted after `consoleSessionAuth`; under `/console/api`, `auditRequests` runs first).
 * Throws 401 `session_missing`/`session_expired`, 403 `csrf_token_invalid`.
 */
async function authenticateSession(req: Request, res: Response): Promise<void> {
  const active = await requireSession(req, res);
  req.auth = authOf(active);
  checkCsrf(req, active);
}

/** Console endpoints: a live session (and CSRF for writes); sets `req.auth` as on `/v1`. */
const withSession: RequestHandler = async (req, res, next) => {
  try {
    await authenticateSession(req, res);
    next();
  } catch (err) {
    next(err);
  }
};

/** Admin-only console endpoints: 403 `scope_missing` naming the role, as the role refusals on `/v1`. */
const adminOnly: RequestHandler = (_req, res, next) => {
  const { user } = res.locals.console as ActiveSession;
  if (user.role === 'admin') return next();
  next(
    new ApiError(
      403,
      'permission_error',
      'scope_missing',
      `A${user.role === 'agent' ? 'n' : ''} ${user.role} cannot manage API keys or staff users.`,
    ),
  );
};

const active = (res: Response) => res.locals.console as ActiveSession;

const credentialsInvalid = () =>
  new ApiError(401, 'authentication_error', 'credentials_invalid', 'Email or password is incorrect.');

/**
 * Audits a refused sign-in for an email that is a user's: filed under the user's organization with the
 * user as the actor (the one the attempt claimed to be) and the client's IP. An unknown email has no
 * organization to file it under: it is logged only.
 */
async function auditFailedSignin(req: Request, user: UserDoc | null, status: number, errorCode: string): Promise<void> {
  if (!user) {
    logger.warn('console sign-in refused for an unknown email', { ip: req.ip, status, code: errorCode });
    return;
  }
  await recordAuditEvent({
    orgId: user.org_id,
    livemode: false,
    actor: { type: 'user', id: user._id },
    action: 'POST /console/api/session',
    requestId: req.requestId ?? null,
    ip: req.ip ?? null,
    outcome: { status, errorCode },
  });
  logger.warn('console sign-in refused', { user_id: user._id, ip: req.ip, status, code: errorCode });
}

const findUser = async (email: string) => (await User.findOne({ email }).lean()) as UserDoc | null;

/**
 * `POST /console/api/session` `{email, password}` → the session object and its cookie. A wrong password,
 * an unknown email and a disabled user get the same 401 `credentials_invalid` after the same scrypt work.
 * Only failures count toward the limits (src/services/console-signin.ts): past `CONSOLE_SIGNIN_PER_EMAIL`
 * (5) failures for an email from one IP address, `CONSOLE_SIGNIN_PER_IP` (10) from one address, or 4 × 5
 * for an email from addresses it never signed in from, each further attempt waits a delay doubling from
 * 1 s (at most 15 minutes): 429 `rate_limit_exceeded` with `Retry-After` before it. Every refusal of a
 * user's email is audited. A session cookie the browser already holds has its session ended: signing in
 * replaces it.
 */
const signIn = operation({
  method: 'post',
  path: '/console/api/session',
  operationId: 'consoleSignIn',
  tag,
  internal: true,
  summary: 'Sign in to the console',
  body: z.object({ email: z.string().max(320), password: z.string().max(1024) }),
  handler: async (req, res, { body }) => {
    const email = body.email.trim().toLowerCase();
    const attempt = await beginSignin(email, req.ip ?? '');
    if (!attempt.ok) {
      await auditFailedSignin(req, await findUser(email), 429, 'rate_limit_exceeded');
      res.setHeader('Retry-After', String(attempt.retryAfterSeconds));
      throw new ApiError(
        429,
        'rate_limit_error',
        'rate_limit_exceeded',
        `Too many failed sign-ins ${attempt.subject}: try again in ${attempt.retryAfterSeconds} s.`,
      );
    }
    const user = await findUser(email);
    const ok = user ? await verifyPassword(body.password, user.password_hash) : await decoyVerify(body.password);
    const signedIn = user !== null && ok && !user.disabled;
    await finishSignin(attempt.ticket, signedIn);
    if (!signedIn) {
      await auditFailedSignin(req, user, 401, 'credentials_invalid');
      throw credentialsInvalid();
    }
    // This browser's earlier session (of any user) ends: one browser, one session.
    for (const name of [SESSION_COOKIE, SESSION_COOKIE_SECURE]) {
      const earlier = readCookie(req, name);
      if (earlier) await endSessionOfToken(earlier);
    }
    const { token, session } = await createSession(user);
    req.auth = authOf({ session, user }); // the audit entry's actor (src/api/audit.ts `auditRequests`)
    res.setHeader('Set-Cookie', sessionCookie(token));
    res.json(await renderSession({ session, user }));
  },
});

/** `GET /console/api/session` → the session object; 401 `session_missing` / `session_expired`. */
const retrieveSession = operation({
  method: 'get',
  path: '/console/api/session',
  operationId: 'consoleRetrieveSession',
  tag,
  internal: true,
  summary: 'The console session',
  before: [withSession],
  handler: async (_req, res) => {
    res.json(await renderSession(active(res)));
  },
});

/** `DELETE /console/api/session` → `{object: 'console_session', deleted: true}`; the cookie cleared. */
const signOut = operation({
  method: 'delete',
  path: '/console/api/session',
  operationId: 'consoleSignOut',
  tag,
  internal: true,
  summary: 'Sign out',
  before: [withSession],
  handler: async (req, res) => {
    await endSession(active(res).session);
    res.setHeader('Set-Cookie', sessionCookie(null));
    res.json({ object: 'console_session', deleted: true });
  },
});

/** `POST /console/api/session/mode` `{mode}` → the session object in that mode (test or live data, never both). */
const switchMode = operation({
  method: 'post',
  path: '/console/api/session/mode',
  operationId: 'consoleSwitchMode',
  tag,
  internal: true,
  summary: 'Switch between test and live data',
  before: [withSession],
  body: z.object({ mode: z.enum(['test', 'live']) }),
  handler: async (_req, res, { body }) => {
    await setSessionMode(active(res).session, body.mode);
    res.json(await renderSession(active(res)));
  },
});

/** `GET /console/api/keys` (admin) → the session mode's API keys, without secrets. */
const listConsoleKeys = operation({
  method: 'get',
  path: '/console/api/keys',
  operationId: 'consoleListKeys',
  tag,
  internal: true,
  summary: "The organization's API keys",
  before: [withSession, adminOnly],
  handler: async (req, res) => {
    const keys = (await listKeys(req.auth!.orgId)).filter((k) => k.livemode === req.auth!.livemode);
    res.json({ object: 'list', data: keys, has_more: false });
  },
});

/** `POST /console/api/keys` (admin) `{kind, scopes?, name?}` → the key with its full `key`, shown only here. */
const createConsoleKey = operation({
  method: 'post',
  path: '/console/api/keys',
  operationId: 'consoleCreateKey',
  tag,
  internal: true,
  summary: 'Create an API key',
  before: [withSession, adminOnly],
  body: z.object({
    kind: z.enum(['secret', 'restricted', 'publishable']),
    scopes: z.array(z.string()).max(50).optional(),
    name: z.string().max(200).optional(),
  }),
  handler: async (req, res, { body }) => {
    try {
      const key = await createKey({
        orgId: req.auth!.orgId,
        mode: req.auth!.livemode ? 'live' : 'test',
        kind: body.kind,
        scopes: body.scopes,
        name: body.name,
      });
      res.json(key);
    } catch (err) {
      if (err instanceof Error && !(err instanceof ApiError)) throw invalidParam('scopes', err.message);
      throw err;
    }
  },
});

/** `POST /console/api/keys/{id}/revoke` (admin) → the key, revoked; 404 for another organization's or mode's key. */
const revokeConsoleKey = operation({
  method: 'post',
  path: '/console/api/keys/{id}/revoke',
  operationId: 'consoleRevokeKey',
  tag,
  internal: true,
  summary: 'Revoke an API key',
  before: [withSession, adminOnly],
  body: null,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await ApiKey.findById(id, { org_id: 1, livemode: 1 }).lean();
    if (!doc || doc.org_id !== req.auth!.orgId || doc.livemode !== req.auth!.livemode)
      throw notFound('api_key', id, 'id');
    res.json(await revokeKey(id));
  },
});

/** `GET /console/api/users` (admin) → the organization's staff users. */
const listConsoleUsers = operation({
  method: 'get',
  path: '/console/api/users',
  operationId: 'consoleListUsers',
  tag,
  internal: true,
  summary: "The organization's staff users",
  before: [withSession, adminOnly],
  handler: async (req, res) => {
    res.json({ object: 'list', data: await listUsers(req.auth!.orgId), has_more: false });
  },
});

/**
 * `GET /console/api/staff` (every role) → `{object: "list", data: [{id, object: "user", email}]}`: the
 * organization's staff users by id and email only, so any staff user's inbox can say who took a
 * conversation (`taken_by`) without the admin-only user list.
 */
const listConsoleStaff = operation({
  method: 'get',
  path: '/console/api/staff',
  operationId: 'consoleListStaff',
  tag,
  internal: true,
  summary: "The organization's staff, by id and email",
  before: [withSession],
  handler: async (req, res) => {
    const data = (await listUsers(req.auth!.orgId)).map((u) => ({ id: u.id, object: 'user' as const, email: u.email }));
    res.json({ object: 'list', data, has_more: false });
  },
});

/** `GET /console/api/stream` → `text/event-stream` of the session's organization and mode's conversation changes. */
const consoleStream = operation({
  method: 'get',
  path: '/console/api/stream',
  operationId: 'consoleStream',
  tag,
  internal: true,
  summary: 'Live conversation and message changes',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
  before: [withSession],
  handler: async (req, res) => {
    await serveConsoleStream(req, res, { orgId: req.auth!.orgId, livemode: req.auth!.livemode });
  },
});

/** The browser app: a file of `dist/console/`, else `index.html` (client-side routes), else a 503 page. */
const serveApp: RequestHandler = (req, res) => {
  const index = path.join(CONSOLE_DIR, 'index.html');
  if (!fs.existsSync(index)) {
    res.status(503).type('text/plain').send('console not built: run npm run build\n');
    return;
  }
  res.setHeader('Cache-Control', 'no-cache');
  res.sendFile(index);
};

/**
 * Everything under `/console`: the headers, the API (its own JSON body parsing), the app's files and the
 * app's fallback. Mounted before `/v1`; `temporal` is unused today (the console's actions go through `/v1`).
 */
export function consoleRouter(_temporal?: Client): Router {
  const router = Router();
  router.use('/console', consoleHeaders);
  router.use('/console/api', jsonContentType, ...jsonBody);
  router.use(
    '/console/api',
    operationsRouter('/console/api', [
      signIn,
      retrieveSession,
      signOut,
      switchMode,
      listConsoleKeys,
      createConsoleKey,
      revokeConsoleKey,
      listConsoleUsers,
      listConsoleStaff,
      consoleStream,
    ]),
  );
  const assets = express.static(CONSOLE_DIR, { index: false });
  router.use('/console', (req, res, next) =>
    req.path === '/api' || req.path.startsWith('/api/') ? next() : assets(req, res, next),
  );
  router.get('/console{/*rest}', (req, res, next) =>
    req.path.startsWith('/console/api') ? next() : serveApp(req, res, next),
  );
  return router;
}
