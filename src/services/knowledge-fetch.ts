/**
 * The fetches of a knowledge crawl (src/services/knowledge-crawl.ts): one `GET` of a web page, a sitemap or
 * a `robots.txt`, guarded like every outbound request of a tenant's:
 *
 * - every hop's host is resolved and checked by the SSRF guard (src/providers/webhook-address.ts
 *   `resolveWebhookHost`: public unicast addresses only, never the service's own infrastructure ports or
 *   addresses) and the socket connects to the checked address only (no DNS rebinding). Loopback is
 *   allowed only with `KNOWLEDGE_CRAWL_ALLOW_LOOPBACK` (tests), every other private range never;
 * - redirects (301, 302, 303, 307, 308) are followed by hand, at most `MAX_REDIRECTS`, each target checked
 *   anew (a redirect to a private address is refused) and a URL seen twice in one chain is a loop;
 * - the whole exchange (every hop, headers and body) has one time limit (`KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS`,
 *   default 20 s): a page that never ends fails with `timeout`; the body is read as it streams and cut at
 *   `maxBytes` (5 MB for a page), the connection then closed.
 *
 * Never throws for the site's faults: they come back as `{ok: false, code, reason}`.
 */
import http from 'node:http';
import https from 'node:https';
import { config } from '../config';
import { resolveWebhookHost, WebhookAddressError, type ResolvedAddress } from '../providers/webhook-address';
import { pinnedLookup } from '../providers/webhook-http';

/** The crawler's product token, what a site's robots.txt names to address it. */
export const CRAWLER_TOKEN = 'SvcAssistantBot';
/** The `User-Agent` of every crawl request: the token, its version and where the service is. */
export const crawlerUserAgent = () => `${CRAWLER_TOKEN}/1.0 (+${config().publicBaseUrl})`;

/** Redirects followed at most per fetch. */
export const MAX_REDIRECTS = 5;
/** Bytes of a page read at most; the rest is cut. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

/** A fetched resource: its final URL (after redirects), status, content type and body (possibly cut). */
export interface FetchedResource {
  ok: true;
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
  /** True when the body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

/** Why a fetch failed: `code` stable (`address_refused`, `host_unresolvable`, `redirect_loop`, `too_many_redirects`, `off_site_redirect`, `http_status`, `timeout`, `network_error`, `unsupported_scheme`), `reason` a sentence. */
export interface FetchFailure {
  ok: false;
  code: string;
  reason: string;
  /** The HTTP status when one arrived. */
  status: number | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One hop: a GET to the checked address, the body read up to `maxBytes` before `deadline`. */
function getOnce(
  url: URL,
  pinned: ResolvedAddress,
  maxBytes: number,
  deadline: number,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      {
        method: 'GET',
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: url.pathname + url.search,
        headers: {
          'User-Agent': crawlerUserAgent(),
          Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
          'Accept-Encoding': 'identity',
        },
        lookup: pinnedLookup(pinned),
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.destroy();
          return resolve({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
        }
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length >= room) {
            if (room > 0) chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = chunk.length > room || !res.complete;
            res.destroy();
            clearTimeout(timer);
            resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated });
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(
      () => {
        const err = new Error('timeout');
        (err as { code?: string }).code = 'ETIMEDOUT_CRAWL';
        req.destroy(err);
        reject(err);
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

/**
 * GETs `start`, following redirects within the site `sameSite` accepts (see the module's header).
 * @param opts.maxBytes body bytes kept (default `MAX_PAGE_BYTES`)
 * @param opts.sameSite whether a redirect target stays on the crawled site; a target it refuses fails
 *   `off_site_redirect` (checked after the SSRF guard, so a private target is named as such)
 * @returns the resource, whatever its status (the caller judges 4xx/5xx), or a failure
 */
export async function fetchForCrawl(
  start: string,
  opts: { maxBytes?: number; sameSite?: (url: URL) => boolean; timeoutMs?: number } = {},
): Promise<FetchedResource | FetchFailure> {
  const timeoutMs = opts.timeoutMs ?? config().knowledgeCrawlPageTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  const allow = config().knowledgeCrawlAllowLoopback ? ('loopback' as const) : false;
  const fail = (code: string, reason: string, status: number | null = null): FetchFailure => ({
    ok: false,
    code,
    reason,
    status,
  });
  const seen = new Set<string>();
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return fail('unsupported_scheme', `${url.protocol} URLs are not fetched; only http and https.`);
    seen.add(url.href);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolveWebhookHost(url, allow);
    } catch (err) {
      if (err instanceof WebhookAddressError)
        return fail(err.code, hop ? `Redirected to ${url.href}: ${err.message}` : err.message);
      throw err;
    }
    if (hop > 0 && opts.sameSite && !opts.sameSite(url))
      return fail('off_site_redirect', `Redirected to ${url.href}, outside the crawled site.`);
    let res: Awaited<ReturnType<typeof getOnce>>;
    try {
      res = await getOnce(url, addresses[0], opts.maxBytes ?? MAX_PAGE_BYTES, deadline);
    } catch (err) {
      if ((err as { code?: string }).code === 'ETIMEDOUT_CRAWL' || Date.now() >= deadline)
        return fail('timeout', `The page did not arrive within ${timeoutMs / 1000} s.`);
      return fail('network_error', `The request failed: ${(err as Error).message}.`);
    }
    if (!REDIRECTS.has(res.status)) {
      const type = res.headers['content-type'];
      return {
        ok: true,
        url: url.href,
        status: res.status,
        contentType: typeof type === 'string' ? type : null,
        body: res.body,
        truncated: res.truncated,
      };
    }
    const location = res.headers.location;
    if (!location) return fail('http_status', `HTTP ${res.status} without a Location header.`, res.status);
    const next = new URL(location, url);
    next.hash = '';
    if (seen.has(next.href)) return fail('redirect_loop', `Redirect loop: ${next.href} again.`, res.status);
    if (hop + 1 > MAX_REDIRECTS) return fail('too_many_redirects', `More than ${MAX_REDIRECTS} redirects.`, res.status);
    url = next;
  }
}
