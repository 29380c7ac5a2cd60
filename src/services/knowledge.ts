/**
 * Knowledge: an agent's documents, chunked, stored, and searched by words (BM25) and, when an embedding
 * model is configured, by meaning too (DESIGN.md sections 6 and 10).
 * Shared by the API (`/v1/knowledge`, which writes), the LLM activity and the `searchKnowledge` activity
 * (which read), and any channel that gives an assistant knowledge (calls, conversations, the widget).
 *
 * - Chunking (`chunkText`): by paragraphs, about 220 words a chunk (at most 320), each chunk starting
 *   with the last ~40 words of the one before, so a fact split across a boundary is whole in one chunk.
 * - Ranking: BM25 (BM25+, k1 1.2, b 0.7) by the `minisearch` library over title and text, title boosted,
 *   prefix matching for longer terms, small-typo matching for longer terms no chunk holds; a stop-word
 *   list keeps "what is the…" from matching everything. No ranking code of our own.
 * - Retrieval by meaning: with `OPENAI_EMBEDDING_MODEL` set, every chunk is embedded (title and text,
 *   src/providers/embeddings.ts) when its revision is written, the vector stored on the chunk row; each
 *   agent's index then also holds an HNSW graph of the vectors (src/services/knowledge-vectors.ts, the
 *   `usearch` library), and a search embeds the query and fuses the BM25 and vector rankings (their top
 *   `FUSION_CANDIDATES`, 10, each) by reciprocal rank fusion, k = 60 (src/services/rank-fusion.ts): retrieval
 *   `hybrid`. Without a model, or when the query cannot be embedded, or no chunk of the agent has a
 *   vector of the model's dimension, it is BM25 alone: retrieval `bm25`, said in every search answer.
 * - Freshness across processes: every write stores its rows first, then inserts the agent's next change
 *   row (src/models/knowledge.ts), then the API answers. A search reads the agent's version (its greatest
 *   change number) first, and uses the process's cached index only if it was built under that version;
 *   else it rebuilds from the store. So every worker and API process agrees, and a replaced or deleted
 *   document is never returned once the API has answered its replace or delete.
 */
import MiniSearch from 'minisearch';
import { ApiError, notFound } from '../errors';
import { insertIfAbsent, isDuplicateKey, seconds, type WithId } from '../models/store';
import { KnowledgeCrawl, KnowledgePage } from '../models/knowledge-crawls';
import {
  KnowledgeChange,
  KnowledgeChunk,
  KnowledgeHead,
  KnowledgeDocument,
  KnowledgeRevision,
  renderKnowledgeDocument,
  type CrawlView,
  type KnowledgeDocumentDoc,
  type KnowledgeDocumentObject,
  type KnowledgeRevisionDoc,
  type KnowledgeDocumentSource,
} from '../models/knowledge';
import { idTime } from '../shared/ids';
import { MAX_KEPT_FAILURES } from '../shared/knowledge-crawl';
import {
  detectFileType,
  extractDocument,
  FILE_TYPES,
  KnowledgeSourceError,
  type ExtractedSection,
} from './knowledge-extract';
import type { KnowledgeRef, KnowledgeSource } from '../shared/assistant';
import {
  decodeEmbedding,
  EMBEDDING_BATCH,
  embeddingModel,
  embedTexts,
  EmbeddingUnavailableError,
  encodeEmbedding,
} from '../providers/embeddings';
import { logger } from '../logger';
import { VectorIndex } from './knowledge-vectors';
import { reciprocalRankFusion } from './rank-fusion';

/** Limits of `POST /v1/knowledge` (the numbers). */
export const KNOWLEDGE_LIMITS = {
  /** Characters of a document's text. */
  maxCharacters: 500_000,
  /** Live documents per agent; one more is 400 `knowledge_document_limit`. */
  maxDocumentsPerAgent: 1_000,
  maxTitleCharacters: 500,
  maxQueryCharacters: 1_000,
};

/** Chunking parameters, in words. */
export const CHUNKING = { targetWords: 220, maxWords: 320, overlapWords: 40, maxWordCharacters: 40 };

/** Where a document or chunk lives: the organization, mode and agent. */
export interface AgentScope {
  orgId: string;
  livemode: boolean;
  agentId: string;
}

/**
 * A search result: the chunk, its document's current title, its source (to cite), and its score, higher
 * is better: the BM25 score (retrieval `bm25`), the cosine similarity (`vector`, the benchmark's), or
 * the reciprocal-rank-fusion score (`hybrid`, at most 2 / 61).
 */
export interface KnowledgeHit extends KnowledgeRef {
  title: string;
  text: string;
  /** The heading the chunk sits under in its file, and its PDF page (both null for posted text). */
  heading: string | null;
  page: number | null;
  score: number;
  source: KnowledgeSource;
}

/**
 * How a search ranked: `bm25` (words only: no embedding model, or the query could not be embedded, or no
 * chunk has a vector), `hybrid` (BM25 and vectors fused); `vector` (vectors only) is for the benchmark.
 */
export type KnowledgeRetrieval = 'bm25' | 'hybrid' | 'vector';

/** What a search found, and how it ranked. */
export interface KnowledgeSearchResult {
  hits: KnowledgeHit[];
  retrieval: KnowledgeRetrieval;
}

/**
 * A chunk to store: its text and, for sources that have them, the heading it follows, a PDF's page, the
 * web page it was read from and that page's content hash. Other fields of a copied row (e.g. a stored
 * embedding) are kept as they are.
 */
export interface ChunkPiece {
  text: string;
  heading?: string | null;
  page?: number | null;
  url?: string | null;
  content_hash?: string | null;
  [field: string]: unknown;
}

/**
 * What a revision holds: its chunks and text length, where the text came from, and whether it is usable
 * (`failed`: a file that gave no text, with a `FILE_FAILURES` code and a sentence; no chunks then).
 */
export interface KnowledgeContent {
  chunks: ChunkPiece[];
  characters: number;
  source?: KnowledgeDocumentSource;
  status?: 'ready' | 'failed';
  failureReason?: string;
  failureMessage?: string;
  /** The file's own title (PDF metadata, `<title>`, first heading), for a document posted without one. */
  title?: string | null;
}

// ---------------------------------------------------------------------------------------------------
// Chunking

/**
 * Splits a document's text into chunks: paragraphs (blank-line separated) are packed into chunks of about
 * `CHUNKING.targetWords` words; a paragraph longer than `maxWords` is split at sentence ends (and a
 * sentence longer than that, between words); every chunk after the first starts with the last
 * `overlapWords` words of the previous one. Words longer than 40 characters are cut, so no chunk exceeds
 * about 13,000 characters whatever the input. Whitespace inside a paragraph is collapsed.
 * @returns at least one chunk for a text with any non-space character; none for a blank one
 */
