/**
 * Assistants ("agents"): `GET /v1/agents` (spec section 4, scope `agents:read`) and, beyond the
 * specification, `POST /v1/agents` (`agents:write`, Idempotency-Key), `GET /v1/agents/{id}`,
 * `POST /v1/agents/{id}` (update) and `DELETE /v1/agents/{id}`.
 * An agent belongs to the key's organization and mode. Calls keep a snapshot of their agent, so an update
 * or a deletion never changes a call in flight; a deleted agent is missing (404) for reads and new calls.
 */
import type { Client } from '@temporalio/client';
import type { Router } from 'express';
import { z } from 'zod';
import {
  Agent,
  AgentObject,
  AgentTranscriptionObject,
  AgentVoiceObject,
  agentLanguage,
  defaultAgentId,
  findLiveAgent,
  recordingConsentField,
  renderAgent,
} from '../models/agents';
import { insertIfAbsent } from '../models/store';
import { checkTrafficSplit, writeFirstVersion } from '../services/agent-versions';
import { DeletedObject, listOf, recordingSettingsObject } from '../models/wire';
import { invalidParam, notFound } from '../errors';
import { deleteAgentKnowledgeAndSources } from '../services/knowledge-sources';
import { checkAgentToolIds, dropDeletedTools, MAX_AGENT_TOOLS } from '../services/tools';
import { applyAgentUpdate } from '../services/agent-updates';
import type { AuthContext } from './middleware';
import {
  checkAgentInstallationIds,
  dropDeletedInstallations,
  MAX_AGENT_INSTALLATIONS,
} from '../services/connector-installations';
import { idTime } from '../shared/ids';
import { isTransferTarget, TRANSFER_MODES } from '../shared/calls';
import { requireDestination } from '../services/dial-gate';
import { transferDestinationsSchema } from './dialing';
import { isOptionalToolName, OPTIONAL_TOOLS } from '../shared/tools';
import { INTERRUPTIBLE_MODES } from '../shared/speech';
import { idempotent } from './idempotency';
import { allowedModels, config } from '../config';
import { ENGINES } from '../shared/realtime';
import { REPLAY_LIMITS } from '../shared/replays';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { callingWindow, metadata, voicemailSchema } from './validation';
import { AnalysisPlanObject } from '../models/analyses';
import { TurnTakingObject } from '../models/turn-taking';
import { checkAnalysisPlan } from '../services/analysis';

