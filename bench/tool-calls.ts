/**
 * Tool-call overhead benchmark (issue 27, "Proof": goal p50 ≤ 15 ms each way on the embedded stack; not
 * a timed test). Starts the test harness (real Temporal dev server and FerretDB, the API, the loopback
 * LLM) with the calls' worker in its own process, as deployed (API and worker apart), and a loopback
 * HTTPS tool server (test/support/https-receiver.ts); creates one http tool (`POST /v1/tools`) and gives
 * it to the agent (`tool_ids`). Then places simulated test calls one at a time whose scripted caller says
 * `TOOLONCE lookup_order {…}` lines (the fake LLM calls the tool, then answers once it has the result), so
 * each line is one `runTool` activity between two local LLM activities, and prints per tool call:
 *
 *   - model asks → request leaves: the LLM's answer asking for the tool sent in full (the fake LLM's
 *     `answeredMs`) → the tool request's body at the tool server (the receiver's `receivedMs`)
 *   - response arrives → next model request: the tool server about to answer (`answeredMs`, stamped in the
 *     route just before the answer is written) → the same call's next LLM request (`atMs`)
 *
 * p50 / p90 / p99 / max in ms, first on an empty store and again on a store filled with other tenants'
 * rows in the same collections (BENCH_FILL_CALLS calls with BENCH_FILL_TURNS transcript turns each, and
 * BENCH_FILL_TOOLS tools). Where the time goes comes from the calls' Temporal histories (server event
 * times; one machine, one clock): the way out is split at the workflow task that schedules the activity
 * completing and the activity's start, the way back at the activity's completion and the next workflow
 * task's start.
 *
 * Knobs: BENCH_TOOL_CALLS (N, default 200), BENCH_TOOLS_PER_CALL (tool lines per simulated call, default
 * 10), BENCH_FILL_CALLS (default 3000), BENCH_FILL_TURNS (default 4), BENCH_FILL_TOOLS (default 2000),
 * BENCH_WARMUP_CALLS (calls before the figures, default 1), BENCH_TIMEOUT_MS (per call, default 120000). Loopback only; on a machine shared with other work the
 * figures are inflated by it.
 *
 *   npm run bench:tools
 *   BENCH_TOOL_CALLS=400 BENCH_FILL_CALLS=10000 node dist/bench/tool-calls.js
 *
 * Measured on the project's 2-core machine, load average about 1 (2026-11-24, `npm run bench:tools`: 200
 * tool calls per store; filled: 3,021 calls, 12,840 transcript turns, 2,001 tools), with eager activity
 * dispatch on (`system.enableActivityEagerExecution`, as the embedded server and docker-compose run) and
 * the tool's connection kept alive, ms:
 *
 *   model asks → request leaves           empty p50 10 / p90 15 / p99 23 / max 29; filled p50 13 / p90 21 / p99 32 / max 84
 *   response arrives → next model request  empty p50 31 / p90 39 / p99 48 / max 60; filled p50 12 / p90 18 / p99 31 / max 55
 *
 * Out: LLM answer → the workflow task scheduling `runTool` completed p50 6–9 (the local activity's usage
 * write, its result through Core into the workflow, the task's completion); → activity started 0.1 (eager
 * dispatch: it comes back with the completion); → request at the tool server 3–4 (tool read 0.7, argument
 * check 0.0, kept-alive connection 0.2 against 1.5 for a new TLS handshake). Back: answer → activity
 * completed 2; → next workflow task started (always on the sticky queue) either ~1.5–2.5 ms or ~19–21 ms,
 * a phase-long mode of the dev server's dispatch, not the store (a run without filling showed the fast mode
 * first and the slow one second); → the next LLM request 8–10 (activation, local activity,
 * `assistantContext` reads 0.9). The goal (p50 ≤ 15 ms each way) holds in the fast mode and the way back
 * misses it by the server's wait in the slow one. Before eager dispatch and kept-alive connections (load
 * 3.5–4.5): out p50 33 / 28, back 52 / 20 (empty / filled). README "Benchmarks" has the table.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import { config, setConfig } from '../src/config';
import { Call, CallTurn } from '../src/models/calls';
import { findLiveTool, Tool } from '../src/models/tools';
import { httpsRequest } from '../src/providers/webhook-http';
import { assistantContext } from '../src/services/assistant-context';
import { checkToolArguments } from '../src/services/tool-calls';
import { recordUsage } from '../src/services/usage';
import { newId } from '../src/shared/ids';
import type { CustomTool } from '../src/shared/tools';
import {
  h,
  newTenant,
  request,
  startHarness,
  startWorkerProcess,
  stopWorkerProcess,
  stopHarness,
  waitForCall,
} from '../test/support/harness';
import { startHttpsReceiver, testCertificate, type HttpsReceiver } from '../test/support/https-receiver';
import { percentile } from './stats';
import { setOrgCallLimit } from '../src/services/limits';

const num = (name: string, fallback: number, max = 100_000) =>
  Math.min(max, Math.max(1, Number(process.env[name] ?? fallback)));

const r1 = (x: number) => Math.round(x * 10) / 10;

/** p50, p90, p99 and max of `values` (ms), and how many. */
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return {
    p50: r1(percentile(s, 50)),
    p90: r1(percentile(s, 90)),
    p99: r1(percentile(s, 99)),
    max: r1(s[s.length - 1] ?? NaN),
    n: s.length,
  };
};

