/**
 * The assistant's tools, defined once (DESIGN.md section 6): each is a name, a description and a zod
 * schema of its arguments. From that one entry come the JSON schema the model is offered (`toolFunction`,
 * through zod 4's `z.toJSONSchema`: the LLM activity, src/activities/llm.ts) and the parsing of the
 * arguments the model sends back (`parseToolArguments`: the workflow, src/workflows/tools.ts, which also
 * holds each tool's effect per channel). A channel lists the tools it offers (`CHANNEL_TOOLS`).
 *
 * Adding a tool: an entry in `TOOLS`, its name in the lists of the channels that offer it, and its effect
 * on each of them in src/workflows/tools.ts `CHANNEL_EFFECTS` (the compiler asks for every one). A tool an
 * agent must switch on (its `enabled_tools`) is listed in `OPTIONAL_TOOLS` and in `CHANNEL_OPTIONAL_TOOLS`
 * instead of `CHANNEL_TOOLS`.
 *
 * Bundle-safe (the workflow bundle includes it): zod and plain data only; zod 4 is deterministic.
 */
import { z } from 'zod';

/** A tool the model may call: what it is for, and the schema its arguments must satisfy. */
export interface ToolDefinition {
  description: string;
  /** An object schema; the model is offered its JSON schema, and the arguments it sends are parsed with it. */
  arguments: z.ZodObject;
  /** What the model is told when it calls the tool where it is not offered; absent: a generic "not available". */
  unavailable?: string;
}

