/**
 * Telephony activities. Live calls go through Twilio's REST API with the `twilio` package (Calls
 * resource: create, update with TwiML `<Dial>` to transfer, update `status=completed` to hang up;
 * https://www.twilio.com/docs/voice/api/call-resource). Simulated (test-mode) calls never reach Twilio:
 * the workflow does not call `placeCall` for them, and transfer/hang-up are no-ops.
 *
 * Errors: Twilio 4xx (bad number, unverified caller id...) → `ApplicationFailure` type
 * `TelephonyRejected` (not retried); missing credentials → the same; 5xx and network errors are retried.
 */
import twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { TELEPHONY_REJECTED } from '../shared/calls';

const TWILIO_ORIGIN = 'https://api.twilio.com';

/** The `twilio` package's HTTP client, sending to `TWILIO_API_BASE_URL` instead of api.twilio.com. */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override request<TData>(opts: any) {
    const uri = String(opts.uri);
    return super.request<TData>({ ...opts, uri: uri.startsWith(TWILIO_ORIGIN) ? this.base + uri.slice(TWILIO_ORIGIN.length) : uri });
  }
}

/** The `twilio` REST client from the configuration (rebased on `TWILIO_API_BASE_URL`); src/activities/messaging.ts shares it. */
export function client() {
  const cfg = config();
  if (!cfg.twilioAccountSid || !cfg.twilioAuthToken) {
    throw ApplicationFailure.nonRetryable('Twilio is not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).', TELEPHONY_REJECTED);
  }
  return twilio(cfg.twilioAccountSid, cfg.twilioAuthToken, cfg.twilioApiBaseUrl ? { httpClient: new RebasedRequestClient(cfg.twilioApiBaseUrl) } : {});
}

async function twilioCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429) {
      throw ApplicationFailure.nonRetryable(`Twilio refused the request (${status}): ${(err as Error).message}`, TELEPHONY_REJECTED);
    }
    throw err;
  }
}


/**
 * Places a live call: Twilio fetches its TwiML from `<PUBLIC_BASE_URL>/twilio/voice/<call id>` once
 * answered and reports progress to `<PUBLIC_BASE_URL>/twilio/status/<call id>`.
 * @returns Twilio's Call SID (`CA…`)
 */
export async function placeCall(input: { callId: string; to: string; from: string | null }): Promise<{ providerCallSid: string }> {
  const base = config().publicBaseUrl;
  if (!input.from) throw ApplicationFailure.nonRetryable('A live call needs `from`.', TELEPHONY_REJECTED);
  const call = await twilioCall(() =>
    client().calls.create({
      to: input.to,
      from: input.from!,
      url: `${base}/twilio/voice/${input.callId}`,
      statusCallback: `${base}/twilio/status/${input.callId}`,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallbackMethod: 'POST',
    }),
  );
  return { providerCallSid: call.sid };
}

/** Transfers a live call with TwiML `<Dial>`; a no-op for a simulated call. */
export async function transferCall(input: { callId: string; livemode: boolean; providerCallSid: string | null; to: string }): Promise<void> {
  if (!input.providerCallSid) return;
  const response = new twilio.twiml.VoiceResponse();
  const dial = response.dial();
  if (input.to.startsWith('sip:')) dial.sip(input.to);
  else if (input.to.startsWith('client:')) dial.client(input.to.slice('client:'.length));
  else dial.number(input.to);
  await twilioCall(() => client().calls(input.providerCallSid!).update({ twiml: response.toString() }));
}

/** Hangs up a live call; a no-op for a simulated call. A call Twilio already ended is not an error. */
export async function hangUpCall(input: { callId: string; livemode: boolean; providerCallSid: string | null }): Promise<void> {
  if (!input.providerCallSid) return;
  try {
    await twilioCall(() => client().calls(input.providerCallSid!).update({ status: 'completed' }));
  } catch (err) {
    if (err instanceof ApplicationFailure && err.type === TELEPHONY_REJECTED) return; // already over
    throw err;
  }
}
