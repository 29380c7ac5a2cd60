/**
 * `CallSession`: the conductor of one run of `callWorkflow` (src/workflows/calls.ts). It builds the run's
 * collaborators, each a class in its own file with the state it owns, and runs the phases the workflow
 * function calls in turn (`attendRoom`, `ring`, `talk`, then `continuation` or `finish`); the handlers
 * (updates `end`, `transfer`, `callerSaid`, `answer`, `say`, `context`, `advanceClock`, signals
 * `telephonyStatus`, `machineDetection`, `transferLeg`, `interrupted`, `slotGranted`, query `state`) are
 * one-liners over it and its collaborators. The shape of the Temporal samples' `safe-message-handlers`
 * (one-line handlers over a `ClusterManager` class).
 *
 * The collaborators:
 * - `CallRecord` (call-record.ts): the status, the stop request, the end recorded, the stream numbering;
 * - `CallTranscript` (call-transcript.ts): the turns, the model's conversation, the caller's interruptions;
 * - `CallQueue` (call-queue.ts): a scheduled call's clock and an outbound call's wait for a call slot;
 * - `CallLine` (call-line.ts): the phone line: dial, answer, answering-machine detection, keys, hang-up;
 * - `WarmTransfer` (warm-transfer.ts): hold, dial, brief and bridge the person, or fall back;
 * - `CallTools` (call-tools.ts): the tool runner: the built-in tools, the organization's tools;
 * - `TurnLoop` (call-turns.ts): the conversation: the caller's lines, the answers, the API's lines.
 *
 * How a call is never stuck, always recorded, bounded in history and exactly once: see calls.ts. The
 * order of what a run asks of Temporal (activities, timers, conditions) is what recorded histories
 * replay (test/replay): a change that moves an await changes it.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  sleep,
  startChild,
} from '@temporalio/workflow';
import { callFinishedSignal } from '../shared/bulk-calls';
import {
  CALL_NOT_TRANSFERABLE,
  TRANSFER_IN_PROGRESS,
  type AdvanceClockRequest,
  type CallState,
  type CallStatus,
  type CallWorkflowInput,
  type EndReason,
  type TransferProgress,
  type TransferRequest,
} from '../shared/calls';
import { RECORDING_WORKFLOW, recordingWorkflowId, type RecordingWorkflow } from '../shared/recordings';
import { spokenOpening } from '../shared/recording-consent';
import { localStore, roomActivities } from './call-activities';
import { CallConsent } from './call-consent';
import { CallLine } from './call-line';
import { CallPayments } from './call-payments';
import { CallQueue } from './call-queue';
import { RealtimeEngine } from './call-realtime';
import { CallRecord, type StopRequest } from './call-record';
import { CallSquad } from './call-squad';
import { CallTools } from './call-tools';
import { CallTranscript } from './call-transcript';
import { TurnLoop } from './call-turns';
import { errorMessage } from './retry';
import { WarmTransfer } from './warm-transfer';

/** How a dial that did not end in an answer ends the call: its status and `end_reason`. */
const UNANSWERED: Record<string, [CallStatus, EndReason]> = {
  busy: ['busy', 'busy'],
  no_answer: ['no_answer', 'no_answer'],
  failed: ['failed', 'dial_failed'],
  canceled: ['canceled', 'api_ended'],
};

