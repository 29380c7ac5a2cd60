/**
 * Process configuration, read once from the environment (DESIGN.md section 4).
 *
 * Every value has an embedded default so that `npm start` works on a fresh machine; production sets
 * `MONGODB_URI`, `TEMPORAL_ADDRESS`, `OPENAI_*` and `TWILIO_*`. `loadConfig()` never throws on a missing
 * optional value; it throws `Error` naming the variable for a value that is present but malformed.
 */
import net from 'node:net';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { loadPriceTable, type PriceTable } from './pricing/prices';

export interface Config {
  /** API listen port (`PORT`, default 3000). */
  port: number;
  /** Public base URL of the API, used in Twilio callback URLs (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Directory for embedded server data (`DATA_DIR`, default `.data`), absolute. */
  dataDir: string;
  /** MongoDB connection string (`MONGODB_URI`); undefined means "start embedded FerretDB". */
  mongodbUri?: string;
  /** Temporal frontend `host:port` (`TEMPORAL_ADDRESS`); undefined means "start the dev server". */
  temporalAddress?: string;
  /** Temporal namespace (`TEMPORAL_NAMESPACE`, default `default`). */
  temporalNamespace: string;
  /** Temporal Cloud API key (`TEMPORAL_API_KEY`); turns TLS on. */
  temporalApiKey?: string;
  /** Use TLS to reach Temporal (`TEMPORAL_TLS=1`, implied by an API key). */
  temporalTls: boolean;
  /** Task queue that the worker polls (`TEMPORAL_TASK_QUEUE`, default `svc-main`). */
  taskQueue: string;
  /** OpenAI-compatible endpoint (`OPENAI_BASE_URL`); undefined with no key means "start the demo model". */
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  /** Default chat model (`OPENAI_MODEL`, default `gpt-4o-mini`); an agent's `model` overrides it. */
  openaiModel: string;
  /**
   * The model playing persona callers in test mode (`SIMULATOR_MODEL`; absent: `openaiModel`).
   */
  simulatorModel?: string;
  /** The model judging test-suite scenarios (`JUDGE_MODEL`; absent: `openaiModel`). */
  judgeModel?: string;
  /**
   * Embedding model of knowledge chunks (`OPENAI_EMBEDDING_MODEL`, e.g. `text-embedding-3-small`); absent:
   * knowledge is searched by BM25 only (src/providers/embeddings.ts).
   */
  openaiEmbeddingModel?: string;
  /** Its OpenAI-compatible endpoint (`OPENAI_EMBEDDING_BASE_URL`; absent: `OPENAI_BASE_URL`). */
  openaiEmbeddingBaseUrl?: string;
  /** Its API key (`OPENAI_EMBEDDING_API_KEY`; absent: `OPENAI_API_KEY`). */
  openaiEmbeddingApiKey?: string;
  twilioAccountSid?: string;
  twilioAuthToken?: string;
  /**
   * Base URL of Twilio's REST API (`TWILIO_API_BASE_URL`, default `https://api.twilio.com`): an HTTP proxy
   * or a Twilio-shaped test server. The `twilio` package builds the request; only the origin changes.
   */
  twilioApiBaseUrl?: string;
  /** Timeout of one request to Twilio's REST API, ms (`TWILIO_TIMEOUT_MS`, default 10000); a timed-out request is retried. */
  twilioTimeoutMs: number;
  /**
   * How long a request executing under an Idempotency-Key holds it between renewals, ms
   * (`IDEMPOTENCY_LEASE_MS`, default 8000; renewed every third of it while the request runs): a retry takes
   * over the key of a request whose API process died within this long (within 10 s).
   */
  idempotencyLeaseMs: number;
  /** How long the assistant may take to answer one turn of a call, ms (`CALL_TURN_DEADLINE_MS`, default 8000). */
  callTurnDeadlineMs: number;
  /**
   * Requests one API key may make per rate-limit window (`API_RATE_LIMIT`, default 100, as Stripe's live
   * mode allows per second; 0 turns the limit off), counted in the store across every API process.
   */
  apiRateLimit: number;
  /** The rate-limit window, ms (`API_RATE_LIMIT_WINDOW_MS`, default 1000). */
  apiRateLimitWindowMs: number;
  /**
   * Address the API listens on for the assistant's streamed words of live calls (`RELAY_STREAM_HOST`,
   * default 127.0.0.1, any free port): workers stream an answer's tokens there to the process holding the
   * call's ConversationRelay (src/voice/relay.ts). Set it to an address workers can reach when they
   * run on other hosts than the API; an address other than loopback needs `RELAY_STREAM_TLS_CERT` and
   * `RELAY_STREAM_TLS_KEY` (`loadConfig` throws without them).
   */
  relayStreamHost: string;
  /**
   * Shared secret of the token channel's signatures (`RELAY_STREAM_SECRET`, the same for every API and
   * worker process; default: derived from `SECRETS_KEY`). src/voice/relay.ts `relaySignature`.
   */
  relayStreamSecret?: string;
  /**
   * PEM certificate and key files of the token channel's HTTPS listener (`RELAY_STREAM_TLS_CERT`,
   * `RELAY_STREAM_TLS_KEY`); required when `RELAY_STREAM_HOST` is not loopback. Workers trust Node's
   * roots and, when they have the file too, `RELAY_STREAM_TLS_CERT` itself (a self-signed certificate).
   */
  relayStreamTlsCert?: string;
  relayStreamTlsKey?: string;
  /**
   * Key that encrypts stored secrets (`SECRETS_KEY`: any string of at least 32 characters, e.g. 32 random
   * bytes in hex). Required by the API and the worker; `npm start` generates one under `DATA_DIR`.
   */
  secretsKey?: string;
  /**
   * Earlier values of `SECRETS_KEY` (`SECRETS_KEY_PREVIOUS`, comma-separated), kept after a rotation so
   * that workflow payloads encrypted under them still decode (src/platform/payload-codec.ts).
   */
  secretsKeyPrevious: string[];
  /**
   * Operator token of the codec server (`CODEC_TOKEN`, at least `MIN_CODEC_TOKEN_LENGTH` characters:
   * `loadConfig` throws on a shorter one): `POST /codec/decode` and `/codec/encode` answer 401 without it
   * (src/api/codec.ts); unset, they refuse every request. `npm start` generates one.
   */
  codecToken?: string;
  /** Origins of the Temporal Web UI allowed to call the codec server (`CODEC_CORS_ORIGINS`, comma-separated). */
  codecCorsOrigins: string[];
  /**
   * The codec server's own listener (`CODEC_PORT`; unset: it is served on the API's `PORT`, as before):
   * set, `/codec` leaves the public API and is served only on `CODEC_HOST` (default 127.0.0.1):`CODEC_PORT`.
   */
  codecPort?: number;
  codecHost: string;
  /** Codec server requests per client address per minute, across API processes (`CODEC_RATE_LIMIT`, default 3000; 0 off). */
  codecRateLimit: number;
  /**
   * The Temporal Web UI's address (`TEMPORAL_UI_URL`, default `http://localhost:8233`, the dev server's):
   * the staff console links a call's page to its run there. `npm start` sets the UI it
   * started (`TEMPORAL_UI_PORT`).
   */
  temporalUiUrl: string;
  /**
   * The tracing backend's page of one trace (`TRACES_URL_TEMPLATE`, an http(s) URL containing
   * `{trace_id}`, e.g. `http://localhost:16686/trace/{trace_id}` for Jaeger): the staff console links a
   * call's page to its trace. Unset: no link. `npm start -- --traces` sets its Jaeger's.
   */
  tracesUrlTemplate?: string;
  /** Days an audit entry is kept (`AUDIT_RETENTION_DAYS`, default 365). */
  auditRetentionDays: number;
  /** Allow webhook URLs that resolve to loopback/private addresses (`WEBHOOK_ALLOW_PRIVATE=1`). */
  webhookAllowPrivate: boolean;
  /**
   * Ports no outbound request of a tenant's (webhook, tool, MCP server, connector) may go to, whatever the
   * host (`WEBHOOK_REFUSED_PORTS`, comma-separated, `none` for none; default: the Temporal frontend's port
   * (7233), its Web UI's (8233), the store's (27017) and the worker's metrics port, as configured).
   * src/providers/webhook-address.ts.
   */
  webhookRefusedPorts: number[];
  /**
   * Let knowledge crawls fetch from loopback addresses (`KNOWLEDGE_CRAWL_ALLOW_LOOPBACK=1`; tests and
   * local development): only loopback, every other non-public address (private, link-local, metadata…)
   * stays refused, unlike `WEBHOOK_ALLOW_PRIVATE`. src/services/knowledge-fetch.ts.
   */
  knowledgeCrawlAllowLoopback: boolean;
  /** Time limit of one page fetch of a knowledge crawl, redirects and body included (`KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS`, default 20,000). */
  knowledgeCrawlPageTimeoutMs: number;
  /**
   * Task queue of `webhookDeliveryWorkflow` (`WEBHOOK_TASK_QUEUE`); undefined means `taskQueue`. Set it
   * to keep slow webhook endpoints away from call traffic, and run a worker with that TEMPORAL_TASK_QUEUE.
   */
  webhookTaskQueue?: string;
  /** First retry delay of a failed webhook attempt, ms (`WEBHOOK_RETRY_INITIAL_INTERVAL_MS`, default 5000; doubles per retry). */
  webhookRetryInitialIntervalMs: number;
  /** Longest delay between two webhook attempts, ms (`WEBHOOK_RETRY_MAX_INTERVAL_MS`, default 1 hour). */
  webhookRetryMaxIntervalMs: number;
  /** How long a webhook delivery is retried before it is marked failed, ms (`WEBHOOK_RETRY_WINDOW_MS`, default 3 days). */
  webhookRetryWindowMs: number;
  /**
   * PEM file of extra CA certificates trusted for webhook deliveries only (`WEBHOOK_CA_FILE`), in addition to
   * Node's bundled roots and `NODE_EXTRA_CA_CERTS` (which Node reads only at process start).
   */
  webhookCaFile?: string;
  /** winston level (`LOG_LEVEL`, default `info`). */
  logLevel: string;
  /** Bearer token that `GET /metrics` requires (`METRICS_TOKEN`); unset: loopback clients only. */
  metricsToken?: string;
  /** Port of a worker process's own `/metrics` (`METRICS_WORKER_PORT`); unset: none (`npm start` serves them on the API). */
  metricsWorkerPort?: number;
  /** Contacts a bulk campaign's workflow run loads before it continues as new (`BULK_CALL_PAGE_SIZE`, default 100). */
  bulkCallPageSize: number;
  /** LiveKit server for widget voice rooms (`LIVEKIT_URL`, `wss://…`); unset: simulated rooms in test mode. */
  livekitUrl?: string;
  /** LiveKit API key and secret (`LIVEKIT_API_KEY`, `LIVEKIT_API_SECRET`) that sign room tokens (the visitor's and the assistant's). */
  livekitApiKey?: string;
  livekitApiSecret?: string;
  /** Speech-to-text model of voice rooms (`VOICE_STT_MODEL`, default `gpt-4o-mini-transcribe`; OpenAI's audio API at `OPENAI_BASE_URL`). */
  voiceSttModel: string;
  /** Text-to-speech model and voice of voice rooms (`VOICE_TTS_MODEL`, default `gpt-4o-mini-tts`; `VOICE_TTS_VOICE`, default `alloy`). */
  voiceTtsModel: string;
  voiceTtsVoice: string;
  /** The visitor's pause that ends an utterance in a voice room, ms (`VOICE_END_OF_TURN_MS`, default 600). */
  voiceEndOfTurnMs: number;
  /**
   * Express's `trust proxy` setting (`TRUST_PROXY`, default off), passed through: `true` (trust every hop),
   * a number of hops, or comma-separated addresses, subnets and the names `loopback`, `linklocal`,
   * `uniquelocal` (https://expressjs.com/en/guide/behind-proxies.html). With it, `X-Forwarded-For` from
   * those proxies gives the client's address that the widget's per-IP limits count.
   */
  trustProxy: boolean | number | string;
  /** Widget requests per organization and IP address per minute, across API processes (`WIDGET_RATE_LIMIT_IP`, default 120; 0 off). */
  widgetRateLimitIp: number;
  /** Widget requests per session per minute, across API processes (`WIDGET_RATE_LIMIT_SESSION`, default 60; 0 off). */
  widgetRateLimitSession: number;
  /** Period of the widget stream's heartbeat comment, ms (`WIDGET_STREAM_HEARTBEAT_MS`, default 15000). */
  widgetStreamHeartbeatMs: number;
  /**
   * How often an API process with open widget streams asks the store which conversations changed, ms
   * (`WIDGET_STREAM_POLL_MS`, default 200): one poll per process, whatever the number of streams.
   */
  widgetStreamPollMs: number;
  /**
   * Failed console sign-ins from one client IP address (any email) before each further attempt from it waits
   * a growing delay (`CONSOLE_SIGNIN_PER_IP`, default 10; 0 off). src/services/console-signin.ts.
   */
  consoleSigninPerIp: number;
  /**
   * Failed console sign-ins for one email from one IP address before each further attempt waits a growing
   * delay (`CONSOLE_SIGNIN_PER_EMAIL`, default 5; 0 off); 4 times as many from every address together
   * slow that email down for addresses it never signed in from. src/services/console-signin.ts.
   */
  consoleSigninPerEmail: number;
  /** A console session's absolute lifetime, however active, ms (`CONSOLE_SESSION_MAX_AGE_MS`, default 7 days). */
  consoleSessionMaxAgeMs: number;
  /** Open widget streams per session, across API processes (`WIDGET_STREAMS_PER_SESSION`, default 5; 0 off). */
  widgetStreamsPerSession: number;
  /** Open widget streams per organization and IP address (`WIDGET_STREAMS_PER_IP`, default 50; 0 off). */
  widgetStreamsPerIp: number;
  /** Open widget streams per organization (`WIDGET_STREAMS_PER_ORG`, default 2000; 0 off). */
  widgetStreamsPerOrg: number;
  /**
   * Open API streams (`GET /v1/calls/{id}/stream` and the console's stream), across API processes: per
   * API key or console user (`API_STREAMS_PER_KEY`, default 100), per client IP address
   * (`API_STREAMS_PER_IP`, default 200) and per organization (`API_STREAMS_PER_ORG`, default 1000); 0 turns
   * one off. Beyond, 429 `too_many_streams` with `Retry-After`.
   */
  apiStreamsPerKey: number;
  apiStreamsPerIp: number;
  apiStreamsPerOrg: number;

