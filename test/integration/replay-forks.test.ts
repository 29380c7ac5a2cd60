/**
 * `fork` replays of recorded calls (src/services/replay-forks.ts), against the real Temporal dev server
 * and FerretDB, the loopback LLM (test/support/fake-llm.ts: its persona plays the default script, or the
 * `FAKE_PERSONA:` script a recorded caller line carries, since the persona is seeded by those lines) and a
 * loopback tool server. Four recorded test calls (three with a tool call), then the tool server changes
 * its answer: a fork replay from turn 2 plays each call again as a test-mode call that reaches its end,
 * the recorded results are served for the same arguments, a new argument gets a made-up result marked
 * `generated`, the tool server gets no request, and the judge gives each call's verdict by the rubric. A
 * version's `replay_rubric` is the rubric of a replay that gives none (the judge and the comparer get it).
 * Bad input: `from_turn` without `fork`, an empty or too long `replay_rubric` (a live key's fork:
 * test/integration/replay-fork-mocks.test.ts).
 */
import { expect } from 'chai';
import { CallTurn } from '../../src/models/calls';
import type { FakeLlm } from '../support/fake-llm';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createHttpTool, useTools } from '../support/tools';
import { eventually, type Tenant } from '../support/webhooks';

/** The recorded callers' lines: a persona takes over from the second line of each. */
const SCRIPTS: string[][] = [
  ['TOOLONCE lookup_order {"order_id":"A17"}', 'Thanks.'],
  ['TOOLONCE lookup_order {"order_id":"B2"}', 'Any discount on that?'],
  ['Hello there.', 'Is there a discount for me?'],
  [
    'TOOLONCE lookup_order {"order_id":"D4"}',
    'FAKE_PERSONA: unused | TOOLONCE lookup_order {"order_id":"NEW1"} | BYE Bye now.',
  ],
];

