/**
 * WhatsApp and SMS conversations (`conv_…`), their messages (`msg_…`), the organization's connected
 * phone numbers (`pn_…`) and registered WhatsApp templates (`mtpl_…`).
 *
 * Who writes what (DESIGN.md section 3, one writer per document):
 * - conversations: the starter (API, Twilio webhook) inserts the document once, insert-if-absent against
 *   the unique `key` (= the workflow id), so concurrent first messages make one conversation; from then on
 *   only the conversation's own `conversationWorkflow` writes it, through its activities, one at a time.
 * - messages: immutable rows except `status` (and the provider fields of a send), which only the
 *   conversation's workflow writes, moving `status` forward by rank (src/shared/conversations.ts
 *   `nextStatus`). An inbound message is inserted against the unique `dedupe_key` (the provider's id), so
 *   a duplicate delivery is a duplicate-key error, not a second message. `POST /v1/messages` inserts its
 *   message insert-if-absent too (the workflow's send does the same), so a crash between the two loses
 *   nothing.
 * - conversation log (web channel): the conversation's workflow, insert-if-absent, one entry per message.
 * - phone numbers and templates: the API (create, update, delete); a live number's provisioning
 *   (`pending` until bought or imported, then its `source` and `twilio_sid`) is completed by its
 *   provisioning workflow's activity (src/services/number-provisioning.ts).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import type {
  Channel,
  ConversationStatus,
  InboundMessageInput,
  Keyword,
  NumberChannel,
  OutboundMessageInput,
  TemplateRef,
} from '../shared/conversations';
import { z } from 'zod';
import { CHANNELS, NUMBER_CHANNELS, windowClosesAt, type ToolCallEntry } from '../shared/conversations';
import { NUMBER_SOURCES, type NumberSource } from '../shared/phone-numbers';
import { schemaOptions as base, seconds, type WithId } from './store';
import { toolEntry, toolEntryFields } from './tools';
import { apiObject, unix } from './wire';
import { CostObject } from './usage';
import { redactionField, renderRedaction } from './redaction';

const conversationSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The workflow id (`conv:<org>:<mode>:<channel>:n_<keyed hash of the number>`, older ones `…:<number>`): one conversation per key. */
    key: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    channel: { type: String, enum: CHANNELS, required: true },
    customer_number: { type: String, required: true },
    service_number: { type: String, required: true },
    agent_id: { type: String, default: null },
    /**
     * The version of agent `agent_version_of` the conversation runs, fixed on its first turn
     * with that agent (src/activities/conversations.ts `conversationVersion`); null before.
     */
    agent_version: { type: Number, default: null },
    agent_version_of: { type: String, default: null },
    /** The squad answering it (`sqd_…`, src/shared/squads.ts): its members hand it to each other; null: one agent. */
    squad_id: { type: String, default: null },
    /** A squad's conversation: the member answering now (its `start`, then each hand-off's); null: no squad. */
    squad_member: { type: String, default: null },
    /** A squad's conversation: the hand-offs made so far (capped by the squad's `max_handoffs`). */
    squad_handoffs: { type: Number, default: 0 },
    status: { type: String, enum: ['open', 'needs_person'], required: true },
    handoff_reason: { type: String, default: null },
    /** The staff user (`usr_…`) who took the conversation over in the console; null otherwise. */
    taken_by: { type: String, default: null },
    /** The change window of its last status change (`changeWindow`): the console's stream polls it. */
    window: { type: String },
    /** Received time of the customer's latest message (ms): the WhatsApp window runs from it. */
    last_inbound_ms: { type: Number, default: null },
    last_message_ms: { type: Number, default: null },
    contact_id: { type: String, default: null },
    /** Web channel: the highest entry of the conversation's log (`conversation_log`), 0 before any. */
    log_seq: { type: Number, default: 0 },
    created: { type: Number, required: true },
  },
  base,
);
conversationSchema.index({ key: 1 }, { unique: true });
conversationSchema.index({ org_id: 1, livemode: 1, _id: -1 });
// GET /v1/conversations?status=…, ?channel=…, ?customer_number=… (the console's inbox: the conversations
// waiting for a person, of one channel), newest first from the first match: without the filter's field in
// the index the embedded store would walk every conversation of the tenant to find a rare status.
conversationSchema.index({ org_id: 1, livemode: 1, status: 1, _id: -1 });
conversationSchema.index({ org_id: 1, livemode: 1, status: 1, channel: 1, _id: -1 });
conversationSchema.index({ org_id: 1, livemode: 1, channel: 1, _id: -1 });
conversationSchema.index({ org_id: 1, livemode: 1, customer_number: 1, _id: -1 });
/** The console's stream (src/services/console-changes.ts): conversations changed in a change window. */
conversationSchema.index({ window: 1 });
export const Conversation = mongoose.model('Conversation', conversationSchema, 'conversations');
export type ConversationDoc = InferSchemaType<typeof conversationSchema>;

const messageSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    conversation_id: { type: String, required: true },
    channel: { type: String, enum: CHANNELS, required: true },
    direction: { type: String, enum: ['inbound', 'outbound'], required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    text: { type: String, required: true },
    /** `{name, language, parameters, contentSid}` as JSON, or null for free text. */
    template_json: { type: String, default: null },
    /**
     * The tool calls (src/shared/conversations.ts `ToolCallEntry[]`) as JSON, null: none: of an assistant reply, those
     * made before it; of a customer message, those of a turn that answered it with no text after them.
     */
    tool_calls_json: { type: String, default: null },
    author: { type: String, enum: ['customer', 'assistant', 'person', 'api', 'handoff'], required: true },
    /** An assistant reply of a squad's conversation: the member's agent that wrote it and its version; null otherwise. */
    agent_id: { type: String, default: null },
    agent_version: { type: Number, default: null },
    /** A `handoff` entry: `{from, to, context, summary?}` as JSON; null otherwise. */
    handoff_json: { type: String, default: null },
    /** A `person` reply written in the console: the staff user (`usr_…`); null otherwise. */
    user_id: { type: String, default: null },
    /** The change window of its creation or last status change (`changeWindow`): the console's stream polls it. */
    window: { type: String },
    /** `recorded`: a `handoff` entry (written in the conversation, never sent). */
    status: {
      type: String,
      enum: ['queued', 'sent', 'delivered', 'read', 'failed', 'received', 'recorded'],
      required: true,
    },
    error_code: { type: String, default: null },
    error_message: { type: String, default: null },
    /** Unique: `twilio:<MessageSid>` for a live inbound message, `msg:<id>` otherwise. */
    dedupe_key: { type: String, required: true },
    /** The provider's id (Twilio `SM…`/`MM…`), once known. */
    provider_sid: { type: String, default: null },
    /** Inbound: an opt-out or opt-in word (src/shared/conversations.ts `keywordOf`), else null. */
    keyword: { type: String, default: null },
    /** Inbound: when the customer's message was received (ms). */
    received_ms: { type: Number, default: null },
    /** Outbound: when the provider request was first attempted (ms); set before the request. */
    send_attempted_ms: { type: Number, default: null },
    /** Event ids fixed at creation, so a retried write emits the same events. */
    event_ids: {
      received: { type: String, default: null },
      sent: { type: String, default: null },
      delivered: { type: String, default: null },
      failed: { type: String, default: null },
    },
    /** What was replaced in `text` (and the template's parameters, the tool calls) before it was stored, JSON `{card: n, …}`; null: nothing. */
    redaction_json: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
messageSchema.index({ dedupe_key: 1 }, { unique: true });
messageSchema.index({ conversation_id: 1, _id: -1 });
/**
 * A page of a conversation's messages (`GET /v1/conversations/{id}/messages`: `{conversation_id, org_id,
 * livemode}`, newest first). Three equality keys, so that the embedded store, which takes the index with
 * the longest prefix of the filter's equalities, picks it over the tenant's retention index below (two).
 */
messageSchema.index({ conversation_id: 1, org_id: 1, livemode: 1, _id: -1 });
/** The customer's latest inbound message (src/services/conversations.ts `customerState`). */
messageSchema.index({ conversation_id: 1, direction: 1, received_ms: -1 });
messageSchema.index({ provider_sid: 1 });
/** The console's stream (src/services/console-changes.ts): messages stored or changed in a change window. */
messageSchema.index({ window: 1 });
/**
 * Retention: a tenant's messages by age (src/services/retention.ts), led by the tenant's equalities, so
 * that the hourly sweep reads one tenant's messages through the index on either store, never the whole
 * table (an index led by the `created` range is no use to the embedded store, which pushes down
 * equalities only). A conversation's page has an index with a longer equality prefix (above).
 */
messageSchema.index({ org_id: 1, livemode: 1, created: 1 });
export const Message = mongoose.model('Message', messageSchema, 'messages');
export type MessageDoc = InferSchemaType<typeof messageSchema>;

/**
 * The log of a web conversation: entry `seq` (1, 2, …, no gaps) names the `seq`-th message stored, in the
 * order the conversation's workflow stored them (its one work lane). `_id` = `<conversation id>:<seq, 10
 * digits>` (src/shared/conversations.ts `conversationLogId`), so the widget's stream reads the next entry
 * by `_id` alone. Written only by the workflow's activity, insert-if-absent (a retry writes the same
 * entry); never changed.
 *
 * `window` is the change marker the API's one poller per process reads (src/services/widget-streams.ts):
 * the `CHANGE_WINDOW_MS` window of `created_ms` as a string (`changeWindow`), indexed, so "which
 * conversations changed lately" is an equality lookup on the index that reads only the entries of the
 * last window or two, never the log of every conversation.
 */
const conversationLogSchema = new Schema(
  {
    _id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    seq: { type: Number, required: true },
    message_id: { type: String, required: true },
    created_ms: { type: Number, required: true },
    /** `changeWindow(created_ms)`; absent on entries written before it existed (no stream waits on those). */
    window: { type: String },
  },
  base,
);
conversationLogSchema.index({ window: 1 });
export const ConversationLogEntry = mongoose.model('ConversationLogEntry', conversationLogSchema, 'conversation_log');
export type ConversationLogEntryDoc = InferSchemaType<typeof conversationLogSchema>;

/** Width of a change window of the conversation log (ms): entries of the same 5 s share a `window`. */
export const CHANGE_WINDOW_MS = 5_000;

/**
 * The change window of a log entry written at `ms` (milliseconds since the epoch): `w<n>` with
 * n = floor(ms / CHANGE_WINDOW_MS). A string, because the embedded store's index serves string equality.
 */
export const changeWindow = (ms: number) => `w${Math.floor(ms / CHANGE_WINDOW_MS)}`;

const phoneNumberSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Unique: `live:<number>` (a live number routes inbound messages to one organization) or `test:<org>:<number>`. */
    route_key: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    number: { type: String, required: true },
    channels: { type: [String], required: true },
    agent_id: { type: String, default: null },
    /** A squad answering it instead of `agent_id` (`sqd_…`): inbound calls and new conversations; null: none. */
    squad_id: { type: String, default: null },
    /** Where an inbound call asks which agent answers (HTTPS, webhook address rules), or null. */
    inbound_webhook_url: { type: String, default: null },
    /** Its signing secret (`whsec_…`), sealed (src/secrets.ts); shown once, when the URL is set. */
    inbound_webhook_secret: { type: String, default: null },
    /** How long an inbound call waits for the webhook's answer, ms (null: the default, 3,000). */
    inbound_webhook_timeout_ms: { type: Number, default: null },
    /** Where an inbound call goes when every call slot is taken (E.164, `sip:`), or null: "all lines are busy". */
    overflow_to: { type: String, default: null },
    /**
     * How the number came to the organization (src/shared/phone-numbers.ts `NUMBER_SOURCES`); null on
     * rows stored before the service checked ownership (read as `connected`).
     */
    source: { type: String, default: null },
    /** Twilio's IncomingPhoneNumber SID (`PN…`) of a live number bought or imported; null otherwise. */
    twilio_sid: { type: String, default: null },
    /** The SIP trunk (`trk_…`, src/models/sip-trunks.ts) that carries a `sip_trunk` number; null otherwise. */
    sip_trunk_id: { type: String, default: null },
    /**
     * The Twilio account holding a live number bought or imported (`AC…`: the organization's subaccount
     * or its connected own account), recorded when it was provisioned; null on other rows (simulated
     * numbers, and numbers stored before numbers needed proof, which live in the platform's account).
     */
    account_sid: { type: String, default: null },
    /**
     * True while a live number is being bought or imported: the row holds the number's `route_key` for
     * this organization (no other can take it meanwhile) but is no number of it yet (not listed, no caller
     * ID); deleted if Twilio refuses.
     */
    pending: { type: Boolean, default: false },
    /** Set right before the purchase is asked of Twilio: a number found in the account afterwards is one we bought. */
    buying: { type: Boolean, default: false },
    /**
     * An imported number's Voice/SMS URLs and status callback before the service set its own (JSON
     * `{voiceUrl, smsUrl, statusCallback}`), put back when it is detached; null otherwise.
     */
    previous_urls_json: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
phoneNumberSchema.index({ route_key: 1 }, { unique: true });
phoneNumberSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const PhoneNumber = mongoose.model('PhoneNumber', phoneNumberSchema, 'phone_numbers');
export type PhoneNumberDoc = InferSchemaType<typeof phoneNumberSchema>;

const messageTemplateSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Unique: `<org>:<test|live>:<name>:<language>`. */
    key: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, required: true },
    language: { type: String, required: true },
    body: { type: String, required: true },
    /** Number of placeholders `{{1}}`…`{{n}}` in `body`. */
    placeholders: { type: Number, required: true },
    content_sid: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
