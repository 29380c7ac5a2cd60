/**
 * `npm start` (after scripts/start.sh has compiled the code and prepared the embedded servers): the whole
 * service in the foreground with embedded defaults for whatever is not configured (DESIGN.md section 4):
 * the Temporal dev server (SQLite under DATA_DIR, Web UI on 8233), FerretDB on SQLite under DATA_DIR
 * unless MONGODB_URI is set, the offline demo model unless OPENAI_BASE_URL/OPENAI_API_KEY are set, then
 * the worker and the API on PORT. Seeds the demo organization and prints its test keys and a curl line.
 *
 * It says what it prepares and how long each step took; steps run side by side where they can (the two
 * servers start while the workflow code is bundled). `GET /metrics` on the API carries everything this
 * process counts, the Temporal SDK's worker metrics included (loopback only unless METRICS_TOKEN is set).
 *
 * Stopping (Ctrl-C, SIGTERM): the API stops taking requests, the worker drains, then Temporal and
 * FerretDB stop, in that order. The servers run in their own process group so that the terminal's
 * Ctrl-C reaches only this process and the database outlives the worker's last activity. A second
 * Ctrl-C stops at once. SECRETS_KEY, when not set, is generated once under DATA_DIR.
 *
 * The store is connected with the API's deadline (`DEPENDENCY_DEADLINE_MS`, 3 s), for the worker in this
 * process too: one that does not answer stops `npm start` in seconds with its address and the variable
 * that sets it, and during an outage the API here answers 503 in time, as `npm run start:api` does.
 *
 * Ports of the embedded servers: TEMPORAL_DEV_PORT (7233), TEMPORAL_UI_PORT (8233), FERRETDB_PORT (27017).
 *
 * `npm start -- --traces` also starts Jaeger (./traces.ts) and sends the traces there; with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set instead, they go to that backend (src/platform/tracing.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { loadConfig, MIN_CODEC_TOKEN_LENGTH, setConfig, type Config } from '../config';
import { DEPENDENCY_DEADLINE_MS } from '../errors';
import { connectStore, disconnectStore } from '../models/register';
import { isStoreUnavailable } from '../models/store';
import { connectClient, ensureSearchAttributes } from '../platform/temporal';
import { dataConverter } from '../platform/payload-codec';
import { adoptFirstVersion, createWorker, WORKFLOWS_PATH } from '../worker/worker';
import { freeLoopbackAddress, installRuntime } from '../worker/runtime';
import { startApi, type RunningApi } from '../api/server';
import { logger } from '../logger';
import { DEMO_MODEL_NAME, startDemoModel } from './demo-model';
import { infraBinaries, portInUse, startFerretDB, startTemporalDevServer, type ChildServer } from './infra';
import { startTracing, stopTracing, workflowInterceptorModules } from '../platform/tracing';
import { startDevTraces, TRACES_FLAG } from './traces';
import { seedDemo, seedDemoUser } from './seed';
import { demoNumberInCallingHours } from './demo-number';
import { ensureCallReconcilerSchedule } from '../services/calls';
import { ensureRetentionSweepSchedule } from '../services/privacy-schedule';
import { ensureRecordingRetentionSchedule } from '../services/recordings';
import { ensureAuditRetentionSchedule } from '../services/audit';
import { backfillUsageRollups } from '../services/usage-rollups';

/** The development SECRETS_KEY: generated once and kept in `DATA_DIR/secrets.key` (mode 0600). */
function devSecretsKey(dataDir: string, name = 'secrets.key'): string {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * The error `npm start` stops with when the store does not answer within `DEPENDENCY_DEADLINE_MS` (the
 * API's deadline, so that the API in this process answers an outage 503 in time and a wrong address
 * fails in seconds): the host(s) tried, credentials left out, and the variable that sets them.
 * @param embedded the store is the FerretDB this process started (`FERRETDB_PORT`), not `MONGODB_URI`
 * @returns `err` itself when it is not an unanswered store (a malformed URI, a refused login: the driver's
 *   own message says it)
 */
function storeUnreachable(err: unknown, uri: string, embedded: boolean): unknown {
  if (!isStoreUnavailable(err)) return err;
  const hosts = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]+)/.exec(uri)?.[1] ?? 'the configured address';
  const setting = embedded
    ? 'the embedded FerretDB started above (FERRETDB_PORT sets its port; MONGODB_URI uses another store)'
    : 'MONGODB_URI sets it; unset it to run the embedded FerretDB';
  return new Error(
    `the store (MongoDB) at ${hosts} did not answer within ${DEPENDENCY_DEADLINE_MS / 1000} s: ${setting}`,
  );
}

