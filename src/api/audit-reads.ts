/**
 * The audit entries of reads that are not one JSON answer: `auditTranscriptRead`, called by the streams
 * that carry transcript text (`GET /v1/calls/{id}/stream`, the console's `GET /console/api/stream`) when
 * they open. Apart from ./audit.ts (the audit middleware and routes) and importing no router, so that the
 * streams' routers may import it; `auditActor` and `OBJECT_ID` are shared with ./audit.ts.
 */
import type { Request, Response } from 'express';
import type { AuditActorType } from '../models/audit';
import { recordAuditEvent } from '../services/audit';

/** An object id (`call_…`, `key_…`): only ids go into `object_ids`, never another path value. */
export const OBJECT_ID = /^[a-z]+_[0-9A-Za-z]{8,40}$/;

/**
 * Who made an authenticated request: the staff user when the console's authentication put one on
 * `req.auth` (`userId`), else the API key. The one place that decides it (adjust here when the console's
 * `AuthContext` names its user otherwise).
 */
export function auditActor(auth: NonNullable<Request['auth']>): { type: AuditActorType; id: string } {
  return auth.kind === 'user' && auth.userId ? { type: 'user', id: auth.userId } : { type: 'api_key', id: auth.keyId };
}

/**
 * Audits one read of transcript text that is not a JSON answer (`GET /v1/calls/{id}/stream`, the
 * console's `GET /console/api/stream`): call it once when the stream opens, before its first line is
 * sent; it resolves once the entry is stored (src/services/audit.ts `recordAuditEvent`). The action is
 * the matched route as a template (`GET /v1/calls/{id}/stream`); `object_ids` the ids among the path
 * parameters, then `objectIds`. Once per request (a second call, or a request the audit middleware
 * already audits, adds nothing); nothing for a request without `req.auth`.
 * @param objectIds the objects read besides the ids in the path (e.g. a conversation the stream follows)
 */
export async function auditTranscriptRead(req: Request, res: Response, objectIds: string[] = []): Promise<void> {
  const auth = req.auth;
  if (!auth || res.locals.auditInstalled) return;
  res.locals.auditInstalled = true;
  const route = `${req.baseUrl ?? ''}${String(req.route?.path ?? '')}`
    .replace(/:(\w+)/g, '{$1}')
    .replace(/(.)\/$/, '$1');
  const pathIds = Object.values(req.params ?? {}).map(String);
  await recordAuditEvent({
    orgId: auth.orgId,
    livemode: auth.livemode,
    actor: auditActor(auth),
    action: `${req.method} ${route || req.originalUrl.split('?')[0]}`,
    objectIds: [...pathIds, ...objectIds].filter((id) => OBJECT_ID.test(id)),
    requestId: req.requestId ?? null,
    ip: req.ip ?? null,
    outcome: { status: 200 },
  });
}
