/**
 * The calls domain's contract (the `early-return/src/shared.ts` pattern of temporalio/samples-typescript):
 * `callWorkflow`'s type name, input and output, its updates, signal and query, its failure types, its
 * workflow id, and the signature type starters use. Imported by the API, the activities and the workflow
 * bundle alike; imports only `@temporalio/workflow` definition helpers.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/** Terminal call statuses (DESIGN.md section 6). */
export const TERMINAL_STATUSES = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'] as const;
export type CallStatus = 'queued' | 'ringing' | 'in_progress' | (typeof TERMINAL_STATUSES)[number];

/** Why a call ended. */
export type EndReason =
  | 'caller_hung_up'
  | 'assistant_ended'
  | 'api_ended'
  | 'transferred'
  | 'max_duration'
  | 'silence_timeout'
  | 'busy'
  | 'no_answer'
  | 'dial_failed'
  | 'error';

/** Outcome of dialing: what the far end did. */
export type DialOutcome = 'answered' | 'busy' | 'no_answer' | 'failed';

/** `simulation` of `POST /v1/calls` (test mode only), after defaults are applied by the API. */
export interface Simulation {
  /** What the scripted caller says, one entry per turn; after the last one the caller hangs up. */
  caller: string[];
  outcome: DialOutcome;
  /** Seconds the phone rings before the outcome (0–60). */
  ring_seconds: number;
  /** Seconds the caller pauses before each of their lines (0–60), to simulate real talk time. */
  pause_seconds: number;
}

/** The agent as it was when the call was created (later edits do not change a running call). */
export interface AgentSnapshot {
  id: string;
  name: string;
  instructions: string;
  first_message: string | null;
  model: string | null;
  transfer_to: string | null;
}

/** Argument of `callWorkflow`: everything the call needs, fixed at creation. */
export interface CallWorkflowInput {
  callId: string;
  orgId: string;
  livemode: boolean;
  to: string;
  from: string | null;
  agent: AgentSnapshot;
  context: Record<string, unknown>;
  metadata: Record<string, string>;
  /**
   * The contact called (`cont_…`): `contact_id` of the request, else the contact whose phone is `to`;
   * null when none. Absent in calls started before contacts existed.
   */
  contactId?: string | null;
  /** Present in test mode (a default script when the request had none); absent in live mode. */
  simulation: Simulation | null;
  max_duration_seconds: number;
  /** Creation time in unix seconds, as the API answered it. */
  created: number;
}

/** What the `state` query and the `end`/`transfer` updates return. */
export interface CallState {
  status: CallStatus;
  end_reason: EndReason | null;
  transferred_to: string | null;
  turns: number;
}

/** Argument of the `transfer` update: where to (E.164, `sip:` URI or `client:` identity). */
export interface TransferRequest {
  to: string;
}

/** Call progress reported by the telephony provider (Twilio status callback) in live mode. */
export interface TelephonyStatus {
  status: 'ringing' | 'in-progress' | 'answered' | 'busy' | 'no-answer' | 'failed' | 'canceled' | 'completed';
  providerCallSid?: string;
}

/** True for a transfer destination: an E.164 number, a `sip:` URI or a `client:` identity (Twilio `<Dial>`). */
export function isTransferTarget(to: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(to) || /^sip:[^\s@]+@[^\s@]+$/i.test(to) || /^client:[A-Za-z0-9_.-]{1,121}$/.test(to);
}

/** Failure type of an update refused because the call is not live (the API maps it to 409 `call_not_live`). */
export const CALL_NOT_LIVE = 'call_not_live';

export const stateQuery = defineQuery<CallState>('state');
/** End the call (any non-terminal status); resolves once the call has ended, with its final state. */
export const endUpdate = defineUpdate<CallState>('end');
/** Transfer an `in_progress` call; resolves once transferred, with the final state. */
export const transferUpdate = defineUpdate<CallState, [TransferRequest]>('transfer');
/** Live mode: what the caller just said (speech-to-text); resolves with the assistant's answer. */
export const callerSaidUpdate = defineUpdate<{ text: string | null; ended: boolean }, [{ text: string }]>('callerSaid');
/** Live mode: a status callback from the telephony provider. */
export const telephonyStatusSignal = defineSignal<[TelephonyStatus]>('telephonyStatus');

/** Workflow type name of a call (recorded histories depend on it). */
export const CALL_WORKFLOW = 'callWorkflow';

/** Signature of `callWorkflow`, for starters (no starter imports the workflow module). */
export type CallWorkflow = (input: CallWorkflowInput) => Promise<CallState>;

/** The workflow id of a call: the call id itself, so one call can never have two runs at once. */
export const callWorkflowId = (callId: string): string => callId;

/** Failure type of a telephony request the provider refused (4xx): not retried. */
export const TELEPHONY_REJECTED = 'TelephonyRejected';
