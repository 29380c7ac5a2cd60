/**
 * `RealtimeEngine`: the conversation of a call whose agent version has `engine: "realtime"` (OpenAI's
 * Realtime API over SIP, src/shared/realtime.ts), for one run of `callWorkflow`. Only such calls reach it
 * (`CallSession.talk`); every other call's history is what it was.
 *
 * - The SIP leg: a live call's Twilio leg dials the project's SIP URI with our call id header (the TwiML
 *   of src/api/twilio/index.ts); a test-mode call rings a simulated one (`ringRealtimeSimulation`). OpenAI
 *   announces it by webhook, which the API turns into the `realtimeIncoming` signal (src/api/openai-webhooks.ts).
 * - The accept (`acceptRealtimeCall`): the agent's instructions with the call's context, its voice and its
 *   tools, the very tools a pipeline call offers (`CallTools`).
 * - The session: a long-running, heartbeating activity holds the sideband socket (`attendRealtimeCall`,
 *   src/voice/realtime-session.ts) and signals what happens (`realtimeEvent`): the caller's and the
 *   model's transcripts become transcript turns; each function call runs as the same durable tool activity
 *   as on the pipeline (same key, same transcript entry), and its output goes back through the query
 *   `realtimeOutbox`. A tool that ends the call (`end_call`) hangs the leg up (`hangUpRealtimeCall`).
 * - Fallback: when accepting fails, the session errors before the model's first answer, OpenAI never
 *   announces the leg, or a test-mode call has no simulated leg to ring, the call goes on with the
 *   pipeline engine (`TurnLoop.converse`) on the same call, `engine_fallback` written on it and logged.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import { CancellationScope, condition, isCancellation, log, proxyActivities, sleep } from '@temporalio/workflow';
import type * as realtimeActivities from '../activities/realtime';
import type { ToolCall } from '../shared/assistant';
import type { CallWorkflowInput } from '../shared/calls';
import type { RecordedLatency, TurnLatency } from '../shared/latency';
import { spokenOpening } from '../shared/recording-consent';
import type {
  EngineFallback,
  RealtimeCallEvent,
  RealtimeFunctionCall,
  RealtimeIncoming,
  RealtimeOutbox,
  RealtimeOutput,
} from '../shared/realtime';
import type { CallLine } from './call-line';
import type { CallRecord } from './call-record';
import type { CallTools } from './call-tools';
import type { CallTranscript } from './call-transcript';
import type { TurnLoop } from './call-turns';
import { errorMessage } from './retry';
import { applyTool, runCustomTool, type ToolEffect } from './tools';

/** Ringing the simulated leg, hanging up, redirecting a live call: 10 s per try, 3 tries. */
const realtimeCalls = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['RealtimeRedirectRefused'],
  },
});

/**
 * The accept: the caller is ringing meanwhile, so 2 tries 500 ms apart, then the pipeline takes the call;
 * a refusal (4xx) is not retried.
 */
const realtimeAccept = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 2, nonRetryableErrorTypes: ['RealtimeAcceptRefused'] },
});

/** How long OpenAI may take to announce the SIP leg once it is dialed (ms). */
const INCOMING_TIMEOUT_MS = 30_000;
/** A live call's goodbye: how long the model may speak before its `end_call` hangs the leg up (ms). */
const GOODBYE_MS = 3_000;

/** A realtime call's conversation: the SIP leg, the session's events, the function calls' outputs. */
export class RealtimeEngine {
  /** OpenAI's id of the call's SIP leg, once the webhook announced it; the first one counts. */
  private openaiCallId: string | null = null;
  /** Events of the session not handled yet, and the last `seq` taken (a repeated one is ignored). */
  private readonly events: RealtimeCallEvent[] = [];
  private lastSeq = 0;
  /** One batch of outputs per `function_calls` event handled (query `realtimeOutbox`). */
  private readonly batches: RealtimeOutbox['batches'] = [];
  /** The model has answered once (an error from then on no longer falls back). */
  private answered = false;
  /** The session's socket closed (OpenAI's side of the call is over). */
  private closed = false;

