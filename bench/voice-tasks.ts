/**
 * Where an answer after a tool spends its time in the workflow, read from realtime calls' recorded
 * histories (bench/voice.ts, `--engine realtime`): for each `runTool` local activity (a function call of
 * the model), the workflow task that ran it, split into
 *
 *   - `wait_ms`: the function calls' signal written → the task started (a task still running, e.g. a
 *     transcript write, or the worker's poll);
 *   - `before_tool_ms`: the task started → the tool's local activity scheduled (the core's poll, the
 *     activation through the worker's main thread and the workflow thread, the completion back to the core);
 *   - `tool_ms`: the tool as the turn's `tool_ms` counts it: `runTool`'s own `durationMs` (its schedule
 *     time → its result), read from the marker's result;
 *   - `after_tool_ms`: the tool's result → the task completed (the activation that resolves it, the
 *     output made, the session's waiting `realtimeOutputs` update answered with it).
 *
 * The marker's `complete_time` does not mark the tool's end: in these histories it mostly lies before the
 * schedule time (by 2–50 ms for `runTool`), so the tool's end is taken as its schedule time plus its
 * `durationMs` (the split once read `complete_time` and gave a negative tool and an `after_tool` too long by
 * as much). Times are the
 * Temporal server's event times and the marker's schedule time (the worker's clock: same machine).
 */
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payload = temporal.api.common.v1.IPayload;

/** One function calls' workflow task, split as above (ms). */
export interface ToolTask {
  wait_ms: number;
  before_tool_ms: number;
  tool_ms: number;
  after_tool_ms: number;
}

/** The last event before index `end` that `pick` accepts. */
function lastBefore(events: HistoryEvent[], end: number, pick: (e: HistoryEvent) => unknown): HistoryEvent | undefined {
  for (let i = end - 1; i >= 0; i--) if (pick(events[i])) return events[i];
  return undefined;
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * The `runTool` local activities of one history, each with its workflow task's split (see the module).
 * @param decode the marker's result payload → the value `runTool` returned (the data converter's codec and
 *   payload converter: the payloads are encrypted)
 */
export async function toolTasks(
  events: HistoryEvent[],
  decode: (payload: Payload) => Promise<unknown>,
): Promise<ToolTask[]> {
  const out: ToolTask[] = [];
  for (const [i, e] of events.entries()) {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') continue;
    const data = JSON.parse(Buffer.from(marker.details!.data!.payloads![0]!.data!).toString()) as {
      activity_type: string;
      original_schedule_time: { seconds: number; nanos: number };
    };
    if (data.activity_type !== 'runTool') continue;
    const result = marker.details?.result?.payloads?.[0];
    const completed = lastBefore(events, i, (x) => x.workflowTaskCompletedEventAttributes);
    const started = lastBefore(events, i, (x) => x.workflowTaskStartedEventAttributes);
    const scheduledAt = events.findIndex(
      (x) => String(x.eventId) === String(started?.workflowTaskStartedEventAttributes?.scheduledEventId),
    );
    const signal = lastBefore(events, scheduledAt, (x) => x.workflowExecutionSignaledEventAttributes);
    if (!completed || !started || !signal || !result) continue;
    const toolMs = Number(((await decode(result)) as { durationMs?: unknown }).durationMs);
    if (!Number.isFinite(toolMs)) continue;
    const toolFrom = ms(data.original_schedule_time);
    out.push({
      wait_ms: Math.round(ms(started.eventTime) - ms(signal.eventTime)),
      before_tool_ms: Math.round(toolFrom - ms(started.eventTime)),
      tool_ms: Math.round(toolMs),
      after_tool_ms: Math.round(ms(completed.eventTime) - toolFrom - toolMs),
    });
  }
  return out;
}
