/**
 * `knowledgeCrawlWorkflow`: fills a knowledge document from a web page, a sitemap's pages or a same-site
 * crawl (src/services/knowledge-crawl.ts has the rules). Workflow id `knowledge-crawl:<kdoc id>` for the
 * first crawl (started by `POST /v1/knowledge`); a `refresh` document's Temporal Schedule
 * (`knowledge-refresh:<kdoc id>`) starts the same workflow again daily or weekly.
 *
 * Steps, each an activity (idempotent, so a worker crash only repeats the one that was running):
 * `beginKnowledgeCrawl` (robots.txt, the sitemap, the first URLs), then breadth-first batches of
 * `crawlKnowledgePage` (fetch, extract, stage the page; answers the page's in-scope links), the progress
 * recorded after each batch (`recordKnowledgeCrawlProgress`), and `commitKnowledgeCrawl`, which makes the
 * staged pages the document's next revision in one step (unchanged pages' chunks copied). The page and
 * commit activities heartbeat (timeout 5 s): those of a worker that died are retried on another within
 * seconds; a retried commit keeps the chunks already stored and embedded. The frontier (URLs
 * found, how many tried) lives in the workflow's state: past `PAGES_PER_RUN` pages the workflow continues as
 * new with it. A page's failure is an answer, not an error: no page can hold the crawl.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { continueAsNew, proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as crawl from '../activities/knowledge-crawl';
import {
  CRAWL_PARALLEL_PAGES,
  MAX_KEPT_FAILURES,
  PAGES_PER_RUN,
  type CrawlResult,
  type CrawlState,
  type KnowledgeCrawlInput,
} from '../shared/knowledge-crawl';
import { newId } from '../shared/ids';
import { UNTIL_STORED } from './retry';

const { beginKnowledgeCrawl, recordKnowledgeCrawlProgress } = proxyActivities<typeof crawl>({
  startToCloseTimeout: '2 minutes',
  retry: UNTIL_STORED,
});
const { crawlKnowledgePage } = proxyActivities<typeof crawl>({
  // A page's fetch has its own limit (KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS, 20 s); the activity heartbeats every
  // second, so a dead worker's page is retried elsewhere after 5 s (test/integration/knowledge-crawl-crash.test.ts).
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  retry: UNTIL_STORED,
});
const { commitKnowledgeCrawl } = proxyActivities<typeof crawl>({
  // Up to 500 pages' chunks embedded in batches, each batch stored (a retry goes on from there); the
  // heartbeat notices a dead worker, the long start-to-close only bounds a stuck one.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 seconds',
  retry: UNTIL_STORED,
});

/** Crawls the document's source into its next revision; answers its status (or `deleted` when it went meanwhile). */
export async function knowledgeCrawlWorkflow(input: KnowledgeCrawlInput): Promise<CrawlResult> {
  let state = input.state;
  if (!state) {
    const runId = newId('krev', Date.now(), Math.random);
    const begun = await beginKnowledgeCrawl({ kdocId: input.kdocId, runId });
    if (!begun.live) return { status: 'deleted', pages: 0 };
    state = {
      runId,
      maxPages: begun.maxPages,
      found: begun.urls,
      next: 0,
      fetched: 0,
      failed: begun.failures.length,
      failures: begun.failures.slice(0, MAX_KEPT_FAILURES),
      kept: begun.kept,
    };
  }
  const found = new Set(state.found);
  for (let thisRun = 0; state.next < state.found.length;) {
    if (thisRun >= (input.pagesPerRun ?? PAGES_PER_RUN))
      return await continueAsNew<typeof knowledgeCrawlWorkflow>({ ...input, state });
    const first = state.next;
    const batch = state.found.slice(first, first + CRAWL_PARALLEL_PAGES);
    const outcomes = await Promise.all(
      batch.map((url, i) => crawlKnowledgePage({ kdocId: input.kdocId, runId: state!.runId, url, n: first + i })),
    );
    state.next += batch.length;
    thisRun += batch.length;
    for (const [i, outcome] of outcomes.entries()) {
      if ('gone' in outcome) return { status: 'deleted', pages: 0 };
      if (outcome.ok) {
        state.fetched++;
        for (const link of outcome.links) {
          if (found.size >= state.maxPages) break;
          if (found.has(link)) continue;
          found.add(link);
          state.found.push(link);
        }
        continue;
      }
      state.failed++;
      if (state.failures.length < MAX_KEPT_FAILURES) state.failures.push({ url: batch[i], reason: outcome.reason });
      if (outcome.transient) state.kept.push(batch[i]);
    }
    await recordKnowledgeCrawlProgress({ kdocId: input.kdocId, runId: state.runId, ...progressOf(state) });
  }
  return await commitKnowledgeCrawl({
    kdocId: input.kdocId,
    runId: state.runId,
    revisionId: newId('krev', Date.now(), Math.random),
    ...progressOf(state),
    kept: state.kept,
  });
}

/** The progress the API shows, from the state. */
function progressOf(state: CrawlState) {
  return { found: state.found.length, fetched: state.fetched, failed: state.failed, failures: state.failures };
}

// Worker Versioning (src/shared/deployments.ts): Moves to the current version at its next task (and continues as new in pages); changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), knowledgeCrawlWorkflow);