  // Spend a tenant cannot inflate (src/services/limits.ts).
  /**
   * Chat models an agent may name (`LLM_MODELS`, comma-separated; default `DEFAULT_LLM_MODELS`). The
   * configured `OPENAI_MODEL`, `SIMULATOR_MODEL` and `JUDGE_MODEL` are allowed besides.
   */
  llmModels: string[];
  /**
   * Each organization's daily caps (UTC days) unless `svcctl quotas set` gave it its own; 0 turns a cap
   * off: LLM tokens (`QUOTA_LLM_TOKENS_PER_DAY`, default 5,000,000), test-suite runs
   * (`QUOTA_TEST_SUITE_RUNS_PER_DAY`, default 200), analysis re-runs (`QUOTA_ANALYSIS_RERUNS_PER_DAY`, default 1,000).
   */
  quotaDefaults: { llmTokensPerDay: number; testSuiteRunsPerDay: number; analysisRerunsPerDay: number };
  /**
   * The operator's calling hours (`CALLING_HOURS`, `HH:MM-HH:MM` in the callee's local time, e.g.
   * `09:00-20:00`): narrows every country's default window (src/services/calling-hours.ts), never widens
   * it; null (default): the defaults alone.
   */
  callingHours: { start: string; end: string } | null;
  /**
   * What the dial gate does with a call outside calling hours (`CALLING_HOURS_ENFORCEMENT`): `enforce`
   * (default: held or refused) or `record` (checked and recorded on the call with `enforced: false`, then
   * dialed), for test rigs whose wall clock is any hour and whose Twilio is a fake: never in production.
   * Do-not-call is enforced whatever this says.
   */
  callingHoursEnforcement: 'enforce' | 'record';
  /**
   * The countries (ISO 3166-1 alpha-2) an organization may call besides those of its own numbers, until it
   * sets `dialing_permissions.allowed_countries` (`DEFAULT_ALLOWED_COUNTRIES`, comma-separated, e.g.
   * `US,CA`); default none: a live organization without numbers calls nowhere until it lists countries
   * (src/services/dialing-permissions.ts).
   */
  defaultAllowedCountries: string[];
  /**
   * The speech-to-speech engine (agents with `engine: "realtime"`: OpenAI's Realtime API over SIP,
   * https://platform.openai.com/docs/guides/realtime-sip); null when `OPENAI_REALTIME_PROJECT_ID` or
   * `OPENAI_WEBHOOK_SECRET` is missing (such agents are then refused at save time).
   */
  openaiRealtime: RealtimeConfig | null;
  /**
   * The price table costs are computed from (src/pricing/prices.ts): `PRICES_FILE`'s, else the default
   * table src/pricing/prices.default.json. Loaded with the configuration: a malformed file stops start-up.
   */
  prices: PriceTable;
}

