/**
 * The assistant's contract, shared by every channel (calls, conversations and the widget): the Chat
 * Completions shapes that cross the workflow/activity boundary, the system prompt of calls and conversations,
 * and the LLM activity's failure types. The tools the assistant may call are in ./tools.ts. Bundle-safe:
 * plain JSON, no classes, imports nothing of the project outside src/shared.
 */
import { formPrompt, type FormDefinition } from './forms';
import type { RecordedLatency } from './latency';
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
  /** Where the chunk comes from, to cite it (absent in refs recorded before sources existed). */
  source?: KnowledgeSource;
}

/**
 * A knowledge chunk's source as the assistant may cite it: the document's title and, when the document
 * has them, the page it came from (`url`, crawls and single pages), its file name (uploads) and the
 * 1-based page of a PDF.
 */
export interface KnowledgeSource {
  title: string;
  url?: string;
  filename?: string;
  page?: number;
}

/** A source in a few words for the model: its title, then its page, file name or address when it has them. */
export function citeSource(source: KnowledgeSource): string {
  const where = [
    source.page !== undefined ? `page ${source.page}` : null,
    source.filename ?? null,
    source.url ?? null,
  ].filter(Boolean);
  return where.length ? `${source.title}, ${where.join(', ')}` : source.title;
}

/**
 * Knowledge chunks as the model is given them (in the prompt and as the `search_knowledge` tool's result):
 * numbered, each with its title, document and chunk number, and its source when it has more than a title.
 */
export function formatKnowledgeHits(
  hits: (KnowledgeRef & { title: string; text: string; source?: KnowledgeSource })[],
): string {
  return hits
    .map((h, i) => {
      const cite = h.source ? citeSource(h.source) : h.title;
      const source = cite !== h.title ? `\nSource: ${cite}` : '';
      return `[${i + 1}] ${h.title} (${h.document} #${h.chunk})${source}\n${h.text}`;
    })
    .join('\n\n');
}

/** A hit as a transcript records it: document, chunk and source (title, url, file name, page). */
export function knowledgeRefOf(hit: KnowledgeRef): KnowledgeRef {
  return { document: hit.document, chunk: hit.chunk, ...(hit.source ? { source: hit.source } : {}) };
}

/**
 * Who and what an assistant turn is about, by id only (the workflow history stays small): the LLM
 * activity loads the contact's name and records and searches the agent's knowledge itself.
 */
export interface AssistantContextIds {
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The agent's mode when it differs from the call's (src/shared/calls.ts `agent_livemode`): its knowledge is read there. */
  agentLivemode?: boolean;
  /**
   * A squad call after a hand-off: the version of `agentId` (the member's agent) that answers, so the
   * model requests' usage rows are the member's (src/activities/llm.ts); absent otherwise (the rows then
   * take the call's agent and version).
   */
  agentVersion?: number;
  /**
   * A squad call: the member whose model request this is (src/workflows/call-tools.ts `meterAs`): its usage
   * row names the member and carries the request's own cost (src/services/usage.ts `llmRequestUsage`), so
   * a call's cost splits per member. Absent on other calls.
   */
  squadMember?: string;
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
  role: 'assistant' | 'caller' | 'tool' | 'system' | 'note' | 'handoff';
  text: string;
  atMs: number;
  /** A squad call's assistant turns: the member's agent that said it and its version (absent on other calls). */
  agent?: { id: string; version: number | null };
  /** `handoff` entries: who handed the call to whom, with which context policy, and the summary given. */
  handoff?: { from: string; to: string; context: string; summary?: string };
  /**
   * `handoff` entries: the receiving member's system prompt, stored (never shown) so that the model's
   * conversation can be rebuilt from the entry on (src/services/calls.ts `callConversation`).
   */
  handoffPrompt?: string;
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
  /**
   * Caller turns: only a backchannel ("mhmm", src/shared/turn-taking.ts `isBackchannel`) said while the
   * assistant spoke: it interrupted nothing and started no model turn.
   */
  backchannel?: boolean;
  /** The first assistant turn of an answer: its latency as the caller heard it (src/shared/latency.ts). */
  latency?: RecordedLatency;
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
  /** The places `transfer_call` may name (src/shared/dialing.ts); absent on calls made before they existed. */
  transfer_destinations?: { name: string; description: string | null }[];
}

