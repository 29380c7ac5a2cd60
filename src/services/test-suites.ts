/**
 * Test suites: the rules shared by the API (runs started) and the run's activities
 * (src/activities/test-suites.ts): each scenario's call built through the same path as a test call
 * (src/services/calls.ts `newCallInput`, with the agent's tools, knowledge and settings), the judge asked
 * and its verdict checked, the run finished with its comparison and its `test_suite_run.completed` event.
 *
 * - The judge: one Chat Completions request with structured output (`response_format: {type: "json_schema"}`,
 *   src/shared/test-suites.ts `JUDGE_VERDICT_SCHEMA`), or JSON mode with the schema in the prompt for a
 *   server that refuses `json_schema` (as src/services/analysis.ts asks for analyses). The answer must be
 *   valid against the schema and every reason's `quote` must appear in the transcript (whitespace and case
 *   aside); the workflow asks once more with the problems, then the scenario is `errored`, never passed.
 * - Usage: neither the simulator's nor the judge's requests are metered (no usage row): a suite runs in
 *   test mode only and is never billed as the agent's LLM usage. Each scenario's call meters its
 *   assistant's requests as any test call does.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import OpenAI from 'openai';
import { config } from '../config';
import { findLiveAgent } from '../models/agents';
import { findLiveSquad } from '../models/squads';
import { squadForCall } from './squads';
import {
  renderTestSuiteRun,
  scenarioResultId,
  TestScenarioResult,
  TestSuiteRun,
  type RunComparison,
  type TestSuiteRunObject,
} from '../models/test-suites';
import { openai } from '../providers/openai';
import { tracedChat } from '../platform/genai-tracing';
import type { CallWorkflowInput } from '../shared/calls';
import { derivedId, idTime } from '../shared/ids';
import {
  JUDGE_VERDICT_SCHEMA,
  MAX_JUDGE_TEXT,
  TEST_SUITE_RUN_WORKFLOW,
  testSuiteRunWorkflowId,
  type JudgeAnswer,
  type JudgeVerdict,
  type ScenarioResult,
  type ScenarioStatus,
  type TestScenario,
  type TestSuiteRunInput,
  type TestSuiteRunWorkflow,
} from '../shared/test-suites';
import { analysisTranscript, transcriptQuestion } from './analysis';
import { agentAtVersion, loadVersion } from './agent-versions';
import { newCallInput } from './calls';
import { aiDisclosureEnabled, disclosureCheck } from './ai-disclosure';
import { Call } from '../models/calls';
import { emitEvent } from './events';
import { argumentProblems } from './tools';

/** The number a scenario's simulated call is placed to (test mode: no phone rings). */
export const SCENARIO_CALL_TO = '+15005550006';

/** The first words of the judge's system prompt: the loopback fake LLM recognizes a judge request by them. */
export const JUDGE_PROMPT_MARKER = 'You judge a simulated phone call';

/** Failure type of a scenario whose agent is gone (not retried: the scenario is `errored`). */
export const SCENARIO_AGENT_MISSING = 'ScenarioAgentMissing';

/**
 * Starts the run's `testSuiteRunWorkflow` (workflow id = run id, `REJECT_DUPLICATE`); one already started
 * under that id (a retried request) is fine.
 */
