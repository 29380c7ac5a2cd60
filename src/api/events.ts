/**
 * Events (spec section 6; DESIGN.md section 5): `GET /v1/events` (scope `events:read`) with the list
 * parameters, `type` (exact, or a prefix wildcard like `call.*`), `created[gte]`, `created[lte]` (unix
 * seconds); and `GET /v1/events/{id}`. Events are rendered once, when emitted, and never change.
 * Both also show the live webhook delivery state, `pending_webhooks` and `webhook_deliveries`
 * (src/models/webhooks.ts `withDeliveryState`); `POST /v1/events/{id}/redeliver` sends one again.
 */
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { Event, EventObject, type RenderedEvent } from '../models/events';
import {
  newDeliveryDoc,
  renderWebhookDelivery,
  WebhookDeliveryObject,
  WebhookEndpoint,
  withDeliveryState,
  type WebhookEndpointDoc,
} from '../models/webhooks';
import { listOf } from '../models/wire';
import { ApiError, invalidParam, notFound } from '../errors';
import { deliveryRetry, startWebhookDelivery, subscribedEndpoints } from '../services/webhooks';
import { redeliveryId, type EventType } from '../shared/webhooks';
import { idempotent } from './idempotency';
import { createdIdRange, createdQuery, createdRange, idRangeOf, listPage, type IdSkew } from './lists';
import { operation, operationsRouter } from './operations';

/** The event as rendered at creation (its delivery state is added by `withDeliveryState`). */
const render = (doc: { payload_json: string }) => JSON.parse(doc.payload_json) as RenderedEvent;

const tag = 'Events';

/**
 * `GET /v1/events` → list of events, newest first; filters `type` (exact, or a family `call.*`), `object_id`
 * (the events about one object, its `data.object.id`, on the index `{org_id, livemode, object_id, _id}`;
 * what a call's page in the console reads) and `created[…]`.
 * @throws ApiError 400 `parameter_invalid` naming `type` or `object_id` when malformed
 */
/**
 * An event's id may be made long before it is stored (a message's `message.delivered` id is made when the
 * message is sent, the event when the receipt arrives: src/services/conversations.ts), never after: a
 * `created[gte]` bound says nothing of the ids, a `created[lt]` one bounds them (a minute of slack for clocks).
 */
const EVENT_ID_SKEW: IdSkew = { before: null, after: 60_000 };

const listEvents = operation({
  method: 'get',
  path: '/v1/events',
  operationId: 'listEvents',
  tag,
  summary: 'List events',
  scope: 'events:read',
  list: true,
  query: [
    { name: 'type', description: 'Only events of this type (`call.ended`), or of a family (`call.*`).' },
    {
      name: 'object_id',
      description:
        "Only events about this object (its `data.object.id`: a call's `call.*` events, a message's `message.*`).",
    },
    createdQuery('events'),
  ],
  response: listOf(EventObject),
  handler: async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
    if (q.type !== undefined) {
      if (typeof q.type !== 'string' || !/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/.test(q.type))
        throw invalidParam('type', 'Invalid type: must be an event type like call.ended, or a prefix like call.*.');
      filter.type = q.type.endsWith('.*') ? { $regex: `^${q.type.slice(0, -1).replace(/\./g, '\\.')}` } : q.type;
    }
    if (q.object_id !== undefined) {
      if (typeof q.object_id !== 'string' || !/^[A-Za-z0-9_:.-]{1,120}$/.test(q.object_id))
        throw invalidParam(
          'object_id',
          'Invalid object_id: must be an object id like call_01jd5x2v7c0000000000000000.',
        );
      filter.object_id = q.object_id;
    }
    const created = createdRange(req);
    if (created) Object.assign(filter, { created }, idRangeOf(createdIdRange(created, 'evt', EVENT_ID_SKEW)));
    const page = await listPage(req, Event, filter, render);
    res.json({ ...page, data: await withDeliveryState(page.data) });
  },
});

/** `GET /v1/events/{id}` → the event; 404 `resource_missing`. */
const retrieveEvent = operation({
  method: 'get',
  path: '/v1/events/{id}',
  operationId: 'retrieveEvent',
  tag,
  summary: 'Retrieve an event and its deliveries',
  scope: 'events:read',
  response: EventObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await Event.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('event', id, 'id');
    res.json((await withDeliveryState([render(doc)]))[0]);
  },
});

/** `POST /v1/events/{id}/redeliver` body `{endpoint_id?}` → list of new deliveries (`redeliverEvent` below). */
const redeliverEventOperation = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/events/{id}/redeliver',
    operationId: 'redeliverEvent',
    errors: { '400': ['webhook_endpoint_disabled', 'webhook_endpoint_missing'], '404': ['resource_missing'] },
    tag,
    summary: 'Send an event again',
    description: 'To one endpoint (`endpoint_id`) or to every enabled endpoint subscribed to its type.',
    scope: 'webhooks:write',
    body: redeliverSchema,
    response: listOf(WebhookDeliveryObject),
    handler: async (req, res, { body }) => {
      await redeliverEvent(req, res, temporal, body);
    },
  });

/** Routes under `/v1/events` (mounted there by src/api/app.ts); `temporal` starts redeliveries. */
export function eventsRouter(temporal: Client): Router {
  return operationsRouter('/v1/events', [listEvents, retrieveEvent, redeliverEventOperation(temporal)]);
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
async function redeliverEvent(
  req: Request,
  res: Response,
  temporal: Client,
  body: z.output<typeof redeliverSchema>,
): Promise<void> {
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
    endpoints = await subscribedEndpoints({ org_id: orgId, livemode, type: event.type as EventType });
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
