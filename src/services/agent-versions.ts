/**
 * Agent versions and traffic splits: the rules shared by the API
 * (src/api/agent-versions.ts, src/api/agents.ts), the starters of calls (src/api/calls.ts, campaigns,
 * callbacks, inbound calls, the widget) and the conversation activity.
 *
 * - An agent's document holds its published configuration; `version` names it, `latest_version` the
 *   newest version (a draft when above it). Each version is an immutable `agent_version` document
 *   (src/models/agent-versions.ts) read by `_id`.
 * - A new call or conversation fixes its version when it starts (`versionedAgent`): the traffic split's
 *   pick for its contact when the agent has one, else the published version; the call's workflow input
 *   carries that version's snapshot, so an update during the call changes nothing in it.
 * - Several API processes: version numbers are taken by inserting `<agent>:v<n>` and, on a duplicate
 *   key, trying the next number; version 1 of an agent made before versions existed is inserted by
 *   whoever needs it first (a duplicate key: another process did).
 */
import { createHash } from 'node:crypto';
import { Agent, findLiveAgent, type AgentDoc, type TrafficSplit } from '../models/agents';
import {
  AgentVersion,
  agentVersionId,
  configOf,
  versionConfig,
  type AgentConfig,
  type AgentVersionDoc,
} from '../models/agent-versions';
import { insertIfAbsent, type WithId } from '../models/store';
import { invalidParam } from '../errors';

/** A tenant's agent, named by id. */
export interface AgentRef {
  orgId: string;
  livemode: boolean;
  agentId: string;
}

/** One version as the services use it. */
export interface AgentVersionSnapshot {
  /** `agt_…:v<number>`. */
  id: string;
  agentId: string;
  number: number;
  /** The configuration (the agent document's `AGENT_CONFIG_FIELDS`). */
  config: AgentConfig;
  draft: boolean;
  createdMs: number;
  publishedMs: number | null;
}

/** An agent document carrying the configuration of one of its versions, and that version's number. */
export type VersionedAgent = WithId<AgentDoc> & { version: number };

/** Most attempts at taking the next version number when other requests take them at the same time. */
const MAX_NUMBER_ATTEMPTS = 20;

function snapshotOf(doc: WithId<AgentVersionDoc>): AgentVersionSnapshot {
  return {
    id: doc._id,
    agentId: doc.agent_id,
    number: doc.number,
    config: versionConfig(doc),
    draft: doc.draft ?? false,
    createdMs: doc.created_ms,
    publishedMs: doc.published_ms ?? null,
  };
}

/**
 * The agent with its version 1 written when it was made before versions existed (`latest_version` null):
 * version 1 is its current configuration, published. Safe with several processes: the version is
 * inserted by `_id` (a duplicate key: another process wrote it), and the agent's numbers are set only
 * while still null. Agents made since have their versions already: returned as they are.
 */
export async function ensureAgentVersions(agent: WithId<AgentDoc>): Promise<VersionedAgent> {
  if (agent.latest_version != null && agent.version != null) return agent as VersionedAgent;
  await writeFirstVersion(agent);
  await Agent.updateOne({ _id: agent._id, latest_version: null }, { $set: { version: 1, latest_version: 1 } });
  return { ...agent, version: agent.version ?? 1, latest_version: agent.latest_version ?? 1 };
}

/**
 * Writes version 1 of `agent`: its document's configuration, published when the agent was created.
 * Idempotent (insert by `_id`; a duplicate key means it is there). `POST /v1/agents` writes it before
 * the agent, so no agent exists without it.
 */
export async function writeFirstVersion(
  agent: Pick<WithId<AgentDoc>, '_id' | 'org_id' | 'livemode' | 'created'> & AgentConfig,
): Promise<void> {
  const createdMs = agent.created * 1000;
  await insertIfAbsent(AgentVersion, {
    _id: agentVersionId(agent._id, 1),
    agent_id: agent._id,
    org_id: agent.org_id,
    livemode: agent.livemode,
    number: 1,
    config_json: JSON.stringify(configOf(agent)),
    draft: false,
    created_ms: createdMs,
    published_ms: createdMs,
  });
}

/**
 * Writes the next version of `agent` with `config` and answers its number: the first free number after
 * `agent.latest_version` (another request may take one at the same time: the insert by `_id` fails with a
 * duplicate key and the next is tried). Does not change the agent's document: the caller moves its
 * `latest_version` (and, when publishing, its configuration and `version`) with `recordNewVersion`.
 * @throws Error when `MAX_NUMBER_ATTEMPTS` numbers in a row were taken
 */
