/**
 * Twilio's REST client (the `twilio` package), built from the configuration. Twilio's request signatures
 * and TwiML builders are used straight from the package where they are needed (src/api/twilio/index.ts).
 */
import twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { TELEPHONY_REJECTED } from '../shared/calls';
import type { SpeechSettings } from '../shared/speech';

/** The attributes of TwiML `<ConversationRelay>` as the `twilio` package types them. */
type ConversationRelayAttributes = Parameters<
  ReturnType<twilio.twiml.VoiceResponse['connect']>['conversationRelay']
>[0];

const TWILIO_ORIGIN = 'https://api.twilio.com';

/** The `twilio` package's HTTP client, sending to `TWILIO_API_BASE_URL` instead of api.twilio.com. */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(
    private readonly base: string,
    timeout: number,
  ) {
    super({ timeout });
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override request<TData>(opts: any) {
    const uri = String(opts.uri);
    return super.request<TData>({
      ...opts,
      uri: uri.startsWith(TWILIO_ORIGIN) ? this.base + uri.slice(TWILIO_ORIGIN.length) : uri,
    });
  }
}

/**
 * The `twilio` REST client from the configuration (rebased on `TWILIO_API_BASE_URL`, requests time out after
 * `TWILIO_TIMEOUT_MS`): calls in src/activities/telephony.ts, messages in src/activities/messaging.ts.
 * @throws ApplicationFailure type `TelephonyRejected` (not retried) when TWILIO_ACCOUNT_SID or
 *   TWILIO_AUTH_TOKEN is missing
 */
export function client() {
  const cfg = config();
  if (!cfg.twilioAccountSid || !cfg.twilioAuthToken) {
    throw ApplicationFailure.nonRetryable(
      'Twilio is not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).',
      TELEPHONY_REJECTED,
    );
  }
  const httpClient = cfg.twilioApiBaseUrl
    ? new RebasedRequestClient(cfg.twilioApiBaseUrl, cfg.twilioTimeoutMs)
    : new twilio.RequestClient({ timeout: cfg.twilioTimeoutMs });
  return twilio(cfg.twilioAccountSid, cfg.twilioAuthToken, { httpClient });
}

/**
 * Adds `<Dial>` to `to` to a TwiML response: an E.164 number, a `sip:` URI or a `client:` identity
 * (https://www.twilio.com/docs/voice/twiml/dial). Used to transfer a call and to forward an inbound call
 * to its number's `overflow_to`.
 */
export function dialTo(response: twilio.twiml.VoiceResponse, to: string): void {
  const dial = response.dial();
  if (to.startsWith('sip:')) dial.sip(to);
  else if (to.startsWith('client:')) dial.client(to.slice('client:'.length));
  else dial.number(to);
}

/**
 * The `<ConversationRelay>` attributes of an agent's speech settings (issue 31; src/shared/speech.ts;
 * https://www.twilio.com/docs/voice/twiml/connect/conversationrelay): `voice` → `ttsProvider` and
 * `voice`, `language` → `language` (synthesis and recognition), `transcription` → `transcriptionProvider`
 * and `hints` (comma-separated), `interruptible` → `interruptible` (`any`, `speech`, `none`; the welcome
 * greeting likewise: `welcomeGreetingInterruptible`), `dtmf` → `dtmfDetection`. Unset settings add
 * nothing (ConversationRelay's defaults).
 */
export function conversationRelayAttributes(speech: SpeechSettings): ConversationRelayAttributes {
  const { voice, language, transcription, interruptible, dtmf } = speech;
  return {
    ...(voice ? { ttsProvider: voice.provider, voice: voice.voice_id } : {}),
    ...(language ? { language } : {}),
    ...(transcription ? { transcriptionProvider: transcription.provider } : {}),
    ...(transcription?.hints?.length ? { hints: transcription.hints.join(',') } : {}),
    ...(interruptible ? { interruptible, welcomeGreetingInterruptible: interruptible } : {}),
    ...(dtmf !== undefined ? { dtmfDetection: dtmf } : {}),
  };
}

/**
 * A recording's audio at Twilio as WAV (`GET /2010-04-01/Accounts/{AccountSid}/Recordings/{Sid}.wav`,
 * HTTP basic auth with the account's credentials, as Twilio requires when recordings are protected;
 * https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file), from
 * `TWILIO_API_BASE_URL` when set. The URL is built from the SID, never taken from a callback.
 * @throws ApplicationFailure `TelephonyRejected` when Twilio is not configured or answers 4xx (not
 *   retried); Error for 5xx and network errors (retried)
 */
export async function fetchRecordingAudio(recordingSid: string): Promise<ReadableStream<Uint8Array>> {
  const cfg = config();
  if (!cfg.twilioAccountSid || !cfg.twilioAuthToken) client(); // throws the configuration failure
  const base = cfg.twilioApiBaseUrl ?? TWILIO_ORIGIN;
  const res = await fetch(`${base}/2010-04-01/Accounts/${cfg.twilioAccountSid}/Recordings/${recordingSid}.wav`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${cfg.twilioAccountSid}:${cfg.twilioAuthToken}`).toString('base64')}`,
    },
    signal: AbortSignal.timeout(Math.max(cfg.twilioTimeoutMs, 60_000)),
  });
  if (res.status >= 400 && res.status < 500 && res.status !== 429)
    throw ApplicationFailure.nonRetryable(`Twilio refused the recording's media (${res.status}).`, TELEPHONY_REJECTED);
  if (!res.ok || !res.body) throw new Error(`Twilio answered ${res.status} for the recording's media.`);
  return res.body;
}

/**
 * Deletes a recording at Twilio (Recordings resource `remove`); one already gone (404) is not an error.
 * @throws like `client()`, and the package's error for other failures
 */
export async function deleteTwilioRecording(recordingSid: string): Promise<void> {
  try {
    await client().recordings(recordingSid).remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}
