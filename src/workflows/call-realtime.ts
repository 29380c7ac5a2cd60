/**
 * `RealtimeEngine`: the conversation of a call whose agent version has `engine: "realtime"` (OpenAI's
 * Realtime API over SIP, src/shared/realtime.ts), for one run of `callWorkflow`. Only such calls reach it
 * (`CallSession.talk`); every other call's history is what it was.
 *
 * - The SIP leg: a live call's Twilio leg dials the project's SIP URI with our call id header (the TwiML
 *   of src/api/twilio/index.ts); a test-mode call rings a simulated one (`ringRealtimeSimulation`). OpenAI
 *   announces it by webhook, which the API turns into the `realtimeIncoming` signal (src/api/openai-webhooks.ts).
 * - The accept (`acceptRealtimeCall`): the agent's instructions with the call's context, its voice, its
 *   tools (the very tools a pipeline call offers, `CallTools`) and the version's turn detection
 *   (src/shared/turn-taking.ts `realtimeTurnDetection`: `server_vad` or `semantic_vad`, `interrupt_response`).
 * - The session: a long-running, heartbeating activity holds the sideband socket (`attendRealtimeCall`,
 *   src/voice/realtime-session.ts) and signals what happens (`realtimeEvents`): the caller's and the
 *   model's transcripts become transcript turns; each function call runs as the same durable tool call as
 *   on the pipeline (same key, same transcript entry; the organization's tools as local activities, so the
 *   task that hears the calls also makes their outputs), and its output goes back through the update
 *   `realtimeOutputs` the activity has waiting ahead (answered in the workflow task that made the output:
 *   no poll, no second task). A tool that ends the call (`end_call`) hangs the leg up (`hangUpRealtimeCall`).
 *   Since 0.3.0 the sideband runs the answers it may itself (src/shared/realtime.ts `sidebandRunsAnswer`)
 *   with the same keys, telling before and after (`sidebandRan`): no workflow task between call and output.
 * - Transfers: the model's `transfer_call` (checked as on the pipeline: the agent's destinations, then the
 *   dialing permissions) and the API's `transfer` end the call `transferred` and `CallSession.finish` asks
 *   `referOut`: a `refer` of the SIP leg (`referRealtimeCall`) instead of a hang-up. A warm transfer cannot
 *   hold a SIP leg on the Realtime API while the person is briefed: on this engine every transfer is cold
 *   (`CallTools.coldTransfersOnly`; the call's `transfer` says `mode: "cold"`).
 * - Re-attach: a socket that drops after the model's first answer (the activity fails) is attached again
 *   (`keepAttached`): a new socket to the same OpenAI call, no greeting, its events numbered by `attach`
 *   (the `seq` dedupe is per attach), the outbox taken up where the sockets told they left it (`sent`); at
 *   most `MAX_REATTACHES`, with backoff; then the call ends `error` with its transcript.
 * - Heard only (src/workflows/call-heard.ts, rule 1): an answer the caller talked over (the sideband marks
 *   its `function_calls` `interrupted`, or tells `interrupted` later) runs none of its calls not started:
 *   each is recorded `dropped`/`interrupted` and its output tells the model so, with no `response.create`
 *   after; on a live call an answer that speaks and ends or transfers the call first waits until its words
 *   are likely heard. The transcript keeps what the caller heard (`interrupted`'s `heard`, cut and marked
 *   as a pipeline call's).
 * - Squads (all members on this engine): the member's `handoff_to_<name>` functions are offered with its
 *   tools; a call of one makes the hand-off as on the pipeline (`CallSquad.complete`) and the batch of its
 *   output carries the receiving member's configuration (src/workflows/call-realtime-squad.ts).
 * - Fallback: when accepting fails, the session errors (or its socket fails) before the model's first
 *   answer, OpenAI never announces the leg, or a test-mode call has no simulated leg to ring, the call goes
 *   on with the pipeline engine (`TurnLoop.converse`) on the same call, `engine_fallback` written on it and
 *   logged.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  patched,
  sleep,
} from '@temporalio/workflow';
import type { ToolCall } from '../shared/assistant';
import type { CallWorkflowInput } from '../shared/calls';
import { PATCHES } from '../shared/deployments';
import {
  answerCut,
  REALTIME_CALL_GONE,
  type EngineFallback,
  type RealtimeCallEvent,
  type RealtimeIncoming,
  type RealtimeOutbox,
  type RealtimeOutput,
  type RealtimeOutputsReply,
  type RealtimeOutputsRequest,
  type SidebandToolResult,
} from '../shared/realtime';
import { HANDOFF_TOOL_PREFIX } from '../shared/squads';
import type { ToolCallRecord } from '../shared/tools';
import { endsTheLine, speechEstimateMs } from './call-heard';
import {
  droppedCall,
  realtimeGreeting,
  realtimeLatency,
  runHere,
  sideband,
  sidebandDone,
  sidebandTools,
  realtimeAccept,
  realtimeCalls,
  realtimeRefer,
} from './call-realtime-parts';
import type { CallLine } from './call-line';
import { realtimeHandOff, realtimeSessionInput, type RealtimeCallParts } from './call-realtime-squad';
import type { CallSquad } from './call-squad';
import type { CallRecord, StopRequest } from './call-record';
import type { CallTools } from './call-tools';
import type { CallTranscript } from './call-transcript';
import type { TurnLoop } from './call-turns';
import { errorMessage } from './retry';
import { applyTool, runCustomTool, type ToolEffect } from './tools';

/** How long OpenAI may take to announce the SIP leg once it is dialed (ms). */
const INCOMING_TIMEOUT_MS = 30_000;
/** A live call's goodbye: how long the model may speak before its `end_call` hangs the leg up (ms). */
const GOODBYE_MS = 3_000;
/** Re-attaches of a dropped sideband socket per call, and the wait before the first (doubling after). */
const MAX_REATTACHES = 3;
const REATTACH_BACKOFF_MS = 1_000;

