/**
 * `CallLine`: a call's phone line, for one run of `callWorkflow`. It owns the provider call (its Call SID),
 * the provider statuses seen (Twilio's status callbacks, the `telephonyStatus` signal), when the call was
 * answered and who answered it (answering-machine detection, the `machineDetection` signal), and what is
 * done on the line: the dial (simulated, a browser room, or placed through Twilio) until answered or not,
 * the detection window, keys pressed (`send_dtmf`), and the line's end: a cold transfer out, a voicemail
 * message left, the hang-up.
 *
 * Answering machines, when the call's voicemail setting (its own, else its agent's) has `detection`: a
 * live outbound call is placed with Twilio's asynchronous AMD, whose result comes as the
 * `machineDetection` signal; a simulated call with outcome `voicemail` is a machine that says its greeting
 * (the script's lines) and beeps once it is over, one with another outcome a person (`human` at the first
 * line). The detection window: until detection decides, the caller's lines are heard and recorded but
 * not answered (no LLM request), for at most `MACHINE_DETECTION_TIMEOUT_SECONDS` from the answer (Twilio
 * says `unknown` by then); past it the assistant answers and a late `machine` still stops it. A machine
 * stops the call at once (`completed`, `voicemail`, the LLM request in flight cancelled): `hang_up` hangs
 * up; `leave_message` records the message as the assistant's turn and has Twilio say it after the beep,
 * then hang up.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { condition, isCancellation, sleep } from '@temporalio/workflow';
import {
  answeredByOf,
  effectiveVoicemail,
  MACHINE_DETECTION_TIMEOUT_SECONDS,
  STAMP_NOW,
  TELEPHONY_STATUS_RANK,
  type AnsweredBy,
  type CallWorkflowInput,
  type DialOutcome,
  type MachineDetection,
  type TelephonyStatus,
  type VoicemailSetting,
} from '../shared/calls';
import { paceSleepMs, type DialLater, type DialRefused } from '../shared/dial-pace';
import { telephony } from './call-activities';
import type { CallRecord, StopRequest } from './call-record';
import { errorMessage } from './retry';

/** How long a live call may ring before it is `no_answer`. */
const LIVE_RING_TIMEOUT_MS = 60_000;
/** Live calls: how long to let Twilio speak the goodbye and hang up before hanging up through the API. */
export const GRACEFUL_HANGUP_MS = 10_000;
/**
 * Live calls: how long Twilio may take to say a voicemail message and hang up (ms per character, plus
 * `GRACEFUL_HANGUP_MS`) before the call is hung up through the API: 10 characters a second is slower
 * than any text-to-speech voice.
 */
export const VOICEMAIL_MS_PER_CHAR = 100;

/** A call's line to the person: the provider call, its statuses, who answered, and what is done on it. */
export class CallLine {
  /** The provider call (Twilio's Call SID) once placed, or an inbound call's; null before and without one. */
  providerCallSid: string | null;
  /** The highest-ranked provider status seen, and every status seen (callbacks arrive out of order). */
  telephonyStatus: TelephonyStatus | null = null;
  readonly telephonySeen: Set<TelephonyStatus['status']>;
  /** When the call was answered (epoch ms); 0 before. */
  answeredMs: number;
  /** The voicemail setting the call follows (its own, else its agent's); null: none. */
  private readonly voicemail: VoicemailSetting | null;
  /** Who answered, once answering-machine detection decided; null before, and without detection. */
  answeredBy: AnsweredBy | null;

  /**
   * @param input the run's input (a continued run's line as the last run left it)
   * @param record the call's status and stop: a hang-up or a machine stops the call
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
  ) {
    const resumed = input.continuation;
    this.providerCallSid = resumed?.providerCallSid ?? null;
    this.answeredMs = resumed?.answeredMs ?? 0;
    this.telephonySeen = new Set(resumed?.telephonySeen ?? []);
    for (const s of this.telephonySeen)
      if (rank(s) > rank(this.telephonyStatus?.status)) this.telephonyStatus = { status: s };
    this.voicemail = effectiveVoicemail(input);
    this.answeredBy = resumed?.answeredBy ?? null;
  }

  /** Whether the provider reported the call over (Twilio's `completed`, `busy`, `no-answer`, `failed`, `canceled`). */
  hungUp(): boolean {
    return rank(this.telephonyStatus?.status) === 3;
  }

