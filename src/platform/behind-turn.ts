/**
 * Work behind a call's turn, after the turn's next model request: a call's bookkeeping that follows an
 * answer (the turn's transcript and stream rows, the usage rows of its answers and the rollups' fold,
 * written by one `recordTurns` local activity: src/activities/calls.ts) waits, in this process, until the
 * call's next LLM request has been sent (`requestSent`, by the LLM activity), or at most
 * `BEHIND_MAX_WAIT_MS`. On a 2-core machine the dozen store commands of that bookkeeping, started the
 * moment the model answered, ran side by side with the workflow's next step and the next request's
 * context reads (the same CPU, the same store) and doubled the time from an answer to the next request
 * (bench/voice.ts, README "Latency"); after the request is sent they run while the model thinks.
 *
 * Nothing here holds durability: the wait is inside a local activity, whose completion Temporal records
 * (its marker) only once it has returned, so a worker that dies while it waits leaves it unrecorded and
 * the workflow, replayed elsewhere, runs it again with the same rows. A write that someone awaits calls
 * `release` first; after `BEHIND_MAX_WAIT_MS` the write goes on anyway (a live caller listens to the answer for seconds before the next request: the wait then is
 * the bound, never longer).
 *
 * Per process: the LLM activity of a call runs in the worker that runs its workflow task (a local
 * activity), which is where its writes behind run too; a request sent by another process releases
 * nothing here, the bound does.
 */

/** How long work behind a call's turn waits for its next request at most (ms). */
export const BEHIND_MAX_WAIT_MS = 200;

/** Waiters per call, released by its next request (or their bound). */
const waiting = new Map<string, Set<() => void>>();

/**
 * Resolves once `requestSent(callId)` or `release(callId)` is next called in this process, or after
 * `maxWaitMs`, whichever comes first. Never rejects.
 */
export function afterNextRequest(callId: string, maxWaitMs = BEHIND_MAX_WAIT_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    let set = waiting.get(callId);
    if (!set) waiting.set(callId, (set = new Set()));
    const waiters = set;
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      if (waiters.size === 0 && waiting.get(callId) === waiters) waiting.delete(callId);
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    timer.unref?.();
    waiters.add(done);
  });
}

/**
 * The call's next model request is on its way (the LLM activity, as it sends it): its work behind goes
 * on, from the next turn of the event loop, once the request is written to its socket (the HTTP client's
 * own steps to the socket are promise continuations; the work behind, let go now, would run its store
 * commands' serialization among them, before the request leaves).
 */
export function requestSent(callId: string): void {
  setImmediate(() => release(callId));
}

/** Lets the call's work behind go on now (someone awaits it: the call's transcript write that is not behind). */
export function release(callId: string): void {
  const waiters = waiting.get(callId);
  if (waiters) for (const done of [...waiters]) done();
}
