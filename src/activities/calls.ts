/**
 * Call activities on our store: they mirror the call workflow's state into MongoDB (the read model that
 * `GET /v1/calls…` answers from) and emit the call's events. Only the call's own workflow calls them,
 * one at a time, so each call document has one writer (DESIGN.md section 3). Each is idempotent: a
 * retry writes the same values and the same event ids.
 */
import { insertIfAbsent } from '../models/store';
import { Call, CallTurn, newCallDocument, renderCall } from '../models/calls';
import type { CallWorkflowInput } from '../shared/calls';
import type { CallTurnInput } from '../shared/assistant';
import { Context } from '@temporalio/activity';
import { emitEvent } from '../lib/events';


/** Makes sure the call's document exists (the API normally wrote it already). */
export async function ensureCallRecord(input: CallWorkflowInput): Promise<void> {
  await insertIfAbsent(Call, newCallDocument(input));
}

export interface TransitionCallInput {
  callId: string;
  /** Workflow time of the transition (ms), the `created` of its events. */
  atMs: number;
  /** Fields of the call document to set (`status`, `end_reason`, `answered_ms`, ...). */
  patch: Record<string, unknown>;
  /** Events to emit after the update, ids chosen by the workflow. */
  events: { id: string; type: string }[];
}

/**
 * Applies a status transition to the call document, then emits its events with `data.object` = the
 * call as it now is (so every call event carries the call's `metadata`). Throws if the call is missing.
 */
export async function transitionCall(input: TransitionCallInput): Promise<void> {
  const doc = await Call.findOneAndUpdate({ _id: input.callId }, { $set: input.patch }, { returnDocument: 'after' }).lean();
  if (!doc) throw new Error(`call ${input.callId} has no document`);
  const object = renderCall(doc);
  for (const e of input.events) {
    await emitEvent(Context.current().client, { id: e.id, orgId: doc.org_id, livemode: doc.livemode, type: e.type, createdMs: input.atMs, object });
  }
}

/** Stores transcript turns; a turn already stored (same call and `seq`) is left as it is. */
export async function recordTurns(input: { callId: string; turns: CallTurnInput[] }): Promise<void> {
  for (const t of input.turns) {
    await insertIfAbsent(CallTurn, {
      _id: `${input.callId}:${String(t.seq).padStart(6, '0')}`,
      call_id: input.callId,
      seq: t.seq,
      role: t.role,
      text: t.text,
      tool_name: t.toolName ?? null,
      tool_arguments_json: t.toolArguments ?? null,
      knowledge_json: t.knowledge?.length ? JSON.stringify(t.knowledge) : null,
      at_ms: t.atMs,
    });
  }
}