/**
 * Where the assistant talks, for its system message: a phone call (whom it is with, the call's `context`,
 * a campaign's form) or a text conversation (its channel and the customer's number or `visitor:…` ref).
 */
export type PromptSetting =
  | {
      medium: 'call';
      /** Whom the call is with: the number dialed, or an inbound call's caller. */
      to: string;
      context: Record<string, unknown>;
      form?: FormDefinition | null;
      /** An inbound call: the assistant answers `to`'s call instead of having placed it. */
      inbound?: boolean;
    }
  | { medium: 'text'; channel: 'whatsapp' | 'sms' | 'web'; customerNumber: string };

/**
 * The assistant's system message, the one builder for calls and conversations (DESIGN.md section 6): the
 * agent's instructions; who it is and how it writes or speaks in this setting; when to use the tools that
 * end the conversation or hand it over; and on a call the transfer destination, the call's `context` as
 * facts and a campaign's form to fill (src/shared/forms.ts `formPrompt`). Pure: the same agent and setting
 * give the same text, so a call's prompt can be rebuilt from its stored inputs (src/services/calls.ts
 * `callConversation`) exactly as the workflow built it.
 * @param agent the agent snapshot the call or the turn runs (its `name`, `instructions`, `transfer_to`)
 */
export function systemPrompt(agent: AssistantAgent, setting: PromptSetting): string {
  const parts = [agent.instructions.trim(), ''];
  if (setting.medium === 'text') {
    const medium =
      setting.channel === 'whatsapp' ? 'WhatsApp' : setting.channel === 'web' ? 'the chat on our website' : 'SMS';
    const who = setting.channel === 'web' ? 'a visitor' : `the customer ${setting.customerNumber}`;
    parts.push(
      `You are "${agent.name}", writing with ${who} over ${medium}. ` +
        'Answer in plain text, briefly (a few sentences at most), without markdown.',
      'Call the tool handoff_to_person with a short reason when the customer asks for a person or you cannot ' +
        'help; after that a person answers them.',
    );
    return parts.join('\n');
  }
  const destinations = agent.transfer_destinations;
  // An agent with nowhere to transfer to is not offered transfer_call (src/workflows/call-tools.ts).
  const transfers = destinations === undefined || destinations.length > 0 || Boolean(agent.transfer_to);
  parts.push(
    `You are "${agent.name}", ${setting.inbound ? 'answering a phone call from' : 'speaking on a phone call with'} ${setting.to}. Your words are read aloud: ` +
      'answer in one to three short sentences, no lists or markup.',
    transfers
      ? 'Call the tool end_call when the conversation is over (after saying goodbye), and transfer_call when the ' +
          'caller asks for a person or you cannot help.'
      : 'Call the tool end_call when the conversation is over (after saying goodbye). You cannot transfer calls.',
  );
  if (destinations?.length)
    parts.push(
      'Transfer destinations (name one in transfer_call; you cannot transfer anywhere else, whatever the caller says): ' +
        destinations.map((d) => (d.description ? `${d.name} (${d.description})` : d.name)).join('; '),
    );
  if (agent.transfer_to)
    parts.push(
      `${destinations?.length ? 'Default transfer destination' : 'Transfer destination'}: ${agent.transfer_to}`,
    );
  if (Object.keys(setting.context).length > 0) {
    parts.push(
      '',
      'Facts for this call (use them; do not read them out verbatim):',
      JSON.stringify(setting.context, null, 2),
    );
  }
  if (setting.form) parts.push('', formPrompt(setting.form));
  return parts.join('\n');
}

/**
 * The system message of a phone call: `systemPrompt` with a call's setting (the shape the call workflow
 * passes; it adds nothing of its own).
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
  const { agent, ...setting } = input;
  return systemPrompt(agent, { medium: 'call', ...setting });
}

/** Failure type of an LLM request the provider refused (a 4xx other than 408/409/429): not retried. */
export const LLM_REQUEST_REJECTED = 'LlmRequestRejected';
