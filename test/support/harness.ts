/**
 * The integration test harness, started once per mocha run by the root hooks (test/support/hooks.ts):
 * real FerretDB and the real Temporal dev server (built by scripts/build-infra.sh), one workflow bundle,
 * one worker, the API on a loopback port, and the fake LLM. Tests talk to the API over HTTP.
 *
 * External servers instead (`npm run test:cluster`, scripts/test-cluster.sh: a Temporal cluster and
 * FerretDB on PostgreSQL): `SVC_TEST_TEMPORAL_ADDRESS` (host:port of a frontend) with
 * `SVC_TEST_TEMPORAL_NAMESPACE` (default `default`), and `SVC_TEST_MONGODB_URI`; the harness then starts
 * neither the dev server nor FerretDB, and checks that the namespace holds the service's search
 * attributes (it does not register them: an operator does, README "The test suite on the cluster").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { config, loadConfig, setConfig } from '../../src/config';
import { connectStore, disconnectStore } from '../../src/models/register';
import { createKey, createOrg } from '../../src/keys';
import { infraBinaries, freePort, startFerretDB, type ChildServer } from '../../src/dev/infra';
import { searchAttributeKeys, verifySearchAttributes } from '../../src/platform/temporal';
import { dataConverter } from '../../src/platform/payload-codec';
import { createWorker, WORKFLOWS_PATH } from '../../src/worker/worker';
import { freeLoopbackAddress, installRuntime } from '../../src/worker/runtime';
import { logger } from '../../src/logger';
import {
  startTracing,
  stopTracing,
  temporalClientInterceptors,
  workflowInterceptorModules,
} from '../../src/platform/tracing';
import { startApi, type RunningApi } from '../../src/api/server';
import { ensureCallReconcilerSchedule } from '../../src/services/calls';
import { ensureRetentionSweepSchedule } from '../../src/services/privacy-schedule';
import { ensureRecordingRetentionSchedule } from '../../src/services/recordings';
import { ensureAuditRetentionSchedule } from '../../src/services/audit';
import { startFakeLlm, type FakeLlm } from './fake-llm';
import { testCertificate } from './https-receiver';

export interface Harness {
  env: TestWorkflowEnvironment;
  bundle: WorkflowBundleWithSourceMap;
  worker: Worker;
  workerRun: Promise<void>;
  api: RunningApi;
  llm: FakeLlm;
  /**
   * The store: FerretDB started by the harness, or the external one of `SVC_TEST_MONGODB_URI` (no
   * `process` then, `stop` a no-op).
   */
  ferret: Omit<ChildServer, 'process' | 'name'> & { uri: string; process?: ChildProcess };
  dataDir: string;
  taskQueue: string;
}

let harness: Harness | undefined;

/** The running harness (throws outside a mocha run with the root hooks). */
export function h(): Harness {
  if (!harness) throw new Error('test harness not started');
  return harness;
}

/**
 * The external servers the run is pointed at (`SVC_TEST_TEMPORAL_ADDRESS`, `SVC_TEST_TEMPORAL_NAMESPACE`,
 * `SVC_TEST_MONGODB_URI`), or undefined for the harness's own dev server and FerretDB. Both or neither.
 */
export function externalServers(): { temporalAddress: string; namespace: string; mongodbUri: string } | undefined {
  const temporalAddress = process.env.SVC_TEST_TEMPORAL_ADDRESS;
  const mongodbUri = process.env.SVC_TEST_MONGODB_URI;
  if (!temporalAddress && !mongodbUri) return undefined;
  if (!temporalAddress || !mongodbUri)
    throw new Error('SVC_TEST_TEMPORAL_ADDRESS and SVC_TEST_MONGODB_URI go together (an external cluster)');
  return { temporalAddress, namespace: process.env.SVC_TEST_TEMPORAL_NAMESPACE || 'default', mongodbUri };
}

/**
 * The Temporal test environment: the dev server started here (search attributes and the dynamic
 * configuration below given on its command line), or a connection to the external cluster, whose
 * namespace must hold the search attributes and whose dynamic configuration scripts/test-cluster.sh sets.
 */
async function temporalEnvironment(temporalBin: string): Promise<TestWorkflowEnvironment> {
  const client = { dataConverter, interceptors: temporalClientInterceptors() }; // payloads encrypted, as every client of the service
  const external = externalServers();
  if (external) {
    // Every process of the run (the config below, worker processes a test spawns) reads the namespace.
    process.env.TEMPORAL_NAMESPACE = external.namespace;
    const env = await TestWorkflowEnvironment.createFromExistingServer({
      address: external.temporalAddress,
      namespace: external.namespace,
      client,
    });
    await verifySearchAttributes(env.client, external.namespace);
    return env;
  }
  return TestWorkflowEnvironment.createLocal({
    client,
    server: {
      executable: { type: 'existing-path', path: temporalBin },
      searchAttributes: Object.values(searchAttributeKeys),
      // A lower continue-as-new suggestion than the default 4,096 events, so long-call tests cross runs.
      extraArgs: [
        '--sqlite-pragma',
        'journal_mode=WAL',
        '--sqlite-pragma',
        'synchronous=OFF',
        '--dynamic-config-value',
        'limit.historyCount.suggestContinueAsNew=1000',
        // As npm start and docker-compose run it: activities handed to the worker with its workflow task's
        // completion (a tool call starts without a matching round trip).
        '--dynamic-config-value',
        'system.enableActivityEagerExecution=true',
      ],
    },
  });
}

