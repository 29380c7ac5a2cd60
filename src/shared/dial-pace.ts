/**
 * The dialing pace's contract (src/services/dial-pace.ts holds the pacer): what a dialing activity
 * answers when its turn is too far ahead to wait for inside the activity, and how early the workflow
 * asks again.
 *
 * Twilio admits a fixed number of new calls per second per account, its CPS (1 by default, every
 * subaccount its own; https://www.twilio.com/docs/glossary/cps, https://help.twilio.com/articles/223180028):
 * calls created faster are queued by Twilio (the Call's `QueueTime`) and past 24 hours of queue refused
 * (error 22005, https://www.twilio.com/docs/api/errors/22005). Every live dial of the service (a call's
 * `placeCall`, a warm transfer's `dialTransferLeg`) waits for its turn before the Calls create is sent.
 *
 * Bundle-safe: imports nothing.
 */

/** Twilio's default CPS of an account (and of each subaccount): an organization's pace unless the operator set one. */
export const DEFAULT_CALLS_PER_SECOND = 1;

/**
 * The longest wait for a turn that a dialing activity does inside itself (ms): a turn further ahead is
 * answered as `{ waitUntilMs }` and the workflow waits on a durable timer (a worker that dies while
 * waiting loses nothing: the timer fires on another), then asks again; the activity keeps the same turn.
 * Well under the activities' 30 s start-to-close timeout.
 */
export const PACE_ACTIVITY_WAIT_MS = 10_000;

/** How long before its turn the workflow asks again after a `{ waitUntilMs }` answer (ms). */
export const PACE_WAKE_EARLY_MS = 5_000;

/** A dial that must wait: its turn, epoch ms (no call was created). */
export interface DialLater {
  providerCallSid: null;
  waitUntilMs: number;
  /**
   * Set (equal to `waitUntilMs`) when a call's own dial is held for the callee's calling hours: its turn of
   * the pace came after the window closed, so it waits, `scheduled`, until the window opens (epoch ms)
   * and then takes a new turn. Absent: a wait for the turn itself.
   */
  heldUntilMs?: number;
}

/**
 * A call's own dial refused at dial time, nothing sent: its `from` is no longer the organization's
 * (`from_not_owned`: the number released, the caller ID deleted, the account changed since the call was
 * made), or its turn came after the callee's window closed and the call's policy is `refuse`
 * (`outside_calling_hours`). The call ends `canceled` with that reason.
 */
export interface DialRefused {
  providerCallSid: null;
  waitUntilMs?: undefined;
  refused: { reason: 'from_not_owned' | 'outside_calling_hours'; message: string };
}

/** A dial done: Twilio's Call SID (`CA…`). */
export interface DialDone {
  providerCallSid: string;
  waitUntilMs?: undefined;
}

/** What a dialing activity answers: the call placed, or its turn to come back at. */
export type PacedDial = DialDone | DialLater;

/** What a call's own dial (`placeCall`) answers: as `PacedDial`, or refused at dial time. */
export type PlacedDial = PacedDial | DialRefused;

/**
 * How long the workflow sleeps after a `DialLater` answer before asking again (ms, at least 1): until
 * `PACE_WAKE_EARLY_MS` before the turn.
 */
export const paceSleepMs = (later: DialLater, nowMs: number): number =>
  Math.max(1, later.waitUntilMs - PACE_WAKE_EARLY_MS - nowMs);