/** Every tool the assistant may be offered, by name (the name the model calls it by). */
export const TOOLS = {
  end_call: {
    description: 'Hang up: the conversation is over.',
    arguments: z.object({}),
  },
  // What the model is offered is built per call from the agent's destinations (`transferCallFunction`);
  // this schema parses what it sends back. `to` is read only on calls made before destinations existed
  // (src/workflows/tools.ts); on every other call any key but `destination` is a tool error.
  transfer_call: {
    description: 'Transfer the caller to a person.',
    arguments: z.looseObject({
      destination: z.string().describe("the name of one of the organization's transfer destinations").optional(),
      to: z.string().optional(),
    }),
  },
  search_knowledge: {
    description:
      "Search the organization's knowledge documents for facts to answer with (policies, prices, hours, procedures).",
    arguments: z.object({ query: z.string().describe('what to look for, in a few words') }),
  },
  handoff_to_person: {
    description: 'Hand the conversation over to a person of the organization: they answer from now on.',
    arguments: z.object({ reason: z.string().describe('why a person is needed, in a few words').optional() }),
  },
  fill_form: {
    description: "Record values of the call's form (bulk campaigns): the form's fields are listed in the instructions.",
    arguments: z.object({
      fields: z.record(z.string(), z.unknown()).describe('values by field key, e.g. {"attending": true}'),
    }),
  },
  schedule_callback: {
    description:
      'Schedule a phone call back to this person at the time they asked for (one per conversation: a new one replaces the last). ' +
      'The answer gives the time the call will actually ring; tell them that time.',
    arguments: z.object({
      at: z
        .string()
        .describe(
          "when to call, ISO 8601: the caller's local wall-clock time (2026-12-01T15:00) or with a UTC offset (2026-12-01T15:00-05:00)",
        ),
      reason: z.string().describe('what the callback is about, in a few words').optional(),
    }),
  },
  opt_out: {
    description:
      'Record that this person asked not to be called again (do-not-call): call it as soon as they ask, then confirm to them ' +
      'politely in one short sentence and say goodbye; the call ends after that. Never call it for anything else.',
    arguments: z.object({}),
  },
  send_dtmf: {
    description:
      'Press keys on the phone line (DTMF), e.g. to choose an option of a phone menu: digits 0-9, * and #; w waits half a second.',
    arguments: z.object({
      digits: z
        .string()
        .regex(/^[0-9*#w]{1,32}$/, 'must be 1 to 32 of 0-9, *, # and w (a half-second pause)')
        .describe('the keys to press in order, e.g. "1", "w2#"'),
    }),
  },
  // Offered on a phone call only when the organization has a payment connector (src/workflows/call-tools.ts).
  collect_payment: {
    description:
      'Take a card payment now: the caller keys in their card on the phone keypad with the payment processor ' +
      '(you never hear the digits; do not ask for them). The answer gives the outcome: status, last four digits, confirmation code.',
    arguments: z.object({
      amount: z
        .string()
        .regex(/^(?:0|[1-9]\d{0,8})(?:\.\d{1,2})?$/, 'must be a decimal amount in major units, e.g. "24.99"')
        .refine((v) => Number(v) > 0, 'must be more than 0')
        .describe('the amount to charge, a decimal string in major units with at most 2 decimals, e.g. "24.99"'),
      currency: z
        .string()
        .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 currency code, e.g. "USD"')
        .describe('ISO 4217 currency code, e.g. "USD"'),
      description: z.string().min(1).max(255).describe('what the payment is for, as the statement shows it'),
    }),
    unavailable: 'Error: payments are not set up for this organization (no payment connector); no payment was taken.',
  },
} as const satisfies Record<string, ToolDefinition>;

/** Names of the assistant's tools. */
export type ToolName = keyof typeof TOOLS;

/** The arguments of tool `N` once parsed (what its effects receive). */
export type ToolArguments<N extends ToolName> = z.output<(typeof TOOLS)[N]['arguments']>;

/**
 * The tools each channel offers, in the order the model is offered them: a phone call (live, simulated or
 * a browser voice room), a campaign's call (a bulk call, which also fills the campaign's form), a WhatsApp
 * or SMS conversation, and the web widget's conversation.
 */
export const CHANNEL_TOOLS = {
  phone_call: ['end_call', 'transfer_call', 'search_knowledge', 'opt_out'],
  campaign_call: ['end_call', 'transfer_call', 'search_knowledge', 'fill_form', 'opt_out'],
  conversation: ['handoff_to_person'],
  widget: ['handoff_to_person'],
} as const satisfies Record<string, readonly ToolName[]>;

/** The channels an assistant works on. */
export type ToolChannel = keyof typeof CHANNEL_TOOLS;

/**
 * The built-in tools offered by default that a call may not offer: `opt_out` (the agent's `opt_out_tool:
 * false`; law and carrier rules expect a person's "do not call me again" to be honoured on the spot, so
 * the safe default is on) and `transfer_call` (an agent with neither `transfer_destinations` nor
 * `transfer_to`: there is nowhere to transfer to). A channel's `CHANNEL_TOOLS` lists them where they apply.
 */
export const SWITCHABLE_TOOLS = ['opt_out', 'transfer_call'] as const satisfies readonly ToolName[];

/** A built-in tool offered by default that an agent may switch off (`SWITCHABLE_TOOLS`). */
export type SwitchableToolName = (typeof SWITCHABLE_TOOLS)[number];

/**
 * The built-in tools an agent offers only when it lists them in `enabled_tools` (`schedule_callback`,
 * `send_dtmf`): tools that act outside the conversation, so an agent opts in; the one list the API validates `enabled_tools` against.
 */
export const OPTIONAL_TOOLS = ['schedule_callback', 'send_dtmf'] as const satisfies readonly ToolName[];

/** An optional built-in tool's name (a value of an agent's `enabled_tools`). */
export type OptionalToolName = (typeof OPTIONAL_TOOLS)[number];

/**
 * The optional tools each channel can offer (after its `CHANNEL_TOOLS`, in this order) when the agent
 * enables them: a callback is a phone call to the person's number, so the web widget (a visitor without
 * one) has none; keys are pressed on a phone line only (`send_dtmf`: calls, not conversations; a browser
 * voice room offers no optional tool, src/workflows/call-tools.ts `enabledTools`).
 */
export const CHANNEL_OPTIONAL_TOOLS = {
  phone_call: ['schedule_callback', 'send_dtmf'],
  campaign_call: ['schedule_callback', 'send_dtmf'],
  conversation: ['schedule_callback'],
  widget: [],
} as const satisfies Record<ToolChannel, readonly OptionalToolName[]>;

/** The tools channel `C` offers, its optional ones included. */
export type ChannelToolName<C extends ToolChannel> =
  (typeof CHANNEL_TOOLS)[C][number] | (typeof CHANNEL_OPTIONAL_TOOLS)[C][number];

/** Whether `name` is one of the optional built-in tools (`OPTIONAL_TOOLS`). */
export function isOptionalToolName(name: string): name is OptionalToolName {
  return (OPTIONAL_TOOLS as readonly string[]).includes(name);
}

/**
 * The names of the built-in tools `channel` offers to an agent that enables `enabled` (its
 * `enabled_tools`; absent: none) and switches `off` off (of `SWITCHABLE_TOOLS`; absent: none):
 * `CHANNEL_TOOLS[channel]` but `off`, then the enabled ones of `CHANNEL_OPTIONAL_TOOLS[channel]`.
 * Without optional tools nor `off` the list is exactly `CHANNEL_TOOLS[channel]`.
 */
export function offeredTools<C extends ToolChannel>(
  channel: C,
  enabled: readonly string[] | undefined,
  off?: readonly SwitchableToolName[],
): ChannelToolName<C>[] {
  const optional = (CHANNEL_OPTIONAL_TOOLS[channel] as readonly OptionalToolName[]).filter((t) => enabled?.includes(t));
  const always = (CHANNEL_TOOLS[channel] as readonly ToolName[]).filter(
    (t) => !(off as readonly string[] | undefined)?.includes(t),
  );
  return [...always, ...optional] as ChannelToolName<C>[];
}

/** Whether `name` is one of the assistant's tools. */
export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOLS, name);
}

