/**
 * The conversations domain's contract (WhatsApp, SMS and the widget's web chat; spec section 4 "Messages
 * and conversations", "Widget"):
 * `conversationWorkflow`'s type name, input, signals, updates and query, its workflow id, the message
 * status order, the 24-hour window and the opt-out keywords. Imported by the API, the activities and
 * the workflow bundle alike; imports only `@temporalio/workflow` definition helpers and src/shared.
 *
 * One `conversationWorkflow` runs per organization, mode, channel and customer number (DESIGN.md
 * sections 1 and 10): every inbound message, every outbound message and every provider status callback
 * of that conversation goes through it, in order, so the conversation and its messages have one writer.
 */
import type { ToolCallRecord } from './tools';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ChatMessage } from './assistant';

/** Messaging channels (spec section 4, `POST /v1/messages` `channel`): the ones a provider carries. */
export const MESSAGING_CHANNELS = ['whatsapp', 'sms'] as const;
export type MessagingChannel = (typeof MESSAGING_CHANNELS)[number];
/**
 * Conversation channels: the messaging channels, and `web`, the browser widget's chat (spec section 4
 * "Widget"), whose visitor is the "customer" and whose messages are delivered by the widget's stream.
 */
export const CHANNELS = [...MESSAGING_CHANNELS, 'web'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The web channel's "service number": the widget itself. */
export const WIDGET_SERVICE_ADDRESS = 'widget';

/**
 * The customer address of a widget conversation: `user:<user_id>` for a verified visitor (the same
 * conversation in every browser), else `visitor:<visitor_id>` (this browser's own conversation).
 */
export function widgetCustomerAddress(visitor: { userId: string | null; visitorId: string }): string {
  return visitor.userId !== null ? `user:${visitor.userId}` : `visitor:${visitor.visitorId}`;
}

/**
 * The `_id` of entry `seq` (1, 2, …) of a conversation's log: the order in which its messages were stored,
 * which the widget's stream replays (`id:` of each server-sent event). Read by `_id` alone, a point lookup
 * on every store (src/models/store.ts `findByIds`).
 */
export const conversationLogId = (conversationId: string, seq: number) =>
  `${conversationId}:${String(seq).padStart(10, '0')}`;

/** Channels a phone number may be connected for (`POST /v1/phone_numbers` `channels`). */
export const NUMBER_CHANNELS = ['voice', 'sms', 'whatsapp'] as const;
export type NumberChannel = (typeof NUMBER_CHANNELS)[number];

/** Who wrote a message: the customer, the assistant, a person of the organization (during a hand-over), or an API client. */
export type MessageAuthor = 'customer' | 'assistant' | 'person' | 'api';

/** Outbound statuses, in the only order they may move: queued < sent < delivered < read; `failed` is terminal. */
export type OutboundStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
/** A message's status: an outbound status, or `received` for an inbound message. */
export type MessageStatus = OutboundStatus | 'received';

/** Rank of each outbound status that is not `failed`: a status only ever moves to a higher rank. */
export const STATUS_RANK: Record<Exclude<OutboundStatus, 'failed'>, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
};

/**
 * The status a message moves to when `next` is reported while it is `current`, or null when the report
 * changes nothing (a late or repeated callback): forward by rank only; `failed` only from `queued` or
 * `sent` (a delivered message does not fail afterwards) and never left.
 */
export function nextStatus(current: OutboundStatus, next: OutboundStatus): OutboundStatus | null {
  if (current === 'failed') return null;
  if (next === 'failed') return STATUS_RANK[current] <= STATUS_RANK.sent ? 'failed' : null;
  return STATUS_RANK[next] > STATUS_RANK[current] ? next : null;
}

/** Conversation statuses: the assistant answers while `open`; a person has it while `needs_person`. */
export type ConversationStatus = 'open' | 'needs_person';

/** The WhatsApp customer-service window: 24 hours after the customer's last message (spec section 8). */
export const WHATSAPP_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Unix second at which the WhatsApp window closes after an inbound message received at `receivedMs`.
 * The window is counted in whole seconds: a message received at second `r` may be answered with free
 * text up to second `r + 86399` (23:59:59 later); from `r + 86400` (24:00:00) the window is closed.
 */
