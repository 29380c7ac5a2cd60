/**
 * Calls (`call_…`, object `call`) and their transcript turns: the read model `GET /v1/calls…` answers
 * from. The API inserts a call's first document (insert-if-absent, `newCallDocument`); from then on only
 * the call's own workflow writes it, through its activities (src/activities/calls.ts), one at a time.
 * Turns are rows keyed `<call id>:<seq>`, so a retried write is a duplicate, not a second turn; a row is
 * never changed afterwards, except an assistant turn the caller talked over (`interrupted`).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { DESTINATION_REFUSALS } from '../shared/dialing';
import {
  ANSWERED_BY,
  CALL_DIRECTIONS,
  CALL_STATUSES,
  TRANSFER_FAILURE_REASONS,
  TRANSFER_MODES,
  type TransferProgress,
  type AnsweredBy,
  type CallDirection,
  type CallStatus,
  type CallWorkflowInput,
  type ComplianceCheck,
  effectiveVoicemail,
} from '../shared/calls';
import { schemaOptions as base, seconds, type WithId } from './store';
import { toolEntry, toolEntryFields } from './tools';
import {
  apiObject,
  callingWindowObject,
  formValuesObject,
  metadataObject,
  recordingSettingsObject,
  unix,
} from './wire';
import { RECORDING_CONSENT_MODES, type RecordingConsent } from '../shared/recording-consent';
import { AnalysisObject } from './analyses';
import { KnowledgeSourceObject } from './knowledge';
import type { KnowledgeRef } from '../shared/assistant';
import { redactionField, renderRedaction } from './redaction';
import { CallUsageObject, CostObject, MemberCostObject, type MemberCostView } from './usage';
import { CallLatencyObject, renderCallLatency, renderTurnLatency, TurnLatencyObject } from './latency';
import { ENGINE_FALLBACKS, ENGINES, type EngineFallback } from '../shared/realtime';

const callSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    /** The agent's version the call runs (fixed at its start); null for calls made before versions. */
    agent_version: { type: Number, default: null },
    /** The squad the call runs (`sqd_…`, src/shared/squads.ts): `agent_id` is then its start member's agent; null: none. */
    squad_id: { type: String, default: null },
    /** A squad's call: the member answering now (its `start`, then each hand-off's); null: no squad. */
    squad_member: { type: String, default: null },
    /** A squad's call: the squad version it runs (src/models/squad-versions.ts); null: no squad. */
    squad_version: { type: Number, default: null },
    /** The contact called (`cont_…`), or null. */
    contact_id: { type: String, default: null },
    /** `realtime` when its agent's version runs on the Realtime API (src/shared/realtime.ts); null: the pipeline. */
    engine: { type: String, default: null },
    /**
     * Why a realtime call went on with the pipeline engine (src/shared/realtime.ts `ENGINE_FALLBACKS`),
     * written by its workflow when it falls back; null otherwise.
     */
    engine_fallback: { type: String, default: null },
    /** OpenAI's id of a realtime call's SIP leg (`rtc_…`), once its incoming-call webhook came; null before and otherwise. */
    realtime_call_id: { type: String, default: null },
    /**
     * Where a realtime call's transfer by `refer` sends the caller, written before the refer is asked (src/activities/realtime.ts
     * `referRealtimeCall`): the only `Refer-To` its Twilio leg's `referUrl` honours (src/api/twilio/realtime-refer.ts); null otherwise.
     */
    realtime_refer_to: { type: String, default: null },
    to: { type: String, required: true },
    from: { type: String, default: null },
    status: { type: String, required: true },
    end_reason: { type: String, default: null },
    /**
     * Who answered as answering-machine detection said (src/shared/calls.ts `AnsweredBy`), written with the
     * call's end; null without detection or before it decided.
     */
    answered_by: { type: String, default: null },
    transferred_to: { type: String, default: null },
    /**
     * The message the call leaves if a machine answers: its voicemail setting's (the call's own, else its
     * agent's, as a campaign's attempt has it) when the action is `leave_message`, fixed at creation; null:
     * it hangs up on a machine, or detects none.
     */
    voicemail_message: { type: String, default: null },
    /**
     * What happened on a machine (`VoicemailOutcome`, JSON), written with the call's end; null when no
     * machine answered. A live call's message counts as left once Twilio took it (the `leaveVoicemail`
     * activity writes it then); a simulated call's once the machine heard it.
     */
    voicemail_json: { type: String, default: null },
    /** The call's latest transfer (src/shared/calls.ts `TransferProgress`), JSON; null: none. */
    transfer_json: { type: String, default: null },
    /**
     * The call's latest card payment (src/shared/payments.ts `PaymentProgress`: amount, currency, status,
     * last four digits, confirmation code; never a card number), JSON; null: none. Written by the workflow.
     */
    payment_json: { type: String, default: null },
    simulated: { type: Boolean, required: true },
    max_duration_seconds: { type: Number, required: true },
    context_json: { type: String, default: '{}' },
    /** The agent as it was at creation (src/shared/calls.ts `AgentSnapshot`), JSON: the prompt is built from it. */
    agent_json: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    error_message: { type: String, default: null },
    provider_call_sid: { type: String, default: null },
    /**
     * The Twilio account a live call is in (`AC…`: the organization's subaccount or connected account, the
     * platform's), written before it is dialed or when its first webhook comes; null: the platform's.
     */
    provider_account_sid: { type: String, default: null },
    /** The bulk campaign (`bulk_…`) that placed the call, or null. */
    bulk_call_id: { type: String, default: null },
    /** A campaign call's form values (`fill_form`) as JSON, written with its final transition; null otherwise. */
    form_json: { type: String, default: null },
    /** A campaign call's form (its definition, JSON), so every turn's prompt lists the fields; null otherwise. */
    form_definition_json: { type: String, default: null },
    /** `inbound` or `outbound` (src/shared/calls.ts `CallDirection`); null in calls made before inbound calls existed (outbound). */
    direction: { type: String, default: null },
    /**
     * The W3C trace id (32 hex digits) of the trace the call was created in (tracing on:
     * src/platform/tracing.ts); null when it was created outside a trace.
     */
    trace_id: { type: String, default: null },
    /** An inbound call: how the number's inbound webhook went, JSON `{status, error?}`; null otherwise. */
    inbound_webhook_json: { type: String, default: null },
    created: { type: Number, required: true },
    /** A scheduled call: when it is dialed, unix seconds; null for a call dialed at once. */
    scheduled_at: { type: Number, default: null },
    /** The `calling_window` the request gave, JSON; null when none. */
    calling_window_json: { type: String, default: null },
    /**
     * Why the call is or was `scheduled`: `calling_hours` when the dial gate held it for the callee's
     * calling hours (src/services/dial-gate.ts); null for a call scheduled by its request, or never scheduled.
     */
    scheduled_reason: { type: String, default: null },
    /**
     * The dial gate's record (src/shared/calls.ts `ComplianceCheck`, JSON), written by the API when it
     * checked the request and by the call's `checkDialGate` activity at each check (the latest wins; a
     * warm transfer leg's check is appended under `transfer_legs`); null: never checked (calls made before
     * the gate, inbound calls).
     */
    compliance_json: { type: String, default: null },
    /** A callback the assistant promised (`schedule_callback`): the call it was promised on; null otherwise. */
    callback_of: { type: String, default: null },
    /** Recording: the call's settings as snapshotted at creation, JSON `{enabled, notice?}`; null: not recorded. */
    recording_json: { type: String, default: null },
    /**
     * The recording-consent decision (src/shared/recording-consent.ts `RecordingConsent`), JSON: written at
     * creation, then (`ask` mode) with the caller's answer by the `recordConsentAnswer` activity; null in
     * calls made before consent existed.
     */
    recording_consent_json: { type: String, default: null },
    /** The AI disclosure sentence the call opened with; null: none (the organization's setting off). */
    ai_disclosure: { type: String, default: null },
    /** When the call left `queued` (began to dial, or was answered): from then it holds a call slot (ms). */
    dialed_ms: { type: Number, default: null },
    answered_ms: { type: Number, default: null },
    ended_ms: { type: Number, default: null },
    /** Set when the reconciler recorded the end of a call whose run closed without doing so (ms). */
    reconciled_ms: { type: Number, default: null },
    /**
     * `changeWindow` of the reconciler's end (src/models/conversations.ts): that end has no stream entry,
     * so the API's call-stream poller reads this to wake the call's open streams
     * (src/services/call-streams.ts). Absent otherwise.
     */
    stream_window: { type: String },
    /** The analysis plan, JSON, fixed at creation (the request's `analysis`, else the agent's); null: none. */
    analysis_plan_json: { type: String, default: null },
    /**
     * The call's current analysis (the newest, `ana_…` ids sort by time), rendered, JSON; null until one is
     * stored. Written by the analysis's `storeAnalysis` activity (src/services/analysis.ts), its own fields only.
     */
    analysis_json: { type: String, default: null },
    analysis_id: { type: String, default: null },
    /** The answers' latency, p50/p90 per field (src/models/latency.ts), JSON, written with the call's end; null: none measured. */
    latency_json: { type: String, default: null },
    /**
     * The call's cost (src/models/usage.ts `CostObject`), JSON, written with its end from its usage row
     * `call:<id>` (which holds it, priced once: src/services/costs.ts), plus a squad's call's members' priced
     * requests (`recordedCallCost`); null before, and for calls ended before costs.
     */
    cost_json: { type: String, default: null },
    /**
     * A squad's call: its `cost_json` split per member (`MemberCostObject[]`, JSON), written with it
     * (src/services/costs.ts `recordedCallCost`); null otherwise.
     */
    cost_members_json: { type: String, default: null },
    /** When retention or an erasure emptied the call's text, leaving a skeleton, ms; null while kept. */
    text_expired_ms: { type: Number, default: null },
  },
  base,
);
callSchema.index({ org_id: 1, livemode: 1, _id: -1 });
callSchema.index({ provider_call_sid: 1 });
/** Retention: a tenant's calls by age (src/services/retention.ts). */
callSchema.index({ org_id: 1, livemode: 1, created: 1 });
/**
 * GET /v1/calls?from=… and ?to=… (search by number), newest first; erasure
 * finds a tenant's calls from and to a number with them too (src/services/erasure.ts).
 */
