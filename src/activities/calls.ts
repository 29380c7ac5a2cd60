/**
 * Call activities on our store: they mirror the call workflow's state into MongoDB (the read model that
 * `GET /v1/calls…` answers from) and emit the call's events. Only the call's own workflow calls them,
 * one at a time, so each call document has one writer (DESIGN.md section 3). Each is idempotent: a
 * retry writes the same values and the same event ids.
 */
import { insertIfAbsent } from '../models/store';
import { changeWindow } from '../models/conversations';
import {
  Call,
  CallStreamEntry,
  callStreamEntryId,
  CallTurn,
  callTurnId,
  newCallDocument,
  renderCall,
  type VoicemailOutcome,
} from '../models/calls';
import {
  CALL_WORKFLOW,
  STAMP_NOW,
  TERMINAL_STATUSES,
  type CallReconcilerInput,
  type CallWorkflowInput,
} from '../shared/calls';
import { derivedId } from '../shared/ids';
import type { CallTurnInput } from '../shared/assistant';
import { Context } from '@temporalio/activity';
import { emitEvent } from '../services/events';
import { callUsage, pricedCallUsage, recordUsage, type LlmRequestRow, type UsageRow } from '../services/usage';
import { recordedCallCost } from '../services/costs';
import { afterNextRequest, release } from '../platform/behind-turn';
import { startEndedCallAnalysis } from '../services/analysis';
import { callRedactor } from '../services/redaction-policy';
import { callLatencyJson, turnLatencyJson } from '../models/latency';
import { callTransitions, observeTurnLatency } from '../platform/metrics';
import { currentTraceId } from '../platform/tracing';

/** Makes sure the call's document exists (the API normally wrote it already). */
export async function ensureCallRecord(input: CallWorkflowInput): Promise<void> {
  await insertIfAbsent(Call, newCallDocument(input, currentTraceId()));
}

export interface TransitionCallInput {
  callId: string;
  /** Workflow time of the transition (ms), the `created` of its events. */
  atMs: number;
  /** Fields of the call document to set (`status`, `end_reason`, `answered_ms`, ...). */
  patch: Record<string, unknown>;
  /** Events to emit after the update, ids chosen by the workflow. */
  events: { id: string; type: string }[];
  /** Its entry's number in the call's live stream; absent: not streamed (runs of before). */
  stream?: number;
}

/** The fields of a transition's patch a stream's status event shows, by their API names. */
const STREAMED_FIELDS: Record<string, string> = {
  end_reason: 'end_reason',
  transferred_to: 'transferred_to',
  answered_by: 'answered_by',
  error_message: 'error',
};

/**
 * Applies a status transition to the call document, then emits its events with `data.object` = the
 * call as it now is (so every call event carries the call's `metadata`). A patch value `STAMP_NOW`
 * (`dialed_ms`) becomes this activity's clock. After `call.ended`, starts the call's analysis when it has
 * a plan and a caller turn (src/services/analysis.ts `startEndedCallAnalysis`: its own workflow,
 * so the end is never delayed by it). Throws if the call is missing.
 */
export async function transitionCall(input: TransitionCallInput): Promise<void> {
  // The stream's entry first: once the call shows its new status, the entry is there for every reader.
  if (input.stream !== undefined) {
    const fields = Object.fromEntries(
      Object.entries(input.patch).flatMap(([k, v]) => (k in STREAMED_FIELDS ? [[STREAMED_FIELDS[k], v]] : [])),
    );
    await insertIfAbsent(CallStreamEntry, {
      _id: callStreamEntryId(input.callId, input.stream),
      call_id: input.callId,
      n: input.stream,
      kind: 'status',
      turn_seq: null,
      status: String(input.patch.status),
      events: input.events.map((e) => e.type),
      fields_json: JSON.stringify(fields),
      at_ms: input.atMs,
      window: changeWindow(Date.now()),
    });
  }
  // The call's usage row comes with its end, before the call shows as ended (src/services/usage.ts), and
  // with it the call's cost: the call shows the cost of the row stored first (a retry's is not stored).
  const usage = await callUsage(input.callId, input.patch);
  await recordUsage(usage);
  const now = Date.now();
  const patch = Object.fromEntries(Object.entries(input.patch).map(([k, v]) => [k, v === STAMP_NOW ? now : v]));
  Object.assign(
    patch,
    await voicemailEnd(input),
    await redactedForm(input),
    await endedLatency(input),
    await storedCost(usage),
  );
  const doc = await Call.findOneAndUpdate({ _id: input.callId }, { $set: patch }, { returnDocument: 'after' }).lean();
  if (!doc) throw new Error(`call ${input.callId} has no document`);
  callTransitions.inc({ status: String(input.patch.status), mode: doc.livemode ? 'live' : 'test' });
  const object = renderCall(doc);
  for (const e of input.events) {
    await emitEvent(Context.current().client, {
      id: e.id,
      orgId: doc.org_id,
      livemode: doc.livemode,
      type: e.type,
      createdMs: input.atMs,
      object,
    });
  }
  if (input.events.some((e) => e.type === 'call.ended'))
    await startEndedCallAnalysis(Context.current().client, input.callId, input.atMs, Context.current().info.taskQueue);
}

