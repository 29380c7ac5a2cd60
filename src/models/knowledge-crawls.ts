/**
 * The crawls of knowledge documents made from web pages (`url`, `sitemap_url`, `crawl` sources of
 * `POST /v1/knowledge`; src/services/knowledge-crawl.ts). Two collections beside src/models/knowledge.ts:
 *
 * - `KnowledgeCrawl` (`_id` = the `kdoc_…` id): what to crawl (start URL or sitemap, page cap,
 *   include/exclude, refresh), and the state the API shows: `status` (`processing` until the first crawl
 *   ends, then `ready`, or `failed` when no page of it could be read), `failure_reason`, and the progress of
 *   the latest (or running) crawl. Written before the document's identity row, so a crawl document always
 *   has one; its progress is written only by the crawl workflow (one writer: no lost update), its
 *   `robots_txt` by the crawl's first activity.
 * - `KnowledgePage` (`<revision id>:<n, 5 digits>`): a page read by a running crawl (its URL, title,
 *   content hash and sections), staged until the crawl commits them into the document's next revision
 *   (src/models/knowledge.ts: the revision row, written last, makes them visible at once); deleted then.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { schemaOptions as base } from './store';

const failureSchema = new Schema(
  { url: { type: String, required: true }, reason: { type: String, required: true } },
  {
    _id: false,
    versionKey: false,
  },
);

const crawlSchema = new Schema(
  {
    /** The document's id. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    /** `url` (one page), `sitemap` (the pages a sitemap lists) or `crawl` (links followed from `url`). */
    mode: { type: String, enum: ['url', 'sitemap', 'crawl'], required: true },
    /** The page, the sitemap, or the crawl's first page. */
    url: { type: String, required: true },
    max_pages: { type: Number, required: true },
    include: { type: [String], default: [] },
    exclude: { type: [String], default: [] },
    refresh: { type: String, enum: ['daily', 'weekly', null], default: null },
    /** The title given at creation (null: the first page's title once read). */
    title: { type: String, default: null },
    status: { type: String, enum: ['processing', 'ready', 'failed'], required: true },
    failure_reason: { type: String, default: null },
    /** The running crawl's revision id (null between crawls) and its robots.txt (null: none, all allowed). */
    run_id: { type: String, default: null },
    robots_txt: { type: String, default: null },
    pages_found: { type: Number, default: 0 },
    pages_fetched: { type: Number, default: 0 },
    pages_failed: { type: Number, default: 0 },
    /** The first `MAX_KEPT_FAILURES` failures of the latest crawl. */
    failures: { type: [failureSchema], default: [] },
    started_ms: { type: Number, default: null },
    finished_ms: { type: Number, default: null },
  },
  base,
);
export const KnowledgeCrawl = mongoose.model('KnowledgeCrawl', crawlSchema, 'knowledge_crawls');
export type KnowledgeCrawlDoc = InferSchemaType<typeof crawlSchema>;

const pageSchema = new Schema(
  {
    /** `<revision id>:<n, 5 digits>`, n the page's position in the crawl. */
    _id: { type: String, required: true },
    kdoc_id: { type: String, required: true, index: true },
    revision_id: { type: String, required: true },
    n: { type: Number, required: true },
    url: { type: String, required: true },
    title: { type: String, default: null },
    /** sha256 (hex) of the page's extracted text: a refresh copies the chunks of a page whose hash is unchanged. */
    content_hash: { type: String, required: true },
    sections: {
      type: [new Schema({ heading: { type: String, default: null }, text: String }, { _id: false, versionKey: false })],
      default: [],
    },
    characters: { type: Number, required: true },
  },
  base,
);
/** A crawl's pages in order (the commit). */
pageSchema.index({ revision_id: 1, n: 1 });
export const KnowledgePage = mongoose.model('KnowledgePage', pageSchema, 'knowledge_pages');
export type KnowledgePageDoc = InferSchemaType<typeof pageSchema>;
