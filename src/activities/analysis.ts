/**
 * Analysis activities, run by `callAnalysisWorkflow` (src/workflows/analysis.ts): one model
 * request for the analysis (`requestAnalysis`), then storing the result with its one event
 * (`storeAnalysis`). The rules are src/services/analysis.ts; both are idempotent per analysis id.
 */
import { Context } from '@temporalio/activity';
import type { AnalysisAnswer, AnalysisWorkflowInput } from '../shared/analysis';
import type { AnalysisObject } from '../models/analyses';
import { askForAnalysis, saveAnalysis, type AnalysisResultInput } from '../services/analysis';

/** How often a waiting `requestAnalysis` heartbeats (ms): a worker that dies is noticed within the timeout. */
const HEARTBEAT_MS = 1_000;

/**
 * Asks the model for the analysis (request 1, or 2 with the previous answer and its validation errors)
 * and validates the answer. Heartbeats while the model writes, so a crashed worker's attempt is retried
 * elsewhere within the workflow's heartbeat timeout; a cancelled attempt aborts the request.
 * @returns the valid values, or the answer's validation errors; the provider's failures are thrown
 */
export async function requestAnalysis(args: {
  input: AnalysisWorkflowInput;
  request: number;
  previous?: { text: string; errors: string[] };
}): Promise<AnalysisAnswer> {
  const ctx = Context.current();
  ctx.heartbeat();
  const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
  try {
    return await askForAnalysis(args.input, {
      request: args.request,
      ...(args.previous ? { previous: args.previous } : {}),
      signal: ctx.cancellationSignal,
    });
  } finally {
    clearInterval(beat);
  }
}

/** Stores the analysis, makes it the call's current one and emits its event, once (src/services/analysis.ts `saveAnalysis`). */
export async function storeAnalysis(result: AnalysisResultInput): Promise<Pick<AnalysisObject, 'id' | 'status'>> {
  const analysis = await saveAnalysis(Context.current().client, result);
  return { id: analysis.id, status: analysis.status };
}
