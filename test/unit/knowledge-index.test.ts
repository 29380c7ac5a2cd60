/**
 * The BM25 side of an agent's knowledge index (src/services/knowledge.ts `KnowledgeIndex`), in memory:
 * typo matching only for query terms no chunk holds, and frequent query terms scoring only the chunks
 * the query's rarer terms match (Elasticsearch's common terms query); a BM25 ranking made beforehand
 * (while a query's embedding is awaited) ranks as the index would, and not once the index has changed.
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

  it('ranks with a BM25 ranking made beforehand as without it, and ranks again once the index changed', () => {
    const filler = Array.from({ length: 300 }, (_, i) => ({
      ...chunk(100 + i, `Every delivery leaves the depot on route ${i % 7 === 0 ? 'north' : 'south'}.`),
      vector: Float32Array.from([1, (i % 5) / 5, 0, 0.1]),
    }));
    const index = new KnowledgeIndex([
      ...filler,
      { ...chunk(1, 'Zorblat handles each delivery by van.'), vector: Float32Array.from([0, 1, 0, 0]) },
      { ...chunk(2, 'Zorblat opens at nine.'), vector: Float32Array.from([0, 0, 1, 0]) },
    ]);
    const vector = Float32Array.from([0, 0.8, 0.6, 0]);
    for (const query of ['Zorblat delivery', 'delivery depot', 'north']) {
      const words = index.words(query, 10);
      expect(index.rank(query, 5, { vector, words })).to.deep.equal(index.rank(query, 5, { vector }));
      expect(index.rank(query, 5, { vector: null, words })).to.deep.equal(index.rank(query, 5));
    }
    // The ranking given is the one used (not made again): a made-up one shows it.
    const madeUp = { ...index.words('north', 10), ranking: [{ id: 'kdoc_2:0', score: 1 }] };
    expect(index.rank('north', 5, { words: madeUp }).hits.map((h) => h.document)).to.deep.equal(['kdoc_2']);
    const words = index.words('Zorblat delivery', 10);
    expect(index.rank('Zorblat delivery', 5, { vector, words }).hits[0].document).to.equal('kdoc_1');
    index.replaceDocuments(['kdoc_1'], []);
    const after = index.rank('Zorblat delivery', 5, { vector, words });
    expect(after).to.deep.equal(index.rank('Zorblat delivery', 5, { vector }));
    expect(after.retrieval).to.equal('hybrid');
    expect(after.hits.map((h) => h.document)).to.not.include('kdoc_1');
  });
});
