/**
 * Widget test helpers: an API in its own process (the production entry point, dist/src/api/main.js,
 * against the harness's FerretDB and Temporal), a server-sent events reader over `fetch` that can be cut
 * at any moment, and a TCP proxy on loopback whose connections a test can kill (a proxy dropping the
 * browser's stream).
 */
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { config } from '../../src/config';
import { h } from './harness';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An API process of its own; `url` is its base URL. */
export interface ApiProcess {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node dist/src/api/main.js` on a free port with the harness's store and Temporal; `env` overrides. */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, [path.join(__dirname, '..', '..', 'src', 'api', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      MONGODB_URI: h().ferret.uri,
      TEMPORAL_ADDRESS: h().env.address,
      TEMPORAL_TASK_QUEUE: h().taskQueue,
      SECRETS_KEY: config().secretsKey ?? '',
      LOG_LEVEL: 'error',
      WIDGET_RATE_LIMIT_IP: '0',
      WIDGET_RATE_LIMIT_SESSION: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (c) => (err += c));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`API process exited ${proc.exitCode}: ${err}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`API process did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** One server-sent event as read. */
export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

/** What `readStream` saw. */
export interface StreamRead {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  retry: number | null;
}

/**
 * Opens `url` as an event stream and reads it (WHATWG server-sent events parsing: fields, blank line ends
 * an event, `:` comments) until `stop(events)` says so, `timeoutMs` passes, or the server ends it; then
 * cuts the connection. A non-200 answer is returned with its status and no events.
 */
export async function readStream(
  url: string,
  opts: { headers?: Record<string, string>; stop?: (events: SseEvent[]) => boolean; timeoutMs?: number } = {},
): Promise<StreamRead> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? 10_000);
  const out: StreamRead = { status: 0, headers: new Headers(), events: [], comments: [], retry: null };
  try {
    const res = await fetch(url, { headers: opts.headers, signal: abort.signal });
    out.status = res.status;
    out.headers = res.headers;
    if (res.status !== 200 || !res.body) {
      await res.text();
      return out;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    let current: SseEvent = { event: 'message', id: null, data: '' };
    let hasData = false;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line === '') {
          if (hasData) out.events.push(current);
          current = { event: 'message', id: null, data: '' };
          hasData = false;
          if (opts.stop?.(out.events)) return out;
          continue;
        }
        if (line.startsWith(':')) {
          out.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') current.event = value;
        else if (field === 'id') current.id = value;
        else if (field === 'retry') out.retry = Number(value);
        else if (field === 'data') {
          current.data += (hasData ? '\n' : '') + value;
          hasData = true;
        }
      }
    }
    return out;
  } catch (err) {
    if ((err as Error).name === 'AbortError') return out;
    throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** A loopback TCP proxy to `target`: `kill()` cuts every open connection; `hold(true)` refuses new ones. */
export interface CuttableProxy {
  url: string;
  kill(): void;
  hold(refuse: boolean): void;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    kill: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    hold: (refuse) => {
      refusing = refuse;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
