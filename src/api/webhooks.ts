/**
 * Webhook endpoints (spec sections 4 and 6; DESIGN.md section 5), scopes `webhooks:read` /
 * `webhooks:write`:
 *
 *   POST   /v1/webhook-endpoints                     create: `url`, `events`, `description?`, `metadata?` → with `secret`
 *   GET    /v1/webhook-endpoints                     list (list conventions)
 *   GET    /v1/webhook-endpoints/{id}                retrieve (no secret)
 *   POST   /v1/webhook-endpoints/{id}                update: `url?`, `events?`, `description?`, `metadata?`, `disabled?`
 *   DELETE /v1/webhook-endpoints/{id}                delete → `{id, object, deleted: true}`
 *   POST   /v1/webhook-endpoints/{id}/rotate_secret  new `secret`; the old one also signs for 24 hours
 *   GET    /v1/webhook-endpoints/{id}/deliveries     delivery attempts, newest first; filter `event`
 *
 * Rules: `url` is HTTPS and its host must resolve to public addresses only unless WEBHOOK_ALLOW_PRIVATE
 * is on (400 naming `url`: `parameter_invalid`, `url_private_address`, `url_unresolvable`); `events`
 * lists known event types or is `["*"]` (else 400 naming `events`); `metadata` follows Stripe's rules;
 * at most 16 endpoints per organization and mode (Stripe's limit). POSTs take an Idempotency-Key; the
 * replay of a creation or rotation returns the same secret (it is stored in the idempotency record for
 * its 24 hours). Updating `metadata` merges keys, and a key set to `""` is removed (Stripe).
 */
import type { Request, Router } from 'express';
import { z } from 'zod';
import { insertIfAbsent } from '../models/store';
import {
  renderWebhookAttempt,
  renderWebhookEndpoint,
  WebhookAttempt,
  WebhookDeliveryAttemptObject,
  WebhookEndpoint,
  WebhookEndpointObject,
  type WebhookEndpointDoc,
} from '../models/webhooks';
import { DeletedObject, listOf } from '../models/wire';
import { ApiError, invalidParam, notFound } from '../errors';
import { idTime, isId } from '../shared/ids';
import { checkPublicHttpsUrl } from '../services/webhooks';
import { newWebhookSecret } from '../providers/webhook-signing';
import { sealSecret } from '../secrets';
import { ALL_EVENTS, EVENT_TYPES } from '../shared/webhooks';

import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { metadata } from './validation';

/** Endpoints an organization may have per mode. */
export const MAX_ENDPOINTS = 16;
/** How long the previous secret keeps signing after a rotation, ms. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const urlField = z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');
const eventsField = z
  .array(z.string())
  .max(EVENT_TYPES.length + 1, `must have at most ${EVENT_TYPES.length + 1} entries`);
const descriptionField = z.string().max(5000, 'must be at most 5000 characters');

export const createWebhookEndpointSchema = z.strictObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
  metadata: metadata.optional(),
});

export const updateWebhookEndpointSchema = z.strictObject({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.nullable().optional(),
  metadata: metadata.optional(),
  disabled: z.boolean().optional(),
});

/**
 * Checks `events`: `["*"]`, or known event types (duplicates dropped).
 * @throws ApiError 400 naming `events`
 */
export function checkEvents(events: string[]): string[] {
  if (events.length === 0)
    throw invalidParam('events', 'Invalid events: must list at least one event type, or ["*"] for all.');
  if (events.includes(ALL_EVENTS)) {
    if (events.length !== 1) throw invalidParam('events', 'Invalid events: the wildcard "*" must be the only entry.');
    return [ALL_EVENTS];
  }
  const unknown = events.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined) {
    throw invalidParam(
      'events',
      `Invalid events: unknown event type '${unknown}'. Known types: ${EVENT_TYPES.join(', ')}; or ["*"] for all.`,
    );
  }
  return [...new Set(events)];
}

/** The caller's undeleted endpoint `req.params.id`, else 404 `resource_missing`. */
async function findEndpoint(req: Request): Promise<WebhookEndpointDoc> {
  const id = String(req.params.id);
  const doc = await WebhookEndpoint.findOne({
    _id: id,
    org_id: req.auth!.orgId,
    livemode: req.auth!.livemode,
    deleted_ms: null,
  }).lean();
  if (!doc) throw notFound('webhook endpoint', id, 'id');
  return doc as WebhookEndpointDoc;
}

/**
 * Applies `change(doc)` to the endpoint with a version check, re-reading and re-applying when another
 * writer got there first (a 410 disabling it, a concurrent update).
 * @throws ApiError 404, or 409 `resource_conflict` after 5 lost races
 */
