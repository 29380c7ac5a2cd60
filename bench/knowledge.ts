/**
 * Knowledge search benchmark (not a timed test). An agent's knowledge of BENCH_CHUNKS chunks (default
 * 10,000): the labelled set of bench/knowledge-set.ts (20 documents, 40 labelled questions) plus
 * distractor documents of seeded random text drawn from common English and the same shop vocabulary.
 * Prints:
 *
 *   1. In memory (the `KnowledgeIndex` every process caches): build time, search latency p50/p95/p99
 *      over BENCH_SEARCHES queries (goal: p95 ≤ 20 ms), and recall@5 on the labelled questions (a
 *      question counts when a chunk of its document is among the 5 best).
 *   2. Through the store (embedded FerretDB, the path a turn takes): documents written with
 *      `createKnowledgeDocument`; the first search of a process (load 10,000 chunks + build the index);
 *      `searchKnowledge` p50/p95 with a warm cache (the version read plus the search); and the first
 *      search after a document is replaced (the cached index takes in that document only).
 *
 *   npm run bench:knowledge
 *   BENCH_CHUNKS=20000 BENCH_SEARCHES=5000 BENCH_STORE=0 node dist/bench/knowledge.js
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  chunkText,
  createKnowledgeDocument,
  KnowledgeIndex,
  KnowledgeSearcher,
  replaceKnowledgeDocument,
  type IndexedChunk,
} from '../src/services/knowledge';
import { connectStore, disconnectStore } from '../src/models/register';
import { freePort, infraBinaries, startFerretDB } from '../src/dev/infra';
import { newId } from '../src/shared/ids';
import { DISTRACTOR_WORDS, LABELLED_DOCUMENTS, LABELLED_QUERIES } from './knowledge-set';
import { percentile } from './stats';

/** A seeded PRNG (mulberry32), so every run indexes the same text. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'shi',
  'pe',
  'da',
  'gri',
  'fon',
  'bel',
  'mar',
  'tos',
  'quin',
  'dre',
  'lum',
  'sa',
  'vi',
];
/** 20,000 made-up words (names, places, jargon of a real knowledge base), all distinct. */
const SYNTHETIC_WORDS = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  let n = i + SYLLABLES.length;
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return w;
});

