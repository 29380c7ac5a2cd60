/**
 * Twilio's side of a live call (not under `/v1`: Twilio authenticates with `X-Twilio-Signature`, HMAC-SHA1
 * of the full URL and the POST parameters with the auth token, checked by `twilio.validateRequest`;
 * https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 *
 * - `POST /twilio/voice/{call id}`: TwiML for the answered call: `<Connect><ConversationRelay>` pointing
 *   at our WebSocket (its URL carries the CallSid, so the handshake's signature is bound to it), with the
 *   agent's `first_message` as the welcome greeting. `<Hangup/>` unless the call is ringing or in
 *   progress and the CallSid is the call's.
 * - `POST /twilio/status/{call id}`: status callbacks (`CallStatus`, `CallSid`), signalled to the call's
 *   workflow (`telephonyStatus`), which ranks them (they arrive out of order) and ignores another SID's.
 * - `POST /twilio/amd/{call id}`: asynchronous answering-machine detection results (`AnsweredBy`,
 *   `CallSid`; issue 29), signalled to the call's workflow (`machineDetection`), which ignores another
 *   SID's and any that comes once the call has stopped; a call that is over (no run) ignores it here.
 * - `POST /twilio/voice/inbound` (issue 28; the Voice URL of the organization's Twilio numbers): an
 *   incoming call to a number connected with `voice` is answered by the assistant
 *   (src/services/inbound-calls.ts) with the same `<Connect><ConversationRelay>` as an outbound call, its
 *   `action` being `POST /twilio/voice/{call id}/ended`, which tells the workflow the session is over.
 *   An unknown number, one without `voice`, or no agent: a short spoken line and `<Hangup/>`, nothing
 *   created. Refused calls: `<Reject/>` (the webhook's `reject`), `<Dial>` to `overflow_to`, or the
 *   "all lines are busy" line. The same CallSid twice is one call, answered from its record.
 * - `POST /twilio/status/inbound`: the numbers' status callback (optional; the `action` above already
 *   reports the end): signalled like an outbound call's, the call found by its CallSid.
 * - `POST /twilio/transfer/{call id}/status` and `/conference` (issue 31): the status callbacks of a warm
 *   transfer's leg to the person and of its conference (`participant-join`), signalled to the call's
 *   workflow (`transferLeg`), which counts only the leg's own CallSid. A failed warm transfer brings the
 *   caller back through `/twilio/voice/{call id}?resume={attempt}`: a new session, greeted with why.
 * - WebSocket `/twilio/relay/{call id}?sid={CallSid}`: ConversationRelay (Twilio does speech-to-text and
 *   text-to-speech; https://www.twilio.com/docs/voice/conversationrelay/websocket-messages). Each final
 *   `prompt` becomes a `callerSaid` Workflow Update; DTMF digits are batched into one utterance. The
 *   answer is sent back as a `text` message (a late answer: the holding line first, then the answer
 *   through the `answer` update), followed by `end` once the call is over. An `interrupt` (the caller
 *   talked over the answer) becomes the workflow's `interrupted` signal, in order with the utterances
 *   (issue 31); the assistant's `send_dtmf` keys come through the token channel and go out as
 *   `sendDigits`. With a streaming model the
 *   answer's words reach the socket as the model writes them (`last: false`), through the token channel
 *   of src/voice/relay.ts, and the update's answer closes them (`last: true`).
 *
 * Hostile input never takes the process down: every socket has an `error` listener, frames are at most
 * 64 KB, a caller's pending text at most 4,000 characters, and a handshake is accepted once per call, for
 * the call's own CallSid, while the call is live (a captured handshake cannot be replayed later).
 * A request whose signature does not verify gets 403 and changes nothing.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express, { Router } from 'express';
import twilio from 'twilio';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { config } from '../../config';
import { Call, RelaySession, type CallDoc } from '../../models/calls';
import { numberRouteKey, PhoneNumber } from '../../models/conversations';
import type { WithId } from '../../models/store';
import { conversationRelayAttributes, dialTo } from '../../providers/twilio';
import {
  ALL_LINES_BUSY_LINE,
  callIdOfCallSid,
  inboundCallId,
  NUMBER_UNAVAILABLE_LINE,
  startInboundCall,
} from '../../services/inbound-calls';
import { isDuplicateKey } from '../../models/store';
import { ApiError } from '../../errors';
import { logger } from '../../logger';
import {
  callWorkflowId,
  machineDetectionSignal,
  telephonyStatusSignal,
  transferLegSignal,
  TRANSFER_FAILED_LINES,
  TWILIO_ANSWERED_BY,
  TELEPHONY_STATUS_RANK,
  type AgentSnapshot,
  type CallerSaidResult,
  type TelephonyStatus,
  type TransferProgress,
  type TwilioAnsweredBy,
} from '../../shared/calls';
import { relayTokenServer, type TokenSink } from '../../voice/relay';
import { voiceTurns } from '../../voice/turns';
import { sealSecret } from '../../secrets';
import { startRecordingWorkflow } from '../../services/recordings';
import type { RecordingSettings } from '../../shared/recordings';
import { operation, operationsRouter } from '../operations';
import { twilioMessagingRouter } from './messaging';

const RELAY_PATH = /^\/twilio\/relay\/(call_[0-9a-z]{26})$/;
/** Largest ConversationRelay frame accepted (bytes); Twilio's are far smaller. */
export const RELAY_MAX_FRAME_BYTES = 64 * 1024;
/** Most characters of caller speech buffered before an utterance is handed over (longer text is cut). */
export const RELAY_MAX_UTTERANCE_CHARS = 4_000;
/** DTMF digits are gathered into one utterance: sent this long after the last digit, or at `#`. */
export const DTMF_GATHER_MS = 1_500;
const DTMF_MAX_DIGITS = 32;

