/**
 * Conversation activities on our store: storing inbound messages (deduplicated by the provider's id),
 * moving an outbound message's status forward, the conversation's status (hand-over and resume), what
 * the assistant is given, and the state a fresh run starts from. Only the conversation's own
 * `conversationWorkflow` calls them, one at a time, as local activities (src/workflows/conversation-session.ts
 * `exclusive`),
 * so the conversation and its messages have one writer (DESIGN.md section 3). Each is idempotent: a retry
 * (or a re-run after a worker died) writes the same values and emits the same event ids (chosen by the
 * workflow, or fixed on the message row).
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { emitEvent } from '../services/events';
import { advanceStatus, customerState } from '../services/conversations';
import { findContact } from '../services/contacts';
import { clearMessagingOptOut, recordOptOut } from '../services/opt-outs';
import { redactConversationText, redactMessageRow, redactionJson, redactorFor } from '../services/redaction-policy';
import { addCounts, type RedactionCounts } from '../redaction';
import { agentSnapshot } from '../services/calls';
import { squadMemberTurn } from '../services/squads';
import type { SquadHandoff } from '../shared/squads';
import { messageUsage, recordUsage } from '../services/usage';
import { answeringAgent, findLiveAgent, type AgentDoc } from '../models/agents';
import { conversationAgent } from '../services/agent-versions';
import {
  Conversation,
  changeWindow,
  ConversationLogEntry,
  Message,
  newInboundDocument,
  newOutboundDocument,
  numberRouteKey,
  PhoneNumber,
  type MessageConversation,
  renderConversation,
  renderMessage,
  type MessageDoc,
} from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import { conversationHandovers, messageTransitions } from '../platform/metrics';
import type { ChatMessage } from '../shared/assistant';
import type { AgentSnapshot } from '../shared/calls';
import {
  chatMessageOf,
  conversationLogId,
  keywordOf,
  type Channel,
  type ConversationHandoffEntry,
  type ConversationSquadState,
  type ConversationStatus,
  type InboundMessageInput,
  type Keyword,
  type ProviderStatusInput,
  type ToolCallEntry,
} from '../shared/conversations';

/** Which conversation an activity works on. */
export type ConversationRef = MessageConversation;

export interface StoreInboundInput {
  conversation: ConversationRef;
  message: InboundMessageInput;
  /** The `message.received` event id, chosen by the workflow. */
  eventId: string;
}

export interface StoreInboundResult {
  /** The stored message's id: the proposed one, or the first delivery's for a duplicate. */
  messageId: string;
  /** True when a message with the same provider id was already stored (nothing was done). */
  duplicate: boolean;
  keyword: Keyword | null;
  receivedMs: number;
}

/**
 * Stores an inbound message, insert-first against the unique `dedupe_key` (the provider's MessageSid):
 * a second delivery of the same message finds the first one and reports `duplicate`. A new message
 * updates the conversation's last inbound time, counts in `svc_messages_total` (`received`), emits
 * `message.received` (data.object = the message, with its `conversation_id`), and a STOP or START word
 * updates the contact's opt-out of the channel (`recordKeyword`).
 */
export async function storeInbound(input: StoreInboundInput): Promise<StoreInboundResult> {
  const { conversation: c, message: m } = input;
  const keyword = keywordOf(c.channel, m.text);
  // Opt-out words are read from the raw text; the row is stored redacted when the organization says so.
  await insertIfAbsent(Message, await redactMessageRow(newInboundDocument(c, m, keyword, input.eventId)));
  const row = (await Message.findOne({ dedupe_key: m.dedupeKey }).lean()) as WithId<MessageDoc> | null;
  if (!row) throw new Error(`inbound message ${m.dedupeKey} missing after insert`);
  if (row._id !== m.messageId)
    return {
      messageId: row._id,
      duplicate: true,
      keyword: (row.keyword as Keyword | null) ?? null,
      receivedMs: row.received_ms ?? m.receivedMs,
    };

  const conv = await Conversation.findById(c.conversationId).lean();
  if (conv) {
    await Conversation.updateOne(
      { _id: c.conversationId },
      {
        $set: {
          last_inbound_ms: Math.max(conv.last_inbound_ms ?? 0, m.receivedMs),
          last_message_ms: Math.max(conv.last_message_ms ?? 0, m.receivedMs),
        },
      },
    );
  }
  await recordUsage(
    messageUsage({
      orgId: c.orgId,
      livemode: c.livemode,
      messageId: row._id,
      channel: c.channel,
      direction: 'inbound',
      template: false,
      occurredMs: m.receivedMs,
    }),
  );
  messageTransitions.inc({
    channel: c.channel,
    direction: 'inbound',
    status: 'received',
    mode: c.livemode ? 'live' : 'test',
  });
  await emitEvent(client(), {
    id: row.event_ids!.received!,
    orgId: c.orgId,
    livemode: c.livemode,
    type: 'message.received',
    createdMs: Date.now(),
    object: renderMessage(row),
  });
  await recordKeyword(c, m, keyword, row._id);
  return { messageId: row._id, duplicate: false, keyword, receivedMs: m.receivedMs };
}

