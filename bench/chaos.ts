/**
 * The chaos bench (`npm run bench:chaos`, not a timed test): the service run as an
 * operator runs it, each part its own OS process on loopback: the Temporal dev server and FerretDB (the
 * binaries of scripts/build-infra.sh, started as src/dev/infra.ts starts them for `npm start`, with their
 * data under a temporary directory so that a restart finds it), the API (`dist/src/api/main.js`) and the
 * worker (`dist/src/worker/main.js`), the production entry points with their own deadlines; in this
 * process the loopback OpenAI (test/support/fake-llm.ts) and an HTTPS webhook receiver
 * (test/support/https-receiver.ts, subscribed to `call.started` and `call.ended`).
 *
 * Per fault, on an organization of its own (made with `svcctl`, 50 test calls at once), a burst of keyed
 * `POST /v1/calls` (simulated test calls, three caller lines `--pause` s apart) is sent by a careful
 * client: each key retried with the same Idempotency-Key on a transport failure, a 5xx, a 429 or a 409
 * `idempotency_key_in_use`, after the answer's `Retry-After` or an exponential backoff (0.25 s doubling
 * to 8 s, jittered), for up to `--give-up` s. A third into the burst the fault strikes:
 *   none      no fault (the baseline)
 *   api       the API SIGKILLed, restarted `--down` s later
 *   worker    the worker SIGKILLed, restarted `--down` s later
 *   temporal  the Temporal dev server SIGKILLed, restarted `--down` s later (same SQLite file)
 *   store     FerretDB SIGKILLed, restarted `--store-down` s later (default 60)
 *   two       a second API and worker started first, the client spread over both APIs; one API and one
 *             worker SIGKILLed and left down
 *   receiver  the webhook receiver closed for `--receiver-down` s (default 120), then back on its port
 * Then it waits until every call is over and every event delivered (or `--settle` s more), reads the
 * calls (`GET /v1/calls`), events (`GET /v1/events`) and logged delivery attempts
 * (`GET /v1/webhook-endpoints/{id}/deliveries`) through the API, and prints the fault's row
 * (bench/chaos-report.ts says what each column counts), then the table, one JSON line per fault, and the
 * details behind any non-zero anomaly (the lost keys' last answers, the failed calls' end reasons).
 *
 *   npm run bench:chaos                          every fault, 60 keys each (about 12 minutes)
 *   npm run bench:chaos -- --quick               every fault, short: a smoke run (about 5 minutes)
 *   npm run bench:chaos -- --faults api,store --keys 100 --store-down 30 --receiver-down 180
 *   npm run bench:chaos -- --cluster             the same burst against scripts/stack-cluster.sh
 *
 * `--cluster` (bench/chaos-cluster.ts): the service as `npm run stack:cluster` runs it (PostgreSQL, Temporal
 * as five processes with two history hosts, FerretDB on PostgreSQL, two APIs and two workers behind
 * HAProxy), under the temporary directory and ports from 27000 (`--port-base`); the client sends every
 * request to HAProxy. Its faults: none, history (history host 1 of 2), matching, frontend, postgres, api
 * (API 1 of 2), worker (worker 1 of 2): each SIGKILLed and started again `--down` s later (PostgreSQL:
 * `--store-down` s).
 *
 * Options: --keys N (per fault), --burst S (the burst's length), --pause S (between caller lines),
 * --down S, --store-down S, --receiver-down S, --give-up S, --settle S, --faults a,b, --keep (keep the
 * data directory and the processes' logs: api-N.log, worker-N.log, temporal.log, ferretdb.log).
 * Loopback only; the machine's load is printed with each row (figures on a shared machine are inflated).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import {
  freePort,
  infraBinaries,
  startFerretDB,
  startTemporalDevServer,
  waitForPort,
  type ChildServer,
} from '../src/dev/infra';
import { startFakeLlm } from '../test/support/fake-llm';
import {
  CLUSTER_FAULTS,
  killPart,
  restartPart,
  startCluster,
  stopCluster,
  type ClusterFault,
  type ClusterStack,
} from './chaos-cluster';
import { startHttpsReceiver, testCertificate, type HttpsReceiver } from '../test/support/https-receiver';
import {
  faultRow,
  renderTable,
  TERMINAL_CALL_STATUSES,
  type ClientAnswer,
  type FaultRecord,
  type FaultRow,
  type KeyRecord,
  type ReceivedDelivery,
} from './chaos-report';

const ROOT = path.resolve(__dirname, '../..');

/** Every process this bench started: SIGKILLed when it exits, whatever the reason. */
const started = new Set<ChildProcess>();
process.once('exit', () => started.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));
const FAULTS = ['none', 'api', 'worker', 'temporal', 'store', 'two', 'receiver'] as const;
type Fault = (typeof FAULTS)[number] | ClusterFault;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    keys: { type: 'string' },
    burst: { type: 'string' },
    pause: { type: 'string' },
    down: { type: 'string' },
    'store-down': { type: 'string' },
    'receiver-down': { type: 'string' },
    'give-up': { type: 'string' },
    settle: { type: 'string' },
    faults: { type: 'string' },
    keep: { type: 'boolean', default: false },
    cluster: { type: 'boolean', default: false },
    'port-base': { type: 'string', default: '27000' },
  },
});