export async function startTestSuiteRun(temporal: Client, input: TestSuiteRunInput, taskQueue: string): Promise<void> {
  try {
    await temporal.workflow.start<TestSuiteRunWorkflow>(TEST_SUITE_RUN_WORKFLOW, {
      workflowId: testSuiteRunWorkflowId(input.runId),
      taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Test suite ${input.suiteId}: ${input.scenarios.length} scenarios`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** What `scenarioCall` needs of the run: its ids, its agent (and version), one scenario. */
export type ScenarioCallRequest = Pick<
  TestSuiteRunInput,
  'runId' | 'orgId' | 'livemode' | 'agentId' | 'version' | 'squadId'
> & {
  index: number;
  scenario: TestScenario;
};

/**
 * The `callWorkflow` input of scenario `index`'s simulated call: a test call of the run's agent at the
 * run's version (its configuration read by `_id`; the call records it) (through
 * `newCallInput`, as `POST /v1/calls` builds it) with the scenario's persona, goal and `max_turns`, the
 * call id derived from the run id and the index (a retried activity builds the same call), and metadata
 * naming the run and the scenario.
 * A squad run's call is a call of the squad (src/services/squads.ts `squadForCall`: every member's
 * version fixed now), its start member answering.
 * @throws Error with `name` `SCENARIO_AGENT_MISSING` when the agent was deleted (or lacks the version),
 *   or the squad was (or a member's agent)
 */
export async function scenarioCall(req: ScenarioCallRequest): Promise<CallWorkflowInput> {
  const squad = req.squadId ? await scenarioSquad(req, req.squadId) : null;
  const agent = squad ? squad.start : await findLiveAgent({ orgId: req.orgId, livemode: req.livemode }, req.agentId);
  if (!agent) {
    const err = new Error(`The agent ${req.agentId} no longer exists.`);
    err.name = SCENARIO_AGENT_MISSING;
    throw err;
  }
  const snapshot = req.version !== null ? await loadVersion(agent, req.version) : null;
  if (req.version !== null && !snapshot) {
    const err = new Error(`The agent ${req.agentId} has no version ${req.version}.`);
    err.name = SCENARIO_AGENT_MISSING;
    throw err;
  }
  const callId = derivedId('call', idTime(req.runId) + req.index, `${req.runId}:${req.index}`);
  const versioned = snapshot ? agentAtVersion(agent, snapshot) : agent;
  const tenant = { orgId: req.orgId, livemode: req.livemode };
  // A scenario's call never dials anyone (a persona answers `SCENARIO_CALL_TO`): no dial gate, at any hour.
  const { dial_gate: _none, ...input } = newCallInput(
    callId,
    { ...tenant, aiDisclosure: await aiDisclosureEnabled(tenant) },
    versioned,
    {
      to: SCENARIO_CALL_TO,
      metadata: { test_suite_run: req.runId, test_scenario: req.scenario.name.slice(0, 500) },
      simulation: {
        persona: req.scenario.persona,
        goal: req.scenario.goal,
        ...(req.scenario.max_turns ? { max_turns: req.scenario.max_turns } : {}),
      },
    },
  );
  if (squad) input.squad = squad.squad;
  return input;
}

/** The squad a squad run's scenario call carries; `SCENARIO_AGENT_MISSING` when it cannot run now. */
async function scenarioSquad(req: ScenarioCallRequest, squadId: string) {
  const tenant = { orgId: req.orgId, livemode: req.livemode };
  const found = await findLiveSquad(tenant, squadId);
  const fail = (why: string) => Object.assign(new Error(why), { name: SCENARIO_AGENT_MISSING });
  if (!found) throw fail(`The squad ${squadId} no longer exists.`);
  try {
    return await squadForCall(found, tenant, { phone: SCENARIO_CALL_TO });
  } catch (err) {
    throw fail(`The squad ${squadId} cannot run: ${(err as Error).message}`);
  }
}

/** Records scenario `result.index`'s state in run `runId` (its own row: one writer, the scenario's activities). */
export async function saveScenarioResult(runId: string, result: ScenarioResult): Promise<void> {
  await TestScenarioResult.updateOne(
    { _id: scenarioResultId(runId, result.index) },
    {
      $set: {
        run_id: runId,
        index: result.index,
        status: result.status,
        call_id: result.callId,
        verdict_json: result.verdict ? JSON.stringify(result.verdict) : null,
        error: result.error ?? null,
        updated_ms: Date.now(),
      },
    },
    { upsert: true },
  );
}

/** What `askJudge` is given. */
export interface JudgeRequest {
  callId: string;
  scenario: TestScenario;
  /** 1, or 2 for the request that shows the model its invalid answer. */
  request: number;
  previous?: { text: string; errors: string[] };
  signal?: AbortSignal;
}

/** The judge's system message: the persona, goal and rubric, what to answer, and in JSON mode the schema. */
export function judgeInstructions(scenario: TestScenario, jsonMode: boolean): string {
  const lines = [
    `${JUDGE_PROMPT_MARKER} between an AI phone assistant and a caller played by a model; the transcript follows.`,
    `The caller's persona: ${scenario.persona}`,
    `The caller's goal: ${scenario.goal}`,
    `Judge the assistant by this rubric: ${scenario.rubric}`,
    'Answer with one JSON object and nothing else: "verdict" ("pass" when the rubric is met, else "fail"), "score" (an integer from 0, worst, to 100, best), and "reasons": 1 to 10 objects, each with "quote" (words copied exactly from the transcript) and "explanation" (why they matter to the verdict).',
  ];
  if (jsonMode) lines.push(`The JSON Schema of the answer:\n${JSON.stringify(JUDGE_VERDICT_SCHEMA)}`);
  return lines.join('\n');
}

/**
 * Asks the judge model (`JUDGE_MODEL`, else `OPENAI_MODEL`) for the verdict of call `callId`'s stored
 * transcript by the scenario's rubric, and checks the answer (`judgeProblems`). A server that refuses the
 * `json_schema` response format is asked again in JSON mode. The provider's errors are thrown.
 */
export async function askJudge(req: JudgeRequest): Promise<JudgeAnswer> {
  const transcript = await analysisTranscript({ kind: 'call', id: req.callId });
  const cfg = config();
  const model = cfg.judgeModel ?? cfg.openaiModel;
  const messages = (jsonMode: boolean) =>
    transcriptQuestion(judgeInstructions(req.scenario, jsonMode), transcript.lines, req.previous);
  const options = { signal: req.signal };
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await tracedChat(
      model,
      () =>
        openai().chat.completions.create(
          {
            model,
            messages: messages(false),
            response_format: {
              type: 'json_schema',
              json_schema: { name: 'verdict', schema: JUDGE_VERDICT_SCHEMA, strict: false },
            },
            user: req.callId,
          },
          options,
        ),
      { purpose: 'judge' },
    );
  } catch (err) {
    if (!(err instanceof OpenAI.BadRequestError && /response_format|json_schema/i.test(err.message))) throw err;
    completion = await tracedChat(
      model,
      () =>
        openai().chat.completions.create(
          { model, messages: messages(true), response_format: { type: 'json_object' }, user: req.callId },
          options,
        ),
      { purpose: 'judge' },
    );
  }
  const text = completion.choices[0]?.message?.content ?? '';
  const checked = judgeProblems(text, transcript.lines);
  if (checked.ok)
    return { ok: true, verdict: await withBuiltInChecks(req.callId, checked.verdict), model: completion.model };
  return { ok: false, errors: checked.errors, text: text.slice(0, MAX_JUDGE_TEXT), model: completion.model };
}

/**
 * The judge's verdict with the built-in checks every persona test makes (`checks`): today the AI
 * disclosure (src/services/ai-disclosure.ts `disclosureCheck`: when the organization's `ai_disclosure`
 * was on for the call, its first assistant turn begins with the disclosure sentence). A failed check
 * fails the scenario whatever the judge said, with a reason quoting the first assistant turn.
 */
export async function withBuiltInChecks(callId: string, verdict: JudgeVerdict): Promise<JudgeVerdict> {
  const call = await Call.findById(callId, { ai_disclosure: 1 }).lean();
  const check = await disclosureCheck(callId, call?.ai_disclosure ?? null);
  if (!check) return verdict;
  if (check.passed) return { ...verdict, checks: [check] };
  return {
    ...verdict,
    verdict: 'fail',
    reasons: [...verdict.reasons, { quote: check.said || '(nothing)', explanation: check.detail }].slice(-10),
    checks: [check],
  };
}

/** Lower case, one space between words, no surrounding quotes: how quotes are matched against the transcript. */
const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'](.*)["']$/, '$1')
    .trim();