/**
 * A STOP or START word on SMS or WhatsApp, on the contact's record too (src/services/opt-outs.ts): a STOP
 * records the messaging opt-out of that channel (the contact created if needed; `contact.opted_out` once,
 * keyed by the message id so a retried attempt emits the same event), a START clears it. Calls are not
 * blocked by a STOP (a messaging opt-out, as carriers treat it). The web chat has no keywords.
 */
async function recordKeyword(c: ConversationRef, m: InboundMessageInput, keyword: Keyword | null, messageId: string) {
  if (!keyword || c.channel === 'web') return;
  const tenant = { orgId: c.orgId, livemode: c.livemode };
  if (keyword === 'opt_in') return clearMessagingOptOut(tenant, m.from, c.channel);
  await recordOptOut(client(), {
    ...tenant,
    phone: m.from,
    channel: c.channel,
    source: c.channel === 'sms' ? 'sms_stop' : 'whatsapp_stop',
    callId: null,
    conversationId: c.conversationId,
    key: messageId,
    atMs: m.receivedMs,
  });
}

/**
 * Applies a provider status report to an outbound message (src/shared/conversations.ts `nextStatus`:
 * forward by rank only, whatever order the callbacks arrive in) and emits the events of what changed.
 * A report for an unknown message changes nothing.
 */
export async function applyMessageStatus(report: ProviderStatusInput): Promise<{ status: string | null }> {
  const row = (await Message.findById(report.messageId).lean()) as WithId<MessageDoc> | null;
  if (!row || row.direction !== 'outbound') return { status: null };
  const status = await advanceStatus(
    { temporal: client(), retry: isRetry() },
    row,
    report.status,
    report.errorCode ? { code: report.errorCode, message: report.errorMessage ?? '' } : null,
    report.providerSid,
  );
  return { status };
}

/**
 * Sets the conversation's status; with `eventId`, emits `conversation.needs_person` (data.object = the
 * conversation) — once per hand-over, since the workflow chooses one id per hand-over — and counts the
 * hand-over in `svc_conversation_handovers_total`.
 */
export async function setConversationStatus(input: {
  conversationId: string;
  status: ConversationStatus;
  reason: string | null;
  eventId: string | null;
  /** The staff user who took it over (`handoff` update); absent or null: nobody in particular. */
  takenBy?: string | null;
}): Promise<void> {
  // The reason is stored redacted when the organization says so, like the conversation's messages.
  const parties =
    input.status === 'needs_person' && input.reason !== null
      ? await Conversation.findById(input.conversationId, {
          org_id: 1,
          livemode: 1,
          customer_number: 1,
          service_number: 1,
        }).lean()
      : null;
  const reason = parties ? await redactConversationText(parties, input.reason) : input.reason;
  await Conversation.updateOne(
    { _id: input.conversationId },
    {
      $set: {
        status: input.status,
        handoff_reason: input.status === 'needs_person' ? reason : null,
        taken_by: input.status === 'needs_person' ? (input.takenBy ?? null) : null,
        window: changeWindow(Date.now()), // the console's stream sees the change (src/services/console-changes.ts)
      },
    },
  );
  if (!input.eventId) return;
  const doc = await Conversation.findById(input.conversationId).lean();
  if (!doc) throw new Error(`conversation ${input.conversationId} has no document`);
  if (input.status === 'needs_person')
    conversationHandovers.inc({ channel: doc.channel, mode: doc.livemode ? 'live' : 'test' });
  await emitEvent(client(), {
    id: input.eventId,
    orgId: doc.org_id,
    livemode: doc.livemode,
    type: 'conversation.needs_person',
    createdMs: Date.now(),
    object: renderConversation(doc),
  });
}

