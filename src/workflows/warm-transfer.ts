/**
 * `WarmTransfer`: a call's warm transfers, for one run of `callWorkflow`. It owns the transfer under way
 * (`WarmAttempt`: its progress as the call shows it, the summary, the person's leg and the leg's
 * callbacks, the `transferLeg` signal), how many were started on the call (each one's `attempt`), and the
 * run of the latest one, which `CallSession.finish` waits for.
 *
 * The `transfer` update with `mode: "warm"`, or `transfer_call` of an agent whose `transfer_mode` is
 * `warm`, starts one beside the conversation (which waits meanwhile: the caller is on hold, never
 * silent): hold, summary, the person dialed and briefed, then bridged (the call ends `transferred`), or
 * the fallback: the caller back with the assistant (`call.transfer_failed`).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { CancellationScope, condition, sleep } from '@temporalio/workflow';
import {
  DEFAULT_TRANSFER_TIMEOUT_SECONDS,
  TRANSFER_FAILED_LINES,
  type CallWorkflowInput,
  type TransferFailureReason,
  type TransferLegEvent,
  type TransferProgress,
  type TransferRequest,
} from '../shared/calls';
import { paceSleepMs } from '../shared/dial-pace';
import { dialGate, summaryLlm, telephony, transferDial } from './call-activities';
import { GRACEFUL_HANGUP_MS, rank, VOICEMAIL_MS_PER_CHAR, type CallLine } from './call-line';
import type { CallRecord } from './call-record';
import type { CallTranscript } from './call-transcript';
import { errorMessage } from './retry';

/** What the person hears when no summary could be written. */
const FALLBACK_TRANSFER_SUMMARY = 'A caller is being transferred to you by the assistant.';
/** What the model is asked for the person a warm transfer dials. */
const SUMMARY_REQUEST =
  'The caller is being transferred to a person. Write what that person hears before joining: a summary of ' +
  'this call in at most two short sentences (who is calling and what they need). Answer with the summary only.';

/** A warm transfer under way: its progress as the call shows it, and its leg's callbacks so far. */
interface WarmAttempt {
  progress: TransferProgress;
  timeoutSeconds: number;
  /** The summary the API gave; absent: the model writes one. */
  summary?: string;
  /** The person's leg (Call SID) once dialed. */
  legSid: string | null;
  /** Callbacks about legs received while it runs (those of another SID are never counted). */
  events: TransferLegEvent[];
}

/** How a warm transfer ended: joined, failed (why), or cut short because the call stopped. */
type WarmOutcome = 'joined' | TransferFailureReason | 'stopped';

/** A call's warm transfers: the one under way, how many so far, and the latest one's run. */
export class WarmTransfer {
  /** The warm transfer under way; null when none. */
  private attempt: WarmAttempt | null = null;
  /** Warm transfers started so far on the call (each one's `attempt`). */
  count: number;
  /** The run of the latest warm transfer; settles soon after the call stops. */
  private run: Promise<void> = Promise.resolve();

  /**
   * @param input the run's input (a continued run counts its transfers on from the last run's)
   * @param record the call's status and stop: a transfer joined stops the call `transferred`
   * @param transcript where the transfer is noted, and what its summary is written from
   * @param line the caller's provider call, held and brought back
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly line: CallLine,
  ) {
    this.count = input.continuation?.transfers ?? 0;
  }

  /** Whether a warm transfer is under way (the conversation waits, a second transfer is refused). */
  get underWay(): boolean {
    return this.attempt !== null;
  }

  /** The destination of the warm transfer under way, if any. */
  get to(): string | undefined {
    return this.attempt?.progress.to;
  }

  /** Settles once the latest warm transfer's run is over (a transfer cut short hangs up its leg first). */
  get settled(): Promise<void> {
    return this.run;
  }

  /**
   * Signal `transferLeg`: a Twilio callback about a warm transfer's leg, kept while one runs
   * (it counts only for the leg's own CallSid; see `live`); ignored otherwise.
   */
  onLeg(event: TransferLegEvent): void {
    if (this.attempt !== null && typeof event.providerCallSid === 'string') this.attempt.events.push(event);
  }

  /**
   * Starts a warm transfer to `to` (the `transfer` update with `mode: "warm"`, or `transfer_call` when the
   * agent's `transfer_mode` is `warm`): `runAttempt` in its own scope, which the call's stop does not
   * cancel (it hangs up the person's leg itself, and `finish` waits for it).
   */
  start(request: TransferRequest): void {
    const warm: WarmAttempt = {
      progress: {
        mode: 'warm',
        to: request.to,
        status: 'dialing',
        reason: null,
        summary: null,
        attempt: ++this.count,
      },
      timeoutSeconds: request.timeoutSeconds ?? DEFAULT_TRANSFER_TIMEOUT_SECONDS,
      ...(request.summary ? { summary: request.summary } : {}),
      legSid: null,
      events: [],
    };
    this.attempt = warm;
    this.run = CancellationScope.nonCancellable(() => this.runAttempt(warm)).catch((err) => {
      this.attempt = null;
      this.record.requestStop({
        status: 'failed',
        reason: 'error',
        error: `Warm transfer failed: ${errorMessage(err)}`,
      });
    });
  }