/**
 * The recorded cost of the call a usage row meters, as the call stores it (`cost_json`: the stored row's
 * `CostObject`, plus a squad's call's members' priced requests, split in `cost_members_json`:
 * src/services/costs.ts `recordedCallCost`); `{}` when no row was built (not the end) or the stored row has
 * no cost.
 */
async function storedCost(row: UsageRow | null): Promise<{ cost_json?: string; cost_members_json?: string }> {
  if (!row) return {};
  return await recordedCallCost(row._id, row.subject_id);
}

/**
 * The call's voicemail outcome, for an end on a machine (`end_reason: "voicemail"`) that has none yet:
 * a live call's left message is recorded by the `leaveVoicemail` activity when Twilio takes it, so none
 * here means it hung up (or leaving failed); a simulated machine hears the message the call was created
 * to leave (`voicemail_message`), said as the assistant's last turn. `{}` for any other transition.
 */
async function voicemailEnd(input: TransitionCallInput): Promise<{ voicemail_json?: string }> {
  if (
    input.patch.end_reason !== 'voicemail' ||
    !(TERMINAL_STATUSES as readonly string[]).includes(String(input.patch.status))
  )
    return {};
  const doc = await Call.findById(input.callId, { simulated: 1, voicemail_message: 1, voicemail_json: 1 }).lean();
  if (!doc || doc.voicemail_json) return {};
  const outcome: VoicemailOutcome =
    doc.simulated && doc.voicemail_message
      ? { left: true, message: doc.voicemail_message }
      : { left: false, message: null };
  return { voicemail_json: JSON.stringify(outcome) };
}

/**
 * The call's latency summary (src/models/latency.ts `callLatencyJson`: p50/p90 of its answers'
 * `latency`), for the transition that emits `call.ended`: its turns are recorded by then (the workflow
 * flushes them first). `{}` for any other transition, and when no answer was measured.
 */
async function endedLatency(input: TransitionCallInput): Promise<{ latency_json?: string }> {
  if (!input.events.some((e) => e.type === 'call.ended')) return {};
  const turns = await CallTurn.find({ call_id: input.callId, role: 'assistant' }, { latency_json: 1 })
    .sort({ seq: 1 })
    .lean();
  const json = callLatencyJson(turns);
  return json ? { latency_json: json } : {};
}

/**
 * A campaign call's form answers (`form_json`, what `fill_form` kept) as stored: with the organization's
 * redaction on, every answer redacted like the call's turns (the call's parties kept). `{}` when the
 * transition writes no answers.
 */
async function redactedForm(input: TransitionCallInput): Promise<{ form_json?: string }> {
  const form = input.patch.form_json;
  if (typeof form !== 'string') return {};
  const redactor = await callRedactor(input.callId);
  return redactor ? { form_json: redactor.json(form) } : {};
}

