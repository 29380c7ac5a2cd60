/**
 * What the assistant's tools do, per channel (DESIGN.md section 6). The tools themselves (name,
 * description, zod schema of the arguments) and the channels' lists are in src/shared/tools.ts; here each
 * channel gets an effect for every tool it offers (`CHANNEL_EFFECTS`, checked by the compiler against
 * `CHANNEL_TOOLS` and `CHANNEL_OPTIONAL_TOOLS`), `channelTools` turns them into the handler table an
 * assistant turn uses (the optional tools only when the agent enables them), and
 * `applyTool` parses a tool call's arguments with the tool's schema before its effect runs. Unknown
 * tools and bad arguments are answered to the model as tool errors, never thrown.
 *
 * The organization's own tools (http tools, MCP servers' tools, installed connectors' tools)
 * extend the table: `resolveCustomTools` asks the `resolveTools` activity what the agent offers,
 * `toolCallKeys` gives each call of a run its `tc_…` key, and `runCustomTool` runs one call as the
 * `runTool` activity (retried within the tool's deadline with the same key) and says its
 * `speak_while_running` when it is slow.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  type LocalActivityOptions,
  setCurrentDetails,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type * as callbackActivities from '../activities/callbacks';
import type * as knowledgeActivities from '../activities/knowledge';
import type * as optOutActivities from '../activities/opt-outs';
import type * as toolActivities from '../activities/tools';
import {
  formatKnowledgeHits,
  knowledgeRefOf,
  type AssistantContextIds,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import { checkFormValues, missingRequired, type FormDefinition, type FormValues } from '../shared/forms';
import { isTransferTarget, type TransferMode } from '../shared/calls';
import type { TransferDestination } from '../shared/dialing';
import { derivedId } from '../shared/ids';
import {
  isToolName,
  offeredTools,
  parseToolArguments,
  toolCallKey,
  TOOLS,
  type CustomTool,
  type ToolDefinition,
  type ToolCallContext,
  type ToolCallRecord,
  type ChannelToolName,
  type ToolArguments,
  type ToolChannel,
  type SwitchableToolName,
  type ToolName,
} from '../shared/tools';
import { TOOL_RETRY } from './retry';

/**
 * The knowledge search behind the `search_knowledge` tool: a store read, 10 s per try, 3 tries. A search
 * that still fails is answered to the model as an error; it never ends the conversation.
 */
const knowledge = proxyActivities<typeof knowledgeActivities>({ startToCloseTimeout: '10 seconds', retry: TOOL_RETRY });

/**
 * The organization's tools: `resolveTools` reads the store and lists MCP servers' tools (15 s
 * per try, 3 tries; a failure offers none of them, the conversation goes on); `runTool` makes one tool
 * call, its options set per call by `runCustomTool` from the tool's deadline.
 */
const toolActivity = proxyActivities<typeof toolActivities>({ startToCloseTimeout: '15 seconds', retry: TOOL_RETRY });

/**
 * `runTool` as a local activity (`runCustomTool` with `local`): run by the worker inside the workflow task
 * that asked for it, its result recorded as a marker, so the call's output is answered in that same task
 * (no activity task, no second workflow task). Its options are set per call as the remote one's.
 */
const localToolActivity = proxyLocalActivities<typeof toolActivities>({ startToCloseTimeout: '15 seconds' });

/**
 * `schedule_callback`'s effect (src/activities/callbacks.ts): store writes and a workflow start, 30 s per
 * try, 5 tries, each with the same input (hence the same new call id). A failure is a tool error.
 */
const callbacks = proxyActivities<typeof callbackActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 5 },
});

/**
 * `opt_out`'s effect (src/activities/opt-outs.ts): store writes and an event, 30 s per try, 5 tries, each
 * with the same input (the same key, hence one contact and one event). A failure is a tool error.
 */
const optOuts = proxyActivities<typeof optOutActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 5 },
});

/** How long a tool may run before a caller hears its `speak_while_running` ("~1 s"). */
export const SPEAK_WHILE_RUNNING_AFTER_MS = 1000;
/** A tool call's activity: missed heartbeats after which its worker is taken for dead and the call retried. */
const TOOL_HEARTBEAT_TIMEOUT_MS = 2000;

/** Knowledge chunks a `search_knowledge` call returns to the model. */
export const SEARCH_TOOL_CHUNKS = 3;

