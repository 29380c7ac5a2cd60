/**
 * `TurnLoop`: the turn loop of a call, for one run of `callWorkflow`. It owns the conversation's turns as
 * they are taken: a live caller's lines waiting to be answered (`callerSaid` updates) and the answers
 * given (`answer` updates read them), a simulated caller's place in its script or persona, and the lines
 * the API asked the assistant to say (`say` updates); it takes the caller's next line, has the assistant
 * answer it (src/workflows/assistant.ts `assistantTurn`, with the call's tools), and says the API's lines
 * in the pauses.
 *
 * Steering: a `say` line waits for the pause before the caller's next line is taken (`speakApiLines`), or
 * is said at once with `interrupt`; a `context` note joins the model's conversation as a system message.
 * Both are turns by `author: "api"`.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { allHandlersFinished, ApplicationFailure, condition, sleep, workflowInfo } from '@temporalio/workflow';
import {
  DEFAULT_TURN_DEADLINE_MS,
  HOLDING_LINE,
  noteMessage,
  NOTE_MAX_CHARS,
  SAY_MAX_CHARS,
  type CallerSaidResult,
  type CallWorkflowInput,
  type ContextNote,
  type SayRequest,
  type SayResult,
} from '../shared/calls';
import { LatencyMeter, turnLoopEngine, type RecordedLatency } from '../shared/latency';
import { openingTurns } from '../shared/recording-consent';
import { assistantTurn } from './assistant';
import { simulator, telephony } from './call-activities';
import type { CallConsent } from './call-consent';
import type { CallLine } from './call-line';
import type { CallRecord } from './call-record';
import type { CallSquad } from './call-squad';
import type { CallTools } from './call-tools';
import { HeardActions } from './call-heard';
import type { CallTranscript } from './call-transcript';
import type { WarmTransfer } from './warm-transfer';

/** How long a live caller may stay silent before the call ends (`silence_timeout`). */
const SILENCE_TIMEOUT_MS = 30_000;
/** A caller, live or simulated, after the holding line, waits at most this many turn deadlines before the call ends. */
const GIVE_UP_DEADLINES = 3;
/**
 * Transcript turns one run holds before it continues as new. A simulated call's turns run within one
 * workflow task, where the server's continue-as-new suggestion is not refreshed; each turn adds about one
 * marker event, so this keeps a run's history near the server's default suggestion.
 */
const LOCAL_TURNS_PER_RUN = 500;

/** A call's conversation: the caller's lines, the assistant's answers, the API's lines. */
export class TurnLoop {
  /** Live mode: what the caller said (callerSaid updates), waiting for the conversation loop. */
  private readonly callerInbox: { id: number; text: string; overSpeech?: boolean }[] = [];
  /**
   * Live mode: the assistant's answer to each utterance, by utterance id (`final: false` = holding line
   * said); a voice room's with the answer's latency record and its turn (`CallerSaidResult.latency`).
   */
  private readonly answers = new Map<
    number,
    { text: string | null; final: boolean; latency?: CallerSaidResult['latency'] }
  >();
  /** Live utterances told so far (each `callerSaid` takes the next id). */
  utterances: number;
  /** A simulated caller's turns taken so far: its place in the script, or the persona's turns. */
  scriptIndex: number;
  /** Lines the API asked the assistant to say (`say` update) waiting for the next pause, oldest first. */
  private readonly apiLines: { text: string; speaking: boolean; result: SayResult | null }[] = [];
  /** Nothing happens that the caller did not hear: interrupted answers, backchannels, confirmations. */
  private readonly heard: HeardActions;
  /**
   * When the model's last answer came (the LLM activity's clock, from its recorded result), while the
   * previous turn was the model's answer: a simulated caller that answers at once replies then, the
   * receipt its next turn's latency counts from (src/shared/latency.ts). Null otherwise.
   */
  private lastAnsweredMs: number | null = null;

  /**
   * @param input the run's input (a continued run's utterances and script place as the last run left them)
   * @param record the call's status and stop: the loop ends when the call stops
   * @param transcript where the turns are said and recorded
   * @param line the line's detection window (a machine's greeting is not answered)
   * @param warm the warm transfer under way, during which the caller is on hold
   * @param tools what the assistant's turns offer and run
   * @param consent the consent question's answer (`recording_consent: "ask"`)
   * @param squad a squad's call: its members and hand-offs (src/workflows/call-squad.ts); null otherwise
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly line: CallLine,
    private readonly warm: WarmTransfer,
    private readonly tools: CallTools,
    private readonly consent: CallConsent,
    private readonly squad: CallSquad | null = null,
  ) {
    this.utterances = input.continuation?.utterances ?? 0;
    this.scriptIndex = input.continuation?.scriptIndex ?? 0;
    this.heard = new HeardActions(input, transcript, tools);
  }

  /** Validator of update `callerSaid`: the call must be in progress. */
  validateCallerSaid(_utterance: { text: string }): void {
    if (this.record.status !== 'in_progress' || this.record.stop !== null)
      throw this.record.notLive('The call is not in progress.');
  }