/** The public URL Twilio used for a request to `path` (its signature covers it). */
function publicUrl(path: string, ws = false): string {
  const base = config().publicBaseUrl;
  return (ws ? base.replace(/^http/, 'ws') : base) + path;
}

/** True when `signature` is Twilio's for `url` and `params`. */
function signatureValid(signature: string | undefined, url: string, params: Record<string, unknown>): boolean {
  const token = config().twilioAuthToken;
  return Boolean(token && signature && twilio.validateRequest(token, signature, url, params));
}

const liveStatuses = ['ringing', 'in_progress'];

const tag = 'Twilio callbacks';

/**
 * Routes under `/twilio` (mounted there by src/api/app.ts): the form parser and the signature check
 * for every callback, then the messaging callbacks (src/api/twilio/messaging.ts) and the call's.
 */
export function twilioRouter(temporal: Client): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '64kb' }));
  router.use((req, _res, next) => {
    if (!signatureValid(req.get('X-Twilio-Signature'), publicUrl(req.originalUrl), req.body ?? {})) {
      return next(
        new ApiError(
          403,
          'permission_error',
          'twilio_signature_invalid',
          'The X-Twilio-Signature header does not verify.',
        ),
      );
    }
    next();
  });
  router.use('/messaging', twilioMessagingRouter(temporal));
  router.use(
    operationsRouter('/twilio', [
      twilioInboundCall(temporal),
      twilioInboundStatus(temporal),
      twilioRelayEnded(temporal),
      twilioVoice,
      twilioCallStatus(temporal),
      twilioMachineDetection(temporal),
      twilioRecordingStatus(temporal),
      twilioTransferLegStatus(temporal),
      twilioTransferConference(temporal),
    ]),
  );
  return router;
}

/** `POST /twilio/voice/{id}` (form: `CallSid`) → TwiML connecting the call to ConversationRelay, or `<Hangup/>`. */
const twilioVoice = operation({
  method: 'post',
  path: '/twilio/voice/{callId}',
  operationId: 'twilioVoice',
  tag,
  summary: 'TwiML for a live call Twilio has connected',
  description:
    "`<Connect><ConversationRelay>` for the call's own CallSid while it is live, else `<Hangup/>`. With `?resume={attempt}` (a failed warm transfer brings the caller back), a new session whose greeting says why.",
  twilioForm: { CallSid: "The call's SID at Twilio (CA…)." },
  content: { 'text/xml': { schema: { type: 'string' } } },
  handler: async (req, res) => {
    const callSid = String((req.body as Record<string, string>)?.CallSid ?? '');
    const call = await Call.findOne({ _id: String(req.params.callId), livemode: true }).lean();
    const response = new twilio.twiml.VoiceResponse();
    const resume = req.query.resume !== undefined ? failedTransfer(call, String(req.query.resume)) : undefined;
    if (!call || !liveStatuses.includes(call.status) || !callSid || call.provider_call_sid !== callSid) {
      response.hangup();
    } else if (resume === null) response.hangup();
    else connectRelay(response, call, callSid, resume);
    res.type('text/xml').send(response.toString());
  },
});