const LOOKUP = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^[A-Z][0-9]+$' } },
  required: ['order_id'],
  additionalProperties: false,
};

/** One tool call's times, ms since the epoch (the history's from the Temporal server's clock, the same machine). */
interface ToolCallTimes {
  llmAnswered: number;
  wftCompleted: number;
  activityStarted: number;
  received: number;
  serverAnswered: number;
  activityCompleted: number;
  nextWftScheduled: number;
  nextWftStarted: number;
  /** The next workflow task went to the worker's sticky queue (its cached run), not the task queue. */
  nextWftSticky: boolean;
  nextLlmAt: number;
}

/** ms since the epoch of a protobuf timestamp. */
const tsMs = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  ts ? Number(ts.seconds ?? 0) * 1000 + (ts.nanos ?? 0) / 1e6 : NaN;

/**
 * The times of call `callId`'s tool calls: its LLM requests, the tool server's requests of it and its
 * history's `runTool` activities, paired in order (one tool call per caller line, no retries expected).
 */
async function callTimes(callId: string, receiver: HttpsReceiver): Promise<ToolCallTimes[]> {
  const llm = h()
    .llm.requests.filter((r) => r.user === callId && r.atMs !== undefined && r.answeredMs !== undefined)
    .sort((a, b) => a.atMs! - b.atMs!);
  const got = receiver
    .at('/orders')
    .filter((r) => r.body?.call_id === callId)
    .sort((a, b) => a.receivedMs - b.receivedMs);
  const events = (await h().env.client.workflow.getHandle(callId).fetchHistory()).events ?? [];
  const at = new Map(events.map((e) => [Number(e.eventId), e]));
  const activities: {
    wftCompleted: number;
    started: number;
    completed: number;
    nextWftScheduled: number;
    nextWftStarted: number;
    nextWftSticky: boolean;
  }[] = [];
  for (const e of events) {
    const done = e.activityTaskCompletedEventAttributes;
    if (!done) continue;
    const scheduled = at.get(Number(done.scheduledEventId));
    if (scheduled?.activityTaskScheduledEventAttributes?.activityType?.name !== 'runTool') continue;
    const wftDone = at.get(Number(scheduled.activityTaskScheduledEventAttributes.workflowTaskCompletedEventId));
    const started = at.get(Number(done.startedEventId));
    const later = events.filter((x) => Number(x.eventId) > Number(e.eventId));
    const nextScheduled = later.find((x) => x.workflowTaskScheduledEventAttributes);
    const next = later.find((x) => x.workflowTaskStartedEventAttributes);
    activities.push({
      wftCompleted: tsMs(wftDone?.eventTime),
      started: tsMs(started?.eventTime),
      completed: tsMs(e.eventTime),
      nextWftScheduled: tsMs(nextScheduled?.eventTime),
      nextWftStarted: tsMs(next?.eventTime),
      // TaskQueueKind 2: TASK_QUEUE_KIND_STICKY
      nextWftSticky: Number(nextScheduled?.workflowTaskScheduledEventAttributes?.taskQueue?.kind) === 2,
    });
  }
  if (got.length !== activities.length)
    throw new Error(`call ${callId}: ${got.length} tool requests but ${activities.length} runTool activities`);
  return got.map((req, i) => {
    const asked = llm.filter((x) => x.answeredMs! <= req.receivedMs).at(-1);
    const next = llm.find((x) => x.atMs! >= req.answeredMs!);
    if (!asked || !next) throw new Error(`call ${callId}: tool request ${i} has no LLM request around it`);
    return {
      llmAnswered: asked.answeredMs!,
      wftCompleted: activities[i].wftCompleted,
      activityStarted: activities[i].started,
      received: req.receivedMs,
      serverAnswered: req.answeredMs!,
      activityCompleted: activities[i].completed,
      nextWftScheduled: activities[i].nextWftScheduled,
      nextWftStarted: activities[i].nextWftStarted,
      nextWftSticky: activities[i].nextWftSticky,
      nextLlmAt: next.atMs!,
    };
  });
}

