/**
 * Starting calls, for every starter (the API's `POST /v1/calls` today; bulk campaigns and the widget's
 * voice path build the same input): `newCallInput` turns an agent and a request into the
 * `callWorkflow` input, `startCallWorkflow` starts it under the call id with the search attributes
 * operators filter on; `callConversation` reads a call back as the model's messages. Node-side; the
 * contract itself is src/shared/calls.ts.
 */
import type { Client } from '@temporalio/client';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { config } from '../config';
import { agentSpeech, agentTransferDestinations, agentVoicemail, type AgentDoc } from '../models/agents';
import { Call, CallTurn } from '../models/calls';
import type { WithId } from '../models/store';
import {
  CALL_RECONCILER_SCHEDULE_ID,
  CALL_RECONCILER_WORKFLOW,
  CALL_WORKFLOW,
  callWorkflowId,
  noteMessage,
  type AgentSnapshot,
  type CallReconcilerWorkflow,
  type CallWorkflow,
  type CallingHoursPolicy,
  type CallingWindow,
  type CallWorkflowInput,
  type Simulation,
  type PersonaSimulation,
  PERSONA_LIMITS,
  type VoicemailSetting,
} from '../shared/calls';
import { idTime } from '../shared/ids';
import { DEFAULT_QUEUE_TIMEOUT_SECONDS } from '../shared/call-slots';
import type { FormDefinition } from '../shared/forms';
import { agentRecording } from '../models/agents';
import type { RecordingSettings } from '../shared/recordings';
import { openingSentences, type RecordingConsentMode } from '../shared/recording-consent';
import { decideRecordingConsent } from './recording-consent';
import type { AnalysisPlan } from '../shared/analysis';
import { systemPrompt, type AssistantAgent, type ChatMessage } from '../shared/assistant';
import { contextOfLabel, handoffMessages } from '../shared/squads';
import { addLogContext } from '../logger';
import { searchAttributeKeys } from '../platform/temporal';
import { paymentConnectorOf } from './payments';

/** The scripted caller used when a test-mode call has no `simulation.caller`. */
export const DEFAULT_CALLER_SCRIPT = [
  'Hello?',
  'Yes, I have a minute. What is this about?',
  'Okay, thank you. Goodbye!',
];
/**
 * The greeting of the simulated answering machine of `simulation.outcome: "voicemail"` when the request
 * gives no `simulation.caller`: said as the callee's turn, then the machine beeps.
 */
export const DEFAULT_VOICEMAIL_GREETING = [
  "Hi, you've reached the voicemail of this number. I can't take your call right now. Please leave a message after the tone.",
];
/** Default and bounds of `max_duration_seconds` (seconds; 4 hours at most). */
export const MAX_DURATION = { default: 1800, min: 1, max: 14_400 };
/** Default and bounds of `queue_timeout_seconds` (seconds a call may wait for a call slot; 1 hour at most). */
export const QUEUE_TIMEOUT = { default: DEFAULT_QUEUE_TIMEOUT_SECONDS, min: 1, max: 3600 };

/** What a starter asks for, already validated (`POST /v1/calls`'s body, or a campaign's contact). */
export interface CallRequest {
  /** E.164 number to call. */
  to: string;
  /** Service number to call from (E.164); required in live mode. */
  from?: string | null;
  context?: Record<string, unknown>;
  metadata?: Record<string, string>;
  /** Test mode only; defaults fill what is missing. Ignored (null) in live mode. */
  simulation?: SimulationRequest;
  max_duration_seconds?: number;
  /** The contact called (`cont_…`), already resolved by the starter (src/services/contacts.ts `resolveCallContact`). */
  contact_id?: string | null;
  /** Seconds the call may wait for a call slot (default `QUEUE_TIMEOUT.default`). */
  queue_timeout_seconds?: number;
  /**
   * A scheduled call: when it is dialed, unix seconds, already moved into its calling window
   * (src/services/call-schedule.ts `dialTime`); absent: at once.
   */
  scheduled_at?: number;
  /** A callback the assistant promised: the call (`call_…`) or conversation (`conv_…`) it was promised on. */
  callback_of?: string;
  /** The request's `calling_window`, shown on the call. */
  calling_window?: CallingWindow;
  /** The call's own voicemail setting, replacing the agent's; absent: the agent's. */
  voicemail?: VoicemailSetting;
  /** The request's `recording`, overriding the agent's. */
  recording?: RecordingSettings;
  /** The request's analysis plan, already checked; absent: the agent's; null: none for this call. */
  analysis?: AnalysisPlan | null;
  /** Outside the callee's calling hours: `hold` (default) until they open, or `refuse` (src/services/dial-gate.ts). */
  calling_hours?: CallingHoursPolicy;
}

