/**
 * Turn-taking and "nothing happens that the caller did not hear", through the real API, Temporal, the
 * fake LLM and a loopback HTTPS tool server, on test-mode calls whose scripted caller barges in
 * (`simulation.barge_ins`):
 * - an answer with a tool call and `end_call` that the caller talks over: neither runs, the call goes on,
 *   the transcript keeps what was heard and marks both calls dropped (and the same answer heard whole does
 *   both: the control);
 * - a backchannel ("mhmm") over the assistant neither interrupts it nor starts a model turn, and is kept
 *   marked; a line that is not one cuts the answer;
 * - a `confirm: true` tool runs only after the caller's yes in the next turn, never after a no;
 * - `turn_taking` validated (400 naming the param), stored in versions and shown.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { placeCall, type Tenant } from '../support/webhooks';
import { createHttpTool, useTools } from '../support/tools';
import { postAsTwilio, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { relayClient } from '../support/relay-client';

/** Places a test call with `simulation`; answers the ended call and its transcript turns. */
async function simulated(tenant: Tenant, simulation: Record<string, unknown>) {
  const call = await placeCall(tenant, { simulation });
  const ended = await waitForCall(tenant.testKey, call.id, undefined, 60_000);
  const tr = await request('GET', `/v1/calls/${call.id}/transcript`, { key: tenant.testKey });
  expect(tr.status).to.equal(200);
  const all = tr.body.turns as any[];
  // From the caller's first line on (an opening, such as the AI disclosure, is not what these tests are about).
  return { call: ended, turns: all.slice(all.findIndex((x) => x.role === 'caller')) };
}

const llmRequestsOf = (callId: string) => h().llm.requests.filter((r) => r.user === callId);

