/**
 * Callbacks the assistant promises: agents' `enabled_tools` (validated, rendered), the
 * built-in tool `schedule_callback` from a simulated call and from a WhatsApp conversation: the callback
 * call (`scheduled`, `callback_of`, the same agent and number, the reason in its `context`,
 * `call.scheduled`), the assistant's answer giving the actual time in the caller's zone, a time moved into
 * the agent's calling window, a second request replacing the first, an unreadable time answered as a tool
 * error, the prompt's clock only when the tool is offered, and the callback dialed once by its test clock.
 * The fake model's `TOOLSONCE` answers with the tool's result ("Tools said: …").
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const LA = 'America/Los_Angeles'; // the zone of +1 415 numbers

/** The local date (`YYYY-MM-DD`) `days` days from now in `tz`. */
function localDate(days: number, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(Date.now() + days * 86_400_000));
}

/** Local date, hour, minute and second of unix time `s` in `tz`. */
function localParts(s: number, tz: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(s * 1000))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, h: +parts.hour, min: +parts.minute, s: +parts.second };
}

/** The caller's line that makes the fake model call `schedule_callback` once and then say its answer. */
const askCallback = (args: Record<string, unknown>) => `TOOLSONCE ${JSON.stringify([['schedule_callback', args]])}`;

/** The callbacks promised on `of` (a call or a conversation), newest first. */
async function callbacksOf(key: string, of: string): Promise<any[]> {
  const res = await request('GET', '/v1/calls?limit=100', { key });
  return (res.body.data as any[]).filter((c) => c.callback_of === of);
}

/** The events about `objectId`, oldest first. */
async function eventsOf(key: string, objectId: string): Promise<any[]> {
  const res = await request('GET', '/v1/events?limit=100', { key });
  return (res.body.data as any[]).filter((e) => e.data.object.id === objectId).reverse();
}