/** The chat models of `LLM_MODELS` when it is not set: OpenAI's current chat models. */
export const DEFAULT_LLM_MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
] as const;

/** A daily cap from the environment: a non-negative integer (0: no cap). */
function quota(name: string, value: string | undefined, dflt: number): number {
  if (value === undefined || value === '') return dflt;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be an integer ≥ 0 (0: no cap), got "${value}"`);
  return n;
}

function bool(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be a boolean (1/0, true/false), got "${value}"`);
}

function int(name: string, value: string | undefined, dflt: number): number {
  if (value === undefined || value === '') return dflt;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

function ms(name: string, value: string | undefined, dflt: number): number {
  if (value === undefined || value === '') return dflt;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a positive number of milliseconds, got "${value}"`);
  return n;
}

function count(name: string, value: string | undefined, dflt: number): number {
  if (value === undefined || value === '') return dflt;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** Names Express's `trust proxy` takes besides addresses (proxy-addr's pre-defined subnets). */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `TRUST_PROXY` as Express's `trust proxy` takes it: off, `true`/`false`, a hop count, or addresses. */
function trustProxy(name: string, value: string | undefined): boolean | number | string {
  if (value === undefined || value === '') return false;
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  for (const entry of value.split(',').map((e) => e.trim())) {
    const [address, prefix, ...rest] = entry.split('/');
    const ok =
      PROXY_NAMES.includes(address) ||
      (net.isIP(address) !== 0 && rest.length === 0 && (prefix === undefined || /^\d{1,3}$/.test(prefix)));
    if (!ok)
      throw new Error(
        `${name} must be true, false, a number of hops, or comma-separated addresses, subnets or ${PROXY_NAMES.join('/')}, got "${value}"`,
      );
  }
  return value;
}

/** True for `localhost` and loopback addresses (127.0.0.0/8, `::1`, `::ffff:127.x.y.z`). */
export function isLoopbackHost(host: string): boolean {
  const plain = host.replace(/^\[(.*)\]$/, '$1');
  if (plain === 'localhost') return true;
  return net.isIP(plain) !== 0 && ipaddr.process(plain).range() === 'loopback';
}

/**
 * `RELAY_STREAM_HOST` (default 127.0.0.1): a host other than loopback needs `RELAY_STREAM_TLS_CERT` and
 * `RELAY_STREAM_TLS_KEY` (the streamed words of live calls never cross a network in clear).
 */
function relayHost(env: NodeJS.ProcessEnv): string {
  const host = opt(env.RELAY_STREAM_HOST) ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !(opt(env.RELAY_STREAM_TLS_CERT) && opt(env.RELAY_STREAM_TLS_KEY)))
    throw new Error(
      `RELAY_STREAM_HOST ${host} is not a loopback address: set RELAY_STREAM_TLS_CERT and RELAY_STREAM_TLS_KEY (PEM files) so that the token channel uses TLS`,
    );
  return host;
}

function opt(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Shortest `CODEC_TOKEN` accepted: 32 characters (as `SECRETS_KEY`), e.g. `openssl rand -hex 32`; a token
 * that opens every decrypted history must not be guessable.
 */
export const MIN_CODEC_TOKEN_LENGTH = 32;

/** `CODEC_TOKEN`: unset, or at least `MIN_CODEC_TOKEN_LENGTH` characters (else the process does not start). */
function codecToken(value: string | undefined): string | undefined {
  const token = opt(value);
  if (token !== undefined && token.length < MIN_CODEC_TOKEN_LENGTH)
    throw new Error(
      `CODEC_TOKEN is ${token.length} characters: it must be at least ${MIN_CODEC_TOKEN_LENGTH} (generate one with \`openssl rand -hex 32\`), or unset to turn the codec server off`,
    );
  return token;
}

/** `TRACES_URL_TEMPLATE`: unset, or an http(s) URL with `{trace_id}` in it (else the process does not start). */
function tracesUrlTemplate(value: string | undefined): string | undefined {
  const template = opt(value?.trim());
  if (template === undefined) return undefined;
  if (!template.includes('{trace_id}') || !/^https?:\/\/[^/]/.test(template) || !URL.canParse(template))
    throw new Error(
      `TRACES_URL_TEMPLATE must be an http(s) URL containing {trace_id} (e.g. http://localhost:16686/trace/{trace_id}), got ${JSON.stringify(template)}`,
    );
  return template;
}

/** The port of a `host:port` or a URL's first host (`mongodb://a:27018,b/…`), or `dflt` when it names none. */
function portOf(address: string | undefined, dflt: number): number {
  const m = /^(?:[a-z+]+:\/\/)?(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/,?]*)(?::(\d+))?/i.exec(address ?? '');
  return m?.[1] ? Number(m[1]) : dflt;
}

