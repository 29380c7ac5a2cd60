/**
 * Squads beyond `POST /v1/calls`, through the real API, Temporal and store: a bulk campaign whose calls
 * start as squad calls and hand off (and the same refusals as a call's: neither, both, a squad not live);
 * a WhatsApp conversation on a number assigned a squad and a widget chat of a squad's widget, each handed
 * from one member to the other, with the messages the next member's model was given checked at the fake LLM.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { createKey } from '../../src/keys';
import { configureWidget } from '../../src/services/widget';
import { customerNumber, inbound, waitForMessages } from '../support/conversations';
import { allResults, campaignCalls, createForm, phone, startCampaign, waitForCampaign } from '../support/bulk-calls';
import { Event } from '../../src/models/events';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const post = (t: Tenant, path: string, body: unknown = {}) => request('POST', path, { key: t.testKey, body });
const get = (t: Tenant, path: string) => request('GET', path, { key: t.testKey });

async function createAgent(t: Tenant, name: string, instructions: string) {
  const res = await post(t, '/v1/agents', { name, instructions });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { id: string; version: number };
}

/** A two-member squad: `reception` hands to `booking` with the whole conversation. */
async function createSquad(t: Tenant, reception: string, booking: string): Promise<{ id: string }> {
  const res = await post(t, '/v1/squads', {
    name: 'Front desk',
    members: [
      {
        name: 'reception',
        agent_id: reception,
        handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'all' }],
      },
      { name: 'booking', agent_id: booking, handoffs: [] },
    ],
    start: 'reception',
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** The `[role, text, agent_id]` of a transcript's hand-off entries and answers. */
function speakers(turns: { role: string; text: string; agent_id?: string; handoff?: unknown }[]) {
  return turns
    .filter((x) => x.role === 'handoff' || (x.role === 'assistant' && x.text.startsWith('You said')))
    .map((x) => (x.role === 'handoff' ? ['handoff', x.handoff] : [x.text, x.agent_id]));
}

describe('squads on other channels', function () {
  this.timeout(120_000);
  let t: Tenant;
  let other: Tenant;
  let reception: { id: string };
  let booking: { id: string };
  let squad: { id: string };

  before(async () => {
    [t, other] = await Promise.all([newTenant(), newTenant()]);
    reception = await createAgent(t, 'Reception', 'You are the receptionist of Acme Dental.');
    booking = await createAgent(t, 'Booking', 'You book appointments at Acme Dental.');
    squad = await createSquad(t, reception.id, booking.id);
  });

  it('runs a campaign with a squad: every call starts as a squad call and hands off', async () => {
    const formId = await createForm(t.testKey);
    const campaign = await startCampaign(t.testKey, {
      squad_id: squad.id,
      form_id: formId,
      contacts: [
        { phone: phone(501), simulation: { caller: ['Hello.', 'HANDOFF booking', 'Bye.'] } },
        { phone: phone(502), simulation: { caller: ['Hi.', 'Bye.'] } },
      ],
    });
    expect(campaign).to.include({ squad_id: squad.id, agent_id: reception.id });
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.counts).to.include({ completed: 2, failed: 0 });
    expect((await get(t, `/v1/bulk-calls/${campaign.id}`)).body.squad_id).to.equal(squad.id);

    const results = await allResults(t.testKey, campaign.id);
    const calls = await campaignCalls(t.testKey, campaign.id);
    expect(calls).to.have.length(2);
    for (const c of calls) expect(c).to.include({ squad_id: squad.id, agent_id: reception.id });
    const handed = calls.find((c) => c.id === results[0].call_ids[0]);
    const stayed = calls.find((c) => c.id === results[1].call_ids[0]);
    expect(handed.squad_member).to.equal('booking');
    expect(stayed.squad_member).to.equal('reception');

    const turns = (await get(t, `/v1/calls/${handed.id}/transcript`)).body.turns;
    expect(speakers(turns)).to.deep.equal([
      ['You said: Hello.', reception.id],
      ['handoff', { from: 'reception', to: 'booking', context: 'all' }],
      // booking answers at once, from the whole conversation (its last caller line).
      ['You said: HANDOFF booking', booking.id],
      ['You said: Bye.', booking.id],
    ]);
    const events = await Event.find({ type: 'call.handed_off', object_id: { $in: calls.map((c) => c.id) } }).lean();
    expect(events.map((e) => e.object_id)).to.deep.equal([handed.id]);
  });

  it('refuses a campaign with neither, both, or a squad not live in the organization, creating nothing', async () => {
    const formId = await createForm(t.testKey);
    const base = { form_id: formId, contacts: [phone(503)] };
    const deleted = await createSquad(t, reception.id, booking.id);
    expect((await request('DELETE', `/v1/squads/${deleted.id}`, { key: t.testKey })).status).to.equal(200);
    const cases: [Tenant, unknown, number, string, string][] = [
      [t, base, 400, 'parameter_missing', 'agent_id'],
      [t, { ...base, agent_id: reception.id, squad_id: squad.id }, 400, 'parameter_invalid', 'squad_id'],
      [t, { ...base, squad_id: deleted.id }, 404, 'resource_missing', 'squad_id'],
      [other, { ...base, squad_id: squad.id }, 404, 'resource_missing', 'squad_id'],
    ];
    for (const [tenant, body, status, code, param] of cases) {
      const res = await post(tenant, '/v1/bulk-calls', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.include({ code, param });
    }
    const list = (await get(t, '/v1/bulk-calls?limit=100')).body.data;
    expect(list.filter((c: { contacts?: unknown; counts: { total: number } }) => c.counts.total === 1)).to.deep.equal(
      [],
    );
  });

  /**
   * Checks a conversation handed from reception to booking after the customer wrote `Hello.` then
   * `HANDOFF booking`: the messages (replies marked with the member's agent, the `handoff` entry), what
   * booking's model was given, the conversation and its one `conversation.handed_off`.
   */
  async function expectHandedOff(convId: string) {
    const messages = await waitForMessages(t.testKey, convId, 5);
    expect(
      messages.map((m: { author: string; text: string; agent_id?: string }) => [m.author, m.text, m.agent_id ?? null]),
    ).to.deep.equal([
      ['customer', 'Hello.', null],
      ['assistant', 'You said: Hello.', reception.id],
      ['customer', 'HANDOFF booking', null],
      ['handoff', 'Handed over from reception to booking.', null],
      ['assistant', 'You said: HANDOFF booking', booking.id],
    ]);
    expect(messages[3]).to.include({ status: 'recorded', direction: 'outbound' });
    expect(messages[3].handoff).to.deep.equal({ from: 'reception', to: 'booking', context: 'all' });
    expect(messages[4].agent_version).to.equal(1);

    type Msg = { role: string; content: string | null };
    const asks = h().llm.requests.filter((r) => r.user === convId && !r.response_format);
    const by = (instructions: string) => asks.filter((r) => String(r.messages[0].content).includes(instructions));
    const names = (r: { tools?: { function: { name: string } }[] }) => (r.tools ?? []).map((x) => x.function.name);
    const [receptionAsk] = by('You are the receptionist');
    const [bookingAsk] = by('You book appointments');
    expect(names(receptionAsk)).to.include('handoff_to_booking');
    expect(names(bookingAsk)).to.not.include('handoff_to_booking');
    // Context "all": every line written before the hand-off, then the hand-off note; its own prompt first.
    expect(bookingAsk.messages.slice(1).map((m: Msg) => ({ role: m.role, content: m.content }))).to.deep.equal([
      { role: 'user', content: 'Hello.' },
      { role: 'assistant', content: 'You said: Hello.' },
      { role: 'user', content: 'HANDOFF booking' },
      {
        role: 'system',
        content:
          'The customer was handed to you (booking) by reception. Continue the conversation: answer the customer now.',
      },
    ]);

    const conv = (await get(t, `/v1/conversations/${convId}`)).body;
    expect(conv).to.include({ squad_id: squad.id, squad_member: 'booking', agent_id: booking.id, status: 'open' });
    const events = await Event.find({ type: 'conversation.handed_off', object_id: convId }).lean();
    expect(events).to.have.length(1);
    expect(JSON.parse(events[0].payload_json).data.object).to.include({ id: convId, squad_member: 'booking' });
    return messages;
  }

  it('hands a WhatsApp conversation on a number assigned a squad from one member to another', async () => {
    const number = '+14155550777';
    const refused: [unknown, number, string][] = [
      [{ number, channels: ['whatsapp'], agent_id: reception.id, squad_id: squad.id }, 400, 'squad_id'],
      [{ number, channels: ['whatsapp'], squad_id: 'sqd_00000000000000000000000000' }, 404, 'squad_id'],
    ];
    for (const [body, status, param] of refused) {
      const res = await post(t, '/v1/phone_numbers', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error.param).to.equal(param);
    }
    const created = await post(t, '/v1/phone_numbers', { number, channels: ['whatsapp', 'voice'], squad_id: squad.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ squad_id: squad.id, agent_id: null });

    const from = customerNumber();
    const first = await inbound(t.testKey, { channel: 'whatsapp', from, to: number, text: 'Hello.' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const convId = first.body.conversation_id as string;
    await waitForMessages(t.testKey, convId, 2);
    await inbound(t.testKey, { channel: 'whatsapp', from, to: number, text: 'HANDOFF booking' });
    await expectHandedOff(convId);
  });

  it('hands a widget chat of a squad-answered widget from one member to another', async () => {
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const settings = await configureWidget(t.orgId, { squadId: squad.id });
    expect(settings.squad_id).to.equal(squad.id);
    const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: 'squad-visitor' } });
    expect(session.status, JSON.stringify(session.body)).to.equal(200);
    const say = (text: string) =>
      request('POST', '/v1/widget/messages', { key: session.body.token, body: { text } }).then((res) => {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body as { conversation_id: string };
      });
    const convId = (await say('Hello.')).conversation_id;
    await waitForMessages(t.testKey, convId, 2);
    await say('HANDOFF booking');
    await expectHandedOff(convId);
    // A widget of another mode's squad (or none) is answered by the default agent.
    await configureWidget(t.orgId, { squadId: null });
  });

  it('starts an inbound call to a number assigned a squad as a squad call, which hands off', async () => {
    const number = '+14155550778';
    const created = await post(t, '/v1/phone_numbers', { number, channels: ['voice'], agent_id: reception.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    // Setting the squad clears the agent: one answers the number.
    const updated = await post(t, `/v1/phone_numbers/${created.body.id}`, { squad_id: squad.id });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.include({ squad_id: squad.id, agent_id: null });
    const both = await post(t, `/v1/phone_numbers/${created.body.id}`, { squad_id: squad.id, agent_id: booking.id });
    expect(both.status).to.equal(400);
    expect(both.body.error.param).to.equal('squad_id');

    const res = await post(t, '/v1/test_helpers/inbound_calls', {
      to: number,
      from: '+14155550179',
      simulation: { caller: ['Hello.', 'HANDOFF booking', 'Bye.'] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ direction: 'inbound', squad_id: squad.id, squad_member: 'reception' });
    expect(res.body.agent_id).to.equal(reception.id);
    const call = await waitForCall(t.testKey, res.body.id);
    expect(call).to.include({ status: 'completed', squad_member: 'booking' });
    const turns = (await get(t, `/v1/calls/${call.id}/transcript`)).body.turns;
    expect(speakers(turns)).to.deep.equal([
      ['You said: Hello.', reception.id],
      ['handoff', { from: 'reception', to: 'booking', context: 'all' }],
      ['You said: HANDOFF booking', booking.id],
      ['You said: Bye.', booking.id],
    ]);
  });

  it('runs a test suite against a squad: each persona call is a squad call that hands off', async () => {
    const created = await post(t, `/v1/agents/${reception.id}/test_suites`, {
      name: 'Front desk',
      scenarios: [
        {
          name: 'books',
          persona: 'Ada. FAKE_PERSONA: Hello. | HANDOFF booking | BYE Thanks, bye.',
          goal: 'Book a cleaning.',
          rubric: 'FAKE_JUDGE:pass Booking answers.',
          max_turns: 5,
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const suite = created.body;
    const refused: [unknown, number, string][] = [
      [{ squad_id: squad.id, version: 1 }, 400, 'squad_id'],
      [{ squad_id: 'sqd_00000000000000000000000000' }, 404, 'squad_id'],
    ];
    for (const [body, status, param] of refused) {
      const res = await post(t, `/v1/test_suites/${suite.id}/runs`, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error.param).to.equal(param);
    }
    const started = await post(t, `/v1/test_suites/${suite.id}/runs`, { squad_id: squad.id });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body).to.include({ squad_id: squad.id, agent_version: null });
    let run = started.body;
    for (let i = 0; run.status !== 'completed' && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await get(t, `/v1/test_suite_runs/${run.id}`)).body;
    }
    expect(run.counts).to.include({ passed: 1, errored: 0 });
    const call = await waitForCall(t.testKey, run.results[0].call_id);
    expect(call).to.include({ squad_id: squad.id, squad_member: 'booking', agent_id: reception.id });
    const turns = (await get(t, `/v1/calls/${call.id}/transcript`)).body.turns;
    expect(speakers(turns)).to.deep.equal([
      ['You said: Hello.', reception.id],
      ['handoff', { from: 'reception', to: 'booking', context: 'all' }],
      ['You said: HANDOFF booking', booking.id],
    ]);
  });
});
