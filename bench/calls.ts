/**
 * Call orchestration benchmark (not a timed test; DESIGN.md section 7: "measure, do not assume"). Starts
 * the test harness (real Temporal dev server and FerretDB, the API, the loopback LLM) with the calls'
 * worker in its own process, as deployed (API and worker apart), and prints side by side:
 *
 *   - the floor: a bare `workflow.start` on the same dev server, 1 and 10 clients (latency, starts/s), and
 *     next to it `POST /v1/calls` of a call that ends at once (`simulation.outcome: "no_answer"`, with an
 *     `Idempotency-Key`), 1 and 10 clients, with the ratios (goal: p50 within the
 *     floor's + 15 ms with 1 client, at least half the floor's rate with 10), once with the calls running
 *     and ending as they go (the worker's work shares the machine) and once with the calls on a queue no
 *     worker polls (the request path alone; in BENCH_FLOOR_ROUNDS rounds, each measuring the floor and
 *     then the request path, as the floor moves from run to run: the ratios are taken within each round
 *     and their median checked, the figures are the rounds' medians), the CPU each process spends per request with 10 clients
 *     (`api` is this process: the API and the benchmark's own HTTP client), the store commands per request
 *     of the request-path runs by `collection.command` (the driver's command monitoring), and the store
 *     round trips of one such request (mongoose's debug hook in the API process, which is this one)
 *   - `POST /v1/calls`, 1 client then 10 clients, calls running and completing as they go: latency
 *     p50/p99, calls placed/s and completed/s, and CPU per completed call of each process (API, worker,
 *     Temporal dev server, FerretDB)
 *   - the per-turn gap: from the LLM's answer to the next LLM request of the same simulated call (the
 *     orchestration between two turns: transcript write, the scripted caller's next line), p50/p99,
 *     from the loopback LLM's clock: BENCH_GAP_CALLS calls of BENCH_GAP_TURNS lines one at a time (the
 *     figure), then those of the 1-client and 10-client runs (several calls at once share the worker)
 *   - streaming: live calls through the fake Twilio (REST, signed callbacks, the ConversationRelay
 *     WebSocket spoken to as Twilio does) with a streaming LLM whose first word comes after
 *     BENCH_FIRST_TOKEN_MS (200): time from the caller's final transcript (`prompt`, `last: true`) to
 *     the first `text` token sent to the caller, p50/p99, and that minus the LLM's first-token time
 *
 * Knobs: BENCH_CALLS (10-client calls, default 100), BENCH_SERIAL_CALLS (1-client calls, default 30),
 * BENCH_TURNS (caller lines per call, default 5), BENCH_STARTS (bare starts per client count, default 200),
 * BENCH_FLOOR_CALLS (`no_answer` calls per client count, default 200), BENCH_FLOOR_ROUNDS (rounds of the
 * floor beside the request path, default 3), BENCH_ONLY=floor (the floor and the `no_answer` calls only,
 * ~2 min), BENCH_LIVE_CALLS (default 5) × BENCH_LIVE_TURNS (default 8),
 * BENCH_FIRST_TOKEN_MS (default 200),
 * BENCH_TIMEOUT_MS (default 300000), BENCH_WORKER_NODE_OPTIONS (the worker process's NODE_OPTIONS, e.g.
 * `--max-old-space-size=4096`), BENCH_WORKER_CPU_PROFILE (a directory: the worker process is profiled
 * from start to end, `--cpu-prof`, one `.cpuprofile` per thread; Node refuses `--cpu-prof` in
 * NODE_OPTIONS), BENCH_API_CPU_PROFILE (a path prefix: this process is
 * profiled during the request-path-only runs, written to `<prefix>-<clients>.cpuprofile`). Loopback only; on a machine shared with other work the figures are
 * inflated by it.
 *
 *   npm run bench:calls
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import mongoose from 'mongoose';
import twilio from 'twilio';
import WebSocket from 'ws';
import { config, setConfig } from '../src/config';
import { Call } from '../src/models/calls';
import { newId } from '../src/shared/ids';
import { postAsTwilio, signerOf, startFakeTwilio, type FakeTwilio } from '../test/support/fake-twilio';
import { verifiedCallerId } from '../test/support/fake-twilio-numbers';
import {
  h,
  newTenant,
  request,
  startHarness,
  startWorkerProcess,
  stopHarness,
  stopWorkerProcess,
} from '../test/support/harness';
import { countCommands, startCpuProfile } from './profiling';
import { cpuMs, percentile, turnGaps as gapsOf } from './stats';
import { setOrgCallLimit } from '../src/services/limits';

const num = (name: string, fallback: number, max = 100_000) =>
  Math.min(max, Math.max(1, Number(process.env[name] ?? fallback)));

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { p50: r(percentile(s, 50)), p99: r(percentile(s, 99)), n: s.length };
};

const TERMINAL = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];

/** CPU time (ms, user + system) of each process of this tree, by role. */
function cpuByRole(roles: Map<number, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [pid, role] of roles) {
    try {
      out[role] = (out[role] ?? 0) + cpuMs(pid);
    } catch {
      // exited
    }
  }
  return out;
}

