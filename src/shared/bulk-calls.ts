/**
 * The bulk-calls domain's contract (a campaign: DESIGN.md sections 1 and 10): `bulkCallWorkflow`'s type
 * name, input and carried state, its updates (`pause`, `resume`, `cancel`), query (`progress`) and the
 * signal its child `callWorkflow`s send when they end, the failure type of a refused update, the
 * workflow id (= campaign id `bulk_…`), the result row ids and the deterministic child call ids, and the
 * signature type starters use. Bundle-safe: imports only `@temporalio/workflow` definition helpers and
 * other src/shared files.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CallStatus, EndReason } from './calls';
import type { FormValues } from './forms';

/** Workflow type name of a campaign (recorded histories depend on it). */
export const BULK_CALL_WORKFLOW = 'bulkCallWorkflow';

/** Campaign statuses. `canceled` holds while calls in flight at the cancel finish (`completed_at` null). */
/** A campaign's statuses. */
export const BULK_CALL_STATUSES = ['running', 'paused', 'completed', 'canceled'] as const;
export type BulkCallStatus = (typeof BULK_CALL_STATUSES)[number];

/**
 * A contact's result status. `pending`: not called yet, or waiting for its window or its next attempt;
 * `in_progress`: a call is in flight; then one final status.
 */
export const RESULT_STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'busy',
  'no_answer',
  /** An answering machine answered (the call ended `voicemail`). */
  'voicemail',
  'failed',
  'window_expired',
  'do_not_call',
  'canceled',
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
export type FinalResultStatus = Exclude<ResultStatus, 'pending' | 'in_progress'>;

/** Call outcomes a campaign may redial (`retry.on`); `voicemail`: a machine answered. */
export const REDIAL_OUTCOMES = ['busy', 'no_answer', 'failed', 'voicemail'] as const;
export type RedialOutcome = (typeof REDIAL_OUTCOMES)[number];

/** The campaign's `counts` (they add up to `total`). */
export interface BulkCallCounts {
  total: number;
  pending: number;
  in_progress: number;
  /** Answered calls (`completed` or transferred). */
  completed: number;
  /** Final `busy`, `no_answer` or `voicemail`. */
  not_reached: number;
  failed: number;
  /** `do_not_call`, `window_expired` and `canceled`. */
  skipped: number;
}

/** Which `counts` bucket a final result status falls in. */
export function countBucket(status: FinalResultStatus): 'completed' | 'not_reached' | 'failed' | 'skipped' {
  if (status === 'completed') return 'completed';
  if (status === 'busy' || status === 'no_answer' || status === 'voicemail') return 'not_reached';
  if (status === 'failed') return 'failed';
  return 'skipped';
}

/**
 * The result status of a contact whose call ended with `status` and `endReason`: an answered call is
 * `completed`, unless a machine answered it (`end_reason` `voicemail`: `voicemail`).
 */
export function resultOfCall(status: CallStatus, endReason: EndReason | null = null): FinalResultStatus {
  if (status === 'completed' && endReason === 'voicemail') return 'voicemail';
  // The dial gate found the number on a do-not-call list at the dial (listed after the campaign began).
  if (endReason === 'do_not_call') return 'do_not_call';
  if (status === 'completed' || status === 'transferred') return 'completed';
  if (status === 'busy' || status === 'no_answer' || status === 'canceled') return status;
  return 'failed';
}

/** Redial rules, fixed at creation. */
export interface RedialPolicy {
  /** Calls per contact at most (1 = never redial). */
  maxAttempts: number;
  on: RedialOutcome[];
  /** Wait between an unsuccessful call's end and the next attempt, ms. */
  intervalMs: number;
}

/** `[open, close)` of one calling window, ms since the epoch. */
export type WindowInterval = [number, number];

/** A contact waiting for its window or its next attempt. */
export interface DeferredContact {
  index: number;
  attempt: number;
  /** Not dialed before this time (ms since the epoch). */
  notBeforeMs: number;
  /** Key of the contact's calling window (`windows` of the state), null when none applies. */
  zone: string | null;
  /** Calls already placed for this contact. */
  callIds: string[];
}

/** A call in flight, by call id. */
export interface InFlightCall {
  index: number;
  attempt: number;
  zone: string | null;
  /** Every call of the contact, this one last. */
  callIds: string[];
  /** When the parent asks the store about this call if it has not reported (ms): a lost report never holds a slot. */
  checkAtMs: number;
}

/** A contact of a loaded page, not taken yet. */
export interface PageContact {
  index: number;
  zone: string | null;
}