export function chunkText(text: string, opts: Partial<typeof CHUNKING> = {}): string[] {
  const { targetWords, maxWords, overlapWords, maxWordCharacters } = { ...CHUNKING, ...opts };
  const words = (s: string) =>
    s
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((w) =>
        w.length <= maxWordCharacters ? [w] : (w.match(new RegExp(`.{1,${maxWordCharacters}}`, 'gsu')) ?? []),
      );
  // Units: paragraphs, or pieces of a long paragraph, each at most maxWords words.
  const units: string[][] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const w = words(paragraph);
    if (w.length === 0) continue;
    if (w.length <= maxWords) {
      units.push(w);
      continue;
    }
    let piece: string[] = [];
    for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
      const sw = words(sentence);
      for (let i = 0; i < sw.length; i += maxWords) {
        const part = sw.slice(i, i + maxWords);
        if (piece.length > 0 && piece.length + part.length > targetWords) {
          units.push(piece);
          piece = [];
        }
        piece.push(...part);
      }
    }
    if (piece.length) units.push(piece);
  }
  const chunks: string[] = [];
  let current: string[][] = [];
  let count = 0;
  let fresh = 0; // words in `current` that are not overlap
  const emit = () => {
    if (fresh === 0) return;
    chunks.push(current.map((u) => u.join(' ')).join('\n\n'));
    const tail = current.flat().slice(-overlapWords);
    current = [tail];
    count = tail.length;
    fresh = 0;
  };
  for (const unit of units) {
    if (fresh > 0 && count + unit.length > targetWords) emit();
    current.push(unit);
    count += unit.length;
    fresh += unit.length;
  }
  emit();
  return chunks;
}

/**
 * Chunks of a file's sections (src/services/knowledge-extract.ts): each section is chunked on its own by
 * `chunkText` (paragraphs, then sentences), so a chunk never straddles a heading or a PDF page; each
 * chunk starts with its heading's line (what it is about, for search and for the assistant) and carries
 * the heading and page.
 */
export function chunkSections(sections: ExtractedSection[]): ChunkPiece[] {
  return sections.flatMap((section) =>
    chunkText(section.text).map((text) => ({
      text: section.heading ? `${section.heading}\n\n${text}` : text,
      heading: section.heading,
      page: section.page,
    })),
  );
}

// ---------------------------------------------------------------------------------------------------
// Versions

const changeId = (agentId: string, seq: number) => `${agentId}:${String(seq).padStart(12, '0')}`;

/** Change rows kept below the head (older ones are swept now and then). */
const KEPT_CHANGES = 100;

/**
 * The agent's knowledge version: the greatest change number, 0 when its knowledge never changed. Reads
 * the head (a hint, possibly behind: it is written after the change row, and FerretDB may lose one of
 * two concurrent `$max` updates), then walks the change rows up from it (or from `atLeast`, a version
 * already seen) until the next number is missing. Change numbers are contiguous, since a writer takes
 * number n + 1 only after finding row n. Only `_id` lookups: cheap on every store.
 *
 * The head and the row after `atLeast` are read side by side: an unchanged knowledge (or none: version
 * 0, the common case) costs one round trip, not two, on the way to each answer of a call.
 */
export async function knowledgeVersion(agentId: string, atLeast = 0): Promise<number> {
  const [head, next] = await Promise.all([
    KnowledgeHead.findById(agentId).select({ seq: 1 }).lean(),
    KnowledgeChange.exists({ _id: changeId(agentId, atLeast + 1) }),
  ]);
  let seq = Math.max(head?.seq ?? 0, atLeast);
  if (seq === atLeast) {
    if (!next) return seq;
    seq++;
  }
  while (await KnowledgeChange.exists({ _id: changeId(agentId, seq + 1) })) seq++;
  return seq;
}

/**
 * Records a change of the agent's knowledge: inserts change number (current version + 1), retrying with
 * the next number when a concurrent writer took it (the unique `_id`), then moves the head forward. Call
 * it after the change's rows are stored and before answering.
 * @returns the new version
 */
export async function bumpKnowledgeVersion(
  agentId: string,
  kdocId: string | null,
  kind: 'created' | 'replaced' | 'deleted',
): Promise<number> {
  let seq = 0;
  for (let attempt = 0; ; attempt++) {
    if (attempt >= 100)
      throw new Error(`could not record a knowledge change for ${agentId}: too many concurrent writers`);
    seq = (await knowledgeVersion(agentId, seq)) + 1;
    try {
      await KnowledgeChange.collection.insertOne({
        _id: changeId(agentId, seq),
        agent_id: agentId,
        seq,
        kdoc_id: kdocId,
        kind,
        created_ms: Date.now(),
      } as never);
      break;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await KnowledgeHead.updateOne({ _id: agentId }, { $max: { seq } }, { upsert: true });
      break;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // two first upserts at once: the second updates
    }
  }
  if (seq % KEPT_CHANGES === 0)
    await KnowledgeChange.deleteMany({ agent_id: agentId, seq: { $lt: seq - KEPT_CHANGES } });
  return seq;
}

// ---------------------------------------------------------------------------------------------------
// Documents

/** A revision id derived from a request's resource id, so a retried request writes the same rows. */
const revisionIdFor = (resourceId: string) => `krev_${resourceId.slice(resourceId.indexOf('_') + 1)}`;
const chunkId = (revisionId: string, n: number) => `${revisionId}:${String(n).padStart(5, '0')}`;

/**
 * The current (greatest-id) revision of each document in `kdocIds`: one `{kdoc_id}` query per document
 * (index `{kdoc_id: 1, _id: -1}`, newest first, one row), side by side; an `$in` is no index lookup on the
 * embedded store (src/models/store.ts `findByIds`).
 */
export async function currentRevisions(kdocIds: string[]): Promise<Map<string, WithId<KnowledgeRevisionDoc>>> {
  const latest = new Map<string, WithId<KnowledgeRevisionDoc>>();
  const newest = await Promise.all(
    [...new Set(kdocIds)].map((id) => KnowledgeRevision.find({ kdoc_id: id }).sort({ _id: -1 }).limit(1).lean()),
  );
  for (const [r] of newest as WithId<KnowledgeRevisionDoc>[][]) if (r) latest.set(r.kdoc_id, r);
  return latest;
}

/** What is embedded for a chunk: its document's title, then its text (the title often names the topic). */
export function embeddingInput(title: string, text: string): string {
  return `${title}\n\n${text}`;
}

/**
 * The embeddings of a revision's chunks (`embedTexts`), as stored on chunk rows: `embedding` (float32
 * bytes) and `embedding_model`; no fields when no embedding model is configured.
 * @throws ApiError 503 `embedding_unavailable` when the embedding server still fails after its retries:
 *   the write stores nothing (chunks are written after this), and the client may retry it
 */
export async function chunkEmbeddings(
  title: string,
  chunks: string[],
): Promise<{ embedding: Buffer; embedding_model: string }[] | null> {
  let vectors: number[][] | null;
  try {
    vectors = await embedTexts(chunks.map((text) => embeddingInput(title, text)));
  } catch (err) {
    if (!(err instanceof EmbeddingUnavailableError)) throw err;
    throw new ApiError(
      503,
      'api_error',
      'embedding_unavailable',
      `${err.message}. Nothing was stored; retry the request.`,
    );
  }
  if (!vectors) return null;
  const model = embeddingModel()!;
  return vectors.map((v) => ({ embedding: encodeEmbedding(v), embedding_model: model }));
}

/** A chunk to store (the crawl's name for it). */
export type ChunkInput = ChunkPiece;

/** Chunks embedded and stored together by a resumable `writeRevision` (two embeddings requests). */
export const WRITE_BATCH_CHUNKS = 2 * EMBEDDING_BATCH;

