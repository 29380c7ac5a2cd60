/**
 * The rolling-deploy bench (`npm run bench:deploy`, run by hand, not in CI): two builds of the service on
 * one Temporal dev server with Worker Versioning (README, "Rolling deploys"), new code rolled out under
 * live calls and a running campaign, as an operator does it.
 *
 *   version A  the code before `callWorkflow` recorded its finishing version (the parent of the commit that
 *              brought 0.2.0's `patched(PATCHES.callFinishedOnMemo)`, `--from`), taken from git with
 *              `git archive` and compiled with its own `tsc` under the temporary directory (kept there,
 *              keyed by commit, for the next run); its API and its worker (`SVC_WORKER_VERSIONING=1`,
 *              build id `<its package version>-<12 hex>`), which makes itself the deployment's current version
 *   version B  this checkout's `dist` (its `callWorkflow` takes the new step: the memo), build id
 *              `<package version>-<12 hex of HEAD>`
 *
 * On the dev server (its drainage refresh shortened to 5 s) and FerretDB (scripts/build-infra.sh), with the
 * loopback OpenAI (test/support/fake-llm.ts) in this process:
 *   1. A's API and worker; an organization (svcctl), an agent, a form;
 *   2. a campaign (`bulkCallWorkflow`, `--contacts`, `--concurrency` at a time, each contact's caller saying
 *      three lines `--contact-pause` s apart) and `--calls` test calls with slow callers (`--lines` lines,
 *      `--pause` s apart) through A's API, each keyed (Idempotency-Key, retried on 5xx and transport errors);
 *   3. B's worker started beside A's; once it has polled, `svcctl deploy promote --build-id B`; B's API
 *      replaces A's; `--new-calls` calls through it;
 *   4. `svcctl deploy drain --build-id A --wait`, then A's worker stopped (SIGTERM);
 *   5. once every call and the campaign are over: each run's history (the build id of every workflow task
 *      completed, any workflow task failed), each call's memo (`deployment_version`, written by B's code
 *      only) and Temporal's `versioningInfo` (describe), the calls and results through B's API.
 * Prints a table: calls started, completed, failed; which version finished them; non-determinism errors in
 * any history of the namespace; the campaign's versions and its later contacts' calls; lost or duplicated.
 *
 *   npm run bench:deploy
 *   npm run bench:deploy -- --calls 20 --pause 8 --contacts 12     a short run
 *
 * Options: --calls N, --new-calls N, --lines N, --pause S, --spread S (the old calls' start spread),
 * --contacts N, --concurrency N, --contact-pause S, --from <git ref> (version A), --settle S, --keep (keep
 * the data directory and logs: api-a.log, worker-a.log, api-b.log, worker-b.log, temporal.log).
 * Loopback only; the machine's load is printed (figures on a shared machine are inflated).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { freePort, infraBinaries, startFerretDB, startTemporalDevServer, waitForPort } from '../src/dev/infra';
import { startFakeLlm } from '../test/support/fake-llm';
import { connectClient } from '../src/platform/temporal';
import { DEFAULT_DEPLOYMENT_NAME } from '../src/shared/deployments';
import { inspectRuns, renderDeployTable, type CallRecord, type DeployFigures } from './deploy-report';

const ROOT = path.resolve(__dirname, '../..');
const execFileP = promisify(execFile);
const started = new Set<ChildProcess>();
process.once('exit', () => started.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '100' },
    'new-calls': { type: 'string', default: '20' },
    lines: { type: 'string', default: '8' },
    pause: { type: 'string', default: '15' },
    spread: { type: 'string', default: '20' },
    contacts: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '3' },
    'contact-pause': { type: 'string', default: '5' },
    from: { type: 'string', default: '4fec961^' },
    settle: { type: 'string', default: '900' },
    keep: { type: 'boolean', default: false },
  },
});
const num = (name: keyof typeof args): number => {
  const v = Number(args[name]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number`);
  return v;
};
const o = {
  calls: num('calls'),
  newCalls: num('new-calls'),
  lines: Math.max(1, num('lines')),
  pauseS: num('pause'),
  spreadS: num('spread'),
  contacts: Math.max(1, num('contacts')),
  concurrency: Math.max(1, num('concurrency')),
  contactPauseS: num('contact-pause'),
  settleS: num('settle'),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const log = (msg: string) =>
  process.stderr.write(
    `[deploy ${new Date().toISOString().slice(11, 19)} +${((Date.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`,
  );

/** A build of the service: where its compiled code is, and its build id. */
interface Build {
  label: 'A' | 'B';
  dir: string;
  commit: string;
  version: string;
  buildId: string;
}

