/**
 * Web sources of knowledge documents, on the API side: `POST /v1/knowledge` with `url`, `sitemap_url` or
 * `crawl` creates the document empty (`status: "processing"`), starts its crawl workflow
 * (src/workflows/knowledge-crawl.ts, id `knowledge-crawl:<kdoc id>`) and, with `refresh`, the Temporal
 * Schedule that crawls it again (`knowledge-refresh:<kdoc id>`, every day or every 7 days, overlap SKIP:
 * a crawl still running makes the next one wait). Deleting the document (or its agent) deletes the
 * schedule and terminates its running crawls first, then the document and every chunk.
 */
import type { Client } from '@temporalio/client';
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { config } from '../config';
import { KnowledgeCrawl } from '../models/knowledge-crawls';
import { KnowledgeDocument, type KnowledgeDocumentObject } from '../models/knowledge';
import { insertIfAbsent } from '../models/store';
import {
  crawlWorkflowId,
  KNOWLEDGE_CRAWL_WORKFLOW,
  refreshScheduleId,
  type KnowledgeCrawlInput,
} from '../shared/knowledge-crawl';
import {
  createKnowledgeDocument,
  deleteAgentKnowledge,
  deleteKnowledgeDocument,
  findKnowledgeDocument,
  type AgentScope,
} from './knowledge';

/** A web source as `POST /v1/knowledge` takes it (validated by the route). */
export interface WebSource {
  mode: 'url' | 'sitemap' | 'crawl';
  url: string;
  maxPages: number;
  include: string[];
  exclude: string[];
  refresh: 'daily' | 'weekly' | null;
}

type KnowledgeCrawlWorkflow = (input: KnowledgeCrawlInput) => Promise<unknown>;

/** How often each `refresh` runs. */
const REFRESH_EVERY = { daily: '1 day', weekly: '7 days' } as const;

/**
 * Creates a document from a web source: its crawl row (status `processing`), the empty document, the
 * crawl workflow and the refresh schedule. Idempotent for `id` (a retried request starts nothing twice).
 * @throws ApiError as `createKnowledgeDocument` (404 naming `agent_id`, 400 `knowledge_document_limit`)
 */
export async function createWebKnowledgeDocument(
  temporal: Client,
  scope: AgentScope & { id: string; title?: string },
  source: WebSource,
  isAgentLive: () => Promise<boolean>,
): Promise<KnowledgeDocumentObject> {
  await insertIfAbsent(KnowledgeCrawl, {
    _id: scope.id,
    org_id: scope.orgId,
    livemode: scope.livemode,
    agent_id: scope.agentId,
    mode: source.mode,
    url: source.url,
    max_pages: source.maxPages,
    include: source.include,
    exclude: source.exclude,
    refresh: source.refresh,
    title: scope.title ?? null,
    status: 'processing',
    failure_reason: null,
    run_id: null,
    robots_txt: null,
    pages_found: 0,
    pages_fetched: 0,
    pages_failed: 0,
    failures: [],
    started_ms: null,
    finished_ms: null,
  });
  try {
    await createKnowledgeDocument(
      {
        ...scope,
        title: scope.title ?? source.url.slice(0, 500),
        text: null,
        source: { type: source.mode === 'url' ? 'url' : 'crawl', url: source.url },
      },
      isAgentLive,
    );
  } catch (err) {
    await KnowledgeCrawl.deleteOne({ _id: scope.id });
    throw err;
  }
  const taskQueue = config().taskQueue;
  try {
    await temporal.workflow.start<KnowledgeCrawlWorkflow>(KNOWLEDGE_CRAWL_WORKFLOW, {
      workflowId: crawlWorkflowId(scope.id),
      taskQueue,
      args: [{ kdocId: scope.id }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Crawl ${source.url} into ${scope.id}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  if (source.refresh) {
    try {
      await temporal.schedule.create<KnowledgeCrawlWorkflow>({
        scheduleId: refreshScheduleId(scope.id),
        spec: { intervals: [{ every: REFRESH_EVERY[source.refresh] }] },
        action: {
          type: 'startWorkflow',
          workflowType: KNOWLEDGE_CRAWL_WORKFLOW,
          workflowId: `${refreshScheduleId(scope.id)}:run`,
          taskQueue,
          args: [{ kdocId: scope.id }],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
      });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
  return (await findKnowledgeDocument(scope, scope.id))!;
}

/**
 * Stops everything Temporal runs for a web source: deletes its refresh schedule (terminating the crawl it
 * has running) and terminates its first crawl. Idempotent: what is already gone is fine.
 */
export async function stopWebKnowledge(temporal: Client, kdocId: string): Promise<void> {
  const terminate = async (workflowId: string) => {
    try {
      await temporal.workflow.getHandle(workflowId).terminate('knowledge document deleted');
    } catch (err) {
      // Never started, or already closed.
      if (!(err instanceof WorkflowNotFoundError) && !/not found|already completed/i.test((err as Error).message))
        throw err;
    }
  };
  const schedule = temporal.schedule.getHandle(refreshScheduleId(kdocId));
  try {
    const running = (await schedule.describe()).info.runningActions;
    await schedule.delete();
    for (const action of running) await terminate(action.workflow.workflowId);
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await terminate(crawlWorkflowId(kdocId));
}

/**
 * Deletes a document (`DELETE /v1/knowledge/{id}`, and each document of a deleted agent): a web source's
 * schedule and crawls first (`stopWebKnowledge`), then the document and its chunks.
 * @returns false when there was no such live document
 */
export async function deleteKnowledge(
  temporal: Client,
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<boolean> {
  const doc = await KnowledgeDocument.findOne({ _id: id, org_id: tenant.orgId, livemode: tenant.livemode })
    .select({ source: 1, deleted_ms: 1 })
    .lean();
  if (!doc) return false;
  if (doc.source?.type === 'url' || doc.source?.type === 'crawl') await stopWebKnowledge(temporal, id);
  return deleteKnowledgeDocument(tenant, id);
}

/**
 * Deletes every document of a deleted agent: the schedules and crawls of its web sources (also of those
 * already marked deleted, so a retry finishes a deletion that crashed half-way), then the documents.
 * @returns how many live documents were deleted
 */
export async function deleteAgentKnowledgeAndSources(temporal: Client, scope: AgentScope): Promise<number> {
  const web = await KnowledgeDocument.find({
    agent_id: scope.agentId,
    org_id: scope.orgId,
    livemode: scope.livemode,
    'source.type': { $in: ['url', 'crawl'] },
  })
    .select({ _id: 1 })
    .lean();
  for (const doc of web) await stopWebKnowledge(temporal, doc._id);
  return deleteAgentKnowledge(scope);
}