  /**
   * A warm transfer from start to outcome: notes it in the transcript (`system` turns, which the model
   * sees) and on the call (`transfer`), holds the caller and dials the person (`live`; a simulated
   * call: `simulated`), then either stops the call `transferred` (the person joined; `call.transferred`
   * with `transfer.mode: "warm"` when `finish` records it) or brings the caller back: `call.transfer_failed`
   * with the reason, the assistant's line saying so (`TRANSFER_FAILED_LINES`), a live caller's call
   * redirected to a new ConversationRelay session (`returnFromTransfer`) that greets with that line (the
   * fallback).
   */
  private async runAttempt(warm: WarmAttempt): Promise<void> {
    const { progress } = warm;
    const { record, transcript, line } = this;
    const to = progress.to;
    transcript.note(`Warm transfer to ${to}: the caller is on hold while ${to} is dialed.`);
    await transcript.flushTurns();
    await record.transition('in_progress', { transfer_json: JSON.stringify(progress) }, []);
    const refused = await this.dialGate(to);
    const outcome: WarmOutcome =
      refused ??
      (this.input.simulation || line.providerCallSid === null
        ? await this.simulated(warm)
        : await this.live(warm, line.providerCallSid));
    if (outcome === 'stopped' || record.stop !== null) {
      this.attempt = null;
      return;
    }
    if (outcome === 'joined') {
      progress.status = 'transferred';
      transcript.note(`${to} heard the summary and is connected with the caller; the assistant left the call.`);
      this.attempt = null;
      record.requestStop({ status: 'transferred', reason: 'transferred', transferTo: to, warm: progress });
      return;
    }
    progress.status = 'failed';
    progress.reason = outcome;
    transcript.note(
      `Warm transfer to ${to} failed (${outcome.replace('_', ' ')}); the caller is back with the assistant.`,
    );
    const said = TRANSFER_FAILED_LINES[outcome];
    transcript.say('assistant', said);
    transcript.hearMessage({ role: 'assistant', content: said });
    await transcript.flushTurns();
    await record.transition('in_progress', { transfer_json: JSON.stringify(progress) }, ['call.transfer_failed']);
    // A leg the dial gate refused never put the caller on hold: nothing to bring back.
    if (line.providerCallSid !== null && !this.input.simulation && refused === null)
      try {
        await telephony.returnFromTransfer({
          callId: this.input.callId,
          providerCallSid: line.providerCallSid,
          attempt: progress.attempt,
        });
      } catch (err) {
        // The caller hung up while on hold: their status callback ends the call.
        if (record.stop === null) transcript.note(`Bringing the caller back failed: ${errorMessage(err)}`);
      }
    this.attempt = null;
  }

  /**
   * The dial gate for the person's leg (activity `checkDialGate`, `leg: "transfer"`: a do-not-call number,
   * or one outside its calling hours, is refused; a caller on hold cannot wait for the morning), asked
   * before the caller is put on hold, for calls started with `dial_gate` and a phone number (a `sip:` or
   * `client:` destination is no public number). Recorded on the call under `compliance.transfer_legs`.
   * @returns why the leg is refused, or null when it may be dialed
   */
  private async dialGate(
    to: string,
  ): Promise<'do_not_call' | 'outside_calling_hours' | 'destination_not_allowed' | null> {
    const { input } = this;
    if (!input.dial_gate || !to.startsWith('+')) return null;
    const decision = await dialGate.checkDialGate.executeWithOptions({ summary: `dial gate for ${to}` }, [
      {
        callId: input.callId,
        orgId: input.orgId,
        livemode: input.livemode,
        to,
        contactId: null,
        atMs: Date.now(),
        leg: 'transfer',
        policy: 'refuse',
      },
    ]);
    return decision.verdict === 'dial'
      ? null
      : decision.verdict === 'refuse'
        ? decision.reason
        : 'outside_calling_hours';
  }

