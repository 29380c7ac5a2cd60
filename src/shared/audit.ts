/**
 * The audit log's retention contract, bundle-safe: `auditRetentionWorkflow`, started
 * every hour by the Temporal Schedule `audit-retention` (src/services/audit.ts `ensureAuditRetentionSchedule`), deletes the
 * entries older than `AUDIT_RETENTION_DAYS` in bounded batches (src/services/audit.ts `expireAuditEvents`).
 */

/** Workflow type name of the retention pass (recorded histories depend on it). */
export const AUDIT_RETENTION_WORKFLOW = 'auditRetentionWorkflow';
/** Id of the Temporal Schedule that starts it. */
export const AUDIT_RETENTION_SCHEDULE_ID = 'audit-retention';
/** Batches one pass deletes at most; the next pass goes on. */
export const AUDIT_RETENTION_MAX_BATCHES = 20;

/** The pass's input: the instant retention is measured from (ms since the epoch; absent: now). Tests inject it. */
export interface AuditRetentionInput {
  nowMs?: number;
}

/** Signature of `auditRetentionWorkflow`: how many entries it deleted, in how many batches. */
export type AuditRetentionWorkflow = (input: AuditRetentionInput) => Promise<{ deleted: number; batches: number }>;
