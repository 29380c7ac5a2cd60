/**
 * The audit log in the API: the read-only routes `GET /v1/audit_events` and `GET /v1/audit_events/{id}`
 * (scope `audit:read`), and, re-exported from ./audit-trail.ts, the middleware that writes an entry for
 * every state-changing request (POST, DELETE) and every read of a recording or a transcript, stored
 * before the answer leaves. No route changes or deletes an entry (a POST or DELETE on them is an
 * unknown route).
 */
import type { Router } from 'express';
import { notFound, invalidParam } from '../errors';
import { AuditEvent, AuditEventObject, renderAuditEvent } from '../models/audit';
import { listOf } from '../models/wire';
import { createdQuery, createdRange, listPage } from './lists';
import { operation, operationsRouter } from './operations';

// The middleware lives beside the routes' module (./audit-trail.ts), so that routers may use it.
export {
  AUDITED_READS,
  auditActor,
  auditOnFinish,
  auditRefusedSession,
  auditRequests,
  auditTranscriptRead,
  matchOperation,
} from './audit-trail';

const tag = 'Audit log';

/** `GET /v1/audit_events` → the organization's entries in this mode, newest first, filtered. */
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
    if (created) filter.created = created;
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
