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
 *   `CallSid`), signalled to the call's workflow (`machineDetection`), which ignores another
 *   SID's and any that comes once the call has stopped; a call that is over (no run) ignores it here.
 * - `POST /twilio/voice/inbound` (the Voice URL of the organization's Twilio numbers): an
 *   incoming call to a number connected with `voice` is answered by the assistant
 *   (src/services/inbound-calls.ts) with the same `<Connect><ConversationRelay>` as an outbound call, its
 *   `action` being `POST /twilio/voice/{call id}/ended`, which tells the workflow the session is over.
 *   An unknown number, one without `voice`, or no agent: a short spoken line and `<Hangup/>`, nothing
 *   created. Refused calls: `<Reject/>` (the webhook's `reject`), `<Dial>` to `overflow_to`, or the
 *   "all lines are busy" line. The same CallSid twice is one call, answered from its record.
 * - `POST /twilio/status/inbound`: the numbers' status callback (optional; the `action` above already
 *   reports the end): signalled like an outbound call's, the call found by its CallSid.
 * - `POST /twilio/transfer/{call id}/status` and `/conference`: the status callbacks of a warm
 *   transfer's leg to the person and of its conference (`participant-join`), signalled to the call's
 *   workflow (`transferLeg`), which counts only the leg's own CallSid. A failed warm transfer brings the
 *   caller back through `/twilio/voice/{call id}?resume={attempt}`: a new session, greeted with why.
 * - `POST /twilio/pay/{call id}/{attempt}`: the `<Pay>` action of a card payment (`collect_payment`),
 *   src/api/twilio/payments.ts: the outcome signalled to the workflow (`paymentResult`), the caller brought
 *   back in a new session (`?payment={attempt}`) greeted with it; an inbound call's `<Connect>` action
 *   while the caller is in `<Pay>` is no hang-up, as for a transfer.
 * - The ConversationRelay WebSocket the TwiML points at (`/twilio/relay/{call id}`) is served by
 *   src/api/twilio/relay.ts; the messaging callbacks (`/twilio/messaging/…`) by src/api/twilio/messaging.ts.
 *
 * A request whose signature does not verify under the auth token of the account its `AccountSid` names,
 * or that comes from another organization's account than the one holding the number or call, gets 403 and
 * changes nothing (src/api/twilio/requests.ts `twilioCallbackGuard`, mounted before these routes).
 */
import type { Router } from 'express';
import twilio from 'twilio';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { Call, type CallDoc } from '../../models/calls';
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
  type TelephonyStatus,
  type TransferProgress,
  type TwilioAnsweredBy,
} from '../../shared/calls';
import { startRecordingWorkflow } from '../../services/recordings';
import type { RecordingSettings } from '../../shared/recordings';
import { spokenOpening, type RecordingConsent } from '../../shared/recording-consent';
import { operation, operationsRouter } from '../operations';
import { payResultHandler, type PaymentComeback } from './payments';
import { realtimeReferHandler } from './realtime-refer';
import { failedTransfer, LIVE_STATUSES, publicUrl } from './requests';
import { PAYMENT_LINES, type PaymentProgress } from '../../shared/payments';
import { numberOfSipTo } from '../../shared/sip-trunks';
import { realtimeSipUri } from '../../shared/realtime';
import { config } from '../../config';

const tag = 'Twilio callbacks';

/**
 * The call callbacks under `/twilio` (mounted there by src/api/app.ts, after `twilioCallbackGuard`: the
 * form parser and the signature check, src/api/twilio/requests.ts; the messaging callbacks are
 * src/api/twilio/messaging.ts, mounted beside these).
 */
export function twilioRouter(temporal: Client): Router {
  return operationsRouter('/twilio', [
    twilioInboundCall(temporal),
    twilioInboundStatus(temporal),
    twilioRelayEnded(temporal),
    twilioRealtimeRefer,
    twilioVoice,
    twilioCallStatus(temporal),
    twilioMachineDetection(temporal),
    twilioRecordingStatus(temporal),
    twilioTransferLegStatus(temporal),
    twilioTransferConference(temporal),
    twilioPayResult(temporal, (response, call, callSid, payment) =>
      connectRelay(response, call, callSid, undefined, payment),
    ),
  ]);
}

