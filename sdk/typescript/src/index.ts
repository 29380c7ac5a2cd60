/**
 * The official TypeScript SDK of the svc-assistant API, in Stripe's shape: the types `openapi-typescript`
 * generates from the API's OpenAPI document (./generated/schema.ts), the resource layer our generator
 * writes from that document and sdk/operations.json (./generated/resources.ts: one method per operation,
 * `svc.calls.create`, `svc.bulkCalls.results.list`, `svc.agents.versions.publish`, …), and this file, the
 * hand-written core both call through (never generated).
 *
 *   const svc = new Svc({ apiKey: process.env.SVC_API_KEY!, baseUrl: 'http://localhost:3000' });
 *   const call = await svc.calls.create({ to: '+14155550123', agent_id: agent.id });
 *   for await (const c of svc.calls.list({ status: 'completed' })) console.log(c.id);
 *   const event = Svc.webhooks.constructEvent(rawBody, req.headers['svc-signature'], secret);
 *
 * What the core adds to plain `fetch`:
 * - **Retries** of 408, 409 `idempotency_key_in_use`, 429, 5xx and network failures, `maxRetries` times
 *   (default 2) with exponential backoff and jitter (0.5 s doubling, at most 8 s), or after `Retry-After`
 *   (seconds or an HTTP date) when the server says so. Every POST carries an `Idempotency-Key` generated
 *   once per logical request (or yours, `{ idempotencyKey }`) and reused by its retries, so a retried
 *   create never creates twice (the API keeps keys 24 hours).
 * - **Per-request options** ({@link RequestOptions}): timeout, API key, idempotency key, `Svc-Version`,
 *   retries, an `AbortSignal`.
 * - **Auto-pagination**: a list method resolves to one page (`{ data, has_more }`) and is also an async
 *   iterable over every object of every page (`starting_after` cursors), as Stripe's `autoPagingEach`.
 * - **Event streams** (`svc.calls.stream(id)`): an async iterable of typed server-sent events.
 * - **Typed errors** by the error's `type` ({@link InvalidRequestError}, {@link AuthenticationError}, …),
 *   each with `code` (typed: the codes the document lists), `param`, `statusCode` and `requestId`.
 * - **Webhook verification** of the `Svc-Signature` header (`t=<unix>,v1=<hex HMAC-SHA256(secret,
 *   "<t>.<raw body>")>`, one `v1` per active secret while a rotation overlaps), 300 s tolerance, returning
 *   the event typed by its `type` (an unknown type from a newer API version as an {@link UnknownEvent}).
 *
 * The SDK's version is the API version label it was generated from ({@link API_VERSION}); it sends that
 * label as `Svc-Version` so a newer server answers in the shapes these types describe. Node.js ≥ 18 (global
 * `fetch`); the declarations need `@types/node` or the DOM library only for `fetch` and `AbortSignal`.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { components, operations } from './generated/schema';
import { Calls, EVENT_TYPES, Resources } from './generated/resources';

export type { components, operations, paths } from './generated/schema';
export * from './generated/resources';

/** The API version label the generated types describe, sent as `Svc-Version` on every request. */
export const API_VERSION = '2026-10-04';

/** Every object the API returns, by component name: `Schemas['Call']`, `Schemas['Agent']`, … */
export type Schemas = components['schemas'];

type Ops = operations;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body an operation takes (`BodyOf<'createCall'>`). */
export type BodyOf<K extends keyof Ops> = Ops[K] extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
/** The JSON an operation answers with 200 (`ResultOf<'retrieveCall'>` is `Schemas['Call']`). */
export type ResultOf<K extends keyof Ops> = Ops[K] extends { responses: { 200: infer R } } ? JsonOf<R> : unknown;
/** The query parameters of an operation. */
export type QueryOf<K extends keyof Ops> = Ops[K] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The objects of a list operation's page. */
export type ItemOf<K extends keyof Ops> = ResultOf<K> extends { data: (infer T)[] } ? T : never;
/** The `error` object of an operation's failures. */
export type ErrorDetailOf<K extends keyof Ops> = {
  [S in keyof Ops[K]['responses']]: S extends 200 | 'default' ? never : JsonOf<Ops[K]['responses'][S]>;
}[keyof Ops[K]['responses']] extends infer B
  ? B extends { error: infer D }
    ? D
    : never
  : never;
