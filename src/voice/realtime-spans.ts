/**
 * A span per model response of a realtime call (tracing on only; the sideband activity makes one of these
 * per socket: src/activities/realtime.ts): the Realtime API answers over the call's WebSocket, not by a
 * request of ours, so each response is a CLIENT span `chat <model>` from its `response.created` to its
 * `response.done` (their arrival times), child of the sideband activity's span, with OpenTelemetry's
 * GenAI attributes (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/, as the pipeline's
 * requests: src/platform/genai-tracing.ts): the model (the session's, from `session.created`/`updated`),
 * the response id, its status as the finish reason, the tokens in and out, and the time to its first
 * audio, transcript or text delta (`gen_ai.server.time_to_first_token`, seconds). A `failed` response's
 * span is an error. No words are recorded. A response the socket closed on is ended as `unfinished`.
 */
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { modelRequestAttributes } from '../platform/genai-tracing';
import { FIRST_OUTPUT } from './realtime-meter';
import {
  activeContext,
  SpanKind,
  SpanStatusCode,
  tracer,
  type Context,
  type Span,
  type Tracer,
} from '../platform/tracing';

interface Open {
  span: Span;
  createdMs: number;
  firstMs: number | null;
}

/** The spans of one sideband socket's responses. */
export class RealtimeResponseSpans {
  private model = 'gpt-realtime';
  private readonly open = new Map<string, Open>();
  /**
   * @param spanTracer the tracer to make spans with (the service's own by default)
   * @param parent the context the spans are children of (default: the one active when the session began)
   */
  constructor(
    private readonly spanTracer: Tracer = tracer(),
    private readonly parent: Context = activeContext(),
  ) {}

  /** One server event received at `nowMs` (ms since the epoch). */
  observe(event: RealtimeServerEvent, nowMs: number): void {
    switch (event.type) {
      case 'session.created':
      case 'session.updated': {
        const model = (event.session as { model?: unknown }).model;
        if (typeof model === 'string') this.model = model;
        return;
      }
      case 'response.created':
        if (event.response.id) this.start(event.response.id, nowMs);
        return;
      case 'response.done':
        this.done(event.response, nowMs);
        return;
      default:
        if (FIRST_OUTPUT.has(event.type)) {
          const open = this.open.get((event as { response_id: string }).response_id);
          if (open && open.firstMs === null) open.firstMs = nowMs;
        }
    }
  }

  /** Ends the spans of responses still open when the socket closed (`finish_reasons: ["unfinished"]`). */
  close(nowMs: number): void {
    for (const [, open] of this.open) {
      open.span.setAttribute('gen_ai.response.finish_reasons', ['unfinished']);
      open.span.end(nowMs);
    }
    this.open.clear();
  }

  private start(id: string, nowMs: number): void {
    const span = this.spanTracer.startSpan(
      `chat ${this.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: nowMs,
        attributes: { ...modelRequestAttributes(this.model), 'gen_ai.request.purpose': 'realtime' },
      },
      this.parent,
    );
    this.open.set(id, { span, createdMs: nowMs, firstMs: null });
  }

  private done(response: Extract<RealtimeServerEvent, { type: 'response.done' }>['response'], nowMs: number): void {
    const id = response.id ?? '';
    const open = this.open.get(id);
    if (!open) return;
    this.open.delete(id);
    const { span } = open;
    const status = response.status ?? 'completed';
    span.setAttributes({
      'gen_ai.response.id': id,
      'gen_ai.response.model': this.model,
      'gen_ai.response.finish_reasons': [status],
      'gen_ai.server.time_to_first_token': Math.max(0, (open.firstMs ?? nowMs) - open.createdMs) / 1000,
      ...(response.usage
        ? {
            'gen_ai.usage.input_tokens': response.usage.input_tokens ?? 0,
            'gen_ai.usage.output_tokens': response.usage.output_tokens ?? 0,
          }
        : {}),
    });
    if (status === 'failed') {
      const error = (response.status_details as { error?: { type?: string } } | undefined)?.error;
      span.setStatus({ code: SpanStatusCode.ERROR, message: error?.type ?? 'failed' });
      span.setAttribute('error.type', error?.type ?? 'failed');
    }
    span.end(nowMs);
  }
}
