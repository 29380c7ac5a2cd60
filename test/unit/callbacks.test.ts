/**
 * `schedule_callback`'s time rules (src/services/callbacks.ts): `at` read as the person's local wall-clock
 * time or with its offset, bounded like `scheduled_at`, and spoken back in the person's zone.
 */
import { expect } from 'chai';
import { formatLocalTime, isoLocal, parseCallbackTime } from '../../src/services/callbacks';

describe('callback times', () => {
  const now = Date.parse('2026-03-06T12:00:00Z'); // Friday; New York switches to EDT on Sunday the 8th
  const ny = 'America/New_York';

  it("reads a local wall-clock time in the person's zone, across a daylight-saving change", () => {
    expect(parseCallbackTime('2026-03-07T15:00', ny, now)).to.equal(Date.parse('2026-03-07T15:00:00-05:00'));
    expect(parseCallbackTime('2026-03-09 15:00:30', ny, now)).to.equal(Date.parse('2026-03-09T15:00:30-04:00'));
    // 02:30 does not exist on the 8th: moved later by the change.
    expect(parseCallbackTime('2026-03-08T02:30', ny, now)).to.equal(Date.parse('2026-03-08T03:30:00-04:00'));
  });

  it('takes an explicit offset as given', () => {
    expect(parseCallbackTime('2026-03-07T15:00:00Z', ny, now)).to.equal(Date.parse('2026-03-07T15:00:00Z'));
    expect(parseCallbackTime('2026-03-07T15:00+01:00', ny, now)).to.equal(Date.parse('2026-03-07T14:00:00Z'));
  });

  it('answers unreadable, impossible, past and too distant times as tool errors', () => {
    for (const bad of ['tomorrow at three', '2026-02-30T10:00', '2026-03-07T25:00', ''])
      expect(parseCallbackTime(bad, ny, now))
        .to.be.a('string')
        .and.match(/^Error: could not read the time/);
    expect(parseCallbackTime('2026-03-06T06:00', ny, now)).to.match(
      /^Error: 2026-03-06T06:00:00-05:00 has already passed/,
    );
    expect(parseCallbackTime('2026-04-07T10:00', ny, now)).to.match(/at most 30 days ahead/);
  });

  it('says a time in the zone, with its offset', () => {
    const ms = Date.parse('2026-03-09T19:00:00Z');
    expect(isoLocal(ms, ny)).to.equal('2026-03-09T15:00:00-04:00');
    expect(isoLocal(ms, 'Asia/Kolkata')).to.equal('2026-03-10T00:30:00+05:30');
    // ICU's words between the date and the time vary by version ("at", ","): the rest is fixed.
    expect(formatLocalTime(ms, ny)).to.match(/^Monday, March 9, 2026\D+3:00\s?PM EDT \(2026-03-09T15:00:00-04:00\)$/);
  });
});
