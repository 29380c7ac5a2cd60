/**
 * The realtime call's response spans (src/voice/realtime-spans.ts) on a scripted sequence of server events
 * at given times, made by OpenTelemetry's own SDK (a `BasicTracerProvider` exporting into memory): one
 * CLIENT span `chat <session model>` per response, from `response.created` to `response.done`, with the
 * GenAI attributes (tokens, time to first output, status), a failed response as an error, a response
 * the socket closed on ended `unfinished`, and all of them children of the session's context.
 */
import { expect } from 'chai';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { RealtimeResponseSpans } from '../../src/voice/realtime-spans';

const ev = (e: Record<string, unknown>) => ({ event_id: 'e', ...e }) as unknown as RealtimeServerEvent;
const usage = { input_tokens: 120, output_tokens: 30 };

describe('realtime response spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  afterEach(() => exporter.reset());

  it('makes a span per response under the session’s parent, with tokens, time to first output and status', () => {
    const parent = tracer.startSpan('RunActivity:attendRealtimeCall');
    const spans = new RealtimeResponseSpans(tracer, trace.setSpan(ROOT_CONTEXT, parent));
    const T = 1_700_000_000_000;
    spans.observe(ev({ type: 'session.created', session: { type: 'realtime', model: 'gpt-realtime-2025-08-28' } }), T);
    spans.observe(ev({ type: 'response.created', response: { id: 'r1' } }), T + 100);
    spans.observe(ev({ type: 'response.output_audio_transcript.delta', response_id: 'r1', delta: 'Hi' }), T + 340);
    spans.observe(ev({ type: 'response.output_audio.delta', response_id: 'r1', delta: '' }), T + 360);
    spans.observe(ev({ type: 'response.done', response: { id: 'r1', status: 'completed', usage } }), T + 900);
    spans.observe(ev({ type: 'response.created', response: { id: 'r2' } }), T + 1000);
    spans.observe(
      ev({
        type: 'response.done',
        response: { id: 'r2', status: 'failed', status_details: { type: 'failed', error: { type: 'server_error' } } },
      }),
      T + 1200,
    );
    spans.observe(ev({ type: 'response.created', response: { id: 'r3' } }), T + 1300);
    spans.close(T + 1500);

    const done = exporter.getFinishedSpans();
    expect(done.map((s) => s.name)).to.deep.equal(Array(3).fill('chat gpt-realtime-2025-08-28'));
    const [first, failed, cut] = done;
    for (const s of done) {
      expect(s.kind).to.equal(SpanKind.CLIENT);
      expect(s.parentSpanId ?? (s as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId).to.equal(
        parent.spanContext().spanId,
      );
      expect(s.spanContext().traceId).to.equal(parent.spanContext().traceId);
      expect(s.attributes).to.include({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-realtime-2025-08-28',
        'gen_ai.request.purpose': 'realtime',
      });
    }
    expect(first.attributes).to.include({
      'gen_ai.response.id': 'r1',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.server.time_to_first_token': 0.24,
    });
    expect(first.attributes['gen_ai.response.finish_reasons']).to.deep.equal(['completed']);
    expect(first.startTime).to.deep.equal([Math.floor((T + 100) / 1000), ((T + 100) % 1000) * 1e6]);
    expect(first.endTime).to.deep.equal([Math.floor((T + 900) / 1000), ((T + 900) % 1000) * 1e6]);
    expect(first.status.code).to.not.equal(SpanStatusCode.ERROR);
    expect(failed.status).to.deep.include({ code: SpanStatusCode.ERROR, message: 'server_error' });
    expect(failed.attributes).to.include({ 'error.type': 'server_error' });
    expect(cut.attributes['gen_ai.response.finish_reasons']).to.deep.equal(['unfinished']);
    expect(
      Object.keys(first.attributes).some((k) => /transcript|text|content/.test(k)),
      'no words',
    ).to.equal(false);
    parent.end();
  });

  it('ignores a response.done whose response.created it never saw', () => {
    const spans = new RealtimeResponseSpans(tracer);
    spans.observe(ev({ type: 'response.done', response: { id: 'rX', status: 'completed', usage } }), 1000);
    spans.close(2000);
    expect(exporter.getFinishedSpans()).to.deep.equal([]);
  });
});
