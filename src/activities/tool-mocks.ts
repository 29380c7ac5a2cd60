/**
 * The made-up result of a mocked tool call (src/workflows/tool-mocks.ts `mockedTool`), for a call with
 * `tool_mocks` whose tool call matches no recorded result. The rules are src/services/tool-mocks.ts.
 */
import { Context } from '@temporalio/activity';
import { generateToolResult, type ToolMockRequest } from '../services/tool-mocks';

/**
 * Asks a model for a plausible result of the tool call; a cancelled attempt aborts its request.
 * @returns `{text}`: the result the assistant's model is given
 */
export async function generateToolMock(req: ToolMockRequest): Promise<{ text: string }> {
  return { text: await generateToolResult(req, Context.current().cancellationSignal) };
}