messageTemplateSchema.index({ key: 1 }, { unique: true });
messageTemplateSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const MessageTemplate = mongoose.model('MessageTemplate', messageTemplateSchema, 'message_templates');
export type MessageTemplateDoc = InferSchemaType<typeof messageTemplateSchema>;

/** Which conversation a message belongs to. */
export interface MessageConversation {
  conversationId: string;
  orgId: string;
  livemode: boolean;
  channel: Channel;
}

/** The row of an outbound message, `queued`, as the API and the send activity both insert it (insert-if-absent). */
export function newOutboundDocument(c: MessageConversation, m: OutboundMessageInput): WithId<MessageDoc> {
  return {
    _id: m.messageId,
    org_id: c.orgId,
    livemode: c.livemode,
    conversation_id: c.conversationId,
    channel: c.channel,
    direction: 'outbound',
    from: m.from,
    to: m.to,
    text: m.text,
    template_json: m.template ? JSON.stringify(m.template) : null,
    tool_calls_json: m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null,
    author: m.author,
    user_id: m.userId ?? null,
    ...(m.agent ? { agent_id: m.agent.id, agent_version: m.agent.version } : {}),
    window: changeWindow(m.createdMs),
    status: 'queued',
    error_code: null,
    error_message: null,
    dedupe_key: `msg:${m.messageId}`,
    provider_sid: null,
    keyword: null,
    received_ms: null,
    send_attempted_ms: null,
    event_ids: { received: null, sent: m.eventIds.sent, delivered: m.eventIds.delivered, failed: m.eventIds.failed },
    created: Math.floor(m.createdMs / 1000),
  };
}

