/**
 * The persona caller's turn, run by `callWorkflow` for a test-mode call with
 * `simulation.persona` (src/workflows/call-turns.ts `hearPersona`), as a local activity like the assistant's turn.
 * The rules are src/services/simulator.ts.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { isRejectedRequest } from '../providers/openai';
import { askPersona } from '../services/simulator';
import { callConversation } from '../services/calls';
import { LLM_REQUEST_REJECTED, type ChatMessage, type ConversationRef } from '../shared/assistant';
import type { PersonaLine, PersonaSimulation } from '../shared/calls';

/** Input of `personaTurn`. */
export interface PersonaTurnInput {
  callId: string;
  simulation: PersonaSimulation;
  /** The call's conversation as the assistant sees it; with `history`, only what follows the stored transcript. */
  messages: ChatMessage[];
  /** A continued run: the earlier conversation is read from the stored transcript. */
  history?: ConversationRef;
}

/**
 * Asks the simulator model for the persona's next line (src/services/simulator.ts `askPersona`); a
 * cancelled attempt aborts its request.
 * @returns the line and whether the persona hung up
 * @throws ApplicationFailure `LLM_REQUEST_REJECTED` (not retried) when the provider refused the request (4xx)
 */
export async function personaTurn(input: PersonaTurnInput): Promise<PersonaLine> {
  const chat = input.history ? [...(await callConversation(input.history.callId)), ...input.messages] : input.messages;
  try {
    return await askPersona(input.simulation, chat, input.callId, Context.current().cancellationSignal);
  } catch (err) {
    if (isRejectedRequest(err))
      throw ApplicationFailure.nonRetryable(
        `Simulator request rejected (${err.status}): ${err.message}`,
        LLM_REQUEST_REJECTED,
      );
    throw err;
  }
}
