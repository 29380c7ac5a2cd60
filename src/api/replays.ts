/**
 * Replays (scopes `agents:read` / `agents:write`): an agent version's answers regenerated on calls the
 * agent already had, judged and compared with what was said (src/services/replays.ts).
 *
 *   POST /v1/agents/{id}/replays               `{version, mode?, from_turn?, call_ids? | filter? + sample?, rubric?}`
 *   GET  /v1/agents/{id}/replays               the agent's replays, newest first
 *   GET  /v1/agents/{id}/replays/{replay_id}   a replay: progress, per-call summaries and turns, totals
 *
 * The calls are chosen when the replay is created (a retried request with the same Idempotency-Key picks
 * the same ones) and replayed by `replayWorkflow` (src/workflows/replays.ts).
 */
import type { Request, Router } from 'express';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { config } from '../config';
import { invalidParam, notFound } from '../errors';
import { findLiveAgent } from '../models/agents';
import { Replay, ReplayObject } from '../models/replays';
import { insertIfAbsent } from '../models/store';
import { listOf } from '../models/wire';
import { agentVersion } from '../services/agent-versions';
import { checkLlmQuota } from '../services/quotas';
import { loadReplay, selectReplayCalls, startReplay } from '../services/replays';
import { idTime } from '../shared/ids';
import { PERSONA_LIMITS } from '../shared/calls';
import { REPLAY_LIMITS, REPLAY_MODES, type RubricSource } from '../shared/replays';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';

const unixSeconds = z.number().int().min(0);

export const createReplaySchema = z.strictObject({
  version: z
    .number()
    .int()
    .min(1)
    .describe('The agent version to replay, a draft or a published one (404 naming `version` when it does not exist).'),
  mode: z
    .enum(REPLAY_MODES)
    .optional()
    .describe(
      "`turn` (the default): every assistant turn is regenerated from the recorded context up to it, and compared one to one. `fork`: each call is played again as a new test-mode call of the version (with a live key too), never dialed: the recorded caller's lines before `from_turn` as they were, then a persona caller seeded by them; the tools answered by mocks (the recorded result for the same arguments, else the tool's `mock` rule or default, else a made-up one), never run.",
    ),
  from_turn: z
    .number()
    .int()
    .min(1)
    .max(PERSONA_LIMITS.maxTurns)
    .optional()
    .describe(
      '`fork` mode only: the first caller line the persona says (default 1: the persona from the start); the recorded lines before it are said as they were.',
    ),
  call_ids: z
    .array(z.string().min(1).max(100))
    .min(1)
    .max(REPLAY_LIMITS.calls)
    .optional()
    .describe("The agent's ended calls to replay; excludes `filter` and `sample`."),
  filter: z
    .strictObject({
      created: z
        .strictObject({ gte: unixSeconds.optional(), lt: unixSeconds.optional() })
        .optional()
        .describe('The period the calls were created in, unix seconds.'),
      status: z
        .array(z.enum(['completed', 'transferred']))
        .min(1)
        .optional()
        .describe('Default: both.'),
      end_reason: z.array(z.string().min(1).max(64)).min(1).optional(),
      verdict: z.enum(['pass', 'fail']).optional().describe("The calls' analysis success verdict."),
    })
    .optional()
    .describe(`Which of the agent's ended calls to replay (newest first, at most ${REPLAY_LIMITS.calls}).`),
  sample: z
    .number()
    .int()
    .min(1)
    .max(REPLAY_LIMITS.calls)
    .optional()
    .describe('Replay only this many of the calls the filter matches, picked at random.'),
  rubric: z
    .string()
    .trim()
    .min(1)
    .max(REPLAY_LIMITS.rubricChars)
    .optional()
    .describe(
      '`turn` mode: what counts as a changed turn, for the comparer model (default: a different action or fact). `fork` mode: the test-suite judge\'s rubric, by which the recorded call and the forked one are each judged (`summary.fork.judge`). Absent: the replayed version\'s `replay_rubric` (`rubric_source: "agent"`), else the default rubric (`turn`) or no judge (`fork`).',
    ),
});

const tag = 'Replays';

/**
 * The rubric a new replay judges by, and where it came from: the request's `rubric` when it gives one,
 * else the replayed version's `replay_rubric` (copied into the replay, so the run never reads the agent
 * again for it), else none (`turn` mode: the default rubric; `fork` mode: no judge).
 */
export function replayRubric(
  requested: string | undefined,
  versionRubric: string | null | undefined,
): { text: string | null; source: RubricSource | null } {
  if (requested) return { text: requested, source: 'replay' };
  if (versionRubric) return { text: versionRubric, source: 'agent' };
  return { text: null, source: null };
}

/** The request's agent (`{id}` of the path), 404 naming `id` when unknown or deleted. */
async function pathAgent(req: Request) {
  const id = String(req.params.id);
  const agent = await findLiveAgent(req.auth!, id);
  if (!agent) throw notFound('agent', id, 'id');
  return agent;
}

/**
 * `POST /v1/agents/{id}/replays` → the replay, `running`. 404 for an unknown agent (`id`) or version
 * (`version`); 400 naming `call_ids[i]` (not the agent's, not ended, erased), `call_ids` (given with a
 * filter or a sample), `filter` (no call matches) or `from_turn` (without `fork`); 429 `quota_exceeded`
 * past the day's model tokens. Without a `rubric` the replayed version's `replay_rubric` is used
 * (`rubric_source: "agent"`, `replayRubric`).
 */