callSchema.index({ org_id: 1, livemode: 1, from: 1, _id: -1 });
callSchema.index({ org_id: 1, livemode: 1, to: 1, _id: -1 });
// GET /v1/calls?contact_id=… (a contact's calls), newest first.
callSchema.index({ org_id: 1, livemode: 1, contact_id: 1, _id: -1 });
callSchema.index({ stream_window: 1 }); // the call-stream poller's lookup of reconciled ends
callSchema.index({ status: 1 }); // calls not ended, counted at each metrics scrape (svc_calls_active)
callSchema.index({ org_id: 1, livemode: 1, bulk_call_id: 1, _id: -1 });
// GET /v1/calls?agent_version=…, with or without agent_id: newest first.
callSchema.index({ org_id: 1, livemode: 1, agent_version: 1, _id: -1 });
// (agent_version leads agent_id: an index led by agent_id would be picked for `agent_id` + `status` lists too.)
callSchema.index({ org_id: 1, livemode: 1, agent_version: 1, agent_id: 1, _id: -1 });
// GET /v1/calls?status=…: one organization's calls in that status, newest first.
callSchema.index({ org_id: 1, livemode: 1, status: 1, _id: -1 });
// GET /v1/calls?agent_id=… and ?direction=inbound: newest first, from the first row that matches (on
// the embedded store a filter the index does not hold is applied row by row while walking the tenant's
// calls, so a rare agent or inbound calls would read every call of the tenant).
callSchema.index({ org_id: 1, livemode: 1, agent_id: 1, _id: -1 });
callSchema.index({ org_id: 1, livemode: 1, direction: 1, _id: -1 });
// ?agent_id=…&status=…: one agent's calls in one status.
callSchema.index({ org_id: 1, livemode: 1, agent_id: 1, status: 1, _id: -1 });
/** A widget visitor's live voice call (src/api/widget.ts: one room per visitor at a time). */
callSchema.index({ org_id: 1, livemode: 1, to: 1, status: 1 });
/** The callbacks promised on one call or conversation (src/services/callbacks.ts `cancelPending`). */
callSchema.index({ callback_of: 1, org_id: 1, livemode: 1, status: 1 });
export const Call = mongoose.model('Call', callSchema, 'calls');

