/**
 * `callReconcilerWorkflow`: records the end of calls whose `callWorkflow` run closed without recording it
 * (terminated or timed out by an operator in the Temporal Web UI, or failed): each becomes `failed` with
 * `end_reason` `error`, emits `call.ended` once and gets its analysis (when it has a plan and a caller
 * turn) as a call that ended on its own does. Started every minute by the Temporal Schedule
 * `call-reconciler` (src/services/calls.ts `ensureCallReconcilerSchedule`, overlap policy SKIP); all the work is
 * the idempotent `reconcileCalls` activity (src/activities/calls.ts).
 */
import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as calls from '../activities/calls';
import type { CallReconcilerInput } from '../shared/calls';
import { PASS_RETRY } from './retry';

const { reconcileCalls } = proxyActivities<typeof calls>({ startToCloseTimeout: '2 minutes', retry: PASS_RETRY });

/** Runs one reconciliation pass over runs closed in the last `input.lookbackMs`. */
export async function callReconcilerWorkflow(input: CallReconcilerInput): Promise<{ reconciled: number }> {
  return await reconcileCalls(input);
}

// Worker Versioning (src/shared/deployments.ts): Short and periodic: moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), callReconcilerWorkflow);