/** A realtime call's conversation: the SIP leg, the session's events, the function calls' outputs. */
export class RealtimeEngine {
  /** OpenAI's id of the call's SIP leg, once the webhook announced it; the first one counts. */
  private openaiCallId: string | null = null;
  /** Events of the session not handled yet, and the last `seq` taken per attach (a repeated one is ignored). */
  private readonly events: RealtimeCallEvent[] = [];
  private readonly lastSeq: number[] = [];
  /** `function_calls` events taken, and outbox batches the sockets said they sent (a re-attach goes on from there). */
  private asked = 0;
  private delivered = 0;
  /** Answers the caller talked over (their function calls not started are dropped). */
  private readonly interruptedAnswers = new Set<string>();
  /** The call runs on the Realtime API: accepted, not fallen back (its transfers are `refer`s). */
  private onRealtime = false;
  /** One batch of outputs per `function_calls` event handled (query `realtimeOutbox`). */
  private readonly batches: RealtimeOutbox['batches'] = [];
  /** The model has answered once (an error from then on no longer falls back). */
  private answered = false;
  /** The session's socket closed (OpenAI's side of the call is over). */
  private closed = false;
  /** The conversation on the Realtime API is over (or fell back): no outbox batch will come. */
  private ended = false;
  /** `realtimeOutputs` updates waiting, and the outbox length when a batch was made while one waited. */
  private listening = 0;
  private heardBatches = 0;
  /** The model's last words came with function calls still to be told (`thenCalls`): their write waits. */
  private callsExpected = false;
  /** Function calls told so far (the rank of the next one's key: `SidebandTools.keysFrom`). */
  private callsTold = 0;
  /** The outcomes of the answers the sideband ran itself (`tool_results`), by answer. */
  private readonly sidebandResults = new Map<string, SidebandToolResult[]>();
  /** The last attach whose sideband activity is over: it tells nothing more. */
  private attachOver = 0;

