/**
 * Reciprocal rank fusion (src/services/rank-fusion.ts): scores 1 / (k + rank) summed over rankings, the
 * fused order, ties, duplicates within a ranking, and k.
 */
import { expect } from 'chai';
import { reciprocalRankFusion, RRF_K } from '../../src/services/rank-fusion';

describe('reciprocal rank fusion', () => {
  it('sums 1 / (k + rank) over the rankings that hold an id, best first', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a', 'd'],
    ]);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(score.a).to.be.closeTo(1 / 61 + 1 / 62, 1e-12);
    expect(score.c).to.be.closeTo(1 / 63 + 1 / 61, 1e-12);
    expect(score.b).to.be.closeTo(1 / 62, 1e-12);
    expect(score.d).to.be.closeTo(1 / 63, 1e-12);
    expect(fused.map((f) => f.id)).to.deep.equal(['a', 'c', 'b', 'd']);
    expect(RRF_K).to.equal(60);
  });

  it('ranks an id found by both rankings above one first in only one of them', () => {
    const fused = reciprocalRankFusion([
      ['words-only', 'both'],
      ['meaning-only', 'x', 'both'],
    ]);
    expect(fused[0].id).to.equal('both');
  });

  it('keeps first-appearance order on ties, counts an id once per ranking, and takes another k', () => {
    const tie = reciprocalRankFusion([['a'], ['b']]);
    expect(tie.map((f) => f.id)).to.deep.equal(['a', 'b']);
    const dup = reciprocalRankFusion([['a', 'a', 'b']]);
    expect(dup.find((f) => f.id === 'a')!.score).to.be.closeTo(1 / 61, 1e-12);
    expect(dup.find((f) => f.id === 'b')!.score).to.be.closeTo(1 / 63, 1e-12);
    expect(reciprocalRankFusion([['a']], 0)[0].score).to.equal(1);
    expect(reciprocalRankFusion([])).to.deep.equal([]);
  });
});
