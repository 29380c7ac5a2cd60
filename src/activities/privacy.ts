/**
 * The activities of the retention sweep and of erasures: each is one bounded
 * batch over the store (src/services/retention.ts, src/services/erasure.ts), idempotent, planned and
 * counted before it acts under the activity's id, so a retried or redone batch counts once.
 */
import { Context } from '@temporalio/activity';
import { completeErasure, erasureBatch, resolvePerson, saveErasureCounts } from '../services/erasure';
import { retentionTenants } from '../services/privacy';
import { retentionBatch as runRetentionBatch } from '../services/retention';
import type {
  ErasureBatchResult,
  ErasureCounts,
  ErasureKind,
  ErasurePerson,
  ErasureSubject,
  RetentionBatchResult,
  RetentionKind,
  RetentionSettings,
} from '../shared/privacy';

/** A tenant with a retention, as the sweep works it. */
export interface RetentionTenant {
  orgId: string;
  livemode: boolean;
  retention: RetentionSettings;
}

/** The tenants that set a retention, in organization order, test mode before live. */
export async function listRetentionTenants(): Promise<RetentionTenant[]> {
  return retentionTenants();
}

/**
 * One retention batch of one kind for one tenant: deletes at most a few hundred documents created before
 * `cutoffMs` (src/services/retention.ts `retentionBatch`).
 * @returns what it deleted, and whether more may remain
 */
export async function retentionBatch(input: {
  orgId: string;
  livemode: boolean;
  kind: RetentionKind;
  cutoffMs: number;
  nowMs: number;
  batchLimit?: number;
}): Promise<RetentionBatchResult> {
  const { workflowExecution: wf, activityId } = Context.current().info;
  return runRetentionBatch(Context.current().client, input, wf ? `${wf.workflowId}:${wf.runId}:${activityId}` : null);
}

/** The person an erasure looks for, resolved once at its start (src/services/erasure.ts `resolvePerson`). */
export async function resolveErasurePerson(input: {
  orgId: string;
  livemode: boolean;
  subject: ErasureSubject;
}): Promise<ErasurePerson> {
  return resolvePerson(input, input.subject);
}

/**
 * One bounded, idempotent batch of one kind of an erasure (src/services/erasure.ts `erasureBatch`).
 * @returns what it changed, whether more may remain, and where a scan continues
 */
export async function erasureStep(input: {
  orgId: string;
  livemode: boolean;
  kind: ErasureKind;
  person: ErasurePerson;
  after: string | null;
  nowMs: number;
  batchLimit?: number;
}): Promise<ErasureBatchResult> {
  const { workflowExecution: wf, activityId } = Context.current().info;
  return erasureBatch(Context.current().client, input, wf ? `${wf.workflowId}:${wf.runId}:${activityId}` : null);
}

/** Stores an erasure's running counts, or completes it (`completed`, `erasure.completed` once). */
export async function recordErasure(input: {
  erasureId: string;
  counts: ErasureCounts;
  completed: boolean;
  nowMs: number;
}): Promise<void> {
  if (input.completed) await completeErasure(Context.current().client, input.erasureId, input.counts, input.nowMs);
  else await saveErasureCounts(input.erasureId, input.counts);
}
