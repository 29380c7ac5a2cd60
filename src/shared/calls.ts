/**
 * The calls domain's contract (the `early-return/src/shared.ts` pattern of temporalio/samples-typescript):
 * `callWorkflow`'s type name, input and output, its updates, signal and query, its failure types, its
 * workflow id, and the signature type starters use. Imported by the API, the activities and the workflow
 * bundle alike; imports only `@temporalio/workflow` definition helpers.
 */
import type { SquadHandoff, VoiceChange } from './squads';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Interruption, SpeechSettings } from './speech';
import type { FormDefinition, FormValues } from './forms';
import type { RecordingSettings } from './recordings';
import type { ConsentAnswer, RecordingConsent } from './recording-consent';
import type { AnalysisPlan } from './analysis';
import type { DestinationRefusal, TransferDestination } from './dialing';
import type { RecordedLatency } from './latency';
import type { ToolMocks } from './tool-mocks';

/** Terminal call statuses (DESIGN.md section 6). */
export const TERMINAL_STATUSES = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'] as const;
/**
 * Every status of a call, in the order a call goes through them. `scheduled`: created with a
 * later `scheduled_at` (or a calling window closed at creation), waiting on a durable timer; then `queued`.
 */
export const CALL_STATUSES = ['scheduled', 'queued', 'ringing', 'in_progress', ...TERMINAL_STATUSES] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

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
  | 'error'
  /** Outbound: no call slot freed within `queue_timeout_seconds` (status `failed`). */
  | 'queue_timeout'
  /** Inbound: every slot taken; the caller heard "all lines are busy" (`busy`) or went to `overflow_to` (`transferred`). */
  | 'concurrency_limit'
  /** Inbound: the number's inbound webhook answered `reject: true` (status `canceled`). */
  | 'rejected'
  /**
   * Outbound: answering-machine detection said a machine answered; the call hung up, or left
   * the agent's `voicemail.message` after the beep (status `completed`, `answered_by: "machine"`).
   */
  | 'voicemail'
  /** Outbound: the dial gate found the number on a do-not-call list; never dialed (status `canceled`). */
  | 'do_not_call'
  /**
   * Outbound: outside the callee's calling hours and the request said `calling_hours: "refuse"`; never
   * dialed (status `canceled`).
   */
  | 'outside_calling_hours'
  /**
   * Outbound: the organization's dialing permissions refuse the number (a country it does not call, a
   * high-cost number type the operator has not allowed it); never dialed (status `canceled`).
   */
  | 'destination_not_allowed'
  /**
   * Outbound: at dial time the call's `from` was no longer one of the organization's voice numbers or
   * verified caller IDs of its Twilio account in use (released, deleted, or the account changed since the
   * call was made, e.g. a scheduled call); never dialed (status `canceled`).
   */
  | 'from_not_owned';

/** Who called whom: `outbound` (we dialed, `POST /v1/calls`, campaigns, browser voice) or `inbound`. */
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/**
 * How the number's inbound webhook went (recorded on the call as `inbound_webhook`): `succeeded` (its
 * answer was used), else `failed` with why (`timeout`, a non-2xx status, an invalid body, an unknown
 * agent): the number's own agent answered.
 */
export interface InboundWebhookResult {
  status: 'succeeded' | 'failed';
  error?: string;
}

/** An inbound call's own facts: the provider's call, the webhook's outcome, a refusal. */
export interface InboundCall {
  /** Twilio's CallSid (`CA…`); null for a simulated call. */
  providerCallSid: string | null;
  /** The number's inbound webhook, when it has one. */
  webhook?: InboundWebhookResult | null;
  /**
   * Set when the call is refused before any conversation (every slot taken, or the webhook's `reject`):
   * how it ends; a transfer to the number's `overflow_to` carries `transferTo`.
   */
  refusal?: { status: CallStatus; reason: EndReason; transferTo?: string } | null;
}

/** What a call outside the callee's calling hours does: wait for the window (`hold`) or end (`refuse`). */
export const CALLING_HOURS_POLICIES = ['hold', 'refuse'] as const;
export type CallingHoursPolicy = (typeof CALLING_HOURS_POLICIES)[number];