describe('turn-taking: barge-ins, backchannels and actions only from what was heard', function () {
  this.timeout(120_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  before(async () => {
    t = await newTenant();
    receiver = await startHttpsReceiver();
    const lookup = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    const book = await createHttpTool(t, receiver, 'book_slot', '/book', { confirm: true });
    expect(book.confirm).to.equal(true);
    expect(lookup.confirm).to.equal(false);
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ status: 'shipped' }) }));
    receiver.route('/book', () => ({ status: 200, body: JSON.stringify({ booked: true }) }));
    await useTools(t, [lookup.id, book.id]);
  });
  after(async () => receiver.close());

  const ACTING = 'TOOLSONCE [["lookup_order",{"order_id":"A17"}],["end_call",{}]]';

  it('drops the tool call and end_call of an answer the caller talked over: the call goes on', async () => {
    const before = receiver.at('/orders').length;
    const { call, turns } = await simulated(t, {
      caller: [ACTING, 'Wait, one more thing.', 'Thanks.'],
      barge_ins: [{ line: 1, heard: 'Calling' }],
    });
    expect(call.status).to.equal('completed');
    expect(call.end_reason, 'end_call never ran: the scripted caller hung up at the end').to.equal('caller_hung_up');
    expect(receiver.at('/orders').length - before, 'the tool server got no request').to.equal(0);

    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => [x.name, x.outcome, x.reason])).to.deep.equal([
      ['lookup_order', 'dropped', 'interrupted'],
      ['end_call', 'dropped', 'interrupted'],
    ]);
    // What was heard of the answer, then the caller's line, answered.
    const spoken = turns.filter((x) => x.role !== 'tool').map((x) => [x.role, x.text, x.interrupted ?? false]);
    expect(spoken).to.deep.equal([
      ['caller', ACTING, false],
      ['assistant', 'Calling', true],
      ['caller', 'Wait, one more thing.', false],
      ['assistant', 'You said: Wait, one more thing.', false],
      ['caller', 'Thanks.', false],
      ['assistant', 'You said: Thanks.', false],
    ]);
    // The model was told the calls did not run, and heard only what the caller heard.
    const next = llmRequestsOf(call.id)[1];
    const told = next.messages.filter((m: any) => m.role === 'tool').map((m) => m.content);
    expect(told).to.have.length(2);
    for (const text of told) expect(text).to.match(/^Not run: the caller talked over your answer/);
    expect(next.messages.some((m) => m.role === 'assistant' && m.content === 'Calling')).to.equal(true);
  });

  it('runs the same answer heard whole: the tool is called and end_call ends the call (control)', async () => {
    const before = receiver.at('/orders').length;
    const { call, turns } = await simulated(t, { caller: [ACTING, 'Never heard.'] });
    expect(call.end_reason).to.equal('assistant_ended');
    expect(receiver.at('/orders').length - before).to.equal(1);
    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => [x.name, x.outcome ?? null])).to.deep.equal([
      ['lookup_order', null],
      ['end_call', null],
    ]);
  });

  it('a backchannel over the assistant interrupts nothing and starts no turn; another line cuts the answer', async () => {
    const { call, turns } = await simulated(t, {
      caller: ['Hello there.', 'Mhmm, yeah.', 'What are your hours?', 'Stop, please.'],
      barge_ins: [{ line: 1 }, { line: 3, heard: 'You said:' }],
    });
    expect(call.status).to.equal('completed');
    expect(turns.map((x) => [x.role, x.text, x.interrupted ?? false, x.backchannel ?? false])).to.deep.equal([
      ['caller', 'Hello there.', false, false],
      ['assistant', 'You said: Hello there.', false, false],
      ['caller', 'Mhmm, yeah.', false, true],
      ['caller', 'What are your hours?', false, false],
      ['assistant', 'You said:', true, false],
      ['caller', 'Stop, please.', false, false],
      ['assistant', 'You said: Stop, please.', false, false],
    ]);
    // Three model turns, not four; the model never saw the backchannel.
    const asked = llmRequestsOf(call.id);
    expect(asked).to.have.length(3);
    for (const r of asked) expect(r.messages.some((m) => m.content === 'Mhmm, yeah.')).to.equal(false);
  });

  it('a confirm: true tool runs only after the caller says yes in the next turn', async () => {
    const before = receiver.at('/book').length;
    const { call, turns } = await simulated(t, {
      caller: ['TOOLONCE book_slot {"order_id":"A1"}', 'Yes, please do.'],
    });
    expect(call.status).to.equal('completed');
    expect(receiver.at('/book').length - before, 'one request, after the yes').to.equal(1);
    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => [x.name, x.outcome, x.reason ?? null])).to.deep.equal([
      ['book_slot', 'held', 'confirmation_required'],
      ['book_slot', 'confirmed', null],
    ]);
    expect(tools[1].result).to.equal(JSON.stringify({ booked: true }));
    // Held first: the model asked; the yes came in the caller's next turn, before the tool ran.
    const seqOf = (pred: (x: any) => boolean) => turns.findIndex(pred);
    expect(seqOf((x) => x.text === 'Yes, please do.')).to.be.lessThan(seqOf((x) => x.outcome === 'confirmed'));
  });

  it('a confirm: true tool never runs after a no', async () => {
    const before = receiver.at('/book').length;
    const { turns } = await simulated(t, { caller: ['TOOLONCE book_slot {"order_id":"A1"}', 'No, not yet.'] });
    expect(receiver.at('/book').length - before).to.equal(0);
    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => [x.outcome, x.reason])).to.deep.equal([
      ['held', 'confirmation_required'],
      ['dropped', 'not_confirmed'],
    ]);
  });

  it('validates turn_taking (400 naming the param), stores it in versions and shows it', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ interruptible: 'sometimes' }, 'turn_taking.interruptible'],
      [{ preemptible: 'yes' }, 'turn_taking.preemptible'],
      [{ interrupt_sensitivity: 'extreme' }, 'turn_taking.interrupt_sensitivity'],
      [{ turn_detection: { type: 'server_vad', threshold: 1.5 } }, 'turn_taking.turn_detection.threshold'],
      [
        { turn_detection: { type: 'server_vad', silence_duration_ms: 20 } },
        'turn_taking.turn_detection.silence_duration_ms',
      ],
      [{ turn_detection: { type: 'semantic_vad', eagerness: 'eager' } }, 'turn_taking.turn_detection.eagerness'],
      [{ turn_detection: { type: 'magic_vad' } }, 'turn_taking.turn_detection.type'],
      [{ interrupt_response: 1 }, 'turn_taking.interrupt_response'],
      [{ backchannels: { en: [''] } }, 'turn_taking.backchannels.en.0'],
      [{ hints: ['a,b'] }, 'turn_taking.hints.0'],
    ];
    for (const [turnTaking, param] of bad) {
      const res = await request('POST', `/v1/agents/${t.agentId}`, {
        key: t.testKey,
        body: { turn_taking: turnTaking },
      });
      expect(res.status, JSON.stringify(turnTaking)).to.equal(400);
      expect(res.body.error, JSON.stringify(turnTaking)).to.include({ type: 'invalid_request_error', param });
    }
    const turnTaking = {
      interruptible: 'dtmf',
      preemptible: false,
      turn_detection: { type: 'semantic_vad', eagerness: 'low' },
      interrupt_response: false,
      backchannels: { en: ['mhmm', 'right'], es: [] },
    };
    const created = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Turns', instructions: 'Be brief.', turn_taking: turnTaking },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.turn_taking).to.deep.equal(turnTaking);
    const id = created.body.id;
    const updated = await request('POST', `/v1/agents/${id}`, {
      key: t.testKey,
      body: { turn_taking: { turn_detection: { type: 'server_vad', threshold: 0.7, silence_duration_ms: 800 } } },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body.version).to.equal(2);
    const v1 = await request('GET', `/v1/agents/${id}/versions/1`, { key: t.testKey });
    const v2 = await request('GET', `/v1/agents/${id}/versions/2`, { key: t.testKey });
    expect(v1.body.config.turn_taking).to.deep.equal(turnTaking);
    expect(v2.body.config.turn_taking).to.deep.equal({
      turn_detection: { type: 'server_vad', threshold: 0.7, silence_duration_ms: 800 },
    });
    const cleared = await request('POST', `/v1/agents/${id}`, { key: t.testKey, body: { turn_taking: null } });
    expect(cleared.body.turn_taking).to.equal(null);
    // A barge-in must name one of the caller's lines.
    const refused = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hi'], barge_ins: [{ line: 3 }] } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.param).to.match(/^simulation\.barge_ins/);
  });
});