  /** Update `callerSaid` (live voice loop): queues the caller's line; returns its answer, or the holding line while late. */
  async callerSaid({ text, over_speech }: { text: string; over_speech?: boolean }): Promise<CallerSaidResult> {
    const id = ++this.utterances;
    this.callerInbox.push({ id, text, ...(over_speech === true ? { overSpeech: true } : {}) });
    await condition(() => this.answers.has(id) || this.record.stop !== null);
    return this.answerOf(id, false);
  }

  /** Validator of update `answer`: `utterance` must be one this call was told. */
  validateAnswer({ utterance }: { utterance: number }): void {
    if (!Number.isInteger(utterance) || utterance < 1 || utterance > this.utterances)
      throw this.record.notLive(`No utterance ${utterance} on this call.`);
  }

  /** Update `answer`: the final answer to `utterance` (after a holding line). */
  async answer({ utterance }: { utterance: number }): Promise<CallerSaidResult> {
    await condition(() => this.answers.get(utterance)?.final === true || this.record.stop !== null);
    return this.answerOf(utterance, true);
  }

  /**
   * Validator of updates `say` and `context`: an in-progress call (`CALL_NOT_LIVE` otherwise), and text of
   * 1 to `max` characters once trimmed (the API checks it first: 400).
   */
  private validateSteering(text: unknown, max: number): void {
    const { record } = this;
    if (record.status !== 'in_progress' || record.stop !== null)
      throw record.notLive(`The call is ${record.status}; only an in-progress call can be steered.`);
    if (typeof text !== 'string' || !text.trim() || text.length > max)
      throw ApplicationFailure.create({ message: `The text must have 1 to ${max} characters.`, nonRetryable: true });
  }

  /** Validator of update `say`. */
  validateSay({ text }: SayRequest): void {
    this.validateSteering(text, SAY_MAX_CHARS);
  }

  /**
   * Update `say`: the assistant says `text` on the API's behalf, at once with `interrupt`, else at the
   * next pause (`speakApiLines`, before the caller's next line is taken); resolves once it is said, or
   * unsaid when the call stops first.
   */
  async sayLine({ text, interrupt }: SayRequest): Promise<SayResult> {
    if (interrupt) return await this.speakApiLine(text.trim(), true, this.transcript.chatLog !== null);
    const line = { text: text.trim(), speaking: false, result: null as SayResult | null };
    this.apiLines.push(line);
    // Unsaid when the call stops first (or stops it while it is being said and the run ends).
    await condition(
      () => line.result !== null || (this.record.stop !== null && !line.speaking) || this.record.finished,
    );
    return line.result ?? { spoken: false, seq: null };
  }

  /** Validator of update `context`. */
  validateContext({ note }: ContextNote): void {
    this.validateSteering(note, NOTE_MAX_CHARS);
  }

  /**
   * Update `context`: a note the model sees from its next request on (a system message where it came),
   * recorded as a `note` turn (`author: "api"`) so a continued run's conversation has it too.
   */
  addNote({ note }: ContextNote): { seq: number } {
    const text = note.trim();
    const seq = this.transcript.say('note', text, undefined, 'api');
    this.transcript.hearMessage({ role: 'system', content: noteMessage(text) });
    // Shown at once when no store read depends on the pending turns (see speakApiLine).
    if (this.transcript.chatLog !== null) void this.transcript.flushTurns(true);
    return { seq };
  }

