/**
 * The Model Context Protocol client of the organization's `type: "mcp"` tools: lists the tools of
 * an MCP server and calls one, over Streamable HTTP, through the official `@modelcontextprotocol/sdk`
 * client (`Client` + `StreamableHTTPClientTransport`); no protocol code of our own.
 *
 * Every HTTP request of a session goes through one `fetch` of ours (undici 7) that:
 * - connects only to the address `resolveWebhookHost` checked (src/providers/webhook-address.ts, the
 *   webhook endpoints' SSRF guard: `allowPrivate` is `WEBHOOK_ALLOW_PRIVATE`), pinned through the undici
 *   `Agent`'s `lookup`, so a second DNS answer cannot point the session elsewhere;
 * - verifies TLS against Node's roots, plus `caFile` (`WEBHOOK_CA_FILE`) when given, as webhooks do
 *   (`secureContextWith`, src/providers/webhook-http.ts);
 * - never follows a redirect (a 3xx fails the session), and fails on any other non-2xx (but a 405 to the
 *   GET of a server-initiated stream or to the session's DELETE, which the SDK takes as "not offered");
 * - reads at most `MAX_RESPONSE_BYTES` of each response (a longer one fails the session).
 * - carries the active trace's `traceparent` (W3C trace context, src/platform/tracing.ts `withTraceHeaders`;
 *   nothing when tracing is off), so the MCP server's spans join the call's trace as a tool server's do.
 * The whole session (DNS, connect, initialize, the requests, the session's DELETE) is bounded by
 * `timeoutMs`: when it runs out the sockets are destroyed and `McpToolError` `timeout` is thrown.
 *
 * Results are read with lenient schemas (a tool with an odd input schema or an unknown content type is
 * cleaned up, not a failure of the whole answer); the JSON-RPC envelope is still checked by the SDK.
 */
import type { LookupFunction } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch, Response as UndiciResponse, type RequestInit as UndiciRequestInit } from 'undici';
import { z } from 'zod';
import { withTraceHeaders } from '../platform/tracing';
import { MAX_TOOL_RESULT_CHARS } from '../shared/tools';
import { resolveWebhookHost, WebhookAddressError } from './webhook-address';
import { secureContextWith } from './webhook-http';

/** Response bytes read at most from one HTTP response of an MCP server (a longer one fails the session). */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Tools listed at most when `maxTools` is not given. */
export const DEFAULT_MAX_TOOLS = 64;
/** Pages of `tools/list` followed at most (a server that keeps giving cursors is cut off here). */
const MAX_LIST_PAGES = 32;
/** The tool names the model may be offered (the names of the organization's own tools). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Characters of a tool's description kept. */
const MAX_DESCRIPTION_CHARS = 1024;
/** Characters of an error message kept (the model and the transcript get it). */
const MAX_ERROR_CHARS = 300;
/** How this client introduces itself in `initialize`. */
const CLIENT_INFO = { name: 'svc-assistant', version: '1.0.0' };

/** Stable code of an MCP failure. */
export type McpToolErrorCode =
  | 'timeout'
  | 'network_error'
  | 'tls_error'
  | 'http_status'
  | 'redirect'
  | 'response_too_large'
  | 'invalid_response'
  | 'protocol_error'
  | 'invalid_url'
  | 'address_refused'
  | 'host_unresolvable';

/**
 * An MCP session that failed: `message` is short (at most ~300 characters) and fit for the model;
 * `retryable` is true for network errors, timeouts, an unresolvable host and HTTP 408/429/5xx, false
 * otherwise (a refused address, TLS, a redirect, another 4xx, an answer that is too large or not MCP, a
 * JSON-RPC error of the server). `status` is the HTTP status when one caused it.
 */
export class McpToolError extends Error {
  constructor(
    message: string,
    public readonly code: McpToolErrorCode,
    public readonly retryable: boolean,
    public readonly status: number | null = null,
  ) {
    super(message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS - 1)}…` : message);
    this.name = 'McpToolError';
  }
}

/** Where an MCP server is and how to reach it. */
export interface McpServerOptions {
  /** The server's Streamable HTTP endpoint (`https:` only). */
  serverUrl: string;
  /** Static headers sent on every request (the tool's `headers`, e.g. an API key). */
  headers: Record<string, string>;
  /** Allow loopback/private addresses (`WEBHOOK_ALLOW_PRIVATE`, `config().webhookAllowPrivate`). */
  allowPrivate: boolean;
  /** PEM file of extra trusted CAs (`WEBHOOK_CA_FILE`, `config().webhookCaFile`). */
  caFile?: string;
  /** Time limit of the whole session, from DNS to close, ms. */
  timeoutMs: number;
}

/** One tool of an MCP server, as the model may be offered it. */
export interface McpTool {
  /** Matches `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** At most 1,024 characters ('' when the server gave none). */
  description: string;
  /** A JSON Schema object schema (`{type: 'object'}` when the server's was not one). */
  inputSchema: Record<string, unknown>;
}