/** Seconds since `npm start` (scripts/start.sh exports SVC_STARTED_AT_MS), else since this process began. */
function elapsed(): number {
  const origin = Number(process.env.SVC_STARTED_AT_MS) || performance.timeOrigin;
  return Math.round((Date.now() - origin) / 1000);
}

/**
 * Runs one preparation step, saying what it is, when it is done and how long it took, and every 10 s
 * while it lasts ("still bundling the workflow code (20 s)…").
 */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  logger.info(`${what}…`);
  const timer = setInterval(
    () => logger.info(`still ${what} (${Math.round((Date.now() - started) / 1000)} s)…`),
    10_000,
  );
  try {
    const result = await fn();
    logger.info(`${what}: done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return result;
  } finally {
    clearInterval(timer);
  }
}

/** The ports `npm start` binds for its embedded servers (environment, else the defaults). */
interface DevPorts {
  temporal: number;
  ui: number;
  ferret: number;
}

/**
 * Refuses to start when a port an embedded server needs is taken (the message says which variable
 * moves it or which address uses an outside server instead).
 * @throws Error naming the port and the way out
 */
async function checkPorts(ports: DevPorts, needTemporal: boolean, needMongo: boolean): Promise<void> {
  if (needTemporal && (await portInUse(ports.temporal)))
    throw new Error(
      `port ${ports.temporal} is in use: stop what runs there, set TEMPORAL_DEV_PORT, or set TEMPORAL_ADDRESS to use that server`,
    );
  if (needTemporal && ports.ui && (await portInUse(ports.ui)))
    throw new Error(`port ${ports.ui} is in use: stop what runs there or set TEMPORAL_UI_PORT`);
  if (needMongo && (await portInUse(ports.ferret)))
    throw new Error(`port ${ports.ferret} is in use: stop what runs there, set FERRETDB_PORT, or set MONGODB_URI`);
}

/**
 * Starts the Temporal dev server (with its Web UI) and FerretDB side by side, each only when no outside
 * address is configured, and points `cfg` at them. The servers are pushed onto `children` as they start,
 * so a failure of the other still stops them. Returns the Web UI's address to print.
 */
async function startEmbeddedServers(
  cfg: Config,
  ports: DevPorts,
  children: ChildServer[],
): Promise<string | undefined> {
  const needTemporal = !cfg.temporalAddress;
  const needMongo = !cfg.mongodbUri;
  if (!needTemporal && !needMongo) return undefined;
  let uiUrl: string | undefined;
  const bins = await infraBinaries(); // at once when scripts/start.sh prepared them; else shows progress
  await Promise.all([
    needTemporal &&
      step(`starting the Temporal dev server on 127.0.0.1:${ports.temporal}`, async () => {
        // The Web UI decodes encrypted payloads through the API's codec server; the UI sends no
        // credentials of its own, so its endpoint carries the operator token (DATA_DIR/codec.token: 64 hex
        // digits, above the 32 characters CODEC_TOKEN needs).
        cfg.codecToken ??= devSecretsKey(cfg.dataDir, 'codec.token');
        if (cfg.codecToken.length < MIN_CODEC_TOKEN_LENGTH)
          throw new Error(
            `${path.join(cfg.dataDir, 'codec.token')} holds a token shorter than ${MIN_CODEC_TOKEN_LENGTH} characters: delete it (a new one is generated) or set CODEC_TOKEN`,
          );
        if (!process.env.CODEC_CORS_ORIGINS)
          cfg.codecCorsOrigins = [`http://localhost:${ports.ui}`, `http://127.0.0.1:${ports.ui}`];
        const t = await startTemporalDevServer(bins.temporal, {
          dataDir: cfg.dataDir,
          port: ports.temporal,
          uiPort: ports.ui,
          // The operator listener when CODEC_PORT sets one, else the API's port.
          uiCodecEndpoint: `http://localhost:${cfg.codecPort || cfg.port}/codec/${cfg.codecToken}`,
          detached: true,
        });
        children.push(t);
        cfg.temporalAddress = t.address;
        uiUrl = `http://127.0.0.1:${ports.ui}`;
        if (!process.env.TEMPORAL_UI_URL) cfg.temporalUiUrl = `http://localhost:${ports.ui}`;
      }),
    needMongo &&
      step(`starting FerretDB (SQLite under ${cfg.dataDir}/ferretdb) on 127.0.0.1:${ports.ferret}`, async () => {
        const f = await startFerretDB(bins.ferretdb, cfg.dataDir, ports.ferret, { detached: true });
        children.push(f);
        cfg.mongodbUri = f.uri;
      }),
  ]);
  return uiUrl;
}

