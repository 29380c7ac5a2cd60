/**
 * Conversations (spec section 4 "Messages and conversations"; scopes `messages:read` / `messages:write`):
 *
 *   GET    /v1/conversations                     list; filters `channel`, `status`, `customer_number`
 *   GET    /v1/conversations/{id}                a conversation
 *   GET    /v1/conversations/{id}/messages       its messages, newest first (list conventions)
 *   POST   /v1/conversations/{id}/resume         give a handed-over conversation back to the assistant
 *   POST   /v1/conversations/{id}/handoff        a person takes it over
 *
 * A conversation is started by its first message (`POST /v1/messages`, src/api/messages.ts; an inbound
 * message; a widget session) and run by its `conversationWorkflow` (src/workflows/conversations.ts),
 * reached with signal-with-start / update-with-start (src/services/conversations.ts).
 */
import type { Request, Router } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError, notFound } from '../errors';
import { updateConversation } from '../services/conversations';
import { conversationCost } from '../services/costs';
import {
  Conversation,
  ConversationObject,
  Message,
  MessageObject,
  renderConversation,
  renderMessage,
  type ConversationDoc,
} from '../models/conversations';
import type { WithId } from '../models/store';
import { listOf } from '../models/wire';
import { CHANNELS, handoffUpdate, resumeUpdate } from '../shared/conversations';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { queryFilters } from './validation';

const tag = 'Messaging';

async function findConversation(req: Request): Promise<WithId<ConversationDoc>> {
  const id = String(req.params.id);
  const doc = await Conversation.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
  if (!doc) throw notFound('conversation', id, 'id');
  return doc as WithId<ConversationDoc>;
}

/** `GET /v1/conversations` → list, newest first; filters `channel`, `status`, `customer_number`. */
const listConversations = operation({
  method: 'get',
  path: '/v1/conversations',
  operationId: 'listConversations',
  tag,
  summary: 'List conversations',
  scope: 'messages:read',
  list: true,
  query: [
    { name: 'channel', description: 'Only this channel.', schema: z.enum(CHANNELS) },
    { name: 'status', description: 'Only conversations in this status.', schema: ConversationObject.shape.status },
    { name: 'customer_number', description: "Only this customer's conversations (E.164)." },
  ],
  response: listOf(ConversationObject),
  handler: async (req, res) => {
    const filter = {
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
      ...queryFilters(req.query, { channel: CHANNELS, status: ['open', 'needs_person'], customer_number: null }),
    };
    res.json(await listPage(req, Conversation, filter, (doc) => renderConversation(doc)));
  },
});

/** `GET /v1/conversations/{id}` → the conversation with its `cost` so far (`conversationCost`); 404 `resource_missing`. */
const retrieveConversation = operation({
  method: 'get',
  path: '/v1/conversations/{id}',
  operationId: 'retrieveConversation',
  tag,
  summary: 'Retrieve a conversation',
  scope: 'messages:read',
  response: ConversationObject,
  handler: async (req, res) => {
    const conv = await findConversation(req);
    res.json({ ...renderConversation(conv), cost: await conversationCost(conv._id) });
  },
});

/** `GET /v1/conversations/{id}/messages` → its messages, newest first. */
const listConversationMessages = operation({
  method: 'get',
  path: '/v1/conversations/{id}/messages',
  operationId: 'listConversationMessages',
  tag,
  summary: "List a conversation's messages",
  scope: 'messages:read',
  list: true,
  response: listOf(MessageObject),
  handler: async (req, res) => {
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
});

/**
 * `POST /v1/conversations/{id}/resume` (no body) → the conversation, `open`: the assistant answers the
 * customer's next message, told that a person handled the gap. 409 `conversation_not_handed_over` when
 * no person has it.
 */
function resumeConversation(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/conversations/{id}/resume',
    operationId: 'resumeConversation',
    errors: { '409': ['conversation_not_handed_over'] },
    tag,
    summary: 'Hand a conversation back to the assistant',
    scope: 'messages:write',
    body: null,
    response: ConversationObject,
    handler: async (req, res) => {
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
    },
  });
}

/**
 * `POST /v1/conversations/{id}/handoff` `{reason?}` → the conversation in `needs_person`: the
 * assistant stops answering, as after its `handoff_to_person` tool (through the workflow's `handoff`
 * update; `conversation.needs_person` is emitted when it was open). `taken_by` is the staff user when a
 * console session asks, else null. Taking over a conversation already handed over marks it as taken by
 * the asker. `resume` gives it back.
 */
function handoffConversation(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/conversations/{id}/handoff',
    operationId: 'handoffConversation',
    tag,
    summary: 'Take a conversation over from the assistant',
    description:
      'A person takes the conversation over: the assistant stops answering until `resume`. Inbound messages are still stored and emitted; reply with `POST /v1/messages` (`author: "person"`).',
    scope: 'messages:write',
    body: z.strictObject({
      reason: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .optional()
        .describe('Why a person takes it over (shown as `handoff_reason`).'),
    }),
    example: { reason: 'The customer asked for a refund.' },
    response: ConversationObject,
    handler: async (req, res, { body }) => {
      const conv = await findConversation(req);
      await idempotent(req, res, 'req', async (updateId) => {
        await updateConversation(temporal, conv, handoffUpdate, updateId, {
          reason: body.reason ?? null,
          takenBy: req.auth!.userId ?? null,
        });
        return {
          status: 200,
          body: renderConversation((await Conversation.findById(conv._id).lean()) as WithId<ConversationDoc>),
        };
      });
    },
  });
}

/** Routes under `/v1/conversations`; `temporal` reaches the conversations' workflows. */
export function conversationsRouter(temporal: Client): Router {
  return operationsRouter('/v1/conversations', [
    listConversations,
    retrieveConversation,
    listConversationMessages,
    resumeConversation(temporal),
    handoffConversation(temporal),
  ]);
}
