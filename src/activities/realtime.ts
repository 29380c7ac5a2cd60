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
import { isRejectedRequest } from '../providers/openai';
import { openSideband, realtimeClient, realtimeProject } from '../providers/openai-realtime';
import { assistantContext } from '../services/assistant-context';
import { callClient } from '../services/telephony-accounts';
import type { AssistantContextIds } from '../shared/assistant';
import { callWorkflowId } from '../shared/calls';
import { REALTIME_CALL_HEADER, realtimeEventSignal, realtimeOutboxQuery, realtimeSipUri } from '../shared/realtime';
import { roomVoice, type SpeechSettings } from '../shared/speech';
import { isToolName, toolFunction, type TransferOffer } from '../shared/tools';
import { recordRealtimeUsage } from '../services/usage';
import { RealtimeMeter } from '../voice/realtime-meter';
import { RealtimeSideband } from '../voice/realtime-session';

/** Failure type of an accept the Realtime API refused (4xx): not retried; the call falls back. */
export const REALTIME_ACCEPT_REFUSED = 'RealtimeAcceptRefused';

/** The speech-to-text model the session transcribes the caller with (its `input_audio_transcription` events). */
const INPUT_TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';

/**
 * Rings a test-mode realtime call's simulated SIP leg: asks the simulator (`OPENAI_REALTIME_SIMULATOR_URL`,
 * test rigs: the loopback fake) to dial the project's SIP URI with our call id header, as Twilio's
 * `<Dial><Sip>` does for a live call, its caller saying `caller`'s lines.
 * @returns `rung` false when no simulator is configured (the call then runs on the pipeline engine)
 * @throws Error when the simulator refuses or cannot be reached (retried)
 */
export async function ringRealtimeSimulation(input: { callId: string; caller: string[] }): Promise<{ rung: boolean }> {
  const rt = config().openaiRealtime;
  if (!rt?.simulatorUrl) return { rung: false };
  const res = await fetch(`${rt.simulatorUrl}/sip/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      to: realtimeSipUri(rt.projectId, rt.sipHost, input.callId),
      headers: { [REALTIME_CALL_HEADER]: input.callId },
      caller: input.caller,
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
}

/**
 * Accepts an incoming realtime call (`realtime.calls.accept`) with the agent's configuration: the
 * instructions with the call's context and the contact's records (src/services/assistant-context.ts), the
 * voice (one of OpenAI's, else the default), the caller's speech transcribed, server VAD turn detection,
 * the call's tools as functions. A 4xx is not retried (`REALTIME_ACCEPT_REFUSED`); a 5xx or a network
 * error is (the workflow's retry policy, then its fallback to the pipeline).
 */
export async function acceptRealtimeCall(input: AcceptRealtimeInput): Promise<void> {
  const rt = realtimeProject();
  let known = '';
  try {
    known = (await assistantContext({ ...input.context, query: '' })).text;
  } catch (err) {
    logger.warn('assistant context unavailable; accepting without it', { call: input.callId, error: String(err) });
  }
  const tools: RealtimeFunctionTool[] = [
    ...input.tools.filter(isToolName).map((t) => toolFunction(t, input.transfer)),
    ...(input.functions ?? []),
  ].map((f) => ({ type: 'function', name: f.name, description: f.description, parameters: f.parameters }));
  const language = input.speech.language?.split('-')[0];
  try {
    await realtimeClient().realtime.calls.accept(input.openaiCallId, {
      type: 'realtime',
      model: rt.model,
      instructions: known ? `${input.instructions}\n\n${known}` : input.instructions,
      audio: {
        input: {
          transcription: { model: INPUT_TRANSCRIPTION_MODEL, ...(language ? { language } : {}) },
          turn_detection: { type: 'server_vad' },
        },
        output: { voice: roomVoice(input.speech, 'alloy') },
      },
      ...(tools.length ? { tools, tool_choice: 'auto' as const } : {}),
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
 * Holds a realtime call's sideband WebSocket until it closes (the call is over on OpenAI's side) or the
 * workflow cancels the activity (the call stops): see src/voice/realtime-session.ts. Each response's
 * usage (audio tokens apart) is stored as a usage row keyed by its id (src/services/usage.ts
 * `recordRealtimeUsage`), and each answer's latency goes with its `assistant` event (src/voice/realtime-meter.ts).
 * Heartbeats every second; a socket that fails fails the activity (the workflow ends the call, or falls back before the
 * first answer).
 */
export async function attendRealtimeCall(input: {
  callId: string;
  openaiCallId: string;
  greeting: string | null;
}): Promise<void> {
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
      tell: (event) => handle.signal(realtimeEventSignal, event),
      outbox: () => handle.query(realtimeOutboxQuery),
      heartbeat: () => ctx.heartbeat(),
      meter,
      cancelled: ctx.cancelled,
    }).run();
  } finally {
    await Promise.all(usageWrites);
  }
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