/**
 * Connects the store and the Temporal client, makes sure the search attributes and the schedules exist,
 * then runs the worker (from the bundle built meanwhile) and the API. Each piece pushes its cleanup onto
 * `cleanups`; a worker that stops on its own calls `shutdown(1)`.
 */
async function startService(
  cfg: Config,
  needMongo: boolean,
  bundle: Promise<WorkflowBundleWithSourceMap>,
  cleanups: (() => Promise<void>)[],
  shutdown: (code: number) => Promise<void>,
): Promise<RunningApi> {
  await connectStore(cfg.mongodbUri!, { deadlineMs: DEPENDENCY_DEADLINE_MS }).catch((err: unknown) => {
    throw storeUnreachable(err, cfg.mongodbUri!, needMongo);
  });
  cleanups.push(() => disconnectStore());
  // An upgraded store's usage rows into the per-day rollups `GET /v1/usage` reads (once; later starts skip it).
  const backfilled = await backfillUsageRollups();
  if (backfilled > 0) logger.info('usage rows added to the per-day rollups', { rows: backfilled });
  const client = await connectClient();
  cleanups.push(() => client.connection.close());
  await ensureSearchAttributes(client);
  await ensureCallReconcilerSchedule(client);
  await ensureRecordingRetentionSchedule(client);
  await ensureRetentionSweepSchedule(client);
  await ensureAuditRetentionSchedule(client);

  const worker = await createWorker({ workflowBundle: await bundle });
  const running = worker.run();
  void adoptFirstVersion(client); // only with SVC_WORKER_VERSIONING: a fresh dev server has no current version
  cleanups.push(async () => {
    // The Temporal runtime also reacts to SIGINT/SIGTERM and may have started draining already.
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
  });
  running.catch((err) => {
    logger.error('worker stopped', { error: String(err) });
    void shutdown(1);
  });

  const api: RunningApi = await startApi({ temporal: client, port: cfg.port });
  cleanups.push(() => api.close());
  return api;
}

/** Seeds the demo organization and staff user, then prints the addresses, the keys and a first call to try. */
async function announceReady(cfg: Config, api: RunningApi, uiUrl: string): Promise<void> {
  const seed = await seedDemo(cfg.dataDir);
  const admin = await seedDemoUser(cfg.dataDir, seed.org_id);
  const base = `http://localhost:${api.port}`;
  const to = await demoNumberInCallingHours();
  console.log(`
  Service ready on ${base} (${elapsed()} s after start)   GET /healthz, /readyz, /metrics
  API reference:   ${base}/docs   (OpenAPI 3.1: ${base}/v1/openapi.json)
  Widget demo:     ${base}/widget/demo#key=${seed.publishable_key}
  Staff console:   ${base}/console${admin ? `   sign in as ${admin.email} / ${admin.password}` : ''}
  Temporal Web UI: ${uiUrl}
  Demo organization ${seed.org_id}${seed.created_now ? ' (created now)' : ''}, test-mode keys:
    secret key:       ${seed.secret_key}
    publishable key:  ${seed.publishable_key}
    demo agent:       ${seed.agent_id}

  Place a simulated demo call (to a fictional number inside its calling hours now: simulated calls pass the
  dial gate too, and a call at night at the callee's local time is held until morning):
    curl -s ${base}/v1/calls -H "Authorization: Bearer ${seed.secret_key}" -H "Content-Type: application/json" \\
      -d '{"to":"${to}","agent_id":"${seed.agent_id}","metadata":{"order_id":"1234"}}'
  Then: curl -s ${base}/v1/calls/<id>/transcript -H "Authorization: Bearer ${seed.secret_key}"
        curl -s ${base}/v1/events -H "Authorization: Bearer ${seed.secret_key}"
  Ctrl-C stops everything.
`);
}

