/**
 * Unit tests of a campaign's calling windows (src/services/bulk-calls.ts): local wall-clock times resolved in
 * IANA time zones across daylight-saving changes ("local time of each contact … correct across
 * daylight-saving changes"), the intervals of a window rule, the zones of a number's region, and the
 * default window of live +1 numbers.
 */
import { expect } from 'chai';
import {
  contactZoneKey,
  DEFAULT_US_WINDOW,
  localTimeToUtc,
  windowIntervals,
  windowRule,
  zoneIntervals,
  type WindowRule,
} from '../../src/services/bulk-calls';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);
const hhmm = (h: number, m = 0) => h * 3600 + m * 60;
const WEEKDAYS: WindowRule = { start: '09:00', end: '18:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] };

describe('bulk calls: calling windows', () => {
  it('resolves local times on both sides of a daylight-saving change', () => {
    // New York: EST (UTC-5) until 2026-03-08 02:00, EDT (UTC-4) until 2026-11-01 02:00.
    expect(iso(localTimeToUtc(2026, 3, 6, hhmm(9), 'America/New_York'))).to.equal('2026-03-06T14:00:00.000Z');
    expect(iso(localTimeToUtc(2026, 3, 9, hhmm(9), 'America/New_York'))).to.equal('2026-03-09T13:00:00.000Z');
    expect(iso(localTimeToUtc(2026, 10, 30, hhmm(9), 'America/New_York'))).to.equal('2026-10-30T13:00:00.000Z');
    expect(iso(localTimeToUtc(2026, 11, 2, hhmm(9), 'America/New_York'))).to.equal('2026-11-02T14:00:00.000Z');
    // The southern hemisphere changes the other way: Sydney leaves AEDT (UTC+11) on 2026-04-05 03:00.
    expect(iso(localTimeToUtc(2026, 4, 3, hhmm(9), 'Australia/Sydney'))).to.equal('2026-04-02T22:00:00.000Z');
    expect(iso(localTimeToUtc(2026, 4, 6, hhmm(9), 'Australia/Sydney'))).to.equal('2026-04-05T23:00:00.000Z');
    // A zone without changes, and a half-hour one.
    expect(iso(localTimeToUtc(2026, 7, 1, hhmm(9), 'UTC'))).to.equal('2026-07-01T09:00:00.000Z');
    expect(iso(localTimeToUtc(2026, 7, 1, hhmm(9), 'Asia/Kolkata'))).to.equal('2026-07-01T03:30:00.000Z');
  });

  it('moves a skipped time later by the change and takes the first of a repeated one', () => {
    // 02:30 never happens in New York on 2026-03-08 (02:00 EST → 03:00 EDT): it is 03:30 EDT, never
    // 01:30 EST, so a window starting then does not open an hour early.
    expect(iso(localTimeToUtc(2026, 3, 8, hhmm(2, 30), 'America/New_York'))).to.equal('2026-03-08T07:30:00.000Z');
    // 01:30 happens twice on 2026-11-01 (EDT, then EST): the first.
    expect(iso(localTimeToUtc(2026, 11, 1, hhmm(1, 30), 'America/New_York'))).to.equal('2026-11-01T05:30:00.000Z');
    // London skips 01:00-02:00 on 2026-03-29.
    expect(iso(localTimeToUtc(2026, 3, 29, hhmm(1, 30), 'Europe/London'))).to.equal('2026-03-29T01:30:00.000Z');
    expect(iso(localTimeToUtc(2026, 3, 29, hhmm(2, 30), 'Europe/London'))).to.equal('2026-03-29T01:30:00.000Z');
  });

  it('gives a weekday window 9 local hours a day across the change, none at the weekend', () => {
    const list = zoneIntervals(WEEKDAYS, 'America/New_York', at('2026-03-06T00:00:00Z'), at('2026-03-10T00:00:00Z'));
    expect(list.map(([open, close]) => `${iso(open)}..${iso(close)}`)).to.deep.equal([
      '2026-03-06T14:00:00.000Z..2026-03-06T23:00:00.000Z', // Friday, EST
      '2026-03-09T13:00:00.000Z..2026-03-09T22:00:00.000Z', // Monday, EDT
    ]);
    // From inside Friday's window: it is still listed (it closes after `from`).
    const inside = zoneIntervals(WEEKDAYS, 'America/New_York', at('2026-03-06T20:00:00Z'), at('2026-03-07T00:00:00Z'));
    expect(inside.map(([open]) => iso(open))).to.deep.equal(['2026-03-06T14:00:00.000Z']);
  });

  it('calls a number whose region spans zones when the window is open in all of them', () => {
    const from = at('2026-06-01T00:00:00Z'); // a Monday
    const both = windowIntervals(WEEKDAYS, 'America/Chicago,America/New_York', from);
    // 09:00 in Chicago (14:00Z, CDT) to 18:00 in New York (22:00Z, EDT).
    expect(both.slice(0, 1).map(([o, c]) => `${iso(o)}..${iso(c)}`)).to.deep.equal([
      '2026-06-01T14:00:00.000Z..2026-06-01T22:00:00.000Z',
    ]);
    // Zones that never share an open hour: the window of the median zone by offset.
    const apart = windowIntervals(
      { start: '09:00', end: '10:00', days: WEEKDAYS.days },
      'Asia/Tokyo,America/Los_Angeles,Europe/London',
      from,
    );
    expect(iso(apart[0][0])).to.equal('2026-06-01T08:00:00.000Z'); // 09:00 BST in London
  });

  it("finds a contact's zones from the number, an explicit time zone winning", async () => {
    expect(await contactZoneKey('+12125550100', undefined)).to.equal('America/New_York');
    expect(await contactZoneKey('+442071838750', undefined)).to.equal('Europe/London');
    expect(await contactZoneKey('+12125550100', 'Europe/Paris')).to.equal('Europe/Paris');
  });

  it('calls live +1 numbers 08:00-21:00 local when no window is given, and test mode at any time', () => {
    expect(windowRule(null, true, '+12125550100')).to.deep.equal(DEFAULT_US_WINDOW);
    expect(windowRule(null, true, '+442071838750')).to.equal(null);
    expect(windowRule(null, false, '+12125550100')).to.equal(null);
    const schedule = { window: { start: '10:00', end: '12:00' }, days: ['sat'] as WindowRule['days'] };
    expect(windowRule(schedule, true, '+12125550100')).to.deep.include({ start: '10:00', end: '12:00', days: ['sat'] });
  });
});
