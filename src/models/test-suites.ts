/**
 * Test suites (`tsuite_…`, object `test_suite`), their runs (`tsrun_…`, object `test_suite_run`) and the
 * runs' per-scenario results.
 *
 * Who writes what (one writer per document, DESIGN.md section 3):
 * - a suite: the API (create, update, delete: `deleted_ms`, so its runs still name it);
 * - a run: the API inserts it (`running`, the scenarios as they were); its own `testSuiteRunWorkflow`'s
 *   `finishTestSuiteRun` activity then sets `completed`, the comparison and `completed_ms`, once;
 * - a scenario's result (`<run id>:<index>`): only the activities of that scenario in the run's workflow,
 *   one after the other (`running` with its call, then its verdict). A scenario with no row is `pending`.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { SCENARIO_STATUSES, type JudgeVerdict, type ScenarioStatus, type TestScenario } from '../shared/test-suites';
import { schemaOptions as base, seconds, type WithId } from './store';
import { apiObject, unix } from './wire';

const scenarioSchema = new Schema(
  {
    name: { type: String, required: true },
    persona: { type: String, required: true },
    goal: { type: String, required: true },
    rubric: { type: String, required: true },
    max_turns: { type: Number, default: null },
  },
  { _id: false },
);

const testSuiteSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    name: { type: String, required: true },
    scenarios: { type: [scenarioSchema], default: [] },
    created: { type: Number, required: true },
    updated: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
/** An agent's suites, newest first (`GET /v1/agents/{id}/test_suites`). */
testSuiteSchema.index({ agent_id: 1, _id: -1 });
export const TestSuite = mongoose.model('TestSuite', testSuiteSchema, 'test_suites');
/** A stored suite as read (`lean`) or written: its scenarios as plain objects. */
export type TestSuiteDoc = Omit<InferSchemaType<typeof testSuiteSchema>, 'scenarios'> & {
  scenarios: { name: string; persona: string; goal: string; rubric: string; max_turns?: number | null }[];
};

const testSuiteRunSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    suite_id: { type: String, required: true },
    agent_id: { type: String, required: true },
    /** The agent version run; null: the agent's configuration when the run started. */
    agent_version: { type: Number, default: null },
    /** The squad the run's calls ran instead of the suite's agent (`sqd_…`); null: the agent. */
    squad_id: { type: String, default: null },
    status: { type: String, enum: ['running', 'completed'], required: true },
    /** The scenarios run, JSON (`TestScenario[]`), as the suite held them when the run started. */
    scenarios_json: { type: String, required: true },
    /** Set when completed: `{previous_run_id, changed: [{scenario, previous, current}]}`, JSON. */
    comparison_json: { type: String, default: null },
    created: { type: Number, required: true },
    completed_ms: { type: Number, default: null },
  },
  base,
);
/** A suite's runs, newest first (`GET /v1/test_suites/{id}/runs`, and the previous run of a comparison). */
testSuiteRunSchema.index({ suite_id: 1, _id: -1 });
export const TestSuiteRun = mongoose.model('TestSuiteRun', testSuiteRunSchema, 'test_suite_runs');
export type TestSuiteRunDoc = InferSchemaType<typeof testSuiteRunSchema>;

const scenarioResultSchema = new Schema(
  {
    /** `<run id>:<scenario index>`. */
    _id: { type: String, required: true },
    run_id: { type: String, required: true },
    index: { type: Number, required: true },
    status: { type: String, enum: SCENARIO_STATUSES, required: true },
    call_id: { type: String, default: null },
    /** The judge's verdict, JSON (`JudgeVerdict`); null until judged, and for an errored scenario. */
    verdict_json: { type: String, default: null },
    error: { type: String, default: null },
    updated_ms: { type: Number, required: true },
  },
  base,
);
scenarioResultSchema.index({ run_id: 1, index: 1 });
export const TestScenarioResult = mongoose.model('TestScenarioResult', scenarioResultSchema, 'test_scenario_results');
export type TestScenarioResultDoc = InferSchemaType<typeof scenarioResultSchema>;

/** The id of scenario `index`'s result in run `runId`. */
export const scenarioResultId = (runId: string, index: number) => `${runId}:${index}`;

const ScenarioObject = z.object({
  name: z.string(),
  persona: z.string().describe('Who the simulated caller is.'),
  goal: z.string().describe('What the caller wants from the call.'),
  rubric: z.string().describe('What the judge checks the transcript against.'),
  max_turns: z.number().int().nullable().describe('Caller turns at most; null: 20.'),
});

/** The `test_suite` object as the API answers it. */
export const TestSuiteObject = apiObject(
  'TestSuite',
  'Scenarios of simulated callers (a persona, a goal) and the rubric each call is judged by.',
  z.object({
    id: z.string().meta({ examples: ['tsuite_01jd5x2v7c0000000000000000'] }),
    object: z.literal('test_suite'),
    livemode: z.boolean(),
    agent_id: z.string(),
    name: z.string(),
    scenarios: z.array(ScenarioObject),
    created: unix,
    updated: unix,
  }),
);
export type TestSuiteObject = z.output<typeof TestSuiteObject>;

