/**
 * The API request's span (tracing on: src/platform/tracing.ts), after OpenTelemetry's HTTP semantic
 * conventions (https://opentelemetry.io/docs/specs/semconv/http/http-spans/): a SERVER span
 * `<METHOD> <route>` child of the caller's W3C `traceparent` when the request carries one, with
 * `http.request.method`, `url.path`, `url.scheme`, `http.route` (the declared pattern, never the raw path
 * and its ids), `http.response.status_code`, `user_agent.original`; status ERROR on a 5xx. Everything the
 * request does (workflow starts, signals, updates: Temporal's interceptors) is inside it.
 */
import type { RequestHandler } from 'express';
import * as otel from '@opentelemetry/api';
import { tracer, tracingActive } from '../platform/tracing';

/**
 * The middleware that traces each request, mounted first (src/api/app.ts); undefined when tracing is off
 * (nothing is mounted, nothing costs).
 * @param declaredRoute the route pattern a method and path match (src/api/observe.ts `declaredRoute`), given
 *   by the app so that this module stays a leaf of the API's import graph
 */
export function traceRequests(
  declaredRoute: (method: string, path: string) => string | undefined,
): RequestHandler | undefined {
  if (!tracingActive()) return undefined;
  return (req, res, next) => {
    const requestPath = req.path; // routers rewrite req.url on the way in
    const parent = otel.propagation.extract(otel.ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(
      req.method,
      {
        kind: otel.SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.path': requestPath,
          'url.scheme': req.protocol,
          ...(req.headers['user-agent'] ? { 'user_agent.original': req.headers['user-agent'] } : {}),
        },
      },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const route = declaredRoute(req.method, requestPath);
      if (route) span.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: otel.SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    const ctx = otel.trace.setSpan(parent, span);
    // Body parsers resume the chain from the request's stream events: bound, they run in the span's context.
    otel.context.bind(ctx, req);
    otel.context.bind(ctx, res);
    otel.context.with(ctx, next);
  };
}