/**
 * `POST /twilio/voice/{callId}/refer`: the `referUrl` of a realtime call's `<Dial><Sip>` leg, requested when the
 * Realtime API's REFER reaches Twilio (https://www.twilio.com/docs/voice/api/refer-to-twilio); the handler
 * is src/api/twilio/realtime-refer.ts `realtimeReferHandler`.
 */
const twilioRealtimeRefer = operation({
  method: 'post',
  path: '/twilio/voice/{callId}/refer',
  operationId: 'twilioRealtimeRefer',
  tag,
  summary: "A realtime call's SIP REFER, as Twilio asks what to do with it",
  description:
    "The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other `ReferTransferTarget`.",
  twilioForm: {
    CallSid: "The call's SID at Twilio (CA…).",
    ReferTransferTarget: 'The `Refer-To` of the REFER, e.g. `<tel:+14155550111>` or `<sip:desk@example.com>`.',
  },
  content: { 'text/xml': { schema: { type: 'string' } } },
  handler: realtimeReferHandler,
});

/**
 * `POST /twilio/pay/{callId}/{attempt}`: a card payment's `<Pay>` action (https://www.twilio.com/docs/voice/twiml/pay#action);
 * the handler is src/api/twilio/payments.ts `payResultHandler`.
 */
const twilioPayResult = (temporal: Client, comeback: PaymentComeback) =>
  operation({
    method: 'post',
    path: '/twilio/pay/{callId}/{attempt}',
    operationId: 'twilioPayResult',
    tag,
    summary: "A card payment's `<Pay>` action",
    description:
      'Twilio posts the outcome of `<Pay>` here; only the status, the last four digits and the confirmation code are kept, and the caller is brought back to the assistant.',
    twilioForm: {
      CallSid: "The call's SID at Twilio (CA…).",
      Result:
        'success, payment-connector-error, too-many-failed-attempts, caller-interrupted-with-star, caller-hung-up, …',
      PaymentCardNumber: 'The card number, masked by Twilio (only its last four digits are kept).',
      PaymentConfirmationCode: "The processor's confirmation code.",
    },
    content: { 'text/xml': { schema: { type: 'string' } } },
    handler: payResultHandler(temporal, comeback),
  });

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
    if (!call || !LIVE_STATUSES.includes(call.status) || !callSid || call.provider_call_sid !== callSid) {
      response.hangup();
    } else if (resume === null) response.hangup();
    else connectRelay(response, call, callSid, resume);
    res.type('text/xml').send(response.toString());
  },
});

/**
 * `<Connect><ConversationRelay>` to our WebSocket for `call` (its URL carries the CallSid, so the
 * handshake's signature is bound to it), the agent's `first_message` as the welcome greeting and its
 * speech settings (voice, language, transcription, interruptible, dtmf;
 * src/providers/twilio.ts `conversationRelayAttributes`), `preemptible` talk cycles, the agent as the call was created: an edit
 * since never changes a call in flight. An inbound call's `<Connect>`
 * reports the session's end to `/twilio/voice/{id}/ended` (no status callback is set up for it).
 * A caller coming back from failed warm transfer `resume` gets a session of its own (`resume`
 * in the URL, see `attachConversationRelay`) greeted with `TRANSFER_FAILED_LINES` for the reason, and no
 * second recording. A caller back from `<Pay>` (`payment`, src/api/twilio/payments.ts) likewise: a session
 * of its own (`payment` in the URL) greeted with the payment's outcome (`PAYMENT_LINES`).
 */
