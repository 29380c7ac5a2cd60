/**
 * The test-suites domain's contract: a suite's scenarios, `testSuiteRunWorkflow`'s type
 * name, input, output and workflow id, the judge's verdict and its JSON Schema, the scenario statuses.
 * Imported by the API, the activities and the workflow bundle alike; imports nothing of the project.
 */

/** One scenario of a suite: a persona call (src/shared/calls.ts `PersonaSimulation`) and the rubric it is judged by. */
export interface TestScenario {
  name: string;
  persona: string;
  goal: string;
  rubric: string;
  /** Caller turns at most (1–50; absent: the persona default, 20). */
  max_turns?: number;
}

/** Limits of a suite: scenarios per suite, characters of a name and of a rubric, scenarios run at once. */
export const TEST_SUITE_LIMITS = { scenarios: 50, nameChars: 200, rubricChars: 4000, concurrency: 5 } as const;

/** A scenario's status in a run: `pending` → `running` (its call) → `passed` | `failed` | `errored`. */
export const SCENARIO_STATUSES = ['pending', 'running', 'passed', 'failed', 'errored'] as const;
export type ScenarioStatus = (typeof SCENARIO_STATUSES)[number];

/** A reason of the judge's verdict: a quote of the transcript and why it matters. */
export interface JudgeReason {
  quote: string;
  explanation: string;
}

/** The judge's structured verdict of one scenario. */
export interface JudgeVerdict {
  verdict: 'pass' | 'fail';
  /** 0 (worst) to 100 (best). */
  score: number;
  reasons: JudgeReason[];
  /**
   * The built-in checks every persona test makes beside the judge (src/services/test-suites.ts
   * `withBuiltInChecks`): `ai_disclosure` when the call opened with it. A failed one makes `verdict` `fail`.
   */
  checks?: { name: 'ai_disclosure'; passed: boolean; detail: string; said: string }[];
}

/** The JSON Schema of the judge's answer (its `response_format`, and what the answer is validated against). */
export const JUDGE_VERDICT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'fail'] },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    reasons: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          quote: { type: 'string', minLength: 1 },
          explanation: { type: 'string', minLength: 1 },
        },
        required: ['quote', 'explanation'],
        additionalProperties: false,
      },
    },
  },
  required: ['verdict', 'score', 'reasons'],
  additionalProperties: false,
};

/** What one judge request found: a valid verdict, or the problems of its answer (the text kept, cut, for a retry). */
export type JudgeAnswer =
  | { ok: true; verdict: JudgeVerdict; model: string }
  | { ok: false; errors: string[]; text: string; model: string | null };

/** A scenario's outcome as the run records it (`recordScenarioResult`). */
export interface ScenarioResult {
  index: number;
  status: ScenarioStatus;
  callId: string | null;
  verdict?: JudgeVerdict;
  /** `errored`: why (the call failed, the judge's answer never validated, the judge unreachable). */
  error?: string;
}

/** Argument of `testSuiteRunWorkflow`: everything one run needs, fixed when it is started. */
export interface TestSuiteRunInput {
  /** `tsrun_…`, also the workflow id. */
  runId: string;
  suiteId: string;
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The agent version run; null: the agent's current configuration. */
  version: number | null;
  /** A squad run: each scenario's call is a call of this squad (absent: of `agentId`). */
  squadId?: string;
  /** The suite's scenarios as they were when the run started. */
  scenarios: TestScenario[];
  /** Scenarios run at once (default `TEST_SUITE_LIMITS.concurrency`). */
  concurrency?: number;
}

/** What `testSuiteRunWorkflow` returns: the counts of its scenarios' outcomes. */
export interface TestSuiteRunOutcome {
  passed: number;
  failed: number;
  errored: number;
}

/** Workflow type name of a suite run (recorded histories depend on it). */
export const TEST_SUITE_RUN_WORKFLOW = 'testSuiteRunWorkflow';

/** Signature of `testSuiteRunWorkflow`, for starters. */
export type TestSuiteRunWorkflow = (input: TestSuiteRunInput) => Promise<TestSuiteRunOutcome>;

/** The workflow id of a suite run: the run id itself. */
export const testSuiteRunWorkflowId = (runId: string): string => runId;

/** Characters of an invalid judge answer kept to show the model on the second request. */
export const MAX_JUDGE_TEXT = 8_000;
