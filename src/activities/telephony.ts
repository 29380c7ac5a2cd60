/**
 * Telephony activities. Live calls go through Twilio's REST API with the `twilio` package (Calls
 * resource: create, with asynchronous answering-machine detection when asked; update with TwiML `<Dial>`
 * to transfer, with `<Dial><Conference>` to hold the caller during a warm transfer and with a
 * `Url` to bring them back; create the person's leg of a warm transfer, with `<Say>…</Say><Hangup/>` to leave a voicemail message; update `status=completed` to hang up;
 * https://www.twilio.com/docs/voice/api/call-resource). Simulated (test-mode) calls never reach Twilio:
 * the workflow does not call `placeCall` for them, and transfer/hang-up are no-ops. Keys pressed on a live
 * call (`sendDigits`) go through the call's ConversationRelay session instead.
 *
 * Errors: Twilio 4xx (bad number, unverified caller id...) → `ApplicationFailure` type
 * `TelephonyRejected` (not retried); missing credentials → the same; 5xx, timeouts (`TWILIO_TIMEOUT_MS`)
 * and network errors are retried.
 *
 * A live call is dialed at most once: Twilio's create has no idempotency key, so `placeCall` records a
 * dial intent before asking, and a retried attempt (the first one's answer lost to a timeout or a crash)
 * looks for the call Twilio already created before dialing again.
 *
 * Pace: every Calls create (`placeCall`, `dialTransferLeg`) waits for its turn in the Twilio account's
 * calls per second first (src/services/dial-pace.ts; Twilio's CPS, https://www.twilio.com/docs/glossary/cps);
 * a turn too far ahead is answered `{ providerCallSid: null, waitUntilMs }` and the workflow waits on a
 * durable timer, then asks again (src/shared/dial-pace.ts).
 */
import twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { MACHINE_DETECTION_TIMEOUT_SECONDS, TELEPHONY_REJECTED, transferConferenceName } from '../shared/calls';
import { Call, DialIntent, type VoicemailOutcome } from '../models/calls';
import { insertIfAbsent } from '../models/store';
import { clientWith, dialTo } from '../providers/twilio';
import { accountCredentials, callClient, credentialsOfAccount } from '../services/telephony-accounts';
import { roomService } from '../providers/livekit';
import { openTokenStream, sayOnRelay } from '../voice/relay';
import { classifyConsentAnswer } from '../services/recording-consent';
import { openingSentences, type ConsentAnswer, type RecordingConsent } from '../shared/recording-consent';
import { callingHoursAtTurn, checkDial, fromRefusedAtDial, requireDialAllowed } from '../services/dial-gate';
import { awaitTurn, inTurn } from '../services/dial-pace';
import { trunkRoute, type TrunkRoute } from '../services/sip-trunks';
import type { PacedDial, PlacedDial } from '../shared/dial-pace';
import type { CallingHoursPolicy, ComplianceCheck, DialGateVerdict } from '../shared/calls';

async function twilioCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429) {
      throw ApplicationFailure.nonRetryable(
        `Twilio refused the request (${status}): ${(err as Error).message}`,
        TELEPHONY_REJECTED,
      );
    }
    throw err;
  }
}

/**
 * The dial gate (src/services/dial-gate.ts) for call `callId`, run by its workflow right before it dials
 * (`leg: "call"`, every outbound phone call started since the gate, simulated ones too) and before a warm
 * transfer dials the person (`leg: "transfer"`). Records the check on the call's document
 * (`compliance_json`: the call's own check, with each transfer leg's check under `transfer_legs`), then
 * answers the verdict: `dial`, `hold` until `heldUntilMs`, or `refuse` (never dialed). Reads and one
 * write, idempotent: a retry checks again and records its own answer, and the workflow acts on the one
 * its history holds.
 */
