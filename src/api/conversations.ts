/**
 * Messages and conversations (spec section 4 "Messages and conversations"; scopes `messages:read` /
 * `messages:write`), and what live messaging needs beyond the specification:
 *
 *   POST   /v1/messages                          send (Idempotency-Key): `{channel, to, text | template, agent_id?}`;
 *                                                 `channel: web` replies to a widget visitor
 *   GET    /v1/messages/{id}                     a message
 *   GET    /v1/conversations                     list; filters `channel`, `status`, `customer_number`
 *   GET    /v1/conversations/{id}                a conversation
 *   GET    /v1/conversations/{id}/messages       its messages, newest first (list conventions)
 *   POST   /v1/conversations/{id}/resume         give a handed-over conversation back to the assistant
 *   POST   /v1/phone_numbers                     connect a number: `{number, channels, agent_id?}` (`phone_numbers:write`)
 *   GET    /v1/phone_numbers[/{id}], DELETE /v1/phone_numbers/{id}
 *   POST   /v1/message_templates                 register a WhatsApp template: `{name, language, body, content_sid}`
 *   GET    /v1/message_templates[/{id}]
 *   POST   /v1/test_helpers/inbound_messages     test mode: play the customer `{channel, from, text, to?, received_at?}`
 *
 * Rules of `POST /v1/messages` (spec section 4, rules 1–3; section 7): exactly one of `text` and
 * `template`; no template on SMS; a registered template's placeholder count must match `parameters`
 * (400s naming the param); then, checked against the stored messages before anything is sent: 422
 * `recipient_opted_out` after the customer's STOP on that channel, 422 `whatsapp_window_closed` for
 * WhatsApp free text 24:00:00 or more after the customer's last message, and in live mode 422
 * `whatsapp_number_not_connected` (`sms_number_not_connected`) without a connected number. The answer is
 * the message, `queued`; the conversation's workflow sends it. While a person has the conversation
 * (`needs_person`) a sent message's author is `person`, otherwise `api`. On `web`, `to` is the visitor
 * (`user:<user_id>` or `visitor:<visitor_id>`, the conversation's `customer_number`), the conversation must
 * exist (422 `conversation_missing`: visitors start them in the widget), templates do not apply, and the
 * message reaches the visitor through the widget's stream (no provider, no Twilio needed in live mode).
 *
 * Every message of a conversation goes through its `conversationWorkflow` (src/workflows/conversations.ts),
 * started or reached with signal-with-start / update-with-start (src/services/conversations.ts).
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam, missingParam, notFound } from '../errors';
import { telephonyConfigured } from '../config';
import {
  customerState,
  ensureConversation,
  placeholderCount,
  renderTemplateBody,
  renderUnregisteredTemplate,
  signalConversation,
  updateConversation,
} from '../services/conversations';
import { answeringAgent, findLiveAgent } from '../models/agents';
import {
  Conversation,
  Message,
  MessageTemplate,
  newOutboundDocument,
  numberRouteKey,
  PhoneNumber,
  renderConversation,
  renderMessage,
  renderMessageTemplate,
  renderPhoneNumber,
  templateKey,
  type ConversationDoc,
  type MessageDoc,
} from '../models/conversations';
import { insertIfAbsent, isDuplicateKey, type WithId } from '../models/store';
import { idTime, newId } from '../shared/ids';
import {
  CHANNELS,
  MESSAGING_CHANNELS,
  conversationWorkflowId,
  NUMBER_CHANNELS,
  outboundSignal,
  receiveUpdate,
  resumeUpdate,
  SIMULATED_NUMBER,
  windowClosesAt,
  windowOpen,
  type Channel,
  type OutboundMessageInput,
  type TemplateRef,
} from '../shared/conversations';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { requireScope } from './middleware';
import { e164, parseBody, acceptsQuery, LIST_QUERY, queryFilters } from './validation';

/** Longest message text (Twilio's limit for one message body). */
export const MAX_TEXT = 1600;
/** How far in the past the test helper's `received_at` may be (seconds). */
const MAX_RECEIVED_AGE_S = 366 * 24 * 60 * 60;

const templateParam = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(512),
  language: z.string().trim().min(2).max(15),
  parameters: z
    .array(z.string().max(1024, 'entries must be at most 1024 characters'))
    .max(100, 'must have at most 100 entries')
    .optional(),
});

/** A widget visitor's address, the `to` of a web message: `user:<user_id>` or `visitor:<visitor_id>`. */
const webAddress = z
  .string()
  .regex(/^(user|visitor):[^\s]{1,128}$/, 'must be a widget visitor: user:<user_id> or visitor:<visitor_id>');

