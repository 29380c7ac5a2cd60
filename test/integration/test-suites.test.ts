/**
 * Simulated callers with personas and test suites graded by a judge, against the
 * real Temporal dev server and FerretDB, with the loopback LLM (test/support/fake-llm.ts) playing both the
 * assistant and the persona (and the judge): a persona call whose transcript alternates persona and
 * assistant lines and ends by the persona's hang-up, or after `max_turns`, or by a tool the persona's
 * line made the assistant call; bad persona input. A suite run with one passing and one failing scenario,
 * its `test_suite_run.completed` event, a second run compared with the first; a judge answering garbage
 * (or quoting words nobody said) makes the scenario `errored`; bad suite input. With RECORD_HISTORIES=1 the persona call's and a suite
 * run's workflow histories are written to test/replay/histories/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { UsageRecord } from '../../src/models/usage';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint, sleep } from '../support/webhooks';

/** The organization's AI disclosure (on by default): every call's first assistant turn. */
const DISCLOSURE = "You're speaking with an automated assistant.";

/** With RECORD_HISTORIES=1: writes workflow `workflowId`'s history (once closed) to test/replay/histories/<name>.json. */
async function keepHistory(workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const handle = h().env.client.workflow.getHandle(workflowId);
  await handle.result();
  const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
  const file = path.resolve(__dirname, '../../../test/replay/histories', `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
}

/** The persona requests the fake LLM got for call `callId` (the simulator's system prompt opens them). */
const personaRequests = (callId: string) =>
  h().llm.requests.filter(
    (r) => r.user === callId && String(r.messages[0]?.content ?? '').startsWith('You are the CALLER'),
  );

/** The transcript's turns of a call as `role: text`. */
async function transcript(key: string, callId: string): Promise<{ role: string; text: string }[]> {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.turns;
}

describe('persona callers', function () {
  this.timeout(120_000);

  it('plays a persona with the loopback LLM on both sides: lines alternate and the persona hangs up', async () => {
    const t = await newTenant({ first_message: 'Thanks for calling Luigi’s, how can I help?' });
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: {
          persona:
            'Maria, a regular customer. FAKE_PERSONA: I want a table for two. | At eight tonight. | BYE Perfect, goodbye.',
          goal: 'Book a table for two at 8 pm.',
          max_turns: 10,
        },
      },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const call = await waitForCall(t.testKey, placed.body.id);
    expect(call).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const turns = await transcript(t.testKey, call.id);
    expect(turns.map((x) => `${x.role}: ${x.text}`)).to.deep.equal([
      `assistant: ${DISCLOSURE}`,
      'assistant: Thanks for calling Luigi’s, how can I help?',
      'caller: I want a table for two.',
      'assistant: You said: I want a table for two.',
      'caller: At eight tonight.',
      'assistant: You said: At eight tonight.',
      'caller: Perfect, goodbye.',
    ]);

    // Each caller turn was one simulator request: the persona's prompt, then the call with roles flipped.
    const asked = personaRequests(call.id);
    expect(asked).to.have.length(3);
    expect(asked[0].messages[0].content).to.include('Maria, a regular customer').and.include('Book a table for two');
    expect(asked[0].tools!.map((x) => x.function.name)).to.deep.equal(['hang_up']);
    expect(asked[2].messages.slice(1)).to.deep.equal([
      { role: 'user', content: DISCLOSURE },
      { role: 'user', content: 'Thanks for calling Luigi’s, how can I help?' },
      { role: 'assistant', content: 'I want a table for two.' },
      { role: 'user', content: 'You said: I want a table for two.' },
      { role: 'assistant', content: 'At eight tonight.' },
      { role: 'user', content: 'You said: At eight tonight.' },
    ]);

    // Usage: only the assistant's requests are metered, never the simulator's.
    const assistantRequests = h().llm.requests.filter(
      (r) => r.user === call.id && !String(r.messages[0]?.content ?? '').startsWith('You are the CALLER'),
    );
    expect(assistantRequests).to.have.length(2);
    const rows = await UsageRecord.find({ org_id: t.orgId, livemode: false, kind: 'llm_request' }).lean();
    expect(rows).to.have.length(2);
    await keepHistory(call.id, 'call-persona');
  });

  it('ends after max_turns caller turns, and the text marker hangs up too', async () => {
    const t = await newTenant();
    // No opening at all (no first message, the AI disclosure off): the persona speaks first.
    expect((await request('POST', '/v1/account', { key: t.testKey, body: { ai_disclosure: false } })).status).to.equal(
      200,
    );
    const endless = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { persona: 'FAKE_PERSONA: One. | Two. | Three. | Four.', goal: 'Talk.', max_turns: 2 },
      },
    });
    const marked = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { persona: 'FAKE_PERSONA: Hi. | MARK Bye now.', goal: 'Say hello.' },
      },
    });
    const first = await waitForCall(t.testKey, endless.body.id);
    expect(first).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    expect((await transcript(t.testKey, first.id)).map((x) => `${x.role}: ${x.text}`)).to.deep.equal([
      'caller: One.',
      'assistant: You said: One.',
      'caller: Two.',
      'assistant: You said: Two.',
    ]);
    expect(personaRequests(first.id)).to.have.length(2);
    // No first message: the persona is told the call connected and speaks first.
    expect(personaRequests(first.id)[0].messages[1]).to.deep.equal({
      role: 'user',
      content: '(The call connects. You speak first.)',
    });
    const second = await waitForCall(t.testKey, marked.body.id);
    expect(second.end_reason).to.equal('caller_hung_up');
    expect((await transcript(t.testKey, second.id)).map((x) => x.text)).to.deep.equal([
      'Hi.',
      'You said: Hi.',
      'Bye now.',
    ]);
  });

  it("makes the assistant use a tool through the persona's line (end_call)", async () => {
    const t = await newTenant();
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { persona: 'FAKE_PERSONA: Hello. | TOOL end_call {} | Still there?', goal: 'Be hung up on.' },
      },
    });
    const call = await waitForCall(t.testKey, placed.body.id);
    expect(call).to.include({ status: 'completed', end_reason: 'assistant_ended' });
    const turns = await transcript(t.testKey, call.id);
    // The AI disclosure (on by default) first, then the persona's lines and the answers.
    expect(turns.map((x) => x.role)).to.deep.equal(['assistant', 'caller', 'assistant', 'caller', 'assistant', 'tool']);
    expect(turns[5]).to.include({ role: 'tool' });
    expect(personaRequests(call.id)).to.have.length(2);
  });

  it('refuses bad persona input with 400 naming the field', async () => {
    const t = await newTenant();
    const place = (simulation: unknown, key = t.testKey) =>
      request('POST', '/v1/calls', { key, body: { to: '+14155550123', agent_id: t.agentId, simulation } });
    const both = await place({ persona: 'Maria', goal: 'Book.', caller: ['Hi'] });
    expect(both.status).to.equal(400);
    expect(both.body.error).to.include({ param: 'simulation.persona' });
    const noGoal = await place({ persona: 'Maria' });
    expect(noGoal.status).to.equal(400);
    expect(noGoal.body.error).to.include({ param: 'simulation.goal', code: 'parameter_missing' });
    const tooMany = await place({ persona: 'Maria', goal: 'Book.', max_turns: 51 });
    expect(tooMany.body.error).to.include({ param: 'simulation.max_turns' });
    const empty = await place({ persona: '  ', goal: 'Book.' });
    expect(empty.body.error).to.include({ param: 'simulation.persona' });
    const long = await place({ persona: 'x'.repeat(2001), goal: 'Book.' });
    expect(long.body.error).to.include({ param: 'simulation.persona' });
    const turnsOnly = await place({ max_turns: 3 });
    expect(turnsOnly.body.error).to.include({ param: 'simulation.max_turns' });
    const live = await place({ persona: 'Maria', goal: 'Book.' }, t.liveKey);
    expect(live.status).to.equal(400);
    expect(live.body.error).to.include({ param: 'simulation' });
  });
});

/** Polls `GET /v1/test_suite_runs/{id}` until the run is completed; answers it. */
async function completedRun(key: string, runId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request('GET', `/v1/test_suite_runs/${runId}`, { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    if (res.body.status === 'completed') return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not complete; last: ${JSON.stringify(res.body)}`);
    await sleep(200);
  }
}

