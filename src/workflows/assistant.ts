/**
 * The assistant's turn, shared by every channel (calls today; `conversationWorkflow` and the widget
 * reuse it): the system prompt, the LLM request (the `generateReply` activity, Chat Completions through
 * the `openai` package: src/activities/llm.ts) and the tool rounds. A channel hands the turn its tools
 * (src/workflows/tools.ts `channelTools`: the effects of the tools src/shared/tools.ts lists for it), so the
 * model is offered exactly what the channel can do.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  TimeoutFailure,
} from '@temporalio/workflow';
import type * as llm from '../activities/llm';
import {
  TURN_DEADLINE_EXCEEDED,
  type AssistantContextIds,
  type ChatMessage,
  type ConversationRef,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import type {
  CustomTool,
  ToolCallOutcomeKind,
  ToolCallOutcomeReason,
  ToolCallRecord,
  TransferOffer,
} from '../shared/tools';
import type { ToolMocks } from '../shared/tool-mocks';
import { LLM_ACTIVITY, LOCAL_LLM_ACTIVITY } from './retry';
import { isMocked, mockedTool } from './tool-mocks';
import { applyTool, runCustomTool, type CustomToolSet, type ToolEffect, type ToolHandlers } from './tools';

/**
 * The LLM: 30 s per try, 3 tries; a request the provider refused (4xx) is not retried. A turn that
 * cannot be answered fails its caller (a call then ends `failed`, `error`).
 */
const remoteLlm = proxyActivities<typeof llm>(LLM_ACTIVITY);

/**
 * The LLM as a local activity (a channel's choice, `AssistantTurnInput.local`): the same timeouts and
 * retries, run by the worker inside the workflow task, so a turn costs no round trip through the server
 * (the request's result is recorded as a marker when the task completes). Retries back off locally up to
 * `localRetryThreshold`, beyond which they wait on a server timer.
 */
const localLlm = proxyLocalActivities<typeof llm>(LOCAL_LLM_ACTIVITY);

/** Tool rounds the assistant may take in one turn before it must speak. */
export const MAX_TOOL_ROUNDS = 3;

/** What the turn produced, reported as it happens so the channel can record or speak it. */
export interface TurnObserver {
  /**
   * The assistant said `text` (one per LLM answer that had text); `knowledge` lists the chunks its
   * prompt carried.
   */
  onText(text: string, knowledge: KnowledgeRef[]): void;
  /**
   * The assistant called a tool; `effect` is what the handler did, `record` the call's key, outcome and
   * duration (the transcript entry). Reported in the model's order once every call of the round is done.
   */
  onTool(call: ToolCall, effect: ToolEffect, record: ToolCallRecord): void;
  /** Every model answer of the turn, before its text and tools are reported (a channel's latency meter reads its timing). */
  onReply?(reply: llm.GenerateReplyResult): void;
}

/** When the assistant is late: `slowMs` after the request the channel is told (`onSlow`); at `giveUpMs` the turn fails. */
export interface TurnDeadline {
  slowMs: number;
  /** Absent: wait for the LLM activity's own retries to end. */
  giveUpMs?: number;
  /** Called once per turn when `slowMs` passes without an answer (a live call says the holding line). */
  onSlow?: () => void;
}

/**
 * A channel's verdict on one tool call of an answer before it runs (src/workflows/call-heard.ts): run it,
 * or not (`dropped` for good, `held` for a confirmation), with what the model is told instead of a result.
 */
export type ActionVerdict =
  | { run: true }
  | { run: false; outcome: Exclude<ToolCallOutcomeKind, 'confirmed'>; reason: ToolCallOutcomeReason; summary: string };

