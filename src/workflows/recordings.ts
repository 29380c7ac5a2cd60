/**
 * `recordingWorkflow`: one call's recording, started once per call (workflow id
 * `recording-<call id>`, src/shared/recordings.ts): by Twilio's recording status callback for a live
 * call (src/api/twilio/index.ts), by the call's own workflow for a test-mode call, by the assistant's
 * attendance for a browser voice room. It copies the audio into the service's store, then (a live call)
 * deletes it at Twilio, then emits `recording.ready`: the provider's copy is deleted only once ours is
 * stored, and the event says so only once both are done.
 *
 * `recordingRetentionWorkflow`: one retention pass, started every 10 minutes by the Temporal Schedule
 * `recording-retention` (src/services/recordings.ts `ensureRecordingRetentionSchedule`).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as recordingActivities from '../activities/recordings';
import { newId } from '../shared/ids';
import type { RecordingRetentionInput, RecordingWorkflowInput, RecordingWorkflowResult } from '../shared/recordings';
import { UNTIL_DONE_UNLESS_REFUSED } from './retry';

/** Copying audio: minutes for a long call; retried until it succeeds, except a refusal by Twilio (4xx). */
const copy = proxyActivities<typeof recordingActivities>({
  startToCloseTimeout: '15 minutes',
  retry: UNTIL_DONE_UNLESS_REFUSED,
});

/** Store writes, provider deletes and events: retried until they succeed (an outage delays, never loses). */
const store = proxyActivities<typeof recordingActivities>({
  startToCloseTimeout: '1 minute',
  retry: UNTIL_DONE_UNLESS_REFUSED,
});

/**
 * Stores the call's recording, deletes the provider's copy, emits `recording.ready`.
 * @returns the recording's id, or null when the call had nothing to record (then no event)
 */
export async function recordingWorkflow(input: RecordingWorkflowInput): Promise<RecordingWorkflowResult> {
  const { recordingId } = await copy.storeRecording.executeWithOptions({ summary: `copy ${input.source.kind} audio` }, [
    input,
  ]);
  if (recordingId && input.source.kind === 'twilio')
    await store.deleteProviderRecording.executeWithOptions({ summary: "delete Twilio's copy" }, [
      { recordingSid: input.source.recordingSid },
    ]);
  if (recordingId)
    await store.emitRecordingReady.executeWithOptions({ summary: 'recording.ready' }, [
      { recordingId, eventId: newId('evt'), atMs: Date.now() },
    ]);
  return { recordingId };
}

/** Deletes the recordings past their organization's retention at `input.nowMs` (absent: now). */
export async function recordingRetentionWorkflow(input: RecordingRetentionInput): Promise<{ deleted: number }> {
  return await store.expireRecordings(input);
}

// Worker Versioning (src/shared/deployments.ts): Moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), recordingWorkflow);
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), recordingRetentionWorkflow);
