/**
 * Workflow interceptors (loaded only when tracing is on, after Temporal's OpenTelemetry ones:
 * src/platform/tracing.ts `WORKFLOW_TRACING_MODULES`) that pick which trace a piece of work joins, by the
 * trace context header Temporal's OpenTelemetry interceptors carry (`_tracer-data`, their `TRACE_HEADER`),
 * without a span of their own:
 * - **Every call its own trace.** A call started as a child workflow (a campaign's contact, a test
 *   suite's case) would carry its parent's context, and a campaign of 10,000 contacts would be one trace
 *   of 10,000 calls. Its start goes without the header: the call workflow's `RunWorkflow:callWorkflow`
 *   span roots a new trace (ids from the workflow's seeded random, so replay-safe), whose id the call
 *   records as `trace_id`. The parent's trace keeps its `StartChildWorkflow:callWorkflow` span; the call's
 *   record names its campaign (`bulk_call_id`).
 * - **Every conversation turn in the trace of the message that started it.** A conversation workflow
 *   lives for weeks; its activities would all join the trace of the request that started it. The header
 *   of the last customer message it received (signal `inbound` or update `receive`) goes instead on the
 *   activities and children it starts after it, so a turn's model requests and tool calls are children
 *   of that message's request (`POST` of Twilio's webhook, the widget, the test helper). The workflow's
 *   own `StartActivity` spans stay in the conversation's first trace.
 * Headers are not part of a workflow's commands, so the recorded histories replay the same with or
 * without this module (test/replay/replay-traced.test.ts). State is kept on `globalThis`, which Temporal
 * keeps per workflow run (its reusable V8 context swaps each run's globals).
 */
import {
  workflowInfo,
  type ActivityInput,
  type Headers,
  type LocalActivityInput,
  type Next,
  type SignalInput,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { CALL_WORKFLOW } from '../shared/calls';
import { CONVERSATION_WORKFLOW, inboundSignal, receiveUpdate } from '../shared/conversations';

/** The header Temporal's OpenTelemetry interceptors carry a span context in (their `TRACE_HEADER`). */
export const TRACE_HEADER = '_tracer-data';

/** Where a conversation run keeps the trace header of its last customer message. */
const TURN_TRACE = '__svcTurnTraceHeader';
type TraceHolder = { [TURN_TRACE]?: Headers[string] };

/** `headers` without the trace context header. */
function withoutTraceContext(headers: Headers): Headers {
  const rest = { ...headers };
  delete rest[TRACE_HEADER];
  return rest;
}

/** `headers` with the trace context of the conversation's last customer message, when there is one. */
function inTurnTrace(headers: Headers): Headers {
  const turn = (globalThis as TraceHolder)[TURN_TRACE];
  return turn ? { ...headers, [TRACE_HEADER]: turn } : headers;
}

/** Keeps the trace header of a customer message a conversation receives. */
function noteMessageTrace(headers: Headers): void {
  if (workflowInfo().workflowType !== CONVERSATION_WORKFLOW || !headers[TRACE_HEADER]) return;
  (globalThis as TraceHolder)[TURN_TRACE] = headers[TRACE_HEADER];
}

class MessageTraces implements WorkflowInboundCallsInterceptor {
  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    if (input.signalName === inboundSignal.name) noteMessageTrace(input.headers);
    return next(input);
  }
  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    if (input.name === receiveUpdate.name) noteMessageTrace(input.headers);
    return next(input);
  }
}

class TraceRoots implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return next({ ...input, headers: inTurnTrace(input.headers) });
  }
  scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ) {
    return next({ ...input, headers: inTurnTrace(input.headers) });
  }
  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ) {
    const headers =
      input.workflowType === CALL_WORKFLOW ? withoutTraceContext(input.headers) : inTurnTrace(input.headers);
    return next({ ...input, headers });
  }
}

/** The module's interceptors (Temporal's `workflowInterceptorModules` contract: an `interceptors` factory). */
export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new MessageTraces()],
  outbound: [new TraceRoots()],
});
