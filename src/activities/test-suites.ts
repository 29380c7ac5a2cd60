/**
 * Test-suite run activities, run by `testSuiteRunWorkflow` (src/workflows/test-suites.ts):
 * a scenario's call built and marked `running` (`startScenario`), the judge asked (`judgeScenario`), the
 * scenario's outcome recorded (`recordScenarioResult`), the run completed with its comparison and event
 * (`finishTestSuiteRun`). The rules are src/services/test-suites.ts; each is idempotent.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CallWorkflowInput } from '../shared/calls';
import type { JudgeAnswer, ScenarioResult, TestScenario } from '../shared/test-suites';
import {
  askJudge,
  completeTestSuiteRun,
  saveScenarioResult,
  scenarioCall,
  SCENARIO_AGENT_MISSING,
  type ScenarioCallRequest,
} from '../services/test-suites';

/** How often a waiting `judgeScenario` heartbeats (ms). */
const HEARTBEAT_MS = 1_000;

/**
 * Builds scenario `index`'s call (src/services/test-suites.ts `scenarioCall`) and records the scenario
 * `running` with its call id.
 * @returns the call's `callWorkflow` input
 * @throws ApplicationFailure `SCENARIO_AGENT_MISSING` (not retried) when the agent was deleted
 */
export async function startScenario(req: ScenarioCallRequest): Promise<CallWorkflowInput> {
  let input: CallWorkflowInput;
  try {
    input = await scenarioCall(req);
  } catch (err) {
    if ((err as Error).name === SCENARIO_AGENT_MISSING)
      throw ApplicationFailure.nonRetryable((err as Error).message, SCENARIO_AGENT_MISSING);
    throw err;
  }
  await saveScenarioResult(req.runId, { index: req.index, status: 'running', callId: input.callId });
  return input;
}

/**
 * Asks the judge for the verdict of the scenario's call (request 1, or 2 with the previous answer and its
 * problems) and checks it; heartbeats while the model writes; a cancelled attempt aborts the request.
 * @returns the valid verdict, or the answer's problems; the provider's failures are thrown
 */
export async function judgeScenario(args: {
  callId: string;
  scenario: TestScenario;
  request: number;
  previous?: { text: string; errors: string[] };
}): Promise<JudgeAnswer> {
  const ctx = Context.current();
  ctx.heartbeat();
  const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
  try {
    return await askJudge({ ...args, signal: ctx.cancellationSignal });
  } finally {
    clearInterval(beat);
  }
}

/** Records a scenario's outcome (`passed`, `failed`, `errored`) in its own row. */
export async function recordScenarioResult(args: { runId: string; result: ScenarioResult }): Promise<void> {
  await saveScenarioResult(args.runId, args.result);
}

/** Completes the run once: comparison, `completed`, the `test_suite_run.completed` event. */
export async function finishTestSuiteRun(args: { runId: string }): Promise<void> {
  await completeTestSuiteRun(Context.current().client, args.runId);
}