export const createAgentSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  instructions: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
  first_message: z.string().trim().min(1).max(2000).optional(),
  model: z
    .string()
    .min(1)
    .max(200)
    .superRefine((m, ctx) => {
      // Operator-set (LLM_MODELS): a tenant cannot pick a model the operator does not pay for, nor
      // grow the metrics' model label with names of its own.
      const allowed = allowedModels();
      if (!allowed.includes(m))
        ctx.addIssue({
          code: 'custom',
          message: `must be one of the models this service offers: ${allowed.join(', ')}`,
        });
    })
    .optional()
    .describe('The chat model; one of those the operator allows (`LLM_MODELS`); absent: the default model.'),
  transfer_to: z
    .string()
    .refine(isTransferTarget, 'must be an E.164 number, a sip: URI or a client: identity')
    .optional(),
  transfer_destinations: transferDestinationsSchema.optional(),
  transfer_mode: z
    .enum(TRANSFER_MODES)
    .optional()
    .describe(
      'How the `transfer_call` tool transfers: `cold` (default) hands the line over; `warm` holds the caller, briefs the person with a summary and joins them, or brings the caller back to the assistant when the person is busy, does not answer or hangs up.',
    ),
  tool_ids: z
    .array(z.string().meta({ examples: ['tool_01jd5x2v7c0000000000000000'] }))
    .max(MAX_AGENT_TOOLS, `must list at most ${MAX_AGENT_TOOLS} tools`)
    .describe(
      'Custom tools (`tool_…`) the assistant may call besides its built-in ones; each a live tool of yours in this mode.',
    )
    .optional(),
  connector_installation_ids: z
    .array(z.string().meta({ examples: ['cinst_01jd5x2v7c0000000000000000'] }))
    .max(MAX_AGENT_INSTALLATIONS, `must list at most ${MAX_AGENT_INSTALLATIONS} connector installations`)
    .describe(
      'Connector installations (`cinst_…`) whose tools the assistant may call; each a live installation of yours in this mode.',
    )
    .optional(),
  enabled_tools: z
    .array(z.string().meta({ examples: ['schedule_callback'] }))
    .describe(
      `Optional built-in tools the assistant offers: ${OPTIONAL_TOOLS.map((t) => `\`${t}\``).join(', ')} (\`schedule_callback\` calls the person back at the time they ask for, on calls and WhatsApp/SMS conversations; \`send_dtmf\` presses keys on a phone call, to navigate a phone menu). Each at most once.`,
    )
    .optional(),
  knowledge_citations: z
    .boolean()
    .optional()
    .describe(
      "Ask the assistant to cite the knowledge it answers from (default false): its prompt then lists each chunk's source (title, url or file name, page) and asks it to name the source of what it says.",
    ),
  opt_out_tool: z
    .boolean()
    .optional()
    .describe(
      'Offer the built-in `opt_out` tool on its calls (default true): a person who asks not to be called again is put on the do-not-call list on the spot, told so, and the call ends. `false` switches it off.',
    ),
  calling_window: callingWindow
    .optional()
    .describe(
      "When the agent's scheduled calls and promised callbacks may ring (local time of the callee); a time outside it moves to its next opening.",
    ),
  voicemail: voicemailSchema.optional(),
  voice: AgentVoiceObject.optional(),
  language: agentLanguage.optional(),
  transcription: AgentTranscriptionObject.optional(),
  interruptible: z
    .enum(INTERRUPTIBLE_MODES)
    .optional()
    .describe(
      "What may interrupt the assistant while it speaks on a phone call: the caller's speech or keys (`any`, ConversationRelay's default), `speech` only, or `none`.",
    ),
  dtmf: z
    .boolean()
    .optional()
    .describe(
      "Hear the caller's keypresses on phone calls (ConversationRelay `dtmfDetection`): they reach the assistant.",
    ),
  turn_taking: TurnTakingObject.optional(),
  engine: z
    .enum(ENGINES)
    .optional()
    .describe(
      'What carries its phone calls: `pipeline` (default) or `realtime` (OpenAI\'s Realtime API over SIP, speech to speech). `realtime` is refused (400 naming `engine`) unless the operator configured an OpenAI project (`OPENAI_REALTIME_PROJECT_ID`, `OPENAI_WEBHOOK_SECRET`), and with `recording_consent: "ask"` (400 naming the field this request gives: the caller\'s answer must be heard before the model speaks).',
    ),
  replay_rubric: z
    .string()
    .trim()
    .min(1, 'must not be empty (null clears it)')
    .max(REPLAY_LIMITS.rubricChars, `must be at most ${REPLAY_LIMITS.rubricChars} characters`)
    .optional()
    .describe(
      "What replays of this version judge by when the replay request gives no `rubric` (`POST /v1/agents/{id}/replays`): what counts as a changed turn in `turn` mode, the test-suite judge's rubric in `fork` mode. Part of the version.",
    ),
  analysis: AnalysisPlanObject.optional().describe(
    "What to learn from each call once it has ended: `summary`, `structured_data` (a JSON Schema), `success_evaluation`; the result is the call's `analysis` and a `call.analyzed` event.",
  ),
  metadata: metadata.optional(),
  recording: recordingSettingsObject
    .optional()
    .describe('Record its calls: both parties, kept in the service; `notice` is said before the greeting.'),
  recording_consent: recordingConsentField
    .optional()
    .describe(
      "How a recorded call gets consent: `announce` (the opening says the call is recorded; `notice` when given, else a built-in sentence in the agent's language), `ask` (the opening asks; recording starts only after a spoken yes, a no keeps it off and the call goes on), `off` (not recorded, nothing said). Absent: `announce` where either number is in an all-party-consent US state or the EU/EEA, the UK (and GG, JE, IM), CA or AU.",
    ),
  /** Answer the test-mode messaging number and numbers connected without `agent_id` (the latest marked wins). */
  default: z.boolean().optional(),
});