/**
 * `WEBHOOK_REFUSED_PORTS`: comma-separated ports, or `none`; absent, the ports of the service's own
 * infrastructure that a tenant's request must never reach (Temporal, its UI, the store, worker metrics).
 */
function refusedPorts(env: NodeJS.ProcessEnv): number[] {
  const raw = opt(env.WEBHOOK_REFUSED_PORTS);
  if (raw?.toLowerCase() === 'none') return [];
  if (raw !== undefined)
    return raw.split(',').map((p) => {
      const n = Number(p.trim());
      if (!Number.isInteger(n) || n < 1 || n > 65535)
        throw new Error(`WEBHOOK_REFUSED_PORTS must be comma-separated port numbers or "none", got "${raw}"`);
      return n;
    });
  const store = opt(env.MONGODB_URI)?.startsWith('mongodb+srv:')
    ? []
    : [portOf(opt(env.MONGODB_URI), Number(opt(env.FERRETDB_PORT) ?? 27017))];
  const metrics = opt(env.METRICS_WORKER_PORT) === undefined ? [] : [Number(env.METRICS_WORKER_PORT)];
  const ports = [
    portOf(opt(env.TEMPORAL_ADDRESS), Number(opt(env.TEMPORAL_DEV_PORT) ?? 7233)),
    Number(opt(env.TEMPORAL_UI_PORT) ?? 8233),
    ...store,
    ...metrics,
  ];
  return [...new Set(ports.filter((p) => Number.isInteger(p) && p > 0))].sort((a, b) => a - b);
}