/** The processes this benchmark started, by role: children of this process, named by their command line. */
function processRoles(workerPid: number): Map<number, string> {
  const roles = new Map<number, string>([
    [process.pid, 'api'],
    [workerPid, 'worker'],
  ]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid || Number(entry) === workerPid) continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      roles.set(Number(entry), /ferret/i.test(cmd) ? 'ferretdb' : /temporal/i.test(cmd) ? 'temporal' : 'other');
    } catch {
      // exited
    }
  }
  return roles;
}

/**
 * Waits until the other processes (worker, Temporal, FerretDB) are idle: less than 5% of one core over
 * 250 ms, for at most 15 s. Work a run left behind (the places in line signalled after the answers, the
 * semaphore's grants) then does not land in the next run's figures.
 */
async function settle(roles: Map<number, string>): Promise<void> {
  const busy = () =>
    Object.entries(cpuByRole(roles))
      .filter(([role]) => role !== 'api')
      .reduce((sum, [, ms]) => sum + ms, 0);
  const until = Date.now() + 15_000;
  for (let before = busy(); Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = busy();
    if (now - before < 12.5) return;
    before = now;
  }
}

async function waitUntilEnded(ids: string[], deadlineMs: number): Promise<void> {
  for (;;) {
    const open = await Call.countDocuments({ _id: { $in: ids }, status: { $nin: TERMINAL } });
    if (open === 0) return;
    if (Date.now() > deadlineMs) throw new Error(`${open} calls still open after the time limit`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `total` tasks with `clients` in flight; returns each task's latency (ms) and the wall time (s). */
async function drive(total: number, clients: number, task: () => Promise<void>) {
  const ms: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        await task();
        ms.push(performance.now() - t0);
      }
    }),
  );
  return { ms, seconds: (performance.now() - started) / 1000 };
}

/** Per-turn gaps of these calls (bench/stats.ts `turnGaps` over the loopback LLM's requests). */
const turnGaps = (ids: string[]) => gapsOf(h().llm.requests, ids);

