/**
 * Made-up tool results: a mocked call's tool call whose arguments match no recorded result
 * (src/shared/tool-mocks.ts) is answered with a plausible result a model writes from the tool's name,
 * description and arguments: one Chat Completions request to the simulator's model (`SIMULATOR_MODEL`,
 * else `OPENAI_MODEL`), never the tool's server. Not metered (as the persona caller's requests: mocked
 * calls are test-mode rehearsals).
 */
import { config } from '../config';
import { tracedChat } from '../platform/genai-tracing';
import { openai } from '../providers/openai';
import { TOOL_MOCK_LIMITS } from '../shared/tool-mocks';

/** The first words of the request's system prompt: the loopback fake LLM recognizes it by them. */
export const TOOL_MOCK_PROMPT_MARKER = 'You stand in for a tool of an AI phone assistant';

/** A tool call to answer: the tool's name, its description (when known) and the model's arguments (JSON text). */
export interface ToolMockRequest {
  callId: string;
  name: string;
  description?: string | null;
  arguments: string;
}

/**
 * A plausible result of the tool call `req` (the model's text, at most `TOOL_MOCK_LIMITS.resultChars`;
 * "{}" when the model said nothing).
 * @throws the provider's errors (the activity's retry policy decides)
 */
export async function generateToolResult(req: ToolMockRequest, signal?: AbortSignal): Promise<string> {
  const cfg = config();
  const model = cfg.simulatorModel ?? cfg.openaiModel;
  const completion = await tracedChat(
    model,
    () =>
      openai().chat.completions.create(
        {
          model,
          messages: [
            {
              role: 'system',
              content: [
                `${TOOL_MOCK_PROMPT_MARKER} in a rehearsal: the tool is not called, you answer in its place.`,
                'Answer with what the tool would most plausibly return for these arguments (JSON when the tool answers JSON), nothing else.',
              ].join('\n'),
            },
            {
              role: 'user',
              content: `Tool: ${req.name}\nDescription: ${req.description ?? '(none)'}\nArguments: ${req.arguments || '{}'}`,
            },
          ],
          user: req.callId,
        },
        { signal },
      ),
    { purpose: 'tool_mock' },
  );
  const text = completion.choices[0]?.message?.content?.trim();
  return (text || '{}').slice(0, TOOL_MOCK_LIMITS.resultChars);
}