/** `POST /v1/agents/{id}`: the create fields, all optional (`transfer_destinations: []` or null removes them all); `first_message`, `model`, `transfer_to`, `calling_window`, `voicemail`, `recording`, `analysis`, `replay_rubric` and the speech settings (`voice`, `language`, `transcription`, `interruptible`, `dtmf`) null to clear. */
export const updateAgentSchema = createAgentSchema.partial().extend({
  first_message: createAgentSchema.shape.first_message.unwrap().nullable().optional(),
  model: createAgentSchema.shape.model.unwrap().nullable().optional(),
  transfer_to: createAgentSchema.shape.transfer_to.unwrap().nullable().optional(),
  transfer_destinations: transferDestinationsSchema.nullable().optional(),
  calling_window: callingWindow.nullable().optional(),
  voicemail: voicemailSchema.nullable().optional(),
  recording: recordingSettingsObject.nullable().optional(),
  recording_consent: recordingConsentField.nullable().optional(),
  analysis: AnalysisPlanObject.nullable().optional(),
  replay_rubric: createAgentSchema.shape.replay_rubric.unwrap().nullable().optional(),
  voice: AgentVoiceObject.nullable().optional(),
  language: agentLanguage.nullable().optional(),
  transcription: AgentTranscriptionObject.nullable().optional(),
  interruptible: createAgentSchema.shape.interruptible.unwrap().nullable().optional(),
  dtmf: z.boolean().nullable().optional(),
  turn_taking: TurnTakingObject.nullable().optional(),
  publish: z
    .boolean()
    .optional()
    .describe(
      '`false` makes the change a draft version (tests and traffic splits may use it) and leaves the published one, which new calls use, as it is. Default true.',
    ),
  traffic_split: z
    .array(
      z.strictObject({
        version: z.number().int().min(1).describe('A version of this agent.'),
        weight: z.number().int().min(0).max(100).describe('Its share of new calls and conversations, in percent.'),
      }),
    )
    .max(10, 'must list at most 10 versions')
    .nullable()
    .optional()
    .describe(
      'Shares of new calls and conversations by version (weights add to 100), picked per contact (the same person keeps the same version); null removes the split.',
    ),
});

/**
 * The document fields of the speech settings `body` gives (src/shared/speech.ts): JSON for
 * `voice` and `transcription`, the canonical language tag; a null clears one, an absent one is left out.
 */
function speechFields(body: z.output<typeof updateAgentSchema>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (body.voice !== undefined) set.voice_json = body.voice ? JSON.stringify(body.voice) : null;
  if (body.transcription !== undefined)
    set.transcription_json = body.transcription ? JSON.stringify(body.transcription) : null;
  for (const field of ['language', 'interruptible', 'dtmf'] as const)
    if (body[field] !== undefined) set[field] = body[field];
  if (body.turn_taking !== undefined) set.turn_taking_json = body.turn_taking ? JSON.stringify(body.turn_taking) : null;
  return set;
}

const AGENT_EXAMPLE = {
  name: 'Front desk',
  instructions: 'You answer calls for Acme Dental. Book, move and cancel appointments.',
  first_message: 'Hello, Acme Dental, how can I help?',
  metadata: { team: 'front-desk' },
};

const tag = 'Agents';

/**
 * Checks `enabled_tools`: each one of src/shared/tools.ts `OPTIONAL_TOOLS`, listed once.
 * @throws ApiError 400 naming `enabled_tools[i]`, the first bad entry
 */
function checkEnabledTools(names: string[]): string[] {
  names.forEach((name, i) => {
    if (!isOptionalToolName(name))
      throw invalidParam(
        `enabled_tools[${i}]`,
        `Invalid enabled_tools[${i}]: '${name}' is not an optional tool (known: ${OPTIONAL_TOOLS.join(', ')}).`,
      );
    if (names.indexOf(name) !== i)
      throw invalidParam(`enabled_tools[${i}]`, `Invalid enabled_tools[${i}]: '${name}' is listed twice.`);
  });
  return names;
}