/** What `recordTurns` stores. */
export interface RecordTurnsInput {
  callId: string;
  turns: CallTurnInput[];
  /**
   * Written behind the conversation (nobody waits for this write before the next turn): the rows are
   * written once the call's next model request is sent, or after a bound (src/platform/behind-turn.ts).
   * Absent in calls recorded before it existed: written at once.
   */
  behind?: boolean;
  /**
   * The usage rows of the call's answers since the last write, as the LLM activity returned them
   * (src/activities/llm.ts `usageInResult`): stored with the turns, each once (`recordUsage`). Absent: none.
   */
  usage?: LlmRequestRow[];
}

/**
 * Stores transcript turns and the live stream's entries of those that have one, and the usage rows of
 * the call's answers (`usage`), all side by side (each row has its own id; a stream reader that finds an
 * entry before its turn looks again); a turn, entry or usage row already stored (same call and `seq`,
 * same number, same row id) is left as it is, and a usage row is added to the rollups once
 * (`recordUsage`: its fold goes on behind the write, under a lease a later report takes over).
 * Durable as a local activity: until its completion is recorded, a workflow that replays runs it again
 * with the same input (the usage rows come from the LLM activity's recorded results).
 * @throws the store's errors (retried by the workflow's policy, `UNTIL_STORED`)
 */
export async function recordTurns(input: RecordTurnsInput): Promise<void> {
  // Behind the turn: after the call's next model request is sent (src/platform/behind-turn.ts); otherwise
  // someone waits for these rows, and the call's earlier writes still held behind go on now too.
  if (input.behind) await afterNextRequest(input.callId);
  else release(input.callId);
  for (const t of input.turns) if (t.latency && Context.current().info.attempt === 1) observeTurnLatency(t.latency);
  // With the organization's redaction on (card numbers whatever the setting), each turn's text and tool arguments are
  // stored redacted (the call's parties kept), with what was replaced; the model's chat log keeps them.
  const redactor = await callRedactor(input.callId);
  await Promise.all([
    ...(input.usage ?? []).map((row) => recordUsage(row, { foldBehind: true })),
    ...input.turns.map((t) => {
      const r = redactor?.fresh();
      return insertIfAbsent(CallTurn, {
        _id: callTurnId(input.callId, t.seq),
        call_id: input.callId,
        seq: t.seq,
        role: t.role,
        text: r ? r.text(t.text) : t.text,
        author: t.author ?? null,
        tool_name: t.toolName ?? null,
        tool_arguments_json: r ? r.json(t.toolArguments ?? null) : (t.toolArguments ?? null),
        knowledge_json: t.knowledge?.length ? JSON.stringify(t.knowledge) : null,
        tool_call_id: t.toolCallId ?? null,
        tool_call_key: t.toolCall?.toolCallId ?? null,
        tool_ok: t.toolCall?.ok ?? null,
        tool_status: t.toolCall?.status ?? null,
        tool_duration_ms: t.toolCall?.durationMs ?? null,
        ...(t.interrupted ? { interrupted: true } : {}),
        ...(t.backchannel ? { backchannel: true } : {}),
        ...(t.toolCall?.outcome ? { tool_outcome: t.toolCall.outcome } : {}),
        ...(t.toolCall?.reason ? { tool_outcome_reason: t.toolCall.reason } : {}),
        ...(t.toolCall?.mocked ? { tool_mocked: t.toolCall.mocked } : {}),
        ...(r?.stored() ? { redaction_json: r.stored() } : {}),
        ...(t.latency ? { latency_json: turnLatencyJson(t.latency) } : {}),
        ...(t.agent ? { agent_id: t.agent.id, agent_version: t.agent.version } : {}),
        ...(t.handoff ? { handoff_json: JSON.stringify(t.handoff) } : {}),
        ...(t.handoffPrompt !== undefined ? { handoff_prompt: t.handoffPrompt } : {}),
        at_ms: t.atMs,
      });
    }),
    ...input.turns.flatMap((t) =>
      t.stream === undefined
        ? []
        : [
            insertIfAbsent(CallStreamEntry, {
              _id: callStreamEntryId(input.callId, t.stream),
              call_id: input.callId,
              n: t.stream,
              kind: 'turn',
              turn_seq: t.seq,
              status: null,
              fields_json: null,
              at_ms: t.atMs,
              window: changeWindow(Date.now()),
            }),
          ],
    ),
  ]);
}

