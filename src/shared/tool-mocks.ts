/**
 * Tool mocks: a call whose tools are answered without running them (a `fork` replay's call,
 * src/services/replay-forks.ts). The call's `tool_mocks` (src/shared/calls.ts `CallWorkflowInput`) lists
 * recorded results; a tool call with the same name and the same arguments (keys in any order) is answered
 * with its recorded result, any other with a result a model makes up (`generated`). Either way no request
 * leaves the service: the organization's tools and the built-in tools that reach outside the call
 * (`MOCKED_BUILT_IN_TOOLS`) are never run; the ones acting only on the call itself (ending it, a simulated
 * transfer, keys, a form, a knowledge search) run as on any test call.
 * Imported by the workflow bundle and the services alike; imports nothing of the project.
 */

/** A recorded tool call: its function's name, its arguments (JSON text) and the result the model was given. */
export interface RecordedToolResult {
  name: string;
  arguments: string;
  result: string;
}

/** `tool_mocks` of a call: the recorded results served instead of running the tools. */
export interface ToolMocks {
  recorded: RecordedToolResult[];
}

/** How a mocked tool call was answered: a recorded result, or one a model made up. */
export type ToolMockKind = 'recorded' | 'generated';

/** Built-in tools with effects outside the call (a new call, the do-not-call list, a payment): mocked too. */
export const MOCKED_BUILT_IN_TOOLS: readonly string[] = ['schedule_callback', 'opt_out', 'collect_payment'];

/** Limits: recorded results per call, characters of one result. */
export const TOOL_MOCK_LIMITS = { recorded: 200, resultChars: 16_000 } as const;

/** A JSON value with its objects' keys sorted (arrays kept in order). */
function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortedKeys(o[k])]),
  );
}

/**
 * A tool call's identity: `<name>:<arguments with keys sorted>` (arguments that are not JSON kept as
 * text, an empty text as `{}`), so two calls with the same arguments in another key order match.
 */
export function toolCallIdentity(name: string, args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args || '{}');
  } catch {
    parsed = args;
  }
  return `${name}:${JSON.stringify(sortedKeys(parsed))}`;
}

/** The recorded result of a call of `name` with `args` (the first recorded with that identity), or null. */
export function recordedResult(mocks: ToolMocks, name: string, args: string): string | null {
  const id = toolCallIdentity(name, args);
  return mocks.recorded.find((r) => toolCallIdentity(r.name, r.arguments) === id)?.result ?? null;
}