/**
 * Checks `engine`: `realtime` needs the operator's OpenAI project (src/config.ts `openaiRealtime`:
 * `OPENAI_REALTIME_PROJECT_ID` and `OPENAI_WEBHOOK_SECRET`), else its calls could never be bridged.
 * @throws ApiError 400 `parameter_invalid` naming `engine`
 */
function checkEngine(engine: string | undefined): void {
  if (engine === 'realtime' && !config().openaiRealtime)
    throw invalidParam(
      'engine',
      "Invalid engine: 'realtime' needs an OpenAI project configured by the operator (OPENAI_REALTIME_PROJECT_ID and OPENAI_WEBHOOK_SECRET).",
    );
}

/**
 * Checks the pair `engine` and `recording_consent` an agent would have after the save: `ask` needs the
 * caller's spoken yes heard and answered by the service before the model's first message
 * (src/workflows/call-consent.ts), which the realtime engine cannot do (the model answers the caller on its
 * own, over SIP). The param named is the one this save gives (`recording_consent` when it gives both).
 * @throws ApiError 400 `parameter_invalid` naming `recording_consent` or `engine`
 */
function checkEngineConsent(
  engine: string | null | undefined,
  consent: string | null | undefined,
  given: { engine?: unknown; recording_consent?: unknown },
): void {
  if (engine !== 'realtime' || consent !== 'ask') return;
  const param = given.recording_consent !== undefined ? 'recording_consent' : 'engine';
  throw invalidParam(
    param,
    `Invalid ${param}: recording_consent 'ask' cannot run on engine 'realtime' (the caller's answer must be heard before the model speaks); use 'announce' or the pipeline engine.`,
  );
}

/** The stored `engine`: `realtime`, or null for the pipeline (the default, as agents made before engines). */
function engineField(engine: string | undefined): 'realtime' | null {
  return engine === 'realtime' ? 'realtime' : null;
}

/**
 * The agent's transfer destinations as stored (src/shared/dialing.ts `TransferDestination`, `description`
 * and `warm` null when not given): JSON, or null for none.
 */
function destinationsJson(list: z.output<typeof transferDestinationsSchema> | null | undefined): string | null {
  if (!list?.length) return null;
  return JSON.stringify(
    list.map((d) => ({ name: d.name, to: d.to, description: d.description || null, warm: d.warm ?? null })),
  );
}

/**
 * The dialing permissions of every destination an agent body gives (`transfer_destinations.<i>.to`,
 * `transfer_to`): the model may only ever name these, so one the organization may not call is refused
 * now rather than on a caller's line (it is checked again when dialed).
 * @throws ApiError 400 `destination_not_allowed` naming the first refused one
 */
async function checkTransferPermissions(
  tenant: AuthContext,
  body: Pick<z.output<typeof updateAgentSchema>, 'transfer_destinations' | 'transfer_to'>,
): Promise<void> {
  for (const [i, d] of (body.transfer_destinations ?? []).entries())
    await requireDestination(tenant, d.to, `transfer_destinations.${i}.to`);
  if (body.transfer_to) await requireDestination(tenant, body.transfer_to, 'transfer_to');
}

/**
 * `POST /v1/agents` → the agent object. 400 naming the param on bad input; `enabled_tools[i]` when that one
 * is not an optional built-in tool (or is listed twice); `analysis.structured_data.schema…` for a plan whose
 * schema is not a JSON Schema of an object (src/services/analysis.ts `checkAnalysisPlan`); `tool_ids[i]` when that one is
 * not a live tool of the organization in this mode (src/services/tools.ts `checkAgentToolIds`), and
 * `connector_installation_ids[i]` likewise (src/services/connector-installations.ts `checkAgentInstallationIds`);
 * 400 `destination_not_allowed` naming `transfer_destinations.<i>.to` or `transfer_to` when the account's
 * dialing permissions refuse it (src/services/dial-gate.ts `checkDestination`).
 */
