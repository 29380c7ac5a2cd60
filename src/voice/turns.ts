/**
 * The voice loop shared by every live voice session of a call: Twilio's ConversationRelay socket
 * (src/api/twilio/relay.ts) and the assistant in a browser voice room (src/voice/room-session.ts). Each
 * finished utterance of the caller becomes a `callerSaid` Workflow Update of the call's workflow, in the
 * order they were heard, and the update's result is spoken back:
 * - one update at a time: the next utterance waits for the previous answer to be spoken (or cut);
 * - a late answer: after one turn deadline (`CALL_TURN_DEADLINE_MS`) with nothing said, the session says
 *   the holding line, and the workflow's `answer` update (same update id + `:answer`) brings the answer
 *   when it comes (src/workflows/calls.ts);
 * - the update id is the caller's (`<session>:<n>`): a session that sends one utterance twice (a retry
 *   after a lost connection) gets the first answer back, never a second turn (Temporal deduplicates
 *   updates by id within a run).
 * - the call no longer takes speech (it ended, or the update failed): the session is told to end;
 * - the caller talking over an answer is signalled in the same order (`interrupt`).
 */
import type { WorkflowHandle } from '@temporalio/client';
import { config } from '../config';
import { logger } from '../logger';
import {
  answerUpdate,
  callerSaidUpdate,
  HOLDING_LINE,
  interruptedSignal,
  type CallerSaidResult,
} from '../shared/calls';
import type { Interruption } from '../shared/speech';

/** What a voice session does with the loop's output. */
export interface VoiceOutput {
  /** Says the holding line, unless words of the answer are already out; returns whether it said it. */
  hold(line: string): boolean;
  /** Says an update's answer; resolves to true when the call is over (nothing more will be heard). */
  speak(result: CallerSaidResult): boolean | Promise<boolean>;
  /** The call no longer takes speech (refused or failed update): end the session. */
  end(error: Error): void;
}

/**
 * The loop of one session: `hear` each utterance; `interrupt` when the caller talked over the answer;
 * `idle` resolves when every one so far is answered.
 */
export interface VoiceTurns {
  /** `overSpeech`: said while the assistant spoke (sent as the update's `over_speech` only when true). */
  hear(text: string, updateId: string, overSpeech?: boolean): void;
  /**
   * The caller talked over the assistant: signalled to the workflow (`interrupted`) once the
   * answer being spoken is complete there, and before the next utterance, so it cuts that answer.
   * `now`: signalled at once, while that answer may still be in the making, so its actions not started
   * yet are dropped (calls with turn-taking settings: src/workflows/call-heard.ts); still before the
   * next utterance, which waits for the answer in the making.
   */
  interrupt(interruption: Interruption, now?: boolean): void;
  idle(): Promise<void>;
}

/**
 * Starts the loop of one voice session of call `callId`.
 * @param handle the call's workflow (`callWorkflowId(callId)`, no run id: the current run)
 */
export function voiceTurns(handle: WorkflowHandle, callId: string, output: VoiceOutput): VoiceTurns {
  let queue = Promise.resolve();
  return {
    hear(text, updateId, overSpeech) {
      queue = queue.then(async () => {
        // A late answer: the caller hears the holding line after one turn deadline with nothing said (the
        // workflow waits on its LLM request and cannot say it then; runs that can answer it `pending`).
        let held = false;
        const holding = setTimeout(() => (held = output.hold(HOLDING_LINE)), config().callTurnDeadlineMs);
        try {
          const result = await handle.executeUpdate(callerSaidUpdate, {
            args: [overSpeech ? { text, over_speech: true } : { text }],
            updateId,
          });
          clearTimeout(holding);
          if (!(held && result.pending) && (await output.speak(result))) return;
          if (!result.pending || result.utterance === undefined) return;
          await output.speak(
            await handle.executeUpdate(answerUpdate, {
              args: [{ utterance: result.utterance }],
              updateId: `${updateId}:answer`,
            }),
          );
        } catch (err) {
          clearTimeout(holding);
          logger.info('voice: the call no longer takes speech', { call_id: callId, error: (err as Error).message });
          output.end(err as Error);
        }
      });
    },
    interrupt(interruption, now) {
      const signal = () =>
        handle.signal(interruptedSignal, interruption).catch((err: Error) => {
          logger.info('voice: the call took no interruption', { call_id: callId, error: err.message });
        });
      if (!now) {
        queue = queue.then(signal);
        return;
      }
      // At once, but the next utterance's update still waits for the signal's acknowledgement: two RPCs
      // in flight together reach the workflow in either order, and the update must find the cut.
      const sent = signal();
      queue = queue.then(() => sent);
    },
    idle: () => queue,
  };
}
