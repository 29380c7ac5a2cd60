/**
 * Connected phone numbers (beyond the specification; scopes `phone_numbers:read` / `phone_numbers:write`):
 *
 *   POST   /v1/phone_numbers         add a number: `{number, channels, agent_id?, inbound_webhook_url?,
 *                                    inbound_webhook_timeout_ms?, overflow_to?}` (Idempotency-Key); live:
 *                                    imported from or bought in the organization's Twilio account
 *                                    (src/services/number-provisioning.ts), test: simulated
 *   POST   /v1/phone_numbers/{id}    update any of those but `number` (null clears an optional one)
 *   GET    /v1/phone_numbers[/{id}]  list, retrieve
 *   DELETE /v1/phone_numbers/{id}    release (bought) or detach (imported, simulated)
 *
 * Inbound messages to a connected number reach its organization (src/api/twilio/messaging.ts), answered
 * by its `agent_id`, else the default agent; in live mode a new conversation of `POST /v1/messages` is
 * sent from the organization's first number connected for the channel (src/services/messages.ts).
 * Inbound calls to a number connected with `voice` are answered by the assistant
 * (src/services/inbound-calls.ts): its `agent_id` (else the default agent), or the agent its
 * `inbound_webhook_url` names; `overflow_to` takes the calls that find every call slot taken.
 */
import type { Router } from 'express';
import type { Client } from '@temporalio/client';
import { config } from '../config';
import { z } from 'zod';
import { ApiError, notFound } from '../errors';
import { findLiveAgent } from '../models/agents';
import { findLiveSquad } from '../models/squads';
import { checkAnswering } from '../services/squads';
import { numberRouteKey, PhoneNumber, PhoneNumberObject, renderPhoneNumber } from '../models/conversations';
import { newWebhookSecret } from '../providers/webhook-signing';
import { sealSecret } from '../secrets';
import { INBOUND_WEBHOOK_TIMEOUT } from '../services/inbound-calls';
import { requireTelephony } from '../services/call-requests';
import { giveBackNumber, provisionLiveNumber } from '../services/number-provisioning';
import { checkPublicHttpsUrl } from '../services/webhooks';
import { isTransferTarget } from '../shared/calls';
import { isDuplicateKey } from '../models/store';
import { DeletedObject, listOf } from '../models/wire';
import { idTime } from '../shared/ids';
import { NUMBER_CHANNELS } from '../shared/conversations';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { e164 } from './validation';

const channels = z
  .array(z.enum(NUMBER_CHANNELS))
  .min(1, 'must name at least one channel')
  .refine((c) => new Set(c).size === c.length, 'must not repeat a channel');
/** The inbound-call settings of a number; each may be null on update to clear it. */
const inboundSettings = {
  inbound_webhook_url: z.string().max(2048).nullable().optional(),
  inbound_webhook_timeout_ms: z
    .number()
    .int()
    .min(INBOUND_WEBHOOK_TIMEOUT.min)
    .max(INBOUND_WEBHOOK_TIMEOUT.max)
    .nullable()
    .optional(),
  overflow_to: z
    .string()
    .refine(isTransferTarget, 'must be an E.164 number, a sip: URI or a client: identity')
    .nullable()
    .optional(),
};

export const phoneNumberSchema = z.strictObject({
  number: e164,
  channels,
  agent_id: z.string().min(1).optional(),
  squad_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A squad (`sqd_…`) instead of `agent_id`: inbound calls start as squad calls and new conversations are answered by its members (one of the two).',
    ),
  ...inboundSettings,
});

export const updatePhoneNumberSchema = z.strictObject({
  channels: channels.optional(),
  agent_id: z.string().min(1).nullable().optional(),
  squad_id: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(
      'A squad (`sqd_…`) instead of `agent_id`: inbound calls start as squad calls and new conversations are answered by its members (one of the two: setting one clears the other; null clears it).',
    ),
  ...inboundSettings,
});

/**
 * The number's answerer as given: at most one of `agent_id` and `squad_id`, each live in the tenant.
 * @throws ApiError 400 naming `squad_id` (both), 404 naming `agent_id` or `squad_id`
 */
async function checkNumberAnswerer(
  tenant: { orgId: string; livemode: boolean },
  body: { agent_id?: string | null; squad_id?: string | null },
): Promise<void> {
  checkAnswering(body, false);
  if (body.agent_id && !(await findLiveAgent(tenant, body.agent_id)))
    throw notFound('agent', body.agent_id, 'agent_id');
  if (body.squad_id && !(await findLiveSquad(tenant, body.squad_id)))
    throw notFound('squad', body.squad_id, 'squad_id');
}