  /**
   * @param input the run's input (its agent has `engine: "realtime"`)
   * @param record the call's stop: a tool's, the API's, the caller's hang-up
   * @param transcript where the turns are said and recorded
   * @param tools the call's tools (the pipeline's)
   * @param turns the pipeline's turn loop, which a fallback hands the call to
   * @param line the phone line: a live call's Twilio call, redirected on a fallback
   * @param squad a squad's call: its members and hand-offs; null for a call of one agent
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly tools: CallTools,
    private readonly turns: TurnLoop,
    private readonly line: CallLine,
    private readonly squad: CallSquad | null = null,
  ) {}

  /** What the session's configuration reads of the call (src/workflows/call-realtime-squad.ts). */
  private get parts(): RealtimeCallParts {
    const { input, tools, transcript, squad } = this;
    return { input, tools, transcript, squad };
  }

  /** Signal `realtimeIncoming`: the webhook found this call; a second leg is ignored. */
  onIncoming({ openaiCallId }: RealtimeIncoming): void {
    this.openaiCallId ??= openaiCallId;
  }

  /**
   * Signals `realtimeEvent` and `realtimeEvents` (each event of it in turn): queued for the conversation,
   * once per `attach` and `seq`. What an interruption, a sent batch or the sideband's own tool results
   * tell is taken at once (an answer's calls may be waiting to know it).
   */
  onEvent(event: RealtimeCallEvent): void {
    const attach = event.attach ?? 1;
    if (event.seq <= (this.lastSeq[attach] ?? 0)) return;
    this.lastSeq[attach] = event.seq;
    if (event.type === 'interrupted' && event.responseId !== null) this.interruptedAnswers.add(event.responseId);
    if (event.type === 'sent') this.delivered = Math.max(this.delivered, event.batches);
    if (event.type === 'function_calls') {
      this.asked++;
      this.callsTold += event.calls.length;
    }
    if (event.type === 'tool_results') {
      this.sidebandResults.set(event.responseId, event.results);
      this.delivered = Math.max(this.delivered, event.sent);
    }
    if (event.type !== 'sent' && event.type !== 'tool_results') this.events.push(event);
  }

  /** Whether a transfer of the call is a `refer` of its SIP leg (it runs on the Realtime API). */
  get transfersByRefer(): boolean {
    return this.onRealtime && this.openaiCallId !== null;
  }

  /**
   * A transfer of the call running on the Realtime API (`CallSession.finish`, for the model's
   * `transfer_call` and the API's `transfer` alike, the destination checked before): `refer` of the SIP
   * leg to `to`. A refer that fails ends the call `failed` with `error` (as a pipeline transfer's failed
   * `<Dial>`) and hangs the leg up.
   * @returns true when the call was handed over (`call.transferred`)
   */
  async referOut(final: StopRequest, to: string): Promise<boolean> {
    const { input } = this;
    const openaiCallId = this.openaiCallId!;
    try {
      await realtimeRefer.referRealtimeCall.executeWithOptions({ summary: `refer ${openaiCallId} to ${to}` }, [
        { callId: input.callId, openaiCallId, to },
      ]);
      return true;
    } catch (err) {
      final.status = 'failed';
      final.reason = 'error';
      final.error = `Transfer to ${to} failed: ${errorMessage(err)}`;
      await realtimeCalls.hangUpRealtimeCall({ callId: input.callId, openaiCallId }).catch(() => undefined);
      return false;
    }
  }

  /** Query `realtimeOutbox`: the function outputs so far, one batch per answered `function_calls`. */
  outbox(): RealtimeOutbox {
    return { batches: this.batches };
  }

  /**
   * Update `realtimeOutputs` (src/shared/realtime.ts): waits until the outbox has a batch past `from`, then
   * answers the batches from there; answers none, `final`, once the call stops or the conversation on the
   * Realtime API is over (none will come: the socket stops asking).
   */
  async outputs({ from }: RealtimeOutputsRequest): Promise<RealtimeOutputsReply> {
    this.listening++;
    try {
      await condition(() => this.batches.length > from || this.record.stop !== null || this.ended);
    } finally {
      this.listening--;
    }
    const batches = this.batches.slice(from);
    return { from, batches, final: batches.length === 0 };
  }

