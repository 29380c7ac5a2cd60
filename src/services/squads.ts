/**
 * Squads (src/shared/squads.ts): the checks of a squad's configuration against the organization's agents,
 * and the squad a new call carries (every member's agent snapshotted at the version the call fixes).
 */
import { invalidParam, missingParam, notFound } from '../errors';
import { findLiveAgent, type AgentDoc } from '../models/agents';
import type { WithId } from '../models/store';
import { findLiveSquad, squadConfig, type SquadDoc } from '../models/squads';
import type { CallSquad } from '../shared/calls';
import { DEFAULT_VOICE_CHANGE, VOICE_CHANGES, type SquadConfig, type SquadMember } from '../shared/squads';
import {
  agentAtVersion,
  ensureAgentVersions,
  loadVersion,
  versionedAgent,
  type VersionedAgent,
} from './agent-versions';
import { agentSnapshot } from './calls';
import { squadVersionForCall } from './squad-versions';

type Tenant = { orgId: string; livemode: boolean };

/**
 * Checks a squad's configuration (the schema checked each field's shape): member names unique; each
 * `voice_change` one of `VOICE_CHANGES`; `start`
 * and `overflow` members of it; each hand-off to another member (not itself), at most once per target;
 * each `agent_id` a live agent of the tenant in this mode (another organization's is unknown here); a
 * pinned `version` one the agent has; every member on one engine (its pinned version's, else the agent's):
 * all on the pipeline or all on the realtime engine, whose hand-offs switch the Realtime session
 * (src/workflows/call-realtime.ts), since one call cannot move between a Realtime SIP leg and a
 * ConversationRelay session at a hand-off. Hand-off cycles (A→B→A) are allowed: `max_handoffs` caps them
 * per call.
 * @throws ApiError 400 `parameter_invalid` naming the field (`members[1].handoffs[0].to`,
 *   `members[i].agent_id` for a member on another engine than the first), 404 `resource_missing` naming
 *   `members[i].agent_id`
 */
export async function checkSquadConfig(tenant: Tenant, config: SquadConfig): Promise<void> {
  const names = config.members.map((m) => m.name);
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i)
      throw invalidParam(`members[${i}].name`, `Invalid members[${i}].name: '${name}' is used by another member.`);
  });
  config.members.forEach((m, i) => {
    if (m.voice_change !== undefined && !(VOICE_CHANGES as readonly string[]).includes(m.voice_change))
      throw invalidParam(
        `members[${i}].voice_change`,
        `Invalid members[${i}].voice_change: must be one of ${VOICE_CHANGES.join(', ')}.`,
      );
    m.handoffs.forEach((h, j) => {
      const param = `members[${i}].handoffs[${j}].to`;
      if (!names.includes(h.to)) throw invalidParam(param, `Invalid ${param}: no member is named '${h.to}'.`);
      if (h.to === m.name) throw invalidParam(param, `Invalid ${param}: a member cannot hand off to itself.`);
      if (m.handoffs.findIndex((o) => o.to === h.to) !== j)
        throw invalidParam(param, `Invalid ${param}: '${h.to}' is listed twice.`);
    });
  });
  if (!names.includes(config.start))
    throw invalidParam('start', `Invalid start: no member is named '${config.start}'.`);
  if (config.overflow !== null && !names.includes(config.overflow))
    throw invalidParam('overflow', `Invalid overflow: no member is named '${config.overflow}'.`);
  let first: { name: string; engine: string } | null = null;
  for (const [i, m] of config.members.entries()) {
    const agent = await findLiveAgent(tenant, m.agent_id);
    if (!agent) throw notFound('agent', m.agent_id, `members[${i}].agent_id`);
    let engine = engineOf(agent.engine);
    if (m.version !== null) {
      const versioned = await ensureAgentVersions(agent);
      const snapshot = await loadVersion(versioned, m.version);
      if (!snapshot)
        throw invalidParam(
          `members[${i}].version`,
          `Invalid members[${i}].version: agent '${m.agent_id}' has no version ${m.version}.`,
        );
      engine = engineOf(agentAtVersion(versioned, snapshot).engine);
    }
    first ??= { name: m.name, engine };
    if (engine !== first.engine)
      throw invalidParam(
        `members[${i}].agent_id`,
        `Invalid members[${i}].agent_id: agent '${m.agent_id}' runs on the ${engine} engine and member '${first.name}' on the ${first.engine} engine; a squad's members share one engine.`,
      );
  }
}

/** An agent's engine as a squad compares them: `realtime`, else `pipeline`. */
function engineOf(engine: string | null | undefined): 'realtime' | 'pipeline' {
  return engine === 'realtime' ? 'realtime' : 'pipeline';
}

/**
 * The squad a new call runs and the agent it starts with: the squad at the version the call fixes
 * (`pinned`, else its traffic split's pick for the contact, else the published one:
 * src/services/squad-versions.ts `squadVersionForCall`); every member's agent at its pinned version, else
 * at the version `versionedAgent` picks for the contact (as a call of that agent would), snapshotted
 * (src/services/calls.ts `agentSnapshot`). A member whose agent was deleted since the squad was saved, or
 * whose pinned version is gone, makes the squad unusable.
 * @throws ApiError 404 naming `squad_id` (a member's agent is gone), 400 naming `squad_id` (the members'
 *   versions picked for this call run on different engines) or `squad_version` (no such version)
 */
