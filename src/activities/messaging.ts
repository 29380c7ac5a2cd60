/**
 * The messaging provider wrapper: sends one outbound message, once. Live mode goes through Twilio's
 * Messages API with the `twilio` package (https://www.twilio.com/docs/messaging/api/message-resource):
 * `whatsapp:`-prefixed addresses on WhatsApp, free text as `Body`, a registered WhatsApp template through
 * the Content API as `ContentSid` + `ContentVariables`
 * (https://www.twilio.com/docs/content/send-templates-created-with-the-content-template-builder), and a
 * status callback to `/twilio/messaging/status/{message id}`. Test mode makes no provider request: the
 * message is simulated as sent, then delivered, with the same events.
 *
 * Exactly once, as far as Twilio allows: the message row (with its id, chosen by the workflow or the
 * idempotency record) is written before anything is sent; the rules are checked against the stored rows
 * just before the request (the WhatsApp window to the second, the customer's opt-out); the time of the
 * first attempt is recorded before the request; a retry that finds that mark looks for a message Twilio
 * already accepted (same addresses and body, created since the attempt) and adopts it instead of sending
 * again. What remains at-least-once: a retry after Twilio accepted the message but before Twilio lists it
 * (its list is eventually consistent), which sends a second copy.
 */
import { Context } from '@temporalio/activity';
import { config, telephonyConfigured } from '../config';
import { advanceStatus, customerState, type StatusEmitter } from '../services/conversations';
import { messageUsage, recordUsage } from '../services/usage';
import { redactMessageRow } from '../services/redaction-policy';
import {
  Conversation,
  Message,
  newOutboundDocument,
  type MessageConversation as ConversationRef,
  type MessageDoc,
} from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import { freeTextAllowed, type OutboundMessageInput, type OutboundStatus } from '../shared/conversations';
import type { Twilio } from 'twilio';
import { twilioClientFor } from '../services/telephony-accounts';
import { TELEPHONY_REJECTED } from '../shared/calls';

export interface SendMessageInput {
  conversation: ConversationRef;
  message: OutboundMessageInput;
}

export interface SendMessageResult {
  /** The message's status after the send (`queued` while the provider has it, `failed`, or simulated `delivered`). */
  status: OutboundStatus;
  providerSid: string | null;
}

/** How far before the recorded attempt a provider message may be dated and still be ours (clock skew). */
const LOOKUP_SKEW_MS = 60_000;

/**
 * Sends an outbound message once (see the module comment). A message that is already past `queued`, or
 * already has a provider id, is not sent again. Refusals become the message's `failed` status with an
 * error code, never a thrown error: `recipient_opted_out`, `whatsapp_window_closed`,
 * `messaging_not_configured`, or `twilio_<code>` for a request Twilio refused (4xx). Network errors and
 * Twilio 5xx/429 are thrown, for the workflow's retries.
 */
