/**
 * Card payments on a live call (the `collect_payment` tool, src/workflows/call-payments.ts), through
 * Twilio's REST API with the `twilio` package: the call's recording paused without keeping the pause
 * (Recordings resource update, `Status=paused`, `PauseBehavior=skip`, on `Twilio.CURRENT`, the recording
 * running; https://www.twilio.com/docs/voice/api/recording#update-a-recording-resource), then the call
 * redirected (Calls resource update with TwiML) to `<Pay>` with the organization's Pay Connector
 * (https://www.twilio.com/docs/voice/twiml/pay), which ends its ConversationRelay session: the caller
 * keys in the card with Twilio, which charges it through the connector and posts the outcome to the
 * `<Pay>` action (src/api/twilio/payments.ts). Afterwards the recording is resumed (`in-progress`).
 * No card data passes through these activities.
 *
 * Errors: Twilio 4xx → `ApplicationFailure` type `TelephonyRejected` (not retried); missing
 * credentials → the same; 5xx, timeouts and network errors are retried.
 */
import twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { TELEPHONY_REJECTED } from '../shared/calls';
import { clientWith } from '../providers/twilio';
import { callClient, callCredentialsBySid } from '../services/telephony-accounts';
import { payTwiml } from '../services/payments';

/** Twilio's name for the recording running on a call (https://www.twilio.com/docs/voice/api/recording). */
const CURRENT_RECORDING = 'Twilio.CURRENT';

async function twilioRequest<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429)
      throw ApplicationFailure.nonRetryable(
        `Twilio refused the request (${status}): ${(err as Error).message}`,
        TELEPHONY_REJECTED,
      );
    throw err;
  }
}

/**
 * Sets the recording running on call `providerCallSid` to `status` (`paused` with `PauseBehavior=skip`:
 * the pause leaves no silence in the file, and nothing of it is kept). A call with no recording running
 * (Twilio answers 404: never recorded, or not started yet, e.g. consent not given) is not an error.
 */
async function setRecording(providerCallSid: string, status: 'paused' | 'in-progress'): Promise<void> {
  const twilioClient = clientWith(await callCredentialsBySid(providerCallSid)); // the account the call is in
  try {
    await twilioRequest(() =>
      twilioClient
        .calls(providerCallSid)
        .recordings(CURRENT_RECORDING)
        .update(status === 'paused' ? { status, pauseBehavior: 'skip' } : { status }),
    );
  } catch (err) {
    if (err instanceof ApplicationFailure && /\(404\)/.test(err.message)) return;
    throw err;
  }
}

/**
 * Hands a live caller to `<Pay>` for payment `attempt`: the recording paused first when the call is
 * recorded (a refusal other than "no recording" stops here: no card is taken on a recording that runs),
 * then the call redirected to src/services/payments.ts `payTwiml`. When the redirect fails, the recording
 * is resumed (best effort) and the failure thrown: the caller is still in the conversation, nothing taken.
 * @throws ApplicationFailure `TelephonyRejected` when Twilio refuses (the call is over, a bad connector)
 */
export async function startPayment(input: {
  callId: string;
  providerCallSid: string;
  attempt: number;
  connector: string;
  amount: string;
  currency: string;
  description: string;
  recorded: boolean;
}): Promise<void> {
  if (input.recorded) await setRecording(input.providerCallSid, 'paused');
  const response = new twilio.twiml.VoiceResponse();
  payTwiml(response, input);
  try {
    const twilioClient = await callClient(input.callId);
    await twilioRequest(() => twilioClient.calls(input.providerCallSid).update({ twiml: response.toString() }));
  } catch (err) {
    if (input.recorded) await setRecording(input.providerCallSid, 'in-progress').catch(() => undefined);
    throw err;
  }
}

/** Resumes call `providerCallSid`'s recording once its caller is back from `<Pay>` (none running: nothing to do). */
export async function resumeRecording(input: { providerCallSid: string }): Promise<void> {
  await setRecording(input.providerCallSid, 'in-progress');
}