/** What applying a tool call did: the text given back to the model, and whether the turn must stop. */
export interface ToolEffect {
  summary: string;
  /** True when the tool ends the conversation (hang up, transfer, handoff): no further round in this turn. */
  ends: boolean;
  /** Knowledge chunks the tool gave the model (`search_knowledge`). */
  knowledge?: KnowledgeRef[];
}

/**
 * What tool `N` does once its arguments are parsed (`key`: the call's `tc_…` key); an effect that needs the
 * outside world returns a promise.
 */
export type ToolHandler<N extends ToolName> = (args: ToolArguments<N>, key: string) => ToolEffect | Promise<ToolEffect>;

/** A channel's tools as an assistant turn uses them: the handler of each tool offered, in offering order. */
export type ToolHandlers = { [N in ToolName]?: ToolHandler<N> };

/** How a tool ends a call: the call's stop request (src/workflows/call-record.ts `StopRequest`), taken if none came first. */
export interface ToolStop {
  status: 'completed' | 'transferred';
  reason: 'assistant_ended' | 'transferred';
  transferTo?: string;
}

/**
 * Where a callback (`schedule_callback`) is promised and to whom: src/activities/callbacks.ts
 * `ScheduleCallbackInput` without the tool's arguments and the ids the effect derives.
 */
export type CallbackTarget = Omit<callbackActivities.ScheduleCallbackInput, 'callId' | 'toolCallId' | 'at' | 'reason'>;

/** Whose number an `opt_out` on a call records: the person's (an outbound call's `to`, an inbound call's `from`). */
export interface OptOutTarget {
  orgId: string;
  livemode: boolean;
  callId: string;
  phone: string;
}

/** What the tools of a phone call reach of it. */
export interface CallToolTarget {
  /** Whom the call is with and which agent answers (the knowledge searched is the agent's). */
  context: AssistantContextIds;
  /** A browser voice room: there is no phone line to transfer. */
  room: boolean;
  /** The agent's transfer destination, used when the model names none; null if the agent has none. */
  defaultTransferTo: string | null;
  /**
   * The agent's `transfer_destinations`, the only places the model may name; null on a call made before
   * they existed (its model may write the destination itself, as then).
   */
  destinations: readonly TransferDestination[] | null;
  /**
   * Asks the dialing permissions about `to` (src/services/dial-gate.ts `checkDestination`): why it is
   * refused, or null when it may be called.
   */
  checkTransfer(to: string): Promise<string | null>;
  /** How `transfer_call` transfers: the agent's `transfer_mode`. */
  transferMode: TransferMode;
  /** True when a warm transfer cannot happen on this call now (the realtime engine's SIP leg): it goes cold. */
  coldOnly?(): boolean;
  /** Asks the call to end once the turn is over (the first stop request of the call wins). */
  stop(request: ToolStop): void;
  /** Starts a warm transfer to `to`; returns why it cannot (one already runs), else null. */
  warmTransfer(to: string): string | null;
  /** A callback's person, numbers and link (`schedule_callback`, when the agent enables it). */
  callback: CallbackTarget;
  /**
   * Presses `digits` on the line (`send_dtmf`, when the agent enables it): through ConversationRelay on a
   * live call; a simulated call only records them. Resolves false when they could not be sent.
   */
  sendDigits(digits: string): Promise<boolean>;
  /** Whose opt-out `opt_out` records; null when the call has no person's number (a browser voice room). */
  optOut: OptOutTarget | null;
}

/** What the tools of a campaign's call reach of it: a phone call's, and the campaign's form with its values so far. */
export interface CampaignCallToolTarget extends CallToolTarget {
  form: { definition: FormDefinition; values: FormValues | null };
}

/** What the tools of a conversation (WhatsApp, SMS, the widget) reach of it. */
export interface ConversationToolTarget {
  /** Asks for the conversation to go to a person after this turn (`reason`: at most 500 characters). */
  requestHandoff(reason: string): void;
  /** A callback's person, numbers and link (`schedule_callback`: WhatsApp and SMS, when the agent enables it). */
  callback: CallbackTarget;
}

/** The target each channel's effects act on. */
export interface ChannelTargets {
  phone_call: CallToolTarget;
  campaign_call: CampaignCallToolTarget;
  conversation: ConversationToolTarget;
  widget: ConversationToolTarget;
}