/**
 * The JSON schema of tool `name`'s arguments as the model is offered it (`z.toJSONSchema` of its zod
 * schema, without `$schema`): an object schema with `additionalProperties: false`, and a value of any
 * type (`z.unknown()`) written `true`.
 */
export function toolJsonSchema(name: ToolName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(TOOLS[name].arguments, {
    override: ({ jsonSchema }) => {
      const anyValue = jsonSchema.additionalProperties;
      if (jsonSchema.propertyNames && anyValue && typeof anyValue === 'object' && Object.keys(anyValue).length === 0) {
        delete jsonSchema.propertyNames; // a record's keys are strings anyway
        jsonSchema.additionalProperties = true;
      }
    },
  });
  return schema;
}

/** A Chat Completions function: a name, a description and the JSON schema of its arguments. */
export interface ToolFunction {
  name: ToolName;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * What a call's `transfer_call` offers: the agent's destinations by name (with their descriptions), and
 * whether naming none goes to the agent's `transfer_to` (`hasDefault`).
 */
export interface TransferOffer {
  destinations: { name: string; description: string | null }[];
  hasDefault: boolean;
}

/** The arguments `transfer_call` takes on a call offering `offer`: `destination`, one of its names (an enum). */
export function transferCallArguments(offer: TransferOffer): z.ZodObject {
  const names = offer.destinations.map((d) => d.name);
  if (names.length === 0) return z.strictObject({});
  const destination = z
    .enum(names as [string, ...string[]])
    .describe(
      `the destination's name, one of: ${names.join(', ')}` +
        (offer.hasDefault ? '; omit it for the default destination' : ''),
    );
  return z.strictObject({ destination: offer.hasDefault ? destination.optional() : destination });
}

/**
 * `transfer_call` as the model is offered it on a call with `offer`: its description lists each
 * destination with its description, its schema takes only their names (`transferCallArguments`). The
 * model can name nothing else: no number, no address.
 */
export function transferCallFunction(offer: TransferOffer): ToolFunction {
  const listed = offer.destinations.map((d) => `${d.name}${d.description ? ` (${d.description})` : ''}`);
  const description = listed.length
    ? `Transfer the caller to a person at one of the organization's destinations: ${listed.join('; ')}.` +
      (offer.hasDefault ? ' Without a destination: the default one.' : '')
    : "Transfer the caller to a person (the organization's default destination).";
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(transferCallArguments(offer));
  return { name: 'transfer_call', description, parameters };
}

/**
 * Tool `name` as a Chat Completions function: its name, description and the JSON schema of its arguments;
 * `transfer_call` is `transferCallFunction(transfer)` (without `transfer`: the default destination only).
 */
export function toolFunction(name: ToolName, transfer?: TransferOffer): ToolFunction {
  // Without an offer (a call made before destinations existed): the default destination only.
  if (name === 'transfer_call') return transferCallFunction(transfer ?? { destinations: [], hasDefault: true });
  return { name, description: TOOLS[name].description, parameters: toolJsonSchema(name) };
}

/**
 * Parses the model's arguments (`text`, its JSON; empty means `{}`) for tool `name` with the tool's schema.
 * Never throws: invalid JSON or arguments the schema refuses come back as `error`, a sentence for the
 * model naming each problem (`Error: the arguments of transfer_call are invalid: to: …`). Unknown keys are
 * dropped.
 */
export function parseToolArguments<N extends ToolName>(
  name: N,
  text: string,
): { ok: true; args: ToolArguments<N> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    return { ok: false, error: `Error: the arguments of ${name} are not valid JSON.` };
  }
  const parsed = TOOLS[name].arguments.safeParse(value);
  if (parsed.success) return { ok: true, args: parsed.data as ToolArguments<N> };
  const problems = parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  return { ok: false, error: `Error: the arguments of ${name} are invalid: ${problems.join('; ')}.` };
}

