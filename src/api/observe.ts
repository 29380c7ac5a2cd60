/**
 * What operators see of the API: one log line and one latency sample per request, `GET /healthz`,
 * `GET /readyz` and `GET /metrics` (declared here as operations, documented under the tag `Service`).
 *
 * Each request runs in a log context (src/logger.ts) holding its `request_id`; the call or conversation
 * it names (in the path, or the object it answers with) adds `call_id` / `conversation_id`, and the
 * workflow it starts adds `workflow_id`, so every line written while serving it carries them. When the
 * response is finished: a line `GET /v1/calls/:id 200 12 ms` and a sample of
 * `svc_http_request_duration_seconds` labelled with the Express route pattern (never the raw path, whose
 * ids would make one series per object). A request refused before its route ran (400 `body_invalid`,
 * 401, 403 of a forged Twilio signature, 415, 429…) is labelled with the pattern of the declared
 * operation its method and path match (`API_OPERATIONS`, matched with Express's own path-to-regexp);
 * `unmatched` is left for paths no operation declares. Health probes and metric scrapes log at debug.
 */
import type { RequestHandler, Router } from 'express';
import mongoose from 'mongoose';
import { match } from 'path-to-regexp';
import type { Client } from '@temporalio/client';
import { config } from '../config';
import { serveMetrics, httpRequestDuration } from '../platform/metrics';
import { registerStoreGauges } from '../platform/store-gauges';
import { idFields, logger, withLogContext, type LogFields } from '../logger';
import { API_OPERATIONS, expressPath, operation, operationsRouter } from './operations';

const ID_SEGMENT = /^(call|conv)_[0-9a-z]{26}$/;
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Matchers of the declared operations by method, literal paths first; rebuilt when operations are added. */
type Matcher = { pattern: string; params: number; matches: (path: string) => unknown };
let declared: { size: number; byMethod: Map<string, Matcher[]> } = { size: -1, byMethod: new Map() };

/**
 * The Express pattern (`/v1/calls/:id`) of the declared operation that `method` and `path` name, or
 * undefined: how a request refused before its route ran is labelled. HEAD is matched as GET (as Express
 * routes it); among several matches the one with the fewest parameters wins (`/v1/calls/search` over
 * `/v1/calls/:id`), as a literal route mounted first would.
 */
export function declaredRoute(method: string, path: string): string | undefined {
  if (declared.size !== API_OPERATIONS.size) {
    const byMethod = new Map<string, Matcher[]>();
    for (const [key, o] of API_OPERATIONS) {
      const pattern = expressPath(o.path, '');
      const list = byMethod.get(key.split(' ')[0]) ?? [];
      list.push({ pattern, params: (pattern.match(/:/g) ?? []).length, matches: match(pattern, { decode: false }) });
      byMethod.set(key.split(' ')[0], list);
    }
    for (const list of byMethod.values()) list.sort((a, b) => a.params - b.params);
    declared = { size: API_OPERATIONS.size, byMethod };
  }
  const candidates = declared.byMethod.get(method === 'HEAD' ? 'GET' : method) ?? [];
  return candidates.find((c) => c.matches(path))?.pattern;
}

/**
 * Middleware, mounted first (before `requestContext`, which adds `request_id` to the context, so that
 * a request it refuses is seen too): the request's log context, its route pattern, and its log line
 * and latency sample once the response is finished.
 */