const createReplay = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/agents/{id}/replays',
    operationId: 'createReplay',
    errors: { '429': ['quota_exceeded'] },
    tag,
    summary: 'Replay recorded calls against an agent version',
    description:
      "Regenerates every assistant turn of the chosen calls with the given version (a draft too), from the recorded context up to that turn: the caller's real words and the recorded tool results. No tool runs and no phone rings. Each turn is compared with what was said (tool calls exactly, words by a comparer model and the rubric). In `fork` mode each call is played again as a new test-mode call (with a live key too) (`forked_call_id`) with a persona caller and mocked tools, and compared as a whole (`summary.fork`). Answers `running` at once; follow `GET /v1/agents/{id}/replays/{replay_id}` or the `replay.completed` event.",
    scope: 'agents:write',
    body: createReplaySchema,
    example: { version: 3, filter: { created: { gte: 1772400000 } }, sample: 20 },
    response: ReplayObject,
    handler: async (req, res, { body }) => {
      if (body.call_ids && (body.filter || body.sample !== undefined))
        throw invalidParam('call_ids', '`call_ids` excludes `filter` and `sample`.');
      if (body.from_turn !== undefined && body.mode !== 'fork')
        throw invalidParam('from_turn', '`from_turn` is for `fork` mode only.');
      const prepare = async () => {
        const agent = await pathAgent(req);
        const found = await agentVersion({
          orgId: agent.org_id,
          livemode: agent.livemode,
          agentId: agent._id,
          version: body.version,
        });
        if (!found) throw notFound('agent version', `${agent._id} v${body.version}`, 'version');
        await checkLlmQuota(agent.org_id);
        return { agent, rubric: replayRubric(body.rubric, found.config.replay_rubric) };
      };
      await idempotent(
        req,
        res,
        'rpl',
        async (replayId, { agent, rubric }) => {
          const callIds = await selectReplayCalls(agent, body, replayId);
          const doc = {
            _id: replayId,
            org_id: agent.org_id,
            livemode: agent.livemode,
            agent_id: agent._id,
            agent_version: body.version,
            mode: body.mode ?? 'turn',
            rubric: rubric.text,
            rubric_source: rubric.source,
            from_turn: body.mode === 'fork' ? (body.from_turn ?? 1) : null,
            selection_json: JSON.stringify({
              call_ids: body.call_ids ?? null,
              filter: body.filter ?? null,
              sample: body.sample ?? null,
            }),
            call_ids: callIds,
            status: 'running' as const,
            created: Math.floor(idTime(replayId) / 1000),
            completed_ms: null,
          };
          await insertIfAbsent(Replay, doc);
          await startReplay(
            temporal,
            {
              replayId,
              orgId: agent.org_id,
              livemode: agent.livemode,
              agentId: agent._id,
              version: body.version,
              mode: doc.mode,
              callIds,
            },
            config().taskQueue,
          );
          return { status: 200, body: (await loadReplay(replayId))! };
        },
        prepare,
      );
    },
  });

/** `GET /v1/agents/{id}/replays` → the agent's replays, newest first. */
const listReplays = operation({
  method: 'get',
  path: '/v1/agents/{id}/replays',
  operationId: 'listReplays',
  tag,
  summary: "List an agent's replays",
  scope: 'agents:read',
  list: true,
  response: listOf(ReplayObject),
  handler: async (req, res) => {
    const agent = await pathAgent(req);
    const page = await listPage(
      req,
      Replay,
      { agent_id: agent._id, org_id: agent.org_id, livemode: agent.livemode },
      (d: { _id: string }) => d._id,
    );
    const data = await Promise.all(page.data.map(async (id) => (await loadReplay(id))!));
    res.json({ ...page, data });
  },
});

/** `GET /v1/agents/{id}/replays/{replay_id}` → the replay; 404 naming `replay_id` when not the agent's. */
const retrieveReplay = operation({
  method: 'get',
  path: '/v1/agents/{id}/replays/{replay_id}',
  operationId: 'retrieveReplay',
  tag,
  summary: 'Retrieve a replay',
  description:
    'Progress, each call with its summary (turns changed, tool calls added or removed, transfers, length, tokens, cost) and its turns side by side (original | replayed), and the totals. A call whose recording was erased or expired since shows `erased: true` and no turns.',
  scope: 'agents:read',
  response: ReplayObject,
  handler: async (req, res) => {
    const agent = await pathAgent(req);
    const id = String(req.params.replay_id);
    const doc = await Replay.findById(id, { agent_id: 1, org_id: 1, livemode: 1 }).lean();
    if (!doc || doc.agent_id !== agent._id || doc.org_id !== agent.org_id || doc.livemode !== agent.livemode)
      throw notFound('replay', id, 'replay_id');
    res.json(await loadReplay(id));
  },
});

/** Routes of replays (mounted on `/v1` by src/api/app.ts), under `/agents/{id}/replays`. */
export function replaysRouter(temporal: Client): Router {
  return operationsRouter('/v1', [createReplay(temporal), listReplays, retrieveReplay]);
}