export async function createAgentVersion(input: {
  agent: Pick<WithId<AgentDoc>, '_id' | 'org_id' | 'livemode' | 'latest_version'>;
  config: AgentConfig;
  draft: boolean;
  nowMs?: number;
}): Promise<number> {
  const now = input.nowMs ?? Date.now();
  let number = (input.agent.latest_version ?? 0) + 1;
  for (let i = 0; i < MAX_NUMBER_ATTEMPTS; i++, number++) {
    const inserted = await insertIfAbsent(AgentVersion, {
      _id: agentVersionId(input.agent._id, number),
      agent_id: input.agent._id,
      org_id: input.agent.org_id,
      livemode: input.agent.livemode,
      number,
      config_json: JSON.stringify(configOf(input.config)),
      draft: input.draft,
      created_ms: now,
      published_ms: input.draft ? null : now,
    });
    if (inserted) return number;
  }
  throw new Error(`agent ${input.agent._id}: no free version number after ${MAX_NUMBER_ATTEMPTS} attempts`);
}

/**
 * The update of an agent's document for a new or published version: `latest_version` moves up to
 * `number` (never down: `$max`), and when it is published the document takes its configuration and
 * `version` in the same write (one write: a reader never sees one without the other).
 */
export function versionUpdate(number: number, published: AgentConfig | null): Record<string, unknown> {
  return {
    $max: { latest_version: number },
    ...(published ? { $set: { ...configOf(published), version: number } } : {}),
  };
}

/**
 * Version `version` of the tenant's agent `agentId`, or null when the agent is not the tenant's, is
 * deleted, or has no such version. An `_id` lookup (plus the agent's, for an agent made before versions,
 * whose version 1 is written here).
 */
export async function agentVersion(input: AgentRef & { version: number }): Promise<AgentVersionSnapshot | null> {
  if (!Number.isSafeInteger(input.version) || input.version < 1) return null;
  const agent = await findLiveAgent(input, input.agentId);
  if (!agent) return null;
  if (agent.latest_version == null) await ensureAgentVersions(agent);
  return loadVersion(agent, input.version);
}

/** Version `number` of `agent` (already known to be the tenant's), or null. */
export async function loadVersion(
  agent: Pick<WithId<AgentDoc>, '_id' | 'org_id' | 'livemode'>,
  number: number,
): Promise<AgentVersionSnapshot | null> {
  const doc = await AgentVersion.findById(agentVersionId(agent._id, number)).lean();
  if (!doc || doc.org_id !== agent.org_id || doc.livemode !== agent.livemode || doc.agent_id !== agent._id) return null;
  return snapshotOf(doc as WithId<AgentVersionDoc>);
}

/**
 * The contact key a traffic split hashes: the contact id when there is one, else the
 * E.164 number, else '' (everyone without either shares one bucket).
 */
export function contactKeyOf(who: { contactId?: string | null; phone?: string | null }): string {
  return who.contactId || who.phone || '';
}

/**
 * The bucket 0–99 of a contact for an agent: the first 4 bytes of SHA-256(`<agent id>:<contact key>`)
 * modulo 100. Deterministic, so one contact keeps its version while the split stays; independent per
 * agent, so the same people are not always the first share of every split.
 */
export function splitBucket(agentId: string, contactKey: string): number {
  return createHash('sha256').update(`${agentId}:${contactKey}`).digest().readUInt32BE(0) % 100;
}

/**
 * The version a traffic split gives a contact: the entries in their order fill buckets 0–99 by weight
 * (`[{3, 90}, {4, 10}]`: 0–89 → 3, 90–99 → 4), and the contact's `splitBucket` falls in one.
 * @param split a checked split (weights add to 100)
 */
export function pickSplitVersion(agentId: string, contactKey: string, split: TrafficSplit): number {
  const bucket = splitBucket(agentId, contactKey);
  let upTo = 0;
  for (const entry of split) {
    upTo += entry.weight;
    if (bucket < upTo) return entry.version;
  }
  return split[split.length - 1].version;
}

/** The agent's traffic split, or null. */
export function trafficSplitOf(agent: Pick<AgentDoc, 'traffic_split_json'>): TrafficSplit | null {
  return agent.traffic_split_json ? (JSON.parse(agent.traffic_split_json) as TrafficSplit) : null;
}

/**
 * The number of the version a new call or conversation of `agent` with this contact uses: the split's
 * pick when the agent has one, else the published version.
 */
export function versionFor(
  agent: Pick<AgentDoc, 'traffic_split_json' | 'version'>,
  contactKey: string,
  agentId: string,
) {
  const split = trafficSplitOf(agent);
  return split ? pickSplitVersion(agentId, contactKey, split) : (agent.version ?? 1);
}

