/**
 * Assistants ("agents"): `GET /v1/agents` (spec section 4, scope `agents:read`) and, beyond the
 * specification, `POST /v1/agents` (`agents:write`, Idempotency-Key) and `GET /v1/agents/{id}`.
 * An agent belongs to the key's organization and mode.
 */
import { Router } from 'express';
import { z } from 'zod';
import { Agent } from '../models/agents';
import { insertIfAbsent } from '../models/store';
import { defaultAgentId, renderAgent } from '../models/agents';
import { notFound } from '../errors';
import { idTime } from '../shared/ids';
import { isTransferTarget } from '../shared/calls';
import { requireScope } from './middleware';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { metadata, parseBody } from './validation';

const createAgentSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  instructions: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
  first_message: z.string().trim().min(1).max(2000).optional(),
  model: z.string().min(1).max(200).optional(),
  transfer_to: z.string().refine(isTransferTarget, 'must be an E.164 number, a sip: URI or a client: identity').optional(),
  metadata: metadata.optional(),
  /** Answer the test-mode messaging number and numbers connected without `agent_id` (the latest marked wins). */
  default: z.boolean().optional(),
});

/** Routes under `/v1/agents`. */
export function agentsRouter(): Router {
  const router = Router();

  /** `POST /v1/agents` → the agent object. 400 naming the param on bad input. */
  router.post('/', requireScope('agents:write'), async (req, res) => {
    const body = parseBody(createAgentSchema, req.body);
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
        metadata_json: JSON.stringify(body.metadata ?? {}),
        default_ms: body.default ? idTime(id) : null,
        created: Math.floor(idTime(id) / 1000),
      };
      await insertIfAbsent(Agent, doc); // a retried takeover finds it already there
      return { status: 200, body: renderAgent(doc, await defaultAgentId(doc.org_id, doc.livemode)) };
    });
  });

  /** `GET /v1/agents` → list of agents, newest first. */
  router.get('/', requireScope('agents:read'), async (req, res) => {
    const defaultId = await defaultAgentId(req.auth!.orgId, req.auth!.livemode);
    res.json(await listPage(req, Agent, { org_id: req.auth!.orgId, livemode: req.auth!.livemode }, (doc) => renderAgent(doc, defaultId)));
  });

  /** `GET /v1/agents/{id}` → the agent; 404 `resource_missing`. */
  router.get('/:id', requireScope('agents:read'), async (req, res) => {
    const doc = await Agent.findOne({ _id: String(req.params.id), org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('agent', String(req.params.id), 'id');
    res.json(renderAgent(doc, await defaultAgentId(doc.org_id, doc.livemode)));
  });

  return router;
}