/** One rule the dial gate checked, as the call shows it (`compliance.rules[]`). */
export interface ComplianceRule {
  rule: 'calling_hours' | 'do_not_call' | 'dialing_permissions';
  /**
   * `calling_hours`: `open`, or `closed` (held, refused, or on a test rig under
   * `CALLING_HOURS_ENFORCEMENT=record` dialed anyway: `enforced: false`); `do_not_call`: `clear` or `listed`;
   * `dialing_permissions`: `allowed` or `not_allowed`.
   */
  result: 'open' | 'closed' | 'clear' | 'listed' | 'allowed' | 'not_allowed';
  /** In words: the window and its source, or the list that holds the number. */
  detail: string;
  /** `calling_hours`: the callee's local time(s), the zone (null when not known precisely), every zone checked. */
  local?: string;
  zone?: string | null;
  zones?: string[];
  /** `calling_hours`: set when the country's most restrictive window stood in for an unknown zone. */
  assumed?: 'country_most_restrictive';
  /** `calling_hours` closed: when it next opens, unix seconds (null: not within 8 days). */
  opens_at?: number | null;
  /** `calling_hours` closed: false when the result was recorded but not acted on (test mode, see `result`). */
  enforced?: boolean;
  /** `do_not_call` listed: which list (`organization`, `contact`, `national_registry`). */
  source?: 'organization' | 'contact' | 'national_registry';
  /** `dialing_permissions` not allowed: which permission refused it (src/shared/dialing.ts `DESTINATION_REFUSALS`). */
  refusal?: DestinationRefusal;
}

/** The dial gate's record on the call (`compliance`): when it checked, what, and for whom. */
export interface ComplianceCheck {
  /** Unix seconds. */
  checked_at: number;
  /** The number checked. */
  to: string;
  /** `call`: the call's own dial; `transfer`: a warm transfer's leg to the person. */
  leg: 'call' | 'transfer';
  /** `dial`, `hold` (until `opens_at`) or `refuse`. */
  decision: 'dial' | 'hold' | 'refuse';
  rules: ComplianceRule[];
}

/**
 * The answer of activity `checkDialGate` to the workflow: dial now, hold until `heldUntilMs` (epoch ms),
 * or refuse (the end reason and a message); the record is already on the call.
 */
export type DialGateVerdict =
  | { verdict: 'dial' }
  | { verdict: 'hold'; heldUntilMs: number }
  | { verdict: 'refuse'; reason: 'do_not_call' | 'outside_calling_hours' | 'destination_not_allowed'; message: string };

/** Outcome of dialing: what the far end did. */
export type DialOutcome = 'answered' | 'busy' | 'no_answer' | 'failed';

/**
 * `simulation.outcome` values: a dial outcome, or `voicemail`: a simulated answering machine
 * picks up, plays its greeting (the `caller` lines) and beeps.
 */
export const SIMULATION_OUTCOMES = ['answered', 'busy', 'no_answer', 'failed', 'voicemail'] as const;
export type SimulationOutcome = (typeof SIMULATION_OUTCOMES)[number];

/** `simulation` of `POST /v1/calls` (test mode only), after defaults are applied by the API. */
export interface Simulation {
  /**
   * What the scripted caller says, one entry per turn; after the last one the caller hangs up. With
   * outcome `voicemail`: the machine's greeting, line by line, after which it beeps.
   */
  caller: string[];
  outcome: SimulationOutcome;
  /** Seconds the phone rings before the outcome (0–60). */
  ring_seconds: number;
  /** Seconds the caller pauses before each of their lines (0–60), to simulate real talk time. */
  pause_seconds: number;
  /**
   * A persona caller: the caller is a model playing `persona` towards `goal` instead of
   * reading `caller` (then empty); each caller turn is one request to the simulator model
   * (src/activities/simulator.ts `personaTurn`). Absent: the scripted caller.
   */
  persona?: PersonaSimulation;
  /**
   * A warm transfer on this call: what the person dialed does (`answered`: hears the summary and
   * is joined; `no_answer`, `busy`: the caller is back with the assistant), after `after_seconds` (default 0).
   * Absent: the person answers at once.
   */
  transfer?: SimulatedTransfer;
  /**
   * Scripted lines the caller says over the assistant (test mode's barge-in): line `line` (an index of
   * `caller`) starts while the answer before it is being spoken, after the caller heard `heard` of it
   * (default: nothing). A backchannel line interrupts nothing; any other cuts the answer to `heard` and
   * drops that answer's actions not started (src/workflows/call-heard.ts). Absent: none.
   */
  barge_ins?: SimulatedBargeIn[];
}

/** `simulation.barge_ins[i]`: a scripted caller line said over the assistant's answer. */
export interface SimulatedBargeIn {
  line: number;
  heard?: string;
}

/**
 * `simulation.persona`, `goal`, `max_turns` of `POST /v1/calls`: who the simulated caller
 * is, what they want, and how many caller turns they take at most (1–50, default 20) before hanging up.
 */
export interface PersonaSimulation {
  persona: string;
  goal: string;
  max_turns: number;
}

/** Bounds of a persona simulation: `max_turns` (default 20) and the characters of `persona` and `goal`. */
export const PERSONA_LIMITS = { maxTurnsDefault: 20, maxTurns: 50, maxChars: 2000 } as const;

/** What one persona caller turn said: its line (null: none) and whether the persona hung up after it. */
export interface PersonaLine {
  text: string | null;
  hangUp: boolean;
}

