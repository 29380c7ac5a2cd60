/**
 * A squad call's analysis and usage through the real API, Temporal and store: the analysis request the
 * fake model receives names the member behind each assistant line and shows the hand-off; the call's
 * model requests are metered to the member that made them, so `GET /v1/usage?agent_id=…` splits the
 * call's requests across its members.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { customerNumber, eventually } from '../support/conversations';
import { UsageRecord } from '../../src/models/usage';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('squad call analysis and usage per member', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });
  const post = (path: string, body: unknown) => request('POST', path, { key: t.testKey, body });
  const get = (path: string) => request('GET', path, { key: t.testKey });

  it('gives the analysis the members and hand-offs, and meters each request to its member', async () => {
    const front = (await post('/v1/agents', { name: 'Front', instructions: 'FRONT-DESK prompt.' })).body;
    const back = (await post('/v1/agents', { name: 'Back', instructions: 'BACK-OFFICE prompt.' })).body;
    const squad = await post('/v1/squads', {
      name: 'Desk',
      members: [
        { name: 'front', agent_id: front.id, handoffs: [{ to: 'back', description: 'Hard.', context: 'summary' }] },
        { name: 'back', agent_id: back.id },
      ],
      start: 'front',
    });
    expect(squad.status, JSON.stringify(squad.body)).to.equal(200);
    const placed = await post('/v1/calls', {
      to: customerNumber(),
      squad_id: squad.body.id,
      analysis: { summary: true },
      simulation: { caller: ['Hello.', 'HANDOFF back', 'Sure.', 'Bye.'] },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const call = await waitForCall(t.testKey, placed.body.id, (x) => x.analysis?.status === 'completed');
    expect(call.squad_member).to.equal('back');

    // The analysis: each assistant line names its member; the hand-off is a line with its summary.
    const turns = (await get(`/v1/calls/${call.id}/transcript`)).body.turns as {
      role: string;
      text: string;
      agent_id?: string;
      handoff?: { summary?: string };
    }[];
    const handoff = turns.find((x) => x.role === 'handoff')!;
    expect(handoff.handoff!.summary).to.be.a('string');
    const asked = h().llm.requests.filter((r) => r.user === call.id && r.response_format);
    expect(asked).to.have.length(1);
    const lines = String(asked[0].messages.at(-1)?.content).split('\n');
    // Tool lines are as on any call (the hand-off's own tool call among them); the rest, line by line.
    const expected = turns
      .filter((x) => x.role !== 'tool')
      .map((x) =>
        x.role === 'caller'
          ? `Caller: ${x.text}`
          : x.role === 'handoff'
            ? `— front handed the caller to back (context: summary: ${handoff.handoff!.summary}) —`
            : `Assistant [${x.agent_id === front.id ? 'front' : 'back'}]: ${x.text}`,
      );
    expect(lines.slice(1).filter((l) => !l.startsWith('Tool '))).to.deep.equal(expected);
    expect(lines).to.include('Tool handoff_to_back({}): Handed off to back.');
    expect(lines).to.include('Assistant [front]: You said: Hello.');
    expect(lines).to.include('Assistant [back]: You said: Sure.');

    // Usage: every model request of the call is its member's; the summary is front's (it handed off).
    const chats = h().llm.requests.filter((r) => r.user === call.id && !r.response_format);
    const byPrompt = (instructions: string) =>
      chats.filter((r) => String(r.messages[0].content).includes(instructions)).length;
    const rows = await eventually(async () => {
      const found = await UsageRecord.find({ subject_id: call.id, kind: 'llm_request' }).lean();
      return found.length === chats.length ? found : null;
    }, 'the call’s llm_request rows');
    const count = (agentId: string) => rows.filter((r) => r.agent_id === agentId).length;
    expect(count(front.id)).to.equal(byPrompt('FRONT-DESK')).and.be.greaterThan(0);
    expect(count(back.id)).to.equal(byPrompt('BACK-OFFICE')).and.be.greaterThan(0);
    expect(count(front.id) + count(back.id)).to.equal(rows.length);
    for (const r of rows) expect(r.agent_version, JSON.stringify(r)).to.equal(1);
    // The usage report splits them by agent.
    for (const [agent, n] of [
      [front.id, count(front.id)],
      [back.id, count(back.id)],
    ] as const) {
      await eventually(async () => {
        const usage = (await get(`/v1/usage?agent_id=${agent}`)).body;
        return usage.totals.llm.requests === n ? usage : null;
      }, `usage of ${agent}: ${n} requests`);
    }
  });
});
