/**
 * `auditRetentionWorkflow`: one retention pass of the audit log, started every hour by
 * the Temporal Schedule `audit-retention` (src/services/audit.ts `ensureAuditRetentionSchedule`). Deletes the entries older
 * than `AUDIT_RETENTION_DAYS` one bounded batch per activity, at most `AUDIT_RETENTION_MAX_BATCHES`
 * batches (the next pass takes the rest), and returns how many it deleted.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as auditActivities from '../activities/audit';
import { AUDIT_RETENTION_MAX_BATCHES, type AuditRetentionInput } from '../shared/audit';
import { UNTIL_DONE } from './retry';

/** Store deletes: retried until they succeed (an outage delays the pass, never loses it). */
const store = proxyActivities<typeof auditActivities>({ startToCloseTimeout: '1 minute', retry: UNTIL_DONE });

/** Deletes the expired audit entries at `input.nowMs` (absent: now), batch after batch. */
export async function auditRetentionWorkflow(
  input: AuditRetentionInput,
): Promise<{ deleted: number; batches: number }> {
  const nowMs = input.nowMs ?? Date.now();
  let deleted = 0;
  let batches = 0;
  while (batches < AUDIT_RETENTION_MAX_BATCHES) {
    const batch = await store.expireAuditEventsBatch.executeWithOptions({ summary: 'delete expired audit entries' }, [
      { nowMs },
    ]);
    batches++;
    deleted += batch.deleted;
    if (!batch.more) break;
  }
  return { deleted, batches };
}

// Worker Versioning (src/shared/deployments.ts): Moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), auditRetentionWorkflow);