/** `simulation.transfer`: the simulated person a warm transfer dials. */
export interface SimulatedTransfer {
  answer: 'answered' | 'no_answer' | 'busy';
  after_seconds?: number;
}

/**
 * The agent as it was when the call was created (later edits do not change a running call), with its
 * speech settings (src/shared/speech.ts), each absent when unset.
 */
export interface AgentSnapshot extends SpeechSettings {
  id: string;
  name: string;
  instructions: string;
  first_message: string | null;
  model: string | null;
  transfer_to: string | null;
  /** The organization's tools the agent offers (`tool_ids`); absent: none (and in calls made before). */
  tool_ids?: string[];
  /** The installed connectors whose tools the agent offers (`connector_installation_ids`); absent: none. */
  connector_installation_ids?: string[];
  /**
   * The optional built-in tools the agent offers (`enabled_tools`, src/shared/tools.ts `OPTIONAL_TOOLS`);
   * absent: none (and in calls made before).
   */
  enabled_tools?: string[];
  /** False when the agent switches the `opt_out` tool off (`opt_out_tool: false`); absent: offered. */
  opt_out_tool?: false;
  /** The agent's `voicemail` setting; absent: no answering-machine detection. */
  voicemail?: VoicemailSetting;
  /** How the `transfer_call` tool transfers (`transfer_mode`); absent: `cold`. */
  transfer_mode?: TransferMode;
  /**
   * The agent's `transfer_destinations`: the only places `transfer_call` names (an enum of their names).
   * Present (possibly empty) on calls created since destinations exist: their model transfers are checked
   * against the dialing permissions before they happen (activity `checkTransferDestination`); absent in
   * calls made before, which transfer as they always did.
   */
  transfer_destinations?: TransferDestination[];
  /** The agent's version this snapshot is (`agent_version` on the call); absent in calls made before versions. */
  version?: number;
  /**
   * `realtime`: the call runs on OpenAI's Realtime API over SIP (src/workflows/call-realtime.ts); absent:
   * the pipeline engine (ConversationRelay and the chat model), as every call before engines.
   */
  engine?: 'realtime';
}

/** A squad member as a call carries it (src/shared/squads.ts): its agent's snapshot at the version the call fixed. */
export interface CallSquadMember {
  name: string;
  agent: AgentSnapshot;
  handoffs: SquadHandoff[];
  /** The member's `description` (what an announced hand-off names it by); absent on calls started before it. */
  description?: string | null;
  /** How a hand-off to it changes the voice on a live call; absent: `seamless`. */
  voice_change?: VoiceChange;
}

/** The squad of a call (`CallWorkflowInput.squad`): fixed when the call starts, like its agent snapshot. */
export interface CallSquad {
  id: string;
  /** The squad version the call runs (src/services/squad-versions.ts `squadVersionForCall`). */
  version: number;
  start: string;
  max_handoffs: number;
  overflow: string | null;
  members: CallSquadMember[];
}

/** Where a squad call stands in a continued run: the member answering and the hand-offs made so far. */
export interface SquadProgress {
  current: string;
  handoffs: number;
}

/** What a call does when answering-machine detection says a machine answered (`voicemail.action`). */
export const VOICEMAIL_ACTIONS = ['hang_up', 'leave_message'] as const;
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number];

/**
 * The `voicemail` setting of an agent, or of one call (`POST /v1/calls` `voicemail`, which replaces the
 * agent's). `detection` asks Twilio for asynchronous answering-machine detection on a live
 * outbound call (a simulated one with outcome `voicemail` behaves the same); on a machine the assistant
 * stops and the call either hangs up or speaks `message` once after the beep, then ends (`end_reason:
 * "voicemail"`). `leave_message_on: "last_attempt"` matters to campaigns only: an attempt that the
 * campaign would redial on `voicemail` hangs up instead of leaving the message.
 */
export interface VoicemailSetting {
  detection: boolean;
  action: VoicemailAction;
  /** What is left after the beep; required with `leave_message`. */
  message?: string;
  /** Campaigns: leave the message on `every_attempt` (default) or the `last_attempt` only. */
  leave_message_on?: 'every_attempt' | 'last_attempt';
}

/** Who answered, as answering-machine detection said (`answered_by` on the call; null when not detected). */
export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/**
 * Twilio's `AnsweredBy` values of an asynchronous AMD callback
 * (https://www.twilio.com/docs/voice/answering-machine-detection#webhook-parameters): a person, a machine
 * (at its greeting's start, or after the beep, the silence or otherwise at its end with `DetectMessageEnd`),
 * a fax, or undecided.
 */
