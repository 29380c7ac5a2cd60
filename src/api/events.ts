/**
 * Events (spec section 6; DESIGN.md section 5): `GET /v1/events` (scope `events:read`) with the list
 * parameters, `type` (exact, or a prefix wildcard like `call.*`), `created[gte]`, `created[lte]` (unix
 * seconds); and `GET /v1/events/{id}`. Events are rendered once, when emitted, and never change.
 * Both also show the live webhook delivery state, `pending_webhooks` and `webhook_deliveries`
 * (src/models/webhooks.ts `withDeliveryState`); `POST /v1/events/{id}/redeliver` sends one again.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { Event } from '../models/events';
import {
  newDeliveryDoc,
  renderWebhookDelivery,
  WebhookEndpoint,
  withDeliveryState,
  type WebhookEndpointDoc,
} from '../models/webhooks';
import { ApiError, invalidParam, notFound } from '../errors';
import { deliveryRetry, startWebhookDelivery, subscribedEndpoints } from '../services/webhooks';
import { redeliveryId } from '../shared/webhooks';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { requireScope } from './middleware';
import { parseBody, acceptsQuery, LIST_QUERY } from './validation';

const render = (doc: { payload_json: string }) => JSON.parse(doc.payload_json) as Record<string, unknown>;

/** Routes under `/v1/events`; `temporal` starts redeliveries. */
export function eventsRouter(temporal: Client): Router {
  const router = Router();

  /** `GET /v1/events` → list of events, newest first. */
  router.get(
    '/',
    requireScope('events:read'),
    acceptsQuery(...LIST_QUERY, 'type', 'created[gte]', 'created[lte]', 'created[gt]', 'created[lt]'),
    async (req, res) => {
      const q = req.query as Record<string, unknown>;
      const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
      if (q.type !== undefined) {
        if (typeof q.type !== 'string' || !/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/.test(q.type))
          throw invalidParam('type', 'Invalid type: must be an event type like call.ended, or a prefix like call.*.');
        filter.type = q.type.endsWith('.*') ? { $regex: `^${q.type.slice(0, -1).replace(/\./g, '\\.')}` } : q.type;
      }
      const created: Record<string, number> = {};
      for (const [param, op] of [
        ['created[gte]', '$gte'],
        ['created[lte]', '$lte'],
        ['created[gt]', '$gt'],
        ['created[lt]', '$lt'],
      ] as const) {
        const v = q[param];
        if (v === undefined) continue;
        if (typeof v !== 'string' || !/^\d{1,12}$/.test(v))
          throw invalidParam(param, `Invalid ${param}: must be a unix timestamp in seconds.`);
        created[op] = Number(v);
      }
      if (Object.keys(created).length) filter.created = created;
      const page = await listPage(req, Event, filter, render);
      res.json({ ...page, data: await withDeliveryState(page.data) });
    },
  );

  /** `GET /v1/events/{id}` → the event; 404 `resource_missing`. */
  router.get('/:id', requireScope('events:read'), acceptsQuery(), async (req, res) => {
    const id = String(req.params.id);
    const doc = await Event.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('event', id, 'id');
    res.json((await withDeliveryState([render(doc)]))[0]);
  });

  /** `POST /v1/events/{id}/redeliver` body `{endpoint_id?}` → list of new deliveries (`redeliverEvent` below). */
  router.post('/:id/redeliver', requireScope('webhooks:write'), async (req, res) => {
    await redeliverEvent(req, res, temporal);
  });

  return router;
}

export const redeliverSchema = z.strictObject({ endpoint_id: z.string().min(1).optional() });

/**
 * `POST /v1/events/{id}/redeliver` body `{endpoint_id?}` (scope `webhooks:write`, Idempotency-Key):
 * sends the event again, as it was rendered at creation, through a new delivery with its own retries
 * (`trigger: "redelivery"`): to `endpoint_id` (which must be enabled; it need not subscribe to the
 * type), or else to every enabled endpoint subscribed to the event's type.
 * → a list of the new `webhook_delivery` objects, `pending`.
 * Errors: 404 `resource_missing` (event `id`, or `endpoint_id`); 409 `webhook_endpoint_disabled`;
 * 400 `webhook_endpoint_missing` when no enabled endpoint subscribes to the type.
 */
async function redeliverEvent(req: Request, res: Response, temporal: Client): Promise<void> {
  const body = parseBody(redeliverSchema, req.body);
  const { orgId, livemode } = req.auth!;
  const eventId = String(req.params.id);
  const event = await Event.findOne({ _id: eventId, org_id: orgId, livemode }).lean();
  if (!event) throw notFound('event', eventId, 'id');
  let endpoints: WebhookEndpointDoc[];
  if (body.endpoint_id !== undefined) {
    const endpoint = (await WebhookEndpoint.findOne({
      _id: body.endpoint_id,
      org_id: orgId,
      livemode,
      deleted_ms: null,
    }).lean()) as WebhookEndpointDoc | null;
    if (!endpoint) throw notFound('webhook endpoint', body.endpoint_id, 'endpoint_id');
    if (endpoint.status !== 'enabled') {
      throw new ApiError(
        409,
        'invalid_request_error',
        'webhook_endpoint_disabled',
        `The webhook endpoint ${endpoint._id} is disabled; enable it first (POST /v1/webhook-endpoints/${endpoint._id} with disabled: false).`,
        'endpoint_id',
      );
    }
    endpoints = [endpoint];
  } else {
    endpoints = await subscribedEndpoints({ org_id: orgId, livemode, type: event.type });
    if (endpoints.length === 0) {
      throw new ApiError(
        400,
        'invalid_request_error',
        'webhook_endpoint_missing',
        `No enabled webhook endpoint subscribes to ${event.type}; pass endpoint_id, or create or enable an endpoint.`,
      );
    }
  }
  await idempotent(req, res, 'rdl', async (requestId) => {
    const now = Date.now();
    const deliveries = [];
    for (const endpoint of endpoints) {
      const input = {
        deliveryId: redeliveryId(event._id, endpoint._id, requestId),
        eventId: event._id,
        eventType: event.type,
        endpointId: endpoint._id,
        orgId,
        livemode,
        trigger: 'redelivery' as const,
        retry: deliveryRetry(),
        requestedMs: now,
      };
      await startWebhookDelivery(temporal, input);
      deliveries.push(renderWebhookDelivery(newDeliveryDoc(input, now)));
    }
    return {
      status: 200,
      body: { object: 'list', data: deliveries, has_more: false, url: `/v1/events/${event._id}/redeliver` },
    };
  });
}