  /**
   * A batch went to a waiting `realtimeOutputs` update and its socket has not said `sent` yet. Its answer
   * leaves with the workflow task that made it, which a local activity started meanwhile (the transcript's
   * write) would hold open: the caller would wait for the write. So the turns are written once the socket
   * says it sent the batch (its `sent` signal wakes the workflow), or once the call stops or the session is
   * over. Likewise after the model's words that came with function calls (`thenCalls`): the write would
   * hold open the task the calls' signal waits for. Never true in a history without the update (sessions
   * that read the outbox by query): their writes stay where they were.
   */
  private awaitingDelivery(): boolean {
    return this.delivered < this.heardBatches || this.callsExpected;
  }

  /**
   * The conversation (inside the call's cancellable conversation scope): connect, then attend the session
   * until the call stops or the socket closes; a fallback goes on with the pipeline's turn loop.
   * @returns what `TurnLoop.converse` returns (`done` unless a fallen-back call continues as new)
   */
  async converse(): Promise<'done' | 'continue'> {
    this.tools.resolve();
    const unconnected = await this.connect();
    if (this.record.stop !== null) return 'done';
    if (unconnected) return await this.fallBack(unconnected);
    this.onRealtime = true;
    this.tools.coldTransfersOnly = true;
    const outcome = await this.attend();
    return outcome === 'session_error' ? await this.fallBack('session_error') : 'done';
  }

  /**
   * Rings the leg (a test-mode call's simulated one), waits for the webhook and accepts the call.
   * @returns why the call cannot run on the Realtime API (a fallback), or null when accepted
   */
  private async connect(): Promise<EngineFallback | null> {
    const { input, record } = this;
    if (input.simulation) {
      const { rung } = await realtimeCalls.ringRealtimeSimulation({
        callId: input.callId,
        caller: input.simulation.caller,
        ...(input.simulation.barge_ins?.length ? { bargeIns: input.simulation.barge_ins } : {}),
      });
      if (!rung) return 'no_simulator';
    }
    await condition(() => this.openaiCallId !== null || record.stop !== null, INCOMING_TIMEOUT_MS);
    if (record.stop !== null) return null;
    if (this.openaiCallId === null) return 'no_webhook';
    await record.transition('in_progress', { realtime_call_id: this.openaiCallId }, []);
    try {
      await realtimeAccept.acceptRealtimeCall.executeWithOptions({ summary: `accept ${this.openaiCallId}` }, [
        { ...(await realtimeSessionInput(this.parts, input.agent)), openaiCallId: this.openaiCallId },
      ]);
      return null;
    } catch (err) {
      if (isCancellation(err)) throw err;
      log.warn('realtime accept failed', { callId: input.callId, error: errorMessage(err) });
      return 'accept_failed';
    }
  }