/** The chunk numbers of revision `revisionId` already stored with an embedding of `model`. */
async function embeddedChunks(revisionId: string, model: string | null): Promise<Set<number>> {
  if (!model) return new Set();
  const rows = await KnowledgeChunk.find({ revision_id: revisionId }).select({ n: 1, embedding_model: 1 }).lean();
  return new Set(rows.filter((r) => r.embedding_model === model).map((r) => r.n));
}

/** Inserts chunk rows, tolerating those already there (a retried write). */
async function insertChunkRows(rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    try {
      await KnowledgeChunk.collection.insertMany(rows.slice(i, i + 200) as never[], { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown[] }).writeErrors;
      const onlyDuplicates =
        isDuplicateKey(err) ||
        (Array.isArray(writeErrors) &&
          writeErrors.length > 0 &&
          writeErrors.every((e) => isDuplicateKey(e) || isDuplicateKey((e as { err?: unknown }).err)));
      if (!onlyDuplicates) throw err;
    }
  }
}

/**
 * Stores a revision: its chunks first (a retry tolerates those already there), then the revision row,
 * which makes them visible (a search reads the chunks of a revision it can read). Chunk `n` of the
 * revision is `chunks[n]`, stored as `<revision id>:<n>`. Chunks are embedded first when an embedding
 * model is configured (`chunkEmbeddings`), except those copied with an embedding of that model already (a
 * re-crawl's unchanged pages, a new title alone keeps them) and those a previous attempt at the same
 * revision stored with one.
 * - Without `onChunks` (a request): every chunk is embedded before any is stored, so the 503 of
 *   `chunkEmbeddings` leaves nothing written.
 * - With `onChunks` (a crawl's commit, a long activity): resumable, chunks are embedded and stored
 *   `WRITE_BATCH_CHUNKS` at a time, `onChunks(stored)` called after each batch; an attempt that fails or
 *   dies keeps the batches it stored (invisible without the revision row), and its retry embeds only the rest.
 */
export async function writeRevision(
  kdocId: string,
  agentId: string,
  revisionId: string,
  title: string,
  content: KnowledgeContent,
  onChunks?: (stored: number) => void,
): Promise<void> {
  const model = embeddingModel();
  const done = await embeddedChunks(revisionId, model);
  const size = onChunks ? WRITE_BATCH_CHUNKS : Math.max(1, content.chunks.length);
  for (let first = 0; first < content.chunks.length; first += size) {
    const todo = content.chunks
      .slice(first, first + size)
      .map((chunk, i) => ({ chunk, n: first + i }))
      .filter(({ n }) => !done.has(n));
    const stale = todo.filter(({ chunk }) => !(chunk.embedding && chunk.embedding_model === model));
    const fresh = stale.length
      ? await chunkEmbeddings(
          title,
          stale.map(({ chunk }) => chunk.text),
        )
      : null;
    const embedded = new Map(stale.map(({ n }, i) => [n, fresh?.[i]]));
    await insertChunkRows(
      todo.map(({ chunk, n }) => ({
        ...Object.fromEntries(Object.entries(chunk).filter(([, v]) => v !== undefined && v !== null)),
        ...(embedded.get(n) ?? {}),
        _id: chunkId(revisionId, n),
        revision_id: revisionId,
        kdoc_id: kdocId,
        agent_id: agentId,
        n,
        text: chunk.text,
      })),
    );
    onChunks?.(Math.min(first + size, content.chunks.length));
  }
  await insertIfAbsent(KnowledgeRevision, {
    _id: revisionId,
    kdoc_id: kdocId,
    agent_id: agentId,
    title,
    characters: content.characters,
    chunks: content.chunks.length,
    created_ms: idTime(revisionId),
    ...(content.source && content.source.type !== 'text' ? { source: content.source } : {}),
    ...(content.status === 'failed'
      ? { status: 'failed', failure_reason: content.failureReason, failure_message: content.failureMessage }
      : {}),
  });
}

/**
 * The chunks of a revision in order, every stored field but the row's identity (`_id`, `revision_id`,
 * `kdoc_id`, `agent_id`, `n`): what a new revision copies to keep them as they are.
 */
export async function revisionChunks(revisionId: string): Promise<ChunkInput[]> {
  const rows = await KnowledgeChunk.find({ revision_id: revisionId }).sort({ n: 1 }).lean();
  return rows.map((row) => {
    const { _id, revision_id, kdoc_id, agent_id, n, ...fields } = row as Record<string, unknown>;
    void [_id, revision_id, kdoc_id, agent_id, n];
    return fields as unknown as ChunkInput;
  });
}

/**
 * Makes `revisionId` (its chunks given) a document's content: stores the revision (chunks, then the row),
 * records the change, then drops the older revisions; a document deleted meanwhile keeps nothing.
 * Idempotent (a retried call writes the same rows); resumable (`writeRevision` with `onChunks`, which
 * hears the chunks stored so far). Used by a crawl's commit.
 * @returns false when the document is no longer live (nothing of it is left)
 */
export async function commitRevision(
  doc: { kdocId: string; agentId: string; revisionId: string; title: string; characters: number },
  chunks: ChunkInput[],
  onChunks: (stored: number) => void = () => undefined,
): Promise<boolean> {
  const current = (await currentRevisions([doc.kdocId])).get(doc.kdocId);
  if (!current || current._id < doc.revisionId)
    await writeRevision(
      doc.kdocId,
      doc.agentId,
      doc.revisionId,
      doc.title,
      { chunks, characters: doc.characters },
      onChunks,
    );
  // Checked after the write: a delete that ran before it is seen here, one after it erases these rows.
  if (!(await KnowledgeDocument.exists({ _id: doc.kdocId, deleted_ms: null }))) {
    await dropRevisions(doc.kdocId, null);
    return false;
  }
  await bumpKnowledgeVersion(doc.agentId, doc.kdocId, 'replaced');
  const latest = (await currentRevisions([doc.kdocId])).get(doc.kdocId);
  await dropRevisions(doc.kdocId, latest!._id);
  return true;
}

/** Deletes the revisions of a document older than `beforeRevisionId` (all of them when null), and their chunks. */
export async function dropRevisions(kdocId: string, beforeRevisionId: string | null): Promise<void> {
  const filter = beforeRevisionId ? { kdoc_id: kdocId, _id: { $lt: beforeRevisionId } } : { kdoc_id: kdocId };
  const chunkFilter = beforeRevisionId
    ? { kdoc_id: kdocId, revision_id: { $lt: beforeRevisionId } }
    : { kdoc_id: kdocId };
  await KnowledgeChunk.deleteMany(chunkFilter);
  await KnowledgeRevision.deleteMany(filter);
}

/**
 * The content of posted text: its chunks (`chunkText`).
 * @throws ApiError 400 naming `text` for a text without words
 */
export function textContent(text: string): KnowledgeContent {
  const chunks = chunkText(text);
  if (chunks.length === 0)
    throw new ApiError(
      400,
      'invalid_request_error',
      'parameter_invalid',
      'Invalid text: must contain some words.',
      'text',
    );
  return { chunks: chunks.map((t) => ({ text: t })), characters: text.length, source: { type: 'text' } };
}

