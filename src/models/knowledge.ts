/**
 * Knowledge documents (`kdoc_…`, object `knowledge_document`): what an agent knows, searched with BM25
 * over chunks (src/services/knowledge.ts). Four collections, all written only by src/services/knowledge.ts on behalf
 * of the API (`POST`/`DELETE /v1/knowledge…`, and an agent's deletion):
 *
 * - `KnowledgeDocument`: one row per document, its identity (agent, created). Its only later write is
 *   `deleted_ms`, set once when the document (or its agent) is deleted.
 * - `KnowledgeRevision` (`krev_…`): immutable; one per create or replace, with the title and sizes. A
 *   document's current content is its revision with the greatest (time-ordered) id, so two concurrent
 *   replaces settle on the same winner everywhere, with no pointer to update (FerretDB 1.x applies updates
 *   as read-modify-write and could lose one). Superseded revisions are deleted after the replace.
 * - `KnowledgeChunk` (`<krev id>:<n>`): immutable chunks of a revision's text, the rows the index is built
 *   from; written before their revision row, so a revision that can be read has all its chunks.
 * - `KnowledgeChange` (`<agent id>:<seq>`): immutable rows numbering every change of an agent's knowledge
 *   (1, 2, 3…; the unique `_id` makes two writers take different numbers) and naming the document
 *   changed. The greatest number is the agent's knowledge version: every process keeps its search index
 *   with the version it reflects, and brings it forward when the stored version is greater.
 * - `KnowledgeHead` (`_id` = agent id): where to start looking for the greatest change number, moved
 *   forward with `$max` after each change. Only a hint: readers walk the change rows up from it, so a
 *   head left behind (a lost concurrent update on FerretDB) never hides a change.
 *
 * Reads on the hot path (a search: the head and the next change row) are `_id` lookups on small rows.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import type { KnowledgeRef, KnowledgeSource } from '../shared/assistant';
import { schemaOptions as base, seconds, type WithId } from './store';
import { apiObject, unix } from './wire';

const documentSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    created: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
    /**
     * Where the content comes from, set at creation: `text` (null: documents stored before sources),
     * `url` or `crawl` (a web page or site, crawled by src/services/knowledge-crawl.ts into revisions; its
     * progress in src/models/knowledge-crawls.ts `KnowledgeCrawl`).
     */
    source: {
      type: new Schema(
        {
          type: { type: String, enum: ['text', 'url', 'crawl'], required: true },
          url: { type: String, default: null },
        },
        { _id: false, versionKey: false },
      ),
      default: null,
    },
  },
  base,
);
documentSchema.index({ org_id: 1, livemode: 1, _id: -1 });
documentSchema.index({ org_id: 1, livemode: 1, agent_id: 1, _id: -1 });
export const KnowledgeDocument = mongoose.model('KnowledgeDocument', documentSchema, 'knowledge_documents');

const revisionSchema = new Schema(
  {
    _id: { type: String, required: true },
    kdoc_id: { type: String, required: true },
    agent_id: { type: String, required: true },
    title: { type: String, required: true },
    /** Length of the text (UTF-16 code units, as JavaScript and the 500,000 limit count them). */
    characters: { type: Number, required: true },
    chunks: { type: Number, required: true },
    created_ms: { type: Number, required: true },
    /** Where the text came from (`{type: "file", filename, content_type, bytes}`); absent on text revisions. */
    source: { type: Schema.Types.Mixed, default: undefined },
    /** `failed` when the source could not be made into text (then no chunks); absent means `ready`. */
    status: { type: String, default: undefined },
    /** Why it failed: a code of src/services/knowledge-extract.ts `FILE_FAILURES`, and a sentence. */
    failure_reason: { type: String, default: undefined },
    failure_message: { type: String, default: undefined },
  },
  base,
);
revisionSchema.index({ kdoc_id: 1, _id: -1 });
export const KnowledgeRevision = mongoose.model('KnowledgeRevision', revisionSchema, 'knowledge_revisions');

const chunkSchema = new Schema(
  {
    /** `<revision id>:<n, 5 digits>`. */
    _id: { type: String, required: true },
    revision_id: { type: String, required: true },
    kdoc_id: { type: String, required: true, index: true },
    agent_id: { type: String, required: true },
    /** Position of the chunk in the document, from 0. */
    n: { type: Number, required: true },
    text: { type: String, required: true },
    /** The heading the chunk sits under (chunks never straddle one); absent before any, and for plain text. */
    heading: { type: String, default: undefined },
    /** The 1-based page of a PDF the chunk comes from; absent otherwise. */
    page: { type: Number, default: undefined },
    /** The web page the chunk was read from (a crawl's documents). */
    url: { type: String, default: undefined },
    /** sha256 (hex) of the text of the page the chunk was read from: a re-crawl keeps the chunks of an unchanged page. */
    content_hash: { type: String, default: undefined },
    /**
     * The chunk's embedding (title and text) by `embedding_model`, as little-endian float32 bytes
     * (src/providers/embeddings.ts `encodeEmbedding`); absent when no embedding model was configured.
     */
    embedding: { type: Buffer, default: undefined },
    embedding_model: { type: String, default: undefined },
  },
  base,
);
/** A revision's chunks in order (`loadAgentChunks`, a document's text). */
chunkSchema.index({ revision_id: 1, n: 1 });
export const KnowledgeChunk = mongoose.model('KnowledgeChunk', chunkSchema, 'knowledge_chunks');

