/**
 * `retentionSweepWorkflow`: one retention sweep, started every hour by the Temporal
 * Schedule `retention-sweep` (src/services/privacy-schedule.ts). For each tenant that set a retention and
 * each kind with a number of days, it runs bounded batches (one activity each, a few hundred documents)
 * until none remain past the cutoff, and returns the counts of what it deleted. Nothing is held open
 * between batches: a crash resumes from what the store now holds, and a batch redone counts only what it
 * found. Long sweeps continue as new (the last tenant done and the counts carried).
 *
 * `erasureWorkflow`: one person's erasure, workflow id `ers_…`. Resolves the person once,
 * then works each kind of `ERASURE_KINDS` in order, batch by batch, keeping running totals (stored after
 * each kind for `GET /v1/erasures/{id}`), and completes with `erasure.completed`.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { continueAsNew, proxyActivities, workflowInfo, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as privacyActivities from '../activities/privacy';
import {
  addCounts,
  ERASURE_KINDS,
  noErasureCounts,
  noRetentionCounts,
  RETENTION_KINDS,
  retentionTenantKey,
  type ErasureCounts,
  type ErasureInput,
  type ErasureKind,
  type ErasurePerson,
  type RetentionCounts,
  type RetentionSweepInput,
} from '../shared/privacy';
import { UNTIL_DONE } from './retry';

/**
 * Store batches (a few hundred documents each): retried until they succeed (an outage delays a sweep or
 * an erasure, never loses it); a batch whose worker died is retried after a minute.
 */
const store = proxyActivities<typeof privacyActivities>({ startToCloseTimeout: '1 minute', retry: UNTIL_DONE });

const DAY_MS = 86_400_000;

/**
 * Deletes what every tenant keeps past its retention at `input.nowMs` (absent: the run's start time).
 * @returns the counts of what it deleted, by kind (this run and the runs it continued)
 */
export async function retentionSweepWorkflow(input: RetentionSweepInput): Promise<{ deleted: RetentionCounts }> {
  const nowMs = input.nowMs ?? Date.now();
  let deleted = input.deleted ?? noRetentionCounts();
  let cursor = input.cursor ?? null;
  const tenants = await store.listRetentionTenants();
  for (const tenant of tenants) {
    const key = retentionTenantKey(tenant);
    if (cursor !== null && key <= cursor) continue;
    for (const kind of RETENTION_KINDS) {
      const days = tenant.retention[`${kind}_days`];
      if (days === null) continue;
      const cutoffMs = nowMs - days * DAY_MS;
      for (let more = true; more;) {
        if (workflowInfo().continueAsNewSuggested)
          await continueAsNew<typeof retentionSweepWorkflow>({ ...input, nowMs, cursor, deleted });
        const batch = await store.retentionBatch.executeWithOptions({ summary: `${kind} of ${key}` }, [
          { orgId: tenant.orgId, livemode: tenant.livemode, kind, cutoffMs, nowMs, batchLimit: input.batchLimit },
        ]);
        deleted = addCounts(deleted, batch.counts);
        more = batch.more;
      }
    }
    cursor = key;
  }
  return { deleted };
}

/**
 * Erases one person (see the module comment). Never fails on its own: each batch is retried until it
 * succeeds.
 * @returns the counts of what it erased, by kind
 */
export async function erasureWorkflow(input: ErasureInput): Promise<{ counts: ErasureCounts }> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  const person: ErasurePerson =
    input.person ?? (await store.resolveErasurePerson({ ...tenant, subject: input.subject }));
  let counts = input.counts ?? noErasureCounts();
  const done: ErasureKind[] = [...(input.done ?? [])];
  let after = input.after ?? null;
  for (const kind of ERASURE_KINDS) {
    if (done.includes(kind)) continue;
    for (let more = true; more;) {
      if (workflowInfo().continueAsNewSuggested)
        await continueAsNew<typeof erasureWorkflow>({ ...input, person, counts, done, after });
      const batch = await store.erasureStep.executeWithOptions({ summary: kind }, [
        { ...tenant, kind, person, after, nowMs: Date.now(), batchLimit: input.batchLimit },
      ]);
      counts = addCounts(counts, batch.counts);
      after = batch.after ?? null;
      more = batch.more;
    }
    done.push(kind);
    after = null;
    await store.recordErasure({ erasureId: input.erasureId, counts, completed: false, nowMs: Date.now() });
  }
  await store.recordErasure({ erasureId: input.erasureId, counts, completed: true, nowMs: Date.now() });
  return { counts };
}

// Worker Versioning (src/shared/deployments.ts): Move to the current version at their next task (and continue as new in pages); changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), retentionSweepWorkflow);
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), erasureWorkflow);