type Effect<N extends ToolName, T> = (
  args: ToolArguments<N>,
  target: T,
  key: string,
) => ToolEffect | Promise<ToolEffect>;

/** Each channel's effect of each tool it offers. */
type ChannelEffects = {
  [C in ToolChannel]: { [N in ChannelToolName<C>]: Effect<N, ChannelTargets[C]> };
};

/** The effects of a phone call's tools; a campaign's call has them too. */
const callEffects: { [N in ChannelToolName<'phone_call'>]: Effect<N, CallToolTarget> } = {
  end_call: (_args, call) => {
    call.stop({ status: 'completed', reason: 'assistant_ended' });
    return { summary: 'Call ended.', ends: true };
  },
  transfer_call: (args, call) => {
    if (call.room) return { summary: 'Error: a browser voice call cannot be transferred.', ends: false };
    if (call.destinations === null) return legacyTransfer(args.to, call);
    return transferToDestination(args, call, call.destinations);
  },
  search_knowledge: ({ query }, call) => searchKnowledge(call.context, query),
  schedule_callback: (args, call, key) => scheduleCallback(args, call.callback, key),
  opt_out: (_args, call, key) => optOut(call, key),
  send_dtmf: async ({ digits }, call) => {
    if (call.room) return { summary: 'Error: a browser voice call has no phone keys.', ends: false };
    return (await call.sendDigits(digits))
      ? { summary: `Pressed ${digits}.`, ends: false }
      : { summary: 'Error: the keys could not be pressed on this line right now.', ends: false };
  },
};

/**
 * `transfer_call` on a call made before transfer destinations existed (its agent snapshot has no
 * `transfer_destinations`): the destination the model wrote (`to`), else the agent's `transfer_to`, as
 * those calls always did, so their recorded histories replay unchanged.
 */
function legacyTransfer(asked: string | undefined, call: CallToolTarget): ToolEffect {
  const to = asked || call.defaultTransferTo;
  if (!to || !isTransferTarget(to))
    return {
      summary: 'Error: no valid transfer destination (E.164 number, sip: or client: address).',
      ends: false,
    };
  return startTransfer(call, to, call.transferMode);
}

/**
 * Transfers the call to `to`: starts a warm transfer, or asks the call to end `transferred` (cold; a warm
 * one too when the call cannot brief the person first, `coldOnly`).
 */
function startTransfer(call: CallToolTarget, to: string, mode: TransferMode, name?: string): ToolEffect {
  const where = name ? `${name} (${to})` : to;
  if (mode === 'warm' && !call.coldOnly?.()) {
    const refused = call.warmTransfer(to);
    if (refused) return { summary: `Error: ${refused}.`, ends: false };
    return { summary: `Warm transfer to ${where} started: the caller is on hold while ${to} is briefed.`, ends: true };
  }
  call.stop({ status: 'transferred', reason: 'transferred', transferTo: to });
  return { summary: `Transferring to ${where}.`, ends: true };
}

/**
 * `transfer_call` on a call with transfer destinations (src/shared/dialing.ts): the model names one
 * (`destination`), or none for the agent's `transfer_to`. Anything else it writes (a number, an address,
 * an unknown name, another key) is a tool error and nobody is called. The destination then passes the
 * dialing permissions (`checkTransfer`, the dial gate's rule, asked as an activity) before the transfer
 * starts, warm or cold as the destination (else the agent) says.
 */
function transferToDestination(
  args: ToolArguments<'transfer_call'>,
  call: CallToolTarget,
  destinations: readonly TransferDestination[],
): ToolEffect | Promise<ToolEffect> {
  const names = destinations.map((d) => d.name).join(', ') || 'none';
  const others = Object.keys(args).filter((k) => k !== 'destination');
  if (others.length > 0)
    return {
      summary: `Error: transfer_call takes only "destination", the name of one of the organization's destinations (${names}); numbers and addresses cannot be called. Nobody was called.`,
      ends: false,
    };
  const named = args.destination;
  const chosen = named === undefined ? null : destinations.find((d) => d.name === named);
  if (chosen === undefined)
    return {
      summary: `Error: "${named}" is not one of the organization's transfer destinations (${names}). Nobody was called.`,
      ends: false,
    };
  const to = chosen ? chosen.to : call.defaultTransferTo;
  if (!to) return { summary: `Error: name a destination, one of: ${names}.`, ends: false };
  const mode: TransferMode = chosen && chosen.warm !== null ? (chosen.warm ? 'warm' : 'cold') : call.transferMode;
  return call
    .checkTransfer(to)
    .then((refused) =>
      refused
        ? { summary: `Error: ${refused} Nobody was called.`, ends: false }
        : startTransfer(call, to, mode, chosen?.name),
    );
}

