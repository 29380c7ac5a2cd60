/**
 * The realtime engine's activities (OpenAI's Realtime API over SIP, src/providers/openai-realtime.ts):
 * ringing a test-mode call's simulated SIP leg, accepting the call with the agent's configuration,
 * holding the call's sideband WebSocket (src/voice/realtime-session.ts) and hanging the call up. The
 * call's workflow (src/workflows/call-realtime.ts) decides; these only talk to the outside world.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import OpenAI from 'openai';
import type { RealtimeFunctionTool } from 'openai/resources/realtime/realtime';
import { config } from '../config';
import { logger } from '../logger';
import { Call } from '../models/calls';
import { isRejectedRequest } from '../providers/openai';
import { openSideband, realtimeClient, realtimeProject } from '../providers/openai-realtime';
import { assistantContext } from '../services/assistant-context';
import { requireDialAllowed } from '../services/dial-gate';
import { callClient } from '../services/telephony-accounts';
import type { AssistantContextIds } from '../shared/assistant';
import { callWorkflowId, type SimulatedBargeIn } from '../shared/calls';
import {
  REALTIME_CALL_GONE,
  REALTIME_CALL_HEADER,
  realtimeEventsSignal,
  realtimeOutputsUpdate,
  realtimeSipUri,
  referTarget,
  type SidebandTools,
} from '../shared/realtime';
import { roomVoice, type SpeechSettings } from '../shared/speech';
import { isToolName, toolCallKey, toolFunction, type TransferOffer } from '../shared/tools';
import { runToolInline } from '../services/tool-runs';
import { recordRealtimeUsage } from '../services/usage';
import { realtimeTurnDetection } from '../shared/turn-taking';
import { RealtimeMeter } from '../voice/realtime-meter';
import { RealtimeSideband, type SidebandToolRunner } from '../voice/realtime-session';
import { RealtimeResponseSpans } from '../voice/realtime-spans';
import { tracingActive } from '../platform/tracing';

/** Failure type of an accept the Realtime API refused (4xx): not retried; the call falls back. */
export const REALTIME_ACCEPT_REFUSED = 'RealtimeAcceptRefused';

/** The speech-to-text model the session transcribes the caller with (its `input_audio_transcription` events). */
const INPUT_TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';

/**
 * Rings a test-mode realtime call's simulated SIP leg: asks the simulator (`OPENAI_REALTIME_SIMULATOR_URL`,
 * test rigs: the loopback fake) to dial the project's SIP URI with our call id header, as Twilio's
 * `<Dial><Sip>` does for a live call, its caller saying `caller`'s lines, some over the answer before
 * them (`bargeIns`, the call's `simulation.barge_ins`).
 * @returns `rung` false when no simulator is configured (the call then runs on the pipeline engine)
 * @throws Error when the simulator refuses or cannot be reached (retried)
 */
