/**
 * The LLM activity: one Chat Completions request through the `openai` package (6.x) to OpenAI or any
 * OpenAI-compatible server (`OPENAI_BASE_URL`: vLLM, Ollama, llama.cpp, our offline demo model).
 *
 * Given the conversation's ids (`context`), it first loads what the assistant knows (src/services/assistant-context.ts:
 * the contact's name and recent records, the knowledge chunks best matching the latest user message) and
 * appends it to the system message of this request only, so the workflow history keeps ids, not texts.
 * It offers `search_knowledge` only when the agent has knowledge. When `schedule_callback` is offered it
 * adds the current date and time in the other party's zone (`caller`), so "tomorrow at three" can be resolved.
 *
 * Retries belong to Temporal (the client's own are off): a 4xx other than 408/409/429 is final
 * (`ApplicationFailure` type `LLM_REQUEST_REJECTED`, src/shared/assistant.ts), anything else is retried by the workflow's policy.
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
  type AssistantContextIds,
  type ChatMessage,
  type ConversationRef,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import { isToolName, toolFunction, type ToolName } from '../shared/tools';
import { knowledgeSearchUsage, llmRequestUsage, recordUsage } from '../services/usage';
import { callConversation } from '../services/calls';
import { callbackPrompt } from '../services/callbacks';
import { openai } from '../providers/openai';
import { activityKey } from '../platform/temporal';
import { openTokenStream } from '../voice/relay';

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
  /** The organization's tools offered too (issue 27), as Chat Completions functions; absent: none. */
  functions?: { name: string; description: string; parameters: Record<string, unknown> }[];
  /** Who the conversation is with and which agent answers: the context is loaded from these. */
  context?: AssistantContextIds;
  /**
   * A live call: stream the answer's words to the API instance holding the call's ConversationRelay as the
   * model writes them (src/voice/relay.ts), when one is registered. The result is the same.
   */
  stream?: boolean;
  /**
   * The other party's number, when `schedule_callback` is offered (issue 29): the system message of this
   * request gets the current date and time in their zone (src/services/callbacks.ts `callbackPrompt`).
   */
  caller?: string;
}

export interface GenerateReplyResult {
  text: string | null;
  toolCalls: ToolCall[];
  /** The knowledge chunks put in the prompt (absent in results recorded before knowledge existed). */
  knowledge?: KnowledgeRef[];
}

/**
 * Asks the model for the assistant's next message. With `context`, the system message carries the
 * contact's records and the knowledge found for the latest user message; if loading them fails (store
 * unavailable) the request goes ahead without them rather than leave a caller unanswered.
 */
export async function generateReply(input: GenerateReplyInput): Promise<GenerateReplyResult> {
  let messages = input.history
    ? [...(await callConversation(input.history.callId)), ...input.messages]
    : input.messages;
  let offered = input.tools;
  let known: AssistantContext | null = null;
  if (input.context) {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    try {
      known = await assistantContext({ ...input.context, query: lastUser?.content ?? '' });
    } catch (err) {
      logger.warn('assistant context unavailable; answering without it', {
        conversation: input.callId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
    if (known?.searched)
      await recordUsage(
        knowledgeSearchUsage({
          ...usageOwner(input.context),
          key: `prompt:${activityKey()}`,
          subjectId: input.context.agentId,
          occurredMs: Date.now(),
        }),
      );
    if (known && !known.hasKnowledge) offered = offered.filter((t) => t !== 'search_knowledge');
    if (known?.text) messages = withSystemText(messages, known.text);
  }
  if (input.caller && offered.includes('schedule_callback'))
    messages = withSystemText(messages, await callbackPrompt(input.caller, Date.now()));
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    ...offered.filter(isToolName).map((t) => ({ type: 'function' as const, function: toolFunction(t) })),
    ...(input.functions ?? []).map((f) => ({ type: 'function' as const, function: f })),
  ];
  const model = input.model ?? config().openaiModel;
  const startTimer = llmRequestDuration.startTimer({ model });
  let timed = false;
  /** Observes the request's latency once, when its answer (or failure) arrives. */
  const timer = (labels: { outcome: 'ok' | 'rejected' | 'error' }) =>
    void (timed || ((timed = true), startTimer(labels)));
  try {
    const body = { model, messages: messages.map(toOpenAI), ...(tools.length ? { tools } : {}), user: input.callId };
    const relay = input.stream ? await openTokenStream(input.callId) : null;
    // A cancelled attempt (a local activity past the turn's deadline) stops its request at once.
    const completion = relay
      ? await streamed(body, relay)
      : await openai().chat.completions.create(body, { signal: Context.current().cancellationSignal });
    timer({ outcome: 'ok' });
    // Every answer the provider sent costs its tokens, this attempt's included if it is then retried.
    await recordUsage(
      await llmRequestUsage({
        subjectId: input.callId,
        owner: input.context ? { orgId: input.context.orgId, livemode: input.context.livemode } : undefined,
        request: activityInfo(),
        model: completion.model,
        usage: completion.usage,
      }),
    );
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('the model returned no choice');
    const toolCalls: ToolCall[] = (message.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    const text = message.content?.trim() || null;
    if (completion.usage) {
      llmTokens.inc({ model, type: 'prompt' }, completion.usage.prompt_tokens);
      llmTokens.inc({ model, type: 'completion' }, completion.usage.completion_tokens);
    }
    return { text, toolCalls, knowledge: known?.knowledge ?? [] };
  } catch (err) {
    if (
      err instanceof OpenAI.APIError &&
      err.status &&
      err.status >= 400 &&
      err.status < 500 &&
      ![408, 409, 429].includes(err.status)
    ) {
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
 * The completion, streamed (`stream: true`, usage included): every piece of text goes to `relay` as it
 * arrives; resolves once the answer is complete and the relay has taken every piece. A cancelled attempt
 * (the turn's deadline passed) stops the request, so its words stop too.
 */
async function streamed(
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  relay: NonNullable<Awaited<ReturnType<typeof openTokenStream>>>,
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const signal = Context.current().cancellationSignal;
  const stream = openai().chat.completions.stream(
    { ...body, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  stream.on('content', (delta) => {
    if (delta && !signal.aborted) relay.write(delta);
  });
  try {
    return await stream.finalChatCompletion();
  } finally {
    await relay.end();
  }
}

const usageOwner = (ids: AssistantContextIds) => ({ orgId: ids.orgId, livemode: ids.livemode });

/** The messages with `text` appended to the system message (one is put first if there is none). */
function withSystemText(messages: ChatMessage[], text: string): ChatMessage[] {
  const i = messages.findIndex((m) => m.role === 'system');
  if (i < 0) return [{ role: 'system', content: text }, ...messages];
  return messages.map((m, j) =>
    j === i ? { role: 'system' as const, content: `${m.content as string}\n\n${text}` } : m,
  );
}

function toOpenAI(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (m.role === 'assistant') {
    return {
      role: 'assistant',
      content: m.content,
      ...(m.tool_calls
        ? {
            tool_calls: m.tool_calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    };
  }
  return m;
}
