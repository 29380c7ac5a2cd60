/**
 * Voice latency benchmark (`npm run bench:voice`): simulated calls through the test harness (real
 * Temporal dev server and FerretDB, the API and the worker in this process, the loopback LLM answering
 * after a fixed model time, `delayMs`), one after the other, each caller line answered at once. Prints,
 * from the answers' `latency` records (src/shared/latency.ts) and the loopback LLM's clock:
 *
 *   - orchestration per answer (ms, p50/p99) and its share of the answer's first audio (p50/p99);
 *     goal: orchestration ≤ 15 ms p50 and ≤ 60 ms p99
 *   - first audio minus the model's time (p50/p99): what the caller waits beyond the model
 *   - the outside view: from the model's answer to the same call's next model request (the loopback
 *     LLM's clock, bench/stats.ts `turnGaps`), p50/p99, the same goal
 *   - CPU per call of this process (`process.cpuUsage`: API, worker, the fake LLM and the benchmark's
 *     client; the Temporal dev server and FerretDB are other processes, shown apart from /proc)
 *   - the machine's load average before and after (the figures are inflated by other work on a shared machine)
 *
 * `--engine realtime`: the same through the realtime engine: the loopback fake of OpenAI's Realtime API
 * (test/support/fake-openai-realtime.ts, its simulated SIP leg and signed webhook) as the operator's
 * project, an agent with `engine: "realtime"`, the fake model's first audio `BENCH_VOICE_MODEL_MS` after
 * `response.created`, the caller's VAD silence 0 (so first audio minus model is what is neither the model
 * nor the turn detection); the third line of each call asks for an http tool (a loopback HTTPS server),
 * so the outbox round trip is measured: orchestration is also given over the answers after a tool (with
 * the tool's own time on them, `tool_ms`, which the outside view includes), and
 * the outside view is the fake's (a function call's `response.done` → our `response.create`).
 *
 * Knobs: `--engine pipeline` (default) or `realtime` (`ENGINES` below),
 * BENCH_VOICE_CALLS (50), BENCH_VOICE_TURNS (caller lines per call, 5), BENCH_VOICE_MODEL_MS (the fake
 * model's time per answer, 200), BENCH_VOICE_CONCURRENCY (calls at once, 1), BENCH_VOICE_CPU_PROFILE (a
 * file: this process's main thread profiled during the measured calls, `.cpuprofile`),
 * BENCH_VOICE_JSON (a file the figures are written to), BENCH_VOICE_WORKER_PROCESS (`1`: the calls run on a
 * worker in a process of its own, as `npm run start:worker` runs it beside `start:api`, instead of the
 * harness's worker in this process, whose main thread also serves the API, the fakes and this client; its
 * CPU is then shown apart, as `worker`, and the store commands counted are this process's only).
 *
 *   npm run bench:voice -- --engine pipeline
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { callWorkflowId } from '../src/shared/calls';
import { config, setConfig } from '../src/config';
import { setOrgCallLimit } from '../src/services/limits';
import { startFakeRealtime } from '../test/support/fake-openai-realtime';
import { startHttpsReceiver } from '../test/support/https-receiver';
import { createHttpTool } from '../test/support/tools';
import { defaultPayloadConverter } from '@temporalio/common';
import { configuredCodec } from '../src/platform/payload-codec';
import { toolTasks } from './voice-tasks';
import {
  h,
  loopbackHttpsEnv,
  newTenant,
  request,
  startHarness,
  startWorkerProcess,
  stopHarness,
  stopWorkerProcess,
} from '../test/support/harness';
import { countCommands, startCpuProfile } from './profiling';
import { cpuMs, percentile, turnGaps } from './stats';

const num = (name: string, fallback: number, max = 100_000) =>
  Math.min(max, Math.max(0, Number(process.env[name] ?? fallback)));

type Tenant = Awaited<ReturnType<typeof newTenant>>;
interface Latency {
  end_of_speech_ms: number | null;
  model_first_token_ms: number;
  tool_ms: number;
  orchestration_ms: number;
  first_audio_ms: number;
}

/**
 * How each engine's calls are placed: the body of `POST /v1/calls` for a simulated call of `turns` lines.
 * A realtime engine adds its own entry (its agent's `engine: "realtime"`, the fake Realtime API started).
 */
