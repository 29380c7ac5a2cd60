/**
 * SIP trunks: bring your own carrier (beyond the specification; scopes `phone_numbers:read` /
 * `phone_numbers:write`, as numbers), designed on Twilio's BYOC trunking
 * (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc; src/services/sip-trunks.ts):
 *
 *   POST   /v1/sip_trunks         `{termination_uri, numbers, username?, password?, name?, agent_id? | squad_id?}`
 *                                 (Idempotency-Key): live, a Connection Policy and a BYOC trunk in the
 *                                 organization's Twilio account; test, stored only
 *   POST   /v1/sip_trunks/{id}    update any of those (null clears an optional one)
 *   GET    /v1/sip_trunks[/{id}]  list, retrieve (the password is never shown)
 *   DELETE /v1/sip_trunks/{id}    remove it at Twilio, release its numbers
 *
 * Each number a trunk carries is one of the organization's phone numbers (`source: "sip_trunk"`): live
 * calls from it dial out through the trunk, calls arriving from the trunk to it are answered by its agent
 * (or its squad: the call starts with the squad's start member, which may hand it off).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { invalidParam, notFound } from '../errors';
import { findLiveAgent } from '../models/agents';
import { findLiveSquad } from '../models/squads';
import { SipTrunk, SipTrunkObject, renderSipTrunk, type SipTrunkDoc } from '../models/sip-trunks';
import type { WithId } from '../models/store';
import { DeletedObject, listOf } from '../models/wire';
import { requireTelephony } from '../services/call-requests';
import {
  createSipTrunk,
  deleteSipTrunk,
  findSipTrunk,
  SIP_TRUNK_MAX_NUMBERS,
  trunkNumbers,
  updateSipTrunk,
} from '../services/sip-trunks';
import { parseTerminationUri } from '../shared/sip-trunks';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { e164 } from './validation';

const tag = 'Messaging';

/** `sip:<carrier host>[:port][;params]` (src/shared/sip-trunks.ts `parseTerminationUri`). */
const terminationUri = z
  .string()
  .superRefine((v, ctx) => {
    const parsed = parseTerminationUri(v);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
  })
  .meta({ description: 'sip:<carrier host>[:port][;transport=udp|tcp|tls]', examples: ['sip:sip.carrier.example'] });
const numbers = z
  .array(e164)
  .min(1, 'must name at least one number')
  .max(SIP_TRUNK_MAX_NUMBERS)
  .refine((n) => new Set(n).size === n.length, 'must not repeat a number');
const sipUsername = z.string().min(1).max(128);
const sipPassword = z.string().min(1).max(128);
const name = z.string().min(1).max(64);
const agentId = z.string().min(1);
const squadId = z.string().min(1);

/**
 * The trunk's answerer as given: at most one of `agent_id` and `squad_id`, each live in the tenant (as
 * `POST /v1/calls` checks them).
 * @throws ApiError 400 `parameter_invalid` naming `squad_id` (both given), 404 naming `agent_id` or `squad_id`
 */
async function checkAnswerer(
  tenant: { orgId: string; livemode: boolean },
  body: { agent_id?: string | null; squad_id?: string | null },
): Promise<void> {
  if (body.agent_id && body.squad_id)
    throw invalidParam('squad_id', 'Give agent_id or squad_id, not both: one agent or one squad answers the trunk.');
  if (body.agent_id && !(await findLiveAgent(tenant, body.agent_id)))
    throw notFound('agent', body.agent_id, 'agent_id');
  if (body.squad_id && !(await findLiveSquad(tenant, body.squad_id)))
    throw notFound('squad', body.squad_id, 'squad_id');
}

/**
 * `POST /v1/sip_trunks` body: `termination_uri` (`sip:<host>[:port][;params]`, checked further by
 * src/shared/sip-trunks.ts), `numbers` (E.164), optional `username`/`password` (the password sealed at
 * rest, never shown), `name`, `agent_id`; unknown fields are 400 naming them.
 */
export const sipTrunkSchema = z.strictObject({
  termination_uri: terminationUri,
  numbers,
  username: sipUsername.optional(),
  password: sipPassword.optional(),
  name: name.optional(),
  agent_id: agentId.optional(),
  squad_id: squadId.optional(),
});

/**
 * `POST /v1/sip_trunks/{id}` body: any field of `sipTrunkSchema`; null clears `username`, `password`,
 * `name` and `agent_id`, and `numbers` replaces the set.
 */
export const updateSipTrunkSchema = z.strictObject({
  termination_uri: terminationUri.optional(),
  numbers: numbers.optional(),
  username: sipUsername.nullable().optional(),
  password: sipPassword.nullable().optional(),
  name: name.nullable().optional(),
  agent_id: agentId.nullable().optional(),
  squad_id: squadId.nullable().optional(),
});

/** The trunk object, with the numbers it carries. */
async function render(doc: WithId<SipTrunkDoc>) {
  return renderSipTrunk(doc, await trunkNumbers(doc));
}

/**
 * `POST /v1/sip_trunks` → the trunk. 400 naming `termination_uri` (not `sip:<host>…`), `numbers`, or
 * `password` (a password without a username) or `squad_id` (with `agent_id`); 404 naming `agent_id` or `squad_id`; 409 `phone_number_already_connected`
 * (a number the organization has already) and 400 `phone_number_not_owned` (one another organization
 * holds; the answer does not say who) naming `numbers`; 400 `sip_trunk_rejected` with `twilio_code` and
 * `twilio_message` when Twilio refuses the BYOC trunk or its Connection Policy (nothing stored); 503
 * `telephony_not_configured` for a live key without Twilio.
 */