/**
 * Records on a customer's message the tool calls of the assistant's turn that answered it when no reply
 * carries them (the turn wrote no text after them: a hand-over, the last tool round, a failure; or its
 * replies were dropped because a person took over or the customer opted out), so the conversation's
 * messages (`tool_calls`) show every tool call, as an assistant reply shows the calls made before it.
 * Stored redacted like the rest of the row when the organization redacts (src/services/redaction-policy.ts),
 * the counts added to the row's `redaction_json`; the change window moves so the console's stream sees it.
 * Idempotent: a message that already has tool calls is left as it is (a retry writes nothing twice).
 * An unknown message is skipped.
 */
export async function recordToolCalls(input: { messageId: string; toolCalls: ToolCallEntry[] }): Promise<void> {
  const row = (await Message.findById(input.messageId).lean()) as WithId<MessageDoc> | null;
  if (!row || row.tool_calls_json || input.toolCalls.length === 0) return;
  const redactor = await redactorFor({ orgId: row.org_id, livemode: row.livemode }, { keep: [row.from, row.to] });
  const json = JSON.stringify(input.toolCalls);
  const counts = JSON.parse(row.redaction_json ?? '{}') as RedactionCounts;
  const update = redactor
    ? { tool_calls_json: redactor.json(json), redaction_json: redactionJson(addCounts(counts, redactor.counts)) }
    : { tool_calls_json: json };
  await Message.updateOne(
    { _id: row._id, tool_calls_json: null },
    { $set: { ...update, window: changeWindow(Date.now()) } },
  );
}

/** Sets the assistant answering the conversation (`POST /v1/messages` with `agent_id`). */
export async function setConversationAgent(input: {
  conversationId: string;
  agentId: string;
  /** A squad takes the conversation over (`POST /v1/messages` `squad_id`): its start member answers next. */
  squad?: { id: string; start: string };
  /** The agent takes the conversation over from its squad (`POST /v1/messages` `agent_id`): no squad answers. */
  endsSquad?: boolean;
}): Promise<void> {
  const squad = input.squad
    ? { squad_id: input.squad.id, squad_member: input.squad.start, squad_handoffs: 0 }
    : input.endsSquad
      ? { squad_id: null, squad_member: null, squad_handoffs: 0 }
      : {};
  await Conversation.updateOne({ _id: input.conversationId }, { $set: { agent_id: input.agentId, ...squad } });
  // Another agent's version is picked on its first turn (the same agent keeps its version).
  await Conversation.updateOne(
    { _id: input.conversationId, agent_version_of: { $ne: input.agentId } },
    { $set: { agent_version: null } },
  );
}

/** What the assistant is given for a turn. */
export interface ConversationContext {
  /** The answering agent as it is now (edits apply from the next turn), or null when there is none. */
  agent: AgentSnapshot | null;
  /** The contact the customer's number belongs to, when contacts exist; null otherwise. */
  contactId: string | null;
  /**
   * A squad's conversation: the member answering (the one asked for, else the squad's `start` when the
   * squad no longer has it), its hand-offs and the squad's cap and overflow, as read now.
   */
  squad?: { member: string; handoffs: SquadHandoff[]; max_handoffs: number; overflow: string | null };
}

/**
 * Builds what the assistant is given on a turn of a text conversation: the answering agent (read fresh
 * each turn) and the customer's contact (by `customerNumber`, src/services/contacts.ts), which it also
 * records on the conversation. The answering agent is the conversation's own (`agentId`) while it is not
 * deleted; once it is deleted (or when the conversation never had one), the agent a new conversation on
 * its number would get (src/models/agents.ts `answeringAgent`: the number's agent, else the
 * organization's default), which the conversation's `agent_id` then names; with no live agent at all the
 * agent is null and the workflow hands the conversation to a person, so no customer message goes
 * unanswered by a deleted agent or unseen. The LLM activity then loads the contact's records and the agent's
 * knowledge from these ids (src/services/assistant-context.ts), as for calls.
 */
