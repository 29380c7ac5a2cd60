/**
 * What a live call is checked against again when it is finally dialed (src/activities/telephony.ts
 * `placeCall`), since time passes between its creation and its dial: its `from` must still be the
 * organization's (a scheduled call whose number was released or caller ID deleted meanwhile ends
 * `canceled`, `from_not_owned`, never dialed), and the callee's calling hours must still be open at the
 * instant of its turn of the dialing pace (a long backlog that brings the turn past the window's close
 * holds the call `scheduled` until the window opens, never dialed then). Against the loopback fake Twilio,
 * driven by the real `twilio` package.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { DialPaceHead, DialPaceHold } from '../../src/models/dial-pace';
import { telephonyAccount } from '../../src/services/telephony-accounts';
import { useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { isEnded, newTenant, request, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A New York number. */
const newYork = (n: number) => `+1212555${String(4200 + n)}`;

/** The local `HH:MM` in `zone` at `ms`. */
const clockIn = (zone: string, ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);

/**
 * Callees in five zones that libphonenumber places each in one zone, so that whatever the hour the test
 * runs at, one of them is between 09:10 and 19:30 local: inside every country's default calling window
 * (src/services/calling-hours.ts: 08:00–21:00 in the US, 09:00–21:00 at most in GB, 09:00–20:00 elsewhere).
 */
const CALLEES = [
  { to: '+12125554203', zone: 'America/New_York' },
  { to: '+18085554203', zone: 'Pacific/Honolulu' },
  { to: '+81312345678', zone: 'Asia/Tokyo' },
  { to: '+61291234567', zone: 'Australia/Sydney' },
  { to: '+442079460123', zone: 'Europe/London' },
];

/** A callee (of `CALLEES`) whose local time at `ms` is between 09:10 and 19:30. */
function calleeInDaytime(ms: number): (typeof CALLEES)[number] {
  const found = CALLEES.find((c) => {
    const clock = clockIn(c.zone, ms);
    return clock >= '09:10' && clock <= '19:30';
  });
  if (!found) throw new Error(`no callee in daytime at ${new Date(ms).toISOString()}`);
  return found;
}

describe('checks again at dial time', function () {
  this.timeout(180_000);
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let t: Tenant;
  let agentId: string;

  before(async () => {
    ({ fake, restore } = await useFakeTwilio());
    t = await newTenant();
    agentId = (
      await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Later', instructions: 'Be brief.', first_message: 'Hello.' },
      })
    ).body.id;
    await verifiedCallerId(fake, t.liveKey, '+14155550100');
    // Explicit, so that releasing the organization's number leaves the destination allowed (and the
    // daytime callees of the second test's countries).
    const permissions = await request('POST', '/v1/account', {
      key: t.liveKey,
      body: { dialing_permissions: { allowed_countries: ['US', 'JP', 'AU', 'GB'] } },
    });
    expect(permissions.status, JSON.stringify(permissions.body)).to.equal(200);
  });
  after(async () => restore());

  /** The fake's creates of call `id`'s own dial. */
  const createsOf = (id: string) => fake.created.filter((c) => c.Url?.endsWith(`/twilio/voice/${id}`));

  it('a scheduled call whose caller ID was deleted, or whose number was released, meanwhile ends canceled (from_not_owned), never dialed', async () => {
    const number = await request('POST', '/v1/phone_numbers', {
      key: t.liveKey,
      body: { number: '+12125550131', channels: ['voice'] },
    });
    expect(number.status, JSON.stringify(number.body)).to.equal(200);
    const callerIds = await request('GET', '/v1/caller_ids', { key: t.liveKey });
    const callerId = callerIds.body.data.find((c: { phone_number: string }) => c.phone_number === '+14155550100');
    const at = Math.floor(Date.now() / 1000) + 5;
    // A window of the whole day: a scheduled +1 call otherwise waits for 08:00–21:00 at the callee's, and
    // this test runs at any hour (the harness only records the calling hours it meets).
    const schedule = async (from: string, to: string) => {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to, from, agent_id: agentId, scheduled_at: at, calling_window: { start: '00:00', end: '24:00' } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.status).to.equal('scheduled');
      return res.body.id as string;
    };
    const byCallerId = await schedule('+14155550100', newYork(1));
    const byNumber = await schedule('+12125550131', newYork(2));
    expect((await request('DELETE', `/v1/caller_ids/${callerId.id}`, { key: t.liveKey })).status).to.equal(200);
    expect((await request('DELETE', `/v1/phone_numbers/${number.body.id}`, { key: t.liveKey })).status).to.equal(200);
    for (const id of [byCallerId, byNumber]) {
      const ended = await waitForCall(t.liveKey, id, isEnded, 60_000);
      expect(ended).to.include({ status: 'canceled', end_reason: 'from_not_owned' });
      expect(createsOf(id), 'never dialed').to.have.length(0);
    }
    await verifiedCallerId(fake, t.liveKey, '+14155550100'); // for the next test
  });

  it('a call whose turn of the pace comes after the callee’s window closed is held scheduled until it opens, not dialed', async () => {
    const savedEnforcement = config().callingHoursEnforcement;
    setConfig({ ...config(), callingHoursEnforcement: 'enforce' });
    try {
      // The window closes at the next minute boundary at least 12 s away (the organization's calling hours
      // narrowed to end then, at a callee for whom it is daytime), and the account's backlog of dials
      // reaches past it.
      let closeMs = Math.ceil(Date.now() / 60_000) * 60_000;
      if (closeMs - Date.now() < 12_000) closeMs += 60_000;
      const callee = calleeInDaytime(closeMs);
      const hours = await request('POST', '/v1/account', {
        key: t.liveKey,
        body: { calling_hours: { start: '08:00', end: clockIn(callee.zone, closeMs) } },
      });
      expect(hours.status, JSON.stringify(hours.body)).to.equal(200);
      const { accountSid } = await telephonyAccount(t.orgId);
      await DialPaceHead.updateOne({ _id: accountSid }, { $max: { at_ms: closeMs + 3_000 } }, { upsert: true });

      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: callee.to, from: '+14155550100', agent_id: agentId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      const held = await waitForCall(
        t.liveKey,
        id,
        (c) => c.status === 'scheduled' || isEnded(c),
        closeMs - Date.now() + 30_000,
      );
      expect(held).to.include({ status: 'scheduled', scheduled_reason: 'calling_hours' });
      expect(held.scheduled_at * 1000, 'held until the next opening, tomorrow').to.be.greaterThan(closeMs + 3_600_000);
      expect(createsOf(id), 'not dialed').to.have.length(0);
      expect(await DialPaceHold.findById(`call:${id}`).lean(), 'its turn given up').to.equal(null);
      const ended = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      expect(ended.status).to.equal(200);
      const done = await waitForCall(t.liveKey, id);
      expect(done.status).to.equal('canceled');
      expect(createsOf(id), 'never dialed').to.have.length(0);
    } finally {
      setConfig({ ...config(), callingHoursEnforcement: savedEnforcement });
      await request('POST', '/v1/account', { key: t.liveKey, body: { calling_hours: null } });
    }
  });
});