const callTurnSchema = new Schema(
  {
    /** `<call id>:<seq, 6 digits>`: a retried write of the same turn is a duplicate, not a second turn. */
    _id: { type: String, required: true },
    call_id: { type: String, required: true },
    seq: { type: Number, required: true },
    /** `system`: a note of what happened on the call (a warm transfer's progress), seen by the model too; `note`: the API's note for the model (`POST /v1/calls/{id}/context`). */
    role: { type: String, enum: ['assistant', 'caller', 'tool', 'system', 'note', 'handoff'], required: true },
    text: { type: String, required: true },
    /** `api`: a line said (`POST /v1/calls/{id}/say`) or a note added (`/context`) through the API; null otherwise. */
    author: { type: String, default: null },
    tool_name: { type: String, default: null },
    tool_arguments_json: { type: String, default: null },
    /** Knowledge chunks the assistant was given for this turn, JSON `[{document, chunk}]`; null when none. */
    knowledge_json: { type: String, default: null },
    /** The tool call's id as the model gave it (tool turns), so the conversation can be rebuilt for the model. */
    tool_call_id: { type: String, default: null },
    /** Tool turns: the call's key `tc_…` (its requests' `Idempotency-Key`), null before. */
    tool_call_key: { type: String, default: null },
    /** Tool turns: whether the call succeeded (null in turns recorded before: then a text not starting `Error:`). */
    tool_ok: { type: Boolean, default: null },
    /** Tool turns: the HTTP status the tool's server answered, or null. */
    tool_status: { type: Number, default: null },
    /** Tool turns: how long the call took, ms (null before). */
    tool_duration_ms: { type: Number, default: null },
    /**
     * Assistant turns: the caller talked over it, and `text` is only what was heard (the one
     * change a row gets after its write: src/activities/calls.ts `interruptTurns`); null otherwise.
     */
    interrupted: { type: Boolean, default: null },
    /** Caller turns: only a backchannel said over the assistant (no interruption, no model turn); null otherwise. */
    backchannel: { type: Boolean, default: null },
    /** Tool turns: `dropped`, `held` or `confirmed` (src/shared/tools.ts `ToolCallRecord.outcome`); null: it ran. */
    tool_outcome: { type: String, default: null },
    /** Tool turns: why (`interrupted`, `confirmation_required`, `not_confirmed`); null otherwise. */
    tool_outcome_reason: { type: String, default: null },
    /** Tool turns of a mocked call: `recorded`, `mock_rule` or `generated` (src/shared/tool-mocks.ts); null: the tool ran. */
    tool_mocked: { type: String, default: null },
    /** What was replaced in `text` and the tool's arguments before they were stored, JSON `{card: n, …}`; null: nothing (or redaction off). */
    redaction_json: { type: String, default: null },
    /** The first assistant turn of an answer: its latency (src/shared/latency.ts `RecordedLatency`), JSON; null otherwise. */
    latency_json: { type: String, default: null },
    /** A squad call's assistant turns: the member's agent that said it and its version; null otherwise. */
    agent_id: { type: String, default: null },
    agent_version: { type: Number, default: null },
    /** `handoff` entries (src/shared/assistant.ts `CallTurnInput.handoff`), JSON `{from, to, context, summary?}`. */
    handoff_json: { type: String, default: null },
    /** `handoff` entries: the receiving member's system prompt (`callConversation` starts from it); not rendered. */
    handoff_prompt: { type: String, default: null },
    at_ms: { type: Number, required: true },
  },
  base,
);
/** A call's turns in order (the transcript, the prompt, the live call's `turns`): `{call_id}` then `seq`. */
callTurnSchema.index({ call_id: 1, seq: 1 });
export const CallTurn = mongoose.model('CallTurn', callTurnSchema, 'call_turns');

const callStreamEntrySchema = new Schema(
  {
    /** `<call id>:<n, 6 digits>`: the n-th event of the call's live stream (1, 2, …, no gaps). */
    _id: { type: String, required: true },
    call_id: { type: String, required: true },
    n: { type: Number, required: true },
    /** `status`: a transition of the call; `turn`: a transcript turn, `turn_seq`. */
    kind: { type: String, enum: ['status', 'turn'], required: true },
    turn_seq: { type: Number, default: null },
    /** A transition: the status it moved to, the events it emitted and its public fields (JSON). */
    status: { type: String, default: null },
    events: { type: [String], default: undefined },
    fields_json: { type: String, default: null },
    at_ms: { type: Number, required: true },
    /**
     * `changeWindow` of when the row was written (src/models/conversations.ts): what the API's one poller
     * per process reads to wake the streams of the calls that changed (src/services/call-streams.ts).
     * Absent on rows written before it existed (no stream waits on those).
     */
    window: { type: String },
  },
  base,
);
/**
 * The live stream of each call (`GET /v1/calls/{id}/stream`): one immutable row per status
 * change and per transcript turn, numbered by the call's workflow (src/workflows/call-record.ts `nextStreamEntry`) in the
 * order they happened and written by the activities that write the transition and the turn
 * (src/activities/calls.ts), insert-if-absent. Any API process serves any reader by `_id` lookups.
 */
/** Retention and erasure delete a call's stream. */
callStreamEntrySchema.index({ call_id: 1 });
callStreamEntrySchema.index({ window: 1 });
export const CallStreamEntry = mongoose.model('CallStreamEntry', callStreamEntrySchema, 'call_stream');

/** A transcript turn's `_id`: the call's id and the turn's `seq`, zero-padded to 6 digits (rows sort in order). */
export const callTurnId = (callId: string, seq: number): string => `${callId}:${String(seq).padStart(6, '0')}`;

