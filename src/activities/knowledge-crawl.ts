/**
 * The activities of the knowledge crawl workflow (src/workflows/knowledge-crawl.ts); the rules are in
 * src/services/knowledge-crawl.ts. Each is idempotent: a retry (after a worker crash) writes the same rows.
 */
import {
  beginCrawl,
  commitCrawl,
  crawlPage,
  recordCrawlProgress,
  type CrawlProgress,
} from '../services/knowledge-crawl';
import type { CrawlBeginning, CrawlPageOutcome, CrawlResult } from '../shared/knowledge-crawl';

/** Starts run `runId` of the document's crawl: robots.txt, the first URLs (`live: false` once the document is deleted). */
export function beginKnowledgeCrawl(input: { kdocId: string; runId: string }): Promise<CrawlBeginning> {
  return beginCrawl(input.kdocId, input.runId);
}

/** Fetches, extracts and stages page `n` of run `runId`; answers its in-scope links or why it failed. */
export function crawlKnowledgePage(input: {
  kdocId: string;
  runId: string;
  url: string;
  n: number;
}): Promise<CrawlPageOutcome> {
  return crawlPage(input.kdocId, input.runId, input.url, input.n);
}

/** Records run `runId`'s progress (pages found, fetched, failed, failures) for `GET /v1/knowledge/{id}`. */
export function recordKnowledgeCrawlProgress(input: { kdocId: string; runId: string } & CrawlProgress): Promise<void> {
  const { kdocId, runId, ...progress } = input;
  return recordCrawlProgress(kdocId, runId, progress);
}

/** Commits run `runId`'s staged pages as revision `revisionId`, with its final progress and status. */
export function commitKnowledgeCrawl(
  input: { kdocId: string; runId: string; revisionId: string; kept: string[] } & CrawlProgress,
): Promise<CrawlResult> {
  const { kdocId, runId, revisionId, ...progress } = input;
  return commitCrawl(kdocId, runId, revisionId, progress);
}
