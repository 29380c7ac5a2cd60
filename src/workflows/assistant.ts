/**
 * The assistant's turn, shared by every channel (calls today; `conversationWorkflow` and the widget
 * reuse it): the system prompt, the LLM request (the `generateReply` activity, Chat Completions through
 * the `openai` package: src/activities/llm.ts) and the tool table. A channel says which tools it offers
 * and what each one does to it (`ToolHandlers`); the tools' names and JSON schemas are in
 * src/shared/assistant.ts, so the model is offered exactly what the channel can do.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type * as activities from '../activities';
import {
  LLM_REQUEST_REJECTED,
  type AssistantContextIds,
  type ChatMessage,
  type KnowledgeRef,
  type ToolCall,
  type ToolName,
} from '../shared/assistant';
import type { AgentSnapshot } from '../shared/calls';

/**
 * The LLM: 30 s per try, 3 tries; a request the provider refused (4xx) is not retried. A turn that
 * cannot be answered fails its caller (a call then ends `failed`, `error`).
 */
const llm = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [LLM_REQUEST_REJECTED] },
});

/**
 * The knowledge search behind the `search_knowledge` tool: a store read, 10 s per try, 3 tries. A search
 * that still fails is answered to the model as an error; it never ends the conversation.
 */
const knowledge = proxyActivities<typeof activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 3 },
});

/** Knowledge chunks a `search_knowledge` call returns to the model. */
export const SEARCH_TOOL_CHUNKS = 3;

/** Tool rounds the assistant may take in one turn before it must speak. */
export const MAX_TOOL_ROUNDS = 3;

/** What applying a tool call did: the text given back to the model, and whether the turn must stop. */
export interface ToolEffect {
  summary: string;
  /** True when the tool ends the conversation (hang up, transfer): no further round in this turn. */
  ends: boolean;
  /** Knowledge chunks the tool gave the model (`search_knowledge`). */
  knowledge?: KnowledgeRef[];
}

/**
 * A channel's tools: for each tool it offers, what the tool does (arguments already parsed). A handler
 * that needs the outside world (`search_knowledge`) returns a promise and runs an activity.
 */
export type ToolHandlers = Partial<Record<ToolName, (args: Record<string, unknown>) => ToolEffect | Promise<ToolEffect>>>;

/** What the turn produced, reported as it happens so the channel can record or speak it. */
export interface TurnObserver {
  /**
   * The assistant said `text` (one per LLM answer that had text); `knowledge` lists the chunks its
   * prompt carried.
   */
  onText(text: string, knowledge: KnowledgeRef[]): void;
  /** The assistant called a tool; `effect` is what the handler did. */
  onTool(call: ToolCall, effect: ToolEffect): void;
}

/** Inputs of one assistant turn. */
export interface AssistantTurnInput {
  /** The id the LLM request is made for (the call id): the provider's `user`, and log correlation. */
  conversationId: string;
  /** Model name; null for the configured default (`OPENAI_MODEL`). */
  model: string | null;
  /** The conversation so far, system prompt first; the turn appends the assistant's and tools' messages. */
  messages: ChatMessage[];
  tools: ToolHandlers;
  observer: TurnObserver;
  /**
   * Who the conversation is with and which agent answers: the LLM activity loads the contact's records and
   * the knowledge for the latest user message from these ids. Absent: the prompt is sent as it is.
   */
  context?: AssistantContextIds;
}

/**
 * Runs one assistant turn after the other party spoke: asks the model, applies the tools it calls, and
 * asks again (at most `MAX_TOOL_ROUNDS` requests) until it answers without a tool or a tool ends the
 * conversation. Appends every message to `input.messages`.
 * @returns `ended`: a tool ended the conversation
 * @throws the LLM activity's failure once its retries are spent
 */
