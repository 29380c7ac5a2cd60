/**
 * The attributes of a model request's span, after OpenTelemetry's GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): a CLIENT span `chat <model>` made
 * around the `openai` request (src/activities/llm.ts; `tracedChat` for the other model requests: analyses,
 * test suites' judge, simulated callers). No prompt or completion text is recorded.
 */
import type { Attributes } from '@opentelemetry/api';
import type OpenAI from 'openai';
import { SpanKind, withSpan } from './tracing';

/** What is known before the request: operation, provider (`openai`: any OpenAI-compatible API), model. */
export function modelRequestAttributes(model: string): Attributes {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.system': 'openai',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': model,
  };
}

/**
 * What the answer tells: the model that answered, its id, the finish reasons, the tokens in and out
 * (`gen_ai.usage.input_tokens` / `output_tokens`), and the time to first token in seconds since
 * `sentMs` (`gen_ai.server.time_to_first_token`, the convention's metric name; for a streamed answer the
 * first piece of text, else the whole answer's arrival).
 * @param firstTokenMs when the first piece of text came (ms since the epoch), or null (not streamed)
 */
export function modelAnswerAttributes(
  answer: OpenAI.Chat.Completions.ChatCompletion,
  sentMs: number,
  firstTokenMs: number | null,
): Attributes {
  const usage = answer.usage;
  return {
    'gen_ai.response.model': answer.model,
    'gen_ai.response.id': answer.id,
    'gen_ai.response.finish_reasons': answer.choices.map((c) => String(c.finish_reason)),
    ...(usage
      ? { 'gen_ai.usage.input_tokens': usage.prompt_tokens, 'gen_ai.usage.output_tokens': usage.completion_tokens }
      : {}),
    'gen_ai.server.time_to_first_token': Math.max(0, (firstTokenMs ?? Date.now()) - sentMs) / 1000,
  };
}

/**
 * Runs `send` (one `chat.completions` request of `model`) inside a CLIENT span `chat <model>` with the
 * GenAI attributes above; `send` itself when tracing is off. A throw marks the span as an error and is
 * rethrown.
 * @param opts.purpose `gen_ai.request.purpose` of a request that is not an assistant's turn (`analysis`,
 *   `judge`, `simulated_caller`); absent: a turn (src/activities/llm.ts)
 * @param opts.sentMs when the request was sent (default: now); `opts.first.tokenMs`, read when the answer
 *   is complete, when its first piece of text came (a streamed answer; absent: the whole answer's arrival)
 */
export function tracedChat(
  model: string,
  send: () => Promise<OpenAI.Chat.Completions.ChatCompletion>,
  opts: { purpose?: string; sentMs?: number; first?: { tokenMs: number | null } } = {},
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const sentMs = opts.sentMs ?? Date.now();
  const attributes = modelRequestAttributes(model);
  if (opts.purpose) attributes['gen_ai.request.purpose'] = opts.purpose;
  return withSpan(
    `chat ${model}`,
    attributes,
    async (span) => {
      const answer = await send();
      span?.setAttributes(modelAnswerAttributes(answer, sentMs, opts.first?.tokenMs ?? null));
      return answer;
    },
    SpanKind.CLIENT,
  );
}