const ENGINES: Record<string, (t: Tenant, turns: number, modelMs: number) => Promise<Placed>> = {
  pipeline: async (t, turns) => ({
    body: {
      to: '+14155550123',
      agent_id: t.agentId,
      simulation: { caller: Array.from({ length: turns }, (_, i) => `line ${i + 1}`) },
    },
    outsideGaps: (ids) => turnGaps(h().llm.requests, ids),
  }),
  realtime: async (t, turns, modelMs) => {
    const fake = await startFakeRealtime();
    fake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
    fake.timing = { speechMs: 20, silenceMs: 0, transcribeMs: Math.min(20, modelMs), modelMs };
    setConfig({
      ...config(),
      openaiRealtime: {
        projectId: 'proj_bench',
        webhookSecret: fake.webhookSecret,
        baseUrl: fake.baseUrl,
        apiKey: 'sk-realtime-bench',
        model: 'gpt-realtime',
        sipHost: 'sip.api.openai.com',
        simulatorUrl: fake.simulatorUrl,
      },
    });
    const receiver = await startHttpsReceiver();
    receiver.route('/bench-orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/bench-orders');
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: {
        name: 'Realtime bench',
        instructions: 'You confirm appointments.',
        engine: 'realtime',
        tool_ids: [tool.id],
      },
    });
    if (agent.status !== 200)
      throw new Error(`POST /v1/agents answered ${agent.status}: ${JSON.stringify(agent.body)}`);
    const lines = Array.from({ length: turns }, (_, i) =>
      i === 2 ? 'TOOL lookup_order {"order_id":"A17"}' : `line ${i + 1}`,
    );
    return {
      body: { to: '+14155550123', agent_id: agent.body.id, simulation: { caller: lines } },
      outsideGaps: (ids) => ids.flatMap((id) => fake.callFor(id)?.toolRoundTrips ?? []),
      workerEnv: {
        OPENAI_REALTIME_PROJECT_ID: 'proj_bench',
        OPENAI_WEBHOOK_SECRET: fake.webhookSecret,
        OPENAI_REALTIME_BASE_URL: fake.baseUrl,
        OPENAI_REALTIME_API_KEY: 'sk-realtime-bench',
        OPENAI_REALTIME_SIMULATOR_URL: fake.simulatorUrl,
      },
      close: async () => {
        await fake.close();
        await receiver.close();
      },
    };
  },
};

/**
 * A benchmark's calls: the body of `POST /v1/calls`, the outside view of its calls' turns, what a worker
 * process needs besides the harness's environment (`BENCH_VOICE_WORKER_PROCESS`), what to close.
 */
interface Placed {
  body: Record<string, unknown>;
  outsideGaps: (ids: string[]) => number[];
  workerEnv?: Record<string, string>;
  close?: () => Promise<void>;
}

/**
 * `BENCH_VOICE_WORKER_PROCESS=1`: a worker process of its own polling a queue of its own
 * (test/support/harness.ts `startWorkerProcess`), the calls started from now on sent there (the API
 * starts a call's workflow on the configured queue); the harness's worker stays idle on its queue.
 */
async function ownWorker(placed: Placed): Promise<ChildProcess | undefined> {
  if (process.env.BENCH_VOICE_WORKER_PROCESS !== '1') return undefined;
  const queue = `svc-bench-voice-${Math.random().toString(36).slice(2, 10)}`;
  setConfig({ ...config(), taskQueue: queue });
  return await startWorkerProcess(queue, { ...loopbackHttpsEnv(), ...placed.workerEnv });
}

const figure = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { p50: r(percentile(s, 50)), p99: r(percentile(s, 99)), n: s.length };
};

/** CPU (ms) of the harness's other processes (Temporal, FerretDB): this process's children. */
function childrenCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const role = /ferret/i.test(cmd)
        ? 'ferretdb'
        : /temporal/i.test(cmd)
          ? 'temporal'
          : /worker-process/.test(cmd)
            ? 'worker'
            : 'other';
      out[role] = (out[role] ?? 0) + cpuMs(Number(entry));
    } catch {
      // exited
    }
  }
  return out;
}