const changeSchema = new Schema(
  {
    /** `<agent id>:<seq, 12 digits>`: unique, so two concurrent changes take two numbers. */
    _id: { type: String, required: true },
    agent_id: { type: String, required: true },
    seq: { type: Number, required: true },
    kdoc_id: { type: String, default: null },
    kind: { type: String, enum: ['created', 'replaced', 'deleted'], required: true },
    created_ms: { type: Number, required: true },
  },
  base,
);
changeSchema.index({ agent_id: 1, seq: 1 });
export const KnowledgeChange = mongoose.model('KnowledgeChange', changeSchema, 'knowledge_changes');

const headSchema = new Schema(
  {
    /** The agent id. */
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
  },
  base,
);
export const KnowledgeHead = mongoose.model('KnowledgeHead', headSchema, 'knowledge_heads');

export type KnowledgeDocumentDoc = InferSchemaType<typeof documentSchema>;
export type KnowledgeRevisionDoc = InferSchemaType<typeof revisionSchema>;
export type KnowledgeChunkDoc = InferSchemaType<typeof chunkSchema>;

/** Where a document's text came from (`source` of a `knowledge_document`). */
export const KnowledgeDocumentSource = z.object({
  type: z.enum(['text', 'file', 'url', 'crawl']).describe('`text` posted, a `file` uploaded, a `url` or a `crawl`.'),
  filename: z.string().optional().describe('A file: its name as uploaded.'),
  content_type: z.string().optional().describe('A file: its type (`application/pdf`, `text/csv`, …).'),
  bytes: z.number().int().optional().describe('A file: its size in bytes.'),
  url: z.string().optional().describe('A page or crawl: its address.'),
});
export type KnowledgeDocumentSource = z.output<typeof KnowledgeDocumentSource>;

/** The progress of a web source's latest crawl (`knowledge_document.crawl`). */
export const CrawlProgressObject = z
  .object({
    pages_found: z.number().int().meta({ description: 'Pages found in scope so far (at most `max_pages`).' }),
    pages_fetched: z.number().int().meta({ description: 'Pages read and kept.' }),
    pages_failed: z.number().int(),
    failures: z
      .array(z.object({ url: z.string(), reason: z.string() }))
      .meta({ description: 'Why pages failed (the first 100).' }),
    running: z.boolean().meta({ description: 'True while a crawl (the first one or a refresh) runs.' }),
    last_crawled: unix.nullable().meta({ description: 'When the latest finished crawl ended.' }),
  })
  .meta({ description: 'Web sources only: the latest (or running) crawl.' });
export type CrawlProgressObject = z.output<typeof CrawlProgressObject>;

/** What a web source adds to its document: status, failure reason, refresh and progress. */
export interface CrawlView {
  status: 'processing' | 'ready' | 'failed';
  failure_reason: string | null;
  refresh: 'daily' | 'weekly' | null;
  crawl: CrawlProgressObject;
}

/** The `knowledge_document` object as the API answers it (the OpenAPI component `KnowledgeDocument`). */
export const KnowledgeDocumentObject = apiObject(
  'KnowledgeDocument',
  "A document of an agent's knowledge, split in chunks the assistant is given when they match.",
  z.object({
    id: z.string(),
    object: z.literal('knowledge_document'),
    livemode: z.boolean(),
    agent_id: z.string(),
    title: z.string(),
    characters: z.number().int(),
    chunks: z.number().int(),
    source: KnowledgeDocumentSource,
    status: z.enum(['processing', 'ready', 'failed']).meta({
      description:
        '`ready` once searchable; `processing` while the first crawl of a web source runs (its content empty); `failed` when the source gave no text (see `failure_reason`).',
    }),
    failure_reason: z.string().nullable().meta({
      description:
        "Why a `failed` document has no text: a file's `pdf_encrypted`, `file_corrupt`, `file_too_large_uncompressed`, `no_text`, `text_too_long`, `extraction_timeout`, or a web source's reason when no page could be read; null otherwise.",
    }),
    failure_message: z.string().nullable().meta({ description: "A file's failure in a sentence; null otherwise." }),
    created: unix,
    updated: unix,
    refresh: z
      .enum(['daily', 'weekly'])
      .nullable()
      .optional()
      .meta({ description: 'Web sources: how often the site is crawled again (null: never).' }),
    crawl: CrawlProgressObject.optional(),
  }),
);
export type KnowledgeDocumentObject = z.output<typeof KnowledgeDocumentObject>;