/** Inputs of one assistant turn. */
export interface AssistantTurnInput {
  /** The id the LLM request is made for (the call id): the provider's `user`, and log correlation. */
  conversationId: string;
  /** Model name; null for the configured default (`OPENAI_MODEL`). */
  model: string | null;
  /**
   * The conversation so far, system prompt first — or, with `history`, only the messages since the
   * stored transcript (the activity loads the rest). The turn appends the assistant's and tools' messages.
   */
  messages: ChatMessage[];
  /** Where the earlier conversation is stored; absent: `messages` is the whole conversation. */
  history?: ConversationRef;
  tools: ToolHandlers;
  /**
   * The organization's tools offered besides `tools` (src/workflows/tools.ts `runCustomTool`);
   * absent or empty: none.
   */
  custom?: CustomToolSet;
  /**
   * Functions the workflow answers itself (a squad's hand-offs, src/workflows/call-squad.ts), offered
   * besides `custom`; `handle` gives a call's effect at once (no activity). Absent: none.
   */
  own?: {
    functions: { name: string; description: string; parameters: Record<string, unknown> }[];
    handle(call: ToolCall): ToolEffect;
  };
  /**
   * The key of each tool call (src/workflows/tools.ts `toolCallKeys`, one per run): the `Idempotency-Key`
   * of the organization's tools' requests and every transcript entry's `tool_call_id`; absent: the model's id.
   */
  toolCallKey?: (modelId: string) => string;
  /**
   * A call whose tools are mocked (src/workflows/tool-mocks.ts): its recorded results; absent: tools run.
   */
  mocks?: ToolMocks;
  observer: TurnObserver;
  /**
   * Who the conversation is with and which agent answers: the LLM activity loads the contact's records and
   * the knowledge for the latest user message from these ids. Absent: the prompt is sent as it is.
   */
  context?: AssistantContextIds;
  deadline?: TurnDeadline;
  /** The other party's turn number (1 = their first line), shown in the Web UI; default: counted in `messages`. */
  turn?: number;
  /**
   * Ask the LLM through a local activity (no server round trip per request). The deadline (`giveUpMs`,
   * else `slowMs`) is then the model's time, counted by the activity from the request sent (`askLocally`):
   * workflow timers do not start while a workflow task waits on a local activity, so `onSlow` is called
   * only once the answer came late, and a channel that must fill a silence meanwhile does it itself.
   * Default false (a channel's recorded histories decide; changing it needs a `patched` id).
   */
  local?: boolean;
  /** Stream the answer's words to the live call's relay as the model writes them (the LLM activity's `stream`). */
  stream?: boolean;
  /**
   * The channel stores each answer's usage row (the LLM activity's `usageInResult`): it comes in the
   * reply given to `observer.onReply` (`usage`), which must then hand it to a durable write (a call: its
   * next transcript write). Absent: the LLM activity stores it before it returns.
   */
  usageInResult?: boolean;
  /**
   * The next line is heard as soon as this answer is (a simulated call's script or persona): the LLM activity's
   * `prefetchNextContext`, which starts reading the next request's context when a final answer comes.
   * Absent: each request reads its context when it is made.
   */
  prefetchNextContext?: boolean;
  /**
   * The other party's number, given when `schedule_callback` is offered: the LLM activity's `caller` (the
   * request's system message then tells the current date and time in their zone). Absent otherwise.
   */
  caller?: string;
  /**
   * What `transfer_call` offers on this call (its destinations' names, src/shared/tools.ts
   * `TransferOffer`): the LLM activity's `transfer`. Absent: the default destination only.
   */
  transfer?: TransferOffer;
  /**
   * Asked, before an answer's tool calls run, which of them run (one verdict per call, in order; the
   * answer's text given too): a call the channel drops or holds does not run, is reported with its
   * outcome, and the model is told why. When a call is dropped because the caller interrupted, the turn
   * ends there (the caller is talking). Absent: every call runs (calls made before it existed).
   */
  actions?: (calls: ToolCall[], text: string | null) => ActionVerdict[] | Promise<ActionVerdict[]>;
}

/**
 * Runs one assistant turn after the other party spoke: asks the model, applies the tools it calls (the
 * calls of one answer run in parallel; their results go back in the model's order), and asks again (at
 * most `MAX_TOOL_ROUNDS` requests) until it answers without a tool or a tool ends the conversation.
 * Appends every message to `input.messages`. The deadline runs per request to the model: time spent in
 * tools (each within its own `timeoutMs`) does not count against it.
 * @returns `ended`: a tool ended the conversation
 * @throws the LLM activity's failure once its retries are spent; an `ApplicationFailure` of type
 *   `TURN_DEADLINE_EXCEEDED` when `deadline.giveUpMs` passes (the request is cancelled)
 */