/** One call's run: its collaborators and its phases; constructed once per run, inside the workflow function. */
export class CallSession {
  /** The call's status, stop and stream numbering. */
  readonly record: CallRecord;
  /** The transcript and the model's conversation. */
  readonly transcript: CallTranscript;
  /** The wait for the call's time and slot. */
  readonly queue: CallQueue;
  /** The phone line. */
  readonly line: CallLine;
  /** The warm transfers. */
  readonly warm: WarmTransfer;
  /** The tool runner. */
  readonly tools: CallTools;
  /** The call's card payments (`collect_payment`, when the organization has a payment connector). */
  readonly payments: CallPayments;
  /** The turn loop. */
  readonly turns: TurnLoop;
  /** The consent question's answer (`recording_consent: "ask"`). */
  readonly consent: CallConsent;
  /** A squad's call: its members and hand-offs; null for a call of one agent. */
  readonly squad: CallSquad | null;
  /** The realtime engine's conversation, for a call whose agent version runs on it; null for the pipeline. */
  readonly realtime: RealtimeEngine | null;
  /**
   * The assistant's attendance of a browser voice room: cancelled when the run ends. Made after the
   * record's conversation scope, as before the split: an operator's cancellation reaches scopes in the
   * order they were made, which fixes the order of the cancel commands a recorded history holds.
   */
  private readonly roomScope: CancellationScope;

  /** @param input everything fixed at creation, and for a continued run where the last one stopped */
  constructor(private readonly input: CallWorkflowInput) {
    this.record = new CallRecord(input);
    this.roomScope = new CancellationScope();
    this.transcript = new CallTranscript(input, this.record);
    this.queue = new CallQueue(input, this.record);
    this.line = new CallLine(input, this.record);
    this.warm = new WarmTransfer(input, this.record, this.transcript, this.line);
    this.payments = new CallPayments(input, this.record, this.transcript, this.line);
    this.tools = new CallTools(input, this.record, this.warm, this.line, this.payments);
    this.consent = new CallConsent(input, this.transcript);
    this.squad = input.squad ? new CallSquad(input, input.squad, this.record, this.transcript, this.tools) : null;
    this.turns = new TurnLoop(
      input,
      this.record,
      this.transcript,
      this.line,
      this.warm,
      this.tools,
      this.consent,
      this.squad,
    );
    this.realtime =
      input.agent.engine === 'realtime'
        ? new RealtimeEngine(input, this.record, this.transcript, this.tools, this.turns, this.line, this.squad)
        : null;
  }

  // Handlers (src/shared/calls.ts names them) that involve more than one collaborator.

  /** Query `state`: status, end reason, transfer destination, turns. */
  state(): CallState {
    const { status, stop } = this.record;
    return {
      status,
      end_reason: stop?.reason ?? null,
      transferred_to: stop?.status === 'transferred' ? (stop.transferTo ?? null) : null,
      turns: this.transcript.turnCount,
    };
  }

  /** Validator of update `end`: only a live call can be ended (`CALL_NOT_LIVE` otherwise). */
  validateEnd(): void {
    const { record } = this;
    if (!record.isLive()) throw record.notLive(`The call is ${record.status}; only a live call can be ended.`);
  }

  /** Update `end`: an answered call completes, one not yet answered is canceled; returns once the end is recorded. */
  async end(): Promise<CallState> {
    const { record } = this;
    record.requestStop(
      record.status === 'in_progress'
        ? { status: 'completed', reason: 'api_ended' }
        : { status: 'canceled', reason: 'api_ended' },
    );
    await condition(() => record.finished);
    return this.state();
  }

  /**
   * Update `advanceClock` (test mode): moves the call's clock to `to` (never back); once that reaches
   * `scheduled_at` the call is dialed, and this returns when it has left `scheduled`.
   */
  async advanceClock({ to }: AdvanceClockRequest): Promise<CallState> {
    const { queue, record } = this;
    queue.clockOffsetMs = Math.max(queue.clockOffsetMs, to * 1000 - Date.now());
    // The time it waits for: its `scheduled_at`, or a calling-hours hold's opening.
    if (to >= (queue.scheduledAt ?? 0)) await condition(() => record.status !== 'scheduled' || record.stop !== null);
    return this.state();
  }

