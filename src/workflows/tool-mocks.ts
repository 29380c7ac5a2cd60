/**
 * Mocked tool calls of a call with `tool_mocks` (a `fork` replay's call, src/shared/tool-mocks.ts): the
 * recorded result of the same arguments is served at once (no activity); any other call is answered by
 * the `generateToolMock` activity's made-up result (src/services/tool-mocks.ts), whose failure is a tool
 * error for the model. Never a request to the tool's server, never a built-in tool's outside effect.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type * as toolMocks from '../activities/tool-mocks';
import type { ToolCall } from '../shared/assistant';
import { MOCKED_BUILT_IN_TOOLS, recordedResult, type ToolMocks } from '../shared/tool-mocks';
import type { ToolCallRecord } from '../shared/tools';
import { JUDGE_RETRY } from './retry';
import type { ToolEffect } from './tools';

/** The made-up result: a model's request, 4 tries (as a judge's). */
const mocks = proxyActivities<typeof toolMocks>({ startToCloseTimeout: '2 minutes', retry: JUDGE_RETRY });

/** Whether a call with `tool_mocks` answers a call of `name` by its mocks: the organization's tools, and `MOCKED_BUILT_IN_TOOLS`. */
export const isMocked = (name: string, custom: boolean): boolean => custom || MOCKED_BUILT_IN_TOOLS.includes(name);

/**
 * Answers tool call `call` (key `key`) of call `callId` from `set`: the recorded result when one has its
 * name and arguments (`mocked: "recorded"`), else a made-up one (`mocked: "generated"`).
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
  const recorded = recordedResult(set, call.name, call.arguments);
  let text = recorded;
  if (text === null) {
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
      mocked: recorded === null ? 'generated' : 'recorded',
    },
  };
}
