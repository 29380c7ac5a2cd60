/**
 * Renders stored documents as the API's objects (`id`, `object`, `created`, `livemode`, ...). One
 * renderer per object type, used by the routes and by event emission, so an event's `data.object` is
 * exactly what `GET` returns at that moment.
 */
import { API_VERSION } from '../config';
import type { AgentDoc, CallDoc, CallTurnDoc } from './index';

type WithId<T> = T & { _id: string };

/** Milliseconds since the epoch → unix seconds (the API's unit); null stays null. */
export const seconds = (ms: number | null | undefined) => (ms == null ? null : Math.floor(ms / 1000));

/** The call object. Times in unix seconds; `duration_seconds` from answer to end (null until both). */
export function renderCall(doc: WithId<CallDoc>) {
  const duration = doc.answered_ms != null && doc.ended_ms != null ? Math.max(0, Math.round((doc.ended_ms - doc.answered_ms) / 1000)) : null;
  return {
    id: doc._id,
    object: 'call' as const,
    livemode: doc.livemode,
    status: doc.status,
    to: doc.to,
    from: doc.from ?? null,
    agent_id: doc.agent_id,
    context: JSON.parse(doc.context_json ?? '{}') as Record<string, unknown>,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    end_reason: doc.end_reason ?? null,
    transferred_to: doc.transferred_to ?? null,
    simulated: doc.simulated,
    max_duration_seconds: doc.max_duration_seconds,
    created: doc.created,
    answered_at: seconds(doc.answered_ms),
    ended_at: seconds(doc.ended_ms),
    duration_seconds: duration,
    error: doc.error_message ? { message: doc.error_message } : null,
  };
}
export type CallObject = ReturnType<typeof renderCall>;

/** The agent (assistant) object. */
export function renderAgent(doc: WithId<AgentDoc>) {
  return {
    id: doc._id,
    object: 'agent' as const,
    livemode: doc.livemode,
    name: doc.name,
    instructions: doc.instructions,
    first_message: doc.first_message ?? null,
    model: doc.model ?? null,
    transfer_to: doc.transfer_to ?? null,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    created: doc.created,
  };
}

/** The transcript object of an ended call; tool turns are shown as `role: "tool"` with their call. */
export function renderTranscript(call: WithId<CallDoc>, turns: CallTurnDoc[]) {
  return {
    object: 'transcript' as const,
    call_id: call._id,
    livemode: call.livemode,
    created: seconds(call.ended_ms) ?? call.created,
    turns: turns.map((t) => ({
      role: t.role,
      text: t.text,
      ...(t.tool_name ? { tool: { name: t.tool_name, arguments: JSON.parse(t.tool_arguments_json || '{}') as unknown } } : {}),
      at: seconds(t.at_ms),
      offset_ms: call.answered_ms != null ? Math.max(0, t.at_ms - call.answered_ms) : null,
    })),
  };
}

/** An event object (DESIGN.md section 5); rendered once, when the event is created. */
export function renderEvent(e: { id: string; type: string; created: number; livemode: boolean; object: unknown }) {
  return {
    id: e.id,
    object: 'event' as const,
    type: e.type,
    created: e.created,
    livemode: e.livemode,
    api_version: API_VERSION,
    data: { object: e.object },
  };
}
