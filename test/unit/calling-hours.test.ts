/**
 * Calling hours at the callee's local time (src/services/calling-hours.ts, zones from libphonenumber's
 * geocoding data): the per-country defaults, an override that narrows and one that tries to widen,
 * daylight-saving days in New York (clocks skip 02:00–03:00 on 2026-03-08 and repeat 01:00–02:00 on
 * 2026-11-01), and numbers whose zone is not known precisely. Expected instants are written out as UTC,
 * not computed by the code under test.
 */
import { expect } from 'chai';
import { callingHours, callingWindowIn, type CallingHoursOverrides } from '../../src/services/calling-hours';

const at = (s: string) => new Date(s).getTime();
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const NY = '+12125550123';
const LA = '+14155550123';
const check = (n: string, s: string, o?: CallingHoursOverrides) => callingHours(n, at(s), o);

describe('calling hours', () => {
  it('a +1 212 number: refused at 07:59 New York time with the 08:00 opening, allowed at 08:00', async () => {
    const early = await check(NY, '2026-11-30T12:59:00Z'); // Monday 07:59 EST
    expect(early).to.include({ allowed: false, zone: 'America/New_York', country: 'US' });
    expect(early.zones).to.deep.equal(['America/New_York']);
    expect(early.local).to.equal('2026-11-30 07:59 America/New_York');
    expect(iso(early.opensAtMs)).to.equal('2026-11-30T13:00:00.000Z');
    expect(early.assumed).to.equal(undefined);
    expect(early.rule).to.match(/^US: 08:00-21:00/);
    const open = await check(NY, '2026-11-30T13:00:00Z');
    expect(open).to.include({ allowed: true, zone: 'America/New_York', opensAtMs: null });
    expect((await check(NY, '2026-12-01T01:59:00Z')).allowed, '20:59 EST').to.equal(true);
    expect((await check(NY, '2026-12-01T02:00:00Z')).allowed, '21:00 EST').to.equal(false);
  });

  it('a +1 415 number follows Los Angeles time', async () => {
    const early = await check(LA, '2026-11-30T15:30:00Z'); // 07:30 PST, 10:30 in New York
    expect(early).to.include({ allowed: false, zone: 'America/Los_Angeles' });
    expect(iso(early.opensAtMs)).to.equal('2026-11-30T16:00:00.000Z');
    expect((await check(LA, '2026-11-30T16:00:00Z')).allowed).to.equal(true);
    expect((await check(LA, '2026-12-01T04:59:00Z')).allowed, '20:59 PST').to.equal(true);
  });

  it('a GB number: 09:00 at weekends (08:30 on a Saturday refused), 08:00 on weekdays', async () => {
    const sat = await check('+442079460000', '2026-11-28T08:30:00Z'); // Saturday, GMT
    expect(sat).to.include({ allowed: false, zone: 'Europe/London', country: 'GB' });
    expect(iso(sat.opensAtMs)).to.equal('2026-11-28T09:00:00.000Z');
    expect((await check('+442079460000', '2026-11-28T09:00:00Z')).allowed).to.equal(true);
    expect((await check('+442079460000', '2026-11-30T08:30:00Z')).allowed, 'Monday 08:30').to.equal(true);
  });

  it('a DE number: 09:00-20:00 Berlin time, so 20:00 is refused until 09:00 the next day', async () => {
    const late = await check('+4930123456789', '2026-11-30T19:00:00Z'); // 20:00 CET
    expect(late).to.include({ allowed: false, zone: 'Europe/Berlin' });
    expect(iso(late.opensAtMs)).to.equal('2026-12-01T08:00:00.000Z');
    expect((await check('+4930123456789', '2026-11-30T18:59:00Z')).allowed).to.equal(true);
  });

  it('New York daylight-saving days: 08:00 EDT after spring forward, 08:00 EST after fall back', async () => {
    const eve = await check(NY, '2026-03-08T02:30:00Z'); // Saturday 21:30 EST
    expect(eve.allowed).to.equal(false);
    expect(iso(eve.opensAtMs), 'Sunday 08:00 EDT').to.equal('2026-03-08T12:00:00.000Z');
    expect((await check(NY, '2026-03-08T11:59:00Z')).allowed, '07:59 EDT').to.equal(false);
    expect((await check(NY, '2026-03-08T12:00:00Z')).allowed, '08:00 EDT').to.equal(true);
    const fall = await check(NY, '2026-11-01T12:30:00Z'); // 07:30 EST
    expect(fall.allowed).to.equal(false);
    expect(fall.local).to.equal('2026-11-01 07:30 America/New_York');
    expect(iso(fall.opensAtMs)).to.equal('2026-11-01T13:00:00.000Z');
  });

  it("an organization's window narrows the default", async () => {
    const overrides = { organization: { start: '10:00', end: '17:00' } };
    const early = await check(NY, '2026-11-30T14:30:00Z', overrides); // 09:30 EST
    expect(early.allowed).to.equal(false);
    expect(iso(early.opensAtMs)).to.equal('2026-11-30T15:00:00.000Z');
    expect(early.rule).to.contain('narrowed by organization 10:00-17:00');
    expect((await check(NY, '2026-11-30T21:59:00Z', overrides)).allowed, '16:59').to.equal(true);
    const late = await check(NY, '2026-11-30T22:00:00Z', overrides); // 17:00 EST
    expect(late.allowed).to.equal(false);
    expect(iso(late.opensAtMs)).to.equal('2026-12-01T15:00:00.000Z');
  });

  it('an override wider than the default changes nothing', async () => {
    const overrides = { operator: { start: '06:00', end: '23:00' }, organization: { start: '00:00', end: '24:00' } };
    const early = await check(NY, '2026-11-30T12:59:00Z', overrides); // 07:59 EST
    expect(early.allowed).to.equal(false);
    expect(iso(early.opensAtMs)).to.equal('2026-11-30T13:00:00.000Z');
    expect((await check(NY, '2026-12-01T02:30:00Z', overrides)).allowed, '21:30 EST').to.equal(false);
  });

  it('a malformed override time is a RangeError', async () => {
    let thrown: unknown = null;
    await check(NY, '2026-11-30T15:00:00Z', { operator: { start: '8am', end: '20:00' } }).catch((e) => (thrown = e));
    expect(thrown).to.be.instanceOf(RangeError);
  });

  it('a number spanning zones (AU, as located): open only while open in every zone, and says so', () => {
    // 23:30Z: 10:30 Monday in Sydney (AEDT) but 07:30 in Perth.
    const located = { country: 'AU', zones: ['Australia/Perth', 'Australia/Sydney'] };
    const r = callingWindowIn(located, at('2026-11-29T23:30:00Z'));
    expect(r).to.include({ allowed: false, zone: null, assumed: 'country_most_restrictive' });
    expect(r.zones).to.deep.equal(['Australia/Perth', 'Australia/Sydney']);
    expect(r.rule).to.contain('zone not known precisely');
    expect(iso(r.opensAtMs), '09:00 in Perth').to.equal('2026-11-30T01:00:00.000Z');
    expect(callingWindowIn(located, at('2026-11-30T08:59:00Z')).allowed, '19:59 Sydney').to.equal(true);
    expect(callingWindowIn(located, at('2026-11-30T09:00:00Z')).allowed, '20:00 Sydney').to.equal(false);
  });

  it("a GB number in several zones takes GB's strictest default: 09:00 on a weekday too", () => {
    const located = { country: 'GB', zones: ['Europe/London', 'Europe/Isle_of_Man'] };
    const r = callingWindowIn(located, at('2026-11-30T08:30:00Z')); // Monday 08:30
    expect(r).to.include({ allowed: false, assumed: 'country_most_restrictive' });
    expect(iso(r.opensAtMs)).to.equal('2026-11-30T09:00:00.000Z');
  });

  it('a toll-free +1 number (every NANP zone, Guam to Pago Pago): open only 22:00-00:30 UTC', async () => {
    const r = await check('+18005550123', '2026-11-30T13:00:00Z'); // 08:00 EST, 02:00 in Pago Pago, 23:00 in Guam
    expect(r).to.include({ allowed: false, zone: null, country: 'US', assumed: 'country_most_restrictive' });
    expect(r.zones).to.include.members(['America/New_York', 'Pacific/Honolulu', 'Pacific/Guam']);
    // Guam opens at 08:00 ChST (22:00Z); St John's closes at 21:00 NST (00:30Z).
    expect(iso(r.opensAtMs)).to.equal('2026-11-30T22:00:00.000Z');
    expect((await check('+18005550123', '2026-12-01T00:29:00Z')).allowed).to.equal(true);
    expect((await check('+18005550123', '2026-12-01T00:30:00Z')).allowed).to.equal(false);
  });

  it('a malformed number has no zone: refused with no opening', async () => {
    for (const n of ['2125550123', '+1212', 'abc']) {
      const r = await check(n, '2026-11-30T15:00:00Z');
      expect(r, n).to.include({ allowed: false, zone: null, opensAtMs: null });
      expect(r.zones, n).to.deep.equal([]);
    }
  });
});
