/**
 * Traces end to end, read back from a real tracing backend (Jaeger v2, test/support/traces.ts): the
 * service's own API and worker processes run with the standard `OTEL_EXPORTER_OTLP_ENDPOINT` set; a test
 * call placed with the caller's `traceparent` uses a tool and ends with a webhook delivery. Its trace
 * holds the API request (HTTP conventions, child of the caller's span), the workflow start and run
 * (Temporal's interceptors), the model requests (GenAI conventions), the tool call and the webhook POST,
 * each under its parent; the tool server, the MCP server and the webhook receiver got a `traceparent` of
 * that trace; the call's `trace_id` and its log lines name the trace. A campaign's contacts are each a
 * trace of their own; a conversation's turns join the traces of their customer messages. Tracing off (the harness's own processes), calls have `trace_id: null`.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { freePort, type RunningJaeger } from '../../src/dev/infra';
import { request } from '../support/harness';
import { campaignCalls, createForm, phone, waitForCampaign } from '../support/bulk-calls';
import { customerNumber, waitForMessages } from '../support/conversations';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint, eventually, type Tenant } from '../support/webhooks';
import { newTenant } from '../support/harness';
import { createHttpTool, useTools } from '../support/tools';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import {
  ancestry,
  parseTraceparent,
  startTestJaeger,
  startTracedService,
  traceSpans,
  type JaegerSpan,
  type TracedService,
} from '../support/traces';

/** A request to the traced API process (not the harness's). */
async function tracedRequest(
  service: TracedService,
  method: string,
  urlPath: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(service.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const one = (spans: JaegerSpan[], name: string | RegExp) => {
  const found = spans.filter((s) => (typeof name === 'string' ? s.operationName === name : name.test(s.operationName)));
  expect(found, `spans named ${String(name)} among ${spans.map((s) => s.operationName).join(', ')}`).to.not.be.empty;
  return found[0];
};

describe('traces: a call end to end in a real tracing backend', function () {
  // The first run on a machine builds Jaeger from the Go module proxy (5-20 minutes, by the machine's load).
  this.timeout(1_800_000);
  let jaeger: RunningJaeger;
  let service: TracedService;
  let receiver: HttpsReceiver;
  let mcp: McpTestServer;
  let t: Tenant;
  let endpointId: string;
  const callerTrace = crypto.randomBytes(16).toString('hex');
  const callerSpan = crypto.randomBytes(8).toString('hex');
  let call: any;
  let spans: JaegerSpan[] = [];

  before(async () => {
    jaeger = await startTestJaeger();
    receiver = await startHttpsReceiver();
    mcp = await startMcpServer();
    service = await startTracedService(`traces-${Date.now()}`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    t = await newTenant();
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
    receiver.route('/hooks', () => ({ status: 200 }));
    const mcpTool = await request('POST', '/v1/tools', {
      key: t.testKey,
      body: { type: 'mcp', name: 'stats_server', server_url: mcp.url, allowed_tools: ['stats'] },
    });
    expect(mcpTool.status, JSON.stringify(mcpTool.body)).to.equal(200);
    await useTools(t, [tool.id, mcpTool.body.id]);
    endpointId = (await createWebhookEndpoint(receiver, t.testKey, '/hooks', ['call.ended'])).id;
  });
  after(async () => {
    await service?.stop();
    await receiver?.close();
    await mcp?.close();
    await jaeger?.stop();
  });

  it('places a test call through the traced API, carrying the caller’s trace', async () => {
    const placed = await tracedRequest(
      service,
      'POST',
      '/v1/calls',
      t.testKey,
      {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { caller: ['TOOLONCE lookup_order {"order_id":"A17"}', 'TOOLONCE stats {}'] },
        analysis: { summary: true },
      },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    call = await eventually(
      async () => {
        const got = await tracedRequest(service, 'GET', `/v1/calls/${placed.body.id}`, t.testKey);
        return got.body?.status === 'completed' ? got.body : undefined;
      },
      'the call to complete',
      90_000,
    );
    expect(call.trace_id).to.equal(callerTrace);
    await receiver.waitFor((r) => r.some((x) => x.path === '/hooks'), 60_000, 'the call.ended webhook');
  });

  it('has the request, workflow, model, tool and webhook spans in Jaeger, each under its parent', async () => {
    spans = await eventually(
      async () => {
        const got = await traceSpans(jaeger, callerTrace);
        const names = got.map((s) => s.operationName);
        // Workflow spans leave the worker when their run ends (the interceptors' sink): waited for too.
        const expected = [
          'POST /v1/calls',
          'RunWorkflow:callWorkflow',
          'execute_tool lookup_order',
          'execute_tool stats',
          'webhook POST',
          'RunWorkflow:webhookDeliveryWorkflow',
          'RunWorkflow:callAnalysisWorkflow',
        ];
        const analysed = got.some((x) => x.tags['gen_ai.request.purpose'] === 'analysis');
        return expected.every((n) => names.includes(n)) && names.some((n) => n.startsWith('chat ')) && analysed
          ? got
          : undefined;
      },
      'the trace in Jaeger',
      60_000,
    );
    expect(new Set(spans.map((s) => s.traceID))).to.deep.equal(new Set([callerTrace]));
    expect(new Set(spans.map((s) => s.service))).to.include.members(['svc-assistant-api', 'svc-assistant-worker']);

    const api = one(spans, 'POST /v1/calls');
    expect(api.parent, 'child of the caller’s span').to.equal(callerSpan);
    expect(api.tags).to.include({
      'span.kind': 'server',
      'http.request.method': 'POST',
      'http.route': '/v1/calls',
      'http.response.status_code': 200,
    });
    const start = one(spans, 'StartWorkflow:callWorkflow');
    expect(start.parent).to.equal(api.spanID);
    const run = one(spans, 'RunWorkflow:callWorkflow');
    expect(ancestry(spans, run)).to.include('StartWorkflow:callWorkflow');

    const chat = spans.filter((s) => s.operationName === 'chat fake-model');
    expect(chat.length, 'a model request per answer').to.be.at.least(2);
    // The call's analysis asks the model too, in the call's trace, told apart by its purpose.
    const analysis = chat.find((c) => c.tags['gen_ai.request.purpose'] === 'analysis')!;
    expect(ancestry(spans, analysis)).to.include.members([
      'RunWorkflow:callAnalysisWorkflow',
      'RunWorkflow:callWorkflow',
    ]);
    for (const c of chat) {
      expect(c.tags).to.include({
        'span.kind': 'client',
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'fake-model',
      });
      expect(c.tags['gen_ai.usage.input_tokens']).to.be.a('number').above(0);
      expect(c.tags['gen_ai.usage.output_tokens']).to.be.a('number').above(0);
      expect(c.tags['gen_ai.server.time_to_first_token']).to.be.a('number').at.least(0);
      expect(ancestry(spans, c).slice(1), 'model request inside an activity of the call’s run').to.include.members([
        'RunWorkflow:callWorkflow',
        'POST /v1/calls',
      ]);
    }

    const tool = one(spans, 'execute_tool lookup_order');
    expect(tool.tags).to.include({
      'gen_ai.tool.name': 'lookup_order',
      'tool.outcome': 'ok',
      'http.response.status_code': 200,
    });
    expect(
      Object.keys(tool.tags).some((k) => /argument|result/.test(k)),
      'no arguments or results',
    ).to.equal(false);
    expect(spans.find((s) => s.spanID === tool.parent)?.operationName).to.match(/^RunActivity:/);
    expect(ancestry(spans, tool)).to.include('RunWorkflow:callWorkflow');

    const hook = one(spans, 'webhook POST');
    expect(hook.tags).to.include({
      'span.kind': 'client',
      'webhook.endpoint_id': endpointId,
      'webhook.event_type': 'call.ended',
      'http.response.status_code': 200,
      'webhook.outcome': 'succeeded',
    });
    expect(ancestry(spans, hook)).to.include.members([
      'RunWorkflow:webhookDeliveryWorkflow',
      'RunWorkflow:callWorkflow',
    ]);
  });

  it('sent the tool server and the webhook receiver a traceparent of that trace, from their spans', () => {
    const toolHeader = parseTraceparent(receiver.at('/orders')[0]?.headers.traceparent);
    expect(toolHeader).to.deep.include({ traceId: callerTrace, flags: '01' });
    expect(toolHeader!.spanId).to.equal(one(spans, 'execute_tool lookup_order').spanID);
    const hookHeader = parseTraceparent(receiver.at('/hooks')[0]?.headers.traceparent);
    expect(hookHeader).to.deep.include({ traceId: callerTrace, flags: '01' });
    expect(hookHeader!.spanId).to.equal(one(spans, 'webhook POST').spanID);
  });

  it('sent the MCP server the traceparent of its tool call’s span on every request of the session', () => {
    const [stats] = mcp.toolCalls.filter((c) => c.name === 'stats');
    expect(stats, 'the stats tool was called').to.not.equal(undefined);
    const span = one(spans, 'execute_tool stats');
    expect(parseTraceparent(stats.headers.traceparent)).to.deep.equal({
      traceId: callerTrace,
      spanId: span.spanID,
      flags: '01',
    });
    const carried = mcp.requests.filter((r) => parseTraceparent(r.headers.traceparent)?.spanId === span.spanID);
    expect(carried.map((r) => r.rpcMethods).flat(), 'the whole session').to.include.members([
      'initialize',
      'tools/call',
    ]);
    // Listing the server's tools at the call's start is in the call's trace too.
    const listed = mcp.requests.filter((r) => r.rpcMethods.includes('tools/list'));
    expect(listed.length).to.be.at.least(1);
    for (const r of listed) expect(parseTraceparent(r.headers.traceparent)?.traceId).to.equal(callerTrace);
  });

  it("writes the trace id in the call's log lines (API and worker)", () => {
    const lines = [service.api, service.worker]
      .flatMap((p) => p.log().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.call_id === call.id);
    const placing = lines.find((l) => String(l.message).startsWith('POST /v1/calls 200'));
    expect(placing, 'the request line of POST /v1/calls').to.include({ trace_id: callerTrace });
    // Every later GET is a request, and a trace, of its own; what the call's workflow logs is in the call's.
    const worked = lines.filter((l) => l.request_id === undefined && l.trace_id !== undefined);
    expect(worked.filter((l) => l.trace_id !== callerTrace)).to.deep.equal([]);
  });

  it('gives each contact of a campaign a trace of its own, apart from the campaign’s', async () => {
    const campaignTrace = crypto.randomBytes(16).toString('hex');
    const started = await tracedRequest(
      service,
      'POST',
      '/v1/bulk-calls',
      t.testKey,
      {
        agent_id: t.agentId,
        form_id: await createForm(t.testKey),
        max_concurrency: 2,
        simulation: { caller: ['Bye.'] },
        contacts: [phone(71), phone(72)],
      },
      { traceparent: `00-${campaignTrace}-${callerSpan}-01` },
    );
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    await waitForCampaign(t.testKey, started.body.id, undefined, 90_000);
    const calls = await campaignCalls(t.testKey, started.body.id);
    expect(calls).to.have.length(2);
    const traceIds = calls.map((c) => c.trace_id as string);
    for (const id of traceIds) expect(id).to.match(/^[0-9a-f]{32}$/);
    expect(new Set([...traceIds, campaignTrace]).size, 'two call traces and the campaign’s').to.equal(3);
    for (const id of traceIds) {
      const callSpans = await eventually(async () => {
        const got = await traceSpans(jaeger, id);
        return got.some((x) => x.operationName === 'RunWorkflow:callWorkflow') &&
          got.some((x) => x.operationName.startsWith('chat '))
          ? got
          : undefined;
      }, `the trace of a campaign call (${id})`);
      const root = one(callSpans, 'RunWorkflow:callWorkflow');
      expect(root.parent, 'the call workflow roots its trace').to.equal(undefined);
      expect(callSpans.some((x) => x.operationName === 'POST /v1/bulk-calls')).to.equal(false);
    }
    const campaignSpans = await eventually(async () => {
      const got = await traceSpans(jaeger, campaignTrace);
      const starts = got.filter((x) => x.operationName === 'StartChildWorkflow:callWorkflow').length;
      return starts >= 2 && got.some((x) => x.operationName === 'POST /v1/bulk-calls') ? got : undefined;
    }, 'the campaign’s trace with its two child starts');
    expect(campaignSpans.some((x) => x.operationName === 'RunWorkflow:callWorkflow')).to.equal(false);
    expect(one(campaignSpans, 'POST /v1/bulk-calls').parent).to.equal(callerSpan);
  });

  it('puts each conversation turn in the trace of the customer message that started it', async () => {
    const from = customerNumber();
    const traces = [crypto.randomBytes(16).toString('hex'), crypto.randomBytes(16).toString('hex')];
    for (const [i, text] of ['one', 'two'].entries()) {
      const sent = await tracedRequest(
        service,
        'POST',
        '/v1/test_helpers/inbound_messages',
        t.testKey,
        { channel: 'sms', from, text },
        { traceparent: `00-${traces[i]}-${callerSpan}-01` },
      );
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      await waitForMessages(t.testKey, sent.body.conversation_id, i + 1, (m) => m.author === 'assistant', 60_000);
    }
    // Each turn's model request carries its message's trace id, which only that message's request gave
    // (its `traceparent`): without the interceptor both turns' requests are in the first message's trace.
    for (const trace of traces) {
      const turn = await eventually(
        async () => {
          const got = await traceSpans(jaeger, trace);
          const names = got.map((x) => x.operationName);
          return names.includes('chat fake-model') && names.includes('RunActivity:generateReply') ? got : undefined;
        },
        `the turn's model request and its activity in the trace of its message (${trace})`,
        60_000,
      );
      const chat = turn.filter((x) => x.operationName === 'chat fake-model');
      expect(chat, 'one model request per turn').to.have.length(1);
      expect(chat[0].traceID).to.equal(trace);
    }
  });

  it('leaves calls untraced where tracing is off: trace_id null', async () => {
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Bye.'] } },
      headers: { traceparent: `00-${crypto.randomBytes(16).toString('hex')}-${callerSpan}-01` },
    });
    expect(placed.status).to.equal(200);
    const got = await eventually(async () => {
      const res = await request('GET', `/v1/calls/${placed.body.id}`, { key: t.testKey });
      return res.body?.status ? res.body : undefined;
    }, 'the call');
    expect(got).to.have.property('trace_id', null);
  });
});

describe('traces: an unreachable tracing backend', function () {
  this.timeout(300_000);
  let service: TracedService;
  let metricsPort: number;
  let t: Tenant;
  before(async () => {
    metricsPort = await freePort();
    // Nothing listens on the endpoint's port; a queue of 4 spans fills within the first call (and is sent, in vain).
    service = await startTracedService(`traces-down-${Date.now()}`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      OTEL_BSP_MAX_QUEUE_SIZE: '4',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
      METRICS_WORKER_PORT: String(metricsPort),
    });
    t = await newTenant();
  });
  after(async () => service?.stop());

  it('neither fails nor holds a call, and counts the spans it dropped', async () => {
    const placed = await tracedRequest(service, 'POST', '/v1/calls', t.testKey, {
      to: '+14155550123',
      agent_id: t.agentId,
      simulation: { caller: ['Is my order shipped?', 'Thanks, bye.'] },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.trace_id, 'the API made a trace all the same').to.match(/^[0-9a-f]{32}$/);
    const ended = await eventually(
      async () => {
        const got = await tracedRequest(service, 'GET', `/v1/calls/${placed.body.id}`, t.testKey);
        return got.body?.status === 'completed' ? got.body : undefined;
      },
      'the call to complete',
      60_000,
    );
    expect(ended.trace_id).to.equal(placed.body.trace_id);
    // Dropped: spans that found the queue full, and batches the backend did not take (refused at once).
    const dropped = await eventually(async () => {
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const counts = [...metrics.matchAll(/^svc_trace_spans_dropped_total\{reason="(\w+)"\} (\d+)/gm)];
      const total = counts.reduce((sum, m) => sum + Number(m[2]), 0);
      return total > 0 ? total : undefined;
    }, 'dropped spans counted in svc_trace_spans_dropped_total');
    expect(dropped).to.be.above(0);
  });
});
