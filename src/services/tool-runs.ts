/**
 * One call of the organization's tool, attempt by attempt (src/services/tool-calls.ts `toolCallAttempt`):
 * each attempt traced (`tracedToolAttempt`), the backoff between attempts (`toolRetryDelay`), and the
 * whole call made in this process (`runToolInline`: a realtime call's sideband running a function call
 * itself). The `runTool` activity (src/activities/tools.ts) makes its attempts with these, Temporal
 * retrying them.
 */
import { logger } from '../logger';
import { withSpan } from '../platform/tracing';
import type { ToolCallOutcome, ToolCallRequest } from '../shared/tools';
import { toolCallAttempt, type ToolCallAttempt } from './tool-calls';

/**
 * One attempt of a tool call; with tracing on, inside a span `execute_tool <name>` (GenAI semantic
 * conventions: `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`) with the outcome
 * (`tool.outcome` ok/error, `http.response.status_code` when the server answered) and the attempt's
 * duration (the span's own); never the arguments nor the result. The tool's request carries the span's
 * `traceparent` (src/services/tool-calls.ts).
 */
export function tracedToolAttempt(input: ToolCallRequest, deadlineMs: number): Promise<ToolCallAttempt> {
  const attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': input.tool.name,
    'gen_ai.tool.call.id': input.toolCallId,
    'tool.source': input.tool.source.kind,
  };
  return withSpan(`execute_tool ${input.tool.name}`, attributes, async (span) => {
    const attempt = await toolCallAttempt(input, deadlineMs);
    span?.setAttribute('tool.outcome', attempt.ok ? 'ok' : 'error');
    if (attempt.status !== null) span?.setAttribute('http.response.status_code', attempt.status);
    return attempt;
  });
}

/** Backoff between attempts of one tool call: 200 ms, 400 ms, 800 ms, … (capped by the caller at 2 s). */
export const toolRetryDelay = (attempt: number) => 200 * 2 ** Math.max(0, attempt - 1);

/**
 * One tool call made in this process rather than as an activity: a realtime call's sideband running the
 * model's function call itself (src/voice/realtime-session.ts), with the same request as `runTool` (the
 * same `Idempotency-Key` and body) and the same rules: every attempt within the tool's deadline from the
 * first attempt's start (`timeoutMs`), a retryable failure tried again after the server's `Retry-After` or
 * 200 ms, 400 ms, … (at most 2 s) while there is time left. Never throws: a failure is an outcome.
 */
export async function runToolInline(input: ToolCallRequest): Promise<ToolCallOutcome> {
  const startedMs = Date.now();
  const deadlineMs = startedMs + input.tool.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    let result: ToolCallAttempt;
    try {
      result = await tracedToolAttempt(input, deadlineMs);
    } catch (err) {
      result = {
        ok: false,
        text: `Error: ${input.tool.name} failed.`,
        status: null,
        retryable: true,
        retryAfterMs: null,
      };
      logger.warn('tool attempt failed', { tool: input.tool.name, error: String(err) });
    }
    const nextDelayMs = Math.min(result.retryAfterMs ?? toolRetryDelay(attempt), 2000);
    if (!result.ok && result.retryable && Date.now() + nextDelayMs < deadlineMs - 100) {
      await new Promise((r) => setTimeout(r, nextDelayMs));
      continue;
    }
    const { retryable: _r, retryAfterMs: _a, ...outcome } = result;
    return { ...outcome, durationMs: Math.max(0, Date.now() - startedMs) };
  }
}