/** The row of an inbound message (`received`, author `customer`); `created` is when it was received. */
export function newInboundDocument(
  c: MessageConversation,
  m: InboundMessageInput,
  keyword: Keyword | null,
  receivedEventId: string,
): WithId<MessageDoc> {
  return {
    _id: m.messageId,
    org_id: c.orgId,
    livemode: c.livemode,
    conversation_id: c.conversationId,
    channel: c.channel,
    direction: 'inbound',
    from: m.from,
    to: m.to,
    text: m.text,
    template_json: null,
    author: 'customer',
    user_id: null,
    window: changeWindow(m.receivedMs),
    status: 'received',
    error_code: null,
    error_message: null,
    dedupe_key: m.dedupeKey,
    provider_sid: m.providerSid,
    keyword,
    received_ms: m.receivedMs,
    send_attempted_ms: null,
    event_ids: { received: receivedEventId, sent: null, delivered: null, failed: null },
    created: Math.floor(m.receivedMs / 1000),
  };
}

/** The unique key of a template by name and language. */
export const templateKey = (orgId: string, livemode: boolean, name: string, language: string) =>
  `${orgId}:${livemode ? 'live' : 'test'}:${name}:${language}`;
/** The unique routing key of a phone number. */
export const numberRouteKey = (orgId: string, livemode: boolean, number: string) =>
  livemode ? `live:${number}` : `test:${orgId}:${number}`;

