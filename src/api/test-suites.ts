/**
 * Test suites (scopes `agents:read` / `agents:write`):
 *
 *   POST   /v1/agents/{id}/test_suites     `{name, scenarios: [{name, persona, goal, rubric, max_turns?}]}`
 *   GET    /v1/agents/{id}/test_suites     the agent's suites, newest first
 *   GET    /v1/test_suites/{id}            a suite
 *   POST   /v1/test_suites/{id}            update `name` and/or `scenarios`
 *   DELETE /v1/test_suites/{id}            delete (its runs stay)
 *   POST   /v1/test_suites/{id}/runs       `{version?}` run it (test keys only): `testSuiteRunWorkflow`
 *   GET    /v1/test_suites/{id}/runs       its runs, newest first
 *   GET    /v1/test_suite_runs/{id}        a run: progress, per-scenario results, comparison
 *
 * Scenarios: 1 to 50, unique names; persona and goal 1–2,000 characters, rubric 1–4,000, `max_turns`
 * 1–50 (default 20). Bad input is 400 naming the place (`scenarios[2].rubric`). A run takes the suite's
 * scenarios as they are when it starts; each is a simulated persona call judged by a model
 * (src/workflows/test-suites.ts).
 */
import type { Request, Router } from 'express';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { config } from '../config';
import { ApiError, invalidParam, notFound } from '../errors';
import { findLiveAgent, type AgentDoc } from '../models/agents';
import { findLiveSquad } from '../models/squads';
import { agentVersion, ensureAgentVersions } from '../services/agent-versions';
import { insertIfAbsent, type WithId } from '../models/store';
import {
  renderTestSuite,
  renderTestSuiteRun,
  suiteScenarios,
  TestSuite,
  TestSuiteObject,
  TestSuiteRun,
  TestSuiteRunObject,
  type TestSuiteDoc,
} from '../models/test-suites';
import { DeletedObject, listOf } from '../models/wire';
import { loadTestSuiteRun, startTestSuiteRun } from '../services/test-suites';
import { PERSONA_LIMITS } from '../shared/calls';
import { idTime } from '../shared/ids';
import { TEST_SUITE_LIMITS } from '../shared/test-suites';
import { idempotent } from './idempotency';
import { checkLlmQuota, takeQuota } from '../services/quotas';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { parseIndexed } from './validation';

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const scenarioSchema = z.strictObject({
  name: text(TEST_SUITE_LIMITS.nameChars),
  persona: text(PERSONA_LIMITS.maxChars).describe('Who the simulated caller is (a model plays them).'),
  goal: text(PERSONA_LIMITS.maxChars).describe('What the caller wants from the call.'),
  rubric: text(TEST_SUITE_LIMITS.rubricChars).describe('What the judge checks the transcript against.'),
  max_turns: z
    .number()
    .int()
    .min(1)
    .max(PERSONA_LIMITS.maxTurns)
    .optional()
    .describe(`Caller turns at most (default ${PERSONA_LIMITS.maxTurnsDefault}).`),
});

const scenarios = z
  .array(scenarioSchema)
  .min(1, 'must have at least one scenario')
  .max(TEST_SUITE_LIMITS.scenarios, `must have at most ${TEST_SUITE_LIMITS.scenarios} scenarios`);

export const createTestSuiteSchema = z.strictObject({ name: text(TEST_SUITE_LIMITS.nameChars), scenarios });
export const updateTestSuiteSchema = z.strictObject({
  name: text(TEST_SUITE_LIMITS.nameChars).optional(),
  scenarios: scenarios.optional(),
});
export const createTestSuiteRunSchema = z.strictObject({
  version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "The agent version to run (404 naming `version` when it does not exist); default: the agent's current one.",
    ),
  squad_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A squad (`sqd_…`) to run the scenarios against instead of the suite's agent: each persona call is a squad call (its `start` member answers, the members hand off). Not with `version` (400 naming `squad_id`); 404 naming `squad_id` when it is not a live squad of the organization.",
    ),
});

