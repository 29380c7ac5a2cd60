/**
 * The call-slots domain's contract: an organization's `max_concurrent_calls` per mode,
 * held by one `callSlotsWorkflow` per organization and mode, a counting semaphore in the shape of the
 * Temporal samples' `mutex` (a long-lived workflow that grants by signalling the requester back).
 *
 * - A call holds one slot from dialing (or answering) until it has hung up (its workflow frees it just
 *   before recording the end), whatever its direction or channel. Every call asks with `tryAcquireSlotUpdate` (update-with-start), or, an outbound call placed
 *   through the API, with `queueCallSignal` (signal-with-start, no answer awaited): outbound calls wait in
 *   the semaphore's line when none is free, first come first served, granted later by `slotGrantedSignal`
 *   to the call's workflow; inbound calls and browser voice calls ask once and are refused at the limit.
 * - The count lives in Temporal's history, so it holds across any number of API and worker processes
 *   and through worker crashes; a slot is freed by the call's workflow as it ends (`releaseSlotSignal`), and one whose call's workflow closed without doing so (terminated by an
 *   operator, or an API process that crashed between taking a slot and starting the call) is found by the
 *   semaphore's own audit (`CALL_SLOTS_AUDIT_MS`), never leaked.
 *
 * Bundle-safe: imports only `@temporalio/workflow` definition helpers.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/** Workflow type name of the semaphore (recorded histories depend on it). */
export const CALL_SLOTS_WORKFLOW = 'callSlotsWorkflow';

/** The semaphore's workflow id: one per organization and mode (`call-slots:org_…:live`). */
export const callSlotsWorkflowId = (orgId: string, livemode: boolean): string =>
  `call-slots:${orgId}:${livemode ? 'live' : 'test'}`;

/** A call holding a slot: since when (epoch ms, workflow time of the grant). */
export interface SlotHolder {
  callId: string;
  sinceMs: number;
}

/** A call waiting for a slot: since when (epoch ms). */
export interface SlotWaiter {
  callId: string;
  sinceMs: number;
}

/** Argument of `callSlotsWorkflow`: the organization and mode, the limit known at start, and a continued run's state. */
export interface CallSlotsInput {
  orgId: string;
  livemode: boolean;
  /** `max_concurrent_calls` (1–1,000) as read by whoever started the semaphore. */
  limit: number;
  /** Set when a run continues as new: the calls holding slots, and the queue in order. */
  holders?: SlotHolder[];
  queue?: SlotWaiter[];
  /** Set when a run continues as new: holders granted whose workflows were not told yet. */
  tell?: string[];
  /**
   * How often the holders are audited, ms (default `CALL_SLOTS_AUDIT_MS`; kept by a continued run). Set
   * only by tests, which cannot wait a minute for the audit.
   */
  auditMs?: number;
}

/** What the `slots` query answers: the limit, who holds a slot, who waits, in order. */
export interface CallSlotsState {
  limit: number;
  holders: SlotHolder[];
  queue: SlotWaiter[];
}

/** Argument of `tryAcquireSlotUpdate`: the call, the limit its sender read from the store, and whether it waits in line. */
export interface SlotRequest {
  callId: string;
  limit: number;
  /** True: not granted now, wait in line for `slotGrantedSignal`; false or absent: refused. */
  queue?: boolean;
}

/** What `tryAcquireSlotUpdate` answers: whether the call holds a slot now, and how many are taken of how many. */
export interface SlotAnswer {
  granted: boolean;
  /** Not granted, and waiting in line (place 1 = next). */
  position?: number;
  active: number;
  limit: number;
}

/** Frees the call's slot, or takes it out of the queue (a call that gave up waiting). Unknown calls: nothing. */
export const releaseSlotSignal = defineSignal<[{ callId: string }]>('releaseSlot');
/** The operator changed `max_concurrent_calls` (svcctl): a raise grants waiting calls at once. */
export const limitChangedSignal = defineSignal<[{ limit: number }]>('limitChanged');
/**
 * A call asks for a slot: granted at once when one is free and nobody waits (a waiting call keeps its
 * place), a call that already holds one is granted again. Otherwise an inbound or browser voice call
 * (`queue` false) is refused; an outbound call (`queue` true) is put in line, first come first served,
 * and granted later by `slotGrantedSignal` to its workflow, in the order the calls were created
 * (asking again keeps its place).
 */
export const tryAcquireSlotUpdate = defineUpdate<SlotAnswer, [SlotRequest]>('tryAcquireSlot');
/** Argument of `tryAcquireSlotsUpdate`: the requests one process gathered for this semaphore, in the order they came. */
export interface SlotRequests {
  requests: SlotRequest[];
}
/**
 * Several requests for slots in one update, each decided as by `tryAcquireSlotUpdate`, in the order given,
 * answered in that order. A process sends the requests that come while its previous update to the same
 * semaphore is on its way together (src/services/call-slots.ts `tryAcquireCallSlot`), so a burst keeps
 * one update per process in flight, well under the 10 Temporal admits per workflow
 * (`history.maxInFlightUpdates`), where one update per request had hundreds refused after a worker
 * restart.
 */
export const tryAcquireSlotsUpdate = defineUpdate<SlotAnswer[], [SlotRequests]>('tryAcquireSlots');
/**
 * An outbound call joins the line without waiting for an answer (`POST /v1/calls` sends
 * it with signal-with-start, one round trip to the Temporal server and none to a worker): decided as
 * `tryAcquireSlotUpdate` with `queue: true` (a free slot when nobody waits, else its place in line by
 * creation), and the grant, at once or later, is told to the call's workflow by `slotGrantedSignal`.
 * Asking again keeps the call's place, or its slot.
 */
export const queueCallSignal = defineSignal<[SlotRequest]>('queueCall');
/** What `queueCallsSignal` carries: calls in the order the API created them, and the limit read last. */
export interface QueueCallsRequest {
  callIds: string[];
  limit: number;
}
/**
 * Several outbound calls join the line in one signal, each decided as by `queueCallSignal` in the order
 * given (an API process sends the calls created while its previous signal to the same
 * semaphore was on its way together, so a burst of calls costs a few signals, not one each).
 */
export const queueCallsSignal = defineSignal<[QueueCallsRequest]>('queueCalls');
/** The limit, the holders and the queue. */
export const slotsQuery = defineQuery<CallSlotsState>('slots');

/** Sent by the semaphore to a waiting call's workflow (by workflow id = call id): its slot is granted. */
export const slotGrantedSignal = defineSignal('slotGranted');

/**
 * How often the semaphore checks that its holders' calls still run (ms), and how long a holder whose
 * call's workflow does not exist (yet) is given before its slot is freed (an API process takes a slot
 * just before it starts the call).
 */
export const CALL_SLOTS_AUDIT_MS = 60_000;
export const CALL_SLOTS_START_GRACE_MS = 60_000;

/**
 * How long a call started with `slot: 'waiting'` waits for its grant before asking the semaphore itself
 * (ms): the API's signal goes after the start, unawaited, and may have failed or never gone; a call already in
 * line keeps its place, so the ask costs one update for a call that waits longer than this.
 */
export const SLOT_ASK_AGAIN_MS = 5_000;

/** Default of a call's `queue_timeout_seconds`: how long an outbound call may wait for a slot (then `failed`, `queue_timeout`). */
export const DEFAULT_QUEUE_TIMEOUT_SECONDS = 600;

/** Signature of `callSlotsWorkflow`, for starters. */
export type CallSlotsWorkflow = (input: CallSlotsInput) => Promise<void>;
