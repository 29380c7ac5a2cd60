/**
 * Replay activities, run by `replayWorkflow` and its `replayCallWorkflow` children
 * (src/workflows/replays.ts): a call marked `running` (`beginReplayCall`), its turns regenerated and
 * compared (`replayCallTurns`), its summary recorded (`recordReplayCall`), the replay completed with its
 * event (`finishReplay`); in `fork` mode the forked call built (`startForkedCall`) and compared once ended
 * (`compareForkedCall`). The rules are src/services/replays.ts and replay-forks.ts; each is idempotent.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { forkedCallId, ReplayCall, replayCallId, type ReplayCallSummary } from '../models/replays';
import type { CallWorkflowInput } from '../shared/calls';
import type { ReplayCallOutcome, ReplayMode } from '../shared/replays';
import { awaitForkedAnalysis, forkedCallInput, judgedForkSummary, summarizeForkedCall } from '../services/replay-forks';
import {
  completeReplay,
  REPLAY_AGENT_MISSING,
  replayCallTurns as replayTurnsOfCall,
  saveReplayCall,
  summarizeReplayCall,
} from '../services/replays';

/** Marks call `callId` of replay `replayId` (its position `index`) `running`. */
export async function beginReplayCall(args: { replayId: string; callId: string; index: number }): Promise<void> {
  await saveReplayCall(args.replayId, args.callId, args.index, { status: 'running' });
}

/**
 * Regenerates and compares every answered turn of the call not stored yet (src/services/replays.ts
 * `replayCallTurns`), heartbeating between turns; a cancelled attempt aborts its model request.
 * @returns the call's outcome (`skipped`: nothing to replay, or its text is gone)
 * @throws ApplicationFailure `REPLAY_AGENT_MISSING` (not retried) when the agent or the version is gone
 */
export async function replayCallTurns(args: { replayId: string; callId: string }): Promise<ReplayCallOutcome> {
  const ctx = Context.current();
  try {
    return await replayTurnsOfCall(args.replayId, args.callId, () => ctx.heartbeat(), ctx.cancellationSignal);
  } catch (err) {
    if ((err as Error).name === REPLAY_AGENT_MISSING)
      throw ApplicationFailure.nonRetryable((err as Error).message, REPLAY_AGENT_MISSING);
    throw err;
  }
}

/**
 * Records the call's outcome in its row: with its summary (src/services/replays.ts
 * `summarizeReplayCall`) once completed, with `error` when errored.
 */
export async function recordReplayCall(args: {
  replayId: string;
  callId: string;
  index: number;
  status: ReplayCallOutcome['status'];
  error?: string;
  /** `fork`: the summary compares the forked call (src/services/replay-forks.ts); absent: `turn`. */
  mode?: ReplayMode;
}): Promise<void> {
  const summary =
    args.status !== 'completed'
      ? null
      : args.mode === 'fork'
        ? await forkSummaryOf(args.replayId, args.callId, args.index)
        : await summarizeReplayCall(args.replayId, args.callId);
  await saveReplayCall(args.replayId, args.callId, args.index, { status: args.status, summary, error: args.error });
}

/**
 * Builds the forked call of recorded call `callId` in a `fork` replay (src/services/replay-forks.ts
 * `forkedCallInput`).
 * @returns its `callWorkflow` input, or null when the recorded call's text is gone (the call is `skipped`)
 * @throws ApplicationFailure `REPLAY_AGENT_MISSING` (not retried) when the agent or the version is gone
 */
export async function startForkedCall(args: {
  replayId: string;
  callId: string;
  index: number;
}): Promise<CallWorkflowInput | null> {
  try {
    return await forkedCallInput(args.replayId, args.callId, args.index);
  } catch (err) {
    if ((err as Error).name === REPLAY_AGENT_MISSING)
      throw ApplicationFailure.nonRetryable((err as Error).message, REPLAY_AGENT_MISSING);
    throw err;
  }
}

/**
 * Compares forked call `forkedCallId` with recorded call `callId` once it has ended: waits (heartbeating)
 * for its analysis when it gets one, summarizes, and with the replay's rubric asks the test-suite judge of
 * both calls (src/services/replay-forks.ts `judgedForkSummary`); keeps the summary in the call's row.
 * @returns the call's outcome: `completed`, its assistant turns, `changed` 1 when anything changed
 */
export async function compareForkedCall(args: {
  replayId: string;
  callId: string;
  index: number;
  forkedCallId: string;
}): Promise<ReplayCallOutcome> {
  const ctx = Context.current();
  await awaitForkedAnalysis(args.forkedCallId, () => ctx.heartbeat());
  const beat = setInterval(() => ctx.heartbeat(), 1_000);
  let summary: ReplayCallSummary;
  try {
    summary = await judgedForkSummary(args.replayId, args.callId, args.forkedCallId, ctx.cancellationSignal);
  } finally {
    clearInterval(beat);
  }
  await saveReplayCall(args.replayId, args.callId, args.index, { status: 'running', summary });
  return { status: 'completed', turns: summary.turns, changed: summary.fork?.changed ? 1 : 0 };
}

/**
 * A forked call's stored summary (`compareForkedCall` keeps it in the call's row, with the judge's
 * verdicts), else one made now (the forked call's comparison without the judge).
 */
async function forkSummaryOf(replayId: string, callId: string, index: number): Promise<ReplayCallSummary> {
  const row = await ReplayCall.findById(replayCallId(replayId, callId), { summary_json: 1 }).lean();
  if (row?.summary_json) return JSON.parse(row.summary_json) as ReplayCallSummary;
  return summarizeForkedCall(callId, forkedCallId(replayId, callId, index));
}

/** Completes the replay once and emits `replay.completed`. */
export async function finishReplay(args: { replayId: string }): Promise<void> {
  await completeReplay(Context.current().client, args.replayId);
}