  /**
   * @param input the run's input (its agent has `engine: "realtime"`)
   * @param record the call's stop: a tool's, the API's, the caller's hang-up
   * @param transcript where the turns are said and recorded
   * @param tools the call's tools (the pipeline's)
   * @param turns the pipeline's turn loop, which a fallback hands the call to
   * @param line the phone line: a live call's Twilio call, redirected on a fallback
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly tools: CallTools,
    private readonly turns: TurnLoop,
    private readonly line: CallLine,
  ) {}

  /** Signal `realtimeIncoming`: the webhook found this call; a second leg is ignored. */
  onIncoming({ openaiCallId }: RealtimeIncoming): void {
    this.openaiCallId ??= openaiCallId;
  }

  /** Signal `realtimeEvent`: queued for the conversation, once per `seq`. */
  onEvent(event: RealtimeCallEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.events.push(event);
  }

  /** Query `realtimeOutbox`: the function outputs so far, one batch per answered `function_calls`. */
  outbox(): RealtimeOutbox {
    return { batches: this.batches };
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
      });
      if (!rung) return 'no_simulator';
    }
    await condition(() => this.openaiCallId !== null || record.stop !== null, INCOMING_TIMEOUT_MS);
    if (record.stop !== null) return null;
    if (this.openaiCallId === null) return 'no_webhook';
    await record.transition('in_progress', { realtime_call_id: this.openaiCallId }, []);
    try {
      const custom = await this.tools.customToolSet(() => false);
      const system = this.transcript.messages.find((m) => m.role === 'system');
      await realtimeAccept.acceptRealtimeCall.executeWithOptions({ summary: `accept ${this.openaiCallId}` }, [
        {
          callId: input.callId,
          openaiCallId: this.openaiCallId,
          instructions: system?.content ?? input.agent.instructions,
          context: this.tools.context,
          speech: input.agent,
          tools: Object.keys(this.tools.handlers),
          ...(custom
            ? {
                functions: custom.tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
              }
            : {}),
          ...this.tools.transferOffer(),
        },
      ]);
      return null;
    } catch (err) {
      if (isCancellation(err)) throw err;
      log.warn('realtime accept failed', { callId: input.callId, error: errorMessage(err) });
      return 'accept_failed';
    }
  }

  /**
   * Attends the session: the sideband activity in a scope of its own, the session's events handled in
   * order, until the call stops or the socket closes; then the leg is hung up (unless OpenAI's side is
   * over) and the activity cancelled.
   * @returns `session_error` when the session failed before the model's first answer
   */
  private async attend(): Promise<'done' | 'session_error'> {
    const { input, record, transcript } = this;
    const openaiCallId = this.openaiCallId!;
    const scope = new CancellationScope();
    let over = false;
    let failure: string | null = null;
    const attending = scope
      .run(() =>
        sideband(input).attendRealtimeCall.executeWithOptions({ summary: `realtime session ${openaiCallId}` }, [
          { callId: input.callId, openaiCallId, greeting: realtimeGreeting(input) },
        ]),
      )
      .catch((err) => {
        if (!isCancellation(err)) failure = errorMessage(err);
      })
      .finally(() => (over = true));
    let outcome: 'done' | 'session_error' = 'done';
    while (outcome === 'done') {
      await condition(() => this.events.length > 0 || record.stop !== null || over);
      while (this.events.length > 0 && outcome === 'done') outcome = await this.handle(this.events.shift()!);
      await transcript.flushTurns(true);
      if (record.stop !== null || (over && this.events.length === 0)) break;
    }
    if (outcome === 'done' && failure !== null && !this.answered) outcome = 'session_error';
    if (!this.closed) {
      if (record.stop?.reason === 'assistant_ended' && !input.simulation) await sleep(GOODBYE_MS);
      await realtimeCalls.hangUpRealtimeCall({ callId: input.callId, openaiCallId }).catch(() => undefined);
    }
    scope.cancel();
    await attending;
    if (outcome === 'done' && record.stop === null && failure !== null)
      record.requestStop({ status: 'failed', reason: 'error', error: `Realtime session: ${failure}` });
    return outcome;
  }

  /** One event of the session: a turn, the function calls of an answer, an error, the close. */
  private async handle(event: RealtimeCallEvent): Promise<'done' | 'session_error'> {
    const { transcript } = this;
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
        await this.runFunctionCalls(event.calls);
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
   * An answer's function calls, in parallel, each the same durable tool activity a pipeline call runs
   * (the organization's tools by `runCustomTool`, the built-in ones by `applyTool`, keyed by
   * `CallTools.toolCallKey`), recorded as tool turns in the model's order; their outputs make the next
   * outbox batch, with `respond` false when one ended the call.
   */
  private async runFunctionCalls(calls: RealtimeFunctionCall[]): Promise<void> {
    const { tools, transcript } = this;
    const custom = await tools.customToolSet(() => false);
    const done = await Promise.all(
      calls.map(async (fc) => {
        const call: ToolCall = { id: fc.id, name: fc.name, arguments: fc.arguments };
        const key = tools.toolCallKey(call.id);
        const tool = custom?.tools.find((t) => t.name === call.name);
        if (tool && custom) return { call, ...(await runCustomTool(custom, tool, call, key)) };
        const startedMs = Date.now();
        const effect: ToolEffect = await applyTool(tools.handlers, call, key);
        const record = {
          toolCallId: key,
          ok: !effect.summary.startsWith('Error:'),
          status: null,
          durationMs: Date.now() - startedMs,
        };
        return { call, effect, record };
      }),
    );
    const outputs: RealtimeOutput[] = [];
    let ended = false;
    for (const { call, effect, record } of done) {
      transcript.sayTool(call, effect, record);
      transcript.hearMessage({ role: 'tool', tool_call_id: call.id, content: effect.summary });
      outputs.push({ callId: call.id, output: effect.summary });
      ended ||= effect.ends;
    }
    const toolMs = Math.max(0, ...done.map((d) => d.record.durationMs ?? 0));
    this.batches.push({ outputs, respond: !ended && this.record.stop === null, tool_ms: toolMs });
  }

  /**
   * Goes on with the pipeline engine on the same call: `engine_fallback` written on the call and logged,
   * then the pipeline's turn loop (its opening said then: the caller hears the greeting once).
   */
  private async fallBack(reason: EngineFallback): Promise<'done' | 'continue'> {
    const { input, record, line } = this;
    log.warn('realtime call falls back to the pipeline engine', { callId: input.callId, reason });
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

/** A realtime answer's latency record as the turn keeps it (engine `realtime`); undefined when none came. */
function realtimeLatency(latency: TurnLatency | undefined): RecordedLatency | undefined {
  return latency ? { ...latency, engine: 'realtime' } : undefined;
}

/**
 * What the model says first (src/shared/recording-consent.ts `spokenOpening`: the AI disclosure, the
 * recording notice, the agent's first message), as a browser room's greeting; null when nothing.
 */
function realtimeGreeting(input: CallWorkflowInput): string | null {
  return spokenOpening({
    aiDisclosure: input.ai_disclosure,
    recordingConsent: input.recording_consent,
    notice: input.recording?.notice,
    firstMessage: input.agent.first_message,
  });
}

/**
 * The sideband activity: as long as the call may last, heartbeats every second (a worker that dies is
 * noticed within 10 s); not retried yet (re-attaching a dropped socket is for later: the call ends `error`).
 */
const sideband = (input: CallWorkflowInput) =>
  proxyActivities<typeof realtimeActivities>({
    startToCloseTimeout: `${input.max_duration_seconds + 300} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: { maximumAttempts: 1 },
  });