/**
 * Cuts recorded assistant turns to what the caller heard before talking over them
 * (src/workflows/call-transcript.ts `applyInterruption`): each turn `seq` of the call gets `text` and
 * `interrupted: true`. Idempotent (the same values each time); the workflow calls it once the turns' own
 * writes are done.
 */
export async function interruptTurns(input: { callId: string; turns: { seq: number; text: string }[] }): Promise<void> {
  const redactor = await callRedactor(input.callId);
  await Promise.all(
    input.turns.map((t) => {
      // What was heard is redacted as the whole turn was; its count replaces the turn's.
      const r = redactor?.fresh();
      const text = r ? r.text(t.text) : t.text;
      return CallTurn.collection.updateOne(
        { _id: callTurnId(input.callId, t.seq) as never, role: 'assistant' },
        { $set: { text, interrupted: true, ...(r ? { redaction_json: r.stored() } : {}) } },
      );
    }),
  );
}

/** Run statuses of a `callWorkflow` that closed without finishing the call. */
const ABANDONED_STATUSES = ['TERMINATED', 'TIMED_OUT', 'FAILED', 'CANCELLED'];

/**
 * Finds `callWorkflow` runs closed in the last `lookbackMs` without recording their call's end
 * (Temporal visibility: terminated, timed out, failed, canceled), marks each call `failed` with
 * `end_reason` `error`, and emits its `call.ended` under an id derived from the call id, so however
 * often this runs the event exists once (its usage row and cost, `pricedCallUsage`, likewise: the first
 * row stored stands, and the call's `cost_json` is the row's); then starts its analysis when it has a plan and a caller turn
 * (src/services/analysis.ts `startEndedCallAnalysis`, as for any ended call). A call whose end was
 * recorded is left alone.
 * @returns how many calls it ended
 */
export async function reconcileCalls(input: CallReconcilerInput): Promise<{ reconciled: number }> {
  const client = Context.current().client;
  const since = new Date(Date.now() - input.lookbackMs).toISOString();
  const query = `WorkflowType = '${CALL_WORKFLOW}' AND ExecutionStatus != 'Running' AND ExecutionStatus != 'Completed' AND ExecutionStatus != 'ContinuedAsNew' AND CloseTime > '${since}'`;
  let reconciled = 0;
  for await (const run of client.workflow.list({ query })) {
    if (!ABANDONED_STATUSES.includes(run.status.name)) continue;
    const endedMs = run.closeTime?.getTime() ?? Date.now();
    const updated = await Call.findOneAndUpdate(
      { _id: run.workflowId, status: { $nin: [...TERMINAL_STATUSES] } },
      {
        $set: {
          status: 'failed',
          end_reason: 'error',
          error_message: `The call's workflow run was ${run.status.name.toLowerCase().replace('_', ' ')} before it recorded the end.`,
          ended_ms: endedMs,
          reconciled_ms: Date.now(),
          // No stream entry tells the call's open streams of this end: the poller's marker does.
          stream_window: changeWindow(Date.now()),
        },
      },
      { returnDocument: 'after' },
    ).lean();
    const doc = updated ?? (await Call.findById(run.workflowId).lean());
    if (!doc || doc.reconciled_ms == null) continue;
    if (updated) reconciled++;
    const usage = await pricedCallUsage(doc);
    await recordUsage(usage);
    const cost = await storedCost(usage);
    if (cost.cost_json) await Call.updateOne({ _id: doc._id, cost_json: null }, { $set: cost });
    await emitEvent(client, {
      id: derivedId('evt', doc.ended_ms ?? endedMs, `${doc._id}:call.ended`),
      orgId: doc.org_id,
      livemode: doc.livemode,
      type: 'call.ended',
      createdMs: doc.ended_ms ?? endedMs,
      object: renderCall(doc.cost_json ? doc : { ...doc, cost_json: null, cost_members_json: null, ...cost }),
    });
    // Its analysis, as a call that ended on its own gets after `call.ended` (an id derived from the end's
    // time, so every later pass over the same run finds it started).
    await startEndedCallAnalysis(client, doc._id, doc.ended_ms ?? endedMs, Context.current().info.taskQueue);
  }
  return { reconciled };
}
