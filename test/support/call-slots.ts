/**
 * Helpers of the concurrency-limit tests (test/integration/call-slots.test.ts and
 * call-slots-crash.test.ts): scripted caller lines, and the count of calls live at once
 * from the calls' own timestamps (`dialed_ms`, `ended_ms` in the store), and the semaphore's state once
 * settled (test mode).
 */
import { callSlotsWorkflowId, slotsQuery, type CallSlotsState } from '../../src/shared/call-slots';
import { h } from './harness';

/** `n` scripted caller lines (`Line 1` …). */
export const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `Line ${i + 1}`);

/**
 * The largest number of calls live at one moment, from their [dialed, ended] intervals (epoch ms). At
 * equal times an end counts before a start: a slot is freed only after the call's `ended_ms` (taken
 * just before the release), and the next call's `dialed_ms` is stamped after its grant.
 */
export function mostAtOnce(intervals: [number, number][]): number {
  const edges = intervals.flatMap(([a, b]) => [
    [a, 1],
    [b, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let live = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (live += d));
  return most;
}

/**
 * The organization's semaphore state once nobody holds a slot nor waits, polled for at most `timeoutMs`
 * (then the last state seen). A call's slot is freed just after its end is recorded (its workflow's
 * `finish`), so a test that has just seen the last call end in the store gives the release a moment.
 */
export async function settledSlots(orgId: string, timeoutMs = 5_000): Promise<CallSlotsState> {
  const handle = h().env.client.workflow.getHandle(callSlotsWorkflowId(orgId, false));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await handle.query(slotsQuery);
    if ((state.holders.length === 0 && state.queue.length === 0) || Date.now() > deadline) return state;
    await new Promise((r) => setTimeout(r, 100));
  }
}
