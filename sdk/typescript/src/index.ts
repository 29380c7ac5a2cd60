/**
 * The official TypeScript SDK of the svc-assistant API: a thin hand-written layer in Stripe's shape over
 * the types `openapi-typescript` generates from the API's OpenAPI document (./generated/schema.ts, made by
 * `npm run sdk:generate`; never edited by hand).
 *
 *   const svc = new Svc({ apiKey: process.env.SVC_API_KEY!, baseUrl: 'http://localhost:3000' });
 *   const call = await svc.calls.create({ to: '+14155550123', agent_id: agent.id });
 *   for await (const c of svc.calls.list({ status: 'completed' })) console.log(c.id);
 *   const event = Svc.webhooks.constructEvent(rawBody, req.headers['svc-signature'], secret);
 *
 * What the layer adds to plain `fetch`:
 * - **Retries** of 408, 409 `idempotency_key_in_use`, 429, 5xx and network failures, `maxRetries` times
 *   (default 2) with exponential backoff and jitter (0.5 s doubling, at most 8 s), or after `Retry-After`
 *   seconds when the server says so. Every POST carries an `Idempotency-Key` generated once per logical
 *   request (or yours, `{ idempotencyKey }`) and reused by its retries, so a retried create never creates
 *   twice (the API keeps keys 24 hours).
 * - **Auto-pagination**: `list()` resolves to one page (`{ data, has_more }`) and is also an async iterable
 *   over every object of every page (`starting_after` cursors), as Stripe's `autoPagingEach`.
 * - **Typed errors** by the error's `type` ({@link InvalidRequestError}, {@link AuthenticationError}, …),
 *   each with `code`, `param`, `statusCode` and `requestId`.
 * - **Webhook verification** of the `Svc-Signature` header (`t=<unix>,v1=<hex HMAC-SHA256(secret,
 *   "<t>.<raw body>")>`, one `v1` per active secret while a rotation overlaps), 300 s tolerance.
 *
 * The SDK's version is the API version label it was generated from ({@link API_VERSION}); it sends that
 * label as `Svc-Version` so a newer server answers in the shapes these types describe.
 */
import crypto from 'node:crypto';
import type { components, operations } from './generated/schema';

export type { components, operations, paths } from './generated/schema';

/** The API version label the generated types describe, sent as `Svc-Version` on every request. */
export const API_VERSION = '2026-10-04';

/** Every object the API returns, by component name: `Schemas['Call']`, `Schemas['Agent']`, … */
export type Schemas = components['schemas'];

type Ops = operations;
/** The JSON body an operation takes. */
export type BodyOf<K extends keyof Ops> = Ops[K] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
/** The JSON an operation answers with 200. */
export type ResultOf<K extends keyof Ops> = Ops[K] extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : unknown;
/** The query parameters of an operation, `limit` as a number. */
export type QueryOf<K extends keyof Ops> = Ops[K] extends { parameters: { query?: infer Q } }
  ? Omit<NonNullable<Q>, 'limit'> & { limit?: number }
  : never;
/** The objects of a list operation's page. */
export type ItemOf<K extends keyof Ops> = ResultOf<K> extends { data: (infer T)[] } ? T : never;

/** Options of one request. */
export interface RequestOptions {
  /** The `Idempotency-Key` of a POST (default: a new UUID per logical request, reused by its retries). */
  idempotencyKey?: string;
  /** Overrides the client's `maxRetries` for this request. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` for each attempt of this request. */
  timeoutMs?: number;
}

/** Options of {@link Svc}. */
export interface SvcOptions {
  /** A secret key (`sk_test_…` or `sk_live_…`). */
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

/** The API's error body: `{ error: { type, code, message, param? } }`. */
export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
}

/**
 * An error answered by the API (or the network, `type: "api_connection_error"`). Subclassed by `type`;
 * `code` is the machine-readable reason (`parameter_invalid`, `resource_missing`, …), `param` the field.
 */
export class SvcError extends Error {
  readonly type: string;
  readonly code: string;
  readonly param?: string;
  /** HTTP status (0 when no answer came). */
  readonly statusCode: number;
  /** The `Request-Id` response header, to quote to support. */
  readonly requestId?: string;
  /** `Retry-After` seconds, when the server sent it. */
  readonly retryAfter?: number;

