/**
 * OpenTelemetry traces (https://opentelemetry.io/docs/specs/otel/): off unless the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set (and `OTEL_SDK_DISABLED` is
 * not `true`); nothing of our own configures it. When on, `startTracing` (called first by each process's
 * entry point: src/api/main.ts, src/worker/main.ts, src/dev/start.ts) registers a tracer provider with the
 * W3C trace-context propagator and an OTLP/HTTP (protobuf) exporter; the SDK honours the other standard
 * variables (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_PROPAGATORS`…).
 *
 * A backend that is slow or unreachable never slows or fails a request: a span ends into a bounded
 * queue (the SDK's batch span processor, `OTEL_BSP_MAX_QUEUE_SIZE`, default 2,048) exported in the
 * background; a span that finds the queue full, or whose batch the backend did not take, is dropped and
 * counted in `svc_trace_spans_dropped_total` (src/platform/metrics.ts).
 *
 * Temporal carries the context across `workflow.start`, signals, updates and activities with its own
 * interceptors (`@temporalio/interceptors-opentelemetry`): `temporalClientInterceptors` where a client
 * is made, `temporalWorkerTracing` where the worker is made (workflow spans leave the sandbox through the
 * package's sink; workflow code makes none itself). Spans of our own (`withSpan`): the API request
 * (src/api/tracing.ts), each model request, tool call, Twilio request and webhook delivery attempt.
 *
 * Off, every function here is a pass-through: no provider, no interceptors, no span objects.
 */
import * as otel from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource, detectResourcesSync, envDetectorSync } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  makeWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { ClientInterceptors } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { traceSpansDropped } from './metrics';

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Context, Span, Tracer } from '@opentelemetry/api';

/** The instrumentation scope of the service's own spans. */
export const TRACER_NAME = 'svc-assistant';

/** The package's workflow interceptors (spans of workflow code, through its sink). */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * The modules the worker's workflow bundle adds when tracing is on, in order: the package's interceptors,
 * then ours (src/workflows/trace-roots.ts) that start each child call in a trace of its own and put a
 * conversation's turn in the trace of the customer message that started it (outbound interceptors run in
 * list order, so ours sees the headers the package's added).
 */
export const WORKFLOW_TRACING_MODULES = [WORKFLOW_TRACING_MODULE, require.resolve('../workflows/trace-roots')];

/**
 * True when the environment asks for traces: `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set, `OTEL_SDK_DISABLED` not `true`, `OTEL_TRACES_EXPORTER` not `none`.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

interface Tracing {
  provider: NodeTracerProvider;
  processor: SpanProcessor;
  resource: Resource;
}

let active: Tracing | undefined;

/** True once `startTracing` registered a provider in this process. */
export function tracingActive(): boolean {
  return active !== undefined;
}

/**
 * The exporter wrapped to count what it could not deliver, and to tell the queue guard how many spans
 * left the queue (`taken`, called with the size of each batch handed to the exporter).
 */
class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly taken: (n: number) => void,
  ) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.taken(spans.length);
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) traceSpansDropped.inc({ reason: 'export_failed' }, spans.length);
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * The batch span processor with its queue bound made visible: a sampled span that would find the
 * processor's queue full (`maxQueueSize` spans waiting) is counted as dropped (`queue_full`) and not
 * handed on (the processor would drop it silently).
 */
class BoundedSpanProcessor implements SpanProcessor {
  private queued = 0;
  private readonly inner: BatchSpanProcessor;
  constructor(
    exporter: SpanExporter,
    private readonly maxQueueSize: number,
  ) {
    this.inner = new BatchSpanProcessor(
      new CountingExporter(exporter, (n) => (this.queued = Math.max(0, this.queued - n))),
      { maxQueueSize },
    );
  }
  onStart(span: Span, parent: otel.Context): void {
    this.inner.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & otel.TraceFlags.SAMPLED) === 0) return;
    if (this.queued >= this.maxQueueSize) return void traceSpansDropped.inc({ reason: 'queue_full' });
    this.queued++;
    this.inner.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** `OTEL_BSP_MAX_QUEUE_SIZE` (a positive integer), else the specification's default 2,048. */