/**
 * `simulation` as the API takes it (already validated): the scripted caller's settings, or a persona
 * caller's flat `persona`, `goal`, `max_turns`.
 */
export type SimulationRequest = Partial<Omit<Simulation, 'persona'>> & {
  persona?: string;
  goal?: string;
  max_turns?: number;
};

/**
 * The persona caller of a simulation request: `{persona, goal, max_turns}` with the
 * default `max_turns`; null for a scripted caller.
 */
export function personaOf(request: SimulationRequest | undefined): PersonaSimulation | null {
  if (!request?.persona || !request.goal) return null;
  return {
    persona: request.persona,
    goal: request.goal,
    max_turns: request.max_turns ?? PERSONA_LIMITS.maxTurnsDefault,
  };
}

/**
 * The agent as a call or a conversation's turn sees it (src/shared/calls.ts `AgentSnapshot`): lists only
 * when not empty, so a snapshot of an agent without them is what it was before they existed; its
 * `voicemail` setting when it has one; its speech settings (`voice`, `language`,
 * `transcription`, `interruptible`, `dtmf`) those that are set; its `transfer_destinations`, always (an
 * empty list too: it marks a call whose model transfers are checked before they happen).
 */
export function agentSnapshot(agent: WithId<AgentDoc>): AgentSnapshot {
  const voicemail = agentVoicemail(agent);
  return {
    id: agent._id,
    name: agent.name,
    instructions: agent.instructions,
    first_message: agent.first_message ?? null,
    model: agent.model ?? null,
    transfer_to: agent.transfer_to ?? null,
    ...(agent.tool_ids?.length ? { tool_ids: [...agent.tool_ids] } : {}),
    ...(agent.connector_installation_ids?.length
      ? { connector_installation_ids: [...agent.connector_installation_ids] }
      : {}),
    ...(agent.enabled_tools?.length ? { enabled_tools: [...agent.enabled_tools] } : {}),
    ...(agent.opt_out_tool === false ? { opt_out_tool: false as const } : {}),
    ...(voicemail ? { voicemail } : {}),
    ...(agent.transfer_mode === 'warm' ? { transfer_mode: 'warm' as const } : {}),
    // Always present, empty or not: a call that has it checks its model transfers (src/shared/calls.ts).
    transfer_destinations: agentTransferDestinations(agent),
    ...agentSpeech(agent),
    // The version the starter picked (src/services/agent-versions.ts `versionedAgent`).
    ...(agent.version != null ? { version: agent.version } : {}),
    // Only a realtime agent's calls carry it: a pipeline call's input is what it was before engines.
    ...(agent.engine === 'realtime' ? { engine: 'realtime' as const } : {}),
  };
}

/**
 * Builds the `callWorkflow` input: the agent's snapshot (a running call never sees later edits; with
 * its `voicemail` setting), the request with its defaults (a simulated machine's greeting,
 * `DEFAULT_VOICEMAIL_GREETING`, for outcome `voicemail` without caller lines; the call's own
 * `voicemail`; its `recording`, else the agent's), `created` from the call id's time, the analysis plan
 * (the request's, else the agent's `analysis_json`).
 * @param callId `call_…`, chosen by the starter (from the idempotency record, or deterministically)
 */
