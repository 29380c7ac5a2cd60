/**
 * Twilio's REST client (the `twilio` package), built from the configuration. Twilio's request signatures
 * and TwiML builders are used straight from the package where they are needed (src/api/twilio/index.ts).
 */
import twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { twilioRequestDuration, twilioRequestErrors } from '../platform/metrics';
import { SpanKind, withSpan } from '../platform/tracing';
import { TELEPHONY_REJECTED } from '../shared/calls';
import type { SpeechSettings } from '../shared/speech';
import type { TurnTaking } from '../shared/turn-taking';

/** The attributes of TwiML `<ConversationRelay>` as the `twilio` package types them. */
type ConversationRelayAttributes = Parameters<
  ReturnType<twilio.twiml.VoiceResponse['connect']>['conversationRelay']
>[0];

const TWILIO_ORIGIN = 'https://api.twilio.com';
/** The Voice v1 API's origin (BYOC trunks, Connection Policies: src/providers/twilio-byoc.ts). */
const TWILIO_VOICE_ORIGIN = 'https://voice.twilio.com';

/**
 * The resource a Twilio REST URL names, for metric labels: the last path segment that is not an id
 * (`/2010-04-01/Accounts/AC…/Calls/CA….json` → `Calls`, `…/Recordings/RE….wav` → `Recordings`).
 */
export function twilioResource(uri: string): string {
  let pathname: string;
  try {
    pathname = new URL(uri).pathname;
  } catch {
    return 'other';
  }
  const names = pathname
    .split('/')
    .map((s) => s.replace(/\.(json|wav|mp3)$/, ''))
    .filter((s) => /^[A-Z][A-Za-z]+$/.test(s)); // ids (`CA…`) have digits
  return names.at(-1) ?? 'other';
}

/** The host of `uri` (`server.address`), or `other` when it is no URL. */
const hostOf = (uri: string) => URL.parse(uri)?.hostname ?? 'other';

/**
 * Times one Twilio request (`svc_twilio_request_duration_seconds`) and counts it if it failed; with
 * tracing on, it is a CLIENT span `twilio <METHOD> <resource>` (`http.request.method`, `twilio.resource`,
 * `http.response.status_code`, `server.address`; no URL: it carries the account and call ids).
 */
