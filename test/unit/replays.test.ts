/**
 * The pure rules of replays: which rubric a new replay judges by (src/api/replays.ts `replayRubric`: the
 * request's, else the replayed version's `replay_rubric`, else none) and what changed between two
 * analyses' structured data (src/services/replays.ts `structuredDataChange`).
 */
import { expect } from 'chai';
import { replayRubric } from '../../src/api/replays';
import { structuredDataChange } from '../../src/services/replays';

describe('replays: the rubric and the structured data compared', () => {
  it('the request’s rubric wins, then the version’s, else none', () => {
    expect(replayRubric('Mine.', 'The agent’s.')).to.deep.equal({ text: 'Mine.', source: 'replay' });
    expect(replayRubric(undefined, 'The agent’s.')).to.deep.equal({ text: 'The agent’s.', source: 'agent' });
    expect(replayRubric(undefined, null)).to.deep.equal({ text: null, source: null });
    expect(replayRubric(undefined, undefined)).to.deep.equal({ text: null, source: null });
  });

  it('structured data: the keys whose values differ, key order aside; none unless both sides have some', () => {
    const a = JSON.stringify({ structured_data: { size: 42, when: { day: 'mon', at: '9' }, left: true } });
    const b = JSON.stringify({ structured_data: { when: { at: '9', day: 'mon' }, size: 43, right: 1 } });
    const change = structuredDataChange(a, b);
    expect(change.changed_keys).to.deep.equal(['left', 'right', 'size']);
    expect(change.original).to.deep.equal({ size: 42, when: { day: 'mon', at: '9' }, left: true });
    expect(change.forked).to.deep.include({ size: 43 });
    expect(structuredDataChange(a, a).changed_keys).to.deep.equal([]);
    expect(structuredDataChange(a, JSON.stringify({ summary: 'x' }))).to.deep.equal({
      original: JSON.parse(a).structured_data,
      forked: null,
      changed_keys: [],
    });
    expect(structuredDataChange(null, 'not json')).to.deep.equal({ original: null, forked: null, changed_keys: [] });
    expect(structuredDataChange(JSON.stringify({ structured_data: [1] }), a).original).to.equal(null);
  });
});