export async function conversationContext(input: {
  orgId: string;
  livemode: boolean;
  agentId: string | null;
  customerNumber: string;
  /** The conversation whose `contact_id` follows the contact found (absent in runs recorded before). */
  conversationId?: string;
  /** A squad's conversation: the squad and the member answering (absent: `agentId` answers). */
  squad?: { id: string; member: string };
}): Promise<ConversationContext> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  if (input.squad) return squadContext({ ...input, squad: input.squad });
  let agent = input.agentId ? await findLiveAgent(tenant, input.agentId) : null;
  if (!agent) {
    // Its agent was deleted (or it never had one): the agent a new conversation on its number would get.
    const conv = input.conversationId ? await Conversation.findById(input.conversationId).lean() : null;
    const number = conv
      ? await PhoneNumber.findOne({
          route_key: numberRouteKey(input.orgId, input.livemode, conv.service_number),
        }).lean()
      : null;
    agent = await answeringAgent(tenant, number?.org_id === input.orgId ? number.agent_id : null);
    if (agent && conv && conv.agent_id !== agent._id)
      await Conversation.updateOne(
        { _id: conv._id, agent_id: conv.agent_id ?? null },
        { $set: { agent_id: agent._id } },
      );
  }
  if (!agent) return { agent: null, contactId: null };
  const contactId =
    (await findContact({ orgId: input.orgId, livemode: input.livemode }, { phone: input.customerNumber }))?._id ?? null;
  if (input.conversationId)
    await Conversation.updateOne(
      { _id: input.conversationId, contact_id: { $ne: contactId } },
      { $set: { contact_id: contactId } },
    );
  return {
    agent: agentSnapshot(
      await conversationVersion(agent, input.conversationId, { contactId, phone: input.customerNumber }),
    ),
    contactId,
  };
}

/**
 * `conversationContext` of a squad's conversation: the member's agent (src/services/squads.ts
 * `squadMemberTurn`: read fresh, at its pinned version or the customer's pick), which the conversation's
 * `agent_id` then names, and the member's hand-offs. A deleted squad, or a member whose agent is gone,
 * gives no agent: the workflow hands the conversation to a person.
 */
async function squadContext(input: {
  orgId: string;
  livemode: boolean;
  customerNumber: string;
  conversationId?: string;
  squad: { id: string; member: string };
}): Promise<ConversationContext> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  const contactId = (await findContact(tenant, { phone: input.customerNumber }))?._id ?? null;
  const turn = await squadMemberTurn(tenant, input.squad.id, input.squad.member, {
    contactId,
    phone: input.customerNumber,
  });
  if (!turn) return { agent: null, contactId: null };
  if (input.conversationId)
    await Conversation.updateOne(
      { _id: input.conversationId },
      {
        $set: {
          contact_id: contactId,
          agent_id: turn.agent._id,
          agent_version: turn.agent.version,
          agent_version_of: turn.agent._id,
        },
      },
    );
  return {
    agent: agentSnapshot(turn.agent),
    contactId,
    squad: {
      member: turn.member.name,
      handoffs: turn.member.handoffs,
      max_handoffs: turn.config.max_handoffs,
      overflow: turn.config.overflow,
    },
  };
}

/**
 * Records a squad's hand-off in its conversation (work lane, once per hand-off: idempotent by the
 * entry's ids): the `handoff` message (author `handoff`, status `recorded`, never sent; `handoff`
 * `{from, to, context, summary?}`), the conversation's `squad_member` and hand-off count, then
 * `conversation.handed_off` with the conversation as now stored.
 */
export async function recordConversationHandoff(input: {
  conversation: { conversationId: string; orgId: string; livemode: boolean; channel: Channel };
  serviceNumber: string;
  customerNumber: string;
  entry: ConversationHandoffEntry;
}): Promise<void> {
  const { conversation: c, entry } = input;
  const handoff = {
    from: entry.from,
    to: entry.to,
    context: entry.context,
    ...(entry.summary !== undefined ? { summary: entry.summary } : {}),
  };
  const doc = newOutboundDocument(c, {
    messageId: entry.messageId,
    author: 'assistant',
    from: input.serviceNumber,
    to: input.customerNumber,
    text: `Handed over from ${entry.from} to ${entry.to}.`,
    template: null,
    createdMs: entry.createdMs,
    eventIds: { sent: entry.eventId, delivered: entry.eventId, failed: entry.eventId },
  });
  // Never sent: no provider events of its own (its event is `conversation.handed_off`).
  await insertIfAbsent(Message, {
    ...doc,
    author: 'handoff',
    status: 'recorded',
    handoff_json: JSON.stringify(handoff),
    event_ids: { received: null, sent: null, delivered: null, failed: null },
  });
  await Conversation.updateOne(
    { _id: c.conversationId },
    {
      $set: { squad_member: entry.to, squad_handoffs: entry.handoffs, window: changeWindow(Date.now()) },
    },
  );
  const stored = await Conversation.findById(c.conversationId).lean();
  if (!stored) throw new Error(`conversation ${c.conversationId} has no document`);
  await emitEvent(client(), {
    id: entry.eventId,
    orgId: stored.org_id,
    livemode: stored.livemode,
    type: 'conversation.handed_off',
    createdMs: entry.createdMs,
    object: renderConversation(stored),
  });
}