export function windowClosesAt(receivedMs: number): number {
  return Math.floor(receivedMs / 1000) + WHATSAPP_WINDOW_SECONDS;
}

/** True when free text may be sent at `nowMs` after the customer's last inbound message at `lastInboundMs` (null: never wrote). */
export function windowOpen(lastInboundMs: number | null, nowMs: number): boolean {
  return lastInboundMs !== null && Math.floor(nowMs / 1000) < windowClosesAt(lastInboundMs);
}

/**
 * The one check of the WhatsApp 24-hour window (spec section 8), for everyone who needs it: `POST
 * /v1/messages` (422 `whatsapp_window_closed`), the send activity (the message fails the same way) and the
 * conversation's workflow (it does not answer a message whose window has closed). True when free text
 * (not a template) may be sent on `channel` at `atMs` (ms): always on SMS and the web chat; on WhatsApp
 * only while the window after the customer's last message, received at `lastInboundMs` (ms; null: the
 * customer never wrote), is open (`windowOpen`).
 */
export function freeTextAllowed(channel: Channel, lastInboundMs: number | null, atMs: number): boolean {
  return channel !== 'whatsapp' || windowOpen(lastInboundMs, atMs);
}

/** What an inbound message means beyond its text: a standard opt-out or opt-in word, or nothing. */
export type Keyword = 'opt_out' | 'opt_in';

/**
 * Opt-out and opt-in words per channel, matched against the whole message (trimmed, any case); the web
 * chat has none (a visitor who leaves closes the page). SMS uses
 * the industry-standard set Twilio applies to long codes (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT /
 * START, UNSTOP; https://help.twilio.com/articles/223134027); WhatsApp has no carrier keywords, so only
 * the unambiguous STOP / UNSUBSCRIBE / START count there ("cancel" is a normal request in a chat).
 */