/** A suite's scenarios as stored (and as a run's input takes them). */
export function suiteScenarios(doc: Pick<TestSuiteDoc, 'scenarios'>): TestScenario[] {
  return doc.scenarios.map((s) => ({
    name: s.name,
    persona: s.persona,
    goal: s.goal,
    rubric: s.rubric,
    ...(s.max_turns != null ? { max_turns: s.max_turns } : {}),
  }));
}

/** The test suite object of a stored suite. */
export function renderTestSuite(doc: WithId<TestSuiteDoc>): TestSuiteObject {
  return {
    id: doc._id,
    object: 'test_suite',
    livemode: doc.livemode,
    agent_id: doc.agent_id,
    name: doc.name,
    scenarios: suiteScenarios(doc).map((s) => ({ ...s, max_turns: s.max_turns ?? null })),
    created: doc.created,
    updated: doc.updated,
  };
}

const verdictOrStatus = z.enum(SCENARIO_STATUSES);

/** What the comparison with the previous run holds (`comparison_json`). */
export interface RunComparison {
  previous_run_id: string | null;
  changed: { scenario: string; previous: ScenarioStatus; current: ScenarioStatus }[];
}

/** The `test_suite_run` object as the API answers it. */
export const TestSuiteRunObject = apiObject(
  'TestSuiteRun',
  "One run of a test suite: each scenario a simulated persona call judged against its rubric, the run's progress, and what changed since the previous run.",
  z.object({
    id: z.string().meta({ examples: ['tsrun_01jd5x2v7c0000000000000000'] }),
    object: z.literal('test_suite_run'),
    livemode: z.boolean(),
    test_suite_id: z.string(),
    agent_id: z.string(),
    agent_version: z
      .number()
      .int()
      .nullable()
      .describe("The agent version run; null: the agent's current configuration."),
    squad_id: z
      .string()
      .nullable()
      .describe("The squad the scenarios' calls ran (squad calls) instead of the suite's agent; null: the agent."),
    status: z.enum(['running', 'completed']),
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      running: z.number().int(),
      passed: z.number().int(),
      failed: z.number().int(),
      errored: z.number().int(),
    }),
    results: z.array(
      z.object({
        scenario: z.string(),
        status: verdictOrStatus.describe(
          '`errored`: the call failed or the judge gave no valid verdict after a retry (never counted as passed).',
        ),
        call_id: z.string().nullable(),
        verdict: z.enum(['pass', 'fail']).nullable(),
        score: z.number().int().nullable().describe('0 (worst) to 100 (best).'),
        reasons: z
          .array(z.object({ quote: z.string(), explanation: z.string() }))
          .describe('Each quotes the transcript.'),
        checks: z
          .array(
            z.object({
              name: z.literal('ai_disclosure'),
              passed: z.boolean(),
              detail: z.string(),
            }),
          )
          .describe(
            "Built-in checks made beside the judge's rubric: `ai_disclosure` (the call's first sentence said it is an automated assistant) when the organization's `ai_disclosure` is on. A failed check fails the scenario.",
          ),
        error: z.string().nullable(),
      }),
    ),
    comparison: z
      .object({
        previous_run_id: z.string().nullable(),
        changed: z
          .array(z.object({ scenario: z.string(), previous: verdictOrStatus, current: verdictOrStatus }))
          .describe("Scenarios whose outcome differs from the previous run's (by scenario name)."),
      })
      .nullable()
      .describe('Set once completed: what changed since the previous completed run of the suite.'),
    created: unix,
    completed_at: unix.nullable(),
  }),
);
export type TestSuiteRunObject = z.output<typeof TestSuiteRunObject>;

/** The run object of a stored run and its scenarios' result rows (a scenario without a row is `pending`). */
export function renderTestSuiteRun(
  doc: WithId<TestSuiteRunDoc>,
  rows: WithId<TestScenarioResultDoc>[],
): TestSuiteRunObject {
  const scenarios = JSON.parse(doc.scenarios_json) as TestScenario[];
  const byIndex = new Map(rows.map((r) => [r.index, r]));
  const results = scenarios.map((s, i) => {
    const row = byIndex.get(i);
    const verdict = row?.verdict_json ? (JSON.parse(row.verdict_json) as JudgeVerdict) : null;
    return {
      scenario: s.name,
      status: (row?.status ?? 'pending') as (typeof SCENARIO_STATUSES)[number],
      call_id: row?.call_id ?? null,
      verdict: verdict?.verdict ?? null,
      score: verdict?.score ?? null,
      reasons: verdict?.reasons ?? [],
      checks: (verdict?.checks ?? []).map(({ name, passed, detail }) => ({ name, passed, detail })),
      error: row?.error ?? null,
    };
  });
  const count = (status: string) => results.filter((r) => r.status === status).length;
  return {
    id: doc._id,
    object: 'test_suite_run',
    livemode: doc.livemode,
    test_suite_id: doc.suite_id,
    agent_id: doc.agent_id,
    agent_version: doc.agent_version ?? null,
    squad_id: doc.squad_id ?? null,
    status: doc.status,
    counts: {
      total: results.length,
      pending: count('pending'),
      running: count('running'),
      passed: count('passed'),
      failed: count('failed'),
      errored: count('errored'),
    },
    results,
    comparison: doc.comparison_json ? (JSON.parse(doc.comparison_json) as RunComparison) : null,
    created: doc.created,
    completed_at: seconds(doc.completed_ms),
  };
}
