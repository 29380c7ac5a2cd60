/** Unit tests of ids (src/shared/ids.ts): prefixed, time-ordered, monotonic within a millisecond. */
import { expect } from 'chai';
import { idTime, isId, newId } from '../../src/shared/ids';

describe('ids', () => {
  it('are prefixed, time-ordered and decode their time', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0);
    const a = newId('call', t);
    const b = newId('call', t + 1);
    expect(isId('call', a)).to.equal(true);
    expect(a < b).to.equal(true);
    expect(idTime(a)).to.equal(t);
  });

  it('stay ordered within one millisecond and when the clock steps back', () => {
    const t = Date.UTC(2030, 0, 1);
    const ids = [newId('evt', t), newId('evt', t), newId('evt', t), newId('evt', t - 5)];
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(4);
  });
});
