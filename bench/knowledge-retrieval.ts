/**
 * Retrieval benchmark of knowledge (not a timed test): recall@5 and MRR of BM25, vectors and their fusion
 * (reciprocal rank fusion, the service's `hybrid`) on a labelled set, and search latency at BENCH_CHUNKS
 * chunks (default 50,000) for one agent in a store that holds other agents' chunks too.
 *
 * The corpus is built by bench/knowledge-corpus.ts and written through the service's own write paths into
 * an embedded FerretDB: the labelled documents as files, as `POST /v1/knowledge` takes one (`fileContent`:
 * extraction in the worker thread, chunking by headings and pages; then `createKnowledgeDocument`:
 * embedding through the `openai` client, chunk rows, revision), the distractors as posted text.
 * Embeddings come from the fake OpenAI server's deterministic model (test/support/fake-embeddings.ts) over
 * loopback HTTP, served from a worker thread (bench/fake-llm-thread.ts: an embedding server is another
 * process in a deployment; BENCH_EMBEDDING_INLINE=1 serves it from the benchmark's own event loop, as
 * runs before 2026-12-01 did; BENCH_EMBEDDING_DELAY_MS=20 has each answer wait 20 ms, as a remote model
 * would), or from a real server when BENCH_EMBEDDING_MODEL (with
 * OPENAI_EMBEDDING_BASE_URL / OPENAI_EMBEDDING_API_KEY, else OPENAI_BASE_URL / OPENAI_API_KEY) is set.
 *
 * Latency: the warm end-to-end search (`KnowledgeSearcher.find`: the version read and the query's
 * embedding side by side, the search ranking BM25 while the embedding is awaited) and, alternating with
 * it query by query, the same steps one after the other ("sequential": the version read and index
 * update, then the embedding, then the search, as `find` did before), then each step alone.
 *
 * Labelled set (labels from the construction, not from any search; see bench/knowledge-corpus.ts):
 * BENCH_LABELLED files (default 160: PDF, DOCX, HTML, Markdown, TXT and CSV in turn, 26 or 27 of each),
 * each about an entity with a made-up name and a pair of topics (synonym groups of the fake model) no
 * other labelled file has, two questions each:
 * - `paraphrase`: the two topics asked with other words of their groups ("reimburse" for "refund"), no
 *   word of the document's own: what retrieval by meaning is for;
 * - `exact`: the entity's name (in some with the document's own word for a topic): what BM25 is for.
 * The rest of the agent's chunks are topical distractor documents of seeded random text (three synonym
 * groups each, no two of them a labelled pair; common words and made-up names around them).
 * Figures: overall, by kind of question and by the labelled document's file type; and, with the fake
 * model, the same vectors ranked exactly (brute-force cosine, "vector, exact (no index)") beside the
 * service's approximate HNSW index, which tells the embeddings' quality from the index's.
 *
 * Why vectors used to collapse at 50,000 chunks (recall@5 0.05): not the labelled set (ranked exactly, the
 * old set's paraphrases still found their document at 50,000 chunks, recall@5 0.96) but (1) the HNSW
 * index's approximate search (expansion 64): the old distractors were word salad over every topic, whose
 * vectors are near-uniform in 384 dimensions, the worst case for a graph index (it returned about half of
 * the true 10 nearest already at 5,000 chunks); real text, and the topical distractors now, have
 * neighbourhoods; and (2) the fake model hashed its concepts, so some unrelated ones cancelled out (it
 * now gives each its own dimension). Every run builds the same corpus (seeded PRNG). Nothing here was
 * tuned to the answers: the templates were written once, and the figures are what they are.
 *
 *   npm run bench:knowledge-retrieval      (BENCH_CHUNKS=50000 BENCH_OTHER_CHUNKS=20000)
 *   BENCH_CHUNKS=5000 BENCH_OTHER_CHUNKS=0 node dist/bench/knowledge-retrieval.js
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config, loadConfig, setConfig } from '../src/config';
import { connectStore, disconnectStore } from '../src/models/register';
import { freePort, infraBinaries, startFerretDB } from '../src/dev/infra';
import { newId } from '../src/shared/ids';
import {
  createKnowledgeDocument,
  embeddingInput,
  fileContent,
  FUSION_CANDIDATES,
  KNOWLEDGE_LIMITS,
  KnowledgeSearcher,
  knowledgeVersion,
  rankIndex,
  textContent,
  type KnowledgeIndex,
} from '../src/services/knowledge';
import { embedTexts } from '../src/providers/embeddings';
import { startFakeLlm } from '../test/support/fake-llm';
import { benchEmbeddingDelayMs, startFakeLlmThread } from './fake-llm-thread';
import { fakeEmbedding } from '../test/support/fake-embeddings';
import {
  distractor,
  FILE_TYPES_BENCHED,
  labelledSet,
  prng,
  type LabelledFile,
  type Question,
} from './knowledge-corpus';
import { percentile } from './stats';

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const ms = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50), 2), p95: round(percentile(s, 95), 2), p99: round(percentile(s, 99), 2) };
};

type Scope = { orgId: string; livemode: boolean; agentId: string };

/** A chunk's embedding as the fake model makes it, and its document: for the exact (brute-force) ranking. */
type ExactVector = { document: string; vector: Float32Array };

