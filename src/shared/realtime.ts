/**
 * The speech-to-speech engine's contract (bundle-safe): an agent version's `engine`, the SIP leg that
 * bridges a call to OpenAI's Realtime API (https://platform.openai.com/docs/guides/realtime-sip), and the
 * messages between the call's workflow, the incoming-call webhook (src/api/openai-webhooks.ts) and the
 * activity holding the session's server-side ("sideband") WebSocket (src/activities/realtime.ts).
 *
 * Audio never passes through our processes: Twilio's leg is `<Dial><Sip>` to the project's SIP URI, our
 * call id in a custom SIP header so the webhook can name the call; everything else (the transcript, the
 * function calls and their outputs, the end) goes through the call's workflow.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TurnLatency } from './latency';
import type { CustomTool, ToolCallContext } from './tools';

/** What carries a call's conversation: `pipeline` (ConversationRelay text in, our model's text out) or `realtime`. */
export const ENGINES = ['pipeline', 'realtime'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * The custom SIP header carrying our call id on the leg to OpenAI (Twilio forwards `X-` headers given as
 * parameters of the `<Sip>` URI, https://www.twilio.com/docs/voice/twiml/sip#custom-headers); the
 * webhook's `sip_headers` list it.
 */
export const REALTIME_CALL_HEADER = 'X-Svc-Call-Id';

/**
 * The SIP URI a realtime call's Twilio leg dials: the project's
 * (`sip:<project>@sip.api.openai.com;transport=tls`, OpenAI's guide) with our call id as the
 * `REALTIME_CALL_HEADER` header.
 */
export function realtimeSipUri(projectId: string, sipHost: string, callId: string): string {
  return `sip:${projectId}@${sipHost};transport=tls?${REALTIME_CALL_HEADER}=${encodeURIComponent(callId)}`;
}

/** Our call id from an incoming-call webhook's `sip_headers` (case-insensitive name), or null. */
export function callIdOfSipHeaders(headers: readonly { name: string; value: string }[]): string | null {
  const wanted = REALTIME_CALL_HEADER.toLowerCase();
  const found = headers.find((h) => h.name.toLowerCase() === wanted);
  return found ? found.value.trim() || null : null;
}

/**
 * Why a realtime call went on with the pipeline engine (`engine_fallback` on the call):
 * `accept_failed` (the accept request failed), `session_error` (the session failed before the first
 * answer), `no_webhook` (OpenAI never announced the SIP leg), `no_simulator` (a test-mode call without a
 * simulated SIP leg to ring, see src/config.ts `RealtimeConfig.simulatorUrl`).
 */
export const ENGINE_FALLBACKS = ['accept_failed', 'session_error', 'no_webhook', 'no_simulator'] as const;
export type EngineFallback = (typeof ENGINE_FALLBACKS)[number];

/** Signal `realtimeIncoming`: the webhook found the call: OpenAI's id of its SIP leg (`rtc_…`). */
export interface RealtimeIncoming {
  openaiCallId: string;
}
export const realtimeIncomingSignal = defineSignal<[RealtimeIncoming]>('realtimeIncoming');

/** One function call the model made (the sideband's `response.done` output items of type `function_call`). */
export interface RealtimeFunctionCall {
  /** The model's `call_id`, which the output names. */
  id: string;
  name: string;
  /** JSON text of the arguments, as the model wrote it. */
  arguments: string;
}

/**
 * What the sideband socket tells the workflow (signal `realtimeEvent`), numbered per attach of a socket
 * to the call (`attach`, 1 for the first socket, then each re-attach after a drop) and within it by `seq`
 * from 1 (the workflow ignores a pair it has seen, so a re-attached socket counting from 1 again is heard):
 * - `caller`: the caller's words (`conversation.item.input_audio_transcription.completed`);
 * - `assistant`: what the model said (`response.output_audio_transcript.done`), with the answer's
 *   `latency` when it was the first the caller heard since they spoke (measured on the activity's clock:
 *   src/voice/realtime-meter.ts; the workflow writes it on the turn); told when its answer is done
 *   (`response.done`), or before anything told earlier, with `thenCalls` when that answer also made
 *   function calls (`function_calls` follows at once: the workflow keeps the turn's write until their
 *   outputs are sent, so no store write holds up the tool);
 * - `function_calls`: an answer's function calls (`response.done`), whose outputs the socket waits for:
 *   `responseId` the answer's, `interrupted` when the caller talked over it before it was done (the
 *   session's `input_audio_buffer.speech_started` during it, or the response `cancelled`), `said` its words;
 *   with `sidebandKeys` the sideband runs them itself (`sidebandRunsAnswer`), each with the key at the same
 *   index, once this signal is accepted: the workflow waits for their `tool_results` (and runs them itself
 *   with those keys when the socket that told it ends without them);
 * - `tool_results`: the outputs of answer `responseId`'s calls the sideband ran, already sent on the socket
 *   (followed by `response.create`), `sent` the socket's outbox count with their batch;
 * - `interrupted`: the caller talked over answer `responseId` (`conversation.item.truncated`, or an
 *   interruption told with its function calls); `heard` what the caller had heard of the assistant's
 *   words since they last spoke (estimated from the audio played, `heardOfAudio`), null when unknown;
 * - `sent`: the socket has sent the first `batches` outbox batches (a re-attached socket goes on from there);
 * - `error`: the session's `error` event;
 * - `closed`: the socket closed normally (the call is over on OpenAI's side).
 */
export type RealtimeCallEvent = { seq: number; attach: number } & RealtimeCallEventBody;
/** A `RealtimeCallEvent` before it is numbered. */
export type RealtimeCallEventBody =
  | { type: 'caller'; text: string }
  | { type: 'assistant'; text: string; latency?: TurnLatency; thenCalls?: boolean }
  | {
      type: 'function_calls';
      calls: RealtimeFunctionCall[];
      responseId: string;
      interrupted: boolean;
      said: string;
      sidebandKeys?: string[];
    }
  | { type: 'tool_results'; responseId: string; results: SidebandToolResult[]; sent: number }
  | { type: 'interrupted'; responseId: string | null; heard: string | null }
  | { type: 'sent'; batches: number }
  | { type: 'error'; message: string }
  | { type: 'closed' };
export const realtimeEventSignal = defineSignal<[RealtimeCallEvent]>('realtimeEvent');

/**
 * Signal `realtimeEvents`: several `RealtimeCallEvent`s at once, in the order they happened, each taken as
 * if told by `realtimeEvent`. The sideband tells with it whatever it had to tell while its previous signal
 * was on its way (an answer's words and its function calls, told together at `response.done`): one signal
 * and one workflow task where each event would have had its own, one after the other.
 */
export const realtimeEventsSignal = defineSignal<[RealtimeCallEvent[]]>('realtimeEvents');

/**
 * One function call the sideband ran itself (`tool_results`): the model's `callId`, the `key` its requests
 * carried (`Idempotency-Key`), and its outcome as the `runTool` activity reports it (src/shared/tools.ts
 * `ToolCallOutcome`: `text` the output the model was given, `durationMs` from the first attempt's start).
 */
export interface SidebandToolResult {
  callId: string;
  key: string;
  ok: boolean;
  text: string;
  status: number | null;
  durationMs: number;
}

/**
 * What the sideband activity may run itself (`AttendRealtimeInput.tools`): the organization's tools of the
 * call that need no confirmation (`confirm`), what their requests carry (`context`, as the workflow's
 * `runTool` sends it), and `keysFrom`, the function calls the workflow has been told of so far (the rank of
 * the next one in the run's keys, src/shared/tools.ts `toolCallKey`).
 */
export interface SidebandTools {
  tools: CustomTool[];
  context: ToolCallContext;
  keysFrom: number;
}

/**
 * Nothing happens that the caller did not hear (src/workflows/call-heard.ts, rule 1), for one answer with function calls: it is
 * cut when the socket marked it `interrupted` when it was done (the caller's speech during it, or the
 * response `cancelled`), or when an `interrupted` event named it since (`interruptedAnswers`). The
 * workflow drops the calls of a cut answer; the sideband runs none of them.
 */
export function answerCut(
  answer: { responseId: string; interrupted: boolean },
  interruptedAnswers: ReadonlySet<string>,
): boolean {
  return answer.interrupted || interruptedAnswers.has(answer.responseId);
}

/**
 * Whether the sideband runs an answer's function calls itself rather than the workflow: only an answer
 * that completed (`status` `completed`: not cancelled, cut short or failed) and that no one cut
 * (`answerCut`), all of whose calls are of `runnable` (the organization's tools without `confirm`: never
 * a built-in tool such as `end_call`, `transfer_call` or a hand-off, which keep the workflow's path).
 */
export function sidebandRunsAnswer(
  answer: {
    responseId: string;
    interrupted: boolean;
    status: string | null | undefined;
    calls: RealtimeFunctionCall[];
  },
  interruptedAnswers: ReadonlySet<string>,
  runnable: ReadonlySet<string>,
): boolean {
  return (
    answer.status === 'completed' &&
    !answerCut(answer, interruptedAnswers) &&
    answer.calls.length > 0 &&
    answer.calls.every((c) => runnable.has(c.name))
  );
}

/** A function call's output as the workflow hands it to the socket (`conversation.item.create` of a `function_call_output`). */
export interface RealtimeOutput {
  callId: string;
  output: string;
}

/**
 * One batch per `function_calls` event answered so far, in order: the outputs of its calls and whether
 * the model is to answer after them (`respond`: false when a tool ended the call or the caller is talking).
 * The sideband activity sends the batches past its cursor (`conversation.item.create` of each output,
 * then `response.create`). Query `realtimeOutbox` reads them all (kept for sessions that read the outbox
 * by query and for operators); the sideband asks by update `realtimeOutputs`.
 */
export interface RealtimeOutbox {
  /**
   * `tool_ms`: how long the batch's tools ran (its longest call, ms), for the answer's latency record;
   * `handoff`: a squad's hand-off made by one of the batch's calls (absent otherwise), sent after the outputs.
   */
  batches: { outputs: RealtimeOutput[]; respond: boolean; tool_ms?: number; handoff?: RealtimeMemberSwitch }[];
}

/**
 * A squad's hand-off on a realtime call (src/workflows/call-realtime.ts): what the sideband sends after the
 * batch's function outputs so that the receiving member answers with its own configuration (OpenAI Realtime
 * client events, https://platform.openai.com/docs/api-reference/realtime-client-events):
 * - `session`: a `session.update`'s `session` (`type: "realtime"`, the member's instructions, tools,
 *   `tool_choice`, `audio.input.turn_detection`; `audio.output.voice` only while the model has said nothing:
 *   OpenAI changes `voice` only "if there have been no other audio outputs yet");
 * - `keep`: the conversation items the session keeps: `all` (every one), `{last: N}` (the last N caller and
 *   assistant messages with words: every other item, function calls and outputs included, is deleted with
 *   `conversation.item.delete`) or `none` (every item deleted: a `summary` hand-off);
 * - `notes`: system messages added after (`conversation.item.create`, role `system`): the summary, then the
 *   note that the caller was handed over (src/shared/squads.ts `handoffMessages`).
 */
export interface RealtimeMemberSwitch {
  session: Record<string, unknown>;
  keep: 'all' | 'none' | { last: number };
  notes: string[];
}
export const realtimeOutboxQuery = defineQuery<RealtimeOutbox>('realtimeOutbox');

/** Update `realtimeOutputs`' request: the outbox batches the asking socket has (those before index `from`). */
export interface RealtimeOutputsRequest {
  /** A whole number ≥ 0: batches `0 … from - 1` were sent by this socket or an earlier one of the call. */
  from: number;
}

/**
 * Update `realtimeOutputs`' answer: the outbox batches from index `from` on (at least one), or none with
 * `final` true when the workflow will make no more (the call is stopping, or its session is over).
 */
export interface RealtimeOutputsReply {
  from: number;
  batches: RealtimeOutbox['batches'];
  final: boolean;
}

/**
 * Update `realtimeOutputs`: the sideband activity's push channel for function outputs. The workflow
 * answers it as soon as it has a batch past `from` (at once when it has one already), so an output goes on
 * the socket in the workflow task that made it, without a poll's wait. The batches stay in the workflow
 * (its state, rebuilt on replay), not in the update: a socket that died with its worker leaves its update
 * unread, and the re-attached socket asks again from the count the sockets said they sent (`sent` events),
 * so each batch goes out once (only a socket that dies between sending a batch and telling `sent` leaves
 * it to be sent again). An update on a call that is not on the realtime engine is refused by its
 * validator (Temporal's update validators: nothing is written to the history).
 */
export const realtimeOutputsUpdate = defineUpdate<RealtimeOutputsReply, [RealtimeOutputsRequest]>('realtimeOutputs');

/** The speaking pace assumed when estimating the words of an answer the caller heard (ms per character). */
export const REALTIME_SPEECH_MS_PER_CHAR = 70;

/**
 * What the caller heard of `text` when its audio was cut after `audioEndMs` (a `conversation.item.truncated`
 * event's `audio_end_ms`): the characters that pace allows (`REALTIME_SPEECH_MS_PER_CHAR`), back to the
 * last whole word; the whole text when the audio outlasted it. The Realtime API tells the milliseconds
 * played, not the words: this is an estimate.
 */
export function heardOfAudio(text: string, audioEndMs: number): string {
  const chars = Math.floor(Math.max(0, audioEndMs) / REALTIME_SPEECH_MS_PER_CHAR);
  if (chars >= text.length) return text;
  const cut = text.slice(0, chars);
  const space = cut.lastIndexOf(' ');
  return (text[chars] === ' ' ? cut : space > 0 ? cut.slice(0, space) : '').trimEnd();
}

/** Failure type of a sideband socket refused because OpenAI no longer knows the call (it is over). */
export const REALTIME_CALL_GONE = 'RealtimeCallGone';

/**
 * The SIP `Refer-To` of a transfer destination (`realtime.calls.refer` `target_uri`): an E.164 number as
 * `tel:+…`, a `sip:` URI as it is. A `client:` identity (a Twilio Client) has no SIP address: null.
 * The same form is what Twilio's referUrl request names in `ReferTransferTarget` (src/api/twilio/realtime-refer.ts).
 */
export function referTarget(to: string): string | null {
  if (/^\+[1-9]\d{6,14}$/.test(to)) return `tel:${to}`;
  if (/^sip:/i.test(to)) return to;
  return null;
}