const createSipTrunkRoute = operation({
  method: 'post',
  path: '/v1/sip_trunks',
  operationId: 'createSipTrunk',
  errors: {
    '400': ['phone_number_not_owned', 'sip_trunk_rejected'],
    '404': ['resource_missing'],
    '409': ['phone_number_already_connected'],
    '503': ['telephony_not_configured'],
  },
  tag,
  summary: 'Register a SIP trunk (bring your own carrier)',
  description:
    "Live keys: a Connection Policy (target: `termination_uri`) and a BYOC trunk (Voice URL: the service's inbound webhook) are made in the organization's Twilio account; Twilio's refusal is 400 `sip_trunk_rejected` with `twilio_code` and `twilio_message`, nothing stored. Each of `numbers` becomes one of the organization's phone numbers (`source: \"sip_trunk\"`): live calls from it dial `sip:<to>@<termination host>` with the trunk's credentials, calls arriving from the trunk are answered by `agent_id`, or by the squad `squad_id` (one of the two; both: 400 naming `squad_id`). A number another organization holds is refused. Test keys: stored only. The password is never shown.",
  scope: 'phone_numbers:write',
  body: sipTrunkSchema,
  example: {
    termination_uri: 'sip:sip.carrier.example;transport=tls',
    numbers: ['+14155550100'],
    username: 'acme',
    password: 's3cret',
    name: 'Carrier A',
  },
  response: SipTrunkObject,
  handler: async (req, res, { body }) => {
    const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
    if (body.password && !body.username) throw invalidParam('password', 'A password needs a username.');
    await checkAnswerer(tenant, body);
    requireTelephony(tenant);
    await idempotent(req, res, 'trk', async (id) => ({
      status: 200,
      body: await render(await createSipTrunk(tenant, id, body)),
    }));
  },
});

/**
 * `POST /v1/sip_trunks/{id}` → the trunk; only the fields given change. 404 naming `id`, `agent_id` or
 * `squad_id`; 400 naming `squad_id` when both are given.
 */
const updateSipTrunkRoute = operation({
  method: 'post',
  path: '/v1/sip_trunks/{id}',
  operationId: 'updateSipTrunk',
  errors: {
    '400': ['phone_number_not_owned', 'sip_trunk_rejected'],
    '409': ['phone_number_already_connected'],
  },
  tag,
  summary: 'Update a SIP trunk',
  description:
    'Only the fields given change; null clears `username`, `password`, `name`, `agent_id`, `squad_id`. `numbers` replaces the set (numbers left out are released); `agent_id` or `squad_id` is set on every number of the trunk (setting one clears the other; both: 400 naming `squad_id`); a new `termination_uri` is given to the live Connection Policy. A refusal changes nothing.',
  scope: 'phone_numbers:write',
  body: updateSipTrunkSchema,
  example: { numbers: ['+14155550100', '+14155550101'], agent_id: 'agt_01jb0000000000000000000000' },
  response: SipTrunkObject,
  handler: async (req, res, { body }) => {
    const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
    const id = String(req.params.id);
    if (!(await findSipTrunk(tenant, id))) throw notFound('SIP trunk', id, 'id');
    await checkAnswerer(tenant, body);
    await idempotent(req, res, 'req', async () => {
      const updated = await updateSipTrunk(tenant, id, body);
      if (!updated) throw notFound('SIP trunk', id, 'id');
      return { status: 200, body: await render(updated) };
    });
  },
});

/** `GET /v1/sip_trunks` → list, newest first. */
const listSipTrunks = operation({
  method: 'get',
  path: '/v1/sip_trunks',
  operationId: 'listSipTrunks',
  tag,
  summary: 'List SIP trunks',
  scope: 'phone_numbers:read',
  list: true,
  response: listOf(SipTrunkObject),
  handler: async (req, res) => {
    const filter = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, pending: { $ne: true } };
    const page = await listPage(req, SipTrunk, filter, (doc: WithId<SipTrunkDoc>) => doc);
    res.json({ ...page, data: await Promise.all(page.data.map(render)) });
  },
});

/** `GET /v1/sip_trunks/{id}` → the trunk; 404. */
const retrieveSipTrunk = operation({
  method: 'get',
  path: '/v1/sip_trunks/{id}',
  operationId: 'retrieveSipTrunk',
  tag,
  summary: 'Retrieve a SIP trunk',
  scope: 'phone_numbers:read',
  response: SipTrunkObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await findSipTrunk({ orgId: req.auth!.orgId, livemode: req.auth!.livemode }, id);
    if (!doc) throw notFound('SIP trunk', id, 'id');
    res.json(await render(doc));
  },
});

/**
 * `DELETE /v1/sip_trunks/{id}` → `{id, object, deleted: true}`: live, its BYOC trunk and Connection
 * Policy are removed from the organization's Twilio account (a Twilio failure keeps the trunk: retry);
 * its numbers are released. 404.
 */
const deleteSipTrunkRoute = operation({
  method: 'delete',
  path: '/v1/sip_trunks/{id}',
  operationId: 'deleteSipTrunk',
  tag,
  summary: 'Delete a SIP trunk and release its numbers',
  scope: 'phone_numbers:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    if (!(await deleteSipTrunk({ orgId: req.auth!.orgId, livemode: req.auth!.livemode }, id)))
      throw notFound('SIP trunk', id, 'id');
    res.json({ id, object: 'sip_trunk', deleted: true });
  },
});

/** Routes under `/v1/sip_trunks`. */
export function sipTrunksRouter(): Router {
  return operationsRouter('/v1/sip_trunks', [
    createSipTrunkRoute,
    updateSipTrunkRoute,
    listSipTrunks,
    retrieveSipTrunk,
    deleteSipTrunkRoute,
  ]);
}