const EXAMPLE = {
  name: 'Bookings',
  scenarios: [
    {
      name: 'books a table',
      persona: 'Maria, a regular customer, in a hurry.',
      goal: 'Book a table for two tonight at 8 pm.',
      rubric: 'The assistant confirms a table for two at 8 pm and repeats the time.',
      max_turns: 10,
    },
  ],
};

const tag = 'Test suites';

/** 400 naming `scenarios[i].name` when two scenarios share a name (a comparison tells them apart by name). */
function checkUniqueNames(list: { name: string }[]): void {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.name))
      throw invalidParam(`scenarios[${i}].name`, `Invalid scenarios[${i}].name: '${s.name}' names another scenario.`);
    seen.add(s.name);
  });
}

/** The request's agent (`{id}` of the path), 404 naming `id` when unknown or deleted. */
async function pathAgent(req: Request) {
  const id = String(req.params.id);
  const agent = await findLiveAgent(req.auth!, id);
  if (!agent) throw notFound('agent', id, 'id');
  return agent;
}

/** The request's suite (`{id}` of the path) of the key's organization and mode, 404 when unknown or deleted. */
async function pathSuite(req: Request): Promise<WithId<TestSuiteDoc>> {
  const id = String(req.params.id);
  const doc = await TestSuite.findById(id).lean();
  if (!doc || doc.org_id !== req.auth!.orgId || doc.livemode !== req.auth!.livemode || doc.deleted_ms != null)
    throw notFound('test suite', id, 'id');
  return doc;
}

/** The stored scenarios of a parsed list (absent `max_turns` stored as null). */
const storedScenarios = (list: z.output<typeof scenarios>) =>
  list.map((s) => ({ ...s, max_turns: s.max_turns ?? null }));

/** `POST /v1/agents/{id}/test_suites` → the suite. 404 for an unknown agent; 400 naming `scenarios[2].rubric`. */
const createTestSuite = operation({
  method: 'post',
  path: '/v1/agents/{id}/test_suites',
  operationId: 'createTestSuite',
  tag,
  summary: 'Create a test suite',
  description:
    'Scenarios of simulated callers (a persona and a goal, played by a model) and the rubric a judge checks each call against. 1 to 50 scenarios with unique names.',
  scope: 'agents:write',
  bodyDoc: createTestSuiteSchema,
  example: EXAMPLE,
  response: TestSuiteObject,
  handler: async (req, res) => {
    const body = parseIndexed(createTestSuiteSchema, req.body);
    checkUniqueNames(body.scenarios);
    const agent = await pathAgent(req);
    await idempotent(req, res, 'tsuite', async (id) => {
      const created = Math.floor(idTime(id) / 1000);
      const doc = {
        _id: id,
        org_id: agent.org_id,
        livemode: agent.livemode,
        agent_id: agent._id,
        name: body.name,
        scenarios: storedScenarios(body.scenarios),
        created,
        updated: created,
        deleted_ms: null,
      };
      await insertIfAbsent(TestSuite, doc);
      return { status: 200, body: renderTestSuite(doc) };
    });
  },
});

/** `GET /v1/agents/{id}/test_suites` → the agent's suites, newest first. */
const listTestSuites = operation({
  method: 'get',
  path: '/v1/agents/{id}/test_suites',
  operationId: 'listTestSuites',
  tag,
  summary: "List an agent's test suites",
  scope: 'agents:read',
  list: true,
  response: listOf(TestSuiteObject),
  handler: async (req, res) => {
    const agent = await pathAgent(req);
    res.json(
      await listPage(
        req,
        TestSuite,
        { agent_id: agent._id, org_id: agent.org_id, livemode: agent.livemode, deleted_ms: null },
        renderTestSuite,
      ),
    );
  },
});

/** `GET /v1/test_suites/{id}` → the suite. */
const retrieveTestSuite = operation({
  method: 'get',
  path: '/v1/test_suites/{id}',
  operationId: 'retrieveTestSuite',
  tag,
  summary: 'Retrieve a test suite',
  scope: 'agents:read',
  response: TestSuiteObject,
  handler: async (req, res) => {
    res.json(renderTestSuite(await pathSuite(req)));
  },
});