export const TWILIO_ANSWERED_BY = [
  'human',
  'machine_start',
  'machine_end_beep',
  'machine_end_silence',
  'machine_end_other',
  'fax',
  'unknown',
] as const;
export type TwilioAnsweredBy = (typeof TWILIO_ANSWERED_BY)[number];

/** What Twilio's `AnsweredBy` means for the call: a fax is no person either (`machine`). */
export function answeredByOf(value: TwilioAnsweredBy): AnsweredBy {
  if (value === 'human' || value === 'unknown') return value;
  return 'machine';
}

/**
 * How long Twilio's answering-machine detection may take to decide (its `MachineDetectionTimeout`, s):
 * past it Twilio reports `unknown`. The assistant's answers wait for the decision at most this long from
 * the answer (src/workflows/call-line.ts), so no LLM request is made for a machine's greeting.
 */
export const MACHINE_DETECTION_TIMEOUT_SECONDS = 30;

/** Argument of the `machineDetection` signal: Twilio's AMD result for the provider call `providerCallSid`. */
export interface MachineDetection {
  answeredBy: TwilioAnsweredBy;
  providerCallSid?: string;
}

/** Argument of `callWorkflow`: everything the call needs, fixed at creation. */
export interface CallWorkflowInput {
  callId: string;
  orgId: string;
  livemode: boolean;
  to: string;
  from: string | null;
  agent: AgentSnapshot;
  /**
   * A squad's call (`POST /v1/calls` with `squad_id`): its members at the versions fixed when it started;
   * `agent` is the start member's. Absent on every other call, whose commands it must not change.
   */
  squad?: CallSquad;
  context: Record<string, unknown>;
  metadata: Record<string, string>;
  /**
   * The contact called (`cont_…`): `contact_id` of the request, else the contact whose phone is `to`;
   * null when none. Absent in calls started before contacts existed.
   */
  contactId?: string | null;
  /** Present in test mode (a default script when the request had none); absent in live mode and in rooms. */
  simulation: Simulation | null;
  /**
   * A browser voice call (`POST /v1/widget/voice` with LiveKit configured): the media room the assistant
   * joins (src/activities/voice-room.ts) instead of dialing, and the visitor it talks with. Absent on
   * every other call.
   */
  room?: VoiceRoom;
  max_duration_seconds: number;
  /** Creation time in unix seconds, as the API answered it. */
  created: number;
  /**
   * How long the assistant may take to answer one turn, ms of the model's time (default
   * `DEFAULT_TURN_DEADLINE_MS`): past it a live caller hears `HOLDING_LINE` (a simulated call's transcript
   * records it); past three times it the call ends `failed` (`error`). Absent in runs started before it existed.
   */
  turn_deadline_ms?: number;
  /** Set when a run continues as new (long calls): where the conversation stands. */
  continuation?: CallContinuation;
  /**
   * Set on a bulk campaign's call only (absent on every other call, whose commands it must not change):
   * the campaign to report the outcome to, the contact and attempt, and the form the assistant fills
   * with the `fill_form` tool.
   */
  campaign?: CallCampaign;
  /** `inbound` or `outbound`; absent in calls started before inbound calls existed (all outbound). */
  direction?: CallDirection;
  /** Set on an inbound call only. */
  inbound?: InboundCall;
  /**
   * How the call counts against `max_concurrent_calls` (src/shared/call-slots.ts): `held` — the API took
   * a slot before starting the call (granted at once; inbound, browser voice, an outbound call with a free
   * slot); `waiting` — the API put it in line (the grant comes as the `slotGranted` signal); `queue` — the
   * workflow asks for one itself (a campaign's call) and waits in line if none is free. Either way the
   * workflow frees it when the end is recorded. Absent: not counted (calls started before the
   * organization's limit was kept, and refused inbound calls).
   */
  slot?: 'queue' | 'waiting' | 'held';
  /**
   * With `slot: 'queue'` or `waiting`: how long the call may wait for a slot, seconds from `created` (from
   * `scheduled_at` for a scheduled call; default 600).
   */
  queue_timeout_seconds?: number;
  /**
   * A scheduled call: when it is dialed, unix seconds, already moved to its calling window's
   * opening by the starter (src/services/call-schedule.ts). The call is `scheduled` until then, on a durable
   * timer. Absent: dialed at once (every call made before scheduling existed).
   */
  scheduled_at?: number;
  /**
   * A callback the assistant promised (`schedule_callback`): the call (`call_…`) or the conversation
   * (`conv_…`) it was promised on.
   */
  callback_of?: string;
  /** The `calling_window` the request gave (shown on the call; `scheduled_at` already honours it). */
  calling_window?: CallingWindow;
  /**
   * Set on an outbound phone call started since the dial gate (src/services/dial-gate.ts): the workflow asks
   * the gate (activity `checkDialGate`) before it dials and before a warm transfer dials the person.
   * `calling_hours`: outside them, `hold` the call (`scheduled`, `scheduled_reason: "calling_hours"`, a
   * durable timer to the window's opening) or `refuse` it (`canceled`, `outside_calling_hours`). Absent:
   * calls started before the gate (their recorded histories must replay unchanged), inbound calls and
   * browser voice rooms.
   */
  dial_gate?: {
    calling_hours: CallingHoursPolicy;
    /**
     * The API's own check of `POST /v1/calls` (a `hold` moved `scheduled_at` to the window's opening):
     * the call's first document shows it (`compliance`, `scheduled_reason`) until the workflow checks again.
     */
    checked?: ComplianceCheck;
  };
  /**
   * The call's own `voicemail` setting (`POST /v1/calls` `voicemail`; a campaign's attempt that hangs up
   * instead of leaving the message), replacing the agent's (`agent.voicemail`). Absent: the agent's.
   */
  voicemail?: VoicemailSetting;
  /** Recording: the call's `recording`, else its agent's; absent: not recorded. */
  recording?: RecordingSettings;
  /**
   * The organization's payment connector (Twilio Pay Connector's name) in the call's mode when the call
   * started: the call offers `collect_payment` (src/workflows/call-payments.ts). Absent: no payments.
   */
  payment_connector?: string;
  /**
   * The AI disclosure sentence the call opens with (the organization's `ai_disclosure`, in the agent's
   * language; src/shared/recording-consent.ts). Absent: none (the setting off, or a call made before it).
   */
  ai_disclosure?: string;
  /**
   * The recording-consent decision made at creation (src/shared/recording-consent.ts `RecordingConsent`):
   * what the opening says about recording, and with `mode: "ask"` the question whose answer the first
   * caller line gives. Absent in calls made before consent existed (their commands must not change).
   */
  recording_consent?: RecordingConsent;
  /**
   * The analysis plan: the request's `analysis`, else the agent's. Not read by `callWorkflow`:
   * stored on the call, whose end starts `callAnalysisWorkflow` (src/activities/calls.ts). Absent: none.
   */
  analysis?: AnalysisPlan;
  /**
   * A call whose tools are mocked (a `fork` replay's call, src/shared/tool-mocks.ts): the organization's
   * tools and the built-in ones reaching outside the call are answered from these recorded results, else
   * by the tool's `mock` rule or default, else by a model's made-up result, and never run. Absent: tools run.
   */
  tool_mocks?: ToolMocks;
  /**
   * A test-mode call of a live agent (a `fork` replay started with a live key, src/services/replay-forks.ts):
   * the agent's tools, connector installations and prompt knowledge are read in live mode, where they
   * are; everything the call records (the call, its usage, its events) stays test-mode. Absent: the
   * call's mode.
   */
  agent_livemode?: true;
}

