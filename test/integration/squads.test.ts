/**
 * Squads through the real API, Temporal and store: the resource (create, read, list, update, delete and
 * every refusal named by its param), then test-mode calls through three members, one hand-off per context
 * policy, with the exact messages each member's model received checked at the fake LLM.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { CallTurn } from '../../src/models/calls';
import { Event } from '../../src/models/events';
import { decodePayload } from '../support/history';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const post = (t: Tenant, path: string, body: unknown = {}) => request('POST', path, { key: t.testKey, body });
const get = (t: Tenant, path: string) => request('GET', path, { key: t.testKey });

async function createAgent(t: Tenant, name: string, instructions: string, extra: Record<string, unknown> = {}) {
  const res = await post(t, '/v1/agents', { name, instructions, ...extra });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { id: string; version: number };
}

describe('squads', function () {
  let t: Tenant;
  let other: Tenant;
  let reception: { id: string };
  let booking: { id: string };
  let billing: { id: string };

  before(async () => {
    [t, other] = await Promise.all([newTenant(), newTenant()]);
    reception = await createAgent(t, 'Reception', 'You are the receptionist of Acme Dental.');
    booking = await createAgent(t, 'Booking', 'You book appointments at Acme Dental.');
    billing = await createAgent(t, 'Billing', 'You answer billing questions at Acme Dental.');
  });

  type Handoff = { to: string; description: string; context: unknown };
  type Member = { name: string; agent_id: string; description?: string; version?: number; handoffs: Handoff[] };
  const squadBody = (): { name: string; members: Member[]; start: string } => ({
    name: 'Front desk',
    members: [
      {
        name: 'reception',
        agent_id: reception.id,
        description: 'Greets callers',
        handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'all' }],
      },
      {
        name: 'booking',
        agent_id: booking.id,
        handoffs: [{ to: 'billing', description: 'The caller asks about a bill.', context: { last: 2 } }],
      },
      {
        name: 'billing',
        agent_id: billing.id,
        version: 1,
        handoffs: [{ to: 'reception', description: 'Anything else.', context: 'summary' }],
      },
    ],
    start: 'reception',
  });

  it('is created, read, listed, updated and deleted, scoped to its organization and mode', async () => {
    const created = await post(t, '/v1/squads', squadBody());
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const squad = created.body;
    expect(squad.id).to.match(/^sqd_[0-9a-z]{26}$/);
    expect(squad).to.include({ object: 'squad', livemode: false, name: 'Front desk', start: 'reception' });
    expect(squad).to.include({ max_handoffs: 10, overflow: null });
    expect(squad.members[0]).to.deep.equal({
      name: 'reception',
      agent_id: reception.id,
      version: null,
      description: 'Greets callers',
      handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'all' }],
      voice_change: 'seamless',
    });
    expect(squad.members[1].handoffs[0].context).to.deep.equal({ last: 2 });
    expect(squad.members[2]).to.include({ version: 1, description: null });

    expect((await get(t, `/v1/squads/${squad.id}`)).body).to.deep.equal(squad);
    const list = await get(t, '/v1/squads');
    expect(list.body.data.map((s: { id: string }) => s.id)).to.include(squad.id);
    // Another organization does not see it.
    expect((await request('GET', `/v1/squads/${squad.id}`, { key: other.testKey })).status).to.equal(404);
    expect((await request('GET', `/v1/squads/${squad.id}`, { key: t.liveKey })).status).to.equal(404);

    const updated = await post(t, `/v1/squads/${squad.id}`, { max_handoffs: 3, overflow: 'reception' });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.include({ max_handoffs: 3, overflow: 'reception', name: 'Front desk' });
    expect(updated.body.members).to.deep.equal(squad.members);
    const bad = await post(t, `/v1/squads/${squad.id}`, { start: 'nobody' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('start');

    const deleted = await request('DELETE', `/v1/squads/${squad.id}`, { key: t.testKey });
    expect(deleted.body).to.deep.equal({ id: squad.id, object: 'squad', deleted: true });
    expect((await get(t, `/v1/squads/${squad.id}`)).status).to.equal(404);
    expect((await request('DELETE', `/v1/squads/${squad.id}`, { key: t.testKey })).status).to.equal(404);
  });

  it('refuses a bad squad naming the param', async () => {
    const cases: [unknown, number, string][] = [];
    const body = squadBody();
    const withMembers = (f: (m: Member[]) => void) => {
      const b = squadBody();
      f(b.members);
      return b;
    };
    cases.push([withMembers((m) => (m[0].handoffs[0].to = 'nobody')), 400, 'members[0].handoffs[0].to']);
    cases.push([withMembers((m) => (m[0].handoffs[0].to = 'reception')), 400, 'members[0].handoffs[0].to']);
    cases.push([withMembers((m) => (m[1].name = 'reception')), 400, 'members[1].name']);
    cases.push([withMembers((m) => (m[1].name = 'Booking!')), 400, 'members[1].name']);
    cases.push([withMembers((m) => (m[2].version = 7)), 400, 'members[2].version']);
    cases.push([
      withMembers((m) => m[0].handoffs.push({ to: 'booking', description: 'Again.', context: 'all' })),
      400,
      'members[0].handoffs[1].to',
    ]);
    cases.push([
      withMembers((m) => (m[1].handoffs[0].context = { last: 0 })),
      400,
      'members[1].handoffs[0].context.last',
    ]);
    cases.push([withMembers((m) => (m[2].agent_id = other.agentId)), 404, 'members[2].agent_id']);
    cases.push([{ ...body, start: 'nobody' }, 400, 'start']);
    cases.push([{ ...body, overflow: 'nobody' }, 400, 'overflow']);
    cases.push([{ ...body, members: [] }, 400, 'members']);
    cases.push([{ ...body, max_handoffs: 0 }, 400, 'max_handoffs']);
    for (const [sent, status, param] of cases) {
      const res = await post(t, '/v1/squads', sent);
      expect(res.status, `${param}: ${JSON.stringify(res.body)}`).to.equal(status);
      expect(res.body.error.param, JSON.stringify(res.body)).to.equal(param);
    }
    // Nothing was written.
    const list = await get(t, '/v1/squads?limit=100');
    expect(list.body.data.filter((s: { name: string }) => s.name !== 'Front desk')).to.deep.equal([]);
  });

  it("hands a test call through three members, each member given exactly its policy's context", async () => {
    const squad = (await post(t, '/v1/squads', squadBody())).body;
    const res = await post(t, '/v1/calls', {
      to: '+14155550188',
      squad_id: squad.id,
      simulation: { caller: ['Hello.', 'HANDOFF booking', 'HANDOFF billing', 'HANDOFF reception', 'Bye.'] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ squad_id: squad.id, squad_member: 'reception', agent_id: reception.id });
    const call = await waitForCall(t.testKey, res.body.id);
    expect(call).to.include({ status: 'completed', squad_member: 'reception' });

    type Msg = { role: string; content: string | null };
    const requests = h().llm.requests.filter((r) => r.user === call.id && !r.response_format);
    const chats = requests.filter((r) => !String(r.messages.at(-1)?.content).startsWith('The caller is being handed'));
    const summaryRequests = requests.filter((r) =>
      String(r.messages.at(-1)?.content).startsWith('The caller is being handed'),
    );
    expect(summaryRequests).to.have.length(1);
    const by = (instructions: string) => chats.filter((r) => String(r.messages[0].content).includes(instructions));
    const spoken = (ms: Msg[]) =>
      ms
        .filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content)
        .map((m) => ({ role: m.role, content: m.content }));
    const rest = (r: { messages: Msg[] }) => r.messages.slice(1).map((m) => ({ role: m.role, content: m.content }));
    const handed = (to: string, from: string) => ({
      role: 'system',
      content: `The caller was handed to you (${to}) by ${from}. Continue the conversation: answer the caller now.`,
    });
    const toolNames = (r: { tools?: { function: { name: string } }[] }) => (r.tools ?? []).map((x) => x.function.name);

    const receptionAsks = by('You are the receptionist');
    const bookingAsks = by('You book appointments');
    const billingAsks = by('You answer billing questions');
    // reception: Hello, the hand-off to booking; again after billing's hand-off: its answer, then Bye.
    expect(receptionAsks.map((r) => r.messages.at(-1)?.content)).to.deep.equal([
      'Hello.',
      'HANDOFF booking',
      handed('reception', 'billing').content,
      'Bye.',
    ]);
    expect(toolNames(receptionAsks[0])).to.include('handoff_to_booking').and.not.include('handoff_to_billing');
    // booking, context "all": every line said before the hand-off.
    expect(rest(bookingAsks[0])).to.deep.equal([...spoken(receptionAsks[1].messages), handed('booking', 'reception')]);
    expect(toolNames(bookingAsks[0])).to.include('handoff_to_billing').and.not.include('handoff_to_booking');
    // billing, context {last: 2}: the last two lines booking's conversation had.
    expect(bookingAsks.map((r) => r.messages.at(-1)?.content)).to.deep.equal([
      handed('booking', 'reception').content,
      'HANDOFF billing',
    ]);
    expect(rest(billingAsks[0])).to.deep.equal([
      ...spoken(bookingAsks[1].messages).slice(-2),
      handed('billing', 'booking'),
    ]);
    // reception again, context "summary": only the summary the model wrote (from billing's conversation).
    const summary = 'You said: HANDOFF reception';
    expect(rest(summaryRequests[0]).slice(0, rest(billingAsks[1]).length)).to.deep.equal(rest(billingAsks[1]));
    expect(rest(receptionAsks[2])).to.deep.equal([
      { role: 'system', content: `Summary of the conversation so far: ${summary}` },
      handed('reception', 'billing'),
    ]);

    const transcript = (await get(t, `/v1/calls/${call.id}/transcript`)).body;
    const handoffs = transcript.turns.filter((x: { role: string }) => x.role === 'handoff');
    expect(handoffs.map((x: { handoff: unknown }) => x.handoff)).to.deep.equal([
      { from: 'reception', to: 'booking', context: 'all' },
      { from: 'booking', to: 'billing', context: 'last:2' },
      { from: 'billing', to: 'reception', context: 'summary', summary },
    ]);
    // Each answer is marked with the member's agent that gave it (the opening, if any, is the start member's).
    const speakers = transcript.turns
      .filter((x: { role: string; text: string }) => x.role === 'assistant' && x.text.startsWith('You said'))
      .map((x: { text: string; agent_id: string; agent_version: number }) => [x.text, x.agent_id, x.agent_version]);
    expect(speakers).to.deep.equal([
      ['You said: Hello.', reception.id, 1],
      ['You said: HANDOFF booking', booking.id, 1],
      ['You said: HANDOFF billing', billing.id, 1],
      ['You said:', reception.id, 1],
      ['You said: Bye.', reception.id, 1],
    ]);
    for (const turn of transcript.turns.filter((x: { role: string }) => x.role === 'assistant'))
      expect(turn.agent_id, JSON.stringify(turn)).to.be.a('string');
    const events = await Event.find({ object_id: call.id, type: 'call.handed_off' }).lean();
    expect(events).to.have.length(3);
    const members = events.map((e) => JSON.parse(e.payload_json).data.object.squad_member).sort();
    expect(members).to.deep.equal(['billing', 'booking', 'reception']);
  });
});

describe('squads: a call that continues as new', function () {
  this.timeout(240_000);

  it('answers on with the member it was handed to: its prompt, the handed context, its tools', async () => {
    const t = await newTenant();
    const reception = await createAgent(t, 'Reception', 'You are the receptionist of Acme Dental.');
    const booking = await createAgent(t, 'Booking', 'You book appointments at Acme Dental.');
    const billing = await createAgent(t, 'Billing', 'You answer billing questions at Acme Dental.');
    const squad = await post(t, '/v1/squads', {
      name: 'Long desk',
      start: 'reception',
      members: [
        {
          name: 'reception',
          agent_id: reception.id,
          handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'all' }],
        },
        {
          name: 'booking',
          agent_id: booking.id,
          handoffs: [{ to: 'billing', description: 'The caller asks about a bill.', context: { last: 2 } }],
        },
        { name: 'billing', agent_id: billing.id, handoffs: [] },
      ],
    });
    expect(squad.status, JSON.stringify(squad.body)).to.equal(200);
    // 500 turns make a run continue as new (src/workflows/call-turns.ts LOCAL_TURNS_PER_RUN): well before the end.
    const fillers = Array.from({ length: 256 }, (_, i) => `line ${i}`);
    const res = await post(t, '/v1/calls', {
      to: '+14155550166',
      squad_id: squad.body.id,
      simulation: { caller: ['Hello.', 'HANDOFF booking', ...fillers, 'HANDOFF billing', 'Bye.'] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.id as string;
    const call = await waitForCall(t.testKey, id, undefined, 180_000);
    expect(call).to.include({ status: 'completed', squad_member: 'billing' });

    // The last run began with booking answering, after one hand-off.
    const runs: string[] = [];
    for await (const r of h().env.client.workflow.list({
      query: `WorkflowId = '${id}' AND ExecutionStatus = 'ContinuedAsNew'`,
    }))
      runs.push(r.runId);
    expect(runs, 'runs that continued as new').to.have.length(1);
    const lastRun = (await h().env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const input = await decodePayload<{ continuation?: { squad?: unknown } }>(
      lastRun[0].workflowExecutionStartedEventAttributes?.input?.payloads?.[0],
    );
    expect(input.continuation?.squad).to.deep.equal({ current: 'booking', handoffs: 1 });

    type Req = { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] };
    const chats = (h().llm.requests as (Req & { user?: string })[]).filter((r) => r.user === id);
    const plain = (r: Req) => r.messages.map((m) => ({ role: m.role, content: m.content }));
    const toolNames = (r: Req) => (r.tools ?? []).map((x) => x.function.name);
    const lastLine = (r: Req) => String(r.messages.at(-1)?.content);
    // Each filler's request is the one before with its answer and the next line, across the new run too.
    const fillerAsks = fillers.map((line) => chats.filter((r) => lastLine(r) === line));
    for (const [i, asks] of fillerAsks.entries()) {
      expect(asks, fillers[i]).to.have.length(1);
      expect(String(asks[0].messages[0].content), fillers[i]).to.include('You book appointments');
      expect(toolNames(asks[0]), fillers[i]).to.include('handoff_to_billing').and.not.include('handoff_to_booking');
      if (i === 0) continue;
      expect(plain(asks[0]), fillers[i]).to.deep.equal([
        ...plain(fillerAsks[i - 1][0]),
        { role: 'assistant', content: `You said: ${fillers[i - 1]}` },
        { role: 'user', content: fillers[i] },
      ]);
    }
    // booking's first request: its prompt, every line said before (context "all"), the hand-off note.
    const first = plain(fillerAsks[0][0]);
    expect(first[1].role, 'the opening (AI disclosure)').to.equal('assistant');
    expect(first.slice(2, 6)).to.deep.equal([
      { role: 'user', content: 'Hello.' },
      { role: 'assistant', content: 'You said: Hello.' },
      { role: 'user', content: 'HANDOFF booking' },
      {
        role: 'system',
        content:
          'The caller was handed to you (booking) by reception. Continue the conversation: answer the caller now.',
      },
    ]);
    // billing (handed in the continued run, context {last: 2}): its prompt, the last two lines, the note.
    const billingAsks = chats.filter((r) => String(r.messages[0].content).includes('You answer billing'));
    expect(billingAsks.map(lastLine).at(-1)).to.equal('Bye.');
    expect(plain(billingAsks[0]).slice(1)).to.deep.equal([
      { role: 'assistant', content: `You said: ${fillers.at(-1)}` },
      { role: 'user', content: 'HANDOFF billing' },
      {
        role: 'system',
        content: 'The caller was handed to you (billing) by booking. Continue the conversation: answer the caller now.',
      },
    ]);
    const handoffs = await CallTurn.find({ call_id: id, role: 'handoff' }).sort({ seq: 1 }).lean();
    expect(handoffs.map((x) => JSON.parse(x.handoff_json ?? 'null'))).to.deep.equal([
      { from: 'reception', to: 'booking', context: 'all' },
      { from: 'booking', to: 'billing', context: 'last:2' },
    ]);
    const bye = await CallTurn.findOne({ call_id: id, role: 'assistant', text: 'You said: Bye.' }).lean();
    expect(bye?.agent_id).to.equal(billing.id);
  });
});
