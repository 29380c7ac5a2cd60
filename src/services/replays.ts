/**
 * Replays: an agent version's answers regenerated on calls the agent already had, before the version
 * is published (README "Replays"). The rules shared by the API (the selection, the start) and the
 * replay's activities (src/activities/replays.ts).
 *
 * - `turn` mode: for every assistant turn of a recorded call, the version is asked for that turn from the
 *   recorded context up to it (the call's transcript as the model saw it, src/services/calls.ts
 *   `callConversation`, with the version's system prompt and tools): the caller's real words and the
 *   recorded tool results, never a tool run. The model's answer is only compared, never executed.
 * - What counts as changed: tool calls that differ (names or arguments) are a change without asking;
 *   words that are equal (case, spacing and punctuation aside) are none; any other difference is put to a
 *   comparer model (`JUDGE_MODEL`, else `OPENAI_MODEL`) with the replay's rubric and structured output
 *   (`TURN_COMPARISON_SCHEMA`), asked again once with its problems, and counted changed when it never
 *   answers validly (a person should look at it).
 * - Privacy: the recorded transcript is what the store holds, redacted where redaction is on; a call whose
 *   text was erased or expired (`text_expired_ms`) is not selectable, is `skipped` when that happens
 *   mid-replay, and its turns vanish from finished replays (erasure and retention delete its replayed turns).
 * - Usage: neither the regenerated turns nor the comparer are metered as the agent's LLM usage (a replay
 *   is a rehearsal); their tokens and cost are reported in the replay.
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import OpenAI from 'openai';
import { config } from '../config';
import { invalidParam } from '../errors';
import { findLiveAgent, type AgentDoc } from '../models/agents';
import { Call } from '../models/calls';
import {
  forkedCallId,
  renderReplay,
  renderReplayCall,
  Replay,
  ReplayCall,
  replayCallId,
  ReplayTurn,
  replayTurnId,
  toolCallsOf,
  type ReplayCallSummary,
  type ReplayObject,
  type ReplayToolCall,
  type ReplayTurnDoc,
} from '../models/replays';
import { insertIfAbsent, type WithId } from '../models/store';
import { tracedChat } from '../platform/genai-tracing';
import { chatMessageParam, openai } from '../providers/openai';
import type { ChatMessage } from '../shared/assistant';
import { derivedId } from '../shared/ids';
import {
  REPLAY_LIMITS,
  REPLAY_WORKFLOW,
  replayWorkflowId,
  TURN_COMPARISON_SCHEMA,
  type ReplayCallOutcome,
  type ReplayInput,
  type ReplayWorkflow,
  type TurnComparison,
} from '../shared/replays';
import { toolCallIdentity } from '../shared/tool-mocks';
import { isToolName, offeredTools, toolFunction, type SwitchableToolName } from '../shared/tools';
import { agentAtVersion, loadVersion } from './agent-versions';
import { agentSnapshot, callConversation } from './calls';
import { callTokens, chatCost } from './costs';
import { emitEvent } from './events';
import { resolveCustomTools } from './tool-calls';
import { argumentProblems } from './tools';
import { modelCost } from '../pricing/costs';

/** The first words of the comparer's system prompt: the loopback fake LLM recognizes a comparison by them. */
export const COMPARER_PROMPT_MARKER = 'You compare two answers of an AI phone assistant';

/** The rubric a replay compares turns by when it gives none. */
export const DEFAULT_REPLAY_RUBRIC =
  'A turn changed when the replayed answer does something different from the original: it offers, promises, asks for, refuses or transfers differently, or states other facts. Other words for the same thing are no change.';

/** Statuses of a call that ended (only those are replayable). */
const ENDED = ['completed', 'transferred'];

/** How a replay picks its calls: listed ids, or a filter (with an optional sample). */
export interface ReplaySelection {
  call_ids?: string[];
  filter?: {
    created?: { gte?: number; lt?: number };
    status?: string[];
    end_reason?: string[];
    verdict?: 'pass' | 'fail';
  };
  sample?: number;
}