/**
 * The content of an uploaded file: extracted (src/services/knowledge-extract.ts `extractDocument`) and
 * chunked by sections (`chunkSections`). A file that cannot be read is not an error here: its content is
 * `failed` with the `KnowledgeSourceError`'s code and message, and no chunks (the document is kept, so
 * the caller sees why). `characters` counts the extracted text.
 * @throws ApiError 400 `file_type_unsupported` naming `param` when neither the name nor the content type
 *   is one of the types taken; Error when extraction itself broke (a 500, not the file's fault)
 */
export async function fileContent(
  file: { bytes: Buffer; filename: string; contentType?: string },
  param = 'filename',
): Promise<KnowledgeContent> {
  const type = detectFileType(file);
  if (!type)
    throw new ApiError(
      400,
      'invalid_request_error',
      'file_type_unsupported',
      `Unsupported file type for '${file.filename}': upload a PDF, DOCX, HTML, Markdown, TXT or CSV file (by its extension or content type).`,
      param,
    );
  const source: KnowledgeDocumentSource = {
    type: 'file',
    filename: file.filename,
    content_type: FILE_TYPES[type].contentTypes[0],
    bytes: file.bytes.length,
  };
  try {
    const doc = await extractDocument(file);
    const chunks = chunkSections(doc.sections);
    const characters = doc.sections.reduce((sum, x) => sum + x.text.length, 0);
    if (chunks.length === 0) throw new KnowledgeSourceError('no_text', 'The file holds no text.');
    return { chunks, characters, source, status: 'ready', title: doc.title };
  } catch (err) {
    if (!(err instanceof KnowledgeSourceError)) throw err;
    return {
      chunks: [],
      characters: 0,
      source,
      status: 'failed',
      failureReason: err.code,
      failureMessage: err.message,
    };
  }
}

/** The crawl state of the web sources among `docs` (src/models/knowledge-crawls.ts), by document id. */
async function crawlViews(docs: WithId<KnowledgeDocumentDoc>[]): Promise<Map<string, CrawlView>> {
  const web = docs.filter((d) => d.source?.type === 'url' || d.source?.type === 'crawl');
  const rows = await Promise.all(web.map((d) => KnowledgeCrawl.findById(d._id).lean()));
  const views = new Map<string, CrawlView>();
  for (const row of rows) {
    if (!row) continue;
    views.set(row._id, {
      status: row.status as CrawlView['status'],
      failure_reason: row.failure_reason ?? null,
      refresh: (row.refresh as CrawlView['refresh']) ?? null,
      crawl: {
        pages_found: row.pages_found ?? 0,
        pages_fetched: row.pages_fetched ?? 0,
        pages_failed: row.pages_failed ?? 0,
        failures: (row.failures ?? []).slice(0, MAX_KEPT_FAILURES).map((f) => ({ url: f.url, reason: f.reason })),
        running: Boolean(row.run_id) || row.status === 'processing',
        last_crawled: seconds(row.finished_ms),
      },
    });
  }
  return views;
}

