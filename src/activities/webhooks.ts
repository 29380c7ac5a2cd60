/**
 * Webhook delivery activities (DESIGN.md section 5), run only by `webhookDeliveryWorkflow`
 * (src/workflows/webhooks.ts), one at a time per delivery: they are the only writers of the
 * delivery's record and its attempt rows.
 *
 * `deliverWebhook` is one attempt (Temporal retries it): it re-reads the endpoint (deleted/disabled →
 * the delivery ends `canceled`; a changed URL is used at once), re-checks the URL's addresses
 * (`WEBHOOK_ALLOW_PRIVATE`), signs the stored event JSON with the endpoint's secret(s), POSTs it with a
 * 10 s limit, records the attempt, and returns on a 2xx or throws: `WebhookEndpointGone`
 * (non-retryable) on 410, after disabling the endpoint; `WebhookAttemptFailed` otherwise.
 *
 * Exactly-once toward a healthy endpoint across crashes: success is recorded before the activity
 * completes, and every attempt first looks for a recorded success (then it sends nothing). Only a crash
 * between the endpoint's 2xx and that write can repeat a delivery; receivers dedupe by `Svc-Event-Id`.
 */
import { activityInfo, ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { config, API_VERSION } from '../config';
import { openSecret } from '../secrets';
import { Event } from '../models/events';
import { insertIfAbsent } from '../models/store';
import {
  newDeliveryDoc,
  renderWebhookDelivery,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  type WebhookDeliveryDoc,
} from '../models/webhooks';
import { newId } from '../shared/ids';
import { postWebhook, type AttemptOutcome } from '../providers/webhook-http';
import { SIGNATURE_HEADER, signatureHeader } from '../providers/webhook-signing';
import {
  ATTEMPT_FAILED,
  DELIVERY_FAILED_EVENT,
  ENDPOINT_GONE,
  subscribes,
  type DeliverWebhookResult,
  type DeliveryFailureReason,
  type WebhookDeliveryInput,
} from '../shared/webhooks';
import { emitEvent } from '../services/events';
import { webhookAttempts, webhookDeliveries } from '../platform/metrics';
import { SpanKind, withSpan, withTraceHeaders } from '../platform/tracing';
import { recordUsage, webhookAttemptUsage } from '../services/usage';

/** `User-Agent` of deliveries. */
export const WEBHOOK_USER_AGENT = `Svc-Webhooks/1.0 (api_version ${API_VERSION})`;

/** `url` without any `user:password@` it may carry, for logs, failure messages and attempt rows. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** Ends the delivery with a terminal status (only from `pending`). */
async function finish(
  deliveryId: string,
  status: 'succeeded' | 'canceled' | 'failed',
  reason: string | null,
  atMs: number,
): Promise<void> {
  await WebhookDelivery.updateOne(
    { _id: deliveryId, status: 'pending' },
    { $set: { status, reason, completed_ms: atMs } },
  );
}

/**
 * One delivery attempt of `input.eventId` to `input.endpointId` (attempt number = Temporal's).
 * @returns `succeeded`, or `canceled` with a reason (the endpoint is gone, disabled or unsubscribed)
 * @throws ApplicationFailure `WebhookEndpointGone` (non-retryable) on 410; `WebhookAttemptFailed` on any
 *   other failure, with `nextRetryDelay` honouring a `Retry-After` of a 429/503 (never sooner than the schedule)
 */
export async function deliverWebhook(input: WebhookDeliveryInput): Promise<DeliverWebhookResult> {
  // Heartbeats for the whole attempt (store reads included), so that only a dead worker times out.
  heartbeat();
  const beat = setInterval(() => heartbeat(), 1000);
  try {
    const result = await attemptDelivery(input);
    webhookDeliveries.inc({ outcome: result.status });
    return result;
  } catch (err) {
    webhookAttempts.inc({ result: 'failed' });
    throw err;
  } finally {
    clearInterval(beat);
  }
}

async function attemptDelivery(input: WebhookDeliveryInput): Promise<DeliverWebhookResult> {
  const attempt = activityInfo().attempt;
  const startedMs = Date.now();

  // The delivery's record: created by the first attempt; a finished one is never delivered again.
  const fresh = await insertIfAbsent(WebhookDelivery, newDeliveryDoc(input, startedMs));
  if (!fresh) {
    const existing = await WebhookDelivery.findById(input.deliveryId).lean();
    if (existing && existing.status !== 'pending')
      return { status: existing.status as DeliverWebhookResult['status'], reason: existing.reason ?? undefined };
  }
  const [endpoint, event, previous] = await Promise.all([
    WebhookEndpoint.findById(input.endpointId).lean(),
    Event.findById(input.eventId).lean(),
    fresh ? [] : WebhookAttempt.find({ delivery_id: input.deliveryId }, { attempt: 1, succeeded: 1 }).lean(),
  ]);
  if (previous.some((p) => p.succeeded)) {
    await finish(input.deliveryId, 'succeeded', null, startedMs);
    return { status: 'succeeded' };
  }
  // Attempts whose worker died before recording them: say so in the log rather than leave a gap.
  for (let n = 1; n < attempt; n++) {
    if (previous.some((p) => p.attempt === n)) continue;
    await recordAttempt(input, n, withoutCredentials(endpoint?.url ?? ''), startedMs, {
      ok: false,
      statusCode: null,
      latencyMs: 0,
      error: 'No result was recorded: the worker running this attempt stopped, or the attempt exceeded its time limit.',
      errorCode: 'attempt_lost',
      responseBody: null,
      retryAfterMs: null,
    });
  }
  const cancel = async (reason: string): Promise<DeliverWebhookResult> => {
    await finish(input.deliveryId, 'canceled', reason, startedMs);
    return { status: 'canceled', reason };
  };
  if (!endpoint || endpoint.deleted_ms != null) return cancel('endpoint_deleted');
  if (endpoint.status !== 'enabled') return cancel('endpoint_disabled');
  if (input.trigger === 'automatic' && !subscribes(endpoint.events, input.eventType))
    return cancel('event_type_unsubscribed');
  if (!event) return cancel('event_missing');

  // Sign with every valid secret (two for 24 h after a rotation) and send the stored JSON as it is.
  const payload = event.payload_json;
  const t = Math.floor(Date.now() / 1000);
  const secrets = [openSecret(endpoint.secret)!];
  if (
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_ms != null &&
    endpoint.previous_secret_expires_ms > Date.now()
  )
    secrets.push(openSecret(endpoint.previous_secret)!);
  const outcome: AttemptOutcome = await tracedPost(input, attempt, {
    url: endpoint.url,
    body: payload,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': WEBHOOK_USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(payload, secrets, t),
      'Svc-Event-Id': input.eventId,
      'Svc-Event-Type': input.eventType,
      'Svc-Delivery-Id': input.deliveryId,
      'Svc-Delivery-Attempt': String(attempt),
      'Svc-Version': API_VERSION,
    },
    allowPrivate: config().webhookAllowPrivate,
    caFile: config().webhookCaFile,
  });
  const shownUrl = withoutCredentials(endpoint.url);
  // Metered before the attempt log: a crash between the two still counts the request that was made.
  await recordUsage(webhookAttemptUsage(input, attempt, startedMs, outcome.ok));
  await recordAttempt(input, attempt, shownUrl, startedMs, outcome);
  if (outcome.ok) webhookAttempts.inc({ result: 'succeeded' });
  await WebhookDelivery.updateOne(
    { _id: input.deliveryId },
    {
      $set: {
        attempts: attempt,
        last_attempt_ms: startedMs,
        last_status_code: outcome.statusCode,
        last_latency_ms: outcome.latencyMs,
        last_error: outcome.error,
        ...(outcome.ok ? { status: 'succeeded', reason: null, completed_ms: Date.now() } : {}),
      },
    },
  );
  if (outcome.ok) return { status: 'succeeded' };

  if (outcome.statusCode === 410) {
    // Disable only the endpoint as we read it: a URL changed meanwhile is the user's fix, not a 410.
    await WebhookEndpoint.updateOne(
      { _id: endpoint._id, version: endpoint.version, status: 'enabled' },
      { $set: { status: 'disabled', disabled_reason: 'http_410' }, $inc: { version: 1 } },
    );
    throw ApplicationFailure.create({
      type: ENDPOINT_GONE,
      message: `${shownUrl} answered 410 Gone; the endpoint is disabled.`,
      nonRetryable: true,
    });
  }
  const scheduled = Math.min(input.retry.initialIntervalMs * 2 ** (attempt - 1), input.retry.maximumIntervalMs);
  throw ApplicationFailure.create({
    type: ATTEMPT_FAILED,
    message: `Attempt ${attempt} to ${shownUrl} failed: ${outcome.error}`,
    ...(outcome.retryAfterMs != null && outcome.retryAfterMs > scheduled
      ? { nextRetryDelay: Math.min(outcome.retryAfterMs, input.retry.maximumIntervalMs) }
      : {}),
  });
}

