/**
 * `fork` replays (README "Replays of recorded calls"): each recorded call played again as a new test-mode
 * call of the organization with the replayed agent version, never dialed (a persona answers
 * `SCENARIO_CALL_TO`, as a test suite's scenario, src/services/test-suites.ts).
 *
 * - The caller: the recorded caller's lines before the replay's `from_turn` (1-based, default 1) are said
 *   as they were, then a persona caller (src/services/simulator.ts) seeded by all the recorded lines and
 *   the goal they show (with the call's analysis summary when it has one) speaks; it may take a few turns
 *   more than the recorded caller did.
 * - The tools: mocked (src/shared/tool-mocks.ts) from the recorded call's tool turns: the same name and
 *   arguments get the recorded result, else the tool's `mock` rule or default (`mock_rule`), any other
 *   call a model's made-up result (`generated`); no tool with effects outside the call runs, no request
 *   reaches a tool's server.
 * - The comparison (`summarizeForkedCall`): tool calls made and no longer made (by name), the transfer,
 *   the status and end reason, assistant characters, tokens and model cost of each call (their usage
 *   rows), and the analysis plan's verdict of each (the forked call's analysis runs as any test call's,
 *   after its end: `awaitForkedAnalysis` waits for it).
 * - Always test mode: a replay of a live agent's calls (a live key) forks them as test-mode calls of the
 *   organization (`agent_livemode`: the agent's tools and knowledge read in live mode), never dialed,
 *   metered in test mode (never in live usage); the tools' `mock` rules are those of the agent's tools
 *   when the forked call is built.
 */
import { findLiveAgent } from '../models/agents';
import { findLiveTool } from '../models/tools';
import { Call, CallTurn } from '../models/calls';
import { forkedCallId, Replay, type ForkSummary, type JudgeSide, type ReplayCallSummary } from '../models/replays';
import { config } from '../config';
import { modelCost } from '../pricing/costs';
import { PERSONA_LIMITS, type CallWorkflowInput } from '../shared/calls';
import { TOOL_MOCK_LIMITS, type RecordedToolResult, type ToolMock } from '../shared/tool-mocks';
import { agentAtVersion, loadVersion } from './agent-versions';
import { aiDisclosureEnabled } from './ai-disclosure';
import { newCallInput } from './calls';
import { callTokens } from './costs';
import { missingNames, REPLAY_AGENT_MISSING, structuredDataChange, verdictOf } from './replays';
import { askJudge, SCENARIO_CALL_TO } from './test-suites';

/** Caller turns a forked call may take beyond the recorded caller's. */
const EXTRA_TURNS = 5;

/** What a forked call takes of a recorded one: the caller's lines, the tool turns, the ends. */
interface RecordedCall {
  callerLines: string[];
  tools: RecordedToolResult[];
  assistantChars: number;
}

/** The caller's lines (backchannels aside), the tool turns that ran and the assistant's characters of call `callId`. */
async function recordedCall(callId: string): Promise<RecordedCall> {
  const turns = await CallTurn.find({ call_id: callId }).sort({ seq: 1 }).lean();
  return {
    callerLines: turns.filter((t) => t.role === 'caller' && !t.backchannel).map((t) => t.text),
    tools: turns
      .filter((t) => t.role === 'tool' && t.tool_name && !t.tool_outcome)
      .map((t) => ({
        name: t.tool_name!,
        arguments: t.tool_arguments_json ?? '{}',
        result: t.text.slice(0, TOOL_MOCK_LIMITS.resultChars),
      }))
      .slice(0, TOOL_MOCK_LIMITS.recorded),
    assistantChars: turns.filter((t) => t.role === 'assistant').reduce((n, t) => n + t.text.length, 0),
  };
}

/** The `summary` of a stored analysis (`analysis_json`), or null. */
function analysisSummary(json: string | null | undefined): string | null {
  if (!json) return null;
  try {
    return (JSON.parse(json) as { summary?: string | null }).summary ?? null;
  } catch {
    return null;
  }
}

/** The persona and goal of a forked call's caller: the recorded lines, and the analysis summary when there is one. */
function forkPersona(lines: string[], analysisJson: string | null | undefined): { persona: string; goal: string } {
  const summary = analysisSummary(analysisJson);
  const said = lines.map((l, i) => `${i + 1}. ${l}`).join('\n');
  const max = PERSONA_LIMITS.maxChars;
  return {
    persona:
      `The same person as on a recorded call, talking the same way. On that call you said, in order:\n${said}`.slice(
        0,
        max,
      ),
    goal: `What you wanted on that call, as your lines there show${summary ? ` (the call's summary: ${summary})` : ''}.`.slice(
      0,
      max,
    ),
  };
}