export async function checkDialGate(input: {
  callId: string;
  orgId: string;
  livemode: boolean;
  to: string;
  contactId: string | null;
  /** The dial's instant, epoch ms: workflow time, moved ahead by a test-mode call's `advanceClock`. */
  atMs: number;
  leg: 'call' | 'transfer';
  policy: CallingHoursPolicy;
}): Promise<DialGateVerdict> {
  const { check, verdict } = await checkDial(
    { orgId: input.orgId, livemode: input.livemode },
    { to: input.to, contactId: input.contactId, atMs: input.atMs, leg: input.leg, policy: input.policy },
  );
  let record: ComplianceCheck & { transfer_legs?: ComplianceCheck[] } = check;
  if (input.leg === 'transfer') {
    const doc = await Call.findById(input.callId, { compliance_json: 1 }).lean();
    const own = doc?.compliance_json ? (JSON.parse(doc.compliance_json) as typeof record) : null;
    // An inbound call has no check of its own: its first transfer leg's stands at the top, and in the list.
    record = own
      ? { ...own, transfer_legs: [...(own.transfer_legs ?? []), check] }
      : { ...check, transfer_legs: [check] };
  }
  await Call.updateOne({ _id: input.callId }, { $set: { compliance_json: JSON.stringify(record) } });
  return verdict;
}

/** How far before the dial intent a provider call may have been created and still be ours (clock skew). */
const DIAL_MATCH_SLACK_MS = 60_000;

/**
 * Places a live call, at most once per call id, in its turn: Twilio fetches its TwiML from
 * `<PUBLIC_BASE_URL>/twilio/voice/<call id>` once answered and reports progress to
 * `<PUBLIC_BASE_URL>/twilio/status/<call id>`. A retry first looks for the call an earlier attempt placed
 * (its SID stored, or a Twilio call to the same number from the same number created since the intent and
 * not known as another call of ours) and returns it instead of dialing. Then the dial waits for its turn
 * of the organization's Twilio account (src/services/dial-pace.ts `awaitTurn`, holder `call:<call id>`,
 * kept across retries): a turn more than `PACE_ACTIVITY_WAIT_MS` away is answered as `waitUntilMs` (nothing
 * dialed; the workflow asks again then). Once the turn is near the dial intent is stored; in the turn the
 * Calls create is sent.
 * Checked again at dial time, nothing dialed when they fail: the call's `from` must still be the
 * organization's (src/services/dial-gate.ts `fromRefusedAtDial`: a scheduled or held call's number may
 * have been released meanwhile), else `{ refused: from_not_owned }`; and, for a call that passed the dial
 * gate (`callingHours`: its policy), the callee's calling hours at the instant of its turn
 * (`callingHoursAtTurn`: a long pace backlog may bring the turn after the window closed), else the turn
 * is given up and the call held until the window opens (`heldUntilMs`) or, policy `refuse`,
 * `{ refused: outside_calling_hours }`.
 * With `machineDetection`: Twilio's asynchronous answering-machine detection, `DetectMessageEnd`
 * (a machine is reported after its greeting's beep, so a message left then is recorded), deciding within
 * `MACHINE_DETECTION_TIMEOUT_SECONDS`, its result posted to `<PUBLIC_BASE_URL>/twilio/amd/<call id>`
 * while the call goes on (https://www.twilio.com/docs/voice/answering-machine-detection).
 * From a number one of the organization's SIP trunks carries, the call dials `sip:<to>@<termination
 * host>` with the trunk's SIP credentials (src/services/sip-trunks.ts `trunkRoute`): the gate and the
 * pace judged `to` itself.
 * @param input.orgId the call's organization (absent from activities scheduled by older workflow code:
 *   read from the call's document)
 * @returns Twilio's Call SID (`CA…`), or, not dialed yet, the turn to ask again at (epoch ms), the
 *   opening it is held until, or why it is refused
 */
