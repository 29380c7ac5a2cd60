/**
 * src/platform/behind-turn.ts: a call's work behind its answer waits for the call's next request (only
 * that call's), or `release`, or its bound.
 */
import { expect } from 'chai';
import { afterNextRequest, release, requestSent } from '../../src/platform/behind-turn';

const tick = () => new Promise((r) => setImmediate(r));

describe('work behind a turn', () => {
  it("waits for the call's next request, not another call's; release lets it go too", async () => {
    const order: string[] = [];
    void afterNextRequest('call_a', 10_000).then(() => order.push('a'));
    void afterNextRequest('call_b', 10_000).then(() => order.push('b'));
    await tick();
    expect(order).to.deep.equal([]);
    requestSent('call_b');
    await tick();
    expect(order, "only b's request was sent").to.deep.equal(['b']);
    release('call_a');
    await tick();
    expect(order).to.deep.equal(['b', 'a']);
  });

  it('goes on after its bound without a request', async () => {
    const started = Date.now();
    await afterNextRequest('call_bound', 30);
    expect(Date.now() - started).to.be.at.least(25);
  });
});