export async function startHarness(): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const bins = await infraBinaries();
  const external = externalServers();
  const ferret = external
    ? { uri: external.mongodbUri, stop: async () => {} }
    : await startFerretDB(bins.ferretdb, dataDir, await freePort());
  // SDK metrics exported like `npm start` does (test/integration/operators.test.ts reads them); request
  // lines and other info logs only with LOG_LEVEL=info.
  installRuntime({ logLevel: 'ERROR', prometheusAddress: await freeLoopbackAddress() });
  logger.level = process.env.LOG_LEVEL || 'warn';
  // Traced only when the run's environment asks (OTEL_EXPORTER_OTLP_ENDPOINT: bench/traces.ts), as a process of the service.
  startTracing('svc-assistant');
  const env = await temporalEnvironment(bins.temporal);
  const llm = await startFakeLlm();
  const taskQueue = 'svc-test';
  // Test calls are placed at whatever hour the suite runs: the dial gate records calling hours on them but
  // dials anyway (here and in every process a test spawns, which inherit the environment); the tests of
  // the gate itself (dial-gate.test.ts) set `enforce` for their own run. Do-not-call is always enforced.
  process.env.CALLING_HOURS_ENFORCEMENT ??= 'record';
  // Live test organizations rarely hold numbers: they may call US numbers, as an operator lets its
  // organizations do with DEFAULT_ALLOWED_COUNTRIES (the dialing-permissions tests set their own).
  process.env.DEFAULT_ALLOWED_COUNTRIES ??= 'US';
  setConfig({
    ...loadConfig({ ...process.env, PORT: '0' }),
    mongodbUri: ferret.uri,
    temporalAddress: env.address,
    openaiBaseUrl: llm.baseUrl,
    openaiApiKey: 'sk-test-fake',
    openaiModel: 'fake-model',
    twilioAccountSid: undefined,
    twilioAuthToken: undefined,
    taskQueue,
    dataDir,
    // Webhooks: loopback receivers with the test certificate, fast retries.
    webhookAllowPrivate: true,
    webhookCaFile: testCertificate().certFile,
    webhookRetryInitialIntervalMs: 200,
    webhookRetryMaxIntervalMs: 2000,
    // Deliveries to a test's receiver that has since closed end after 2 minutes, not the production 3 days:
    // retried every 2 s through the rest of the run, each attempt reading its delivery's earlier attempts
    // (a whole-collection read on FerretDB), they loaded the store more with every test file.
    webhookRetryWindowMs: 120_000,
    // Knowledge crawls of loopback test sites (only loopback: a redirect to a private address is refused).
    knowledgeCrawlAllowLoopback: true,
    knowledgeCrawlPageTimeoutMs: 2_000,
    secretsKey: 'test-secrets-key-0123456789abcdef0123456789abcdef',
    // Every test calls from 127.0.0.1: the widget's per-address limit is tested on its own (widget.test.ts).
    widgetRateLimitIp: 0,
    widgetRateLimitSession: 0,
  });
  await connectStore(ferret.uri);
  const bundle = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    failureConverterPath: dataConverter.failureConverterPath, // failures raised in workflow code sealed too
    workflowInterceptorModules: workflowInterceptorModules(), // none unless traced
    logger: new DefaultLogger('WARN'),
  });
  const worker = await createWorker({ connection: env.nativeConnection, workflowBundle: bundle, taskQueue });
  await ensureCallReconcilerSchedule(env.client, taskQueue);
  await ensureRecordingRetentionSchedule(env.client, taskQueue);
  await ensureRetentionSweepSchedule(env.client, taskQueue);
  await ensureAuditRetentionSchedule(env.client, taskQueue);
  const workerRun = worker.run();
  const api = await startApi({ temporal: env.client, port: 0, host: '127.0.0.1' });
  harness = { env, bundle, worker, workerRun, api, llm, ferret, dataDir, taskQueue };
  return harness;
}

export async function stopHarness(): Promise<void> {
  if (!harness) return;
  const { api, worker, workerRun, env, llm, ferret, dataDir } = harness;
  await api.close();
  worker.shutdown();
  await workerRun;
  await env.teardown();
  await llm.close();
  await disconnectStore();
  await ferret.stop();
  await stopTracing();
  fs.rmSync(dataDir, { recursive: true, force: true });
  harness = undefined;
}

