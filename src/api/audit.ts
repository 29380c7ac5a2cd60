/**
 * The audit log in the API: the middleware that writes an entry for every
 * state-changing request (POST, DELETE) and every read of a recording or a transcript (stored before
 * the answer leaves: a crash never loses an answered request's entry), and the read-only routes `GET /v1/audit_events` and `GET /v1/audit_events/{id}` (scope
 * `audit:read`). No route changes or deletes an entry (a POST or DELETE on them is an unknown route).
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import { notFound, invalidParam } from '../errors';
import { logger } from '../logger';
import { AuditEvent, AuditEventObject, renderAuditEvent } from '../models/audit';
import { listOf } from '../models/wire';
import { closeAuditEvent, openAuditEvent, recordAuditEvent, type OpenAuditEvent } from '../services/audit';
import { createdIdRange, createdQuery, createdRange, idRangeOf, listPage, type IdSkew } from './lists';
import { API_OPERATIONS, operation, operationsRouter } from './operations';
import type { AuthContext } from './middleware';
import { auditActor, OBJECT_ID as ID } from './audit-reads';

const tag = 'Audit log';

/**
 * Reads that are audited besides every POST and DELETE: recordings and transcript text (a call's
 * transcript, a conversation's messages, a message). One entry per request, however many lines it
 * returns. The streams audit their own opening (`auditTranscriptRead`).
 */
export const AUDITED_READS = new Set([
  'GET /v1/calls/{id}/transcript',
  'GET /v1/calls/{id}/recording',
  'GET /v1/conversations/{id}/messages',
  'GET /v1/messages/{id}',
]);

/** Operation paths as patterns, the ones with fewer parameters first (`/v1/calls/search` before `/v1/calls/{id}`). */
let routes: { method: string; template: string; pattern: RegExp }[] | undefined;

/**
 * The operation (`METHOD /v1/route/{template}`) a request's method and path match, and its path
 * parameters; null for a path no operation declares.
 */
