/**
 * Mocked tool calls of a call with `tool_mocks` (a `fork` replay's call, src/shared/tool-mocks.ts): the
 * recorded result of the same arguments is served at once (no activity); else the tool's `mock` rule or
 * default when one applies (at once too; gated by `PATCHES.toolMockRules`); any other call is answered by
 * the `generateToolMock` activity's made-up result (src/services/tool-mocks.ts), whose failure is a tool
 * error for the model. Never a request to the tool's server, never a built-in tool's outside effect.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type * as toolMocks from '../activities/tool-mocks';
import type { ToolCall } from '../shared/assistant';
import { PATCHES } from '../shared/deployments';
import {
  MOCKED_BUILT_IN_TOOLS,
  mockRuleResult,
  recordedResult,
  type ToolMockKind,
  type ToolMocks,
} from '../shared/tool-mocks';
import type { ToolCallRecord } from '../shared/tools';
import { JUDGE_RETRY } from './retry';
import type { ToolEffect } from './tools';

/** The made-up result: a model's request, 4 tries (as a judge's). */
const mocks = proxyActivities<typeof toolMocks>({ startToCloseTimeout: '2 minutes', retry: JUDGE_RETRY });

/** Whether a call with `tool_mocks` answers a call of `name` by its mocks: the organization's tools, and `MOCKED_BUILT_IN_TOOLS`. */
export const isMocked = (name: string, custom: boolean): boolean => custom || MOCKED_BUILT_IN_TOOLS.includes(name);

/**
 * Answers tool call `call` (key `key`) of call `callId` from `set`: the recorded result when one has its
 * name and arguments (`mocked: "recorded"`), else the tool's `mock` rule or default (`"mock_rule"`), else
 * a made-up one (`"generated"`).
 * @param description the tool's description, for the made-up result
 */
export async function mockedTool(
  set: ToolMocks,
  callId: string,
  call: ToolCall,
  key: string,
  description: string | null,
): Promise<{ effect: ToolEffect; record: ToolCallRecord }> {
  const startedMs = Date.now();
  let text = recordedResult(set, call.name, call.arguments);
  let mocked: ToolMockKind = 'recorded';
  if (text === null) {
    const ruled = mockRuleResult(set, call.name, call.arguments);
    if (ruled !== null && patched(PATCHES.toolMockRules)) [text, mocked] = [ruled, 'mock_rule'];
  }
  if (text === null) {
    mocked = 'generated';
    try {
      ({ text } = await mocks.generateToolMock.executeWithOptions({ summary: `mock ${call.name} (${key})` }, [
        { callId, name: call.name, description, arguments: call.arguments },
      ]));
    } catch (err) {
      if (isCancellation(err)) throw err;
      text = `Error: ${call.name} failed.`;
    }
  }
  return {
    effect: { summary: text, ends: false },
    record: {
      toolCallId: key,
      ok: !text.startsWith('Error:'),
      status: null,
      durationMs: Date.now() - startedMs,
      mocked,
    },
  };
}