/** `DEFAULT_ALLOWED_COUNTRIES`: ISO 3166-1 alpha-2 codes, comma-separated (upper-cased); absent: none. */
function countryList(raw: string | undefined): string[] {
  const codes = (raw ?? '')
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  for (const c of codes)
    if (!/^[A-Z]{2}$/.test(c))
      throw new Error(`DEFAULT_ALLOWED_COUNTRIES must list ISO 3166-1 alpha-2 codes (e.g. US,CA), got "${c}"`);
  return [...new Set(codes)];
}

/** `CALLING_HOURS`: `HH:MM-HH:MM` (24-hour, start before end, `24:00` allowed as the end); absent: null. */
function callingHoursWindow(value: string | undefined): { start: string; end: string } | null {
  const raw = opt(value);
  if (raw === undefined) return null;
  const m = /^(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})$/.exec(raw);
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const valid = (t: string) => t === '24:00' || (Number(t.slice(0, 2)) < 24 && Number(t.slice(3)) < 60);
  if (!m || !valid(m[1]) || !valid(m[2]) || minutes(m[1]) >= minutes(m[2]))
    throw new Error(`CALLING_HOURS must be HH:MM-HH:MM with the start before the end, got "${raw}"`);
  return { start: m[1], end: m[2] };
}

/** `CALLING_HOURS_ENFORCEMENT`: `enforce` (default) or `record`. */
function callingHoursEnforcement(value: string | undefined): 'enforce' | 'record' {
  const raw = opt(value) ?? 'enforce';
  if (raw !== 'enforce' && raw !== 'record')
    throw new Error(`CALLING_HOURS_ENFORCEMENT must be "enforce" or "record", got "${raw}"`);
  return raw;
}

