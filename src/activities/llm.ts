/**
 * The LLM activity: one Chat Completions request through the `openai` package (6.x) to OpenAI or any
 * OpenAI-compatible server (`OPENAI_BASE_URL`: vLLM, Ollama, llama.cpp, our offline demo model).
 *
 * Given the conversation's ids (`context`), it first loads what the assistant knows (src/services/assistant-context.ts:
 * the contact's name and recent records, the knowledge chunks best matching the latest user message) and
 * appends it to the system message of this request only, so the workflow history keeps ids, not texts.
 * A simulated call's answer starts the store reads of the call's next context at once (its scripted caller's
 * next line is heard then: src/services/context-prefetch.ts), so the next request finds them done.
 * It offers `search_knowledge` only when the agent has knowledge. When `schedule_callback` is offered it
 * adds the current date and time in the other party's zone (`caller`), so "tomorrow at three" can be resolved.
 *
 * Retries belong to Temporal (the client's own are off): a 4xx other than 408/409/429 is final
 * (`ApplicationFailure` type `LLM_REQUEST_REJECTED`, src/shared/assistant.ts), anything else is retried by the workflow's policy.
 *
 * Riding out a store outage and a busy machine: the context is read within
 * src/platform/store-outage.ts `STORE_WAIT_MS`, else this process's last-known copy for the conversation is
 * used; the usage rows are written behind (`writeWhenStored`) when the store does not take them in time,
 * and folded into the per-day rollups behind the answer (`recordUsage`'s `foldBehind`: the caller waits
 * for the answer, not for the rollups). A call's answer does not wait for its usage row at all
 * (`usageInResult`): the row, with its deterministic id, is returned in the result, which Temporal records
 * before anything else of the turn happens, and the call's next transcript write stores it
 * (src/activities/calls.ts `recordTurns`), behind the call's next request (src/platform/behind-turn.ts).
 * The turn's deadline (`deadlineMs`) is the model's time: its timer starts when the request is sent, so a
 * worker slow to run the activity (queued tasks, a saturated CPU) does not spend it.
 */