/** The fake model's embedding of a stored chunk (what the fake server returned for it). */
const exactVector = (document: string, title: string, text: string): ExactVector => ({
  document,
  vector: Float32Array.from(fakeEmbedding(embeddingInput(title, text))),
});

/**
 * Writes documents through the service's write paths until the agent has at least `chunks` chunks: the
 * labelled files as `POST /v1/knowledge` takes a file (`fileContent`: extraction in the worker thread,
 * chunking by sections; the title the file's own, else its name), then distractor texts.
 * @param exact when given, receives every chunk's fake-model embedding (for the brute-force ranking)
 */
async function fill(
  scope: Scope,
  labelled: LabelledFile[],
  chunks: number,
  seed: number,
  pairs: Set<string>,
  exact?: ExactVector[],
): Promise<{ ids: Map<string, string>; labelledChunks: number }> {
  const ids = new Map<string, string>();
  const random = prng(seed);
  let total = 0;
  for (const file of labelled) {
    const content = await fileContent({ bytes: file.bytes, filename: file.filename });
    if (content.status !== 'ready')
      throw new Error(`${file.filename}: ${content.failureReason} ${content.failureMessage}`);
    const title = (content.title?.trim() || file.filename).slice(0, KNOWLEDGE_LIMITS.maxTitleCharacters);
    const id = newId('kdoc');
    ids.set(file.key, id);
    const doc = await createKnowledgeDocument({ ...scope, id, title, content }, async () => true);
    total += doc.chunks;
    for (const c of content.chunks) exact?.push(exactVector(id, title, c.text));
  }
  const labelledChunks = total;
  for (let i = 0; total < chunks; i++) {
    const text = distractor(random, 250, pairs);
    const title = `Notes ${i}`;
    const id = newId('kdoc');
    ids.set(`distractor-${i}`, id);
    const doc = await createKnowledgeDocument({ ...scope, id, title, text }, async () => true);
    total += doc.chunks;
    if (exact) for (const c of textContent(text).chunks) exact.push(exactVector(id, title, c.text));
  }
  return { ids, labelledChunks };
}

/** The documents of the `limit` chunks nearest `query` by exact cosine over `vectors` (no index). */
function exactNearest(vectors: ExactVector[], query: string, limit: number): string[] {
  const q = Float32Array.from(fakeEmbedding(query));
  const best: { s: number; document: string }[] = [];
  for (const { document, vector } of vectors) {
    let s = 0;
    for (let k = 0; k < q.length; k++) s += q[k] * vector[k];
    if (best.length < limit || s > best[best.length - 1].s) {
      best.push({ s, document });
      best.sort((x, y) => y.s - x.s);
      if (best.length > limit) best.pop();
    }
  }
  return best.map((b) => b.document);
}