/**
 * The problems of the judge's answer `text`: not JSON (a fenced block is unwrapped), not valid against
 * `JUDGE_VERDICT_SCHEMA`, or a reason whose `quote` the transcript `lines` do not hold
 * (`reasons[1].quote: …`).
 */
export function judgeProblems(
  text: string,
  lines: string[],
): { ok: true; verdict: JudgeVerdict } | { ok: false; errors: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch (err) {
    return { ok: false, errors: [`the answer is not valid JSON (${(err as Error).message})`] };
  }
  const errors = argumentProblems(JUDGE_VERDICT_SCHEMA, value);
  if (errors.length) return { ok: false, errors };
  const verdict = value as JudgeVerdict;
  const said = normalized(lines.join('\n'));
  verdict.reasons.forEach((r, i) => {
    if (!said.includes(normalized(r.quote)))
      errors.push(`reasons[${i}].quote: not found in the transcript (quote its words exactly)`);
  });
  return errors.length ? { ok: false, errors } : { ok: true, verdict };
}

/**
 * The comparison of a run's outcomes with the previous run's, by scenario name: each scenario of both
 * whose status differs. `previous` null: the first run (nothing changed).
 */
export function compareRuns(
  current: { name: string; status: ScenarioStatus }[],
  previous: { id: string; results: { name: string; status: ScenarioStatus }[] } | null,
): RunComparison {
  if (!previous) return { previous_run_id: null, changed: [] };
  const before = new Map(previous.results.map((r) => [r.name, r.status]));
  return {
    previous_run_id: previous.id,
    changed: current.flatMap((r) => {
      const was = before.get(r.name);
      return was !== undefined && was !== r.status ? [{ scenario: r.name, previous: was, current: r.status }] : [];
    }),
  };
}