  /** Signal `telephonyStatus`: a provider status callback; never moves backwards; a hang-up stops a live call. */
  onTelephonyStatus(s: TelephonyStatus): void {
    // A callback about another provider call (a stale dial) is not this call's.
    if (s.providerCallSid && this.providerCallSid && s.providerCallSid !== this.providerCallSid) return;
    this.telephonySeen.add(s.status);
    if (rank(s.status) < rank(this.telephonyStatus?.status)) return; // never backwards
    this.telephonyStatus = s;
    if (rank(s.status) === 3 && this.record.status === 'in_progress')
      this.record.requestStop({ status: 'completed', reason: 'caller_hung_up' });
  }

  /**
   * Signal `machineDetection`: Twilio's AMD result, or the simulated machine's beep. Counts only
   * on a call that detects (`detects`), for its own provider call (a live result naming another CallSid
   * is ignored), the first decision, before the call stops. A machine on an answered call stops it
   * (`machineAnswered`); one reported while still ringing answers the call, then stops it (`talk`).
   */
  onMachineDetection(result: MachineDetection): void {
    if (!this.detects() || this.answeredBy !== null || this.record.stop !== null) return;
    if (!this.input.simulation && (!result.providerCallSid || result.providerCallSid !== this.providerCallSid)) return;
    this.answeredBy = answeredByOf(result.answeredBy);
    if (this.answeredBy === 'machine' && this.record.status === 'in_progress') this.machineAnswered();
  }

  /**
   * Whether the call tells machines from people: its voicemail setting has `detection`, and it is an
   * outbound phone call (not inbound, not a browser voice room).
   */
  detects(): boolean {
    return this.voicemail?.detection === true && !this.input.room && this.input.direction !== 'inbound';
  }

  /**
   * A machine answered: the call stops (`completed`, `voicemail`), leaving `voicemail.message` when the
   * action is `leave_message` (see `CallSession.finish`), else hanging up at once.
   */
  machineAnswered(): void {
    const vm = this.voicemail;
    const message = vm?.action === 'leave_message' ? vm.message : undefined;
    this.record.requestStop({
      status: 'completed',
      reason: 'voicemail',
      ...(message ? { voicemailMessage: message } : {}),
    });
  }

  /**
   * `dialed_ms` for the transition that takes the call out of `queued` (when it began to count against
   * the limit), stamped `now` by the activity's clock: workflow time is the start of the workflow task,
   * which the wait for a slot's answer (a local activity) can leave behind. Nothing afterwards, nor for
   * calls started before calls had a `direction`.
   */
  dialed(): { dialed_ms?: typeof STAMP_NOW } {
    return this.record.status === 'queued' && this.input.direction ? { dialed_ms: STAMP_NOW } : {};
  }

  /** The dial, in the cancellable conversation scope: a stop while ringing is `canceled`, an error `failed`. */
  async dial(): Promise<{ outcome: DialOutcome | 'canceled'; error?: string }> {
    try {
      return { outcome: await this.record.conversation.run(() => this.ringPhone()) };
    } catch (err) {
      return isCancellation(err) ? { outcome: 'canceled' } : { outcome: 'failed', error: errorMessage(err) };
    }
  }