/** The live (not deleted) document `id` of the tenant, with its current revision; null when none. */
export async function findKnowledgeDocument(
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<KnowledgeDocumentObject | null> {
  const doc = (await KnowledgeDocument.findOne({
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    deleted_ms: null,
  }).lean()) as WithId<KnowledgeDocumentDoc> | null;
  if (!doc) return null;
  const revision = (await currentRevisions([doc._id])).get(doc._id);
  return revision ? renderKnowledgeDocument(doc, revision, (await crawlViews([doc])).get(doc._id)) : null;
}

/** Renders identity rows with their current revisions (rows without one, mid-creation, are skipped). */
export async function renderKnowledgeDocuments(
  docs: WithId<KnowledgeDocumentDoc>[],
): Promise<KnowledgeDocumentObject[]> {
  const [revisions, crawls] = await Promise.all([currentRevisions(docs.map((d) => d._id)), crawlViews(docs)]);
  return docs.flatMap((d) => {
    const r = revisions.get(d._id);
    return r ? [renderKnowledgeDocument(d, r, crawls.get(d._id))] : [];
  });
}

/**
 * Adds a document to an agent (`POST /v1/knowledge`). Idempotent for `id`: a retried request writes the
 * same rows. Order: chunks, revision, identity row, limit and agent re-checks, version; then the caller
 * answers.
 * @param isAgentLive re-checked after the insert, so a document never outlives an agent deleted meanwhile
 * A web source (`source`, `text` null) starts empty: its crawl (src/services/knowledge-crawl.ts) fills it.
 * @throws ApiError 400 `knowledge_document_limit` beyond 1,000 live documents for the agent (also when
 *   concurrent creates cross the limit together: each then sees the others and backs out); 404 naming
 *   `agent_id` when the agent was deleted meanwhile; 400 naming `text` for a text without words
 * @param scope.content what to store (a file's, `fileContent`); else `text` is chunked (`textContent`)
 */
export async function createKnowledgeDocument(
  scope: AgentScope & {
    id: string;
    title: string;
    /** Posted text, chunked here; null: a web source, empty until its first crawl commits. */
    text?: string | null;
    content?: KnowledgeContent;
    /** A web source (`url` or `crawl`), kept on the document. */
    source?: { type: 'url' | 'crawl'; url: string };
  },
  isAgentLive: () => Promise<boolean>,
): Promise<KnowledgeDocumentObject> {
  const content =
    scope.content ?? (scope.text === null ? { chunks: [], characters: 0 } : textContent(scope.text ?? ''));
  const live = { agent_id: scope.agentId, org_id: scope.orgId, livemode: scope.livemode, deleted_ms: null };
  const limitError = () =>
    new ApiError(
      400,
      'invalid_request_error',
      'knowledge_document_limit',
      `An agent may have at most ${KNOWLEDGE_LIMITS.maxDocumentsPerAgent} knowledge documents; delete one first.`,
      'agent_id',
    );
  if (
    (await KnowledgeDocument.countDocuments({ ...live, _id: { $ne: scope.id } })) >=
    KNOWLEDGE_LIMITS.maxDocumentsPerAgent
  )
    throw limitError();

  const revisionId = revisionIdFor(scope.id);
  await writeRevision(scope.id, scope.agentId, revisionId, scope.title, content);
  const doc = {
    _id: scope.id,
    org_id: scope.orgId,
    livemode: scope.livemode,
    agent_id: scope.agentId,
    created: Math.floor(idTime(scope.id) / 1000),
    deleted_ms: null,
    source: scope.source ?? null,
  };
  await insertIfAbsent(KnowledgeDocument, doc);

  const backOut = async (error: ApiError) => {
    await KnowledgeDocument.updateOne({ _id: scope.id, deleted_ms: null }, { $set: { deleted_ms: Date.now() } });
    await bumpKnowledgeVersion(scope.agentId, scope.id, 'deleted');
    await dropRevisions(scope.id, null);
    return error;
  };
  if ((await KnowledgeDocument.countDocuments(live)) > KNOWLEDGE_LIMITS.maxDocumentsPerAgent)
    throw await backOut(limitError());
  if (!(await isAgentLive())) throw await backOut(notFound('agent', scope.agentId, 'agent_id'));
  await bumpKnowledgeVersion(scope.agentId, scope.id, 'created');
  const revision = (await KnowledgeRevision.findById(revisionId).lean()) as WithId<KnowledgeRevisionDoc>;
  return renderKnowledgeDocument(doc, revision, (await crawlViews([doc])).get(doc._id));
}

/**
 * Replaces a document's title and/or content (`POST /v1/knowledge/{id}`): writes a new revision, records
 * the change, then drops the superseded revisions (and their chunks). `change.content` is the new content
 * (an uploaded file's `fileContent`, with its source and status), or `change.text` (chunked by
 * `textContent`); without either the chunks are kept as they are (a new title alone). The title stays unless `change.title` is given.
 * Idempotent for `requestId`. Concurrent replaces: the one whose request started last wins, in every process.
 * @throws ApiError 404 naming `id` when the document is missing or deleted
 */
export async function replaceKnowledgeDocument(
  tenant: { orgId: string; livemode: boolean },
  id: string,
  requestId: string,
  change: { title?: string; text?: string; content?: KnowledgeContent },
): Promise<KnowledgeDocumentObject> {
  const doc = (await KnowledgeDocument.findOne({
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    deleted_ms: null,
  }).lean()) as WithId<KnowledgeDocumentDoc> | null;
  const current = doc ? (await currentRevisions([id])).get(id) : undefined;
  if (!doc || !current) throw notFound('knowledge document', id, 'id');
  const revisionId = revisionIdFor(requestId);
  if (current._id < revisionId) {
    let content: KnowledgeContent;
    if (change.content || change.text !== undefined) {
      content = change.content ?? textContent(change.text!);
    } else {
      // A new title alone: the same chunks (every stored field: heading, page, url, hash, embedding), source and status.
      content = {
        chunks: await revisionChunks(current._id),
        characters: current.characters,
        source: current.source as KnowledgeDocumentSource | undefined,
        status: current.status === 'failed' ? 'failed' : 'ready',
        failureReason: current.failure_reason ?? undefined,
        failureMessage: current.failure_message ?? undefined,
      };
    }
    await writeRevision(id, doc.agent_id, revisionId, change.title ?? current.title, content);
  }
  await bumpKnowledgeVersion(doc.agent_id, id, 'replaced');
  await dropRevisions(id, revisionId);
  const found = await findKnowledgeDocument(tenant, id);
  if (!found) throw notFound('knowledge document', id, 'id'); // deleted meanwhile
  return found;
}

/**
 * Deletes a document (`DELETE /v1/knowledge/{id}`, and every document of a deleted agent): marks it
 * deleted, records the change (from then on no search returns it), then erases its revisions and chunks.
 * @returns false when there was no such live document
 */
export async function deleteKnowledgeDocument(
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<boolean> {
  const doc = await KnowledgeDocument.findOneAndUpdate(
    { _id: id, org_id: tenant.orgId, livemode: tenant.livemode, deleted_ms: null },
    { $set: { deleted_ms: Date.now() } },
    { returnDocument: 'after' },
  ).lean();
  if (!doc) return false;
  await bumpKnowledgeVersion(doc.agent_id, id, 'deleted');
  await dropRevisions(id, null);
  await KnowledgePage.deleteMany({ kdoc_id: id });
  await KnowledgeCrawl.deleteOne({ _id: id });
  return true;
}

/** Deletes every document of an agent (its deletion). Idempotent: a retry deletes what is left. */
export async function deleteAgentKnowledge(scope: AgentScope): Promise<number> {
  const docs = await KnowledgeDocument.find({
    agent_id: scope.agentId,
    org_id: scope.orgId,
    livemode: scope.livemode,
    deleted_ms: null,
  })
    .select({ _id: 1 })
    .lean();
  let deleted = 0;
  for (const d of docs) if (await deleteKnowledgeDocument(scope, d._id)) deleted++;
  return deleted;
}

// ---------------------------------------------------------------------------------------------------
// Search

/** English words too common to tell documents apart; dropped from documents and queries alike. */
const STOP_WORDS = new Set(
  (
    'a about after again all am an and any are as at be because been before being both but by can could did do does doing down during each ' +
    'few for from further had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not now of ' +
    'off on once only or other our ours out over own same she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/** One chunk as indexed. */
export interface IndexedChunk extends KnowledgeRef {
  /** `<document>:<chunk>`, the index's id. */
  id: string;
  title: string;
  text: string;
  heading?: string | null;
  page?: number | null;
  /** Where it comes from (default: the title alone). */
  source?: KnowledgeSource;
  /** Its embedding by the configured model (unit length); absent: searched by BM25 only. */
  vector?: Float32Array | null;
}

/**
 * Chunks each ranking gives reciprocal rank fusion (the rank window): 10, Elasticsearch's default
 * (`rank_window_size` = the size asked, 10). Wider windows let chunks both rankings place mid-list
 * outscore either ranking's first; bench/knowledge-retrieval.ts measures 10, 20, 50 and 100 side by side.
 */
export const FUSION_CANDIDATES = 10;

/** Index terms: lower case, two characters or more, not a stop word. */
function indexTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t.length < 2 || STOP_WORDS.has(t) ? null : t;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The distinct index terms of a text. */
function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const token of tokenize(text)) {
    const term = indexTerm(token);
    if (term) terms.add(term);
  }
  return terms;
}

/**
 * Query terms found in more than this share of an index's chunks (and in more than `MIN_COMMON_CHUNKS`)
 * are left out of a query that has rarer terms: BM25 gives them almost no weight (their IDF is near
 * zero), yet scoring them visits most of the index (scikit-learn's `max_df`, applied to queries).
 */
const MAX_QUERY_TERM_SHARE = 0.25;
const MIN_COMMON_CHUNKS = 500;

/**
 * Query terms in more than this share of an index's chunks (and in more than `MIN_FREQUENT_CHUNKS`) are
 * frequent: when a query also has less frequent terms, only chunks matching those are scored; when it
 * has frequent terms only, only chunks matching the least frequent of them
 * (`KnowledgeIndex.commonTerms`, Elasticsearch's common terms query with `cutoff_frequency` 0.01).
 */
const FREQUENT_TERM_SHARE = 0.01;
const MIN_FREQUENT_CHUNKS = 100;

/** Query terms of at least this many characters also match the longer index terms they begin ("refund" finds "refunds"). */
const PREFIX_MIN_CHARACTERS = 4;

/**
 * Typo matching: a query term of at least `FUZZY_MIN_CHARACTERS` characters that no chunk holds also
 * matches index terms within `FUZZY_DISTANCE` × its length edits (at most 2; 1 for 6–9 characters), as
 * spelling suggesters do for missing terms only (Elasticsearch's `suggest_mode: missing`). A term the
 * index holds is taken as written: looking up every near spelling of a known word walks much of the
 * vocabulary and scores the chunks of each neighbour, the main cost of a search over a large index.
 */
const FUZZY_MIN_CHARACTERS = 6;
const FUZZY_DISTANCE = 0.15;

/** A query's BM25 ranking by `KnowledgeIndex.words`: ids and scores, best first, and the index's updates then. */
export interface WordRanking {
  updates: number;
  ranking: { id: string; score: number }[];
}

/**
 * An in-memory BM25 index over chunks (MiniSearch), built once per agent and then kept in step with the
 * store by replacing the chunks of the documents that changed (`replaceDocuments`).
 */
export class KnowledgeIndex {
  private readonly engine: MiniSearch<IndexedChunk>;
  private readonly chunks = new Map<string, IndexedChunk>();
  /** Chunk ids of each document. */
  private readonly byDocument = new Map<string, string[]>();
  /** In how many chunks each index term occurs. */
  private readonly df = new Map<string, number>();
  /** The chunks' embeddings (those that have one). */
  private readonly vectors = new VectorIndex();
  /** Updates made (`replaceDocuments`): a BM25 ranking made before one is stale (`words`). */
  private updates = 0;

  constructor(chunks: IndexedChunk[]) {
    this.engine = new MiniSearch<IndexedChunk>({
      fields: ['title', 'text'],
      storeFields: [],
      processTerm: indexTerm,
      searchOptions: {
        boost: { title: 2 },
        maxFuzzy: 2,
        combineWith: 'OR',
      },
    });
    this.add(chunks);
  }

  private add(chunks: IndexedChunk[]): void {
    this.engine.addAll(chunks);
    const skipped = this.vectors.add(chunks.flatMap((c) => (c.vector ? [{ id: c.id, vector: c.vector }] : [])));
    if (skipped)
      logger.warn('knowledge chunks with embeddings of another dimension are searched by BM25 only', { skipped });
    for (const c of chunks) {
      this.chunks.set(c.id, c);
      const ids = this.byDocument.get(c.document) ?? [];
      ids.push(c.id);
      this.byDocument.set(c.document, ids);
      for (const term of termsOf(`${c.title} ${c.text}`)) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
  }

  /**
   * Replaces everything indexed for `documents` by `chunks` (the current chunks of those of them that
   * still exist): a replaced or deleted document is gone from the next search.
   */
  replaceDocuments(documents: Iterable<string>, chunks: IndexedChunk[]): void {
    this.updates++;
    for (const document of documents) {
      const ids = this.byDocument.get(document) ?? [];
      if (ids.length) this.engine.discardAll(ids);
      this.vectors.remove(ids);
      for (const id of ids) {
        const c = this.chunks.get(id)!;
        for (const term of termsOf(`${c.title} ${c.text}`)) {
          const n = (this.df.get(term) ?? 1) - 1;
          if (n > 0) this.df.set(term, n);
          else this.df.delete(term);
        }
        this.chunks.delete(id);
      }
      this.byDocument.delete(document);
    }
    this.add(chunks);
  }

  /** Chunks indexed. */
  get size(): number {
    return this.chunks.size;
  }

  /** Documents indexed. */
  get documents(): number {
    return this.byDocument.size;
  }

  /** Chunks with an embedding, and the embeddings' dimension (0 when none). */
  get vectorCount(): number {
    return this.vectors.size;
  }
  get vectorDimensions(): number {
    return this.vectors.dimensions;
  }

  /**
   * The `limit` best chunks for `query`, best first. With `vector` (the query's embedding, unit length, of
   * the chunks' dimension) the BM25 and nearest-neighbour rankings (`FUSION_CANDIDATES` each) are fused
   * by reciprocal rank fusion (`hybrid`), or the nearest neighbours alone with `mode: "vector"`; without
   * it, BM25 alone (`bm25`). BM25: a query of stop words only finds nothing; terms in most chunks are
   * dropped when the query has rarer ones (see `MAX_QUERY_TERM_SHARE`); frequent terms score only the
   * chunks the query's least frequent terms match (`commonTerms`).
   *
   * `opts.words`: this query's BM25 ranking already made (`words(query, n)`, n ≥ `limit` and ≥ the
   * candidates), e.g. while the query's embedding was awaited; its first `limit` are the BM25 answer and
   * its first candidates the fused ranking's, as if ranked here (BM25's best n begin with its best m < n).
   * One made before an update of this index since (`replaceDocuments`) is not used: ranked again.
   */
  rank(
    query: string,
    limit = 5,
    opts: {
      vector?: Float32Array | null;
      mode?: 'hybrid' | 'vector';
      candidates?: number;
      words?: WordRanking;
    } = {},
  ): KnowledgeSearchResult {
    const candidates = Math.max(limit, opts.candidates ?? FUSION_CANDIDATES);
    const vector = opts.vector && opts.vector.length === this.vectors.dimensions ? opts.vector : null;
    const made = opts.words?.updates === this.updates ? opts.words.ranking : undefined;
    const words = (n: number) => made?.slice(0, n) ?? this.bm25(query, n);
    if (!vector || this.vectors.size === 0)
      return { hits: words(limit).map((r) => this.hit(r.id, r.score)), retrieval: 'bm25' };
    const near = this.vectors.search(vector, opts.mode === 'vector' ? limit : candidates);
    if (opts.mode === 'vector') return { hits: near.map((n) => this.hit(n.id, n.similarity)), retrieval: 'vector' };
    const fused = reciprocalRankFusion([words(candidates).map((r) => r.id), near.map((n) => n.id)]).slice(0, limit);
    return { hits: fused.map((f) => this.hit(f.id, f.score, 100_000)), retrieval: 'hybrid' };
  }

  /** The `limit` best chunks for `query` by BM25 alone, best first (see `rank`). */
  search(query: string, limit = 5): KnowledgeHit[] {
    return this.bm25(query, limit).map((r) => this.hit(r.id, r.score));
  }

  /** The ids and BM25 scores of the `limit` best chunks for `query`, best first, for `rank`'s `words`. */
  words(query: string, limit: number): WordRanking {
    return { updates: this.updates, ranking: this.bm25(query, limit) };
  }

  private bm25(query: string, limit: number): { id: string; score: number }[] {
    if (this.chunks.size === 0) return [];
    const terms = [...termsOf(query.slice(0, KNOWLEDGE_LIMITS.maxQueryCharacters))];
    if (terms.length === 0) return [];
    const df = (t: string) => this.df.get(t) ?? 0;
    const common = Math.max(MIN_COMMON_CHUNKS, this.chunks.size * MAX_QUERY_TERM_SHARE);
    const rare = terms.filter((t) => df(t) <= common);
    const asked = rare.length ? rare : terms;
    const frequent = Math.max(MIN_FREQUENT_CHUNKS, this.chunks.size * FREQUENT_TERM_SHARE);
    const low = asked.filter((t) => df(t) <= frequent);
    const high = asked.filter((t) => df(t) > frequent).sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1));
    const narrowed = low.length && high.length ? this.commonTerms(low, high, limit) : [];
    if (narrowed.length) return narrowed;
    // Every word that matches is frequent: the least frequent leads (see `commonTerms`).
    if (high.length > 1) return this.commonTerms(high.slice(0, 1), high.slice(1), limit);
    return this.engine
      .search({ combineWith: 'OR', queries: asked.map((t) => this.termQuery(t)) })
      .slice(0, limit)
      .map((r) => ({ id: String(r.id), score: r.score }));
  }

  /**
   * Elasticsearch's common terms query: chunks are matched by the query's less frequent terms (`low`);
   * its frequent terms (`high`) add their BM25 score to those chunks only, without visiting the others.
   * A matched chunk scores exactly as in one OR query of all the terms (MiniSearch sums the terms' BM25
   * and multiplies by the count of query terms matched); a chunk holding frequent terms only is left out.
   * Empty when the rarer terms match nothing (the caller then searches with the frequent terms alone).
   *
   * A query of frequent terms only (each in more than 1% of the chunks, none in more than 25%) is run
   * the same way with its least frequent term as `low`: the chunks holding that term are ranked, the
   * others' BM25 added to them. Elasticsearch runs such a query as a conjunction (every term required);
   * leading with one term keeps its answers when no chunk holds them all, and bounds the work to one
   * term's chunks instead of the union of all (MiniSearch builds a result for every chunk it scores).
   */
  private commonTerms(low: string[], high: string[], limit: number): { id: string; score: number }[] {
    const matched = this.engine.search({ combineWith: 'OR', queries: low.map((t) => this.termQuery(t)) });
    if (matched.length === 0) return [];
    const ids = new Set(matched.map((r) => r.id));
    const extra = new Map(
      this.engine
        .search({
          combineWith: 'OR',
          queries: high.map((t) => this.termQuery(t)),
          boostDocument: (id) => (ids.has(id) ? 1 : 0),
        })
        .map((r) => [r.id, r]),
    );
    return matched
      .map((r) => {
        const e = extra.get(r.id);
        if (!e) return { id: String(r.id), score: r.score };
        const terms = r.queryTerms.length + e.queryTerms.length;
        return { id: String(r.id), score: (r.score / r.queryTerms.length + e.score / e.queryTerms.length) * terms };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  /** One query term's MiniSearch query: prefix matching when long enough, typo matching only when no chunk holds it. */
  private termQuery(term: string): { queries: string[]; prefix: boolean; fuzzy: number | false } {
    return {
      queries: [term],
      prefix: term.length >= PREFIX_MIN_CHARACTERS,
      fuzzy: term.length >= FUZZY_MIN_CHARACTERS && !this.df.has(term) ? FUZZY_DISTANCE : false,
    };
  }

  private hit(id: string, score: number, scale = 1000): KnowledgeHit {
    const c = this.chunks.get(id)!;
    return {
      document: c.document,
      chunk: c.chunk,
      title: c.title,
      text: c.text,
      heading: c.heading ?? null,
      page: c.page ?? null,
      score: Math.round(score * scale) / scale,
      source: { ...c.source, title: c.title },
    };
  }
}

/** A chunk row as `loadAgentChunks` reads it (`url`, `page` and `heading` are written by file and crawl sources). */
interface StoredChunk {
  kdoc_id: string;
  revision_id: string;
  n: number;
  text: string;
  embedding?: unknown;
  embedding_model?: string;
  url?: string | null;
  page?: number | null;
  heading?: string | null;
}

/** A document row's source fields a citation shows (`source.filename`, `source.url`; absent on text documents). */
interface StoredSource {
  _id: string;
  source?: { filename?: string | null; url?: string | null } | null;
}

/**
 * The citation of a stored chunk: its title, then the chunk's page and url, else the document's (a web
 * source's, on the document row), and an uploaded file's name (on its revision, `filename`).
 */
function sourceOf(
  title: string,
  row: StoredChunk,
  doc: StoredSource | undefined,
  file: string | null | undefined,
): KnowledgeSource {
  const url = row.url ?? doc?.source?.url ?? undefined;
  const filename = file ?? doc?.source?.filename ?? undefined;
  return {
    title,
    ...(url ? { url } : {}),
    ...(filename ? { filename } : {}),
    ...(typeof row.page === 'number' ? { page: row.page } : {}),
  };
}

/**
 * Loads the current chunks of an agent's live documents from the store: live identity rows, their
 * current revisions, the revisions' chunks, with their sources and (when they were embedded by the
 * configured model) their embeddings. With `only` (a few changed documents), rows are read by `_id`
 * (chunk ids follow from the revision and its chunk count).
 */
export async function loadAgentChunks(scope: AgentScope, only?: string[]): Promise<IndexedChunk[]> {
  const live = { agent_id: scope.agentId, org_id: scope.orgId, livemode: scope.livemode, deleted_ms: null };
  let docs: StoredSource[];
  if (only) {
    docs = [];
    for (const id of only) {
      const doc = await KnowledgeDocument.findOne({ _id: id, ...live })
        .select({ _id: 1, source: 1 })
        .lean();
      if (doc) docs.push(doc as StoredSource);
    }
  } else {
    docs = (await KnowledgeDocument.find(live).select({ _id: 1, source: 1 }).lean()) as StoredSource[];
  }
  const revisions = [...(await currentRevisions(docs.map((d) => d._id))).values()];
  if (revisions.length === 0) return [];
  const model = embeddingModel();
  // The fields a search uses; embeddings only when a model is configured (they are most of a row's bytes).
  const fields = {
    kdoc_id: 1,
    revision_id: 1,
    n: 1,
    text: 1,
    heading: 1,
    page: 1,
    url: 1,
    ...(model ? { embedding: 1, embedding_model: 1 } : {}),
  };
  let rows: StoredChunk[];
  if (only) {
    rows = [];
    for (const r of revisions) {
      for (let n = 0; n < r.chunks; n++) {
        const row = await KnowledgeChunk.findById(chunkId(r._id, n)).select(fields).lean();
        if (row) rows.push(row as StoredChunk);
      }
    }
  } else {
    // One `{revision_id}` query per revision (index `{revision_id: 1, n: 1}`), side by side.
    rows = (
      await Promise.all(
        revisions.map((r) => KnowledgeChunk.find({ revision_id: r._id }).select(fields).sort({ n: 1 }).lean()),
      )
    ).flat() as StoredChunk[];
  }
  const titles = new Map(revisions.map((r) => [r._id, r.title]));
  const files = new Map(
    revisions.map((r) => [r._id, (r.source as KnowledgeDocumentSource | undefined)?.filename ?? null]),
  );
  const byId = new Map(docs.map((d) => [d._id, d]));
  return rows
    .map((r) => {
      const title = titles.get(r.revision_id)!;
      return {
        id: `${r.kdoc_id}:${r.n}`,
        document: r.kdoc_id,
        chunk: r.n,
        title,
        text: r.text,
        ...(r.heading != null ? { heading: r.heading } : {}),
        ...(r.page != null ? { page: r.page } : {}),
        source: sourceOf(title, r, byId.get(r.kdoc_id), files.get(r.revision_id)),
        vector: model && r.embedding_model === model ? decodeEmbedding(r.embedding) : null,
      };
    })
    .sort((a, b) => (a.document === b.document ? a.chunk - b.chunk : a.document < b.document ? -1 : 1));
}

/** Versions an index is brought forward by, reloading the documents they name; beyond, it is rebuilt. */
const MAX_INCREMENTAL_CHANGES = 50;

/**
 * The documents changed by versions `from + 1` … `to` of the agent's knowledge, from its change rows;
 * null when there are too many or some rows are no longer kept (then the index is rebuilt).
 */
async function changedDocuments(agentId: string, from: number, to: number): Promise<Set<string> | null> {
  if (to - from > MAX_INCREMENTAL_CHANGES) return null;
  const changed = new Set<string>();
  for (let seq = from + 1; seq <= to; seq++) {
    const row = await KnowledgeChange.findById(changeId(agentId, seq)).select({ kdoc_id: 1 }).lean();
    if (!row?.kdoc_id) return null;
    changed.add(row.kdoc_id);
  }
  return changed;
}

/**
 * A process-local cache of agents' indexes, each kept with the knowledge version it reflects; at most
 * `maxAgents` agents (least recently used dropped). One instance per process (`knowledgeSearcher`);
 * tests make several to stand for several processes.
 *
 * A search reads the stored version first. An index at that version (or later) is used as it is; an
 * older one is brought forward by reloading only the documents named by the change rows in between
 * (a full rebuild when those rows are gone); updates of one agent's index run one after the other.
 */
export class KnowledgeSearcher {
  /**
   * Per agent: the greatest version read, the index as of the last update asked for, and whether the
   * last index an update gave held vectors (a hint for `find`: the query's embedding is started early).
   */
  private readonly cache = new Map<
    string,
    { seen: number; latest: Promise<{ version: number; index: KnowledgeIndex }>; vectors: boolean }
  >();

  constructor(private readonly maxAgents = 200) {}

  /** The cache key: a change of embedding model makes other indexes (vectors of two models are not comparable). */
  private key(scope: AgentScope): string {
    return `${scope.orgId}|${scope.livemode}|${scope.agentId}|${embeddingModel() ?? ''}`;
  }

  /** The agent's index, reflecting at least every change answered before this call. */
  async index(scope: AgentScope): Promise<KnowledgeIndex> {
    const key = this.key(scope);
    const cached = this.cache.get(key);
    const version = await knowledgeVersion(scope.agentId, cached?.seen ?? 0);
    const entry = cached ?? {
      seen: 0,
      latest: Promise.resolve({ version: -1, index: new KnowledgeIndex([]) }),
      vectors: false,
    };
    entry.seen = Math.max(entry.seen, version);
    const next = entry.latest
      .catch(() => ({ version: -1, index: new KnowledgeIndex([]) }))
      .then(async (current) => {
        if (current.version >= version) return current;
        if (version === 0) return { version, index: new KnowledgeIndex([]) };
        const changed = current.version >= 0 ? await changedDocuments(scope.agentId, current.version, version) : null;
        if (!changed) return { version, index: new KnowledgeIndex(await loadAgentChunks(scope)) };
        const chunks = await loadAgentChunks(scope, [...changed]);
        current.index.replaceDocuments(changed, chunks); // synchronous: no search sees half of it
        return { version, index: current.index };
      });
    entry.latest = next;
    this.cache.delete(key); // re-insert: most recently used last
    this.cache.set(key, entry);
    while (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value!);
    const { index } = await next;
    entry.vectors = index.vectorCount > 0;
    return index;
  }

  /**
   * The `limit` best chunks of the agent's knowledge for `query`, and how they were ranked (`rankIndex`).
   * When an embedding model is configured and the agent's cached index held vectors at its last update,
   * the query's embedding is asked at once, side by side with the version read and the index update (two
   * waits overlapped instead of one after the other); the answer is the same as `rankIndex`'s on the
   * updated index: an embedding that fails falls back to BM25 with its warning, and one the updated index
   * turns out not to need (no vectors left) is dropped unused. A first search of an agent (no cached
   * index) and an agent without vectors embed after the update, as `rankIndex` does: nothing is asked of
   * the embedding server for an index that holds no vectors.
   */
  async find(scope: AgentScope & { query: string; limit?: number }): Promise<KnowledgeSearchResult> {
    const early =
      this.cache.get(this.key(scope))?.vectors && embeddingModel() && scope.query.trim()
        ? embedQuery(scope.query)
        : undefined;
    return rankIndex(await this.index(scope), scope.query, scope.limit ?? 5, 'hybrid', FUSION_CANDIDATES, early);
  }

  /** The hits of `find`. */
  async search(scope: AgentScope & { query: string; limit?: number }): Promise<KnowledgeHit[]> {
    return (await this.find(scope)).hits;
  }
}

/** A query's embedding (unit length; null when no model is configured), or why it could not be had. */
export type QueryEmbedding = { vector: Float32Array | null } | { error: unknown };

/**
 * Embeds a search query (`embedTexts`: at most `KNOWLEDGE_LIMITS.maxQueryCharacters` characters, 2
 * attempts of 1.5 s, `QUERY_EMBEDDING`). The promise never rejects: a failure is its `error`, judged
 * where the embedding is used (`rankIndex`), so an embedding started early and left unused (the index
 * held no vectors after all) is no unhandled rejection and logs nothing.
 */
export function embedQuery(query: string): Promise<QueryEmbedding> {
  const asked = query.slice(0, KNOWLEDGE_LIMITS.maxQueryCharacters);
  return embedTexts([asked], QUERY_EMBEDDING).then(
    (vectors) => ({ vector: vectors?.[0] ? Float32Array.from(vectors[0]) : null }),
    (error: unknown) => ({ error }),
  );
}

/**
 * Searches an agent's index (`KnowledgeIndex.rank`): when an embedding model is configured and the index
 * holds vectors, the query is embedded first (`embedQuery`, retried) and the rankings are fused
 * (`hybrid`); when the query cannot be embedded, BM25 alone answers (`bm25`) and a warning is logged, so
 * a flaky embedding server never leaves a caller without knowledge.
 * @param mode `vector`: nearest neighbours only (the benchmark)
 * @param candidates chunks each ranking gives the fusion (default `FUSION_CANDIDATES`; the benchmark varies it)
 * @param embedding the query's embedding already asked (`embedQuery` of this `query`, `KnowledgeSearcher.find`);
 *   used only when the index holds vectors, else the query is embedded here when needed
 * @throws whatever else than `EmbeddingUnavailableError` embedding the query threw (a bug, not the server)
 */
export async function rankIndex(
  index: KnowledgeIndex,
  query: string,
  limit: number,
  mode: 'hybrid' | 'vector' = 'hybrid',
  candidates = FUSION_CANDIDATES,
  embedding?: Promise<QueryEmbedding>,
): Promise<KnowledgeSearchResult> {
  let vector: Float32Array | null = null;
  let words: WordRanking | undefined;
  if (index.vectorCount > 0 && embeddingModel() && query.trim()) {
    const asked = embedding ?? embedQuery(query);
    // BM25 ranks while the embedding server works (this thread is free until its answer is read).
    if (mode === 'hybrid') words = index.words(query, Math.max(limit, candidates));
    const embedded = await asked;
    if ('vector' in embedded) vector = embedded.vector;
    else if (!(embedded.error instanceof EmbeddingUnavailableError)) throw embedded.error;
    else logger.warn('knowledge query not embedded; searching by BM25 only', { error: embedded.error.message });
  }
  return index.rank(query, limit, { vector, mode, candidates, words });
}

/**
 * A query is tried twice (a reused connection the server just closed fails at once), each within 1.5 s:
 * past that, BM25 answers alone (a turn is waiting).
 */
const QUERY_EMBEDDING = { attempts: 2, timeoutMs: 1_500 };

/** This process's searcher. */
export const knowledgeSearcher = new KnowledgeSearcher();

/** The best chunks of the agent's knowledge for `query`, fresh as of the last answered change, and how they were ranked. */
export function searchKnowledge(scope: AgentScope & { query: string; limit?: number }): Promise<KnowledgeSearchResult> {
  return knowledgeSearcher.find(scope);
}
