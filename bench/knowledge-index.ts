/**
 * The knowledge index's search alone, in memory, at BENCH_CHUNKS chunks (default 50,000): the corpus of
 * the retrieval benchmark (bench/knowledge-corpus.ts: the labelled files through `fileContent`, then
 * topical distractor texts chunked by `textContent`, each chunk with the fake model's embedding) built
 * straight into a `KnowledgeIndex`, with no store, no version read and no query embedding. Prints the
 * build time, recall@5 and MRR of BM25, hybrid and vectors on the 320 labelled questions, and the search
 * latency of each (1,000 searches after 100 to warm up, top 5), overall and by kind of question, with
 * the slowest questions. What bench/knowledge-retrieval.ts measures end to end, without the store's and
 * the embedding server's share, in a few minutes instead of many.
 *
 *   BENCH_CHUNKS=50000 node dist/bench/knowledge-index.js
 *   BENCH_VECTORS=0 node dist/bench/knowledge-index.js      (BM25 only: no embeddings, no HNSW build)
 */
import os from 'node:os';
import { embeddingInput, fileContent, KnowledgeIndex, textContent, type IndexedChunk } from '../src/services/knowledge';
import { fakeEmbedding } from '../test/support/fake-embeddings';
import { distractor, labelledSet, prng, type Question } from './knowledge-corpus';
import { percentile } from './stats';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fixed = (x: number) => x.toFixed(2);

/** The benchmark's chunks: the labelled files', then distractors' until `target`; the labelled documents' ids by key. */
async function corpus(target: number, vectors: boolean): Promise<{ chunks: IndexedChunk[]; ids: Map<string, string> }> {
  const { files, pairs } = await labelledSet(160);
  const chunks: IndexedChunk[] = [];
  const ids = new Map<string, string>();
  const push = (document: string, title: string, texts: string[]) =>
    texts.forEach((text, chunk) =>
      chunks.push({
        id: `${document}:${chunk}`,
        document,
        chunk,
        title,
        text,
        vector: vectors ? Float32Array.from(fakeEmbedding(embeddingInput(title, text))) : null,
      }),
    );
  for (const file of files) {
    const content = await fileContent({ bytes: file.bytes, filename: file.filename });
    const document = `kdoc_${ids.size}`;
    ids.set(file.key, document);
    push(
      document,
      content.title?.trim() || file.filename,
      content.chunks.map((c) => c.text),
    );
  }
  const random = prng(7);
  for (let i = 0; chunks.length < target; i++) {
    const document = `kdoc_${ids.size}`;
    ids.set(`distractor-${i}`, document);
    push(
      document,
      `Notes ${i}`,
      textContent(distractor(random, 250, pairs)).chunks.map((c) => c.text),
    );
  }
  return { chunks, ids };
}

type Mode = 'bm25' | 'hybrid' | 'vector';

function searchOf(index: KnowledgeIndex, mode: Mode, query: Float32Array) {
  return (q: string, limit: number) =>
    mode === 'bm25' ? index.search(q, limit) : index.rank(q, limit, { vector: query, mode }).hits;
}

async function main(): Promise<void> {
  const target = Number(process.env.BENCH_CHUNKS ?? 50_000);
  const vectors = process.env.BENCH_VECTORS !== '0';
  const { questions } = await labelledSet(160);
  const { chunks, ids } = await corpus(target, vectors);
  const t0 = performance.now();
  const index = new KnowledgeIndex(chunks);
  console.log(
    `knowledge index in memory: ${index.size} chunks, ${index.vectorCount} vectors; built in ${Math.round(performance.now() - t0)} ms; node ${process.version}, ${os.cpus().length} CPUs, load ${load()}`,
  );
  const embedded = new Map(questions.map((q) => [q.query, Float32Array.from(fakeEmbedding(q.query))]));
  const modes: Mode[] = vectors ? ['bm25', 'hybrid', 'vector'] : ['bm25'];
  for (const mode of modes) {
    const sums: Record<string, { n: number; hit5: number; rr: number }> = {};
    for (const q of questions) {
      const hits = searchOf(index, mode, embedded.get(q.query)!)(q.query, 10);
      const rank = hits.map((h) => h.document).indexOf(ids.get(q.relevant)!) + 1;
      for (const key of ['all', q.kind]) {
        const s = (sums[key] ??= { n: 0, hit5: 0, rr: 0 });
        s.n++;
        if (rank > 0 && rank <= 5) s.hit5++;
        if (rank > 0) s.rr += 1 / rank;
      }
    }
    const line = Object.entries(sums).map(
      ([k, s]) => `${k} recall@5 ${(s.hit5 / s.n).toFixed(3)} MRR ${(s.rr / s.n).toFixed(3)}`,
    );
    console.log(`  ${mode}: ${line.join('; ')}`);
  }
  const queries: Question[] = Array.from({ length: 1_000 }, (_, i) => questions[i % questions.length]);
  for (const mode of modes) {
    const timed = (q: Question) => {
      const t = performance.now();
      searchOf(index, mode, embedded.get(q.query)!)(q.query, 5);
      return performance.now() - t;
    };
    queries.slice(0, 100).forEach(timed);
    const times = queries.map((q) => ({ q, ms: timed(q) }));
    const stats = (values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return `p50 ${fixed(percentile(s, 50))} / p95 ${fixed(percentile(s, 95))} / p99 ${fixed(percentile(s, 99))} ms`;
    };
    const byKind = (['paraphrase', 'exact'] as const).map(
      (k) => `${k} ${stats(times.filter((t) => t.q.kind === k).map((t) => t.ms))}`,
    );
    console.log(`  ${mode} latency: ${stats(times.map((t) => t.ms))}; ${byKind.join('; ')}; load ${load()}`);
    const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`    slowest: ${slowest.map((t) => `${fixed(t.ms)} ms "${t.q.query}"`).join(', ')}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