export async function assistantTurn(input: AssistantTurnInput): Promise<{ ended: boolean }> {
  const offered = Object.keys(input.tools) as (keyof ToolHandlers)[];
  // The LLM activity's summary in the Web UI (Temporal user metadata): which turn of the conversation.
  const turn = input.turn ?? input.messages.filter((m) => m.role === 'user').length;
  const custom = input.custom?.tools ?? [];
  const functions = [
    ...custom.map(({ name, description, parameters }) => ({ name, description, parameters })),
    ...(input.own?.functions ?? []),
  ];
  let startedMs = Date.now();
  let slowTold = false;
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    const summary = `LLM turn ${turn}${round > 0 ? ` (tool round ${round + 1})` : ''}`;
    const request = {
      callId: input.conversationId,
      model: input.model,
      messages: input.messages,
      tools: offered,
      ...(functions.length ? { functions } : {}),
      ...(input.history ? { history: input.history } : {}),
      ...(input.context ? { context: input.context } : {}),
      ...(input.stream ? { stream: true } : {}),
      ...(input.usageInResult ? { usageInResult: true } : {}),
      ...(input.prefetchNextContext ? { prefetchNextContext: true } : {}),
      ...(input.caller ? { caller: input.caller } : {}),
      ...(input.transfer ? { transfer: input.transfer } : {}),
    };
    const tellSlow = () => {
      if (slowTold) return;
      slowTold = true;
      input.deadline?.onSlow?.();
    };
    const reply = input.local
      ? await askLocally(summary, request, input.deadline, startedMs, tellSlow)
      : input.deadline
        ? await withDeadline(
            () => remoteLlm.generateReply.executeWithOptions({ summary }, [request]),
            input.deadline,
            startedMs,
            tellSlow,
          )
        : await remoteLlm.generateReply.executeWithOptions({ summary }, [request]);
    input.observer.onReply?.(reply);
    if (reply.text) input.observer.onText(reply.text, reply.knowledge ?? []);
    input.messages.push({
      role: 'assistant',
      content: reply.text,
      tool_calls: reply.toolCalls.length ? reply.toolCalls : undefined,
    });
    if (reply.toolCalls.length === 0) return { ended: false };
    let ended = false;
    const verdicts = input.actions ? await input.actions(reply.toolCalls, reply.text) : null;
    const done = await Promise.all(
      reply.toolCalls.map((call, i) => {
        const verdict = verdicts?.[i];
        return verdict && !verdict.run ? notRun(input, call, verdict) : callTool(input, custom, call);
      }),
    );
    reply.toolCalls.forEach((call, i) => {
      const { effect, record } = done[i];
      input.observer.onTool(call, effect, record);
      input.messages.push({ role: 'tool', tool_call_id: call.id, content: effect.summary });
      ended ||= effect.ends;
    });
    if (ended) return { ended: true };
    if (verdicts?.some((v) => !v.run && v.reason === 'interrupted')) return { ended: false };
    startedMs = Date.now(); // the next request's deadline starts now, after the tools
  }
  return { ended: false };
}

/**
 * A tool call the channel did not let run (`ActionVerdict`): its key taken as a run call's would be, the
 * model told `verdict.summary`, the entry marked with the outcome and reason.
 */
async function notRun(
  input: AssistantTurnInput,
  call: ToolCall,
  verdict: Extract<ActionVerdict, { run: false }>,
): Promise<{ effect: ToolEffect; record: ToolCallRecord }> {
  const key = input.toolCallKey ? input.toolCallKey(call.id) : call.id;
  return {
    effect: { summary: verdict.summary, ends: false },
    record: {
      toolCallId: key,
      ok: verdict.outcome === 'held',
      status: null,
      durationMs: 0,
      outcome: verdict.outcome,
      reason: verdict.reason,
    },
  };
}

/**
 * One tool call of the model's: one of the organization's tools (`runCustomTool`), else a built-in one
 * (`applyTool`), timed. Its key is `input.toolCallKey`'s, or the model's id when the channel has none.
 */
async function callTool(
  input: AssistantTurnInput,
  custom: CustomTool[],
  call: ToolCall,
): Promise<{ effect: ToolEffect; record: ToolCallRecord }> {
  const key = input.toolCallKey ? input.toolCallKey(call.id) : call.id;
  const tool = custom.find((t) => t.name === call.name);
  if (input.mocks && isMocked(call.name, Boolean(tool)))
    return mockedTool(input.mocks, input.conversationId, call, key, tool?.description ?? null);
  if (tool && input.custom) return runCustomTool(input.custom, tool, call, key);
  const startedMs = Date.now();
  const own = input.own?.functions.some((f) => f.name === call.name) ? input.own : null;
  const effect = own ? own.handle(call) : await applyTool(input.tools, call, key);
  return {
    effect,
    record: {
      toolCallId: key,
      ok: !effect.summary.startsWith('Error:'),
      status: null,
      durationMs: Date.now() - startedMs,
    },
  };
}

