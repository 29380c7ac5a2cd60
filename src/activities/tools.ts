/**
 * The activities of the organization's own tools: `resolveTools` (what an agent's `tool_ids`
 * and `connector_installation_ids` offer the model, when a call or a conversation's turn starts) and
 * `runTool` (one tool call: src/services/tool-calls.ts). A tool call is an activity of the call's or the
 * conversation's workflow, so a worker killed mid-request retries it with the same `tool_call_id`, the
 * `Idempotency-Key` the tool's server deduplicates by; the workflow records its outcome once.
 */
import { activityInfo, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { logger } from '../logger';
import { resolveCustomTools } from '../services/tool-calls';
import { toolRetryDelay, tracedToolAttempt } from '../services/tool-runs';
import type { CustomTool, ToolCallOutcome, ToolCallRequest } from '../shared/tools';

/** Failure type of a tool attempt that may do better later (408, 429, 5xx, timeout, network): Temporal retries it. */
export const TOOL_ATTEMPT_FAILED = 'ToolAttemptFailed';

/** Heartbeats of a running tool call (the workflow's heartbeat timeout is a few of these): a dead worker is seen at once. */
const HEARTBEAT_EVERY_MS = 500;

export interface ResolveToolsInput {
  orgId: string;
  livemode: boolean;
  /** The agent's `tool_ids`, in order. */
  toolIds: string[];
  /** The agent's `connector_installation_ids`, in order. */
  installationIds: string[];
  /** Names the channel's built-in tools take (src/shared/tools.ts `CHANNEL_TOOLS`). */
  reserved: string[];
}

/**
 * The tools the model is offered besides the built-in ones (src/services/tool-calls.ts
 * `resolveCustomTools`). A tool that cannot be offered (a name taken twice, an MCP server that does not
 * answer) is left out and logged; the call goes on without it.
 * @returns the tools in offering order (descriptions and schemas included: they are what the model sees)
 */
export async function resolveTools(input: ResolveToolsInput): Promise<{ tools: CustomTool[] }> {
  const { tools, problems } = await resolveCustomTools(
    { orgId: input.orgId, livemode: input.livemode },
    { toolIds: input.toolIds, installationIds: input.installationIds },
    input.reserved,
  );
  if (problems.length)
    logger.warn('tools: some tools are not offered', {
      workflow_id: activityInfo().workflowExecution?.workflowId,
      problems,
    });
  return { tools };
}

/** What the workflow records of a tool call: its outcome, and a line for the Web UI. */
export interface RunToolResult extends ToolCallOutcome {
  /** `lookup_order → 200 in 312 ms` (or `→ error in …`): the event's result in the Temporal Web UI. */
  summary: string;
}

/**
 * One tool call (see src/services/tool-calls.ts): the attempts share the deadline the first one started
 * (its scheduled time + the tool's `timeoutMs`); a retryable failure with time left for another try is
 * thrown (`TOOL_ATTEMPT_FAILED`, the server's `Retry-After` as the next delay) so Temporal retries it with
 * the same input, hence the same `Idempotency-Key`; otherwise the outcome, good or bad, is returned.
 * Heartbeats every 500 ms while the request runs, when it runs as an activity task; as a local activity
 * (a realtime call's function call, src/workflows/tools.ts `runCustomTool` with `local`) it has no
 * heartbeat: the workflow task it runs in is the worker's lease.
 */
export async function runTool(input: ToolCallRequest): Promise<RunToolResult> {
  const info = activityInfo();
  const startedMs = info.scheduledTimestampMs;
  const deadlineMs = startedMs + input.tool.timeoutMs;
  const beat = info.isLocal ? undefined : setInterval(() => Context.current().heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    const attempt = await tracedToolAttempt(input, deadlineMs);
    const durationMs = Math.max(0, Date.now() - startedMs);
    const nextDelayMs = Math.min(attempt.retryAfterMs ?? toolRetryDelay(info.attempt), 2000);
    if (!attempt.ok && attempt.retryable && Date.now() + nextDelayMs < deadlineMs - 100)
      throw ApplicationFailure.create({
        message: attempt.text,
        type: TOOL_ATTEMPT_FAILED,
        nextRetryDelay: nextDelayMs,
      });
    const { retryable: _r, retryAfterMs: _a, ...outcome } = attempt;
    return {
      ...outcome,
      durationMs,
      summary: `${input.tool.name} → ${outcome.ok ? (outcome.status ?? 'ok') : outcome.status !== null ? `${outcome.status} error` : 'error'} in ${durationMs} ms`,
    };
  } finally {
    clearInterval(beat);
  }
}
