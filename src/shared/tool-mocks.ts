/**
 * Tool mocks: a call whose tools are answered without running them (a `fork` replay's call,
 * src/services/replay-forks.ts). The call's `tool_mocks` (src/shared/calls.ts `CallWorkflowInput`) lists
 * recorded results and the agent's tools' `mock`s; a tool call with the same name and the same arguments
 * (keys in any order) is answered with its recorded result (`recorded`), else by its tool's `mock` rule or
 * default (`mock_rule`, `mockRuleResult`), else with a result a model makes up (`generated`). Either way no request
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

/** One rule of a tool's `mock`: when every argument named in `when` equals (deeply) the call's, `result`. */
export interface ToolMockRule {
  when: Record<string, unknown>;
  result: unknown;
}

/**
 * A tool's `mock` (`POST /v1/tools`, http tools): what a mocked call of it with arguments no recorded
 * call had gets: the first rule whose `when` matches, else `default` (when set), else a made-up result.
 */
export interface ToolMock {
  rules?: ToolMockRule[];
  /** Absent: no default (the model makes one up); any JSON value otherwise, `null` included. */
  default?: unknown;
}

/** `tool_mocks` of a call: the recorded results served instead of running the tools, and the tools' `mock`s. */
export interface ToolMocks {
  recorded: RecordedToolResult[];
  /** The `mock` of each of the agent's tools that has one, by the tool's name (when the call was built). */
  rules?: { name: string; mock: ToolMock }[];
}

/** How a mocked tool call was answered: a recorded result, the tool's `mock` rule (or default), or one a model made up. */
export type ToolMockKind = 'recorded' | 'mock_rule' | 'generated';

/** Built-in tools with effects outside the call (a new call, the do-not-call list, a payment): mocked too. */
export const MOCKED_BUILT_IN_TOOLS: readonly string[] = ['schedule_callback', 'opt_out', 'collect_payment'];

/**
 * Limits: recorded results per call, characters of one result; a tool's `mock`: rules, and characters of
 * its JSON text in all.
 */
export const TOOL_MOCK_LIMITS = { recorded: 200, resultChars: 16_000, rules: 50, mockChars: 16_000 } as const;

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

/** Whether two JSON values are equal: objects by their keys in any order, arrays in order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}

/** A rule's or default's result as the model is given it: a string as it is, any other value as JSON text. */
const resultText = (v: unknown): string =>
  (typeof v === 'string' ? v : JSON.stringify(v ?? null)).slice(0, TOOL_MOCK_LIMITS.resultChars);

/**
 * What the `mock` of tool `name` in `mocks` answers a call with `args` (JSON text): the result of its
 * first rule whose `when` arguments all equal the call's (deeply, key order aside), else its `default`;
 * null when the tool has no `mock`, no rule matches and it has no default, or the arguments are not a
 * JSON object.
 */
export function mockRuleResult(mocks: ToolMocks, name: string, args: string): string | null {
  const mock = mocks.rules?.find((r) => r.name === name)?.mock;
  if (!mock) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args || '{}');
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const given = parsed as Record<string, unknown>;
  const rule = mock.rules?.find((r) =>
    Object.entries(r.when).every(([k, v]) => Object.hasOwn(given, k) && jsonEqual(given[k], v)),
  );
  if (rule) return resultText(rule.result);
  return 'default' in mock ? resultText(mock.default) : null;
}