/** The error codes an operation documents (`ErrorCodeOf<'sendMessage'>` includes `whatsapp_window_closed`). */
export type ErrorCodeOf<K extends keyof Ops> = K extends unknown
  ? ErrorDetailOf<K> extends { code: infer C }
    ? C & string
    : never
  : never;
/** Every error code the API documents. */
export type ErrorCode = ErrorCodeOf<keyof Ops>;

/** Options of one request (each overrides the client's setting for this request only). */
export interface RequestOptions {
  /** The `Idempotency-Key` of a POST (default: a new UUID per logical request, reused by its retries). */
  idempotencyKey?: string;
  /** Retries after the first attempt of a retryable failure. */
  maxRetries?: number;
  /** Deadline of each attempt, milliseconds (for a stream: until its headers arrive). */
  timeoutMs?: number;
  /** Another key than the client's (a restricted key, another organization's). */
  apiKey?: string;
  /** The API version label sent as `Svc-Version` (default {@link API_VERSION}). */
  svcVersion?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Cancels the request (and its retries, or an open stream). */
  signal?: AbortSignal;
}

/** Options of {@link Svc}. */
export interface SvcOptions {
  /** A secret key (`svc_sk_test_…` or `svc_sk_live_…`) or a restricted key. */
  apiKey: string;
  /** The API's address (default `http://localhost:3000`, `npm start`'s). */
  baseUrl?: string;
  /** Retries after the first attempt of a retryable failure (default 2). */
  maxRetries?: number;
  /** Deadline of each attempt, milliseconds (default 60,000). */
  timeoutMs?: number;
  /** A `fetch` implementation (default: the global one, Node.js ≥ 18). */
  fetch?: typeof fetch;
}

/** The API's error body: `{ error: { type, code, message, param?, request_id? } }`. */
export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  request_id?: string;
  [field: string]: unknown;
}

/**
 * An error answered by the API (or the network, `type: "api_connection_error"`). Subclassed by `type`;
 * `code` is the machine-readable reason (`parameter_invalid`, `resource_missing`, …), `param` the field.
 */
export class SvcError extends Error {
  readonly type: string;
  /** One of the documented {@link ErrorCode}s (or a newer one, as a string). */
  readonly code: ErrorCode | (string & {});
  readonly param?: string;
  /** HTTP status (0 when no answer came). */
  readonly statusCode: number;
  /** The `Request-Id` response header (or the body's `request_id`), to quote to support. */
  readonly requestId?: string;
  /** `Retry-After` seconds, when the server sent it. */
  readonly retryAfter?: number;
  /** The whole `error` object as answered. */
  readonly raw: ApiErrorBody;

  constructor(statusCode: number, body: ApiErrorBody, requestId?: string, retryAfter?: number) {
    super(body.message);
    this.name = new.target.name;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.statusCode = statusCode;
    this.requestId = requestId ?? body.request_id;
    this.retryAfter = retryAfter;
    this.raw = body;
  }
}
/** 400/404/422: the request is wrong (`param` names the field). */
export class InvalidRequestError extends SvcError {}
/** 401: no key, or a key that is unknown or revoked. */
export class AuthenticationError extends SvcError {}
/** 403: the key may not do this. */
export class PermissionError extends SvcError {}
/** 409/422 about an `Idempotency-Key` (in use by a running request; reused with another request). */
export class IdempotencyError extends SvcError {}
/** 429: too many requests (`retryAfter` says when to come back). */
export class RateLimitError extends SvcError {}
/** 5xx: the service (or a dependency, 503 `service_unavailable`) failed. */
export class ApiError extends SvcError {}
/** No answer: the connection failed or the attempt's deadline passed (`code` `timeout`). */
export class ApiConnectionError extends SvcError {}
/** A webhook whose `Svc-Signature` does not verify. */
export class SignatureVerificationError extends SvcError {}

