/**
 * `ConversationSession`: the state and the steps of one `conversationWorkflow` run (src/workflows/conversations.ts
 * registers its handlers and runs its phases), the shape of temporalio/samples-typescript
 * `safe-message-handlers`' `ClusterManager`. The handlers only queue work; two lanes do it:
 * - the work lane (`workLane`) takes the queue in order, one item at a time: store an inbound message
 *   (deduplicated by its provider id; `message.received`), send an outbound one (the API's, a person's, the
 *   assistant's), apply a provider status callback, write a hand-over or a resume, record a turn's tool
 *   calls that no reply carries. Every write to the conversation and its messages happens here, so they
 *   have one writer and a status never moves backwards.
 * - the assistant lane (`assistantLane`) answers stored customer messages while the conversation is `open`,
 *   through the assistant turn shared with calls (src/workflows/assistant.ts) and the `handoff_to_person`
 *   tool; its replies join the work queue with message ids chosen here, so a retried or replayed send sends
 *   once.
 * The lanes run side by side, but their local activities (the store's reads and writes) one at a time
 * (`exclusive`): local activities in flight together could resolve in another order on replay.
 */
import {
  allHandlersFinished,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type * as conversations from '../activities/conversations';
import type * as messagingActivities from '../activities/messaging';
import { systemPrompt, type ChatMessage } from '../shared/assistant';
import type { ToolCallEntry } from '../shared/conversations';
import { PATCHES } from '../shared/deployments';
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
import { conversationTurn } from './conversation-turn';
import { ConversationSquad } from './conversation-squad';
import { errorMessage, LOCAL_STORE_ACTIVITY, UNTIL_DONE } from './retry';
import { toolCallKeys } from './tools';

/**
 * Reads and writes of our own store, as local activities (they take milliseconds, and a local activity
 * saves the round trips of a scheduled one through the Temporal server on every message): retried until
 * they succeed, so a store outage delays a conversation and never loses it. All are idempotent, as a
 * local activity may run again when a worker dies before its result is recorded.
 */
const store = proxyLocalActivities<typeof conversations>(LOCAL_STORE_ACTIVITY);

/**
 * The provider send: 15 s per try, retried for up to 10 minutes (a provider outage), then the message is
 * `failed` with `provider_unavailable`. Refusals are not errors (the activity marks the message failed).
 */
const messaging = proxyActivities<typeof messagingActivities>({
  startToCloseTimeout: '15 seconds',
  scheduleToCloseTimeout: '10 minutes',
  retry: UNTIL_DONE,
});

/** Without any activity for this long, the run ends (the next message starts a new one). */
export const IDLE_CLOSE_MS = 7 * 24 * 60 * 60 * 1000;
/** Chat messages the assistant keeps (older ones are dropped from its memory, not from the store). */
export const HISTORY_LIMIT = 60;
/** Message ids remembered to ignore repeated deliveries. */
export const SEEN_LIMIT = 500;
/** Longest reply sent (Twilio's limit for one message body). */
export const MAX_REPLY_CHARS = 1600;

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
  /** The staff user who took the conversation over (`handoff` update), as this run knows it. */
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
  /** A local activity of either lane is in flight (`exclusive`). */
  private storeBusy = false;
  /** Set before a continue-as-new: the assistant lane starts no new turn. */
  private stopping = false;
  /** Bumped by every signal and update, so the main loop knows the conversation is not idle. */
  private activity = 0;
  /** The keys of this run's tool calls (`tc_…`). */
  private readonly toolCallKey = toolCallKeys();
  /** A squad's conversation (src/workflows/conversation-squad.ts); null: one agent answers. */
  private squad: ConversationSquad | null = null;

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
    if (carried?.squad) this.squad = new ConversationSquad(carried.squad);
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
   * `handoff` update (`POST /v1/conversations/{id}/handoff`): a person takes the conversation
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
    if (state.squad) this.squad = new ConversationSquad(state.squad);
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

  /**
   * Temporal suggests a continue-as-new, or the history reached the input's `continueAsNewAtHistoryLength`,
   * or (versioned workers) the deployment's current version is no longer the one this pinned run is on:
   * the next run then starts on the current version (`continueAsNewOptions`).
   */
  shouldContinueAsNew(): boolean {
    return (
      workflowInfo().continueAsNewSuggested ||
      workflowInfo().targetWorkerDeploymentVersionChanged ||
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
        ...(this.squad ? { squad: this.squad.state } : {}),
      },
    };
  }

  /**
   * Runs one local activity (a read or write of the store) of either lane, never two at once. Two local
   * activities in flight together resolve in the order they finish on the first run, but in the order
   * of their markers (or of scheduling) on replay, so the lanes could go on in another order on replay
   * and issue their next commands differently: a nondeterminism error (temporalio/sdk-python#1578 shows
   * the same hazard). One at a time, the commands follow the order the code asks for them. The lock is
   * taken at once when free, without yielding, so the work lane (which takes it again straight after
   * each write) stores a burst of messages before the assistant lane reads the store for its turn.
   */
  private async exclusive<T>(run: () => Promise<T>): Promise<T> {
    while (this.storeBusy) await condition(() => !this.storeBusy);
    this.storeBusy = true;
    try {
      return await run();
    } finally {
      this.storeBusy = false;
    }
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
    const entry = { conversationId: this.input.conversationId, seq: this.logSeq + 1, messageId };
    await this.exclusive(() => store.appendConversationLog(entry));
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
        await this.exclusive(() => store.applyMessageStatus(item.report));
        return;
      case 'conversation':
        await this.exclusive(() =>
          store.setConversationStatus({
            conversationId: this.input.conversationId,
            status: item.status,
            reason: item.reason,
            eventId: item.eventId,
            ...(item.takenBy ? { takenBy: item.takenBy } : {}),
          }),
        );
        this.doneTickets.add(item.ticket);
        return;
      case 'toolCalls':
        await this.exclusive(() => store.recordToolCalls({ messageId: item.messageId, toolCalls: item.toolCalls }));
        return;
      case 'handoff': {
        const { serviceNumber, customerNumber } = this.input;
        const handoff = { conversation: this.ref, serviceNumber, customerNumber, entry: item.entry };
        await this.exclusive(() => store.recordConversationHandoff(handoff));
        return;
      }
    }
  }

  /**
   * Stores an inbound message (`storeInbound`), answers a waiting `receive`, applies an opt-out or opt-in
   * keyword, and otherwise adds it to the assistant's memory and, when it can be answered, to `unanswered`.
   */
  private async storeInbound(m: InboundMessageInput): Promise<void> {
    const eventId = newId('evt');
    const stored = await this.exclusive(() => store.storeInbound({ conversation: this.ref, message: m, eventId }));
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
   * `provider_unavailable`), switching the conversation's agent first when the message names another (or
   * names one while a squad answers: the squad's run ends, `PATCHES.messageAgentEndsSquad`), or its squad
   * when it names one the conversation does not have (a path no earlier run takes: messages never named
   * a squad before).
   */
  private async send(m: OutboundMessageInput): Promise<void> {
    if (this.seenSet.has(m.messageId)) return; // the same request signalled twice
    this.remember(m.messageId);
    if (m.squad) {
      if (m.squad.id !== this.squad?.state.id && m.agentId) {
        this.squad = new ConversationSquad({ id: m.squad.id, current: m.squad.start, handoffs: 0 });
        this.agentId = m.agentId;
        const change = { conversationId: this.input.conversationId, agentId: m.agentId, squad: m.squad };
        await this.exclusive(() => store.setConversationAgent(change));
      }
    } else if (m.agentId) {
      // Naming an agent ends the squad's run of the conversation (runs before 0.3.0 kept the squad).
      const endsSquad = this.squad !== null && patched(PATCHES.messageAgentEndsSquad);
      if (m.agentId !== this.agentId || endsSquad) {
        this.agentId = m.agentId;
        if (endsSquad) this.squad = null;
        const change = { conversationId: this.input.conversationId, agentId: m.agentId, endsSquad };
        await this.exclusive(() => store.setConversationAgent(change));
      }
    }
    try {
      await messaging.sendMessage({ conversation: this.ref, message: m });
    } catch (err) {
      if (isCancellation(err)) throw err;
      const failed = {
        messageId: m.messageId,
        status: 'failed' as const,
        providerSid: null,
        errorCode: 'provider_unavailable',
        errorMessage: errorMessage(err),
      };
      await this.exclusive(() => store.applyMessageStatus(failed));
    }
    await this.logMessage(m.messageId);
    if (m.author !== 'assistant') {
      this.history.push(chatMessageOf(m.author, m.text));
      this.trimHistory();
    }
  }

  /**
   * One assistant turn over everything unanswered: reads the agent and contact (`conversationContext`),
   * runs the turn (src/workflows/conversation-turn.ts), queues its replies (unless the customer opted out,
   * or a person took the conversation over, meanwhile) and hands over when the assistant asked for a
   * person, failed, or there is no agent. Tool calls no queued reply carries (none written after them, or
   * the replies dropped) are recorded on the newest customer message the turn answered, so the
   * conversation's messages show every tool call the assistant made.
   */
  private async answer(): Promise<void> {
    const context = await this.exclusive(() =>
      store.conversationContext({
        orgId: this.input.orgId,
        livemode: this.input.livemode,
        agentId: this.agentId,
        customerNumber: this.input.customerNumber,
        conversationId: this.input.conversationId,
        ...(this.squad ? { squad: { id: this.squad.state.id, member: this.squad.state.current } } : {}),
      }),
    );
    // What the turn answers is taken once the store is read (after the work lane's writes queued before
    // it), with the history it sees: a message stored meanwhile is in the turn's prompt, so it is not
    // also left unanswered for another turn.
    const answered = this.unanswered[this.unanswered.length - 1];
    this.unanswered = [];
    if (!context.agent) {
      this.handOver('No assistant is set to answer this conversation.');
      return;
    }
    const seenUpTo = this.history.length;
    const system = systemPrompt(context.agent, {
      medium: 'text',
      channel: this.input.channel,
      customerNumber: this.input.customerNumber,
    });
    const messages: ChatMessage[] = [{ role: 'system', content: system }, ...this.history];
    const own = this.squad && context.squad ? this.squad.offer(context.squad) : undefined;
    const turn = await conversationTurn(this.input, context.agent, context.contactId, messages, this.toolCallKey, own);
    const dropped = this.status !== 'open' || this.optedOut;
    const unsent = dropped ? [...turn.replies.flatMap((r) => r.toolCalls), ...turn.unsent] : turn.unsent;
    if (unsent.length && answered) this.work.push({ kind: 'toolCalls', messageId: answered, toolCalls: unsent });
    // A person took the conversation over while the assistant was answering (the `handoff` update): the
    // answer is neither sent nor kept in the history; the person answers now.
    if (this.status !== 'open') {
      this.squad?.drop();
      return;
    }
    // The turn's messages go after what it answered, before customer messages that arrived meanwhile.
    this.history.splice(seenUpTo, 0, ...messages.slice(1 + seenUpTo));
    // A customer who opted out meanwhile gets nothing more. A squad's replies carry the member's agent.
    const speaker = this.squad ? { id: context.agent.id, version: context.agent.version ?? null } : undefined;
    if (!this.optedOut)
      for (const { text, toolCalls } of turn.replies)
        this.work.push({ kind: 'outbound', message: this.reply(text, toolCalls, speaker) });
    if (turn.handoff !== null) this.handOver(turn.handoff);
    else if (turn.failure !== null) this.handOver(`The assistant could not answer: ${turn.failure}`);
    else if (this.squad?.handingOff) await this.handOff(context.agent.model, messages, answered);
  }

  /**
   * A squad member asked to hand the conversation over (src/workflows/conversation-squad.ts): the next
   * member's memory replaces the assistant's, the `handoff` entry is queued for the work lane, and the
   * next member answers at once (the message the turn answered is answered again, by it).
   */
  private async handOff(model: string | null, messages: ChatMessage[], answered: string | undefined): Promise<void> {
    const turn = { conversationId: this.input.conversationId, model, messages };
    const { history, entry } = await this.squad!.complete(turn, this.history);
    this.history = history;
    this.work.push({ kind: 'handoff', entry });
    if (answered && this.status === 'open' && !this.optedOut) this.unanswered.push(answered);
  }

  /** An assistant reply, with its message and event ids chosen here (deterministic on replay). */
  private reply(
    text: string,
    toolCalls: ToolCallEntry[] = [],
    agent?: { id: string; version: number | null },
  ): OutboundMessageInput {
    return {
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(agent ? { agent } : {}),
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