/** The voicemail setting a call follows: its own, else its agent's, else none (src/shared/calls.ts `VoicemailSetting`). */
export function effectiveVoicemail(input: Pick<CallWorkflowInput, 'voicemail' | 'agent'>): VoicemailSetting | null {
  return input.voicemail ?? input.agent.voicemail ?? null;
}

/** A calling window as a call or an agent takes it: local `HH:MM` times, days, an optional zone. */
export interface CallingWindow {
  start: string;
  end: string;
  /** Days it opens (`sun`…`sat`; default every day). */
  days?: ('sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat')[];
  /** IANA zone; absent: the callee's, from the number's region. */
  timezone?: string;
}

/** The LiveKit room of a browser voice call. */
export interface VoiceRoom {
  /** The room's name (the call id). */
  name: string;
  /** The visitor's participant identity (its token's `identity`). */
  participant: string;
}

/** The assistant's participant identity in a voice room (one per room: a second join replaces the first). */
export const ROOM_ASSISTANT_IDENTITY = 'assistant';

/** Failure type of `attendRoom` on a worker without LiveKit (not retried: the call fails). */
export const VOICE_ROOM_UNAVAILABLE = 'VoiceRoomUnavailable';

/**
 * Failure type of a transfer refused because the call has no phone line to hand over (a browser voice
 * room); the API maps it to 409 `call_not_transferable`.
 */
export const CALL_NOT_TRANSFERABLE = 'call_not_transferable';

/** A campaign call's link to its campaign (src/shared/bulk-calls.ts). */
export interface CallCampaign {
  bulkCallId: string;
  contactIndex: number;
  attempt: number;
  form: FormDefinition;
}

