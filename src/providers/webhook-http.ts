/**
 * One webhook HTTP attempt (DESIGN.md section 5): a POST of the raw event JSON to an HTTPS endpoint,
 * success = a 2xx response within the time limit (10 s). Redirects are not followed (a 3xx is a
 * failure, as at Stripe), the response body is read up to 64 KiB and its first 1,000 characters kept.
 *
 * The host is resolved and checked (src/providers/webhook-address.ts) right before connecting, and the socket
 * connects to the checked address only. TLS is verified against Node's roots plus `NODE_EXTRA_CA_CERTS`
 * (Node's default), or, when `WEBHOOK_CA_FILE` is set, against those plus that file.
 */
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import type { LookupFunction } from 'node:net';
import { resolveWebhookHost, WebhookAddressError, type ResolvedAddress } from './webhook-address';

/** The time limit of one attempt (connect, TLS, request and the whole response), ms. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Response bytes read at most; the rest is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Response characters kept in the attempt log. */
export const KEPT_RESPONSE_CHARS = 1000;

export interface AttemptOutcome {
  /** True for a 2xx. */
  ok: boolean;
  /** HTTP status, or null when no response arrived (network error, timeout, refused address). */
  statusCode: number | null;
  /** From just before DNS resolution to the end of the response (or the failure), ms. */
  latencyMs: number;
  /** What went wrong (null on success); for a non-2xx, `HTTP <status>`. */
  error: string | null;
  /** Stable code of the failure: `http_status`, `timeout`, `network_error`, `tls_error`, `address_refused`, `host_unresolvable`. */
  errorCode: string | null;
  /** First characters of the response body. */
  responseBody: string | null;
  /** The endpoint's `Retry-After` (on 429/503), ms, or null. */
  retryAfterMs: number | null;
}

export interface PostWebhookOptions {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
  /** PEM file of extra trusted CAs (`WEBHOOK_CA_FILE`). */
  caFile?: string;
  timeoutMs?: number;
}

/** One guarded HTTPS request (`httpsRequest`): a webhook's POST, or the call of a tool (GET or POST). */
export interface HttpsRequestOptions extends Omit<PostWebhookOptions, 'body'> {
  method: 'GET' | 'POST';
  /** The request body (POST); null sends none. */
  body: string | null;
  /** Response bytes read at most (the connection is closed past them); default 64 KiB. */
  maxResponseBytes?: number;
  /** Response characters kept in `responseBody`; default `KEPT_RESPONSE_CHARS`. */
  keptChars?: number;
  /**
   * Keep the connection for the next request to the same host at the same checked address (a tool called
   * again in a call saves its TCP and TLS handshakes: a round trip or two to a remote server). Default
   * false: one connection per request (webhooks).
   */
  keepAlive?: boolean;
}

/** A DNS lookup that answers `pinned` whatever it is asked: the socket connects to the checked address only. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

/** Kept-alive connection pools by checked address, host, port and CA file (`keepAliveAgent`), oldest first. */
const keptAgents = new Map<string, https.Agent>();
/** Pools kept at most; the oldest is closed past it. */
const MAX_KEPT_AGENTS = 256;

/**
 * The pool of kept-alive connections to `url`'s host at the checked address `pinned`: its sockets connect
 * to that address only (the pool is keyed by it, so a host that resolves elsewhere later gets another
 * pool, checked anew), idle ones close after 30 s.
 */
function keepAliveAgent(url: URL, pinned: ResolvedAddress, caFile: string | undefined): https.Agent {
  const key = [pinned.address, url.hostname, url.port, caFile ?? ''].join('|');
  const found = keptAgents.get(key);
  if (found) return found;
  const agent = new https.Agent({
    keepAlive: true,
    keepAliveMsecs: 10_000,
    maxSockets: 32,
    maxFreeSockets: 4,
    timeout: 30_000,
    lookup: pinnedLookup(pinned),
    ...(caFile ? { secureContext: secureContextWith(caFile) } : {}),
  });
  if (keptAgents.size >= MAX_KEPT_AGENTS) {
    const [oldestKey, oldest] = keptAgents.entries().next().value!;
    keptAgents.delete(oldestKey);
    oldest.destroy();
  }
  keptAgents.set(key, agent);
  return agent;
}

let contextCache: { file: string; context: tls.SecureContext } | undefined;