/**
 * The version of `agent` a conversation runs (src/services/agent-versions.ts
 * `conversationAgent`): the one recorded on its first turn with this agent, else picked now and recorded.
 */
async function conversationVersion(
  agent: WithId<AgentDoc>,
  conversationId: string | undefined,
  who: { contactId: string | null; phone: string },
): Promise<WithId<AgentDoc>> {
  const conv = conversationId
    ? await Conversation.findById(conversationId, { agent_version: 1, agent_version_of: 1 }).lean()
    : null;
  const { agent: versioned, picked } = await conversationAgent(agent, conv, who);
  if (conv && picked)
    await Conversation.updateOne(
      { _id: conv._id },
      { $set: { agent_version: versioned.version, agent_version_of: agent._id } },
    );
  return versioned;
}

/**
 * Appends a stored message to a web conversation's log as entry `seq` (chosen by the workflow: the next
 * after the last, so the log has no gaps and its order is the order of storing), and moves the
 * conversation's `log_seq` up to it. Idempotent: a retry finds the entry and raises nothing.
 * The widget's stream (src/api/widget.ts) reads the log by `_id`, entry after entry, woken by the API's
 * poller of the entries' change `window` (src/services/widget-streams.ts).
 */
export async function appendConversationLog(input: {
  conversationId: string;
  seq: number;
  messageId: string;
}): Promise<void> {
  const now = Date.now();
  await insertIfAbsent(ConversationLogEntry, {
    _id: conversationLogId(input.conversationId, input.seq),
    conversation_id: input.conversationId,
    seq: input.seq,
    message_id: input.messageId,
    created_ms: now,
    window: changeWindow(now),
  });
  await Conversation.updateOne({ _id: input.conversationId }, { $max: { log_seq: input.seq } });
}

/** Messages of the stored conversation given back to the assistant when a run starts afresh. */
export const HISTORY_ON_LOAD = 40;

/** The state a run starts from when it is not continuing another one (after an idle close, or a reset). */
export interface LoadedConversation {
  status: ConversationStatus;
  handoffReason: string | null;
  agentId: string | null;
  optedOut: boolean;
  history: ChatMessage[];
  /** Web channel: the last entry of the conversation's log (0: none yet). */
  logSeq: number;
  /** The staff user who took it over (absent in histories recorded before). */
  takenBy?: string | null;
  /** A squad's conversation: its squad, the member answering and the hand-offs made (absent: no squad). */
  squad?: ConversationSquadState;
}

/**
 * Loads a conversation's state from the store: its status and agent, the customer's opt-out state, and
 * the latest `HISTORY_ON_LOAD` messages as chat history (customer → user; assistant → assistant; a
 * person's or API message → a system note).
 */
export async function loadConversation(input: { conversationId: string }): Promise<LoadedConversation> {
  const doc = await Conversation.findById(input.conversationId).lean();
  const rows = await Message.find({ conversation_id: input.conversationId })
    .sort({ _id: -1 })
    .limit(HISTORY_ON_LOAD)
    .lean();
  const history: ChatMessage[] = rows.reverse().map((r) => chatMessageOf(r.author as string, r.text));
  const state = await customerState(input.conversationId);
  return {
    status: (doc?.status as ConversationStatus | undefined) ?? 'open',
    handoffReason: doc?.handoff_reason ?? null,
    agentId: doc?.agent_id ?? null,
    optedOut: state.optedOut,
    history,
    logSeq: doc?.log_seq ?? 0,
    takenBy: doc?.taken_by ?? null,
    ...(doc?.squad_id
      ? { squad: { id: doc.squad_id, current: doc.squad_member ?? '', handoffs: doc.squad_handoffs ?? 0 } }
      : {}),
  };
}

function client(): Client {
  return Context.current().client;
}

function isRetry(): boolean {
  try {
    return Context.current().info.attempt > 1;
  } catch {
    return false;
  }
}
