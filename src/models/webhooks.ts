/**
 * Webhook models (DESIGN.md sections 3 and 5), under the rules of src/models/store.ts:
 *
 * - `WebhookEndpoint` (`we_…`): written by the API (create, update, rotate, delete) and, for one field
 *   only, by a delivery that meets a 410 Gone (`status: disabled`). Every write names the `version` it
 *   read and increments it, so on MongoDB no write is lost; on FerretDB 1.x (read-modify-write without a
 *   version check) two writes within the same few milliseconds can still race. Deleted endpoints are
 *   kept (`deleted_ms`, secrets erased) so that the delivery log still names them.
 * - `WebhookDelivery` (`_id` = its workflow id, `<event id>:<endpoint id>[:<request id>]`): one per event
 *   and endpoint (and per redelivery), written only by its own workflow's activities, one at a time.
 * - `WebhookAttempt` (`wda_…`): immutable rows, one per attempt, unique on (delivery, attempt number), so
 *   a retried write of one attempt is a duplicate, not a second row.
 *
 * The renderers below are the API objects (`webhook_endpoint`, `webhook_delivery`,
 * `webhook_delivery_attempt`).
 */
import mongoose, { Schema, InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { API_VERSION } from '../config';
import { openSecret } from '../secrets';
import type { WebhookDeliveryInput } from '../shared/webhooks';
import { schemaOptions, seconds } from './store';
import { apiObject, metadataObject, unix } from './wire';

const base = schemaOptions;

const endpointSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    url: { type: String, required: true },
    /** Subscribed event types, or `['*']`. */
    events: { type: [String], required: true },
    description: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    status: { type: String, enum: ['enabled', 'disabled'], required: true },
    /** Why it is disabled: `api` (the user), `http_410` (the endpoint answered 410 Gone). */
    disabled_reason: { type: String, default: null },
    /** The signing secret (`whsec_…`), sealed (src/secrets.ts); shown once, kept to sign. Never logged. */
    secret: { type: String, default: null },
    /** The secret before the last rotation (sealed), still signing until `previous_secret_expires_ms`; cleared after. */
    previous_secret: { type: String, default: null },
    previous_secret_expires_ms: { type: Number, default: null },
    /** Id of the request that made the current secret (a retried rotation does not rotate twice). */
    rotation_id: { type: String, default: null },
    created: { type: Number, required: true },
    /** Optimistic concurrency: every write filters on it and increments it. */
    version: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
endpointSchema.index({ org_id: 1, livemode: 1, _id: -1 });
/** The sweep of previous secrets whose overlap ended (`sweepExpiredWebhookSecrets`, a range). */
endpointSchema.index({ previous_secret_expires_ms: 1 });
export const WebhookEndpoint = mongoose.model('WebhookEndpoint', endpointSchema, 'webhook_endpoints');

const deliverySchema = new Schema(
  {
    /** = the workflow id. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    event_id: { type: String, required: true, index: true },
    event_type: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    trigger: { type: String, enum: ['automatic', 'redelivery'], required: true },
    status: { type: String, enum: ['pending', 'succeeded', 'failed', 'canceled'], required: true },
    /** Why it failed or was canceled (`retries_exhausted`, `endpoint_gone`, `endpoint_deleted`, …). */
    reason: { type: String, default: null },
    attempts: { type: Number, required: true },
    last_attempt_ms: { type: Number, default: null },
    last_status_code: { type: Number, default: null },
    last_latency_ms: { type: Number, default: null },
    last_error: { type: String, default: null },
    created_ms: { type: Number, required: true },
    completed_ms: { type: Number, default: null },
  },
  base,
);
// Pending deliveries and the oldest of them, read at each metrics scrape (svc_webhook_backlog…).
deliverySchema.index({ status: 1, created_ms: 1 });
export const WebhookDelivery = mongoose.model('WebhookDelivery', deliverySchema, 'webhook_deliveries');

const attemptSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    delivery_id: { type: String, required: true },
    endpoint_id: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    trigger: { type: String, required: true },
    /** 1, 2, … within the delivery (Temporal's activity attempt number). */
    attempt: { type: Number, required: true },
    url: { type: String, required: true },
    succeeded: { type: Boolean, required: true },
    status_code: { type: Number, default: null },
    latency_ms: { type: Number, default: null },
    error: { type: String, default: null },
    error_code: { type: String, default: null },
    response_body: { type: String, default: null },
    /** When the attempt started (ms). */
    at_ms: { type: Number, required: true },
  },
  base,
);
attemptSchema.index({ delivery_id: 1, attempt: 1 }, { unique: true });
/** An endpoint's attempts, newest first (`GET /v1/webhook-endpoints/{id}/deliveries`), and one event's (`?event=`). */
attemptSchema.index({ endpoint_id: 1, _id: -1 });
attemptSchema.index({ endpoint_id: 1, event_id: 1, _id: -1 });
export const WebhookAttempt = mongoose.model('WebhookAttempt', attemptSchema, 'webhook_attempts');