type Ranking = 'bm25' | 'vector' | 'hybrid' | 'exact';
type Scores = Record<string, { recall5: number; mrr: number }>;

/**
 * Recall@5 and MRR (first relevant chunk within the top 10) of `questions`: overall (`all`), by kind
 * (`paraphrase`, `exact`) and by the labelled document's file type. `exact`: the fake model's vectors
 * ranked by brute-force cosine (`vectors`), no index.
 */
async function quality(
  index: KnowledgeIndex,
  questions: Question[],
  ids: Map<string, string>,
  mode: Ranking,
  candidates?: number,
  vectors: ExactVector[] = [],
): Promise<Scores> {
  const sums: Record<string, { n: number; hit5: number; rr: number }> = {};
  for (const q of questions) {
    let documents: string[];
    if (mode === 'exact') documents = exactNearest(vectors, q.query, 10);
    else {
      const { hits, retrieval } =
        mode === 'bm25'
          ? { hits: index.search(q.query, 10), retrieval: 'bm25' }
          : await rankIndex(index, q.query, 10, mode, candidates);
      if (retrieval !== mode)
        throw new Error(`asked ${mode}, searched ${retrieval}: is the embedding model configured?`);
      documents = hits.map((h) => h.document);
    }
    const rank = documents.indexOf(ids.get(q.relevant)!) + 1;
    for (const key of ['all', q.kind, q.type]) {
      const s = (sums[key] ??= { n: 0, hit5: 0, rr: 0 });
      s.n++;
      if (rank > 0 && rank <= 5) s.hit5++;
      if (rank > 0) s.rr += 1 / rank;
    }
  }
  return Object.fromEntries(
    Object.entries(sums).map(([k, s]) => [k, { recall5: round(s.hit5 / s.n), mrr: round(s.rr / s.n) }]),
  );
}

/** Prints the quality tables: by kind of question, then by file type (recall@5 / MRR). */
function printQuality(table: Record<string, Scores>, questions: Question[]): void {
  console.log(
    '  | retrieval | recall@5 all | MRR all | recall@5 paraphrase | MRR paraphrase | recall@5 exact | MRR exact |',
  );
  for (const [mode, r] of Object.entries(table))
    console.log(
      `  | ${mode} | ${r.all.recall5} | ${r.all.mrr} | ${r.paraphrase.recall5} | ${r.paraphrase.mrr} | ${r.exact.recall5} | ${r.exact.mrr} |`,
    );
  const count = (t: string) => questions.filter((q) => q.type === t).length;
  console.log(
    `  by file type of the labelled document, recall@5 / MRR (questions: ${FILE_TYPES_BENCHED.map((t) => `${t} ${count(t)}`).join(', ')}):`,
  );
  console.log(`  | retrieval | ${FILE_TYPES_BENCHED.join(' | ')} |`);
  for (const [mode, r] of Object.entries(table))
    console.log(
      `  | ${mode} | ${FILE_TYPES_BENCHED.map((t) => (r[t] ? `${r[t].recall5} / ${r[t].mrr}` : '–')).join(' | ')} |`,
    );
}

async function latency(searcher: KnowledgeSearcher, scope: Scope, queries: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    await searcher.find({ ...scope, query: q, limit: 5 });
    out.push(performance.now() - t0);
  }
  return out;
}

/** The query embedding's attempts and timeout, as a search asks them (src/services/knowledge.ts). */
const QUERY_EMBEDDING = { attempts: 2, timeoutMs: 1_500 };

/**
 * `find` (hybrid) and the same steps one after the other (the version read and index update, the query's
 * embedding, the search: what `find` did before they overlapped), alternating which goes first query by
 * query so that both see the same load.
 */
