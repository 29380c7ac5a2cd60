/**
 * The realtime engine's call control, through the real API, Temporal and worker against the loopback fake
 * of the Realtime API (test/support/fake-openai-realtime.ts): transfers by `refer` (the model's
 * `transfer_call` checked against the agent's destinations, a warm mode made cold; the API's transfer), the
 * version's turn detection in the accept, a dropped sideband socket re-attached (a function output made
 * meanwhile sent on the new socket, once; or the call ended `error` with its transcript), and an answer the
 * caller interrupted acting on nothing.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startFakeRealtime, type FakeRealtime } from '../support/fake-openai-realtime';
import { fakeRealtimeProject } from '../support/realtime-fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createHttpTool, useTools } from '../support/tools';

describe('realtime calls: call control (refer, turn detection, re-attach, interruptions)', function () {
  this.timeout(120_000);
  let fake: FakeRealtime;
  let receiver: HttpsReceiver;
  let restore: ReturnType<typeof config>;
  before(async () => {
    fake = await startFakeRealtime();
    fake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await fake.close();
    await receiver.close();
  });
  beforeEach(() => {
    restore = config();
    setConfig({
      ...restore,
      openaiRealtime: fakeRealtimeProject(fake),
    });
  });
  afterEach(() => {
    setConfig(restore);
    fake.dropSocket = null;
    fake.dropWhileCalls = false;
    fake.referStatus = null;
  });

  async function place(tenant: { testKey: string; agentId: string }, simulation: Record<string, unknown>) {
    const placed = await request('POST', '/v1/calls', {
      key: tenant.testKey,
      body: { to: '+14155550123', agent_id: tenant.agentId, simulation },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    return placed.body.id as string;
  }

  async function ended(tenant: { testKey: string }, id: string) {
    const call = await waitForCall(tenant.testKey, id, undefined, 60_000);
    const tr = await request('GET', `/v1/calls/${id}/transcript`, { key: tenant.testKey });
    expect(tr.status).to.equal(200);
    return { call, turns: tr.body.turns as any[] };
  }

  async function eventsOf(key: string, callId: string): Promise<string[]> {
    const res = await request('GET', '/v1/events?limit=100', { key });
    expect(res.status).to.equal(200);
    return (res.body.data as any[])
      .filter((e) => e.data.object.id === callId)
      .reverse()
      .map((e) => e.type);
  }

  const referPaths = (rtId: string) => fake.requests.filter((r) => r.path === `/v1/realtime/calls/${rtId}/refer`);

  it('transfers by refer to a listed destination (a warm mode goes cold), refuses one not listed: no refer', async () => {
    const t = await newTenant({
      engine: 'realtime',
      transfer_mode: 'warm',
      transfer_destinations: [
        { name: 'billing', to: '+14155550111' },
        { name: 'desk', to: '+14155550112', warm: true },
      ],
    });
    const id = await place(t, { caller: ['I need billing.', 'TOOL transfer_call {"destination":"billing"}'] });
    const { call, turns } = await ended(t, id);
    expect(call, JSON.stringify(call)).to.include({
      status: 'transferred',
      end_reason: 'transferred',
      transferred_to: '+14155550111',
    });
    expect(call.transfer).to.include({ mode: 'cold', to: '+14155550111', status: 'transferred' });
    const rt = fake.callFor(id)!;
    expect(rt.refers).to.deep.equal([{ target_uri: 'tel:+14155550111' }]);
    expect(fake.requests.some((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`)).to.equal(false);
    const tool = turns.find((x) => x.role === 'tool');
    expect(tool.tool.name).to.equal('transfer_call');
    expect(tool.text).to.equal('Transferring to billing (+14155550111).');
    expect(await eventsOf(t.testKey, id)).to.deep.equal(['call.started', 'call.transferred', 'call.ended']);

    // Not in the allow-list: a tool error, nobody called, the call goes on.
    const refusedId = await place(t, { caller: ['TOOL transfer_call {"destination":"nowhere"}', 'Fine.'] });
    const refused = await ended(t, refusedId);
    expect(refused.call, JSON.stringify(refused.call)).to.include({
      status: 'completed',
      end_reason: 'caller_hung_up',
      transferred_to: null,
    });
    expect(refused.turns.find((x) => x.role === 'tool').text).to.equal(
      'Error: "nowhere" is not one of the organization\'s transfer destinations (billing, desk). Nobody was called.',
    );
    const rt2 = fake.callFor(refusedId)!;
    expect(rt2.refers).to.deep.equal([]);
    expect(referPaths(rt2.id)).to.have.length(0);
    expect(refused.turns.filter((x) => x.role === 'assistant').at(-1).text).to.equal('You said: Fine.');
  });

  it('transfers a realtime call through the API by refer (warm asked: cold); a failed refer ends it failed', async () => {
    const t = await newTenant({ engine: 'realtime' });
    const id = await place(t, { caller: ['Hello?', 'WAIT 30000'] });
    await waitForCall(t.testKey, id, () => (fake.callFor(id)?.said.length ?? 0) >= 1, 30_000);
    const res = await request('POST', `/v1/calls/${id}/transfer`, {
      key: t.testKey,
      body: { to: '+14155550199', mode: 'warm', summary: 'Wants a person.' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'transferred', end_reason: 'transferred', transferred_to: '+14155550199' });
    expect(res.body.transfer).to.include({ mode: 'cold' });
    expect(fake.callFor(id)!.refers).to.deep.equal([{ target_uri: 'tel:+14155550199' }]);

    fake.referStatus = 500;
    const failedId = await place(t, { caller: ['Hello?', 'WAIT 30000'] });
    await waitForCall(t.testKey, failedId, () => (fake.callFor(failedId)?.said.length ?? 0) >= 1, 30_000);
    const failed = await request('POST', `/v1/calls/${failedId}/transfer`, {
      key: t.testKey,
      body: { to: '+14155550112' },
    });
    expect(failed.status, JSON.stringify(failed.body)).to.equal(200);
    expect(failed.body).to.include({ status: 'failed', end_reason: 'error' });
    const rt = fake.callFor(failedId)!;
    expect(referPaths(rt.id)).to.have.length(3); // a 5xx is retried, 3 tries
    expect(fake.requests.some((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`)).to.equal(true);
  });

  it("accepts the call with the version's turn detection (semantic_vad, eagerness, interrupt_response)", async () => {
    const t = await newTenant({
      engine: 'realtime',
      turn_taking: { turn_detection: { type: 'semantic_vad', eagerness: 'low' }, interrupt_response: false },
    });
    const { call } = await ended(t, await place(t, { caller: ['Hi.'] }));
    expect(call.status, JSON.stringify(call)).to.equal('completed');
    const accept = fake.callFor(call.id)!.accept as any;
    expect(accept.audio.input.turn_detection).to.deep.equal({
      type: 'semantic_vad',
      eagerness: 'low',
      interrupt_response: false,
      create_response: true,
    });
  });

  it('refuses recording_consent "ask" with engine "realtime" at save time, naming the param given', async () => {
    const t = await newTenant({ engine: 'realtime' });
    const ask = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { recording_consent: 'ask' },
    });
    expect(ask.status, JSON.stringify(ask.body)).to.equal(400);
    expect(ask.body.error).to.include({ code: 'parameter_invalid', param: 'recording_consent' });
    const created = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'RT', instructions: 'Talk.', engine: 'realtime', recording_consent: 'ask' },
    });
    expect(created.status).to.equal(400);
    expect(created.body.error.param).to.equal('recording_consent');
    const pipeline = await newTenant({ recording_consent: 'ask' });
    const toRealtime = await request('POST', `/v1/agents/${pipeline.agentId}`, {
      key: pipeline.testKey,
      body: { engine: 'realtime' },
    });
    expect(toRealtime.status).to.equal(400);
    expect(toRealtime.body.error.param).to.equal('engine');
    const announce = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { recording_consent: 'announce' },
    });
    expect(announce.status, JSON.stringify(announce.body)).to.equal(200);
  });

  it('re-attaches a socket that drops mid-call: no second greeting, the conversation goes on', async () => {
    const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
    fake.dropSocket = 'once';
    fake.dropAfterLine = 0;
    const { call, turns } = await ended(t, await place(t, { caller: ['First.', 'Second.', 'Third.'] }));
    expect(call, JSON.stringify(call)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const rt = fake.callFor(call.id)!;
    expect(rt.attaches).to.equal(2);
    const greetings = rt.clientEvents.filter((e) => e.type === 'response.create');
    expect(greetings, 'the greeting is asked for once').to.have.length(1);
    const spoken = turns.map((x) => `${x.role}: ${x.text}`);
    expect(spoken.filter((x) => x.includes('Hello from Acme.'))).to.have.length(1);
    expect(spoken.slice(1)).to.deep.equal([
      'caller: First.',
      'assistant: You said: First.',
      'caller: Second.',
      'assistant: You said: Second.',
      'caller: Third.',
      'assistant: You said: Third.',
    ]);
  });

  it('re-attaches a socket that drops while a function call runs: its output goes on the new socket, once', async () => {
    const t = await newTenant({ engine: 'realtime' });
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/rtc-slow-orders');
    // Slower than the drop (20 ms after the function call): the output is made once the first socket is gone.
    receiver.route('/rtc-slow-orders', async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { status: 200, body: '{"order":"A17"}' };
    });
    await useTools(t, [tool.id]);
    fake.dropSocket = 'once';
    fake.dropWhileCalls = true;
    fake.dropAfterLine = 1;
    const { call, turns } = await ended(
      t,
      await place(t, { caller: ['Hello.', 'TOOL lookup_order {"order_id":"A17"}', 'Thanks.'] }),
    );
    expect(call, JSON.stringify(call)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const rt = fake.callFor(call.id)!;
    expect(rt.attaches, 'the first socket and one re-attach').to.equal(2);
    expect(receiver.at('/rtc-slow-orders'), 'the tool ran once').to.have.length(1);
    const outputs = rt.clientEvents.flatMap((e) =>
      e.type === 'conversation.item.create' && e.item.type === 'function_call_output' ? [e.item.output] : [],
    );
    expect(outputs, 'the output sent once, on the second socket').to.deep.equal(['{"order":"A17"}']);
    const spoken = turns.map((x) => `${x.role}: ${x.role === 'tool' ? x.tool.name : x.text}`);
    expect(spoken.slice(spoken.indexOf('caller: Hello.'))).to.deep.equal([
      'caller: Hello.',
      'assistant: You said: Hello.',
      'caller: TOOL lookup_order {"order_id":"A17"}',
      'tool: lookup_order',
      'assistant: Tool said: {"order":"A17"}',
      'caller: Thanks.',
      'assistant: You said: Thanks.',
    ]);
  });

  it('ends the call error with its transcript when the socket keeps dropping', async () => {
    const t = await newTenant({ engine: 'realtime' });
    fake.dropSocket = 'always';
    fake.dropAfterLine = 0;
    const { call, turns } = await ended(t, await place(t, { caller: ['First.', 'Second.'] }));
    expect(call, JSON.stringify(call)).to.include({ status: 'failed', end_reason: 'error' });
    expect(call.engine_fallback).to.equal(null);
    expect(fake.callFor(call.id)!.attaches).to.equal(4); // the first socket and 3 re-attaches
    expect(turns.map((x) => `${x.role}: ${x.text}`).slice(-2)).to.deep.equal([
      'caller: First.',
      'assistant: You said: First.',
    ]);
  });

  it('runs nothing of an answer the caller interrupted (a tool call and an end_call); the call goes on', async () => {
    const t = await newTenant({ engine: 'realtime' });
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/rtc-orders');
    receiver.route('/rtc-orders', () => ({ status: 200, body: '{"order":"A17"}' }));
    await useTools(t, [tool.id]);
    const { call, turns } = await ended(
      t,
      await place(t, {
        caller: ['TOOL lookup_order {"order_id":"A17"} && TOOL end_call {}', 'Wait, no!', 'Tell me more.', 'Bye.'],
        barge_ins: [{ line: 1 }, { line: 3, heard: 'You said: Tell' }],
      }),
    );
    expect(call, JSON.stringify(call)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    expect(receiver.at('/rtc-orders'), 'the tool server got no request').to.have.length(0);
    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => x.tool.name)).to.deep.equal(['lookup_order', 'end_call']);
    for (const x of tools) {
      expect(x.outcome, JSON.stringify(x)).to.equal('dropped');
      expect(x.reason).to.equal('interrupted');
      expect(x.text).to.match(/^Not run: the caller talked over your answer/);
    }
    // Each function call answered (the model stays consistent), no answer asked for after them.
    const rt = fake.callFor(call.id)!;
    const sent = rt.clientEvents;
    const outputs = sent.filter((e) => e.type === 'conversation.item.create');
    expect(outputs).to.have.length(2);
    const afterOutputs = sent.slice(sent.indexOf(outputs[1]) + 1);
    expect(afterOutputs.filter((e) => e.type === 'response.create')).to.have.length(0);
    // The transcript keeps what was heard: nothing of the first answer, "You said: Tell" of the third.
    const all = turns
      .filter((x) => x.role !== 'tool')
      .map((x) => `${x.role}: ${x.text}${x.interrupted ? ' [cut]' : ''}`);
    // From the caller's first line on (an opening, such as the AI disclosure, is not what this is about).
    const spoken = all.slice(all.findIndex((x) => x.startsWith('caller:')));
    expect(spoken).to.deep.equal([
      'caller: TOOL lookup_order {"order_id":"A17"} && TOOL end_call {}',
      'assistant:  [cut]',
      'caller: Wait, no!',
      'assistant: You said: Wait, no!',
      'caller: Tell me more.',
      'assistant: You said: Tell [cut]',
      'caller: Bye.',
      'assistant: You said: Bye.',
    ]);
  });
});