  /**
   * Validator of update `transfer`: an in-progress phone call only (`CALL_NOT_LIVE`, `CALL_NOT_TRANSFERABLE`),
   * and none while a warm transfer runs (`TRANSFER_IN_PROGRESS`).
   */
  validateTransfer(_request: TransferRequest): void {
    const { record } = this;
    if (!record.isLive() || record.status !== 'in_progress')
      throw record.notLive(`The call is ${record.status}; only an in-progress call can be transferred.`);
    if (this.input.room)
      throw ApplicationFailure.create({
        message: 'A browser voice call has no phone line to transfer; end it instead.',
        type: CALL_NOT_TRANSFERABLE,
        nonRetryable: true,
      });
    if (this.warm.underWay)
      throw ApplicationFailure.create({
        message: `A warm transfer to ${this.warm.to} is under way; wait for its outcome.`,
        type: TRANSFER_IN_PROGRESS,
        nonRetryable: true,
      });
  }

  /**
   * Update `transfer`: a cold transfer hands the call to `to` and returns once the end is recorded (a call
   * on the Realtime API: a `refer` of its SIP leg, warm asked or not); a warm
   * one (`WarmTransfer.start`) returns once its outcome is known: the end recorded when the person joined,
   * else the call back with the assistant.
   */
  async transfer(request: TransferRequest): Promise<CallState> {
    const { record, warm } = this;
    // A call on the Realtime API cannot hold its SIP leg while the person is briefed: its transfers are cold `refer`s.
    if (request.mode === 'warm' && !this.tools.coldTransfersOnly) {
      warm.start(request);
      await condition(() => !warm.underWay);
      if (record.stop !== null) await condition(() => record.finished);
      return this.state();
    }
    record.requestStop({ status: 'transferred', reason: 'transferred', transferTo: request.to });
    await condition(() => record.finished);
    return this.state();
  }

  // Phases, in the order the workflow runs them.

  /**
   * A browser voice call: the assistant attends the room from the start (it reports the visitor's arrival
   * and departure as `telephonyStatus` signals) until the run ends. Its failure (no LiveKit on the
   * worker) fails the call; it ending on its own (the visitor left, another attendance took over) is
   * already told through its signals. Does nothing for a phone call.
   */
  attendRoom(): void {
    const room = this.input.room;
    if (!room) return;
    void this.roomScope
      .run(() =>
        roomActivities(this.input).attendRoom.executeWithOptions({ summary: `assistant in room ${room.name}` }, [
          {
            callId: this.input.callId,
            room,
            firstMessage: this.input.continuation ? null : spokenGreeting(this.input),
          },
        ]),
      )
      .catch((err) => {
        if (!isCancellation(err))
          this.record.requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
      });
  }

  /**
   * Creates the call's record and rings: answered → `in_progress` (`call.started`); otherwise the stop
   * the dial's outcome means (busy, no answer, dial failed, canceled while ringing).
   */
  async ring(): Promise<void> {
    const { input, record, line } = this;
    await localStore.ensureCallRecord(input);
    const refusal = input.inbound?.refusal;
    if (refusal) {
      // Refused before any conversation (src/services/inbound-calls.ts): only the end is recorded.
      record.stop = { status: refusal.status, reason: refusal.reason, transferTo: refusal.transferTo };
      return;
    }
    if (!(await this.queue.waitForScheduledTime())) return;
    if (!(await this.queue.passDialGate())) return;
    if (!(await this.queue.waitForSlot())) return;
    const { outcome, error } = input.inbound ? { outcome: 'answered' as const } : await line.dial();
    if (outcome === 'answered' && record.stop === null) {
      line.answeredMs = Date.now();
      if (input.inbound) line.providerCallSid = input.inbound.providerCallSid;
      await record.transition('in_progress', { answered_ms: line.answeredMs, ...line.dialed() }, ['call.started']);
      // Answered and already hung up (Twilio's `completed` before or without `in-progress`).
      if (line.hungUp()) record.requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } else if (record.stop === null) {
      const [status, reason] = UNANSWERED[outcome] ?? ['failed', 'dial_failed'];
      record.stop = { status, reason, error };
    }
  }

