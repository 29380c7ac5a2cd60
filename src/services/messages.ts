/**
 * Sending a message through the API (`POST /v1/messages`, spec section 4 "Messages and conversations",
 * rules 1–3; section 7), as `newCallInput` (src/services/calls.ts) serves `POST /v1/calls`: the router parses
 * the body and takes the Idempotency-Key; the rules are here.
 *
 * `prepareOutboundMessage` runs before the idempotency key is taken (400s naming the param, 404s, 503):
 * exactly one of `text` and `template`; no template on SMS or the web chat; live messaging needs Twilio;
 * a named agent must exist; a registered template's placeholder count must match `parameters`.
 * `sendOutboundMessage` then checks the request against the stored conversation before anything is
 * written or sent (a refused message creates nothing, not even a conversation): 422
 * `conversation_missing` on `web` without a conversation (visitors start theirs in the widget), 422
 * `whatsapp_number_not_connected` (`sms_number_not_connected`) in live mode without a connected number,
 * 422 `recipient_opted_out` after the customer's STOP on that channel, 422 `whatsapp_window_closed` for
 * WhatsApp free text 24:00:00 or more after the customer's last message (src/shared/conversations.ts
 * `freeTextAllowed`). Then it starts or reaches the conversation's `conversationWorkflow`
 * (src/workflows/conversations.ts) with the message, which sends it; the answer is the message, `queued`.
 * While a person has the conversation (`needs_person`) the message's author is `person`, otherwise `api`;
 * a staff user's message (sent with a console session) is always `person`, with their `user_id`.
 * On `web`, `to` is the visitor (`user:<user_id>` or `visitor:<visitor_id>`, the conversation's
 * `customer_number`) and the message reaches them through the widget's stream (no provider, no Twilio).
 */
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam, missingParam, notFound } from '../errors';
import { telephonyConfigured } from '../config';
import {
  customerState,
  conversationAnswerer,
  ensureConversation,
  findConversation,
  renderTemplateBody,
  renderUnregisteredTemplate,
  signalConversation,
} from '../services/conversations';
import { findLiveAgent } from '../models/agents';
import { squadStart } from './squads';
import {
  Message,
  MessageTemplate,
  newOutboundDocument,
  PhoneNumber,
  templateKey,
  type MessageDoc,
} from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import { redactMessageRow } from './redaction-policy';
import { idTime, newId } from '../shared/ids';
import {
  freeTextAllowed,
  outboundSignal,
  SIMULATED_NUMBER,
  windowClosesAt,
  type Channel,
  type OutboundMessageInput,
  type TemplateRef,
} from '../shared/conversations';

/** The caller's organization and mode. */
export interface Tenant {
  orgId: string;
  livemode: boolean;
}

/** A WhatsApp template as a request names it: registered (or, in test mode, not), with its parameters. */
export interface TemplateRequest {
  name: string;
  language: string;
  parameters?: string[];
}

/** What `POST /v1/messages` asks for, already validated by its schema (src/api/messages.ts). */
export interface SendMessageRequest {
  channel: Channel;
  /** E.164 on WhatsApp and SMS; `user:<user_id>` or `visitor:<visitor_id>` on `web`. */
  to: string;
  text?: string;
  template?: TemplateRequest;
  agent_id?: string;
  /** Instead of `agent_id`: the squad that answers the conversation from now on (its start member first). */
  squad_id?: string;
}

/** A request that passed the checks that need no conversation: its text, and the template it renders. */
export interface PreparedMessage {
  tenant: Tenant;
  request: SendMessageRequest;
  /** The text stored and shown: the request's, or the template rendered. */
  text: string;
  template: TemplateRef | null;
  /** `squad_id`'s squad as found live: its id, start member and that member's agent; null without one. */
  squad: { id: string; start: string; agentId: string } | null;
}

/** 422 `invalid_request_error`, for a well-formed request the rules refuse. */
const unprocessable = (code: string, message: string, param?: string) =>
  new ApiError(422, 'invalid_request_error', code, message, param);

/**
 * The checks of `POST /v1/messages` that come before its Idempotency-Key is taken, and the text it sends.
 * @throws ApiError 400 naming `text`, `template` or `template.parameters`; 503 `messaging_not_configured`
 *   (live mode without Twilio, except on `web`); 404 naming `agent_id`, `squad_id` or `template.name`; 400
 *   naming `squad_id` when `agent_id` comes with it (as `POST /v1/calls`)
 */