/** A conversation's handoff: the reason the model gave (trimmed, at most 500 characters) or a default one. */
const handoffToPerson: Effect<'handoff_to_person', ConversationToolTarget> = ({ reason }, conversation) => {
  conversation.requestHandoff(reason?.trim() ? reason.trim().slice(0, 500) : 'The assistant asked for a person.');
  return { summary: 'Handed over: a person of the organization answers the customer from now on.', ends: true };
};

/** What every tool does on every channel that offers it. */
export const CHANNEL_EFFECTS: ChannelEffects = {
  phone_call: callEffects,
  campaign_call: { ...callEffects, fill_form: ({ fields }, call) => fillForm(call.form, fields) },
  conversation: {
    handoff_to_person: handoffToPerson,
    schedule_callback: (args, conversation, key) => scheduleCallback(args, conversation.callback, key),
  },
  widget: { handoff_to_person: handoffToPerson },
};

/**
 * The handler table of `channel`'s tools acting on `target`: `CHANNEL_TOOLS[channel]` but those switched
 * `off`, then the optional ones of `CHANNEL_OPTIONAL_TOOLS[channel]` the agent enables (src/shared/tools.ts
 * `offeredTools`), in that order.
 * @param channel the channel the assistant works on
 * @param target what the effects reach of the call or conversation
 * @param enabled the agent's `enabled_tools` (absent: none)
 * @param off default tools not offered (`opt_out` when the agent's `opt_out_tool` is false; absent: none)
 */
export function channelTools<C extends ToolChannel>(
  channel: C,
  target: ChannelTargets[C],
  enabled?: readonly string[],
  off?: readonly SwitchableToolName[],
): ToolHandlers {
  const effects = CHANNEL_EFFECTS[channel] as Record<string, Effect<ToolName, ChannelTargets[C]>>;
  const handlers: Record<string, ToolHandler<ToolName>> = {};
  for (const name of offeredTools(channel, enabled, off))
    handlers[name] = (args, key) => effects[name](args, target, key);
  return handlers as ToolHandlers;
}

/**
 * Applies one tool call (`key`: its `tc_…` key, given to the effect; default the model's id): a tool not
 * in `tools` and arguments its schema refuses (src/shared/tools.ts `parseToolArguments`) are answered to
 * the model as a tool error (`ends: false`), never thrown.
 */
export function applyTool(tools: ToolHandlers, call: ToolCall, key = call.id): ToolEffect | Promise<ToolEffect> {
  const handler = isToolName(call.name) ? (tools[call.name] as ToolHandler<ToolName> | undefined) : undefined;
  if (!handler) {
    const unavailable = isToolName(call.name) ? (TOOLS[call.name] as ToolDefinition).unavailable : undefined;
    return { summary: unavailable ?? `Error: the tool ${call.name} is not available on this call.`, ends: false };
  }
  const parsed = parseToolArguments(call.name as ToolName, call.arguments);
  if (!parsed.ok) return { summary: parsed.error, ends: false };
  return handler(parsed.args, key);
}

/**
 * `search_knowledge`: runs the `searchKnowledge` activity (BM25, fused with vectors when an embedding
 * model is configured, over the agent's documents, src/services/knowledge.ts) and gives the model the best
 * `SEARCH_TOOL_CHUNKS` chunks, numbered, titled and sourced (src/shared/assistant.ts `formatKnowledgeHits`);
 * the effect lists them with their sources, so the transcript shows what the assistant found.
 */
async function searchKnowledge(context: AssistantContextIds, asked: string): Promise<ToolEffect> {
  const query = asked.trim();
  if (!query) return { summary: 'Error: search_knowledge needs a non-empty "query".', ends: false };
  let hits: Awaited<ReturnType<typeof knowledgeActivities.searchKnowledge>>['hits'];
  try {
    ({ hits } = await knowledge.searchKnowledge({
      orgId: context.orgId,
      // A replay's fork of a live agent is a test-mode call reading the agent's live knowledge.
      livemode: context.agentLivemode ?? context.livemode,
      agentId: context.agentId,
      query,
      limit: SEARCH_TOOL_CHUNKS,
    }));
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { summary: 'Error: the knowledge search is unavailable right now.', ends: false, knowledge: [] };
  }
  if (hits.length === 0) return { summary: `No knowledge found for "${query}".`, ends: false, knowledge: [] };
  return { summary: formatKnowledgeHits(hits), ends: false, knowledge: hits.map(knowledgeRefOf) };
}