const createAgent = operation({
  method: 'post',
  path: '/v1/agents',
  operationId: 'createAgent',
  errors: { '400': ['destination_not_allowed'] },
  tag,
  summary: 'Create an agent',
  scope: 'agents:write',
  body: createAgentSchema,
  example: AGENT_EXAMPLE,
  response: AgentObject,
  handler: async (req, res, { body }) => {
    const enabledTools = checkEnabledTools(body.enabled_tools ?? []);
    checkEngine(body.engine);
    checkEngineConsent(body.engine, body.recording_consent, body);
    if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
    await checkTransferPermissions(req.auth!, body);
    const toolIds = await checkAgentToolIds(req.auth!, body.tool_ids ?? []);
    const installationIds = await checkAgentInstallationIds(req.auth!, body.connector_installation_ids ?? []);
    await idempotent(req, res, 'agt', async (id) => {
      const doc = {
        _id: id,
        org_id: req.auth!.orgId,
        livemode: req.auth!.livemode,
        name: body.name,
        instructions: body.instructions,
        first_message: body.first_message ?? null,
        model: body.model ?? null,
        transfer_to: body.transfer_to ?? null,
        transfer_mode: body.transfer_mode ?? 'cold',
        transfer_destinations_json: destinationsJson(body.transfer_destinations),
        tool_ids: toolIds,
        connector_installation_ids: installationIds,
        enabled_tools: enabledTools,
        opt_out_tool: body.opt_out_tool ?? null,
        knowledge_citations: body.knowledge_citations ?? null,
        calling_window_json: body.calling_window ? JSON.stringify(body.calling_window) : null,
        voicemail_json: body.voicemail ? JSON.stringify(body.voicemail) : null,
        analysis_json: body.analysis ? JSON.stringify(body.analysis) : null,
        replay_rubric: body.replay_rubric ?? null,
        metadata_json: JSON.stringify(body.metadata ?? {}),
        recording_json: body.recording ? JSON.stringify(body.recording) : null,
        recording_consent: body.recording_consent ?? null,
        voice_json: null,
        language: null,
        transcription_json: null,
        interruptible: null,
        dtmf: null,
        turn_taking_json: null,
        ...speechFields(body),
        engine: engineField(body.engine),
        default_ms: body.default ? idTime(id) : null,
        // Version 1 is this configuration, published (written first: a crash leaves no agent without it).
        version: 1,
        latest_version: 1,
        traffic_split_json: null,
        created: Math.floor(idTime(id) / 1000),
        deleted_ms: null,
      };
      await writeFirstVersion(doc);
      await insertIfAbsent(Agent, doc); // a retried takeover finds it already there
      // A tool or an installation deleted while this request ran is pulled out (src/services/tools.ts
      // `dropDeletedTools`, src/services/connector-installations.ts `dropDeletedInstallations`).
      const dropped = [await dropDeletedTools(id, toolIds), await dropDeletedInstallations(id, installationIds)];
      const stored = dropped.includes(true) ? ((await Agent.findById(id).lean()) ?? doc) : doc;
      return { status: 200, body: renderAgent(stored, await defaultAgentId(doc.org_id, doc.livemode)) };
    });
  },
});

/** `GET /v1/agents` → list of agents, newest first. */
const listAgents = operation({
  method: 'get',
  path: '/v1/agents',
  operationId: 'listAgents',
  tag,
  summary: 'List agents',
  scope: 'agents:read',
  list: true,
  response: listOf(AgentObject),
  handler: async (req, res) => {
    const defaultId = await defaultAgentId(req.auth!.orgId, req.auth!.livemode);
    res.json(
      await listPage(req, Agent, { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null }, (doc) =>
        renderAgent(doc, defaultId),
      ),
    );
  },
});

/** `GET /v1/agents/{id}` → the agent; 404 `resource_missing`. */
const retrieveAgent = operation({
  method: 'get',
  path: '/v1/agents/{id}',
  operationId: 'retrieveAgent',
  tag,
  summary: 'Retrieve an agent',
  scope: 'agents:read',
  response: AgentObject,
  handler: async (req, res) => {
    const doc = await findLiveAgent(req.auth!, String(req.params.id));
    if (!doc) throw notFound('agent', String(req.params.id), 'id');
    res.json(renderAgent(doc, await defaultAgentId(doc.org_id, doc.livemode)));
  },
});

