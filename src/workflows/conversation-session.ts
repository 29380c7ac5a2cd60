/**
 * `ConversationSession`: the state and the steps of one `conversationWorkflow` run (src/workflows/conversations.ts
 * registers its handlers and runs its phases), the shape of temporalio/samples-typescript
 * `safe-message-handlers`' `ClusterManager`. The handlers only queue work; two lanes do it:
 * - the work lane (`workLane`) takes the queue in order, one item at a time: store an inbound message
 *   (deduplicated by its provider id; `message.received`), send an outbound one (the API's, a person's, the
 *   assistant's), apply a provider status callback, write a hand-over or a resume. Every write to the
 *   conversation and its messages happens here, so they have one writer and a status never moves backwards.
 * - the assistant lane (`assistantLane`) answers stored customer messages while the conversation is `open`,
 *   through the assistant turn shared with calls (src/workflows/assistant.ts) and the `handoff_to_person`
 *   tool; its replies join the work queue with message ids chosen here, so a retried or replayed send sends
 *   once.
 */
import {
  allHandlersFinished,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type * as conversations from '../activities/conversations';
import type * as messagingActivities from '../activities/messaging';
import type { ChatMessage } from '../shared/assistant';
import type { AgentSnapshot } from '../shared/calls';
import type { ToolCallEntry } from '../shared/conversations';
import { newId } from '../shared/ids';
import {
  chatMessageOf,
  freeTextAllowed,
  type Channel,
  type ConversationState,
  type ConversationStatus,
  type ConversationWork,
  type ConversationWorkflowInput,
  type InboundMessageInput,
  type InboundResult,
  type OutboundMessageInput,
  type ProviderStatusInput,
} from '../shared/conversations';
import { assistantTurn } from './assistant';
import { errorMessage } from './retry';
import { channelTools, resolveCustomTools, toolCallKeys } from './tools';
import { offeredTools } from '../shared/tools';

/**
 * Reads and writes of our own store, as local activities (they take milliseconds, and a local activity
 * saves the round trips of a scheduled one through the Temporal server on every message): retried until
 * they succeed, so a store outage delays a conversation and never loses it. All are idempotent, as a
 * local activity may run again when a worker dies before its result is recorded.
 */
const store = proxyLocalActivities<typeof conversations>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The provider send: 15 s per try, retried for up to 10 minutes (a provider outage), then the message is
 * `failed` with `provider_unavailable`. Refusals are not errors (the activity marks the message failed).
 */
const messaging = proxyActivities<typeof messagingActivities>({
  startToCloseTimeout: '15 seconds',
  scheduleToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Without any activity for this long, the run ends (the next message starts a new one). */
export const IDLE_CLOSE_MS = 7 * 24 * 60 * 60 * 1000;
/** Chat messages the assistant keeps (older ones are dropped from its memory, not from the store). */
export const HISTORY_LIMIT = 60;
/** Message ids remembered to ignore repeated deliveries. */
export const SEEN_LIMIT = 500;
/** Longest reply sent (Twilio's limit for one message body). */
export const MAX_REPLY_CHARS = 1600;

/** A reply of the assistant's turn, with the tool calls made before it. */
interface Reply {
  text: string;
  toolCalls: ToolCallEntry[];
}

/**
 * One conversation's state (carried over a continue-as-new, or loaded from the store by `load`) and what
 * its handlers and lanes do with it. Only the workflow function creates it, once per run.
 */
export class ConversationSession {
  private readonly ref: { conversationId: string; orgId: string; livemode: boolean; channel: Channel };
  /** False until the state is carried or loaded; `resume` waits for it. */
  private loaded: boolean;
  private status: ConversationStatus;
  private handoffReason: string | null;
  /** Issue 35: the staff user who took the conversation over (`handoff` update), as this run knows it. */
  private takenBy: string | null = null;
  private optedOut: boolean;
  private agentId: string | null;
  /** The assistant's memory (without the system prompt), newest last, at most `HISTORY_LIMIT` when idle. */
  private history: ChatMessage[];
  /** The latest message ids handled, oldest first (at most `SEEN_LIMIT`), and the same as a set. */
  private readonly seen: string[];
  private readonly seenSet: Set<string>;
  /** Stored customer messages the assistant has not answered yet. */
  private unanswered: string[];
  /** The ordered work queue; an item leaves it only once done. */
  private readonly work: ConversationWork[];
  /** Web channel: the last entry of the conversation's log (the widget's stream reads it in order). */
  private logSeq: number;
  /** Inbound messages whose `receive` update waits for the result, by proposed id. */
  private readonly awaited = new Set<string>();
  private readonly results = new Map<string, InboundResult>();
  /** Status changes written by the work lane, by ticket (`resume` waits for its own). */
  private readonly doneTickets = new Set<number>();
  private tickets = 0;
  private working = false;
  private answering = false;
  /** Set before a continue-as-new: the assistant lane starts no new turn. */
  private stopping = false;
  /** Bumped by every signal and update, so the main loop knows the conversation is not idle. */
  private activity = 0;
  /** The keys of this run's tool calls (`tc_…`, issue 27). */
  private readonly toolCallKey = toolCallKeys();

  /** @param input the conversation's identity, and the state carried by a continue-as-new (if any) */
  constructor(private readonly input: ConversationWorkflowInput) {
    this.ref = {
      conversationId: input.conversationId,
      orgId: input.orgId,
      livemode: input.livemode,
      channel: input.channel,
    };
    const carried = input.carried;
    this.loaded = carried !== undefined;
    this.status = carried?.status ?? 'open';
    this.handoffReason = carried?.handoffReason ?? null;
    this.optedOut = carried?.optedOut ?? false;
    this.agentId = carried?.agentId ?? input.agentId;
    this.history = carried?.history ?? [];
    this.seen = carried?.seen ?? [];
    this.seenSet = new Set(this.seen);
    this.unanswered = carried?.unanswered ?? [];
    this.work = carried?.pending ?? [];
    this.logSeq = carried?.logSeq ?? 0;
    this.takenBy = carried?.takenBy ?? null;
  }

  /** `inbound` signal: a live webhook's message, stored (deduplicated) and answered in order. */
  inbound(message: InboundMessageInput): void {
    this.activity++;
    this.work.push({ kind: 'inbound', message });
  }

  /** `receive` update: like `inbound`, and resolves once the message is stored (its id, duplicate or not). */
  async receive(message: InboundMessageInput): Promise<InboundResult> {
    this.activity++;
    this.awaited.add(message.messageId);
    this.work.push({ kind: 'inbound', message });
    await condition(() => this.results.has(message.messageId));
    const result = this.results.get(message.messageId)!;
    this.results.delete(message.messageId);
    return result;
  }

  /** `outbound` signal: a message to send (`POST /v1/messages`); an id already handled is ignored. */
  outbound(message: OutboundMessageInput): void {
    this.activity++;
    this.work.push({ kind: 'outbound', message });
  }

  /** `providerStatus` signal: a provider status callback for one of the conversation's messages. */
  providerStatus(report: ProviderStatusInput): void {
    this.activity++;
    this.work.push({ kind: 'status', report });
  }

  /**
   * `resume` update: gives a handed-over conversation back to the assistant, which is told that a person
   * handled the gap. Resolves once `open` is written; `resumed` is false when it was not handed over.
   */
  async resume(): Promise<{ resumed: boolean }> {
    this.activity++;
    await condition(() => this.loaded);
    if (this.status !== 'needs_person') return { resumed: false };
    this.status = 'open';
    this.handoffReason = null;
    this.takenBy = null;
    this.history.push({
      role: 'system',
      content:
        'A person of the organization handled this conversation since your hand-over (their messages and the ' +
        "customer's are above) and has now given it back to you. Continue from here; do not repeat what they said.",
    });
    const ticket = this.queueStatus('open', null, false);
    await condition(() => this.doneTickets.has(ticket));
    this.doneTickets.delete(ticket);
    return { resumed: true };
  }

  /**
   * `handoff` update (issue 35, `POST /v1/conversations/{id}/handoff`): a person takes the conversation
   * over, as the `handoff_to_person` tool does (the assistant stops; `conversation.needs_person` is emitted
   * when it was open); a conversation already handed over is marked as taken by `takenBy`. Resolves once
   * written; `handedOver` is false when the same person already had it.
   */
  async handoff(input: { reason: string | null; takenBy: string | null }): Promise<{ handedOver: boolean }> {
    this.activity++;
    await condition(() => this.loaded);
    const wasOpen = this.status === 'open';
    if (!wasOpen && this.takenBy === input.takenBy) return { handedOver: false };
    this.status = 'needs_person';
    if (wasOpen) this.handoffReason = input.reason ?? 'Taken over by a person.';
    else if (input.reason) this.handoffReason = input.reason;
    this.takenBy = input.takenBy;
    this.unanswered = [];
    const ticket = this.queueStatus('needs_person', this.handoffReason, wasOpen, input.takenBy);
    await condition(() => this.doneTickets.has(ticket));
    this.doneTickets.delete(ticket);
    return { handedOver: true };
  }

  /** `state` query: the status, the opt-out, and the work waiting in each lane. */
  state(): ConversationState {
    return {
      status: this.status,
      optedOut: this.optedOut,
      queued: this.work.length,
      unanswered: this.unanswered.length,
    };
  }

  /** A first run (nothing carried) loads the conversation's state from the store (`loadConversation`). */
  async load(): Promise<void> {
    if (this.loaded) return;
    const state = await store.loadConversation({ conversationId: this.input.conversationId });
    this.status = state.status;
    this.handoffReason = state.handoffReason;
    this.optedOut = state.optedOut;
    this.agentId = state.agentId ?? this.agentId;
    this.history = state.history;
    this.logSeq = state.logSeq ?? this.logSeq;
    this.takenBy = state.takenBy ?? null;
    this.loaded = true;
  }

  /** The work lane: one item at a time, in arrival order (never returns). */
  async workLane(): Promise<void> {
    for (;;) {
      await condition(() => this.work.length > 0);
      this.working = true;
      await this.perform(this.work[0]); // an item leaves the queue only once done (a failed task retries it)
      this.work.shift();
      this.working = false;
    }
  }

  /** The assistant lane: answers what the customer wrote, one turn at a time (never returns). */
  async assistantLane(): Promise<void> {
    for (;;) {
      await condition(() => !this.stopping && this.unanswered.length > 0 && this.status === 'open' && !this.optedOut);
      this.answering = true;
      try {
        await this.answer();
      } finally {
        this.answering = false;
        this.trimHistory();
      }
    }
  }

  /**
   * Waits for a signal or an update, a continue-as-new suggestion, or `IDLE_CLOSE_MS`.
   * @returns false when the wait timed out
   */
  async waitForActivity(): Promise<boolean> {
    const before = this.activity;
    return condition(() => this.activity !== before || this.shouldContinueAsNew(), IDLE_CLOSE_MS);
  }

  /** Temporal suggests a continue-as-new, or the history reached the input's `continueAsNewAtHistoryLength`. */
  shouldContinueAsNew(): boolean {
    return (
      workflowInfo().continueAsNewSuggested ||
      (this.input.continueAsNewAtHistoryLength !== undefined &&
        workflowInfo().historyLength >= this.input.continueAsNewAtHistoryLength)
    );
  }

  /** Nothing queued, nothing being done, no handler running and nothing left to answer: the run may end. */
  idle(): boolean {
    return this.quiet() && this.unanswered.length === 0;
  }

  /**
   * Before a continue-as-new: stops the assistant lane, waits for the queue, the turn in progress and the
   * handlers, and returns the next run's input (the same identity, the state carried).
   */
  async drain(): Promise<ConversationWorkflowInput> {
    this.stopping = true;
    await condition(() => this.quiet());
    this.trimHistory();
    return {
      ...this.input,
      agentId: this.agentId,
      carried: {
        status: this.status,
        handoffReason: this.handoffReason,
        optedOut: this.optedOut,
        agentId: this.agentId,
        history: this.history,
        seen: this.seen,
        unanswered: this.unanswered,
        pending: this.work,
        ...(this.input.channel === 'web' ? { logSeq: this.logSeq } : {}),
        ...(this.takenBy ? { takenBy: this.takenBy } : {}),
      },
    };
  }

  private quiet(): boolean {
    return this.work.length === 0 && !this.working && !this.answering && allHandlersFinished();
  }

  private remember(id: string): void {
    this.seenSet.add(id);
    this.seen.push(id);
    while (this.seen.length > SEEN_LIMIT) this.seenSet.delete(this.seen.shift()!);
  }

  /** Drops the oldest chat messages beyond the limit, never starting on a tool answer or a bare assistant turn. */
  private trimHistory(): void {
    if (this.answering || this.history.length <= HISTORY_LIMIT) return;
    let start = this.history.length - HISTORY_LIMIT;
    while (start < this.history.length && this.history[start].role !== 'user' && this.history[start].role !== 'system')
      start++;
    this.history = this.history.slice(start);
  }

  /** Queues a status change of the conversation; returns its ticket (in `doneTickets` once written). */
  private queueStatus(next: ConversationStatus, reason: string | null, emit: boolean, takenBy?: string | null): number {
    const ticket = ++this.tickets;
    const eventId = emit ? newId('evt') : null;
    this.work.push({ kind: 'conversation', status: next, reason, eventId, ticket, ...(takenBy ? { takenBy } : {}) });
    return ticket;
  }

  /** Hands the conversation over to a person (once per hand-over): the assistant stops at once. */
  private handOver(reason: string): void {
    if (this.status === 'needs_person') return;
    this.status = 'needs_person';
    this.handoffReason = reason;
    this.takenBy = null;
    this.unanswered = [];
    this.queueStatus('needs_person', reason, true);
  }

  /**
   * Web channel: logs a stored message as the conversation's next log entry, after the message itself
   * (the work lane is the only writer, one item at a time, so the log's order is the order of storing).
   */
  private async logMessage(messageId: string): Promise<void> {
    if (this.input.channel !== 'web') return;
    await store.appendConversationLog({ conversationId: this.input.conversationId, seq: this.logSeq + 1, messageId });
    this.logSeq++;
  }

  /** Does one work item (the work lane's step). */
  private async perform(item: ConversationWork): Promise<void> {
    switch (item.kind) {
      case 'inbound':
        return this.storeInbound(item.message);
      case 'outbound':
        return this.send(item.message);
      case 'status':
        await store.applyMessageStatus(item.report);
        return;
      case 'conversation':
        await store.setConversationStatus({
          conversationId: this.input.conversationId,
          status: item.status,
          reason: item.reason,
          eventId: item.eventId,
          ...(item.takenBy ? { takenBy: item.takenBy } : {}),
        });
        this.doneTickets.add(item.ticket);
        return;
    }
  }

  /**
   * Stores an inbound message (`storeInbound`), answers a waiting `receive`, applies an opt-out or opt-in
   * keyword, and otherwise adds it to the assistant's memory and, when it can be answered, to `unanswered`.
   */
  private async storeInbound(m: InboundMessageInput): Promise<void> {
    const stored = await store.storeInbound({ conversation: this.ref, message: m, eventId: newId('evt') });
    const duplicate = stored.duplicate || this.seenSet.has(stored.messageId);
    if (this.awaited.delete(m.messageId)) this.results.set(m.messageId, { messageId: stored.messageId, duplicate });
    if (duplicate) return;
    this.remember(stored.messageId);
    await this.logMessage(stored.messageId);
    if (stored.keyword === 'opt_out') {
      this.optedOut = true;
      this.unanswered = [];
      return;
    }
    if (stored.keyword === 'opt_in' && this.optedOut) {
      this.optedOut = false;
      return;
    }
    this.history.push({ role: 'user', content: m.text });
    this.trimHistory();
    // Answer only what can be answered: not while a person has the conversation, not after an
    // opt-out, and on WhatsApp not a message whose 24-hour window has already closed.
    if (
      this.status === 'open' &&
      !this.optedOut &&
      freeTextAllowed(this.input.channel, stored.receivedMs, Date.now())
    ) {
      this.unanswered.push(stored.messageId);
    }
  }

  /**
   * Sends an outbound message once (`sendMessage`; a send that fails for 10 minutes marks it `failed` with
   * `provider_unavailable`), switching the conversation's agent first when the message names another.
   */
  private async send(m: OutboundMessageInput): Promise<void> {
    if (this.seenSet.has(m.messageId)) return; // the same request signalled twice
    this.remember(m.messageId);
    if (m.agentId && m.agentId !== this.agentId) {
      this.agentId = m.agentId;
      await store.setConversationAgent({ conversationId: this.input.conversationId, agentId: m.agentId });
    }
    try {
      await messaging.sendMessage({ conversation: this.ref, message: m });
    } catch (err) {
      if (isCancellation(err)) throw err;
      await store.applyMessageStatus({
        messageId: m.messageId,
        status: 'failed',
        providerSid: null,
        errorCode: 'provider_unavailable',
        errorMessage: errorMessage(err),
      });
    }
    await this.logMessage(m.messageId);
    if (m.author !== 'assistant') {
      this.history.push(chatMessageOf(m.author, m.text));
      this.trimHistory();
    }
  }

  /**
   * One assistant turn over everything unanswered: reads the agent and contact (`conversationContext`),
   * runs `assistantTurn`, queues its replies (unless the customer opted out, or a person took the
   * conversation over, meanwhile) and hands over when the assistant asked for a person, failed, or there is
   * no agent.
   */
  private async answer(): Promise<void> {
    this.unanswered = [];
    const context = await store.conversationContext({
      orgId: this.input.orgId,
      livemode: this.input.livemode,
      agentId: this.agentId,
      customerNumber: this.input.customerNumber,
      conversationId: this.input.conversationId,
    });
    if (!context.agent) {
      this.handOver('No assistant is set to answer this conversation.');
      return;
    }
    const seenUpTo = this.history.length;
    const system = textSystemPrompt({
      agent: context.agent,
      channel: this.input.channel,
      customerNumber: this.input.customerNumber,
    });
    const messages: ChatMessage[] = [{ role: 'system', content: system }, ...this.history];
    const replies: Reply[] = [];
    const outcome = await this.turn(context.agent, context.contactId, messages, replies);
    // A person took the conversation over while the assistant was answering (issue 35 item 2, the `handoff`
    // update): the answer is neither sent nor kept in the history; the person answers now.
    if (this.status !== 'open') return;
    // The turn's messages go after what it answered, before customer messages that arrived meanwhile.
    this.history.splice(seenUpTo, 0, ...messages.slice(1 + seenUpTo));
    // A customer who opted out meanwhile gets nothing more.
    if (!this.optedOut)
      for (const { text, toolCalls } of replies)
        this.work.push({ kind: 'outbound', message: this.reply(text, toolCalls) });
    if (outcome.handoff !== null) this.handOver(outcome.handoff);
    else if (outcome.failure !== null) this.handOver(`The assistant could not answer: ${outcome.failure}`);
  }

  /**
   * Runs the assistant turn over `messages` (extended in place), collecting its texts into `replies`, each
   * with the tool calls made before it (calls after the last text go with the last reply). The agent's
   * own tools (issue 27) are offered with the channel's built-in ones.
   * @returns the hand-over reason the `handoff_to_person` tool gave, or the turn's failure, or neither
   */
  private async turn(
    agent: AgentSnapshot,
    contactId: string | null,
    messages: ChatMessage[],
    replies: Reply[],
  ): Promise<{ handoff: string | null; failure: string | null }> {
    const outcome: { handoff: string | null; failure: string | null } = { handoff: null, failure: null };
    const channel = this.input.channel === 'web' ? 'widget' : 'conversation';
    const tenant = { orgId: this.input.orgId, livemode: this.input.livemode };
    let toolCalls: ToolCallEntry[] = [];
    try {
      const custom = await resolveCustomTools({
        ...tenant,
        toolIds: agent.tool_ids,
        installationIds: agent.connector_installation_ids,
        reserved: offeredTools(channel, agent.enabled_tools),
      });
      const tools = channelTools(
        channel,
        {
          requestHandoff: (reason) => {
            outcome.handoff ??= reason;
          },
          // A callback (`schedule_callback`): a call to the customer from a voice number of the organization.
          callback: {
            ...tenant,
            agentId: agent.id,
            callbackOf: this.input.conversationId,
            to: this.input.customerNumber,
            from: null,
            serviceNumber: this.input.serviceNumber,
            contactId,
          },
        },
        agent.enabled_tools,
      );
      await assistantTurn({
        conversationId: this.input.conversationId,
        model: agent.model,
        messages,
        // The LLM activity adds the contact's records and the agent's knowledge from these ids.
        context: { orgId: this.input.orgId, livemode: this.input.livemode, agentId: agent.id, contactId },
        tools,
        ...('schedule_callback' in tools ? { caller: this.input.customerNumber } : {}),
        ...(custom.length
          ? {
              custom: {
                tools: custom,
                context: {
                  ...tenant,
                  agentId: agent.id,
                  subject: { kind: 'conversation' as const, id: this.input.conversationId },
                  contactId,
                  metadata: {},
                },
              },
            }
          : {}),
        toolCallKey: this.toolCallKey,
        observer: {
          onText: (text) => {
            replies.push({ text, toolCalls });
            toolCalls = [];
          },
          onTool: (call, effect, record) =>
            toolCalls.push({ name: call.name, arguments: call.arguments, text: effect.summary, ...record }),
        },
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      outcome.failure = errorMessage(err);
    }
    if (toolCalls.length && replies.length) replies[replies.length - 1].toolCalls.push(...toolCalls);
    return outcome;
  }

  /** An assistant reply, with its message and event ids chosen here (deterministic on replay). */
  private reply(text: string, toolCalls: ToolCallEntry[] = []): OutboundMessageInput {
    return {
      ...(toolCalls.length ? { toolCalls } : {}),
      messageId: newId('msg'),
      author: 'assistant',
      from: this.input.serviceNumber,
      to: this.input.customerNumber,
      text: text.length > MAX_REPLY_CHARS ? text.slice(0, MAX_REPLY_CHARS - 1) + '…' : text,
      template: null,
      createdMs: Date.now(),
      eventIds: { sent: newId('evt'), delivered: newId('evt'), failed: newId('evt') },
    };
  }
}

/**
 * The system message of a text conversation: the agent's instructions, how to write on WhatsApp or SMS,
 * and when to hand over to a person.
 */
export function textSystemPrompt(input: { agent: AgentSnapshot; channel: Channel; customerNumber: string }): string {
  const medium =
    input.channel === 'whatsapp' ? 'WhatsApp' : input.channel === 'web' ? 'the chat on our website' : 'SMS';
  const who = input.channel === 'web' ? 'a visitor' : `the customer ${input.customerNumber}`;
  return [
    input.agent.instructions.trim(),
    '',
    `You are "${input.agent.name}", writing with ${who} over ${medium}. ` +
      'Answer in plain text, briefly (a few sentences at most), without markdown.',
    'Call the tool handoff_to_person with a short reason when the customer asks for a person or you cannot ' +
      'help; after that a person answers them.',
  ].join('\n');
}
