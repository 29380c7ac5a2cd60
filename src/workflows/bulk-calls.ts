/**
 * `bulkCallWorkflow`: one bulk call campaign (workflow id = campaign id `bulk_…`), the shape of
 * temporalio/samples-typescript `batch-sliding-window`: a sliding window of at most `maxConcurrency` child
 * `callWorkflow`s that report back by signal, and continue-as-new once per page of contacts so that a
 * 10,000-contact campaign keeps every run's history small.
 *
 * Why signals, not child results: a child's result goes to the run that started it, and that run is gone
 * after continue-as-new; a signal to the campaign's workflow id reaches whichever run is current. Each
 * campaign call reports `bulkCallFinished` with its status and form values (src/workflows/calls.ts). A
 * report that never comes (a call terminated by an operator) cannot hold a slot for ever: past the call's
 * longest possible life the campaign asks the store and Temporal about it (`checkBulkCalls`).
 *
 * Exactly once per attempt: a contact's call id is derived from campaign id, contact index and attempt and
 * recorded before the child starts (`REJECT_DUPLICATE`), and a started child is in the history, so a
 * crash, a replay or a retried start never places a second call; a contact leaves `pending` only through
 * a call's report, a do-not-call check, a cancel or `ends_at`, so none is skipped.
 *
 * Rules: calls start only while the contact's calling window is open (intervals computed by activities,
 * waited for with timers); an unsuccessful outcome listed in `retry.on` is redialed after
 * `retry.intervalMs` until `retry.maxAttempts`; `pause` stops new dials at once (calls in flight finish),
 * `resume` dials again, `cancel` ends every pending contact `canceled` (calls in flight finish); at
 * `endsAtMs` pending contacts end `window_expired`.
 *
 * Store: the workflow is the only writer of its campaign document and result rows after creation; one
 * background writer (`recordBulkCallProgress`) sends whatever changed since its last write, one write at
 * a time, and emits `bulk_call.contact_completed` per final contact and `bulk_call.completed` at the end.
 * Updates resolve once the store shows their effect.
 *
 * The shape is the entity pattern of temporalio/samples-typescript `safe-message-handlers`: one-line
 * handlers over a `BulkCallSession` (src/workflows/bulk-call-session.ts: the state, the steps of the main
 * loop, the store writer), `allHandlersFinished` before continue-as-new and before the end.
 */
import { continueAsNew, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import {
  cancelUpdate,
  callFinishedSignal,
  pauseUpdate,
  progressQuery,
  resumeUpdate,
  type BulkCallProgress,
  type BulkCallWorkflowInput,
} from '../shared/bulk-calls';
import { BulkCallSession } from './bulk-call-session';

/**
 * Runs a campaign (one page of contacts per run) until every contact has its final result.
 * @returns the final progress (`completed` or `canceled`)
 */
export async function bulkCallWorkflow(input: BulkCallWorkflowInput): Promise<BulkCallProgress> {
  const session = new BulkCallSession(input);
  setHandler(progressQuery, () => session.progress());
  setHandler(callFinishedSignal, (report) => session.callFinished(report));
  setHandler(pauseUpdate, () => session.pause(), { validator: () => session.refuseWhenOver() });
  setHandler(resumeUpdate, () => session.resume(), { validator: () => session.refuseWhenOver() });
  setHandler(cancelUpdate, () => session.cancel(), { validator: () => session.refuseWhenCompleted() });

  await session.start();
  if ((await session.run()) === 'continue-as-new') await continueAsNew<typeof bulkCallWorkflow>(await session.drain());
  return session.finished();
}

// Worker Versioning (src/shared/deployments.ts): Runs for hours: moves to the current version at its next task, so its changes are patch gates; later pages (continue-as-new) start on the current version.
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), bulkCallWorkflow);