/** A numeric option in seconds (or a count), its default depending on `--quick`. */
function opt(name: keyof typeof args, full: number, quick: number): number {
  const raw = args[name];
  const v = raw === undefined ? (args.quick ? quick : full) : Number(raw);
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number`);
  return v;
}

const o = {
  keys: opt('keys', 60, 12),
  burstS: opt('burst', 30, 12),
  pauseS: opt('pause', 2, 1),
  downS: opt('down', 5, 2),
  storeDownS: opt('store-down', 60, 15),
  receiverDownS: opt('receiver-down', 120, 20),
  giveUpS: opt('give-up', 300, 120),
  settleS: opt('settle', 240, 120),
};
const known: readonly Fault[] = args.cluster ? (Object.keys(CLUSTER_FAULTS) as ClusterFault[]) : FAULTS;
const faults: Fault[] = args.faults ? (args.faults.split(',') as Fault[]) : [...known];
for (const f of faults) if (!known.includes(f)) throw new Error(`--faults: unknown fault ${f} (${known.join(', ')})`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** A Node process of the service (an API or a worker) the bench started. */
interface ServiceProcess {
  name: string;
  child: ChildProcess;
  port?: number;
}

/** Everything running: the embedded servers, the service's processes, the fakes. */
interface Stack {
  dataDir: string;
  /** `--cluster`: the cluster (the embedded servers below are then absent, `apis` and `workers` empty). */
  cluster?: ClusterStack;
  bins?: { temporal: string; ferretdb: string };
  temporalPort?: number;
  ferretPort?: number;
  temporal?: ChildServer & { address: string };
  ferret?: ChildServer & { uri: string };
  env: NodeJS.ProcessEnv;
  apis: (ServiceProcess | undefined)[];
  workers: (ServiceProcess | undefined)[];
  receiverPort: number;
  receiver: HttpsReceiver | undefined;
  /** Requests of receivers since closed (a receiver's `received` ends with it). */
  receivedBefore: HttpsReceiver['received'];
}

/** Starts `node <script>` with the stack's environment, its output appended to `<dataDir>/<name>.log`. */
function spawnService(stack: Stack, name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const out = fs.openSync(path.join(stack.dataDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src', script)], {
    env: { ...stack.env, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  started.add(child);
  return child;
}

/** Starts API number `i` on its port; resolves once it listens. */
async function startApiProcess(stack: Stack, i: number, port: number): Promise<ServiceProcess> {
  const child = spawnService(stack, `api-${i}`, 'api/main.js', { PORT: String(port) });
  await waitForPort(port, '127.0.0.1', 120_000, child);
  return { name: `api-${i}`, child, port };
}

/** Starts worker number `i`; resolves once its log says it runs (after bundling the workflow code). */
async function startWorkerProcess(stack: Stack, i: number): Promise<ServiceProcess> {
  const file = path.join(stack.dataDir, `worker-${i}.log`);
  const from = fs.existsSync(file) ? fs.statSync(file).size : 0;
  const child = spawnService(stack, `worker-${i}`, 'worker/main.js', {});
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`worker-${i} exited ${child.exitCode} (see ${file})`);
    const text = fs.readFileSync(file, 'utf8').slice(from);
    if (text.includes('worker running')) return { name: `worker-${i}`, child };
    if (Date.now() > deadline) throw new Error(`worker-${i} not running after 180 s (see ${file})`);
    await sleep(200);
  }
}

/** `server`, its process added to those killed at exit. */
function tracked<T extends ChildServer>(server: T): T {
  started.add(server.process);
  return server;
}

/** SIGKILLs a child process; resolves once it has exited. */
async function sigkill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Closes the receiver, keeping what it received. */
async function receiverDown(stack: Stack): Promise<void> {
  if (!stack.receiver) return;
  stack.receivedBefore.push(...stack.receiver.received);
  await stack.receiver.close();
  stack.receiver = undefined;
}

/** Every request the receivers answered so far, at `pathname`. */
function receivedAt(stack: Stack, pathname: string): ReceivedDelivery[] {
  return [...stack.receivedBefore, ...(stack.receiver?.received ?? [])]
    .filter((r) => r.path === pathname && r.eventId && r.answeredMs !== undefined)
    .map((r) => ({ eventId: r.eventId!, status: 200, atMs: r.answeredMs! }));
}

/** The service processes' environment: the fakes' addresses, a fresh secrets key. */
async function serviceEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const llm = await startFakeLlm(); // lives as long as this process
  const cert = testCertificate();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    SECRETS_KEY: crypto.randomBytes(32).toString('hex'),
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'sk-chaos-fake',
    OPENAI_MODEL: 'fake-model',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_CA_FILE: cert.certFile,
    NODE_EXTRA_CA_CERTS: cert.certFile,
  };
}

/** `--cluster`: the cluster of scripts/stack-cluster.sh under the data directory. */
async function startClusterStack(dataDir: string): Promise<Stack> {
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user and must reach its data directory
  const receiverPort = await freePort();
  const env = await serviceEnv(dataDir);
  const cluster = await startCluster(path.join(dataDir, 'cluster'), Number(args['port-base']), env);
  return {
    dataDir,
    cluster,
    env: { ...env, MONGODB_URI: cluster.mongodbUri },
    apis: [],
    workers: [],
    receiverPort,
    receiver: await startHttpsReceiver({ port: receiverPort }),
    receivedBefore: [],
  };
}

async function startStack(): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chaos-'));
  if (args.cluster) return startClusterStack(dataDir);
  const bins = await infraBinaries();
  const [temporalPort, ferretPort, receiverPort] = [await freePort(), await freePort(), await freePort()];
  log(`data and logs under ${dataDir}`);
  const [temporal, ferret] = await Promise.all([
    startTemporalDevServer(bins.temporal, { dataDir, port: temporalPort, uiPort: 0 }).then(tracked),
    startFerretDB(bins.ferretdb, dataDir, ferretPort).then(tracked),
  ]);
  const env: NodeJS.ProcessEnv = {
    ...(await serviceEnv(dataDir)),
    MONGODB_URI: ferret.uri,
    TEMPORAL_ADDRESS: temporal.address,
  };
  const stack: Stack = {
    dataDir,
    bins,
    temporalPort,
    ferretPort,
    temporal,
    ferret,
    env,
    apis: [],
    workers: [],
    receiverPort,
    receiver: await startHttpsReceiver({ port: receiverPort }),
    receivedBefore: [],
  };
  const apiPort = await freePort();
  const [api, worker] = await Promise.all([startApiProcess(stack, 1, apiPort), startWorkerProcess(stack, 1)]);
  stack.apis.push(api);
  stack.workers.push(worker);
  return stack;
}

/** The base URLs of the APIs started so far (a dead one stays listed: the client finds out). */
const apiUrls = (stack: Stack, count: number) =>
  stack.cluster ? [stack.cluster.url] : stack.apis.slice(0, count).map((a) => `http://127.0.0.1:${a!.port}`);

/** An answer of `api`, parsed. */
async function api(base: string, key: string, method: string, urlPath: string, body?: unknown) {
  const res = await fetch(base + urlPath, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every item of a list endpoint (pages of 100, newest first). */
async function listAll(base: string, key: string, urlPath: string): Promise<any[]> {
  const out: any[] = [];
  for (let after: string | undefined; ;) {
    const sep = urlPath.includes('?') ? '&' : '?';
    const res = await api(base, key, 'GET', `${urlPath}${sep}limit=100${after ? `&starting_after=${after}` : ''}`);
    if (res.status !== 200) throw new Error(`GET ${urlPath}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data);
    if (!res.body.has_more) return out;
    after = res.body.data[res.body.data.length - 1].id;
  }
}

const execFileP = promisify(execFile);

/** An organization of one fault: test key, 50 calls at once, an agent, a webhook endpoint. */
interface Tenant {
  orgId: string;
  key: string;
  agentId: string;
  endpointId: string;
  path: string;
}

/** Runs `svcctl` against the stack's store; its JSON answer. */
async function svcctl(stack: Stack, ...argv: string[]): Promise<any> {
  const { stdout } = await execFileP(process.execPath, [path.join(ROOT, 'bin/svcctl.js'), ...argv], {
    env: { ...stack.env, LOG_LEVEL: 'warn' },
  });
  return JSON.parse(stdout);
}

async function newTenant(stack: Stack, fault: Fault): Promise<Tenant> {
  const org = await svcctl(stack, 'orgs', 'create', '--name', `chaos ${fault}`);
  const { key } = await svcctl(stack, 'keys', 'create', '--org', org.id, '--mode', 'test', '--kind', 'secret');
  await svcctl(stack, 'limits', 'set', '--org', org.id, '--mode', 'test', '--max-concurrent-calls', '50');
  const [base] = apiUrls(stack, 1);
  const agent = await api(base, key, 'POST', '/v1/agents', { name: 'Chaos', instructions: 'You confirm orders.' });
  if (agent.status !== 200) throw new Error(`agent: ${JSON.stringify(agent.body)}`);
  const pathname = `/${fault}`;
  const endpoint = await api(base, key, 'POST', '/v1/webhook-endpoints', {
    url: `https://127.0.0.1:${stack.receiverPort}${pathname}`,
    events: ['call.started', 'call.ended'],
  });
  if (endpoint.status !== 200) throw new Error(`endpoint: ${JSON.stringify(endpoint.body)}`);
  return { orgId: org.id, key, agentId: agent.body.id, endpointId: endpoint.body.id, path: pathname };
}

/** Whether an answer is worth retrying with the same key: transport failures, 5xx, 429, a key in use. */
const retryable = (a: ClientAnswer) =>
  a.status === undefined || a.status >= 500 || a.status === 429 || a.error === 'idempotency_key_in_use';

/**
 * Places one call under `key`, retrying as a careful client does (module comment); the attempts go round
 * `urls` (a load balancer's choice), starting at `first`. Resolves with every attempt.
 */
async function placeCall(tenant: Tenant, key: string, urls: string[], first: number): Promise<KeyRecord> {
  const record: KeyRecord = { key, answers: [] };
  const giveUpAt = Date.now() + o.giveUpS * 1000;
  const body = JSON.stringify({
    to: '+14155550123',
    agent_id: tenant.agentId,
    metadata: { chaos_key: key },
    simulation: { pause_seconds: o.pauseS },
  });
  for (let attempt = 0; ; attempt++) {
    const sentMs = Date.now();
    const answer: ClientAnswer = { sentMs, atMs: sentMs };
    let retryAfterS: number | undefined;
    try {
      const res = await fetch(`${urls[(first + attempt) % urls.length]}/v1/calls`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body,
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      answer.status = res.status;
      const parsed = (() => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      })();
      if (res.status === 200) record.callId = parsed?.id;
      else answer.error = parsed?.error?.code ?? text.slice(0, 80);
      const ra = Number(res.headers.get('retry-after'));
      if (Number.isFinite(ra) && ra > 0) retryAfterS = ra;
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string }; message?: string };
      answer.error = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? String(err));
    }
    answer.atMs = Date.now();
    record.answers.push(answer);
    if (!retryable(answer) || Date.now() > giveUpAt) return record;
    const backoffMs = retryAfterS !== undefined ? retryAfterS * 1000 : Math.min(8000, 250 * 2 ** attempt);
    await sleep(backoffMs * (0.5 + Math.random() / 2));
  }
}

