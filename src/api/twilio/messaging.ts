/**
 * Twilio's side of live messaging, mounted at `/twilio/messaging` by src/api/app.ts after the signature check (src/api/twilio/requests.ts),
 * whose middleware has already verified `X-Twilio-Signature` (403 `twilio_signature_invalid` otherwise):
 *
 * - `POST /twilio/messaging`: an inbound SMS or WhatsApp message (form fields `MessageSid`, `From`, `To`,
 *   `Body`, `NumMedia`; WhatsApp addresses are `whatsapp:+E164`;
 *   https://www.twilio.com/docs/messaging/guides/webhook-request). The connected number `To` names the
 *   organization; the message is signalled to its conversation's workflow (signal-with-start), which
 *   stores it deduplicated by `MessageSid` and answers it. Answers at once with empty TwiML (no
 *   auto-reply): storing and answering happen in the workflow, so the webhook returns within milliseconds
 *   and the same webhook posted five times gives one message and one reply.
 * - `POST /twilio/messaging/status/{message id}` (the `StatusCallback` our sends set) and
 *   `POST /twilio/messaging/status` (a number-level status callback; the message is found by `MessageSid`):
 *   `MessageStatus` signalled to the conversation's workflow, which moves the message's status forward
 *   only, whatever order the callbacks arrive in.
 */
import type { Request, Response, Router } from 'express';
import twilio from 'twilio';
import type { Client } from '@temporalio/client';
import { conversationAnswerer, ensureConversation, signalConversation } from '../../services/conversations';
import { logger } from '../../logger';
import {
  Conversation,
  Message,
  numberRouteKey,
  PhoneNumber,
  type ConversationDoc,
  type MessageDoc,
} from '../../models/conversations';
import type { WithId } from '../../models/store';
import { newId } from '../../shared/ids';
import { inboundSignal, providerStatusSignal, type Channel, type OutboundStatus } from '../../shared/conversations';
import { invalidParam } from '../../errors';
import { operation, operationsRouter } from '../operations';
import { isE164 } from '../validation';

/** Twilio `MessageStatus` values → our outbound statuses (null: nothing to record). */
const TWILIO_STATUS: Record<string, OutboundStatus | null> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivery_unknown: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
  receiving: null,
  received: null,
};

const tag = 'Twilio callbacks';

/** `POST /twilio/messaging` → empty TwiML; 400 naming the field when `MessageSid`, `From` or `To` is unusable. */
const twilioInboundMessage = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/messaging',
    operationId: 'twilioInboundMessage',
    tag,
    summary: 'An inbound WhatsApp or SMS message',
    description:
      'Answered with empty TwiML; the assistant replies through the API. 400 naming `MessageSid`, `From` or `To` when unusable.',
    twilioForm: {
      MessageSid: 'SM… or MM…',
      From: 'The customer, E.164 (`whatsapp:` prefixed on WhatsApp).',
      To: 'The service number, likewise.',
      Body: 'The text.',
      NumMedia: 'How many media attachments.',
    },
    content: { 'text/xml': { schema: { type: 'string' } } },
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const channel: Channel = (body.From ?? '').startsWith('whatsapp:') ? 'whatsapp' : 'sms';
      const from = (body.From ?? '').replace(/^whatsapp:/, '');
      const to = (body.To ?? '').replace(/^whatsapp:/, '');
      if (!/^(SM|MM)[0-9a-fA-F]{32}$/.test(body.MessageSid ?? ''))
        throw invalidParam('MessageSid', 'Invalid MessageSid.');
      if (!isE164(from))
        throw invalidParam('From', 'Invalid From: must be an E.164 number (whatsapp: prefixed on WhatsApp).');
      if (!isE164(to))
        throw invalidParam('To', 'Invalid To: must be an E.164 number (whatsapp: prefixed on WhatsApp).');
      const emptyTwiml = () => res.type('text/xml').send(new twilio.twiml.MessagingResponse().toString());

      const number = await PhoneNumber.findOne({ route_key: numberRouteKey('', true, to) }).lean();
      if (!number || !number.channels.includes(channel)) {
        logger.warn('twilio messaging: inbound message to a number not connected for its channel', { to, channel });
        return void emptyTwiml();
      }
      const conv = await ensureConversation(
        { orgId: number.org_id, livemode: true, channel, customerNumber: from },
        async () => ({
          serviceNumber: to,
          ...(await conversationAnswerer(
            { orgId: number.org_id, livemode: true },
            { agentId: number.agent_id, squadId: number.squad_id },
          )),
        }),
      );
      const media = Number(body.NumMedia ?? 0);
      await signalConversation(temporal, conv, inboundSignal, {
        messageId: newId('msg'),
        dedupeKey: `twilio:${body.MessageSid}`,
        from,
        to,
        text: body.Body || (media > 0 ? `[${media} media attachment(s)]` : ''),
        receivedMs: Date.now(),
        providerSid: body.MessageSid,
      });
      emptyTwiml();
    },
  });

/** `POST /twilio/messaging/status[/{message id}]` (`MessageStatus`, `MessageSid`, `ErrorCode`) → 204. */
async function messageStatus(temporal: Client, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, string>;
  const next = TWILIO_STATUS[body.MessageStatus ?? body.SmsStatus ?? ''];
  const id = req.params.messageId ? String(req.params.messageId) : null;
  const row = (await (
    id
      ? Message.findOne({ _id: id, livemode: true })
      : Message.findOne({ provider_sid: body.MessageSid ?? '', livemode: true })
  ).lean()) as WithId<MessageDoc> | null;
  if (!next || !row || row.direction !== 'outbound') return void res.status(204).end();
  const conv = (await Conversation.findById(row.conversation_id).lean()) as WithId<ConversationDoc> | null;
  if (!conv) return void res.status(204).end();
  await signalConversation(temporal, conv, providerStatusSignal, {
    messageId: row._id,
    status: next,
    providerSid: body.MessageSid || null,
    errorCode:
      next === 'failed'
        ? body.ErrorCode
          ? `twilio_${body.ErrorCode}`
          : `twilio_${body.MessageStatus ?? 'failed'}`
        : null,
    errorMessage:
      next === 'failed' ? body.ErrorMessage || `Twilio reported the message ${body.MessageStatus ?? 'failed'}.` : null,
  });
  res.status(204).end();
}

/** The two message status callbacks: by our message id (the `StatusCallback` our sends set), or by `MessageSid`. */
const twilioMessageStatus = (
  temporal: Client,
  path: '/twilio/messaging/status' | '/twilio/messaging/status/{messageId}',
) =>
  operation({
    method: 'post',
    path,
    operationId: path.endsWith('}') ? 'twilioMessageStatusOf' : 'twilioMessageStatus',
    tag,
    summary: path.endsWith('}') ? "A sent message's status callback" : 'A message status callback, found by MessageSid',
    twilioForm: {
      MessageSid: "The message's SID.",
      MessageStatus: 'queued, sent, delivered, read, undelivered or failed.',
      ErrorCode: "Twilio's error code, on failure.",
    },
    okStatus: '204',
    handler: (req, res) => messageStatus(temporal, req, res),
  });

/** Routes under `/twilio/messaging` (mounted there by src/api/app.ts); `temporal` signals the conversations' workflows. */
export function twilioMessagingRouter(temporal: Client): Router {
  return operationsRouter('/twilio/messaging', [
    twilioInboundMessage(temporal),
    twilioMessageStatus(temporal, '/twilio/messaging/status'),
    twilioMessageStatus(temporal, '/twilio/messaging/status/{messageId}'),
  ]);
}