/**
 * `npm start`: the whole service in one process with embedded defaults (DESIGN.md section 4): the
 * Temporal dev server and FerretDB unless TEMPORAL_ADDRESS / MONGODB_URI point elsewhere, the offline demo
 * model without OPENAI_API_KEY, a worker and the API. Ctrl-C stops the API, then the worker (draining),
 * then the embedded servers, and prints `stopped`; a second Ctrl-C kills at once (exit 130).
 */
async function main(): Promise<void> {
  const cfg = loadConfig();
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  const children: ChildServer[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping: API, then worker (drains running activities), then the embedded servers…');
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err) => logger.warn('cleanup failed', { error: String(err) }));
    logger.info('stopped');
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) return void shutdown(0);
    logger.warn(`${signal} again: stopping at once`);
    for (const c of children) c.process.kill('SIGKILL');
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Whatever happens to this process (short of SIGKILL), the servers it started go with it.
  process.once('exit', () => children.forEach((c) => c.process.exitCode === null && c.process.kill('SIGTERM')));

  try {
    const ports: DevPorts = {
      temporal: Number(process.env.TEMPORAL_DEV_PORT || 7233),
      ui: Number(process.env.TEMPORAL_UI_PORT || 8233),
      ferret: Number(process.env.FERRETDB_PORT || 27017),
    };
    const needMongo = !cfg.mongodbUri;
    await checkPorts(ports, !cfg.temporalAddress, needMongo);

    // `--traces`: Jaeger as the tracing backend (its OTLP endpoint set before tracing starts).
    const tracesUi = process.argv.includes(TRACES_FLAG) ? await startDevTraces(cfg, children) : undefined;
    if (startTracing('svc-assistant')) cleanups.push(() => stopTracing());
    // The SDK's metrics: Prometheus on a loopback port, served through the API's /metrics.
    installRuntime({ prometheusAddress: await freeLoopbackAddress() });
    // Bundling the workflow code takes seconds of CPU and needs no server: start it now.
    const bundle = step('bundling the workflow code', () =>
      bundleWorkflowCode({
        workflowsPath: WORKFLOWS_PATH,
        failureConverterPath: dataConverter.failureConverterPath, // failures raised in workflow code sealed too
        workflowInterceptorModules: workflowInterceptorModules(), // tracing on: Temporal's OpenTelemetry interceptors
        logger: new DefaultLogger('WARN', (e) => logger.warn(`bundler: ${e.message}`)),
      }),
    );
    bundle.catch(() => undefined); // awaited below; a failure is reported there

    cleanups.push(async () => {
      // Temporal first, then the database the worker's last activities wrote to.
      for (const c of [...children].sort((a, b) => (a.name === 'temporal' ? -1 : b.name === 'temporal' ? 1 : 0)))
        await c.stop();
    });
    const uiUrl = (await startEmbeddedServers(cfg, ports, children)) ?? "your Temporal cluster's Web UI";
    if (!cfg.openaiBaseUrl && !cfg.openaiApiKey) {
      const demo = await startDemoModel();
      cleanups.push(() => demo.close());
      cfg.openaiBaseUrl = demo.baseUrl;
      cfg.openaiModel = DEMO_MODEL_NAME;
      logger.warn(
        `no OPENAI_API_KEY: using the offline scripted demo model at ${demo.baseUrl} (keyword rules, not an LLM)`,
      );
    }
    cfg.secretsKey ??= devSecretsKey(cfg.dataDir);
    setConfig(cfg);
    const api = await startService(cfg, needMongo, bundle, cleanups, shutdown);
    await announceReady(cfg, api, uiUrl);
    if (tracesUi)
      console.log(
        `  Traces (Jaeger's query API): ${tracesUi}   (a call's trace_id; the console's call page links it)\n`,
      );
  } catch (err) {
    logger.error(err instanceof Error ? err.message : String(err));
    await shutdown(1);
  }
}

void main();