/** The state a long call carries into its next run (continue-as-new keeps each run's history small). */
export interface CallContinuation {
  /** When the call was answered (ms); the maximum duration counts from it. */
  answeredMs: number;
  /** Transcript turns recorded so far (the next turn's `seq`). */
  turns: number;
  /** Simulation: lines of the caller's script already spoken. */
  scriptIndex: number;
  /** Live: utterances received so far (ids continue from it). */
  utterances: number;
  providerCallSid: string | null;
  /** Live: every provider status seen so far. */
  telephonySeen: TelephonyStatus['status'][];
  /** A campaign call: the form values `fill_form` kept so far. */
  formValues?: FormValues | null;
  /** Answering-machine detection's decision so far (absent: none yet). */
  answeredBy?: AnsweredBy;
  /** Warm transfers started so far (absent: none). */
  transfers?: number;
  /**
   * `recording_consent: "ask"`: the caller's answer once given, and the transcript turn recording starts
   * at (absent: not asked, or not answered yet).
   */
  consent?: { answer: ConsentAnswer; recording: 'on' | 'off'; fromSeq: number | null };
  /** A squad's call: the member answering and the hand-offs made so far (absent: the start member, none). */
  squad?: SquadProgress;
  /**
   * Entries of the call's live stream written so far (`GET /v1/calls/{id}/stream`): the next
   * entry's number is this plus one. Absent in runs continued before the stream existed: the continued
   * run then writes no entries (the stream of such a call ends with the call).
   */
  streamEntries?: number;
}

/**
 * A value of a transition's patch (src/activities/calls.ts `transitionCall`) that the activity replaces by
 * its own clock (epoch ms) when it writes: for times that workflow time (the workflow task's start) would
 * place too early.
 */
export const STAMP_NOW = 'now';

/** Default of `turn_deadline_ms`. */
export const DEFAULT_TURN_DEADLINE_MS = 8_000;
/** What a caller hears when the assistant's answer is late (a simulated call's transcript records it). */
export const HOLDING_LINE = 'One moment, please.';

/** What the `state` query and the `end`/`transfer` updates return. */
export interface CallState {
  status: CallStatus;
  end_reason: EndReason | null;
  transferred_to: string | null;
  turns: number;
}

/**
 * How a call is transferred: `cold` (default) hands the line over with Twilio `<Dial>` and the
 * assistant is gone; `warm` holds the caller in a conference, dials the person, briefs them and joins them,
 * or brings the caller back to the assistant when that fails.
 */