type ErrorClass = new (s: number, b: ApiErrorBody, r?: string, a?: number) => SvcError;
const ERROR_CLASSES: Record<string, ErrorClass> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  api_error: ApiError,
};

/** One page of a list: `{ object: "list", data, has_more, url }`. */
export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** A list request: awaits to its first page, iterates (`for await`) over every object of every page. */
export type ListPromise<T> = Promise<ListPage<T>> &
  AsyncIterable<T> & {
    /** Every object of every page, up to `limit` objects (default 10,000), in the list's order. */
    autoPagingToArray(opts?: { limit?: number }): Promise<T[]>;
  };

/** A server-sent event as read from a `text/event-stream` the document does not type further. */
export interface ServerSentEvent {
  event: string;
  id: number;
  data: unknown;
}

/** The `data` of a call stream's `status`, `transfer` and `end` events. */
export interface CallStatusData {
  status: Schemas['Call']['status'];
  /** The webhook event types the change emitted (`call.started`, `call.transferred`, …). */
  events: string[];
  /** Unix time in seconds. */
  at: number;
  end_reason?: string | null;
  transferred_to?: string | null;
  answered_by?: string | null;
  error?: unknown;
}

/** An event of `svc.calls.stream(id)` (`GET /v1/calls/{id}/stream`), by its `event` name. */
export type CallStreamEvent =
  | { event: 'turn' | 'tool_call'; id: number; data: Schemas['TranscriptTurn'] & { seq: number } }
  | { event: 'status' | 'transfer' | 'end'; id: number; data: CallStatusData };

/** The typed events of each event-stream operation; others yield {@link ServerSentEvent}s. */
export interface StreamEvents {
  streamCall: CallStreamEvent;
}
/** The events an event-stream operation yields. */
export type StreamEventOf<K extends keyof Ops> = K extends keyof StreamEvents ? StreamEvents[K] : ServerSentEvent;

/** An open event stream: `for await (const e of stream)`, ended by the server or by `close()`. */
export interface EventStream<E> extends AsyncIterable<E> {
  /** Stops reading and closes the connection. */
  close(): void;
}

type Method = 'GET' | 'POST' | 'DELETE';

/**
 * What the generated resources call: `request` for JSON (a POST's `params` are its body, a GET's or a
 * DELETE's its query), `list` for a list, `stream` for an event stream, `bytes` for a binary download.
 */
export interface Transport {
  request<T>(method: Method, path: string, params: object | undefined, options?: RequestOptions): Promise<T>;
  list<T>(path: string, query: object | undefined, options?: RequestOptions): ListPromise<T>;
  stream<E>(path: string, query: object | undefined, options?: RequestOptions): EventStream<E>;
  bytes(method: Method, path: string, params: object | undefined, options?: RequestOptions): Promise<Uint8Array>;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `{a: 1, created: {gte: 5}}` → `a=1&created[gte]=5` (arrays repeat the key). */
function queryString(query: object | undefined): string {
  const sp = new URLSearchParams();
  const add = (key: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach((x) => add(key, x));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) add(`${key}[${k}]`, x);
    else sp.append(key, String(v));
  };
  for (const [k, v] of Object.entries(query ?? {})) add(k, v);
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** `Retry-After` as seconds: an integer, or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function errorFrom(res: Response, text: string): SvcError {
  let body: ApiErrorBody;
  try {
    body = (JSON.parse(text) as { error: ApiErrorBody }).error;
    if (!body?.type) throw new Error('no error object');
  } catch {
    body = { type: 'api_error', code: 'invalid_response', message: `HTTP ${res.status}: ${text.slice(0, 200)}` };
  }
  const Cls = ERROR_CLASSES[body.type] ?? (res.status >= 500 ? ApiError : InvalidRequestError);
  return new Cls(
    res.status,
    body,
    res.headers.get('request-id') ?? undefined,
    retryAfterSeconds(res.headers.get('retry-after')),
  );
}

function retryable(e: SvcError): boolean {
  if (e instanceof ApiConnectionError) return e.code !== 'aborted';
  if (e.statusCode === 409) return e.code === 'idempotency_key_in_use';
  return RETRYABLE_STATUS.has(e.statusCode) || e.statusCode > 500;
}

/** An answered attempt: the response (2xx) and the function that ends its deadline. */
interface Sent {
  res: Response;
  done: (keepSignal?: boolean) => void;
}

/** The HTTP client behind {@link Svc}: base URL, auth, retries, deadlines. */
export class HttpTransport implements Transport {
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;