export async function placeCall(input: {
  callId: string;
  orgId?: string;
  to: string;
  from: string | null;
  /** Ask for asynchronous answering-machine detection (the call's `voicemail.detection`). */
  machineDetection?: boolean;
  /** The call's calling-hours policy when it passed the dial gate (absent: its hours are not checked again). */
  callingHours?: CallingHoursPolicy;
}): Promise<PlacedDial> {
  const base = config().publicBaseUrl;
  if (!input.from) throw ApplicationFailure.nonRetryable('A live call needs `from`.', TELEPHONY_REJECTED);
  await requireDialAllowed(input.callId, input.to);
  const twilioClient = clientWith(await placingAccount(input.callId));
  const existing = await findPlacedCall(input.callId, twilioClient);
  if (existing) return { providerCallSid: existing };
  const fromRefused = await fromRefusedAtDial(input.callId, input.from);
  if (fromRefused) return { providerCallSid: null, refused: fromRefused };
  const orgId = input.orgId ?? (await orgOfCall(input.callId));
  // From a number the organization's SIP trunk carries: out through that carrier (the gate judged `to`).
  const route = await trunkRoute(orgId, input.from, input.to);
  // The `twilio` package loads its Calls resource on first use (a few hundred ms in a fresh process):
  // loaded now, not in the turn.
  const calls = twilioClient.calls;
  // The intent is written once the turn is near, before the wait: no write between the turn and the create.
  const writeIntent = () =>
    insertIfAbsent(DialIntent, {
      _id: input.callId,
      to: route?.to ?? input.to,
      from: input.from,
      created_ms: Date.now(),
      provider_call_sid: null,
    });
  let closed: Awaited<ReturnType<typeof callingHoursAtTurn>> = null;
  const prepare = async (atMs: number) => {
    closed = input.callingHours
      ? await callingHoursAtTurn({ orgId, livemode: true }, input.to, atMs, input.callingHours)
      : null;
    if (closed) return false; // the turn is given up: nothing is dialed in it
    await writeIntent(); // its answer (false: written by an earlier attempt) does not give the turn up
    return true;
  };
  const turn = await awaitTurn(orgId, `call:${input.callId}`, prepare);
  if (closed !== null) return notInTurn(closed);
  if ('waitUntilMs' in turn) return { providerCallSid: null, waitUntilMs: turn.waitUntilMs };
  const call = await twilioCall(() =>
    calls.create({
      ...dialedTo(input.to, route),
      from: input.from!,
      url: `${base}/twilio/voice/${input.callId}`,
      statusCallback: `${base}/twilio/status/${input.callId}`,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallbackMethod: 'POST',
      ...(input.machineDetection
        ? {
            machineDetection: 'DetectMessageEnd',
            machineDetectionTimeout: MACHINE_DETECTION_TIMEOUT_SECONDS,
            asyncAmd: 'true',
            asyncAmdStatusCallback: `${base}/twilio/amd/${input.callId}`,
            asyncAmdStatusCallbackMethod: 'POST',
          }
        : {}),
    }),
  );
  await DialIntent.updateOne({ _id: input.callId }, { $set: { provider_call_sid: call.sid } });
  return { providerCallSid: call.sid };
}

/** `placeCall`'s answer for a turn given up at the callee's closed calling hours. */
function notInTurn(
  closed: { heldUntilMs: number } | { refused: { reason: 'outside_calling_hours'; message: string } },
): PlacedDial {
  if ('refused' in closed) return { providerCallSid: null, refused: closed.refused };
  return { providerCallSid: null, waitUntilMs: closed.heldUntilMs, heldUntilMs: closed.heldUntilMs };
}

/**
 * The `To` of a Calls create (and the SIP credentials with it): `to` itself, or, through an organization's
 * SIP trunk, the trunk's SIP URI for it with its `SipAuthUsername`/`SipAuthPassword`
 * (https://www.twilio.com/docs/voice/api/sip-making-calls).
 */
function dialedTo(
  to: string,
  route: TrunkRoute | null,
): { to: string; sipAuthUsername?: string; sipAuthPassword?: string } {
  if (!route) return { to };
  return {
    to: route.to,
    ...(route.sipAuthUsername
      ? { sipAuthUsername: route.sipAuthUsername, sipAuthPassword: route.sipAuthPassword }
      : {}),
  };
}

