/**
 * `CallConsent`: a call's recording consent in `ask` mode (src/shared/recording-consent.ts), for one run
 * of `callWorkflow`. The opening asked the question (src/workflows/call-turns.ts `converse`); the caller's
 * first line is its answer: the `recordConsentAnswer` activity understands it, starts a live call's
 * recording after a yes and records the decision on the call; the assistant then says the reply (recorded
 * or not) and the agent's first message, and the conversation goes on either way.
 *
 * Commands: one activity, only on calls whose `recording_consent.mode` is `ask` — a branch that no call
 * made before consent existed takes, so their recorded histories replay unchanged.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files
 * and activity types.
 */
import type { CallContinuation, CallWorkflowInput } from '../shared/calls';
import { telephony } from './call-activities';
import type { CallTranscript } from './call-transcript';

/** The consent step of a call (`ask` mode); idle for every other call. */
export class CallConsent {
  /** The answer once given (carried into a continued run). */
  given: NonNullable<CallContinuation['consent']> | null;

  /**
   * @param input the run's input (a continued run's answer in `continuation.consent`)
   * @param transcript where the reply is said and recorded
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly transcript: CallTranscript,
  ) {
    this.given = input.continuation?.consent ?? null;
  }

  /** Whether the caller's next line answers the consent question. */
  get pending(): boolean {
    return this.input.recording_consent?.mode === 'ask' && this.given === null;
  }

  /**
   * Hears the caller's answer (`text`, said as transcript turn `seq`): the decision (the activity), then
   * the reply and the agent's first message said as one assistant turn, which the model hears too.
   * @param providerCallSid the live call at Twilio (null: a simulated call, nothing started there)
   * @returns what the assistant says (a live caller's `callerSaid` answer)
   */
  async hear(text: string, seq: number, providerCallSid: string | null): Promise<string> {
    const decided = await telephony.recordConsentAnswer.executeWithOptions({ summary: 'recording consent' }, [
      { callId: this.input.callId, providerCallSid, text, answerSeq: seq },
    ]);
    const said = [decided.reply, this.input.agent.first_message].filter(Boolean).join(' ');
    const replySeq = this.transcript.say('assistant', said);
    this.transcript.hearMessage({ role: 'assistant', content: said });
    this.given = {
      answer: decided.answer,
      recording: decided.recording,
      fromSeq: decided.recording === 'on' ? replySeq : null,
    };
    return said;
  }

  /**
   * Whether a simulated call's recording is synthesized, and from which turn: every recorded call but an
   * `ask` one without a yes (from the reply to the yes on).
   * @returns null when it is not recorded; `{}` for the whole call; `{fromSeq}` from that turn
   */
  recordedSpan(): { fromSeq?: number } | null {
    if (this.input.recording_consent?.mode !== 'ask') return {};
    return this.given?.recording === 'on' && this.given.fromSeq !== null ? { fromSeq: this.given.fromSeq } : null;
  }
}
