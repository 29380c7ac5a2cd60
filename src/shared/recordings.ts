/**
 * The recordings domain's contract: the recording settings an agent or a call carries,
 * `recordingWorkflow` (one per call: copies the call's audio into the service's store, deletes the
 * provider's copy, emits `recording.ready`) and `recordingRetentionWorkflow` (started by a Temporal
 * Schedule: deletes recordings older than their organization's `recording_retention_days`). Imported by
 * the API, the activities and the workflow bundle alike; no Node-only imports.
 */

/** `recording` on an agent or a call: record the call (both channels), after speaking `notice`. */
export interface RecordingSettings {
  enabled: boolean;
  /** Said before the greeting (`first_message`) and kept in the transcript, e.g. "This call is recorded." */
  notice?: string;
}

/**
 * Where a call's audio comes from:
 * - `twilio`: a live call's dual-channel recording at Twilio (`RE…`), fetched as WAV then deleted there;
 * - `synthesized`: a test-mode call, a tone per transcript turn on the speaker's channel (no provider);
 *   with `fromSeq` (consent given during the call) only from that turn on;
 * - `room`: a browser voice room's, stored in parts by the assistant's attendances as they heard and spoke
 *   it (src/voice/room-recorder.ts), joined into one WAV from the call's answer to its end.
 */
export type RecordingSource =
  | { kind: 'twilio'; recordingSid: string; durationMs: number | null }
  | { kind: 'synthesized'; fromSeq?: number }
  | { kind: 'room' };

/** Argument of `recordingWorkflow`. */
export interface RecordingWorkflowInput {
  callId: string;
  orgId: string;
  livemode: boolean;
  source: RecordingSource;
}

/** What `recordingWorkflow` returns: the recording's id (`rcd_…`), or null when the call has none to keep. */
export interface RecordingWorkflowResult {
  recordingId: string | null;
}

/** Workflow type name of the copy of one call's recording (recorded histories depend on it). */
export const RECORDING_WORKFLOW = 'recordingWorkflow';

/** The workflow id of a call's recording: derived from the call id, so the copy runs once per call. */
export const recordingWorkflowId = (callId: string): string => `recording-${callId}`;

/** Signature of `recordingWorkflow`, for starters. */
export type RecordingWorkflow = (input: RecordingWorkflowInput) => Promise<RecordingWorkflowResult>;

/** Workflow type of the retention pass. */
export const RECORDING_RETENTION_WORKFLOW = 'recordingRetentionWorkflow';
/** Id of the Temporal Schedule that starts the retention pass. */
export const RECORDING_RETENTION_SCHEDULE_ID = 'recording-retention';

/** Input of `recordingRetentionWorkflow`: `nowMs` overrides the clock (tests inject time); absent: now. */
export interface RecordingRetentionInput {
  nowMs?: number;
}

/** Signature of `recordingRetentionWorkflow`: how many recordings it deleted. */
export type RecordingRetentionWorkflow = (input: RecordingRetentionInput) => Promise<{ deleted: number }>;

/** How long a signed audio link (`url` of the recording object) stays valid: 10 minutes. */
export const RECORDING_LINK_TTL_SECONDS = 600;
