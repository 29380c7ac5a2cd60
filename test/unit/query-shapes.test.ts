/**
 * The query/index checker of test/support/query-shapes.ts on hand-made shapes: what it
 * passes (an `_id` lookup, an equality prefix then the sort) and what it lists (a top-level `$or`, an
 * `$in`, a range alone, a dotted path, booleans alone, a sort the index does not hold, an index the
 * embedded store would pick that reads beyond the filter's scope).
 */
import { expect } from 'chai';
import { servingIndex, type IndexKeys, type QueryShape } from '../support/query-shapes';

const indexes = new Map<string, IndexKeys[]>([
  [
    'messages',
    [
      [['_id', 1]],
      [
        ['conversation_id', 1],
        ['_id', -1],
      ],
    ],
  ],
  [
    'calls',
    [
      [['_id', 1]],
      [
        ['org_id', 1],
        ['livemode', 1],
        ['_id', -1],
      ],
      [['livemode', 1]],
    ],
  ],
  [
    'docs',
    [
      [['_id', 1]],
      [
        ['org_id', 1],
        ['livemode', 1],
        ['_id', -1],
      ],
      [
        ['agent_id', 1],
        ['_id', -1],
      ],
    ],
  ],
]);

const shape = (collection: string, filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): QueryShape => ({
  collection,
  op: 'find',
  filter,
  sort,
  origin: 'src/x.js:1',
});
const check = (s: QueryShape) => servingIndex(s, indexes);

describe('query shapes against declared indexes', () => {
  it('passes an _id lookup and an equality prefix followed by the sort, in either direction', () => {
    expect(check(shape('calls', { _id: 'call_1', org_id: 'o' })).index).to.equal('_id');
    expect(check(shape('calls', { org_id: 'o', livemode: false, status: 'queued' }, { _id: -1 })).index).to.equal(
      '{org_id:1, livemode:1, _id:-1}',
    );
    expect(check(shape('messages', { conversation_id: 'c', _id: { $gt: 'm' } }, { _id: 1 })).index).to.equal(
      '{conversation_id:1, _id:-1}',
    );
  });

  it('lists filters that no index serves: $or, $in, a range alone, a dotted path, booleans alone', () => {
    for (const filter of [
      { $or: [{ org_id: 'o' }, { org_id: 'p' }] },
      { conversation_id: { $in: ['a', 'b'] } },
      { created: { $gte: 5 } },
      { 'conversation.id': 'c' },
      { livemode: true },
    ]) {
      const coll = 'conversation_id' in filter || 'conversation.id' in filter ? 'messages' : 'calls';
      expect(check(shape(coll, filter)).index, JSON.stringify(filter)).to.equal(null);
    }
    expect(check(shape('calls', { livemode: true })).reason).to.contain('booleans only');
  });

  it('lists a sort the index does not hold after the equality fields', () => {
    const v = check(shape('messages', { conversation_id: 'c' }, { received_ms: -1 }));
    expect(v.index).to.equal(null);
    expect(v.reason).to.contain('received_ms:-1');
  });

  it("lists a filter whose longest equality prefix (the embedded store's pick) leaves out its scope field", () => {
    const v = check(shape('docs', { org_id: 'o', livemode: false, agent_id: 'a' }, { _id: -1 }));
    expect(v.index).to.equal(null);
    expect(v.reason).to.contain('reads beyond the filter').and.to.contain('agent_id');
  });
});
