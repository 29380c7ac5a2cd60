/**
 * Starts the HTTP server for the app and the periodic sweep of expired idempotency records.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { createApp } from './app';
import { attachConversationRelay } from './twilio';
import { sweepIdempotencyRecords } from './idempotency';
import { logger } from '../logger';

export interface RunningApi {
  port: number;
  url: string;
  server: http.Server;
  /** Stops accepting connections, closes idle ones, and stops the sweep. */
  close(): Promise<void>;
}

/** Listens on `port` (0 = any free port) on `host` (default all interfaces). */
export async function startApi(opts: { temporal: Client; port: number; host?: string }): Promise<RunningApi> {
  const app = createApp({ temporal: opts.temporal });
  const server = http.createServer(app);
  attachConversationRelay(server, opts.temporal);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const sweep = setInterval(() => {
    sweepIdempotencyRecords().catch((err) => logger.warn('idempotency sweep failed', { error: String(err) }));
  }, 10 * 60 * 1000);
  sweep.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    server,
    close: async () => {
      clearInterval(sweep);
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