  constructor(options: SvcOptions) {
    if (!options?.apiKey) throw new TypeError('Svc: apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** One attempt: the answer, its deadline still running (ended by `done`), or the error it is. */
  private async attempt(
    method: Method,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
    o: RequestOptions,
  ): Promise<Sent | SvcError> {
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), ctl.abort()), o.timeoutMs ?? this.timeoutMs);
    const onAbort = () => ctl.abort();
    o.signal?.addEventListener('abort', onAbort);
    // A stream's caller keeps the link to `o.signal` (its `close()` aborts the body being read).
    const done = (keepSignal = false) => {
      clearTimeout(timer);
      if (!keepSignal) o.signal?.removeEventListener('abort', onAbort);
    };
    try {
      const res = await this.fetchImpl(url, { method, headers, body, signal: ctl.signal });
      if (res.ok) return { res, done };
      const error = errorFrom(res, await res.text());
      done();
      return error;
    } catch (e) {
      done();
      const code = timedOut ? 'timeout' : o.signal?.aborted ? 'aborted' : 'connection_failed';
      const message = `Request to ${url} failed: ${timedOut ? 'no answer in time' : (e as Error).message}`;
      return new ApiConnectionError(0, { type: 'api_connection_error', code, message });
    }
  }

  /** Sends a request with the SDK's retries; resolves to the first 2xx answer, rejects with an {@link SvcError}. */
  private async send(
    method: Method,
    path: string,
    params: object | undefined,
    o: RequestOptions = {},
    accept = 'application/json',
  ): Promise<Sent> {
    const isPost = method === 'POST';
    const idempotencyKey = isPost ? (o.idempotencyKey ?? randomUUID()) : undefined;
    const url = this.baseUrl + path + (isPost ? '' : queryString(params));
    const headers: Record<string, string> = {
      Authorization: `Bearer ${o.apiKey ?? this.apiKey}`,
      'Svc-Version': o.svcVersion ?? API_VERSION,
      'User-Agent': `svc-assistant-typescript/${API_VERSION}`,
      Accept: accept,
      ...(isPost ? { 'Content-Type': 'application/json' } : {}),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      ...o.headers,
    };
    const body = isPost ? JSON.stringify(params ?? {}) : undefined;
    const maxRetries = o.maxRetries ?? this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.attempt(method, url, body, headers, o);
      if (!(answer instanceof SvcError)) return answer;
      if (attempt >= maxRetries || !retryable(answer) || o.signal?.aborted) throw answer;
      const backoff = Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await sleep(answer.retryAfter !== undefined ? Math.min(answer.retryAfter * 1000, 60_000) : backoff);
    }
  }

  /** A JSON request; resolves to the parsed answer. */
  async request<T>(method: Method, path: string, params: object | undefined, options?: RequestOptions): Promise<T> {
    const { res, done } = await this.send(method, path, params, options);
    try {
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    } finally {
      done();
    }
  }

  /** A binary download, as bytes. */
  async bytes(method: Method, path: string, params: object | undefined, options?: RequestOptions): Promise<Uint8Array> {
    const { res, done } = await this.send(method, path, params, options, '*/*');
    try {
      return new Uint8Array(await res.arrayBuffer());
    } finally {
      done();
    }
  }

  /** A list operation as a {@link ListPromise}: the first page, and iteration across pages. */
  list<T>(path: string, query: object | undefined, options?: RequestOptions): ListPromise<T> {
    const first = this.request<ListPage<T>>('GET', path, query, options);
    const iterate = async function* (this: HttpTransport): AsyncGenerator<T> {
      let page = await first;
      for (;;) {
        yield* page.data;
        const last = (page.data[page.data.length - 1] as { id?: unknown } | undefined)?.id;
        if (!page.has_more || typeof last !== 'string') return;
        const { ending_before: _ignored, ...rest } = (query ?? {}) as Record<string, unknown>;
        page = await this.request<ListPage<T>>('GET', path, { ...rest, starting_after: last }, options);
      }
    }.bind(this);
    return Object.assign(first, {
      [Symbol.asyncIterator]: () => iterate(),
      autoPagingToArray: async (opts: { limit?: number } = {}) => {
        const out: T[] = [];
        for await (const item of iterate()) {
          out.push(item);
          if (out.length >= (opts.limit ?? 10_000)) break;
        }
        return out;
      },
    });
  }

  /** An event stream: connects when iterated, yields each event with its JSON `data` parsed. */
  stream<E>(path: string, query: object | undefined, options: RequestOptions = {}): EventStream<E> {
    const ctl = new AbortController();
    options.signal?.addEventListener('abort', () => ctl.abort());
    const open = async function* (this: HttpTransport): AsyncGenerator<E> {
      const { res, done } = await this.send(
        'GET',
        path,
        query,
        { ...options, signal: ctl.signal },
        'text/event-stream',
      );
      done(true);
      if (!res.body) return;
      try {
        for await (const e of serverSentEvents(res.body, ctl.signal)) yield e as E;
      } catch (e) {
        if (!ctl.signal.aborted) throw e;
      }
    }.bind(this);
    return { [Symbol.asyncIterator]: () => open(), close: () => ctl.abort() };
  }
}