/** A call stream entry's `_id`: `<call id>:<n, 6 digits>`. */
export const callStreamEntryId = (callId: string, n: number): string => `${callId}:${String(n).padStart(6, '0')}`;

const dialIntentSchema = new Schema(
  {
    /** The call id: one dial intent per call. */
    _id: { type: String, required: true },
    to: { type: String, required: true },
    from: { type: String, required: true },
    /** When the first attempt to dial began (ms); a retry looks for provider calls created since. */
    created_ms: { type: Number, required: true },
    /** The provider's call id once known (`CA…`). */
    provider_call_sid: { type: String, default: null },
  },
  base,
);
/**
 * Dial intents: written by the `placeCall` activity of the call's own workflow (one writer) before it
 * asks Twilio to dial, so a retried attempt knows a call may already exist and looks for it first; and,
 * under `<call id>:leg:<attempt>`, by `dialTransferLeg` before it dials a warm transfer's person.
 */
export const DialIntent = mongoose.model('DialIntent', dialIntentSchema, 'dial_intents');

const relaySessionSchema = new Schema(
  {
    /** The call id: one ConversationRelay session per call. */
    _id: { type: String, required: true },
    provider_call_sid: { type: String, required: true },
    created_ms: { type: Number, required: true },
    /** Where the API instance holding the session takes the streamed tokens of answers (src/voice/relay.ts). */
    stream_url: { type: String, default: null },
    /** The secret a worker presents there (bearer). */
    stream_token: { type: String, default: null },
    /**
     * The warm transfer (its `attempt`) whose failure brought the caller back to a new session;
     * 0 for the call's first session. Each comeback's handshake is accepted once.
     */
    resume: { type: Number, default: 0 },
  },
  base,
);
/**
 * ConversationRelay sessions: inserted by the API's relay handshake (src/api/twilio/relay.ts), one per call
 * (the unique `_id` refuses a second, replayed handshake), with the token channel of the API instance
 * that holds it; read by the LLM activity to stream answers there. Never updated, except for a browser
 * voice room's (`provider_call_sid` `room:<name>`): each attendance of the room (src/activities/voice-room.ts)
 * replaces it with its own channel (a room call has no CallSid, so no relay handshake can take it).
 */
export const RelaySession = mongoose.model('RelaySession', relaySessionSchema, 'relay_sessions');

const inboundCallSidSchema = new Schema(
  {
    /** Twilio's CallSid (`CA…`) of an inbound call. */
    _id: { type: String, required: true },
    /** The call made for it (`call_…`). */
    call_id: { type: String, required: true },
    created_ms: { type: Number, required: true },
  },
  base,
);
/**
 * Inbound calls by CallSid: the first incoming-call webhook of a CallSid inserts its call id
 * (src/services/inbound-calls.ts `inboundCallId`), so a retried webhook finds the same call and status
 * callbacks, which carry only the CallSid, find the call by `_id` (the one index FerretDB always uses).
 */
export const InboundCallSid = mongoose.model('InboundCallSid', inboundCallSidSchema, 'inbound_call_sids');

export type CallDoc = InferSchemaType<typeof callSchema>;
export type CallTurnDoc = InferSchemaType<typeof callTurnSchema>;
export type CallStreamEntryDoc = InferSchemaType<typeof callStreamEntrySchema>;

/** What a machine got (the call object's `voicemail`): the message left, or `{left: false, message: null}`. */
export interface VoicemailOutcome {
  left: boolean;
  message: string | null;
}

/**
 * The message `input`'s call leaves on a machine, as the call's workflow decides it (src/shared/calls.ts
 * `effectiveVoicemail`: `leave_message` with a message), or null.
 */
export function voicemailMessageOf(input: Pick<CallWorkflowInput, 'voicemail' | 'agent'>): string | null {
  const vm = effectiveVoicemail(input);
  return vm?.action === 'leave_message' && vm.message ? vm.message : null;
}

/**
 * The call document for a new call, as the API and the workflow both write it (insert-if-absent).
 * @param traceId the trace the writer runs in (src/platform/tracing.ts `currentTraceId`), or null
 */
export function newCallDocument(input: CallWorkflowInput, traceId: string | null = null): CallDoc & { _id: string } {
  return {
    _id: input.callId,
    org_id: input.orgId,
    livemode: input.livemode,
    agent_id: input.agent.id,
    agent_version: input.agent.version ?? null,
    squad_id: input.squad?.id ?? null,
    squad_member: input.squad?.start ?? null,
    squad_version: input.squad?.version ?? null,
    engine: input.agent.engine ?? null,
    contact_id: input.contactId ?? null,
    to: input.to,
    from: input.from,
    // A live inbound call rings at Twilio already: its relay handshake needs a live status and the CallSid.
    status:
      input.scheduled_at !== undefined
        ? 'scheduled'
        : input.inbound?.providerCallSid && !input.inbound.refusal
          ? 'ringing'
          : 'queued',
    // A refused inbound call says why from the start (the Twilio answer reads it); its workflow records the end.
    end_reason: input.inbound?.refusal?.reason ?? null,
    answered_by: null,
    transferred_to: input.inbound?.refusal?.transferTo ?? null,
    voicemail_message: voicemailMessageOf(input),
    voicemail_json: null,
    simulated: input.simulation !== null,
    max_duration_seconds: input.max_duration_seconds,
    context_json: JSON.stringify(input.context),
    agent_json: JSON.stringify(input.agent),
    metadata_json: JSON.stringify(input.metadata),
    error_message: null,
    provider_call_sid: input.inbound?.providerCallSid ?? null,
    bulk_call_id: input.campaign?.bulkCallId ?? null,
    form_json: null,
    form_definition_json: input.campaign ? JSON.stringify(input.campaign.form) : null,
    direction: input.direction ?? 'outbound',
    inbound_webhook_json: input.inbound?.webhook ? JSON.stringify(input.inbound.webhook) : null,
    trace_id: traceId, // the trace of whoever writes it first: the API request's, carried on by Temporal
    created: input.created,
    scheduled_at: input.scheduled_at ?? null,
    calling_window_json: input.calling_window ? JSON.stringify(input.calling_window) : null,
    scheduled_reason: input.dial_gate?.checked?.decision === 'hold' ? 'calling_hours' : null,
    compliance_json: input.dial_gate?.checked ? JSON.stringify(input.dial_gate.checked) : null,
    callback_of: input.callback_of ?? null,
    recording_json: input.recording ? JSON.stringify(input.recording) : null,
    recording_consent_json: input.recording_consent ? JSON.stringify(input.recording_consent) : null,
    ai_disclosure: input.ai_disclosure ?? null,
    analysis_plan_json: input.analysis ? JSON.stringify(input.analysis) : null,
    analysis_json: null,
    analysis_id: null,
    transfer_json: null,
    dialed_ms: null,
    answered_ms: null,
    ended_ms: null,
  };
}