/**
 * The credentials of the account call `callId` is dialed in: the one an earlier attempt recorded on the
 * call (`provider_account_sid`), else the organization's (src/services/telephony-accounts.ts, its
 * subaccount created on first use), recorded on the call before it is dialed, so a retry and every later
 * request about the call act in the same account.
 */
async function placingAccount(callId: string) {
  const call = await Call.findById(callId, { org_id: 1, provider_account_sid: 1 }).lean();
  if (!call) throw ApplicationFailure.nonRetryable(`call ${callId} does not exist`, TELEPHONY_REJECTED);
  if (call.provider_account_sid) return await credentialsOfAccount(call.provider_account_sid);
  const creds = await twilioCall(() => accountCredentials(call.org_id));
  await Call.updateOne({ _id: callId }, { $set: { provider_account_sid: creds.accountSid } });
  return creds;
}

/** The organization of call `callId` (its document's `org_id`). */
async function orgOfCall(callId: string): Promise<string> {
  const call = await Call.findById(callId, { org_id: 1 }).lean();
  if (!call) throw new Error(`call ${callId} has no document yet`);
  return call.org_id;
}

/**
 * The provider call an earlier attempt of `placeCall` placed for `callId` in `twilioClient`'s account, if
 * any (see `placeCall`); none without a dial intent (no attempt reached the create).
 */
async function findPlacedCall(callId: string, twilioClient: twilio.Twilio): Promise<string | null> {
  const intent = await DialIntent.findById(callId).lean();
  if (!intent) return null;
  if (intent.provider_call_sid) return intent.provider_call_sid;
  const candidates = await twilioCall(() => twilioClient.calls.list({ to: intent.to, from: intent.from, limit: 20 }));
  const recent = candidates.filter(
    (c) => !c.dateCreated || c.dateCreated.getTime() >= intent.created_ms - DIAL_MATCH_SLACK_MS,
  );
  if (recent.length === 0) return null;
  // One `{provider_call_sid}` lookup per candidate (its index), side by side: an `$in` scans on the embedded store.
  const owned = await Promise.all(
    recent.map((c) => Call.exists({ provider_call_sid: c.sid }).then((doc) => (doc ? c.sid : null))),
  );
  const taken = new Set(owned.filter((sid) => sid !== null));
  const ours = recent
    .filter((c) => !taken.has(c.sid))
    .sort((a, b) => (a.dateCreated?.getTime() ?? 0) - (b.dateCreated?.getTime() ?? 0))[0];
  if (!ours) return null;
  await DialIntent.updateOne({ _id: callId }, { $set: { provider_call_sid: ours.sid } });
  return ours.sid;
}

/**
 * Transfers a live call with TwiML `<Dial>`; a no-op for a simulated call. The destination passes the
 * dialing permissions first (`requireDialAllowed`: a refusal fails the transfer, not retried). A call on
 * a number of the organization's SIP trunk transferred to an E.164 number dials it through the trunk
 * (`<Dial><Sip username password>`, https://www.twilio.com/docs/voice/twiml/sip).
 */
export async function transferCall(input: {
  callId: string;
  livemode: boolean;
  providerCallSid: string | null;
  to: string;
}): Promise<void> {
  if (!input.providerCallSid) return;
  await requireDialAllowed(input.callId, input.to);
  const response = new twilio.twiml.VoiceResponse();
  const route = await callTrunkRoute(input.callId, input.to);
  // Through the organization's SIP trunk when the call is on one of its numbers: `<Dial><Sip>` with its credentials.
  if (route)
    response
      .dial()
      .sip(route.sipAuthUsername ? { username: route.sipAuthUsername, password: route.sipAuthPassword } : {}, route.to);
  else dialTo(response, input.to);
  const twilioClient = await callClient(input.callId);
  await twilioCall(() => twilioClient.calls(input.providerCallSid!).update({ twiml: response.toString() }));
}