/** The burst: `o.keys` keys spread over `o.burstS`, each placed by its own retrying client. */
function burst(tenant: Tenant, fault: Fault, urls: string[]): Promise<KeyRecord[]> {
  const run = crypto.randomBytes(3).toString('hex');
  return Promise.all(
    Array.from({ length: o.keys }, async (_, i) => {
      await sleep((i * o.burstS * 1000) / o.keys);
      return placeCall(tenant, `chaos-${run}-${fault}-${i}`, urls, i);
    }),
  );
}

/** What the API says about a tenant's calls and events. */
async function observe(stack: Stack, tenant: Tenant, base: string) {
  const calls = (await listAll(base, tenant.key, '/v1/calls')).map((c) => ({
    id: c.id as string,
    status: c.status as string,
    key: c.metadata?.chaos_key as string | undefined,
    endReason: c.end_reason as string | undefined,
  }));
  const events = (await listAll(base, tenant.key, '/v1/events?type=call.*'))
    .filter((e) => e.type === 'call.started' || e.type === 'call.ended')
    .map((e) => ({ id: e.id as string, type: e.type as string, callId: e.data?.object?.id as string | undefined }));
  const received = receivedAt(stack, tenant.path);
  const delivered = new Set(received.map((r) => r.eventId));
  const ended = new Set(events.filter((e) => e.type === 'call.ended').map((e) => e.callId));
  const over =
    calls.every((c) => TERMINAL_CALL_STATUSES.includes(c.status) && ended.has(c.id)) &&
    events.every((e) => delivered.has(e.id));
  return { calls, events, received, over };
}

