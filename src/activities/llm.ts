/**
 * The LLM activity: one Chat Completions request through the `openai` package (6.x) to OpenAI or any
 * OpenAI-compatible server (`OPENAI_BASE_URL`: vLLM, Ollama, llama.cpp, our offline demo model).
 *
 * Retries belong to Temporal (the client's own are off): a 4xx other than 408/409/429 is final
 * (`ApplicationFailure` type `LLM_REQUEST_REJECTED`, src/shared/assistant.ts), anything else is retried by the workflow's policy.
 */
import OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { LLM_REQUEST_REJECTED, TOOL_DEFINITIONS, type ChatMessage, type ConversationRef, type ToolCall, type ToolName } from '../shared/assistant';
import { callConversation } from './calls';


let client: OpenAI | undefined;
let clientKey = '';

function openai(): OpenAI {
  const cfg = config();
  const key = `${cfg.openaiBaseUrl}|${cfg.openaiApiKey}`;
  if (!client || clientKey !== key) {
    client = new OpenAI({ apiKey: cfg.openaiApiKey ?? 'not-needed', baseURL: cfg.openaiBaseUrl, maxRetries: 0, timeout: 25_000 });
    clientKey = key;
  }
  return client;
}

export interface GenerateReplyInput {
  callId: string;
  /** Model name; null for the configured default (`OPENAI_MODEL`). */
  model: string | null;
  /** The messages to send; with `history`, only those after the stored transcript. */
  messages: ChatMessage[];
  /** Where the earlier conversation is stored (a call): loaded and sent before `messages`. */
  history?: ConversationRef;
  /** Names of the tools offered (src/shared/assistant.ts `TOOL_DEFINITIONS`). */
  tools: ToolName[];
}

export interface GenerateReplyResult {
  text: string | null;
  toolCalls: ToolCall[];
}

/** Asks the model for the assistant's next message. */
export async function generateReply(input: GenerateReplyInput): Promise<GenerateReplyResult> {
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = input.tools
    .map((t) => TOOL_DEFINITIONS[t])
    .filter(Boolean)
    .map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  try {
    const completion = await openai().chat.completions.create({
      model: input.model ?? config().openaiModel,
      messages: (input.history ? [...(await callConversation(input.history.callId)), ...input.messages] : input.messages).map(toOpenAI),
      ...(tools.length ? { tools } : {}),
      user: input.callId,
    });
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('the model returned no choice');
    const toolCalls: ToolCall[] = (message.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    const text = message.content?.trim() || null;
    return { text, toolCalls };
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status && err.status >= 400 && err.status < 500 && ![408, 409, 429].includes(err.status)) {
      throw ApplicationFailure.nonRetryable(`LLM request rejected (${err.status}): ${err.message}`, LLM_REQUEST_REJECTED);
    }
    throw err;
  }
}

function toOpenAI(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (m.role === 'assistant') {
    return {
      role: 'assistant',
      content: m.content,
      ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
    };
  }
  return m;
}