/**
 * The TLS context trusting `caFile` too: bundled roots + NODE_EXTRA_CA_CERTS (read here, since an
 * explicit `ca` replaces the default store) + the file. Built once (parsing ~140 roots per request
 * would cost tens of milliseconds of CPU each time).
 */
export function secureContextWith(caFile: string): tls.SecureContext {
  if (contextCache?.file === caFile) return contextCache.context;
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  const ca = [
    ...tls.rootCertificates,
    ...(extra && fs.existsSync(extra) ? [fs.readFileSync(extra, 'utf8')] : []),
    fs.readFileSync(caFile, 'utf8'),
  ];
  contextCache = { file: caFile, context: tls.createSecureContext({ ca }) };
  return contextCache.context;
}

/** Parses `Retry-After` (seconds or an HTTP date) into ms from now. */
function retryAfter(value: string | string[] | undefined): number | null {
  if (typeof value !== 'string') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * Makes one webhook attempt: a POST of `body`. Never throws for the endpoint's faults: they come back as
 * `ok: false` with an `error`; only programming errors throw.
 */
export function postWebhook(opts: PostWebhookOptions): Promise<AttemptOutcome> {
  return httpsRequest({ ...opts, method: 'POST' });
}

/**
 * One HTTPS request to an address checked right before connecting (the SSRF guard of
 * ./webhook-address.ts, the socket pinned to the checked address), redirects not followed (a 3xx is an
 * `http_status` failure), the response read up to `maxResponseBytes` (`truncated` says more was sent) and
 * its first `keptChars` characters kept, the whole exchange bounded by `timeoutMs`.
 * Never throws for the server's faults: they come back as `ok: false` with an `error` and `errorCode`.
 */
export async function httpsRequest(opts: HttpsRequestOptions): Promise<AttemptOutcome & { truncated: boolean }> {
  const maxBytes = opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const keptChars = opts.keptChars ?? KEPT_RESPONSE_CHARS;
  const started = Date.now();
  const fail = (
    errorCode: string,
    error: string,
    statusCode: number | null = null,
    responseBody: string | null = null,
    retryAfterMs: number | null = null,
  ): AttemptOutcome & { truncated: boolean } => ({
    truncated: false,
    ok: false,
    statusCode,
    latencyMs: Date.now() - started,
    error,
    errorCode,
    responseBody,
    retryAfterMs,
  });
  const url = new URL(opts.url);
  if (url.protocol !== 'https:') return fail('address_refused', 'Webhook URLs must use HTTPS.');
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolveWebhookHost(url, opts.allowPrivate);
  } catch (err) {
    if (err instanceof WebhookAddressError) return fail(err.code, err.message);
    throw err;
  }
  const pinned = addresses[0];
  const timeoutMs = opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS;

  return new Promise<AttemptOutcome & { truncated: boolean }>((resolve) => {
    let settled = false;
    const done = (outcome: AttemptOutcome & { truncated: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = https.request(
      {
        method: opts.method,
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || 443,
        path: url.pathname + url.search,
        headers: {
          ...opts.headers,
          ...(opts.body !== null ? { 'Content-Length': String(Buffer.byteLength(opts.body)) } : {}),
        },
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        ...(opts.keepAlive
          ? { agent: keepAliveAgent(url, pinned, opts.caFile) }
          : {
              lookup: pinnedLookup(pinned),
              agent: false,
              ...(opts.caFile ? { secureContext: secureContextWith(opts.caFile) } : {}),
            }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < maxBytes) chunks.push(chunk);
          size += chunk.length;
          if (size > maxBytes) res.destroy();
        });
        const finish = () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8').slice(0, keptChars);
          if (status >= 200 && status < 300) {
            done({
              truncated: size > maxBytes,
              ok: true,
              statusCode: status,
              latencyMs: Date.now() - started,
              error: null,
              errorCode: null,
              responseBody: text,
              retryAfterMs: null,
            });
          } else {
            done(
              fail(
                'http_status',
                `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
                status,
                text,
                status === 429 || status === 503 ? retryAfter(res.headers['retry-after']) : null,
              ),
            );
          }
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(fail('timeout', `No response within ${timeoutMs / 1000} seconds.`));
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const tlsError = /certificate|self.signed|SSL|TLS|ERR_TLS|UNABLE_TO|CERT_/i.test(`${err.code} ${err.message}`);
      done(fail(tlsError ? 'tls_error' : 'network_error', `${err.code ? err.code + ': ' : ''}${err.message}`));
    });
    req.end(opts.body ?? undefined);
  });
}