/**
 * Checks `inbound_webhook_url` (HTTPS, a public address: the webhook rules) when one is given.
 * @throws ApiError 400 naming `inbound_webhook_url`
 */
async function checkInboundWebhookUrl(url: string | null | undefined): Promise<void> {
  if (url) await checkPublicHttpsUrl(url, 'inbound_webhook_url', 'inbound webhooks');
}

const tag = 'Messaging';

/**
 * `POST /v1/phone_numbers` `{number, channels, agent_id?, …}` → the phone number (inbound messages and
 * calls to it reach this organization; `agent_id` while it is not deleted, else the default agent,
 * answers them; or `squad_id`: its members). 404 naming `agent_id` / `squad_id` when unknown or deleted; 400
 * naming `squad_id` when both are given.
 *
 * Test keys: a simulated number, stored at once (`source: "simulated"`). Live keys: the number must be
 * the organization's at Twilio (src/services/number-provisioning.ts): imported when its Twilio account
 * holds it, else bought in it (a platform subaccount), else 400 `phone_number_not_owned` (its own
 * connected account); Twilio's refusal to sell is 400 `phone_number_purchase_failed` with `twilio_code`
 * and `twilio_message`; nothing is stored either way. A number another organization holds gets the
 * same answer as one the account cannot have. 409 `phone_number_already_connected`: the organization
 * has it already; 503 `telephony_not_configured` without Twilio.
 */
const createPhoneNumber = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/phone_numbers',
    operationId: 'createPhoneNumber',
    errors: {
      '400': ['url_private_address', 'url_unresolvable', 'phone_number_not_owned', 'phone_number_purchase_failed'],
      '404': ['resource_missing'],
      '409': ['phone_number_already_connected'],
      '503': ['telephony_not_configured'],
    },
    tag,
    summary: 'Buy, import or (test mode) simulate a number for messaging and calls',
    description:
      "Test keys: a simulated number. Live keys: imported when the organization's Twilio account holds it, else bought in the organization's subaccount (Voice and SMS URLs set to the service); a connected account must already hold it (400 `phone_number_not_owned`). Twilio's refusal to sell (no such number, region rules, address required) is 400 `phone_number_purchase_failed` with `twilio_code` and `twilio_message`; nothing is stored. A number another organization holds is refused the same way.",
    scope: 'phone_numbers:write',
    body: phoneNumberSchema,
    example: { number: '+14155550100', channels: ['whatsapp', 'sms'] },
    response: PhoneNumberObject,
    handler: async (req, res, { body }) => {
      const { orgId, livemode } = req.auth!;
      await checkNumberAnswerer({ orgId, livemode }, body);
      await checkInboundWebhookUrl(body.inbound_webhook_url);
      requireTelephony({ orgId, livemode });
      await idempotent(req, res, 'pn', async (id) => {
        const secret = body.inbound_webhook_url ? newWebhookSecret() : undefined;
        const doc = {
          _id: id,
          route_key: numberRouteKey(orgId, livemode, body.number),
          org_id: orgId,
          livemode,
          number: body.number,
          channels: body.channels,
          agent_id: body.agent_id ?? null,
          squad_id: body.squad_id ?? null,
          inbound_webhook_url: body.inbound_webhook_url || null,
          inbound_webhook_secret: secret ? sealSecret(secret) : null,
          inbound_webhook_timeout_ms: body.inbound_webhook_timeout_ms ?? null,
          overflow_to: body.overflow_to ?? null,
          source: livemode ? null : 'simulated',
          twilio_sid: null,
          account_sid: null,
          pending: false,
          buying: false,
          previous_urls_json: null,
          created: Math.floor(idTime(id) / 1000),
        };
        if (livemode) {
          const stored = await provisionLiveNumber(temporal, doc, config().taskQueue);
          return { status: 200, body: renderPhoneNumber(stored, secret) };
        }
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
              `${body.number} is already connected to this organization.`,
              'number',
            );
        }
        return { status: 200, body: renderPhoneNumber(doc, secret) };
      });
    },
  });