/** `agent` carrying `snapshot`'s configuration and number (what newCallInput snapshots into a call). */
export function agentAtVersion(agent: WithId<AgentDoc>, snapshot: AgentVersionSnapshot): VersionedAgent {
  return { ...agent, ...snapshot.config, version: snapshot.number };
}

/**
 * The agent a new call or conversation runs: `agent` (a live agent of the tenant) at the
 * version `versionFor` picks for the contact. The published version is the agent's own document (no
 * read); a split's other version is read by `_id`. A split naming a version that is gone (never: versions
 * are not deleted) falls back to the published one.
 */
export async function versionedAgent(
  agent: WithId<AgentDoc>,
  who: { contactId?: string | null; phone?: string | null },
): Promise<VersionedAgent> {
  return (await agentVersionPicker(agent))(who);
}

/**
 * `versionedAgent` for many contacts of one agent (a campaign's batch): the versions of its split are
 * read once, then each contact's pick is a hash.
 */
export async function agentVersionPicker(
  agent: WithId<AgentDoc>,
): Promise<(who: { contactId?: string | null; phone?: string | null }) => VersionedAgent> {
  const current = await ensureAgentVersions(agent);
  const split = trafficSplitOf(current) ?? [];
  const others = new Map<number, VersionedAgent>();
  for (const { version } of split) {
    if (version === current.version) continue;
    const snapshot = await loadVersion(current, version);
    if (snapshot) others.set(version, agentAtVersion(current, snapshot));
  }
  return (who) => others.get(versionFor(current, contactKeyOf(who), current._id)) ?? current;
}

/**
 * The version of `agent` a conversation runs: the one it recorded
 * (`pinned`: `agent_version` of agent `agent_version_of`) when that is of this agent, read by `_id`, so a
 * later message keeps it whatever was published since; else the one `versionedAgent` picks for the
 * customer now (`picked`: the caller records it on the conversation).
 */
export async function conversationAgent(
  agent: WithId<AgentDoc>,
  pinned: { agent_version?: number | null; agent_version_of?: string | null } | null,
  who: { contactId?: string | null; phone?: string | null },
): Promise<{ agent: VersionedAgent; picked: boolean }> {
  if (pinned?.agent_version != null && pinned.agent_version_of === agent._id) {
    const snapshot = await loadVersion(agent, pinned.agent_version);
    if (snapshot) return { agent: agentAtVersion(agent, snapshot), picked: false };
  }
  return { agent: await versionedAgent(agent, who), picked: true };
}

/**
 * The version the tenant's agent gives a new call or conversation of this contact (see `versionedAgent`),
 * with its configuration; null when the agent is not the tenant's or is deleted.
 */
export async function resolveAgentVersion(
  input: AgentRef & { contactKey: string },
): Promise<{ version: number; config: AgentConfig } | null> {
  const agent = await findLiveAgent(input, input.agentId);
  if (!agent) return null;
  const current = await ensureAgentVersions(agent);
  const number = versionFor(current, input.contactKey, current._id);
  const snapshot = number === current.version ? null : await loadVersion(current, number);
  return snapshot
    ? { version: number, config: snapshot.config }
    : { version: current.version, config: configOf(current) };
}

/**
 * Checks a `traffic_split` for `agent`: at least one entry, integer weights
 * 0–100 adding to 100, each version listed once and one of this agent's. Returns it as stored.
 * @throws ApiError 400 `parameter_invalid` naming `traffic_split`, or `traffic_split[i].version` /
 *   `traffic_split[i].weight` for the first bad entry
 */
export async function checkTrafficSplit(
  agent: Pick<WithId<AgentDoc>, '_id' | 'org_id' | 'livemode'>,
  split: TrafficSplit,
): Promise<TrafficSplit> {
  if (split.length === 0)
    throw invalidParam('traffic_split', 'Invalid traffic_split: list at least one version (null removes the split).');
  for (const [i, entry] of split.entries()) {
    if (split.findIndex((e) => e.version === entry.version) !== i)
      throw invalidParam(
        `traffic_split[${i}].version`,
        `Invalid traffic_split[${i}].version: version ${entry.version} is listed twice.`,
      );
    if (!(await loadVersion(agent, entry.version)))
      throw invalidParam(
        `traffic_split[${i}].version`,
        `Invalid traffic_split[${i}].version: agent ${agent._id} has no version ${entry.version}.`,
      );
  }
  const total = split.reduce((sum, e) => sum + e.weight, 0);
  if (total !== 100)
    throw invalidParam('traffic_split', `Invalid traffic_split: the weights add to ${total}, not 100.`);
  return split.map((e) => ({ version: e.version, weight: e.weight }));
}
