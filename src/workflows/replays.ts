/**
 * `replayWorkflow`: one replay of recorded calls against an agent version (workflow id = the replay id,
 * `rpl_…`), started by `POST /v1/agents/{id}/replays`; and `replayCallWorkflow`, one child per call
 * (workflow id `<replay id>-<call id>`, src/shared/replays.ts `replayCallWorkflowId`).
 *
 * The parent runs the calls in `concurrency` lanes (default 5), each taking the next call in order.
 * A child's workflow id is derived from the replay and the call, so a parent whose worker was killed
 * finds its children where they were (started or finished) and never replays a call twice; within a
 * call, every replayed turn is stored as it is made, so a retried activity asks only for the turns left.
 * Once every call is done, `finishReplay` completes the replay and emits `replay.completed`.
 * A `fork` replay's child runs instead the call again as a new test-mode `callWorkflow` (its grandchild,
 * workflow id = the forked call's id) with a persona caller and mocked tools (src/services/replay-forks.ts).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import {
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setWorkflowOptions,
} from '@temporalio/workflow';
import type * as replays from '../activities/replays';
import {
  REPLAY_CALL_WORKFLOW,
  REPLAY_LIMITS,
  replayCallWorkflowId,
  type ReplayCallInput,
  type ReplayCallOutcome,
  type ReplayCallWorkflow,
  type ReplayInput,
  type ReplayOutcome,
} from '../shared/replays';
import { CALL_WORKFLOW, type CallWorkflow } from '../shared/calls';
import { searchAttributeKeys } from '../shared/search-attributes';
import { JUDGE_RETRY } from './retry';
import { versioningBehavior } from './versioning';

/** Store writes: retried until they succeed. */
const store = proxyActivities<typeof replays>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** A call's turns: model requests, heartbeating between turns, 4 tries (as the judge's); a gone agent is not retried. */
const model = proxyActivities<typeof replays>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { ...JUDGE_RETRY, nonRetryableErrorTypes: ['ReplayAgentMissing'] },
});

/** A forked call's comparison: waits (heartbeating) for the forked call's analysis; 4 tries. */
const compare = proxyActivities<typeof replays>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: JUDGE_RETRY,
});

/**
 * Replays every selected call (at most `concurrency` at once), then completes the replay.
 * @returns how many calls completed, errored, were skipped, and changed
 */
export async function replayWorkflow(input: ReplayInput): Promise<ReplayOutcome> {
  const limit = Math.max(1, input.concurrency ?? REPLAY_LIMITS.concurrency);
  const outcomes: ReplayCallOutcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < input.callIds.length) {
      const index = next++;
      const callId = input.callIds[index];
      outcomes.push(
        await executeChild<ReplayCallWorkflow>(REPLAY_CALL_WORKFLOW, {
          workflowId: replayCallWorkflowId(input.replayId, callId),
          args: [{ replayId: input.replayId, callId, index, ...(input.mode === 'fork' ? { mode: 'fork' } : {}) }],
          parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, input.callIds.length) }, lane));
  await store.finishReplay({ replayId: input.replayId });
  const count = (status: string) => outcomes.filter((o) => o.status === status).length;
  return {
    completed: count('completed'),
    errored: count('errored'),
    skipped: count('skipped'),
    changed: outcomes.filter((o) => o.changed > 0).length,
  };
}

/** One call of a replay: marked `running`, its turns replayed, its outcome recorded (`errored` with why). */
export async function replayCallWorkflow(input: ReplayCallInput): Promise<ReplayCallOutcome> {
  await store.beginReplayCall(input);
  let outcome: ReplayCallOutcome;
  let error: string | undefined;
  try {
    outcome =
      input.mode === 'fork'
        ? await forkCall(input)
        : await model.replayCallTurns({ replayId: input.replayId, callId: input.callId });
  } catch (err) {
    if (isCancellation(err)) throw err;
    outcome = { status: 'errored', turns: 0, changed: 0 };
    error = innermostMessage(err);
  }
  await store.recordReplayCall({ ...input, status: outcome.status, ...(error ? { error } : {}) });
  return outcome;
}

/**
 * A `fork` replay's call: its new test-mode call built (`startForkedCall`: null when the recorded call can
 * no longer be replayed), run as a child `callWorkflow` (workflow id = its call id, derived from the replay
 * and the call: never run twice), then compared with the recorded call (`compareForkedCall`, which waits
 * for the forked call's analysis when it has a plan).
 */
async function forkCall(input: ReplayCallInput): Promise<ReplayCallOutcome> {
  const call = await store.startForkedCall({ replayId: input.replayId, callId: input.callId, index: input.index });
  if (!call) return { status: 'skipped', turns: 0, changed: 0 };
  await executeChild<CallWorkflow>(CALL_WORKFLOW, {
    workflowId: call.callId,
    args: [call],
    parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    typedSearchAttributes: [
      { key: searchAttributeKeys.CallStatus, value: 'queued' },
      { key: searchAttributeKeys.AgentId, value: call.agent.id },
      { key: searchAttributeKeys.OrgId, value: call.orgId },
      { key: searchAttributeKeys.Livemode, value: call.livemode },
    ],
  });
  return await compare.compareForkedCall({
    replayId: input.replayId,
    callId: input.callId,
    index: input.index,
    forkedCallId: call.callId,
  });
}

/** The innermost cause's message of a failure (an activity failure's cause is the activity's error). */
function innermostMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}

setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), replayWorkflow);
setWorkflowOptions(versioningBehavior('PINNED'), replayCallWorkflow);
