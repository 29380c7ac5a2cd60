/**
 * Simulated callers with personas and test suites graded by a judge (issue 37 items 3 and 4), against the
 * real Temporal dev server and FerretDB, with the loopback LLM (test/support/fake-llm.ts) playing both the
 * assistant and the persona (and the judge): a persona call whose transcript alternates persona and
 * assistant lines and ends by the persona's hang-up, or after `max_turns`, or by a tool the persona's
 * line made the assistant call; bad persona input. With RECORD_HISTORIES=1 the persona call's and a suite
 * run's workflow histories are written to test/replay/histories/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { UsageRecord } from '../../src/models/usage';
import { h, newTenant, request, waitForCall } from '../support/harness';

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

describe('persona callers (issue 37 item 3)', function () {
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
    expect(turns.map((x) => x.role)).to.deep.equal(['caller', 'assistant', 'caller', 'assistant', 'tool']);
    expect(turns[4]).to.include({ role: 'tool' });
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