/**
 * Where one of the organization's own tools runs: an HTTP tool (`tool_…`, `type: "http"`), one
 * tool of an MCP server (`tool_…`, `type: "mcp"`; `remoteName` is the server's name for it), or one tool
 * of an installed connector (`cinst_…`; `toolName` is the name in the connector's `connector.json`).
 * Ids only: secrets (headers, config) are read by the activity that runs the call, never put in a history.
 */
export type CustomToolSource =
  | { kind: 'http'; toolId: string }
  | { kind: 'mcp'; toolId: string; remoteName: string }
  | { kind: 'connector'; installationId: string; toolName: string };

/**
 * One of the organization's tools as the model is offered it and the workflow runs it: resolved from
 * the agent's `tool_ids` and `connector_installation_ids` by the `resolveTools` activity
 * (src/activities/tools.ts) when a call or a conversation's turn starts.
 */
export interface CustomTool {
  /** The name the model calls it by (`^[a-zA-Z0-9_-]{1,64}$`; a connector's: `<last label>__<tool name>`). */
  name: string;
  /** What the model is told it does (at most 1,024 characters). */
  description: string;
  /** JSON Schema (`type: "object"`) of its arguments; the arguments are checked against it before the call. */
  parameters: Record<string, unknown>;
  source: CustomToolSource;
  /** The tool's deadline, ms: every attempt and retry of one call fits in it (500–20,000; default 5,000). */
  timeoutMs: number;
  /** What a caller on the phone hears when the tool takes longer than ~1 s; null: nothing. */
  speakWhileRunning: string | null;
  /**
   * On calls made since turn-taking settings exist: a call of it is held until the caller's spoken yes in
   * their next turn (src/workflows/call-heard.ts); absent: it runs when the model calls it.
   */
  confirm?: true;
}