export const sendMessageSchema = z
  .strictObject({
    channel: z.enum(CHANNELS),
    to: z.union([e164, webAddress]),
    text: z.string().min(1, 'must not be empty').max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`).optional(),
    template: templateParam.optional(),
    agent_id: z.string().min(1).optional(),
  })
  .superRefine((body, ctx) => {
    const web = body.channel === 'web';
    if (web !== webAddress.safeParse(body.to).success)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: web
          ? 'must be a widget visitor on the web channel: user:<user_id> or visitor:<visitor_id>'
          : 'must be a phone number in E.164 format on WhatsApp and SMS',
      });
  });

export const phoneNumberSchema = z.strictObject({
  number: e164,
  channels: z
    .array(z.enum(NUMBER_CHANNELS))
    .min(1, 'must name at least one channel')
    .refine((c) => new Set(c).size === c.length, 'must not repeat a channel'),
  agent_id: z.string().min(1).optional(),
});

export const messageTemplateSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'must be lowercase letters, digits and underscores (WhatsApp template names)'),
  language: z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/, 'must be a language code like en or en_US'),
  body: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  content_sid: z
    .string()
    .regex(/^HX[0-9a-fA-F]{32}$/, 'must be a Twilio Content SID (HX followed by 32 hex digits)')
    .optional(),
});

export const inboundMessageSchema = z.strictObject({
  channel: z.enum(MESSAGING_CHANNELS),
  from: e164,
  text: z.string().min(1, 'must not be empty').max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
  to: e164.optional(),
  received_at: z.number().int('must be an integer (unix seconds)').optional(),
});

/** 422 `invalid_request_error`, for a well-formed request the rules refuse. */
const unprocessable = (code: string, message: string, param?: string) =>
  new ApiError(422, 'invalid_request_error', code, message, param);

/** Routes of the messaging domain, mounted on `/v1`; `temporal` reaches the conversations' workflows. */
export function conversationsRouter(temporal: Client): Router {
  const router = Router();

  /** `POST /v1/messages` → the message, `queued` (see the module comment for the rules and errors). */
  router.post('/messages', requireScope('messages:write'), async (req, res) => {
    const body = parseBody(sendMessageSchema, req.body);
    const { orgId, livemode } = req.auth!;
    if (body.text === undefined && body.template === undefined)
      throw missingParam('text', 'Missing required param: text (or template, on WhatsApp).');
    if (body.text !== undefined && body.template !== undefined)
      throw invalidParam('template', 'Send either text or template, not both.');
    if (body.channel !== 'whatsapp' && body.template)
      throw invalidParam(
        'template',
        `Templates do not apply to ${body.channel === 'sms' ? 'SMS' : 'the web chat'} (they are WhatsApp message templates); send text.`,
      );
    if (livemode && body.channel !== 'web' && !telephonyConfigured()) {
      throw new ApiError(
        503,
        'api_error',
        'messaging_not_configured',
        'Live messaging needs Twilio credentials on the service (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN). Use a test key for the simulated number.',
      );
    }
    if (body.agent_id && !(await findLiveAgent({ orgId, livemode }, body.agent_id)))
      throw notFound('agent', body.agent_id, 'agent_id');
    const template = body.template ? await resolveTemplate(orgId, livemode, body.template) : null;
    const text = template ? template.text : body.text!;

    await idempotent(req, res, 'msg', async (messageId) => {
      // Everything is checked before anything is written: a refused message creates nothing, not even a conversation.
      const existing = (await Conversation.findOne({
        key: conversationWorkflowId(orgId, livemode, body.channel, body.to),
      }).lean()) as WithId<ConversationDoc> | null;
      // The web chat has no number to start from: a visitor starts their conversation in the widget.
      if (!existing && body.channel === 'web')
        throw unprocessable(
          'conversation_missing',
          `No web conversation with ${body.to} in this mode: a visitor starts one through the widget (POST /v1/widget/session).`,
          'to',
        );
      // A new conversation is sent from the organization's number for the channel; an existing one keeps its own.
      const number = existing || body.channel === 'web' ? null : await serviceNumberFor(orgId, livemode, body.channel);
      if (!existing && !number) {
        throw unprocessable(
          `${body.channel}_number_not_connected`,
          `No ${body.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'} number is connected to this organization in live mode: connect one with POST /v1/phone_numbers.`,
        );
      }
      const customer = existing ? await customerState(existing._id) : { lastInboundMs: null, optedOut: false };
      if (customer.optedOut) {
        throw unprocessable(
          'recipient_opted_out',
          `${body.to} opted out of ${body.channel} messages (STOP) and gets nothing until they send START.`,
          'to',
        );
      }
      if (body.channel === 'whatsapp' && !template && !windowOpen(customer.lastInboundMs, Date.now())) {
        const closed =
          customer.lastInboundMs === null
            ? 'the customer has never written'
            : `it closed at ${new Date(windowClosesAt(customer.lastInboundMs) * 1000).toISOString()}`;
        throw unprocessable(
          'whatsapp_window_closed',
          `Free text on WhatsApp is allowed only within 24 hours of the customer's last message, and ${closed}. Send a template.`,
          'text',
        );
      }
      const conv =
        existing ??
        (await ensureConversation({ orgId, livemode, channel: body.channel, customerNumber: body.to }, async () => ({
          serviceNumber: number!.number,
          agentId: body.agent_id ?? (await answeringAgent({ orgId, livemode }, number!.agentId))?._id ?? null,
        })));
      const message: OutboundMessageInput = {
        messageId,
        author: conv.status === 'needs_person' ? 'person' : 'api',
        from: conv.service_number,
        to: body.to,
        text,
        template: template?.ref ?? null,
        createdMs: idTime(messageId),
        eventIds: { sent: newId('evt'), delivered: newId('evt'), failed: newId('evt') },
        agentId: body.agent_id ?? null,
      };
      await signalConversation(temporal, conv, outboundSignal, message);
      // The workflow's send inserts this row too (insert-if-absent): a crash here loses nothing.
      const doc = newOutboundDocument({ conversationId: conv._id, orgId, livemode, channel: body.channel }, message);
      await insertIfAbsent(Message, doc);
      return { status: 200, body: renderMessage(doc) };
    });
  });

  /** `GET /v1/messages/{id}` → the message; 404 `resource_missing`. */
  router.get('/messages/:id', requireScope('messages:read'), acceptsQuery(), async (req, res) => {
    const doc = await Message.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('message', String(req.params.id), 'id');
    res.json(renderMessage(doc as WithId<MessageDoc>));
  });

  /** `GET /v1/conversations` → list, newest first; filters `channel`, `status`, `customer_number`. */
  router.get(
    '/conversations',
    requireScope('messages:read'),
    acceptsQuery(...LIST_QUERY, 'channel', 'status', 'customer_number'),
    async (req, res) => {
      const filter = {
        org_id: req.auth!.orgId,
        livemode: req.auth!.livemode,
        ...queryFilters(req.query, { channel: CHANNELS, status: ['open', 'needs_person'], customer_number: null }),
      };
      res.json(await listPage(req, Conversation, filter, (doc) => renderConversation(doc)));
    },
  );

  /** `GET /v1/conversations/{id}` → the conversation; 404 `resource_missing`. */
  router.get('/conversations/:id', requireScope('messages:read'), acceptsQuery(), async (req, res) => {
    res.json(renderConversation(await findConversation(req)));
  });

  /** `GET /v1/conversations/{id}/messages` → its messages, newest first. */
  router.get(
    '/conversations/:id/messages',
    requireScope('messages:read'),
    acceptsQuery(...LIST_QUERY),
    async (req, res) => {
      const conv = await findConversation(req);
      res.json(
        await listPage(
          req,
          Message,
          { conversation_id: conv._id, org_id: conv.org_id, livemode: conv.livemode },
          renderMessage,
        ),
      );
    },
  );

  /**
   * `POST /v1/conversations/{id}/resume` (no body) → the conversation, `open`: the assistant answers the
   * customer's next message, told that a person handled the gap. 409 `conversation_not_handed_over` when
   * no person has it.
   */
  router.post('/conversations/:id/resume', requireScope('messages:write'), async (req, res) => {
    parseBody(z.strictObject({}), req.body);
    const conv = await findConversation(req);
    await idempotent(req, res, 'req', async (updateId) => {
      const notHandedOver = () =>
        new ApiError(
          409,
          'invalid_request_error',
          'conversation_not_handed_over',
          'The conversation is open: the assistant already answers it.',
        );
      if (conv.status !== 'needs_person') throw notHandedOver();
      const { resumed } = await updateConversation(temporal, conv, resumeUpdate, updateId);
      if (!resumed) throw notHandedOver();
      return {
        status: 200,
        body: renderConversation((await Conversation.findById(conv._id).lean()) as WithId<ConversationDoc>),
      };
    });
  });

  /**
   * `POST /v1/phone_numbers` `{number, channels, agent_id?}` → the phone number: connects a number of the
   * organization's Twilio account (inbound messages to it reach this organization; `agent_id` while it is
   * not deleted, else the default agent, answers them). 404 naming `agent_id` when that agent is unknown or
   * deleted; 409 `phone_number_already_connected`.
   */
  router.post('/phone_numbers', requireScope('phone_numbers:write'), async (req, res) => {
    const body = parseBody(phoneNumberSchema, req.body);
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
  });

  /** `GET /v1/phone_numbers` → list, newest first. */
  router.get('/phone_numbers', requireScope('phone_numbers:read'), acceptsQuery(...LIST_QUERY), async (req, res) => {
    res.json(
      await listPage(req, PhoneNumber, { org_id: req.auth!.orgId, livemode: req.auth!.livemode }, renderPhoneNumber),
    );
  });

  /** `GET /v1/phone_numbers/{id}` → the phone number; 404. */
  router.get('/phone_numbers/:id', requireScope('phone_numbers:read'), acceptsQuery(), async (req, res) => {
    const doc = await PhoneNumber.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('phone number', String(req.params.id), 'id');
    res.json(renderPhoneNumber(doc));
  });

  /** `DELETE /v1/phone_numbers/{id}` → `{id, object, deleted: true}`: inbound messages to it are no longer taken. */
  router.delete('/phone_numbers/:id', requireScope('phone_numbers:write'), async (req, res) => {
    const id = String(req.params.id);
    const deleted = await PhoneNumber.deleteOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode });
    if (deleted.deletedCount === 0) throw notFound('phone number', id, 'id');
    res.json({ id, object: 'phone_number', deleted: true });
  });

  /**
   * `POST /v1/message_templates` `{name, language, body, content_sid}` → the template (`content_sid`, the
   * Twilio Content API SID, is required in live mode). `body` placeholders must be `{{1}}`…`{{n}}`.
   * 409 `message_template_exists` for a name and language already registered.
   */
  router.post('/message_templates', requireScope('messages:write'), async (req, res) => {
    const body = parseBody(messageTemplateSchema, req.body);
    const { orgId, livemode } = req.auth!;
    if (livemode && !body.content_sid)
      throw missingParam(
        'content_sid',
        "Missing required param: content_sid (live WhatsApp templates are sent through Twilio's Content API).",
      );
    const placeholders = placeholderCount(body.body);
    if (placeholders === null)
      throw invalidParam('body', 'Invalid body: placeholders must be {{1}}, {{2}}, … {{n}}, none skipped.');
    await idempotent(req, res, 'mtpl', async (id) => {
      const doc = {
        _id: id,
        key: templateKey(orgId, livemode, body.name, body.language),
        org_id: orgId,
        livemode,
        name: body.name,
        language: body.language,
        body: body.body,
        placeholders,
        content_sid: body.content_sid ?? null,
        created: Math.floor(idTime(id) / 1000),
      };
      try {
        await MessageTemplate.collection.insertOne(doc as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (!(await MessageTemplate.exists({ _id: id }))) {
          throw new ApiError(
            409,
            'invalid_request_error',
            'message_template_exists',
            `A template named ${body.name} (${body.language}) is already registered.`,
            'name',
          );
        }
      }
      return { status: 200, body: renderMessageTemplate(doc) };
    });
  });

  /** `GET /v1/message_templates` → list, newest first. */
  router.get('/message_templates', requireScope('messages:read'), acceptsQuery(...LIST_QUERY), async (req, res) => {
    res.json(
      await listPage(
        req,
        MessageTemplate,
        { org_id: req.auth!.orgId, livemode: req.auth!.livemode },
        renderMessageTemplate,
      ),
    );
  });

  /** `GET /v1/message_templates/{id}` → the template; 404. */
  router.get('/message_templates/:id', requireScope('messages:read'), acceptsQuery(), async (req, res) => {
    const doc = await MessageTemplate.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('message template', String(req.params.id), 'id');
    res.json(renderMessageTemplate(doc));
  });

  /**
   * `POST /v1/test_helpers/inbound_messages` `{channel, from, text, to?, received_at?}` (test keys only,
   * `messages:write`, Idempotency-Key) → the stored inbound message: the customer `from` writes to the
   * simulated number (or `to`, a test-mode number of the organization). `received_at` (unix seconds, in
   * the past) backdates it, which moves the WhatsApp window. The message takes the same path as a live
   * one: stored by the conversation's workflow (`message.received`), then answered by the assistant.
   */
  router.post('/test_helpers/inbound_messages', requireScope('messages:write'), async (req, res) => {
    const { orgId, livemode } = req.auth!;
    if (livemode)
      throw new ApiError(
        403,
        'permission_error',
        'test_mode_only',
        'Test helpers work only with test-mode keys; live inbound messages come from Twilio.',
      );
    const body = parseBody(inboundMessageSchema, req.body);
    const nowS = Math.floor(Date.now() / 1000);
    if (
      body.received_at !== undefined &&
      (body.received_at > nowS + 5 || body.received_at < nowS - MAX_RECEIVED_AGE_S)
    ) {
      throw invalidParam(
        'received_at',
        'Invalid received_at: must be a unix time in seconds, not in the future and at most a year ago.',
      );
    }
    let agentId: string | null = null;
    const to = body.to ?? SIMULATED_NUMBER;
    if (to !== SIMULATED_NUMBER) {
      const number = await PhoneNumber.findOne({ route_key: numberRouteKey(orgId, false, to) }).lean();
      if (!number || !number.channels.includes(body.channel))
        throw invalidParam(
          'to',
          `Invalid to: must be the simulated number ${SIMULATED_NUMBER} or a test-mode number of this organization connected for ${body.channel}.`,
        );
      agentId = number.agent_id ?? null;
    }
    await idempotent(req, res, 'msg', async (messageId) => {
      const conv = await ensureConversation(
        { orgId, livemode, channel: body.channel, customerNumber: body.from },
        async () => ({ serviceNumber: to, agentId: (await answeringAgent({ orgId, livemode }, agentId))?._id ?? null }),
      );
      const receivedMs = body.received_at !== undefined ? body.received_at * 1000 : Date.now();
      const result = await updateConversation(temporal, conv, receiveUpdate, messageId, {
        messageId,
        dedupeKey: `msg:${messageId}`,
        from: body.from,
        to,
        text: body.text,
        receivedMs,
        providerSid: null,
      });
      const doc = await Message.findById(result.messageId).lean();
      if (!doc) throw new Error(`inbound message ${result.messageId} not found after it was stored`);
      return { status: 200, body: renderMessage(doc as WithId<MessageDoc>) };
    });
  });

  return router;
}