/** `POST /v1/test_suites/{id}` `{name?, scenarios?}` → the suite; runs started before keep what they ran. */
const updateTestSuite = operation({
  method: 'post',
  path: '/v1/test_suites/{id}',
  operationId: 'updateTestSuite',
  tag,
  summary: 'Update a test suite',
  description: '`scenarios` replaces the whole list. Runs already started keep the scenarios they started with.',
  scope: 'agents:write',
  bodyDoc: updateTestSuiteSchema,
  example: { name: 'Bookings v2' },
  response: TestSuiteObject,
  handler: async (req, res) => {
    const body = parseIndexed(updateTestSuiteSchema, req.body);
    if (body.scenarios) checkUniqueNames(body.scenarios);
    const suite = await pathSuite(req);
    // With an Idempotency-Key, a retried update answers as the first did (DESIGN.md section 5).
    await idempotent(req, res, 'req', async () => {
      const set = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.scenarios ? { scenarios: storedScenarios(body.scenarios) } : {}),
        updated: Math.floor(Date.now() / 1000),
      };
      await TestSuite.updateOne({ _id: suite._id }, { $set: set });
      return { status: 200, body: renderTestSuite({ ...suite, ...set } as WithId<TestSuiteDoc>) };
    });
  },
});

/** `DELETE /v1/test_suites/{id}` → `{id, object: "test_suite", deleted: true}`; its runs stay readable. */
const deleteTestSuite = operation({
  method: 'delete',
  path: '/v1/test_suites/{id}',
  operationId: 'deleteTestSuite',
  tag,
  summary: 'Delete a test suite',
  description: 'Its runs stay readable at `GET /v1/test_suite_runs/{id}`.',
  scope: 'agents:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const suite = await pathSuite(req);
    await TestSuite.updateOne({ _id: suite._id }, { $set: { deleted_ms: Date.now() } });
    res.json({ id: suite._id, object: 'test_suite' as const, deleted: true });
  },
});

/**
 * The agent version a run runs: `version` when the agent has it (a draft too: drafts are
 * what tests are for), 404 naming `version` otherwise; without it, the published version.
 */
async function runVersion(agent: WithId<AgentDoc>, version: number | undefined): Promise<number> {
  if (version === undefined) return (await ensureAgentVersions(agent)).version;
  const found = await agentVersion({ orgId: agent.org_id, livemode: agent.livemode, agentId: agent._id, version });
  if (!found) throw notFound('agent version', `${agent._id} v${version}`, 'version');
  return found.number;
}

/**
 * `POST /v1/test_suites/{id}/runs` `{version?, squad_id?}` → the run, `running` (test keys only: a live key is 403
 * `test_mode_only`). 404 for an unknown suite, a deleted agent (`agent_id`), an unknown version (`version`),
 * a squad not live in the organization (`squad_id`: the run's calls are then squad calls); 400 naming
 * `squad_id` with `version` too.
 */