/**
 * One delivery attempt's POST; with tracing on, inside a CLIENT span `webhook POST` (`webhook.endpoint_id`,
 * `webhook.event_type`, `webhook.delivery_id`, `webhook.attempt`, `http.response.status_code`, no URL nor
 * payload) whose W3C `traceparent` the receiver gets with the request.
 */
function tracedPost(
  input: WebhookDeliveryInput,
  attempt: number,
  request: Parameters<typeof postWebhook>[0],
): Promise<AttemptOutcome> {
  const attributes = {
    'http.request.method': 'POST',
    'webhook.endpoint_id': input.endpointId,
    'webhook.event_type': input.eventType,
    'webhook.delivery_id': input.deliveryId,
    'webhook.attempt': attempt,
  };
  return withSpan(
    'webhook POST',
    attributes,
    async (span) => {
      const outcome = await postWebhook({ ...request, headers: withTraceHeaders(request.headers) });
      if (outcome.statusCode !== null) span?.setAttribute('http.response.status_code', outcome.statusCode);
      span?.setAttribute('webhook.outcome', outcome.ok ? 'succeeded' : 'failed');
      return outcome;
    },
    SpanKind.CLIENT,
  );
}

/** Stores one attempt row (a second write of the same attempt number is ignored). */
async function recordAttempt(
  input: WebhookDeliveryInput,
  attempt: number,
  url: string,
  atMs: number,
  o: AttemptOutcome,
): Promise<void> {
  await insertIfAbsent(WebhookAttempt, {
    _id: newId('wda'),
    org_id: input.orgId,
    livemode: input.livemode,
    delivery_id: input.deliveryId,
    endpoint_id: input.endpointId,
    event_id: input.eventId,
    event_type: input.eventType,
    trigger: input.trigger,
    attempt,
    url,
    succeeded: o.ok,
    status_code: o.statusCode,
    latency_ms: o.latencyMs,
    error: o.error,
    error_code: o.errorCode,
    response_body: o.responseBody,
    at_ms: atMs,
  });
}