/** The `conversation` object as the API answers it (the OpenAPI component `Conversation`). */
export const ConversationObject = apiObject(
  'Conversation',
  'A WhatsApp, SMS or web-widget thread between a customer (a number, or `user:`/`visitor:` for the widget) and a service number (`widget` for the web).',
  z.object({
    id: z.string(),
    object: z.literal('conversation'),
    livemode: z.boolean(),
    channel: z.enum(CHANNELS),
    customer_number: z.string(),
    service_number: z.string(),
    agent_id: z.string().nullable(),
    agent_version: z
      .number()
      .int()
      .nullable()
      .describe(
        'The version of `agent_id` the conversation runs, fixed on its first turn with that agent; null before.',
      ),
    squad_id: z
      .string()
      .nullable()
      .describe(
        "The squad answering it (its phone number's or the widget's `squad_id`): `agent_id` is the member's agent answering now; null: one agent.",
      ),
    squad_member: z
      .string()
      .nullable()
      .describe(
        "A squad's conversation: the member answering now (`conversation.handed_off` tells each change); null: no squad.",
      ),
    status: z.enum(['open', 'needs_person']),
    handoff_reason: z.string().nullable(),
    taken_by: z
      .string()
      .nullable()
      .describe('The staff user (`usr_…`) who took the conversation over in the console; null otherwise.'),
    window_expires_at: unix.nullable(),
    last_message_at: unix.nullable(),
    contact_id: z.string().nullable(),
    cost: CostObject.nullable()
      .optional()
      .describe(
        'What its assistant\'s model requests cost so far (`GET /v1/conversations/{id}` only: absent in lists and events): a conversation stays open, so each turn\'s cost is recorded when its answer comes, at the price table then in force (README "Costs"); null when none was recorded. Its analyses are priced apart.',
      ),
    created: unix,
  }),
);
export type ConversationObject = z.output<typeof ConversationObject>;

/**
 * The conversation object. `window_expires_at` (WhatsApp only): the unix second at which free text stops
 * being allowed, or null once it has passed (or before the customer ever wrote, and always for SMS).
 */
export function renderConversation(doc: WithId<ConversationDoc>, nowMs = Date.now()): ConversationObject {
  const closes = doc.last_inbound_ms != null ? windowClosesAt(doc.last_inbound_ms) : null;
  return {
    id: doc._id,
    object: 'conversation' as const,
    livemode: doc.livemode,
    channel: doc.channel as Channel,
    customer_number: doc.customer_number,
    service_number: doc.service_number,
    agent_id: doc.agent_id ?? null,
    agent_version: doc.agent_version != null && doc.agent_version_of === doc.agent_id ? doc.agent_version : null,
    squad_id: doc.squad_id ?? null,
    squad_member: doc.squad_member ?? null,
    status: doc.status as ConversationStatus,
    handoff_reason: doc.handoff_reason ?? null,
    taken_by: doc.taken_by ?? null,
    window_expires_at:
      doc.channel === 'whatsapp' && closes !== null && Math.floor(nowMs / 1000) < closes ? closes : null,
    last_message_at: seconds(doc.last_message_ms),
    contact_id: doc.contact_id ?? null,
    created: doc.created,
  };
}