async function updateEndpoint(
  req: Request,
  change: (doc: WebhookEndpointDoc) => Record<string, unknown>,
): Promise<WebhookEndpointDoc> {
  for (let i = 0; i < 5; i++) {
    const doc = await findEndpoint(req);
    const set = change(doc);
    if (Object.keys(set).length === 0) return doc;
    const updated = await WebhookEndpoint.findOneAndUpdate(
      { _id: doc._id, version: doc.version, deleted_ms: null },
      { $set: set, $inc: { version: 1 } },
      { returnDocument: 'after' },
    ).lean();
    if (updated) return updated as WebhookEndpointDoc;
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'resource_conflict',
    'The webhook endpoint was changed by another request at the same time; retry.',
  );
}

const tag = 'Webhooks';

/**
 * `POST /v1/webhook-endpoints` body `{url, events, description?, metadata?}` → the endpoint with its
 * `secret` (`whsec_…`), shown only here and on rotation. 400 naming `url`/`events`/`metadata`; 400
 * `webhook_endpoint_limit` beyond 16 endpoints per organization and mode.
 */
const createWebhookEndpoint = operation({
  method: 'post',
  path: '/v1/webhook-endpoints',
  operationId: 'createWebhookEndpoint',
  errors: { '400': ['url_private_address', 'url_unresolvable', 'webhook_endpoint_limit'] },
  tag,
  summary: 'Create a webhook endpoint',
  description: 'HTTPS only. The answer holds the signing `secret`, shown this once.',
  scope: 'webhooks:write',
  body: createWebhookEndpointSchema,
  example: { url: 'https://example.com/hooks/svc', events: ['call.ended', 'bulk_call.completed'] },
  response: WebhookEndpointObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    const events = checkEvents(body.events);
    const url = await checkPublicHttpsUrl(body.url, 'url', 'webhook endpoints');
    await idempotent(req, res, 'we', async (id) => {
      const count = await WebhookEndpoint.countDocuments({ org_id: orgId, livemode, deleted_ms: null });
      if (count >= MAX_ENDPOINTS) {
        throw new ApiError(
          400,
          'invalid_request_error',
          'webhook_endpoint_limit',
          `An organization may have at most ${MAX_ENDPOINTS} ${livemode ? 'live' : 'test'} webhook endpoints; delete one first.`,
        );
      }
      const doc: WebhookEndpointDoc = {
        _id: id,
        org_id: orgId,
        livemode,
        url,
        events,
        description: body.description ?? null,
        metadata_json: JSON.stringify(body.metadata ?? {}),
        status: 'enabled',
        disabled_reason: null,
        secret: sealSecret(newWebhookSecret()),
        previous_secret: null,
        previous_secret_expires_ms: null,
        rotation_id: null,
        created: Math.floor(idTime(id) / 1000),
        version: 1,
        deleted_ms: null,
      };
      // A retry that takes over an abandoned request finds the endpoint (and its secret) already there.
      const stored = (await insertIfAbsent(WebhookEndpoint, doc))
        ? doc
        : ((await WebhookEndpoint.findById(id).lean()) as WebhookEndpointDoc);
      return { status: 200, body: renderWebhookEndpoint(stored, { withSecret: true }) };
    });
  },
});

/** `GET /v1/webhook-endpoints` → list of endpoints, newest first (no secrets). */
const listWebhookEndpoints = operation({
  method: 'get',
  path: '/v1/webhook-endpoints',
  operationId: 'listWebhookEndpoints',
  tag,
  summary: 'List webhook endpoints',
  scope: 'webhooks:read',
  list: true,
  response: listOf(WebhookEndpointObject),
  handler: async (req, res) => {
    const filter = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null };
    res.json(await listPage(req, WebhookEndpoint, filter, (d: WebhookEndpointDoc) => renderWebhookEndpoint(d)));
  },
});

/** `GET /v1/webhook-endpoints/{id}` → the endpoint (no secret); 404 `resource_missing`. */
const retrieveWebhookEndpoint = operation({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'retrieveWebhookEndpoint',
  tag,
  summary: 'Retrieve a webhook endpoint',
  scope: 'webhooks:read',
  response: WebhookEndpointObject,
  handler: async (req, res) => {
    res.json(renderWebhookEndpoint(await findEndpoint(req)));
  },
});

/**
 * `POST /v1/webhook-endpoints/{id}` body `{url?, events?, description?, metadata?, disabled?}` → the
 * endpoint. `disabled: true` stops new deliveries and the retries of pending ones (they end
 * `canceled`); `false` enables it again (clearing a 410's `disabled_reason`).
 */