/**
 * `POST /v1/agents/{id}` (`agents:write`, Idempotency-Key) body: any create field → the agent. Same
 * validation as creation; `tool_ids`, `connector_installation_ids` and `enabled_tools` replace their lists (`[]` empties
 * one); `first_message`, `model`, `transfer_to`, `calling_window`, `voicemail`, `recording`, `analysis`, `replay_rubric` may be null to clear them; `metadata` merges into the
 * stored keys and a key set to `""` is removed (Stripe). Calls already placed keep the agent as it was. 404 `resource_missing` for an unknown
 * or deleted agent (or another organization's: a draft of it too).
 * A change of configuration (src/models/agent-versions.ts `AGENT_CONFIG_FIELDS`) makes the next
 * `agent_version`, published at once, or with `"publish": false` a draft that leaves the agent (and new
 * calls) as they are; `metadata`, `default` and `traffic_split` alone make none. `traffic_split`
 * (src/services/agent-versions.ts `checkTrafficSplit`: 400 naming `traffic_split` or
 * `traffic_split[i].version`), null to remove it.
 */
const updateAgent = operation({
  method: 'post',
  path: '/v1/agents/{id}',
  operationId: 'updateAgent',
  errors: { '400': ['destination_not_allowed'], '409': ['resource_conflict'] },
  tag,
  summary: 'Update an agent',
  description:
    'Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window`, `voicemail`, `recording`, `analysis`, `replay_rubric`, `voice`, `language`, `transcription`, `interruptible`, `dtmf` and `turn_taking` take null to clear (`turn_taking` is replaced whole). A configuration change makes the next version (`GET /v1/agents/{id}/versions`), published at once unless `"publish": false` makes it a draft; `traffic_split` shares new calls between versions per contact.',
  scope: 'agents:write',
  body: updateAgentSchema,
  example: { instructions: 'You answer calls for Acme Dental. Be brief.' },
  response: AgentObject,
  handler: async (req, res, { body }) => {
    const id = String(req.params.id);
    const checked = await checkAgentUpdate(req.auth!, id, body);
    await idempotent(req, res, 'req', async () => {
      const doc = await applyAgentUpdate(req.auth!, id, {
        set: agentUpdateFields(body, checked),
        publish: body.publish !== false,
        draft: body.publish === false,
        trafficSplit: checked.split,
        metadata: body.metadata,
        toolIds: checked.toolIds,
        installationIds: checked.installationIds,
      });
      return { status: 200, body: renderAgent(doc, await defaultAgentId(doc.org_id, doc.livemode)) };
    });
  },
});

/**
 * The checks of an agent update that read: the live agent (404 naming `id`), its `traffic_split`
 * (src/services/agent-versions.ts `checkTrafficSplit`), `enabled_tools`, the analysis plan, `tool_ids`
 * and `connector_installation_ids` (each a live one of the organization in this mode).
 * @throws ApiError 404 naming `id`, 400 naming the field at fault
 */
async function checkAgentUpdate(tenant: AuthContext, id: string, body: z.output<typeof updateAgentSchema>) {
  const existing = await findLiveAgent(tenant, id);
  if (!existing) throw notFound('agent', id, 'id');
  const split = body.traffic_split ? await checkTrafficSplit(existing, body.traffic_split) : body.traffic_split;
  const enabledTools = body.enabled_tools !== undefined ? checkEnabledTools(body.enabled_tools) : undefined;
  checkEngine(body.engine);
  checkEngineConsent(
    body.engine !== undefined ? body.engine : existing.engine,
    body.recording_consent !== undefined ? body.recording_consent : existing.recording_consent,
    body,
  );
  if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
  await checkTransferPermissions(tenant, body);
  const toolIds = body.tool_ids !== undefined ? await checkAgentToolIds(tenant, body.tool_ids) : undefined;
  const installationIds =
    body.connector_installation_ids !== undefined
      ? await checkAgentInstallationIds(tenant, body.connector_installation_ids)
      : undefined;
  return { split, enabledTools, toolIds, installationIds };
}

