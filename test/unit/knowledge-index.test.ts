/**
 * The BM25 side of an agent's knowledge index (src/services/knowledge.ts `KnowledgeIndex`), in memory:
 * typo matching only for query terms no chunk holds, and frequent query terms scoring only the chunks
 * the query's rarer terms match (Elasticsearch's common terms query).
 */
import { expect } from 'chai';
import { KnowledgeIndex, type IndexedChunk } from '../../src/services/knowledge';

const chunk = (n: number, text: string): IndexedChunk => ({
  id: `kdoc_${n}:0`,
  document: `kdoc_${n}`,
  chunk: 0,
  title: `Note ${n}`,
  text,
});

describe('knowledge index (BM25)', () => {
  it('matches a misspelt word no chunk holds, and takes a word some chunk holds as written', () => {
    const index = new KnowledgeIndex([
      chunk(1, 'Our refund policy lasts thirty days.'),
      chunk(2, 'Buy a ticket online before the match.'),
      chunk(3, 'The picket line formed at dawn.'),
    ]);
    expect(index.search('refumd', 5).map((h) => h.document)).to.deep.equal(['kdoc_1']);
    expect(index.search('picket', 5).map((h) => h.document)).to.deep.equal(['kdoc_3']);
    expect(index.search('pickett', 5).map((h) => h.document)).to.include('kdoc_3');
  });

  it('scores frequent query terms only on the chunks its rarer terms match', () => {
    const filler = Array.from({ length: 300 }, (_, i) =>
      chunk(100 + i, `Every delivery leaves the depot on route ${i % 7 === 0 ? 'north' : 'south'}.`),
    );
    const index = new KnowledgeIndex([
      ...filler,
      chunk(1, 'Zorblat handles each delivery by van.'),
      chunk(2, 'Zorblat opens at nine.'),
    ]);
    const hits = index.search('Zorblat delivery', 5);
    expect(hits.map((h) => h.document)).to.deep.equal(['kdoc_1', 'kdoc_2']);
    expect(hits[0].score).to.be.greaterThan(hits[1].score);
    // Frequent terms alone still answer, from every chunk holding them, and so do they beside a word
    // no chunk holds.
    expect(index.search('delivery depot', 5)).to.have.length(5);
    expect(index.search('qwxyzzy delivery', 5)).to.have.length(5);
  });

  it('scores a query of frequent terms only on the chunks its least frequent term matches', () => {
    const filler = Array.from({ length: 400 }, (_, i) =>
      chunk(100 + i, `Every delivery leaves the depot on route ${i % 3 === 0 ? 'north' : 'south'}.`),
    );
    const index = new KnowledgeIndex([
      ...filler,
      chunk(1, 'A delivery, then another delivery, then one more delivery.'),
    ]);
    const north = filler.filter((c) => c.text.includes('north')).length;
    const hits = index.search('north delivery', 1000);
    // Both words are in more than 1% of the chunks (and in more than 100): only the chunks holding the
    // rarer one ("north") are ranked, each with the BM25 of both words; the others are not visited.
    expect(hits).to.have.length(north);
    expect(hits.every((h) => h.text.includes('north') && h.text.includes('delivery'))).to.equal(true);
    expect(hits.map((h) => h.document)).to.not.include('kdoc_1');
    // Each of them alone still answers from every chunk holding it.
    expect(index.search('delivery', 1000)).to.have.length(filler.length + 1);
  });
});