/**
 * The `callWorkflow` input of the forked call of recorded call `callId` (position `index`) in replay
 * `replayId`: a test-mode call of the replayed version (`forkedCallId`), its caller the recorded lines
 * before `from_turn` then a persona, its tools mocked from the recorded results, metadata naming the
 * replay and the call, no dial gate. Null when the recorded call's text was erased or expired since.
 * @throws Error named `REPLAY_AGENT_MISSING` when the agent or the version is gone
 */
export async function forkedCallInput(
  replayId: string,
  callId: string,
  index: number,
): Promise<CallWorkflowInput | null> {
  const replay = await Replay.findById(replayId).lean();
  if (!replay) throw new Error(`replay ${replayId} has no document`);
  const call = await Call.findById(callId, { text_expired_ms: 1, analysis_json: 1 }).lean();
  if (!call || call.text_expired_ms != null) return null;
  const tenant = { orgId: replay.org_id, livemode: replay.livemode };
  const agent = await findLiveAgent(tenant, replay.agent_id);
  const snapshot = agent ? await loadVersion(agent, replay.agent_version) : null;
  if (!agent || !snapshot) {
    const err = new Error(`The agent ${replay.agent_id} or its version ${replay.agent_version} no longer exists.`);
    err.name = REPLAY_AGENT_MISSING;
    throw err;
  }
  const recorded = await recordedCall(callId);
  const verbatim = recorded.callerLines.slice(0, Math.max(0, (replay.from_turn ?? 1) - 1));
  const version = agentAtVersion(agent, snapshot);
  const { dial_gate: _none, ...input } = newCallInput(
    forkedCallId(replayId, callId, index),
    // Always a test-mode call: never dialed, metered and shown in test mode, whatever the replay's key.
    { orgId: replay.org_id, livemode: false, aiDisclosure: await aiDisclosureEnabled(tenant) },
    version,
    {
      to: SCENARIO_CALL_TO,
      metadata: { replay: replayId, replayed_call: callId },
      simulation: {
        ...forkPersona(recorded.callerLines, call.analysis_json),
        max_turns: Math.min(PERSONA_LIMITS.maxTurns, recorded.callerLines.length + EXTRA_TURNS),
      },
    },
  );
  const rules = await toolMockRules(tenant, version.tool_ids ?? []);
  return {
    ...input,
    simulation: { ...input.simulation!, caller: verbatim },
    tool_mocks: { recorded: recorded.tools, ...(rules.length ? { rules } : {}) },
    ...(tenant.livemode ? { agent_livemode: true as const } : {}),
  };
}

/** The `mock` of each of `toolIds` (the tenant's live http tools) that has one, by the tool's name. */
async function toolMockRules(
  tenant: { orgId: string; livemode: boolean },
  toolIds: readonly string[],
): Promise<{ name: string; mock: ToolMock }[]> {
  const docs = await Promise.all(toolIds.map((id) => findLiveTool(tenant, id)));
  return docs
    .filter((d) => d?.type === 'http' && d.mock_json)
    .map((d) => ({ name: d!.name, mock: JSON.parse(d!.mock_json!) as ToolMock }));
}

/** How long `awaitForkedAnalysis` waits for the forked call's analysis, and how often it looks (ms). */
const ANALYSIS_WAIT = { totalMs: 120_000, everyMs: 500 } as const;

/**
 * Waits until forked call `forkedId` has its analysis stored, when it gets one (a plan, a caller turn);
 * `beat` is called each look (the activity's heartbeat). Gives up after `ANALYSIS_WAIT.totalMs`: the
 * verdict is then reported null.
 */
export async function awaitForkedAnalysis(forkedId: string, beat: () => void = () => {}): Promise<void> {
  const until = Date.now() + ANALYSIS_WAIT.totalMs;
  for (;;) {
    const call = await Call.findById(forkedId, { analysis_plan_json: 1, analysis_json: 1 }).lean();
    if (!call?.analysis_plan_json || call.analysis_json) return;
    if (!(await CallTurn.exists({ call_id: forkedId, role: 'caller' }))) return;
    if (Date.now() > until) return;
    beat();
    await new Promise((r) => setTimeout(r, ANALYSIS_WAIT.everyMs));
  }
}

/** Whether a call was transferred: its status, or a `transfer_call` tool call. */
const transferred = (status: string, names: string[]) => status === 'transferred' || names.includes('transfer_call');

/**
 * What forked call `forkedId` changed against recorded call `callId`: its summary (`ReplayCallSummary`,
 * `turns` the forked call's assistant turns and `turns_changed` 0: a fork's turns are not paired) with
 * `fork` (`ForkSummary`): changed when the tool calls (by name), the transfer, the status, the end reason,
 * the analysis verdicts (both known) or the analyses' structured data (both known, `structuredDataChange`) differ.
 */
