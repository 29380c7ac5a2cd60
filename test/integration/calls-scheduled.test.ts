/**
 * Scheduled calls: `scheduled_at` and `calling_window` on `POST /v1/calls`, the
 * `scheduled` status and `call.scheduled` event, the durable timer (its real firing, and the test clock of
 * `POST /v1/test_helpers/calls/{id}/advance_clock`), cancellation before the time, the agent's window and
 * the live +1 default, and bad input. Times are checked against the zone's local time through `Intl`, not
 * against the service's own window arithmetic.
 */
import { expect } from 'chai';
import { useFakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { newTenant, request, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** The events of call `callId`, oldest first. */
async function eventsOf(key: string, callId: string) {
  const res = await request('GET', '/v1/events?limit=100', { key });
  expect(res.status).to.equal(200);
  return (res.body.data as any[]).filter((e) => e.data.object.id === callId).reverse();
}

/** Local weekday, hour, minute and second of unix time `s` in `tz`, by `Intl`. */
function localParts(s: number, tz: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(s * 1000))
      .map((p) => [p.type, p.value]),
  );
  return { weekday: parts.weekday, h: Number(parts.hour), min: Number(parts.minute), s: Number(parts.second) };
}

const nowS = () => Math.floor(Date.now() / 1000);

describe('scheduled calls', function () {
  this.timeout(120_000);
  let t: Tenant;

  before(async () => {
    t = await newTenant();
  });

  async function createCall(body: Record<string, unknown>, key = t.testKey) {
    return request('POST', '/v1/calls', { key, body: { to: '+14155550123', agent_id: t.agentId, ...body } });
  }

  it('waits scheduled on its timer, is listed, and is dialed once when its clock reaches the time', async () => {
    const at = nowS() + 3600;
    const res = await createCall({ scheduled_at: at, simulation: { caller: ['Hi, you called me back.'] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'scheduled', scheduled_at: at, callback_of: null, calling_window: null });
    const scheduled = await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
    expect(scheduled.answered_at).to.equal(null);

    const list = await request('GET', '/v1/calls?status=scheduled', { key: t.testKey });
    expect(list.body.data.map((c: any) => c.id)).to.include(res.body.id);
    await waitFor(async () => (await eventsOf(t.testKey, res.body.id)).length === 1);
    const [event] = await eventsOf(t.testKey, res.body.id);
    expect(event.type).to.equal('call.scheduled');
    expect(event.data.object).to.include({ status: 'scheduled', scheduled_at: at });

    // A clock moved to before the time leaves it waiting.
    const early = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, {
      key: t.testKey,
      body: { to: at - 60 },
    });
    expect(early.status, JSON.stringify(early.body)).to.equal(200);
    expect(early.body.status).to.equal('scheduled');

    const advanced = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, { key: t.testKey });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    expect(advanced.body.status).to.not.equal('scheduled');
    const ended = await waitForCall(t.testKey, res.body.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up', scheduled_at: at });
    const types = (await eventsOf(t.testKey, res.body.id)).map((e) => e.type);
    expect(types).to.deep.equal(['call.scheduled', 'call.started', 'call.ended']);

    const again = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, { key: t.testKey });
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('call_not_scheduled');
  });

  it('is dialed by its real timer at its time, not before', async () => {
    const at = nowS() + 3;
    const res = await createCall({ scheduled_at: new Date(at * 1000).toISOString(), simulation: { caller: ['Hi.'] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'scheduled', scheduled_at: at });
    const ended = await waitForCall(t.testKey, res.body.id, undefined, 30_000);
    expect(ended.status).to.equal('completed');
    expect(ended.answered_at).to.be.at.least(at);
  });

  it('is canceled by POST /v1/calls/{id}/end before its time, and never dialed', async () => {
    const res = await createCall({ scheduled_at: nowS() + 7200 });
    await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
    const end = await request('POST', `/v1/calls/${res.body.id}/end`, { key: t.testKey });
    expect(end.status, JSON.stringify(end.body)).to.equal(200);
    expect(end.body).to.include({ status: 'canceled', end_reason: 'api_ended', answered_at: null });
    const types = (await eventsOf(t.testKey, res.body.id)).map((e) => e.type);
    expect(types).to.deep.equal(['call.scheduled', 'call.ended']);
    const advanced = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, { key: t.testKey });
    expect(advanced.status).to.equal(409);
  });

  it('moves a time outside its calling window to the next opening, in the zone, and keeps the window', async () => {
    const requested = nowS() + 3600;
    const window = { start: '09:00', end: '10:00', days: ['mon'], timezone: 'America/New_York' };
    const res = await createCall({ scheduled_at: requested, calling_window: window });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.calling_window).to.deep.equal(window);
    const at = res.body.scheduled_at as number;
    expect(at).to.be.at.least(requested);
    expect(at - requested).to.be.below(8 * 86_400);
    const local = localParts(at, 'America/New_York');
    // Inside the window: requested already inside it stays, else the window's first second.
    expect(local.weekday).to.equal('Mon');
    expect(local.h).to.equal(9);
    if (at > requested) expect([local.min, local.s]).to.deep.equal([0, 0]);
    await request('POST', `/v1/calls/${res.body.id}/end`, { key: t.testKey });
  });

  it('schedules a call placed now whose calling window is closed; dials at once when it is open', async () => {
    const tomorrow = new Date((nowS() + 86_400) * 1000);
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][tomorrow.getUTCDay()];
    const closed = await createCall({ calling_window: { start: '00:00', end: '24:00', days: [day], timezone: 'UTC' } });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    expect(closed.body.status).to.equal('scheduled');
    expect(closed.body.scheduled_at).to.equal(
      Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate()) / 1000,
    );
    await request('POST', `/v1/calls/${closed.body.id}/end`, { key: t.testKey });

    const open = await createCall({
      calling_window: { start: '00:00', end: '24:00', timezone: 'UTC' },
      simulation: { caller: ['Hi.'] },
    });
    expect(open.body).to.include({ status: 'queued', scheduled_at: null });
    expect((await waitForCall(t.testKey, open.body.id)).status).to.equal('completed');
  });

  it("uses the agent's calling window for a scheduled call without its own", async () => {
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: {
        name: 'Evening desk',
        instructions: 'Be brief.',
        calling_window: { start: '18:00', end: '19:00', timezone: 'Asia/Tokyo' },
      },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    expect(agent.body.calling_window).to.deep.equal({ start: '18:00', end: '19:00', timezone: 'Asia/Tokyo' });
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: agent.body.id, scheduled_at: nowS() + 600 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(localParts(res.body.scheduled_at, 'Asia/Tokyo').h).to.equal(18);
    await request('POST', `/v1/calls/${res.body.id}/end`, { key: t.testKey });
    const cleared = await request('POST', `/v1/agents/${agent.body.id}`, {
      key: t.testKey,
      body: { calling_window: null },
    });
    expect(cleared.body.calling_window).to.equal(null);
  });

  it('keeps a live +1 scheduled call inside 08:00–21:00 local time by default; places a live one at its time', async () => {
    const { fake, restore } = await useFakeTwilio();
    try {
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live desk', instructions: 'Be brief.' },
      });
      // The next hour, at least an hour ahead, that is 03:xx in Los Angeles (415 numbers' zone).
      let requested = nowS() + 3600;
      while (localParts(requested, 'America/Los_Angeles').h !== 3) requested += 3600;
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agent.body.id, scheduled_at: requested },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.status).to.equal('scheduled');
      const local = localParts(res.body.scheduled_at, 'America/Los_Angeles');
      expect([local.h, local.min, local.s]).to.deep.equal([8, 0, 0]);
      expect(res.body.scheduled_at - requested).to.be.below(6 * 3600);
      const end = await request('POST', `/v1/calls/${res.body.id}/end`, { key: t.liveKey });
      expect(end.body.status).to.equal('canceled');
      // A test clock is for test mode only.
      const clock = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, { key: t.liveKey });
      expect(clock.status).to.equal(403);
      expect(clock.body.error.code).to.equal('test_mode_only');

      // A live call with its own window (open all day) is placed through Twilio at its time, once.
      const before = fake.created.length;
      const at = nowS() + 2;
      const live = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: {
          to: '+14155550123',
          from: '+14155550100',
          agent_id: agent.body.id,
          scheduled_at: at,
          calling_window: { start: '00:00', end: '24:00' },
        },
      });
      expect(live.body).to.include({ status: 'scheduled', scheduled_at: at });
      expect(fake.created.length).to.equal(before);
      const ringing = await waitForCall(t.liveKey, live.body.id, (c) => c.status === 'ringing', 20_000);
      expect(Date.now() / 1000).to.be.at.least(at);
      const placed = fake.created.slice(before);
      expect(placed.map((c) => c.To)).to.deep.equal(['+14155550123']);
      expect(placed[0].Url).to.match(new RegExp(`/twilio/voice/${ringing.id}$`));
      await request('POST', `/v1/calls/${live.body.id}/end`, { key: t.liveKey });
      expect(fake.created.length - before, 'placed once').to.equal(1);
    } finally {
      await restore();
    }
  });

  describe('bad input: 400 naming the field, nothing created', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['in the past', { scheduled_at: Math.floor(Date.now() / 1000) - 300 }, 'scheduled_at'],
      ['beyond 30 days', { scheduled_at: Math.floor(Date.now() / 1000) + 31 * 86_400 }, 'scheduled_at'],
      ['unparsable', { scheduled_at: 'tomorrow at three' }, 'scheduled_at'],
      ['ISO without an offset', { scheduled_at: '2030-01-01T15:00:00' }, 'scheduled_at'],
      ['an impossible date', { scheduled_at: '2026-02-30T15:00:00Z' }, 'scheduled_at'],
      ['a fractional unix time', { scheduled_at: 1_900_000_000.5 }, 'scheduled_at'],
      ['a window ending first', { calling_window: { start: '17:00', end: '09:00' } }, 'calling_window.end'],
      ['a bad local time', { calling_window: { start: '9am', end: '17:00' } }, 'calling_window.start'],
      [
        'an unknown zone',
        { calling_window: { start: '09:00', end: '17:00', timezone: 'Mars/Olympus' } },
        'calling_window.timezone',
      ],
      ['no days', { calling_window: { start: '09:00', end: '17:00', days: [] } }, 'calling_window.days'],
    ];
    for (const [name, body, param] of cases)
      it(name, async () => {
        const before = await request('GET', '/v1/calls?limit=1', { key: t.testKey });
        const res = await createCall(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error).to.include({ type: 'invalid_request_error', param });
        const after = await request('GET', '/v1/calls?limit=1', { key: t.testKey });
        expect(after.body.data[0]?.id).to.equal(before.body.data[0]?.id);
      });
  });
});

async function waitFor(test: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