/**
 * The recorded calls a new replay `replayId` of `agent` replays: the listed `call_ids` (each the agent's,
 * in the key's mode, ended, with its text: else 400 naming `call_ids[i]`), or the agent's ended calls
 * matching `filter` (created in `[gte, lt)` unix seconds, `status`, `end_reason`, the analysis' success
 * `verdict`), newest first, at most `REPLAY_LIMITS.calls`; `sample: N` keeps N of them picked by
 * SHA-256 of `<replay id>:<call id>` (a retried request picks the same ones). Erased or expired calls
 * (`text_expired_ms`) are never selected.
 * @throws ApiError 400 naming `call_ids[i]`, or `filter` when nothing matches
 */
export async function selectReplayCalls(
  agent: WithId<AgentDoc>,
  selection: ReplaySelection,
  replayId: string,
): Promise<string[]> {
  const tenant = { org_id: agent.org_id, livemode: agent.livemode };
  if (selection.call_ids) {
    const docs = await Call.find(
      { org_id: tenant.org_id, _id: { $in: selection.call_ids } },
      { org_id: 1, livemode: 1, agent_id: 1, status: 1, text_expired_ms: 1 },
    ).lean();
    const byId = new Map(docs.map((d) => [d._id, d]));
    selection.call_ids.forEach((id, i) => {
      const d = byId.get(id);
      if (!d || d.org_id !== tenant.org_id || d.livemode !== tenant.livemode || d.agent_id !== agent._id)
        throw invalidParam(`call_ids[${i}]`, `No call ${id} of agent ${agent._id} in this mode.`);
      if (!ENDED.includes(d.status) || d.text_expired_ms != null)
        throw invalidParam(
          `call_ids[${i}]`,
          `The call ${id} cannot be replayed: it has not ended with a conversation, or its transcript was erased or expired.`,
        );
    });
    return [...new Set(selection.call_ids)];
  }
  const f = selection.filter ?? {};
  const created: Record<string, number> = {};
  if (f.created?.gte !== undefined) created.$gte = f.created.gte;
  if (f.created?.lt !== undefined) created.$lt = f.created.lt;
  const docs = await Call.find(
    {
      ...tenant,
      agent_id: agent._id,
      status: { $in: f.status?.length ? f.status.filter((s) => ENDED.includes(s)) : ENDED },
      text_expired_ms: null,
      ...(Object.keys(created).length ? { created } : {}),
      ...(f.end_reason?.length ? { end_reason: { $in: f.end_reason } } : {}),
    },
    { _id: 1, analysis_json: 1 },
  )
    .sort({ _id: -1 })
    .lean();
  let ids = docs
    .filter((d) => !f.verdict || verdictOf(d.analysis_json) === f.verdict)
    .map((d) => d._id)
    .slice(0, REPLAY_LIMITS.calls);
  if (selection.sample !== undefined && selection.sample < ids.length) {
    const rank = (id: string) => crypto.createHash('sha256').update(`${replayId}:${id}`).digest('hex');
    const kept = new Set([...ids].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, selection.sample));
    ids = ids.filter((id) => kept.has(id));
  }
  if (!ids.length) throw invalidParam('filter', 'No ended call of this agent matches the filter.');
  return ids;
}

/** The success verdict of a stored analysis (`analysis_json`), or null. */
export function verdictOf(json: string | null | undefined): string | null {
  if (!json) return null;
  try {
    return (JSON.parse(json) as { success?: { verdict?: string } | null }).success?.verdict ?? null;
  } catch {
    return null;
  }
}

