/**
 * A real HTTPS server on loopback that receives webhooks in the tests and the benchmark, with a
 * self-signed certificate made by `openssl` at test time (`testCertificate`, one per process, in a
 * temporary directory; SAN `IP:127.0.0.1`, `DNS:localhost`). The certificate is its own CA: pass
 * `certFile` through `NODE_EXTRA_CA_CERTS` to a process started afterwards (the worker child process of
 * the crash test), or through `WEBHOOK_CA_FILE` / `config().webhookCaFile` to the running one (Node reads
 * NODE_EXTRA_CA_CERTS only at start; the harness does this).
 *
 * Each path answers by its `route` (default 200 `{"received":true}`), which may also hold a request
 * unanswered. Every request is kept in `received`, raw body included, for signature checks.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

let certificate: TestCertificate | undefined;

/** The process's self-signed loopback certificate (made on first use with `openssl req -x509`). */
export function testCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-webhook-cert-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'pipe' },
  );
  certificate = { certFile, keyFile, cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
  return certificate;
}

/** One request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  /** The request target as sent: path and query. */
  target: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** ms since the epoch, when the body had arrived. */
  receivedMs: number;
  /** ms since the epoch, when the route's answer was about to be sent (absent while held or unanswered). */
  answeredMs?: number;
  /** Svc-Event-Id, for counting deliveries per event. */
  eventId: string | undefined;
  attempt: number;
}

/** How a route answers: a status (and body), or `hold` (never answer; the client times out or dies). */
export type RouteAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'hold';
/** `n` counts the requests this path has seen, from 1. */
export type Route = (req: ReceivedWebhook, n: number) => RouteAnswer | Promise<RouteAnswer>;

export interface HttpsReceiver {
  port: number;
  /** `https://127.0.0.1:<port><path>` */
  url(pathname: string): string;
  received: ReceivedWebhook[];
  /** Sets how `pathname` answers. */
  route(pathname: string, answer: Route): void;
  /** Requests to `pathname` so far. */
  at(pathname: string): ReceivedWebhook[];
  /** Resolves once `pred(received)` holds; rejects after `timeoutMs`. */
  waitFor(pred: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the receiver on 127.0.0.1: a free port, or `opts.port` (the chaos bench brings a receiver back
 * on the port its endpoint names after taking it down).
 */
export async function startHttpsReceiver(opts: { port?: number } = {}): Promise<HttpsReceiver> {
  const { cert, key } = testCertificate();
  const received: ReceivedWebhook[] = [];
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const held = new Set<ServerResponse>();
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const pathname = (req.url ?? '/').split('?')[0];
      const item: ReceivedWebhook = {
        path: pathname,
        target: req.url ?? '/',
        headers: req.headers,
        rawBody,
        body,
        receivedMs: Date.now(),
        eventId: req.headers['svc-event-id'] as string | undefined,
        attempt: Number(req.headers['svc-delivery-attempt'] ?? 0),
      };
      received.push(item);
      const n = (counts.get(pathname) ?? 0) + 1;
      counts.set(pathname, n);
      const route = routes.get(pathname);
      const answer = route ? await route(item, n) : { status: 200 };
      if (answer === 'hold') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      item.answeredMs = Date.now();
      res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
      res.end(answer.body ?? JSON.stringify({ received: true }));
    });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (pathname) => `https://127.0.0.1:${port}${pathname}`,
    received,
    route: (pathname, answer) => void routes.set(pathname, answer),
    at: (pathname) => received.filter((r) => r.path === pathname),
    async waitFor(pred, timeoutMs = 30_000, what = 'the expected webhooks') {
      const deadline = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${what}; received: ${JSON.stringify(received.map((r) => [r.path, r.body?.type, r.eventId, r.attempt]))}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
