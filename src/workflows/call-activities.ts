/**
 * The activities a call's workflow (src/workflows/calls.ts) and its collaborators reach, as proxies with
 * the options each needs (the retry profiles are src/workflows/retry.ts's). One home for them, so
 * `CallSession`, `CallLine`, `CallQueue`, `CallTranscript`, `TurnLoop` and `WarmTransfer` ask the same
 * activity the same way.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type * as callActivities from '../activities/calls';
import type * as dialingActivities from '../activities/dialing';
import type * as llmActivities from '../activities/llm';
import type * as slotActivities from '../activities/call-slots';
import type * as telephonyActivities from '../activities/telephony';
import type * as voiceRoomActivities from '../activities/voice-room';
import type * as simulatorActivities from '../activities/simulator';
import { VOICE_ROOM_UNAVAILABLE, type CallWorkflowInput } from '../shared/calls';
import {
  LOCAL_LLM_ACTIVITY,
  LOCAL_RETRY_THRESHOLD,
  LOCAL_STORE_ACTIVITY,
  SLOT_RETRY,
  STORE_ACTIVITY,
  TELEPHONY_RETRY,
} from './retry';

/** Transitions that emit events: scheduled activities, retried until they succeed (a store outage delays a call, never loses it). */
export const store = proxyActivities<typeof callActivities>(STORE_ACTIVITY);

/**
 * Asking for the call's slot (src/shared/call-slots.ts): a scheduled activity, since the semaphore answers
 * from its own workflow task (a local activity would hold this run's task while it waits: with every task
 * slot of a worker so held, the semaphore's task could not run). Retried until it succeeds.
 */
export const slots = proxyActivities<typeof slotActivities>({ startToCloseTimeout: '30 seconds', retry: SLOT_RETRY });
/** Freeing it: a signal, no wait; a local activity in the finishing task. */
export const slotRelease = proxyLocalActivities<typeof slotActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: LOCAL_RETRY_THRESHOLD,
  retry: SLOT_RETRY,
});

/**
 * The other writes as local activities: the call's record, transitions without events and transcript
 * turns take milliseconds and are idempotent, so the worker runs them inside the workflow task instead of
 * a round trip through the server each. Transitions that emit events stay scheduled activities: their
 * event ids are fixed in the history before they run.
 */
export const localStore = proxyLocalActivities<typeof callActivities>(LOCAL_STORE_ACTIVITY);

/**
 * The persona caller's turn: a local activity like the assistant's turn (no server round trip per turn),
 * the same timeouts and retries; a request the provider refused is not retried.
 */
export const simulator = proxyLocalActivities<typeof simulatorActivities>(LOCAL_LLM_ACTIVITY);

/** Telephony (Twilio in live mode; no-ops for simulated calls); a refused request is not retried. */
export const telephony = proxyActivities<typeof telephonyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: TELEPHONY_RETRY,
});

/**
 * The dial gate (`checkDialGate`): reads and one write taking milliseconds, a local activity like the
 * store's writes (no server round trip before every dial; its answer is recorded in the history, so a
 * worker killed after it replays the same decision), retried until it succeeds (a store outage delays a
 * dial, never skips the check).
 */
export const dialGate = proxyLocalActivities<typeof telephonyActivities>(LOCAL_STORE_ACTIVITY);

/**
 * The dialing permissions of a model's transfer (`checkTransferDestination`): store reads, a local
 * activity like the dial gate's, retried until it succeeds (a store outage delays the transfer, never
 * skips the check).
 */
export const dialing = proxyLocalActivities<typeof dialingActivities>(LOCAL_STORE_ACTIVITY);

/**
 * The assistant in a browser voice room (`attendRoom`, src/activities/voice-room.ts): one activity for
 * the whole call, heartbeating every second. A worker that dies stops the heartbeats: after 10 s Temporal
 * retries it on another worker, which joins the room again. Bounded by the call: the workflow cancels it
 * when the call ends; the start-to-close timeout is a backstop past the longest call.
 */
export const roomActivities = (input: CallWorkflowInput) =>
  proxyActivities<typeof voiceRoomActivities>({
    startToCloseTimeout: `${input.max_duration_seconds + 300} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '5 seconds',
      nonRetryableErrorTypes: [VOICE_ROOM_UNAVAILABLE],
    },
  });

/**
 * Warm transfers: the person's leg is retried (a worker killed while the leg waited for its turn of the
 * account's calls per second), never dialed twice (the activity keeps a dial intent and refuses, not
 * retried, once the create may have gone); the summary they hear is written by one LLM request, tried
 * twice.
 */
export const transferDial = proxyActivities<typeof telephonyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: TELEPHONY_RETRY,
});
export const summaryLlm = proxyActivities<typeof llmActivities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

/**
 * A squad's `summary` hand-off (src/workflows/call-squad.ts): one LLM request of a few sentences while the
 * caller waits for the next member, so an attempt whose worker died is given up after 20 s (no heartbeat:
 * the request is one HTTP exchange) and tried again, three attempts in all.
 */
export const handoffLlm = proxyActivities<typeof llmActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
