/**
 * Audit log activities, run by `auditRetentionWorkflow`: one bounded batch of expired
 * entries deleted per call.
 */
import { expireAuditEvents } from '../services/audit';

/**
 * Deletes up to 500 entries created before `nowMs - AUDIT_RETENTION_DAYS` (src/services/audit.ts
 * `expireAuditEvents`). Idempotent; a retried attempt deletes what is still there.
 * @returns how many it deleted, and whether more may be left
 */
export async function expireAuditEventsBatch(input: { nowMs: number }): Promise<{ deleted: number; more: boolean }> {
  return expireAuditEvents(input.nowMs);
}
