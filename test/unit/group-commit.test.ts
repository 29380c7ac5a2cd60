/**
 * src/shared/group-commit.ts: a lone item goes at once; items that come while a send is
 * on its way go together in the next, in order, at most `max` a send; per key; a failed send fails its items.
 */
import { expect } from 'chai';
import { groupCommit } from '../../src/shared/group-commit';

describe('groupCommit', () => {
  it('sends a lone item at once, then gathers what came meanwhile, in order, at most max a send', async () => {
    const sends: string[][] = [];
    let release: () => void = () => undefined;
    const commit = groupCommit<string, string>(async (key, items) => {
      sends.push(items);
      if (sends.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((i) => `${key}:${i}`);
    }, 3);
    const first = commit('a', '1');
    expect(sends, 'the first goes without waiting').to.deep.equal([['1']]);
    const rest = ['2', '3', '4', '5'].map((i) => commit('a', i));
    const other = commit('b', 'x'); // another key has its own line
    expect(sends).to.deep.equal([['1'], ['x']]);
    release();
    expect(await Promise.all([first, ...rest, other])).to.deep.equal(['a:1', 'a:2', 'a:3', 'a:4', 'a:5', 'b:x']);
    expect(sends).to.deep.equal([['1'], ['x'], ['2', '3', '4'], ['5']]);
  });

  it('fails every item of a failed send, and sends the next ones afresh', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const commit = groupCommit<number, number>(async (_key, items) => {
      if (items[0] === 0) await new Promise<void>((r) => (release = r));
      if (fail && items[0] !== 0) throw new Error('store down');
      return items.map((i) => i * 10);
    }, 10);
    const zero = commit('k', 0);
    const failed = [1, 2].map((i) => commit('k', i).catch((err: Error) => err.message));
    release();
    expect(await zero).to.equal(0);
    expect(await Promise.all(failed)).to.deep.equal(['store down', 'store down']);
    fail = false;
    expect(await commit('k', 3)).to.equal(30);
  });

  it('with a linger, items that come within it after a send go together when it ends; after a quiet spell one goes at once', async () => {
    const sends: { at: number; items: number[] }[] = [];
    const t0 = Date.now();
    const commit = groupCommit<number, number>(
      async (_key, items) => {
        sends.push({ at: Date.now() - t0, items });
        return items;
      },
      10,
      100,
    );
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const first = commit('k', 1);
    expect(
      sends.map((s) => s.items),
      'the first goes at once',
    ).to.deep.equal([[1]]);
    await sleep(20);
    const next = [commit('k', 2)];
    await sleep(20);
    next.push(commit('k', 3));
    expect(sends, 'the two that came within the linger wait').to.have.length(1);
    expect(await Promise.all([first, ...next])).to.deep.equal([1, 2, 3]);
    expect(sends.map((s) => s.items)).to.deep.equal([[1], [2, 3]]);
    expect(sends[1].at, 'sent when the linger ended').to.be.within(90, 400);
    await sleep(250); // quiet: the linger after the second send ends with nothing, the outbox goes
    const lone = commit('k', 4);
    expect(
      sends.map((s) => s.items),
      'a lone item after a quiet spell goes at once',
    ).to.deep.equal([[1], [2, 3], [4]]);
    expect(await lone).to.equal(4);
  });
});