function connectRelay(
  response: twilio.twiml.VoiceResponse,
  call: WithId<CallDoc>,
  callSid: string,
  resume?: TransferProgress,
  payment?: PaymentProgress,
): void {
  const agent = JSON.parse(call.agent_json ?? 'null') as AgentSnapshot | null;
  if (!resume && !payment && dialRealtime(response, call)) return;
  const recording = resume || payment ? null : startRecording(response, call);
  const greeting = resume
    ? TRANSFER_FAILED_LINES[resume.reason ?? 'failed']
    : payment
      ? PAYMENT_LINES[payment.status === 'collecting' ? 'failed' : payment.status]
      : spokenOpening({
          aiDisclosure: call.ai_disclosure,
          recordingConsent: consentOf(call),
          notice: recording?.notice,
          firstMessage: agent?.first_message,
        });
  const connect = response.connect(
    call.direction === 'inbound' ? { action: publicUrl(`/twilio/voice/${call._id}/ended`), method: 'POST' } : {},
  );
  const session = resume ? `&resume=${resume.attempt}` : payment ? `&payment=${payment.attempt}` : '';
  connect.conversationRelay({
    url: publicUrl(`/twilio/relay/${call._id}?sid=${encodeURIComponent(callSid)}${session}`, true),
    ...(greeting ? { welcomeGreeting: greeting } : {}),
    // Every talk cycle may be cut by the next one: how a line said with `interrupt` stops the answer
    // being heard (src/api/twilio/relay.ts). Lines that must be heard whole say `preemptible: false`.
    preemptible: true,
    ...conversationRelayAttributes(agent ?? {}),
  });
}

/**
 * A realtime call (its agent version's `engine: "realtime"`) not fallen back to the pipeline: its leg is
 * `<Dial><Sip>` to the OpenAI project's SIP URI with our call id header (src/shared/realtime.ts
 * `realtimeSipUri`); the webhook then hands it to the call's workflow (src/api/openai-webhooks.ts). Its
 * `referUrl` is where Twilio asks what to do with the REFER of a transfer (src/api/twilio/realtime-refer.ts).
 * @returns false when the call is not one (the relay's TwiML follows)
 */
function dialRealtime(response: twilio.twiml.VoiceResponse, call: WithId<CallDoc>): boolean {
  const rt = config().openaiRealtime;
  if (call.engine !== 'realtime' || call.engine_fallback || !rt) return false;
  // A transfer by `refer` reaches Twilio as a SIP REFER on this leg: Twilio asks the referUrl what to dial.
  const dial = response.dial({ referUrl: publicUrl(`/twilio/voice/${call._id}/refer`), referMethod: 'POST' });
  dial.sip(realtimeSipUri(rt.projectId, rt.sipHost, call._id));
  return true;
}

/**
 * A recorded call (`recording` snapshotted on the call) whose consent decision records from the start
 * (not `ask`, which records only after the caller's yes): `<Start><Recording>` before the
 * conversation, both parties on two channels (`channels="dual"`), Twilio telling
 * `/twilio/recording/{call id}` when the recording is complete
 * (https://www.twilio.com/docs/voice/twiml/recording). Works for outbound and inbound calls alike.
 * @returns the call's recording settings, or null when it is not recorded now (nothing added)
 */
function startRecording(response: twilio.twiml.VoiceResponse, call: WithId<CallDoc>): RecordingSettings | null {
  const recording = JSON.parse(call.recording_json ?? 'null') as RecordingSettings | null;
  if (!recording?.enabled) return null;
  // `recording_consent: "ask"`: nothing is recorded before the caller's yes (the workflow starts it then).
  if (consentOf(call)?.recording === 'off') return null;
  response.start().recording({
    channels: 'dual',
    recordingStatusCallback: publicUrl(`/twilio/recording/${call._id}`),
    recordingStatusCallbackMethod: 'POST',
    recordingStatusCallbackEvent: ['completed'],
  });
  return recording;
}

