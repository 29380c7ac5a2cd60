/**
 * `conversationWorkflow`: one WhatsApp, SMS or web-widget conversation, for one organization, mode, channel
 * and customer (workflow id `conv:<org>:<test|live>:<channel>:<number>`, src/shared/conversations.ts; on the
 * `web` channel the "number" is `user:<id>` or `visitor:<id>`). On `web`, each message stored is also
 * appended to the conversation's log (`appendConversationLog`, numbered 1, 2, … in the order the work lane
 * stores them), which the widget's server-sent event stream replays.
 * The shape is the entity pattern of temporalio/samples-typescript `safe-message-handlers`: handlers over
 * a state held in this function, an ordered work queue, `allHandlersFinished` before continue-as-new.
 *
 * Two lanes run side by side:
 * - the work lane takes the queue in order, one item at a time: store an inbound message (deduplicated by
 *   its provider id; `message.received`), send an outbound one (the API's, a person's, the assistant's),
 *   apply a provider status callback, write a hand-over or a resume. Every write to the conversation and
 *   its messages happens here, so they have one writer and a status never moves backwards.
 * - the assistant lane answers stored customer messages while the conversation is `open`, through the
 *   assistant turn shared with calls (src/workflows/assistant.ts) and the `handoff_to_person` tool; its
 *   replies join the work queue with message ids chosen here, so a retried or replayed send sends once.
 *
 * Hand-over: the tool (or an assistant that cannot answer, or no agent) sets `needs_person` and emits
 * `conversation.needs_person` once; while it lasts the assistant sends nothing, inbound messages are still
 * stored (and emit `message.received`); the `resume` update gives the conversation back, and the assistant
 * is told that a person handled the gap. Opt-out words stop the assistant until the customer opts in.
 *
 * The workflow continues as new when Temporal suggests it (or at `continueAsNewAtHistoryLength`), after
 * its handlers and queue are done, carrying its state; it ends after `IDLE_CLOSE_MS` without activity, and
 * the next message starts a fresh run that loads its state from the store.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import type { ChatMessage } from '../shared/assistant';
import type { AgentSnapshot } from '../shared/calls';
import { newId } from '../shared/ids';
import {
  chatMessageOf,
  conversationStateQuery,
  inboundSignal,
  outboundSignal,
  providerStatusSignal,
  receiveUpdate,
  resumeUpdate,
  freeTextAllowed,
  type Channel,
  type ConversationStatus,
  type ConversationWork,
  type ConversationWorkflow,
  type ConversationWorkflowInput,
  type InboundResult,
  type OutboundMessageInput,
} from '../shared/conversations';
import { assistantTurn } from './assistant';

/**
 * Reads and writes of our own store, as local activities (they take milliseconds, and a local activity
 * saves the round trips of a scheduled one through the Temporal server on every message): retried until
 * they succeed, so a store outage delays a conversation and never loses it. All are idempotent, as a
 * local activity may run again when a worker dies before its result is recorded.
 */
const store = proxyLocalActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The provider send: 15 s per try, retried for up to 10 minutes (a provider outage), then the message is
 * `failed` with `provider_unavailable`. Refusals are not errors (the activity marks the message failed).
 */
