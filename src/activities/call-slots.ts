/**
 * Activities of the call slots (src/shared/call-slots.ts): a call's workflow asks for
 * its slot (a campaign's call; a scheduled activity, since the answer needs the semaphore's own workflow
 * task) and frees it (a signal; a local activity) through them, as workflow code cannot send updates;
 * and the semaphore audits its holders. Each uses the worker's Temporal client (`Context.current().client`).
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/common';
import { CALL_SLOTS_START_GRACE_MS, slotGrantedSignal, type SlotHolder } from '../shared/call-slots';
import { releaseCallSlot as release, tryAcquireCallSlot } from '../services/call-slots';

/** Which call, of which organization and mode. */
export interface CallSlotTarget {
  orgId: string;
  livemode: boolean;
  callId: string;
}

/**
 * Asks for a slot of the call's organization and mode, waiting in line when none is free (starting the
 * semaphore if needed): `granted` now, or later through the `slotGranted` signal. Retried safely: asking
 * twice changes nothing (a holder is granted again, a waiting call keeps its place).
 * @returns whether the slot is granted now
 */
export async function requestCallSlot(target: CallSlotTarget): Promise<{ granted: boolean }> {
  const answer = await tryAcquireCallSlot(Context.current().client, target, target.callId, true);
  return { granted: answer.granted };
}

/** Frees the call's slot, or its place in line. Retried safely: freeing twice changes nothing. */
export async function releaseCallSlot(target: CallSlotTarget): Promise<void> {
  await release(Context.current().client, target, target.callId);
}

/**
 * The holders whose call's workflow does not run: closed (it ended without freeing its slot: terminated,
 * timed out) or, `CALL_SLOTS_START_GRACE_MS` after the grant, never started (an API process died between
 * taking the slot and starting the call). A continued call (continue-as-new) runs: its slot stays.
 * @param input.holders the semaphore's holders with the time of their grant (epoch ms)
 * @returns their call ids
 */
export async function endedCalls(input: { holders: SlotHolder[] }): Promise<string[]> {
  const client = Context.current().client;
  const gone: string[] = [];
  for (const { callId, sinceMs } of input.holders) {
    try {
      const run = await client.workflow.getHandle(callId).describe();
      if (run.status.name !== 'RUNNING') gone.push(callId);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      if (Date.now() - sinceMs > CALL_SLOTS_START_GRACE_MS) gone.push(callId);
    }
    Context.current().heartbeat();
  }
  return gone;
}

/** How many grants `tellGranted` signals at once. */
const TELL_CONCURRENCY = 50;

/**
 * Tells granted calls' workflows (by workflow id = call id) that they hold a slot: the `slotGranted`
 * signal to each, `TELL_CONCURRENCY` at a time, through the worker's Temporal client. The semaphore runs
 * it as a local activity for all the grants of one workflow task: one marker in its
 * history instead of a SignalExternal command, its completion event and a further workflow task per
 * grant. Run twice (a worker that died mid-task), a call is told twice, which its workflow ignores.
 * Never throws for one call that could not be told.
 * @param input.callIds the calls granted, in grant order
 * @returns the calls not told: their workflow does not run (not started yet, or closed), or Temporal
 *   refused the signal; the semaphore tries them again a second later
 */
export async function tellGranted(input: { callIds: string[] }): Promise<string[]> {
  const client = Context.current().client;
  const untold: string[] = [];
  for (let i = 0; i < input.callIds.length; i += TELL_CONCURRENCY) {
    const batch = input.callIds.slice(i, i + TELL_CONCURRENCY);
    const told = await Promise.allSettled(batch.map((id) => client.workflow.getHandle(id).signal(slotGrantedSignal)));
    batch.forEach((id, j) => told[j].status === 'rejected' && untold.push(id));
  }
  return untold;
}