export async function squadForCall(
  squad: WithId<SquadDoc>,
  tenant: Tenant,
  who: { contactId?: string | null; phone?: string | null },
  pinned?: number,
): Promise<{ squad: CallSquad; start: VersionedAgent }> {
  const { version, config } = await squadVersionForCall(squad, who, pinned);
  const members: (Omit<CallSquad['members'][number], 'agent'> & { agent: VersionedAgent })[] = [];
  for (const m of config.members) {
    const agent = await findLiveAgent(tenant, m.agent_id);
    if (!agent) throw notFound('agent', m.agent_id, 'squad_id');
    const versioned = await memberVersion(agent, m.version, who);
    if (!versioned) throw notFound(`version ${m.version} of agent ${m.agent_id}`, squad._id, 'squad_id');
    const first = members[0];
    if (first && engineOf(versioned.engine) !== engineOf(first.agent.engine))
      throw invalidParam(
        'squad_id',
        `Invalid squad_id: member '${m.name}' runs on the ${engineOf(versioned.engine)} engine and '${first.name}' on the ${engineOf(first.agent.engine)} engine; a squad's members share one engine.`,
      );
    members.push({
      name: m.name,
      agent: versioned,
      handoffs: m.handoffs,
      description: m.description,
      voice_change: m.voice_change ?? DEFAULT_VOICE_CHANGE,
    });
  }
  const start = members.find((m) => m.name === config.start)!.agent;
  return {
    squad: {
      id: squad._id,
      version,
      start: config.start,
      max_handoffs: config.max_handoffs,
      overflow: config.overflow,
      members: members.map((m) => ({ ...m, agent: agentSnapshot(m.agent) })),
    },
    start,
  };
}

/** The member's agent at its pinned version (null when it has no such version), else the contact's pick. */
async function memberVersion(
  agent: WithId<AgentDoc>,
  pinned: number | null,
  who: { contactId?: string | null; phone?: string | null },
): Promise<VersionedAgent | null> {
  if (pinned === null) return versionedAgent(agent, who);
  const versioned = await ensureAgentVersions(agent);
  const snapshot = await loadVersion(versioned, pinned);
  return snapshot ? agentAtVersion(versioned, snapshot) : null;
}

/**
 * The rule of every request that runs an agent or a squad (`POST /v1/calls`, `POST /v1/bulk-calls`, a
 * phone number, a WhatsApp sender, the widget, a test suite): exactly one of `agent_id` and `squad_id`.
 * `required: false` lets both be absent (a resource that may have neither, e.g. a number answering no one).
 * @throws ApiError 400 `parameter_missing` naming `agent_id` (neither, when required), 400
 *   `parameter_invalid` naming `squad_id` (both)
 */
export function checkAnswering(body: { agent_id?: string | null; squad_id?: string | null }, required = true): void {
  const agent = body.agent_id !== undefined && body.agent_id !== null;
  const squad = body.squad_id !== undefined && body.squad_id !== null;
  if (required && !agent && !squad) throw missingParam('agent_id', 'Missing required param: agent_id (or squad_id).');
  if (agent && squad) throw invalidParam('squad_id', 'Invalid squad_id: give agent_id or squad_id, not both.');
}

/** A squad's member as a text conversation's turn runs it: its agent at the version fixed now, and the rules. */
export interface SquadMemberTurn {
  agent: VersionedAgent;
  member: SquadMember;
  config: SquadConfig;
}

/**
 * The member `name` of the live squad `squadId` as a text conversation's turn runs it (read fresh each
 * turn, as a conversation's agent is: an edit applies from the next turn; the squad's version is its
 * published one or its traffic split's pick for the customer, src/services/squad-versions.ts
 * `squadVersionForCall`): its agent at the pinned version,
 * else the version `versionedAgent` picks for the customer. A member no longer in the squad (the squad was
 * edited) gives way to the squad's `start`.
 * @returns null when the squad is deleted, or the member's agent (or pinned version) is gone
 */
export async function squadMemberTurn(
  tenant: Tenant,
  squadId: string,
  name: string,
  who: { contactId?: string | null; phone?: string | null },
): Promise<SquadMemberTurn | null> {
  const squad = await findLiveSquad(tenant, squadId);
  if (!squad) return null;
  const { config } = await squadVersionForCall(squad, who);
  const member = config.members.find((m) => m.name === name) ?? config.members.find((m) => m.name === config.start)!;
  const agent = await findLiveAgent(tenant, member.agent_id);
  if (!agent) return null; // a text conversation runs the chat model whatever the member's engine
  const versioned = await memberVersion(agent, member.version, who);
  return versioned ? { agent: versioned, member, config } : null;
}

/**
 * A live squad of the tenant as a new conversation's (or inbound call's) answerer: its id, start member and
 * that member's agent id.
 * @returns null when there is no such live squad
 */
export async function squadStart(
  tenant: Tenant,
  squadId: string,
): Promise<{ id: string; start: string; agentId: string } | null> {
  const squad = await findLiveSquad(tenant, squadId);
  if (!squad) return null;
  const config = squadConfig(squad);
  const agentId = config.members.find((m) => m.name === config.start)!.agent_id;
  return { id: squad._id, start: config.start, agentId };
}