async function main(): Promise<void> {
  const calls10 = num('BENCH_CALLS', 100, 2000);
  const calls1 = num('BENCH_SERIAL_CALLS', 30, 1000);
  const turns = num('BENCH_TURNS', 5, 50);
  const gapCalls = num('BENCH_GAP_CALLS', 10, 200);
  const gapTurns = num('BENCH_GAP_TURNS', 10, 200);
  const starts = num('BENCH_STARTS', 200, 5000);
  const floorCalls = num('BENCH_FLOOR_CALLS', 200, 5000);
  const rounds = num('BENCH_FLOOR_ROUNDS', 3, 20);
  const only = process.env.BENCH_ONLY;
  const liveCalls = num('BENCH_LIVE_CALLS', 5, 100);
  const liveTurns = num('BENCH_LIVE_TURNS', 8, 50);
  const firstTokenMs = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 200);
  const deadline = Date.now() + Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);

  await startHarness();
  let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
  let fake: FakeTwilio | undefined;
  const saved = config();
  try {
    // Calls run on a queue only the worker process polls: the API (this process) and the worker apart.
    const queue = `bench-calls-${crypto.randomBytes(4).toString('hex')}`;
    fake = await startFakeTwilio();
    setConfig({
      ...saved,
      taskQueue: queue,
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      twilioApiBaseUrl: fake.url,
      publicBaseUrl: h().api.url,
      // Counted as ever (one slot per request), at a limit the runs do not reach: the path is measured.
      apiRateLimit: saved.apiRateLimit === 0 ? 0 : 1_000_000,
    });
    worker = await startWorkerProcess(
      queue,
      {
        TWILIO_ACCOUNT_SID: fake.accountSid,
        TWILIO_AUTH_TOKEN: fake.authToken,
        TWILIO_API_BASE_URL: fake.url,
        PUBLIC_BASE_URL: h().api.url,
        ...(process.env.BENCH_WORKER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS } : {}),
      },
      process.env.BENCH_WORKER_CPU_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROFILE}`]
        : [],
    );
    const roles = processRoles(worker.pid!);
    const t = await newTenant();
    // The orchestration is measured, not the organization's line: a limit no run reaches.
    await setOrgCallLimit(t.orgId, 'test', 1000);
    const body = {
      to: '+14155550123',
      agent_id: t.agentId,
      simulation: { caller: Array.from({ length: turns }, (_, i) => `line ${i + 1}`) },
    };
    const post = async (ids: string[]) => {
      const res = await request('POST', '/v1/calls', { key: t.testKey, body });
      if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
      ids.push(res.body.id);
    };
    // Warm-up: a few calls end to end.
    const warm: string[] = [];
    for (let i = 0; i < 3; i++) await post(warm);
    await waitUntilEnded(warm, deadline);

    const progress = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);
    progress(`warmed up; ${rounds} rounds of bare starts beside the request path`);
    /** CPU (ms) each process spent per request since `before`. */
    const cpuPer = (before: Record<string, number>, n: number) => {
      const after = cpuByRole(roles);
      return Object.fromEntries(
        Object.entries(after).map(([role, ms]) => [role, Math.round(((ms - (before[role] ?? 0)) / n) * 10) / 10]),
      );
    };
    /** The floor: bare starts of a workflow no worker runs (nothing else happens per start). */
    const floorRun = async (clients: number): Promise<Figure> => {
      await settle(roles);
      const cpu0 = cpuByRole(roles);
      const run = await drive(starts, clients, async () => {
        await h().env.client.workflow.start('benchFloorWorkflow', {
          workflowId: newId('bench'),
          taskQueue: `${queue}-nobody`,
        });
      });
      return { ...summary(run.ms), per_s: Math.round(starts / run.seconds), cpu: cpuPer(cpu0, starts) };
    };
    // Next to the floor: calls that end at once (nothing rings), each with its own Idempotency-Key.
    type Tenant = Awaited<ReturnType<typeof newTenant>>;
    const postNoAnswer = async (ids: string[], tenant: Tenant = t) => {
      const res = await request('POST', '/v1/calls', {
        key: tenant.testKey,
        body: { to: body.to, agent_id: tenant.agentId, simulation: { outcome: 'no_answer' } },
        headers: { 'Idempotency-Key': newId('idem') },
      });
      if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
      ids.push(res.body.id);
    };
    /**
     * An organization for one run of the request path alone. Each run has its own: its calls never end,
     * so they hold their slots for good, and in `t`'s line they would leave the calls of the other runs
     * waiting (with BENCH_FLOOR_CALLS=600, the calls that run found `t`'s 1,000 slots taken and never
     * dialed). One call made and ended on the queue the worker polls, before the clock starts: the key is
     * cached and the semaphore runs there (one started by the run's first request would run on the queue
     * nobody polls).
     */
    const pathTenant = async (): Promise<Tenant> => {
      const tenant = await newTenant();
      await setOrgCallLimit(tenant.orgId, 'test', 1000);
      const warm: string[] = [];
      await postNoAnswer(warm, tenant);
      await waitUntilEnded(warm, Date.now() + 60_000);
      return tenant;
    };
    /**
     * The request path alone (`tenant`'s, from `pathTenant`): the same requests, their calls on a queue no
     * worker polls (none runs); the store commands counted, and this process profiled when asked (first
     * round only).
     */
    const pathRun = async (clients: number, profiled: boolean, tenant: Tenant): Promise<Figure> => {
      setConfig({ ...config(), taskQueue: `${queue}-nobody` });
      try {
        await settle(roles);
        const cpu0 = cpuByRole(roles);
        const profile = profiled && process.env.BENCH_API_CPU_PROFILE ? await startCpuProfile() : undefined;
        const commands = countCommands();
        const run = await drive(floorCalls, clients, () => postNoAnswer([], tenant));
        const perCommand = commands.stop();
        if (profile) await profile.stopTo(`${process.env.BENCH_API_CPU_PROFILE}-${clients}.cpuprofile`);
        return {
          ...summary(run.ms),
          per_s: Math.round(floorCalls / run.seconds),
          cpu: cpuPer(cpu0, floorCalls),
          store_commands: Object.fromEntries(
            Object.entries(perCommand).map(([k, n]) => [k, Math.round((n / floorCalls) * 100) / 100]),
          ),
        };
      } finally {
        setConfig({ ...config(), taskQueue: queue });
      }
    };
    const traced = await storeRoundTrips(() => postNoAnswer([]));
    // The floor moves from run to run on this machine (its 10-client rate by half and more): each round
    // measures the floor and the request path side by side, and the ratios are taken within a round.
    const floorRounds: Record<number, Figure[]> = { 1: [], 10: [] };
    const pathRounds: Record<number, Figure[]> = { 1: [], 10: [] };
    const noAnswer: Record<number, Figure> = {};
    for (let round = 0; round < rounds; round++) {
      for (const clients of [1, 10]) {
        floorRounds[clients].push(await floorRun(clients));
        pathRounds[clients].push(await pathRun(clients, round === 0, await pathTenant()));
      }
      if (round > 0) continue;
      progress(`POST /v1/calls of no_answer calls, calls running, 1 and 10 clients, ${floorCalls} calls each`);
      for (const clients of [1, 10]) {
        const ids: string[] = [];
        await settle(roles);
        const cpu0 = cpuByRole(roles);
        const run = await drive(floorCalls, clients, () => postNoAnswer(ids));
        noAnswer[clients] = {
          ...summary(run.ms),
          per_s: Math.round(floorCalls / run.seconds),
          cpu: cpuPer(cpu0, floorCalls),
        };
        await waitUntilEnded(ids, deadline);
      }
    }
    // A diagnostic: the request path with no work trailing it. With one client the machine's two cores are
    // busy all the same (the CPU per request of every process, times the rate), and part of that is the
    // semaphore's work for the calls just placed (its workflow tasks, the grants it tells), which shares
    // the cores with the next requests. With the worker paused (SIGSTOP) that work waits; the difference
    // is what it costs the 1-client latency.
    const pausedTenant = await pathTenant();
    process.kill(worker.pid!, 'SIGSTOP');
    let paused: Figure;
    try {
      paused = await pathRun(1, false, pausedTenant);
    } finally {
      process.kill(worker.pid!, 'SIGCONT');
    }
    const floor = { 1: medianFigure(floorRounds[1]), 10: medianFigure(floorRounds[10]) };
    const pathOnly = { 1: medianFigure(pathRounds[1]), 10: medianFigure(pathRounds[10]) };
    const floorRows = floorTable(floor, { 'calls running and ending': noAnswer, 'calls not run': pathOnly }, traced, {
      floor: floorRounds,
      'calls not run': pathRounds,
    });
    const busyCores = (fig: Figure) =>
      Math.round((Object.values(fig.cpu).reduce((a, b) => a + b, 0) * fig.per_s) / 100) / 10;
    floorRows.push(
      `| CPU per request (ms), 1 client: \`POST /v1/calls\`, calls not run | ${cpuText(pathOnly[1].cpu)}; cores busy ${busyCores(pathOnly[1])} of 2 | |`,
      `| \`POST /v1/calls\`, 1 client, calls not run, worker paused (no semaphore work trailing the requests; diagnostic) | p50 ${paused.p50} ms, p99 ${paused.p99} ms; ${paused.per_s}/s; p50 − floor p50 ${Math.round((paused.p50 - floor[1].p50) * 10) / 10} ms; CPU per request ${cpuText(paused.cpu)} | |`,
    );
    /** The floor's figures as JSON, printed alone (`BENCH_ONLY=floor`) or with the rest. */
    const floorFigures = {
      floor,
      no_answer: noAnswer,
      path_only: pathOnly,
      path_only_worker_paused: paused,
      rounds: { floor: floorRounds, path_only: pathRounds },
      store_round_trips: traced,
    };
    if (only === 'floor') {
      console.log(`calls benchmark (BENCH_ONLY=floor); ${new Date().toISOString()}`);
      for (const row of floorRows) console.log(row);
      console.log(JSON.stringify(floorFigures));
      console.log(
        `reproduce: npm run build && BENCH_ONLY=floor BENCH_STARTS=${starts} BENCH_FLOOR_CALLS=${floorCalls} BENCH_FLOOR_ROUNDS=${rounds} node dist/bench/calls.js`,
      );
      return;
    }

    // The per-turn gap of a call alone: one call at a time, nothing else running.
    progress(`per-turn gap: ${gapCalls} calls of ${gapTurns} lines, one at a time`);
    const alone: string[] = [];
    for (let i = 0; i < gapCalls; i++) {
      const ids: string[] = [];
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { ...body, simulation: { caller: Array.from({ length: gapTurns }, (_, j) => `line ${j + 1}`) } },
      });
      ids.push(res.body.id);
      await waitUntilEnded(ids, deadline);
      alone.push(...ids);
    }
    const gapAlone = summary(turnGaps(alone));

    // POST /v1/calls: one client, then ten; calls run and complete as they go.
    const posts: Record<number, Record<string, unknown>> = {};
    const idsBy: Record<number, string[]> = {};
    for (const [clients, total] of [
      [1, calls1],
      [10, calls10],
    ]) {
      const ids: string[] = [];
      progress(`POST /v1/calls, ${clients} client(s), ${total} calls`);
      const cpu0 = cpuByRole(roles);
      const startedMs = Date.now();
      const run = await drive(total, clients, () => post(ids));
      await waitUntilEnded(ids, deadline);
      const cpu1 = cpuByRole(roles);
      const docs = await Call.find({ _id: { $in: ids } }, { status: 1, ended_ms: 1 }).lean();
      const lastEnd = Math.max(...docs.map((d) => d.ended_ms ?? 0));
      const cpuPerCall = Object.fromEntries(
        Object.keys(cpu1).map((role) => [role, Math.round(((cpu1[role] - (cpu0[role] ?? 0)) / total) * 10) / 10]),
      );
      posts[clients] = {
        ...summary(run.ms),
        placed_per_s: Math.round((total / run.seconds) * 10) / 10,
        completed_per_s: Math.round((total / ((lastEnd - startedMs) / 1000)) * 10) / 10,
        completed: docs.filter((d) => d.status === 'completed').length,
        cpu_ms_per_call: cpuPerCall,
      };
      idsBy[clients] = ids;
    }
    const gap1 = summary(turnGaps(idsBy[1]));
    const gap10 = summary(turnGaps(idsBy[10]));

    // Streaming: live calls through the fake Twilio and the relay WebSocket.
    progress(`live calls: ${liveCalls} × ${liveTurns} utterances`);
    const liveAgent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Bench live', instructions: 'Be brief.' },
    });
    // A live call's `from` must be the organization's number or a caller ID it verified.
    await verifiedCallerId(fake, t.liveKey, '+14155550100');
    h().llm.streaming = { firstTokenMs, tokenGapMs: 20 };
    const firstToken: number[] = [];
    const wholeAnswer: number[] = [];
    for (let c = 0; c < liveCalls; c++) {
      const { first, whole } = await liveCall(fake, t.liveKey, liveAgent.body.id, liveTurns, deadline);
      firstToken.push(...first);
      wholeAnswer.push(...whole);
    }
    h().llm.streaming = { firstTokenMs: 0, tokenGapMs: 0 };
    const first = summary(firstToken);

    const f = (s: { p50: number; p99: number }) => `p50 ${s.p50} ms, p99 ${s.p99} ms`;
    const cpu = (c: unknown) =>
      Object.entries(c as Record<string, number>)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    console.log(
      `calls benchmark: ${turns} caller lines per simulated call; API and worker in separate processes; ${new Date().toISOString()}`,
    );
    console.log('| figure | result | goal |');
    console.log('|---|---|---|');
    console.log(
      `| per-turn gap (LLM answer → next LLM request), one call at a time | ${f(gapAlone)} (${gapAlone.n} gaps) | p50 ≤ 15 ms, p99 ≤ 60 ms |`,
    );
    console.log(`| per-turn gap, calls placed by 1 client (several running at once) | ${f(gap1)} (${gap1.n} gaps) | |`);
    console.log(`| per-turn gap, calls placed by 10 clients | ${f(gap10)} (${gap10.n} gaps) | |`);
    console.log(
      `| caller's final transcript → first token to the caller (LLM first token ${firstTokenMs} ms) | ${f(first)} (${first.n} turns); overhead p50 ${Math.round((first.p50 - firstTokenMs) * 10) / 10} ms | p50 ≤ ${firstTokenMs + 30} ms |`,
    );
    console.log(`| caller's final transcript → whole answer closed (\`last: true\`) | ${f(summary(wholeAnswer))} | |`);
    for (const clients of [1, 10]) {
      const p = posts[clients] as ReturnType<typeof summary> & Record<string, unknown>;
      console.log(
        `| \`POST /v1/calls\`, ${clients} client${clients > 1 ? 's' : ''} | ${f(p)}; ${p.placed_per_s} placed/s, ${p.completed_per_s} completed/s (${p.completed}/${p.n} completed) | ${clients === 1 ? 'p50 ≤ 15 ms' : '≥ 100/s, p99 ≤ 50 ms'} |`,
      );
    }
    for (const row of floorRows.slice(2)) console.log(row);
    console.log(`| CPU per completed call, 1 client (ms) | ${cpu(posts[1].cpu_ms_per_call)} | |`);
    console.log(`| CPU per completed call, 10 clients (ms) | ${cpu(posts[10].cpu_ms_per_call)} | |`);
    console.log(
      JSON.stringify({
        ...floorFigures,
        posts,
        gap1,
        gap10,
        first_token: first,
        whole_answer: summary(wholeAnswer),
      }),
    );
    console.log(
      `reproduce: npm run build && BENCH_CALLS=${calls10} BENCH_SERIAL_CALLS=${calls1} BENCH_TURNS=${turns} BENCH_STARTS=${starts} BENCH_FLOOR_CALLS=${floorCalls} BENCH_FLOOR_ROUNDS=${rounds} node dist/bench/calls.js`,
    );
  } finally {
    setConfig(saved);
    await stopWorkerProcess(worker, 'SIGTERM');
    await fake?.close();
    await stopHarness();
  }
}