  /** Rings the phone (simulated, a browser room, or placed through the provider) until an outcome is known. */
  private async ringPhone(): Promise<DialOutcome> {
    const { input } = this;
    if (input.simulation) {
      // A phone that answers at once (ring_seconds 0) goes straight to in_progress in one write.
      if (input.simulation.ring_seconds > 0 || input.simulation.outcome !== 'answered')
        await this.record.transition('ringing', this.dialed(), []);
      if (input.simulation.ring_seconds > 0) await sleep(input.simulation.ring_seconds * 1000);
      // A simulated answering machine answers the call like a person (detection tells them apart).
      return input.simulation.outcome === 'voicemail' ? 'answered' : input.simulation.outcome;
    }
    if (input.room) {
      // Rings until the visitor is in the room (the assistant's attendance signals `in-progress`).
      await this.record.transition('ringing', this.dialed(), []);
    } else {
      const dial = () =>
        telephony.placeCall({
          callId: input.callId,
          orgId: input.orgId,
          to: input.to,
          from: input.from,
          ...(this.detects() ? { machineDetection: true } : {}),
          ...(input.dial_gate ? { callingHours: input.dial_gate.calling_hours } : {}),
        });
      let placed = await dial();
      // Its turn in the account's calls per second is further ahead than the activity waits: a durable
      // timer until shortly before it, then the same turn (src/services/dial-pace.ts). Refused or held
      // at dial time: `notDialed`.
      while (placed.providerCallSid === null) {
        if ('refused' in placed || placed.heldUntilMs !== undefined) {
          if (!(await this.notDialed(placed))) return 'failed';
        } else await sleep(paceSleepMs(placed, Date.now()));
        placed = await dial();
      }
      this.providerCallSid = placed.providerCallSid;
      await this.record.transition('ringing', { provider_call_sid: this.providerCallSid, ...this.dialed() }, []);
    }
    // A detection result means the call was answered, even if its status callback is yet to come.
    const answered = () => rank(this.telephonyStatus?.status) >= 2 || this.answeredBy !== null;
    const decided = await condition(answered, LIVE_RING_TIMEOUT_MS);
    return !decided ? 'no_answer' : this.answeredBy !== null ? 'answered' : liveOutcome(this.telephonySeen);
  }

  /**
   * A dial `placeCall` did not send for a reason of the call's own (answers that only calls started
   * since these checks can get): refused (its `from` no longer the organization's, or its turn came after
   * the callee's window closed under policy `refuse`), the call stops `canceled` with that reason; or
   * held for the callee's calling hours, the call is `scheduled` (`scheduled_reason: "calling_hours"`,
   * `call.scheduled`) on a durable timer until the window opens, as the dial gate holds a call, then
   * `queued` again and dials in a new turn.
   * @returns true when the dial is to be asked again
   */
  private async notDialed(placed: DialRefused | DialLater): Promise<boolean> {
    if ('refused' in placed) {
      this.record.stop ??= { status: 'canceled', reason: placed.refused.reason, error: placed.refused.message };
      return false;
    }
    const at = Math.ceil(placed.waitUntilMs / 1000);
    await this.record.transition('scheduled', { scheduled_at: at, scheduled_reason: 'calling_hours' }, [
      'call.scheduled',
    ]);
    await sleep(Math.max(1, at * 1000 - Date.now()));
    await this.record.transition('queued', {}, []);
    return true;
  }

  /**
   * The detection window (see the header): while answering-machine detection has not decided, a caller's
   * line is not answered. Live: waits for the decision, at most until `MACHINE_DETECTION_TIMEOUT_SECONDS`
   * after the answer (a machine stops the call, cancelling the wait), then answers. Simulated: a machine's
   * greeting line is never answered (it beeps when the greeting is over); a person is `human` at once.
   * Without detection (or once decided) nothing waits.
   * @returns true when the line is not to be answered
   */
  async holdForDetection(): Promise<boolean> {
    if (!this.detects() || this.answeredBy !== null) return false;
    const simulation = this.input.simulation;
    if (simulation) {
      if (simulation.outcome === 'voicemail') return true;
      this.onMachineDetection({ answeredBy: 'human' });
      return false;
    }
    const leftMs = this.answeredMs + MACHINE_DETECTION_TIMEOUT_SECONDS * 1000 - Date.now();
    if (leftMs > 0) await condition(() => this.answeredBy !== null, leftMs);
    return false;
  }

