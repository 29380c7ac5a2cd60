/**
 * The OpenAI client (the `openai` package, 6.x) for OpenAI or any OpenAI-compatible server
 * (`OPENAI_BASE_URL`: vLLM, Ollama, llama.cpp, our offline demo model).
 */
import OpenAI from 'openai';
import { config } from '../config';
import type { ChatMessage } from '../shared/assistant';

let client: OpenAI | undefined;
let clientKey = '';

/**
 * The `openai` client for `OPENAI_BASE_URL` and `OPENAI_API_KEY` (one per configuration; the SDK's own
 * retries off, 25 s timeout): chat completions in src/activities/llm.ts, speech-to-text and text-to-speech in voice rooms
 * (src/activities/voice-room.ts).
 */
export function openai(): OpenAI {
  const cfg = config();
  const key = `${cfg.openaiBaseUrl}|${cfg.openaiApiKey}`;
  if (!client || clientKey !== key) {
    client = new OpenAI({
      apiKey: cfg.openaiApiKey ?? 'not-needed',
      baseURL: cfg.openaiBaseUrl,
      maxRetries: 0,
      timeout: 25_000,
    });
    clientKey = key;
  }
  return client;
}

/**
 * True when the model's server refused the request itself (a 4xx other than 408 timeout, 409 conflict and
 * 429 rate limit): retrying the same request cannot succeed, so activities fail it as non-retryable
 * (https://platform.openai.com/docs/guides/error-codes).
 */
export function isRejectedRequest(err: unknown): err is InstanceType<typeof OpenAI.APIError> & { status: number } {
  return (
    err instanceof OpenAI.APIError &&
    !!err.status &&
    err.status >= 400 &&
    err.status < 500 &&
    ![408, 409, 429].includes(err.status)
  );
}

/**
 * A message of ours (src/shared/assistant.ts `ChatMessage`) as the Chat Completions API takes it: an
 * assistant message's tool calls become `{id, type: "function", function: {name, arguments}}`
 * (https://platform.openai.com/docs/api-reference/chat/create); the other roles are sent as they are.
 */
export function chatMessageParam(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (m.role !== 'assistant') return m;
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