/** The call's recording-consent decision (null for calls made before it existed). */
function consentOf(call: Pick<CallDoc, 'recording_consent_json'>): RecordingConsent | null {
  return JSON.parse(call.recording_consent_json ?? 'null') as RecordingConsent | null;
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
      To: 'The number called (E.164; from a SIP trunk, a SIP URI whose user part is that number).',
    },
    content: { 'text/xml': { schema: { type: 'string' } } },
    handler: async (req, res) => {
      const body = (req.body ?? {}) as Record<string, string>;
      const callSid = String(body.CallSid ?? '');
      // A withheld caller ID comes as `anonymous` (or Twilio's placeholder number): answered all the same.
      const from = numberOfSipTo(String(body.From ?? '')).slice(0, 64) || 'anonymous';
      // From a BYOC trunk (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc) `To` (and `From`)
      // may be a SIP URI naming the number (`sip:+1…@…`): answered as a call to that number.
      const to = numberOfSipTo(String(body.To ?? ''));
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
      // The account the call came in through (checked by the guard): where its REST requests go.
      if (call && !call.provider_account_sid && /^AC[0-9a-f]{32}$/i.test(body.AccountSid ?? ''))
        await Call.updateOne(
          { _id: call._id, provider_account_sid: null },
          { $set: { provider_account_sid: body.AccountSid } },
        );
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
  if (LIVE_STATUSES.includes(call.status) && call.provider_call_sid === callSid) connectRelay(response, call, callSid);
  else if (call.end_reason === 'rejected') response.reject();
  else if (call.end_reason === 'concurrency_limit' && call.transferred_to) dialTo(response, call.transferred_to);
  else if (call.end_reason === 'concurrency_limit') {
    response.say(ALL_LINES_BUSY_LINE);
    response.hangup();
  } else response.hangup();
}

/**
 * `POST /twilio/voice/{id}/ended` (form: `CallSid`, `CallStatus`): the `action` of an inbound call's
 * `<Connect>`, requested when its ConversationRelay session ends. `CallStatus: completed` (the caller hung
 * up), or `in-progress` when we ended the session (the assistant ended the call): signalled to the call's
 * workflow as `completed` → `<Hangup/>`. But a session also ends, the caller still on the line, when the
 * call is redirected to other TwiML — a warm transfer's hold in its conference (the call shows the
 * transfer `dialing`, `briefing` or `transferred`), or a cold transfer's `<Dial>` — and Twilio requests
 * the action then too: that is no hang-up, so nothing is signalled, and the answer is an empty
 * `<Response/>` (the call follows the TwiML it was redirected to).
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
      const callId = String(req.params.callId);
      const response = new twilio.twiml.VoiceResponse();
      if (body.CallStatus !== 'in-progress' || !(await leftForTransfer(callId))) {
        await signalStatus(temporal, callId, { status: 'completed', providerCallSid: body.CallSid || undefined });
        response.hangup();
      }
      res.type('text/xml').send(response.toString());
    },
  });

/**
 * True when call `callId` left its ConversationRelay session for a transfer: a warm one under way or
 * joined (its `transfer` `dialing`, `briefing` or `transferred`, recorded before the caller is put on
 * hold), or the call handed over (`transferred`, a cold `<Dial>`); or for a card payment (its latest
 * `payment` still `collecting`, recorded before the caller is handed to `<Pay>`).
 */
async function leftForTransfer(callId: string): Promise<boolean> {
  const call = await Call.findOne(
    { _id: callId, livemode: true },
    { status: 1, transfer_json: 1, payment_json: 1 },
  ).lean();
  if (!call) return false;
  const transfer = JSON.parse(call.transfer_json ?? 'null') as TransferProgress | null;
  const payment = JSON.parse(call.payment_json ?? 'null') as PaymentProgress | null;
  return (
    call.status === 'transferred' ||
    (transfer !== null && transfer.status !== 'failed') ||
    payment?.status === 'collecting'
  );
}

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
 * warm transfer's leg to the person (src/activities/telephony.ts `dialTransferLeg`), signalled to
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
 * `FriendlyName`) → 204: the status callback of a warm transfer's conference (Twilio's
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
 * Ignored (204, nothing started): an unknown call, a CallSid that is not the call's, a call not recorded
 * (or whose consent decision says `recording: "off"`: a caller's no, or no answer yet),
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
        consentOf(call)?.recording !== 'off' && // never kept without consent
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