  /**
   * The conversation loop; runs inside the cancellable `conversation` scope.
   * @returns `continue` when the run should continue as new (history long, no update in flight)
   */
  async converse(): Promise<'done' | 'continue'> {
    const { input, transcript } = this;
    const firstTurn = transcript.turnCount;
    this.tools.resolve();
    if (!input.continuation) await this.sayOpening();
    for (;;) {
      const longRun = workflowInfo().continueAsNewSuggested || transcript.turnCount - firstTurn >= LOCAL_TURNS_PER_RUN;
      const idle =
        this.callerInbox.length === 0 && !transcript.pending && !this.warm.underWay && transcript.interruption === null;
      if (longRun && idle && allHandlersFinished()) return 'continue';
      const heard = await this.hearCaller();
      if (heard !== null && this.heard.isBackchannel(heard.text, heard.overSpeech === true, heard.line)) {
        // "Mhmm" over the assistant: no turn, no interruption, no answer (src/workflows/call-heard.ts).
        transcript.interruption = null;
        transcript.sayBackchannel(heard.text);
        if (heard.utterance !== undefined) this.answers.set(heard.utterance, { text: null, final: true });
        continue;
      }
      await transcript.applyInterruption();
      if (heard === null) return 'done';
      const heardSeq = transcript.say('caller', heard.text);
      transcript.hearMessage({ role: 'user', content: heard.text });
      if (heard.hangUp) return 'done'; // a persona's goodbye: it hangs up after saying it
      if (await this.line.holdForDetection()) {
        if (heard.utterance !== undefined) this.answers.set(heard.utterance, { text: null, final: true });
        this.lastAnsweredMs = null;
        continue;
      }
      if (this.consent.pending) {
        // The answer to the consent question (`recording_consent: "ask"`): the reply, not the model's.
        const said = await this.consent.hear(heard.text, heardSeq, this.line.providerCallSid);
        if (heard.utterance !== undefined) this.answers.set(heard.utterance, { text: said, final: true });
        this.lastAnsweredMs = null;
      } else {
        await this.heard.settle(heard.text);
        await this.answerCaller(heard.utterance);
      }
      // The turn's rows and its answers' usage rows go behind the next model request (the activity waits
      // for it, in this process); recorded as a local activity, so a crash before it ends runs it again.
      await transcript.flushTurns(true, true);
      if (this.record.stop !== null) return 'done';
    }
  }

  /**
   * The call's opening (src/shared/recording-consent.ts `openingTurns`), each an assistant turn: the AI
   * disclosure with what the consent step says (the recording announcement, or the question), which the
   * model hears too; the recording's own notice (when no consent step says it), which it does not; the
   * agent's first message (not yet in `ask` mode: after the answer). Calls made before the disclosure and
   * consent existed say the notice and the first message as they always did, with the same commands.
   */
  private async sayOpening(): Promise<void> {
    const { input, transcript } = this;
    const { opening, notice, firstMessage } = openingTurns({
      aiDisclosure: input.ai_disclosure,
      recordingConsent: input.recording_consent,
      notice: input.recording?.notice,
      firstMessage: input.agent.first_message,
    });
    if (opening) {
      transcript.say('assistant', opening);
      transcript.hearMessage({ role: 'assistant', content: opening });
    }
    if (notice) transcript.say('assistant', notice); // the recording notice comes before the greeting
    if (firstMessage) {
      transcript.say('assistant', firstMessage);
      transcript.hearMessage({ role: 'assistant', content: firstMessage });
    }
    if (opening || firstMessage) await transcript.flushTurns(true);
  }

  /**
   * The caller's next line: the simulation's script (after its pause), or a live caller's `callerSaid`.
   * @returns null when the caller is done: the script is over (the scripted caller hangs up), or a live
   *   caller stayed silent for `SILENCE_TIMEOUT_MS` (the call stops, `silence_timeout`)
   */
  private async hearCaller(): Promise<{
    text: string;
    utterance?: number;
    hangUp?: boolean;
    /** A scripted line's index in `simulation.caller`. */
    line?: number;
    /** A live utterance said while the assistant spoke. */
    overSpeech?: boolean;
  } | null> {
    const { warm, record } = this;
    const simulation = this.input.simulation;
    if (simulation) {
      if (warm.underWay) await condition(() => !warm.underWay);
      // A persona may follow scripted lines (a `fork` replay's call: the recorded caller's first lines).
      if (simulation.persona && this.scriptIndex >= simulation.caller.length) return await this.hearPersona(simulation);
      if (this.scriptIndex >= simulation.caller.length) {
        // A simulated machine beeps once its greeting is over: detection says so, as Twilio would.
        if (simulation.outcome === 'voicemail') this.line.onMachineDetection({ answeredBy: 'machine_end_beep' });
        return null;
      }
      if (simulation.pause_seconds > 0) await sleep(simulation.pause_seconds * 1000);
      // The simulated caller is on hold while a warm transfer runs.
      if (warm.underWay) await condition(() => !warm.underWay);
      await this.speakApiLines();
      const line = this.scriptIndex++;
      return { text: simulation.caller[line], line };
    }
    // A live caller on hold during a warm transfer is not silent: the wait starts again once it is over.
    for (;;) {
      if (warm.underWay) await condition(() => !warm.underWay);
      await this.speakApiLines();
      // A line said on the API's behalf wakes the wait (and the caller's silence counts from it).
      const woke = await condition(
        () => this.callerInbox.length > 0 || this.apiLines.length > 0 || warm.underWay,
        SILENCE_TIMEOUT_MS,
      );
      if (warm.underWay) continue;
      if (!woke) {
        record.requestStop({ status: 'completed', reason: 'silence_timeout' });
        return null;
      }
      if (this.callerInbox.length === 0) {
        if (record.stop !== null) return null; // stopped: the lines left wait no more (their updates say unsaid)
        continue;
      }
      const next = this.callerInbox.shift()!;
      return { text: next.text, utterance: next.id, ...(next.overSpeech ? { overSpeech: true } : {}) };
    }
  }

