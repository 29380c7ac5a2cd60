/**
 * Tracing's switches (src/platform/tracing.ts): on only with the standard OTLP endpoint variables, off
 * with the standard ways to turn it off; `TRACES_URL_TEMPLATE` refused at start unless it is an http(s)
 * URL with `{trace_id}`. Off, the helpers pass through: no span, no header added.
 */
import { expect } from 'chai';
import { loadConfig } from '../../src/config';
import {
  currentTraceId,
  tracingActive,
  tracingRequested,
  withSpan,
  withTraceHeaders,
} from '../../src/platform/tracing';

describe('tracing switches', () => {
  it('is requested by OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT only', () => {
    expect(tracingRequested({})).to.equal(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'x' })).to.equal(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).to.equal(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).to.equal(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).to.equal(true);
  });

  it('stays off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(tracingRequested({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).to.equal(false);
    expect(tracingRequested({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).to.equal(true);
    expect(tracingRequested({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).to.equal(false);
  });

  it('passes through while off: no span, no trace id, headers as given', async () => {
    expect(tracingActive()).to.equal(false);
    const headers = { Accept: 'application/json' };
    expect(withTraceHeaders(headers)).to.equal(headers);
    const seen = await withSpan('x', {}, async (span) => [span, currentTraceId()]);
    expect(seen).to.deep.equal([undefined, null]);
  });

  it('takes TRACES_URL_TEMPLATE only as an http(s) URL with {trace_id}', () => {
    expect(loadConfig({ TRACES_URL_TEMPLATE: '' }).tracesUrlTemplate).to.equal(undefined);
    expect(
      loadConfig({ TRACES_URL_TEMPLATE: 'https://jaeger.example.com/trace/{trace_id}' }).tracesUrlTemplate,
    ).to.equal('https://jaeger.example.com/trace/{trace_id}');
    for (const bad of ['https://jaeger.example.com/trace/', 'javascript:alert({trace_id})', 'jaeger/{trace_id}'])
      expect(() => loadConfig({ TRACES_URL_TEMPLATE: bad }), bad).to.throw(
        /TRACES_URL_TEMPLATE must be an http\(s\) URL/,
      );
  });
});
