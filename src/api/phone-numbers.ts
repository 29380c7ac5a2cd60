/**
 * Connected phone numbers (beyond the specification; scopes `phone_numbers:read` / `phone_numbers:write`):
 *
 *   POST   /v1/phone_numbers         connect a number: `{number, channels, agent_id?}` (Idempotency-Key)
 *   GET    /v1/phone_numbers[/{id}]  list, retrieve
 *   DELETE /v1/phone_numbers/{id}    disconnect
 *
 * Inbound messages to a connected number reach its organization (src/api/twilio/messaging.ts), answered
 * by its `agent_id`, else the default agent; in live mode a new conversation of `POST /v1/messages` is
 * sent from the organization's first number connected for the channel (src/services/messages.ts).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { ApiError, notFound } from '../errors';
import { findLiveAgent } from '../models/agents';
import { numberRouteKey, PhoneNumber, PhoneNumberObject, renderPhoneNumber } from '../models/conversations';
import { isDuplicateKey } from '../models/store';
import { DeletedObject, listOf } from '../models/wire';
import { idTime } from '../shared/ids';
import { NUMBER_CHANNELS } from '../shared/conversations';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { e164 } from './validation';

export const phoneNumberSchema = z.strictObject({
  number: e164,
  channels: z
    .array(z.enum(NUMBER_CHANNELS))
    .min(1, 'must name at least one channel')
    .refine((c) => new Set(c).size === c.length, 'must not repeat a channel'),
  agent_id: z.string().min(1).optional(),
});

const tag = 'Messaging';

/**
 * `POST /v1/phone_numbers` `{number, channels, agent_id?}` → the phone number: connects a number of the
 * organization's Twilio account (inbound messages to it reach this organization; `agent_id` while it is
 * not deleted, else the default agent, answers them). 404 naming `agent_id` when that agent is unknown or
 * deleted; 409 `phone_number_already_connected`.
 */
const createPhoneNumber = operation({
  method: 'post',
  path: '/v1/phone_numbers',
  operationId: 'createPhoneNumber',
  tag,
  summary: 'Connect a number for messaging',
  scope: 'phone_numbers:write',
  body: phoneNumberSchema,
  example: { number: '+14155550100', channels: ['whatsapp', 'sms'] },
  response: PhoneNumberObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    if (body.agent_id && !(await findLiveAgent({ orgId, livemode }, body.agent_id)))
      throw notFound('agent', body.agent_id, 'agent_id');
    await idempotent(req, res, 'pn', async (id) => {
      const doc = {
        _id: id,
        route_key: numberRouteKey(orgId, livemode, body.number),
        org_id: orgId,
        livemode,
        number: body.number,
        channels: body.channels,
        agent_id: body.agent_id ?? null,
        created: Math.floor(idTime(id) / 1000),
      };
      try {
        await PhoneNumber.collection.insertOne(doc as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const mine = await PhoneNumber.findOne({ _id: id }).lean();
        if (!mine)
          throw new ApiError(
            409,
            'invalid_request_error',
            'phone_number_already_connected',
            `${body.number} is already connected${livemode ? '' : ' to this organization'}.`,
            'number',
          );
      }
      return { status: 200, body: renderPhoneNumber(doc) };
    });
  },
});

/** `GET /v1/phone_numbers` → list, newest first. */
const listPhoneNumbers = operation({
  method: 'get',
  path: '/v1/phone_numbers',
  operationId: 'listPhoneNumbers',
  tag,
  summary: 'List connected numbers',
  scope: 'phone_numbers:read',
  list: true,
  response: listOf(PhoneNumberObject),
  handler: async (req, res) => {
    res.json(
      await listPage(req, PhoneNumber, { org_id: req.auth!.orgId, livemode: req.auth!.livemode }, renderPhoneNumber),
    );
  },
});

/** `GET /v1/phone_numbers/{id}` → the phone number; 404. */
const retrievePhoneNumber = operation({
  method: 'get',
  path: '/v1/phone_numbers/{id}',
  operationId: 'retrievePhoneNumber',
  tag,
  summary: 'Retrieve a connected number',
  scope: 'phone_numbers:read',
  response: PhoneNumberObject,
  handler: async (req, res) => {
    const doc = await PhoneNumber.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('phone number', String(req.params.id), 'id');
    res.json(renderPhoneNumber(doc));
  },
});

/** `DELETE /v1/phone_numbers/{id}` → `{id, object, deleted: true}`: inbound messages to it are no longer taken. */
const deletePhoneNumber = operation({
  method: 'delete',
  path: '/v1/phone_numbers/{id}',
  operationId: 'deletePhoneNumber',
  tag,
  summary: 'Disconnect a number',
  scope: 'phone_numbers:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const deleted = await PhoneNumber.deleteOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode });
    if (deleted.deletedCount === 0) throw notFound('phone number', id, 'id');
    res.json({ id, object: 'phone_number', deleted: true });
  },
});

/** Routes under `/v1/phone_numbers`. */
export function phoneNumbersRouter(): Router {
  return operationsRouter('/v1/phone_numbers', [
    createPhoneNumber,
    listPhoneNumbers,
    retrievePhoneNumber,
    deletePhoneNumber,
  ]);
}