/**
 * The store round trips `task` makes in this process (the API's), as mongoose's debug hook sees them
 * (`<collection>.<method> <filter or document>`), in the order they were sent.
 */
async function storeRoundTrips(task: () => Promise<void>): Promise<string[]> {
  const ops: string[] = [];
  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    const first = JSON.stringify(args[0]) ?? '';
    ops.push(`${collection}.${method} ${first.length > 120 ? `${first.slice(0, 119)}…` : first}`);
  });
  try {
    await task();
  } finally {
    mongoose.set('debug', false);
  }
  return ops;
}

/** Latency (ms), requests per second, and CPU per request of each process (ms, by role). */
type Figure = {
  p50: number;
  p99: number;
  per_s: number;
  cpu: Record<string, number>;
  /** Store commands per request, by `collection.command` (the request path alone). */
  store_commands?: Record<string, number>;
};

/** CPU ms per request by process role, as a table cell (`api 7.8, worker 1.6, …`), without `other`. */
function cpuText(c: Record<string, number>): string {
  return Object.entries(c)
    .filter(([role]) => role !== 'other')
    .map(([role, ms]) => `${role} ${ms}`)
    .join(', ');
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * Rounds of one figure as one: the median of each number (latency, rate, each process's CPU, each store
 * command's count) across the rounds, rounded to 0.1 (rates and counts as measured).
 */
function medianFigure(rounds: Figure[]): Figure {
  const m = (pick: (f: Figure) => number | undefined) =>
    Math.round(median(rounds.map((f) => pick(f) ?? 0)) * 100) / 100;
  const keys = (pick: (f: Figure) => Record<string, number> | undefined) => [
    ...new Set(rounds.flatMap((f) => Object.keys(pick(f) ?? {}))),
  ];
  const commands = keys((f) => f.store_commands);
  return {
    p50: Math.round(median(rounds.map((f) => f.p50)) * 10) / 10,
    p99: Math.round(median(rounds.map((f) => f.p99)) * 10) / 10,
    per_s: Math.round(median(rounds.map((f) => f.per_s))),
    cpu: Object.fromEntries(keys((f) => f.cpu).map((k) => [k, Math.round(m((f) => f.cpu[k]) * 10) / 10])),
    ...(commands.length
      ? { store_commands: Object.fromEntries(commands.map((k) => [k, m((f) => f.store_commands?.[k])])) }
      : {}),
  };
}

/**
 * The floor's rows (markdown): bare `workflow.start` and `POST /v1/calls` of a `no_answer` call, 1 and 10
 * clients, for each variant of `posts` (calls running as they go, or not run at all: the request path
 * alone), then the ratios against the goal and the store round trips of one request. A
 * variant measured in rounds beside the floor (`rounds[variant]`, `rounds.floor`) has its ratios taken
 * within each round, and the median of them checked against the goal (the rounds' values shown); the
 * others are compared with the floor's medians.
 */
function floorTable(
  floor: Record<number, Figure>,
  posts: Record<string, Record<number, Figure>>,
  trips: string[],
  rounds: Record<string, Record<number, Figure[]>> = {},
) {
  const f = (s: Figure) => `p50 ${s.p50} ms, p99 ${s.p99} ms; ${s.per_s}/s`;
  const rows = ['| figure | result | goal |', '|---|---|---|'];
  for (const clients of [1, 10]) {
    const s = clients > 1 ? 's' : '';
    rows.push(`| bare \`workflow.start\` (the floor), ${clients} client${s} | ${f(floor[clients])} | |`);
    for (const [what, post] of Object.entries(posts))
      rows.push(
        `| \`POST /v1/calls\` of a \`no_answer\` call, ${clients} client${s}, ${what} | ${f(post[clients])} | |`,
      );
  }
  for (const [what, post] of Object.entries(posts)) {
    const paired = rounds[what] && rounds.floor ? rounds[what] : undefined;
    const overs = paired ? paired[1].map((p, i) => p.p50 - rounds.floor[1][i].p50) : [post[1].p50 - floor[1].p50];
    const rates = paired
      ? paired[10].map((p, i) => p.per_s / rounds.floor[10][i].per_s)
      : [post[10].per_s / floor[10].per_s];
    const over = Math.round(median(overs) * 10) / 10;
    const rate = Math.round(median(rates) * 100) / 100;
    const each = (values: number[], digits: number) =>
      values.length > 1
        ? ` (median of ${values.length} rounds: ${values.map((v) => Math.round(v * 10 ** digits) / 10 ** digits).join(', ')})`
        : '';
    rows.push(
      `| POST p50 − floor p50, 1 client, ${what} | ${over} ms${each(overs, 1)} | ≤ 15 ms ${over <= 15 ? '✓' : '✗'} |`,
    );
    rows.push(
      `| POST rate ÷ floor rate, 10 clients, ${what} | ${rate}${each(rates, 2)} | ≥ 0.5 ${rate >= 0.5 ? '✓' : '✗'} |`,
    );
  }
  rows.push(`| CPU per request (ms), 10 clients: bare \`workflow.start\` | ${cpuText(floor[10].cpu)} | |`);
  for (const [what, post] of Object.entries(posts))
    rows.push(`| CPU per request (ms), 10 clients: \`POST /v1/calls\`, ${what} | ${cpuText(post[10].cpu)} | |`);
  for (const [what, post] of Object.entries(posts))
    for (const clients of [1, 10]) {
      const commands = post[clients].store_commands;
      if (!commands) continue;
      const total = Math.round(Object.values(commands).reduce((a, b) => a + b, 0) * 100) / 100;
      const each = Object.entries(commands)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      rows.push(
        `| store commands per POST, ${clients} client${clients > 1 ? 's' : ''}, ${what} | ${total}: ${each} | |`,
      );
    }
  rows.push(
    `| store round trips of one POST (API process) | ${trips.length}: ${trips.map((t) => `\`${t}\``).join('; ')} | |`,
  );
  return rows;
}

/**
 * One live call: placed through the API, answered through a signed status callback, ConversationRelay
 * connected as Twilio does, `turns` utterances said one after the other; then ended through the API.
 * @returns per utterance: final transcript → first token, and → the message that closes the answer (ms)
 */
async function liveCall(fake: FakeTwilio, key: string, agentId: string, turns: number, deadline: number) {
  const res = await request('POST', '/v1/calls', {
    key,
    body: { to: '+14155550123', from: '+14155550100', agent_id: agentId },
  });
  if (res.status !== 200) throw new Error(`live POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.id as string;
  const base = h().api.url;
  // Twilio signs a call's callbacks with the account the call was made in (the organization's subaccount).
  const sign = (url: string, params: Record<string, string>) =>
    twilio.getExpectedTwilioSignature(signerOf(fake, sid).authToken, url, params);
  const until = async (ok: () => Promise<boolean>) => {
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`live call ${id} stuck`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until(async () => fake.created.some((c) => c.Url?.endsWith(`/twilio/voice/${id}`)));
  const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
  await until(async () => (await Call.findById(id, { status: 1 }).lean())?.status === 'ringing');
  await postAsTwilio(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
  await until(async () => (await Call.findById(id, { status: 1 }).lean())?.status === 'in_progress');

  const wsUrl = `${base.replace(/^http/, 'ws')}/twilio/relay/${id}?sid=${sid}`;
  const ws = new WebSocket(wsUrl, { headers: { 'X-Twilio-Signature': sign(wsUrl, {}) } });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  ws.send(JSON.stringify({ type: 'setup', sessionId: `VX${id}`, callSid: sid }));
  let onMessage: (msg: { type: string; last?: boolean }) => void = () => undefined;
  ws.on('message', (raw) => onMessage(JSON.parse(String(raw))));
  const first: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < turns; i++) {
    const done = new Promise<void>((resolve) => {
      let firstSeen = false;
      onMessage = (msg) => {
        if (msg.type !== 'text') return;
        if (!firstSeen) first.push(performance.now() - t0);
        firstSeen = true;
        if (msg.last) {
          whole.push(performance.now() - t0);
          resolve();
        }
      };
    });
    const t0 = performance.now();
    ws.send(JSON.stringify({ type: 'prompt', voicePrompt: `Tell me something, number ${i + 1}.`, last: true }));
    await done;
  }
  ws.close();
  await request('POST', `/v1/calls/${id}/end`, { key });
  return { first, whole };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