/**
 * The SIP trunk route (`trunkRoute`) of a transfer of call `callId` to `to`: from the organization's number
 * on the call (the `to` of an inbound call, the `from` of an outbound one).
 */
async function callTrunkRoute(callId: string, to: string): Promise<TrunkRoute | null> {
  const call = await Call.findById(callId, { org_id: 1, from: 1, to: 1, direction: 1 }).lean();
  if (!call) return null;
  return await trunkRoute(call.org_id, call.direction === 'inbound' ? call.to : (call.from ?? null), to);
}

/**
 * What a caller on hold hears while a warm transfer dials the person: Twilio's own hold music (the
 * default `waitUrl` of `<Conference>`, https://www.twilio.com/docs/voice/twiml/conference#attributes-waiturl).
 */
export const TRANSFER_HOLD_MUSIC_URL = 'https://twimlets.com/holdmusic?Bucket=com.twilio.music.classical';

/**
 * The `<Dial><Conference>` of a warm transfer of call `callId`: the conference
 * `transferConferenceName(callId)`, without beeps, ended when either party leaves, its participants'
 * joins and departures reported to `/twilio/transfer/{call id}/conference`
 * (https://www.twilio.com/docs/voice/twiml/conference#attributes-statuscallback). The caller
 * (`startConferenceOnEnter: false`) hears `waitUrl` until the person (`true`) joins.
 */
function transferConference(response: twilio.twiml.VoiceResponse, callId: string, starts: boolean): void {
  const base = config().publicBaseUrl;
  response.dial().conference(
    {
      beep: 'false',
      startConferenceOnEnter: starts,
      endConferenceOnExit: true,
      ...(starts ? {} : { waitUrl: TRANSFER_HOLD_MUSIC_URL, waitMethod: 'GET' }),
      statusCallback: `${base}/twilio/transfer/${callId}/conference`,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['join', 'leave'],
    },
    transferConferenceName(callId),
  );
}

/**
 * Warm transfer, first step: puts the live caller on hold in the call's transfer conference
 * (Calls resource update with TwiML `<Dial><Conference>`, which ends its ConversationRelay session).
 * @throws ApplicationFailure type `TelephonyRejected` when Twilio refuses (the call is over)
 */
export async function holdForTransfer(input: { callId: string; providerCallSid: string }): Promise<void> {
  const response = new twilio.twiml.VoiceResponse();
  transferConference(response, input.callId, false);
  const twilioClient = await callClient(input.callId);
  await twilioCall(() => twilioClient.calls(input.providerCallSid).update({ twiml: response.toString() }));
}

/**
 * Warm transfer, second step: dials the person (Calls resource create) with TwiML that speaks `summary`
 * (`<Say>`) and then joins the transfer conference, ringing at most `timeoutSeconds` (Twilio's `Timeout`:
 * then `no-answer`); the leg's status callbacks go to `/twilio/transfer/{call id}/status`; from a number
 * of the organization's SIP trunk, through the trunk (as `placeCall`). Like every
 * dial, in its turn of the organization's Twilio account (src/services/dial-pace.ts, holder
 * `leg:<call id>:<attempt>`): a turn more than `PACE_ACTIVITY_WAIT_MS` away is answered as `waitUntilMs`
 * (nothing dialed). Never rings the person twice: the leg's dial intent (`<call id>:leg:<attempt>`) is
 * stored just before the create, and a retry that finds it answers the leg's SID when the create's answer
 * was stored, else fails without dialing (the create may have gone); a retry before it (a worker killed
 * while waiting for the turn) dials.
 * @param input.attempt the warm transfer's number on the call (absent from activities scheduled by older
 *   workflow code: no intent is kept, as before)
 * @returns the leg's Call SID (`CA…`), or, not dialed yet, the turn to ask again at (epoch ms)
 * @throws ApplicationFailure `TelephonyRejected` (not retried) when Twilio refuses, or when an earlier
 *   attempt may have dialed
 */