/**
 * The failed warm transfer (issue 31) a `resume` value names: the call's latest transfer, when it is warm,
 * `failed` and has that `attempt`; null otherwise (a stale or forged comeback).
 */
function failedTransfer(call: WithId<CallDoc> | null, resume: string): TransferProgress | null {
  const transfer = JSON.parse(call?.transfer_json ?? 'null') as TransferProgress | null;
  return transfer?.mode === 'warm' && transfer.status === 'failed' && String(transfer.attempt) === resume
    ? transfer
    : null;
}

/**
 * `<Connect><ConversationRelay>` to our WebSocket for `call` (its URL carries the CallSid, so the
 * handshake's signature is bound to it), the agent's `first_message` as the welcome greeting and its
 * speech settings (issue 31: voice, language, transcription, interruptible, dtmf;
 * src/providers/twilio.ts `conversationRelayAttributes`), the agent as the call was created: an edit
 * since never changes a call in flight. An inbound call's `<Connect>`
 * reports the session's end to `/twilio/voice/{id}/ended` (no status callback is set up for it).
 * A caller coming back from failed warm transfer `resume` (issue 31) gets a session of its own (`resume`
 * in the URL, see `attachConversationRelay`) greeted with `TRANSFER_FAILED_LINES` for the reason, and no
 * second recording.
 */
function connectRelay(
  response: twilio.twiml.VoiceResponse,
  call: WithId<CallDoc>,
  callSid: string,
  resume?: TransferProgress,
): void {
  const agent = JSON.parse(call.agent_json ?? 'null') as AgentSnapshot | null;
  const recording = resume ? null : startRecording(response, call);
  const greeting = resume
    ? TRANSFER_FAILED_LINES[resume.reason ?? 'failed']
    : [recording?.notice, agent?.first_message].filter(Boolean).join(' ');
  const connect = response.connect(
    call.direction === 'inbound' ? { action: publicUrl(`/twilio/voice/${call._id}/ended`), method: 'POST' } : {},
  );
  const session = resume ? `&resume=${resume.attempt}` : '';
  connect.conversationRelay({
    url: publicUrl(`/twilio/relay/${call._id}?sid=${encodeURIComponent(callSid)}${session}`, true),
    ...(greeting ? { welcomeGreeting: greeting } : {}),
    ...conversationRelayAttributes(agent ?? {}),
  });
}

/**
 * A recorded call (issue 30: `recording` snapshotted on the call): `<Start><Recording>` before the
 * conversation, both parties on two channels (`channels="dual"`), Twilio telling
 * `/twilio/recording/{call id}` when the recording is complete
 * (https://www.twilio.com/docs/voice/twiml/recording). Works for outbound and inbound calls alike.
 * @returns the call's recording settings, or null when it is not recorded (nothing added)
 */
function startRecording(response: twilio.twiml.VoiceResponse, call: WithId<CallDoc>): RecordingSettings | null {
  const recording = JSON.parse(call.recording_json ?? 'null') as RecordingSettings | null;
  if (!recording?.enabled) return null;
  response.start().recording({
    channels: 'dual',
    recordingStatusCallback: publicUrl(`/twilio/recording/${call._id}`),
    recordingStatusCallbackMethod: 'POST',
    recordingStatusCallbackEvent: ['completed'],
  });
  return recording;
}

/**
 * `POST /twilio/voice/inbound` (form: `CallSid`, `From`, `To`) → TwiML: the assistant answers a call to one
 * of the organization's live numbers connected with `voice` (src/services/inbound-calls.ts), or a short
 * line and `<Hangup/>` when the number takes no calls. Retried with the same CallSid: the same call.
 */
const twilioInboundCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/voice/inbound',
    operationId: 'twilioInboundCall',
    tag,
    summary: 'An incoming call to a connected number',
    description:
      'Set as the Voice URL of the numbers connected with `voice`: the assistant answers (ConversationRelay), or the call is refused, forwarded to `overflow_to` or told all lines are busy.',
    twilioForm: {
      CallSid: "The call's SID at Twilio (CA…).",
      From: 'The caller (E.164).',
      To: 'The number called (E.164).',
    },
    content: { 'text/xml': { schema: { type: 'string' } } },
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const callSid = String(body.CallSid ?? '');
      // A withheld caller ID comes as `anonymous` (or Twilio's placeholder number): answered all the same.
      const from = String(body.From ?? '').slice(0, 64) || 'anonymous';
      const to = String(body.To ?? '');
      const response = new twilio.twiml.VoiceResponse();
      const number = /^CA[0-9a-f]{32}$/i.test(callSid)
        ? await PhoneNumber.findOne({ route_key: numberRouteKey('', true, to) }).lean()
        : null;
      const call = number?.channels.includes('voice')
        ? await startInboundCall(temporal, {
            tenant: { orgId: number.org_id, livemode: true },
            callId: await inboundCallId(callSid),
            from,
            to,
            number,
            providerCallSid: callSid,
          })
        : null;
      if (!call) {
        response.say(NUMBER_UNAVAILABLE_LINE);
        response.hangup();
      } else inboundTwiml(response, call, callSid);
      res.type('text/xml').send(response.toString());
    },
  });

/**
 * The TwiML that answers inbound `call` as it stands: connected while live, else its refusal (written
 * with its first document, before its workflow records the end): `<Reject/>` for the webhook's `reject`,
 * `<Dial>` to `overflow_to`, or "all lines are busy"; `<Hangup/>` for a call that is over.
 */
function inboundTwiml(response: twilio.twiml.VoiceResponse, call: WithId<CallDoc>, callSid: string): void {
  if (liveStatuses.includes(call.status) && call.provider_call_sid === callSid) connectRelay(response, call, callSid);
  else if (call.end_reason === 'rejected') response.reject();
  else if (call.end_reason === 'concurrency_limit' && call.transferred_to) dialTo(response, call.transferred_to);
  else if (call.end_reason === 'concurrency_limit') {
    response.say(ALL_LINES_BUSY_LINE);
    response.hangup();
  } else response.hangup();
}

/**
 * `POST /twilio/voice/{id}/ended` (form: `CallSid`, `CallStatus`): the `action` of an inbound call's
 * `<Connect>`, requested when its ConversationRelay session ends (the caller hung up, or we ended it).
 * Signalled to the call's workflow as `completed` (the call is over either way) → `<Hangup/>`.
 */
const twilioRelayEnded = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/voice/{callId}/ended',
    operationId: 'twilioRelayEnded',
    tag,
    summary: "An inbound call's ConversationRelay session ended",
    twilioForm: {
      CallSid: "The call's SID at Twilio.",
      CallStatus: 'in-progress (we ended the session) or completed (the caller hung up).',
    },
    content: { 'text/xml': { schema: { type: 'string' } } },
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      await signalStatus(temporal, String(req.params.callId), {
        status: 'completed',
        providerCallSid: body.CallSid || undefined,
      });
      const response = new twilio.twiml.VoiceResponse();
      response.hangup();
      res.type('text/xml').send(response.toString());
    },
  });

/** `POST /twilio/status/inbound` (form: `CallStatus`, `CallSid`) → 204: an inbound call's status callback. */
const twilioInboundStatus = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/status/inbound',
    operationId: 'twilioInboundStatus',
    tag,
    summary: "An inbound call's status callback",
    twilioForm: {
      CallSid: "The call's SID at Twilio.",
      CallStatus: 'ringing, in-progress, completed, busy, no-answer, failed or canceled.',
    },
    okStatus: '204',
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const status = body.CallStatus as TelephonyStatus['status'];
      const callId = body.CallSid ? await callIdOfCallSid(body.CallSid) : null;
      if (callId && status in TELEPHONY_STATUS_RANK)
        await signalStatus(temporal, callId, { status, providerCallSid: body.CallSid });
      res.status(204).end();
    },
  });

