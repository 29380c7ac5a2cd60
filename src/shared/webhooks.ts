/**
 * The webhooks domain's contract: shapes and names shared by `webhookDeliveryWorkflow`
 * (src/workflows/webhooks.ts), its activities (src/activities/webhooks.ts), its starter
 * (src/services/webhooks.ts) and the API. Bundle-safe: imports nothing of the project.
 */

/** Workflow type name of one event's delivery to one endpoint (recorded histories depend on it). */
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** Event types the service emits and that endpoints may subscribe to (spec section 6, plus our own). */
export const EVENT_TYPES = [
  'call.scheduled',
  'call.started',
  'call.ended',
  'call.transferred',
  'call.transfer_failed',
  'call.handed_off',
  'call.analyzed',
  'conversation.analyzed',
  'message.received',
  'message.sent',
  'message.delivered',
  'message.failed',
  'conversation.needs_person',
  'conversation.handed_off',
  'webhook_endpoint.delivery_failed',
  'connector.version_published',
  'bulk_call.contact_completed',
  'bulk_call.completed',
  'recording.ready',
  'recording.deleted',
  'test_suite_run.completed',
  'replay.completed',
  'erasure.completed',
  'contact.opted_out',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The wildcard subscription: every event type (the spec's `["*"]`). */
export const ALL_EVENTS = '*';

/** Emitted when a delivery is given up (retries exhausted, or the endpoint answered 410 Gone). */
export const DELIVERY_FAILED_EVENT = 'webhook_endpoint.delivery_failed';

/** Failure type of the attempt that met a 410 Gone: not retried; the endpoint is disabled. */
export const ENDPOINT_GONE = 'WebhookEndpointGone';
/** Failure type of a retryable attempt (non-2xx, timeout, network error, refused address). */
export const ATTEMPT_FAILED = 'WebhookAttemptFailed';

/** Why a delivery was started: by an emitted event, or by `POST /v1/events/{id}/redeliver`. */
export type DeliveryTrigger = 'automatic' | 'redelivery';

/** Delivery statuses: `pending` until one of the three terminal ones. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/** Retry schedule of one delivery, fixed when it starts (from the configuration of the starter). */
export interface DeliveryRetry {
  /** Delay before the first retry, ms; doubles after each failed attempt. */
  initialIntervalMs: number;
  /** Longest delay between two attempts, ms. */
  maximumIntervalMs: number;
  /** Time from the first attempt after which no attempt starts and the delivery fails, ms (3 days). */
  windowMs: number;
}

/** Argument of `webhookDeliveryWorkflow`: one event to one endpoint. */
export interface WebhookDeliveryInput {
  /** The delivery's id, equal to its workflow id: `<event id>:<endpoint id>` (`:<request id>` for a redelivery). */
  deliveryId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  orgId: string;
  livemode: boolean;
  trigger: DeliveryTrigger;
  retry: DeliveryRetry;
  /** When the delivery was requested (ms since the epoch). */
  requestedMs: number;
}

/** What the delivery activity reports when it returns (failures are thrown). */
export interface DeliverWebhookResult {
  /** `failed` only when a finished delivery is found again (a restart after Temporal's retention). */
  status: Exclude<DeliveryStatus, 'pending'>;
  /** For `canceled`: why (`endpoint_deleted`, `endpoint_disabled`, `event_type_unsubscribed`, `event_missing`). */
  reason?: string;
}

/** Why a delivery failed for good. */
export type DeliveryFailureReason = 'retries_exhausted' | 'endpoint_gone';

/** Result of `webhookDeliveryWorkflow`. */
export interface WebhookDeliveryResult {
  deliveryId: string;
  status: Exclude<DeliveryStatus, 'pending'>;
  reason: string | null;
}

/** The delivery id (= workflow id) of the automatic delivery of `eventId` to `endpointId`. */
export function automaticDeliveryId(eventId: string, endpointId: string): string {
  return `${eventId}:${endpointId}`;
}

/** The delivery id of a redelivery requested by `requestId` (one per request and endpoint). */
export function redeliveryId(eventId: string, endpointId: string, requestId: string): string {
  return `${eventId}:${endpointId}:${requestId}`;
}

/** True when an endpoint subscribed to `subscribed` receives events of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}

/** Signature of `webhookDeliveryWorkflow`, for starters (no starter imports the workflow module). */
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;