/** A response of `request`. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Sends a request to the API. `body` is JSON-encoded unless it is a string (sent raw). */
export async function request<T = any>(
  method: string,
  urlPath: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(h().api.url + urlPath, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A fresh organization with test and live secret keys and a test-mode agent. */
export async function newTenant(agentOverrides: Record<string, unknown> = {}) {
  const org = await createOrg(`Test org ${Math.random().toString(36).slice(2, 8)}`);
  const testKey = (await createKey({ orgId: org.id, mode: 'test', kind: 'secret' })).key;
  const liveKey = (await createKey({ orgId: org.id, mode: 'live', kind: 'secret' })).key;
  const agent = await request('POST', '/v1/agents', {
    key: testKey,
    body: { name: 'Test Agent', instructions: 'You confirm appointments.', ...agentOverrides },
  });
  if (agent.status !== 200) throw new Error(`agent creation failed: ${JSON.stringify(agent.body)}`);
  return { org, orgId: org.id, testKey, liveKey, agentId: agent.body.id as string };
}

/** Polls `GET /v1/calls/{id}` until `until(call)` holds (default: a terminal status), or fails after `timeoutMs`. */
export async function waitForCall(
  key: string,
  id: string,
  until: (call: any) => boolean = isEnded,
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request('GET', `/v1/calls/${id}`, { key });
    if (res.status === 200 && until(res.body)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`call ${id} did not reach the expected state; last: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const isEnded = (call: { status: string }) =>
  ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'].includes(call.status);

/**
 * Starts a worker in its own process (test/support/worker-process.ts) polling `taskQueue` against the
 * harness's Temporal, database and LLM, with the harness's workflow bundle; resolves once it runs.
 * `env` adds or overrides environment variables (e.g. NODE_EXTRA_CA_CERTS); `execArgv` are Node's own
 * options for it (e.g. `--cpu-prof`, which Node refuses in NODE_OPTIONS).
 */
export async function startWorkerProcess(
  taskQueue: string,
  env: Record<string, string> = {},
  execArgv: string[] = [],
): Promise<ChildProcess> {
  const bundleFile = path.join(h().dataDir, 'workflow-bundle.js');
  if (!fs.existsSync(bundleFile)) fs.writeFileSync(bundleFile, h().bundle.code);
  const proc = spawn(process.execPath, [...execArgv, path.join(__dirname, 'worker-process.js')], {
    env: {
      ...process.env,
      MONGODB_URI: h().ferret.uri,
      TEMPORAL_ADDRESS: h().env.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_FILE: bundleFile,
      OPENAI_BASE_URL: h().llm.baseUrl,
      OPENAI_API_KEY: 'sk-test-fake',
      OPENAI_MODEL: 'fake-model',
      SECRETS_KEY: config().secretsKey ?? '',
      CALLING_HOURS_ENFORCEMENT: config().callingHoursEnforcement,
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (c) => (err += c));
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (c) => String(c).includes('ready') && resolve());
    proc.once('exit', (code) => reject(new Error(`worker process exited ${code}: ${err}`)));
  });
  return proc;
}

/**
 * The environment a worker process needs to reach the test's loopback HTTPS servers (tool servers and
 * webhook receivers, test/support/https-receiver.ts): private addresses allowed, the test certificate
 * trusted, no operator CA file.
 */
export const loopbackHttpsEnv = (): Record<string, string> => ({
  WEBHOOK_ALLOW_PRIVATE: '1',
  NODE_EXTRA_CA_CERTS: testCertificate().certFile,
  WEBHOOK_CA_FILE: '',
});

/** Stops a worker process: SIGKILL (a crash) or SIGTERM (a clean stop); resolves when it has exited. */
export async function stopWorkerProcess(proc: ChildProcess | undefined, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill(signal);
  await exited;
}

/**
 * Resolves once the workflow `workflowId`'s history records `count` completions of the local activity
 * `activityType` (its `core_local_activity` markers), i.e. once a worker killed now would not run them
 * again: Temporal runs a local activity at least once, and one whose workflow task had not completed
 * when its worker died runs again on the next worker. Crash tests wait for this before SIGKILL, so that
 * they count what the service repeats, not what Temporal's contract allows.
 */
export async function waitForLocalActivity(
  workflowId: string,
  activityType: string,
  count = 1,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const history = await h().env.client.workflow.getHandle(workflowId).fetchHistory();
    let seen = 0;
    for (const e of history.events ?? []) {
      const payload = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
      if (!payload) continue;
      const marker = JSON.parse(Buffer.from(payload).toString('utf8')) as { activity_type?: string };
      if (marker.activity_type === activityType) seen++;
    }
    if (seen >= count) return;
    if (Date.now() > deadline) throw new Error(`${workflowId}: ${activityType} recorded ${seen} of ${count} times`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