export async function ringRealtimeSimulation(input: {
  callId: string;
  caller: string[];
  bargeIns?: SimulatedBargeIn[];
}): Promise<{ rung: boolean }> {
  const rt = config().openaiRealtime;
  if (!rt?.simulatorUrl) return { rung: false };
  const res = await fetch(`${rt.simulatorUrl}/sip/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      to: realtimeSipUri(rt.projectId, rt.sipHost, input.callId),
      headers: { [REALTIME_CALL_HEADER]: input.callId },
      caller: input.caller,
      ...(input.bargeIns?.length ? { bargeIns: input.bargeIns } : {}),
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`the realtime simulator answered ${res.status}`);
  return { rung: true };
}

/** What accepting a realtime call gives the session. */
export interface AcceptRealtimeInput {
  callId: string;
  openaiCallId: string;
  /** The system prompt the pipeline would send (src/shared/calls.ts `callSystemPrompt`). */
  instructions: string;
  /** Whom the call is with: the contact's records and the knowledge hint are added to the instructions. */
  context: AssistantContextIds;
  speech: SpeechSettings;
  /** The built-in tools the call offers (src/workflows/tools.ts `ToolHandlers`' names). */
  tools: string[];
  /** The organization's tools the call offers, as functions. */
  functions?: { name: string; description: string; parameters: Record<string, unknown> }[];
  transfer?: TransferOffer;
  /**
   * The session's `audio.input.turn_detection`: the agent version's `turn_taking` realtime settings
   * (src/shared/turn-taking.ts `realtimeTurnDetection`); absent: `server_vad` with OpenAI's defaults.
   */
  turnDetection?: ReturnType<typeof realtimeTurnDetection>;
}

/**
 * Accepts an incoming realtime call (`realtime.calls.accept`) with the agent's configuration: the
 * instructions with the call's context and the contact's records (src/services/assistant-context.ts), the
 * voice (one of OpenAI's, else the default), the caller's speech transcribed, the agent version's turn detection
 * (`server_vad` thresholds and paddings, or `semantic_vad` with its eagerness, and `interrupt_response`:
 * `input.turnDetection`), the call's tools as functions. A 4xx is not retried (`REALTIME_ACCEPT_REFUSED`); a 5xx or a network
 * error is (the workflow's retry policy, then its fallback to the pipeline).
 */
export async function acceptRealtimeCall(input: AcceptRealtimeInput): Promise<void> {
  const rt = realtimeProject();
  const session = await sessionOf(input, true);
  try {
    await realtimeClient().realtime.calls.accept(input.openaiCallId, {
      ...session,
      type: 'realtime',
      model: rt.model,
      audio: { ...session.audio, output: { voice: roomVoice(input.speech, 'alloy') } },
    });
  } catch (err) {
    if (isRejectedRequest(err))
      throw ApplicationFailure.nonRetryable(
        `The Realtime API refused the accept (${err.status}): ${err.message}`,
        REALTIME_ACCEPT_REFUSED,
      );
    throw err;
  }
}

/**
 * The session configuration of an agent on a realtime call, as the accept and a squad's hand-off give it:
 * the instructions with the call's context and the contact's records (src/services/assistant-context.ts;
 * unavailable: the instructions alone, logged), the caller's speech transcribed in the agent's language, the
 * turn detection, the tools as functions (`tool_choice: auto`; with `clearTools` an empty list when there
 * are none, so a member without tools does not keep its predecessor's: OpenAI's "to clear a field like
 * tools, pass an empty array").
 */
async function sessionOf(input: Omit<AcceptRealtimeInput, 'openaiCallId'>, accepting: boolean) {
  let known = '';
  try {
    known = (await assistantContext({ ...input.context, query: '' })).text;
  } catch (err) {
    logger.warn('assistant context unavailable; configuring the session without it', {
      call: input.callId,
      error: String(err),
    });
  }
  const tools: RealtimeFunctionTool[] = [
    ...input.tools.filter(isToolName).map((t) => toolFunction(t, input.transfer)),
    ...(input.functions ?? []),
  ].map((f) => ({ type: 'function', name: f.name, description: f.description, parameters: f.parameters }));
  const language = input.speech.language?.split('-')[0];
  return {
    type: 'realtime' as const,
    instructions: known ? `${input.instructions}\n\n${known}` : input.instructions,
    audio: {
      input: {
        transcription: { model: INPUT_TRANSCRIPTION_MODEL, ...(language ? { language } : {}) },
        turn_detection: input.turnDetection ?? realtimeTurnDetection(undefined),
      },
    },
    ...(tools.length ? { tools, tool_choice: 'auto' as const } : accepting ? {} : { tools: [] }),
  };
}

/**
 * The `session.update` session of a squad member taking over a realtime call (src/workflows/call-realtime.ts,
 * sent by the call's sideband, src/voice/realtime-session.ts): the member's instructions with the call's
 * context, its language's transcription, its turn detection and its tools (built-in, the organization's,
 * its own hand-offs), as the accept gives the first member's (`sessionOf`). `voice` (OpenAI's, else
 * `alloy`) only when `withVoice`: the Realtime API changes a session's voice only while it has produced no
 * audio ("voice can be updated only if there have been no other audio outputs yet",
 * https://platform.openai.com/docs/api-reference/realtime-client-events/session/update). The model stays
 * the project's (`model` cannot change either). Nothing is sent from here: the workflow puts the result in
 * its outbox.
 */
export async function realtimeMemberSession(
  input: Omit<AcceptRealtimeInput, 'openaiCallId'> & { withVoice: boolean },
): Promise<Record<string, unknown>> {
  const session = await sessionOf(input, false);
  return input.withVoice
    ? { ...session, audio: { ...session.audio, output: { voice: roomVoice(input.speech, 'alloy') } } }
    : session;
}

/** What attending a realtime call's session needs: src/voice/realtime-session.ts `SidebandOptions`' data. */
export interface AttendRealtimeInput {
  callId: string;
  openaiCallId: string;
  /** Said first on the first attach; null on a re-attach (the caller heard it already) or when nothing. */
  greeting: string | null;
  /** 1 for the call's first socket, then each re-attach after a drop (every event told carries it). */
  attach: number;
  /** Outbox batches an earlier socket sent already, and `function_calls` events the workflow has. */
  outboxFrom: number;
  awaited: number;
  /** The session's `interrupt_response` (default true): whether the caller's speech cuts an answer. */
  interruptOnSpeech: boolean;
  /**
   * The organization's tools the session may run itself (`sidebandRunsAnswer`), with what their requests
   * carry and the rank of the next call's key; absent (runs started before 0.3.0): the workflow runs every call.
   */
  tools?: SidebandTools;
}

/**
 * Holds a realtime call's sideband WebSocket until it closes normally (the call is over on OpenAI's side)
 * or the workflow cancels the activity (the call stops): see src/voice/realtime-session.ts. Heartbeats every
 * second. A socket that drops (an abnormal close, an error, no handshake within 10 s) fails the activity:
 * the workflow re-attaches a new one to the same call, or ends the call (or falls back before the first
 * answer). A socket refused with 404 (OpenAI no longer knows the call) fails with `RealtimeCallGone`.
 * Each response's usage (audio tokens apart) is stored as a usage row keyed by its id (src/services/usage.ts
 * `recordRealtimeUsage`: a response a re-attached socket reports again is stored once), and each answer's
 * latency goes with its `assistant` event (src/voice/realtime-meter.ts); with tracing on each response is a
 * `chat <model>` span under this activity's (src/voice/realtime-spans.ts). Function outputs come from the
 * workflow by update `realtimeOutputs` (src/shared/realtime.ts), answered as soon as it has them, but for
 * the calls the session runs itself (`input.tools`): made here as `runTool` would make them (src/services/tool-runs.ts
 * `runToolInline`: the same request, the key the workflow derives for the call from its run and the call's
 * rank), told before they start and after their outputs are sent.
 */
export async function attendRealtimeCall(input: AttendRealtimeInput): Promise<void> {
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(callWorkflowId(input.callId));
  const socket = openSideband(input.openaiCallId);
  // Each response's usage is a row of its own, keyed by its id; the activity ends once they are stored.
  const usageWrites: Promise<void>[] = [];
  const meter = new RealtimeMeter((u) =>
    usageWrites.push(
      recordRealtimeUsage({
        callId: input.callId,
        realtimeCallId: input.openaiCallId,
        responseId: u.responseId,
        model: u.model,
        usage: u.usage,
        occurredMs: u.atMs,
      }),
    ),
  );
  try {
    await new RealtimeSideband({
      socket,
      greeting: input.greeting,
      attach: input.attach,
      outboxFrom: input.outboxFrom,
      awaited: input.awaited,
      interruptOnSpeech: input.interruptOnSpeech,
      tools: sidebandRunner(input.tools, ctx.info.workflowExecution),
      meter,
      spans: tracingActive() ? new RealtimeResponseSpans() : undefined,
      tell: (events) => handle.signal(realtimeEventsSignal, events),
      outputs: (from) => handle.executeUpdate(realtimeOutputsUpdate, { args: [{ from }] }),
      heartbeat: () => ctx.heartbeat(),
      cancelled: ctx.cancelled,
    }).run();
  } catch (err) {
    // `ws` reports a refused upgrade as "Unexpected server response: <status>".
    if (err instanceof Error && /Unexpected server response: 404/.test(err.message))
      throw ApplicationFailure.nonRetryable(
        `The Realtime API no longer knows call ${input.openaiCallId}`,
        REALTIME_CALL_GONE,
      );
    throw err;
  } finally {
    await Promise.all(usageWrites);
  }
}

/**
 * The tools a session runs itself, from what the workflow gave (none: undefined): each call's key is
 * `toolCallKey` of the call's workflow run, its rank and the model's call id (what the workflow's
 * `CallTools.toolCallKey` gives it), its request what `runTool` would send.
 */
function sidebandRunner(
  given: SidebandTools | undefined,
  run: { workflowId: string; runId: string } | undefined,
): SidebandToolRunner | undefined {
  if (!given?.tools.length || !run) return undefined;
  const byName = new Map(given.tools.map((t) => [t.name, t]));
  return {
    runnable: new Set(byName.keys()),
    keysFrom: given.keysFrom,
    key: (rank, modelId) => toolCallKey(run.workflowId, run.runId, rank, modelId),
    run: (call, key) =>
      runToolInline({
        tool: byName.get(call.name)!,
        toolCallId: key,
        arguments: call.arguments,
        context: given.context,
      }),
  };
}

/**
 * Hangs up a realtime call's SIP leg (`realtime.calls.hangup`). A call already over (404, any 4xx) is
 * done; a 5xx or a network error is retried.
 */
export async function hangUpRealtimeCall(input: { callId: string; openaiCallId: string }): Promise<void> {
  try {
    await realtimeClient().realtime.calls.hangup(input.openaiCallId);
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status && err.status >= 400 && err.status < 500) return;
    throw err;
  }
}

/** Failure type of a transfer by `refer` that cannot happen (a `client:` target, a 4xx): not retried. */
export const REALTIME_REFER_REFUSED = 'RealtimeReferRefused';

/**
 * Transfers a realtime call's SIP leg (`realtime.calls.refer` with `target_uri`, OpenAI's SIP guide: the
 * Realtime API sends a SIP REFER to the leg's other end, Twilio, which dials the target and drops the
 * model), after the dialing permissions' last word on `to` (src/services/dial-gate.ts
 * `requireDialAllowed`, as a pipeline transfer's `<Dial>`). `to` is written on the call first
 * (`realtime_refer_to`): a live leg's Twilio asks its `referUrl` what to do with the REFER
 * (https://www.twilio.com/docs/voice/api/refer-to-twilio), and src/api/twilio/realtime-refer.ts dials only that.
 * @throws ApplicationFailure `DestinationNotAllowed` or `RealtimeReferRefused` (not retried): refused by
 *   the permissions, a target with no SIP address, a 4xx of the Realtime API; other errors are retried
 */
export async function referRealtimeCall(input: { callId: string; openaiCallId: string; to: string }): Promise<void> {
  await requireDialAllowed(input.callId, input.to);
  const target = referTarget(input.to);
  if (target === null)
    throw ApplicationFailure.nonRetryable(
      `${input.to} has no SIP address to refer the call to`,
      REALTIME_REFER_REFUSED,
    );
  // The leg's referUrl honours only this destination: written before OpenAI is asked, so Twilio's request finds it.
  await Call.updateOne({ _id: input.callId }, { $set: { realtime_refer_to: input.to } });
  try {
    await realtimeClient().realtime.calls.refer(input.openaiCallId, { target_uri: target });
  } catch (err) {
    if (isRejectedRequest(err))
      throw ApplicationFailure.nonRetryable(
        `The Realtime API refused the refer (${err.status}): ${err.message}`,
        REALTIME_REFER_REFUSED,
      );
    throw err;
  }
}

/**
 * A live realtime call falling back to the pipeline: Twilio fetches the call's TwiML again (Calls resource
 * update with `Url`, https://www.twilio.com/docs/voice/api/call-resource#update-a-call-resource), which now
 * connects ConversationRelay (the call's `engine_fallback` is written first, src/api/twilio/index.ts
 * `dialRealtime`), ending the `<Dial><Sip>` leg.
 * @throws ApplicationFailure `RealtimeRedirectRefused` (not retried) when Twilio refuses (the caller hung up)
 */
export async function redirectToPipeline(input: { callId: string; providerCallSid: string }): Promise<void> {
  const url = `${config().publicBaseUrl}/twilio/voice/${input.callId}`;
  const client = await callClient(input.callId);
  try {
    await client.calls(input.providerCallSid).update({ url, method: 'POST' });
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429)
      throw ApplicationFailure.nonRetryable(`Twilio refused the redirect (${status})`, 'RealtimeRedirectRefused');
    throw err;
  }
}
