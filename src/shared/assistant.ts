/**
 * The assistant's contract, shared by every channel (calls today; conversations and the widget reuse
 * it): the Chat Completions shapes that cross the workflow/activity boundary, the call's system prompt,
 * and the LLM activity's failure types. The tools the assistant may call are in ./tools.ts. Bundle-safe:
 * plain JSON, no classes, imports nothing of the project outside src/shared.
 */
import { formPrompt, type FormDefinition } from './forms';
import type { ToolCallRecord } from './tools';

/** A Chat Completions message as the workflow keeps the conversation. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool call the model asked for; `arguments` is the model's JSON text, unparsed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A knowledge chunk the assistant was given: the document (`kdoc_…`) and the chunk's number in it
 * (from 0). Recorded on transcript turns, so a transcript shows what the assistant knew.
 */
export interface KnowledgeRef {
  document: string;
  chunk: number;
}

/**
 * Who and what an assistant turn is about, by id only (the workflow history stays small): the LLM
 * activity loads the contact's name and records and searches the agent's knowledge itself.
 */
export interface AssistantContextIds {
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The contact the conversation is with (`cont_…`), or null. */
  contactId: string | null;
}

/** One transcript turn; `seq` numbers turns from 0 within a call. */
export interface CallTurnInput {
  seq: number;
  /**
   * `system`: a note of what happened on the call (a warm transfer's progress), for the model too; `note`
   *: a note for the model only (`POST /v1/calls/{id}/context`), never spoken.
   */
  role: 'assistant' | 'caller' | 'tool' | 'system' | 'note';
  text: string;
  atMs: number;
  /** Who had the turn said or added when not the assistant itself (`api`: `say` and `context`); absent otherwise. */
  author?: 'api';
  /** Its entry's number in the call's live stream (src/models/calls.ts `CallStreamEntry`); absent: not streamed. */
  stream?: number;
  toolName?: string;
  toolArguments?: string;
  /** Knowledge chunks the assistant was given for this turn (prompt or `search_knowledge`). */
  knowledge?: KnowledgeRef[];
  /** The model's id of the tool call (tool turns). */
  toolCallId?: string;
  /** The call's key (`tc_…`), outcome, HTTP status and duration (tool turns; absent in turns recorded before). */
  toolCall?: ToolCallRecord;
  /** Assistant turns: the caller talked over it; `text` is what was heard of it. */
  interrupted?: boolean;
}

/**
 * Where the LLM activity finds the conversation before the messages it is given: the call's stored
 * system prompt inputs and recorded transcript turns (so a turn's activity input stays small however long
 * the call: the history of a run grows with the turns, not with their square).
 */
export interface ConversationRef {
  callId: string;
}

/** Failure type of a turn whose answer did not come within its deadline. */
export const TURN_DEADLINE_EXCEEDED = 'TurnDeadlineExceeded';

/** The agent as a call or conversation sees it (a snapshot taken at creation). */
export interface AssistantAgent {
  name: string;
  instructions: string;
  transfer_to: string | null;
}

/**
 * The system message of a phone call (DESIGN.md section 6): the agent's instructions, how to speak on
 * the phone, when to use the tools, the call's `context` as facts, and for a campaign call the form to fill
 * (src/shared/forms.ts `formPrompt`).
 * @param input the agent snapshot, the number called, the call's `context`, the campaign's form if any
 */
export function callSystemPrompt(input: {
  agent: AssistantAgent;
  /** Whom the call is with: the number dialed, or an inbound call's caller. */
  to: string;
  context: Record<string, unknown>;
  form?: FormDefinition | null;
  /** An inbound call: the assistant answers `to`'s call instead of having placed it. */
  inbound?: boolean;
}): string {
  const parts = [
    input.agent.instructions.trim(),
    '',
    `You are "${input.agent.name}", ${input.inbound ? 'answering a phone call from' : 'speaking on a phone call with'} ${input.to}. Your words are read aloud: ` +
      'answer in one to three short sentences, no lists or markup.',
    'Call the tool end_call when the conversation is over (after saying goodbye), and transfer_call when the ' +
      'caller asks for a person or you cannot help.',
  ];
  if (input.agent.transfer_to) parts.push(`Transfer destination: ${input.agent.transfer_to}`);
  if (Object.keys(input.context).length > 0) {
    parts.push(
      '',
      'Facts for this call (use them; do not read them out verbatim):',
      JSON.stringify(input.context, null, 2),
    );
  }
  if (input.form) parts.push('', formPrompt(input.form));
  return parts.join('\n');
}

/** Failure type of an LLM request the provider refused (a 4xx other than 408/409/429): not retried. */
export const LLM_REQUEST_REJECTED = 'LlmRequestRejected';