/**
 * The events of a `text/event-stream` body (WHATWG HTML §9.2.6): `event:`, `id:`, `data:` lines up to a
 * blank line; comments (`: heartbeat`) skipped; `data` parsed as JSON when it is JSON.
 */
async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  // Ends a pending read (done) whatever the fetch implementation does with its signal.
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop);
  const decoder = new TextDecoder();
  let buffer = '';
  let event = { event: 'message', id: 0, data: [] as string[] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (signal.aborted) return;
      buffer += done ? '\n\n' : decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer[nl] === '\r' ? 2 : 1));
        if (line === '') {
          if (event.data.length) {
            const text = event.data.join('\n');
            let data: unknown = text;
            try {
              data = JSON.parse(text);
            } catch {
              /* not JSON: the text as is */
            }
            yield { event: event.event, id: event.id, data };
          }
          event = { event: 'message', id: event.id, data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'id' && /^\d+$/.test(value)) event.id = Number(value);
        else if (field === 'data') event.data.push(value);
      }
      if (done) return;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

/**
 * The API client: every operation as a method of its resource (`svc.calls.create`, `svc.bulkCalls.results
 * .list`, …, generated in ./generated/resources.ts); {@link Svc.request} reaches any path directly.
 */
export class Svc extends Resources {
  /** Verification of webhook deliveries (no client needed). */
  static readonly webhooks = { constructEvent, signatureHeader, isKnownEvent };
  /** The HTTP client every resource calls through. */
  readonly http: HttpTransport;