  /**
   * The conversation, if the call is in progress, bounded by `max_duration_seconds` from the answer.
   * @returns true when the run should continue as new (a long call, nothing stopping it)
   */
  async talk(): Promise<boolean> {
    const { input, record, line } = this;
    if (record.status !== 'in_progress' || record.stop !== null) return false;
    if (line.answeredBy === 'machine') {
      line.machineAnswered(); // detected before the answer's status callback came
      return false;
    }
    const maxDurationMs = input.continuation
      ? Math.max(1, line.answeredMs + input.max_duration_seconds * 1000 - Date.now())
      : input.max_duration_seconds * 1000;
    void sleep(maxDurationMs).then(() => record.requestStop({ status: 'completed', reason: 'max_duration' }));
    let continued = false;
    try {
      const { realtime } = this;
      const converse = () => (realtime ? realtime.converse() : this.turns.converse());
      continued = (await record.conversation.run(converse)) === 'continue';
      if (record.stop === null && !continued) record.requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } catch (err) {
      if (!isCancellation(err)) record.requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
    }
    return continued && record.stop === null;
  }

  /**
   * A long call's next run: records the pending turns, leaves the room (the next run attends it) and
   * returns the input the next run starts from, with a fresh history.
   */
  async continuation(): Promise<CallWorkflowInput> {
    const { input, line, turns } = this;
    await this.transcript.flushTurns();
    this.roomScope.cancel();
    const streamEntries = this.record.streamEntries;
    return {
      ...input,
      continuation: {
        answeredMs: line.answeredMs,
        turns: this.transcript.turnCount,
        scriptIndex: turns.scriptIndex,
        utterances: turns.utterances,
        providerCallSid: line.providerCallSid,
        telephonySeen: [...line.telephonySeen],
        ...(line.answeredBy !== null ? { answeredBy: line.answeredBy } : {}),
        ...(input.campaign ? { formValues: this.tools.form?.values ?? null } : {}),
        ...(this.warm.count ? { transfers: this.warm.count } : {}),
        ...(streamEntries !== null ? { streamEntries } : {}),
        ...(this.consent.given ? { consent: this.consent.given } : {}),
        ...(this.squad ? { squad: { current: this.squad.current.name, handoffs: this.squad.handoffs } } : {}),
      },
    };
  }

  /**
   * Records the end, never cancelled: the pending turns (with a voicemail message left, as the
   * assistant's), the transfer, the voicemail message or the hang-up, the call's slot freed, the terminal
   * status with `call.ended` (and `call.transferred`; `answered_by` once detection decided), then tells a
   * campaign. A run cancelled by an operator (a Temporal cancellation request, not a stop of ours) ends
   * `api_ended`.
   * @returns the final `CallState`
   */
  async finish(): Promise<CallState> {
    const { input, record, transcript, line } = this;
    record.stop ??=
      record.status === 'in_progress'
        ? { status: 'completed', reason: 'api_ended' }
        : { status: 'canceled', reason: 'api_ended' };
    const final = record.stop;
    return await CancellationScope.nonCancellable(async () => {
      await this.warm.settled; // a warm transfer cut short hangs up its leg first
      await transcript.applyInterruption();
      if (final.voicemailMessage !== undefined) transcript.say('assistant', final.voicemailMessage);
      await transcript.flushTurns();
      const events: string[] = [];
      if (final.status === 'transferred' && final.transferTo) {
        // A warm transfer already joined the caller with the person: nothing to hand over.
        const { realtime } = this;
        const handedOver =
          final.warm ||
          (realtime?.transfersByRefer
            ? await realtime.referOut(final, final.transferTo)
            : await line.transferOut(final, final.transferTo));
        if (handedOver) events.push('call.transferred');
      } else if (final.voicemailMessage !== undefined && record.status === 'in_progress')
        await line.leaveVoicemail(final, final.voicemailMessage);
      else if (record.status === 'in_progress' || record.status === 'ringing') await line.hangUp(final);
      this.roomScope.cancel(); // the assistant leaves the room (if the visitor has not ended its attendance first)
      events.push('call.ended');
      const endedMs = Date.now();
      // The line is free: the next call in line may dial while this end is recorded (ended_ms is before it).
      // A call ended while `scheduled` never asked for one.
      // A call the dial gate held may have been granted a slot it asked for (`waiting`) before the hold.
      if (input.slot && (record.status !== 'scheduled' || (input.dial_gate && input.slot === 'waiting')))
        await this.queue.releaseSlot();
      const formValues = this.tools.form?.values ?? null;
      await record.transition(
        final.status,
        {
          end_reason: final.reason,
          transferred_to: final.status === 'transferred' ? (final.transferTo ?? null) : null,
          ...transferRecord(final),
          error_message: final.error ?? null,
          ended_ms: endedMs,
          ...(line.answeredBy !== null ? { answered_by: line.answeredBy } : {}),
          ...(input.campaign ? { form_json: formValues ? JSON.stringify(formValues) : null } : {}),
        },
        events,
      );
      record.finished = true;
      await this.recordSimulation();
      if (input.campaign) await this.reportToCampaign(input.campaign.bulkCallId, final);
      return this.state();
    });
  }

