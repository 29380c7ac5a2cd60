/**
 * The retry profiles of the workflows' activities, and `errorMessage`, each defined once: every workflow
 * file builds its activity proxies from these (Temporal's `RetryPolicy`: the first retry after
 * `initialInterval`, the interval doubling up to `maximumInterval`; without `maximumAttempts` an activity
 * is retried until it succeeds, https://docs.temporal.io/encyclopedia/retry-policies). A profile names
 * what it is for, so two activities that should fail alike stay alike when one is tuned.
 *
 * The values are part of what a workflow asks of the server (a scheduled activity's retry policy is in its
 * `ActivityTaskScheduled` event): changing one changes new schedules only, never a replay.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow` types and src/shared.
 */
import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';
import { LLM_REQUEST_REJECTED } from '../shared/assistant';
import { TELEPHONY_REJECTED } from '../shared/calls';

/**
 * Our own store, quick: retried until it succeeds, 500 ms backing off to 30 s (a store outage delays a
 * call, a campaign or a conversation, never loses it).
 */
export const UNTIL_STORED: RetryPolicy = { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' };

/**
 * Work that may wait longer (store batches, provider sends, bookkeeping): retried until it succeeds, 1 s
 * backing off to a minute.
 */
export const UNTIL_DONE: RetryPolicy = { initialInterval: '1 second', maximumInterval: '1 minute' };

/** As `UNTIL_DONE`, except a refusal by Twilio (a 4xx, `TELEPHONY_REJECTED`), which no retry changes. */
export const UNTIL_DONE_UNLESS_REFUSED: RetryPolicy = { ...UNTIL_DONE, nonRetryableErrorTypes: [TELEPHONY_REJECTED] };

/** A call's slot (the semaphore's answer, its release): retried until it succeeds, 500 ms up to 10 s. */
export const SLOT_RETRY: RetryPolicy = { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' };

/**
 * A periodic pass (the call reconciler, the slot audit): 5 tries, 1 s up to 30 s; the next pass takes
 * over from a pass that still fails.
 */
export const PASS_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  maximumInterval: '30 seconds',
  maximumAttempts: 5,
};

/** A model's request that is judged (an analysis, a test suite's judge): 4 tries, 2 s up to 30 s. */
export const JUDGE_RETRY: RetryPolicy = {
  initialInterval: '2 seconds',
  maximumInterval: '30 seconds',
  maximumAttempts: 4,
};

/** An LLM request: 3 tries, 1 s apart; a request the provider refused (4xx) is not retried. */
export const LLM_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  maximumAttempts: 3,
  nonRetryableErrorTypes: [LLM_REQUEST_REJECTED],
};

/** Telephony (Twilio): 5 tries, 1 s apart; a request Twilio refused (4xx) is not retried. */
export const TELEPHONY_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  maximumAttempts: 5,
  nonRetryableErrorTypes: [TELEPHONY_REJECTED],
};

/** A tool's work (a knowledge search, the organization's tools): 3 tries, 500 ms apart. */
export const TOOL_RETRY: RetryPolicy = { initialInterval: '500 milliseconds', maximumAttempts: 3 };

/**
 * How long a local activity's retries back off inside the workflow task before they wait on a server
 * timer (Temporal's `localRetryThreshold`).
 */
export const LOCAL_RETRY_THRESHOLD = '10 seconds';

/** A store write of a call or a conversation, scheduled: 30 s per try, `UNTIL_STORED`. */
export const STORE_ACTIVITY: ActivityOptions = { startToCloseTimeout: '30 seconds', retry: UNTIL_STORED };

/** The same write as a local activity (run by the worker inside the workflow task: no server round trip). */
export const LOCAL_STORE_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: LOCAL_RETRY_THRESHOLD,
  retry: UNTIL_STORED,
};

/** An LLM request, scheduled: 30 s per try, `LLM_RETRY`. */
export const LLM_ACTIVITY: ActivityOptions = { startToCloseTimeout: '30 seconds', retry: LLM_RETRY };

/** An LLM request as a local activity: the same timeouts and retries, no server round trip per request. */
export const LOCAL_LLM_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: LOCAL_RETRY_THRESHOLD,
  retry: LLM_RETRY,
};

/**
 * The innermost cause's message of a failure (an activity failure's cause is the activity's error; a
 * child workflow's, the child's), else the value as text.
 */
export function errorMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
