/**
 * Helpers of the trace tests (test/integration/traces.test.ts): a real tracing backend (Jaeger v2, built
 * from the Go module proxy on a machine's first use: only when a trace test runs), the service's own API
 * and worker processes (src/api/main.ts, src/worker/main.ts) exporting to it through the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, against the harness's Temporal, database and fake LLM on a task queue
 * of their own, and Jaeger's query API read back (`GET /api/traces/{trace_id}`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { config } from '../../src/config';
import { freePort, jaegerBinary, startJaeger, type RunningJaeger } from '../../src/dev/infra';
import { h, loopbackHttpsEnv, stopWorkerProcess } from './harness';

/** Starts Jaeger on free loopback ports, its files under the harness's data directory. */
export async function startTestJaeger(): Promise<RunningJaeger> {
  const binary = await jaegerBinary();
  return startJaeger(binary, {
    dataDir: path.join(h().dataDir, `jaeger-${Date.now()}`),
    otlpPort: await freePort(),
    queryPort: await freePort(),
    grpcPort: await freePort(),
  });
}

/** A process of the service started by `startTracedService`, with what it wrote to stderr. */
export interface ServiceProcess {
  proc: ChildProcess;
  /** Its log lines so far (stderr: winston writes there). */
  log(): string;
}

/** The API and worker processes of `startTracedService`. */
export interface TracedService {
  api: ServiceProcess;
  worker: ServiceProcess;
  /** `http://127.0.0.1:<port>` of the API process. */
  url: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../..'); // dist/

/** Starts `dist/src/<entry>` with `env`; resolves once its stderr shows `ready` (a regular expression). */
async function startEntry(entry: string, env: Record<string, string>, ready: RegExp): Promise<ServiceProcess> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'src', entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (c) => (err += c));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => ready.test(err) && (clearInterval(timer), resolve()), 100);
    proc.once('exit', (code) => (clearInterval(timer), reject(new Error(`${entry} exited ${code}: ${err}`))));
  });
  return { proc, log: () => err };
}

/**
 * Starts the service's API and worker as their production entry points do, each with `extraEnv` (the
 * OTEL_* variables of the test) on the task queue `taskQueue`, JSON info logs on stderr. Resolves once
 * the worker runs and the API listens.
 */
export async function startTracedService(taskQueue: string, extraEnv: Record<string, string>): Promise<TracedService> {
  const port = await freePort();
  const env = {
    MONGODB_URI: h().ferret.uri,
    TEMPORAL_ADDRESS: h().env.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: h().llm.baseUrl,
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_MODEL: 'fake-model',
    SECRETS_KEY: config().secretsKey ?? '',
    CALLING_HOURS_ENFORCEMENT: config().callingHoursEnforcement,
    DEFAULT_ALLOWED_COUNTRIES: 'US',
    PORT: String(port),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...loopbackHttpsEnv(),
    ...extraEnv,
  };
  const worker = await startEntry('worker/main.js', env, /worker running/);
  try {
    const api = await startEntry('api/main.js', env, /API listening/);
    return {
      api,
      worker,
      url: `http://127.0.0.1:${port}`,
      async stop() {
        await stopWorkerProcess(api.proc, 'SIGTERM');
        await stopWorkerProcess(worker.proc, 'SIGTERM');
      },
    };
  } catch (err) {
    await stopWorkerProcess(worker.proc, 'SIGKILL');
    throw err;
  }
}

/** One span as Jaeger's query API answers it, its tags flattened. */
export interface JaegerSpan {
  spanID: string;
  traceID: string;
  operationName: string;
  /** The span's parent (its CHILD_OF reference), or undefined for a root. */
  parent: string | undefined;
  tags: Record<string, unknown>;
  service: string;
  /** µs since the epoch, and µs. */
  startTime: number;
  duration: number;
}

/** The spans Jaeger holds of `traceId` (none while it has none): `GET /api/traces/{trace_id}`. */
export async function traceSpans(jaeger: RunningJaeger, traceId: string): Promise<JaegerSpan[]> {
  const res = await fetch(`${jaeger.queryUrl}/api/traces/${traceId}`);
  if (res.status === 404) return [];
  if (res.status !== 200) throw new Error(`jaeger answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as {
    data: {
      spans: {
        spanID: string;
        traceID: string;
        operationName: string;
        references: { refType: string; spanID: string }[];
        tags: { key: string; value: unknown }[];
        processID: string;
        startTime: number;
        duration: number;
      }[];
      processes: Record<string, { serviceName: string }>;
    }[];
  };
  return body.data.flatMap((t) =>
    t.spans.map((s) => ({
      spanID: s.spanID,
      traceID: s.traceID,
      operationName: s.operationName,
      parent: s.references.find((r) => r.refType === 'CHILD_OF')?.spanID,
      tags: Object.fromEntries(s.tags.map((tag) => [tag.key, tag.value])),
      service: t.processes[s.processID]?.serviceName ?? '',
      startTime: s.startTime,
      duration: s.duration,
    })),
  );
}

/** The chain of operation names from `span` up to the trace's root (`span` first). */
export function ancestry(spans: JaegerSpan[], span: JaegerSpan): string[] {
  const byId = new Map(spans.map((s) => [s.spanID, s]));
  const names: string[] = [];
  for (let s: JaegerSpan | undefined = span; s && names.length < 100; s = s.parent ? byId.get(s.parent) : undefined)
    names.push(s.operationName);
  return names;
}

/** The `traceparent` header's parts (`00-<trace id>-<parent span id>-<flags>`), or null when malformed. */
export function parseTraceparent(header: unknown): { traceId: string; spanId: string; flags: string } | null {
  const m = typeof header === 'string' ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header) : null;
  return m ? { traceId: m[1], spanId: m[2], flags: m[3] } : null;
}
