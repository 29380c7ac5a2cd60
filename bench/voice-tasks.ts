/**
 * Where an answer after a tool spends its time in the workflow, read from realtime calls' recorded
 * histories (bench/voice.ts, `--engine realtime`): for each `runTool` local activity (a function call of
 * the model), the workflow task that ran it, split into
 *
 *   - `wait_ms`: the function calls' signal written → the task started (a task still running, e.g. a
 *     transcript write, or the worker's poll);
 *   - `before_tool_ms`: the task started → the tool's local activity scheduled (the workflow code);
 *   - `tool_ms`: the local activity's run (the tool's request; the marker's schedule → complete time);
 *   - `after_tool_ms`: the tool done → the task completed (the output made, the session's waiting
 *     `realtimeOutputs` update answered with it).
 *
 * Times are the Temporal server's event times and the marker's times (the worker's clock: same machine).
 */
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

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

/** The `runTool` local activities of one history, each with its workflow task's split (see the module). */
export function toolTasks(events: HistoryEvent[]): ToolTask[] {
  const out: ToolTask[] = [];
  events.forEach((e, i) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') return;
    const data = JSON.parse(Buffer.from(marker.details!.data!.payloads![0]!.data!).toString()) as {
      activity_type: string;
      complete_time: { seconds: number; nanos: number };
      original_schedule_time: { seconds: number; nanos: number };
    };
    if (data.activity_type !== 'runTool') return;
    const completed = lastBefore(events, i, (x) => x.workflowTaskCompletedEventAttributes);
    const started = lastBefore(events, i, (x) => x.workflowTaskStartedEventAttributes);
    const scheduledAt = events.findIndex(
      (x) => String(x.eventId) === String(started?.workflowTaskStartedEventAttributes?.scheduledEventId),
    );
    const signal = lastBefore(events, scheduledAt, (x) => x.workflowExecutionSignaledEventAttributes);
    if (!completed || !started || !signal) return;
    const toolFrom = ms(data.original_schedule_time);
    const toolTo = ms(data.complete_time);
    out.push({
      wait_ms: Math.round(ms(started.eventTime) - ms(signal.eventTime)),
      before_tool_ms: Math.round(toolFrom - ms(started.eventTime)),
      tool_ms: Math.round(toolTo - toolFrom),
      after_tool_ms: Math.round(ms(completed.eventTime) - toolTo),
    });
  });
  return out;
}