export async function dialTransferLeg(input: {
  callId: string;
  orgId?: string;
  attempt?: number;
  to: string;
  from: string;
  summary: string;
  timeoutSeconds: number;
}): Promise<PacedDial> {
  await requireDialAllowed(input.callId, input.to);
  const base = config().publicBaseUrl;
  const intentId = input.attempt === undefined ? null : `${input.callId}:leg:${input.attempt}`;
  const intent = intentId ? await DialIntent.findById(intentId).lean() : null;
  if (intent?.provider_call_sid) return { providerCallSid: intent.provider_call_sid };
  if (intent)
    throw ApplicationFailure.nonRetryable(
      'The transfer leg may have been dialed by an earlier attempt.',
      TELEPHONY_REJECTED,
    );
  const orgId = input.orgId ?? (await orgOfCall(input.callId));
  const route = await trunkRoute(orgId, input.from, input.to);
  const holder = `leg:${input.callId}:${input.attempt ?? 0}`;
  // The leg joins a conference in the call's account; its Calls resource loaded before the turn (see `placeCall`).
  const calls = (await callClient(input.callId)).calls;
  for (let tries = 0; ; tries++) {
    const turn = await awaitTurn(orgId, holder);
    if ('waitUntilMs' in turn) return { providerCallSid: null, waitUntilMs: turn.waitUntilMs };
    // The intent goes after the wait (a retry that finds it never dials): the turn is checked again after it.
    const fresh = intentId
      ? await insertIfAbsent(DialIntent, {
          _id: intentId,
          to: input.to,
          from: input.from,
          created_ms: Date.now(),
          provider_call_sid: null,
        })
      : false;
    if (inTurn(turn.atMs)) break;
    if (fresh) await DialIntent.deleteOne({ _id: intentId }); // nothing sent: the next turn may dial
    if (tries >= 3) throw new Error('The transfer leg missed its turn of the calls per second.');
  }
  const response = new twilio.twiml.VoiceResponse();
  response.say(input.summary);
  transferConference(response, input.callId, true);
  const leg = await twilioCall(() =>
    calls.create({
      ...dialedTo(input.to, route),
      from: input.from,
      twiml: response.toString(),
      timeout: input.timeoutSeconds,
      statusCallback: `${base}/twilio/transfer/${input.callId}/status`,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallbackMethod: 'POST',
    }),
  );
  if (intentId) await DialIntent.updateOne({ _id: intentId }, { $set: { provider_call_sid: leg.sid } });
  return { providerCallSid: leg.sid };
}

/**
 * A failed warm transfer brings the caller back (Calls resource update with `Url`): Twilio fetches
 * `/twilio/voice/{call id}?resume={attempt}`, a new ConversationRelay session whose greeting says why.
 * @throws ApplicationFailure type `TelephonyRejected` when Twilio refuses (the caller hung up)
 */
export async function returnFromTransfer(input: {
  callId: string;
  providerCallSid: string;
  attempt: number;
}): Promise<void> {
  const url = `${config().publicBaseUrl}/twilio/voice/${input.callId}?resume=${input.attempt}`;
  const twilioClient = await callClient(input.callId);
  await twilioCall(() => twilioClient.calls(input.providerCallSid).update({ url, method: 'POST' }));
}

/**
 * Leaves a voicemail message on a live call a machine answered: replaces the call's TwiML
 * (ending its ConversationRelay session) with `<Say>message</Say><Hangup/>`, so Twilio speaks it once,
 * after the beep AMD waited for, then hangs up and reports `completed`. Once Twilio took it, the call's
 * document records the message as left (`voicemail_json`: the call object's `voicemail`, shown with the
 * end the workflow records next).
 * @throws ApplicationFailure type `TelephonyRejected` when Twilio refuses (the call is already over)
 */