/** Signals a provider status to the call's workflow; a call that is over (no run) ignores it. */
async function signalStatus(temporal: Client, callId: string, status: TelephonyStatus): Promise<void> {
  await ignoringEndedCall(() =>
    temporal.workflow.getHandle(callWorkflowId(callId)).signal(telephonyStatusSignal, status),
  );
}

/** Runs `signal`; a call whose run is over (`WorkflowNotFoundError`: a late callback) is no error. */
async function ignoringEndedCall(signal: () => Promise<void>): Promise<void> {
  try {
    await signal();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * `POST /twilio/amd/{id}` (form: `AnsweredBy`, `CallSid`) → 204: Twilio's asynchronous answering-machine
 * detection result for a live outbound call placed with it (src/activities/telephony.ts `placeCall`),
 * signalled to the call's workflow (`machineDetection`). An unknown `AnsweredBy` is ignored; the
 * workflow ignores another CallSid's and one after the call has stopped.
 */
const twilioMachineDetection = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/amd/{callId}',
    operationId: 'twilioMachineDetection',
    tag,
    summary: "A live call's answering-machine detection result",
    description:
      'Asynchronous AMD (`DetectMessageEnd`): a machine ends the call (`end_reason: "voicemail"`) after the message, if any, is left.',
    twilioForm: {
      CallSid: "The call's SID at Twilio.",
      AnsweredBy: 'human, machine_start, machine_end_beep, machine_end_silence, machine_end_other, fax or unknown.',
      MachineDetectionDuration: 'How long detection took, ms.',
    },
    okStatus: '204',
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const answeredBy = body.AnsweredBy as TwilioAnsweredBy;
      if (TWILIO_ANSWERED_BY.includes(answeredBy) && body.CallSid)
        await ignoringEndedCall(() =>
          temporal.workflow
            .getHandle(callWorkflowId(String(req.params.callId)))
            .signal(machineDetectionSignal, { answeredBy, providerCallSid: body.CallSid }),
        );
      res.status(204).end();
    },
  });

/**
 * `POST /twilio/transfer/{id}/status` (form: `CallStatus`, `CallSid`) → 204: the status callback of a
 * warm transfer's leg to the person (issue 31; src/activities/telephony.ts `dialTransferLeg`), signalled to
 * the call's workflow (`transferLeg`), which counts it only for the leg's own CallSid and only while the
 * transfer runs. An unknown status or a missing or malformed CallSid is ignored here.
 */
const twilioTransferLegStatus = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/transfer/{callId}/status',
    operationId: 'twilioTransferLegStatus',
    tag,
    summary: "A warm transfer's leg to the person: status callback",
    twilioForm: {
      CallSid: "The leg's SID at Twilio (CA…).",
      CallStatus: 'initiated, ringing, in-progress, completed, busy, no-answer, failed or canceled.',
    },
    okStatus: '204',
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const status = body.CallStatus as TelephonyStatus['status'];
      if (status in TELEPHONY_STATUS_RANK && /^CA[0-9a-f]{32}$/i.test(body.CallSid ?? ''))
        await signalTransferLeg(temporal, String(req.params.callId), { providerCallSid: body.CallSid, status });
      res.status(204).end();
    },
  });

/**
 * `POST /twilio/transfer/{id}/conference` (form: `StatusCallbackEvent`, `CallSid`, `ConferenceSid`,
 * `FriendlyName`) → 204: the status callback of a warm transfer's conference (issue 31; Twilio's
 * `<Conference statusCallback>`, https://www.twilio.com/docs/voice/twiml/conference#attributes-statuscallback).
 * A `participant-join` is signalled to the call's workflow (`transferLeg`, `joined`): the person's leg
 * joining after the summary completes the transfer; another CallSid's (the caller's own join) is ignored
 * there. Other events are ignored.
 */
