/**
 * The activities of the knowledge crawl workflow (src/workflows/knowledge-crawl.ts); the rules are in
 * src/services/knowledge-crawl.ts. Each is idempotent: a retry (after a worker crash) writes the same rows.
 * The page and commit activities heartbeat every second while they work (the workflow gives them a
 * heartbeat timeout of a few seconds), so an attempt whose worker died is retried on another worker within
 * seconds, not after the start-to-close timeout.
 */
import { Context } from '@temporalio/activity';
import {
  beginCrawl,
  commitCrawl,
  crawlPage,
  recordCrawlProgress,
  type CrawlProgress,
} from '../services/knowledge-crawl';
import type { CrawlBeginning, CrawlPageOutcome, CrawlResult } from '../shared/knowledge-crawl';

/** How often a running page or commit activity heartbeats (ms); the workflow's heartbeat timeout is 5 s. */
const HEARTBEAT_EVERY_MS = 1_000;

/**
 * Runs `work` heartbeating (`Context.heartbeat`) at once and then every `HEARTBEAT_EVERY_MS` until it
 * settles; `work` may heartbeat too with details (the commit's chunks written).
 */
async function heartbeating<T>(work: (beat: (details?: unknown) => void) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  let last: unknown;
  const beat = (details?: unknown) => {
    if (details !== undefined) last = details;
    ctx.heartbeat(last);
  };
  beat();
  const timer = setInterval(() => beat(), HEARTBEAT_EVERY_MS);
  try {
    return await work(beat);
  } finally {
    clearInterval(timer);
  }
}

/** Starts run `runId` of the document's crawl: robots.txt, the first URLs (`live: false` once the document is deleted). */
export function beginKnowledgeCrawl(input: { kdocId: string; runId: string }): Promise<CrawlBeginning> {
  return beginCrawl(input.kdocId, input.runId);
}

/**
 * Fetches, extracts and stages page `n` of run `runId`; answers its in-scope links or why it failed
 * (`gone` once the document is deleted: then nothing of the page is left staged). Heartbeats.
 */
export function crawlKnowledgePage(input: {
  kdocId: string;
  runId: string;
  url: string;
  n: number;
}): Promise<CrawlPageOutcome> {
  return heartbeating(() => crawlPage(input.kdocId, input.runId, input.url, input.n));
}

/** Records run `runId`'s progress (pages found, fetched, failed, failures) for `GET /v1/knowledge/{id}`. */
export function recordKnowledgeCrawlProgress(input: { kdocId: string; runId: string } & CrawlProgress): Promise<void> {
  const { kdocId, runId, ...progress } = input;
  return recordCrawlProgress(kdocId, runId, progress);
}

/**
 * Commits run `runId`'s staged pages as revision `revisionId`, with its final progress and status.
 * Heartbeats, with the count of chunks stored so far (`{chunks}`) as details once the chunks are written
 * batch by batch; a retry keeps the chunks (and embeddings) an earlier attempt stored.
 */
export function commitKnowledgeCrawl(
  input: { kdocId: string; runId: string; revisionId: string; kept: string[] } & CrawlProgress,
): Promise<CrawlResult> {
  const { kdocId, runId, revisionId, ...progress } = input;
  return heartbeating((beat) => commitCrawl(kdocId, runId, revisionId, progress, (chunks) => beat({ chunks })));
}