export async function leaveVoicemail(input: {
  callId: string;
  providerCallSid: string;
  message: string;
}): Promise<void> {
  const response = new twilio.twiml.VoiceResponse();
  response.say(input.message);
  response.hangup();
  const twilioClient = await callClient(input.callId);
  await twilioCall(() => twilioClient.calls(input.providerCallSid).update({ twiml: response.toString() }));
  const left: VoicemailOutcome = { left: true, message: input.message };
  await Call.updateOne({ _id: input.callId }, { $set: { voicemail_json: JSON.stringify(left) } });
}

/** Hangs up a live call; a no-op for a simulated call. A call Twilio already ended is not an error. */
export async function hangUpCall(input: {
  callId: string;
  livemode: boolean;
  providerCallSid: string | null;
}): Promise<void> {
  if (!input.providerCallSid) return;
  try {
    const twilioClient = await callClient(input.callId);
    await twilioCall(() => twilioClient.calls(input.providerCallSid!).update({ status: 'completed' }));
  } catch (err) {
    if (err instanceof ApplicationFailure && err.type === TELEPHONY_REJECTED) return; // already over
    throw err;
  }
}

/**
 * Hangs up a browser voice call: deletes its LiveKit room (`RoomService.DeleteRoom`, livekit-server-sdk),
 * which disconnects everyone in it (the visitor's client sees `ROOM_DELETED`). A room that no longer
 * exists is not an error (it empties itself once everyone left); without LiveKit configured there is no
 * room to delete. Errors from the server are retried by the workflow's policy.
 * https://docs.livekit.io/home/server/managing-rooms/
 */
export async function closeRoom(input: { callId: string; room: string }): Promise<void> {
  const rooms = roomService();
  if (!rooms) return;
  try {
    await rooms.deleteRoom(input.room);
  } catch (err) {
    if ((err as { status?: number }).status === 404 || /not.?found/i.test((err as Error).message)) return;
    throw err;
  }
}

/**
 * Presses `digits` on a live call's line (the `send_dtmf` tool): hands them to the API process
 * holding the call's ConversationRelay session through the token channel (src/voice/relay.ts), which sends
 * ConversationRelay's `{"type":"sendDigits","digits":…}`. Not retried (a retry could press the keys twice).
 * @throws ApplicationFailure `TelephonyRejected` (not retried) when no relay session holds the call, or
 *   its API process did not confirm taking the digits
 */
export async function sendDigits(input: { callId: string; digits: string }): Promise<void> {
  const stream = await openTokenStream(input.callId);
  if (!stream)
    throw ApplicationFailure.nonRetryable('No ConversationRelay session holds the call.', TELEPHONY_REJECTED);
  stream.digits(input.digits);
  if (!(await stream.end()))
    throw ApplicationFailure.nonRetryable('The ConversationRelay session did not take the digits.', TELEPHONY_REJECTED);
}

/**
 * Changes the voice of a live call at a squad's hand-off (src/workflows/call-squad.ts): hands `announce`
 * (said first in the current voice; null: none) and ConversationRelay's configuration `messages`
 * (src/shared/squads.ts `relayVoiceUpdate`) to the API process holding the call's ConversationRelay
 * session through the token channel (src/voice/relay.ts), which sends them in that order.
 * @returns `delivered` false when no relay session holds the call or its process did not confirm: the call
 *   goes on in the voice it had (never thrown, so a retry never says the announcement twice)
 */
export async function switchVoice(input: {
  callId: string;
  announce: string | null;
  messages: Record<string, unknown>[];
}): Promise<{ delivered: boolean }> {
  const stream = await openTokenStream(input.callId);
  if (!stream) return { delivered: false };
  stream.voice({ announce: input.announce, messages: input.messages });
  return { delivered: await stream.end() };
}

/**
 * Speaks a line on the API's behalf (`POST /v1/calls/{id}/say`) on a live call: hands it to
 * the call's voice session (ConversationRelay socket or voice room) through src/voice/relay.ts
 * `sayOnRelay`, which speaks it once the answer being given is out, or at once with `interrupt`.
 * @returns `delivered` false when no session took it (none connected, or its process gone); never retried then
 */