const twilioTransferConference = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/transfer/{callId}/conference',
    operationId: 'twilioTransferConference',
    tag,
    summary: "A warm transfer's conference: status callback",
    twilioForm: {
      StatusCallbackEvent: 'participant-join, participant-leave, conference-start, conference-end, …',
      CallSid: 'The participant whose event it is (CA…).',
      ConferenceSid: "The conference's SID (CF…).",
      FriendlyName: "The conference's name (`transfer-{call id}`).",
    },
    okStatus: '204',
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      if (body.StatusCallbackEvent === 'participant-join' && /^CA[0-9a-f]{32}$/i.test(body.CallSid ?? ''))
        await signalTransferLeg(temporal, String(req.params.callId), { providerCallSid: body.CallSid, joined: true });
      res.status(204).end();
    },
  });

/** Signals a warm transfer's leg callback to the call's workflow; a call that is over (no run) ignores it. */
async function signalTransferLeg(
  temporal: Client,
  callId: string,
  event: { providerCallSid: string; status?: TelephonyStatus['status']; joined?: boolean },
): Promise<void> {
  await ignoringEndedCall(() => temporal.workflow.getHandle(callWorkflowId(callId)).signal(transferLegSignal, event));
}

/** `POST /twilio/status/{id}` (form: `CallStatus`, `CallSid`) → 204; signals the call's workflow. */
const twilioCallStatus = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/status/{callId}',
    operationId: 'twilioCallStatus',
    tag,
    summary: "A live call's status callback",
    twilioForm: {
      CallSid: "The call's SID at Twilio.",
      CallStatus: 'queued, ringing, in-progress, completed, busy, no-answer, failed or canceled.',
    },
    okStatus: '204',
    handler: async (req, res) => {
      const callId = String(req.params.callId);
      const body = (req.body ?? {}) as Record<string, string>;
      const status = body.CallStatus as TelephonyStatus['status'];
      if (status in TELEPHONY_STATUS_RANK)
        await signalStatus(temporal, callId, { status, providerCallSid: body.CallSid || undefined });
      res.status(204).end();
    },
  });

/**
 * `POST /twilio/recording/{id}` (form: `CallSid`, `RecordingSid`, `RecordingStatus`, `RecordingDuration`)
 * → 204: a recorded call's recording is complete at Twilio; starts the call's `recordingWorkflow`
 * (src/workflows/recordings.ts: copy into our store, delete at Twilio, `recording.ready`), once per call.
 * Ignored (204, nothing started): an unknown call, a CallSid that is not the call's, a call not recorded,
 * another status than `completed`, a malformed RecordingSid.
 */
const twilioRecordingStatus = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/twilio/recording/{callId}',
    operationId: 'twilioRecordingStatus',
    tag,
    summary: "A recorded call's recording status callback",
    description:
      "Twilio's `recordingStatusCallback` of `<Start><Recording>`: once `completed`, the audio is copied into the service's store and deleted at Twilio.",
    twilioForm: {
      CallSid: "The call's SID at Twilio (CA…).",
      RecordingSid: "The recording's SID (RE…).",
      RecordingStatus: '`completed` (other statuses are ignored).',
      RecordingDuration: 'Length of the recording, seconds.',
    },
    okStatus: '204',
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const callId = String(req.params.callId);
      const call = await Call.findOne({ _id: callId, livemode: true }).lean();
      const recordingSid = String(body.RecordingSid ?? '');
      if (
        call?.recording_json &&
        body.CallSid &&
        call.provider_call_sid === body.CallSid &&
        body.RecordingStatus === 'completed' &&
        /^RE[0-9a-f]{32}$/.test(recordingSid)
      ) {
        const seconds = Number(body.RecordingDuration);
        await startRecordingWorkflow(temporal, {
          callId,
          orgId: call.org_id,
          livemode: true,
          source: {
            kind: 'twilio',
            recordingSid,
            durationMs: Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null,
          },
        });
      } else logger.info('twilio: recording callback ignored', { call_id: callId });
      res.status(204).end();
    },
  });

/** The ConversationRelay endpoint attached to an HTTP server. */
export interface ConversationRelay {
  /** Ends every open session (going away, 1001): on shutdown, before the server stops. */
  close(): void;
}

/**
 * Serves the ConversationRelay WebSocket on `server` (upgrade requests to `/twilio/relay/{call id}`).
 * The handshake must carry a valid `X-Twilio-Signature` for the wss URL (403 otherwise), name the call's
 * own CallSid while the call is live, and be the first for the call (409 otherwise).
 */