export type WebhookEndpointDoc = InferSchemaType<typeof endpointSchema> & { _id: string };
export type WebhookDeliveryDoc = InferSchemaType<typeof deliverySchema> & { _id: string };
export type WebhookAttemptDoc = InferSchemaType<typeof attemptSchema> & { _id: string };

/** The `webhook_endpoint` object as the API answers it (the OpenAPI component `WebhookEndpoint`). */
export const WebhookEndpointObject = apiObject(
  'WebhookEndpoint',
  'An HTTPS URL that receives signed events. `secret` is shown only on creation and rotation.',
  z.object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    livemode: z.boolean(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    metadata: metadataObject,
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable(),
    api_version: z.string(),
    created: unix,
    secret_rotation_expires_at: unix.nullable(),
    secret: z.string().optional(),
  }),
);

/**
 * The `webhook_endpoint` object. `secret` only when `withSecret` (creation and rotation responses).
 * `secret_rotation_expires_at`: until when (unix s) the previous secret still signs, or null.
 */
export function renderWebhookEndpoint(
  doc: WebhookEndpointDoc,
  opts: { withSecret?: boolean; now?: number } = {},
): z.output<typeof WebhookEndpointObject> {
  const now = opts.now ?? Date.now();
  const previousLive =
    doc.previous_secret && doc.previous_secret_expires_ms != null && doc.previous_secret_expires_ms > now;
  return {
    id: doc._id,
    object: 'webhook_endpoint' as const,
    livemode: doc.livemode,
    url: doc.url,
    events: [...doc.events],
    description: doc.description ?? null,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    status: doc.status as 'enabled' | 'disabled',
    disabled_reason: doc.disabled_reason ?? null,
    api_version: API_VERSION,
    created: doc.created,
    secret_rotation_expires_at: previousLive ? seconds(doc.previous_secret_expires_ms) : null,
    // Asked for by creation and rotation only, which have just stored a secret (only deletion erases it).
    ...(opts.withSecret ? { secret: openSecret(doc.secret)! } : {}),
  };
}