/** One turn of a transcript (the OpenAPI component `TranscriptTurn`). */
export const TranscriptTurnObject = apiObject(
  'TranscriptTurn',
  'One turn of a call: what the caller or the assistant said, a tool the assistant called, or a note given to the model.',
  z.object({
    role: z
      .string()
      .meta({ examples: ['assistant', 'caller', 'tool', 'system', 'note'] })
      .describe(
        "`assistant`, `caller`, `tool` (a tool call and its outcome), `system` (a note of what happened on the call, e.g. a warm transfer's progress, seen by the model too), `note` (a note for the model only: `POST /v1/calls/{id}/context`), or `handoff` (a squad member handed the call to another: `handoff`).",
      ),
    agent_id: z.string().optional().describe("A squad call's assistant turns: the agent (the member's) that said it."),
    agent_version: z.number().int().nullable().optional().describe('With `agent_id`: its version.'),
    handoff: z
      .object({
        from: z.string().describe('The member that handed the call over.'),
        to: z.string().describe('The member that took it.'),
        context: z.string().describe('The context policy applied: `all`, `last:N` or `summary`.'),
        summary: z.string().optional().describe('With `summary`: what the receiving member was given.'),
      })
      .optional()
      .describe('`handoff` entries: the hand-off.'),
    text: z.string(),
    author: z
      .literal('api')
      .optional()
      .describe('`api`: said (`POST /v1/calls/{id}/say`) or added (`/context`) through the API; absent otherwise.'),
    tool: z.object({ name: z.string(), arguments: z.unknown() }).optional(),
    ...toolEntryFields,
    knowledge: z
      .array(
        z.object({
          document: z.string(),
          chunk: z.number().int(),
          source: KnowledgeSourceObject.optional().describe(
            'Where the chunk comes from (absent on turns recorded before sources were kept).',
          ),
        }),
      )
      .optional(),
    interrupted: z
      .literal(true)
      .optional()
      .describe('The caller talked over this assistant turn: `text` is only what they heard of it.'),
    backchannel: z
      .literal(true)
      .optional()
      .describe(
        'A caller turn that was only a backchannel ("mhmm", "yeah": the agent\'s `turn_taking.backchannels`) said while the assistant spoke: it interrupted nothing and started no answer.',
      ),
    outcome: z
      .enum(['dropped', 'held', 'confirmed'])
      .optional()
      .describe(
        "Tool entries that did not run when the model asked: `dropped` (never ran), `held` (a `confirm: true` tool waiting for the caller's spoken yes), `confirmed` (run after that yes). Absent: it ran.",
      ),
    reason: z
      .enum(['interrupted', 'confirmation_required', 'not_confirmed'])
      .optional()
      .describe(
        '`interrupted`: the caller talked over the answer before its actions started; `confirmation_required`: held for a yes; `not_confirmed`: the caller did not say yes.',
      ),
    ...redactionField,
    latency: TurnLatencyObject.optional(),
    at: unix.nullable(),
    offset_ms: z.number().int().nullable(),
  }),
);

/** The `call` object as the API answers it (the OpenAPI component `Call`). */
/** One check of the dial gate (src/shared/calls.ts `ComplianceCheck`) as the call shows it. */
const complianceCheckObject = z.object({
  checked_at: unix.describe('When the gate checked, unix seconds (a test-mode call: its clock).'),
  to: z.string().describe('The number checked.'),
  leg: z.enum(['call', 'transfer']).describe("`call`: the call's own dial; `transfer`: a warm transfer's leg."),
  decision: z.enum(['dial', 'hold', 'refuse']),
  rules: z.array(
    z.object({
      rule: z.enum(['calling_hours', 'do_not_call', 'dialing_permissions']),
      result: z
        .enum(['open', 'closed', 'clear', 'listed', 'allowed', 'not_allowed'])
        .describe(
          "`calling_hours`: `open` or `closed`; `do_not_call`: `clear` or `listed`; `dialing_permissions` (the account's `dialing_permissions`): `allowed` or `not_allowed`.",
        ),
      detail: z.string().describe('In words: the window and its source (TCPA, Ofcom, overrides), or the list.'),
      local: z.string().optional().describe("The callee's local time(s) at the check."),
      zone: z.string().nullable().optional().describe("The callee's zone; null when not known precisely."),
      zones: z.array(z.string()).optional().describe('Every zone the window was checked in.'),
      assumed: z
        .literal('country_most_restrictive')
        .optional()
        .describe("The zone was not known precisely: the country's most restrictive window in every zone applied."),
      opens_at: unix.nullable().optional().describe('Closed: when the window next opens (null: not within 8 days).'),
      enforced: z
        .boolean()
        .optional()
        .describe('Closed: false when only recorded (a test rig with `CALLING_HOURS_ENFORCEMENT=record`).'),
      source: z.enum(['organization', 'contact', 'national_registry']).optional().describe('Listed: which list.'),
      refusal: z
        .enum(DESTINATION_REFUSALS)
        .optional()
        .describe(
          '`dialing_permissions` not allowed: which permission refused the number (`country_not_allowed`, `number_type_not_allowed`, …).',
        ),
    }),
  ),
});

