/**
 * `testSuiteRunWorkflow`: one run of a test suite. Workflow id = the run id (`tsrun_…`),
 * started by `POST /v1/test_suites/{id}/runs` (test keys only).
 *
 * Each scenario is a simulated persona call: `startScenario` builds its `callWorkflow` input (the same
 * path a test call takes: the agent's tools, knowledge and settings) and marks it `running`, the call runs
 * as a child `callWorkflow` (workflow id = its call id), then the judge is asked (`judgeScenario`); an
 * answer that does not validate is asked again once with its problems, and a second invalid answer (or
 * a judge that cannot be asked, or a failed call) makes the scenario `errored`, never `passed`.
 * `recordScenarioResult` stores the outcome. Scenarios run in parallel, at most `concurrency` at once
 * (default 5): that many lanes, each taking the next scenario in order. Once all are done
 * `finishTestSuiteRun` compares the run with the previous one, completes it and emits
 * `test_suite_run.completed`.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import {
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setWorkflowOptions,
} from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as testSuites from '../activities/test-suites';
import { CALL_WORKFLOW, type CallWorkflow } from '../shared/calls';
import { searchAttributeKeys } from '../shared/search-attributes';
import {
  TEST_SUITE_LIMITS,
  type ScenarioResult,
  type TestSuiteRunInput,
  type TestSuiteRunOutcome,
} from '../shared/test-suites';
import { JUDGE_RETRY } from './retry';

/** Store writes: retried until they succeed; an agent that is gone is not retried (the scenario errs). */
const store = proxyActivities<typeof testSuites>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: ['ScenarioAgentMissing'],
  },
});

/** The judge: as an analysis's model request (src/workflows/analysis.ts), heartbeating, 4 tries. */
const judge = proxyActivities<typeof testSuites>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: JUDGE_RETRY,
});

/**
 * Runs every scenario of the suite (at most `concurrency` at once), then completes the run.
 * @returns how many scenarios passed, failed and errored
 */
export async function testSuiteRunWorkflow(input: TestSuiteRunInput): Promise<TestSuiteRunOutcome> {
  const limit = Math.max(1, input.concurrency ?? TEST_SUITE_LIMITS.concurrency);
  const results: ScenarioResult[] = [];
  let next = 0;
  const lane = async () => {
    while (next < input.scenarios.length) results.push(await runScenario(input, next++));
  };
  await Promise.all(Array.from({ length: Math.min(limit, input.scenarios.length) }, lane));
  await store.finishTestSuiteRun({ runId: input.runId });
  const count = (status: string) => results.filter((r) => r.status === status).length;
  return { passed: count('passed'), failed: count('failed'), errored: count('errored') };
}

/** One scenario: its call, its verdict, its recorded outcome (`errored` with why, when anything failed). */
async function runScenario(input: TestSuiteRunInput, index: number): Promise<ScenarioResult> {
  const scenario = input.scenarios[index];
  let callId: string | null = null;
  let result: ScenarioResult;
  try {
    const call = await store.startScenario({
      runId: input.runId,
      orgId: input.orgId,
      livemode: input.livemode,
      agentId: input.agentId,
      version: input.version,
      ...(input.squadId ? { squadId: input.squadId } : {}),
      index,
      scenario,
    });
    callId = call.callId;
    const state = await executeChild<CallWorkflow>(CALL_WORKFLOW, {
      workflowId: call.callId,
      args: [call],
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      typedSearchAttributes: [
        { key: searchAttributeKeys.CallStatus, value: 'queued' },
        { key: searchAttributeKeys.AgentId, value: call.agent.id },
        { key: searchAttributeKeys.OrgId, value: call.orgId },
        { key: searchAttributeKeys.Livemode, value: call.livemode },
      ],
    });
    result =
      state.status === 'completed' || state.status === 'transferred'
        ? await judgeCall(index, call.callId, scenario)
        : {
            index,
            status: 'errored',
            callId,
            error: `The simulated call ended ${state.status} (${state.end_reason}).`,
          };
  } catch (err) {
    if (isCancellation(err)) throw err;
    result = { index, status: 'errored', callId, error: innermostMessage(err) };
  }
  await store.recordScenarioResult({ runId: input.runId, result });
  return result;
}

/** The judge's verdict of a scenario's call: asked once more with the problems of an invalid answer. */
async function judgeCall(
  index: number,
  callId: string,
  scenario: TestSuiteRunInput['scenarios'][number],
): Promise<ScenarioResult> {
  let answer = await judge.judgeScenario({ callId, scenario, request: 1 });
  if (!answer.ok)
    answer = await judge.judgeScenario({
      callId,
      scenario,
      request: 2,
      previous: { text: answer.text, errors: answer.errors },
    });
  if (!answer.ok)
    return {
      index,
      status: 'errored',
      callId,
      error: `The judge's answer did not validate after a retry: ${answer.errors.join('; ')}`,
    };
  return { index, status: answer.verdict.verdict === 'pass' ? 'passed' : 'failed', callId, verdict: answer.verdict };
}

/** The innermost cause's message of a failure (an activity failure's cause is the activity's error). */
function innermostMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}

// Worker Versioning (src/shared/deployments.ts): Minutes long, waiting on its child calls: finishes on the version it started on.
setWorkflowOptions(versioningBehavior('PINNED'), testSuiteRunWorkflow);
