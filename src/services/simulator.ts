/**
 * Persona callers: a test-mode call whose caller is a model playing a persona towards a
 * goal. One caller turn is one Chat Completions request through the same OpenAI-compatible client as the
 * assistant's (src/providers/openai.ts), with its own model (`SIMULATOR_MODEL`, else `OPENAI_MODEL`):
 * a system prompt that makes the model the caller (`personaPrompt`), then the conversation so far with
 * the roles flipped (`personaMessages`: the assistant's lines are the "user", the caller's own lines
 * the "assistant"), and a `hang_up` tool (or the `[HANG UP]` marker in its text) to end the call once the
 * goal is met or cannot be.
 *
 * Usage: the simulator's requests are not metered (no usage row; they are not the agent's LLM usage and
 * are never billed): persona calls exist in test mode only.
 */
import OpenAI from 'openai';
import { config } from '../config';
import { openai } from '../providers/openai';
import { tracedChat } from '../platform/genai-tracing';
import type { ChatMessage } from '../shared/assistant';
import type { PersonaLine, PersonaSimulation } from '../shared/calls';

/**
 * The first words of the simulator's system prompt: the loopback fake LLM (test/support/fake-llm.ts)
 * recognizes a persona request by them.
 */
export const PERSONA_PROMPT_MARKER = 'You are the CALLER in a simulated phone call';

/** The text marker a persona may end its line with instead of calling `hang_up`. */
export const HANG_UP_MARKER = '[HANG UP]';

/** The tool the persona calls to end the call (`{}`: no arguments). */
const HANG_UP_TOOL: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'hang_up',
    description: 'Hang up the phone: the call ends after what you say in this message.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
};

/** The simulator's system prompt for `simulation`. */
export function personaPrompt(simulation: PersonaSimulation): string {
  return [
    `${PERSONA_PROMPT_MARKER} with an AI phone assistant. You are not the assistant.`,
    `Who you are: ${simulation.persona}`,
    `Your goal on this call: ${simulation.goal}`,
    'Say only what the caller says aloud, one short turn at a time: no narration, no stage directions, no quotes.',
    `When your goal is met, or clearly cannot be met, say a short goodbye and call the hang_up tool (or end your line with ${HANG_UP_MARKER}).`,
  ].join('\n');
}

/**
 * The conversation as the persona sees it: the call's chat messages (the assistant's conversation, system
 * prompt first) with system, tool and tool-call-only messages left out and the roles flipped; a first
 * "user" message says the call connected when the assistant has not spoken first.
 */
export function personaMessages(simulation: PersonaSimulation, chat: ChatMessage[]): ChatMessage[] {
  const flipped: ChatMessage[] = [];
  for (const m of chat) {
    if (m.role === 'user') flipped.push({ role: 'assistant', content: m.content });
    else if (m.role === 'assistant' && m.content) flipped.push({ role: 'user', content: m.content });
  }
  if (flipped[0]?.role !== 'user') flipped.unshift({ role: 'user', content: '(The call connects. You speak first.)' });
  return [{ role: 'system', content: personaPrompt(simulation) }, ...flipped];
}

/**
 * The persona's line from the model's answer: its text without the hang-up marker (null when empty), and
 * whether it hung up (the `hang_up` tool, or the marker).
 */
export function personaLine(content: string | null | undefined, toolNames: string[]): PersonaLine {
  const raw = (content ?? '').trim();
  const marked = raw.toUpperCase().includes(HANG_UP_MARKER);
  const text = raw
    .split(HANG_UP_MARKER)
    .join('')
    .replace(/\[hang up\]/gi, '')
    .trim();
  return { text: text || null, hangUp: marked || toolNames.includes('hang_up') };
}

/**
 * Asks the simulator model for the persona's next line.
 * @param chat the call's conversation so far (the assistant's chat messages)
 * @param user the call id (the provider's `user`)
 * @throws the provider's errors (the activity's retry policy decides)
 */
export async function askPersona(
  simulation: PersonaSimulation,
  chat: ChatMessage[],
  user: string,
  signal?: AbortSignal,
): Promise<PersonaLine> {
  const cfg = config();
  const model = cfg.simulatorModel ?? cfg.openaiModel;
  const completion = await tracedChat(
    model,
    () =>
      openai().chat.completions.create(
        {
          model,
          messages: personaMessages(simulation, chat) as OpenAI.Chat.Completions.ChatCompletionMessageParam[],
          tools: [HANG_UP_TOOL],
          user,
        },
        { signal },
      ),
    { purpose: 'simulated_caller' },
  );
  const message = completion.choices[0]?.message;
  if (!message) throw new Error('the simulator model returned no choice');
  const tools = (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c.function.name] : []));
  return personaLine(message.content, tools);
}