describe('fork replays of recorded calls: persona callers, mocked tools', function () {
  this.timeout(240_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  const callIds: string[] = [];
  let draft: number;

  before(async () => {
    t = await newTenant({ instructions: 'You sell shoes. Offer the spring discount.' });
    receiver = await startHttpsReceiver();
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ status: 'shipped' }) }));
    await useTools(t, [tool.id]);
    for (const [i, lines] of SCRIPTS.entries()) {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: `+1415555020${i}`, agent_id: t.agentId, simulation: { caller: lines } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      callIds.push(res.body.id);
    }
    for (const id of callIds)
      expect((await waitForCall(t.testKey, id, undefined, 60_000)).status).to.equal('completed');
    expect(receiver.at('/orders')).to.have.length(3);
    // Were the tool server asked again, the fork would get this answer instead of the recorded one.
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ status: 'lost' }) }));
    const edited = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { instructions: 'You sell shoes. Never offer a discount.', publish: false },
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    draft = edited.body.latest_version;
  });
  after(async () => receiver?.close());

  it('each call reaches its end with the recorded tool results served; the tool server gets no request', async () => {
    const created = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version: draft, mode: 'fork', from_turn: 2, call_ids: callIds, rubric: 'The assistant answers.' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ mode: 'fork', from_turn: 2, status: 'running' });
    const replay = await eventually(
      async () => {
        const res = await request('GET', `/v1/agents/${t.agentId}/replays/${created.body.id}`, { key: t.testKey });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.status === 'completed' ? res.body : undefined;
      },
      'fork replay completed',
      120_000,
    );
    expect(replay.progress).to.deep.include({ total: 4, completed: 4, errored: 0, skipped: 0 });
    const forkedIds: string[] = replay.calls.map((c: any) => c.forked_call_id);
    expect(new Set(forkedIds).size).to.equal(4);
    for (const [i, c] of replay.calls.entries()) {
      expect(c.call_id).to.equal(callIds[i]);
      expect(c.summary.fork).to.include({ call_id: c.forked_call_id });
      expect(c.summary.fork.status).to.deep.equal({ original: 'completed', forked: 'completed' });
      expect(c.summary.turns, `call ${i} answered`).to.be.greaterThan(0);
      // The test-suite judge by the replay's rubric, of both calls (the loopback judge passes with 90).
      const passed = { verdict: 'pass', score: 90 };
      expect(c.summary.fork.judge).to.deep.equal({ original: passed, forked: passed });
      expect(c.summary.tokens.replayed.prompt).to.be.greaterThan(0);
      const forked = await waitForCall(t.testKey, c.forked_call_id, undefined, 10_000);
      expect(forked).to.include({ status: 'completed', agent_id: t.agentId });
      expect(forked.metadata).to.deep.equal({ replay: replay.id, replayed_call: callIds[i] });
    }
    const tools = (i: number) => CallTurn.find({ call_id: forkedIds[i], role: 'tool' }).sort({ seq: 1 }).lean();
    // The same arguments: the recorded result, not what the tool server says now.
    for (const i of [0, 1]) {
      const [turn, ...more] = await tools(i);
      expect(more).to.deep.equal([]);
      expect(turn).to.include({ tool_name: 'lookup_order', text: JSON.stringify({ status: 'shipped' }) });
      expect(turn.tool_mocked).to.equal('recorded');
      expect(replay.calls[i].summary.fork.tool_results).to.deep.equal({ recorded: 1, mock_rule: 0, generated: 0 });
      expect(replay.calls[i].summary.tool_calls).to.deep.equal({ added: [], removed: [] });
    }
    // The persona's new arguments: a made-up result, marked, from the model; still no request to the server.
    const [d4, new1] = await tools(3);
    expect(d4).to.include({ text: JSON.stringify({ status: 'shipped' }), tool_mocked: 'recorded' });
    expect(new1.tool_arguments_json).to.equal('{"order_id":"NEW1"}');
    expect(new1.tool_mocked).to.equal('generated');
    const asked = h().llm.requests.filter((r) => r.user === forkedIds[3] && r.messages?.[0]?.role === 'system');
    const made = asked.find((r) => String(r.messages[0].content).startsWith('You stand in for a tool'));
    expect(made, 'a made-up result was asked of the model').to.not.equal(undefined);
    expect(String(made!.messages[1].content)).to.include('{"order_id":"NEW1"}');
    expect(new1.text).to.equal(`You said: ${made!.messages[1].content}`);
    expect(replay.calls[3].summary.fork).to.deep.include({
      changed: true,
      tool_results: { recorded: 1, mock_rule: 0, generated: 1 },
    });
    expect(replay.calls[3].summary.tool_calls.added).to.deep.equal(['lookup_order']);
    // The caller's first line said as recorded, then the persona (seeded by the recorded lines).
    const callers = await CallTurn.find({ call_id: forkedIds[2], role: 'caller' }).sort({ seq: 1 }).lean();
    expect(callers[0].text).to.equal('Hello there.');
    expect(callers.length).to.be.greaterThan(1);
    const persona = h().llm.requests.find(
      (r) => r.user === forkedIds[2] && String(r.messages?.[0]?.content).startsWith('You are the CALLER'),
    );
    expect(String(persona!.messages[0].content)).to.include('2. Is there a discount for me?');
    expect(receiver.at('/orders'), 'no request to the tool server').to.have.length(3);
  });

  it('a rubric per agent version: used when the replay gives none (rubric_source agent); the judge and the comparer get it', async () => {
    const edit = (body: unknown) => request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body });
    for (const bad of ['   ', 'x'.repeat(4001)]) {
      const res = await edit({ replay_rubric: bad, publish: false });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ type: 'invalid_request_error', param: 'replay_rubric' });
    }
    const rubric = 'FAKE_JUDGE:fail The assistant never mentions a discount.';
    const edited = await edit({
      instructions: 'You sell shoes. Never offer a discount.',
      replay_rubric: rubric,
      publish: false,
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.replay_rubric, 'the published version keeps none').to.equal(null);
    const version = edited.body.latest_version;
    const stored = await request('GET', `/v1/agents/${t.agentId}/versions/${version}`, { key: t.testKey });
    expect(stored.body.config.replay_rubric).to.equal(rubric);

    const replayOf = async (body: Record<string, unknown>) => {
      const created = await request('POST', `/v1/agents/${t.agentId}/replays`, { key: t.testKey, body });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      return eventually(
        async () => {
          const res = await request('GET', `/v1/agents/${t.agentId}/replays/${created.body.id}`, { key: t.testKey });
          return res.body.status === 'completed' ? res.body : undefined;
        },
        `replay ${created.body.id} completed`,
        120_000,
      );
    };
    const system = (r: FakeLlm['requests'][number]) => String(r.messages?.[0]?.content ?? '');
    const fork = await replayOf({ version, mode: 'fork', call_ids: [callIds[2]] });
    expect(fork).to.include({ rubric, rubric_source: 'agent' });
    const forkedId = fork.calls[0].forked_call_id;
    // The test-suite judge got the version's rubric, for the recorded call and the forked one.
    for (const id of [callIds[2], forkedId]) {
      const judged = h().llm.requests.filter(
        (r) => r.user === id && system(r).startsWith('You judge a simulated phone call'),
      );
      expect(judged, `judge of ${id}`).to.have.length.greaterThan(0);
      // The latest: the recorded call was judged by the first test's rubric before.
      expect(system(judged.at(-1)!)).to.include(`Judge the assistant by this rubric: ${rubric}`);
    }
    const failed = { verdict: 'fail', score: 20 };
    expect(fork.calls[0].summary.fork.judge).to.deep.equal({ original: failed, forked: failed });

    // `turn` mode: the comparer decides by the version's rubric too.
    const turn = await replayOf({ version, call_ids: [callIds[2]] });
    expect(turn).to.include({ rubric, rubric_source: 'agent' });
    const compared = h().llm.requests.filter(
      (r) => r.user === `${turn.id}:${callIds[2]}` && system(r).startsWith('You compare two answers'),
    );
    expect(compared).to.have.length.greaterThan(0);
    expect(system(compared[0])).to.include(`Decide by this rubric: ${rubric}`);

    // The request's own rubric wins; a version without one and a request without one: none.
    const own = await replayOf({ version, call_ids: [callIds[2]], rubric: 'Any offer counts.' });
    expect(own).to.include({ rubric: 'Any offer counts.', rubric_source: 'replay' });
    const none = await replayOf({ version: draft, call_ids: [callIds[2]] });
    expect(none).to.include({ rubric: null, rubric_source: null });
  });

  it('bad input: from_turn without fork', async () => {
    const noFork = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version: draft, from_turn: 2, call_ids: callIds },
    });
    expect(noFork.status).to.equal(400);
    expect(noFork.body.error.param).to.equal('from_turn');
  });
});
