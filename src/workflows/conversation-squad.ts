/**
 * `ConversationSquad`: a squad's text conversation (WhatsApp, SMS, the web widget) for one run of
 * `conversationWorkflow` (src/workflows/conversation-session.ts). The text counterpart of a call's
 * `CallSquad` (src/workflows/call-squad.ts), with the same channel-neutral rules (src/shared/squads.ts:
 * `routeHandoff`, `handoffMessages`): it offers the answering member's model one `handoff_to_<name>`
 * function per hand-off the member may make (the member's hand-offs as the turn's `conversationContext`
 * read them); when the model calls one, the turn ends and `complete` hands the conversation over: the
 * summary for a `summary` policy (the `generateReply` activity, durable), the next member's memory
 * (its context policy's lines and the hand-off note; its own system prompt comes with its next turn) and
 * the `handoff` entry the work lane records (`recordConversationHandoff`: the `handoff` message and
 * `conversation.handed_off`).
 *
 * Conversations without a squad never construct it: their commands are unchanged.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { newId } from '../shared/ids';
import { proxyActivities } from '@temporalio/workflow';
import type * as llmActivities from '../activities/llm';
import type { ChatMessage, ToolCall } from '../shared/assistant';
import type { ConversationHandoffEntry, ConversationSquadState } from '../shared/conversations';
import {
  contextLabel,
  handoffFunction,
  handoffMessages,
  handoffSummaryRequest,
  routeHandoff,
  type HandoffContext,
  type SquadHandoff,
} from '../shared/squads';
import type { ToolEffect } from './tools';

/** The summary of a `summary` hand-off: one request, retried once (as a call's). */
const summaryLlm = proxyActivities<typeof llmActivities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

/** The answering member's routing as a turn's `conversationContext` read it. */
export interface SquadRouting {
  member: string;
  handoffs: SquadHandoff[];
  max_handoffs: number;
  overflow: string | null;
}

/** The functions a member offers for one turn and their handler, as `assistantTurn`'s `own` takes them. */
export interface OwnFunctions {
  functions: { name: string; description: string; parameters: Record<string, unknown> }[];
  handle(call: ToolCall): ToolEffect;
}

/** A squad's conversation: which member answers, the hand-offs made, and the one asked for in this turn. */
export class ConversationSquad {
  /** A hand-off the model asked for in the turn under way, made after it (`complete`). */
  private pending: { to: string; context: HandoffContext } | null = null;

  /** @param state the squad, member and hand-off count (loaded from the store or carried) */
  constructor(readonly state: ConversationSquadState) {}

  /** Whether a hand-off waits to be made (`complete`). */
  get handingOff(): boolean {
    return this.pending !== null;
  }

  /**
   * The hand-off functions the member answering this turn offers (undefined when it has none). The member
   * the turn runs (`routing.member`) is the conversation's from now on: a squad edited to drop a member
   * falls back to its `start`.
   */
  offer(routing: SquadRouting): OwnFunctions | undefined {
    this.state.current = routing.member;
    this.pending = null;
    if (routing.handoffs.length === 0) return undefined;
    return { functions: routing.handoffs.map(handoffFunction), handle: (call) => this.ask(routing, call) };
  }

  /** The model called `handoff_to_<name>`: the hand-off is made after the turn (`complete`), or refused. */
  private ask(routing: SquadRouting, call: ToolCall): ToolEffect {
    if (this.pending !== null) return { summary: 'Error: a hand-off is already under way.', ends: false };
    const member = { name: routing.member, handoffs: routing.handoffs };
    const route = routeHandoff(member, routing, this.state.handoffs, call.name, 'conversation');
    if ('error' in route) return { summary: route.error, ends: false };
    this.pending = route;
    // Ends the turn's tool rounds: the next member answers with its own prompt and tools.
    return { summary: `Handed off to ${route.to}.`, ends: true };
  }

  /** Forgets a hand-off asked for in a turn whose outcome is dropped (a person took the conversation over). */
  drop(): void {
    this.pending = null;
  }

  /**
   * Makes the pending hand-off: the summary (`summary` policy: `generateReply` over the turn's messages,
   * durable), the next member's memory (src/shared/squads.ts `handoffMessages` over `history`, without
   * the system prompt, which each turn puts first), and the `handoff` entry for the work lane.
   * @param turn the conversation, model and messages (system prompt first) of the turn that asked for it
   * @param history the assistant's memory after that turn (without the system prompt)
   */
  async complete(
    turn: { conversationId: string; model: string | null; messages: ChatMessage[] },
    history: readonly ChatMessage[],
  ): Promise<{ history: ChatMessage[]; entry: ConversationHandoffEntry }> {
    const pending = this.pending!;
    this.pending = null;
    const summary = pending.context === 'summary' ? await summarize(turn) : null;
    const from = this.state.current;
    const handed = handoffMessages({
      systemPrompt: '',
      from,
      to: pending.to,
      context: pending.context,
      previous: history,
      summary,
      party: 'customer',
    }).slice(1);
    this.state.current = pending.to;
    this.state.handoffs++;
    const entry: ConversationHandoffEntry = {
      messageId: newId('msg'),
      eventId: newId('evt'),
      from,
      to: pending.to,
      context: contextLabel(pending.context),
      ...(summary !== null ? { summary } : {}),
      handoffs: this.state.handoffs,
      createdMs: Date.now(),
    };
    return { history: handed, entry };
  }
}

/** The model's summary of the conversation so far (null when it wrote none). */
async function summarize(turn: {
  conversationId: string;
  model: string | null;
  messages: ChatMessage[];
}): Promise<string | null> {
  const reply = await summaryLlm.generateReply.executeWithOptions({ summary: 'summary for a squad hand-off' }, [
    {
      callId: turn.conversationId,
      model: turn.model,
      messages: [...turn.messages, { role: 'system', content: handoffSummaryRequest('conversation') }],
      tools: [],
    },
  ]);
  return reply.text;
}