  /**
   * Attends the session: the sideband activity in a scope of its own (re-attached when its socket drops,
   * `keepAttached`), the session's events handled in order, until the call stops or the session is over;
   * then the leg is hung up (unless OpenAI's side is over, or the call is being transferred: `referOut`
   * follows) and the activity cancelled.
   * @returns `session_error` when the session failed before the model's first answer
   */
  private async attend(): Promise<'done' | 'session_error'> {
    const { input, record, transcript } = this;
    const openaiCallId = this.openaiCallId!;
    const scope = new CancellationScope();
    let over = false;
    let failure: string | null = null;
    const attending = scope
      .run(() => this.keepAttached(openaiCallId))
      .then((failed) => (failure = failed))
      .catch((err) => {
        if (!isCancellation(err)) failure = errorMessage(err);
      })
      .finally(() => (over = true));
    let outcome: 'done' | 'session_error' = 'done';
    let unwritten = false;
    const writable = () => !this.awaitingDelivery() || record.stop !== null || over;
    while (outcome === 'done') {
      await condition(() => this.events.length > 0 || record.stop !== null || over || (unwritten && writable()));
      while (this.events.length > 0 && outcome === 'done') {
        outcome = await this.handle(this.events.shift()!);
        unwritten = true;
      }
      if (writable()) {
        await transcript.flushTurns(true);
        unwritten = false;
      }
      if (record.stop !== null || (over && this.events.length === 0)) break;
    }
    if (outcome === 'done' && failure !== null && !this.answered) outcome = 'session_error';
    this.ended = true;
    if (!this.closed) {
      const leaving = record.stop?.reason === 'assistant_ended' || record.stop?.status === 'transferred';
      if (leaving && !input.simulation) await sleep(GOODBYE_MS);
      if (record.stop?.status !== 'transferred')
        await realtimeCalls.hangUpRealtimeCall({ callId: input.callId, openaiCallId }).catch(() => undefined);
    }
    scope.cancel();
    await attending;
    if (outcome === 'done' && record.stop === null && failure !== null)
      record.requestStop({ status: 'failed', reason: 'error', error: `Realtime session: ${failure}` });
    return outcome;
  }

  /**
   * The sideband activity, attached again when it fails after the model's first answer: a new socket to
   * the same OpenAI call, no greeting, its events numbered by the next `attach`, the outbox taken up where
   * the sockets before left it; at most `MAX_REATTACHES` times, `REATTACH_BACKOFF_MS` apart, doubling.
   * @returns why the session failed for good (the call then ends `error`, or falls back before the first
   *   answer), or null when it is over (its socket closed, or OpenAI no longer knows the call)
   */
  private async keepAttached(openaiCallId: string): Promise<string | null> {
    const { input, record } = this;
    const interruptOnSpeech = input.agent.turn_taking?.interrupt_response !== false;
    for (let attach = 1; ; attach++) {
      const tools = patched(PATCHES.realtimeSidebandTools)
        ? await sidebandTools(this.tools, this.callsTold)
        : undefined;
      try {
        await sideband(input)
          .attendRealtimeCall.executeWithOptions(
            { summary: `realtime session ${openaiCallId}${attach > 1 ? ` (re-attach ${attach - 1})` : ''}` },
            [
              {
                callId: input.callId,
                openaiCallId,
                greeting: attach === 1 ? realtimeGreeting(input) : null,
                attach,
                outboxFrom: this.delivered,
                awaited: this.asked,
                interruptOnSpeech,
                ...(tools ? { tools } : {}),
              },
            ],
          )
          .finally(() => (this.attachOver = attach));
        return null;
      } catch (err) {
        if (isCancellation(err)) throw err;
        if (
          err instanceof ActivityFailure &&
          err.cause instanceof ApplicationFailure &&
          err.cause.type === REALTIME_CALL_GONE
        )
          return null;
        const failure = errorMessage(err);
        if (!this.answered || this.closed || record.stop !== null || attach > MAX_REATTACHES) return failure;
        log.warn('realtime socket dropped; re-attaching', { callId: input.callId, attach, error: failure });
        await sleep(REATTACH_BACKOFF_MS * 2 ** (attach - 1));
      }
    }
  }

  /** One event of the session: a turn, the function calls of an answer, an error, the close. */
  private async handle(event: RealtimeCallEvent): Promise<'done' | 'session_error'> {
    const { transcript } = this;
    // The words of an answer with function calls are written with the calls' outputs, once those are sent.
    this.callsExpected = event.type === 'assistant' && event.thenCalls === true;
    switch (event.type) {
      case 'caller':
        transcript.say('caller', event.text);
        transcript.hearMessage({ role: 'user', content: event.text });
        return 'done';
      case 'assistant':
        this.answered = true;
        // The answer's latency, measured by the sideband on its clock, goes on the turn as the pipeline's does.
        transcript.say('assistant', event.text, undefined, undefined, realtimeLatency(event.latency));
        transcript.hearMessage({ role: 'assistant', content: event.text });
        return 'done';
      case 'function_calls':
        await this.runFunctionCalls(event);
        return 'done';
      case 'interrupted':
        await this.interrupted(event.heard);
        return 'done';
      case 'sent':
      case 'tool_results':
        return 'done';
      case 'error':
        log.warn('realtime session error', { callId: this.input.callId, error: event.message });
        return this.answered ? 'done' : 'session_error';
      case 'closed':
        this.closed = true;
        return 'done';
    }
  }