/** The call's `compliance`: its own latest check, with each warm transfer leg's. */
const complianceObject = complianceCheckObject.extend({
  transfer_legs: z.array(complianceCheckObject),
});

export const CallObject = apiObject(
  'Call',
  'A phone call placed by an assistant, live through Twilio or simulated with a test key.',
  z.object({
    id: z.string().meta({ examples: ['call_01jd5x2v7c0000000000000000'] }),
    object: z.literal('call'),
    livemode: z.boolean(),
    status: z.enum(CALL_STATUSES),
    direction: z
      .enum(CALL_DIRECTIONS)
      .describe('`outbound`: the assistant dialed `to`; `inbound`: `from` called the number `to`.'),
    to: z.string(),
    from: z.string().nullable(),
    agent_id: z.string(),
    agent_version: z
      .number()
      .int()
      .nullable()
      .describe(
        "The agent's version the call runs, fixed when it starts (`GET /v1/agents/{id}/versions/{n}`); null for calls made before versions.",
      ),
    squad_id: z
      .string()
      .nullable()
      .describe(
        "The squad the call runs (`POST /v1/calls` with `squad_id`): `agent_id` and `agent_version` are its start member's; null: a call of one agent.",
      ),
    squad_member: z
      .string()
      .nullable()
      .describe("A squad's call: the member answering now (`call.handed_off` tells each change); null: no squad."),
    squad_version: z
      .number()
      .int()
      .nullable()
      .describe(
        "A squad's call: the squad version it runs, fixed when it starts (`squad_version` of `POST /v1/calls`, else the squad's traffic split's pick or its published version; `GET /v1/squads/{id}/versions/{n}`); null: no squad.",
      ),
    contact_id: z.string().nullable(),
    engine: z.enum(ENGINES).describe("What carried the call: its agent version's `engine` (`pipeline` or `realtime`)."),
    engine_fallback: z
      .enum(ENGINE_FALLBACKS)
      .nullable()
      .describe(
        'Why a `realtime` call went on with the pipeline engine on the same call: `accept_failed`, `session_error` (before the first answer), `no_webhook` (OpenAI never announced the SIP leg), `no_simulator` (a test-mode call with no simulated SIP leg); null when it did not.',
      ),
    context: z.record(z.string(), z.unknown()),
    metadata: metadataObject,
    end_reason: z.string().nullable(),
    answered_by: z
      .enum(ANSWERED_BY)
      .nullable()
      .describe(
        'Who answered, as answering-machine detection said (agent or call `voicemail.detection`): `machine` ends the call with `end_reason: "voicemail"`. Null without detection or when it had not decided; set when the call ends.',
      ),
    transferred_to: z.string().nullable(),
    voicemail: z
      .object({
        left: z.boolean().describe('Whether the message was left after the beep.'),
        message: z.string().nullable().describe('The message left; null when none was.'),
      })
      .nullable()
      .describe(
        'What the call did on an answering machine (`end_reason: "voicemail"`): `{"left": true, "message": …}` when the voicemail setting\'s message was left (live: once Twilio took it), `{"left": false, "message": null}` when it hung up (action `hang_up`, a campaign attempt that redials, or leaving failed). Null when no machine answered; set when the call ends.',
      ),
    transfer: z
      .object({
        mode: z.enum(TRANSFER_MODES),
        to: z.string(),
        status: z.enum(['dialing', 'briefing', 'transferred', 'failed']),
        reason: z.enum(TRANSFER_FAILURE_REASONS).nullable(),
        summary: z.string().nullable(),
        attempt: z.number().int(),
      })
      .nullable()
      .describe(
        "The call's latest transfer. Warm: `dialing` (the caller on hold, the person ringing), `briefing` (the person hears `summary`), then `transferred`, or `failed` with `reason` (`busy`, `no_answer`, `hung_up`, `failed`: the caller is back with the assistant). `attempt` counts the call's warm transfers. Null: never transferred.",
      ),
    simulated: z.boolean(),
    max_duration_seconds: z.number().int(),
    created: unix,
    answered_at: unix.nullable(),
    ended_at: unix.nullable(),
    duration_seconds: z.number().int().nullable(),
    error: z.object({ message: z.string() }).nullable(),
    bulk_call_id: z.string().nullable(),
    inbound_webhook: z
      .object({ status: z.enum(['succeeded', 'failed']), error: z.string().optional() })
      .nullable()
      .describe(
        "An inbound call: how the number's `inbound_webhook_url` answered (`failed`: the number's agent answered).",
      ),
    form: formValuesObject.nullable().describe("A campaign call's filled form, once the call has ended."),
    scheduled_at: unix
      .nullable()
      .describe(
        "A scheduled call: when it is dialed (moved to its calling window's next opening); null for a call dialed at once.",
      ),
    calling_window: callingWindowObject
      .nullable()
      .describe('The calling window the call was created with; null when none.'),
    scheduled_reason: z
      .enum(['calling_hours'])
      .nullable()
      .describe(
        "`calling_hours`: the dial gate holds (or held) the call until the callee's calling hours open (`scheduled_at`); null: scheduled by the request, or never scheduled.",
      ),
    compliance: complianceObject
      .nullable()
      .describe(
        "The dial gate's latest check before the call was dialed (calling hours at the callee's local time, do-not-call lists) and its decision, with each warm transfer leg's check; null: never checked (inbound calls, calls made before the gate).",
      ),
    callback_of: z
      .string()
      .nullable()
      .describe(
        'A callback the assistant promised (`schedule_callback`): the call (`call_…`) or the WhatsApp/SMS conversation (`conv_…`) it was promised on.',
      ),
    recording: recordingSettingsObject
      .nullable()
      .describe(
        "Whether the call is recorded (its own `recording`, else its agent's, at creation); null: not recorded.",
      ),
    recording_consent: z
      .object({
        mode: z
          .enum([...RECORDING_CONSENT_MODES, 'none'])
          .describe(
            "`announce`, `ask` or `off` (the agent version's `recording_consent`, or `announce` by default in an all-party-consent jurisdiction), or `none`: no consent step (recorded as `recording` says).",
          ),
        configured: z.boolean().describe("The mode is the agent version's `recording_consent`, not the default."),
        jurisdiction: z
          .string()
          .nullable()
          .describe(
            'The all-party-consent or notice jurisdiction found from the numbers: `US-CA`, `US-FL`… or a country (`DE`, `GB`, `CA`, `AU`); null: none.',
          ),
        asked: z.boolean().describe('The opening asked the caller for consent (`ask`).'),
        answer: z
          .enum(['yes', 'no', 'unclear'])
          .nullable()
          .describe(
            'How the caller answered the question; `unclear` keeps recording off like `no`. Null: not asked, or not answered yet.',
          ),
        answer_seq: z
          .number()
          .int()
          .nullable()
          .optional()
          .describe("The transcript turn (`seq`) of the caller's answer."),
        recording: z.enum(['on', 'off']).describe('Whether the call is recorded (`ask`: from the yes on).'),
        words: z
          .string()
          .nullable()
          .describe('What the assistant said about recording (the announcement or the question).'),
        language: z.string().describe('The language the sentences were said in (ISO 639-1).'),
        error: z.string().optional().describe('Why recording did not start after a yes (the provider refused it).'),
      })
      .nullable()
      .describe('The recording-consent decision; null for calls made before it existed.'),
    ai_disclosure: z
      .string()
      .nullable()
      .describe(
        "The automated-assistant disclosure the call's first sentence said (the organization's `ai_disclosure`, in the agent's language); null: off.",
      ),
    latency: CallLatencyObject.nullable().describe(
      "The answers' latency as the caller heard it (p50/p90 of each turn's `latency`), written when the call ends; null before, and when no answer was measured.",
    ),
    cost: CostObject.nullable().describe(
      'What the call cost (telephony, model, recording, platform fee), in integer micro-units of `currency`, computed once when it ended from what it used and the price table then in force (README "Costs"); null before it ended. Its analysis is priced apart (`GET /v1/usage` `cost`).',
    ),
    cost_by_member: z
      .array(MemberCostObject)
      .nullable()
      .describe(
        "A squad's call: its `cost` split per member, in the order they first answered: each member's model requests at its own model's price, the start member's part with the call's telephony, recording and platform fee; the parts add up to `cost`. Null before it ended and on calls of one agent.",
      ),
    cost_incomplete: z
      .boolean()
      .describe(
        'True when a model the call used is missing from the price table: `cost.model_micros` is null and `cost.total_micros` lacks it.',
      ),
    analysis: AnalysisObject.nullable().describe(
      "The call's current analysis (the agent's or the call's `analysis` plan, run once the call has ended; the newest re-run); null until one is stored.",
    ),
    trace_id: z
      .string()
      .nullable()
      .describe(
        'The W3C trace id (32 lowercase hex digits) of the OpenTelemetry trace the call was created in (the API request, its workflow, turns, model requests, tool calls, Twilio requests and webhook deliveries), to look up in the tracing backend; null when tracing is off or the call was created outside a trace.',
      ),
    usage: CallUsageObject.optional().describe(
      "The call's model usage so far (`GET /v1/calls/{id}` only: absent in lists and in events): `llm` (the pipeline's model requests), `realtime` (the speech-to-speech session's responses: prompt and completion tokens with their text, audio and cached parts), `analysis`; summed from the call's usage rows, as `GET /v1/usage` counts them.",
    ),
    turns: z
      .array(TranscriptTurnObject)
      .optional()
      .describe(
        'The turns so far, in order, while the call is not over (`GET /v1/calls/{id}` only): each turn once final (written right after the answer it belongs to). Absent once the call has ended (`GET /v1/calls/{id}/transcript`), in lists and in events.',
      ),
  }),
);
export type CallObject = z.output<typeof CallObject>;

