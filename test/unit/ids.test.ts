/** Unit tests of ids (src/shared/ids.ts): prefixed, time-ordered, monotonic within a millisecond. */
import { expect } from 'chai';
import { derivedId, idTime, isId, newId } from '../../src/shared/ids';

// Ids are monotonic per process: a time here later than the clock would stamp every later id of this
// process with it, so the times used stay a few milliseconds ahead of now.
describe('ids', () => {
  it('are prefixed, time-ordered and decode their time', () => {
    const t = Date.now() + 5;
    const a = newId('call', t);
    const b = newId('call', t + 1);
    expect(isId('call', a)).to.equal(true);
    expect(a < b).to.equal(true);
    expect(idTime(a)).to.equal(t);
  });

  it('stay ordered within one millisecond and when the clock steps back', () => {
    const t = Date.now() + 10;
    const ids = [newId('evt', t), newId('evt', t), newId('evt', t), newId('evt', t - 5)];
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(4);
  });

  it('derive the same id from the same time and seed, another from another seed', () => {
    const a = derivedId('evt', 1_700_000_000_000, 'call_x:call.ended');
    expect(isId('evt', a)).to.equal(true);
    expect(idTime(a)).to.equal(1_700_000_000_000);
    expect(derivedId('evt', 1_700_000_000_000, 'call_x:call.ended')).to.equal(a);
    expect(derivedId('evt', 1_700_000_000_000, 'call_y:call.ended')).to.not.equal(a);
  });
});