function maxQueueSize(env: NodeJS.ProcessEnv): number {
  const n = Number(env.OTEL_BSP_MAX_QUEUE_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 2048;
}

/**
 * Starts tracing in this process when `tracingRequested()`: registers the tracer provider (async-local
 * context, the propagators of `OTEL_PROPAGATORS`, default W3C `tracecontext,baggage`) exporting over
 * OTLP/HTTP. Idempotent. `serviceName` is the default `service.name` (`OTEL_SERVICE_NAME` or
 * `OTEL_RESOURCE_ATTRIBUTES` win).
 * @returns true when tracing is on in this process
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active) return true;
  if (!tracingRequested(env)) return false;
  const resource = new Resource({ 'service.name': serviceName }).merge(
    detectResourcesSync({ detectors: [envDetectorSync] }),
  );
  const processor = new BoundedSpanProcessor(new OTLPTraceExporter(), maxQueueSize(env));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  active = { provider, processor, resource };
  return true;
}

/** Exports what is queued and stops tracing (a process's clean stop); no-op when off. */
export async function stopTracing(): Promise<void> {
  const t = active;
  if (!t) return;
  active = undefined;
  await t.provider.shutdown().catch(() => undefined);
  otel.trace.disable();
  otel.propagation.disable();
  otel.context.disable();
}

/** The client interceptors of a Temporal client: the trace context on starts, signals, updates and queries. */
export function temporalClientInterceptors(): ClientInterceptors | undefined {
  return active ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}

/**
 * What `Worker.create` adds when tracing is on: activity interceptors (a span per activity, child of the
 * workflow's), the client interceptors of the activities' client, the workflow interceptor module (a
 * `prebuilt` bundle must include it instead: `workflowInterceptorModules()`), and the sink that
 * exports the spans workflow code records (replay-safe: the sink does not run on replay).
 */
export function temporalWorkerTracing(prebuilt = false): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const t = active;
  if (!t) return {};
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
      client: temporalClientInterceptors(),
      workflowModules: prebuilt ? [] : WORKFLOW_TRACING_MODULES, // a prebuilt bundle holds them already
    },
    sinks: { exporter: makeWorkflowExporter(t.processor, t.resource) },
  };
}

/** The workflow interceptor modules a prebuilt workflow bundle needs (`bundleWorkflowCode`): none when off. */
export function workflowInterceptorModules(): string[] {
  return active ? WORKFLOW_TRACING_MODULES : [];
}

/** The tracer of the service's own spans (the API's no-op tracer when tracing is off). */
export const tracer = (): otel.Tracer => otel.trace.getTracer(TRACER_NAME);

/** The active context (the parent of spans started later from elsewhere, e.g. a socket's callbacks). */
export const activeContext = (): otel.Context => otel.context.active();

/** The trace id (32 hex digits) of the active span, or null outside a sampled trace. */
export function currentTraceId(): string | null {
  const ctx = otel.trace.getActiveSpan()?.spanContext();
  return ctx && otel.isSpanContextValid(ctx) ? ctx.traceId : null;
}

/**
 * Runs `fn` inside a new span `name` (kind `kind`, attributes `attributes`) child of the active one, and
 * ends it when `fn` settles; a throw sets the span's status to ERROR with the error's type and rethrows.
 * `fn` gets the span (to add attributes it learns) or undefined when tracing is off, where `fn` runs as
 * it is, without a span.
 */
export async function withSpan<T>(
  name: string,
  attributes: otel.Attributes,
  fn: (span: otel.Span | undefined) => Promise<T>,
  kind: otel.SpanKind = otel.SpanKind.INTERNAL,
): Promise<T> {
  if (!active) return fn(undefined);
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.setAttribute('error.type', err instanceof Error ? err.name : 'Error');
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * `headers` plus the active context's propagation headers (`traceparent`, `tracestate`, `baggage`: the
 * W3C propagators), for an outgoing request; `headers` itself when tracing is off.
 */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!active) return headers;
  const out = { ...headers };
  otel.propagation.inject(otel.context.active(), out);
  return out;
}
