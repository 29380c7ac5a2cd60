/**
 * `createdIdRange` (src/api/lists.ts): a `created[…]` range of unix seconds as a range of time-ordered ids,
 * which every object made within the model's skew of its `created` falls in, and nothing far outside.
 */
import { expect } from 'chai';
import { createdIdRange } from '../../src/api/lists';
import { derivedId } from '../../src/shared/ids';

const T = 1_780_000_000; // unix seconds
const id = (ms: number, seed = 'x') => derivedId('call', ms, seed);
/** True when `v` is in the MongoDB range `r` (strings compared as MongoDB compares them). */
function within(v: string, r: Record<string, string>): boolean {
  return (
    (r.$gte === undefined || v >= r.$gte) &&
    (r.$gt === undefined || v > r.$gt) &&
    (r.$lt === undefined || v < r.$lt) &&
    (r.$lte === undefined || v <= r.$lte)
  );
}

describe('createdIdRange: created[…] as a range of ids', () => {
  const exact = { before: 1_000, after: 1_000 };

  it('holds every id of the range, with created the id second, at both ends', () => {
    const r = createdIdRange({ $gte: T, $lt: T + 10 }, 'call', exact)!;
    for (const ms of [T * 1000, T * 1000 + 999, (T + 9) * 1000 + 999])
      expect(within(id(ms), r), String(ms)).to.equal(true);
    // and none far outside (beyond the skew)
    expect(within(id((T - 2) * 1000), r)).to.equal(false);
    expect(within(id((T + 12) * 1000), r)).to.equal(false);
  });

  it('turns $gt and $lte into the next second', () => {
    const r = createdIdRange({ $gt: T, $lte: T + 5 }, 'call', { before: 0, after: 0 })!;
    expect(within(id(T * 1000 + 999), r)).to.equal(false);
    expect(within(id((T + 1) * 1000), r)).to.equal(true);
    expect(within(id((T + 5) * 1000 + 999), r)).to.equal(true);
    expect(within(id((T + 6) * 1000), r)).to.equal(false);
  });

  it('leaves the lower end open when ids may be made long before created (events)', () => {
    expect(createdIdRange({ $gte: T }, 'evt', { before: null, after: 60_000 })).to.equal(undefined);
    const r = createdIdRange({ $gte: T, $lt: T + 1 }, 'evt', { before: null, after: 60_000 })!;
    expect(r).to.have.keys('$lt');
    expect(within(derivedId('evt', (T - 86_400) * 1000, 'old'), r)).to.equal(true);
  });
});
