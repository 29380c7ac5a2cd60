/**
 * Agent versions (object `agent_version`, id `<agent id>:v<number>`, DESIGN.md section 10):
 * one immutable document per configuration an agent has had. Written only by the API, through
 * src/services/agent-versions.ts: `POST /v1/agents` writes version 1, every `POST /v1/agents/{id}` that
 * gives a configuration field (or `"publish": false`) writes the next one, and an agent created before
 * versions existed gets version 1 from its document on first use (`ensureAgentVersions`, insert by `_id`,
 * a duplicate key means another process did it). A version's `config_json` never changes; `published_ms`
 * is set once, the first time it is published (`POST /v1/agents/{id}/versions/{n}/publish`).
 *
 * Reading one version is an `_id` lookup (`agentVersionId`), the only filter FerretDB 1.x pushes down
 * whatever its indexes; the list reads `{agent_id}` newest number first.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';
import { AgentObject, renderAgent, type AgentDoc } from './agents';

/**
 * The fields of an agent's document that change how it behaves, and so make up a version: instructions,
 * first message, model, transfer, tools (custom, connectors, optional built-ins), calling window,
 * voicemail, recording and its consent, analysis plan, replay rubric and speech. Not in a version: `metadata` (the caller's labels),
 * `default` (which agent answers unassigned numbers) and `traffic_split` (which versions answer), which
 * belong to the agent. Knowledge documents are scoped by the agent id, shared by all its versions.
 */
export const AGENT_CONFIG_FIELDS = [
  'name',
  'instructions',
  'first_message',
  'model',
  'transfer_to',
  'transfer_mode',
  'transfer_destinations_json',
  'tool_ids',
  'connector_installation_ids',
  'enabled_tools',
  'opt_out_tool',
  'knowledge_citations',
  'calling_window_json',
  'voicemail_json',
  'recording_json',
  'recording_consent',
  'analysis_json',
  'replay_rubric',
  'voice_json',
  'language',
  'transcription_json',
  'interruptible',
  'dtmf',
  'turn_taking_json',
  'engine',
] as const satisfies readonly (keyof AgentDoc)[];

const LIST_FIELDS = new Set<string>(['tool_ids', 'connector_installation_ids', 'enabled_tools']);

/** A version's configuration: the `AGENT_CONFIG_FIELDS` of an agent document, as stored there. */
export type AgentConfig = Pick<AgentDoc, (typeof AGENT_CONFIG_FIELDS)[number]>;

/** The configuration fields of an agent document (or of a document-shaped patch), copied. */
export function configOf(doc: Partial<AgentConfig>): AgentConfig {
  const out: Record<string, unknown> = {};
  for (const f of AGENT_CONFIG_FIELDS) {
    const v = doc[f];
    out[f] = Array.isArray(v) ? [...v] : (v ?? (LIST_FIELDS.has(f) ? [] : f === 'transfer_mode' ? 'cold' : null));
  }
  return out as AgentConfig;
}

/** `agt_…:v3`: the `_id` of version `number` of agent `agentId`. */
export function agentVersionId(agentId: string, number: number): string {
  return `${agentId}:v${number}`;
}

const agentVersionSchema = new Schema(
  {
    /** `agentVersionId(agent_id, number)`. */
    _id: { type: String, required: true },
    agent_id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** 1, 2, 3… per agent, in the order the versions were made. */
    number: { type: Number, required: true },
    /** The configuration (`AgentConfig`) as JSON; never changes. */
    config_json: { type: String, required: true },
    /** True when it was made by an update with `"publish": false`. */
    draft: { type: Boolean, default: false },
    created_ms: { type: Number, required: true },
    /** When it was first published (ms); null while it never was. */
    published_ms: { type: Number, default: null },
  },
  base,
);
/** `GET /v1/agents/{id}/versions`: one agent's versions, newest number first. */
agentVersionSchema.index({ agent_id: 1, number: -1 });
export const AgentVersion = mongoose.model('AgentVersion', agentVersionSchema, 'agent_versions');

export type AgentVersionDoc = InferSchemaType<typeof agentVersionSchema>;

/** The configuration stored in a version document. */
export function versionConfig(doc: Pick<AgentVersionDoc, 'config_json'>): AgentConfig {
  return configOf(JSON.parse(doc.config_json) as Partial<AgentConfig>);
}

const agentShape = AgentObject.shape;
/** The configuration as the API shows it: the agent object's fields that a version fixes. */
export const AgentVersionConfigObject = apiObject(
  'AgentVersionConfig',
  'The configuration of the agent this version fixes (the fields of the agent object that it covers).',
  z.object({
    name: agentShape.name,
    instructions: agentShape.instructions,
    first_message: agentShape.first_message,
    model: agentShape.model,
    transfer_to: agentShape.transfer_to,
    transfer_mode: agentShape.transfer_mode,
    transfer_destinations: agentShape.transfer_destinations,
    tool_ids: agentShape.tool_ids,
    connector_installation_ids: agentShape.connector_installation_ids,
    enabled_tools: agentShape.enabled_tools,
    opt_out_tool: agentShape.opt_out_tool,
    knowledge_citations: agentShape.knowledge_citations,
    calling_window: agentShape.calling_window,
    voicemail: agentShape.voicemail,
    recording: agentShape.recording,
    recording_consent: agentShape.recording_consent,
    analysis: agentShape.analysis,
    replay_rubric: agentShape.replay_rubric,
    voice: agentShape.voice,
    language: agentShape.language,
    transcription: agentShape.transcription,
    interruptible: agentShape.interruptible,
    dtmf: agentShape.dtmf,
    turn_taking: agentShape.turn_taking,
    engine: agentShape.engine,
  }),
);

/** The `agent_version` object (the OpenAPI component `AgentVersion`). */
export const AgentVersionObject = apiObject(
  'AgentVersion',
  "An immutable snapshot of an agent's configuration. Calls and conversations record the version they ran (`agent_version`).",
  z.object({
    id: z.string().meta({ examples: ['agt_01jd5x2v7c0000000000000000:v3'] }),
    object: z.literal('agent_version'),
    livemode: z.boolean(),
    agent_id: z.string(),
    number: z.number().int().describe('1, 2, 3… in the order the versions were made.'),
    draft: z.boolean().describe('Made by an update with `"publish": false` (not published when made).'),
    published: z.boolean().describe('Whether it is the version new calls use (absent a traffic split).'),
    published_at: unix.nullable().describe('When it was first published; null while it never was.'),
    config: AgentVersionConfigObject,
    created: unix,
  }),
);

/**
 * The `agent_version` object.
 * @param publishedNumber the number of the agent's published version (`published` is whether it is this one)
 */
export function renderAgentVersion(
  doc: WithId<AgentVersionDoc>,
  agent: WithId<AgentDoc>,
  publishedNumber: number,
): z.output<typeof AgentVersionObject> {
  const shown = renderAgent({ ...agent, ...versionConfig(doc) });
  const config = Object.fromEntries(
    Object.keys(AgentVersionConfigObject.shape).map((k) => [k, shown[k as keyof typeof shown]]),
  ) as z.output<typeof AgentVersionConfigObject>;
  return {
    id: doc._id,
    object: 'agent_version' as const,
    livemode: doc.livemode,
    agent_id: doc.agent_id,
    number: doc.number,
    draft: doc.draft ?? false,
    published: doc.number === publishedNumber,
    published_at: doc.published_ms == null ? null : Math.floor(doc.published_ms / 1000),
    config,
    created: Math.floor(doc.created_ms / 1000),
  };
}