export function newCallInput(
  callId: string,
  tenant: { orgId: string; livemode: boolean; aiDisclosure?: boolean },
  agent: WithId<AgentDoc>,
  request: CallRequest,
): CallWorkflowInput {
  const persona = personaOf(request.simulation);
  const simulation: Simulation | null = tenant.livemode
    ? null
    : {
        caller: persona
          ? []
          : (request.simulation?.caller ??
            (request.simulation?.outcome === 'voicemail' ? DEFAULT_VOICEMAIL_GREETING : DEFAULT_CALLER_SCRIPT)),
        ...(persona ? { persona } : {}),
        outcome: request.simulation?.outcome ?? 'answered',
        ring_seconds: request.simulation?.ring_seconds ?? 0,
        pause_seconds: request.simulation?.pause_seconds ?? 0,
        ...(request.simulation?.transfer ? { transfer: request.simulation.transfer } : {}),
        ...(request.simulation?.barge_ins?.length ? { barge_ins: request.simulation.barge_ins } : {}),
      };
  const analysis =
    request.analysis !== undefined
      ? request.analysis
      : agent.analysis_json
        ? (JSON.parse(agent.analysis_json) as AnalysisPlan)
        : null;
  return {
    callId,
    orgId: tenant.orgId,
    livemode: tenant.livemode,
    to: request.to,
    from: request.from ?? null,
    agent: agentSnapshot(agent),
    context: request.context ?? {},
    metadata: request.metadata ?? {},
    contactId: request.contact_id ?? null,
    simulation,
    max_duration_seconds: request.max_duration_seconds ?? MAX_DURATION.default,
    created: Math.floor(idTime(callId) / 1000),
    turn_deadline_ms: config().callTurnDeadlineMs,
    direction: 'outbound',
    // Waits in the organization's line for a call slot (src/shared/call-slots.ts) before it dials.
    slot: 'queue',
    queue_timeout_seconds: request.queue_timeout_seconds ?? QUEUE_TIMEOUT.default,
    ...(request.scheduled_at !== undefined ? { scheduled_at: request.scheduled_at } : {}),
    ...(request.callback_of ? { callback_of: request.callback_of } : {}),
    ...(request.calling_window ? { calling_window: request.calling_window } : {}),
    ...(request.voicemail ? { voicemail: request.voicemail } : {}),
    ...complianceOf(tenant, agent, request),
    ...(analysis ? { analysis } : {}),
    // Every dial the call makes passes the dial gate (src/services/dial-gate.ts) before Twilio is asked.
    dial_gate: { calling_hours: request.calling_hours ?? 'hold' },
  };
}

/**
 * What a new call says and records first: its `recording` (the request's, else the agent's, when it
 * records; dropped when the consent mode is `off`), the recording-consent decision
 * (src/services/recording-consent.ts `decideRecordingConsent`, from the agent version's
 * `recording_consent` and the call's numbers: `to`, then `from`) and the AI disclosure sentence
 * in the agent's language unless the organization turned it off (`tenant.aiDisclosure`, absent: on).
 */
function complianceOf(
  tenant: { aiDisclosure?: boolean },
  agent: WithId<AgentDoc>,
  request: CallRequest,
): Pick<CallWorkflowInput, 'recording' | 'recording_consent' | 'ai_disclosure'> {
  const settings = request.recording ?? agentRecording(agent);
  const recording = settings?.enabled ? settings : null;
  const consent = decideRecordingConsent({
    configured: (agent.recording_consent as RecordingConsentMode | null) ?? null,
    recorded: recording !== null,
    notice: recording?.notice ?? null,
    numbers: [request.to, request.from],
    language: agent.language ?? null,
  });
  return {
    ...(recording && consent.mode !== 'off' ? { recording } : {}),
    recording_consent: consent,
    ...(tenant.aiDisclosure !== false ? { ai_disclosure: openingSentences(agent.language).disclosure } : {}),
  };
}

/**
 * Starts the call's workflow (workflow id = call id, `REJECT_DUPLICATE`); one that already exists for
 * this call id (a retried request) is fine. The search attributes let operators find the call in the
 * Temporal Web UI, and its summary and details (Temporal user metadata) say what it is without opening
 * its input. The organization's payment connector in the call's mode, if any, joins the input
 * (`withPaymentConnector`): the call then offers `collect_payment`.
 */