export async function sendMessage(input: SendMessageInput): Promise<SendMessageResult> {
  const { conversation: c, message: m } = input;
  const emitter: StatusEmitter = { temporal: Context.current().client, retry: Context.current().info.attempt > 1 };
  await insertIfAbsent(Message, await redactMessageRow(newOutboundDocument(c, m)));
  const row = (await Message.findById(m.messageId).lean()) as WithId<MessageDoc> | null;
  if (!row) throw new Error(`message ${m.messageId} missing after insert`);
  await touchConversation(c.conversationId, m.createdMs);
  if (row.status !== 'queued' || row.provider_sid) {
    // Done before (a retry, or a signal repeated by a retried request): re-apply what it implies.
    return {
      status: await advanceStatus(emitter, row, row.status as OutboundStatus, null),
      providerSid: row.provider_sid ?? null,
    };
  }

  const fail = async (code: string, message: string) => ({
    status: await advanceStatus(emitter, row, 'failed', { code, message }),
    providerSid: null,
  });
  const customer = await customerState(c.conversationId);
  if (customer.optedOut)
    return fail(
      'recipient_opted_out',
      'The customer opted out (STOP) on this channel; they can opt in again with START.',
    );
  // The window as of the message's creation: the API checked it then, to the second, and answered
  // `queued`; the send that follows moments later must not undo that decision.
  if (!m.template && !freeTextAllowed(c.channel, customer.lastInboundMs, m.createdMs)) {
    return fail(
      'whatsapp_window_closed',
      "Free text on WhatsApp is allowed only within 24 hours of the customer's last message; send a template.",
    );
  }

  /** An outbound message counts once the provider has it (or, in test mode, once simulated as sent). */
  const meter = () =>
    recordUsage(
      messageUsage({
        orgId: c.orgId,
        livemode: c.livemode,
        messageId: row._id,
        channel: c.channel,
        direction: 'outbound',
        template: Boolean(m.template),
        occurredMs: Date.now(),
      }),
    );
  // Test mode simulates the provider; the web chat has none (the widget's stream delivers the message).
  if (!c.livemode || c.channel === 'web') {
    await meter();
    await advanceStatus(emitter, row, 'sent', null);
    return { status: await advanceStatus(emitter, row, 'delivered', null), providerSid: null };
  }
  if (!telephonyConfigured())
    return fail(
      'messaging_not_configured',
      'Twilio is not configured on the service (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).',
    );

  const address = (n: string) => (c.channel === 'whatsapp' ? `whatsapp:${n}` : n);
  let twilio: Twilio;
  try {
    twilio = await twilioClientFor(c.orgId); // the organization's account (its subaccount made on first use)
  } catch (err) {
    if ((err as { type?: string }).type !== TELEPHONY_REJECTED) throw err;
    return fail('telephony_account_unavailable', (err as Error).message);
  }
  if (row.send_attempted_ms != null) {
    const earlier = await findAcceptedMessage(twilio, address(m.from), address(m.to), m.text, row.send_attempted_ms);
    if (earlier) {
      await meter();
      await Message.updateOne({ _id: row._id }, { $set: { provider_sid: earlier } });
      return { status: 'queued', providerSid: earlier };
    }
  } else {
    await Message.updateOne({ _id: row._id }, { $set: { send_attempted_ms: Date.now() } });
  }

  let sid: string;
  try {
    const created = await twilio.messages.create({
      from: address(m.from),
      to: address(m.to),
      ...(m.template?.contentSid
        ? {
            contentSid: m.template.contentSid,
            contentVariables: JSON.stringify(
              Object.fromEntries(m.template.parameters.map((p, i) => [String(i + 1), p])),
            ),
          }
        : { body: m.text }),
      statusCallback: `${config().publicBaseUrl}/twilio/messaging/status/${m.messageId}`,
    });
    sid = created.sid;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429) {
      const code = (err as { code?: number }).code;
      return fail(code ? `twilio_${code}` : `twilio_http_${status}`, (err as Error).message);
    }
    throw err;
  }
  await meter();
  await Message.updateOne({ _id: row._id }, { $set: { provider_sid: sid } });
  return { status: 'queued', providerSid: sid };
}

/**
 * The SID of a message Twilio accepted from `from` to `to` with `body` since `sinceMs` (minus clock
 * skew), or null. One page of Twilio's list, newest first, is enough for one conversation's retry.
 */
async function findAcceptedMessage(
  twilio: Twilio,
  from: string,
  to: string,
  body: string,
  sinceMs: number,
): Promise<string | null> {
  const page = await twilio.messages.page({
    from,
    to,
    dateSentAfter: new Date(sinceMs - LOOKUP_SKEW_MS),
    pageSize: 50,
  });
  const match = page.instances.find(
    (msg) => msg.body === body && (!msg.dateCreated || msg.dateCreated.getTime() >= sinceMs - LOOKUP_SKEW_MS),
  );
  if (match) Context.current().log.info('adopting a message Twilio already accepted', { sid: match.sid });
  return match?.sid ?? null;
}

/** Moves the conversation's `last_message_ms` forward to `atMs`. */
async function touchConversation(conversationId: string, atMs: number): Promise<void> {
  const conv = await Conversation.findById(conversationId).lean();
  if (conv && (conv.last_message_ms ?? 0) < atMs)
    await Conversation.updateOne({ _id: conversationId }, { $set: { last_message_ms: atMs } });
}
