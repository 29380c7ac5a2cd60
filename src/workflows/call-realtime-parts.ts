/**
 * The parts of a realtime call's engine (src/workflows/call-realtime.ts) that hold no state of their own:
 * the sideband activity's options, the greeting, an answer's latency record, and what the tool turns of
 * an answer's function calls record when they were dropped, run by the sideband, or run here because the
 * sideband died between its two signals.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type * as realtimeActivities from '../activities/realtime';
import type { ToolCall } from '../shared/assistant';
import type { CallWorkflowInput } from '../shared/calls';
import type { RecordedLatency, TurnLatency } from '../shared/latency';
import type { SidebandToolResult, SidebandTools } from '../shared/realtime';
import { spokenOpening } from '../shared/recording-consent';
import type { ToolCallRecord } from '../shared/tools';
import { DROPPED_BY_INTERRUPTION } from './call-heard';
import type { CallTools } from './call-tools';
import { runCustomTool, type ToolEffect } from './tools';

/** One function call as the transcript records it: the call, what the model is told, its entry. */
export interface DoneCall {
  call: ToolCall;
  effect: ToolEffect;
  record: ToolCallRecord;
}

/** A realtime answer's latency record as the turn keeps it (engine `realtime`); undefined when none came. */
export function realtimeLatency(latency: TurnLatency | undefined): RecordedLatency | undefined {
  return latency ? { ...latency, engine: 'realtime' } : undefined;
}

/**
 * What the model says first (src/shared/recording-consent.ts `spokenOpening`: the AI disclosure, the
 * recording notice, the agent's first message), as a browser room's greeting; null when nothing.
 */
export function realtimeGreeting(input: CallWorkflowInput): string | null {
  return spokenOpening({
    aiDisclosure: input.ai_disclosure,
    recordingConsent: input.recording_consent,
    notice: input.recording?.notice,
    firstMessage: input.agent.first_message,
  });
}

/**
 * A dropped call of an interrupted answer (src/workflows/call-heard.ts `DROPPED_BY_INTERRUPTION`): what
 * the model is told, and its entry marked `dropped`, `interrupted`, as a pipeline call's.
 */
export function droppedCall(key: string): { effect: ToolEffect; record: ToolCallRecord } {
  const { outcome, reason, summary } = DROPPED_BY_INTERRUPTION;
  return {
    effect: { summary, ends: false },
    record: { toolCallId: key, ok: false, status: null, durationMs: 0, outcome, reason },
  };
}

/**
 * The sideband activity: as long as the call may last, heartbeats every second (a worker that dies is
 * noticed within 10 s); not retried by Temporal: the engine re-attaches itself (`keepAttached`), with the
 * next `attach` and without the greeting. Cancelled when the call stops, it is waited for
 * (`WAIT_CANCELLATION_COMPLETED`): it stores the last responses' usage rows before it ends, so a call is
 * recorded over only with all its usage (at most a heartbeat, 1 s, later; a dead worker's, 10 s).
 */
export const sideband = (input: CallWorkflowInput) =>
  proxyActivities<typeof realtimeActivities>({
    startToCloseTimeout: `${input.max_duration_seconds + 300} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: { maximumAttempts: 1 },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });

/**
 * The calls the sideband ran, from its `tool_results` (`results`), as the `runTool` activity's outcomes
 * would be recorded: the text the model was given, ok, the HTTP status and the duration, under `key`.
 */
export function sidebandDone(calls: { call: ToolCall; key: string }[], results: SidebandToolResult[]): DoneCall[] {
  return calls.map(({ call, key }) => {
    const r = results.find((x) => x.callId === call.id);
    return {
      call,
      effect: { summary: r?.text ?? `Error: ${call.name} failed.`, ends: false },
      record: { toolCallId: key, ok: r?.ok ?? false, status: r?.status ?? null, durationMs: r?.durationMs ?? 0 },
    };
  });
}

/**
 * The calls a sideband told it would run and did not tell the results of (it died between the two
 * signals): each run here as the `runTool` local activity with the key the sideband's request carried
 * (the tool's server deduplicates), in parallel; a tool no longer offered is an error for the model.
 */
export async function runHere(tools: CallTools, calls: { call: ToolCall; key: string }[]): Promise<DoneCall[]> {
  const custom = await tools.customToolSet(() => false);
  return await Promise.all(
    calls.map(async ({ call, key }) => {
      const tool = custom?.tools.find((t) => t.name === call.name);
      if (tool && custom) return { call, ...(await runCustomTool(custom, tool, call, key, { local: true })) };
      const record: ToolCallRecord = { toolCallId: key, ok: false, status: null, durationMs: 0 };
      return { call, effect: { summary: `Error: ${call.name} is not available.`, ends: false }, record };
    }),
  );
}

/**
 * The organization's tools of the call the sideband may run itself: those that need no confirmation,
 * with what their requests carry and `keysFrom`, the rank of the next call's key (the calls the workflow
 * has been told of); undefined when there are none.
 */
export async function sidebandTools(tools: CallTools, keysFrom: number): Promise<SidebandTools | undefined> {
  const set = await tools.customToolSet(() => false);
  const runnable = (set?.tools ?? []).filter((t) => !t.confirm);
  return set && runnable.length ? { tools: runnable, context: set.context, keysFrom } : undefined;
}

/** Ringing the simulated leg, hanging up, redirecting a live call: 10 s per try, 3 tries. */
export const realtimeCalls = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['RealtimeRedirectRefused'],
  },
});

/**
 * The accept: the caller is ringing meanwhile, so 2 tries 500 ms apart, then the pipeline takes the call;
 * a refusal (4xx) is not retried.
 */
export const realtimeAccept = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 2, nonRetryableErrorTypes: ['RealtimeAcceptRefused'] },
});

/** Transfers by `refer`: 10 s per try, 3 tries; a refusal (permissions, no SIP address, a 4xx) is not retried. */
export const realtimeRefer = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['RealtimeReferRefused', 'DestinationNotAllowed'],
  },
});
