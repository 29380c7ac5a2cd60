/**
 * Privacy contracts (issue 36 items 1 and 2), bundle-safe: the kinds of data a retention covers, the
 * retention sweep's and the erasure's workflow names, inputs and results, and the erasure's counts.
 * Imported by the API, the activities, the workflows and the tests.
 */

/**
 * The kinds of data an organization keeps for a number of days (issue 36 item 1), each the name of a
 * field of `retention` in `POST /v1/account` with `_days` appended: `transcripts_days`…
 */
export const RETENTION_KINDS = ['transcripts', 'messages', 'recordings', 'analyses', 'events'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** A mode's retention: days to keep each kind from its creation; null keeps it for ever. */
export type RetentionSettings = { [K in RetentionKind as `${K}_days`]: number | null };

/** What an organization keeps, and how, in one mode (`GET /v1/account` `retention` and `redaction`). */
export interface PrivacySettings {
  retention: RetentionSettings;
  /** PII redaction before storage (issue 36 item 3; applied by the redaction code), off by default. */
  redaction: { enabled: boolean };
}

/** Bounds of a retention's days (inclusive; issue 36 "Bad input": outside 1–3,650 is refused). */
export const RETENTION_DAYS_RANGE = { min: 1, max: 3650 } as const;

/** Workflow type of one retention sweep (issue 36 item 1). */
export const RETENTION_SWEEP_WORKFLOW = 'retentionSweepWorkflow';
/** Id of the Temporal Schedule that starts the sweep every hour. */
export const RETENTION_SWEEP_SCHEDULE_ID = 'retention-sweep';

/**
 * Input of `retentionSweepWorkflow`. `nowMs` overrides the clock (tests inject time; absent: the time the
 * first run started, kept across continue-as-new). `cursor` and `deleted` carry a sweep across
 * continue-as-new: the tenants already swept (an index into the list the sweep read) and the counts so far.
 */
export interface RetentionSweepInput {
  nowMs?: number;
  cursor?: number;
  deleted?: RetentionCounts;
}

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