const createTestSuiteRun = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/test_suites/{id}/runs',
    operationId: 'createTestSuiteRun',
    errors: { '403': ['test_mode_only'], '429': ['quota_exceeded'] },
    tag,
    summary: 'Run a test suite',
    description:
      'Runs every scenario as a simulated persona call (at most 5 at once, with the agent’s tools, knowledge and records as configured), then has a model judge each transcript against its rubric. Answers `running` at once; follow `GET /v1/test_suite_runs/{id}` or the `test_suite_run.completed` event. Test keys only.',
    scope: 'agents:write',
    body: createTestSuiteRunSchema,
    example: {},
    response: TestSuiteRunObject,
    handler: async (req, res, { body }) => {
      if (req.auth!.livemode)
        throw new ApiError(
          403,
          'permission_error',
          'test_mode_only',
          'Test suites run with test-mode keys only: their calls are simulated, no phone rings.',
        );
      const prepare = async () => {
        const suite = await pathSuite(req);
        if (body.squad_id !== undefined) {
          if (body.version !== undefined)
            throw invalidParam('squad_id', 'Invalid squad_id: a squad run takes no version (its members fix theirs).');
          if (!(await findLiveSquad(req.auth!, body.squad_id))) throw notFound('squad', body.squad_id, 'squad_id');
          return { suite, version: null, squadId: body.squad_id };
        }
        const agent = await findLiveAgent(req.auth!, suite.agent_id);
        if (!agent) throw notFound('agent', suite.agent_id, 'agent_id');
        return { suite, version: await runVersion(agent, body.version), squadId: null };
      };
      await idempotent(
        req,
        res,
        'tsrun',
        async (runId, { suite, version, squadId }) => {
          // Once per Idempotency-Key: the day's tokens first (a read), then one of the day's runs.
          await checkLlmQuota(suite.org_id);
          await takeQuota(suite.org_id, 'test_suite_runs_per_day');
          const list = suiteScenarios(suite);
          const doc = {
            _id: runId,
            org_id: suite.org_id,
            livemode: suite.livemode,
            suite_id: suite._id,
            agent_id: suite.agent_id,
            agent_version: version,
            squad_id: squadId,
            status: 'running' as const,
            scenarios_json: JSON.stringify(list),
            comparison_json: null,
            created: Math.floor(idTime(runId) / 1000),
            completed_ms: null,
          };
          await insertIfAbsent(TestSuiteRun, doc);
          await startTestSuiteRun(
            temporal,
            {
              runId,
              suiteId: suite._id,
              orgId: suite.org_id,
              livemode: suite.livemode,
              agentId: suite.agent_id,
              version,
              ...(squadId ? { squadId } : {}),
              scenarios: list,
            },
            config().taskQueue,
          );
          return { status: 200, body: renderTestSuiteRun(doc, []) };
        },
        prepare,
      );
    },
  });

/** `GET /v1/test_suites/{id}/runs` → the suite's runs, newest first. */
const listTestSuiteRuns = operation({
  method: 'get',
  path: '/v1/test_suites/{id}/runs',
  operationId: 'listTestSuiteRuns',
  tag,
  summary: "List a test suite's runs",
  scope: 'agents:read',
  list: true,
  response: listOf(TestSuiteRunObject),
  handler: async (req, res) => {
    const suite = await pathSuite(req);
    const page = await listPage(req, TestSuiteRun, { suite_id: suite._id }, (d: { _id: string }) => d._id);
    const data = await Promise.all(page.data.map(async (id) => (await loadTestSuiteRun(id))!));
    res.json({ ...page, data });
  },
});

/** `GET /v1/test_suite_runs/{id}` → the run: progress counts, per-scenario results, comparison once completed. */
const retrieveTestSuiteRun = operation({
  method: 'get',
  path: '/v1/test_suite_runs/{id}',
  operationId: 'retrieveTestSuiteRun',
  tag,
  summary: 'Retrieve a test suite run',
  scope: 'agents:read',
  response: TestSuiteRunObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const run = await loadTestSuiteRun(id);
    if (!run || run.livemode !== req.auth!.livemode || !(await ownRun(id, req.auth!.orgId)))
      throw notFound('test suite run', id, 'id');
    res.json(run);
  },
});

/** Whether run `id` is the organization's. */
async function ownRun(id: string, orgId: string): Promise<boolean> {
  const doc = await TestSuiteRun.findById(id, { org_id: 1 }).lean();
  return doc?.org_id === orgId;
}

/** Routes of test suites (mounted on `/v1` by src/api/app.ts): under `/agents/{id}`, `/test_suites`, `/test_suite_runs`. */
export function testSuitesRouter(temporal: Client): Router {
  return operationsRouter('/v1', [
    createTestSuite,
    listTestSuites,
    retrieveTestSuite,
    updateTestSuite,
    deleteTestSuite,
    createTestSuiteRun(temporal),
    listTestSuiteRuns,
    retrieveTestSuiteRun,
  ]);
}