/** The `message` object as the API answers it (the OpenAPI component `Message`). */
export const MessageObject = apiObject(
  'Message',
  'A WhatsApp, SMS or web-widget message, received or sent.',
  z.object({
    id: z.string(),
    object: z.literal('message'),
    livemode: z.boolean(),
    conversation_id: z.string(),
    channel: z.enum(CHANNELS),
    direction: z.enum(['inbound', 'outbound']),
    from: z.string(),
    to: z.string(),
    text: z.string(),
    template: z.object({ name: z.string(), language: z.string(), parameters: z.array(z.string()) }).nullable(),
    author: z
      .enum(['customer', 'assistant', 'person', 'api', 'handoff'])
      .describe(
        '`handoff`: a squad member handed the conversation to another (`handoff`; never sent, `status` `recorded`).',
      ),
    agent_id: z
      .string()
      .optional()
      .describe("An assistant reply of a squad's conversation: the member's agent that wrote it."),
    agent_version: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("An assistant reply of a squad's conversation: the version of `agent_id` that wrote it."),
    handoff: z
      .object({
        from: z.string().describe('The member that handed the conversation over.'),
        to: z.string().describe('The member answering from then on.'),
        context: z.string().describe('What it was given: `all`, `last:N` or `summary`.'),
        summary: z.string().optional().describe('A `summary` hand-off: the summary it was given.'),
      })
      .optional()
      .describe('A `handoff` entry: who handed the conversation to whom, with what context.'),
    user_id: z
      .string()
      .nullable()
      .describe('A `person` reply written in the staff console: the staff user (`usr_…`); null otherwise.'),
    status: z.string().meta({ examples: ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] }),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    tool_calls: z
      .array(z.object(toolEntryFields))
      .optional()
      .describe(
        'An assistant reply: the tool calls the assistant made before writing it, in order. A customer message the assistant answered with tool calls and no text after them (a hand-over, say): those tool calls.',
      ),
    ...redactionField,
    created: unix,
  }),
);
export type MessageObject = z.output<typeof MessageObject>;

/** A `handoff` message's `handoff`. */
type MessageHandoff = { from: string; to: string; context: string; summary?: string };

/** The message object. `template` is `{name, language, parameters}` or null; `error` `{code, message}` or null. */
export function renderMessage(doc: WithId<MessageDoc>): MessageObject {
  const template = doc.template_json ? (JSON.parse(doc.template_json) as TemplateRef) : null;
  return {
    id: doc._id,
    object: 'message' as const,
    livemode: doc.livemode,
    conversation_id: doc.conversation_id,
    channel: doc.channel as Channel,
    direction: doc.direction as 'inbound' | 'outbound',
    from: doc.from,
    to: doc.to,
    text: doc.text,
    template: template ? { name: template.name, language: template.language, parameters: template.parameters } : null,
    author: doc.author,
    ...(doc.agent_id ? { agent_id: doc.agent_id, agent_version: doc.agent_version ?? null } : {}),
    ...(doc.handoff_json ? { handoff: JSON.parse(doc.handoff_json) as MessageHandoff } : {}),
    user_id: doc.user_id ?? null,
    status: doc.status,
    error: doc.error_code ? { code: doc.error_code, message: doc.error_message ?? '' } : null,
    ...(doc.tool_calls_json
      ? {
          tool_calls: (JSON.parse(doc.tool_calls_json) as ToolCallEntry[]).map((c) =>
            toolEntry({
              name: c.name,
              argumentsJson: c.arguments,
              text: c.text,
              ok: c.ok,
              status: c.status,
              durationMs: c.durationMs,
              key: c.toolCallId,
            }),
          ),
        }
      : {}),
    ...renderRedaction(doc.redaction_json),
    created: doc.created,
  };
}

