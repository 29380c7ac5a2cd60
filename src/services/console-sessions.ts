/**
 * Console sessions: server-side, in `console_sessions`, keyed by the SHA-256 hex of the
 * random token the `svc_console` cookie carries (`__Host-svc_console` when `PUBLIC_BASE_URL` is https; a
 * lookup is one `_id` read), with the session's mode and its CSRF token. A session expires after
 * `SESSION_IDLE_MS` without use, and `CONSOLE_SESSION_MAX_AGE_MS` (7 days) after it began however active
 * (a stolen cookie is not good forever); its `last_seen` is written at most once per `TOUCH_EVERY_MS`. Every use also reads the user by `_id`: a disabled user's sessions are
 * refused even before their deletion lands. The scopes each role holds are here too (`ROLE_SCOPES`),
 * so the REST API's own scope checks (src/api/middleware.ts `hasScope`) decide what a role may do.
 */
import crypto from 'node:crypto';
import { ALL_SCOPES, IMPLIED_SCOPES } from '../keys';
import { ConsoleSession, User, type ConsoleSessionDoc, type UserDoc, type UserRole } from '../models/users';
import { Org } from '../models/orgs';
import { config } from '../config';

/** Idle expiry of a session ("expire after 12 hours idle"). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** `last_seen` is refreshed at most this often (limits writes to one a minute per session). */
export const TOUCH_EVERY_MS = 60_000;
/** The session cookie's name over plain HTTP (development). */
export const SESSION_COOKIE = 'svc_console';
/**
 * Its name when `PUBLIC_BASE_URL` is https: the `__Host-` prefix makes browsers take it only with `Secure`,
 * `Path=/` and no `Domain` (RFC 6265bis section 4.1.3.2), so a sibling subdomain cannot plant one.
 */
export const SESSION_COOKIE_SECURE = '__Host-svc_console';

/**
 * The console's origin and whether it is served over TLS: `PUBLIC_BASE_URL`'s, never the request's own
 * scheme (behind a TLS proxy the connection is plain HTTP; `X-Forwarded-Proto` may come from anyone).
 */
export function consoleOrigin(): { origin: string; secure: boolean } {
  const url = new URL(config().publicBaseUrl);
  return { origin: url.origin, secure: url.protocol === 'https:' };
}

/**
 * The scopes of each role, in src/keys.ts's scope names. `admin` holds every scope (as
 * a secret key); `agent` the inbox, calls and contacts, and reads agents (knowledge, tools), events,
 * usage and phone numbers, no webhooks, keys or connectors (publisher keys); `viewer` every read scope
 * except webhooks.
 */
export const ROLE_SCOPES: Record<UserRole, string[]> = {
  admin: [...ALL_SCOPES, ...IMPLIED_SCOPES],
  agent: [
    'calls:read',
    'calls:write',
    'messages:read',
    'messages:write',
    'contacts:read',
    'contacts:write',
    'records:read',
    'records:write',
    'agents:read',
    'events:read',
    'usage:read',
    'phone_numbers:read',
    ...IMPLIED_SCOPES,
  ],
  viewer: [...ALL_SCOPES.filter((s) => s.endsWith(':read') && s !== 'webhooks:read'), ...IMPLIED_SCOPES],
};

/** What a role may not do, in words, per scope: the 403's message ("A viewer cannot reply to conversations."). */
const SCOPE_ACTIONS: Record<string, string> = {
  'calls:write': 'place, change or end calls',
  'messages:write': 'reply to conversations',
  'contacts:write': 'change contacts',
  'records:write': 'add records',
  'agents:write': 'change agents, tools or knowledge',
  'webhooks:read': 'see webhook endpoints',
  'webhooks:write': 'change webhook endpoints',
  'connectors:read': 'see connectors',
  'connectors:write': 'manage connectors or publisher keys',
  'phone_numbers:write': 'change phone numbers',
  'events:write': 'change events',
  'usage:write': 'change usage',
};

/** The refusal message for `role` lacking `scope`. */
export function roleRefusal(role: string, scope: string): string {
  const action = SCOPE_ACTIONS[scope] ?? `use this endpoint (it needs the '${scope}' scope)`;
  return `A${role === 'admin' || role === 'agent' ? 'n' : ''} ${role} cannot ${action}.`;
}