  /**
   * A persona caller's next line: after `max_turns` caller turns the persona hangs up
   * (null); otherwise, after the simulation's pause (and a warm transfer's hold), the `personaTurn` local
   * activity asks the simulator model with the conversation so far (the run's chat log, or a continued
   * run's messages since the stored transcript). A line without words is a hang-up (null); a line with
   * `hangUp` is said, then the caller hangs up (`converse`). Turns count in `scriptIndex`.
   */
  private async hearPersona(
    simulation: NonNullable<CallWorkflowInput['simulation']>,
  ): Promise<{ text: string; hangUp?: boolean } | null> {
    const { warm, transcript } = this;
    const persona = simulation.persona!;
    if (this.scriptIndex >= persona.max_turns) return null;
    if (simulation.pause_seconds > 0) await sleep(simulation.pause_seconds * 1000);
    if (warm.underWay) await condition(() => !warm.underWay);
    await this.speakApiLines();
    const line = await simulator.personaTurn.executeWithOptions({ summary: `persona turn ${this.scriptIndex + 1}` }, [
      {
        callId: this.input.callId,
        simulation: persona,
        messages: transcript.messages,
        ...transcript.history(),
      },
    ]);
    this.scriptIndex++;
    if (line.text === null) return null;
    return { text: line.text, ...(line.hangUp ? { hangUp: true } : {}) };
  }

  /**
   * The pause: says the lines the API asked for (`say` without `interrupt`), oldest first, while no answer
   * is being given and before the caller's next line is taken; then records them (the conversation loop
   * is between turns: no LLM request reads the store now).
   */
  private async speakApiLines(): Promise<void> {
    if (this.apiLines.length === 0) return;
    while (this.apiLines.length > 0 && this.record.stop === null) {
      const line = this.apiLines[0];
      line.speaking = true;
      line.result = await this.speakApiLine(line.text, false, false);
      this.apiLines.shift();
    }
    await this.transcript.flushTurns(true);
  }

  /**
   * Says one line on the API's behalf: a live call's voice session speaks it (`speakLine`: the
   * ConversationRelay socket or the voice room, through src/voice/relay.ts); a simulated call's caller
   * hears it. Said, it is the assistant's turn (`author: "api"`) and in the model's conversation.
   * @param flush record it now (`flushTurns` behind): only when no store read depends on the pending turns
   * @returns unsaid when no voice session took it (none connected, or its API process gone)
   */
  private async speakApiLine(text: string, interrupt: boolean, flush: boolean): Promise<SayResult> {
    if (!this.input.simulation) {
      const { delivered } = await telephony.speakLine({ callId: this.input.callId, text, interrupt });
      if (!delivered) return { spoken: false, seq: null };
    }
    const seq = this.transcript.say('assistant', text, undefined, 'api');
    this.transcript.hearMessage({ role: 'assistant', content: text });
    if (flush) await this.transcript.flushTurns(true);
    return { spoken: true, seq };
  }