  constructor(options: SvcOptions) {
    const http = new HttpTransport(options);
    super(http);
    this.http = http;
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** One request to any `/v1/…` path (a POST's `params` are its body, else its query), with retries. */
  request<T = unknown>(method: Method, path: string, params?: object, options?: RequestOptions): Promise<T> {
    return this.http.request<T>(method, path, params, options);
  }
}

/** A call's final statuses, as `Schemas['Call']['status']` names them. */
const FINAL_CALL_STATUSES = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];

declare module './generated/resources' {
  interface Calls {
    /**
     * Polls `GET /v1/calls/{id}` every `intervalMs` (default 1,000) until the call's status is final
     * (`completed`, `transferred`, `busy`, `no_answer`, `failed`, `canceled`); rejects after `timeoutMs`
     * (default 10 minutes). Hand-written (src/index.ts).
     */
    waitForEnd(id: string, opts?: { intervalMs?: number; timeoutMs?: number }): Promise<Schemas['Call']>;
  }
}
Calls.prototype.waitForEnd = async function (this: Calls, id: string, opts = {}) {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  for (;;) {
    const call = await this.retrieve(id);
    if (FINAL_CALL_STATUSES.includes(call.status)) return call;
    if (Date.now() > deadline) throw new Error(`call ${id} still ${call.status}`);
    await sleep(opts.intervalMs ?? 1000);
  }
};

type Delivered<E> = E extends unknown ? Omit<E, 'pending_webhooks' | 'webhook_deliveries'> : never;
/**
 * An event as a webhook delivers it, typed by its `type` (`event.type === 'call.ended'` narrows
 * `event.data.object` to a call): the `Event` schema without the live delivery state (`pending_webhooks`,
 * `webhook_deliveries`), which only `GET /v1/events` shows.
 */
export type WebhookEvent = Delivered<Schemas['Event']>;
/** The event types this SDK's version knows. */
export type EventType = WebhookEvent['type'];
/**
 * The `type` of an event a newer API version added. At run time it is the plain type name; the type is a
 * pattern no known type matches, so that `event.type === 'call.ended'` still narrows a {@link SvcEvent}.
 */
export type UnknownEventType = `${string} (unknown to this SDK version)`;
/** An event whose `type` this SDK's version does not know (a newer API version's): its common fields. */
export interface UnknownEvent {
  id: string;
  object: 'event';
  type: UnknownEventType;
  created: number;
  livemode: boolean;
  api_version: string;
  data: { object: unknown; [field: string]: unknown };
}
/** What {@link constructEvent} returns: a known event typed by its `type`, or an {@link UnknownEvent}. */
export type SvcEvent = WebhookEvent | UnknownEvent;

/** Whether `event`'s type is one this SDK's version knows (then its `data.object` is typed). */
export function isKnownEvent(event: SvcEvent): event is WebhookEvent {
  return (EVENT_TYPES as readonly string[]).includes(event.type);
}

/**
 * Verifies a webhook delivery and returns its event: `payload` is the raw body exactly as received
 * (a string, or bytes such as a Buffer: parse JSON only after), `header` the `Svc-Signature` header,
 * `secret` the endpoint's signing secret (or several, while a rotation overlaps). A signature passes when
 * one of its `v1` values is the HMAC-SHA256 of `"<t>.<payload>"` under one of the secrets and `t` is within
 * `toleranceSeconds` (default 300) of now, which stops replays. The event is typed by its `type`; a type this
 * version does not know comes back as an {@link UnknownEvent}, not an error.
 * @throws SignatureVerificationError when the header is missing or malformed, or nothing matches
 */
export function constructEvent(
  payload: string | Uint8Array,
  header: string | string[] | null | undefined,
  secret: string | string[],
  toleranceSeconds = 300,
): SvcEvent {
  const fail = (message: string) =>
    new SignatureVerificationError(400, { type: 'invalid_request_error', code: 'signature_invalid', message });
  const raw = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw fail('No Svc-Signature header.');
  const parts = value.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t)) throw fail('The Svc-Signature header has no timestamp.');
  if (Math.abs(Date.now() / 1000 - t) > toleranceSeconds)
    throw fail('The Svc-Signature timestamp is outside the tolerance.');
  const signatures = parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .map(([, v]) => Buffer.from(v, 'hex'));
  const ok = (Array.isArray(secret) ? secret : [secret]).some((s) => {
    const expected = createHmac('sha256', s).update(`${t}.${raw}`).digest();
    return signatures.some((sig) => timingSafeEqual(sig, expected));
  });
  if (!ok) throw fail('No signature matches the payload and secret.');
  return JSON.parse(raw) as SvcEvent;
}

/** A `Svc-Signature` header for `payload` under `secret` at `timestamp` (unix seconds): for your tests. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

export default Svc;