export interface FailWebhookDeliveryInput {
  input: WebhookDeliveryInput;
  reason: DeliveryFailureReason;
  /** Workflow time of the failure (ms). */
  failedMs: number;
  /** Id of the `webhook_endpoint.delivery_failed` event, chosen by the workflow. */
  failureEventId: string;
}

/**
 * Marks the delivery `failed` and emits `webhook_endpoint.delivery_failed` (data.object = the
 * delivery), which src/services/webhooks.ts sends to the organization's other subscribed endpoints. No such
 * event is emitted about a failed delivery of such an event, so failures cannot chain.
 */
export async function failWebhookDelivery({
  input,
  reason,
  failedMs,
  failureEventId,
}: FailWebhookDeliveryInput): Promise<void> {
  await insertIfAbsent(WebhookDelivery, newDeliveryDoc(input, failedMs)); // when no attempt ever ran
  await finish(input.deliveryId, 'failed', reason, failedMs);
  webhookDeliveries.inc({ outcome: 'failed' });
  const doc = await WebhookDelivery.findById(input.deliveryId).lean();
  if (!doc || input.eventType === DELIVERY_FAILED_EVENT) return;
  await emitEvent(Context.current().client, {
    id: failureEventId,
    orgId: input.orgId,
    livemode: input.livemode,
    type: DELIVERY_FAILED_EVENT,
    createdMs: failedMs,
    object: renderWebhookDelivery(doc as WebhookDeliveryDoc),
  });
}
