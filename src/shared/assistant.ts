/** Shapes that cross the workflow/activity boundary (plain JSON, no classes). */

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