const git = async (...argv: string[]) => (await execFileP('git', argv, { cwd: ROOT })).stdout.trim();
const packageVersion = (dir: string) =>
  (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Version A: `ref`'s tree from git, compiled (src only) with its own `tsc` into
 * `<tmp>/svc-deploy-bench-<12 hex>/dist`, this checkout's node_modules linked in; reused when built already.
 */
async function buildOld(ref: string): Promise<Build> {
  const commit = await git('rev-parse', ref);
  const dir = path.join(os.tmpdir(), `svc-deploy-bench-${commit.slice(0, 12)}`);
  const done = path.join(dir, '.built');
  if (!fs.existsSync(done)) {
    log(`building version A (${commit.slice(0, 12)}) under ${dir}: git archive, tsc (a few minutes)`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    await execFileP('bash', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: ROOT });
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.bench.json'),
      JSON.stringify({ extends: './tsconfig.json', include: ['src/**/*.ts'] }),
    );
    await execFileP(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'],
      {
        cwd: dir,
      },
    );
    fs.writeFileSync(done, commit);
  }
  const version = packageVersion(dir);
  return { label: 'A', dir, commit, version, buildId: `${version}-${commit.slice(0, 12)}` };
}

/** Version B: this checkout's compiled code (`npm run build`). */
async function thisBuild(): Promise<Build> {
  const commit = await git('rev-parse', 'HEAD');
  const version = packageVersion(ROOT);
  return { label: 'B', dir: ROOT, commit, version, buildId: `${version}-${commit.slice(0, 12)}` };
}

/** A Node process of one build (an API or a worker). */
interface ServiceProcess {
  name: string;
  child: ChildProcess;
  port?: number;
}

/** Everything the bench shares between its steps. */
interface Stack {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stopInfra: () => Promise<void>;
}