export function matchOperation(method: string, path: string): { action: string; params: string[] } | null {
  routes ??= [...API_OPERATIONS.values()]
    .map((o) => ({
      method: o.method.toUpperCase(),
      template: o.path,
      pattern: new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}/?$`),
    }))
    .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  for (const r of routes) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(path);
    if (m) return { action: `${method} ${r.template}`, params: m.slice(1).map((p) => safeDecode(p)) };
  }
  return null;
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/**
 * Audits every authenticated request that `auditOnFinish` selects (POST, DELETE, the reads of
 * `AUDITED_READS`), crash-safe: the entry is stored before the handler runs (outcome pending) and its
 * outcome before the answer leaves, so no entry waits in memory after its answer (src/services/audit.ts).
 * Mounted right after `authenticate` on `/v1` (src/api/app.ts) and before the console's own endpoints
 * (`/console/api`, src/api/console.ts: sign-in, sign-out, mode switch, keys; there the session is
 * known only once the handler ran, so the whole entry is written before the answer leaves). Captures the
 * answer's `id` (the created or deleted object) and error `code` from the JSON it sends.
 */
export const auditRequests: RequestHandler = (req: Request, res: Response, next) => {
  const opening = auditOnFinish(req, res);
  if (!opening) return next();
  opening.then(() => next(), next);
};

/**
 * An error handler mounted right after the console's cookie authentication on `/v1` (src/api/app.ts;
 * src/api/console.ts `consoleSessionAuth`): a write whose session authenticated (`req.auth` set) but
 * which the CSRF check refused never reaches `auditRequests`, so its entry is installed here; the error
 * goes on to the error handler unchanged (the entry is written before its answer leaves).
 */
export const auditRefusedSession: ErrorRequestHandler = (err, req, res, next) => {
  if (req.auth) void auditOnFinish(req, res);
  next(err);
};

/** The path parameters of a request that are object ids (only ids go into `object_ids`). */
function pathIds(matched: { params: string[] } | null): string[] {
  return (matched?.params ?? []).filter((p) => ID.test(p));
}

/**
 * Installs the audit entry of `req` (when it is audited: a POST, a DELETE or an audited read); once per
 * request. An authenticated request's entry is written now (outcome pending, status 0); the
 * response's `end` is held until the outcome is stored (or, for a request authenticated by its handler,
 * the whole entry), then goes out. `auditRequests` calls it for every request; the console's cookie
 * authentication calls it for a write it refuses (a forged CSRF token) before `/v1`'s middleware is
 * reached, so that refusal is in the log too.
 * @returns a promise settled once the opening write is stored (run the handler after it); null when the
 *   request is not audited (or already is)
 */
export function auditOnFinish(req: Request, res: Response): Promise<void> | null {
  if (res.locals.auditInstalled) return null;
  const path = req.originalUrl.split('?')[0];
  const matched = matchOperation(req.method, path);
  const audited =
    req.method === 'POST' || req.method === 'DELETE' || (matched !== null && AUDITED_READS.has(matched.action));
  if (!audited) return null;
  res.locals.auditInstalled = true;
  const describe = (auth: AuthContext) => ({
    orgId: auth.orgId,
    livemode: auth.livemode,
    actor: auditActor(auth),
    action: matched?.action ?? `${req.method} (unknown route)`,
    objectIds: pathIds(matched),
    requestId: req.requestId ?? null,
    ip: req.ip ?? null,
  });
  // Before the change: a process killed between the change and the answer leaves this entry (status 0).
  const opening: Promise<OpenAuditEvent | null> = req.auth ? openAuditEvent(describe(req.auth)) : Promise.resolve(null);
  let answer: unknown;
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    answer = body;
    return json(body);
  };
  /** The outcome, stored before the answer leaves; a request that never authenticated leaves no entry. */
  const settle = async () => {
    // Read at the end: the console's handlers authenticate the session (and sign-in creates it) after
    // this middleware ran.
    const auth = req.auth;
    if (!auth) return;
    const body = (answer ?? {}) as { id?: unknown; object?: unknown; error?: { code?: unknown } };
    const created = typeof body.id === 'string' && ID.test(body.id) && body.object !== 'list' ? [body.id] : [];
    const outcome = {
      status: res.statusCode,
      errorCode: typeof body.error?.code === 'string' ? body.error.code : null,
    };
    const opened = await opening;
    if (opened) await closeAuditEvent(opened, outcome, created);
    else await recordAuditEvent({ ...describe(auth), objectIds: [...pathIds(matched), ...created], outcome });
  };
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let held = false;
  res.end = ((...args: unknown[]) => {
    if (held) return end(...args);
    held = true;
    settle()
      .catch((err: unknown) => logger.error('audit event not written', { error: String(err) }))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
  return opening.then(() => undefined);
}

/** `GET /v1/audit_events` → the organization's entries in this mode, newest first, filtered. */
/**
 * An entry's id is of its own instant (src/services/audit.ts `auditId`), later only by the process's
 * monotonic clock step (`newId`): a minute of slack after, a second before.
 */
const AUDIT_ID_SKEW: IdSkew = { before: 1_000, after: 60_000 };

const listAuditEvents = operation({
  method: 'get',
  path: '/v1/audit_events',
  operationId: 'listAuditEvents',
  tag,
  summary: 'List audit entries',
  description:
    'Every state-changing request (POST, DELETE), console action and read of a recording or transcript of this organization in this mode, newest first.',
  scope: 'audit:read',
  list: true,
  query: [
    { name: 'actor', description: 'Only entries of this actor: an API key (`key_…`) or a staff user (`usr_…`).' },
    { name: 'action', description: 'Only entries of this action, e.g. `POST /v1/calls`.' },
    { name: 'object_id', description: 'Only entries naming this object id (in the path or created).' },
    createdQuery('entries'),
  ],
  response: listOf(AuditEventObject),
  handler: async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
    for (const [param, field] of [
      ['actor', 'actor_id'],
      ['action', 'action'],
      ['object_id', 'object_ids'],
    ] as const) {
      const v = q[param];
      if (v === undefined) continue;
      if (typeof v !== 'string' || v.length === 0 || v.length > 200)
        throw invalidParam(param, `Invalid ${param}: must be a string of 1 to 200 characters.`);
      filter[field] = v;
    }
    const created = createdRange(req);
    if (created) Object.assign(filter, { created }, idRangeOf(createdIdRange(created, 'aud', AUDIT_ID_SKEW)));
    res.json(await listPage(req, AuditEvent, filter, renderAuditEvent));
  },
});

/** `GET /v1/audit_events/{id}` → the entry; 404 `resource_missing` (another organization's or mode's too). */
const retrieveAuditEvent = operation({
  method: 'get',
  path: '/v1/audit_events/{id}',
  operationId: 'retrieveAuditEvent',
  tag,
  summary: 'Retrieve an audit entry',
  scope: 'audit:read',
  response: AuditEventObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await AuditEvent.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('audit_event', id, 'id');
    res.json(renderAuditEvent(doc));
  },
});

/** Routes under `/v1/audit_events` (mounted there by src/api/app.ts): reads only. */
export function auditEventsRouter(): Router {
  return operationsRouter('/v1/audit_events', [listAuditEvents, retrieveAuditEvent]);
}