export function attachConversationRelay(server: http.Server, temporal: Client): ConversationRelay {
  const wss = new WebSocketServer({ noServer: true, maxPayload: RELAY_MAX_FRAME_BYTES });
  const tokens = relayTokenServer();
  wss.on('error', (err) => logger.warn('relay: server error', { error: err.message }));
  const refuse = (socket: Duplex, status: string) => socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a reset during the handshake is not our crash
    const [pathname, query = ''] = (req.url ?? '').split('?');
    const m = RELAY_PATH.exec(pathname);
    if (!m) return void socket.destroy();
    const signature = req.headers['x-twilio-signature'];
    if (!signatureValid(typeof signature === 'string' ? signature : undefined, publicUrl(req.url ?? '', true), {}))
      return refuse(socket, '403 Forbidden');
    const callId = m[1];
    const sid = new URLSearchParams(query).get('sid') ?? '';
    const resumeParam = new URLSearchParams(query).get('resume');
    void (async () => {
      const call = await Call.findOne({ _id: callId, livemode: true }).lean();
      if (!call || !liveStatuses.includes(call.status) || !sid || call.provider_call_sid !== sid)
        return refuse(socket, '403 Forbidden');
      const resume = resumeParam !== null ? failedTransfer(call, resumeParam) : undefined;
      if (resume === null) return refuse(socket, '403 Forbidden');
      // The streamed words of answers come here until the session's socket is open, then to it.
      const sink: RelaySink = {
        token: (text) => sink.to?.(text),
        say: (text, interrupt) => sink.line?.(text, interrupt),
      };
      // Without the channel (its listener could not start) the answers are spoken whole, as before.
      const channel = await tokens.register(callId, sink).catch((err: Error) => {
        logger.warn('relay: token channel unavailable', { call_id: callId, error: err.message });
        return null;
      });
      const session = {
        provider_call_sid: sid,
        created_ms: Date.now(),
        stream_url: channel?.url ?? null,
        stream_token: channel ? sealSecret(channel.token) : null,
      };
      try {
        if (resume) {
          // A comeback from failed warm transfer `attempt` (issue 31): accepted once, after every earlier one.
          const taken = await RelaySession.collection.updateOne(
            { _id: callId as never, $or: [{ resume: { $exists: false } }, { resume: { $lt: resume.attempt } }] },
            { $set: { ...session, resume: resume.attempt } },
          );
          if (taken.matchedCount === 0) {
            tokens.unregister(callId);
            return refuse(socket, '409 Conflict');
          }
        } else await RelaySession.collection.insertOne({ _id: callId as never, ...session });
      } catch (err) {
        tokens.unregister(callId);
        if (isDuplicateKey(err)) return refuse(socket, '409 Conflict'); // one session per call: no replay
        throw err;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('close', () => tokens.unregister(callId));
        relaySession(ws, callId, temporal, sink);
      });
    })().catch((err) => {
      logger.warn('relay: handshake failed', { call_id: callId, error: String(err) });
      refuse(socket, '503 Service Unavailable');
    });
  });
  return {
    close: () => {
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      void tokens.close();
    },
  };
}

/** The token channel's sink of one relay session: its socket's handlers once open (`to`, `line`). */
type RelaySink = TokenSink & {
  to?: (text: string) => void;
  line?: (text: string, interrupt: boolean) => void;
};

/**
 * One ConversationRelay session: utterances to the workflow in order, answers back. Words streamed by
 * the LLM activity (through `sink`) are sent as they come (`last: false`); the update's answer then only
 * closes them (`last: true`, empty) instead of saying them again. Lines said on the API's behalf (issue
 * 31, through `sink.say`) are their own `text` message (`sayLine`).
 */
