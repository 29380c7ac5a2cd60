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
 * What an operator watches is listed in the README ("Metrics"); deploy/prometheus/alerts.yml and
 * deploy/grafana/svc-assistant.json use only names defined here or by the SDK (test/integration/
 * monitoring.test.ts parses their PromQL and checks). Gauges read from the store (calls in progress,
 * webhook backlog, bulk call progress) are computed by the API at scrape time (./store-gauges.ts).
 *
 * Bounded labels: no label takes a string a tenant, a caller or a visitor chose (an agent's name or
 * model, a tool's name, a URL). Each label's values come from a set fixed by the code or the operator:
 * a model outside the operator's list (`LLM_MODELS` and the configured models) is counted as `other`,
 * and the API keys named by `svc_rate_limited_total` are the first `MAX_KEY_ID_LABELS` of the process,
 * then `other`. The wrappers below apply it, so a call site cannot forget.
 *
 * Access: with `METRICS_TOKEN` set, only `Authorization: Bearer <METRICS_TOKEN>`; without it, only
 * clients on loopback (development). Anything else gets 401/403 with no metrics.
 */
import type http from 'node:http';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import client from 'prom-client';
import { allowedModels, API_VERSION } from '../config';
import { LATENCY_FIELDS, type TurnLatency } from '../shared/latency';

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

/**
 * Spans this process dropped instead of exporting (tracing on: src/platform/tracing.ts), by reason:
 * `queue_full` (the bounded export queue was full: the backend is slow or unreachable) or `export_failed`
 * (the backend did not take a batch). Requests never wait for the backend; this is what it cost.
 */
export const traceSpansDropped = new client.Counter({
  name: 'svc_trace_spans_dropped_total',
  help: 'Trace spans dropped instead of exported, by reason (queue_full, export_failed).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** What a label value outside its metric's bounded set is counted as. */
export const OTHER_LABEL = 'other';

/**
 * The `model` label of a model's metrics: the model when the operator allows it (src/config.ts
 * `allowedModels`: `LLM_MODELS` and the configured models), else `other`. An agent stored before the
 * list existed may still name another model; it never becomes a label of its own.
 */
export function modelLabel(model: string): string {
  return allowedModels().includes(model) ? model : OTHER_LABEL;
}

/** Distinct API key ids `svc_rate_limited_total` names per process; later keys are counted as `other`. */
export const MAX_KEY_ID_LABELS = 1000;
const keyIdLabels = new Set<string>();

/** The `key_id` label: the key's id while fewer than `MAX_KEY_ID_LABELS` are named, else `other`; '' stays ''. */
function keyIdLabel(keyId: string): string {
  if (keyId === '' || keyIdLabels.has(keyId)) return keyId;
  if (keyIdLabels.size >= MAX_KEY_ID_LABELS) return OTHER_LABEL;
  keyIdLabels.add(keyId);
  return keyId;
}

const llmRequestHistogram = new client.Histogram({
  name: 'svc_llm_request_duration_seconds',
  help: 'LLM (Chat Completions) request latency in seconds, by model and outcome.',
  labelNames: ['model', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
  registers: [registry],
});

/**
 * LLM requests: latency in seconds by model (`modelLabel`) and outcome (`ok`, `rejected`, `error`).
 * `startTimer({model})` returns the function that observes the latency with the outcome.
 */
export const llmRequestDuration = {
  startTimer: (labels: { model: string }) => llmRequestHistogram.startTimer({ model: modelLabel(labels.model) }),
};

const llmTokensCounter = new client.Counter({
  name: 'svc_llm_tokens_total',
  help: "LLM tokens used, from the provider's usage report, by model and type (prompt or completion).",
  labelNames: ['model', 'type'] as const,
  registers: [registry],
});

/** LLM tokens as the provider reports them (`usage`), by model (`modelLabel`) and type (`prompt`, `completion`). */
export const llmTokens = {
  inc: (labels: { model: string; type: 'prompt' | 'completion' }, tokens: number) =>
    llmTokensCounter.inc({ model: modelLabel(labels.model), type: labels.type }, tokens),
};

/**
 * Recorded costs (README "Costs"), in micro-units of the price table's currency (millionths of a dollar),
 * by component (`telephony`, `model`, `recording`, `platform`) and mode: counted once, when the usage row
 * holding the cost is stored (src/services/costs.ts `countCost`). `rate(...) / 1e6` is dollars per second.
 */
export const costOfComponent = new client.Counter({
  name: 'svc_cost_micros_total',
  help: 'Recorded costs of calls, conversation turns and analyses, in micro-units (millionths) of USD, by component (telephony, model, recording, platform) and mode.',
  labelNames: ['component', 'mode'] as const,
  registers: [registry],
});

/** Messages entering each status: inbound ones once stored (`received`), outbound ones per status reached. */
export const messageTransitions = new client.Counter({
  name: 'svc_messages_total',
  help: 'Messages that entered each status (inbound: received; outbound: sent, delivered, read, failed, undelivered), by channel, direction and mode.',
  labelNames: ['channel', 'direction', 'status', 'mode'] as const,
  registers: [registry],
});

/** Conversations handed to a person (`conversation.needs_person`), by channel and mode. */
export const conversationHandovers = new client.Counter({
  name: 'svc_conversation_handovers_total',
  help: 'Conversations handed over to a person (conversation.needs_person), by channel and mode.',
  labelNames: ['channel', 'mode'] as const,
  registers: [registry],
});

/**
 * The next turn's context reads started at a simulated call's answer (src/services/context-prefetch.ts), by
 * what became of them: `taken` by the call's next request, `unused` (dropped past `PREFETCH_MAX_AGE_MS`,
 * replaced by a newer answer's, or asked with other context ids: that request read anew).
 */
export const contextPrefetches = new client.Counter({
  name: 'svc_context_prefetches_total',
  help: "Context reads started at a simulated call's answer, by result: taken by the next request, or unused (too late, replaced, other ids).",
  labelNames: ['result'] as const,
  registers: [registry],
});

/**
 * Requests to Twilio's REST API (src/providers/twilio.ts): latency in seconds by HTTP method, resource
 * (`Calls`, `Messages`, `Recordings`…) and status code (`network` when no answer came).
 */
export const twilioRequestDuration = new client.Histogram({
  name: 'svc_twilio_request_duration_seconds',
  help: "Twilio REST API request latency in seconds, by method, resource and status code ('network' when none came back).",
  labelNames: ['method', 'resource', 'status'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

/** Twilio requests that failed: an answer of 400 or more (`status`), or none at all (`network`). */
export const twilioRequestErrors = new client.Counter({
  name: 'svc_twilio_request_errors_total',
  help: "Twilio REST API requests answered 4xx/5xx (status) or not answered ('network'), by resource.",
  labelNames: ['resource', 'status'] as const,
  registers: [registry],
});

const rateLimitedCounter = new client.Counter({
  name: 'svc_rate_limited_total',
  help: "Requests refused with 429 by a rate limit: limit (api_key, widget_ip, widget_session) and the API key's id (key_..., never the key; empty for the widget's limits).",
  labelNames: ['limit', 'key_id'] as const,
  registers: [registry],
});

/**
 * Requests refused with 429 by a rate limit, by limit and, for API keys, the key's id (never the key;
 * the first `MAX_KEY_ID_LABELS` keys of the process, then `other`: a tenant making keys by the thousand
 * does not grow the series).
 */
export const rateLimited = {
  inc: (labels: { limit: string; key_id: string }) =>
    rateLimitedCounter.inc({ limit: labels.limit, key_id: keyIdLabel(labels.key_id) }),
};

/**
 * Speech requests of voice rooms: `transcription` (speech-to-text of one utterance, until the text) and
 * `synthesis` (text-to-speech of one sentence, until its first audio arrives), by model and outcome.
 */
export const speechDuration = new client.Histogram({
  name: 'svc_speech_request_duration_seconds',
  help: 'Speech request latency in seconds: transcription (until the text) and synthesis (until the first audio), by model and outcome (ok, error).',
  labelNames: ['operation', 'model', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 4, 8],
  registers: [registry],
});

/**
 * Latency of the assistant's answers as the caller hears it (src/shared/latency.ts), seconds, one
 * histogram per field, by `engine` (`pipeline`, `realtime`, `room`: src/shared/latency.ts
 * `LatencyEngine`): observed when a turn with a latency record is stored (src/activities/calls.ts
 * `recordTurns`, its first attempt), and a room's own fields when its attendance completes the record
 * (src/voice/room-latency.ts). A field the engine does not measure (null) is not observed.
 */
const turnLatencyHistograms = Object.fromEntries(
  LATENCY_FIELDS.map((field) => [
    field,
    new client.Histogram({
      name: `svc_voice_turn_${field.replace(/_ms$/, '')}_seconds`,
      help: `Assistant answers' ${field.replace(/_ms$/, '').replace(/_/g, ' ')} as the caller hears it (src/shared/latency.ts), seconds, by engine.`,
      labelNames: ['engine'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
      registers: [registry],
    }),
  ]),
) as Record<(typeof LATENCY_FIELDS)[number], client.Histogram<'engine'>>;

/** Observes one answer's latency record (its non-null fields), labelled by its engine (`pipeline` when absent). */
export function observeTurnLatency(latency: TurnLatency & { engine?: string }): void {
  const engine = latency.engine === 'realtime' || latency.engine === 'room' ? latency.engine : 'pipeline';
  for (const field of LATENCY_FIELDS) {
    const value = latency[field];
    if (typeof value === 'number') turnLatencyHistograms[field].observe({ engine }, value / 1000);
  }
}

/**
 * Commands sent to the store (MongoDB or FerretDB), timed by the driver's command monitoring
 * (`monitorCommands`, set by src/models/register.ts `connectStore`): seconds by command name and outcome.
 */
export const storeCommandDuration = new client.Histogram({
  name: 'svc_store_command_duration_seconds',
  help: "Store (MongoDB) command latency in seconds from the driver's command monitoring, by command (find, insert, update, aggregate...) and outcome (ok, error).",
  labelNames: ['command', 'outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

/** Commands the driver runs for itself, not for the service: not timed. */
const INTERNAL_COMMANDS = new Set(['hello', 'ismaster', 'isMaster', 'saslStart', 'saslContinue', 'endSessions']);

/** Clients whose commands are already timed (a reconnection keeps its client). */
const monitoredClients = new WeakSet<object>();

// Every connection of the default mongoose connection, once open: its command events feed the histogram.
mongoose.connection.on('connected', () => {
  const store = mongoose.connection.getClient();
  if (monitoredClients.has(store)) return;
  monitoredClients.add(store);
  const observe = (outcome: 'ok' | 'error') => (e: { commandName: string; duration: number }) => {
    if (!INTERNAL_COMMANDS.has(e.commandName))
      storeCommandDuration.observe({ command: e.commandName, outcome }, e.duration / 1000);
  };
  store.on('commandSucceeded', observe('ok'));
  store.on('commandFailed', observe('error'));
});

/** The root of the installed service (package.json), from dist/src/platform or src/platform. */
function serviceRoot(): string {
  for (let dir = __dirname, i = 0; i < 5; dir = path.dirname(dir), i++)
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  return process.cwd();
}

/**
 * The commit the service was built from: `SVC_COMMIT` (the Docker image sets it from its build argument),
 * else `git rev-parse HEAD` in a checkout, else `unknown`.
 */
export function buildCommit(root = serviceRoot()): string {
  if (process.env.SVC_COMMIT) return process.env.SVC_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
  } catch {
    return 'unknown';
  }
}

/** `svc_build_info`: 1, labelled with what runs (Prometheus's `*_build_info` convention). */
export const buildInfo = new client.Gauge({
  name: 'svc_build_info',
  help: 'Always 1: the service version (package.json), commit, API version and Node.js version of this process.',
  labelNames: ['version', 'commit', 'api_version', 'node_version'] as const,
  registers: [registry],
});
/** The service's version (package.json's `version`), or `unknown` when no package.json is beside the code. */
export function serviceVersion(root = serviceRoot()): string {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}
{
  const root = serviceRoot();
  buildInfo.set(
    {
      version: serviceVersion(root),
      commit: buildCommit(root),
      api_version: API_VERSION,
      node_version: process.version,
    },
    1,
  );
}

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