export async function startCallWorkflow(temporal: Client, given: CallWorkflowInput): Promise<void> {
  const input = await withPaymentConnector(given);
  addLogContext({ call_id: input.callId, workflow_id: callWorkflowId(input.callId) });
  try {
    await temporal.workflow.start<CallWorkflow>(CALL_WORKFLOW, {
      workflowId: callWorkflowId(input.callId),
      taskQueue: config().taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: callSummary(input),
      staticDetails: callDetails(input),
      typedSearchAttributes: [
        { key: searchAttributeKeys.CallStatus, value: input.scheduled_at !== undefined ? 'scheduled' : 'queued' },
        { key: searchAttributeKeys.AgentId, value: input.agent.id },
        { key: searchAttributeKeys.OrgId, value: input.orgId },
        { key: searchAttributeKeys.Livemode, value: input.livemode },
      ],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}

/**
 * `input` with `payment_connector` when its organization has one in its mode (src/services/payments.ts)
 * and the call is a phone call (a browser voice room has no keypad to pay with); else `input` as it is.
 */
export async function withPaymentConnector(input: CallWorkflowInput): Promise<CallWorkflowInput> {
  if (input.room || input.payment_connector) return input;
  const connector = await paymentConnectorOf({ orgId: input.orgId, livemode: input.livemode });
  return connector ? { ...input, payment_connector: connector } : input;
}

/** `+14155550123` → `+1415…23`: enough to tell calls apart in a list, not the whole number. */
export function maskNumber(e164: string): string {
  return e164.length > 8 ? `${e164.slice(0, 5)}…${e164.slice(-2)}` : e164;
}

/**
 * The one-line summary of a call's run in the Temporal Web UI (user metadata `staticSummary`, single-line
 * Temporal markdown): `Call +1415…23 → Demo Assistant, test`.
 */
export function callSummary(input: CallWorkflowInput): string {
  const mode = input.livemode ? 'live' : 'test';
  if (input.direction === 'inbound')
    return `Inbound call ${maskNumber(input.from ?? 'unknown')} → ${oneLine(input.agent.name, 60)}, ${mode}`;
  return `Call ${maskNumber(input.to)} → ${oneLine(input.agent.name, 60)}, ${mode}`;
}

/**
 * The details shown under the summary (`staticDetails`, a Temporal markdown list, most useful first; the
 * call id is the workflow id): number and mode, agent, metadata, organization and limits, simulation.
 */
export function callDetails(input: CallWorkflowInput): string {
  const lines = [
    `**To** ${input.to}${input.from ? ` · **From** ${input.from}` : ''} · ${input.direction ?? 'outbound'} · ${input.livemode ? 'live' : 'test'} mode`,
    `**Agent** ${oneLine(input.agent.name, 60)} (\`${input.agent.id}\`)${input.agent.model ? ` · model ${oneLine(input.agent.model, 60)}` : ''}`,
  ];
  const metadata = Object.entries(input.metadata);
  if (metadata.length) lines.push(`**Metadata** ${metadata.map(([k, v]) => `${k}=${oneLine(v, 40)}`).join(', ')}`);
  lines.push(`**Org** \`${input.orgId}\` · **Max duration** ${input.max_duration_seconds} s`);
  if (input.scheduled_at !== undefined)
    lines.push(
      `**Scheduled** ${new Date(input.scheduled_at * 1000).toISOString()}${input.callback_of ? ` · callback of \`${input.callback_of}\`` : ''}`,
    );
  if (input.simulation?.persona)
    lines.push(
      `**Simulation** ${input.simulation.outcome}, persona caller (${input.simulation.persona.max_turns} turns at most)`,
    );
  else if (input.simulation)
    lines.push(`**Simulation** ${input.simulation.outcome}, ${input.simulation.caller.length} caller lines`);
  return lines.map((l) => `- ${l}`).join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Creates the Temporal Schedule that starts `callReconcilerWorkflow` every minute (looking back an hour),
 * unless it exists. Overlap policy SKIP: one pass at a time. Called by every worker at start.
 * @param taskQueue the queue of the workers that run it
 */
export async function ensureCallReconcilerSchedule(temporal: Client, taskQueue = config().taskQueue): Promise<void> {
  try {
    await temporal.schedule.create<CallReconcilerWorkflow>({
      scheduleId: CALL_RECONCILER_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 minute' }] },
      action: {
        type: 'startWorkflow',
        workflowType: CALL_RECONCILER_WORKFLOW,
        taskQueue,
        args: [{ lookbackMs: 60 * 60 * 1000 }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}

/**
 * The conversation of a call as the model sees it: the system prompt (built from the agent snapshot,
 * the number called and the call's `context`, src/shared/assistant.ts `systemPrompt`, as the workflow built it) and every
 * recorded transcript turn as a Chat Completions message, oldest first. Tool turns become an assistant
 * message carrying the tool call and the tool's answer; `note` turns a system message. On a squad's call
 * a `handoff` entry starts the conversation again as the hand-off gave it to the receiving member (its
 * system prompt stored on the entry, the context its policy keeps of the conversation before:
 * src/shared/squads.ts `handoffMessages`), as src/workflows/call-squad.ts built it.
 * @param as another agent snapshot to build the system prompt from (a replay's version,
 *   src/services/replays.ts); absent: the call's own
 * @throws Error when the call has no document (the workflow writes it before any turn)
 */
export async function callConversation(callId: string, as?: AssistantAgent): Promise<ChatMessage[]> {
  const call = await Call.findById(callId).lean();
  if (!call) throw new Error(`call ${callId} has no document`);
  const agent = as ?? (JSON.parse(call.agent_json ?? 'null') as AssistantAgent | null);
  if (!agent) throw new Error(`call ${callId} has no agent snapshot`);
  let messages: ChatMessage[] = [
    {
      role: 'system',
      content: systemPrompt(agent, {
        medium: 'call',
        ...(call.direction === 'inbound' ? { to: call.from ?? 'an unknown caller', inbound: true } : { to: call.to }),
        context: JSON.parse(call.context_json ?? '{}'),
        form: call.form_definition_json ? (JSON.parse(call.form_definition_json) as FormDefinition) : null,
      }),
    },
  ];
  const turns = await CallTurn.find({ call_id: callId }).sort({ seq: 1 }).lean();
  for (const t of turns) {
    if (t.role === 'caller') {
      // A backchannel said over the assistant was no turn of the caller's: the model never saw it.
      if (!t.backchannel) messages.push({ role: 'user', content: t.text });
    } else if (t.role === 'assistant') messages.push({ role: 'assistant', content: t.text });
    else if (t.role === 'system') messages.push({ role: 'system', content: t.text });
    else if (t.role === 'note') messages.push({ role: 'system', content: noteMessage(t.text) });
    else if (t.role === 'handoff') messages = handedMessages(t, messages);
    else {
      const id = t.tool_call_id ?? `tc_${t.seq}`;
      const call = { id, name: t.tool_name ?? 'unknown', arguments: t.tool_arguments_json ?? '{}' };
      const last = messages[messages.length - 1];
      if (last.role === 'assistant' && !last.tool_calls) last.tool_calls = [call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      messages.push({ role: 'tool', tool_call_id: id, content: t.text });
    }
  }
  return messages;
}

/**
 * The conversation a squad's `handoff` entry gave the receiving member, from the conversation before it;
 * an entry without its stored prompt (or with a policy label it never writes) keeps `before` as it is.
 */
function handedMessages(
  t: { handoff_json?: string | null; handoff_prompt?: string | null },
  before: ChatMessage[],
): ChatMessage[] {
  const entry = JSON.parse(t.handoff_json ?? 'null') as {
    from: string;
    to: string;
    context: string;
    summary?: string;
  } | null;
  const context = entry ? contextOfLabel(entry.context) : null;
  if (!entry || context === null || t.handoff_prompt == null) return before;
  return handoffMessages({
    systemPrompt: t.handoff_prompt,
    from: entry.from,
    to: entry.to,
    context,
    previous: before,
    summary: entry.summary ?? null,
  });
}