/** The OpenAI project calls of the realtime engine are bridged to (`Config.openaiRealtime`). */
export interface RealtimeConfig {
  /** The project (`proj_…`) whose SIP URI the calls dial (`OPENAI_REALTIME_PROJECT_ID`). */
  projectId: string;
  /** The project's webhook secret (`OPENAI_WEBHOOK_SECRET`, `whsec_…`): incoming-call webhooks are verified with it. */
  webhookSecret: string;
  /** REST and WebSocket base (`OPENAI_REALTIME_BASE_URL`, default `https://api.openai.com/v1`). */
  baseUrl: string;
  /** API key of the project (`OPENAI_REALTIME_API_KEY`, else `OPENAI_API_KEY`). */
  apiKey: string;
  /** The speech-to-speech model (`OPENAI_REALTIME_MODEL`, default `gpt-realtime`). */
  model: string;
  /** The SIP host of the project's URI (`OPENAI_REALTIME_SIP_HOST`, default `sip.api.openai.com`). */
  sipHost: string;
  /**
   * Test rigs only: where a test-mode realtime call rings its simulated SIP leg
   * (`OPENAI_REALTIME_SIMULATOR_URL`, the loopback fake of test/support); unset, test-mode calls of
   * realtime agents run on the pipeline engine (`engine_fallback: "no_simulator"`).
   */
  simulatorUrl?: string;
}

/** `OPENAI_REALTIME_*` and `OPENAI_WEBHOOK_SECRET`: null unless the project and the secret are both set. */
function realtimeConfig(env: NodeJS.ProcessEnv): RealtimeConfig | null {
  const projectId = opt(env.OPENAI_REALTIME_PROJECT_ID);
  const webhookSecret = opt(env.OPENAI_WEBHOOK_SECRET);
  if (!projectId || !webhookSecret) return null;
  return {
    projectId,
    webhookSecret,
    baseUrl: (opt(env.OPENAI_REALTIME_BASE_URL) ?? 'https://api.openai.com/v1').replace(/\/+$/, ''),
    apiKey: opt(env.OPENAI_REALTIME_API_KEY) ?? opt(env.OPENAI_API_KEY) ?? 'not-set',
    model: opt(env.OPENAI_REALTIME_MODEL) ?? 'gpt-realtime',
    sipHost: opt(env.OPENAI_REALTIME_SIP_HOST) ?? 'sip.api.openai.com',
    simulatorUrl: opt(env.OPENAI_REALTIME_SIMULATOR_URL)?.replace(/\/+$/, ''),
  };
}

