/**
 * The realtime engine (OpenAI's Realtime API over SIP) through the real API, Temporal and worker, against
 * the loopback fake of the Realtime API (test/support/fake-openai-realtime.ts): an agent's `engine` is
 * refused without an OpenAI project; a test-mode realtime call is greeted, takes two turns, runs an http
 * tool with the key the pipeline's tool activity would use (run by the sideband itself: no `runTool` in the
 * workflow's history; one signed request with its `Idempotency-Key`, one transcript entry) and ends by `hangup`; a failing `accept` (500) falls back to
 * the pipeline on the same call (`engine_fallback`, the greeting said once); the webhook refuses a bad
 * signature (401, nothing changed) and rejects a call it does not know.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { callWorkflowId } from '../../src/shared/calls';
import { h, request, waitForCall, newTenant } from '../support/harness';
import { useFakeRealtime } from '../support/realtime-fixture';
import { createHttpTool, useTools } from '../support/tools';

describe('realtime calls: the speech-to-speech engine over SIP', function () {
  this.timeout(120_000);
  const realtime = useFakeRealtime();
  const { withRealtime } = realtime;

  /** Places a test call of `tenant`'s agent whose caller says `lines`; answers the ended call and its turns. */
  async function callSaying(tenant: { testKey: string; agentId: string }, lines: string[]) {
    const placed = await request('POST', '/v1/calls', {
      key: tenant.testKey,
      body: { to: '+14155550123', agent_id: tenant.agentId, simulation: { caller: lines } },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const ended = await waitForCall(tenant.testKey, placed.body.id, undefined, 60_000);
    const tr = await request('GET', `/v1/calls/${placed.body.id}/transcript`, { key: tenant.testKey });
    expect(tr.status).to.equal(200);
    return { call: ended, turns: tr.body.turns as any[] };
  }

  it('refuses engine "realtime" without an OpenAI project (400 naming engine); accepts it with one', async () => {
    const t = await newTenant();
    const before = config();
    setConfig({ ...before, openaiRealtime: null });
    try {
      const refused = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'RT', instructions: 'Talk.', engine: 'realtime' },
      });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.param).to.equal('engine');
      const update = await request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body: { engine: 'realtime' } });
      expect(update.status).to.equal(400);
      expect(update.body.error.param).to.equal('engine');
    } finally {
      setConfig(before);
    }
    const agent = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
    expect(agent.body.engine).to.equal('pipeline');
    await withRealtime(async () => {
      const ok = await request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body: { engine: 'realtime' } });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.engine).to.equal('realtime');
      const versions = await request('GET', `/v1/agents/${t.agentId}/versions`, { key: t.testKey });
      expect(versions.body.data[0].config.engine).to.equal('realtime');
    });
  });

  it('greets, takes two turns, runs a tool as the pipeline does and ends by hangup', async () => {
    await withRealtime(async () => {
      const { fake, receiver } = realtime;
      const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
      const tool = await createHttpTool(t, receiver, 'lookup_order', '/rt-orders');
      receiver.route('/rt-orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
      await useTools(t, [tool.id]);
      const { call, turns } = await callSaying(t, [
        'I have a question.',
        'TOOL lookup_order {"order_id":"A17"}',
        'Thanks.',
        'TOOL end_call {}',
      ]);
      expect(call.status, JSON.stringify(call)).to.equal('completed');
      expect(call.end_reason).to.equal('assistant_ended');
      expect(call.engine).to.equal('realtime');
      expect(call.engine_fallback).to.equal(null);

      const rt = fake.callFor(call.id)!;
      expect(rt, 'the simulated SIP leg carried the call id header').to.not.equal(undefined);
      const accept = rt.accept as any;
      expect(accept.type).to.equal('realtime');
      expect(accept.instructions).to.contain('You confirm appointments.');
      expect(accept.tools.map((x: any) => x.name)).to.include.members(['end_call', 'lookup_order']);
      expect(fake.requests.some((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`)).to.equal(true);

      // One request at the tool server, with the key the transcript's tool entry has.
      const got = receiver.at('/rt-orders');
      expect(got).to.have.length(1);
      const key = got[0].headers['idempotency-key'] as string;
      expect(key).to.match(/^tc_[0-9a-z]{26}$/);
      const toolTurns = turns.filter((x) => x.role === 'tool');
      expect(toolTurns.map((x) => x.tool.name)).to.deep.equal(['lookup_order', 'end_call']);
      expect(toolTurns[0].tool_call_id).to.equal(key);
      expect(toolTurns[0]).to.include({ status: 200 });
      // The sideband ran it (the tool was neither a local activity nor an activity task of the workflow).
      const history = await h().env.client.workflow.getHandle(callWorkflowId(call.id)).fetchHistory();
      const runTools = (history.events ?? []).filter(
        (e) =>
          e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool' ||
          (e.markerRecordedEventAttributes?.markerName === 'core_local_activity' &&
            Buffer.from(e.markerRecordedEventAttributes.details!.data!.payloads![0]!.data!)
              .toString()
              .includes('runTool')),
      );
      expect(runTools, 'no runTool in the history: the sideband ran the call').to.have.length(0);

      const spoken = turns.filter((x) => x.role !== 'tool').map((x) => `${x.role}: ${x.text}`);
      // The greeting: the opening a pipeline call says (the AI disclosure, then the first message), said by the model.
      expect(spoken[0]).to.match(/^assistant: .*Hello from Acme\.$/);
      expect(spoken.slice(1)).to.deep.equal([
        'caller: I have a question.',
        'assistant: You said: I have a question.',
        'caller: TOOL lookup_order {"order_id":"A17"}',
        `assistant: Tool said: ${JSON.stringify({ order: 'A17', status: 'shipped' })}`,
        'caller: Thanks.',
        'assistant: You said: Thanks.',
        'caller: TOOL end_call {}',
      ]);
      // The tool's output went back on the socket, then the model was asked to go on.
      const sent = rt.clientEvents.map((e) => e.type);
      const out = sent.indexOf('conversation.item.create');
      expect(out).to.be.greaterThan(-1);
      expect(sent[out + 1]).to.equal('response.create');
    });
  });

  it('falls back to the pipeline on the same call when accept answers 500', async () => {
    await withRealtime(async () => {
      const { fake } = realtime;
      const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
      fake.acceptStatus = 500;
      try {
        const { call, turns } = await callSaying(t, ['Is it open?']);
        expect(call.status, JSON.stringify(call)).to.equal('completed');
        expect(call.engine).to.equal('realtime');
        expect(call.engine_fallback).to.equal('accept_failed');
        const rt = fake.callFor(call.id)!;
        expect(rt.state).to.equal('ringing'); // never accepted, no socket
        const spoken = turns.map((x) => `${x.role}: ${x.text}`);
        // The greeting once (the pipeline's opening), then the conversation on the pipeline's model.
        expect(spoken.filter((x) => x.includes('Hello from Acme.'))).to.deep.equal(['assistant: Hello from Acme.']);
        expect(spoken.slice(spoken.indexOf('assistant: Hello from Acme.') + 1)).to.deep.equal([
          'caller: Is it open?',
          'assistant: You said: Is it open?',
        ]);
      } finally {
        fake.acceptStatus = null;
      }
    });
  });

  it('falls back when the session errors before its first answer; a caller who hangs up ends the call', async () => {
    await withRealtime(async () => {
      const { fake } = realtime;
      const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
      fake.sessionError = true;
      try {
        const { call, turns } = await callSaying(t, ['Is it open?']);
        expect(call.status, JSON.stringify(call)).to.equal('completed');
        expect(call.engine_fallback).to.equal('session_error');
        const spoken = turns.map((x) => `${x.role}: ${x.text}`);
        expect(spoken.filter((x) => x.includes('Hello from Acme.'))).to.deep.equal(['assistant: Hello from Acme.']);
        expect(spoken.at(-1)).to.equal('assistant: You said: Is it open?');
      } finally {
        fake.sessionError = false;
      }
      // No end_call: the caller's lines are over and the caller hangs up (the session's socket closes).
      const { call, turns } = await callSaying(t, ['Just checking.']);
      expect(call.status, JSON.stringify(call)).to.equal('completed');
      expect(call.end_reason).to.equal('caller_hung_up');
      expect(call.engine_fallback).to.equal(null);
      expect(turns.map((x) => `${x.role}: ${x.text}`).slice(1)).to.deep.equal([
        'caller: Just checking.',
        'assistant: You said: Just checking.',
      ]);
      const rt = fake.callFor(call.id)!;
      expect(fake.requests.some((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`)).to.equal(false);
    });
  });

  it('answers a bad signature 401 and changes nothing; rejects a call it does not know', async () => {
    await withRealtime(async () => {
      const { fake } = realtime;
      const body = JSON.stringify({
        object: 'event',
        id: 'evt_test_1',
        type: 'realtime.call.incoming',
        created_at: Math.floor(Date.now() / 1000),
        data: { call_id: 'rtc_unknown_1', sip_headers: [{ name: 'X-Svc-Call-Id', value: 'call_nope' }] },
      });
      const before = fake.requests.length;
      const forged = await fetch(`${h().api.url}/openai/realtime/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...fake.sign(body, 'whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA=='),
        },
        body,
      });
      expect(forged.status).to.equal(401);
      expect(((await forged.json()) as any).error.code).to.equal('webhook_signature_invalid');
      expect(fake.requests.length, 'no reject, no accept').to.equal(before);

      const unsigned = await fetch(`${h().api.url}/openai/realtime/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(unsigned.status).to.equal(401);

      for (const type of ['realtime.call.incoming', 'live.transport.incoming']) {
        const signed = body.replace('realtime.call.incoming', type);
        const ok = await fetch(`${h().api.url}/openai/realtime/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...fake.sign(signed) },
          body: signed,
        });
        expect(ok.status, type).to.equal(200);
      }
      const rejects = fake.requests.filter((r) => r.path === '/v1/realtime/calls/rtc_unknown_1/reject');
      expect(rejects).to.have.length(2);
      expect(rejects[0].body).to.deep.equal({ status_code: 404 });
    });
  });
});