/** The stored compliance record as the call shows it: every check with its `transfer_legs` (empty when none). */
function renderCompliance(json: string | null): z.output<typeof complianceObject> | null {
  if (!json) return null;
  const stored = JSON.parse(json) as ComplianceCheck & { transfer_legs?: ComplianceCheck[] };
  return { ...stored, transfer_legs: stored.transfer_legs ?? [] };
}

/** The call object. Times in unix seconds; `duration_seconds` from answer to end (null until both). */
export function renderCall(doc: WithId<CallDoc>): CallObject {
  const duration =
    doc.answered_ms != null && doc.ended_ms != null
      ? Math.max(0, Math.round((doc.ended_ms - doc.answered_ms) / 1000))
      : null;
  return {
    id: doc._id,
    object: 'call' as const,
    livemode: doc.livemode,
    // Written only by the call's workflow, from CALL_STATUSES (the store's field is a plain string).
    status: doc.status as CallStatus,
    direction: (doc.direction as CallDirection | null) ?? 'outbound', // written from CALL_DIRECTIONS only
    to: doc.to,
    from: doc.from ?? null,
    agent_id: doc.agent_id,
    agent_version: doc.agent_version ?? null,
    squad_id: doc.squad_id ?? null,
    squad_member: doc.squad_member ?? null,
    squad_version: doc.squad_version ?? null,
    contact_id: doc.contact_id ?? null,
    engine: doc.engine === 'realtime' ? 'realtime' : 'pipeline', // written from the agent's snapshot only
    engine_fallback: (doc.engine_fallback as EngineFallback | null) ?? null, // written from ENGINE_FALLBACKS only
    context: JSON.parse(doc.context_json ?? '{}') as Record<string, unknown>,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    end_reason: doc.end_reason ?? null,
    answered_by: (doc.answered_by as AnsweredBy | null) ?? null, // written from ANSWERED_BY only
    transferred_to: doc.transferred_to ?? null,
    voicemail: doc.voicemail_json ? (JSON.parse(doc.voicemail_json) as VoicemailOutcome) : null,
    transfer: doc.transfer_json ? (JSON.parse(doc.transfer_json) as TransferProgress) : null,
    simulated: doc.simulated,
    max_duration_seconds: doc.max_duration_seconds,
    created: doc.created,
    answered_at: seconds(doc.answered_ms),
    ended_at: seconds(doc.ended_ms),
    duration_seconds: duration,
    error: doc.error_message ? { message: doc.error_message } : null,
    bulk_call_id: doc.bulk_call_id ?? null,
    inbound_webhook: doc.inbound_webhook_json ? JSON.parse(doc.inbound_webhook_json) : null,
    /** A campaign call's filled form values (null for other calls, and until the call ends). */
    form: doc.form_json ? (JSON.parse(doc.form_json) as Record<string, string | number | boolean>) : null,
    scheduled_at: doc.scheduled_at ?? null,
    calling_window: doc.calling_window_json ? JSON.parse(doc.calling_window_json) : null,
    scheduled_reason: doc.scheduled_reason === 'calling_hours' ? 'calling_hours' : null,
    compliance: renderCompliance(doc.compliance_json ?? null),
    callback_of: doc.callback_of ?? null,
    recording: doc.recording_json ? JSON.parse(doc.recording_json) : null,
    recording_consent: doc.recording_consent_json ? (JSON.parse(doc.recording_consent_json) as RecordingConsent) : null,
    ai_disclosure: doc.ai_disclosure ?? null,
    latency: renderCallLatency(doc.latency_json),
    cost: doc.cost_json ? (JSON.parse(doc.cost_json) as z.output<typeof CostObject>) : null,
    cost_by_member: doc.cost_members_json ? (JSON.parse(doc.cost_members_json) as MemberCostView[]) : null,
    cost_incomplete: doc.cost_json ? JSON.parse(doc.cost_json).model_micros === null : false,
    analysis: doc.analysis_json ? (JSON.parse(doc.analysis_json) as AnalysisObject) : null,
    trace_id: doc.trace_id ?? null,
  };
}