/** The `webhook_delivery` object as the API answers it (the OpenAPI component `WebhookDelivery`). */
export const WebhookDeliveryObject = apiObject(
  'WebhookDelivery',
  'The delivery of one event to one endpoint, across its attempts.',
  z.object({
    id: z.string(),
    object: z.literal('webhook_delivery'),
    livemode: z.boolean(),
    event: z.string(),
    event_type: z.string(),
    webhook_endpoint: z.string(),
    trigger: z.enum(['automatic', 'redelivery']),
    status: z.enum(['pending', 'succeeded', 'failed', 'canceled']),
    reason: z.string().nullable(),
    attempts: z.number().int(),
    last_attempt: z
      .object({
        at: unix.nullable(),
        status_code: z.number().int().nullable(),
        latency_ms: z.number().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    created: unix,
    completed_at: unix.nullable(),
  }),
);

/** The `webhook_delivery` object: one event to one endpoint, with its state and last attempt. */
export function renderWebhookDelivery(doc: WebhookDeliveryDoc): z.output<typeof WebhookDeliveryObject> {
  return {
    id: doc._id,
    object: 'webhook_delivery' as const,
    livemode: doc.livemode,
    event: doc.event_id,
    event_type: doc.event_type,
    webhook_endpoint: doc.endpoint_id,
    trigger: doc.trigger as 'automatic' | 'redelivery',
    status: doc.status as 'pending' | 'succeeded' | 'failed' | 'canceled',
    reason: doc.reason ?? null,
    attempts: doc.attempts,
    last_attempt:
      doc.last_attempt_ms == null
        ? null
        : {
            at: seconds(doc.last_attempt_ms),
            status_code: doc.last_status_code ?? null,
            latency_ms: doc.last_latency_ms ?? null,
            error: doc.last_error ?? null,
          },
    created: seconds(doc.created_ms)!,
    completed_at: seconds(doc.completed_ms),
  };
}

/** The `webhook_delivery_attempt` object as the API answers it (the OpenAPI component `WebhookDeliveryAttempt`). */
export const WebhookDeliveryAttemptObject = apiObject(
  'WebhookDeliveryAttempt',
  'One HTTP attempt of a delivery: when, the status code, the latency, the error.',
  z.object({
    id: z.string(),
    object: z.literal('webhook_delivery_attempt'),
    livemode: z.boolean(),
    created: unix,
    webhook_endpoint: z.string(),
    delivery: z.string(),
    event: z.string(),
    event_type: z.string(),
    trigger: z.string(),
    attempt: z.number().int(),
    url: z.string(),
    succeeded: z.boolean(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().nullable(),
    error: z.string().nullable(),
    error_code: z.string().nullable(),
    response_body: z.string().nullable(),
  }),
);

/** The `webhook_delivery_attempt` object (one HTTP attempt), as `GET /v1/webhook-endpoints/{id}/deliveries` lists it. */
export function renderWebhookAttempt(doc: WebhookAttemptDoc): z.output<typeof WebhookDeliveryAttemptObject> {
  return {
    id: doc._id,
    object: 'webhook_delivery_attempt' as const,
    livemode: doc.livemode,
    created: seconds(doc.at_ms)!,
    webhook_endpoint: doc.endpoint_id,
    delivery: doc.delivery_id,
    event: doc.event_id,
    event_type: doc.event_type,
    trigger: doc.trigger,
    attempt: doc.attempt,
    url: doc.url,
    succeeded: doc.succeeded,
    status_code: doc.status_code ?? null,
    latency_ms: doc.latency_ms ?? null,
    error: doc.error ?? null,
    error_code: doc.error_code ?? null,
    response_body: doc.response_body ?? null,
  };
}

/** The record of a delivery that has not made an attempt yet (also how the API shows a just-requested one). */
export function newDeliveryDoc(input: WebhookDeliveryInput, nowMs: number): WebhookDeliveryDoc {
  return {
    _id: input.deliveryId,
    org_id: input.orgId,
    livemode: input.livemode,
    event_id: input.eventId,
    event_type: input.eventType,
    endpoint_id: input.endpointId,
    trigger: input.trigger,
    status: 'pending',
    reason: null,
    attempts: 0,
    last_attempt_ms: null,
    last_status_code: null,
    last_latency_ms: null,
    last_error: null,
    created_ms: nowMs,
    completed_ms: null,
  };
}

/**
 * Adds the live delivery state to event objects (as `GET /v1/events` and `GET /v1/events/{id}` show
 * them): `pending_webhooks` (deliveries not finished yet, Stripe's field) and `webhook_deliveries`
 * (one `webhook_delivery` per endpoint and redelivery, oldest first). The delivered JSON is the event
 * as rendered at creation, without these two fields.
 */
export async function withDeliveryState<T extends Record<string, unknown>>(
  events: T[],
): Promise<(T & { pending_webhooks: number; webhook_deliveries: ReturnType<typeof renderWebhookDelivery>[] })[]> {
  const ids = events.map((e) => String(e.id));
  // One `{event_id}` query per event (its index), side by side: an `$in` is no index lookup on the embedded store.
  const docs = (
    await Promise.all([...new Set(ids)].map((id) => WebhookDelivery.find({ event_id: id }).lean()))
  ).flat() as WebhookDeliveryDoc[];
  docs.sort((a, b) => a.created_ms - b.created_ms || (a._id < b._id ? -1 : 1));
  return events.map((e) => {
    const mine = docs.filter((d) => d.event_id === e.id);
    return {
      ...e,
      pending_webhooks: mine.filter((d) => d.status === 'pending').length,
      webhook_deliveries: mine.map(renderWebhookDelivery),
    };
  });
}

/**
 * Clears previous secrets whose 24 hours of overlap after a rotation have ended (run with the API's
 * periodic sweep; FerretDB has no TTL indexes). The endpoint's version moves, like every write of it.
 * @returns how many endpoints it cleared
 */
export async function sweepExpiredWebhookSecrets(now = Date.now()): Promise<number> {
  const { modifiedCount } = await WebhookEndpoint.updateMany(
    { previous_secret_expires_ms: { $lte: now }, previous_secret: { $ne: null } },
    { $set: { previous_secret: null, previous_secret_expires_ms: null }, $inc: { version: 1 } },
  );
  return modifiedCount;
}
