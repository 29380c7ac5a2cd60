/**
 * Tools that act (issue 27 items 2–5), through the real API, Temporal and a loopback HTTPS tool server:
 * a test call whose fake LLM calls an http tool; the server receives one signed request (verified with
 * the README's webhook verification code) carrying `Idempotency-Key: tc_…`; the answer reaches the model;
 * the transcript holds the tool entry. Then: arguments the schema refuses never reach the server; a 404 is
 * final and a 503 is retried with the same key; a 10 MB answer is cut; a redirect is refused; a hanging
 * server times out within the tool's deadline; parallel tool calls run together; `speak_while_running`
 * is said for a slow tool; a GET tool gets its arguments as a signed query. The same tool from a WhatsApp
 * conversation and from the widget, recorded on the assistant's reply.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { h, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { placeCall, verify, type Tenant } from '../support/webhooks';
import { newTenant } from '../support/harness';
import { createKey } from '../../src/keys';
import { customerNumber, inbound, waitForMessages } from '../support/conversations';
import { readStream } from '../support/widget';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { createHttpTool, useTools } from '../support/tools';

/** Places a test call where the scripted caller says `lines`; answers the ended call's transcript turns. */
async function callSaying(tenant: Tenant, lines: string[]) {
  const call = await placeCall(tenant, { simulation: { caller: lines }, metadata: { ticket: 'T-9' } });
  const ended = await waitForCall(tenant.testKey, call.id, undefined, 60_000);
  expect(ended.status, JSON.stringify(ended)).to.equal('completed');
  const tr = await request('GET', `/v1/calls/${call.id}/transcript`, { key: tenant.testKey });
  expect(tr.status).to.equal(200);
  return { call, turns: tr.body.turns as any[] };
}

const toolTurns = (turns: any[]) => turns.filter((t) => t.role === 'tool');

