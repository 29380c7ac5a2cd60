/**
 * Assistants ("agents"): `GET /v1/agents` (spec section 4, scope `agents:read`) and, beyond the
 * specification, `POST /v1/agents` (`agents:write`, Idempotency-Key), `GET /v1/agents/{id}`,
 * `POST /v1/agents/{id}` (update) and `DELETE /v1/agents/{id}`.
 * An agent belongs to the key's organization and mode. Calls keep a snapshot of their agent, so an update
 * or a deletion never changes a call in flight; a deleted agent is missing (404) for reads and new calls.
 */
import type { Router } from 'express';
import { z } from 'zod';
import { Agent, AgentObject, defaultAgentId, findLiveAgent, renderAgent } from '../models/agents';
import { insertIfAbsent } from '../models/store';
import { DeletedObject, listOf } from '../models/wire';
import { ApiError, invalidParam, notFound } from '../errors';
import { deleteAgentKnowledge } from '../services/knowledge';
import { checkAgentToolIds, dropDeletedTools, MAX_AGENT_TOOLS } from '../services/tools';
import {
  checkAgentInstallationIds,
  dropDeletedInstallations,
  MAX_AGENT_INSTALLATIONS,
} from '../services/connector-installations';
import { idTime } from '../shared/ids';
import { isTransferTarget } from '../shared/calls';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { callingWindow, metadata } from './validation';
import { AnalysisPlanObject } from '../models/analyses';
import { checkAnalysisPlan } from '../services/analysis';

export const createAgentSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  instructions: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
  first_message: z.string().trim().min(1).max(2000).optional(),
  model: z.string().min(1).max(200).optional(),
  transfer_to: z
    .string()
    .refine(isTransferTarget, 'must be an E.164 number, a sip: URI or a client: identity')
    .optional(),
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
  calling_window: callingWindow
    .optional()
    .describe(
      "When the agent's scheduled calls and promised callbacks may ring (local time of the callee); a time outside it moves to its next opening.",
    ),
  analysis: AnalysisPlanObject.optional().describe(
    "What to learn from each call once it has ended (issue 30): `summary`, `structured_data` (a JSON Schema), `success_evaluation`; the result is the call's `analysis` and a `call.analyzed` event.",
  ),
  metadata: metadata.optional(),
  /** Answer the test-mode messaging number and numbers connected without `agent_id` (the latest marked wins). */
  default: z.boolean().optional(),
});

/** `POST /v1/agents/{id}`: the create fields, all optional; `first_message`, `model`, `transfer_to`, `calling_window`, `analysis` null to clear. */
export const updateAgentSchema = createAgentSchema.partial().extend({
  first_message: createAgentSchema.shape.first_message.unwrap().nullable().optional(),
  model: createAgentSchema.shape.model.unwrap().nullable().optional(),
  transfer_to: createAgentSchema.shape.transfer_to.unwrap().nullable().optional(),
  calling_window: callingWindow.nullable().optional(),
  analysis: AnalysisPlanObject.nullable().optional(),
});

const AGENT_EXAMPLE = {
  name: 'Front desk',
  instructions: 'You answer calls for Acme Dental. Book, move and cancel appointments.',
  first_message: 'Hello, Acme Dental, how can I help?',
  metadata: { team: 'front-desk' },
};

const tag = 'Agents';

/**
 * `POST /v1/agents` → the agent object. 400 naming the param on bad input (`analysis.structured_data.schema…`
 * for a plan whose schema is not a JSON Schema of an object, src/services/analysis.ts `checkAnalysisPlan`); `tool_ids[i]` when that one is
 * not a live tool of the organization in this mode (src/services/tools.ts `checkAgentToolIds`), and
 * `connector_installation_ids[i]` likewise (src/services/connector-installations.ts `checkAgentInstallationIds`).
 */