/** Waits until every call is over and every event delivered; when that first held (null: never). */
async function settle(stack: Stack, tenant: Tenant, base: string, limitS: number): Promise<number | null> {
  const deadline = Date.now() + limitS * 1000;
  for (;;) {
    try {
      if ((await observe(stack, tenant, base)).over) return Date.now();
    } catch (err) {
      log(`  (reading the state: ${String(err)})`);
    }
    if (Date.now() > deadline) return null;
    await sleep(2000);
  }
}

/**
 * `--cluster`: SIGKILLs the fault's part, waits (`--down` s; PostgreSQL `--store-down` s) and starts it
 * again; when it was started again (ms since the epoch), null for no fault.
 */
async function clusterFault(cluster: ClusterStack, fault: ClusterFault): Promise<number | null> {
  if (fault === 'none') return null;
  await killPart(cluster, fault);
  await sleep((fault === 'postgres' ? o.storeDownS : o.downS) * 1000);
  const restartMs = Date.now();
  await restartPart(cluster, fault);
  return restartMs;
}

/** Runs one fault; its record and what else is worth saying about it. */
async function runFault(stack: Stack, fault: Fault): Promise<{ record: FaultRecord; notes: string[] }> {
  const tenant = await newTenant(stack, fault);
  if (fault === 'two') {
    const port = await freePort();
    const [api2, worker2] = await Promise.all([startApiProcess(stack, 2, port), startWorkerProcess(stack, 2)]);
    stack.apis[1] = api2;
    stack.workers[1] = worker2;
  }
  const urls = apiUrls(stack, fault === 'two' ? 2 : 1);
  log(`${fault}: ${o.keys} keys over ${o.burstS} s through ${urls.length} API(s)`);
  const sending = burst(tenant, fault, urls);
  await sleep((o.burstS * 1000) / 3);
  let restartMs: number | null = null;
  let downS: number | null = null;
  let recoveredBy: FaultRecord['recoveredBy'] = 'answer';
  const t0 = Date.now();
  if (stack.cluster) {
    restartMs = await clusterFault(stack.cluster, fault as ClusterFault);
    if (fault === 'worker') recoveredBy = 'delivery';
  } else
    switch (fault) {
      case 'none':
        break;
      case 'api': {
        const port = stack.apis[0]!.port!;
        await sigkill(stack.apis[0]!.child);
        await sleep(o.downS * 1000);
        restartMs = Date.now();
        stack.apis[0] = await startApiProcess(stack, 1, port);
        break;
      }
      case 'worker':
        recoveredBy = 'delivery';
        await sigkill(stack.workers[0]!.child);
        await sleep(o.downS * 1000);
        restartMs = Date.now();
        stack.workers[0] = await startWorkerProcess(stack, 1);
        break;
      case 'temporal':
        await sigkill(stack.temporal!.process);
        await sleep(o.downS * 1000);
        restartMs = Date.now();
        stack.temporal = tracked(
          await startTemporalDevServer(stack.bins!.temporal, {
            dataDir: stack.dataDir,
            port: stack.temporalPort!,
            uiPort: 0,
          }),
        );
        break;
      case 'store':
        await sigkill(stack.ferret!.process);
        await sleep(o.storeDownS * 1000);
        restartMs = Date.now();
        stack.ferret = tracked(await startFerretDB(stack.bins!.ferretdb, stack.dataDir, stack.ferretPort!));
        break;
      case 'two':
        await Promise.all([sigkill(stack.apis[1]!.child), sigkill(stack.workers[1]!.child)]);
        stack.apis[1] = stack.workers[1] = undefined;
        restartMs = Date.now();
        break;
      case 'receiver':
        recoveredBy = 'delivery';
        await receiverDown(stack);
        await sleep(o.receiverDownS * 1000);
        restartMs = Date.now();
        stack.receiver = await startHttpsReceiver({ port: stack.receiverPort });
        break;
    }
  if (restartMs !== null && fault !== 'two') downS = Math.round((restartMs! - t0) / 100) / 10;
  if (fault === 'two') log(`${fault}: api-2 and worker-2 killed; api-1 and worker-1 carry on`);
  else if (restartMs !== null) log(`${fault}: back ${((restartMs - t0) / 1000).toFixed(1)} s after the fault`);
  const keys = await sending;
  const load = os.loadavg()[0];
  const base = apiUrls(stack, 1)[0];
  log(`${fault}: every key answered or given up; waiting for the calls to end and their events to arrive`);
  const caughtUpMs = await settle(stack, tenant, base, o.settleS + (fault === 'receiver' ? o.receiverDownS * 2 : 0));
  const seen = await observe(stack, tenant, base);
  const attempts = (await listAll(base, tenant.key, `/v1/webhook-endpoints/${tenant.endpointId}/deliveries`)).map(
    (a) => ({ eventId: a.event as string, succeeded: a.succeeded as boolean }),
  );
  const record: FaultRecord = {
    fault: stack.cluster ? CLUSTER_FAULTS[fault as ClusterFault].label : fault,
    downS,
    keys,
    calls: seen.calls,
    events: seen.events,
    received: seen.received,
    attempts,
    restartMs,
    recoveredBy,
    caughtUpMs: caughtUpMs ?? null,
    load,
  };
  const notes: string[] = [];
  const withCall = new Set(seen.calls.map((c) => c.key));
  for (const k of keys.filter((k) => !withCall.has(k.key)))
    notes.push(`${fault}: key ${k.key} has no call; last answers ${JSON.stringify(k.answers.slice(-3))}`);
  for (const c of seen.calls.filter((c) => c.status === 'failed' || !TERMINAL_CALL_STATUSES.includes(c.status)))
    notes.push(`${fault}: call ${c.id} (${c.key}) ${c.status}${c.endReason ? ` (${c.endReason})` : ''}`);
  const statuses = new Map<string, number>();
  for (const a of keys.flatMap((k) => k.answers)) {
    const label = [a.status, a.error].filter((x) => x !== undefined).join(' ');
    if (a.status !== 200) statuses.set(label, (statuses.get(label) ?? 0) + 1);
  }
  if (statuses.size) notes.push(`${fault}: answers other than 200: ${JSON.stringify(Object.fromEntries(statuses))}`);
  return { record, notes };
}

async function main(): Promise<void> {
  log(
    `options ${JSON.stringify(o)}, faults ${faults.join(', ')}; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  const stack = await startStack();
  const rows: FaultRow[] = [];
  const notes: string[] = [];
  try {
    for (const fault of faults) {
      const { record, notes: n } = await runFault(stack, fault);
      const row = faultRow(record);
      rows.push(row);
      notes.push(...n);
      console.log(renderTable([row]).split('\n')[2]);
      console.log(JSON.stringify(row));
    }
  } finally {
    console.log(
      `\nchaos bench, ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} cores, options ${JSON.stringify(o)}`,
    );
    console.log(renderTable(rows));
    for (const n of notes) console.log(`  - ${n}`);
    for (const p of [...stack.apis, ...stack.workers]) if (p) p.child.kill('SIGTERM');
    await Promise.all(
      [...stack.apis, ...stack.workers].map(
        (p) => p && p.child.exitCode === null && new Promise((r) => p.child.once('exit', r)),
      ),
    );
    await receiverDown(stack);
    await stack.temporal?.stop();
    await stack.ferret?.stop();
    if (stack.cluster) await stopCluster(stack.cluster);
    if (args.keep) log(`kept ${stack.dataDir}`);
    else fs.rmSync(stack.dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