/**
 * `POST /v1/phone_numbers/{id}` (Idempotency-Key) body: any of `channels`, `agent_id`, `squad_id` (one clears the other),
 * `inbound_webhook_url`, `inbound_webhook_timeout_ms`, `overflow_to` → the phone number. Only the fields
 * given change; null (or `""` for the URL) clears an optional one. Setting `inbound_webhook_url` on a
 * number that had none makes its signing secret, shown in this response only (changing the URL keeps
 * the secret, as Stripe's endpoints do). 404 naming `id` or `agent_id`; 400 naming the field.
 */
const updatePhoneNumber = operation({
  method: 'post',
  path: '/v1/phone_numbers/{id}',
  operationId: 'updatePhoneNumber',
  errors: { '400': ['url_private_address', 'url_unresolvable'] },
  tag,
  summary: 'Update a connected number',
  description:
    'Only the fields given change; null clears `agent_id`, `squad_id`, `inbound_webhook_url`, `inbound_webhook_timeout_ms`, `overflow_to`. Setting `agent_id` clears `squad_id` and the other way round (both: 400 naming `squad_id`).',
  scope: 'phone_numbers:write',
  body: updatePhoneNumberSchema,
  example: { channels: ['voice', 'sms'], inbound_webhook_url: 'https://example.com/inbound-call' },
  response: PhoneNumberObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    const id = String(req.params.id);
    const filter = { _id: id, org_id: orgId, livemode };
    if (!(await PhoneNumber.exists(filter))) throw notFound('phone number', id, 'id');
    await checkNumberAnswerer({ orgId, livemode }, body);
    await checkInboundWebhookUrl(body.inbound_webhook_url);
    await idempotent(req, res, 'req', async () => {
      const current = await PhoneNumber.findOne(filter).lean();
      if (!current) throw notFound('phone number', id, 'id');
      const set: Record<string, unknown> = {};
      for (const field of ['channels', 'agent_id', 'squad_id', 'inbound_webhook_timeout_ms', 'overflow_to'] as const)
        if (body[field] !== undefined) set[field] = body[field];
      // One answers the number: setting an agent clears its squad, and the other way round.
      if (body.agent_id) set.squad_id = null;
      if (body.squad_id) set.agent_id = null;
      let secret: string | undefined;
      if (body.inbound_webhook_url !== undefined) {
        set.inbound_webhook_url = body.inbound_webhook_url || null;
        if (!body.inbound_webhook_url) set.inbound_webhook_secret = null;
        else if (!current.inbound_webhook_secret) {
          secret = newWebhookSecret();
          set.inbound_webhook_secret = sealSecret(secret);
        }
      }
      const updated = await PhoneNumber.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' }).lean();
      if (!updated) throw notFound('phone number', id, 'id');
      return { status: 200, body: renderPhoneNumber(updated, secret) };
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
      await listPage(
        req,
        PhoneNumber,
        { org_id: req.auth!.orgId, livemode: req.auth!.livemode, pending: { $ne: true } },
        (doc) => renderPhoneNumber(doc),
      ),
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
      pending: { $ne: true },
    }).lean();
    if (!doc) throw notFound('phone number', String(req.params.id), 'id');
    res.json(renderPhoneNumber(doc));
  },
});

/**
 * `DELETE /v1/phone_numbers/{id}` → `{id, object, deleted: true}`: inbound messages and calls to it are no
 * longer taken. A live number the service bought is released at Twilio (IncomingPhoneNumbers remove); an
 * imported one is only detached (its earlier Voice/SMS URLs put back) and stays in the organization's
 * account. Twilio is asked first: when it fails (5xx), the number is kept and a retry finishes.
 */
const deletePhoneNumber = operation({
  method: 'delete',
  path: '/v1/phone_numbers/{id}',
  operationId: 'deletePhoneNumber',
  tag,
  summary: 'Release a bought number, or detach an imported or simulated one',
  scope: 'phone_numbers:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const filter = { _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode, pending: { $ne: true } };
    const row = await PhoneNumber.findOne(filter).lean();
    if (!row) throw notFound('phone number', id, 'id');
    await giveBackNumber(row);
    const deleted = await PhoneNumber.deleteOne(filter);
    if (deleted.deletedCount === 0) throw notFound('phone number', id, 'id');
    res.json({ id, object: 'phone_number', deleted: true });
  },
});

/** Routes under `/v1/phone_numbers`. */
export function phoneNumbersRouter(temporal: Client): Router {
  return operationsRouter('/v1/phone_numbers', [
    createPhoneNumber(temporal),
    updatePhoneNumber,
    listPhoneNumbers,
    retrievePhoneNumber,
    deletePhoneNumber,
  ]);
}