/**
 * `schedule_callback`: runs the `scheduleCallback` activity (src/services/callbacks.ts) for a new call whose
 * id is derived from the tool call's key `key` and the workflow's time (the same on a retry or a replay, so
 * the callback is created once); the model is given the time it rings in the person's zone, or the error
 * to recover from (an unreadable or past time: it asks again). A failed activity is a tool error too.
 */
async function scheduleCallback(
  { at, reason }: ToolArguments<'schedule_callback'>,
  target: CallbackTarget,
  key: string,
): Promise<ToolEffect> {
  const callId = derivedId('call', Date.now(), key);
  try {
    const result = await callbacks.scheduleCallback.executeWithOptions({ summary: `schedule callback ${callId}` }, [
      { ...target, callId, toolCallId: key, at, reason: reason?.trim() ? reason.trim().slice(0, 500) : null },
    ]);
    return { summary: result.text, ends: false };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return {
      summary: 'Error: the callback could not be scheduled right now; ask the caller to call us instead.',
      ends: false,
    };
  }
}

/**
 * `opt_out` on a call: runs the `recordOptOut` activity (src/services/opt-outs.ts: the contact's
 * `do_not_call`, the do-not-call list, `contact.opted_out` once) keyed by the tool call's key `key` and the
 * workflow's time (the same on a retry or a replay), then asks the call to end once the turn is over
 * (`assistant_ended`). The turn goes on (`ends: false`) so the model's confirmation and goodbye, asked for
 * in the result, are said before the line is hung up. A failed activity is a tool error: the call goes on.
 */
async function optOut(call: CallToolTarget, key: string): Promise<ToolEffect> {
  const target = call.optOut;
  if (!target) return { summary: 'Error: this call has no phone number to opt out.', ends: false };
  try {
    await optOuts.recordOptOut.executeWithOptions({ summary: `opt out (${key})` }, [
      { ...target, channel: 'voice', source: 'opt_out_tool', conversationId: null, key, atMs: Date.now() },
    ]);
  } catch (err) {
    if (isCancellation(err)) throw err;
    return {
      summary:
        'Error: the opt-out could not be recorded right now. Apologise, tell the caller their request is noted, and end the call.',
      ends: false,
    };
  }
  call.stop({ status: 'completed', reason: 'assistant_ended' });
  return {
    summary:
      'Done: this number will not be called again. Confirm that to the caller in one short, polite sentence and say goodbye (no other tool); the call ends after that.',
    ends: false,
  };
}

/**
 * `fill_form` of a campaign's call: checks the model's fields against the form (src/shared/forms.ts
 * `checkFormValues`); good values are merged into `form.values` (later values win) and the model is told
 * which required fields are still missing; a bad value keeps nothing and is answered as an error naming
 * every problem, so the model can ask again or correct it.
 */
function fillForm(form: CampaignCallToolTarget['form'], fields: Record<string, unknown>): ToolEffect {
  const checked = checkFormValues(form.definition, fields);
  if (!checked.ok) return { summary: `Error: nothing saved. ${checked.errors.join('; ')}.`, ends: false };
  form.values = { ...(form.values ?? {}), ...checked.values };
  const missing = missingRequired(form.definition, form.values);
  return {
    summary: `Saved ${Object.keys(checked.values).join(', ')}.${missing.length ? ` Still missing (required): ${missing.join(', ')}.` : ' The form is complete.'}`,
    ends: false,
  };
}

/** The organization's tools a turn offers, and what their calls carry and do besides the request. */
export interface CustomToolSet {
  tools: CustomTool[];
  /** What each request tells the tool's server of the call or conversation. */
  context: ToolCallContext;
  /** A tool with `speak_while_running` is still running after ~1 s: the channel says `text` (a phone call). */
  onSlow?: (text: string) => void;
}

