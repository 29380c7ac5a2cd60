/**
 * Where webhook delivery starts (issue #3; DESIGN.md sections 1 and 5). `installWebhookDispatch`
 * registers, once per process, an `onEventEmitted` hook (src/activities/events.ts) that starts one
 * `webhookDeliveryWorkflow` per enabled endpoint of the event's organization and mode subscribed to its
 * type (or to `*`). Workflow id = delivery id = `<event id>:<endpoint id>`, started with
 * `REJECT_DUPLICATE`: a retried emission (the emitting activity runs again) meets
 * `WorkflowExecutionAlreadyStartedError`, even after the first delivery finished, so one event reaches
 * one endpoint once by our own doing. (Past Temporal's retention the delivery's own record stops a
 * second run: src/activities/webhooks.ts.)
 *
 * The Temporal client: inside an activity, the worker's own (`Context.current().client`, on the
 * worker's NativeConnection); elsewhere (the API's redelivery, scripts) the one passed to
 * `installWebhookDispatch`.
 */
import { asyncLocalStorage } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { config } from '../config';
import { onEventEmitted, type StoredEvent } from '../activities/events';
import { WebhookEndpoint, type WebhookEndpointDoc } from '../models/webhooks';
import { searchAttributeKeys } from './temporal';
import type { webhookDeliveryWorkflow } from '../workflows/webhooks';
import { automaticDeliveryId, DELIVERY_FAILED_EVENT, ALL_EVENTS, type DeliveryRetry, type DeliveryTrigger, type WebhookDeliveryInput } from '../shared/webhooks';

let fallbackClient: Client | undefined;
let installed = false;

/**
 * Makes emitted events start their deliveries (idempotent; call it where a worker or an API is created).
 * @param client used when an event is emitted outside an activity; the latest one given wins
 */
export function installWebhookDispatch(client?: Client): void {
  if (client) fallbackClient = client;
  if (installed) return;
  installed = true;
  onEventEmitted(startDeliveriesForEvent);
}

/** The Temporal client for starting deliveries here (see the module comment). */
function temporalClient(): Client {
  const ctx = asyncLocalStorage.getStore();
  if (ctx) {
    try {
      return ctx.client;
    } catch {
      // a MockActivityEnvironment without a client: fall through
    }
  }
  if (!fallbackClient) throw new Error('webhook dispatch has no Temporal client: call installWebhookDispatch(client) in this process');
  return fallbackClient;
}

/** Task queue of delivery workflows (`WEBHOOK_TASK_QUEUE`, else the main task queue). */
export function webhookTaskQueue(): string {
  return config().webhookTaskQueue ?? config().taskQueue;
}

/** The retry schedule a delivery started now gets (src/config.ts `webhookRetry*`). */
export function deliveryRetry(): DeliveryRetry {
  const c = config();
  return { initialIntervalMs: c.webhookRetryInitialIntervalMs, maximumIntervalMs: c.webhookRetryMaxIntervalMs, windowMs: c.webhookRetryWindowMs };
}

/** Enabled, undeleted endpoints of the event's organization and mode subscribed to its type. */
export async function subscribedEndpoints(event: Pick<StoredEvent, 'org_id' | 'livemode' | 'type'>): Promise<WebhookEndpointDoc[]> {
  return (await WebhookEndpoint.find({
    org_id: event.org_id,
    livemode: event.livemode,
    status: 'enabled',
    deleted_ms: null,
    events: { $in: [event.type, ALL_EVENTS] },
  }).lean()) as WebhookEndpointDoc[];
}

/** The `onEventEmitted` hook: starts every delivery of `event` (each at most once). */
export async function startDeliveriesForEvent(event: StoredEvent): Promise<void> {
  let endpoints = await subscribedEndpoints(event);
  if (event.type === DELIVERY_FAILED_EVENT) {
    // Never tell an endpoint that it is failing through itself: that would fail again, forever.
    const failing = (event.data.object as { webhook_endpoint?: string }).webhook_endpoint;
    endpoints = endpoints.filter((e) => e._id !== failing);
  }
  if (endpoints.length === 0) return;
  const client = temporalClient();
  await Promise.all(
    endpoints.map((endpoint) =>
      startWebhookDelivery(client, {
        deliveryId: automaticDeliveryId(event.id, endpoint._id),
        eventId: event.id,
        eventType: event.type,
        endpointId: endpoint._id,
        orgId: event.org_id,
        livemode: event.livemode,
        trigger: 'automatic',
        retry: deliveryRetry(),
        requestedMs: Date.now(),
      }),
    ),
  );
}

/**
 * Starts `webhookDeliveryWorkflow` for `input` (workflow id = `input.deliveryId`, REJECT_DUPLICATE).
 * @returns true if started, false if a run with that id exists or existed (nothing is done then)
 */
export async function startWebhookDelivery(client: Client | undefined, input: WebhookDeliveryInput & { trigger: DeliveryTrigger }): Promise<boolean> {
  try {
    await (client ?? temporalClient()).workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      workflowId: input.deliveryId,
      taskQueue: webhookTaskQueue(),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: searchAttributeKeys.OrgId, value: input.orgId },
        { key: searchAttributeKeys.Livemode, value: input.livemode },
      ],
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