async function findConversation(req: Request): Promise<WithId<ConversationDoc>> {
  const id = String(req.params.id);
  const doc = await Conversation.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
  if (!doc) throw notFound('conversation', id, 'id');
  return doc as WithId<ConversationDoc>;
}

/**
 * The service number a new conversation on `channel` is sent from: in test mode the simulated number; in
 * live mode the organization's first number connected for the channel (null when there is none).
 */
async function serviceNumberFor(
  orgId: string,
  livemode: boolean,
  channel: Channel,
): Promise<{ number: string; agentId: string | null } | null> {
  if (!livemode) return { number: SIMULATED_NUMBER, agentId: null };
  const numbers = await PhoneNumber.find({ org_id: orgId, livemode: true, channels: channel })
    .sort({ _id: 1 })
    .limit(1)
    .lean();
  return numbers[0] ? { number: numbers[0].number, agentId: numbers[0].agent_id ?? null } : null;
}

/**
 * The template of a `POST /v1/messages`: a registered one (its placeholder count must match
 * `parameters`: 400 naming `template.parameters`), rendered into the stored text; in test mode an
 * unregistered one is rendered from its name and parameters; in live mode it must be registered (404
 * naming `template.name`), since Twilio sends it by its Content SID.
 */
async function resolveTemplate(
  orgId: string,
  livemode: boolean,
  t: z.infer<typeof templateParam>,
): Promise<{ ref: TemplateRef; text: string }> {
  const parameters = t.parameters ?? [];
  const registered = await MessageTemplate.findOne({ key: templateKey(orgId, livemode, t.name, t.language) }).lean();
  if (!registered) {
    if (livemode) throw notFound('message template', `${t.name} (${t.language})`, 'template.name');
    return {
      ref: { name: t.name, language: t.language, parameters, contentSid: null },
      text: renderUnregisteredTemplate(t.name, t.language, parameters),
    };
  }
  if (parameters.length !== registered.placeholders) {
    throw invalidParam(
      'template.parameters',
      `Invalid template.parameters: the template ${t.name} (${t.language}) has ${registered.placeholders} placeholder(s), got ${parameters.length} parameter(s).`,
    );
  }
  return {
    ref: { name: t.name, language: t.language, parameters, contentSid: registered.content_sid ?? null },
    text: renderTemplateBody(registered.body, parameters),
  };
}