export const KEYWORDS: Record<Channel, Record<Keyword, readonly string[]>> = {
  sms: { opt_out: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'], opt_in: ['START', 'UNSTOP'] },
  whatsapp: { opt_out: ['STOP', 'UNSUBSCRIBE'], opt_in: ['START'] },
  web: { opt_out: [], opt_in: [] },
};

/** The keyword an inbound text is on `channel`, or null. */
export function keywordOf(channel: Channel, text: string): Keyword | null {
  const word = text
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  if (KEYWORDS[channel].opt_out.includes(word)) return 'opt_out';
  if (KEYWORDS[channel].opt_in.includes(word)) return 'opt_in';
  return null;
}

/**
 * How a message reads in the assistant's chat history: the customer's as the user, the assistant's as
 * its own, a person's or an API client's as a system note (the assistant did not write them), a squad's
 * `handoff` entry as the system note it is.
 */
export function chatMessageOf(author: MessageAuthor | string, text: string): ChatMessage {
  if (author === 'handoff') return { role: 'system', content: text };
  if (author === 'customer') return { role: 'user', content: text };
  if (author === 'assistant') return { role: 'assistant', content: text };
  return {
    role: 'system',
    content: `${author === 'person' ? 'A person of the organization' : 'The organization'} wrote to the customer: ${JSON.stringify(text)}`,
  };
}

/** Test mode's simulated service number (Twilio's magic test number): every organization has it. */
export const SIMULATED_NUMBER = '+15005550006';

/** Workflow type name of a conversation (recorded histories depend on it). */
export const CONVERSATION_WORKFLOW = 'conversationWorkflow';

/**
 * The workflow id of the conversation of `orgId`, mode, `channel` and `customerRef`:
 * `conv:<org>:<test|live>:<channel>:<ref>`. Deterministic, so every starter reaches the same run. The ref is
 * a keyed hash of the customer's number (`n_…`, src/services/conversations.ts `conversationWorkflowIds`:
 * no number in plain text at the Temporal server), or the E.164 number itself for
 * conversations started before.
 */
export function conversationWorkflowId(
  orgId: string,
  livemode: boolean,
  channel: Channel,
  customerRef: string,
): string {
  return `conv:${orgId}:${livemode ? 'live' : 'test'}:${channel}:${customerRef}`;
}

/** An inbound message as the webhook (or the test helper) hands it to the workflow, not yet stored. */
export interface InboundMessageInput {
  /** The id proposed for the message (`msg_…`); a duplicate keeps the first message's id. */
  messageId: string;
  /**
   * What makes two deliveries the same message: `twilio:<MessageSid>` in live mode, `msg:<message id>`
   * for the test helper (whose retries are deduplicated by Idempotency-Key and carry the same id).
   */
  dedupeKey: string;
  from: string;
  to: string;
  text: string;
  /** When the customer's message was received (ms since the epoch); the test helper may set it in the past. */
  receivedMs: number;
  providerSid: string | null;
}

/** The outcome of storing an inbound message: its id, and whether it was a duplicate (nothing done). */
export interface InboundResult {
  messageId: string;
  duplicate: boolean;
}

/** A WhatsApp template as sent: registered or (test mode) rendered from its name and parameters. */
export interface TemplateRef {
  name: string;
  language: string;
  parameters: string[];
  /** Twilio Content API SID (`HX…`) of a registered template; null in test mode for an unregistered one. */
  contentSid: string | null;
}

/** Event ids chosen once per outbound message, so every retry emits the same events. */
export interface MessageEventIds {
  sent: string;
  delivered: string;
  failed: string;
}

/** An outbound message to send: the API's (author `api`/`person`) or the assistant's. */
export interface OutboundMessageInput {
  messageId: string;
  author: Exclude<MessageAuthor, 'customer'>;
  from: string;
  to: string;
  /** The text sent (for a template: its rendered body, as stored and shown). */
  text: string;
  template: TemplateRef | null;
  /** Creation time (ms since the epoch). */
  createdMs: number;
  eventIds: MessageEventIds;
  /** A `person` reply written with a console session: the staff user (`usr_…`). */
  userId?: string | null;
  /** `POST /v1/messages` `agent_id`: the assistant that answers this conversation from now on. */
  agentId?: string | null;
  /**
   * `POST /v1/messages` `squad_id`: the squad that answers this conversation from now on, starting with its
   * `start` member (whose agent `agentId` names); a conversation that has this squad already keeps its member.
   */
  squad?: { id: string; start: string };
  /** An assistant reply: the tool calls the assistant made before it; absent: none. */
  toolCalls?: ToolCallEntry[];
  /** An assistant reply of a squad's conversation: the member's agent that wrote it and its version. */
  agent?: { id: string; version: number | null };
}

/**
 * A squad's conversation (src/shared/squads.ts): the squad, the member answering now and the hand-offs
 * made since the conversation started with it (capped by the squad's `max_handoffs`).
 */
export interface ConversationSquadState {
  id: string;
  current: string;
  handoffs: number;
}

/** A hand-off between two members of a squad's conversation, as its `handoff` message records it. */
export interface ConversationHandoffEntry {
  /** The `handoff` message's id and the `conversation.handed_off` event's, chosen by the workflow. */
  messageId: string;
  eventId: string;
  from: string;
  to: string;
  /** The context policy as shown (`all`, `last:3`, `summary`): src/shared/squads.ts `contextLabel`. */
  context: string;
  /** A `summary` hand-off: what the model wrote and the next member was given. */
  summary?: string;
  /** The conversation's hand-offs counting this one. */
  handoffs: number;
  createdMs: number;
}

/** A tool call as a message records it: the model's call, what the model was given back, and its record. */
export interface ToolCallEntry extends ToolCallRecord {
  name: string;
  /** The model's arguments, its JSON text. */
  arguments: string;
  /** The result (or error) the model was given. */
  text: string;
}

/** A provider's status report for one outbound message (Twilio status callback). */
export interface ProviderStatusInput {
  messageId: string;
  status: OutboundStatus;
  providerSid: string | null;
  /** Provider error code and message for `failed` (Twilio `ErrorCode`, e.g. 63016). */
  errorCode: string | null;
  errorMessage: string | null;
}

/** What carries over a continue-as-new (state kept small: the chat history is bounded). */
export interface CarriedConversationState {
  status: ConversationStatus;
  handoffReason: string | null;
  optedOut: boolean;
  agentId: string | null;
  /** The assistant's memory of the conversation (without the system prompt), newest last, bounded. */
  history: ChatMessage[];
  /** Ids of the latest messages already handled (duplicates of them are ignored). */
  seen: string[];
  /** Inbound messages stored but not yet answered. */
  unanswered: string[];
  /** Work not yet done (normally empty: the workflow drains it before continuing as new). */
  pending: ConversationWork[];
  /** Web channel: the last entry of the conversation's log (absent in runs recorded before the widget). */
  logSeq?: number;
  /** The staff user who took the conversation over (absent: nobody in particular). */
  takenBy?: string | null;
  /** A squad's conversation: its squad and member answering (absent: one agent answers). */
  squad?: ConversationSquadState;
}

/** One item of the conversation's ordered work queue. */
export type ConversationWork =
  | { kind: 'inbound'; message: InboundMessageInput }
  | { kind: 'outbound'; message: OutboundMessageInput }
  | { kind: 'status'; report: ProviderStatusInput }
  | {
      kind: 'conversation';
      status: ConversationStatus;
      reason: string | null;
      eventId: string | null;
      ticket: number;
      /** The staff user taking it over (`handoff` from the console); absent or null otherwise. */
      takenBy?: string | null;
    }
  /**
   * Tool calls of an assistant turn that no stored reply carries (no text after them, or the turn's
   * replies were dropped), recorded on the customer's message the turn answered (`messageId`).
   */
  | { kind: 'toolCalls'; messageId: string; toolCalls: ToolCallEntry[] }
  /** A squad member handed the conversation to another: its `handoff` message and `conversation.handed_off`. */
  | { kind: 'handoff'; entry: ConversationHandoffEntry };

/** Argument of `conversationWorkflow`: the conversation's identity, fixed at its creation. */
export interface ConversationWorkflowInput {
  conversationId: string;
  orgId: string;
  livemode: boolean;
  channel: Channel;
  customerNumber: string;
  serviceNumber: string;
  /** The assistant answering (null: none yet; the conversation is handed to a person). */
  agentId: string | null;
  /** Present after a continue-as-new; absent on a first start (the state is then loaded from the store). */
  carried?: CarriedConversationState;
  /**
   * Continue as new once the history has this many events, besides whenever Temporal suggests it
   * (about 4,096 events); for tests and operators who want shorter runs. Starters leave it unset.
   */
  continueAsNewAtHistoryLength?: number;
}

/** What the `state` query returns. */
export interface ConversationState {
  status: ConversationStatus;
  optedOut: boolean;
  /** Work items waiting in the queue. */
  queued: number;
  /** Inbound messages waiting for the assistant. */
  unanswered: number;
}

/** A live webhook's inbound message: stored (deduplicated) and answered in order. */
export const inboundSignal = defineSignal<[InboundMessageInput]>('inbound');
/** The test helper's inbound message: like `inbound`, and resolves once the message is stored. */
export const receiveUpdate = defineUpdate<InboundResult, [InboundMessageInput]>('receive');
/** `POST /v1/messages`: send this message (a message id already handled is ignored). */
export const outboundSignal = defineSignal<[OutboundMessageInput]>('outbound');
/** A provider status callback for one of the conversation's outbound messages. */
export const providerStatusSignal = defineSignal<[ProviderStatusInput]>('providerStatus');
/**
 * `POST /v1/conversations/{id}/resume`: gives a handed-over conversation back to the assistant.
 * Resolves once the conversation is `open` again; `resumed` is false when it was not handed over.
 */
export const resumeUpdate = defineUpdate<{ resumed: boolean }, []>('resume');
/**
 * `POST /v1/conversations/{id}/handoff`: a person takes the conversation over, as the assistant's
 * `handoff_to_person` tool does; `takenBy` is the staff user (`usr_…`) taking it in the console, else null.
 * Resolves once `needs_person` (and `taken_by`) is written; `handedOver` is false when nothing changed (the
 * same person already had it).
 */
export const handoffUpdate = defineUpdate<{ handedOver: boolean }, [{ reason: string | null; takenBy: string | null }]>(
  'handoff',
);
export const conversationStateQuery = defineQuery<ConversationState>('state');

/** Signature of `conversationWorkflow`, for starters (no starter imports the workflow module). */
export type ConversationWorkflow = (input: ConversationWorkflowInput) => Promise<void>;
