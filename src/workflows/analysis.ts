/**
 * `callAnalysisWorkflow`: one analysis of a finished call or conversation. Workflow id
 * `analysis:<call or conversation id>:<analysis id>` (src/shared/analysis.ts `analysisWorkflowId`), started
 * by the call's end (src/activities/calls.ts `transitionCall`, after `call.ended`: the call's own workflow
 * is never delayed and its history unchanged) or by `POST /v1/calls/{id}/analyze` /
 * `POST /v1/conversations/{id}/analyze`.
 *
 * Asks the model (`requestAnalysis`); an answer that does not validate is asked again once with its
 * validation errors; then `storeAnalysis` stores the result (`completed`, or `failed` with the last
 * errors, or with the provider's failure once the retries are spent) and emits the one `*.analyzed` event.
 *
 * Exactly once: the analysis id is fixed in the input, the row and the event are insert-if-absent under
 * ids derived from it; a worker killed during the model request is noticed by the heartbeat (10 s) and
 * the request retried; the usage of each request is keyed by analysis id and request number.
 */
import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as analysis from '../activities/analysis';
import type { AnalysisAnswer, AnalysisOutcome, AnalysisWorkflowInput } from '../shared/analysis';
import { JUDGE_RETRY, UNTIL_DONE } from './retry';

const { requestAnalysis } = proxyActivities<typeof analysis>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: JUDGE_RETRY,
});

const { storeAnalysis } = proxyActivities<typeof analysis>({ startToCloseTimeout: '30 seconds', retry: UNTIL_DONE });

/**
 * Runs one analysis to its stored result.
 * @returns the analysis id and its status
 */
export async function callAnalysisWorkflow(input: AnalysisWorkflowInput): Promise<AnalysisOutcome> {
  let answer: AnalysisAnswer;
  let failure: string | undefined;
  try {
    answer = await requestAnalysis({ input, request: 1 });
    if (!answer.ok)
      answer = await requestAnalysis({ input, request: 2, previous: { text: answer.text, errors: answer.errors } });
  } catch (err) {
    failure = `The model could not be asked: ${innermostMessage(err)}`;
    answer = { ok: false, errors: [], text: '', model: null };
  }
  const stored = await storeAnalysis({ input, answer, ...(failure ? { failure } : {}) });
  return { analysisId: stored.id, status: stored.status };
}

/** The innermost cause's message of a failure (an activity failure's cause is the activity's error). */
function innermostMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}

// Worker Versioning (src/shared/deployments.ts): Moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), callAnalysisWorkflow);