/** The lenient shape of a `tools/list` result: each tool is cleaned up one by one (`cleanTool`). */
const ListResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
/** The lenient shape of a `tools/call` result: content parts are summarized one by one (`describePart`). */
const CallResult = z.looseObject({
  content: z.array(z.unknown()).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A listed tool as offered to the model, or null when its name is not one the model may call. */
function cleanTool(raw: unknown): McpTool | null {
  if (!isObject(raw) || typeof raw.name !== 'string' || !TOOL_NAME.test(raw.name)) return null;
  const schema = raw.inputSchema;
  const objectSchema =
    isObject(schema) && schema.type === 'object' && (schema.properties === undefined || isObject(schema.properties));
  return {
    name: raw.name,
    description: typeof raw.description === 'string' ? raw.description.slice(0, MAX_DESCRIPTION_CHARS) : '',
    inputSchema: objectSchema ? schema : { type: 'object' },
  };
}

/** One content part of a tool's result as text: text as is, anything else summarized (`[image image/png]`). */
function describePart(part: unknown): string {
  if (!isObject(part)) return '[unknown content]';
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (part.type) {
    case 'text':
      return str(part.text) ?? '';
    case 'image':
    case 'audio':
      return `[${part.type} ${str(part.mimeType) ?? 'unknown type'}]`;
    case 'resource_link':
      return `[resource_link ${str(part.uri) ?? ''}]`.replace(' ]', ']');
    case 'resource': {
      const resource = isObject(part.resource) ? part.resource : {};
      return str(resource.text) ?? `[resource ${str(resource.uri) ?? ''}]`.replace(' ]', ']');
    }
    default:
      return `[${str(part.type) ?? 'unknown'} content]`;
  }
}

/** A failure of fetch before any response as an `McpToolError` (TLS problems and bad ports do not fix themselves). */
function networkError(err: unknown): McpToolError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = `${cause?.code ? `${cause.code}: ` : ''}${cause?.message ?? (err as Error).message}`;
  // fetch refuses some ports outright (SMTP, IRC, …: the Fetch standard's "bad ports").
  if (cause?.message === 'bad port')
    return new McpToolError('The MCP server URL uses a port that is refused (bad port).', 'invalid_url', false);
  const tls = /certificate|self.signed|SSL|TLS|ERR_TLS|UNABLE_TO|CERT_/i.test(detail);
  return tls
    ? new McpToolError(`TLS failed with the MCP server (${detail}).`, 'tls_error', false)
    : new McpToolError(`Could not reach the MCP server (${detail}).`, 'network_error', true);
}

/** An HTTP status that ends the session. */
function statusError(status: number): McpToolError {
  if (status >= 300 && status < 400)
    return new McpToolError(
      `The MCP server answered HTTP ${status}; redirects are not followed.`,
      'redirect',
      false,
      status,
    );
  const retryable = status === 408 || status === 429 || status >= 500;
  return new McpToolError(`The MCP server answered HTTP ${status}.`, 'http_status', retryable, status);
}

/** Any failure of a session as an `McpToolError`; `seen` is the first one our fetch met, if any. */
function toMcpToolError(err: unknown, seen: McpToolError | undefined): McpToolError {
  if (err instanceof McpToolError) return err;
  if (seen) return seen;
  if (err instanceof WebhookAddressError)
    return new McpToolError(err.message, err.code, err.code === 'host_unresolvable');
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout)
      return new McpToolError('The MCP server did not answer in time.', 'timeout', true);
    if (err.code === ErrorCode.ConnectionClosed)
      return new McpToolError('The MCP server closed the connection.', 'network_error', true);
    return new McpToolError(`The MCP server refused the request: ${err.message}`, 'protocol_error', false);
  }
  if (err instanceof StreamableHTTPError) {
    if (err.code !== undefined && err.code >= 300) return statusError(err.code);
    return new McpToolError(`The MCP server's answer is not MCP: ${err.message}`, 'invalid_response', false);
  }
  // A zod error (the SDK's zod, which may be another copy than ours) has `issues`.
  if (err instanceof SyntaxError || Array.isArray((err as { issues?: unknown }).issues))
    return new McpToolError("The MCP server's answer is not valid MCP.", 'invalid_response', false);
  if (err instanceof TypeError && (err as { cause?: unknown }).cause) return networkError(err);
  return new McpToolError(`The MCP session failed: ${(err as Error).message ?? String(err)}`, 'protocol_error', false);
}

