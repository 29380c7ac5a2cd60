/**
 * Workflow interceptors (loaded only when tracing is on, after Temporal's OpenTelemetry ones:
 * src/platform/tracing.ts `WORKFLOW_TRACING_MODULES`) that make every call its own trace: a call started as
 * a child workflow (a campaign's contact, a test suite's case) would otherwise carry its parent's trace
 * context in the `_tracer-data` header (`@temporalio/interceptors-opentelemetry`'s `TRACE_HEADER`), and a
 * campaign of 10,000 contacts would be one trace of 10,000 calls. Without the header the call workflow's
 * `RunWorkflow:callWorkflow` span is the root of a new trace (its ids drawn from the workflow's seeded
 * random, so replay-safe), and that trace's id is the one the call records as `trace_id`.
 *
 * The parent's trace keeps its `StartChildWorkflow:callWorkflow` span (made by the OpenTelemetry outbound
 * interceptor, which runs first and hands this one the headers it added); the call's record names its
 * campaign (`bulk_call_id`). Headers are not part of a workflow's commands' determinism checks, so the
 * recorded histories replay the same with or without this module (test/replay/replay-traced.test.ts).
 */
import type { Headers, Next, WorkflowInterceptors, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import { CALL_WORKFLOW } from '../shared/calls';

/** The header Temporal's OpenTelemetry interceptors carry a span context in (their `TRACE_HEADER`). */
export const TRACE_HEADER = '_tracer-data';

/** `headers` without the trace context header. */
function withoutTraceContext(headers: Headers): Headers {
  const rest = { ...headers };
  delete rest[TRACE_HEADER];
  return rest;
}

/** Drops the trace context from the start of a child call workflow (any other child keeps it). */
class CallTraceRoots implements WorkflowOutboundCallsInterceptor {
  async startChildWorkflowExecution(
    input: Parameters<NonNullable<WorkflowOutboundCallsInterceptor['startChildWorkflowExecution']>>[0],
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ) {
    if (input.workflowType !== CALL_WORKFLOW) return next(input);
    return next({ ...input, headers: withoutTraceContext(input.headers) });
  }
}

/** The module's interceptors (Temporal's `workflowInterceptorModules` contract: an `interceptors` factory). */
export const interceptors = (): WorkflowInterceptors => ({ outbound: [new CallTraceRoots()] });