describe('callbacks the assistant promises (schedule_callback)', function () {
  this.timeout(180_000);
  let t: Tenant;

  before(async () => {
    t = await newTenant({ enabled_tools: ['schedule_callback'] });
  });

  /** Places a simulated call where the caller says `lines`; answers the ended call and its transcript turns. */
  async function callSaying(lines: string[], agentId = t.agentId) {
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: agentId, simulation: { caller: lines } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const ended = await waitForCall(t.testKey, res.body.id, undefined, 60_000);
    expect(ended.status, JSON.stringify(ended)).to.equal('completed');
    const tr = await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey });
    return { call: ended, turns: tr.body.turns as any[] };
  }

  describe('enabled_tools', () => {
    it('is rendered, updated and empty by default', async () => {
      const agent = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
      expect(agent.body.enabled_tools).to.deep.equal(['schedule_callback']);
      const plain = await request('POST', '/v1/agents', { key: t.testKey, body: { name: 'P', instructions: 'Hi.' } });
      expect(plain.body.enabled_tools).to.deep.equal([]);
      const updated = await request('POST', `/v1/agents/${plain.body.id}`, {
        key: t.testKey,
        body: { enabled_tools: ['schedule_callback'] },
      });
      expect(updated.body.enabled_tools).to.deep.equal(['schedule_callback']);
    });

    for (const [name, list, param] of [
      ['an unknown tool', ['schedule_callback', 'launch_rocket'], 'enabled_tools[1]'],
      ['a tool listed twice', ['schedule_callback', 'schedule_callback'], 'enabled_tools[1]'],
      ['a tool every agent has', ['end_call'], 'enabled_tools[0]'],
    ] as const)
      it(`refuses ${name}: 400 naming ${param}`, async () => {
        const res = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: { name: 'X', instructions: 'Hi.', enabled_tools: list },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error).to.include({ type: 'invalid_request_error', param });
      });
  });

  it('schedules a callback from a simulated call: same person, agent and number, the reason, call.scheduled, the time said', async () => {
    const day = localDate(2, LA);
    const { call, turns } = await callSaying([
      askCallback({ at: `${day}T15:00`, reason: 'wants the new prices' }),
      'Thanks, bye.',
    ]);
    const [callback] = await callbacksOf(t.testKey, call.id);
    expect(callback, 'the callback call').to.exist;
    expect(callback).to.include({
      status: 'scheduled',
      callback_of: call.id,
      agent_id: call.agent_id,
      to: call.to,
      from: call.from,
      direction: 'outbound',
    });
    expect(callback.context).to.deep.equal({ callback_of: call.id, callback_reason: 'wants the new prices' });
    expect(localParts(callback.scheduled_at, LA)).to.deep.equal({ date: day, h: 15, min: 0, s: 0 });

    const tool = turns.find((x) => x.role === 'tool');
    expect(tool.tool.name).to.equal('schedule_callback');
    const reply = turns[turns.indexOf(tool) + 1];
    expect(reply.role).to.equal('assistant');
    expect(reply.text)
      .to.contain(`Tools said: Callback scheduled for`)
      .and.contain('3:00 PM')
      .and.contain(`${day}T15:00:00`);

    await eventually(async () => (await eventsOf(t.testKey, callback.id)).length > 0, 'call.scheduled');
    const events = await eventsOf(t.testKey, callback.id);
    expect(events.map((e) => e.type)).to.deep.equal(['call.scheduled']);

    // The prompt told the model the caller's date and time (only because the tool is offered).
    const withTool = h().llm.requests.filter((r) => r.tools?.some((x) => x.function.name === 'schedule_callback'));
    expect(withTool.length).to.be.greaterThan(0);
    expect(withTool[0].messages[0].content).to.contain('where they are (time zone America/Los_Angeles)');

    // Its test clock reaches the time: dialed once.
    const advanced = await request('POST', `/v1/test_helpers/calls/${callback.id}/advance_clock`, { key: t.testKey });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    const ended = await waitForCall(t.testKey, callback.id, undefined, 60_000);
    expect(ended.status).to.equal('completed');
    expect((await eventsOf(t.testKey, callback.id)).map((e) => e.type)).to.deep.equal([
      'call.scheduled',
      'call.started',
      'call.ended',
    ]);
    expect(await callbacksOf(t.testKey, call.id)).to.have.length(1);
  });

  it("moves a time outside the agent's calling window to its next opening and says the actual time", async () => {
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: {
        name: 'Morning desk',
        instructions: 'Be brief.',
        enabled_tools: ['schedule_callback'],
        calling_window: { start: '09:00', end: '10:00', timezone: LA },
      },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const day = localDate(2, LA);
    const { call, turns } = await callSaying([askCallback({ at: `${day}T15:00` })], agent.body.id);
    const [callback] = await callbacksOf(t.testKey, call.id);
    expect(callback.status).to.equal('scheduled');
    const local = localParts(callback.scheduled_at, LA);
    expect([local.h, local.min, local.s]).to.deep.equal([9, 0, 0]);
    expect(local.date > day).to.equal(true);
    const reply = turns.find((x) => x.role === 'assistant' && x.text.startsWith('Tools said:'));
    expect(reply.text)
      .to.contain(`${local.date}T09:00:00`)
      .and.contain('9:00 AM')
      .and.contain(`asked: ${day}T15:00:00`);
    expect(callback.context).to.deep.equal({ callback_of: call.id });
    await request('POST', `/v1/calls/${callback.id}/end`, { key: t.testKey });
  });

  it('replaces the pending callback with a second request in the same call (the first canceled)', async () => {
    const day = localDate(3, LA);
    const { call } = await callSaying([
      askCallback({ at: `${day}T10:00`, reason: 'first' }),
      askCallback({ at: `${day}T16:30`, reason: 'second' }),
    ]);
    const all = await callbacksOf(t.testKey, call.id);
    expect(all).to.have.length(2);
    const [second, first] = all; // newest first
    expect(first).to.include({ status: 'canceled', end_reason: 'api_ended' });
    expect(first.context.callback_reason).to.equal('first');
    expect(second).to.include({ status: 'scheduled' });
    expect(second.context.callback_reason).to.equal('second');
    expect(localParts(second.scheduled_at, LA)).to.deep.equal({ date: day, h: 16, min: 30, s: 0 });
    await request('POST', `/v1/calls/${second.id}/end`, { key: t.testKey });
  });

  it('answers an unreadable or past time as a tool error; the call goes on and nothing is scheduled', async () => {
    const { call, turns } = await callSaying([
      askCallback({ at: 'tomorrow-ish' }),
      askCallback({ at: '2020-01-01T10:00' }),
      'Fine, thanks.',
    ]);
    const tools = turns.filter((x) => x.role === 'tool');
    expect(tools.map((x) => x.result)).to.deep.equal([undefined, undefined]);
    expect(tools[0].error).to.match(
      /^Error: could not read the time "tomorrow-ish"; ask the caller what time suits them/,
    );
    expect(tools[1].error).to.match(/^Error: 2020-01-01T10:00:00-08:00 has already passed/);
    expect(turns[turns.length - 1]).to.include({ role: 'assistant', text: 'You said: Fine, thanks.' });
    expect(await callbacksOf(t.testKey, call.id)).to.have.length(0);
  });

  it('is not offered, and the prompt has no clock, when the agent does not enable it', async () => {
    const plain = await request('POST', '/v1/agents', { key: t.testKey, body: { name: 'Plain', instructions: 'Hi.' } });
    const before = h().llm.requests.length;
    const { turns } = await callSaying([askCallback({ at: `${localDate(2, LA)}T15:00` })], plain.body.id);
    expect(turns.find((x) => x.role === 'tool').text).to.match(/not available/);
    const mine = h().llm.requests.slice(before);
    for (const r of mine) {
      expect((r.tools ?? []).map((x) => x.function.name)).to.not.include('schedule_callback');
      expect(r.messages[0].content).to.not.contain('where they are');
    }
  });

  it('schedules a callback from a WhatsApp conversation, linked to the conversation', async () => {
    const from = customerNumber();
    const day = localDate(2, LA);
    const res = await inbound(t.testKey, {
      channel: 'whatsapp',
      from,
      text: askCallback({ at: `${day}T11:15`, reason: 'call about the invoice' }),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const convId = res.body.conversation_id as string;
    // The fake model writes "Calling schedule_callback." with its tool call, then what the tool answered.
    const [reply] = await waitForMessages(t.testKey, convId, 1, (m) => m.text.startsWith('Tools said:'));
    expect(reply.text).to.contain('Tools said: Callback scheduled for').and.contain(`${day}T11:15:00`);
    const [callback] = await callbacksOf(t.testKey, convId);
    expect(callback).to.include({ status: 'scheduled', callback_of: convId, to: from, agent_id: t.agentId });
    expect(callback.context).to.deep.equal({ callback_of: convId, callback_reason: 'call about the invoice' });
    expect(localParts(callback.scheduled_at, LA)).to.deep.equal({ date: day, h: 11, min: 15, s: 0 });
    await eventually(
      async () => (await eventsOf(t.testKey, callback.id)).some((e) => e.type === 'call.scheduled'),
      'call.scheduled',
    );
    const advanced = await request('POST', `/v1/test_helpers/calls/${callback.id}/advance_clock`, { key: t.testKey });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    expect((await waitForCall(t.testKey, callback.id, undefined, 60_000)).status).to.equal('completed');
  });
});