import OpenAI from 'openai';
import { activityInfo, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { llmRequestDuration, llmTokens } from '../platform/metrics';
import { assistantContext, type AssistantContext } from '../services/assistant-context';
import { logger } from '../logger';
import {
  LLM_REQUEST_REJECTED,
  TURN_DEADLINE_EXCEEDED,
  type AssistantContextIds,
  type ChatMessage,
  type ConversationRef,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import type { ReplyTiming } from '../shared/latency';
import { isToolName, toolFunction, type ToolName, type TransferOffer } from '../shared/tools';
import { knowledgeSearchUsage, llmRequestUsage, recordUsage, type LlmRequestRow } from '../services/usage';
import { callConversation } from '../services/calls';
import { prefetchContext, takePrefetchedContext } from '../services/context-prefetch';
import { callbackPrompt } from '../services/callbacks';
import { chatMessageParam, isRejectedRequest, openai } from '../providers/openai';
import { activityKey } from '../platform/temporal';
import { openTokenStream, readRelayStreamSession } from '../voice/relay';
import { readOrLastKnown, writeWhenStored } from '../platform/store-outage';
import { requestSent } from '../platform/behind-turn';
import { tracedChat } from '../platform/genai-tracing';

export interface GenerateReplyInput {
  callId: string;
  /** Model name; null for the configured default (`OPENAI_MODEL`). */
  model: string | null;
  /** The messages to send; with `history`, only those after the stored transcript. */
  messages: ChatMessage[];
  /** Where the earlier conversation is stored (a call): loaded and sent before `messages`. */
  history?: ConversationRef;
  /** Names of the built-in tools offered (src/shared/tools.ts `TOOLS`; their JSON schemas are derived there). */
  tools: ToolName[];
  /**
   * What `transfer_call` offers (src/shared/tools.ts `transferCallFunction`: an enum of the destinations'
   * names); absent: the default destination only.
   */
  transfer?: TransferOffer;
  /** The organization's tools offered too, as Chat Completions functions; absent: none. */
  functions?: { name: string; description: string; parameters: Record<string, unknown> }[];
  /** Who the conversation is with and which agent answers: the context is loaded from these. */
  context?: AssistantContextIds;
  /**
   * A request made without `context` for a squad call's member (the hand-off summary): the member (and its
   * agent) its usage row names and prices, as `context.squadMember` does for the member's turns.
   */
  meter?: { squadMember: string; agentId: string; agentVersion?: number };
  /**
   * A live call: stream the answer's words to the API instance holding the call's ConversationRelay as the
   * model writes them (src/voice/relay.ts), when one is registered. The result is the same.
   */
  stream?: boolean;
  /**
   * The other party's number, when `schedule_callback` is offered: the system message of this
   * request gets the current date and time in their zone (src/services/callbacks.ts `callbackPrompt`).
   */
  caller?: string;
  /**
   * The turn's deadline for this request, ms of the model's time: counted from when the request is sent
   * (not from when the activity was scheduled); past it the request is aborted and the activity fails
   * with a non-retryable `TURN_DEADLINE_EXCEEDED`. Absent: only the activity's own timeouts bound it.
   */
  deadlineMs?: number;
  /**
   * The caller stores the answer's usage row: it comes in the result (`usage`) instead of being written
   * here, and the caller hands it to a durable write of its own (a call's turn loop: the next
   * `recordTurns`, src/workflows/call-transcript.ts). A request that fails after its answer, or whose
   * attempt is already cancelled when the answer comes (its result would be dropped), writes its row
   * here as always. Absent: written here before the activity returns.
   */
  usageInResult?: boolean;
  /**
   * The caller's next request follows this answer at once (a simulated call's turn loop: its script or persona
   * speaks the next line as soon as the answer is heard): a final answer without tool calls starts reading the
   * next request's context for `callId` (src/services/context-prefetch.ts `prefetchContext`), which that
   * request takes if it comes within the prefetch's lifetime. Needs `context`. Absent: nothing is read ahead.
   */
  prefetchNextContext?: boolean;
}

export interface GenerateReplyResult {
  text: string | null;
  toolCalls: ToolCall[];
  /** The knowledge chunks put in the prompt (absent in results recorded before knowledge existed). */
  knowledge?: KnowledgeRef[];
  /** How long the model took to answer, ms from the request sent (absent in results recorded before it was measured). */
  modelMs?: number;
  /**
   * When this request was scheduled, sent, first spoke and was answered, on this worker's clock, and what
   * the voice session timed of the first audio (src/shared/latency.ts: the turn's latency record is made
   * from these); absent in results recorded before latency was measured.
   */
  timing?: ReplyTiming;
  /**
   * The usage row of this answer (`usageInResult`), not stored yet: its `_id` is the attempt's, so
   * storing it again (`recordUsage`) never counts it twice. Absent when the activity stored it (and in
   * results recorded before it existed: stored by then).
   */
  usage?: LlmRequestRow;
}

/**
 * Whose a request's usage row is: the call (`subjectId`), its owner when the input names it, and the agent
 * when it is not the call's own: a squad member answering after a hand-off (`context.agentVersion`, set by
 * src/workflows/call-tools.ts `switchAgent`); and a squad call's member (`context.squadMember`, or `meter`
 * for a request without context), whose rows carry their own cost.
 */
function usageSubject(input: GenerateReplyInput) {
  const { context } = input;
  const member =
    input.meter ??
    (context?.squadMember !== undefined
      ? { squadMember: context.squadMember, agentId: context.agentId, agentVersion: context.agentVersion }
      : undefined);
  const agent = member
    ? { id: member.agentId, ...(member.agentVersion !== undefined ? { version: member.agentVersion } : {}) }
    : context?.agentVersion !== undefined
      ? { id: context.agentId, version: context.agentVersion }
      : undefined;
  return {
    subjectId: input.callId,
    owner: context ? { orgId: context.orgId, livemode: context.livemode } : undefined,
    agent,
    ...(member ? { squadMember: member.squadMember } : {}),
  };
}

/**
 * Asks the model for the assistant's next message. With `context`, the system message carries the
 * contact's records and the knowledge found for the latest user message; if loading them fails (store
 * unavailable) the request goes ahead with the last copy this process loaded for the same conversation
 * and contact, else without them, rather than leave a caller unanswered.
 * @throws `ApplicationFailure` `TURN_DEADLINE_EXCEEDED` (non-retryable) when the model took longer than
 *   `deadlineMs`; `LLM_REQUEST_REJECTED` when the provider refused the request
 */
export async function generateReply(input: GenerateReplyInput): Promise<GenerateReplyResult> {
  let messages = input.history
    ? [...(await callConversation(input.history.callId)), ...input.messages]
    : input.messages;
  let offered = input.tools;
  let known: AssistantContext | null = null;
  if (input.context) {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    known = await turnContext(input.callId, input.context, lastUser?.content ?? '');
    if (known?.searched) {
      const row = knowledgeSearchUsage({
        ...usageOwner(input.context),
        key: `prompt:${activityKey()}`,
        subjectId: input.context.agentId,
        occurredMs: Date.now(),
      });
      await writeWhenStored(`usage ${row._id}`, () => recordUsage(row, { foldBehind: true }));
    }
    if (known && !known.hasKnowledge) offered = offered.filter((t) => t !== 'search_knowledge');
    if (known?.text) messages = withSystemText(messages, known.text);
  }
  if (input.caller && offered.includes('schedule_callback'))
    messages = withSystemText(messages, await callbackPrompt(input.caller, Date.now()));
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    ...offered
      .filter(isToolName)
      .map((t) => ({ type: 'function' as const, function: toolFunction(t, input.transfer) })),
    ...(input.functions ?? []).map((f) => ({ type: 'function' as const, function: f })),
  ];
  const model = input.model ?? config().openaiModel;
  const startTimer = llmRequestDuration.startTimer({ model });
  let timed = false;
  /** Observes the request's latency once, when its answer (or failure) arrives. */
  const timer = (labels: { outcome: 'ok' | 'rejected' | 'error' }) =>
    void (timed || ((timed = true), startTimer(labels)));
  try {
    const sent = messages.map(chatMessageParam);
    const body = { model, messages: sent, ...(tools.length ? { tools } : {}), user: input.callId };
    const relay = input.stream ? await openTokenStream(input.callId, relaySessionOrLastKnown) : null;
    // A cancelled attempt (a local activity past its timeout) stops its request at once, and so does the
    // turn's deadline, counted from now.
    const sentMs = Date.now();
    requestSent(input.callId); // the call's work behind its last answer goes on now (src/platform/behind-turn.ts)
    const deadline = input.deadlineMs !== undefined ? AbortSignal.timeout(Math.max(1, input.deadlineMs)) : null;
    const cancelled = Context.current().cancellationSignal;
    const signal = deadline ? AbortSignal.any([cancelled, deadline]) : cancelled;
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    const first: { tokenMs: number | null } = { tokenMs: null };
    const send = () =>
      relay ? streamed(body, relay, signal, first) : openai().chat.completions.create(body, { signal });
    try {
      completion = await tracedChat(model, send, { sentMs, first }); // a span `chat <model>` when tracing is on
    } catch (err) {
      if (deadline?.aborted && !cancelled.aborted) throw turnDeadlineExceeded(input.deadlineMs!);
      throw err;
    }
    const answeredMs = Date.now();
    const modelMs = answeredMs - sentMs;
    timer({ outcome: 'ok' });
    // Every answer the provider sent costs its tokens, this attempt's included if it is then retried.
    const usageRow = await llmRequestUsage({
      ...usageSubject(input),
      request: activityInfo(),
      model: completion.model,
      usage: completion.usage,
    });
    const message = completion.choices[0]?.message;
    // The caller stores the row (`usageInResult`) when this result reaches it: not when the attempt
    // fails, nor when it is already cancelled (the workflow then drops what it returns).
    const carried = usageRow && message && input.usageInResult && !cancelled.aborted ? usageRow : null;
    if (usageRow && !carried)
      await writeWhenStored(`usage ${usageRow._id}`, () => recordUsage(usageRow, { foldBehind: true }));
    if (carried) backupUsageWrite(carried);
    if (!message) throw new Error('the model returned no choice');
    const toolCalls: ToolCall[] = (message.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    const text = message.content?.trim() || null;
    if (input.context && input.prefetchNextContext && toolCalls.length === 0 && !cancelled.aborted)
      prefetchContext(input.callId, input.context); // the next line is heard now
    const firstAudioMs = relay?.firstAudioMs() ?? null;
    const timing: ReplyTiming = {
      scheduledMs: activityInfo().scheduledTimestampMs,
      sentMs,
      firstTokenMs: text === null ? null : (first.tokenMs ?? answeredMs),
      answeredMs,
      ...(firstAudioMs !== null ? { firstAudioMs } : {}),
    };
    if (completion.usage) {
      llmTokens.inc({ model, type: 'prompt' }, completion.usage.prompt_tokens);
      llmTokens.inc({ model, type: 'completion' }, completion.usage.completion_tokens);
    }
    return {
      text,
      toolCalls,
      knowledge: known?.knowledge ?? [],
      modelMs,
      timing,
      ...(carried ? { usage: carried } : {}),
    };
  } catch (err) {
    if (isRejectedRequest(err)) {
      timer({ outcome: 'rejected' });
      throw ApplicationFailure.nonRetryable(
        `LLM request rejected (${err.status}): ${err.message}`,
        LLM_REQUEST_REJECTED,
      );
    }
    timer({ outcome: 'error' });
    throw err;
  }
}

/**
 * What the assistant knows on this turn (src/services/assistant-context.ts) for the latest user message
 * `query`: read within `STORE_WAIT_MS`, else this process's last copy for the conversation, else null (a
 * warning logged). The store reads a simulated call's last answer started are used when they are there
 * (src/services/context-prefetch.ts: its caller's line was heard then).
 */
async function turnContext(callId: string, ids: AssistantContextIds, query: string): Promise<AssistantContext | null> {
  try {
    const key = `context:${callId}:${ids.orgId}:${ids.livemode}:${ids.agentId}:${ids.contactId ?? ''}`;
    const prefetched = takePrefetchedContext(callId, ids);
    const read = async () =>
      assistantContext({ ...ids, query }, (await prefetched?.catch(() => undefined)) ?? undefined);
    return (await readOrLastKnown(key, read))?.value ?? null;
  } catch (err) {
    logger.warn('assistant context unavailable; answering without it', {
      conversation: callId,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/** The failure of a request the model did not answer within the turn's deadline (`deadlineMs`). */
const turnDeadlineExceeded = (deadlineMs: number) =>
  ApplicationFailure.nonRetryable(
    `The assistant did not answer within ${Math.round(deadlineMs / 1000)} s.`,
    TURN_DEADLINE_EXCEEDED,
  );

/**
 * The completion, streamed (`stream: true`, usage included): every piece of text goes to `relay` as it
 * arrives; resolves once the answer is complete and the relay has taken every piece. `signal` (the
 * attempt cancelled, or the turn's deadline passed) stops the request, so its words stop too.
 * `first.tokenMs` gets when the first piece of text came (ms since the epoch).
 */
async function streamed(
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  relay: NonNullable<Awaited<ReturnType<typeof openTokenStream>>>,
  signal: AbortSignal,
  first: { tokenMs: number | null },
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const stream = openai().chat.completions.stream(
    { ...body, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  stream.on('content', (delta) => {
    if (delta && first.tokenMs === null && delta.trim()) first.tokenMs = Date.now();
    if (delta && !signal.aborted) relay.write(delta);
  });
  try {
    return await stream.finalChatCompletion();
  } finally {
    await relay.end();
  }
}

/** The call's relay session within `STORE_WAIT_MS`, else the last one this process read (a store outage). */
const relaySessionOrLastKnown = async (callId: string) =>
  (await readOrLastKnown(`relay:${callId}`, () => readRelayStreamSession(callId)))?.value ?? null;

const usageOwner = (ids: AssistantContextIds) => ({ orgId: ids.orgId, livemode: ids.livemode });

/** How long after the answer the LLM activity's process writes a carried usage row itself (ms). */
const BACKUP_USAGE_WRITE_MS = 5_000;

/**
 * A second write of a carried usage row, in this process, `BACKUP_USAGE_WRITE_MS` after the answer: a
 * result that Temporal drops after this attempt returned (a cancel, a hang-up racing the answer, that
 * reaches the worker's core before it took the result) would take the row with it, and the tokens were
 * spent. By then the call's next `recordTurns` has normally stored the row, so this write finds it (the
 * same row id: `recordUsage` stores and folds it once); late, so it costs nothing beside the next turn. A
 * crash that loses this write leaves the recorded result, whose row the call's next `recordTurns` stores.
 */
function backupUsageWrite(row: LlmRequestRow): void {
  const timer = setTimeout(() => {
    writeWhenStored(`usage ${row._id}`, () => recordUsage(row, { foldBehind: true })).catch((err: unknown) =>
      logger.error('usage row write behind the answer failed', {
        usage_id: row._id,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  }, BACKUP_USAGE_WRITE_MS);
  timer.unref?.();
}

/** The messages with `text` appended to the system message (one is put first if there is none). */
function withSystemText(messages: ChatMessage[], text: string): ChatMessage[] {
  const i = messages.findIndex((m) => m.role === 'system');
  if (i < 0) return [{ role: 'system', content: text }, ...messages];
  return messages.map((m, j) =>
    j === i ? { role: 'system' as const, content: `${m.content as string}\n\n${text}` } : m,
  );
}