const updateWebhookEndpoint = operation({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'updateWebhookEndpoint',
  errors: { '400': ['url_private_address', 'url_unresolvable'], '409': ['resource_conflict'] },
  tag,
  summary: 'Update a webhook endpoint',
  scope: 'webhooks:write',
  body: updateWebhookEndpointSchema,
  response: WebhookEndpointObject,
  handler: async (req, res, { body }) => {
    const events = body.events ? checkEvents(body.events) : undefined;
    const url = body.url !== undefined ? await checkPublicHttpsUrl(body.url, 'url', 'webhook endpoints') : undefined;
    await findEndpoint(req);
    await idempotent(req, res, 'req', async () => {
      const doc = await updateEndpoint(req, (current) => {
        const set: Record<string, unknown> = {};
        if (url !== undefined) set.url = url;
        if (events !== undefined) set.events = events;
        if (body.description !== undefined) set.description = body.description || null;
        if (body.metadata !== undefined) {
          const merged: Record<string, string> = {
            ...(JSON.parse(current.metadata_json ?? '{}') as Record<string, string>),
            ...body.metadata,
          };
          for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
          if (Object.keys(merged).length > 50)
            throw invalidParam('metadata', 'Invalid metadata: must have at most 50 keys.');
          set.metadata_json = JSON.stringify(merged);
        }
        if (body.disabled !== undefined) {
          set.status = body.disabled ? 'disabled' : 'enabled';
          set.disabled_reason = body.disabled ? 'api' : null;
        }
        return set;
      });
      return { status: 200, body: renderWebhookEndpoint(doc) };
    });
  },
});

/** `DELETE /v1/webhook-endpoints/{id}` → `{id, object: "webhook_endpoint", deleted: true}`; pending deliveries end `canceled`. */
const deleteWebhookEndpoint = operation({
  method: 'delete',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'deleteWebhookEndpoint',
  tag,
  summary: 'Delete a webhook endpoint',
  scope: 'webhooks:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const doc = await updateEndpoint(req, () => ({
      deleted_ms: Date.now(),
      status: 'disabled',
      disabled_reason: 'deleted',
      secret: null,
      previous_secret: null,
    }));
    res.json({ id: doc._id, object: 'webhook_endpoint', deleted: true });
  },
});

/**
 * `POST /v1/webhook-endpoints/{id}/rotate_secret` (no body) → the endpoint with its new `secret`.
 * For 24 hours (`secret_rotation_expires_at`) deliveries carry a `v1` signature for each secret.
 */
const rotateWebhookEndpointSecret = operation({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/rotate_secret',
  operationId: 'rotateWebhookEndpointSecret',
  errors: { '409': ['resource_conflict'] },
  tag,
  summary: "Rotate an endpoint's signing secret",
  description: 'Both secrets sign for 24 hours; the answer holds the new one.',
  scope: 'webhooks:write',
  body: null,
  response: WebhookEndpointObject,
  handler: async (req, res) => {
    await findEndpoint(req);
    await idempotent(req, res, 'req', async (rotationId) => {
      const now = Date.now();
      const doc = await updateEndpoint(req, (current) =>
        current.rotation_id === rotationId
          ? {} // this request already rotated (a retry taking over): keep its secret
          : {
              secret: sealSecret(newWebhookSecret()),
              previous_secret: current.secret,
              previous_secret_expires_ms: now + SECRET_ROTATION_OVERLAP_MS,
              rotation_id: rotationId,
            },
      );
      return { status: 200, body: renderWebhookEndpoint(doc, { withSecret: true }) };
    });
  },
});

/**
 * `GET /v1/webhook-endpoints/{id}/deliveries` → list of `webhook_delivery_attempt` objects (every HTTP
 * attempt: time, status code, latency, error), newest first; optional filter `event` (an event id).
 */
const listWebhookDeliveryAttempts = operation({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}/deliveries',
  operationId: 'listWebhookDeliveryAttempts',
  tag,
  summary: "List an endpoint's delivery attempts",
  scope: 'webhooks:read',
  list: true,
  query: [{ name: 'event', description: "Only this event's attempts (`evt_…`)." }],
  response: listOf(WebhookDeliveryAttemptObject),
  handler: async (req, res) => {
    const endpoint = await findEndpoint(req);
    const filter: Record<string, unknown> = {
      endpoint_id: endpoint._id,
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    };
    const event = req.query.event;
    if (event !== undefined) {
      if (!isId('evt', event)) throw invalidParam('event', 'Invalid event: must be an event id (evt_…).');
      filter.event_id = event;
    }
    res.json(await listPage(req, WebhookAttempt, filter, renderWebhookAttempt));
  },
});

/** Routes under `/v1/webhook-endpoints`. */
export function webhookEndpointsRouter(): Router {
  return operationsRouter('/v1/webhook-endpoints', [
    createWebhookEndpoint,
    listWebhookEndpoints,
    retrieveWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    rotateWebhookEndpointSecret,
    listWebhookDeliveryAttempts,
  ]);
}