export async function speakLine(input: {
  callId: string;
  text: string;
  interrupt: boolean;
}): Promise<{ delivered: boolean }> {
  return { delivered: await sayOnRelay(input.callId, input.text, input.interrupt) };
}

/**
 * `recording_consent: "ask"`: the caller's answer to the consent question (`text`, transcript turn
 * `answerSeq`), understood by src/services/recording-consent.ts `classifyConsentAnswer` (a keyword list
 * per language; here, not in the workflow, so a change of the lists never changes a recorded history).
 * A yes on a live call starts the recording at Twilio (Recordings resource create on the in-progress call:
 * `POST /2010-04-01/Accounts/{sid}/Calls/{CallSid}/Recordings.json`, both parties on two channels, the
 * same status callback as `<Start><Recording>`; https://www.twilio.com/docs/voice/api/recording), unless
 * one is already recording (a retried attempt whose answer was lost: Twilio's create has no idempotency
 * key, so the call's recordings are listed first). The decision is then written on the call
 * (`recording_consent_json`: `answer`, `answer_seq`, `recording`), once: a retry after it answers the
 * stored decision. A no, an unclear answer, or a refusal by Twilio (4xx, its reason in `error`) keeps
 * recording off and the call goes on. A test-mode call never reaches Twilio (its recording is synthesized
 * from the yes on, src/workflows/call-session.ts).
 * @returns the answer, whether the call is now recorded, and what the assistant says to it (in the
 *   call's language)
 * @throws Error for Twilio's 5xx and network errors (retried)
 */
export async function recordConsentAnswer(input: {
  callId: string;
  providerCallSid: string | null;
  text: string;
  answerSeq: number;
}): Promise<{ answer: ConsentAnswer; recording: 'on' | 'off'; reply: string }> {
  const call = await Call.findById(input.callId, { recording_consent_json: 1 }).lean();
  const decision = JSON.parse(call?.recording_consent_json ?? 'null') as RecordingConsent | null;
  if (!decision) throw ApplicationFailure.nonRetryable(`call ${input.callId} asks no consent`, TELEPHONY_REJECTED);
  const sentences = openingSentences(decision.language);
  const replyOf = (d: RecordingConsent) => (d.recording === 'on' ? sentences.consented : sentences.declined);
  if (decision.answer !== null)
    return { answer: decision.answer, recording: decision.recording, reply: replyOf(decision) };
  const answer = classifyConsentAnswer(input.text, decision.language);
  let recording: 'on' | 'off' = answer === 'yes' ? 'on' : 'off';
  let error: string | undefined;
  if (recording === 'on' && input.providerCallSid) {
    try {
      await startLiveRecording(input.callId, input.providerCallSid);
    } catch (err) {
      if ((err as { type?: string }).type !== TELEPHONY_REJECTED) throw err;
      recording = 'off';
      error = (err as Error).message;
    }
  }
  const decided: RecordingConsent = {
    ...decision,
    answer,
    answer_seq: input.answerSeq,
    recording,
    ...(error ? { error } : {}),
  };
  await Call.updateOne({ _id: input.callId }, { $set: { recording_consent_json: JSON.stringify(decided) } });
  return { answer, recording, reply: replyOf(decided) };
}

/** Starts recording live call `providerCallSid` (see `recordConsentAnswer`), unless a recording of it is in progress. */
async function startLiveRecording(callId: string, providerCallSid: string): Promise<void> {
  const base = config().publicBaseUrl;
  const twilioClient = await callClient(callId);
  const existing = await twilioCall(() => twilioClient.calls(providerCallSid).recordings.list({ limit: 20 }));
  if (existing.some((r) => r.status === 'in-progress')) return;
  await twilioCall(() =>
    twilioClient.calls(providerCallSid).recordings.create({
      recordingChannels: 'dual',
      recordingStatusCallback: `${base}/twilio/recording/${callId}`,
      recordingStatusCallbackMethod: 'POST',
      recordingStatusCallbackEvent: ['completed'],
    }),
  );
}