  /**
   * The caller talked over the assistant: the words said since they last spoke keep what was heard
   * (`heard`; unknown: left as they are) and are marked `interrupted`, as a pipeline call's
   * (src/workflows/call-transcript.ts `applyInterruption`).
   */
  private async interrupted(heard: string | null): Promise<void> {
    if (heard === null) return;
    this.transcript.onInterrupted({ spoken: heard });
    await this.transcript.applyInterruption();
  }

  /**
   * An answer's function calls, in parallel, each the same durable tool call a pipeline call makes (the
   * organization's tools by `runCustomTool` as local activities, the built-in ones by `applyTool`, keyed by
   * `CallTools.toolCallKey`), recorded as tool turns in the model's order; their outputs make the next
   * outbox batch, with `respond` false when one ended the call or the caller is talking. Nothing happens
   * that the caller did not hear (src/workflows/call-heard.ts, rule 1): an answer the caller interrupted
   * runs none of its calls (each recorded `dropped`, `interrupted`, its output telling the model so); on
   * a live call an answer that speaks and ends or transfers the call first waits until its words are
   * likely heard (`speechEstimateMs`) and is dropped when the caller cuts in meanwhile.
   */
  private async runFunctionCalls(answer: Extract<RealtimeCallEvent, { type: 'function_calls' }>): Promise<void> {
    const { tools, input } = this;
    if (answer.sidebandKeys) return await this.sidebandRan(answer, answer.sidebandKeys);
    const cut = () => answerCut(answer, this.interruptedAnswers);
    if (!cut() && !input.simulation && answer.said && answer.calls.some((c) => endsTheLine(c.name)))
      await condition(cut, speechEstimateMs(answer.said));
    const dropped = cut();
    const custom = dropped ? null : await tools.customToolSet(() => false);
    const own = this.squad?.functions();
    const done = await Promise.all(
      answer.calls.map(async (fc) => {
        const call: ToolCall = { id: fc.id, name: fc.name, arguments: fc.arguments };
        const key = tools.toolCallKey(call.id);
        if (dropped) return { call, ...droppedCall(key) };
        const tool = custom?.tools.find((t) => t.name === call.name);
        if (tool && custom) return { call, ...(await runCustomTool(custom, tool, call, key, { local: true })) };
        const startedMs = Date.now();
        const handoff = own && call.name.startsWith(HANDOFF_TOOL_PREFIX);
        const effect: ToolEffect = handoff ? own.handle(call) : await applyTool(tools.handlers, call, key);
        const record = {
          toolCallId: key,
          ok: !effect.summary.startsWith('Error:'),
          status: null,
          durationMs: Date.now() - startedMs,
        };
        return { call, effect, record };
      }),
    );
    await this.recordBatch(done, dropped);
  }

  /**
   * The calls of an answer, in the model's order, as tool turns, and their outputs as the next outbox
   * batch (`respond` false when one ended the call, the answer was dropped or the call is stopping).
   */
  private async recordBatch(
    done: { call: ToolCall; effect: ToolEffect; record: ToolCallRecord }[],
    dropped: boolean,
  ): Promise<void> {
    const { transcript } = this;
    const outputs: RealtimeOutput[] = [];
    let ended = false;
    for (const { call, effect, record } of done) {
      transcript.sayTool(call, effect, record);
      transcript.hearMessage({ role: 'tool', tool_call_id: call.id, content: effect.summary });
      outputs.push({ callId: call.id, output: effect.summary });
      // A hand-off ends the member's turn, not the call: the member handed to answers.
      ended ||= effect.ends && !call.name.startsWith(HANDOFF_TOOL_PREFIX);
    }
    const toolMs = Math.max(0, ...done.map((d) => d.record.durationMs ?? 0));
    const handoff =
      this.squad?.handingOff && this.record.stop === null
        ? await realtimeHandOff(this.parts, this.answered)
        : undefined;
    this.batches.push({
      outputs,
      respond: !ended && !dropped && this.record.stop === null,
      tool_ms: toolMs,
      ...(handoff ? { handoff } : {}),
    });
    if (this.listening > 0) this.heardBatches = this.batches.length;
  }