/** The `transcript` object as the API answers it (the OpenAPI component `Transcript`). */
export const TranscriptObject = apiObject(
  'Transcript',
  "An ended call's turns, in order, with the tools the assistant called and the knowledge it was given.",
  z.object({
    object: z.literal('transcript'),
    call_id: z.string(),
    livemode: z.boolean(),
    created: unix,
    turns: z.array(TranscriptTurnObject),
  }),
);

/**
 * The transcript object of an ended call; tool turns are shown as `role: "tool"` with their call (`tool`,
 * and the entry's fields: `toolEntryFields`), and a
 * turn for which the assistant was given knowledge lists it (`knowledge: [{document, chunk}]`).
 */
export function renderTranscript(call: WithId<CallDoc>, turns: CallTurnDoc[]): z.output<typeof TranscriptObject> {
  return {
    object: 'transcript' as const,
    call_id: call._id,
    livemode: call.livemode,
    created: seconds(call.ended_ms) ?? call.created,
    turns: turns.map((t) => renderTurn(call, t)),
  };
}

/**
 * One transcript turn as the API shows it (a transcript's, a live call's `turns`, a stream's `turn` and
 * `tool_call` events); `author` only on turns said or added through the API, so turns of
 * before are shown as they were.
 */
export function renderTurn(call: Pick<CallDoc, 'answered_ms'>, t: CallTurnDoc): z.output<typeof TranscriptTurnObject> {
  return {
    role: t.role,
    text: t.text,
    ...(t.author ? { author: t.author as 'api' } : {}),
    ...(t.tool_name
      ? {
          tool: { name: t.tool_name, arguments: JSON.parse(t.tool_arguments_json || '{}') as unknown },
          ...toolEntry({
            name: t.tool_name,
            argumentsJson: t.tool_arguments_json ?? null,
            text: t.text,
            ok: t.tool_ok ?? null,
            status: t.tool_status ?? null,
            durationMs: t.tool_duration_ms ?? null,
            key: t.tool_call_key ?? t.tool_call_id ?? null,
          }),
        }
      : {}),
    ...(t.knowledge_json ? { knowledge: JSON.parse(t.knowledge_json) as KnowledgeRef[] } : {}),
    ...(t.interrupted ? { interrupted: true as const } : {}),
    ...(t.backchannel ? { backchannel: true as const } : {}),
    ...(t.tool_outcome ? { outcome: t.tool_outcome as 'dropped' | 'held' | 'confirmed' } : {}),
    ...(t.tool_outcome_reason
      ? { reason: t.tool_outcome_reason as 'interrupted' | 'confirmation_required' | 'not_confirmed' }
      : {}),
    ...renderRedaction(t.redaction_json),
    ...(t.latency_json ? { latency: renderTurnLatency(t.latency_json) } : {}),
    ...(t.agent_id ? { agent_id: t.agent_id, agent_version: t.agent_version ?? null } : {}),
    ...(t.handoff_json
      ? { handoff: JSON.parse(t.handoff_json) as { from: string; to: string; context: string; summary?: string } }
      : {}),
    at: seconds(t.at_ms),
    offset_ms: call.answered_ms != null ? Math.max(0, t.at_ms - call.answered_ms) : null,
  };
}

/** The answer of `POST /v1/calls/{id}/say` (the OpenAPI component `CallSay`). */
export const CallSayObject = apiObject(
  'CallSay',
  "A line the assistant said on the API's behalf during a live call (`POST /v1/calls/{id}/say`).",
  z.object({
    object: z.literal('call_say'),
    call_id: z.string(),
    text: z.string(),
    interrupt: z.boolean(),
    spoken: z
      .boolean()
      .describe(
        'Whether it was said: false when the call stopped before the next pause, or no voice session of the call took it (the line is then not in the transcript).',
      ),
  }),
);

/** The answer of `POST /v1/calls/{id}/context` (the OpenAPI component `CallNote`). */
export const CallNoteObject = apiObject(
  'CallNote',
  'A note the model sees from its next turn on during a live call (`POST /v1/calls/{id}/context`); the caller does not hear it.',
  z.object({
    object: z.literal('call_note'),
    call_id: z.string(),
    note: z.string(),
  }),
);