describe('turn-taking on a live call: an interruption during the answer drops its end_call', function () {
  this.timeout(120_000);
  let t: Tenant;
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let receiver: HttpsReceiver;
  const ours = '+14155550187'; // a number no other test connects

  before(async () => {
    t = await newTenant();
    ({ fake, restore } = await useFakeTwilio());
    receiver = await startHttpsReceiver();
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Heard', instructions: 'Be brief.' },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const tool = await request('POST', '/v1/tools', {
      key: t.liveKey,
      body: {
        type: 'http',
        name: 'lookup_order',
        description: 'Looks an order up.',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
        url: receiver.url('/live-orders'),
      },
    });
    expect(tool.status, JSON.stringify(tool.body)).to.equal(200);
    receiver.route('/live-orders', () => ({ status: 200, body: '{"status":"shipped"}' }));
    const withTool = await request('POST', `/v1/agents/${agent.body.id}`, {
      key: t.liveKey,
      body: { tool_ids: [tool.body.id] },
    });
    expect(withTool.status).to.equal(200);
    t = { ...t, agentId: agent.body.id };
    const number = await request('POST', '/v1/phone_numbers', {
      key: t.liveKey,
      body: { number: ours, channels: ['voice'], agent_id: agent.body.id },
    });
    expect(number.status, JSON.stringify(number.body)).to.equal(200);
  });
  after(async () => {
    await receiver.close();
    await restore();
  });

  it('the caller talks over an answer that ends the call: nothing runs, the call goes on', async () => {
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: ours, agent_id: t.agentId },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.id as string;
    await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
    const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
    await postAsTwilio(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    const session = await relayClient(id, sid, fake.authToken, { from: ours, to: '+14155550123' });
    session.ws.send(JSON.stringify({ type: 'prompt', voicePrompt: ACTING_LIVE, lang: 'en-US', last: true }));
    // The answer's words stream out; the caller talks over them before they can have been heard.
    const deadline = Date.now() + 10_000;
    while (!session.raw.some((r) => r.msg.type === 'text' && r.msg.last === false) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    session.ws.send(
      JSON.stringify({ type: 'interrupt', utteranceUntilInterrupt: 'Calling', durationUntilInterruptMs: 300 }),
    );
    session.ws.send(
      JSON.stringify({ type: 'prompt', voicePrompt: 'Wait, one more thing.', lang: 'en-US', last: true }),
    );
    const answers: any[] = [];
    while (answers.length < 2) answers.push(await session.next());
    expect(answers.map((a) => a.type)).to.deep.equal(['text', 'text']);
    expect(answers[1].token).to.equal('You said: Wait, one more thing.');
    expect(
      session.raw.some((r) => r.msg.type === 'end'),
      'the session was not ended',
    ).to.equal(false);
    expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body.status).to.equal('in_progress');
    expect(receiver.at('/live-orders')).to.have.length(0);
    session.ws.close();
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
    await waitForCall(t.liveKey, id);
    const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns as any[];
    expect(turns.filter((x) => x.role === 'tool').map((x) => [x.name, x.outcome, x.reason])).to.deep.equal([
      ['lookup_order', 'dropped', 'interrupted'],
      ['end_call', 'dropped', 'interrupted'],
    ]);
    const cut = turns.find((x) => x.role === 'assistant' && x.interrupted);
    expect(cut?.text).to.equal('Calling');
  });
});

const ACTING_LIVE = 'TOOLSONCE [["lookup_order",{"order_id":"A17"}],["end_call",{}]]';