  /**
   * An answer whose calls the sideband runs itself (`sidebandKeys`, src/shared/realtime.ts
   * `sidebandRunsAnswer`): each call takes its rank of the run's keys as any other (the sideband derived
   * `keys` the same way; theirs are what the tool's server saw), then the workflow waits for their
   * `tool_results` and records them as its own `runTool` would (one tool turn each, the batch already sent
   * on the socket, `respond` as sent). Should the socket that told them end without their results (its
   * worker died between the two signals), each runs here as the `runTool` local activity with the same
   * key (the tool's server deduplicates a request the sideband made), and its batch goes out on the next
   * socket (update `realtimeOutputs`).
   */
  private async sidebandRan(
    answer: Extract<RealtimeCallEvent, { type: 'function_calls' }>,
    keys: string[],
  ): Promise<void> {
    const { tools, input } = this;
    const calls = answer.calls.map((fc, i) => {
      const ours = tools.toolCallKey(fc.id);
      if (ours !== keys[i]) log.warn('sideband tool key differs', { callId: input.callId, ours, theirs: keys[i] });
      return { call: { id: fc.id, name: fc.name, arguments: fc.arguments } as ToolCall, key: keys[i] };
    });
    await condition(() => this.sidebandResults.has(answer.responseId) || this.attachOver >= answer.attach);
    const results = this.sidebandResults.get(answer.responseId);
    this.sidebandResults.delete(answer.responseId);
    if (!results)
      log.warn('realtime sideband ended between its tool signals; running the calls here', { callId: input.callId });
    await this.recordBatch(results ? sidebandDone(calls, results) : await runHere(tools, calls), false);
  }

  /**
   * Goes on with the pipeline engine on the same call: `engine_fallback` written on the call and logged,
   * then the pipeline's turn loop (its opening said then: the caller hears the greeting once).
   */
  private async fallBack(reason: EngineFallback): Promise<'done' | 'continue'> {
    const { input, record, line } = this;
    log.warn('realtime call falls back to the pipeline engine', { callId: input.callId, reason });
    this.onRealtime = false;
    this.ended = true;
    this.tools.coldTransfersOnly = false;
    await record.transition('in_progress', { engine_fallback: reason }, []);
    // A live call's Twilio leg still dials the SIP URI: Twilio is asked for its TwiML again (the relay's now).
    if (!input.simulation && line.providerCallSid !== null) {
      try {
        await realtimeCalls.redirectToPipeline({ callId: input.callId, providerCallSid: line.providerCallSid });
      } catch (err) {
        if (isCancellation(err)) throw err;
        record.requestStop({
          status: 'failed',
          reason: 'error',
          error: `Fallback to the pipeline: ${errorMessage(err)}`,
        });
        return 'done';
      }
    }
    return await this.turns.converse();
  }
}

/**
 * Validator of update `realtimeOutputs`: only a call on the realtime engine is asked, with a whole `from` ≥ 0.
 * @throws Error otherwise (the update is refused, nothing recorded)
 */
export function validateRealtimeOutputs(engine: RealtimeEngine | null | undefined, ask: RealtimeOutputsRequest): void {
  if (!engine) throw new Error('not a call on the realtime engine');
  if (!Number.isInteger(ask?.from) || ask.from < 0) throw new Error('from must be a whole number ≥ 0');
}
