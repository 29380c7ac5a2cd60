/**
 * What the API, the knowledge crawl workflow (src/workflows/knowledge-crawl.ts) and its activities
 * (src/activities/knowledge-crawl.ts) share: ids, inputs, answers and limits.
 *
 * Deterministic workflow code may import this module: types and pure functions only.
 */

/** The registered name of the crawl workflow. */
export const KNOWLEDGE_CRAWL_WORKFLOW = 'knowledgeCrawlWorkflow';

/** The first crawl of document `kdocId` (started by `POST /v1/knowledge`). */
export const crawlWorkflowId = (kdocId: string) => `knowledge-crawl:${kdocId}`;
/** The Temporal Schedule that crawls document `kdocId` again (`refresh`); its runs' ids start with it. */
export const refreshScheduleId = (kdocId: string) => `knowledge-refresh:${kdocId}`;

/** Limits of web sources (README "Knowledge from web pages and sites"). */
export const CRAWL_LIMITS = {
  /** `crawl.max_pages` when not given, and its greatest value; a sitemap is read up to the same cap. */
  defaultMaxPages: 50,
  maxMaxPages: 500,
  /** include/exclude patterns per list, and characters per pattern. */
  maxPatterns: 20,
  maxPatternCharacters: 200,
};

/** Pages fetched at the same time by one crawl. */
export const CRAWL_PARALLEL_PAGES = 4;

/** The most failures of a crawl kept and shown (`crawl.failures`). */
export const MAX_KEPT_FAILURES = 100;
/** Pages one workflow run handles before it continues as new (its history stays small). */
export const PAGES_PER_RUN = 200;

/** One failed page of a crawl. */
export interface CrawlFailure {
  url: string;
  reason: string;
}

/** The input of `knowledgeCrawlWorkflow`: the document, and the state carried across continue-as-new. */
export interface KnowledgeCrawlInput {
  kdocId: string;
  state?: CrawlState;
  /** Pages per workflow run before continue-as-new (default `PAGES_PER_RUN`; tests set fewer). */
  pagesPerRun?: number;
}

/** A crawl in progress: what the workflow carries from one run to the next. */
export interface CrawlState {
  /** The staging key of this crawl's pages (`krev_…`, made when it started). */
  runId: string;
  maxPages: number;
  /** URLs found, in the order found (at most `maxPages`); `next` of them have been fetched or tried. */
  found: string[];
  next: number;
  fetched: number;
  failed: number;
  /** The first `MAX_KEPT_FAILURES` failures. */
  failures: CrawlFailure[];
  /** Pages that failed for a passing reason (timeout, 5xx): a refresh keeps their previous chunks. */
  kept: string[];
}

/** `beginKnowledgeCrawl`'s answer: the first URLs, or `live: false` when the document is gone. */
export type CrawlBeginning =
  { live: false } | { live: true; maxPages: number; urls: string[]; failures: CrawlFailure[]; kept: string[] };

/** `crawlKnowledgePage`'s answer for one URL. */
export type CrawlPageOutcome =
  | { ok: true; links: string[] }
  | { ok: false; reason: string; transient: boolean }
  | { ok: false; gone: true; reason: string; transient: false };

/** What a crawl ended with. */
export interface CrawlResult {
  status: 'ready' | 'failed' | 'deleted';
  pages: number;
}
