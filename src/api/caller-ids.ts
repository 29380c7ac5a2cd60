/**
 * Caller IDs (beyond the specification; scopes `phone_numbers:read` / `phone_numbers:write`): numbers a
 * live call may show as `from` besides the organization's own voice numbers, verified through Twilio's
 * Outgoing Caller IDs flow (src/services/caller-ids.ts):
 *
 *   POST   /v1/caller_ids        `{phone_number, friendly_name?}` (Idempotency-Key): start the verification
 *   GET    /v1/caller_ids[/{id}] list, retrieve (a pending one is checked against Twilio as it is read)
 *   DELETE /v1/caller_ids/{id}   forget it (a verified live one is removed from the Twilio account)
 */
import type { Router } from 'express';
import { z } from 'zod';
import { notFound } from '../errors';
import { CallerId, CallerIdObject, renderCallerId } from '../models/caller-ids';
import { DeletedObject, listOf } from '../models/wire';
import { requireTelephony } from '../services/call-requests';
import { deleteCallerId, refreshCallerIds, startVerification } from '../services/caller-ids';
import { accountInUse } from '../services/telephony-accounts';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { e164 } from './validation';

const tag = 'Messaging';

/** The SID of the tenant's Twilio account in use (live), what a caller ID's `active` is judged by. */
const inUseOf = async (tenant: { orgId: string; livemode: boolean }) =>
  tenant.livemode ? await accountInUse(tenant.orgId) : null;

export const callerIdSchema = z.strictObject({
  phone_number: e164,
  friendly_name: z.string().min(1).max(64).optional(),
});

/**
 * `POST /v1/caller_ids` `{phone_number, friendly_name?}` → the caller ID. Live keys: `verified` at once
 * when the organization's Twilio account already lists the number, else `pending` with the
 * `validation_code` Twilio's verification call (ValidationRequests, placed at once) asks the person to
 * enter; a pending number asked again gets a new call and code. Test keys: simulated, `verified` at once.
 * 409 `caller_id_exists` when already verified; 400 `caller_id_verification_failed` with `twilio_code`
 * and `twilio_message` when Twilio refuses (an invalid number, a number it cannot call).
 */
const createCallerId = operation({
  method: 'post',
  path: '/v1/caller_ids',
  operationId: 'createCallerId',
  errors: {
    '400': ['caller_id_verification_failed'],
    '409': ['caller_id_exists'],
    '503': ['telephony_not_configured'],
  },
  tag,
  summary: 'Verify a caller ID',
  description:
    "Starts Twilio's verification call to the number; show `validation_code` to the person, who enters it on that call. The caller ID is `pending` until Twilio lists it among the account's Outgoing Caller IDs (checked whenever it is read or used as a call's `from`). Test keys: verified at once.",
  scope: 'phone_numbers:write',
  body: callerIdSchema,
  example: { phone_number: '+14155550199', friendly_name: 'Front desk' },
  response: CallerIdObject,
  handler: async (req, res, { body }) => {
    const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
    requireTelephony(tenant);
    await idempotent(req, res, 'cid', async (id) => {
      const doc = await startVerification(tenant, id, body);
      return { status: 200, body: renderCallerId(doc, await inUseOf(tenant)) };
    });
  },
});

/** `GET /v1/caller_ids` → list, newest first; pending ones checked against Twilio first. */
const listCallerIds = operation({
  method: 'get',
  path: '/v1/caller_ids',
  operationId: 'listCallerIds',
  tag,
  summary: 'List caller IDs',
  scope: 'phone_numbers:read',
  list: true,
  response: listOf(CallerIdObject),
  handler: async (req, res) => {
    const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
    const page = await listPage(req, CallerId, { org_id: tenant.orgId, livemode: tenant.livemode }, (doc) => doc);
    const fresh = await refreshCallerIds(page.data);
    const inUse = await inUseOf(tenant);
    res.json({ ...page, data: fresh.map((d) => renderCallerId(d, inUse)) });
  },
});

/** `GET /v1/caller_ids/{id}` → the caller ID (checked against Twilio while pending); 404. */
const retrieveCallerId = operation({
  method: 'get',
  path: '/v1/caller_ids/{id}',
  operationId: 'retrieveCallerId',
  tag,
  summary: 'Retrieve a caller ID',
  scope: 'phone_numbers:read',
  response: CallerIdObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await CallerId.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
    if (!doc) throw notFound('caller ID', id, 'id');
    const [fresh] = await refreshCallerIds([doc]);
    res.json(renderCallerId(fresh, await inUseOf({ orgId: req.auth!.orgId, livemode: req.auth!.livemode })));
  },
});

/** `DELETE /v1/caller_ids/{id}` → `{id, object, deleted: true}`; calls may no longer show it. 404. */
const deleteCallerIdRoute = operation({
  method: 'delete',
  path: '/v1/caller_ids/{id}',
  operationId: 'deleteCallerId',
  tag,
  summary: 'Delete a caller ID',
  scope: 'phone_numbers:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    if (!(await deleteCallerId({ orgId: req.auth!.orgId, livemode: req.auth!.livemode }, id)))
      throw notFound('caller ID', id, 'id');
    res.json({ id, object: 'caller_id', deleted: true });
  },
});

/** Routes under `/v1/caller_ids`. */
export function callerIdsRouter(): Router {
  return operationsRouter('/v1/caller_ids', [createCallerId, listCallerIds, retrieveCallerId, deleteCallerIdRoute]);
}
