/**
 * Messages (spec section 4 "Messages and conversations"; scopes `messages:read` / `messages:write`):
 *
 *   POST   /v1/messages        send (Idempotency-Key): `{channel, to, text | template, agent_id? | squad_id?}`;
 *                              `channel: web` replies to a widget visitor
 *   GET    /v1/messages/{id}   a message
 *
 * The rules of sending (channels, templates, the WhatsApp window, opt-outs, connected numbers, which agent
 * answers, the conversation's workflow) are src/services/messages.ts; this router parses the body and
 * takes the Idempotency-Key.
 */
import type { Router } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { notFound } from '../errors';
import { Message, MessageObject, renderMessage, type MessageDoc } from '../models/conversations';
import type { WithId } from '../models/store';
import { prepareOutboundMessage, sendOutboundMessage } from '../services/messages';
import { CHANNELS } from '../shared/conversations';
import { idempotent } from './idempotency';
import { operation, operationsRouter } from './operations';
import { e164, MAX_TEXT } from './validation';

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
    agent_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The agent that answers the conversation from now on, alone: a squad answering it stops (else its own agent answers, or the number's).",
      ),
    squad_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Instead of `agent_id` (both: 400 naming `squad_id`): the squad that answers the conversation from now on, starting with its start member, whose members hand it to each other.',
      ),
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

const tag = 'Messaging';

/**
 * `POST /v1/messages` → the message, `queued` (src/services/messages.ts says the rules and errors:
 * 400s and 404s and 503 before the Idempotency-Key is taken, 422s after).
 */
function sendMessage(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/messages',
    operationId: 'sendMessage',
    tag,
    summary: 'Send a message',
    description:
      "On WhatsApp or SMS to a phone number, or on `web` to a widget visitor. Free-form text inside WhatsApp's 24-hour window, a `template` outside it (else 422 `whatsapp_window_closed`). 422 also for `recipient_opted_out` (the customer sent STOP on that channel), `whatsapp_number_not_connected` / `sms_number_not_connected` (live mode without a connected number) and `conversation_missing` (`web` to a visitor without a conversation). The answer is the message, `queued`; its progress comes as `message.sent`, `message.delivered` or `message.failed` events.",
    scope: 'messages:write',
    errors: {
      '404': ['resource_missing'],
      '422': [
        'conversation_missing',
        'whatsapp_number_not_connected',
        'sms_number_not_connected',
        'recipient_opted_out',
        'whatsapp_window_closed',
      ],
      '503': ['messaging_not_configured'],
    },
    body: sendMessageSchema,
    example: { channel: 'sms', to: '+14155550123', text: 'Your appointment is confirmed.' },
    response: MessageObject,
    handler: async (req, res, { body }) => {
      const prepared = await prepareOutboundMessage(req.auth!, body);
      await idempotent(req, res, 'msg', async (messageId) => ({
        status: 200,
        body: renderMessage(await sendOutboundMessage(temporal, prepared, messageId, req.auth!.userId ?? null)),
      }));
    },
  });
}

/** `GET /v1/messages/{id}` → the message; 404 `resource_missing`. */
const retrieveMessage = operation({
  method: 'get',
  path: '/v1/messages/{id}',
  operationId: 'retrieveMessage',
  tag,
  summary: 'Retrieve a message',
  scope: 'messages:read',
  response: MessageObject,
  handler: async (req, res) => {
    const doc = await Message.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('message', String(req.params.id), 'id');
    res.json(renderMessage(doc as WithId<MessageDoc>));
  },
});

/** Routes under `/v1/messages`; `temporal` reaches the conversations' workflows. */
export function messagesRouter(temporal: Client): Router {
  return operationsRouter('/v1/messages', [sendMessage(temporal), retrieveMessage]);
}