/** The structured data of a stored analysis (`analysis_json`) when it is an object, else null. */
export function structuredDataOf(json: string | null | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const data = (JSON.parse(json) as { structured_data?: unknown }).structured_data;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * What the analyses of a recorded call and of its replay found as structured data (each null without
 * any), and the keys whose values differ (JSON with keys sorted; a key on one side only differs; none
 * when either side has no structured data), sorted.
 */
export function structuredDataChange(
  originalJson: string | null | undefined,
  replayedJson: string | null | undefined,
): { original: Record<string, unknown> | null; forked: Record<string, unknown> | null; changed_keys: string[] } {
  const original = structuredDataOf(originalJson);
  const forked = structuredDataOf(replayedJson);
  if (!original || !forked) return { original, forked, changed_keys: [] };
  const canonical = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === 'object' && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
        : x,
    ) ?? 'undefined';
  const keys = [...new Set([...Object.keys(original), ...Object.keys(forked)])].sort();
  return { original, forked, changed_keys: keys.filter((k) => canonical(original[k]) !== canonical(forked[k])) };
}

/** Starts the replay's `replayWorkflow` (workflow id = replay id, `REJECT_DUPLICATE`); one already started is fine. */
export async function startReplay(temporal: Client, input: ReplayInput, taskQueue: string): Promise<void> {
  try {
    await temporal.workflow.start<ReplayWorkflow>(REPLAY_WORKFLOW, {
      workflowId: replayWorkflowId(input.replayId),
      taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Replay of ${input.agentId} v${input.version}: ${input.callIds.length} calls (${input.mode})`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Records call `callId`'s state in replay `replayId` (its own row: one writer, the call's activities). */
export async function saveReplayCall(
  replayId: string,
  callId: string,
  index: number,
  set: { status: string; summary?: ReplayCallSummary | null; error?: string | null },
): Promise<void> {
  await ReplayCall.updateOne(
    { _id: replayCallId(replayId, callId) },
    {
      $set: {
        replay_id: replayId,
        call_id: callId,
        index,
        status: set.status,
        summary_json: set.summary ? JSON.stringify(set.summary) : null,
        error: set.error ?? null,
        updated_ms: Date.now(),
      },
    },
    { upsert: true },
  );
}

/** One assistant turn of a recorded conversation: where it is, what it answered, what it said. */
interface RecordedTurn {
  /** Index of the assistant message in the conversation. */
  at: number;
  caller: string | null;
  text: string | null;
  toolCalls: ReplayToolCall[];
}

/**
 * The assistant turns of a conversation the model answered: assistant messages right after a user or
 * tool message (an opening said before the caller spoke, the first message or the AI disclosure, is
 * no answer and is not replayed), at most `REPLAY_LIMITS.turnsPerCall`.
 */
export function answeredTurns(messages: ChatMessage[]): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  let caller: string | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'user') caller = typeof m.content === 'string' ? m.content : null;
    const prev = messages[i - 1];
    if (m.role !== 'assistant' || !prev || (prev.role !== 'user' && prev.role !== 'tool')) return;
    turns.push({
      at: i,
      caller: prev.role === 'user' ? caller : null,
      text: typeof m.content === 'string' && m.content ? m.content : null,
      toolCalls: (m.tool_calls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })),
    });
  });
  return turns.slice(0, REPLAY_LIMITS.turnsPerCall);
}

/** Lower case, letters and digits only, one space between words: how two answers' words are compared. */
const words = (text: string | null) =>
  (text ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A tool call's identity for comparison: its name and its arguments with keys sorted. */
const toolKey = (c: ReplayToolCall): string => toolCallIdentity(c.name, c.arguments);

/** Whether two turns' tool calls differ (as multisets of `toolKey`). */
export function toolCallsDiffer(a: ReplayToolCall[], b: ReplayToolCall[]): boolean {
  return JSON.stringify(a.map(toolKey).sort()) !== JSON.stringify(b.map(toolKey).sort());
}

/** What the version offers the model on a phone call: its built-in tools and its organization's tools. */
async function versionTools(agent: WithId<AgentDoc>): Promise<OpenAI.Chat.Completions.ChatCompletionTool[]> {
  const snap = agentSnapshot(agent);
  const off: SwitchableToolName[] = [];
  if (snap.opt_out_tool === false) off.push('opt_out');
  if (!snap.transfer_to && !snap.transfer_destinations?.length) off.push('transfer_call');
  const builtIn = offeredTools('phone_call', snap.enabled_tools, off).filter(
    (t) => isToolName(t) && t !== 'search_knowledge',
  );
  const { tools } = await resolveCustomTools(
    { orgId: agent.org_id, livemode: agent.livemode },
    { toolIds: snap.tool_ids ?? [], installationIds: snap.connector_installation_ids ?? [] },
    builtIn,
  );
  return [
    ...builtIn.map((t) => ({ type: 'function' as const, function: toolFunction(t) })),
    ...tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
  ];
}

/** What a replay's call needs: the replay, the recorded call, the version replayed and what it offers. */
interface ReplayCallContext {
  replayId: string;
  callId: string;
  rubric: string;
  messages: ChatMessage[];
  tools: OpenAI.Chat.Completions.ChatCompletionTool[];
  model: string;
}

/** The failure name of a replay whose agent or version is gone (the call is `errored`, not retried). */
export const REPLAY_AGENT_MISSING = 'ReplayAgentMissing';

/**
 * Loads what replaying call `callId` needs; null when the recorded call can no longer be replayed (its
 * text erased or expired since the replay was created).
 * @throws Error named `REPLAY_AGENT_MISSING` when the agent or the version is gone
 */
async function replayCallContext(replayId: string, callId: string): Promise<ReplayCallContext | null> {
  const replay = await Replay.findById(replayId).lean();
  if (!replay) throw new Error(`replay ${replayId} has no document`);
  const call = await Call.findById(callId, { text_expired_ms: 1 }).lean();
  if (!call || call.text_expired_ms != null) return null;
  const agent = await findLiveAgent({ orgId: replay.org_id, livemode: replay.livemode }, replay.agent_id);
  const snapshot = agent ? await loadVersion(agent, replay.agent_version) : null;
  if (!agent || !snapshot) {
    const err = new Error(`The agent ${replay.agent_id} or its version ${replay.agent_version} no longer exists.`);
    err.name = REPLAY_AGENT_MISSING;
    throw err;
  }
  const versioned = agentAtVersion(agent, snapshot);
  return {
    replayId,
    callId,
    rubric: replay.rubric ?? DEFAULT_REPLAY_RUBRIC,
    messages: await callConversation(callId, agentSnapshot(versioned)),
    tools: await versionTools(versioned),
    model: versioned.model ?? config().openaiModel,
  };
}

/**
 * Replays every answered turn of call `callId` in replay `replayId` (`turn` mode): each turn not stored
 * yet is asked of the version and compared (`compareTurn`), and stored at once, so a retried attempt
 * (a worker killed) asks only for the turns left. `beat` is called between turns (the activity's heartbeat).
 * @returns the call's outcome: `skipped` when it has no answered turn or its text is gone
 */
export async function replayCallTurns(
  replayId: string,
  callId: string,
  beat: () => void = () => {},
  signal?: AbortSignal,
): Promise<ReplayCallOutcome> {
  const ctx = await replayCallContext(replayId, callId);
  if (!ctx) return { status: 'skipped', turns: 0, changed: 0 };
  const turns = answeredTurns(ctx.messages);
  if (!turns.length) return { status: 'skipped', turns: 0, changed: 0 };
  const done = new Set(
    (await ReplayTurn.find({ replay_id: replayId, call_id: callId }, { turn: 1 }).lean()).map((t) => t.turn),
  );
  for (const [n, turn] of turns.entries()) {
    beat();
    if (done.has(n)) continue;
    await insertIfAbsent(ReplayTurn, await replayTurn(ctx, n, turn, signal));
  }
  const rows = await ReplayTurn.find({ replay_id: replayId, call_id: callId }).sort({ turn: 1 }).lean();
  return { status: 'completed', turns: rows.length, changed: rows.filter((r) => r.changed).length };
}

/** Turn `n` asked of the version from the recorded context before it, and compared with what was said. */
async function replayTurn(
  ctx: ReplayCallContext,
  n: number,
  turn: RecordedTurn,
  signal?: AbortSignal,
): Promise<WithId<ReplayTurnDoc>> {
  const completion = await tracedChat(
    ctx.model,
    () =>
      openai().chat.completions.create(
        {
          model: ctx.model,
          messages: ctx.messages.slice(0, turn.at).map(chatMessageParam),
          ...(ctx.tools.length ? { tools: ctx.tools } : {}),
          user: `${ctx.replayId}:${ctx.callId}`,
        },
        { signal },
      ),
    { purpose: 'replay' },
  );
  const message = completion.choices[0]?.message;
  const text = message?.content?.trim() || null;
  const toolCalls = (message?.tool_calls ?? [])
    .filter((c): c is OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall => c.type === 'function')
    .map((c) => ({ name: c.function.name, arguments: c.function.arguments }));
  const base = {
    _id: replayTurnId(ctx.replayId, ctx.callId, n),
    replay_id: ctx.replayId,
    call_id: ctx.callId,
    turn: n,
    caller_text: turn.caller,
    original_text: turn.text,
    original_tools_json: JSON.stringify(turn.toolCalls),
    replayed_text: text,
    replayed_tools_json: JSON.stringify(toolCalls),
    model: completion.model,
    prompt_tokens: completion.usage?.prompt_tokens ?? 0,
    completion_tokens: completion.usage?.completion_tokens ?? 0,
  };
  if (toolCallsDiffer(turn.toolCalls, toolCalls))
    return { ...base, changed: true, basis: 'tool_calls', explanation: 'The tool calls differ.' };
  if (words(turn.text) === words(text)) return { ...base, changed: false, basis: 'same', explanation: null };
  const verdict = await compareTurn(ctx, turn, text, signal);
  return { ...base, changed: verdict.changed, basis: 'judged', explanation: verdict.explanation };
}

/**
 * The comparer's verdict on one turn whose words differ: asked with structured output, once more with
 * the problems of an invalid answer; counted changed when it never answers validly.
 */
async function compareTurn(
  ctx: ReplayCallContext,
  turn: RecordedTurn,
  replayed: string | null,
  signal?: AbortSignal,
): Promise<TurnComparison> {
  const model = config().judgeModel ?? config().openaiModel;
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    {
      role: 'system',
      content: [
        `${COMPARER_PROMPT_MARKER}: the one it gave on a recorded call, and the one a new version of it gives at the same point of the same call.`,
        `Decide by this rubric: ${ctx.rubric}`,
        'Answer with one JSON object: "changed" (true or false) and "explanation" (one or two sentences).',
      ].join('\n'),
    },
    {
      role: 'user',
      content: `Caller: ${turn.caller ?? '(a tool result)'}\nOriginal answer: ${turn.text ?? '(nothing said)'}\nReplayed answer: ${replayed ?? '(nothing said)'}`,
    },
  ];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const completion = await tracedChat(
      model,
      () =>
        openai().chat.completions.create(
          {
            model,
            messages,
            response_format: {
              type: 'json_schema',
              json_schema: { name: 'turn_comparison', schema: TURN_COMPARISON_SCHEMA, strict: false },
            },
            user: `${ctx.replayId}:${ctx.callId}`,
          },
          { signal },
        ),
      { purpose: 'judge' },
    );
    const answer = completion.choices[0]?.message?.content ?? '';
    let value: unknown = null;
    let errors: string[];
    try {
      value = JSON.parse(answer);
      errors = argumentProblems(TURN_COMPARISON_SCHEMA, value);
    } catch (err) {
      errors = [`the answer is not valid JSON (${(err as Error).message})`];
    }
    if (!errors.length) return value as TurnComparison;
    messages.push(
      { role: 'assistant', content: answer.slice(0, 4000) },
      { role: 'user', content: `That answer is not valid: ${errors.join('; ')}. Answer again.` },
    );
  }
  return { changed: true, explanation: "The comparer gave no valid answer: counted changed, for a person's look." };
}

/** Names in `a` not matched in `b`, as multisets. */
export function missingNames(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((n) => {
    const i = left.indexOf(n);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/**
 * The summary of call `callId` in replay `replayId` from its stored turns: turns and changed turns, tool
 * calls added and removed (by name), transfers, characters said, and tokens and model cost of the
 * recorded call (its usage rows) beside the replay's regenerated turns.
 */
export async function summarizeReplayCall(replayId: string, callId: string): Promise<ReplayCallSummary> {
  const rows = await ReplayTurn.find({ replay_id: replayId, call_id: callId }).sort({ turn: 1 }).lean();
  const original = rows.flatMap((r) => toolCallsOf(r.original_tools_json).map((c) => c.name));
  const replayed = rows.flatMap((r) => toolCallsOf(r.replayed_tools_json).map((c) => c.name));
  const used = await callTokens(callId);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  const replayedCost = rows.reduce<number | null>((n, r) => {
    const c = chatCost(r.model, r.prompt_tokens, r.completion_tokens).model;
    return n === null || c === null ? null : n + c;
  }, 0);
  return {
    turns: rows.length,
    turns_changed: rows.filter((r) => r.changed).length,
    tool_calls: { added: missingNames(replayed, original), removed: missingNames(original, replayed) },
    transfer: { original: original.includes('transfer_call'), replayed: replayed.includes('transfer_call') },
    length: {
      original_chars: sum((r) => (r.original_text ?? '').length),
      replayed_chars: sum((r) => (r.replayed_text ?? '').length),
    },
    tokens: {
      original: {
        prompt: used.reduce((n, u) => n + u.input + u.cachedInput, 0),
        completion: used.reduce((n, u) => n + u.output, 0),
      },
      replayed: { prompt: sum((r) => r.prompt_tokens), completion: sum((r) => r.completion_tokens) },
    },
    cost_micros: { original: modelCost(config().prices, used), replayed: replayedCost },
  };
}

/**
 * Replay `replayId` rendered: its calls in order, each with its summary and turns; a call whose recorded
 * text was erased or expired since shows `erased: true` and no turns.
 */
export async function loadReplay(replayId: string): Promise<ReplayObject | null> {
  const doc = await Replay.findById(replayId).lean();
  if (!doc) return null;
  const rows = new Map((await ReplayCall.find({ replay_id: replayId }).lean()).map((r) => [r.call_id, r]));
  const turns = await ReplayTurn.find({ replay_id: replayId }).sort({ call_id: 1, turn: 1 }).lean();
  const gone = new Set(
    (await Call.find({ org_id: doc.org_id, _id: { $in: doc.call_ids } }, { text_expired_ms: 1 }).lean())
      .filter((c) => c.text_expired_ms != null)
      .map((c) => c._id),
  );
  const calls = doc.call_ids.map((id, i) =>
    renderReplayCall(
      id,
      rows.get(id),
      turns.filter((t) => t.call_id === id),
      gone.has(id),
      doc.mode === 'fork' && rows.get(id) ? forkedCallId(doc._id, id, i) : null,
    ),
  );
  return renderReplay(doc, calls);
}

/** A replay object with every call's `turns` emptied (what `replay.completed` carries). */
export const withoutTurns = (replay: ReplayObject): ReplayObject => ({
  ...replay,
  calls: replay.calls.map((c) => ({ ...c, turns: [] })),
});

/**
 * Completes replay `replayId` once (`completed`, `completed_ms`; a retry keeps the first), then emits
 * `replay.completed` under an id derived from the replay id (one event, whatever the retries).
 */
export async function completeReplay(temporal: Client, replayId: string): Promise<void> {
  await Replay.updateOne(
    { _id: replayId, status: 'running' },
    { $set: { status: 'completed', completed_ms: Date.now() } },
  );
  const doc = await Replay.findById(replayId).lean();
  if (!doc) throw new Error(`replay ${replayId} has no document`);
  const createdMs = doc.completed_ms ?? Date.now();
  await emitEvent(temporal, {
    id: derivedId('evt', createdMs, `${replayId}:completed`),
    orgId: doc.org_id,
    livemode: doc.livemode,
    type: 'replay.completed',
    createdMs,
    // The turns stay behind `GET /v1/agents/{id}/replays/{replay_id}`: an event carries the summaries only.
    object: withoutTurns((await loadReplay(replayId))!),
  });
}
