/**
 * An agent's update as a named step (`POST /v1/agents/{id}`, src/api/agents.ts; spec section 4's agents),
 * which a route or a test calls directly: `applyAgentUpdate` writes the checked fields, makes the version
 * a configuration change makes, and merges `metadata`.
 */
import { ApiError, invalidParam, notFound } from '../errors';
import { Agent, findLiveAgent, type AgentDoc } from '../models/agents';
import { AGENT_CONFIG_FIELDS, configOf, type AgentConfig } from '../models/agent-versions';
import type { WithId } from '../models/store';
import { createAgentVersion, ensureAgentVersions } from './agent-versions';
import { dropDeletedInstallations } from './connector-installations';
import { dropDeletedTools } from './tools';

/** What an update writes, already checked (src/api/agents.ts `checkAgentUpdate`). */
export interface AgentUpdate {
  /** The document fields to set (configuration fields among them make a version). */
  set: Record<string, unknown>;
  /** Publish the version it makes (`publish` not false); `draft`: make one even with no change. */
  publish: boolean;
  draft: boolean;
  /** The new traffic split (null removes it; undefined leaves it). */
  trafficSplit?: unknown;
  /** A metadata patch, merged (a key set to `""` is removed). */
  metadata?: Record<string, string>;
  toolIds?: string[];
  installationIds?: string[];
}

/**
 * The version an update makes, when `set` (the update's document fields) changes the
 * configuration (`AGENT_CONFIG_FIELDS`) or `draft` asks for one anyway: the agent's published
 * configuration with `set`'s changes, written as the next version. Published (`publish`): `set` takes
 * the whole configuration and `version`; a draft: `set` loses its configuration fields (the agent's
 * published configuration stays). Answers the agent (versions ensured) and the number (null: no version).
 * @throws ApiError 404 when the agent is gone
 */
async function newVersionOf(
  tenant: { orgId: string; livemode: boolean },
  id: string,
  set: Record<string, unknown>,
  publish: boolean,
  draft: boolean,
): Promise<{ agent: WithId<AgentDoc>; number: number | null }> {
  const found = await findLiveAgent(tenant, id);
  if (!found) throw notFound('agent', id, 'id');
  const agent = await ensureAgentVersions(found);
  const changes = Object.fromEntries(AGENT_CONFIG_FIELDS.filter((f) => f in set).map((f) => [f, set[f]]));
  if (Object.keys(changes).length === 0 && !draft) return { agent, number: null };
  const config = configOf({ ...agent, ...changes } as AgentConfig);
  const number = await createAgentVersion({ agent, config, draft: !publish });
  for (const f of AGENT_CONFIG_FIELDS) delete set[f];
  if (publish) Object.assign(set, config, { version: number });
  return { agent, number };
}

/**
 * Applies `update` to the tenant's agent `id`: the version it makes first (`newVersionOf`), then one
 * write of `set` (with the split and the merged metadata), retried when a concurrent merge changed the
 * metadata it merged into; a tool or installation deleted meanwhile is dropped again.
 * @returns the agent as stored
 * @throws ApiError 404 naming `id`, 400 naming `metadata` past 50 keys, 409 `resource_conflict` after 5 races
 */
export async function applyAgentUpdate(
  tenant: { orgId: string; livemode: boolean },
  id: string,
  update: AgentUpdate,
): Promise<WithId<AgentDoc>> {
  const { set } = update;
  // A configuration change (or a draft) makes a version; published, its whole configuration and number
  // go into the agent in the same write, else the agent's stays as it was.
  const version = await newVersionOf(tenant, id, set, update.publish, update.draft);
  if (update.trafficSplit !== undefined)
    set.traffic_split_json = update.trafficSplit ? JSON.stringify(update.trafficSplit) : null;
  // metadata is merged, so its write names the value it merged into (a concurrent merge is redone).
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await findLiveAgent(tenant, id);
    if (!current) throw notFound('agent', id, 'id');
    const filter: Record<string, unknown> = { _id: id, deleted_ms: null };
    if (update.metadata !== undefined) {
      const merged: Record<string, string> = {
        ...(JSON.parse(current.metadata_json ?? '{}') as Record<string, string>),
        ...update.metadata,
      };
      for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
      if (Object.keys(merged).length > 50)
        throw invalidParam('metadata', 'Invalid metadata: must have at most 50 keys.');
      set.metadata_json = JSON.stringify(merged);
      filter.metadata_json = current.metadata_json;
    }
    if (Object.keys(set).length === 0 && !version.number) return current;
    const change = version.number ? { $set: set, $max: { latest_version: version.number } } : { $set: set };
    const updated = Object.keys(set).length
      ? await Agent.findOneAndUpdate(filter, change, { returnDocument: 'after' }).lean()
      : await Agent.findOneAndUpdate(
          filter,
          { $max: { latest_version: version.number } },
          { returnDocument: 'after' },
        ).lean();
    const dropped = updated && [
      update.toolIds && (await dropDeletedTools(id, update.toolIds)),
      update.installationIds && (await dropDeletedInstallations(id, update.installationIds)),
    ];
    if (dropped && dropped.includes(true)) {
      const again = await findLiveAgent(tenant, id);
      if (again) return again;
    }
    if (updated) return updated as WithId<AgentDoc>;
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'resource_conflict',
    'The agent was changed by other requests at the same time; retry.',
  );
}