export async function assistantTurn(input: AssistantTurnInput): Promise<{ ended: boolean }> {
  const offered = Object.keys(input.tools) as ToolName[];
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    const reply = await llm.generateReply({ callId: input.conversationId, model: input.model, messages: input.messages, tools: offered, context: input.context });
    if (reply.text) input.observer.onText(reply.text, reply.knowledge ?? []);
    input.messages.push({ role: 'assistant', content: reply.text, tool_calls: reply.toolCalls.length ? reply.toolCalls : undefined });
    if (reply.toolCalls.length === 0) return { ended: false };
    let ended = false;
    for (const call of reply.toolCalls) {
      const applied = applyTool(input.tools, call);
      // Synchronous effects stay synchronous, so turns recorded before async tools existed replay alike.
      const effect = isPromise(applied) ? await applied : applied;
      input.observer.onTool(call, effect);
      input.messages.push({ role: 'tool', tool_call_id: call.id, content: effect.summary });
      ended ||= effect.ends;
    }
    if (ended) return { ended: true };
  }
  return { ended: false };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === 'function';
}

/** Applies one tool call. Unknown tools and bad arguments are answered to the model, never fatal. */
export function applyTool(tools: ToolHandlers, call: ToolCall): ToolEffect | Promise<ToolEffect> {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(call.arguments || '{}');
    if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
  } catch {
    return { summary: `Error: the arguments of ${call.name} are not valid JSON.`, ends: false };
  }
  const handler = tools[call.name as ToolName];
  if (!handler) return { summary: `Error: the tool ${call.name} is not available on this call.`, ends: false };
  return handler(args);
}

/**
 * The `search_knowledge` tool for a conversation with `context`: runs the `searchKnowledge` activity
 * (BM25 over the agent's documents, src/lib/knowledge.ts) and gives the model the best chunks, numbered
 * and titled; the effect lists them so the transcript shows what the assistant found.
 */
export function searchKnowledgeTool(context: AssistantContextIds): NonNullable<ToolHandlers['search_knowledge']> {
  return async (args) => {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) return { summary: 'Error: search_knowledge needs a non-empty "query".', ends: false };
    let hits: Awaited<ReturnType<typeof activities.searchKnowledge>>['hits'];
    try {
      ({ hits } = await knowledge.searchKnowledge({ orgId: context.orgId, livemode: context.livemode, agentId: context.agentId, query, limit: SEARCH_TOOL_CHUNKS }));
    } catch (err) {
      if (isCancellation(err)) throw err;
      return { summary: 'Error: the knowledge search is unavailable right now.', ends: false, knowledge: [] };
    }
    if (hits.length === 0) return { summary: `No knowledge found for "${query}".`, ends: false, knowledge: [] };
    const text = hits.map((h, i) => `[${i + 1}] ${h.title} (${h.document} #${h.chunk})\n${h.text}`).join('\n\n');
    return { summary: text, ends: false, knowledge: hits.map((h) => ({ document: h.document, chunk: h.chunk })) };
  };
}

/**
 * The system message of a phone call (DESIGN.md section 6): the agent's instructions, how to speak on
 * the phone, when to use the tools, and the call's `context` as facts.
 * @param input the agent snapshot, the number called, the call's `context`
 */
export function callSystemPrompt(input: { agent: AgentSnapshot; to: string; context: Record<string, unknown> }): string {
  const parts = [
    input.agent.instructions.trim(),
    '',
    `You are "${input.agent.name}", speaking on a phone call with ${input.to}. Your words are read aloud: ` +
      'answer in one to three short sentences, no lists or markup.',
    'Call the tool end_call when the conversation is over (after saying goodbye), and transfer_call when the ' +
      'caller asks for a person or you cannot help.',
  ];
  if (input.agent.transfer_to) parts.push(`Transfer destination: ${input.agent.transfer_to}`);
  if (Object.keys(input.context).length > 0) {
    parts.push('', 'Facts for this call (use them; do not read them out verbatim):', JSON.stringify(input.context, null, 2));
  }
  return parts.join('\n');
}