  /**
   * A live warm transfer: the caller on hold in the conference (`holdForTransfer`), the summary, the person
   * dialed (`dialTransferLeg`). Only callbacks naming the leg's CallSid count: `in-progress`/`answered`
   * (briefing: they hear the summary), the conference's join (joined), `busy`, `no-answer`, `failed`, and
   * `completed` before the join (hung up during the briefing). No answer within `timeoutSeconds`, or a
   * briefing longer than the summary's speaking time: the leg is hung up.
   */
  private async live(warm: WarmAttempt, callerSid: string): Promise<WarmOutcome> {
    const { input, record } = this;
    const from = input.direction === 'inbound' ? input.to : input.from;
    try {
      await telephony.holdForTransfer({ callId: input.callId, providerCallSid: callerSid });
    } catch {
      return record.stop !== null ? 'stopped' : 'failed';
    }
    const summary = await this.summary(warm);
    if (!from) return 'failed';
    try {
      warm.legSid = await this.dialLeg(warm, from, summary);
    } catch {
      return record.stop !== null ? 'stopped' : 'failed';
    }
    const mine = () => warm.events.filter((e) => e.providerCallSid === warm.legSid);
    const joined = () => mine().some((e) => e.joined === true);
    const ended = () => mine().find((e) => e.status !== undefined && rank(e.status) === 3)?.status;
    // Twilio's `completed` means it was answered (callbacks may come out of order).
    const answered = () =>
      mine().some((e) => e.status !== undefined && rank(e.status) === 2) || ended() === 'completed';
    await condition(
      () => answered() || joined() || ended() !== undefined || record.stop !== null,
      warm.timeoutSeconds * 1000,
    );
    if (record.stop === null && !joined() && answered()) {
      await this.briefing(warm, summary);
      await condition(
        () => joined() || ended() !== undefined || record.stop !== null,
        summary.length * VOICEMAIL_MS_PER_CHAR + GRACEFUL_HANGUP_MS,
      );
    }
    const outcome: WarmOutcome =
      record.stop !== null
        ? 'stopped'
        : joined()
          ? 'joined'
          : answered()
            ? 'hung_up'
            : ended() === 'busy'
              ? 'busy'
              : ended() === 'failed'
                ? 'failed'
                : 'no_answer';
    if (outcome !== 'joined' && ended() === undefined)
      try {
        await telephony.hangUpCall({ callId: input.callId, livemode: input.livemode, providerCallSid: warm.legSid });
      } catch {
        // The leg ends on its own (Twilio's Timeout, or the person hanging up).
      }
    return outcome;
  }

  /**
   * Dials the person's leg (`dialTransferLeg`) in its turn of the account's calls per second: a turn
   * further ahead than the activity waits is waited for on a durable timer, then asked again (the same
   * turn, src/services/dial-pace.ts).
   * @returns the leg's Call SID
   */
  private async dialLeg(warm: WarmAttempt, from: string, summary: string): Promise<string> {
    const { input } = this;
    const dial = () =>
      transferDial.dialTransferLeg({
        callId: input.callId,
        orgId: input.orgId,
        attempt: warm.progress.attempt,
        to: warm.progress.to,
        from,
        summary,
        timeoutSeconds: warm.timeoutSeconds,
      });
    let leg = await dial();
    while (leg.providerCallSid === null) {
      await sleep(paceSleepMs(leg, Date.now()));
      leg = await dial();
    }
    return leg.providerCallSid;
  }

  /**
   * A simulated warm transfer (test mode, `simulation.transfer`): after `after_seconds` the person
   * answers (hears the summary and joins), or is `busy` / does not answer; the same transcript and events
   * as a live one.
   */
  private async simulated(warm: WarmAttempt): Promise<WarmOutcome> {
    const { record } = this;
    const person = this.input.simulation?.transfer ?? { answer: 'answered' as const };
    if (person.after_seconds) await condition(() => record.stop !== null, person.after_seconds * 1000);
    if (record.stop !== null) return 'stopped';
    if (person.answer !== 'answered') return person.answer;
    await this.briefing(warm, await this.summary(warm));
    return record.stop !== null ? 'stopped' : 'joined';
  }

  /** The person answered: the call shows `briefing` with the summary they hear, and the transcript notes it. */
  private async briefing(warm: WarmAttempt, summary: string): Promise<void> {
    warm.progress.status = 'briefing';
    warm.progress.summary = summary;
    this.transcript.note(`${warm.progress.to} answered and hears the summary: ${summary}`);
    await this.transcript.flushTurns();
    await this.record.transition('in_progress', { transfer_json: JSON.stringify(warm.progress) }, []);
  }

  /**
   * What the person hears first: the API's `summary`, else the model's summary of the conversation so far
   * (one LLM request, `SUMMARY_REQUEST`), else `FALLBACK_TRANSFER_SUMMARY` when that request fails.
   */
  private async summary(warm: WarmAttempt): Promise<string> {
    if (warm.summary) return warm.summary;
    const { transcript } = this;
    try {
      const reply = await summaryLlm.generateReply.executeWithOptions({ summary: 'summary for a warm transfer' }, [
        {
          callId: this.input.callId,
          model: this.input.agent.model,
          messages: [...transcript.messages, { role: 'system', content: SUMMARY_REQUEST }],
          ...transcript.history(),
          tools: [],
          context: {
            orgId: this.input.orgId,
            livemode: this.input.livemode,
            agentId: this.input.agent.id,
            contactId: this.input.contactId ?? null,
          },
        },
      ]);
      warm.summary = reply.text?.slice(0, 1000) || FALLBACK_TRANSFER_SUMMARY;
    } catch {
      warm.summary = FALLBACK_TRANSFER_SUMMARY;
    }
    return warm.summary;
  }
}
