/**
 * Events (spec section 6; DESIGN.md section 5): `GET /v1/events` (scope `events:read`) with the list
 * parameters, `type` (exact, or a prefix wildcard like `call.*`), `created[gte]`, `created[lte]` (unix
 * seconds); and `GET /v1/events/{id}`. Events are rendered once, when emitted, and never change.
 * Both also show the live webhook delivery state, `pending_webhooks` and `webhook_deliveries` (issue #3,
 * src/api/webhook-endpoints.ts `withDeliveryState`); `POST /v1/events/{id}/redeliver` sends one again.
 */
import { Router } from 'express';
import type { Client } from '@temporalio/client';
import { Event } from '../models/events';
import { invalidParam, notFound } from '../errors';
import { listPage } from './lists';
import { requireScope } from './middleware';
import { redeliverEvent, withDeliveryState } from './webhooks';

const render = (doc: { payload_json: string }) => JSON.parse(doc.payload_json) as Record<string, unknown>;

/** Routes under `/v1/events`; `temporal` starts redeliveries. */
export function eventsRouter(temporal?: Client): Router {
  const router = Router();

  /** `GET /v1/events` → list of events, newest first. */
  router.get('/', requireScope('events:read'), async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
    if (q.type !== undefined) {
      if (typeof q.type !== 'string' || !/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/.test(q.type)) throw invalidParam('type', 'Invalid type: must be an event type like call.ended, or a prefix like call.*.');
      filter.type = q.type.endsWith('.*') ? { $regex: `^${q.type.slice(0, -1).replace(/\./g, '\\.')}` } : q.type;
    }
    const created: Record<string, number> = {};
    for (const [param, op] of [['created[gte]', '$gte'], ['created[lte]', '$lte'], ['created[gt]', '$gt'], ['created[lt]', '$lt']] as const) {
      const v = q[param];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !/^\d{1,12}$/.test(v)) throw invalidParam(param, `Invalid ${param}: must be a unix timestamp in seconds.`);
      created[op] = Number(v);
    }
    if (Object.keys(created).length) filter.created = created;
    const page = await listPage(req, Event, filter, render);
    res.json({ ...page, data: await withDeliveryState(page.data) });
  });

  /** `GET /v1/events/{id}` → the event; 404 `resource_missing`. */
  router.get('/:id', requireScope('events:read'), async (req, res) => {
    const id = String(req.params.id);
    const doc = await Event.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('event', id, 'id');
    res.json((await withDeliveryState([render(doc)]))[0]);
  });

  /** `POST /v1/events/{id}/redeliver` body `{endpoint_id?}` → list of new deliveries (src/api/webhook-endpoints.ts `redeliverEvent`). */
  router.post('/:id/redeliver', requireScope('webhooks:write'), async (req, res) => {
    if (!temporal) throw new Error('eventsRouter needs a Temporal client for redeliveries');
    await redeliverEvent(req, res, temporal);
  });

  return router;
}
