/**
 * Replay activities, run by `replayWorkflow` and its `replayCallWorkflow` children
 * (src/workflows/replays.ts): a call marked `running` (`beginReplayCall`), its turns regenerated and
 * compared (`replayCallTurns`), its summary recorded (`recordReplayCall`), the replay completed with its
 * event (`finishReplay`). The rules are src/services/replays.ts; each is idempotent.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ReplayCallOutcome } from '../shared/replays';
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
}): Promise<void> {
  const summary = args.status === 'completed' ? await summarizeReplayCall(args.replayId, args.callId) : null;
  await saveReplayCall(args.replayId, args.callId, args.index, { status: args.status, summary, error: args.error });
}

/** Completes the replay once and emits `replay.completed`. */
export async function finishReplay(args: { replayId: string }): Promise<void> {
  await completeReplay(Context.current().client, args.replayId);
}