/** The judge requests the fake LLM got for call `callId`. */
const judgeRequests = (callId: string) =>
  h().llm.requests.filter(
    (r) => r.user === callId && String(r.messages[0]?.content ?? '').startsWith('You judge a simulated phone call'),
  );

const BOOKING = {
  name: 'books a table',
  persona: 'Maria, in a hurry. FAKE_PERSONA: A table for two at eight, please. | BYE Great, thanks, bye.',
  goal: 'Book a table for two at 8 pm.',
  rubric: 'FAKE_JUDGE:pass The assistant confirms the booking.',
  max_turns: 5,
};
const REFUND = {
  name: 'asks for a refund',
  persona: 'Tom, upset. FAKE_PERSONA: I want my money back. | BYE Forget it.',
  goal: 'Get a refund for last night.',
  rubric: 'FAKE_JUDGE:fail The assistant explains the refund policy.',
};

describe('test suites', function () {
  this.timeout(180_000);
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(() => receiver.close());

  it('runs a suite: one scenario passes, one fails, the event is delivered, a second run is compared with the first', async () => {
    const t = await newTenant({ first_message: 'Hello, Luigi’s here.' });
    await createWebhookEndpoint(receiver, t.testKey, '/suite-runs', ['test_suite_run.completed']);
    const created = await request('POST', `/v1/agents/${t.agentId}/test_suites`, {
      key: t.testKey,
      body: { name: 'Bookings', scenarios: [BOOKING, REFUND] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const suite = created.body;
    expect(suite).to.include({ object: 'test_suite', agent_id: t.agentId, name: 'Bookings', livemode: false });
    expect(suite.id).to.match(/^tsuite_/);
    expect(suite.scenarios[1]).to.deep.equal({ ...REFUND, max_turns: null });

    const started = await request('POST', `/v1/test_suites/${suite.id}/runs`, { key: t.testKey, body: {} });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body).to.include({ object: 'test_suite_run', status: 'running', test_suite_id: suite.id });
    expect(started.body.id).to.match(/^tsrun_/);
    expect(started.body.counts).to.deep.equal({ total: 2, pending: 2, running: 0, passed: 0, failed: 0, errored: 0 });

    const run = await completedRun(t.testKey, started.body.id);
    expect(run.counts).to.deep.equal({ total: 2, pending: 0, running: 0, passed: 1, failed: 1, errored: 0 });
    expect(run.agent_version).to.equal(1); // the published version
    expect(run.comparison).to.deep.equal({ previous_run_id: null, changed: [] });
    expect(run.completed_at).to.be.a('number');
    const [booking, refund] = run.results;
    expect(booking).to.include({
      scenario: 'books a table',
      status: 'passed',
      verdict: 'pass',
      score: 90,
      error: null,
    });
    expect(refund).to.include({ scenario: 'asks for a refund', status: 'failed', verdict: 'fail', score: 20 });
    // The reasons quote the transcript: the persona's first line.
    expect(booking.reasons[0].quote).to.equal('A table for two at eight, please.');
    expect(refund.reasons[0].quote).to.equal('I want my money back.');

    // Each scenario was a persona call of the agent, marked with the run and the scenario.
    const call = await waitForCall(t.testKey, booking.call_id);
    expect(call).to.include({ status: 'completed', end_reason: 'caller_hung_up', agent_id: t.agentId });
    expect(call.metadata).to.deep.equal({ test_suite_run: run.id, test_scenario: 'books a table' });
    expect((await transcript(t.testKey, call.id)).map((x) => `${x.role}: ${x.text}`)).to.deep.equal([
      `assistant: ${DISCLOSURE}`,
      'assistant: Hello, Luigi’s here.',
      'caller: A table for two at eight, please.',
      'assistant: You said: A table for two at eight, please.',
      'caller: Great, thanks, bye.',
    ]);
    // The judge was asked once per scenario, with the JSON-schema response format and the transcript.
    const judged = judgeRequests(call.id);
    expect(judged).to.have.length(1);
    expect(judged[0].response_format!.type).to.equal('json_schema');
    expect(judged[0].messages[0].content).to.include('FAKE_JUDGE:pass The assistant confirms the booking.');
    expect(judged[0].messages[1].content).to.include('Caller: A table for two at eight, please.');

    // The event, once, carrying the completed run.
    await receiver.waitFor((r) => r.some((x) => x.path === '/suite-runs'), 30_000, 'test_suite_run.completed');
    await sleep(1000);
    const delivered = receiver.at('/suite-runs');
    expect(delivered).to.have.length(1);
    expect(delivered[0].body.type).to.equal('test_suite_run.completed');
    expect(delivered[0].body.data.object).to.deep.equal(run);
    await keepHistory(run.id, 'test-suite-run');

    // The booking's rubric is now failed by the judge: the second run says which scenario changed verdict.
    const updated = await request('POST', `/v1/test_suites/${suite.id}`, {
      key: t.testKey,
      body: { scenarios: [{ ...BOOKING, rubric: 'FAKE_JUDGE:fail The assistant confirms the booking.' }, REFUND] },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body.scenarios[0].rubric).to.match(/^FAKE_JUDGE:fail/);
    const again = await request('POST', `/v1/test_suites/${suite.id}/runs`, { key: t.testKey, body: {} });
    const second = await completedRun(t.testKey, again.body.id);
    expect(second.counts).to.include({ passed: 0, failed: 2, errored: 0 });
    expect(second.comparison).to.deep.equal({
      previous_run_id: run.id,
      changed: [{ scenario: 'books a table', previous: 'passed', current: 'failed' }],
    });
    // The first run kept the scenarios it ran.
    expect((await request('GET', `/v1/test_suite_runs/${run.id}`, { key: t.testKey })).body).to.deep.equal(run);
    const runs = await request('GET', `/v1/test_suites/${suite.id}/runs`, { key: t.testKey });
    expect(runs.body.data.map((r: any) => r.id)).to.deep.equal([second.id, run.id]);
  });

  it('runs a draft version when asked (`version`), recording it on the run and its calls', async () => {
    const t = await newTenant();
    const draft = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { instructions: 'DRAFT-TWO: take bookings politely.', publish: false },
    });
    expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
    const suite = (
      await request('POST', `/v1/agents/${t.agentId}/test_suites`, {
        key: t.testKey,
        body: { name: 'Draft', scenarios: [BOOKING] },
      })
    ).body;
    const started = await request('POST', `/v1/test_suites/${suite.id}/runs`, { key: t.testKey, body: { version: 2 } });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body.agent_version).to.equal(2);
    const run = await completedRun(t.testKey, started.body.id);
    expect(run).to.include({ agent_version: 2 });
    const call = await waitForCall(t.testKey, run.results[0].call_id);
    expect(call.agent_version).to.equal(2);
    const asked = h().llm.requests.filter((r) => r.user === call.id && !judgeRequests(call.id).includes(r));
    const assistant = asked.filter((r) => String(r.messages[0]?.content ?? '').includes('DRAFT-TWO'));
    expect(assistant.length).to.be.greaterThan(0);
    // Without `version`: the published one (1), whose instructions are not the draft's.
    const published = await completedRun(
      t.testKey,
      (await request('POST', `/v1/test_suites/${suite.id}/runs`, { key: t.testKey, body: {} })).body.id,
    );
    expect(published.agent_version).to.equal(1);
    expect(published.comparison.previous_run_id).to.equal(run.id);
  });

  it('marks a scenario errored when the judge answers garbage or quotes words nobody said, after one retry', async () => {
    const t = await newTenant();
    const created = await request('POST', `/v1/agents/${t.agentId}/test_suites`, {
      key: t.testKey,
      body: {
        name: 'Broken judge',
        scenarios: [
          { ...BOOKING, name: 'garbage', rubric: 'FAKE_JUDGE:garbage Anything.' },
          { ...BOOKING, name: 'bad quote', rubric: 'FAKE_JUDGE:bad-quote Anything.' },
        ],
      },
    });
    const started = await request('POST', `/v1/test_suites/${created.body.id}/runs`, { key: t.testKey, body: {} });
    const run = await completedRun(t.testKey, started.body.id);
    expect(run.counts).to.include({ passed: 0, failed: 0, errored: 2 });
    const [garbage, badQuote] = run.results;
    expect(garbage).to.include({ status: 'errored', verdict: null, score: null });
    expect(garbage.error).to.match(/did not validate after a retry: the answer is not valid JSON/);
    expect(badQuote.error).to.match(/reasons\[0\]\.quote: not found in the transcript/);
    expect(judgeRequests(garbage.call_id)).to.have.length(2);
    // The retry showed the model its answer and the problems.
    const retry = judgeRequests(badQuote.call_id)[1];
    expect(retry.messages[3].content).to.match(/^That answer is not valid: reasons\[0\]\.quote/);
    await keepHistory(run.id, 'test-suite-run-errored');
  });

  it('refuses bad input: unknown agent or suite 404, invalid scenarios 400 naming them, live keys 403', async () => {
    const t = await newTenant();
    const create = (body: unknown, agentId = t.agentId) =>
      request('POST', `/v1/agents/${agentId}/test_suites`, { key: t.testKey, body });
    const unknownAgent = await create({ name: 'S', scenarios: [BOOKING] }, 'agt_01jd5x2v7c0000000000000000');
    expect(unknownAgent.status).to.equal(404);
    expect(unknownAgent.body.error).to.include({ code: 'resource_missing', param: 'id' });
    const { rubric: _rubric, ...noRubric } = REFUND;
    const missing = await create({ name: 'S', scenarios: [BOOKING, { ...REFUND, name: 'b' }, noRubric] });
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.include({ code: 'parameter_missing', param: 'scenarios[2].rubric' });
    const dup = await create({ name: 'S', scenarios: [BOOKING, BOOKING] });
    expect(dup.body.error).to.include({ param: 'scenarios[1].name' });
    const none = await create({ name: 'S', scenarios: [] });
    expect(none.body.error).to.include({ param: 'scenarios' });
    const turns = await create({ name: 'S', scenarios: [{ ...BOOKING, max_turns: 0 }] });
    expect(turns.body.error).to.include({ param: 'scenarios[0].max_turns' });
    const tooMany = await create({
      name: 'S',
      scenarios: Array.from({ length: 51 }, (_, i) => ({ ...BOOKING, name: `s${i}` })),
    });
    expect(tooMany.body.error).to.include({ param: 'scenarios' });

    const suite = (await create({ name: 'S', scenarios: [BOOKING] })).body;
    const list = await request('GET', `/v1/agents/${t.agentId}/test_suites`, { key: t.testKey });
    expect(list.body.data.map((s: any) => s.id)).to.deep.equal([suite.id]);
    const live = await request('POST', `/v1/test_suites/${suite.id}/runs`, { key: t.liveKey, body: {} });
    expect(live.status).to.equal(403);
    expect(live.body.error).to.include({ code: 'test_mode_only', type: 'permission_error' });
    const noVersion = await request('POST', `/v1/test_suites/${suite.id}/runs`, {
      key: t.testKey,
      body: { version: 99 },
    });
    expect(noVersion.status).to.equal(404);
    expect(noVersion.body.error).to.include({ param: 'version' });
    const badUpdate = await request('POST', `/v1/test_suites/${suite.id}`, {
      key: t.testKey,
      body: { scenarios: [{ ...BOOKING, persona: '' }] },
    });
    expect(badUpdate.body.error).to.include({ param: 'scenarios[0].persona' });
    const deleted = await request('DELETE', `/v1/test_suites/${suite.id}`, { key: t.testKey });
    expect(deleted.body).to.deep.equal({ id: suite.id, object: 'test_suite', deleted: true });
    for (const [method, path] of [
      ['GET', `/v1/test_suites/${suite.id}`],
      ['POST', `/v1/test_suites/${suite.id}/runs`],
      ['GET', '/v1/test_suite_runs/tsrun_01jd5x2v7c0000000000000000'],
    ]) {
      const res = await request(method, path, { key: t.testKey, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
    // Another organization's key does not see the suite's agent.
    const other = await newTenant();
    const foreign = await request('GET', `/v1/agents/${t.agentId}/test_suites`, { key: other.testKey });
    expect(foreign.status).to.equal(404);
  });
});