/** The model's tool call's result as the workflow records it (a transcript entry's `result`/`error`, `status`, `duration_ms`). */
export interface ToolCallOutcome {
  ok: boolean;
  /** ok: what the model is given (the response body, at most `MAX_TOOL_RESULT_CHARS`); else: the error. */
  text: string;
  /** The HTTP status the tool's server answered (http and connector tools), or null. */
  status: number | null;
  /** From the first attempt's start to the outcome, ms. */
  durationMs: number;
}

/** Characters of a tool's answer the model is given at most (16 KB); the rest is cut. */
export const MAX_TOOL_RESULT_CHARS = 16 * 1024;

/** What a tool call's request tells the tool's server of the conversation it is made in. */
export interface ToolCallContext {
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The call (`call_id`) or the conversation (`conversation_id`) the tool is called in. */
  subject: { kind: 'call' | 'conversation'; id: string };
  /** The contact the conversation is with (`cont_…`), or null. */
  contactId: string | null;
  /** The call's `metadata` (a conversation's: `{}`). */
  metadata: Record<string, string>;
}

/** One call of one of the organization's tools: the `runTool` activity's input. */
export interface ToolCallRequest {
  tool: CustomTool;
  /** `tc_…`, fixed by the workflow (`toolCallKey`): the `Idempotency-Key` of every attempt. */
  toolCallId: string;
  /** The model's arguments, its JSON text (empty: `{}`). */
  arguments: string;
  context: ToolCallContext;
}

/**
 * A tool call as a transcript entry records it besides the call itself: the key its request carried,
 * whether it succeeded, the server's HTTP status if any, and how long it took (ms). Built-in tools have
 * one too (`status` null).
 */
export interface ToolCallRecord {
  toolCallId: string;
  ok: boolean;
  status: number | null;
  durationMs: number;
  /**
   * A call that did not run when the model made it (src/workflows/call-heard.ts): `dropped` (never runs),
   * `held` (waits for the caller's spoken yes), `confirmed` (a held call run after the yes); absent: it ran.
   */
  outcome?: ToolCallOutcomeKind;
  /** Why: `interrupted` (the caller talked over the answer first), `confirmation_required`, `not_confirmed`. */
  reason?: ToolCallOutcomeReason;
  /**
   * A call answered by the call's `tool_mocks` instead of running (src/shared/tool-mocks.ts): `recorded`
   * (the recorded result of the same arguments), `mock_rule` (the tool's `mock` rule or default) or
   * `generated` (a model's made-up result); absent: it ran.
   */
  mocked?: 'recorded' | 'mock_rule' | 'generated';
}

/** `ToolCallRecord.outcome` values. */
export type ToolCallOutcomeKind = 'dropped' | 'held' | 'confirmed';
/** `ToolCallRecord.reason` values. */
export type ToolCallOutcomeReason = 'interrupted' | 'confirmation_required' | 'not_confirmed';

/**
 * The key of a tool call (`tc_` + 26 characters): derived from the workflow (`workflowId`, `runId`), the
 * call's rank among the run's tool calls and the model's id of it, so the same call always has the same
 * key (a retry, a replay) and two calls never share one (a model that reuses ids across turns). A 128-bit
 * non-cryptographic hash (two FNV-1a-style 64-bit lanes); bundle-safe.
 */
export function toolCallKey(workflowId: string, runId: string, rank: number, modelId: string): string {
  const text = `${workflowId}\n${runId}\n${rank}\n${modelId}`;
  let a = 0xcbf29ce484222325n;
  let b = 0x84222325cbf29ce4n;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < text.length; i++) {
    const c = BigInt(text.charCodeAt(i));
    a = ((a ^ c) * 0x100000001b3n) & mask;
    b = ((b ^ (c + 0x9en)) * 0x1000193n * 0x100000001b3n) & mask;
  }
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let n = (a << 64n) | b;
  let out = '';
  for (let i = 0; i < 26; i++) {
    out += alphabet[Number(n & 31n)];
    n >>= 5n;
  }
  return `tc_${out}`;
}