  /**
   * Presses `digits` on the line (the `send_dtmf` tool): a live call's through its
   * ConversationRelay session (the `sendDigits` activity); a simulated call has no line, the tool's turn
   * records them all the same.
   * @returns false when they could not be sent (the model is told so)
   */
  async pressKeys(digits: string): Promise<boolean> {
    if (this.input.simulation) return true;
    try {
      await telephony.sendDigits.executeWithOptions({ summary: `press ${digits}` }, [
        { callId: this.input.callId, digits },
      ]);
      return true;
    } catch (err) {
      if (isCancellation(err)) throw err;
      return false;
    }
  }

  /**
   * Transfers the provider call to `to` (no provider call, a simulated call: nothing to do).
   * @returns false when the transfer failed: the call then ends `failed`, `error`
   */
  async transferOut(final: StopRequest, to: string): Promise<boolean> {
    try {
      if (this.providerCallSid !== null)
        await telephony.transferCall({
          callId: this.input.callId,
          livemode: this.input.livemode,
          providerCallSid: this.providerCallSid,
          to,
        });
      return true;
    } catch (err) {
      final.status = 'failed';
      final.reason = 'error';
      final.error = `Transfer to ${to} failed: ${errorMessage(err)}`;
      return false;
    }
  }

  /**
   * Leaves the voicemail message on a live call (the simulated machine heard it as the turn `finish`
   * recorded): Twilio says it and hangs up; the call ends once Twilio reports `completed`, or is hung up
   * through the API if that does not come within the message's speaking time (`VOICEMAIL_MS_PER_CHAR`)
   * and `GRACEFUL_HANGUP_MS`. A failure is noted on the end (`final.error`), the call then hung up.
   */
  async leaveVoicemail(final: StopRequest, message: string): Promise<void> {
    if (this.providerCallSid === null) return;
    try {
      await telephony.leaveVoicemail({ callId: this.input.callId, providerCallSid: this.providerCallSid, message });
      const hungUp = () => rank(this.telephonyStatus?.status) === 3;
      await condition(hungUp, message.length * VOICEMAIL_MS_PER_CHAR + GRACEFUL_HANGUP_MS);
    } catch (err) {
      final.error = `Leaving the voicemail message failed: ${errorMessage(err)}`;
    }
    await this.hangUp(final);
  }

  /**
   * Ends a live or ringing call's line: closes a browser room, or hangs up the provider call unless the
   * caller already did. A failure is noted on the end (`final.error`), never fatal: the end is recorded now.
   */
  async hangUp(final: StopRequest): Promise<void> {
    const { input } = this;
    // Live, assistant said goodbye: the relay ends ConversationRelay after the goodbye is spoken, and
    // Twilio hangs up and reports `completed`. Hang up ourselves only if that does not come in time.
    const hungUp = () => rank(this.telephonyStatus?.status) === 3;
    if (!input.simulation && final.reason === 'assistant_ended') await condition(hungUp, GRACEFUL_HANGUP_MS);
    if (input.room) {
      try {
        await telephony.closeRoom({ callId: input.callId, room: input.room.name });
      } catch (err) {
        final.error = `Closing the room failed: ${errorMessage(err)}`;
      }
    } else if (!hungUp() && this.providerCallSid !== null) {
      try {
        await telephony.hangUpCall({
          callId: input.callId,
          livemode: input.livemode,
          providerCallSid: this.providerCallSid,
        });
      } catch (err) {
        // The provider will end the call on its own side sooner or later.
        final.error = `Hang-up failed: ${errorMessage(err)}`;
      }
    }
  }
}

/** A provider status's rank (src/shared/calls.ts `TELEPHONY_STATUS_RANK`); -1 for none. */
export const rank = (s: TelephonyStatus['status'] | undefined) => (s === undefined ? -1 : TELEPHONY_STATUS_RANK[s]);

/** What the provider statuses seen mean once ringing is over (Twilio: `completed` implies answered). */
function liveOutcome(seen: Set<TelephonyStatus['status']>): DialOutcome {
  if (seen.has('in-progress') || seen.has('answered') || seen.has('completed')) return 'answered';
  if (seen.has('busy')) return 'busy';
  if (seen.has('no-answer')) return 'no_answer';
  return 'failed';
}
