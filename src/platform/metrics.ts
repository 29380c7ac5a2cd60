/**
 * Prometheus metrics (`prom-client`), one registry per process, served as text exposition format 0.0.4
 * by the API's `GET /metrics` (src/api/observe.ts) and by a worker process's metrics port
 * (`METRICS_WORKER_PORT`, src/worker/main.ts). Each process counts what it does: the API its HTTP
 * requests, the worker the activities it runs (calls, webhook deliveries, LLM requests); under
 * `npm start` one process does both.
 *
 * The Temporal SDK's own worker metrics (`temporal_*`: task slots, poll and schedule-to-start latencies,
 * activity and workflow task execution...) come from its Core runtime's Prometheus exporter
 * (src/worker/runtime.ts), bound to a loopback port and appended to this registry's text, so one
 * scrape sees both. https://docs.temporal.io/references/sdk-metrics
 *
 * Access: with `METRICS_TOKEN` set, only `Authorization: Bearer <METRICS_TOKEN>`; without it, only
 * clients on loopback (development). Anything else gets 401/403 with no metrics.
 */
import type http from 'node:http';
import crypto from 'node:crypto';
import client from 'prom-client';

/** The process's registry: our metrics and Node's process metrics (`process_*`, `nodejs_*`). */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

/** API requests: latency in seconds by method, Express route pattern (`/v1/calls/:id`) and status code. */
export const httpRequestDuration = new client.Histogram({
  name: 'svc_http_request_duration_seconds',
  help: 'HTTP request latency in seconds, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** Calls entering each status (one count per transition the call workflow records), by mode. */
export const callTransitions = new client.Counter({
  name: 'svc_calls_total',
  help: 'Calls that entered each status (queued is not counted: every call starts there), by mode (test or live).',
  labelNames: ['status', 'mode'] as const,
  registers: [registry],
});

/** Webhook deliveries that ended, by outcome (`succeeded`, `failed`, `canceled`). */
export const webhookDeliveries = new client.Counter({
  name: 'svc_webhook_deliveries_total',
  help: 'Webhook deliveries that ended, by outcome (succeeded, failed after retries or 410, canceled).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Webhook HTTP attempts, by result (`succeeded`, `failed`). */
export const webhookAttempts = new client.Counter({
  name: 'svc_webhook_attempts_total',
  help: 'Webhook delivery attempts (HTTP POSTs), by result.',
  labelNames: ['result'] as const,
  registers: [registry],
});

/** LLM requests: latency in seconds by model and outcome (`ok`, `rejected`, `error`). */
export const llmRequestDuration = new client.Histogram({
  name: 'svc_llm_request_duration_seconds',
  help: 'LLM (Chat Completions) request latency in seconds, by model and outcome.',
  labelNames: ['model', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
  registers: [registry],
});

/** LLM tokens as the provider reports them (`usage`), by model and type (`prompt`, `completion`). */
export const llmTokens = new client.Counter({
  name: 'svc_llm_tokens_total',
  help: "LLM tokens used, from the provider's usage report, by model and type (prompt or completion).",
  labelNames: ['model', 'type'] as const,
  registers: [registry],
});

let coreMetricsUrl: string | undefined;

/** Where the Temporal Core runtime's Prometheus exporter of this process listens (set by installRuntime). */
export function setCoreMetricsUrl(url: string | undefined): void {
  coreMetricsUrl = url;
}

/** The exposition text: this registry, then the Temporal SDK's metrics when this process runs a worker. */
export async function metricsText(): Promise<string> {
  let text = await registry.metrics();
  if (coreMetricsUrl) {
    try {
      const res = await fetch(coreMetricsUrl, { signal: AbortSignal.timeout(2000) });
      if (res.ok) text += (text.endsWith('\n') ? '' : '\n') + (await res.text());
    } catch {
      // The SDK's exporter is momentarily unavailable: serve ours rather than nothing.
    }
  }
  return text;
}

/** Content-Type of `metricsText()`. */
export const METRICS_CONTENT_TYPE = registry.contentType;

/**
 * Whether `req` may read the metrics: with `token` (METRICS_TOKEN), a matching Bearer credential
 * (compared in constant time); without one, a loopback client.
 * @returns null when allowed, else the HTTP status and message to answer
 */
export function metricsAccess(
  req: http.IncomingMessage,
  token: string | undefined,
): { status: 401 | 403; message: string } | null {
  if (token) {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = Buffer.from(m?.[1] ?? '');
    const expected = Buffer.from(token);
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return null;
    return { status: 401, message: 'Send `Authorization: Bearer <METRICS_TOKEN>`.' };
  }
  const address = req.socket.remoteAddress ?? '';
  if (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')) return null;
  return {
    status: 403,
    message: 'Metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere.',
  };
}

/** Answers a metrics scrape on a plain `http` server or in Express (the access rule above applies). */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  token: string | undefined,
): Promise<void> {
  const denied = metricsAccess(req, token);
  if (denied) {
    res.writeHead(denied.status, {
      'Content-Type': 'text/plain; charset=utf-8',
      ...(denied.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}),
    });
    res.end(denied.message + '\n');
    return;
  }
  const text = await metricsText();
  res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE });
  res.end(text);
}