/** State carried from one run to the next (continue-as-new). */
export interface BulkCallState {
  status: BulkCallStatus;
  /** Index of the first contact no page has loaded yet. */
  nextIndex: number;
  /** Contacts of the current page not taken yet. */
  page: PageContact[];
  deferred: DeferredContact[];
  inFlight: Record<string, InFlightCall>;
  /** Final results so far, by bucket. */
  done: { completed: number; not_reached: number; failed: number; skipped: number };
  /** Calling windows by zone key, from the `loadBulkCallPage` and `bulkCallWindows` activities. */
  windows: Record<string, WindowInterval[]>;
  /** Pending contacts were ended by a cancel or by `ends_at` (every `pending` row is final now). */
  pendingEnded: boolean;
  /** Runs so far (1 for the first). */
  run: number;
}

/** Argument of `bulkCallWorkflow`. */
export interface BulkCallWorkflowInput {
  bulkCallId: string;
  orgId: string;
  livemode: boolean;
  /** Contacts after duplicates were removed; their result rows exist before the workflow starts. */
  total: number;
  maxConcurrency: number;
  retry: RedialPolicy;
  /** No call starts after this time (ms); pending contacts then end `window_expired`. Null: no end. */
  endsAtMs: number | null;
  /** Contacts loaded per page; each run takes one page, then continues as new. */
  pageSize: number;
  /** State carried by continue-as-new; absent in the first run. */
  state?: BulkCallState;
  /**
   * First run only: the campaign's document as the API writes it (src/models/bulk-calls.ts), inserted if
   * absent before anything else, so a crash of the API between starting the workflow and writing the
   * document loses nothing.
   */
  record?: Record<string, unknown>;
}

/** What the `progress` query and the updates return. */
export interface BulkCallProgress {
  status: BulkCallStatus;
  counts: BulkCallCounts;
  /** Contacts waiting for a window or a redial. */
  waiting: number;
  run: number;
}

/** What a child call reports when it ends (signal `bulkCallFinished`). */
export interface CallFinished {
  callId: string;
  index: number;
  attempt: number;
  status: CallStatus;
  endReason: EndReason | null;
  /** The values `fill_form` stored on the call, or null. */
  form: FormValues | null;
}

/** Failure type of an update refused because the campaign is over (the API answers 409 `bulk_call_ended`). */
export const BULK_CALL_ENDED = 'bulk_call_ended';

export const progressQuery = defineQuery<BulkCallProgress>('progress');
/** Stop new dials (calls in flight finish); resolves once the store shows `paused`. */
export const pauseUpdate = defineUpdate<BulkCallProgress>('pause');
/** Dial again after a pause. */
export const resumeUpdate = defineUpdate<BulkCallProgress>('resume');
/** End every pending contact as `canceled`; calls in flight finish. */
export const cancelUpdate = defineUpdate<BulkCallProgress>('cancel');
/** Sent by a campaign's `callWorkflow` when it ends, to the campaign's workflow id (any run). */
export const callFinishedSignal = defineSignal<[CallFinished]>('bulkCallFinished');

/** Signature of `bulkCallWorkflow`, for starters. */
export type BulkCallWorkflow = (input: BulkCallWorkflowInput) => Promise<BulkCallProgress>;

/** The workflow id of a campaign: the campaign id itself. */
export const bulkCallWorkflowId = (bulkCallId: string): string => bulkCallId;

/** The id of a contact's result row: `<bulk id>:<index, 6 digits>`, so rows sort in contact order. */
export const bulkCallResultId = (bulkCallId: string, index: number): string =>
  `${bulkCallId}:${String(index).padStart(6, '0')}`;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The call id of a campaign's call: `call_` + the dial time (ms, 10 characters, so call lists stay in
 * time order) + 16 characters hashed from campaign id, contact index and attempt. The parent records it
 * before starting the child, whose workflow id it is (`REJECT_DUPLICATE`), so starting an attempt again
 * can only find the call already there, never place a second one.
 */
export function bulkCallChildId(bulkCallId: string, index: number, attempt: number, atMs: number): string {
  let time = '';
  for (let i = 0, t = Math.max(0, Math.floor(atMs)); i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const key = `${bulkCallId}:${index}:${attempt}`;
  let out = '';
  for (let round = 0; out.length < 16; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    h >>>= 0;
    for (let j = 0; j < 6 && out.length < 16; j++) {
      out += ALPHABET[h & 31];
      h >>>= 5;
    }
  }
  return `call_${time}${out}`;
}