export const observeRequests: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  const requestPath = req.path; // routers rewrite req.url on the way in
  const fields: LogFields = {}; // request_id: added by requestContext, mounted next
  for (const segment of req.path.split('/')) if (ID_SEGMENT.test(segment)) Object.assign(fields, idFields(segment));
  let route: string | undefined;
  // The router assigns `req.route` when a route matches, while `req.baseUrl` is still the mount path of
  // the router that holds it; afterwards Express restores `baseUrl` on the way out.
  let matched: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => matched,
    set(value: { path?: unknown } | undefined) {
      matched = value;
      // A router's own root (`router.post('/')` under `/v1/calls`) is the mount path itself.
      if (value && value.path !== undefined) route = (req.baseUrl + String(value.path)).replace(/(.)\/$/, '$1');
    },
  });
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const object = body as { id?: unknown; object?: unknown } | undefined;
    if (object && typeof object.id === 'string') Object.assign(fields, idFields(object.id));
    return json(body);
  };
  res.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const pattern = route ?? declaredRoute(req.method, requestPath) ?? 'unmatched';
    httpRequestDuration.observe({ method: req.method, route: pattern, status: String(res.statusCode) }, seconds);
    // Probes and scrapes (every few seconds, forever) only at debug, unless they fail.
    const probe = PROBES.has(pattern) && res.statusCode < 400;
    logger.log(
      res.statusCode >= 500 ? 'warn' : probe ? 'debug' : 'info',
      `${req.method} ${pattern} ${res.statusCode} ${Math.round(seconds * 1000)} ms`,
      {
        ...fields,
        route: pattern,
        status: res.statusCode,
        duration_ms: Math.round(seconds * 1000),
      },
    );
  });
  // `fields` is the context object itself: what the request's code adds (addLogContext) is in the line.
  withLogContext(fields, next);
};

const tag = 'Service';

/** `GET /healthz`: 200 while the process is up. */
const health = operation({
  method: 'get',
  path: '/healthz',
  operationId: 'health',
  tag,
  summary: 'Liveness',
  description: '200 while the process is up. No key needed.',
  content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } },
  handler: (_req, res) => void res.json({ status: 'ok' }),
});

/** `GET /readyz`: 200 when MongoDB and Temporal both answer (within 2 s each), else 503 naming what is down. */
const readiness = (temporal: Client) =>
  operation({
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tag,
    summary: 'Readiness',
    description: '200 when MongoDB and Temporal both answer, else 503 naming what is down. No key needed.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            status: { enum: ['ready', 'unavailable'] },
            mongodb: { enum: ['ok', 'down'] },
            temporal: { enum: ['ok', 'down'] },
          },
        },
      },
    },
    handler: async (_req, res) => {
      const [mongo, ready] = await Promise.all([
        withTimeout(mongoose.connection.db?.admin().ping() ?? Promise.reject(new Error('not connected'))),
        withTimeout(temporal.connection.workflowService.getSystemInfo({})),
      ]);
      const ok = mongo && ready;
      res.status(ok ? 200 : 503).json({
        status: ok ? 'ready' : 'unavailable',
        mongodb: mongo ? 'ok' : 'down',
        temporal: ready ? 'ok' : 'down',
      });
    },
  });

/** `GET /metrics`: Prometheus text (src/platform/metrics.ts `serveMetrics`); `METRICS_TOKEN` or loopback only. */
const metrics = operation({
  method: 'get',
  path: '/metrics',
  operationId: 'metrics',
  tag,
  summary: 'Prometheus metrics',
  description:
    'The Prometheus text format. From loopback without a token, else with `Authorization: Bearer <METRICS_TOKEN>` (403 otherwise).',
  content: { 'text/plain': { schema: { type: 'string' } } },
  handler: (req, res) => serveMetrics(req, res, config().metricsToken),
});

/**
 * `GET /healthz`, `GET /readyz` and `GET /metrics`, at the root (mounted by src/api/app.ts before any
 * key check); `temporal` is the client whose connection `/readyz` probes. Registers the gauges read from
 * the store (src/platform/store-gauges.ts) on this process's registry.
 */
export function operatorRouter(temporal: Client): Router {
  registerStoreGauges(); // the API answers the gauges read from the store (calls, webhook backlog, campaigns)
  return operationsRouter('', [health, readiness(temporal), metrics]);
}

/** True when `p` settles successfully within `ms`; false when it rejects or takes longer. */
async function withTimeout(p: Promise<unknown>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