/** Places one call and waits for its end (its workflow's result: no polling of the store); returns its id. */
async function oneCall(t: Tenant, body: Record<string, unknown>): Promise<string> {
  const res = await request('POST', '/v1/calls', { key: t.testKey, body });
  if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.id as string;
  await h().env.client.workflow.getHandle(callWorkflowId(id)).result();
  return id;
}

/** The answers' latency records of call `id` (its transcript's turns that carry one). */
async function latencies(t: Tenant, id: string): Promise<Latency[]> {
  const res = await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey });
  if (res.status !== 200) throw new Error(`transcript of ${id}: ${res.status}`);
  return (res.body.turns as { latency?: Latency }[]).flatMap((x) => (x.latency ? [x.latency] : []));
}

function engineArg(): string {
  const i = process.argv.indexOf('--engine');
  return i >= 0 ? (process.argv[i + 1] ?? '') : 'pipeline';
}

async function main(): Promise<void> {
  const engine = engineArg();
  const place = ENGINES[engine];
  if (!place) {
    console.error(`bench:voice: no engine "${engine}" here (engines: ${Object.keys(ENGINES).join(', ')})`);
    process.exit(2);
  }
  const calls = num('BENCH_VOICE_CALLS', 50, 5000);
  const turns = num('BENCH_VOICE_TURNS', 5, 100);
  const modelMs = num('BENCH_VOICE_MODEL_MS', 200, 60_000);
  const concurrency = Math.max(1, num('BENCH_VOICE_CONCURRENCY', 1, 100));
  const loadBefore = os.loadavg();
  await startHarness();
  let worker: ChildProcess | undefined;
  try {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 1000);
    h().llm.delayMs = modelMs;
    const placed = await place(t, turns, modelMs);
    const { body } = placed;
    worker = await ownWorker(placed);
    for (let i = 0; i < 3; i++) await oneCall(t, body); // warm-up

    const ids: string[] = [];
    const profile = process.env.BENCH_VOICE_CPU_PROFILE ? await startCpuProfile() : undefined;
    const commands = countCommands();
    const cpu0 = process.cpuUsage();
    const children0 = childrenCpuMs();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < calls) {
          next++;
          ids.push(await oneCall(t, body));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const children1 = childrenCpuMs();
    const perCommand = commands.stop();
    if (profile) await profile.stopTo(process.env.BENCH_VOICE_CPU_PROFILE!);

    const records = (await Promise.all(ids.map((id) => latencies(t, id)))).flat();
    const gaps = placed.outsideGaps(ids);
    // The answers whose way to the first audio went through a tool (the realtime engine's outbox round trip).
    const afterTool = records.filter((r) => r.tool_ms > 0);
    const perCall = (ms: number) => Math.round((ms / calls) * 10) / 10;
    // Realtime: the workflow task of each function call, split (bench/voice-tasks.ts), from the histories.
    const tasks =
      engine === 'realtime'
        ? (
            await Promise.all(
              ids.map(async (id) =>
                toolTasks(
                  (await h().env.client.workflow.getHandle(callWorkflowId(id)).fetchHistory()).events ?? [],
                  async (payload) =>
                    defaultPayloadConverter.fromPayload((await configuredCodec().decode([payload]))[0]!),
                ),
              ),
            )
          ).flat()
        : [];
    const result = {
      engine,
      command: `${worker ? 'BENCH_VOICE_WORKER_PROCESS=1 ' : ''}BENCH_VOICE_CALLS=${calls} BENCH_VOICE_TURNS=${turns} BENCH_VOICE_MODEL_MS=${modelMs} BENCH_VOICE_CONCURRENCY=${concurrency} npm run bench:voice -- --engine ${engine}`,
      calls,
      turns_per_call: turns,
      model_ms: modelMs,
      concurrency,
      answers: records.length,
      orchestration_ms: figure(records.map((r) => r.orchestration_ms)),
      orchestration_after_tool_ms: figure(afterTool.map((r) => r.orchestration_ms)),
      tool_ms: figure(afterTool.map((r) => r.tool_ms)),
      orchestration_share_pct: figure(records.map((r) => (100 * r.orchestration_ms) / Math.max(1, r.first_audio_ms))),
      first_audio_minus_model_ms: figure(records.map((r) => r.first_audio_ms - r.model_first_token_ms)),
      first_audio_ms: figure(records.map((r) => r.first_audio_ms)),
      model_first_token_ms: figure(records.map((r) => r.model_first_token_ms)),
      outside_gap_ms: figure(gaps),
      ...(tasks.length
        ? {
            tool_task_ms: Object.fromEntries(
              (['wait_ms', 'before_tool_ms', 'tool_ms', 'after_tool_ms'] as const).map((k) => [
                k,
                figure(tasks.map((x) => x[k])),
              ]),
            ),
          }
        : {}),
      worker: worker ? 'own process' : 'in the API process',
      cpu_ms_per_call: {
        [worker ? 'api' : 'api_and_worker']: perCall((cpu.user + cpu.system) / 1000),
        ...Object.fromEntries(
          Object.entries(children1).map(([role, ms]) => [role, perCall(ms - (children0[role] ?? 0))]),
        ),
      },
      // The benchmark's own requests (`POST /v1/calls`) count here too.
      store_commands_per_answer: Object.fromEntries(
        Object.entries(perCommand)
          .sort(([, a], [, b]) => b - a)
          .map(([k, n]) => [k, Math.round((n / Math.max(1, records.length)) * 100) / 100]),
      ),
      wall_seconds: Math.round(seconds * 10) / 10,
      machine: {
        cpus: os.cpus().length,
        loadavg_before: loadBefore.map((x) => Math.round(x * 100) / 100),
        loadavg_after: os.loadavg().map((x) => Math.round(x * 100) / 100),
      },
      goal: { orchestration_p50_ms: 15, orchestration_p99_ms: 60 },
    };
    const ok = (f: { p50: number; p99: number }) => (f.p50 <= 15 && f.p99 <= 60 ? 'meets' : 'misses');
    console.log(JSON.stringify(result, null, 2));
    console.log(
      `\norchestration per answer: p50 ${result.orchestration_ms.p50} ms, p99 ${result.orchestration_ms.p99} ms (${ok(result.orchestration_ms)} the goal of 15/60); ` +
        `share of first audio p50 ${result.orchestration_share_pct.p50}%, p99 ${result.orchestration_share_pct.p99}%\n` +
        `orchestration on answers after a tool (${result.orchestration_after_tool_ms.n}): p50 ${result.orchestration_after_tool_ms.p50} ms, p99 ${result.orchestration_after_tool_ms.p99} ms\n` +
        `the tool's own time on those answers: p50 ${result.tool_ms.p50} ms, p99 ${result.tool_ms.p99} ms\n` +
        `first audio minus model: p50 ${result.first_audio_minus_model_ms.p50} ms, p99 ${result.first_audio_minus_model_ms.p99} ms\n` +
        `outside view (${engine === 'realtime' ? "function call's response.done → our response.create, the fake's clock" : 'model answer → next model request'}): p50 ${result.outside_gap_ms.p50} ms, p99 ${result.outside_gap_ms.p99} ms (${ok(result.outside_gap_ms)} the goal)\n` +
        (result.tool_task_ms
          ? `the function calls' workflow task (p50/p99 ms): ${Object.entries(result.tool_task_ms)
              .map(([k, f]) => `${k.replace(/_ms$/, '')} ${f.p50}/${f.p99}`)
              .join(', ')}\n`
          : '') +
        `CPU per call: ${JSON.stringify(result.cpu_ms_per_call)} ms; load average ${result.machine.loadavg_before.join('/')} → ${result.machine.loadavg_after.join('/')} on ${result.machine.cpus} CPUs\n` +
        `reproduce: ${result.command}`,
    );
    if (process.env.BENCH_VOICE_JSON) fs.writeFileSync(process.env.BENCH_VOICE_JSON, JSON.stringify(result, null, 2));
    await placed.close?.();
  } finally {
    await stopWorkerProcess(worker, 'SIGTERM');
    await stopHarness();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