/** A stored run rendered with its result rows. */
export async function loadTestSuiteRun(runId: string): Promise<TestSuiteRunObject | null> {
  const run = await TestSuiteRun.findById(runId).lean();
  if (!run) return null;
  const rows = await TestScenarioResult.find({ run_id: runId }).sort({ index: 1 }).lean();
  return renderTestSuiteRun(run, rows);
}

/**
 * Completes run `runId` once: compares it with the previous completed run of its suite (`compareRuns`),
 * sets `completed`, `comparison` and `completed_ms` (a retry finds it completed and keeps the first), then
 * emits `test_suite_run.completed` under an id derived from the run id (one event, whatever the retries).
 * @returns the completed run
 */
export async function completeTestSuiteRun(temporal: Client, runId: string): Promise<TestSuiteRunObject> {
  const run = await TestSuiteRun.findById(runId).lean();
  if (!run) throw new Error(`test suite run ${runId} has no document`);
  if (run.status !== 'completed') {
    const current = (await loadTestSuiteRun(runId))!;
    const [prev] = await TestSuiteRun.find({ suite_id: run.suite_id, status: 'completed', _id: { $lt: runId } })
      .sort({ _id: -1 })
      .limit(1)
      .lean();
    const previous = prev ? (await loadTestSuiteRun(prev._id))! : null;
    const comparison = compareRuns(
      current.results.map((r) => ({ name: r.scenario, status: r.status })),
      previous && { id: previous.id, results: previous.results.map((r) => ({ name: r.scenario, status: r.status })) },
    );
    await TestSuiteRun.updateOne(
      { _id: runId, status: 'running' },
      { $set: { status: 'completed', comparison_json: JSON.stringify(comparison), completed_ms: Date.now() } },
    );
  }
  const completed = (await TestSuiteRun.findById(runId).lean())!;
  const object = (await loadTestSuiteRun(runId))!;
  const createdMs = completed.completed_ms ?? Date.now();
  await emitEvent(temporal, {
    id: derivedId('evt', createdMs, `${runId}:completed`),
    orgId: completed.org_id,
    livemode: completed.livemode,
    type: 'test_suite_run.completed',
    createdMs,
    object,
  });
  return object;
}