const messaging = proxyActivities<typeof activities>({
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

/**
 * Runs one conversation (see the module comment). Never fails on its own: an assistant that cannot
 * answer hands the conversation to a person, and a message the provider refuses is `failed`.
 * @param input the conversation's identity, and the state carried by a continue-as-new
 */
export async function conversationWorkflow(input: ConversationWorkflowInput): Promise<void> {
  const ref = {
    conversationId: input.conversationId,
    orgId: input.orgId,
    livemode: input.livemode,
    channel: input.channel,
  };
  const carried = input.carried;
  let loaded = carried !== undefined;
  let status: ConversationStatus = carried?.status ?? 'open';
  let handoffReason: string | null = carried?.handoffReason ?? null;
  let optedOut = carried?.optedOut ?? false;
  let agentId: string | null = carried?.agentId ?? input.agentId;
  let history: ChatMessage[] = carried?.history ?? [];
  const seen: string[] = carried?.seen ?? [];
  const seenSet = new Set(seen);
  let unanswered: string[] = carried?.unanswered ?? [];
  const work: ConversationWork[] = carried?.pending ?? [];
  /** Web channel: the last entry of the conversation's log (the widget's stream reads it in order). */
  let logSeq = carried?.logSeq ?? 0;
  /** Inbound messages whose `receive` update waits for the result, by proposed id. */
  const awaited = new Set<string>();
  const results = new Map<string, InboundResult>();
  const doneTickets = new Set<number>();
  let tickets = 0;
  let working = false;
  let answering = false;
  let stopping = false;
  let activity = 0;

  const remember = (id: string) => {
    seenSet.add(id);
    seen.push(id);
    while (seen.length > SEEN_LIMIT) seenSet.delete(seen.shift()!);
  };
  /** Drops the oldest chat messages beyond the limit, never starting on a tool answer or a bare assistant turn. */
  const trimHistory = () => {
    if (answering || history.length <= HISTORY_LIMIT) return;
    let start = history.length - HISTORY_LIMIT;
    while (start < history.length && history[start].role !== 'user' && history[start].role !== 'system') start++;
    history = history.slice(start);
  };
  /** Queues a status change of the conversation; resolves to its ticket (done once written). */
  const queueStatus = (next: ConversationStatus, reason: string | null, emit: boolean): number => {
    const ticket = ++tickets;
    work.push({ kind: 'conversation', status: next, reason, eventId: emit ? newId('evt') : null, ticket });
    return ticket;
  };
  /** Hands the conversation over to a person (once per hand-over): the assistant stops at once. */
  const handOver = (reason: string) => {
    if (status === 'needs_person') return;
    status = 'needs_person';
    handoffReason = reason;
    unanswered = [];
    queueStatus('needs_person', reason, true);
  };

  setHandler(inboundSignal, (message) => {
    activity++;
    work.push({ kind: 'inbound', message });
  });
  setHandler(receiveUpdate, async (message) => {
    activity++;
    awaited.add(message.messageId);
    work.push({ kind: 'inbound', message });
    await condition(() => results.has(message.messageId));
    const result = results.get(message.messageId)!;
    results.delete(message.messageId);
    return result;
  });
  setHandler(outboundSignal, (message) => {
    activity++;
    work.push({ kind: 'outbound', message });
  });
  setHandler(providerStatusSignal, (report) => {
    activity++;
    work.push({ kind: 'status', report });
  });
  setHandler(resumeUpdate, async () => {
    activity++;
    await condition(() => loaded);
    if (status !== 'needs_person') return { resumed: false };
    status = 'open';
    handoffReason = null;
    history.push({
      role: 'system',
      content:
        'A person of the organization handled this conversation since your hand-over (their messages and the ' +
        "customer's are above) and has now given it back to you. Continue from here; do not repeat what they said.",
    });
    const ticket = queueStatus('open', null, false);
    await condition(() => doneTickets.has(ticket));
    doneTickets.delete(ticket);
    return { resumed: true };
  });
  setHandler(conversationStateQuery, () => ({ status, optedOut, queued: work.length, unanswered: unanswered.length }));

  if (!loaded) {
    const state = await store.loadConversation({ conversationId: input.conversationId });
    status = state.status;
    handoffReason = state.handoffReason;
    optedOut = state.optedOut;
    agentId = state.agentId ?? agentId;
    history = state.history;
    logSeq = state.logSeq ?? logSeq;
    loaded = true;
  }

  /** The work lane: one item at a time, in arrival order. */
  const workLane = async () => {
    for (;;) {
      await condition(() => work.length > 0);
      working = true;
      await perform(work[0]); // an item leaves the queue only once done (a failed task retries it)
      work.shift();
      working = false;
    }
  };

  /**
   * Web channel: logs a stored message as the conversation's next log entry, after the message itself
   * (the work lane is the only writer, one item at a time, so the log's order is the order of storing).
   */
  const logMessage = async (messageId: string) => {
    if (input.channel !== 'web') return;
    await store.appendConversationLog({ conversationId: input.conversationId, seq: logSeq + 1, messageId });
    logSeq++;
  };

  const perform = async (item: ConversationWork): Promise<void> => {
    switch (item.kind) {
      case 'inbound': {
        const m = item.message;
        const stored = await store.storeInbound({ conversation: ref, message: m, eventId: newId('evt') });
        const duplicate = stored.duplicate || seenSet.has(stored.messageId);
        if (awaited.delete(m.messageId)) results.set(m.messageId, { messageId: stored.messageId, duplicate });
        if (duplicate) return;
        remember(stored.messageId);
        await logMessage(stored.messageId);
        if (stored.keyword === 'opt_out') {
          optedOut = true;
          unanswered = [];
          return;
        }
        if (stored.keyword === 'opt_in' && optedOut) {
          optedOut = false;
          return;
        }
        history.push({ role: 'user', content: m.text });
        trimHistory();
        // Answer only what can be answered: not while a person has the conversation, not after an
        // opt-out, and on WhatsApp not a message whose 24-hour window has already closed.
        if (status === 'open' && !optedOut && freeTextAllowed(input.channel, stored.receivedMs, Date.now())) {
          unanswered.push(stored.messageId);
        }
        return;
      }
      case 'outbound': {
        const m = item.message;
        if (seenSet.has(m.messageId)) return; // the same request signalled twice
        remember(m.messageId);
        if (m.agentId && m.agentId !== agentId) {
          agentId = m.agentId;
          await store.setConversationAgent({ conversationId: input.conversationId, agentId: m.agentId });
        }
        try {
          await messaging.sendMessage({ conversation: ref, message: m });
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
        await logMessage(m.messageId);
        if (m.author !== 'assistant') {
          history.push(chatMessageOf(m.author, m.text));
          trimHistory();
        }
        return;
      }
      case 'status':
        await store.applyMessageStatus(item.report);
        return;
      case 'conversation':
        await store.setConversationStatus({
          conversationId: input.conversationId,
          status: item.status,
          reason: item.reason,
          eventId: item.eventId,
        });
        doneTickets.add(item.ticket);
        return;
    }
  };

  /** The assistant lane: answers what the customer wrote, one turn at a time. */
  const assistantLane = async () => {
    for (;;) {
      await condition(() => !stopping && unanswered.length > 0 && status === 'open' && !optedOut);
      answering = true;
      try {
        await answer();
      } finally {
        answering = false;
        trimHistory();
      }
    }
  };

  const answer = async (): Promise<void> => {
    unanswered = [];
    const context = await store.conversationContext({
      orgId: input.orgId,
      livemode: input.livemode,
      agentId,
      customerNumber: input.customerNumber,
      conversationId: input.conversationId,
    });
    if (!context.agent) {
      handOver('No assistant is set to answer this conversation.');
      return;
    }
    const seenUpTo = history.length;
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: textSystemPrompt({
          agent: context.agent,
          channel: input.channel,
          customerNumber: input.customerNumber,
        }),
      },
      ...history,
    ];
    const replies: string[] = [];
    const outcome: { handoff: string | null; failure: string | null } = { handoff: null, failure: null };
    try {
      await assistantTurn({
        conversationId: input.conversationId,
        model: context.agent.model,
        messages,
        // The LLM activity adds the contact's records and the agent's knowledge from these ids.
        context: {
          orgId: input.orgId,
          livemode: input.livemode,
          agentId: context.agent.id,
          contactId: context.contactId,
        },
        tools: {
          handoff_to_person: (args) => {
            outcome.handoff ??=
              typeof args.reason === 'string' && args.reason.trim()
                ? args.reason.trim().slice(0, 500)
                : 'The assistant asked for a person.';
            return {
              summary: 'Handed over: a person of the organization answers the customer from now on.',
              ends: true,
            };
          },
        },
        observer: { onText: (text) => replies.push(text), onTool: () => undefined },
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      outcome.failure = errorMessage(err);
    }
    // The turn's messages go after what it answered, before customer messages that arrived meanwhile.
    history.splice(seenUpTo, 0, ...messages.slice(1 + seenUpTo));
    // A customer who opted out meanwhile gets nothing more.
    if (!optedOut) for (const text of replies) work.push({ kind: 'outbound', message: reply(text) });
    if (outcome.handoff !== null) handOver(outcome.handoff);
    else if (outcome.failure !== null) handOver(`The assistant could not answer: ${outcome.failure}`);
  };

  /** An assistant reply, with its message and event ids chosen here (deterministic on replay). */
  const reply = (text: string): OutboundMessageInput => ({
    messageId: newId('msg'),
    author: 'assistant',
    from: input.serviceNumber,
    to: input.customerNumber,
    text: text.length > MAX_REPLY_CHARS ? text.slice(0, MAX_REPLY_CHARS - 1) + '…' : text,
    template: null,
    createdMs: Date.now(),
    eventIds: { sent: newId('evt'), delivered: newId('evt'), failed: newId('evt') },
  });

  void workLane();
  void assistantLane();

  const shouldContinueAsNew = () =>
    workflowInfo().continueAsNewSuggested ||
    (input.continueAsNewAtHistoryLength !== undefined &&
      workflowInfo().historyLength >= input.continueAsNewAtHistoryLength);
  const quiet = () => work.length === 0 && !working && !answering && allHandlersFinished();

  for (;;) {
    const before = activity;
    const woke = await condition(() => activity !== before || shouldContinueAsNew(), IDLE_CLOSE_MS);
    if (shouldContinueAsNew()) {
      stopping = true;
      await condition(quiet);
      trimHistory();
      await continueAsNew<ConversationWorkflow>({
        ...input,
        agentId,
        carried: {
          status,
          handoffReason,
          optedOut,
          agentId,
          history,
          seen,
          unanswered,
          pending: work,
          ...(input.channel === 'web' ? { logSeq } : {}),
        },
      });
    }
    if (!woke && quiet() && unanswered.length === 0) return;
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

function errorMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