/** The `phone_number` object as the API answers it (the OpenAPI component `PhoneNumber`). */
export const PhoneNumberObject = apiObject(
  'PhoneNumber',
  'A service number connected for messaging, and the agent that answers it.',
  z.object({
    id: z.string(),
    object: z.literal('phone_number'),
    livemode: z.boolean(),
    number: z.string(),
    channels: z.array(z.enum(NUMBER_CHANNELS)),
    agent_id: z.string().nullable(),
    squad_id: z
      .string()
      .nullable()
      .describe(
        'The squad answering instead of `agent_id`: inbound calls start as squad calls, new conversations are answered by its members; null: none.',
      ),
    inbound_webhook_url: z
      .string()
      .nullable()
      .describe('Asked, for each inbound call, which agent answers it (`call.inbound`); null: `agent_id` answers.'),
    inbound_webhook_secret: z
      .string()
      .optional()
      .describe(
        'The signing secret of `inbound_webhook_url` requests (`Svc-Signature`); only in the response that set the URL.',
      ),
    inbound_webhook_timeout_ms: z.number().int().describe("How long an inbound call waits for the webhook's answer."),
    overflow_to: z
      .string()
      .nullable()
      .describe(
        'Where inbound calls go while every call slot is taken; null: the caller hears that all lines are busy.',
      ),
    source: z
      .enum(NUMBER_SOURCES)
      .describe(
        "How it came to the organization: `bought` through the service (released at Twilio when deleted), `imported` from the organization's Twilio account (only detached when deleted), `simulated` (test mode), `connected` (stored before numbers needed proof), `sip_trunk` (carried by one of its SIP trunks; deleting it removes it from the trunk).",
      ),
    sip_trunk_id: z
      .string()
      .nullable()
      .describe('The SIP trunk that carries it (`source: "sip_trunk"`); null otherwise.'),
    created: unix,
  }),
);

/** The phone number object; `newSecret` (just made) is shown once, in the response that set the webhook URL. */
export function renderPhoneNumber(doc: WithId<PhoneNumberDoc>, newSecret?: string): z.output<typeof PhoneNumberObject> {
  return {
    id: doc._id,
    object: 'phone_number' as const,
    livemode: doc.livemode,
    number: doc.number,
    channels: doc.channels as NumberChannel[], // written by the API from NUMBER_CHANNELS only
    agent_id: doc.agent_id ?? null,
    squad_id: doc.squad_id ?? null,
    inbound_webhook_url: doc.inbound_webhook_url ?? null,
    ...(newSecret ? { inbound_webhook_secret: newSecret } : {}),
    inbound_webhook_timeout_ms: doc.inbound_webhook_timeout_ms ?? DEFAULT_INBOUND_WEBHOOK_TIMEOUT_MS,
    overflow_to: doc.overflow_to ?? null,
    source: (doc.source as NumberSource | null) ?? (doc.livemode ? 'connected' : 'simulated'),
    sip_trunk_id: doc.sip_trunk_id ?? null,
    created: doc.created,
  };
}

/** Default of a number's `inbound_webhook_timeout_ms`. */
export const DEFAULT_INBOUND_WEBHOOK_TIMEOUT_MS = 3_000;

/** The `message_template` object as the API answers it (the OpenAPI component `MessageTemplate`). */
export const MessageTemplateObject = apiObject(
  'MessageTemplate',
  'An approved WhatsApp template, to message a customer outside the 24-hour window.',
  z.object({
    id: z.string(),
    object: z.literal('message_template'),
    livemode: z.boolean(),
    name: z.string(),
    language: z.string(),
    body: z.string(),
    content_sid: z.string().nullable(),
    created: unix,
  }),
);

/** The message template object. */
export function renderMessageTemplate(doc: WithId<MessageTemplateDoc>): z.output<typeof MessageTemplateObject> {
  return {
    id: doc._id,
    object: 'message_template' as const,
    livemode: doc.livemode,
    name: doc.name,
    language: doc.language,
    body: doc.body,
    content_sid: doc.content_sid ?? null,
    created: doc.created,
  };
}
