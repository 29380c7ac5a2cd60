/**
 * Agent versions: `GET /v1/agents/{id}/versions` (newest first), `GET
 * /v1/agents/{id}/versions/{version}` and `POST /v1/agents/{id}/versions/{version}/publish` (makes that
 * version the one new calls use; publishing an earlier one rolls back). Served by the agents router
 * (src/api/agents.ts); the rules are src/services/agent-versions.ts.
 */
import type { Request, Router } from 'express';
import { z } from 'zod';
import { Agent, AgentObject, defaultAgentId, findLiveAgent, renderAgent } from '../models/agents';
import {
  AgentVersion,
  AgentVersionObject,
  agentVersionId,
  renderAgentVersion,
  versionConfig,
} from '../models/agent-versions';
import type { WithId } from '../models/store';
import { ApiError, invalidParam, notFound } from '../errors';
import { ensureAgentVersions, versionUpdate, type VersionedAgent } from '../services/agent-versions';
import { listParams } from './lists';
import { idempotent } from './idempotency';
import { operation, operationsRouter } from './operations';
import { listOf } from '../models/wire';

const tag = 'Agents';

/** The tenant's live agent `{id}` with its versions (version 1 written for an agent made before them); 404 otherwise. */
async function versionedAgentOf(req: Request): Promise<VersionedAgent> {
  const id = String(req.params.id);
  const agent = await findLiveAgent(req.auth!, id);
  if (!agent) throw notFound('agent', id, 'id');
  return ensureAgentVersions(agent);
}

/**
 * The `{version}` path parameter: a positive integer.
 * @throws ApiError 404 `resource_missing` naming `version` otherwise (no such version)
 */
function versionParam(req: Request, agentId: string): number {
  const raw = String(req.params.version);
  const n = /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw notFound('agent_version', `${agentId}:v${raw}`, 'version');
  return n;
}

/** Version `{version}` of the agent, 404 naming `version` when it has none such. */
async function versionOf(req: Request, agent: VersionedAgent) {
  const number = versionParam(req, agent._id);
  const doc = await AgentVersion.findById(agentVersionId(agent._id, number)).lean();
  if (!doc || doc.agent_id !== agent._id || doc.org_id !== agent.org_id || doc.livemode !== agent.livemode)
    throw new ApiError(
      404,
      'invalid_request_error',
      'resource_missing',
      `No such agent_version: agent ${agent._id} has no version ${number}.`,
      'version',
    );
  return doc as WithId<typeof doc>;
}

/**
 * A list cursor of this agent's versions (`agt_…:v3`) → its number.
 * @throws ApiError 400 naming the parameter when it is not a version id of this agent
 */
function cursorNumber(req: Request, name: 'starting_after' | 'ending_before', agentId: string): number | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? /^(.+):v(\d{1,9})$/.exec(v) : null;
  if (!m || m[1] !== agentId)
    throw invalidParam(name, `Invalid ${name}: must be a version id of this agent (${agentId}:v3).`);
  return Number(m[2]);
}

/**
 * `GET /v1/agents/{id}/versions` → list of `agent_version` objects, newest (highest number) first,
 * `limit`, `starting_after`/`ending_before` version ids (`agt_…:v3`). 404 for an unknown agent.
 */
const listAgentVersions = operation({
  method: 'get',
  path: '/v1/agents/{id}/versions',
  operationId: 'listAgentVersions',
  tag,
  summary: "List an agent's versions",
  description: 'Newest first; cursors are version ids (`agt_…:v3`).',
  scope: 'agents:read',
  list: true,
  response: listOf(AgentVersionObject),
  handler: async (req, res) => {
    const agent = await versionedAgentOf(req);
    // limit as every list reads it; the cursors are version ids, read below.
    const { limit } = listParams({ query: { limit: req.query.limit } } as unknown as Request);
    const after = cursorNumber(req, 'starting_after', agent._id);
    const before = cursorNumber(req, 'ending_before', agent._id);
    if (after !== undefined && before !== undefined)
      throw invalidParam('ending_before', 'Use starting_after or ending_before, not both.');
    const filter: Record<string, unknown> = { agent_id: agent._id };
    let docs;
    if (before !== undefined) {
      filter.number = { $gt: before };
      docs = (
        await AgentVersion.find(filter)
          .sort({ number: 1 })
          .limit(limit + 1)
          .lean()
      ).reverse();
    } else {
      if (after !== undefined) filter.number = { $lt: after };
      docs = await AgentVersion.find(filter)
        .sort({ number: -1 })
        .limit(limit + 1)
        .lean();
    }
    const hasMore = docs.length > limit;
    const page = before !== undefined ? docs.slice(hasMore ? 1 : 0) : docs.slice(0, limit);
    res.json({
      object: 'list' as const,
      data: page.map((d) => renderAgentVersion(d as WithId<typeof d>, agent, agent.version)),
      has_more: hasMore,
      url: `/v1/agents/${agent._id}/versions`,
    });
  },
});

/** `GET /v1/agents/{id}/versions/{version}` → the `agent_version`; 404 naming `id` or `version`. */
const retrieveAgentVersion = operation({
  method: 'get',
  path: '/v1/agents/{id}/versions/{version}',
  operationId: 'retrieveAgentVersion',
  tag,
  summary: 'Retrieve an agent version',
  scope: 'agents:read',
  response: AgentVersionObject,
  handler: async (req, res) => {
    const agent = await versionedAgentOf(req);
    res.json(renderAgentVersion(await versionOf(req, agent), agent, agent.version));
  },
});

/**
 * `POST /v1/agents/{id}/versions/{version}/publish` (no body) → the agent, now at that version: its
 * configuration becomes the agent's, new calls and conversations use it (unless a `traffic_split` says
 * otherwise); calls in flight keep theirs. Publishing an earlier version rolls back; publishing the
 * current one changes nothing. 404 naming `id` (unknown, deleted, another organization's agent) or
 * `version` (no such version of this agent).
 */
const publishAgentVersion = operation({
  method: 'post',
  path: '/v1/agents/{id}/versions/{version}/publish',
  operationId: 'publishAgentVersion',
  tag,
  summary: 'Publish an agent version',
  description:
    'New calls and conversations use it from now on (unless a `traffic_split` says otherwise); calls in flight keep their version. Publishing an earlier version rolls back.',
  scope: 'agents:write',
  body: z.strictObject({}),
  response: AgentObject,
  handler: async (req, res) => {
    await idempotent(req, res, 'req', async () => {
      const agent = await versionedAgentOf(req);
      const doc = await versionOf(req, agent);
      const updated = await Agent.findOneAndUpdate(
        { _id: agent._id, deleted_ms: null },
        versionUpdate(doc.number, versionConfig(doc)),
        {
          returnDocument: 'after',
        },
      ).lean();
      if (!updated) throw notFound('agent', agent._id, 'id');
      await AgentVersion.updateOne({ _id: doc._id, published_ms: null }, { $set: { published_ms: Date.now() } });
      return { status: 200, body: renderAgent(updated, await defaultAgentId(updated.org_id, updated.livemode)) };
    });
  },
});

/** The version routes under `/v1/agents` (mounted there by src/api/app.ts, after src/api/agents.ts's). */
export function agentVersionsRouter(): Router {
  return operationsRouter('/v1/agents', [listAgentVersions, retrieveAgentVersion, publishAgentVersion]);
}