/**
 * The tools `toolIds` and `installationIds` offer besides the channel's built-in ones (`reserved`), from the
 * `resolveTools` activity; none when the agent has none (no activity then) or when it fails.
 */
export async function resolveCustomTools(input: {
  orgId: string;
  livemode: boolean;
  toolIds: readonly string[] | undefined;
  installationIds: readonly string[] | undefined;
  reserved: readonly string[];
}): Promise<CustomTool[]> {
  const toolIds = [...(input.toolIds ?? [])];
  const installationIds = [...(input.installationIds ?? [])];
  if (toolIds.length === 0 && installationIds.length === 0) return [];
  try {
    const { tools } = await toolActivity.resolveTools.executeWithOptions({ summary: 'resolve tools' }, [
      { orgId: input.orgId, livemode: input.livemode, toolIds, installationIds, reserved: [...input.reserved] },
    ]);
    return tools;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return [];
  }
}

/**
 * Makes the keys of a run's tool calls (src/shared/tools.ts `toolCallKey`): each call gets the next rank,
 * so a replay gives every call the key it had.
 */
export function toolCallKeys(): (modelId: string) => string {
  let rank = 0;
  const { workflowId, runId } = workflowInfo();
  return (modelId) => toolCallKey(workflowId, runId, rank++, modelId);
}

/**
 * Runs one call of one of the organization's tools as the `runTool` activity (src/activities/tools.ts):
 * attempts retried within the tool's deadline (`timeoutMs`, + 1 s for the activity to answer its own
 * timeout), a heartbeat timeout of 2 s so a dead worker's attempt is retried at once, the same input
 * (hence the same `Idempotency-Key`) each time. Says `speak_while_running` through `set.onSlow` when the
 * call is still running after `SPEAK_WHILE_RUNNING_AFTER_MS`. The Web UI shows the activity as
 * `tool <name> (<key>)`, and the workflow's current details the outcome (`tool lookup_order → 200 in 312 ms`).
 * With `local` (a realtime call, whose caller waits on the output: src/workflows/call-realtime.ts) the call
 * is a local activity instead, with the same deadline, retries and input: no round trip through the server
 * (Temporal, "Local Activities"); a worker that dies meanwhile is noticed by the workflow task's timeout
 * instead of the 2 s heartbeat, and the next worker makes the call again with the same key.
 * Never throws but for cancellation: a failure is a tool error for the model.
 */
export async function runCustomTool(
  set: CustomToolSet,
  tool: CustomTool,
  call: ToolCall,
  key: string,
  { local = false }: { local?: boolean } = {},
): Promise<{ effect: ToolEffect; record: ToolCallRecord }> {
  const startedMs = Date.now();
  const options: LocalActivityOptions = {
    summary: `tool ${tool.name} (${key})`,
    scheduleToCloseTimeout: tool.timeoutMs + 1000,
    startToCloseTimeout: tool.timeoutMs + 1000,
    retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds' },
  };
  const args: Parameters<typeof toolActivities.runTool> = [
    { tool, toolCallId: key, arguments: call.arguments, context: set.context },
  ];
  const pending = local
    ? localToolActivity.runTool.executeWithOptions(options, args)
    : toolActivity.runTool.executeWithOptions({ ...options, heartbeatTimeout: TOOL_HEARTBEAT_TIMEOUT_MS }, args);
  if (tool.speakWhileRunning && set.onSlow) {
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    if (!(await condition(() => settled, SPEAK_WHILE_RUNNING_AFTER_MS))) set.onSlow(tool.speakWhileRunning);
  }
  try {
    const result = await pending;
    setCurrentDetails(`tool ${result.summary}`);
    return {
      effect: { summary: result.text, ends: false },
      record: { toolCallId: key, ok: result.ok, status: result.status, durationMs: result.durationMs },
    };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const durationMs = Date.now() - startedMs;
    const timedOut = err instanceof ActivityFailure && err.cause instanceof TimeoutFailure;
    const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause.message : null;
    const text = timedOut
      ? `Error: ${tool.name} did not answer within ${Math.round(tool.timeoutMs / 100) / 10} s.`
      : (cause ?? `Error: ${tool.name} failed.`);
    setCurrentDetails(`tool ${tool.name} → error in ${durationMs} ms`);
    return { effect: { summary: text, ends: false }, record: { toolCallId: key, ok: false, status: null, durationMs } };
  }
}