const createAgent = operation({
  method: 'post',
  path: '/v1/agents',
  operationId: 'createAgent',
  tag,
  summary: 'Create an agent',
  scope: 'agents:write',
  body: createAgentSchema,
  example: AGENT_EXAMPLE,
  response: AgentObject,
  handler: async (req, res, { body }) => {
    if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
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
        tool_ids: toolIds,
        connector_installation_ids: installationIds,
        calling_window_json: body.calling_window ? JSON.stringify(body.calling_window) : null,
        analysis_json: body.analysis ? JSON.stringify(body.analysis) : null,
        metadata_json: JSON.stringify(body.metadata ?? {}),
        default_ms: body.default ? idTime(id) : null,
        created: Math.floor(idTime(id) / 1000),
        deleted_ms: null,
      };
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
 * validation as creation; `tool_ids` and `connector_installation_ids` replace their lists (`[]` empties
 * one); `first_message`, `model`, `transfer_to`, `calling_window`, `analysis` may be null to clear them; `metadata` merges into the
 * stored keys and a key set to `""` is removed (Stripe). Calls already placed keep the agent as it was. 404 `resource_missing` for an unknown
 * or deleted agent.
 */
const updateAgent = operation({
  method: 'post',
  path: '/v1/agents/{id}',
  operationId: 'updateAgent',
  tag,
  summary: 'Update an agent',
  description:
    'Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window` and `analysis` take null to clear.',
  scope: 'agents:write',
  body: updateAgentSchema,
  example: { instructions: 'You answer calls for Acme Dental. Be brief.' },
  response: AgentObject,
  handler: async (req, res, { body }) => {
    const id = String(req.params.id);
    if (!(await findLiveAgent(req.auth!, id))) throw notFound('agent', id, 'id');
    if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
    const toolIds = body.tool_ids !== undefined ? await checkAgentToolIds(req.auth!, body.tool_ids) : undefined;
    const installationIds =
      body.connector_installation_ids !== undefined
        ? await checkAgentInstallationIds(req.auth!, body.connector_installation_ids)
        : undefined;
    await idempotent(req, res, 'req', async () => {
      const set: Record<string, unknown> = {};
      if (toolIds !== undefined) set.tool_ids = toolIds;
      if (installationIds !== undefined) set.connector_installation_ids = installationIds;
      for (const field of ['name', 'instructions', 'first_message', 'model', 'transfer_to'] as const) {
        if (body[field] !== undefined) set[field] = body[field];
      }
      if (body.calling_window !== undefined)
        set.calling_window_json = body.calling_window ? JSON.stringify(body.calling_window) : null;
      if (body.analysis !== undefined) set.analysis_json = body.analysis ? JSON.stringify(body.analysis) : null;
      // The latest agent marked default wins; unmarking leaves the organization's first agent as default.
      if (body.default !== undefined) set.default_ms = body.default ? Date.now() : null;
      const render = async (doc: NonNullable<Awaited<ReturnType<typeof findLiveAgent>>>) =>
        renderAgent(doc, await defaultAgentId(doc.org_id, doc.livemode));
      // metadata is merged, so its write names the value it merged into (a concurrent merge is redone).
      for (let attempt = 0; attempt < 5; attempt++) {
        const current = await findLiveAgent(req.auth!, id);
        if (!current) throw notFound('agent', id, 'id');
        const filter: Record<string, unknown> = { _id: id, deleted_ms: null };
        if (body.metadata !== undefined) {
          const merged: Record<string, string> = {
            ...(JSON.parse(current.metadata_json ?? '{}') as Record<string, string>),
            ...body.metadata,
          };
          for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
          if (Object.keys(merged).length > 50)
            throw invalidParam('metadata', 'Invalid metadata: must have at most 50 keys.');
          set.metadata_json = JSON.stringify(merged);
          filter.metadata_json = current.metadata_json;
        }
        if (Object.keys(set).length === 0) return { status: 200, body: await render(current) };
        const updated = await Agent.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' }).lean();
        const dropped = updated && [
          toolIds && (await dropDeletedTools(id, toolIds)),
          installationIds && (await dropDeletedInstallations(id, installationIds)),
        ];
        if (dropped && dropped.includes(true)) {
          const again = await findLiveAgent(req.auth!, id);
          if (again) return { status: 200, body: await render(again) };
        }
        if (updated) return { status: 200, body: await render(updated) };
      }
      throw new ApiError(
        409,
        'invalid_request_error',
        'resource_conflict',
        'The agent was changed by other requests at the same time; retry.',
      );
    });
  },
});

/**
 * `DELETE /v1/agents/{id}` (`agents:write`) → `{id, object: "agent", deleted: true}`. The agent is
 * missing from then on: GET and lists omit it, `POST /v1/calls`, `/v1/bulk-calls`, `/v1/messages`,
 * `/v1/phone_numbers` and `/v1/knowledge` with it are 404 naming `agent_id` (src/models/agents.ts
 * `findLiveAgent`); calls in flight keep their snapshot and run to their end, a campaign dials no more
 * with it, and a conversation's next turn goes to another agent (`answeringAgent`). Its knowledge documents are deleted with it.
 * 404 `resource_missing` when unknown or already deleted.
 */
const deleteAgent = operation({
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
    if (known) await deleteAgentKnowledge({ orgId, livemode, agentId: id });
    if (!doc) throw notFound('agent', id, 'id');
    res.json({ id, object: 'agent' as const, deleted: true });
  },
});

/** Routes under `/v1/agents` (mounted there by src/api/app.ts). */
export function agentsRouter(): Router {
  return operationsRouter('/v1/agents', [createAgent, listAgents, retrieveAgent, updateAgent, deleteAgent]);
}