  /**
   * The assistant's answer, possibly through tools (src/workflows/assistant.ts `assistantTurn`, a local
   * activity per LLM request). The deadline is the model's time (the request's, not the worker's
   * queueing). A late answer: past one turn deadline a live caller hears the holding line (said by the
   * voice session; a simulated call's transcript records it before the answer), and any call waits up to
   * `GIVE_UP_DEADLINES` turn deadlines before it ends `failed`. A live utterance's answer is kept for its update.
   */
  private async answerCaller(utterance: number | undefined): Promise<void> {
    const { input, transcript, tools } = this;
    const deadlineMs = input.turn_deadline_ms ?? DEFAULT_TURN_DEADLINE_MS;
    const said: string[] = [];
    const speak = (text: string) => this.speakWhileRunning(utterance, text);
    let custom = await tools.customToolSet(speak);
    const { heard, squad } = this;
    if (input.simulation) heard.expectBargeIn(this.scriptIndex);
    const meter = this.latencyMeter();
    let latency: RecordedLatency | null = null;
    let measured: CallerSaidResult['latency'];
    try {
      // A squad's hand-off ends the member's turn; the member handed to answers at once (call-squad.ts).
      for (let answered = false; !answered; answered = !squad?.handingOff || this.record.stop !== null) {
        if (squad?.handingOff) {
          await squad.complete();
          custom = await tools.customToolSet(speak);
        }
        const own = squad?.functions();
        await assistantTurn({
          conversationId: input.callId,
          model: tools.agent.model,
          ...(own ? { own } : {}),
          messages: transcript.messages,
          ...transcript.history(),
          turn: input.simulation ? this.scriptIndex : utterance,
          tools: tools.handlers,
          ...(custom ? { custom } : {}),
          toolCallKey: tools.toolCallKey,
          ...(input.tool_mocks ? { mocks: input.tool_mocks } : {}),
          context: tools.context,
          ...tools.callbackClock(),
          ...tools.transferOffer(),
          ...(heard.enabled ? { actions: (calls, text) => heard.verdicts(calls, text) } : {}),
          local: true,
          stream: !input.simulation,
          // Each answer's usage row is stored by the turn's transcript write, not before the turn goes on.
          usageInResult: true,
          // A simulated caller's next line comes at once: its context is read while this answer is heard.
          ...(input.simulation ? { prefetchNextContext: true } : {}),
          observer: {
            onReply: (reply) => {
              transcript.oweUsage(reply);
              latency = meter.reply(reply.timing, reply.text !== null);
            },
            onText: (text, knowledge) => {
              const seq = transcript.say('assistant', text, knowledge, undefined, latency ?? undefined);
              if (latency && input.room) measured = { ...latency, seq };
              latency = null;
              said.push(text);
            },
            onTool: (call, effect, record) => {
              meter.tool(record.durationMs);
              transcript.sayTool(call, effect, record);
            },
          },
          deadline: {
            slowMs: deadlineMs,
            giveUpMs: deadlineMs * GIVE_UP_DEADLINES,
            onSlow: () => {
              // The simulated caller hears the holding line a live caller hears from its voice session.
              if (input.simulation && said.length === 0) transcript.say('assistant', HOLDING_LINE);
              if (utterance !== undefined && !this.answers.has(utterance))
                this.answers.set(utterance, { text: HOLDING_LINE, final: false });
            },
          },
        });
      }
    } finally {
      heard.afterAnswer();
      this.lastAnsweredMs = meter.lastAnsweredMs;
      if (utterance !== undefined)
        this.answers.set(utterance, {
          text: said.length ? said.join(' ') : null,
          final: true,
          ...(measured ? { latency: measured } : {}),
        });
    }
  }

  /**
   * The latency meter of the next answer (src/shared/latency.ts), engine `pipeline` (`room` for a browser
   * voice call): a live call's voice session times its first audio (a room's attendance completes the
   * record once it has: `CallerSaidResult.latency`); a simulated caller without pause or persona answers the moment the
   * last answer came, from which the turn counts; other simulated turns count from their first request.
   */
  private latencyMeter(): LatencyMeter {
    const simulation = this.input.simulation;
    const atOnce = !!simulation && !simulation.persona && simulation.pause_seconds === 0;
    return new LatencyMeter(turnLoopEngine(this.input), !simulation, atOnce ? this.lastAnsweredMs : null);
  }

  /**
   * A slow tool's `speak_while_running`, said to the caller while the answer to `utterance` is not given
   * yet (a live caller hears it as the `callerSaid` update's pending answer, like the holding line) and
   * recorded in the transcript.
   * @returns whether it was said
   */
  private speakWhileRunning(utterance: number | undefined, text: string): boolean {
    if (utterance !== undefined && this.answers.has(utterance)) return false;
    this.transcript.say('assistant', text);
    if (utterance !== undefined) this.answers.set(utterance, { text, final: false });
    return true;
  }

  /**
   * The answer to utterance `id` once known (or the holding line while it is late). `ended` tells the
   * voice session to end after it, except while a voicemail message is being left: the message's TwiML
   * replaces the session, which ending first would hang the call up before the message.
   */
  private answerOf(id: number, final: boolean): CallerSaidResult {
    const { stop } = this.record;
    const a = this.answers.get(id);
    const pending = a !== undefined && !a.final && stop === null;
    const ended = stop !== null && stop.voicemailMessage === undefined;
    if (final || !pending)
      return { text: a?.text ?? null, ended, utterance: id, ...(a?.latency ? { latency: a.latency } : {}) };
    return { text: a.text, ended: false, pending: true, utterance: id };
  }
}