/** `response` whose body fails with `tooLarge()` past `MAX_RESPONSE_BYTES`. */
function capped(response: UndiciResponse, tooLarge: () => McpToolError): UndiciResponse {
  if (!response.body) return response;
  let read = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > MAX_RESPONSE_BYTES) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new UndiciResponse(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Runs `work` in one MCP session: checks the address, connects (pinned), initializes, runs `work`, ends
 * the session (DELETE) and closes, all within `opts.timeoutMs`.
 * @param extraHeaders sent on every request besides `opts.headers` (they win over a header of the same name)
 * @throws McpToolError whatever goes wrong
 */
async function inSession<T>(
  opts: McpServerOptions,
  extraHeaders: Record<string, string>,
  work: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>,
): Promise<T> {
  let url: URL;
  try {
    url = new URL(opts.serverUrl);
  } catch {
    throw new McpToolError('The MCP server URL is not a valid URL.', 'invalid_url', false);
  }
  if (url.protocol !== 'https:') throw new McpToolError('MCP server URLs must use HTTPS.', 'invalid_url', false);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  const timedOut = new Promise<never>((_, reject) =>
    deadline.signal.addEventListener('abort', () =>
      reject(new McpToolError(`The MCP server did not answer within ${opts.timeoutMs} ms.`, 'timeout', true)),
    ),
  );
  timedOut.catch(() => undefined);
  let seen: McpToolError | undefined;
  const note = (err: McpToolError) => (seen ??= err);
  let agent: Agent | undefined;
  let client: Client | undefined;
  try {
    const [pinned] = await Promise.race([resolveWebhookHost(url, opts.allowPrivate), timedOut]);
    const lookup: LookupFunction = (_host, options, callback) =>
      (options as { all?: boolean }).all
        ? (callback as unknown as (e: null, all: (typeof pinned)[]) => void)(null, [pinned])
        : callback(null, pinned.address, pinned.family);
    agent = new Agent({
      connect: {
        lookup,
        timeout: opts.timeoutMs,
        ...(opts.caFile ? { secureContext: secureContextWith(opts.caFile) } : {}),
      },
    });
    const dispatcher = agent;
    const pinnedFetch = async (input: string | URL, init?: RequestInit) => {
      const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
      let response: UndiciResponse;
      try {
        response = await undiciFetch(input, {
          ...(init as UndiciRequestInit),
          signal,
          redirect: 'manual',
          dispatcher,
        });
      } catch (err) {
        if (signal.aborted) throw err;
        throw note(networkError(err));
      }
      const method = (init?.method ?? 'GET').toUpperCase();
      // The SDK takes 405 to a GET (no server-initiated stream) or a DELETE (no session end) as an answer.
      if (!response.ok && !(response.status === 405 && method !== 'POST')) {
        await response.body?.cancel().catch(() => undefined);
        throw note(statusError(response.status));
      }
      const length = Number(response.headers.get('content-length') ?? 0);
      const tooLarge = () =>
        note(
          new McpToolError(
            `The MCP server's answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB.`,
            'response_too_large',
            false,
          ),
        );
      if (length > MAX_RESPONSE_BYTES) {
        await response.body?.cancel().catch(() => undefined);
        throw tooLarge();
      }
      return capped(response, tooLarge) as unknown as Response;
    };
    const headers: Record<string, string> = {};
    const overridden = new Set(Object.keys(extraHeaders).map((k) => k.toLowerCase()));
    for (const [k, v] of Object.entries(opts.headers)) if (!overridden.has(k.toLowerCase())) headers[k] = v;
    Object.assign(headers, extraHeaders);
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: pinnedFetch satisfies FetchLike,
      requestInit: { headers, redirect: 'manual' },
      // A broken server-initiated stream is not reopened: the session is short and bounded.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    const session = new Client(CLIENT_INFO, { capabilities: {} });
    client = session;
    // Errors of the background stream (GET) are not the session's: the requests report their own.
    session.onerror = () => undefined;
    const requestOptions = { signal: deadline.signal, timeout: opts.timeoutMs };
    return await Promise.race([
      (async () => {
        await session.connect(transport, requestOptions);
        const result = await work(session, requestOptions);
        await transport.terminateSession().catch(() => undefined);
        return result;
      })(),
      timedOut,
    ]);
  } catch (err) {
    throw toMcpToolError(deadline.signal.aborted ? await timedOut.catch((e: unknown) => e) : err, seen);
  } finally {
    clearTimeout(timer);
    await client?.close().catch(() => undefined);
    agent?.destroy().catch(() => undefined);
  }
}

/**
 * Lists the tools of an MCP server: connect, `initialize`, `tools/list` (following `nextCursor` until
 * `maxTools` tools are kept, at most 32 pages), close. Tools whose name does not match
 * `^[a-zA-Z0-9_-]{1,64}$` and repeated names are dropped; descriptions are cut at 1,024 characters; an
 * input schema that is not an object schema becomes `{type: 'object'}`. Picking the agent's
 * `allowed_tools` out of the list is the caller's job.
 * @param opts.maxTools tools kept at most (default 64)
 * @returns the tools in the server's order; `truncated` when the server had more than were kept
 * @throws McpToolError (within `timeoutMs`) when the server cannot be reached or answers badly
 */
export async function listMcpTools(
  opts: McpServerOptions & { maxTools?: number },
): Promise<{ tools: McpTool[]; truncated: boolean }> {
  const maxTools = opts.maxTools ?? DEFAULT_MAX_TOOLS;
  return inSession(opts, withTraceHeaders({}), async (client, requestOptions) => {
    const tools: McpTool[] = [];
    const names = new Set<string>();
    let cursor: string | undefined;
    let truncated = false;
    for (let page = 0; ; page++) {
      if (page === MAX_LIST_PAGES) {
        truncated = true;
        break;
      }
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListResult,
        requestOptions,
      );
      for (const raw of result.tools) {
        const tool = cleanTool(raw);
        if (!tool || names.has(tool.name)) continue;
        if (tools.length === maxTools) {
          truncated = true;
          break;
        }
        names.add(tool.name);
        tools.push(tool);
      }
      cursor = result.nextCursor;
      if (truncated || cursor === undefined) break;
      if (tools.length === maxTools) {
        truncated = true;
        break;
      }
    }
    return { tools, truncated };
  });
}