export async function prepareOutboundMessage(tenant: Tenant, body: SendMessageRequest): Promise<PreparedMessage> {
  const { orgId, livemode } = tenant;
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
  if (body.agent_id !== undefined && body.squad_id !== undefined)
    throw invalidParam('squad_id', 'Give agent_id or squad_id, not both: one agent or one squad answers.');
  if (body.agent_id && !(await findLiveAgent({ orgId, livemode }, body.agent_id)))
    throw notFound('agent', body.agent_id, 'agent_id');
  const squad = body.squad_id !== undefined ? await squadStart(tenant, body.squad_id) : null;
  if (body.squad_id !== undefined && !squad) throw notFound('squad', body.squad_id, 'squad_id');
  const template = body.template ? await resolveTemplate(orgId, livemode, body.template) : null;
  const text = template ? template.text : body.text!;
  return { tenant, request: body, text, template: template?.ref ?? null, squad };
}

/**
 * Sends a prepared message as `messageId` (`msg_…`, from the Idempotency-Key's record): checks it against
 * the stored conversation, starts the conversation when it is new (from the organization's number for
 * the channel, answered by `agent_id` or the squad `squad_id`, else the number's agent or squad, else the
 * default agent; an existing one switches to the agent or squad named), signals its
 * workflow, and stores the message row (insert-if-absent, as the workflow's send does: a crash between
 * the two loses nothing).
 * @returns the message row, `queued`
 * @throws ApiError 422 `conversation_missing`, `<channel>_number_not_connected`, `recipient_opted_out`,
 *   `whatsapp_window_closed`
 */
export async function sendOutboundMessage(
  temporal: Client,
  prepared: PreparedMessage,
  messageId: string,
  userId: string | null = null,
): Promise<WithId<MessageDoc>> {
  const { tenant, request: body, text, template, squad } = prepared;
  const { orgId, livemode } = tenant;
  // Everything is checked before anything is written: a refused message creates nothing, not even a conversation.
  const existing = await findConversation({ orgId, livemode, channel: body.channel, customerNumber: body.to });
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
  if (!template && !freeTextAllowed(body.channel, customer.lastInboundMs, Date.now())) {
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
      ...(squad
        ? { agentId: squad.agentId, squad: { id: squad.id, start: squad.start } }
        : body.agent_id
          ? { agentId: body.agent_id }
          : await conversationAnswerer({ orgId, livemode }, { agentId: number!.agentId, squadId: number!.squadId })),
    })));
  const message: OutboundMessageInput = {
    messageId,
    // A staff user's reply (a console session) is a person's, with their id.
    author: userId !== null || conv.status === 'needs_person' ? 'person' : 'api',
    ...(userId !== null ? { userId } : {}),
    from: conv.service_number,
    to: body.to,
    text,
    template,
    createdMs: idTime(messageId),
    eventIds: { sent: newId('evt'), delivered: newId('evt'), failed: newId('evt') },
    agentId: body.agent_id ?? squad?.agentId ?? null,
    ...(squad ? { squad: { id: squad.id, start: squad.start } } : {}),
  };
  await signalConversation(temporal, conv, outboundSignal, message);
  // The workflow's send inserts this row too (insert-if-absent): a crash here loses nothing.
  const doc = await redactMessageRow(
    newOutboundDocument({ conversationId: conv._id, orgId, livemode, channel: body.channel }, message),
  );
  await insertIfAbsent(Message, doc);
  return doc;
}

/**
 * The service number a new conversation on `channel` is sent from: in test mode the simulated number; in
 * live mode the organization's first number connected for the channel (null when there is none).
 */
async function serviceNumberFor(
  orgId: string,
  livemode: boolean,
  channel: Channel,
): Promise<{ number: string; agentId: string | null; squadId: string | null } | null> {
  if (!livemode) return { number: SIMULATED_NUMBER, agentId: null, squadId: null };
  const numbers = await PhoneNumber.find({ org_id: orgId, livemode: true, channels: channel })
    .sort({ _id: 1 })
    .limit(1)
    .lean();
  return numbers[0]
    ? { number: numbers[0].number, agentId: numbers[0].agent_id ?? null, squadId: numbers[0].squad_id ?? null }
    : null;
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
  t: TemplateRequest,
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