function relaySession(ws: WebSocket, callId: string, temporal: Client, sink: RelaySink): void {
  const handle = temporal.workflow.getHandle(callWorkflowId(callId));
  /** Words of the answer in the making already sent to Twilio (`last: false`). */
  let streamed = false;
  /** The holding line is the last thing said: an interruption then cuts no answer of the transcript. */
  let holding = false;
  sink.to = (text) => {
    streamed = true;
    holding = false;
    send({ type: 'text', token: text, last: false });
  };
  // Keys the assistant presses (`send_dtmf`, issue 31), streamed here by the `sendDigits` activity.
  sink.digits = (digits) => send({ type: 'sendDigits', digits });
  let sessionId = 'session';
  let seq = 0;
  let partial = '';
  let digits = '';
  let digitTimer: NodeJS.Timeout | undefined;
  const send = (msg: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(msg));
  ws.on('error', (err) => logger.warn('relay: socket error', { call_id: callId, error: err.message }));
  ws.on('close', () => clearTimeout(digitTimer));

  /** Speaks an update's result; returns true when the call is over. */
  const speak = (result: CallerSaidResult): boolean => {
    if (streamed || result.text) holding = false;
    if (streamed) send({ type: 'text', token: '', last: true });
    else if (result.text) send({ type: 'text', token: result.text, last: true });
    streamed = false;
    // The call is over (the assistant ended it): end the session after the last words; Twilio then
    // runs out of TwiML, hangs up and reports `completed` to the workflow.
    if (result.ended) send({ type: 'end', handoffData: JSON.stringify({ reason: 'call_ended' }) });
    return result.ended;
  };

  /**
   * A line said on the API's behalf (`POST /v1/calls/{id}/say`): without `interrupt`, once every utterance
   * so far is answered (the next pause), `interruptible` and `preemptible` like speech of the assistant's
   * (the caller, or the next answer, may cut it); with `interrupt`, at once, closing the words of an answer
   * being streamed so the line is its own talk cycle, neither `interruptible` nor `preemptible` (heard whole).
   * (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages: text message fields.)
   */
  const sayLine = (text: string, interrupt: boolean) => {
    if (streamed) send({ type: 'text', token: '', last: true });
    streamed = false;
    send({ type: 'text', token: text, last: true, interruptible: !interrupt, preemptible: !interrupt });
  };
  sink.line = (text, interrupt) =>
    interrupt ? sayLine(text, true) : void turns.idle().then(() => sayLine(text, false));

  const turns = voiceTurns(handle, callId, {
    hold: (line) => {
      if (streamed) return false;
      send({ type: 'text', token: line, last: true });
      holding = true;
      return true;
    },
    speak,
    end: () => send({ type: 'end' }),
  });
  /** Hands one utterance to the workflow (in order) and speaks its answer (after the holding line, if late). */
  const hear = (text: string) => turns.hear(text, `${sessionId}:${++seq}`);
  const flushDigits = () => {
    clearTimeout(digitTimer);
    if (digits) hear(`DTMF ${digits}`);
    digits = '';
  };

  ws.on('message', (raw) => {
    let msg: {
      type?: string;
      sessionId?: string;
      voicePrompt?: string;
      last?: boolean;
      digit?: string;
      description?: string;
      utteranceUntilInterrupt?: string;
      durationUntilInterruptMs?: number;
    };
    try {
      msg = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'setup' && typeof msg.sessionId === 'string') sessionId = msg.sessionId.slice(0, 128);
    else if (msg.type === 'prompt') {
      if (partial.length < RELAY_MAX_UTTERANCE_CHARS)
        partial = (partial + String(msg.voicePrompt ?? '')).slice(0, RELAY_MAX_UTTERANCE_CHARS);
      if (msg.last !== false) {
        const text = partial.trim();
        partial = '';
        if (text) hear(text);
      }
    } else if (msg.type === 'dtmf' && typeof msg.digit === 'string' && /^[0-9*#A-D]$/.test(msg.digit)) {
      if (digits.length < DTMF_MAX_DIGITS) digits += msg.digit;
      clearTimeout(digitTimer);
      if (msg.digit === '#') flushDigits();
      else digitTimer = setTimeout(flushDigits, DTMF_GATHER_MS);
    } else if (msg.type === 'interrupt' && !holding)
      turns.interrupt({
        spoken: String(msg.utteranceUntilInterrupt ?? ''),
        ...(typeof msg.durationUntilInterruptMs === 'number' ? { durationMs: msg.durationUntilInterruptMs } : {}),
      });
    else if (msg.type === 'error')
      logger.warn('relay: ConversationRelay reported an error', {
        call_id: callId,
        description: String(msg.description ?? ''),
      });
  });
}