describe('tool calls: the assistant calls http tools on a call', function () {
  this.timeout(120_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  before(async () => {
    t = await newTenant();
    receiver = await startHttpsReceiver();
  });
  after(async () => receiver.close());

  it('sends one signed request with the idempotency key; the answer reaches the model and the transcript', async () => {
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
    await useTools(t, [tool.id]);
    const { call, turns } = await callSaying(t, ['TOOLONCE lookup_order {"order_id":"A17"}']);

    const got = receiver.at('/orders');
    expect(got).to.have.length(1);
    const req = got[0];
    expect(verify(req.rawBody, req.headers['svc-signature'] as string, tool.secret)).to.equal(true);
    expect(verify(req.rawBody, req.headers['svc-signature'] as string, 'whsec_other')).to.equal(false);
    expect(req.headers.authorization).to.equal('Bearer customer-key');
    expect(req.headers['user-agent']).to.match(/^svc-assistant-tools\//);
    const key = req.headers['idempotency-key'] as string;
    expect(key).to.match(/^tc_[0-9a-z]{26}$/);
    expect(req.body).to.deep.equal({
      tool: 'lookup_order',
      arguments: { order_id: 'A17' },
      tool_call_id: key,
      call_id: call.id,
      agent_id: t.agentId,
      metadata: { ticket: 'T-9' },
      livemode: false,
    });

    // The model's next request carries the server's answer as the tool message.
    const asked = h().llm.requests.filter((r) => r.user === call.id);
    const toolMessage = asked.at(-1)!.messages.find((m: any) => m.role === 'tool') as any;
    expect(toolMessage.content).to.equal(JSON.stringify({ order: 'A17', status: 'shipped' }));
    expect(asked[0].tools!.map((x) => x.function.name)).to.include('lookup_order');

    const entries = toolTurns(turns);
    expect(entries).to.have.length(1);
    const [entry] = entries;
    expect(entry).to.include({
      role: 'tool',
      name: 'lookup_order',
      result: JSON.stringify({ order: 'A17', status: 'shipped' }),
      status: 200,
      tool_call_id: key,
    });
    expect(entry.arguments).to.deep.equal({ order_id: 'A17' });
    expect(entry.error).to.equal(undefined);
    expect(entry.duration_ms).to.be.a('number').within(0, 10_000);
    expect(turns.map((x) => x.text)).to.include('Tool result received.');
  });

  it('answers arguments the schema refuses to the model, and never calls the server', async () => {
    const tool = await createHttpTool(t, receiver, 'lookup_strict', '/strict');
    await useTools(t, [tool.id]);
    const { turns } = await callSaying(t, ['TOOLONCE lookup_strict {"order_id":"not-an-order","extra":1}']);
    expect(receiver.at('/strict')).to.have.length(0);
    const [entry] = toolTurns(turns);
    expect(entry.error).to.match(/^Error: the arguments of lookup_strict are invalid: /);
    expect(entry.error).to.match(/order_id: must match pattern/);
    expect(entry.error).to.match(/extra: is not allowed/);
    expect(entry.result).to.equal(undefined);
  });

  it('a 404 is final (one request, the status told); a 503 is retried with the same key until it answers', async () => {
    const missing = await createHttpTool(t, receiver, 'lookup_missing', '/missing');
    receiver.route('/missing', () => ({ status: 404, body: '{"error":"no such order"}' }));
    const flaky = await createHttpTool(t, receiver, 'lookup_flaky', '/flaky', { timeout_ms: 10_000 });
    receiver.route('/flaky', (_req, n) => (n < 3 ? { status: 503 } : { status: 200, body: 'found it' }));
    await useTools(t, [missing.id, flaky.id]);
    const { turns } = await callSaying(t, [
      'TOOLONCE lookup_missing {"order_id":"A1"}',
      'TOOLONCE lookup_flaky {"order_id":"A2"}',
    ]);
    expect(receiver.at('/missing')).to.have.length(1);
    const flakyRequests = receiver.at('/flaky');
    expect(flakyRequests).to.have.length(3);
    expect(new Set(flakyRequests.map((r) => r.headers['idempotency-key'])).size).to.equal(1);
    const [missed, found] = toolTurns(turns);
    expect(missed).to.include({ status: 404 });
    expect(missed.error).to.match(/lookup_missing failed \(HTTP 404: \{"error":"no such order"\}\)/);
    expect(found).to.include({ status: 200, result: 'found it' });
    expect(found.tool_call_id).to.equal(flakyRequests[0].headers['idempotency-key']);
  });

  it('cuts a 10 MB answer at 16 KB, refuses a redirect, and times out a hanging server within its deadline', async () => {
    const big = await createHttpTool(t, receiver, 'lookup_big', '/big');
    receiver.route('/big', () => ({
      status: 200,
      body: 'x'.repeat(10 * 1024 * 1024),
      headers: { 'content-type': 'text/plain' },
    }));
    const moved = await createHttpTool(t, receiver, 'lookup_moved', '/moved');
    receiver.route('/moved', () => ({ status: 302, headers: { location: 'https://example.com/' } }));
    const hung = await createHttpTool(t, receiver, 'lookup_hung', '/hung', { timeout_ms: 1000 });
    receiver.route('/hung', () => 'hold');
    await useTools(t, [big.id, moved.id, hung.id]);
    const { turns } = await callSaying(t, [
      'TOOLONCE lookup_big {"order_id":"A1"}',
      'TOOLONCE lookup_moved {"order_id":"A1"}',
      'TOOLONCE lookup_hung {"order_id":"A1"}',
      'And now?',
    ]);
    const [cut, redirect, timedOut] = toolTurns(turns);
    expect(cut.result.length).to.be.within(16 * 1024, 16 * 1024 + 100);
    expect(cut.result).to.match(/\[the answer was cut at 16 KB\]$/);
    expect(redirect.status).to.equal(302);
    expect(redirect.error).to.match(/redirects are not followed/);
    expect(receiver.at('/moved')).to.have.length(1);
    expect(timedOut.error).to.match(/lookup_hung (did not answer within 1 s|failed \(no answer within 1 s\))/);
    expect(timedOut.duration_ms).to.be.within(900, 5000);
    expect(turns.at(-1)!.text).to.equal('You said: And now?'); // the call went on
  });

  it('runs tool calls made at once in parallel, results in the model’s order', async () => {
    const slowA = await createHttpTool(t, receiver, 'slow_a', '/slow-a');
    const slowB = await createHttpTool(t, receiver, 'slow_b', '/slow-b');
    const wait = (body: string) => async () => {
      await new Promise((r) => setTimeout(r, 1200));
      return { status: 200, body };
    };
    receiver.route('/slow-a', wait('A done'));
    receiver.route('/slow-b', wait('B done'));
    await useTools(t, [slowA.id, slowB.id]);
    const { turns } = await callSaying(t, ['TOOLSONCE [["slow_a",{"order_id":"A1"}],["slow_b",{"order_id":"B2"}]]']);
    const [a, b] = [receiver.at('/slow-a')[0], receiver.at('/slow-b')[0]];
    expect(Math.abs(a.receivedMs - b.receivedMs)).to.be.below(1000); // the second did not wait for the first
    expect(toolTurns(turns).map((x) => x.result)).to.deep.equal(['A done', 'B done']);
    expect(turns.map((x) => x.text)).to.include('Tools said: A done | B done');
  });

  it('says speak_while_running when a tool takes longer than a second, before its result', async () => {
    const slow = await createHttpTool(t, receiver, 'slow_lookup', '/slow', {
      speak_while_running: 'Let me check that for you.',
    });
    receiver.route('/slow', async () => {
      await new Promise((r) => setTimeout(r, 1800));
      return { status: 200, body: 'ready' };
    });
    const quick = await createHttpTool(t, receiver, 'quick_lookup', '/quick', {
      speak_while_running: 'This line is never said.',
    });
    await useTools(t, [slow.id, quick.id]);
    const { turns } = await callSaying(t, [
      'TOOLONCE slow_lookup {"order_id":"A1"}',
      'TOOLONCE quick_lookup {"order_id":"A1"}',
    ]);
    const texts = turns.map((x) => `${x.role}: ${x.text}`);
    const said = texts.indexOf('assistant: Let me check that for you.');
    expect(said, texts.join('\n')).to.be.above(-1);
    expect(texts.indexOf('tool: ready')).to.be.above(said);
    expect(texts).to.not.include('assistant: This line is never said.');
  });

  it("the turn's deadline does not cut a tool running within its own timeout_ms", async () => {
    const slow = await createHttpTool(t, receiver, 'long_lookup', '/long', { timeout_ms: 6000 });
    receiver.route('/long', async () => {
      await new Promise((r) => setTimeout(r, 2500));
      return { status: 200, body: 'took a while' };
    });
    await useTools(t, [slow.id]);
    const saved = config();
    setConfig({ ...saved, callTurnDeadlineMs: 1000 }); // read when the call is created
    let placed;
    try {
      placed = await placeCall(t, { simulation: { caller: ['TOOLONCE long_lookup {"order_id":"A1"}', 'Thanks'] } });
    } finally {
      setConfig(saved);
    }
    const ended = await waitForCall(t.testKey, placed.id, undefined, 60_000);
    expect(ended.status, JSON.stringify(ended)).to.equal('completed');
    expect(ended.end_reason).to.equal('caller_hung_up');
    const tr = await request('GET', `/v1/calls/${placed.id}/transcript`, { key: t.testKey });
    const [entry] = toolTurns(tr.body.turns);
    expect(entry).to.include({ result: 'took a while', status: 200 });
    expect(entry.duration_ms).to.be.within(2400, 5000);
    // Longer than the 2 s heartbeat timeout: the attempt's heartbeats kept it alive (no second request).
    expect(receiver.at('/long')).to.have.length(1);
    expect(tr.body.turns.at(-1).text).to.equal('You said: Thanks');
  });

  it('a GET tool gets the arguments as query parameters, signed over the request target', async () => {
    const tool = await createHttpTool(t, receiver, 'lookup_get', '/get-order', { method: 'GET' });
    receiver.route('/get-order', () => ({ status: 200, body: '{"ok":true}' }));
    await useTools(t, [tool.id]);
    await callSaying(t, ['TOOLONCE lookup_get {"order_id":"A9"}']);
    const [req] = receiver.at('/get-order');
    expect(req.rawBody).to.equal('');
    const query = new URL(req.target, 'https://x').searchParams;
    expect(query.get('order_id')).to.equal('A9');
    expect(query.get('tool_call_id')).to.equal(req.headers['idempotency-key']).and.match(/^tc_/);
    expect(verify(req.target, req.headers['svc-signature'] as string, tool.secret)).to.equal(true);
  });
});

describe('tool calls: the same tool from a WhatsApp conversation and from the widget', function () {
  this.timeout(120_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  let tool: any;
  before(async () => {
    t = await newTenant();
    receiver = await startHttpsReceiver();
    tool = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    receiver.route('/orders', (req) => ({ status: 200, body: `order ${req.body.arguments.order_id} is shipped` }));
    await useTools(t, [tool.id]);
  });
  after(async () => receiver.close());

  it('WhatsApp: one signed request naming the conversation; the reply message records the tool call', async () => {
    const from = customerNumber();
    const res = await inbound(t.testKey, {
      channel: 'whatsapp',
      from,
      text: 'TOOLONCE lookup_order {"order_id":"W1"}',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const conversationId = res.body.conversation_id as string;
    const replies = await waitForMessages(t.testKey, conversationId, 2, (m) => m.author === 'assistant');
    const got = receiver.at('/orders').filter((r) => r.body.conversation_id === conversationId);
    expect(got).to.have.length(1);
    const [req] = got;
    expect(verify(req.rawBody, req.headers['svc-signature'] as string, tool.secret)).to.equal(true);
    expect(req.body).to.include({ tool: 'lookup_order', agent_id: t.agentId, livemode: false });
    expect(req.body.call_id).to.equal(undefined);
    expect(req.body.metadata).to.deep.equal({});
    expect(replies.map((m) => m.text)).to.deep.equal(['Calling lookup_order.', 'Tool result received.']);
    // The tool call is recorded on the reply written after it, with the key its request carried.
    const withCall = replies.find((m) => m.tool_calls);
    expect(withCall.text).to.equal('Tool result received.');
    expect(withCall.tool_calls).to.have.length(1);
    expect(withCall.tool_calls[0]).to.include({
      name: 'lookup_order',
      result: 'order W1 is shipped',
      status: 200,
      tool_call_id: req.headers['idempotency-key'],
    });
    expect(withCall.tool_calls[0].arguments).to.deep.equal({ order_id: 'W1' });
    // The model saw the answer.
    const asked = h().llm.requests.filter((r) => r.user === conversationId);
    expect(asked.at(-1)!.messages.some((m: any) => m.role === 'tool' && m.content === 'order W1 is shipped')).to.equal(
      true,
    );
  });

  it('widget: the visitor’s message runs the tool; the stream shows the replies without the tool calls', async () => {
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const session = await request('POST', '/v1/widget/session', {
      key: pk,
      body: { visitor_id: `tools-${Date.now()}` },
    });
    expect(session.status, JSON.stringify(session.body)).to.equal(200);
    const sent = await request('POST', '/v1/widget/messages', {
      key: session.body.token,
      body: { text: 'TOOLONCE lookup_order {"order_id":"B7"}' },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const conversationId = session.body.conversation_id as string;
    const replies = await waitForMessages(t.testKey, conversationId, 2, (m) => m.author === 'assistant');
    const got = receiver.at('/orders').filter((r) => r.body.conversation_id === conversationId);
    expect(got).to.have.length(1);
    expect(got[0].body.arguments).to.deep.equal({ order_id: 'B7' });
    expect(replies.find((m) => m.tool_calls)!.tool_calls[0]).to.include({ result: 'order B7 is shipped' });
    const read = await readStream(`${h().api.url}/v1/widget/stream?token=${session.body.token}`, {
      stop: (events) => events.length >= 3,
    });
    const shown = read.events.map((e) => JSON.parse(e.data));
    expect(shown.map((m) => m.text)).to.include('Tool result received.');
    expect(shown.every((m) => m.tool_calls === undefined)).to.equal(true);
  });
});

describe('tool calls: the tools of an MCP server', function () {
  this.timeout(120_000);
  let t: Tenant;
  let server: McpTestServer;
  let many: McpTestServer;
  let hung: McpTestServer;
  before(async () => {
    t = await newTenant();
    server = await startMcpServer();
    many = await startMcpServer({ fillerTools: 1000 });
    hung = await startMcpServer({ hangOnInitialize: true });
  });
  after(async () => {
    await server.close();
    await many.close();
    await hung.close();
  });

  const mcpTool = async (name: string, url: string, extra: Record<string, unknown> = {}) => {
    const res = await request('POST', '/v1/tools', {
      key: t.testKey,
      body: { type: 'mcp', name, server_url: url, headers: { 'X-Api-Key': 'k-123' }, ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  it('lists the allowed tools, offers them under their own names, and calls one with the idempotency key', async () => {
    const tool = await mcpTool('orders_server', server.url, { allowed_tools: ['lookup_order', 'fail'] });
    await useTools(t, [tool.id]);
    const { call, turns } = await callSaying(t, [
      'TOOLONCE lookup_order {"order_id":"M5"}',
      'TOOLONCE fail {}',
      'TOOLONCE slow {"ms":1}',
    ]);
    const asked = h().llm.requests.filter((r) => r.user === call.id);
    const offered = asked[0].tools!.map((x) => x.function.name);
    expect(offered).to.include.members(['lookup_order', 'fail']);
    expect(offered).to.not.include('slow'); // not in allowed_tools
    expect(offered).to.not.include('orders_server');

    const calls = server.toolCalls.filter((c) => c.name === 'lookup_order');
    expect(calls).to.have.length(1);
    expect(calls[0].arguments).to.deep.equal({ order_id: 'M5' });
    expect(calls[0].headers['x-api-key']).to.equal('k-123');
    const key = calls[0].headers['idempotency-key'] as string;
    expect(key).to.match(/^tc_/);
    const [found, failed, unknown] = toolTurns(turns);
    expect(found).to.include({ name: 'lookup_order', tool_call_id: key });
    expect(JSON.parse(found.result)).to.deep.equal({ order_id: 'M5', status: 'shipped', eta: '2030-01-02' });
    expect(failed.error).to.match(/^Error: fail failed: order not found/);
    expect(unknown.error).to.match(/slow is not available/);
    expect(server.toolCalls.filter((c) => c.name === 'slow')).to.have.length(0);
  });

  it('offers at most 128 tools in all (built-in ones included): three servers of 64 give 124 besides the 4 built-in', async () => {
    const extra = [
      await startMcpServer({ fillerTools: 200, fillerPrefix: 'b_' }),
      await startMcpServer({ fillerTools: 200, fillerPrefix: 'c_' }),
    ];
    try {
      const ids = [
        (await mcpTool('first_server', many.url)).id,
        (await mcpTool('second_server', extra[0].url)).id,
        (await mcpTool('third_server', extra[1].url)).id,
      ];
      await useTools(t, ids);
      const { call, turns } = await callSaying(t, ['Hello']);
      const offered = h()
        .llm.requests.find((r) => r.user === call.id)!
        .tools!.map((x) => x.function.name);
      const builtIn = ['end_call', 'search_knowledge', 'opt_out'];
      // search_knowledge is offered only to an agent with knowledge; its place is kept all the same.
      // transfer_call is not offered (the agent has no transfer destination): its place goes to a tool.
      expect(offered.filter((n) => !builtIn.includes(n))).to.have.length(125);
      expect(offered.length).to.be.at.most(128);
      expect(new Set(offered).size).to.equal(offered.length);
      expect(offered.filter((n) => n.startsWith('c_')).length).to.be.above(0); // the third server got the rest
      expect(turns.at(-1)!.text).to.equal('You said: Hello');
    } finally {
      for (const s of extra) await s.close();
    }
  });

  it('offers at most 64 of 1,000 listed tools; a server that hangs offers none, and the call goes on', async () => {
    const big = await mcpTool('big_server', many.url);
    const stuck = await mcpTool('stuck_server', hung.url);
    await useTools(t, [stuck.id, big.id]);
    const started = Date.now();
    const { call, turns } = await callSaying(t, ['Hello', 'TOOLONCE lookup_order {"order_id":"M6"}']);
    expect(Date.now() - started).to.be.below(30_000);
    const asked = h().llm.requests.filter((r) => r.user === call.id);
    const offered = asked[0].tools!.map((x) => x.function.name);
    const builtIn = ['end_call', 'transfer_call', 'search_knowledge', 'opt_out'];
    expect(offered.filter((n) => !builtIn.includes(n))).to.have.length(64);
    // After the caller's line (the AI disclosure may open the call): the answer to it.
    const hello = turns.findIndex((x) => x.text === 'Hello');
    expect(turns[hello + 1].text).to.equal('You said: Hello');
    expect(toolTurns(turns)[0].result).to.match(/shipped/);
  });
});