export async function summarizeForkedCall(callId: string, forkedId: string): Promise<ReplayCallSummary> {
  const [original, forked] = await Promise.all([
    Call.findById(callId, { status: 1, end_reason: 1, analysis_json: 1 }).lean(),
    Call.findById(forkedId, { status: 1, end_reason: 1, analysis_json: 1 }).lean(),
  ]);
  if (!original || !forked) throw new Error(`call ${callId} or its fork ${forkedId} has no document`);
  const turns = await CallTurn.find({ call_id: forkedId }, { role: 1, text: 1, tool_name: 1, tool_mocked: 1 }).lean();
  const was = await recordedCall(callId);
  const before = was.tools.map((t) => t.name);
  const after = turns.filter((t) => t.role === 'tool' && t.tool_name).map((t) => t.tool_name!);
  const [usedBefore, usedAfter] = await Promise.all([callTokens(callId), callTokens(forkedId)]);
  const tokens = (used: typeof usedBefore) => ({
    prompt: used.reduce((n, u) => n + u.input + u.cachedInput, 0),
    completion: used.reduce((n, u) => n + u.output, 0),
  });
  const tool_calls = { added: missingNames(after, before), removed: missingNames(before, after) };
  const transfer = { original: transferred(original.status, before), replayed: transferred(forked.status, after) };
  const verdict = { original: verdictOf(original.analysis_json), forked: verdictOf(forked.analysis_json) };
  const structured_data = structuredDataChange(original.analysis_json, forked.analysis_json);
  const fork: ForkSummary = {
    call_id: forkedId,
    changed:
      tool_calls.added.length > 0 ||
      tool_calls.removed.length > 0 ||
      transfer.original !== transfer.replayed ||
      original.status !== forked.status ||
      (original.end_reason ?? null) !== (forked.end_reason ?? null) ||
      (verdict.original !== null && verdict.forked !== null && verdict.original !== verdict.forked) ||
      structured_data.changed_keys.length > 0,
    status: { original: original.status, forked: forked.status },
    end_reason: { original: original.end_reason ?? null, forked: forked.end_reason ?? null },
    tool_results: {
      recorded: turns.filter((t) => t.tool_mocked === 'recorded').length,
      mock_rule: turns.filter((t) => t.tool_mocked === 'mock_rule').length,
      generated: turns.filter((t) => t.tool_mocked === 'generated').length,
    },
    verdict,
    structured_data,
  };
  return {
    turns: turns.filter((t) => t.role === 'assistant').length,
    turns_changed: 0,
    tool_calls,
    transfer,
    length: {
      original_chars: was.assistantChars,
      replayed_chars: turns.filter((t) => t.role === 'assistant').reduce((n, t) => n + t.text.length, 0),
    },
    tokens: { original: tokens(usedBefore), replayed: tokens(usedAfter) },
    cost_micros: { original: modelCost(config().prices, usedBefore), replayed: modelCost(config().prices, usedAfter) },
    fork,
  };
}

/**
 * The test-suite judge's verdict of call `callId` (src/services/test-suites.ts `askJudge`) by `rubric`,
 * the caller's persona and goal those of the fork (`forkPersona`): asked once more with the problems of
 * an invalid answer; null when it never answers validly.
 */
async function judgeSide(
  callId: string,
  seed: { persona: string; goal: string },
  rubric: string,
  signal?: AbortSignal,
): Promise<JudgeSide | null> {
  const scenario = { name: 'replay', ...seed, rubric };
  let answer = await askJudge({ callId, scenario, request: 1, signal });
  if (!answer.ok)
    answer = await askJudge({
      callId,
      scenario,
      request: 2,
      previous: { text: answer.text, errors: answer.errors },
      signal,
    });
  return answer.ok ? { verdict: answer.verdict.verdict, score: answer.verdict.score } : null;
}

/**
 * The forked call's summary (`summarizeForkedCall`) with, when replay `replayId` has a `rubric`, the
 * test-suite judge's verdict of the recorded call and of the forked one (`fork.judge`; two verdicts that
 * differ make the call changed).
 */
export async function judgedForkSummary(
  replayId: string,
  callId: string,
  forkedId: string,
  signal?: AbortSignal,
): Promise<ReplayCallSummary> {
  const summary = await summarizeForkedCall(callId, forkedId);
  const replay = await Replay.findById(replayId, { rubric: 1 }).lean();
  if (!replay?.rubric || !summary.fork) return summary;
  const call = await Call.findById(callId, { analysis_json: 1 }).lean();
  const seed = forkPersona((await recordedCall(callId)).callerLines, call?.analysis_json);
  const [original, forked] = [
    await judgeSide(callId, seed, replay.rubric, signal),
    await judgeSide(forkedId, seed, replay.rubric, signal),
  ];
  const differ = original !== null && forked !== null && original.verdict !== forked.verdict;
  return {
    ...summary,
    fork: { ...summary.fork, changed: summary.fork.changed || differ, judge: { original, forked } },
  };
}