export async function measureTwilio<T>(method: string, uri: string, send: () => Promise<T>, status: (r: T) => number) {
  const started = process.hrtime.bigint();
  const resource = twilioResource(uri);
  const verb = method.toUpperCase();
  let code = 'network';
  try {
    return await withSpan(
      `twilio ${verb} ${resource}`,
      { 'http.request.method': verb, 'twilio.resource': resource, 'server.address': hostOf(uri) },
      async (span) => {
        const result = await send();
        code = String(status(result));
        span?.setAttribute('http.response.status_code', Number(code));
        return result;
      },
      SpanKind.CLIENT,
    );
  } finally {
    twilioRequestDuration.observe(
      { method: method.toUpperCase(), resource, status: code },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    if (code === 'network' || Number(code) >= 400) twilioRequestErrors.inc({ resource, status: code });
  }
}

/**
 * The `twilio` package's HTTP client, measured (`measureTwilio`), and sending to `base`
 * (`TWILIO_API_BASE_URL`) instead of api.twilio.com when set; the Voice v1 API (voice.twilio.com, whose
 * paths `/v1/…` never meet the 2010 API's `/2010-04-01/…`) goes to the same base, so one Twilio-shaped
 * server (or proxy) serves both.
 */
class MeasuredRequestClient extends twilio.RequestClient {
  constructor(
    private readonly base: string | undefined,
    timeout: number,
  ) {
    super({ timeout });
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override request<TData>(opts: any) {
    const given = String(opts.uri);
    const origin = [TWILIO_ORIGIN, TWILIO_VOICE_ORIGIN].find((o) => given.startsWith(o + '/'));
    const uri = this.base && origin ? this.base + given.slice(origin.length) : given;
    return measureTwilio(
      String(opts.method ?? 'GET'),
      uri,
      () => super.request<TData>({ ...opts, uri }),
      (r) => r.statusCode,
    );
  }
}

/**
 * Credentials acting in one Twilio account: the account's SID and auth token (`username` = the account
 * SID), or an API key's SID (`SK…`) and secret with the account it belongs to
 * (https://www.twilio.com/docs/iam/api-keys: an API key authenticates REST requests, never signs webhooks).
 */
export interface TwilioCredentials {
  /** The account the requests act in (`AC…`): the path's `{AccountSid}`. */
  accountSid: string;
  /** HTTP basic auth user: the account SID, or an API key SID (`SK…`). */
  username: string;
  /** HTTP basic auth password: the account's auth token, or the API key's secret. */
  password: string;
}

/**
 * The platform account's credentials (`TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`).
 * @throws ApplicationFailure type `TelephonyRejected` (not retried) when either is missing
 */
export function platformCredentials(): TwilioCredentials {
  const cfg = config();
  if (!cfg.twilioAccountSid || !cfg.twilioAuthToken) {
    throw ApplicationFailure.nonRetryable(
      'Twilio is not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).',
      TELEPHONY_REJECTED,
    );
  }
  return { accountSid: cfg.twilioAccountSid, username: cfg.twilioAccountSid, password: cfg.twilioAuthToken };
}

/**
 * A `twilio` REST client acting in `creds.accountSid` with `creds` (rebased on `TWILIO_API_BASE_URL`,
 * requests time out after `TWILIO_TIMEOUT_MS`, each one timed in `svc_twilio_request_duration_seconds`).
 * With an API key the package's `accountSid` option names the account
 * (https://www.twilio.com/docs/iam/api-keys#authenticate-with-api-keys).
 */
export function clientWith(creds: TwilioCredentials): twilio.Twilio {
  const cfg = config();
  const httpClient = new MeasuredRequestClient(cfg.twilioApiBaseUrl, cfg.twilioTimeoutMs);
  return twilio(creds.username, creds.password, { httpClient, accountSid: creds.accountSid });
}

/**
 * The `twilio` REST client of the platform account (`clientWith(platformCredentials())`): the parent of
 * the organizations' subaccounts (src/services/telephony-accounts.ts); an organization's live calls and
 * messages use that organization's client instead.
 * @throws ApplicationFailure type `TelephonyRejected` (not retried) when TWILIO_ACCOUNT_SID or
 *   TWILIO_AUTH_TOKEN is missing
 */
export function client(): twilio.Twilio {
  return clientWith(platformCredentials());
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
 * The `<ConversationRelay>` attributes of an agent's speech settings (src/shared/speech.ts;
 * https://www.twilio.com/docs/voice/twiml/connect/conversationrelay): `voice` → `ttsProvider` and
 * `voice`, `language` → `language` (synthesis and recognition), `transcription` → `transcriptionProvider`
 * and `hints` (comma-separated), `interruptible` → `interruptible` (`any`, `speech`, `none`; the welcome
 * greeting likewise: `welcomeGreetingInterruptible`), `dtmf` → `dtmfDetection`. Unset settings add
 * nothing (ConversationRelay's defaults). `turn_taking` (src/shared/turn-taking.ts) adds its pipeline
 * settings (`turnTakingAttributes`), its `interruptible` taking precedence over the older one.
 */
export function conversationRelayAttributes(speech: SpeechSettings): ConversationRelayAttributes {
  const { voice, language, transcription, interruptible, dtmf, turn_taking: turnTaking } = speech;
  const hints = [...(transcription?.hints ?? []), ...(turnTaking?.hints ?? [])];
  return {
    ...(voice ? { ttsProvider: voice.provider, voice: voice.voice_id } : {}),
    ...(language ? { language } : {}),
    ...(transcription ? { transcriptionProvider: transcription.provider } : {}),
    ...(hints.length ? { hints: hints.join(',') } : {}),
    ...(interruptible ? { interruptible, welcomeGreetingInterruptible: interruptible } : {}),
    ...(dtmf !== undefined ? { dtmfDetection: dtmf } : {}),
    ...(turnTaking ? turnTakingAttributes(turnTaking) : {}),
  };
}

/**
 * The pipeline settings of an agent's `turn_taking` as `<ConversationRelay>` attributes (the names the
 * `twilio` package's `ConversationRelayAttributes` types): `interruptible` (`none`, `dtmf`, `speech`,
 * `any`) for answers and the welcome greeting, `preemptible`, `interrupt_sensitivity` →
 * `interruptSensitivity`, `speech_model` → `speechModel`. Hints are joined by `conversationRelayAttributes`.
 */
function turnTakingAttributes(t: TurnTaking): ConversationRelayAttributes {
  return {
    ...(t.interruptible ? { interruptible: t.interruptible, welcomeGreetingInterruptible: t.interruptible } : {}),
    ...(t.preemptible !== undefined ? { preemptible: t.preemptible } : {}),
    ...(t.interrupt_sensitivity ? { interruptSensitivity: t.interrupt_sensitivity } : {}),
    ...(t.speech_model ? { speechModel: t.speech_model } : {}),
  };
}

/**
 * A recording's audio at Twilio as WAV (`GET /2010-04-01/Accounts/{AccountSid}/Recordings/{Sid}.wav`,
 * HTTP basic auth with the credentials of the account the recording is in (`creds`, the platform's by
 * default), as Twilio requires when recordings are protected;
 * https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file), from
 * `TWILIO_API_BASE_URL` when set. The URL is built from the SID, never taken from a callback.
 * @throws ApplicationFailure `TelephonyRejected` when Twilio is not configured or answers 4xx (not
 *   retried); Error for 5xx and network errors (retried)
 */
export async function fetchRecordingAudio(
  recordingSid: string,
  creds: TwilioCredentials = platformCredentials(),
): Promise<ReadableStream<Uint8Array>> {
  const cfg = config();
  const base = cfg.twilioApiBaseUrl ?? TWILIO_ORIGIN;
  const url = `${base}/2010-04-01/Accounts/${creds.accountSid}/Recordings/${recordingSid}.wav`;
  const res = await measureTwilio(
    'GET',
    url,
    () =>
      fetch(url, {
        headers: {
          authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
        },
        signal: AbortSignal.timeout(Math.max(cfg.twilioTimeoutMs, 60_000)),
      }),
    (r) => r.status,
  );
  if (res.status >= 400 && res.status < 500 && res.status !== 429)
    throw ApplicationFailure.nonRetryable(`Twilio refused the recording's media (${res.status}).`, TELEPHONY_REJECTED);
  if (!res.ok || !res.body) throw new Error(`Twilio answered ${res.status} for the recording's media.`);
  return res.body;
}

/**
 * Deletes a recording at Twilio (Recordings resource `remove`) in the account of `creds` (the platform's
 * by default); one already gone (404) is not an error.
 * @throws like `client()`, and the package's error for other failures
 */
export async function deleteTwilioRecording(
  recordingSid: string,
  creds: TwilioCredentials = platformCredentials(),
): Promise<void> {
  try {
    await clientWith(creds).recordings(recordingSid).remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}