/** A distractor document of `paragraphs` paragraphs of random sentences (Zipf-like word choice). */
function distractor(random: () => number, paragraphs: number): string {
  const word = () =>
    random() < 0.5
      ? SYNTHETIC_WORDS[Math.floor(SYNTHETIC_WORDS.length * random() ** 3)]
      : DISTRACTOR_WORDS[Math.floor(DISTRACTOR_WORDS.length * random() ** 2)];
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
    return `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  return Array.from({ length: paragraphs }, () =>
    Array.from({ length: 4 + Math.floor(random() * 4) }, sentence).join(' '),
  ).join('\n\n');
}

const ms = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const r = (p: number) => Math.round(percentile(s, p) * 100) / 100;
  return { p50: r(50), p95: r(95), p99: r(99) };
};

/** The corpus: labelled documents first, then distractor documents until at least `target` chunks. */
function corpus(target: number): { key: string; title: string; text: string; chunks: string[] }[] {
  const random = prng(42);
  const docs = LABELLED_DOCUMENTS.map((d) => ({ ...d, chunks: chunkText(d.text) }));
  let total = docs.reduce((n, d) => n + d.chunks.length, 0);
  for (let i = 0; total < target; i++) {
    const text = distractor(random, 60);
    const chunks = chunkText(text);
    docs.push({ key: `distractor-${i}`, title: `Shop notes ${i}`, text, chunks });
    total += chunks.length;
  }
  return docs;
}

function recallAt5(
  search: (q: string) => { document: string }[],
  idOf: (key: string) => string,
): { recall: number; misses: string[] } {
  const misses: string[] = [];
  for (const q of LABELLED_QUERIES) {
    if (
      !search(q.query)
        .slice(0, 5)
        .some((h) => h.document === idOf(q.relevant))
    )
      misses.push(q.query);
  }
  return {
    recall: Math.round(((LABELLED_QUERIES.length - misses.length) / LABELLED_QUERIES.length) * 1000) / 1000,
    misses,
  };
}

async function main(): Promise<void> {
  const target = Math.max(100, Number(process.env.BENCH_CHUNKS ?? 10_000));
  const searches = Math.max(100, Number(process.env.BENCH_SEARCHES ?? 2_000));
  const docs = corpus(target);
  const chunks: IndexedChunk[] = docs.flatMap((d) =>
    d.chunks.map((text, n) => ({ id: `${d.key}:${n}`, document: d.key, chunk: n, title: d.title, text })),
  );
  const random = prng(7);
  const queries = Array.from({ length: searches }, (_, i) => LABELLED_QUERIES[i % LABELLED_QUERIES.length].query);
  const common = DISTRACTOR_WORDS.filter((w) => w.length > 3).slice(0, 120);
  const stress = Array.from({ length: 200 }, () =>
    Array.from({ length: 4 + Math.floor(random() * 3) }, () => common[Math.floor(random() * common.length)]).join(' '),
  );

  // 1. In memory.
  let t0 = performance.now();
  const index = new KnowledgeIndex(chunks);
  const buildMs = Math.round(performance.now() - t0);
  for (const q of queries.slice(0, 200)) index.search(q, 5); // warm-up
  // Wall time, and CPU time (what a search costs, whatever else the machine runs meanwhile).
  const searchMs: number[] = [];
  const cpuMs: number[] = [];
  for (const q of queries) {
    const c0 = process.cpuUsage();
    t0 = performance.now();
    index.search(q, 5);
    searchMs.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
  }
  const stressMs: number[] = [];
  for (const q of stress) {
    t0 = performance.now();
    index.search(q, 5);
    stressMs.push(performance.now() - t0);
  }
  const memory = recallAt5(
    (q) => index.search(q, 5),
    (key) => key,
  );
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `knowledge: ${index.size} chunks in ${docs.length} documents (${LABELLED_DOCUMENTS.length} labelled), node ${process.version}, ${os.cpus().length} CPUs, load average ${load}`,
  );
  console.log(
    `  in memory: index build ${buildMs} ms; search p50 ${ms(searchMs).p50} ms, p95 ${ms(searchMs).p95} ms, p99 ${ms(searchMs).p99} ms over ${searches} labelled questions (goal p95 ≤ 20 ms)`,
  );
  console.log(`  CPU time per search: p50 ${ms(cpuMs).p50} ms, p95 ${ms(cpuMs).p95} ms`);
  console.log(`  stress (only common shop words): p50 ${ms(stressMs).p50} ms, p95 ${ms(stressMs).p95} ms`);
  console.log(
    `  recall@5: ${memory.recall} on ${LABELLED_QUERIES.length} labelled questions${memory.misses.length ? `; missed: ${memory.misses.map((m) => JSON.stringify(m)).join(', ')}` : ''}`,
  );
  const result: Record<string, unknown> = {
    chunks: index.size,
    documents: docs.length,
    load_average: load,
    build_ms: buildMs,
    search_ms: ms(searchMs),
    search_cpu_ms: ms(cpuMs),
    stress_ms: ms(stressMs),
    recall_at_5: memory.recall,
    misses: memory.misses,
  };

  // 2. Through the store.
  if (process.env.BENCH_STORE !== '0') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-knowledge-'));
    const ferret = await startFerretDB((await infraBinaries()).ferretdb, dataDir, await freePort());
    try {
      await connectStore(ferret.uri);
      const scope = { orgId: newId('org'), livemode: false, agentId: newId('agt') };
      const ids = new Map<string, string>();
      t0 = performance.now();
      for (const d of docs) {
        const id = newId('kdoc');
        ids.set(d.key, id);
        await createKnowledgeDocument({ ...scope, id, title: d.title, text: d.text }, async () => true);
      }
      const writeS = (performance.now() - t0) / 1000;
      const searcher = new KnowledgeSearcher();
      t0 = performance.now();
      const stored = await searcher.index(scope);
      const coldMs = Math.round(performance.now() - t0);
      const warmMs: number[] = [];
      for (const q of queries.slice(0, Math.min(500, searches))) {
        t0 = performance.now();
        await searcher.search({ ...scope, query: q, limit: 5 });
        warmMs.push(performance.now() - t0);
      }
      const afterChangeMs: number[] = [];
      for (let i = 0; i < 10; i++) {
        const key = LABELLED_DOCUMENTS[i].key;
        await replaceKnowledgeDocument(scope, ids.get(key)!, newId('req'), {
          text: `${LABELLED_DOCUMENTS[i].text}\n\nRevised ${i}.`,
        });
        t0 = performance.now();
        await searcher.search({ ...scope, query: LABELLED_QUERIES[0].query, limit: 5 });
        afterChangeMs.push(performance.now() - t0);
      }
      const hitsByQuery = new Map<string, { document: string }[]>();
      for (const q of LABELLED_QUERIES)
        hitsByQuery.set(q.query, await searcher.search({ ...scope, query: q.query, limit: 5 }));
      const storeRecall = recallAt5(
        (q) => hitsByQuery.get(q)!,
        (key) => ids.get(key)!,
      );
      console.log(
        `  store (FerretDB): ${stored.size} chunks written in ${writeS.toFixed(1)} s; cold load + build ${coldMs} ms; warm searchKnowledge (version read + search) p50 ${ms(warmMs).p50} ms, p95 ${ms(warmMs).p95} ms; first search after a replace p50 ${ms(afterChangeMs).p50} ms; recall@5 ${storeRecall.recall}`,
      );
      result.store = {
        chunks: stored.size,
        write_s: Math.round(writeS * 10) / 10,
        cold_ms: coldMs,
        warm_ms: ms(warmMs),
        after_change_ms: ms(afterChangeMs),
        recall_at_5: storeRecall.recall,
      };
    } finally {
      await disconnectStore();
      await ferret.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(JSON.stringify(result));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