  constructor(statusCode: number, body: ApiErrorBody, requestId?: string, retryAfter?: number) {
    super(body.message);
    this.name = new.target.name;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.statusCode = statusCode;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
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
/** No answer: the connection failed or the attempt's deadline passed. */
export class ApiConnectionError extends SvcError {}
/** A webhook whose `Svc-Signature` does not verify. */
export class SignatureVerificationError extends SvcError {}

const ERROR_CLASSES: Record<string, new (s: number, b: ApiErrorBody, r?: string, a?: number) => SvcError> = {
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

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `{a: 1, created: {gte: 5}}` → `a=1&created[gte]=5` (arrays repeat the key). */
function queryString(query: Record<string, unknown> | undefined): string {
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

/**
 * The API client. Resources are properties (`svc.calls`, `svc.agents`, …); {@link Svc.request} reaches any
 * operation the resources do not name.
 */
export class Svc {
  /** Verification of webhook deliveries (no client needed). */
  static readonly webhooks = {
    constructEvent,
    signatureHeader,
  };

  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;

  readonly calls = new Calls(this);
  readonly agents = new Agents(this);
  readonly tools = new Tools(this);
  readonly messages = new Messages(this);
  readonly conversations = new Conversations(this);
  readonly contacts = new Contacts(this);
  readonly records = new Records(this);
  readonly knowledge = new Knowledge(this);
  readonly bulkCalls = new BulkCalls(this);
  readonly webhookEndpoints = new WebhookEndpoints(this);
  readonly events = new Events(this);
  readonly usage = new Usage(this);
  readonly account = new Account(this);
  readonly testHelpers = new TestHelpers(this);

  constructor(options: SvcOptions) {
    if (!options?.apiKey) throw new TypeError('Svc: apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /**
   * One API request with the SDK's retries: `method` and `path` (`/v1/…`), the JSON `body` of a POST, the
   * `query`. Resolves to the parsed JSON answer; rejects with an {@link SvcError} subclass.
   */
  async request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    args: { body?: unknown; query?: Record<string, unknown> } & RequestOptions = {},
  ): Promise<T> {
    const idempotencyKey = method === 'POST' ? (args.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const maxRetries = args.maxRetries ?? this.maxRetries;
    const url = this.baseUrl + path + queryString(args.query);
    for (let attempt = 0; ; attempt++) {
      let error: SvcError;
      try {
        const res = await this.fetchImpl(url, {
          method,
          headers: {
            Authorization: `Bearer ${this.apiKey}`,
            'Svc-Version': API_VERSION,
            'User-Agent': `svc-assistant-typescript/${API_VERSION}`,
            ...(args.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
          },
          body: args.body !== undefined ? JSON.stringify(args.body) : undefined,
          signal: AbortSignal.timeout(args.timeoutMs ?? this.timeoutMs),
        });
        const text = await res.text();
        if (res.ok) return (text ? JSON.parse(text) : undefined) as T;
        error = errorFrom(res, text);
      } catch (e) {
        if (e instanceof SvcError) throw e;
        error = new ApiConnectionError(0, {
          type: 'api_connection_error',
          code: (e as Error).name === 'TimeoutError' ? 'timeout' : 'connection_failed',
          message: `Request to ${url} failed: ${(e as Error).message}`,
        });
      }
      if (attempt >= maxRetries || !retryable(error)) throw error;
      const backoff = Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await sleep(error.retryAfter !== undefined ? Math.min(error.retryAfter * 1000, 60_000) : backoff);
    }
  }

  /** A list operation as a {@link ListPromise}: the first page, and iteration across pages. */
  list<T extends { id: string }>(
    path: string,
    query: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): ListPromise<T> {
    const first = this.request<ListPage<T>>('GET', path, { query, ...options });
    const iterate = async function* (this: Svc): AsyncGenerator<T> {
      let page = await first;
      for (;;) {
        yield* page.data;
        if (!page.has_more || page.data.length === 0) return;
        const last = page.data[page.data.length - 1].id;
        const next = { ...query, starting_after: last };
        delete (next as Record<string, unknown>).ending_before;
        page = await this.request<ListPage<T>>('GET', path, { query: next, ...options });
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
}

function errorFrom(res: Response, text: string): SvcError {
  let body: ApiErrorBody;
  try {
    body = (JSON.parse(text) as { error: ApiErrorBody }).error;
    if (!body?.type) throw new Error('no error object');
  } catch {
    body = { type: 'api_error', code: 'invalid_response', message: `HTTP ${res.status}: ${text.slice(0, 200)}` };
  }
  const retryAfterHeader = res.headers.get('retry-after');
  const retryAfter = retryAfterHeader && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const Cls = ERROR_CLASSES[body.type] ?? (res.status >= 500 ? ApiError : InvalidRequestError);
  return new Cls(res.status, body, res.headers.get('request-id') ?? undefined, retryAfter);
}

function retryable(e: SvcError): boolean {
  if (e instanceof ApiConnectionError) return true;
  if (e.statusCode === 409) return e.code === 'idempotency_key_in_use';
  return RETRYABLE_STATUS.has(e.statusCode) || e.statusCode > 500;
}

/** Base of the resources: the client they call. */
abstract class Resource {
  constructor(protected readonly client: Svc) {}
  protected getJson<T>(path: string, query?: Record<string, unknown>, o?: RequestOptions): Promise<T> {
    return this.client.request<T>('GET', path, { query, ...o });
  }
  protected postJson<T>(path: string, body: unknown, o?: RequestOptions): Promise<T> {
    return this.client.request<T>('POST', path, { body: body ?? {}, ...o });
  }
  protected deleteJson<T>(path: string, o?: RequestOptions): Promise<T> {
    return this.client.request<T>('DELETE', path, o);
  }
}

const seg = encodeURIComponent;

/** Calls: `POST /v1/calls` and the call's own operations. */
export class Calls extends Resource {
  /** Places a call (test keys simulate it). */
  create(params: BodyOf<'createCall'>, o?: RequestOptions): Promise<ResultOf<'createCall'>> {
    return this.postJson('/v1/calls', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveCall'>> {
    return this.getJson(`/v1/calls/${seg(id)}`, undefined, o);
  }
  /** Calls, newest first; `for await` walks every page. */
  list(params: QueryOf<'listCalls'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listCalls'>> {
    return this.client.list('/v1/calls', params, o);
  }
  transcript(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveCallTranscript'>> {
    return this.getJson(`/v1/calls/${seg(id)}/transcript`, undefined, o);
  }
  end(
    id: string,
    params: BodyOf<'endCall'> = {} as BodyOf<'endCall'>,
    o?: RequestOptions,
  ): Promise<ResultOf<'endCall'>> {
    return this.postJson(`/v1/calls/${seg(id)}/end`, params, o);
  }
  transfer(id: string, params: BodyOf<'transferCall'>, o?: RequestOptions): Promise<ResultOf<'transferCall'>> {
    return this.postJson(`/v1/calls/${seg(id)}/transfer`, params, o);
  }
  say(id: string, params: BodyOf<'sayOnCall'>, o?: RequestOptions): Promise<ResultOf<'sayOnCall'>> {
    return this.postJson(`/v1/calls/${seg(id)}/say`, params, o);
  }
  addContext(id: string, params: BodyOf<'addCallContext'>, o?: RequestOptions): Promise<ResultOf<'addCallContext'>> {
    return this.postJson(`/v1/calls/${seg(id)}/context`, params, o);
  }
  analyze(id: string, params: BodyOf<'analyzeCall'> = {} as BodyOf<'analyzeCall'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'analyzeCall'>>(`/v1/calls/${seg(id)}/analyze`, params, o);
  }
  listAnalyses(id: string, params: QueryOf<'listCallAnalyses'> = {}, o?: RequestOptions) {
    return this.client.list<ItemOf<'listCallAnalyses'>>(`/v1/calls/${seg(id)}/analyses`, params, o);
  }
  /**
   * Polls the call every `intervalMs` (default 1,000) until its status is final (`completed`,
   * `transferred`, `busy`, `no_answer`, `failed`, `canceled`) or `timeoutMs` (default 10 minutes) passes.
   */
  async waitForEnd(id: string, opts: { intervalMs?: number; timeoutMs?: number } = {}) {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    const final = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];
    for (;;) {
      const call = await this.retrieve(id);
      if (final.includes((call as { status: string }).status)) return call;
      if (Date.now() > deadline) throw new Error(`call ${id} still ${(call as { status: string }).status}`);
      await sleep(opts.intervalMs ?? 1000);
    }
  }
}

/** Agents (assistants). */
export class Agents extends Resource {
  create(params: BodyOf<'createAgent'>, o?: RequestOptions): Promise<ResultOf<'createAgent'>> {
    return this.postJson('/v1/agents', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveAgent'>> {
    return this.getJson(`/v1/agents/${seg(id)}`, undefined, o);
  }
  update(id: string, params: BodyOf<'updateAgent'>, o?: RequestOptions): Promise<ResultOf<'updateAgent'>> {
    return this.postJson(`/v1/agents/${seg(id)}`, params, o);
  }
  list(params: QueryOf<'listAgents'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listAgents'>> {
    return this.client.list('/v1/agents', params, o);
  }
  del(id: string, o?: RequestOptions): Promise<ResultOf<'deleteAgent'>> {
    return this.deleteJson(`/v1/agents/${seg(id)}`, o);
  }
}

/** The organization's own tools (HTTP, MCP, connector). */
export class Tools extends Resource {
  create(params: BodyOf<'createTool'>, o?: RequestOptions): Promise<ResultOf<'createTool'>> {
    return this.postJson('/v1/tools', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveTool'>> {
    return this.getJson(`/v1/tools/${seg(id)}`, undefined, o);
  }
  update(id: string, params: BodyOf<'updateTool'>, o?: RequestOptions): Promise<ResultOf<'updateTool'>> {
    return this.postJson(`/v1/tools/${seg(id)}`, params, o);
  }
  list(params: QueryOf<'listTools'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listTools'>> {
    return this.client.list('/v1/tools', params, o);
  }
}

/** Messages (WhatsApp, SMS): send and retrieve. */
export class Messages extends Resource {
  /** Sends a message (`409`/`422` rules as documented: e.g. 422 `whatsapp_window_closed`). */
  create(params: BodyOf<'sendMessage'>, o?: RequestOptions): Promise<ResultOf<'sendMessage'>> {
    return this.postJson('/v1/messages', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveMessage'>> {
    return this.getJson(`/v1/messages/${seg(id)}`, undefined, o);
  }
}

/** Conversations (WhatsApp, SMS, web). */
export class Conversations extends Resource {
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveConversation'>> {
    return this.getJson(`/v1/conversations/${seg(id)}`, undefined, o);
  }
  list(params: QueryOf<'listConversations'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listConversations'>> {
    return this.client.list('/v1/conversations', params, o);
  }
  listMessages(id: string, params: QueryOf<'listConversationMessages'> = {}, o?: RequestOptions) {
    return this.client.list<ItemOf<'listConversationMessages'>>(`/v1/conversations/${seg(id)}/messages`, params, o);
  }
  /** Gives a conversation a person took back to the assistant. */
  resume(id: string, o?: RequestOptions): Promise<ResultOf<'resumeConversation'>> {
    return this.postJson(`/v1/conversations/${seg(id)}/resume`, {}, o);
  }
}

/** Contacts. */
export class Contacts extends Resource {
  create(params: BodyOf<'createContact'>, o?: RequestOptions): Promise<ResultOf<'createContact'>> {
    return this.postJson('/v1/contacts', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveContact'>> {
    return this.getJson(`/v1/contacts/${seg(id)}`, undefined, o);
  }
  list(params: QueryOf<'listContacts'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listContacts'>> {
    return this.client.list('/v1/contacts', params, o);
  }
  listRecords(id: string, params: QueryOf<'listContactRecords'> = {}, o?: RequestOptions) {
    return this.client.list<ItemOf<'listContactRecords'>>(`/v1/contacts/${seg(id)}/records`, params, o);
  }
}

/** Records shown to staff and to the assistant. */
export class Records extends Resource {
  upsert(params: BodyOf<'upsertRecords'>, o?: RequestOptions): Promise<ResultOf<'upsertRecords'>> {
    return this.postJson('/v1/records', params, o);
  }
}

/** Knowledge documents. */
export class Knowledge extends Resource {
  create(params: BodyOf<'createKnowledgeDocument'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'createKnowledgeDocument'>>('/v1/knowledge', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveKnowledgeDocument'>> {
    return this.getJson(`/v1/knowledge/${seg(id)}`, undefined, o);
  }
  list(params: QueryOf<'listKnowledgeDocuments'> = {}, o?: RequestOptions) {
    return this.client.list<ItemOf<'listKnowledgeDocuments'>>('/v1/knowledge', params, o);
  }
  search(params: QueryOf<'searchKnowledge'>, o?: RequestOptions): Promise<ResultOf<'searchKnowledge'>> {
    return this.getJson('/v1/knowledge/search', params as Record<string, unknown>, o);
  }
}

/** Bulk call campaigns. */
export class BulkCalls extends Resource {
  create(params: BodyOf<'createBulkCall'>, o?: RequestOptions): Promise<ResultOf<'createBulkCall'>> {
    return this.postJson('/v1/bulk-calls', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveBulkCall'>> {
    return this.getJson(`/v1/bulk-calls/${seg(id)}`, undefined, o);
  }
  list(params: QueryOf<'listBulkCalls'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listBulkCalls'>> {
    return this.client.list('/v1/bulk-calls', params, o);
  }
  cancel(id: string, o?: RequestOptions): Promise<ResultOf<'cancelBulkCall'>> {
    return this.postJson(`/v1/bulk-calls/${seg(id)}/cancel`, {}, o);
  }
}

/** Webhook endpoints (`svc.webhookEndpoints`); verification is `Svc.webhooks.constructEvent`. */
export class WebhookEndpoints extends Resource {
  create(params: BodyOf<'createWebhookEndpoint'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'createWebhookEndpoint'>>('/v1/webhook-endpoints', params, o);
  }
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveWebhookEndpoint'>> {
    return this.getJson(`/v1/webhook-endpoints/${seg(id)}`, undefined, o);
  }
  update(id: string, params: BodyOf<'updateWebhookEndpoint'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'updateWebhookEndpoint'>>(`/v1/webhook-endpoints/${seg(id)}`, params, o);
  }
  list(params: QueryOf<'listWebhookEndpoints'> = {}, o?: RequestOptions) {
    return this.client.list<ItemOf<'listWebhookEndpoints'>>('/v1/webhook-endpoints', params, o);
  }
  del(id: string, o?: RequestOptions): Promise<ResultOf<'deleteWebhookEndpoint'>> {
    return this.deleteJson(`/v1/webhook-endpoints/${seg(id)}`, o);
  }
}

/** Events (what webhooks deliver). */
export class Events extends Resource {
  retrieve(id: string, o?: RequestOptions): Promise<ResultOf<'retrieveEvent'>> {
    return this.getJson(`/v1/events/${seg(id)}`, undefined, o);
  }
  list(params: QueryOf<'listEvents'> = {}, o?: RequestOptions): ListPromise<ItemOf<'listEvents'>> {
    return this.client.list('/v1/events', params, o);
  }
}

/** The usage report. */
export class Usage extends Resource {
  retrieve(params: QueryOf<'retrieveUsage'>, o?: RequestOptions): Promise<ResultOf<'retrieveUsage'>> {
    return this.getJson('/v1/usage', params as Record<string, unknown>, o);
  }
}

/** The organization behind the key. */
export class Account extends Resource {
  retrieve(o?: RequestOptions): Promise<ResultOf<'retrieveAccount'>> {
    return this.getJson('/v1/account', undefined, o);
  }
}

/** Test mode's helpers: play a customer's message or call. */
export class TestHelpers extends Resource {
  inboundMessage(params: BodyOf<'simulateInboundMessage'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'simulateInboundMessage'>>('/v1/test_helpers/inbound_messages', params, o);
  }
  inboundCall(params: BodyOf<'simulateInboundCall'>, o?: RequestOptions) {
    return this.postJson<ResultOf<'simulateInboundCall'>>('/v1/test_helpers/inbound_calls', params, o);
  }
}

/** An event as a webhook delivers it (`Schemas['Event']`). */
export type SvcEvent = Schemas extends { Event: infer E } ? E : Record<string, unknown>;

/**
 * Verifies a webhook delivery and returns its event: `payload` is the raw body exactly as received
 * (string or Buffer: parse JSON only after), `header` the `Svc-Signature` header, `secret` the endpoint's
 * signing secret (or several, while a rotation overlaps). A signature passes when one of its `v1` values
 * is the HMAC-SHA256 of `"<t>.<payload>"` under one of the secrets and `t` is within `toleranceSeconds`
 * (default 300) of now, which stops replays.
 * @throws SignatureVerificationError when the header is missing or malformed, or nothing matches
 */
export function constructEvent(
  payload: string | Buffer,
  header: string | string[] | undefined,
  secret: string | string[],
  toleranceSeconds = 300,
): SvcEvent {
  const fail = (message: string) =>
    new SignatureVerificationError(400, { type: 'invalid_request_error', code: 'signature_invalid', message });
  const raw = typeof payload === 'string' ? payload : payload.toString('utf8');
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
    const expected = crypto.createHmac('sha256', s).update(`${t}.${raw}`).digest();
    return signatures.some((sig) => crypto.timingSafeEqual(sig, expected));
  });
  if (!ok) throw fail('No signature matches the payload and secret.');
  return JSON.parse(raw) as SvcEvent;
}

/** A `Svc-Signature` header for `payload` under `secret` at `timestamp` (unix seconds): for your tests. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

export default Svc;
