/**
 * One assistant turn of a text conversation (WhatsApp, SMS or the web widget), for `ConversationSession`
 * (src/workflows/conversation-session.ts): the channel's built-in tools and the agent's own, the shared
 * assistant turn (src/workflows/assistant.ts `assistantTurn`), and what it wrote, each text with the tool
 * calls made before it.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and other workflow modules.
 */
import { isCancellation } from '@temporalio/workflow';
import type { ChatMessage } from '../shared/assistant';
import type { AgentSnapshot } from '../shared/calls';
import type { ConversationWorkflowInput, ToolCallEntry } from '../shared/conversations';
import { offeredTools } from '../shared/tools';
import { assistantTurn } from './assistant';
import type { OwnFunctions } from './conversation-squad';
import { errorMessage } from './retry';
import { channelTools, resolveCustomTools } from './tools';

/** A reply of the assistant's turn, with the tool calls made before it. */
export interface Reply {
  text: string;
  toolCalls: ToolCallEntry[];
}

/** What a conversation turn produced. */
export interface ConversationTurn {
  /** Its texts in order, each with the tool calls made before it (calls after the last text go with the last). */
  replies: Reply[];
  /** The turn's tool calls when it wrote no text at all (a hand-over, the last tool round, a failure). */
  unsent: ToolCallEntry[];
  /** The reason the `handoff_to_person` tool gave, or null. */
  handoff: string | null;
  /** Why the turn failed (the LLM's retries spent), or null. */
  failure: string | null;
}

/**
 * Runs the assistant turn of `input`'s conversation over `messages` (system prompt first; extended in
 * place with the assistant's and the tools' messages). The agent's own tools (`tool_ids`, connector
 * installations) are offered with the channel's built-in ones (`handoff_to_person`, and
 * `schedule_callback` when the agent enables it). Never throws but for cancellation: a failure is
 * returned in `failure`.
 * @param toolCallKey the run's tool call keys (src/workflows/tools.ts `toolCallKeys`)
 * @param own functions the workflow answers itself (a squad member's `handoff_to_<name>`:
 *   src/workflows/conversation-squad.ts); absent: none
 */
export async function conversationTurn(
  input: ConversationWorkflowInput,
  agent: AgentSnapshot,
  contactId: string | null,
  messages: ChatMessage[],
  toolCallKey: (modelId: string) => string,
  own?: OwnFunctions,
): Promise<ConversationTurn> {
  const result: ConversationTurn = { replies: [], unsent: [], handoff: null, failure: null };
  const channel = input.channel === 'web' ? 'widget' : 'conversation';
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  let toolCalls: ToolCallEntry[] = [];
  try {
    const custom = await resolveCustomTools({
      ...tenant,
      toolIds: agent.tool_ids,
      installationIds: agent.connector_installation_ids,
      reserved: offeredTools(channel, agent.enabled_tools),
    });
    const tools = channelTools(
      channel,
      {
        requestHandoff: (reason) => {
          result.handoff ??= reason;
        },
        // A callback (`schedule_callback`): a call to the customer from a voice number of the organization.
        callback: {
          ...tenant,
          agentId: agent.id,
          callbackOf: input.conversationId,
          to: input.customerNumber,
          from: null,
          serviceNumber: input.serviceNumber,
          contactId,
        },
      },
      agent.enabled_tools,
    );
    await assistantTurn({
      conversationId: input.conversationId,
      model: agent.model,
      messages,
      // The LLM activity adds the contact's records and the agent's knowledge from these ids.
      context: { ...tenant, agentId: agent.id, contactId },
      tools,
      ...('schedule_callback' in tools ? { caller: input.customerNumber } : {}),
      ...(custom.length
        ? {
            custom: {
              tools: custom,
              context: {
                ...tenant,
                agentId: agent.id,
                subject: { kind: 'conversation' as const, id: input.conversationId },
                contactId,
                metadata: {},
              },
            },
          }
        : {}),
      toolCallKey,
      ...(own ? { own } : {}),
      observer: {
        onText: (text) => {
          result.replies.push({ text, toolCalls });
          toolCalls = [];
        },
        onTool: (call, effect, record) =>
          toolCalls.push({ name: call.name, arguments: call.arguments, text: effect.summary, ...record }),
      },
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    result.failure = errorMessage(err);
  }
  if (result.replies.length) result.replies[result.replies.length - 1].toolCalls.push(...toolCalls);
  else result.unsent = toolCalls;
  return result;
}
