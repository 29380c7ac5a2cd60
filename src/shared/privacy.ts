/**
 * Privacy contracts, bundle-safe: the kinds of data a retention covers, the
 * retention sweep's and the erasure's workflow names, inputs and results, and the erasure's counts.
 * Imported by the API, the activities, the workflows and the tests.
 */

/**
 * The kinds of data an organization keeps for a number of days, each the name of a
 * field of `retention` in `POST /v1/account` with `_days` appended: `transcripts_days`…
 */
export const RETENTION_KINDS = ['transcripts', 'messages', 'recordings', 'analyses', 'events'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** A mode's retention: days to keep each kind from its creation; null keeps it for ever. */
export type RetentionSettings = { [K in RetentionKind as `${K}_days`]: number | null };

/** What an organization keeps, and how, in one mode (`GET /v1/account` `retention` and `redaction`). */
export interface PrivacySettings {
  retention: RetentionSettings;
  /** PII redaction before storage (applied by the redaction code), off by default. */
  redaction: { enabled: boolean };
}

/** Bounds of a retention's days (inclusive; outside 1–3,650 is refused). */
export const RETENTION_DAYS_RANGE = { min: 1, max: 3650 } as const;

/** Workflow type of one retention sweep. */
export const RETENTION_SWEEP_WORKFLOW = 'retentionSweepWorkflow';
/** Id of the Temporal Schedule that starts the sweep every hour. */
export const RETENTION_SWEEP_SCHEDULE_ID = 'retention-sweep';

/**
 * Input of `retentionSweepWorkflow`. `nowMs` overrides the clock (tests inject time; absent: the time the
 * first run started, kept across continue-as-new). `cursor` and `deleted` carry a sweep across
 * continue-as-new: the last tenant swept whole (`retentionTenantKey`) and the counts so far.
 */
export interface RetentionSweepInput {
  nowMs?: number;
  /** At most this many documents (calls, recordings) per batch, below the defaults (tests cross batches). */
  batchLimit?: number;
  cursor?: string | null;
  deleted?: RetentionCounts;
}

/** A tenant's place in the sweep's order: organization id, then test (0) before live (1). */
export const retentionTenantKey = (t: { orgId: string; livemode: boolean }) => `${t.orgId}|${t.livemode ? 1 : 0}`;

/** What a sweep deleted (or emptied, for a skeleton's text), by kind: counts of documents. */
export interface RetentionCounts {
  transcript_turns: number;
  messages: number;
  recordings: number;
  analyses: number;
  events: number;
  /** Calls and conversations whose text (summary, preview, context) was cleared, leaving a skeleton. */
  skeletons: number;
}

/** Signature of `retentionSweepWorkflow`: the counts of what it deleted. */
export type RetentionSweepWorkflow = (input: RetentionSweepInput) => Promise<{ deleted: RetentionCounts }>;

/** Zero counts. */
export function noRetentionCounts(): RetentionCounts {
  return { transcript_turns: 0, messages: 0, recordings: 0, analyses: 0, events: 0, skeletons: 0 };
}

/** Workflow type of an erasure; its workflow id is the erasure's id, `ers_…`. */
export const ERASURE_WORKFLOW = 'erasureWorkflow';

/** Whom an erasure is of: a contact (by id), or a phone number or an external id never made a contact. */
export type ErasureSubject =
  | { type: 'contact'; contactId: string }
  | { type: 'phone'; phone: string }
  | { type: 'external_id'; externalId: string };

/** Input of `erasureWorkflow`: the erasure, its tenant and whom it erases (the raw subject lives only here). */
export interface ErasureInput {
  erasureId: string;
  orgId: string;
  livemode: boolean;
  subject: ErasureSubject;
  /** Counts carried across continue-as-new (absent on the first run). */
  counts?: ErasureCounts;
  /** At most this many documents per batch, below the defaults (tests cross batches). */
  batchLimit?: number;
  /** Kinds already finished (carried across continue-as-new). */
  done?: ErasureKind[];
  /** The scan position within the kind in progress (carried across continue-as-new). */
  after?: string | null;
  /** The person as first resolved (carried across continue-as-new: the contact is gone by then). */
  person?: ErasurePerson;
}

/** The person an erasure looks for, resolved once at its start from the subject and the contact (if any). */
export interface ErasurePerson {
  contactId: string | null;
  phone: string | null;
  externalId: string | null;
  name: string | null;
  /** The contact's records when resolved (counted as erased: the request that starts the erasure deletes them). */
  records: number;
}

/**
 * The kinds an erasure reaches, in the order it works them (each its own bounded, idempotent activity).
 * The person is resolved (contact, number, name) before any: the contact can go first.
 */
export const ERASURE_KINDS = [
  'contacts',
  'calls',
  'conversations',
  'bulk_call_results',
  'events',
  'idempotency_records',
] as const;
export type ErasureKind = (typeof ERASURE_KINDS)[number];

/** What an erasure removed or irreversibly redacted, by kind: counts of documents. */
export interface ErasureCounts {
  contacts: number;
  records: number;
  calls: number;
  transcript_turns: number;
  conversations: number;
  messages: number;
  recordings: number;
  analyses: number;
  bulk_call_results: number;
  events: number;
  webhook_attempts: number;
  idempotency_records: number;
}

/** Zero counts. */
export function noErasureCounts(): ErasureCounts {
  return {
    contacts: 0,
    records: 0,
    calls: 0,
    transcript_turns: 0,
    conversations: 0,
    messages: 0,
    recordings: 0,
    analyses: 0,
    bulk_call_results: 0,
    events: 0,
    webhook_attempts: 0,
    idempotency_records: 0,
  };
}

/** Adds `more` into `into` (counts of one batch into the running totals). */
export function addCounts<C extends object>(into: C, more: Partial<C>): C {
  const out = { ...into } as Record<string, number>;
  for (const [k, v] of Object.entries(more)) out[k] = (out[k] ?? 0) + (v as number);
  return out as C;
}

/** One batch of an erasure: what it changed, and whether more of that kind may remain. */
export interface ErasureBatchResult {
  counts: Partial<ErasureCounts>;
  more: boolean;
  /** A scan's position (events, idempotency records): where the next batch starts. */
  after?: string | null;
}

/** One batch of a retention sweep: what it deleted, and whether more of that kind may remain. */
export interface RetentionBatchResult {
  counts: Partial<RetentionCounts>;
  more: boolean;
}

/** The erasure object's `status`. */
export type ErasureStatus = 'running' | 'completed';
/** Signature of `erasureWorkflow`: the counts of what it erased. */
export type ErasureWorkflow = (input: ErasureInput) => Promise<{ counts: ErasureCounts }>;

/** What replaces a phone number, a name or an external id the erasure finds in a kept document. */
export const REDACTED = '[redacted]';