export const TRANSFER_MODES = ['cold', 'warm'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

/** Default of `transfer_timeout_seconds`: how long the person dialed by a warm transfer may take to answer. */
export const DEFAULT_TRANSFER_TIMEOUT_SECONDS = 30;
/** Bounds of `transfer_timeout_seconds` (Twilio's dial `Timeout` takes 5–600). */
export const TRANSFER_TIMEOUT = { min: 5, max: 600 } as const;

/**
 * Why a warm transfer failed: the person's line was `busy`, they did not answer in time (`no_answer`), hung
 * up while hearing the summary (`hung_up`), the dial failed (`failed`), or the dial gate refused the
 * person's number (`do_not_call`, `outside_calling_hours`, `destination_not_allowed`: never dialed, the
 * caller never put on hold).
 */
export const TRANSFER_FAILURE_REASONS = [
  'busy',
  'no_answer',
  'hung_up',
  'failed',
  'do_not_call',
  'outside_calling_hours',
  'destination_not_allowed',
] as const;
export type TransferFailureReason = (typeof TRANSFER_FAILURE_REASONS)[number];

/** What the assistant says to the caller it gets back from a failed warm transfer, by reason. */
export const TRANSFER_FAILED_LINES: Record<TransferFailureReason, string> = {
  busy: "I'm sorry, their line is busy right now. I'm back with you; how else can I help?",
  no_answer: "I'm sorry, nobody answered. I'm back with you; how else can I help?",
  hung_up: "I'm sorry, the call with them dropped before I could connect you. I'm back with you; how else can I help?",
  failed: "I'm sorry, I couldn't reach them. I'm back with you; how else can I help?",
  do_not_call: "I'm sorry, I'm not allowed to call that number. How else can I help?",
  outside_calling_hours: "I'm sorry, it's outside the hours I may call them. How else can I help?",
  destination_not_allowed: "I'm sorry, I'm not allowed to transfer calls there. How else can I help?",
};

/**
 * A warm transfer's progress as the call shows it (`transfer` on the call object, `transfer_json` in the
 * store): `dialing` (the caller on hold, the person's phone ringing), `briefing` (the person answered and
 * hears the summary), then `transferred` or `failed` (with `reason`). A cold transfer shows `transferred`.
 */
export interface TransferProgress {
  mode: TransferMode;
  to: string;
  status: 'dialing' | 'briefing' | 'transferred' | 'failed';
  reason: TransferFailureReason | null;
  /** What the person heard (warm); null for a cold transfer and before the person answered. */
  summary: string | null;
  /** Which warm transfer of the call this is (1, 2, …): a failed one's ConversationRelay session comes back under it. */
  attempt: number;
}

/**
 * Failure type of a transfer refused because a warm transfer of the call is already under way; the API
 * maps it to 409 `transfer_in_progress`.
 */
export const TRANSFER_IN_PROGRESS = 'transfer_in_progress';

/**
 * Argument of the `transfer` update: where to (E.164, `sip:` URI or `client:` identity), and for a warm
 * transfer the summary the person hears (absent: the model writes one from the transcript) and
 * how long they may take to answer.
 */
export interface TransferRequest {
  to: string;
  /** Absent: `cold`. */
  mode?: TransferMode;
  summary?: string;
  /** Default `DEFAULT_TRANSFER_TIMEOUT_SECONDS`. */
  timeoutSeconds?: number;
}

/**
 * Argument of the `transferLeg` signal: a Twilio callback about the person's leg of a warm transfer,
 * tied to it by `providerCallSid` (a callback naming another CallSid is ignored): the leg's status
 * callback (`status`), or the conference's `participant-join` for it (`joined`).
 */
export interface TransferLegEvent {
  providerCallSid: string;
  status?: TelephonyStatus['status'];
  joined?: boolean;
}

/** The name of the Twilio conference a warm transfer of call `callId` holds the caller in. */
export const transferConferenceName = (callId: string) => `transfer-${callId}`;

/** Call progress reported by the telephony provider (Twilio status callback) in live mode. */
export interface TelephonyStatus {
  status:
    | 'queued'
    | 'initiated'
    | 'ringing'
    | 'in-progress'
    | 'answered'
    | 'busy'
    | 'no-answer'
    | 'failed'
    | 'canceled'
    | 'completed';
  providerCallSid?: string;
}

/**
 * The order of Twilio's call statuses (https://www.twilio.com/docs/voice/api/call-resource#call-status-values):
 * callbacks may arrive out of order, and a status never replaces one of a higher rank. `completed` means
 * the call was answered and has ended; `busy`, `no-answer`, `failed`, `canceled` that it never was.
 */
export const TELEPHONY_STATUS_RANK: Record<TelephonyStatus['status'], number> = {
  queued: 0,
  initiated: 0,
  ringing: 1,
  'in-progress': 2,
  answered: 2,
  completed: 3,
  busy: 3,
  'no-answer': 3,
  failed: 3,
  canceled: 3,
};

/** What a `callerSaid` (or `answer`) update resolves with. */
export interface CallerSaidResult {
  /** What the assistant says back (null: nothing to say). */
  text: string | null;
  /** The call is over: end the session after speaking `text`. */
  ended: boolean;
  /** `text` is the holding line; the answer comes from the `answer` update for `utterance`. */
  pending?: boolean;
  /** The utterance's id within the call. */
  utterance?: number;
  /**
   * A browser voice room's final answer: the latency record the call made of it and its transcript
   * turn's `seq`, which the room's attendance completes with what only it measures (the visitor's end of
   * speech, the first audio: src/voice/room-latency.ts). Absent elsewhere, and when the answer has none.
   */
  latency?: RecordedLatency & { seq: number };
}

/** True for a transfer destination: an E.164 number, a `sip:` URI or a `client:` identity (Twilio `<Dial>`). */
export function isTransferTarget(to: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(to) || /^sip:[^\s@]+@[^\s@]+$/i.test(to) || /^client:[A-Za-z0-9_.-]{1,121}$/.test(to);
}

/**
 * Failure type of `advanceClock` on a call that is not a scheduled test-mode call (the API maps it to 409
 * `call_not_scheduled`).
 */
export const CALL_NOT_SCHEDULED = 'call_not_scheduled';

/** Argument of the `advanceClock` update: the time the call's test clock moves to, unix seconds. */
export interface AdvanceClockRequest {
  to: number;
}

/** Failure type of an update refused because the call is not live (the API maps it to 409 `call_not_live`). */
export const CALL_NOT_LIVE = 'call_not_live';

/** Longest line `POST /v1/calls/{id}/say` takes (characters). */
export const SAY_MAX_CHARS = 1_000;
/** Longest note `POST /v1/calls/{id}/context` takes (characters). */
export const NOTE_MAX_CHARS = 4_000;

/**
 * Argument of the `say` update: a line the assistant speaks on the API's behalf, at the next
 * pause (`interrupt` false: once the answer being given is spoken, before the caller's next line) or at
 * once (`interrupt` true). Recorded as the assistant's turn with `author: "api"`.
 */
export interface SayRequest {
  text: string;
  interrupt?: boolean;
}

/**
 * How the model is given a `context` note: a system message in the conversation where the note came
 * (the workflow's in-memory conversation and src/services/calls.ts `callConversation` alike).
 */
export function noteMessage(note: string): string {
  return `Note from a supervisor (the caller did not hear it): ${note}`;
}

/** What the `say` update resolves with. */
export interface SayResult {
  /** The line was spoken (delivered to the caller's voice session, or said in a simulated call). */
  spoken: boolean;
  /** Its transcript turn's `seq`; null when not spoken (the call stopped first, or no voice session took it). */
  seq: number | null;
}

/** Argument of the `context` update: a note for the model only (a supervisor's whisper). */
export interface ContextNote {
  note: string;
}

export const stateQuery = defineQuery<CallState>('state');
/** End the call (any non-terminal status); resolves once the call has ended, with its final state. */
export const endUpdate = defineUpdate<CallState>('end');
/** Transfer an `in_progress` call; resolves once transferred, with the final state. */
export const transferUpdate = defineUpdate<CallState, [TransferRequest]>('transfer');
/** Live mode: what the caller just said (speech-to-text); resolves with the assistant's answer. */
/**
 * Live mode: the caller's utterance; `over_speech` when it was said while the assistant spoke (the relay
 * sends it only then), which makes a backchannel no turn (src/workflows/call-heard.ts).
 */
export const callerSaidUpdate = defineUpdate<CallerSaidResult, [{ text: string; over_speech?: boolean }]>('callerSaid');
/** Live mode: the answer to an utterance whose `callerSaid` resolved `pending` (after the holding line). */
export const answerUpdate = defineUpdate<CallerSaidResult, [{ utterance: number }]>('answer');
/**
 * Test mode (`POST /v1/test_helpers/calls/{id}/advance_clock`): moves a scheduled call's clock
 * forward, like Stripe's test clocks, so a test can see a scheduled call dialed without waiting for it;
 * resolves once the call has left `scheduled` when the new time reaches `scheduled_at` (at once otherwise),
 * with the call's state. Refused (`CALL_NOT_SCHEDULED`) in live mode and once the call is no longer scheduled.
 */
export const advanceClockUpdate = defineUpdate<CallState, [AdvanceClockRequest]>('advanceClock');
/**
 * Speaks a line on the API's behalf (`POST /v1/calls/{id}/say`); resolves once it is spoken (or
 * the call stopped first). Refused (`CALL_NOT_LIVE`) unless the call is in progress.
 */
export const sayUpdate = defineUpdate<SayResult, [SayRequest]>('say');
/**
 * Adds a note the model sees from its next request on (`POST /v1/calls/{id}/context`), recorded
 * as a `note` turn; resolves with the turn's `seq` at once. Refused (`CALL_NOT_LIVE`) unless in progress.
 */
export const contextUpdate = defineUpdate<{ seq: number }, [ContextNote]>('context');
/** Live mode: a status callback from the telephony provider. */
export const telephonyStatusSignal = defineSignal<[TelephonyStatus]>('telephonyStatus');
/**
 * Live mode: Twilio's asynchronous answering-machine detection result (`POST /twilio/amd/{call id}`). Another provider call's, or one after the call has stopped, changes nothing.
 */
export const machineDetectionSignal = defineSignal<[MachineDetection]>('machineDetection');
/** A Twilio callback about a warm transfer's leg to the person (src/api/twilio/index.ts). */
export const transferLegSignal = defineSignal<[TransferLegEvent]>('transferLeg');
/**
 * Live mode: the caller talked over the assistant's answer (ConversationRelay's `interrupt`, a
 * voice room's barge-in). The assistant's turns since the caller last spoke keep only what was heard
 * (src/shared/speech.ts `cutByInterruption`), in the transcript and in the model's history.
 */
export const interruptedSignal = defineSignal<[Interruption]>('interrupted');

/** Workflow type name of a call (recorded histories depend on it). */
export const CALL_WORKFLOW = 'callWorkflow';

/** Signature of `callWorkflow`, for starters (no starter imports the workflow module). */
export type CallWorkflow = (input: CallWorkflowInput) => Promise<CallState>;

/** The workflow id of a call: the call id itself, so one call can never have two runs at once. */
export const callWorkflowId = (callId: string): string => callId;

/** Failure type of a telephony request the provider refused (4xx): not retried. */
export const TELEPHONY_REJECTED = 'TelephonyRejected';

/** Workflow type of the reconciler that records the end of calls whose run closed without it. */
export const CALL_RECONCILER_WORKFLOW = 'callReconcilerWorkflow';
/** Id of the Temporal Schedule that starts the reconciler every minute. */
export const CALL_RECONCILER_SCHEDULE_ID = 'call-reconciler';
/** Input of `callReconcilerWorkflow`: how far back (ms) to look for closed runs. */
export interface CallReconcilerInput {
  lookbackMs: number;
}
/** Signature of `callReconcilerWorkflow`. */
export type CallReconcilerWorkflow = (input: CallReconcilerInput) => Promise<{ reconciled: number }>;
