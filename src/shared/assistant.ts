/**
 * The assistant's contract, shared by every channel (calls today; conversations and the widget reuse
 * it): the Chat Completions shapes that cross the workflow/activity boundary, the tools the assistant
 * may call (name, description and JSON schema in one table: DESIGN.md section 6), and the LLM activity's
 * failure type. Bundle-safe: plain JSON, no classes, imports nothing of the project.
 */

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

/** One transcript turn; `seq` numbers turns from 0 within a call. */
export interface CallTurnInput {
  seq: number;
  role: 'assistant' | 'caller' | 'tool';
  text: string;
  atMs: number;
  toolName?: string;
  toolArguments?: string;
}

/** A tool the model may call: its name, what it is for, and the JSON schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Names of the assistant's tools (DESIGN.md section 6). */
export type ToolName = 'end_call' | 'transfer_call' | 'handoff_to_person';

/** Every tool the assistant may be offered, by name; a channel offers a subset (src/workflows/assistant.ts). */
export const TOOL_DEFINITIONS: Record<ToolName, ToolDefinition> = {
  end_call: {
    name: 'end_call',
    description: 'Hang up: the conversation is over.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  transfer_call: {
    name: 'transfer_call',
    description: 'Transfer the caller to a person.',
    parameters: {
      type: 'object',
      properties: { to: { type: 'string', description: 'E.164 number, sip: URI or client: identity; omit for the default destination' } },
      additionalProperties: false,
    },
  },
  handoff_to_person: {
    name: 'handoff_to_person',
    description: 'Hand the conversation over to a person of the organization: they answer from now on.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'why a person is needed, in a few words' } },
      additionalProperties: false,
    },
  },
};

/** Failure type of an LLM request the provider refused (a 4xx other than 408/409/429): not retried. */
export const LLM_REQUEST_REJECTED = 'LlmRequestRejected';