/** The agent document's fields an update sets (JSON for the structured settings; a null clears one). */
function agentUpdateFields(
  body: z.output<typeof updateAgentSchema>,
  checked: Awaited<ReturnType<typeof checkAgentUpdate>>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (checked.toolIds !== undefined) set.tool_ids = checked.toolIds;
  if (checked.installationIds !== undefined) set.connector_installation_ids = checked.installationIds;
  if (body.voicemail !== undefined) set.voicemail_json = body.voicemail ? JSON.stringify(body.voicemail) : null;
  if (checked.enabledTools !== undefined) set.enabled_tools = checked.enabledTools;
  if (body.opt_out_tool !== undefined) set.opt_out_tool = body.opt_out_tool;
  if (body.knowledge_citations !== undefined) set.knowledge_citations = body.knowledge_citations;
  if (body.transfer_destinations !== undefined)
    set.transfer_destinations_json = destinationsJson(body.transfer_destinations);
  for (const field of ['name', 'instructions', 'first_message', 'model', 'transfer_to', 'transfer_mode'] as const) {
    if (body[field] !== undefined) set[field] = body[field];
  }
  if (body.calling_window !== undefined)
    set.calling_window_json = body.calling_window ? JSON.stringify(body.calling_window) : null;
  if (body.recording !== undefined) set.recording_json = body.recording ? JSON.stringify(body.recording) : null;
  if (body.recording_consent !== undefined) set.recording_consent = body.recording_consent;
  if (body.analysis !== undefined) set.analysis_json = body.analysis ? JSON.stringify(body.analysis) : null;
  if (body.replay_rubric !== undefined) set.replay_rubric = body.replay_rubric;
  Object.assign(set, speechFields(body));
  if (body.engine !== undefined) set.engine = engineField(body.engine);
  // The latest agent marked default wins; unmarking leaves the organization's first agent as default.
  if (body.default !== undefined) set.default_ms = body.default ? Date.now() : null;
  return set;
}

/**
 * `DELETE /v1/agents/{id}` (`agents:write`) → `{id, object: "agent", deleted: true}`. The agent is
 * missing from then on: GET and lists omit it, `POST /v1/calls`, `/v1/bulk-calls`, `/v1/messages`,
 * `/v1/phone_numbers` and `/v1/knowledge` with it are 404 naming `agent_id` (src/models/agents.ts
 * `findLiveAgent`); calls in flight keep their snapshot and run to their end, a campaign dials no more
 * with it, and a conversation's next turn goes to another agent (`answeringAgent`). Its knowledge documents are deleted with it
 * (web sources' refresh schedules and running crawls too). 404 `resource_missing` when unknown or already deleted.
 */
const deleteAgent = (temporal: Client) =>
  operation({
    method: 'delete',
    path: '/v1/agents/{id}',
    operationId: 'deleteAgent',
    tag,
    summary: 'Delete an agent',
    description: 'Calls already placed keep it; new calls naming it are 404.',
    scope: 'agents:write',
    response: DeletedObject,
    handler: async (req, res) => {
      const id = String(req.params.id);
      const { orgId, livemode } = req.auth!;
      const doc = await Agent.findOneAndUpdate(
        { _id: id, org_id: orgId, livemode, deleted_ms: null },
        { $set: { deleted_ms: Date.now() } },
        { returnDocument: 'after' },
      ).lean();
      const known = doc ?? (await Agent.findOne({ _id: id, org_id: orgId, livemode }).lean());
      // Also for an agent already deleted: finishes the erasure of a deletion that crashed half-way.
      if (known) await deleteAgentKnowledgeAndSources(temporal, { orgId, livemode, agentId: id });
      if (!doc) throw notFound('agent', id, 'id');
      res.json({ id, object: 'agent' as const, deleted: true });
    },
  });

/** Routes under `/v1/agents` (mounted there by src/api/app.ts). */
export function agentsRouter(temporal: Client): Router {
  return operationsRouter('/v1/agents', [createAgent, listAgents, retrieveAgent, updateAgent, deleteAgent(temporal)]);
}
