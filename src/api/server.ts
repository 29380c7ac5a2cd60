/**
 * Starts the HTTP server for the app (with the ConversationRelay socket) and the periodic sweeps, and
 * stops it with a deadline: relay sessions closed, no new connections, in-flight requests given up to
 * `SHUTDOWN_GRACE_MS` to finish, then every connection closed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { createApp } from './app';
import { codecApp } from './codec';
import { config } from '../config';
import { attachConversationRelay } from './twilio/relay';
import { sweepExpiredWebhookSecrets } from '../models/webhooks';
import { sweepIdempotencyRecords } from './idempotency';
import { logger } from '../logger';

/** How long a client may take to send a whole request, headers and body (ms): Node's `requestTimeout`. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** How long in-flight requests may take to finish once the API is stopping (ms). */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningApi {
  port: number;
  url: string;
  server: http.Server;
  /** The codec server's operator listener (`CODEC_PORT` set): its address; otherwise `/codec` is on `url`. */
  codecUrl?: string;
  /**
   * Stops: closes relay sessions and idle connections, stops accepting, waits for in-flight requests up
   * to `graceMs` (default `SHUTDOWN_GRACE_MS`), then closes every connection left. Resolves when closed.
   */
  close(graceMs?: number): Promise<void>;
}

/** `server.listen` as a promise: resolves once listening, rejects on a listen error (port taken). */
function listen(server: http.Server, port: number, host?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The codec server's operator listener, when `CODEC_PORT` is set (src/api/codec.ts `codecApp`), on
 * `CODEC_HOST` (default 127.0.0.1): the public API then serves no `/codec`. Undefined when unset.
 * @throws Error naming CODEC_PORT when the port is taken
 */
async function startCodecListener(): Promise<{ server: http.Server; url: string } | undefined> {
  const { codecPort, codecHost } = config();
  if (codecPort === undefined) return undefined;
  const server = http.createServer(codecApp());
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await listen(server, codecPort, codecHost).catch((err: Error) => {
    throw new Error(
      `the codec server could not listen on ${codecHost}:${codecPort} (CODEC_HOST/CODEC_PORT): ${err.message}`,
    );
  });
  const { port } = server.address() as AddressInfo;
  logger.info(`codec server listening on ${codecHost}:${port} (operators only)`);
  return { server, url: `http://${codecHost.includes(':') ? `[${codecHost}]` : codecHost}:${port}` };
}

/**
 * Listens on `port` (0 = any free port) on `host` (default all interfaces), and on the codec server's
 * operator listener when `CODEC_PORT` is set (`startCodecListener`).
 */
export async function startApi(opts: { temporal: Client; port: number; host?: string }): Promise<RunningApi> {
  const app = createApp({ temporal: opts.temporal });
  const server = http.createServer(app);
  // Longer than common load balancers' idle timeout (60 s), so they close idle connections first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // A request's headers and body must arrive within this (slow-loris bodies); 10,000-contact campaigns
  // (about 1 MB) arrive in well under it. Node answers 408 and closes the connection.
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  const relay = attachConversationRelay(server, opts.temporal);
  await listen(server, opts.port, opts.host);
  const codec = await startCodecListener().catch((err: unknown) => {
    server.close();
    throw err;
  });
  const sweep = setInterval(
    () => {
      sweepIdempotencyRecords().catch((err) => logger.warn('idempotency sweep failed', { error: String(err) }));
      sweepExpiredWebhookSecrets().catch((err) => logger.warn('webhook secret sweep failed', { error: String(err) }));
    },
    10 * 60 * 1000,
  );
  sweep.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    server,
    codecUrl: codec?.url,
    close: async (graceMs = SHUTDOWN_GRACE_MS) => {
      clearInterval(sweep);
      relay.close();
      codec?.server.close();
      codec?.server.closeAllConnections(); // operators' decode requests: nothing to drain
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections become idle as their requests finish: close them as they do.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
    },
  };
}