/** Reads the configuration from `env` (default `process.env`). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000);
  const temporalApiKey = opt(env.TEMPORAL_API_KEY);
  return {
    port,
    publicBaseUrl: (opt(env.PUBLIC_BASE_URL) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(opt(env.DATA_DIR) ?? '.data'),
    mongodbUri: opt(env.MONGODB_URI),
    temporalAddress: opt(env.TEMPORAL_ADDRESS),
    temporalNamespace: opt(env.TEMPORAL_NAMESPACE) ?? 'default',
    temporalApiKey,
    temporalTls: bool('TEMPORAL_TLS', env.TEMPORAL_TLS) || temporalApiKey !== undefined,
    taskQueue: opt(env.TEMPORAL_TASK_QUEUE) ?? 'svc-main',
    openaiBaseUrl: opt(env.OPENAI_BASE_URL),
    openaiApiKey: opt(env.OPENAI_API_KEY),
    openaiModel: opt(env.OPENAI_MODEL) ?? 'gpt-4o-mini',
    simulatorModel: opt(env.SIMULATOR_MODEL),
    judgeModel: opt(env.JUDGE_MODEL),
    openaiEmbeddingModel: opt(env.OPENAI_EMBEDDING_MODEL),
    openaiEmbeddingBaseUrl: opt(env.OPENAI_EMBEDDING_BASE_URL) ?? opt(env.OPENAI_BASE_URL),
    openaiEmbeddingApiKey: opt(env.OPENAI_EMBEDDING_API_KEY) ?? opt(env.OPENAI_API_KEY),
    twilioAccountSid: opt(env.TWILIO_ACCOUNT_SID),
    twilioAuthToken: opt(env.TWILIO_AUTH_TOKEN),
    twilioApiBaseUrl: opt(env.TWILIO_API_BASE_URL)?.replace(/\/+$/, ''),
    twilioTimeoutMs: ms('TWILIO_TIMEOUT_MS', env.TWILIO_TIMEOUT_MS, 10_000),
    idempotencyLeaseMs: ms('IDEMPOTENCY_LEASE_MS', env.IDEMPOTENCY_LEASE_MS, 8_000),
    callTurnDeadlineMs: ms('CALL_TURN_DEADLINE_MS', env.CALL_TURN_DEADLINE_MS, 8_000),
    apiRateLimit: env.API_RATE_LIMIT === '0' ? 0 : count('API_RATE_LIMIT', env.API_RATE_LIMIT, 100),
    apiRateLimitWindowMs: ms('API_RATE_LIMIT_WINDOW_MS', env.API_RATE_LIMIT_WINDOW_MS, 1_000),
    relayStreamHost: relayHost(env),
    relayStreamSecret: opt(env.RELAY_STREAM_SECRET),
    relayStreamTlsCert: opt(env.RELAY_STREAM_TLS_CERT),
    relayStreamTlsKey: opt(env.RELAY_STREAM_TLS_KEY),
    secretsKey: opt(env.SECRETS_KEY),
    secretsKeyPrevious: (env.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    codecToken: codecToken(env.CODEC_TOKEN),
    codecCorsOrigins: (env.CODEC_CORS_ORIGINS || 'http://localhost:8233,http://127.0.0.1:8233')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    codecPort: opt(env.CODEC_PORT) === undefined ? undefined : int('CODEC_PORT', env.CODEC_PORT, 0),
    codecHost: opt(env.CODEC_HOST) ?? '127.0.0.1',
    codecRateLimit: env.CODEC_RATE_LIMIT === '0' ? 0 : count('CODEC_RATE_LIMIT', env.CODEC_RATE_LIMIT, 3000),
    temporalUiUrl: (env.TEMPORAL_UI_URL || 'http://localhost:8233').replace(/\/+$/, ''),
    tracesUrlTemplate: tracesUrlTemplate(env.TRACES_URL_TEMPLATE),
    auditRetentionDays: count('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, 365),
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE),
    webhookRefusedPorts: refusedPorts(env),
    knowledgeCrawlAllowLoopback: bool('KNOWLEDGE_CRAWL_ALLOW_LOOPBACK', env.KNOWLEDGE_CRAWL_ALLOW_LOOPBACK),
    knowledgeCrawlPageTimeoutMs: ms('KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS', env.KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS, 20_000),
    webhookTaskQueue: opt(env.WEBHOOK_TASK_QUEUE),
    webhookRetryInitialIntervalMs: ms(
      'WEBHOOK_RETRY_INITIAL_INTERVAL_MS',
      env.WEBHOOK_RETRY_INITIAL_INTERVAL_MS,
      5_000,
    ),
    webhookRetryMaxIntervalMs: ms('WEBHOOK_RETRY_MAX_INTERVAL_MS', env.WEBHOOK_RETRY_MAX_INTERVAL_MS, 60 * 60 * 1000),
    webhookRetryWindowMs: ms('WEBHOOK_RETRY_WINDOW_MS', env.WEBHOOK_RETRY_WINDOW_MS, 3 * 24 * 60 * 60 * 1000),
    webhookCaFile: opt(env.WEBHOOK_CA_FILE),
    logLevel: opt(env.LOG_LEVEL) ?? 'info',
    metricsToken: opt(env.METRICS_TOKEN),
    metricsWorkerPort:
      opt(env.METRICS_WORKER_PORT) === undefined ? undefined : int('METRICS_WORKER_PORT', env.METRICS_WORKER_PORT, 0),
    bulkCallPageSize: count('BULK_CALL_PAGE_SIZE', env.BULK_CALL_PAGE_SIZE, 100),
    livekitUrl: opt(env.LIVEKIT_URL),
    livekitApiKey: opt(env.LIVEKIT_API_KEY),
    livekitApiSecret: opt(env.LIVEKIT_API_SECRET),
    voiceSttModel: opt(env.VOICE_STT_MODEL) ?? 'gpt-4o-mini-transcribe',
    voiceTtsModel: opt(env.VOICE_TTS_MODEL) ?? 'gpt-4o-mini-tts',
    voiceTtsVoice: opt(env.VOICE_TTS_VOICE) ?? 'alloy',
    voiceEndOfTurnMs: ms('VOICE_END_OF_TURN_MS', env.VOICE_END_OF_TURN_MS, 600),
    trustProxy: trustProxy('TRUST_PROXY', env.TRUST_PROXY),
    widgetRateLimitIp:
      env.WIDGET_RATE_LIMIT_IP === '0' ? 0 : count('WIDGET_RATE_LIMIT_IP', env.WIDGET_RATE_LIMIT_IP, 120),
    widgetRateLimitSession:
      env.WIDGET_RATE_LIMIT_SESSION === '0' ? 0 : count('WIDGET_RATE_LIMIT_SESSION', env.WIDGET_RATE_LIMIT_SESSION, 60),
    widgetStreamHeartbeatMs: ms('WIDGET_STREAM_HEARTBEAT_MS', env.WIDGET_STREAM_HEARTBEAT_MS, 15_000),
    widgetStreamPollMs: ms('WIDGET_STREAM_POLL_MS', env.WIDGET_STREAM_POLL_MS, 200),
    consoleSigninPerIp:
      env.CONSOLE_SIGNIN_PER_IP === '0' ? 0 : count('CONSOLE_SIGNIN_PER_IP', env.CONSOLE_SIGNIN_PER_IP, 10),
    consoleSigninPerEmail:
      env.CONSOLE_SIGNIN_PER_EMAIL === '0' ? 0 : count('CONSOLE_SIGNIN_PER_EMAIL', env.CONSOLE_SIGNIN_PER_EMAIL, 5),
    consoleSessionMaxAgeMs: ms('CONSOLE_SESSION_MAX_AGE_MS', env.CONSOLE_SESSION_MAX_AGE_MS, 7 * 24 * 3600_000),
    widgetStreamsPerSession:
      env.WIDGET_STREAMS_PER_SESSION === '0'
        ? 0
        : count('WIDGET_STREAMS_PER_SESSION', env.WIDGET_STREAMS_PER_SESSION, 5),
    widgetStreamsPerIp:
      env.WIDGET_STREAMS_PER_IP === '0' ? 0 : count('WIDGET_STREAMS_PER_IP', env.WIDGET_STREAMS_PER_IP, 50),
    widgetStreamsPerOrg:
      env.WIDGET_STREAMS_PER_ORG === '0' ? 0 : count('WIDGET_STREAMS_PER_ORG', env.WIDGET_STREAMS_PER_ORG, 2000),
    apiStreamsPerKey: env.API_STREAMS_PER_KEY === '0' ? 0 : count('API_STREAMS_PER_KEY', env.API_STREAMS_PER_KEY, 100),
    apiStreamsPerIp: env.API_STREAMS_PER_IP === '0' ? 0 : count('API_STREAMS_PER_IP', env.API_STREAMS_PER_IP, 200),
    apiStreamsPerOrg: env.API_STREAMS_PER_ORG === '0' ? 0 : count('API_STREAMS_PER_ORG', env.API_STREAMS_PER_ORG, 1000),
    llmModels: opt(env.LLM_MODELS)
      ?.split(',')
      .map((m) => m.trim())
      .filter(Boolean) ?? [...DEFAULT_LLM_MODELS],
    quotaDefaults: {
      llmTokensPerDay: quota('QUOTA_LLM_TOKENS_PER_DAY', env.QUOTA_LLM_TOKENS_PER_DAY, 5_000_000),
      testSuiteRunsPerDay: quota('QUOTA_TEST_SUITE_RUNS_PER_DAY', env.QUOTA_TEST_SUITE_RUNS_PER_DAY, 200),
      analysisRerunsPerDay: quota('QUOTA_ANALYSIS_RERUNS_PER_DAY', env.QUOTA_ANALYSIS_RERUNS_PER_DAY, 1000),
    },
    callingHours: callingHoursWindow(env.CALLING_HOURS),
    callingHoursEnforcement: callingHoursEnforcement(env.CALLING_HOURS_ENFORCEMENT),
    defaultAllowedCountries: countryList(env.DEFAULT_ALLOWED_COUNTRIES),
    openaiRealtime: realtimeConfig(env),
    prices: loadPriceTable(opt(env.PRICES_FILE)),
  };
}

/** The chat models an agent may name: `LLM_MODELS` and the models the operator configured. */
export function allowedModels(cfg: Config = config()): string[] {
  return [
    ...new Set([
      ...cfg.llmModels,
      cfg.openaiModel,
      ...[cfg.simulatorModel, cfg.judgeModel].filter((m) => m !== undefined),
    ]),
  ];
}

/** True when the service can place live calls (Twilio credentials are set). */
export function telephonyConfigured(cfg: Config = config()): boolean {
  return Boolean(cfg.twilioAccountSid && cfg.twilioAuthToken);
}

let current: Config | undefined;

/** The process-wide configuration (loaded on first use; `setConfig` replaces it, for tests and `npm start`). */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/** Replaces the process-wide configuration (the dev launcher fills in embedded servers' addresses). */
export function setConfig(next: Config): void {
  current = next;
}

/** API version label of the specification (section 9), sent as `Svc-Version` and stamped on events. */
export const API_VERSION = '2026-10-04';