/** Starts `node <build>/dist/src/<script>` in the build's directory, its output in `<dataDir>/<name>.log`. */
function spawnService(stack: Stack, build: Build, name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const out = fs.openSync(path.join(stack.dataDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, [path.join(build.dir, 'dist/src', script)], {
    cwd: build.dir,
    env: { ...stack.env, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  started.add(child);
  return child;
}

async function startApi(stack: Stack, build: Build): Promise<ServiceProcess> {
  const port = await freePort();
  const name = `api-${build.label.toLowerCase()}`;
  const child = spawnService(stack, build, name, 'api/main.js', { PORT: String(port) });
  await waitForPort(port, '127.0.0.1', 180_000, child);
  return { name, child, port };
}

/** Starts a versioned worker of `build`; resolves once its log says it runs. */
async function startWorker(stack: Stack, build: Build): Promise<ServiceProcess> {
  const name = `worker-${build.label.toLowerCase()}`;
  const file = path.join(stack.dataDir, `${name}.log`);
  const child = spawnService(stack, build, name, 'worker/main.js', {
    SVC_WORKER_VERSIONING: '1',
    SVC_BUILD_ID: build.buildId,
    SVC_COMMIT: build.commit,
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode} (see ${file})`);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('worker running')) return { name, child };
    if (Date.now() > deadline) throw new Error(`${name} not running after 300 s (see ${file})`);
    await sleep(300);
  }
}

/** SIGTERMs a service process (a worker drains its tasks first); resolves once it has exited. */
async function stopService(p: ServiceProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}

/** Runs this checkout's `svcctl` against the stack; its JSON answer. */
async function svcctl(stack: Stack, ...argv: string[]): Promise<any> {
  const { stdout } = await execFileP(process.execPath, [path.join(ROOT, 'bin/svcctl.js'), ...argv], {
    env: { ...stack.env, LOG_LEVEL: 'warn' },
    maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout);
}

/** The embedded servers (Temporal with the drainage refresh at 5 s), the fakes, and the shared environment. */
async function startInfra(): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-deploy-'));
  log(`data and logs under ${dataDir}`);
  const bins = await infraBinaries();
  const [temporalPort, ferretPort] = [await freePort(), await freePort()];
  const [temporal, ferret] = await Promise.all([
    startTemporalDevServer(bins.temporal, {
      dataDir,
      port: temporalPort,
      uiPort: 0,
      // Temporal's own drainage status is refreshed every 3 minutes by default; the bench waits less.
      dynamicConfig: [
        'matching.wv.VersionDrainageStatusRefreshInterval="5s"',
        'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"',
      ],
    }),
    startFerretDB(bins.ferretdb, dataDir, ferretPort),
  ]);
  started.add(temporal.process).add(ferret.process);
  const llm = await startFakeLlm(); // lives as long as this process
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    SECRETS_KEY: crypto.randomBytes(32).toString('hex'),
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'sk-deploy-fake',
    OPENAI_MODEL: 'fake-model',
    CALLING_HOURS_ENFORCEMENT: 'record',
    DEFAULT_ALLOWED_COUNTRIES: 'US',
    MONGODB_URI: ferret.uri,
    TEMPORAL_ADDRESS: temporal.address,
    SVC_DEPLOYMENT_NAME: DEFAULT_DEPLOYMENT_NAME,
  };
  // This process reads Temporal with the service's codec (sealed memos): the same address and key.
  Object.assign(process.env, { TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS, SECRETS_KEY: env.SECRETS_KEY });
  return {
    dataDir,
    env,
    stopInfra: async () => {
      await temporal.stop();
      await ferret.stop();
    },
  };
}

/** An answer of the API at `base`, parsed. */
async function api(base: string, key: string, method: string, urlPath: string, body?: unknown, idemKey?: string) {
  const res = await fetch(base + urlPath, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(idemKey ? { 'Idempotency-Key': idemKey } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** `POST` under an Idempotency-Key, retried with the same key on a transport failure, 5xx or 429 for 2 minutes. */
async function keyedPost(base: () => string, key: string, urlPath: string, body: unknown, idemKey: string) {
  const giveUpAt = Date.now() + 120_000;
  for (let attempt = 0; ; attempt++) {
    let status: number | undefined;
    try {
      const res = await api(base(), key, 'POST', urlPath, body, idemKey);
      status = res.status;
      if (res.status < 500 && res.status !== 429 && res.body?.error?.code !== 'idempotency_key_in_use') return res;
    } catch {
      // transport failure: retried
    }
    if (Date.now() > giveUpAt) throw new Error(`${urlPath} ${idemKey}: no answer but ${status} after 2 minutes`);
    await sleep(Math.min(4000, 250 * 2 ** attempt));
  }
}

/** Every item of a list endpoint. */
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

/** The organization the bench calls from: a test key, room for every call at once, an agent, a form. */
async function newTenant(stack: Stack, base: string) {
  const org = await svcctl(stack, 'orgs', 'create', '--name', 'deploy bench');
  const { key } = await svcctl(stack, 'keys', 'create', '--org', org.id, '--mode', 'test', '--kind', 'secret');
  const limit = String(o.calls + o.newCalls + o.concurrency + 10);
  await svcctl(stack, 'limits', 'set', '--org', org.id, '--mode', 'test', '--max-concurrent-calls', limit);
  const agent = await api(base, key, 'POST', '/v1/agents', { name: 'Deploy', instructions: 'You confirm orders.' });
  if (agent.status !== 200) throw new Error(`agent: ${JSON.stringify(agent.body)}`);
  const form = await api(base, key, 'POST', '/v1/forms', {
    name: 'RSVP',
    fields: [{ key: 'attending', type: 'boolean', required: true, description: 'whether they come' }],
  });
  if (form.status !== 200) throw new Error(`form: ${JSON.stringify(form.body)}`);
  return { key: key as string, agentId: agent.body.id as string, formId: form.body.id as string };
}
type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Places keyed test calls `prefix-0…n-1` over `spreadS` s, each caller saying `lines` lines `pauseS` apart. */
function placeCalls(
  base: () => string,
  t: Tenant,
  prefix: string,
  n: number,
  spreadS: number,
  lines: number,
  pauseS: number,
): Promise<{ key: string; callId?: string; status: number }[]> {
  const caller = Array.from({ length: lines }, (_, i) => `Line ${i + 1}: let me check my order, one moment.`);
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await sleep((i * spreadS * 1000) / Math.max(1, n));
      const key = `${prefix}-${i}`;
      const body = {
        to: '+14155550123',
        agent_id: t.agentId,
        metadata: { deploy_key: key },
        simulation: { caller, pause_seconds: pauseS },
      };
      const res = await keyedPost(base, t.key, '/v1/calls', body, key);
      return { key, callId: res.status === 200 ? (res.body.id as string) : undefined, status: res.status };
    }),
  );
}

/** Starts the campaign: `o.contacts` distinct numbers, `o.concurrency` at a time, three slow caller lines each. */
async function startCampaign(base: string, t: Tenant): Promise<string> {
  const contacts = Array.from({ length: o.contacts }, (_, i) => `+1212555${String(i).padStart(4, '0')}`);
  const body = {
    agent_id: t.agentId,
    form_id: t.formId,
    name: 'deploy bench',
    contacts,
    max_concurrency: o.concurrency,
    simulation: { caller: ['Hello?', 'Yes, I will come.', 'Thanks.'], pause_seconds: o.contactPauseS },
  };
  const res = await keyedPost(() => base, t.key, '/v1/bulk-calls', body, `deploy-campaign-${Date.now()}`);
  if (res.status !== 200) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Polls `svcctl deploy status` until `pred` holds (5 minutes at most); the last status. */
async function waitForDeployment(stack: Stack, what: string, pred: (s: any) => boolean): Promise<any> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const s = await svcctl(stack, 'deploy', 'status').catch(() => null);
    if (s && pred(s)) return s;
    if (Date.now() > deadline) throw new Error(`deployment: ${what} not seen after 5 minutes: ${JSON.stringify(s)}`);
    await sleep(1000);
  }
}

/** Waits until every call of the organization is over and the campaign has ended. */
async function settle(base: string, t: Tenant, campaignId: string): Promise<void> {
  const deadline = Date.now() + o.settleS * 1000;
  const over = ['completed', 'failed', 'busy', 'no_answer', 'canceled', 'transferred'];
  for (;;) {
    const calls = await listAll(base, t.key, '/v1/calls').catch(() => null);
    const campaign = await api(base, t.key, 'GET', `/v1/bulk-calls/${campaignId}`).catch(() => null);
    const open = calls?.filter((c) => !over.includes(c.status)).length ?? -1;
    if (open === 0 && campaign?.body?.status === 'completed') return;
    if (Date.now() > deadline) throw new Error(`not settled after ${o.settleS} s: ${open} calls open`);
    await sleep(3000);
  }
}

/** Steps 1 and 2: A running, the campaign and the old calls started through A's API. */
async function beforeDeploy(stack: Stack, a: Build) {
  const [apiA, workerA] = await Promise.all([startApi(stack, a), startWorker(stack, a)]);
  await waitForDeployment(stack, `A current`, (s) => s.current_build_id === a.buildId);
  log(`version A ${a.buildId} current; its API on :${apiA.port}`);
  const baseA = `http://127.0.0.1:${apiA.port}`;
  const tenant = await newTenant(stack, baseA);
  const campaignId = await startCampaign(baseA, tenant);
  log(`campaign ${campaignId}: ${o.contacts} contacts, ${o.concurrency} at a time`);
  let base = baseA;
  const oldCalls = placeCalls(() => base, tenant, 'old', o.calls, o.spreadS, o.lines, o.pauseS);
  return { apiA, workerA, tenant, campaignId, oldCalls, setBase: (b: string) => (base = b) };
}

async function main(): Promise<void> {
  log(`options ${JSON.stringify(o)}; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  const [a, b] = [await buildOld(args.from!), await thisBuild()];
  log(`A ${a.buildId} (${a.dir}), B ${b.buildId}`);
  const stack = await startInfra();
  const procs: (ServiceProcess | undefined)[] = [];
  try {
    const pre = await beforeDeploy(stack, a);
    procs.push(pre.apiA, pre.workerA);
    log('starting version B beside A');
    const workerB = await startWorker(stack, b);
    procs.push(workerB);
    await waitForDeployment(stack, 'B polling', (s) => s.versions.some((v: any) => v.build_id === b.buildId));
    const old = await pre.oldCalls;
    const promoteSentMs = Date.now();
    await svcctl(stack, 'deploy', 'promote', '--build-id', b.buildId);
    const promotedMs = Date.now(); // Temporal has answered: new work goes to B
    const base = `http://127.0.0.1:${(await promotedApi(stack, b, pre, procs)).port}`;
    log(`B promoted; B's API replaced A's; ${o.newCalls} new calls through it`);
    const newCalls = await placeCalls(() => base, pre.tenant, 'new', o.newCalls, 5, 3, 3);
    log('draining A');
    const drainStartMs = Date.now();
    const drain = await svcctl(stack, 'deploy', 'drain', '--build-id', a.buildId, '--wait', '--timeout-s', '1800');
    const drainedMs = Date.now();
    await stopService(pre.workerA);
    log(`A drained (${((drainedMs - drainStartMs) / 1000).toFixed(0)} s) and its worker stopped`);
    await settle(base, pre.tenant, pre.campaignId);
    log('every call and the campaign over; reading histories');
    await sleep(10_000); // Temporal's own drainage status, refreshed every 5 s here
    const finalDrain = await svcctl(stack, 'deploy', 'drain', '--build-id', a.buildId);
    const figures = await collect(stack, base, pre.tenant, pre.campaignId, {
      a,
      b,
      promoteSentMs,
      promotedMs,
      old,
      newCalls,
      drain,
    });
    figures.finalDrain = finalDrain;
    figures.drainS = (drainedMs - drainStartMs) / 1000;
    console.log(
      `\ndeploy bench, ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, options ${JSON.stringify(o)}`,
    );
    console.log(renderDeployTable(figures));
    console.log(JSON.stringify(figures.summary));
  } finally {
    await Promise.all(procs.map(stopService));
    await stack.stopInfra();
    if (args.keep) log(`kept ${stack.dataDir}`);
    else fs.rmSync(stack.dataDir, { recursive: true, force: true });
  }
}

/** Step 3's second half: B's API started, the clients moved to it, A's API stopped. */
async function promotedApi(
  stack: Stack,
  b: Build,
  pre: Awaited<ReturnType<typeof beforeDeploy>>,
  procs: (ServiceProcess | undefined)[],
): Promise<ServiceProcess> {
  const apiB = await startApi(stack, b);
  procs.push(apiB);
  pre.setBase(`http://127.0.0.1:${apiB.port}`);
  await stopService(pre.apiA);
  return apiB;
}

/** Step 5: what the API, the histories and Temporal's descriptions say. */
async function collect(
  stack: Stack,
  base: string,
  t: Tenant,
  campaignId: string,
  run: {
    a: Build;
    b: Build;
    promoteSentMs: number;
    promotedMs: number;
    old: { key: string; callId?: string }[];
    newCalls: { key: string; callId?: string }[];
    drain: any;
  },
): Promise<DeployFigures> {
  const calls: CallRecord[] = (await listAll(base, t.key, '/v1/calls')).map((c) => ({
    id: c.id,
    status: c.status,
    key: c.metadata?.deploy_key,
    campaign: c.bulk_call_id === campaignId,
  }));
  const results = await listAll(base, t.key, `/v1/bulk-calls/${campaignId}/results`);
  const campaign = (await api(base, t.key, 'GET', `/v1/bulk-calls/${campaignId}`)).body;
  const client = await connectClient(stack.env.TEMPORAL_ADDRESS);
  try {
    const runs = await inspectRuns(client, calls, campaignId);
    return {
      aBuild: run.a.buildId,
      bBuild: run.b.buildId,
      promoteSentMs: run.promoteSentMs,
      promotedMs: run.promotedMs,
      sent: { old: run.old, new: run.newCalls },
      calls,
      results,
      campaign,
      runs,
      drain: run.drain,
      finalDrain: null,
      drainS: 0,
      summary: {},
    };
  } finally {
    await client.connection.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