/**
 * How long a local LLM request may take beyond the turn's deadline before it is given up: the machine's
 * share (the task waiting for a worker slot or a CPU, the context read, at most src/platform/store-outage.ts
 * `STORE_WAIT_MS`), which the deadline itself does not count.
 */
const MACHINE_SLACK_MS = 60_000;

/**
 * Asks the LLM through the local activity with what is left of the turn's deadline (`giveUpMs`, else
 * `slowMs`) as the request's `deadlineMs`: the model's time, counted by the activity from when it sends
 * the request, whose expiry fails the turn with `TURN_DEADLINE_EXCEEDED`. The local activity's
 * schedule-to-close timeout is that plus `MACHINE_SLACK_MS` (a backstop, for a worker that cannot run it).
 * No workflow code runs while the task waits on the local activity, so `onSlow` is called only once the
 * answer (or the deadline) is known, when the model took longer than `slowMs`: the channel records what a
 * live caller heard meanwhile (the relay says the holding line on its own).
 */
async function askLocally(
  summary: string,
  request: llm.GenerateReplyInput,
  deadline: TurnDeadline | undefined,
  startedMs: number,
  onSlow: () => void,
): Promise<llm.GenerateReplyResult> {
  const boundMs = deadline ? (deadline.giveUpMs ?? deadline.slowMs) : undefined;
  const leftMs = boundMs === undefined ? undefined : Math.max(1, startedMs + boundMs - Date.now());
  try {
    const reply = await localLlm.generateReply.executeWithOptions(
      { summary, ...(leftMs !== undefined ? { scheduleToCloseTimeout: leftMs + MACHINE_SLACK_MS } : {}) },
      [{ ...request, ...(leftMs !== undefined ? { deadlineMs: leftMs } : {}) }],
    );
    if (deadline && reply.modelMs !== undefined && reply.modelMs > deadline.slowMs) onSlow();
    return reply;
  } catch (err) {
    if (deadline) {
      // A local activity's own failure comes unwrapped; its timeout, inside an ActivityFailure.
      const cause = err instanceof ActivityFailure ? err.cause : err;
      if (cause instanceof ApplicationFailure && cause.type === TURN_DEADLINE_EXCEEDED) {
        if ((deadline.giveUpMs ?? deadline.slowMs) > deadline.slowMs) onSlow();
        throw deadlineExceeded(deadline);
      }
      if (err instanceof ActivityFailure && cause instanceof TimeoutFailure) throw deadlineExceeded(deadline);
    }
    throw err;
  }
}

const deadlineExceeded = (deadline: TurnDeadline) =>
  ApplicationFailure.create({
    message: `The assistant did not answer within ${Math.round((deadline.giveUpMs ?? deadline.slowMs) / 1000)} s.`,
    type: TURN_DEADLINE_EXCEEDED,
    nonRetryable: true,
  });

/**
 * Awaits `request()` (an activity) with the turn's deadline: `onSlow` once `slowMs` after `startedMs`
 * passes, and the request cancelled and `TURN_DEADLINE_EXCEEDED` thrown once `giveUpMs` passes. The
 * waits are workflow timers (`condition` with a timeout), cancelled as soon as the answer comes.
 */
async function withDeadline<T>(
  request: () => Promise<T>,
  deadline: TurnDeadline,
  startedMs: number,
  onSlow: () => void,
): Promise<T> {
  const scope = new CancellationScope();
  let settled = false;
  const pending = scope.run(request).finally(() => (settled = true));
  pending.catch(() => undefined); // observed below; never an unhandled rejection
  const slowLeft = startedMs + deadline.slowMs - Date.now();
  if (slowLeft > 0 && !(await condition(() => settled, slowLeft))) onSlow();
  else if (slowLeft <= 0 && !settled) onSlow();
  if (deadline.giveUpMs !== undefined && !settled) {
    const left = startedMs + deadline.giveUpMs - Date.now();
    if (left <= 0 || !(await condition(() => settled, left))) {
      scope.cancel();
      try {
        await pending;
      } catch (err) {
        if (!isCancellation(err)) throw err;
      }
      throw deadlineExceeded(deadline);
    }
  }
  return await pending;
}