/**
 * Calls one tool of an MCP server: connect, `initialize`, `tools/call`, close. `Idempotency-Key:
 * <idempotencyKey>` goes on every HTTP request of the session (with `headers`), so the server can tell a
 * retry of the same tool call (the durable path reuses the key).
 * @returns `text`: the result's text parts joined with "\n" (other parts summarized, e.g.
 *   `[image image/png]`; `structuredContent` as JSON first when no part is text), cut at
 *   `MAX_TOOL_RESULT_CHARS` (16 KB); `ok: false` when the tool reported `isError`
 * @throws McpToolError (within `timeoutMs`) when the server cannot be reached or answers badly, or
 *   refuses the call with a JSON-RPC error (unknown tool, invalid arguments: `protocol_error`)
 */
export async function callMcpTool(
  opts: McpServerOptions & { name: string; arguments: Record<string, unknown>; idempotencyKey: string },
): Promise<{ ok: boolean; text: string }> {
  return inSession(
    opts,
    withTraceHeaders({ 'Idempotency-Key': opts.idempotencyKey }),
    async (client, requestOptions) => {
      const result = await client.request(
        { method: 'tools/call', params: { name: opts.name, arguments: opts.arguments } },
        CallResult,
        requestOptions,
      );
      const parts = result.content ?? [];
      const hasText = parts.some((part) => isObject(part) && part.type === 'text');
      const structured =
        !hasText && result.structuredContent !== undefined ? [JSON.stringify(result.structuredContent)] : [];
      const text = [...structured, ...parts.map(describePart)].join('\n');
      return { ok: result.isError !== true, text: text.slice(0, MAX_TOOL_RESULT_CHARS) };
    },
  );
}