/** sha256 hex of a session token: the session's `_id`. */
export function sessionId(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session for `user` in test mode; returns the token (the cookie's value, never stored) and the session. */
export async function createSession(user: UserDoc, nowMs = Date.now()) {
  const token = crypto.randomBytes(32).toString('base64url');
  const doc: ConsoleSessionDoc = {
    _id: sessionId(token),
    user_id: user._id,
    org_id: user.org_id,
    mode: 'test',
    csrf_token: crypto.randomBytes(24).toString('base64url'),
    last_seen: nowMs,
    created: Math.floor(nowMs / 1000),
  };
  await ConsoleSession.create(doc);
  return { token, session: doc };
}

/** A session in use, with its user. */
export interface ActiveSession {
  session: ConsoleSessionDoc;
  user: UserDoc;
}

/**
 * The live session of `token`: `missing` when there is none (or its user is gone), `expired` when idle past
 * `SESSION_IDLE_MS`, older than `CONSOLE_SESSION_MAX_AGE_MS` (deleted then) or its user is disabled;
 * refreshes `last_seen` when older than `TOUCH_EVERY_MS`.
 * @param nowMs the clock (tests pass one)
 */
export async function resolveSession(
  token: string,
  nowMs = Date.now(),
): Promise<{ ok: true; active: ActiveSession } | { ok: false; why: 'missing' | 'expired' }> {
  const session = (await ConsoleSession.findById(sessionId(token)).lean()) as ConsoleSessionDoc | null;
  if (!session) return { ok: false, why: 'missing' };
  if (nowMs - session.last_seen > SESSION_IDLE_MS || nowMs - session.created * 1000 > config().consoleSessionMaxAgeMs) {
    await ConsoleSession.deleteOne({ _id: session._id });
    return { ok: false, why: 'expired' };
  }
  const user = (await User.findById(session.user_id).lean()) as UserDoc | null;
  if (!user || user.disabled) {
    await ConsoleSession.deleteOne({ _id: session._id });
    return { ok: false, why: user ? 'expired' : 'missing' };
  }
  if (nowMs - session.last_seen >= TOUCH_EVERY_MS) {
    await ConsoleSession.updateOne({ _id: session._id }, { $set: { last_seen: nowMs } });
    session.last_seen = nowMs;
  }
  return { ok: true, active: { session, user } };
}

/** Switches a session's mode (test or live). */
export async function setSessionMode(session: ConsoleSessionDoc, mode: 'test' | 'live'): Promise<void> {
  await ConsoleSession.updateOne({ _id: session._id }, { $set: { mode } });
  session.mode = mode;
}

/** Ends the session of a cookie's `token`, if it has one (a sign-in replacing the browser's earlier session). */
export async function endSessionOfToken(token: string): Promise<void> {
  await ConsoleSession.deleteOne({ _id: sessionId(token) });
}

/** Ends a session (sign-out). */
export async function endSession(session: ConsoleSessionDoc): Promise<void> {
  await ConsoleSession.deleteOne({ _id: session._id });
}

/**
 * The session object the console reads (`GET /console/api/session`): the user, the organization, the mode,
 * the CSRF token, the Temporal Web UI's namespace URL for the call page's link (`TEMPORAL_UI_URL`), and
 * the tracing backend's trace page (`TRACES_URL_TEMPLATE`, `{trace_id}` to fill in; null when unset).
 */
export async function renderSession({ session, user }: ActiveSession) {
  const org = await Org.findById(session.org_id, { name: 1 }).lean();
  return {
    object: 'console_session' as const,
    user: { id: user._id, object: 'user' as const, email: user.email, role: user.role, org_id: user.org_id },
    org: { id: session.org_id, name: org?.name ?? '' },
    mode: session.mode as 'test' | 'live',
    csrf_token: session.csrf_token,
    temporal_ui_url: `${config().temporalUiUrl}/namespaces/${encodeURIComponent(config().temporalNamespace)}`,
    traces_url_template: config().tracesUrlTemplate ?? null,
  };
}

/** Constant-time equality of two strings (the CSRF token check). */
export function safeEqual(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y) && a.length === b.length;
}