  // The end.

  /**
   * A recorded test-mode call that was answered (in `ask` mode: whose caller said yes, from the reply to
   * it on): its recording is synthesized from the transcript by
   * `recordingWorkflow` (src/workflows/recordings.ts), a child left running when this run closes, its id
   * derived from the call id (started once: a second start is refused and ignored).
   */
  private async recordSimulation(): Promise<void> {
    const { input } = this;
    if (!input.recording?.enabled || !input.simulation || !this.line.answeredMs) return;
    // `ask` mode: nothing without the caller's yes, and only from it on.
    const span = this.consent.recordedSpan();
    if (span === null) return;
    try {
      await startChild<RecordingWorkflow>(RECORDING_WORKFLOW, {
        workflowId: recordingWorkflowId(input.callId),
        args: [
          {
            callId: input.callId,
            orgId: input.orgId,
            livemode: input.livemode,
            source: { kind: 'synthesized', ...span },
          },
        ],
        parentClosePolicy: 'ABANDON',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (err) {
      // @temporalio/common's WorkflowExecutionAlreadyStartedError, which the workflow package does not export.
      if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err;
    }
  }

  /**
   * Tells the campaign (by workflow id, so whichever run is current gets it) how its call ended, with the
   * form's values. A campaign that no longer runs (canceled and finished) cannot be told: nothing to do;
   * a report lost any other way is recovered by the campaign asking the store (`checkBulkCalls`).
   */
  private async reportToCampaign(bulkCallId: string, final: StopRequest): Promise<void> {
    try {
      await getExternalWorkflowHandle(bulkCallId).signal(callFinishedSignal, {
        callId: this.input.callId,
        index: this.input.campaign!.contactIndex,
        attempt: this.input.campaign!.attempt,
        status: this.record.status,
        endReason: final.reason,
        form: this.tools.form?.values ?? null,
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
  }
}

/**
 * The call's `transfer` as its end records it: a warm transfer's progress, or a cold transfer's
 * destination (`mode: "cold"`); nothing for other ends.
 */
function transferRecord(final: StopRequest): { transfer_json?: string } {
  if (final.status !== 'transferred' || !final.transferTo) return {};
  const progress: TransferProgress = final.warm ?? {
    mode: 'cold',
    to: final.transferTo,
    status: 'transferred',
    reason: null,
    summary: null,
    attempt: 0,
  };
  return { transfer_json: JSON.stringify(progress) };
}

/**
 * What the assistant says first in a browser room: the opening (src/shared/recording-consent.ts
 * `spokenOpening`: the AI disclosure and the consent step's words, the recording notice, the agent's
 * `first_message`); null when nothing.
 */
function spokenGreeting(input: CallWorkflowInput): string | null {
  return spokenOpening({
    aiDisclosure: input.ai_disclosure,
    recordingConsent: input.recording_consent,
    notice: input.recording?.notice,
    firstMessage: input.agent.first_message,
  });
}