/**
 * Fills the store with other tenants' rows in the collections a tool call reads or writes: `calls`
 * calls with `turns` transcript turns each (tool turns among them), and `tools` http tools.
 */
async function fillStore(calls: number, turns: number, tools: number): Promise<void> {
  const orgs = Array.from({ length: 50 }, () => newId('org'));
  const now = Date.now();
  const batch = async (rows: Record<string, unknown>[], insert: (rows: any[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
  };
  const toolRows = Array.from({ length: tools }, (_, i) => {
    const id = newId('tool');
    return {
      _id: id,
      org_id: orgs[i % orgs.length],
      livemode: i % 2 === 0,
      type: 'http',
      name: `other_tool_${i}`,
      name_key: `other_tool_${i}`,
      description: 'Another organization’s tool.',
      parameters_json: JSON.stringify(LOOKUP),
      url: `https://tools.example.com/t/${i}`,
      method: 'POST',
      timeout_ms: 5000,
      header_names: [],
      metadata_json: '{}',
      created: Math.floor(now / 1000),
      version: 1,
    };
  });
  await batch(toolRows, (rows) => Tool.insertMany(rows, { ordered: false }));
  const callRows: Record<string, unknown>[] = [];
  const turnRows: Record<string, unknown>[] = [];
  for (let i = 0; i < calls; i++) {
    const id = newId('call');
    callRows.push({
      _id: id,
      org_id: orgs[i % orgs.length],
      livemode: false,
      agent_id: newId('agent'),
      to: '+14155550123',
      status: 'completed',
      end_reason: 'caller_hung_up',
      simulated: true,
      max_duration_seconds: 600,
      metadata_json: JSON.stringify({ ticket: `T-${i}` }),
      created: Math.floor(now / 1000),
      answered_ms: now,
      ended_ms: now,
    });
    for (let s = 0; s < turns; s++)
      turnRows.push({
        _id: `${id}:${String(s + 1).padStart(6, '0')}`,
        call_id: id,
        seq: s + 1,
        role: s % 4 === 2 ? 'tool' : s % 2 === 0 ? 'caller' : 'assistant',
        text: s % 4 === 2 ? JSON.stringify({ order: `A${i}`, status: 'shipped' }) : `Line ${s + 1} of call ${i}.`,
        ...(s % 4 === 2
          ? { tool_name: 'lookup_order', tool_arguments_json: '{"order_id":"A1"}', tool_ok: true, tool_status: 200 }
          : {}),
        at_ms: now + s,
      });
  }
  await batch(callRows, (rows) => Call.insertMany(rows, { ordered: false }));
  await batch(turnRows, (rows) => CallTurn.insertMany(rows, { ordered: false }));
}

/** Places `calls` simulated calls one after the other, `perCall` tool lines each; answers their ids. */
async function runCalls(key: string, agentId: string, calls: number, perCall: number, timeoutMs: number) {
  const ids: string[] = [];
  for (let c = 0; c < calls; c++) {
    const lines = Array.from({ length: perCall }, (_, i) => `TOOLONCE lookup_order {"order_id":"A${c * 1000 + i}"}`);
    const res = await request('POST', '/v1/calls', {
      key,
      body: { to: '+14155550123', agent_id: agentId, simulation: { caller: lines }, metadata: { bench: 'tools' } },
    });
    if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
    const ended = await waitForCall(key, res.body.id, undefined, timeoutMs);
    if (ended.status !== 'completed') throw new Error(`call ${res.body.id} ended ${ended.status}`);
    ids.push(res.body.id);
  }
  return ids;
}

/**
 * The work of the way out and the way back done again here, `n` times each (ms, this process's clock): the
 * tool's store read and argument check, one HTTPS request on a new connection as `httpsRequest` makes it
 * (`agent: false`: TCP and TLS handshakes each time) and on a kept-alive one for comparison, the LLM
 * activity's usage write after the answer and its context reads before the request.
 */
async function activityParts(
  n: number,
  receiver: HttpsReceiver,
  tenant: { orgId: string; livemode: boolean; agentId: string },
  tool: { id: string; name: string },
) {
  const time = async (f: (i: number) => unknown) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await f(i);
      ms.push(performance.now() - t0);
    }
    return summary(ms);
  };
  const custom: CustomTool = {
    name: tool.name,
    description: 'Looks an order up.',
    parameters: LOOKUP,
    source: { kind: 'http', toolId: tool.id },
    timeoutMs: 5000,
    speakWhileRunning: null,
  };
  const body = JSON.stringify({ tool: tool.name, arguments: { order_id: 'A1' } });
  const options = {
    method: 'POST' as const,
    url: receiver.url('/orders'),
    body,
    headers: { 'Content-Type': 'application/json' },
    allowPrivate: true,
    caFile: testCertificate().certFile,
    timeoutMs: 5000,
  };
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
  const kept = () =>
    new Promise<void>((resolve, reject) => {
      const req = https.request(
        options.url,
        { method: 'POST', agent, ca: testCertificate().cert, headers: options.headers },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end(body);
    });
  const parts = {
    find_live_tool: await time(() => findLiveTool(tenant, tool.id)),
    check_tool_arguments: await time(() => checkToolArguments(custom, '{"order_id":"A17"}')),
    https_new_connection: await time(() => httpsRequest(options)),
    https_kept_alive: await time(kept),
    usage_write: await time(() =>
      recordUsage({
        _id: `llm:bench:${newId('x')}`,
        kind: 'llm_request',
        org_id: tenant.orgId,
        livemode: tenant.livemode,
        subject_id: newId('call'),
        occurred_ms: Date.now(),
        model: 'fake-model',
        prompt_tokens: 100,
        completion_tokens: 10,
      }),
    ),
    assistant_context: await time(() => assistantContext({ ...tenant, query: 'TOOLONCE lookup_order' })),
  };
  agent.destroy();
  return parts;
}

/** The two ways and their parts, from the tool calls' times. */
function figures(times: ToolCallTimes[]) {
  const of = (f: (t: ToolCallTimes) => number) => summary(times.map(f));
  return {
    out: of((t) => t.received - t.llmAnswered),
    back: of((t) => t.nextLlmAt - t.serverAnswered),
    next_task_sticky: times.filter((t) => t.nextWftSticky).length,
    parts: {
      out_llm_answer_to_task_completed: of((t) => t.wftCompleted - t.llmAnswered),
      out_task_completed_to_activity_started: of((t) => t.activityStarted - t.wftCompleted),
      out_activity_started_to_request_received: of((t) => t.received - t.activityStarted),
      back_answer_to_activity_completed: of((t) => t.activityCompleted - t.serverAnswered),
      back_activity_completed_to_task_scheduled: of((t) => t.nextWftScheduled - t.activityCompleted),
      back_task_scheduled_to_task_started: of((t) => t.nextWftStarted - t.nextWftScheduled),
      back_task_started_to_llm_request: of((t) => t.nextLlmAt - t.nextWftStarted),
    },
  };
}

async function main(): Promise<void> {
  const total = num('BENCH_TOOL_CALLS', 200, 10_000);
  const perCall = Math.min(total, num('BENCH_TOOLS_PER_CALL', 10, 200));
  const calls = Math.ceil(total / perCall);
  const fillCalls = num('BENCH_FILL_CALLS', 3000, 100_000);
  const fillTurns = num('BENCH_FILL_TURNS', 4, 50);
  const fillTools = num('BENCH_FILL_TOOLS', 2000, 100_000);
  const warmCalls = num('BENCH_WARMUP_CALLS', 1, 1000);
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 120_000);
  const progress = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);

  await startHarness();
  const receiver = await startHttpsReceiver();
  let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
  const saved = config();
  try {
    // Calls run on a queue only the worker process polls: the API (this process) and the worker apart.
    const queue = `bench-tools-${crypto.randomBytes(4).toString('hex')}`;
    setConfig({ ...saved, taskQueue: queue });
    worker = await startWorkerProcess(queue, {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_CA_FILE: testCertificate().certFile,
    });
    const t = await newTenant();
    // The orchestration is measured, not the organization's line: a limit no run reaches (issue 28).
    await setOrgCallLimit(t.orgId, 'test', 1000);
    const tool = await request('POST', '/v1/tools', {
      key: t.testKey,
      body: {
        type: 'http',
        name: 'lookup_order',
        description: 'Looks an order up.',
        parameters: LOOKUP,
        url: receiver.url('/orders'),
        headers: { Authorization: 'Bearer customer-key' },
      },
    });
    if (tool.status !== 200) throw new Error(`POST /v1/tools answered ${tool.status}: ${JSON.stringify(tool.body)}`);
    const agent = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { tool_ids: [tool.body.id] },
    });
    if (agent.status !== 200) throw new Error(`POST /v1/agents answered ${agent.status}`);
    receiver.route('/orders', (req) => ({
      status: 200,
      body: JSON.stringify({ order: req.body?.arguments?.order_id, status: 'shipped' }),
    }));

    progress(`warm-up: ${warmCalls} call(s) of ${perCall} tool calls`);
    await runCalls(t.testKey, t.agentId, warmCalls, perCall, timeoutMs);

    const measure = async (label: string) => {
      progress(`${label}: ${calls} calls of ${perCall} tool calls, one call at a time`);
      const ids = await runCalls(t.testKey, t.agentId, calls, perCall, timeoutMs);
      const times = (await Promise.all(ids.map((id) => callTimes(id, receiver)))).flat();
      return figures(times);
    };
    const empty = await measure('empty store');
    progress(`filling the store: ${fillCalls} calls × ${fillTurns} turns, ${fillTools} tools of other tenants`);
    await fillStore(fillCalls, fillTurns, fillTools);
    const rows = {
      calls: await Call.estimatedDocumentCount(),
      call_turns: await CallTurn.estimatedDocumentCount(),
      tools: await Tool.estimatedDocumentCount(),
    };
    const filled = await measure('filled store');
    progress('the parts of the work, in this process, on the filled store');
    const inProcess = await activityParts(
      Math.min(total, 200),
      receiver,
      { orgId: t.orgId, livemode: false, agentId: t.agentId },
      { id: tool.body.id, name: 'lookup_order' },
    );

    const f = (s: ReturnType<typeof summary>) => `p50 ${s.p50}, p90 ${s.p90}, p99 ${s.p99}, max ${s.max}`;
    console.log(
      `tool-call overhead: ${total} tool calls per store (${calls} simulated calls of ${perCall}, one at a time); API and worker in separate processes; loopback HTTPS tool server; ${new Date().toISOString()}`,
    );
    console.log(`filled store: ${rows.calls} calls, ${rows.call_turns} transcript turns, ${rows.tools} tools`);
    console.log('| way (ms) | empty store | filled store | goal |');
    console.log('|---|---|---|---|');
    console.log(`| model asks → request leaves | ${f(empty.out)} | ${f(filled.out)} | p50 ≤ 15 ms |`);
    console.log(`| response arrives → next model request | ${f(empty.back)} | ${f(filled.back)} | p50 ≤ 15 ms |`);
    console.log(
      `| … next workflow task on the sticky queue | ${empty.next_task_sticky} of ${empty.out.n} | ${filled.next_task_sticky} of ${filled.out.n} | |`,
    );
    const parts = Object.keys(empty.parts) as (keyof typeof empty.parts)[];
    for (const p of parts)
      console.log(
        `| … ${p.replace(/_/g, ' ')} | p50 ${empty.parts[p].p50}, p99 ${empty.parts[p].p99} | p50 ${filled.parts[p].p50}, p99 ${filled.parts[p].p99} | |`,
      );
    for (const [p, v] of Object.entries(inProcess))
      console.log(`| in this process: ${p.replace(/_/g, ' ')} | | p50 ${v.p50}, p99 ${v.p99} | |`);
    console.log(JSON.stringify({ total, per_call: perCall, rows, empty, filled, in_process: inProcess }));
    console.log(
      `reproduce: npm run build && BENCH_TOOL_CALLS=${total} BENCH_TOOLS_PER_CALL=${perCall} BENCH_FILL_CALLS=${fillCalls} BENCH_FILL_TURNS=${fillTurns} BENCH_FILL_TOOLS=${fillTools} node dist/bench/tool-calls.js`,
    );
  } finally {
    setConfig(saved);
    await stopWorkerProcess(worker, 'SIGTERM');
    await receiver.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