/**
 * The `knowledge_document` object: `title`, `characters`, `chunks`, `source`, `status` and failure of its
 * current revision (a revision without them is posted text: `{type: "text"}`, `ready`), `updated`
 * (unix seconds) when that revision was written. The text itself is not returned (keep your source).
 * A web source (`source.type` `url` or `crawl`) adds its crawl's `status`, `failure_reason`, `refresh`
 * and `crawl` progress (`crawl`, from src/models/knowledge-crawls.ts); text is always `ready`.
 */
export function renderKnowledgeDocument(
  doc: WithId<KnowledgeDocumentDoc>,
  revision: WithId<KnowledgeRevisionDoc>,
  crawl?: CrawlView | null,
): KnowledgeDocumentObject {
  const web = doc.source?.type && doc.source.type !== 'text' ? doc.source : null;
  return {
    id: doc._id,
    object: 'knowledge_document' as const,
    livemode: doc.livemode,
    agent_id: doc.agent_id,
    title: revision.title,
    characters: revision.characters,
    chunks: revision.chunks,
    source: web
      ? { type: web.type, ...(web.url ? { url: web.url } : {}) }
      : ((revision.source as KnowledgeDocumentSource | undefined) ?? { type: 'text' }),
    status: crawl?.status ?? (revision.status as 'failed' | undefined) ?? 'ready',
    failure_reason: crawl?.failure_reason ?? revision.failure_reason ?? null,
    failure_message: revision.failure_message ?? null,
    created: doc.created,
    updated: seconds(revision.created_ms)!,
    ...(web && crawl ? { refresh: crawl.refresh, crawl: crawl.crawl } : {}),
  };
}

/** Where a chunk comes from, to cite it (src/shared/assistant.ts `KnowledgeSource`). */
export const KnowledgeSourceObject = apiObject(
  'KnowledgeSource',
  'Where a knowledge chunk comes from, as the assistant may cite it: the title, and when the document has them the page address, the file name and the page of a PDF.',
  z.object({
    title: z.string().describe("The document's title."),
    url: z.string().optional().describe('The web page the chunk was read from (a `url` or crawled document).'),
    filename: z.string().optional().describe('The uploaded file it was read from.'),
    page: z.number().int().min(1).optional().describe('The page of the file (PDF), from 1.'),
  }),
);

/** The `knowledge_chunk` object, a search hit (the OpenAPI component `KnowledgeChunk`). */
export const KnowledgeChunkObject = apiObject(
  'KnowledgeChunk',
  'A search hit: a chunk of a knowledge document, its score and its source.',
  z.object({
    object: z.literal('knowledge_chunk'),
    document: z.string(),
    chunk: z.number().int(),
    title: z.string(),
    text: z.string(),
    heading: z.string().nullable().describe('The heading the chunk sits under in its file; null for text.'),
    page: z.number().int().nullable().describe('The 1-based page of a PDF the chunk comes from; null otherwise.'),
    score: z
      .number()
      .describe(
        'Higher is better: the BM25 score (retrieval `bm25`) or the reciprocal-rank-fusion score (`hybrid`, at most 2/61).',
      ),
    source: KnowledgeSourceObject,
  }),
);

/** The answer of `GET /v1/knowledge/search`: a list of hits and how they were ranked. */
export const KnowledgeSearchListObject = apiObject(
  'KnowledgeSearchList',
  'Search hits, best first, and how they were ranked.',
  z.object({
    object: z.literal('list'),
    data: z.array(KnowledgeChunkObject),
    has_more: z.boolean().describe('Always false: the hits asked for fit in one answer.'),
    url: z.string().describe('`/v1/knowledge/search`.'),
    retrieval: z
      .enum(['bm25', 'hybrid'])
      .describe(
        '`hybrid`: BM25 and vector similarity fused by reciprocal rank fusion (an embedding model is configured and the query was embedded); `bm25`: words only (no embedding model, the embedding server failed for this query, or no chunk has an embedding yet).',
      ),
  }),
);

/** The `knowledge_chunk` object of a search hit (`GET /v1/knowledge/search`). */
export function renderKnowledgeChunk(
  hit: KnowledgeRef & {
    title: string;
    text: string;
    score: number;
    source: KnowledgeSource;
    heading?: string | null;
    page?: number | null;
  },
): z.output<typeof KnowledgeChunkObject> {
  return {
    object: 'knowledge_chunk',
    document: hit.document,
    chunk: hit.chunk,
    title: hit.title,
    text: hit.text,
    heading: hit.heading ?? null,
    page: hit.page ?? null,
    score: hit.score,
    source: hit.source,
  };
}
