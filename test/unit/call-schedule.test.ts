/**
 * When a scheduled call is dialed (src/services/call-schedule.ts): `scheduled_at` parsing and
 * bounds, and the calling window's next opening across daylight-saving changes (America/New_York:
 * clocks skip 02:00–03:00 on 2026-03-08 and repeat 01:00–02:00 on 2026-11-01; Europe/London likewise on
 * 2026-03-29). Expected instants are written out as UTC, not computed by the code under test.
 */
import { expect } from 'chai';
import { ApiError } from '../../src/errors';
import { dialTime, parseIsoWithOffset, parseScheduledAt } from '../../src/services/call-schedule';

const iso = (s: string) => Date.parse(s);

describe('call schedule: scheduled_at', () => {
  const now = iso('2026-11-24T12:00:00Z');

  it('reads unix seconds and ISO 8601 with Z or an offset, with or without seconds and fractions', () => {
    expect(parseScheduledAt(1_795_000_000, iso('2026-11-18T00:00:00Z'))).to.equal(1_795_000_000_000); // 11:06:40 UTC
    expect(parseScheduledAt('2026-11-25T15:00:00-05:00', now)).to.equal(iso('2026-11-25T20:00:00Z'));
    expect(parseScheduledAt('2026-11-25T15:00+0530', now)).to.equal(iso('2026-11-25T09:30:00Z'));
    expect(parseScheduledAt('2026-11-25T15:00:00.250Z', now)).to.equal(iso('2026-11-25T15:00:00.250Z'));
  });

  it('allows a minute of clock skew into the past, not more, and at most 30 days ahead', () => {
    expect(parseScheduledAt('2026-11-24T11:59:30Z', now)).to.equal(iso('2026-11-24T11:59:30Z'));
    for (const bad of ['2026-11-24T11:58:00Z', '2026-12-24T12:00:01Z'])
      expect(() => parseScheduledAt(bad, now))
        .to.throw(ApiError)
        .with.property('param', 'scheduled_at');
    expect(parseScheduledAt('2026-12-24T12:00:00Z', now)).to.equal(iso('2026-12-24T12:00:00Z'));
  });

  it('refuses local times without an offset, impossible dates and prose, naming the param', () => {
    for (const bad of ['2026-11-25T15:00:00', '2026-02-30T10:00:00Z', '2026-11-25T24:30:00Z', 'tomorrow at 3'])
      expect(parseIsoWithOffset(bad), bad).to.equal(null);
    expect(() => parseScheduledAt('tomorrow', now, 'at'))
      .to.throw(ApiError)
      .with.property('param', 'at');
  });
});

describe('call schedule: calling windows across daylight-saving changes', () => {
  const ny = { start: '09:00', end: '17:00', timezone: 'America/New_York' };

  it('keeps a time inside the window and moves one outside it to the next opening', async () => {
    const inside = await dialTime(
      { to: '+12125550123', livemode: false, window: ny },
      iso('2026-11-25T15:00:00Z'), // 10:00 EST
      iso('2026-11-24T12:00:00Z'),
    );
    expect(inside).to.include({ atMs: iso('2026-11-25T15:00:00Z'), later: true });
    const after = await dialTime(
      { to: '+12125550123', livemode: false, window: ny },
      iso('2026-11-25T23:00:00Z'), // 18:00 EST
      iso('2026-11-24T12:00:00Z'),
    );
    expect(after.atMs).to.equal(iso('2026-11-26T14:00:00Z')); // 09:00 EST the next day
  });

  it('opens at 09:00 EDT on the day the clocks spring forward (13:00 UTC, not 14:00)', async () => {
    const r = await dialTime(
      { to: '+12125550123', livemode: false, window: ny },
      iso('2026-03-08T01:00:00Z'), // Sat 20:00 EST
      iso('2026-03-07T00:00:00Z'),
    );
    expect(r.atMs).to.equal(iso('2026-03-08T13:00:00Z'));
  });

  it('moves a start the clocks skip (02:30 on 2026-03-08) later by the change: 03:30 EDT', async () => {
    const r = await dialTime(
      { to: '+12125550123', livemode: false, window: { start: '02:30', end: '05:00', timezone: 'America/New_York' } },
      iso('2026-03-08T05:00:00Z'), // 00:00 EST
      iso('2026-03-07T00:00:00Z'),
    );
    expect(r.atMs).to.equal(iso('2026-03-08T07:30:00Z'));
  });

  it('takes the first of a start the clocks repeat (01:30 on 2026-11-01): 01:30 EDT', async () => {
    const r = await dialTime(
      { to: '+12125550123', livemode: false, window: { start: '01:30', end: '03:00', timezone: 'America/New_York' } },
      iso('2026-11-01T04:00:00Z'), // 00:00 EDT
      iso('2026-10-31T00:00:00Z'),
    );
    expect(r.atMs).to.equal(iso('2026-11-01T05:30:00Z'));
  });

  it("uses the callee's zone from the number when the window names none (London, after its change)", async () => {
    const r = await dialTime(
      { to: '+442079460000', livemode: false, window: { start: '09:00', end: '17:00', days: ['mon'] } },
      iso('2026-03-28T12:00:00Z'), // Saturday; BST from Sunday 2026-03-29
      iso('2026-03-27T00:00:00Z'),
    );
    expect(r.atMs).to.equal(iso('2026-03-30T08:00:00Z')); // Monday 09:00 BST
  });

  it("applies the agent's window to a scheduled call, and 08:00–21:00 to a live +1 one without any", async () => {
    const agentWindow = { start: '12:00', end: '13:00', timezone: 'UTC' };
    const scheduled = await dialTime(
      { to: '+12125550123', livemode: false, agentWindow },
      iso('2026-11-25T08:00:00Z'),
      iso('2026-11-24T12:00:00Z'),
    );
    expect(scheduled.atMs).to.equal(iso('2026-11-25T12:00:00Z'));
    const placedNow = await dialTime(
      { to: '+12125550123', livemode: false, agentWindow },
      null,
      iso('2026-11-24T08:00:00Z'),
    );
    expect(placedNow).to.include({ atMs: iso('2026-11-24T08:00:00Z'), later: false });
    const live = await dialTime(
      { to: '+12125550123', livemode: true },
      iso('2026-11-25T03:00:00Z'),
      iso('2026-11-24T12:00:00Z'),
    );
    expect(live.atMs).to.equal(iso('2026-11-25T13:00:00Z')); // 08:00 EST
    const liveNow = await dialTime({ to: '+12125550123', livemode: true }, null, iso('2026-11-25T03:00:00Z'));
    expect(liveNow.later).to.equal(false);
  });
});
