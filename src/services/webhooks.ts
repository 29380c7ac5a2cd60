/**
 * Where webhook delivery starts (DESIGN.md sections 1 and 5): `startDeliveriesForEvent` is called by
 * `emitEvent` (src/services/events.ts) with the Temporal client of the process that emits, and starts one
 * `webhookDeliveryWorkflow` per enabled endpoint of the event's organization and mode subscribed to its
 * type (or to `*`). Workflow id = delivery id = `<event id>:<endpoint id>`, started with
 * `REJECT_DUPLICATE`: a retried emission meets `WorkflowExecutionAlreadyStartedError`, even after the
 * first delivery finished, so one event reaches one endpoint once by our own doing. (Past Temporal's
 * retention the delivery's own record stops a second run: src/activities/webhooks.ts.)
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { config } from '../config';
import { ApiError, invalidParam } from '../errors';
import { resolveWebhookHost, WebhookAddressError } from '../providers/webhook-address';
import { WebhookEndpoint, type WebhookEndpointDoc } from '../models/webhooks';
import { searchAttributeKeys } from '../platform/temporal';
import { WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryWorkflow } from '../shared/webhooks';
import {
  automaticDeliveryId,
  DELIVERY_FAILED_EVENT,
  ALL_EVENTS,
  type DeliveryRetry,
  type DeliveryTrigger,
  type WebhookDeliveryInput,
} from '../shared/webhooks';
import type { StoredEvent } from '../models/events';

/** Task queue of delivery workflows (`WEBHOOK_TASK_QUEUE`, else the main task queue). */
export function webhookTaskQueue(): string {
  return config().webhookTaskQueue ?? config().taskQueue;
}

/** The retry schedule a delivery started now gets (src/config.ts `webhookRetry*`). */
export function deliveryRetry(): DeliveryRetry {
  const c = config();
  return {
    initialIntervalMs: c.webhookRetryInitialIntervalMs,
    maximumIntervalMs: c.webhookRetryMaxIntervalMs,
    windowMs: c.webhookRetryWindowMs,
  };
}

/** Enabled, undeleted endpoints of the event's organization and mode subscribed to its type. */
export async function subscribedEndpoints(
  event: Pick<StoredEvent, 'org_id' | 'livemode' | 'type'>,
): Promise<WebhookEndpointDoc[]> {
  return (await WebhookEndpoint.find({
    org_id: event.org_id,
    livemode: event.livemode,
    status: 'enabled',
    deleted_ms: null,
    events: { $in: [event.type, ALL_EVENTS] },
  }).lean()) as WebhookEndpointDoc[];
}

/** Starts every delivery of `event` (each at most once) with `client`. */
export async function startDeliveriesForEvent(client: Client, event: StoredEvent): Promise<void> {
  let endpoints = await subscribedEndpoints(event);
  if (event.type === DELIVERY_FAILED_EVENT) {
    // Never tell an endpoint that it is failing through itself: that would fail again, forever.
    const failing = (event.data.object as { webhook_endpoint?: string }).webhook_endpoint;
    endpoints = endpoints.filter((e) => e._id !== failing);
  }
  if (endpoints.length === 0) return;
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
 * Starts `webhookDeliveryWorkflow` for `input` (workflow id = `input.deliveryId`, REJECT_DUPLICATE), with
 * its summary `Deliver evt_… (call.ended) to we_…` and details for the Temporal Web UI.
 * @returns true if started, false if a run with that id exists or existed (nothing is done then)
 */
export async function startWebhookDelivery(
  client: Client,
  input: WebhookDeliveryInput & { trigger: DeliveryTrigger },
): Promise<boolean> {
  try {
    await client.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
      workflowId: input.deliveryId,
      taskQueue: webhookTaskQueue(),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Deliver ${input.eventId} (${input.eventType}) to ${input.endpointId}`,
      staticDetails: [
        `**Event** \`${input.eventId}\` (${input.eventType}) · **Endpoint** \`${input.endpointId}\``,
        `**Trigger** ${input.trigger} · ${input.livemode ? 'live' : 'test'} mode of \`${input.orgId}\``,
        `**Retries** from ${input.retry.initialIntervalMs / 1000} s, doubling up to ${input.retry.maximumIntervalMs / 1000} s, for ${input.retry.windowMs / 3_600_000} h`,
      ]
        .map((l) => `- ${l}`)
        .join('\n'),
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

/**
 * Checks an address the service will send requests to on the customer's behalf (a webhook endpoint's
 * `url`; a tool's `url` or MCP `server_url`, src/services/tools.ts): absolute, `https:`, no credentials,
 * its host resolving only to public addresses unless `WEBHOOK_ALLOW_PRIVATE` is on
 * (src/providers/webhook-address.ts, re-checked before every request).
 * @param param the request parameter it came in (`url`, `server_url`), named by the 400
 * @param what who must use HTTPS, for the message (`webhook endpoints`, `tools`)
 * @returns `raw`, unchanged
 * @throws ApiError 400 naming `param`: `parameter_invalid`, `url_private_address` or `url_unresolvable`
 */
export async function checkPublicHttpsUrl(raw: string, param: string, what: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam(param, `Invalid ${param}: must be an absolute HTTPS URL, like https://example.com/hook.`);
  }
  if (url.protocol !== 'https:') throw invalidParam(param, `Invalid ${param}: ${what} must use HTTPS (https://…).`);
  if (url.username || url.password)
    throw invalidParam(
      param,
      `Invalid ${param}: credentials in the URL (user:password@) are not accepted; verify requests with the Svc-Signature header instead.`,
    );
  try {
    await resolveWebhookHost(url, config().webhookAllowPrivate);
  } catch (err) {
    if (!(err instanceof WebhookAddressError)) throw err;
    const code = err.code === 'address_refused' ? 'url_private_address' : 'url_unresolvable';
    throw new ApiError(400, 'invalid_request_error', code, `Invalid ${param}: ${err.message}`, param);
  }
  return raw;
}
