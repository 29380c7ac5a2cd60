/**
 * `webhookDeliveryWorkflow`: one event to one webhook endpoint (DESIGN.md sections 1 and 5).
 * Workflow id = delivery id = `<event id>:<endpoint id>` (a redelivery adds `:<request id>`); started by
 * src/services/webhooks.ts when the event is emitted (src/services/events.ts `emitEvent`), or by `POST /v1/events/{id}/redeliver`.
 *
 * One activity, `deliverWebhook`, is one HTTP attempt; Temporal's retry policy makes the schedule:
 * the first retry after `retry.initialIntervalMs` (5 s by default: within 10 s), doubling up to
 * `retry.maximumIntervalMs` (1 h), until `retry.windowMs` (3 days) after the first attempt
 * (`scheduleToCloseTimeout`). A 2xx ends it `succeeded`; a deleted or disabled endpoint ends it
 * `canceled` (the activity says so); a 410 Gone (non-retryable `WebhookEndpointGone`, endpoint
 * disabled) or the end of the window ends it `failed`, recorded with a
 * `webhook_endpoint.delivery_failed` event by `failWebhookDelivery`.
 *
 * Worker crashes lose nothing: an attempt whose worker dies is timed out by its heartbeat (5 s) and
 * retried on another worker; the activity records every attempt and never sends again once an attempt
 * has succeeded. The history stays small: only the last attempt of an activity is in it.
 *
 * Deterministic: imports only `@temporalio/workflow`, types, and pure helpers.
 */
import { ActivityFailure, ApplicationFailure, proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as webhooks from '../activities/webhooks';
import { newId } from '../shared/ids';
import { ENDPOINT_GONE, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../shared/webhooks';
import { UNTIL_DONE } from './retry';

/** Bookkeeping in our own store: retried until it succeeds. */
const store = proxyActivities<typeof webhooks>({ startToCloseTimeout: '30 seconds', retry: UNTIL_DONE });

/**
 * Delivers `input.eventId` to `input.endpointId`.
 * @returns the final status (`succeeded`, `failed`, `canceled`) and its reason
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { deliverWebhook } = proxyActivities<typeof webhooks>({
    // 10 s for the HTTP exchange, the rest for our store; a lost worker is noticed by the heartbeat.
    startToCloseTimeout: '20 seconds',
    heartbeatTimeout: '5 seconds',
    scheduleToCloseTimeout: input.retry.windowMs,
    retry: {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: input.retry.maximumIntervalMs,
      nonRetryableErrorTypes: [ENDPOINT_GONE],
    },
  });
  try {
    const result = await deliverWebhook.executeWithOptions(
      { summary: `POST ${input.eventId} (${input.eventType}) to ${input.endpointId}` },
      [input],
    );
    return { deliveryId: input.deliveryId, status: result.status, reason: result.reason ?? null };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const gone = err.cause instanceof ApplicationFailure && err.cause.type === ENDPOINT_GONE;
    const reason = gone ? 'endpoint_gone' : 'retries_exhausted';
    await store.failWebhookDelivery({ input, reason, failedMs: Date.now(), failureEventId: newId('evt') });
    return { deliveryId: input.deliveryId, status: 'failed', reason };
  }
}

// Worker Versioning (src/shared/deployments.ts): Retries for up to 3 days: moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), webhookDeliveryWorkflow);