async function latencyPaired(
  searcher: KnowledgeSearcher,
  scope: Scope,
  queries: string[],
): Promise<{ overlapped: number[]; sequential: number[] }> {
  const overlapped: number[] = [];
  const sequential: number[] = [];
  const timed = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const one = (q: string) => timed(() => searcher.find({ ...scope, query: q, limit: 5 }));
  const steps = (q: string) =>
    timed(async () => {
      const index = await searcher.index(scope);
      const [v] = (await embedTexts([q], QUERY_EMBEDDING))!;
      return index.rank(q, 5, { vector: Float32Array.from(v) });
    });
  for (const [i, q] of queries.entries()) {
    if (i % 2) {
      overlapped.push(await one(q));
      sequential.push(await steps(q));
    } else {
      sequential.push(await steps(q));
      overlapped.push(await one(q));
    }
  }
  return { overlapped, sequential };
}

async function main(): Promise<void> {
  const target = Math.max(500, Number(process.env.BENCH_CHUNKS ?? 50_000));
  const others = Math.max(0, Number(process.env.BENCH_OTHER_CHUNKS ?? 20_000));
  const { files, questions, pairs } = await labelledSet(Math.max(150, Number(process.env.BENCH_LABELLED ?? 160)));
  const inline = process.env.BENCH_EMBEDDING_INLINE === '1';
  const startInline = async () => {
    const fake = await startFakeLlm();
    fake.embeddingDelayMs = benchEmbeddingDelayMs();
    return fake;
  };
  const llm = inline ? await startInline() : await startFakeLlmThread();
  const realModel = process.env.BENCH_EMBEDDING_MODEL;
  const base = loadConfig({ ...process.env, PORT: '0' });
  const withModel = {
    ...base,
    openaiEmbeddingModel: realModel ?? 'fake-embedding',
    openaiEmbeddingBaseUrl: realModel ? base.openaiEmbeddingBaseUrl : llm.baseUrl,
    openaiEmbeddingApiKey: realModel ? base.openaiEmbeddingApiKey : 'sk-fake',
  };
  setConfig(withModel);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-retrieval-'));
  const ferret = await startFerretDB((await infraBinaries()).ferretdb, dataDir, await freePort());
  try {
    await connectStore(ferret.uri);
    const org = newId('org');
    const scope = { orgId: org, livemode: false, agentId: newId('agt') };
    let t0 = performance.now();
    const vectors: ExactVector[] | undefined = realModel ? undefined : [];
    const { ids, labelledChunks } = await fill(scope, files, target, 7, pairs, vectors);
    const writeS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    for (let a = 0; a < 2 && others > 0; a++)
      await fill({ orgId: newId('org'), livemode: false, agentId: newId('agt') }, [], others / 2, 100 + a, pairs);
    const otherS = (performance.now() - t0) / 1000;

    const searcher = new KnowledgeSearcher();
    t0 = performance.now();
    const index = await searcher.index(scope);
    const coldMs = Math.round(performance.now() - t0);
    const table: Record<string, Scores> = {};
    for (const mode of ['bm25', 'vector', 'hybrid'] as const) table[mode] = await quality(index, questions, ids, mode);
    // The same vectors ranked exactly (brute force), apart from the service's approximate (HNSW) index.
    if (vectors) table['vector, exact (no index)'] = await quality(index, questions, ids, 'exact', undefined, vectors);
    // The fusion window (chunks each ranking gives RRF): the service's default above, and others beside.
    for (const window of [10, 20, 50, 100].filter((w) => w !== FUSION_CANDIDATES))
      table[`hybrid, window ${window}`] = await quality(index, questions, ids, 'hybrid', window);

    const queries = Array.from({ length: 1_000 }, (_, i) => questions[i % questions.length].query);
    await latencyPaired(searcher, scope, queries.slice(0, 100)); // warm-up
    const { overlapped: hybridMs, sequential: sequentialMs } = await latencyPaired(searcher, scope, queries);
    const memMs: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      index.search(q, 5);
      memMs.push(performance.now() - t);
    }
    // The split of a hybrid search: the query's embedding (the model's time, over loopback HTTP) and the
    // index search (BM25, nearest neighbours, fusion, top 5) given that embedding.
    const embedMs: number[] = [];
    const queryVectors: Float32Array[] = [];
    for (const q of queries) {
      const t = performance.now();
      const [v] = (await embedTexts([q], QUERY_EMBEDDING))!;
      embedMs.push(performance.now() - t);
      queryVectors.push(Float32Array.from(v));
    }
    // The version read each search starts with (FerretDB over loopback TCP; the head and the next change row).
    const versionMs: number[] = [];
    const seen = await knowledgeVersion(scope.agentId);
    for (let i = 0; i < queries.length; i++) {
      const t = performance.now();
      await knowledgeVersion(scope.agentId, seen);
      versionMs.push(performance.now() - t);
    }
    const indexMs = queries.map((q, i) => {
      const t = performance.now();
      index.rank(q, 5, { vector: queryVectors[i] });
      return performance.now() - t;
    });
    const vectorMs = queries.map((q, i) => {
      const t = performance.now();
      index.rank(q, 5, { vector: queryVectors[i], mode: 'vector' });
      return performance.now() - t;
    });
    setConfig({ ...withModel, openaiEmbeddingModel: undefined });
    const bm25Searcher = new KnowledgeSearcher();
    await latency(bm25Searcher, scope, queries.slice(0, 100));
    const bm25Ms = await latency(bm25Searcher, scope, queries);
    setConfig(withModel);

    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `knowledge retrieval: embedding server ${inline ? 'on this event loop' : 'on a worker thread'}, answering after ${benchEmbeddingDelayMs()} ms; ${index.size} chunks (${index.vectorCount} with ${index.vectorDimensions}-dimension embeddings by ${config().openaiEmbeddingModel}) in ${ids.size} documents of one agent, ${others} chunks of 2 other agents in the store; node ${process.version}, ${os.cpus().length} CPUs, load ${load}`,
    );
    console.log(`  fusion window (chunks of each ranking fused): ${FUSION_CANDIDATES}`);
    console.log(
      `  written in ${writeS.toFixed(0)} s (+ ${otherS.toFixed(0)} s for the other agents); cold load + index build ${coldMs} ms`,
    );
    console.log(
      `  ${questions.length} labelled questions (${questions.length / 2} paraphrase, ${questions.length / 2} exact) over ${files.length} labelled files (${labelledChunks} chunks)`,
    );
    printQuality(table, questions);
    const h = ms(hybridMs);
    const sq = ms(sequentialMs);
    const b = ms(bm25Ms);
    console.log(
      `  end to end incl. query embedding (warm searchKnowledge: version read and query embedding over loopback HTTP side by side, then the search, top 5), ${queries.length} searches: hybrid p50 ${h.p50} ms, p95 ${h.p95} ms, p99 ${h.p99} ms (target p95 ≤ 30 ms); the same steps one after the other (alternating with it) p50 ${sq.p50} ms, p95 ${sq.p95} ms, p99 ${sq.p99} ms; bm25 only p50 ${b.p50} ms, p95 ${b.p95} ms; in-memory BM25 p95 ${ms(memMs).p95} ms`,
    );
    const ix = ms(indexMs);
    const em = ms(embedMs);
    console.log(
      `  search (index), hybrid, given the query's embedding: p50 ${ix.p50} ms, p95 ${ix.p95} ms, p99 ${ix.p99} ms; in-memory BM25 p50 ${ms(memMs).p50} ms, p95 ${ms(memMs).p95} ms; vector alone (HNSW) p50 ${ms(vectorMs).p50} ms, p95 ${ms(vectorMs).p95} ms; query embedding alone p50 ${em.p50} ms, p95 ${em.p95} ms; version read alone p50 ${ms(versionMs).p50} ms, p95 ${ms(versionMs).p95} ms`,
    );
    console.log(
      JSON.stringify({
        chunks: index.size,
        other_chunks: others,
        write_s: round(writeS, 1),
        cold_ms: coldMs,
        quality: table,
        hybrid_ms: h,
        sequential_ms: sq,
        bm25_ms: b,
        memory_bm25_ms: ms(memMs),
        index_hybrid_ms: ix,
        index_vector_ms: ms(vectorMs),
        query_embedding_ms: em,
        version_read_ms: ms(versionMs),
      }),
    );
  } finally {
    await disconnectStore();
    await ferret.stop();
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
