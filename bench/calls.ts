/**
 * Call orchestration benchmark (not a timed test; DESIGN.md section 7: "measure, do not assume, how many
 * starts and turns per second" the embedded servers take). Starts the test harness (real Temporal dev
 * server and FerretDB, one worker, the API, the instant loopback LLM), places BENCH_CALLS simulated calls
 * through `POST /v1/calls` with BENCH_CONCURRENCY requests in flight, each with BENCH_TURNS caller lines
 * (the assistant answers each; the caller then hangs up), and prints:
 *
 *   - `POST /v1/calls` latency p50/p99 (authentication, idempotency-free path, workflow start, insert)
 *   - calls completed per second, and creation → `completed` latency p50/p99
 *   - turn latency p50/p99: caller line → assistant answer, in workflow time (workflow task, LLM activity
 *     scheduled, run against the instant LLM, completed, next workflow task, transcript write): the
 *     orchestration overhead a real model's latency adds to
 *
 * Bounded: BENCH_CALLS (default 100, at most 2000), BENCH_TIMEOUT_MS (default 300000). Loopback only.
 *
 *   npm run bench:calls
 *   BENCH_CALLS=200 BENCH_CONCURRENCY=10 BENCH_TURNS=3 node dist/bench/calls.js
 */
import { Call, CallTurn } from '../src/models/calls';
import { newTenant, request, startHarness, stopHarness } from '../test/support/harness';
import { percentile } from './stats';

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return {
    p50: Math.round(percentile(s, 50)),
    p99: Math.round(percentile(s, 99)),
    max: Math.round(s[s.length - 1] ?? NaN),
  };
};

async function main(): Promise<void> {
  const total = Math.min(2000, Math.max(1, Number(process.env.BENCH_CALLS ?? 100)));
  const concurrency = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 4));
  const turns = Math.min(20, Math.max(1, Number(process.env.BENCH_TURNS ?? 3)));
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);
  await startHarness();
  try {
    const t = await newTenant();
    const body = {
      to: '+14155550123',
      agent_id: t.agentId,
      simulation: { caller: Array.from({ length: turns }, (_, i) => `line ${i + 1}`) },
    };
    // Warm-up: one call end to end.
    const warm = await request('POST', '/v1/calls', { key: t.testKey, body });
    await waitUntilEnded([warm.body.id], timeoutMs);

    const postMs: number[] = [];
    const ids: string[] = [];
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next++;
          const t0 = performance.now();
          const res = await request('POST', '/v1/calls', { key: t.testKey, body });
          postMs.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
          ids.push(res.body.id);
        }
      }),
    );
    const placedS = (Date.now() - started) / 1000;
    await waitUntilEnded(ids, timeoutMs - (Date.now() - started));
    const docs = await Call.find({ _id: { $in: ids } }).lean();
    const lastEnd = Math.max(...docs.map((d) => d.ended_ms ?? 0));
    const totalS = (lastEnd - started) / 1000;
    const e2e = docs.map((d) => (d.ended_ms ?? 0) - d.created * 1000);
    const turnMs: number[] = [];
    const rows = await CallTurn.find({ call_id: { $in: ids } }).lean();
    const byCall = new Map<string, typeof rows>();
    for (const r of rows) byCall.set(r.call_id, [...(byCall.get(r.call_id) ?? []), r]);
    for (const list of byCall.values()) {
      list.sort((a, b) => a.seq - b.seq);
      for (let i = 0; i + 1 < list.length; i++)
        if (list[i].role === 'caller' && list[i + 1].role === 'assistant')
          turnMs.push(list[i + 1].at_ms - list[i].at_ms);
    }
    const result = {
      calls: total,
      concurrency,
      turns_per_call: turns,
      statuses: Object.fromEntries(
        [...new Set(docs.map((d) => d.status))].map((s) => [s, docs.filter((d) => d.status === s).length]),
      ),
      post_ms: summary(postMs),
      placed_per_second: Math.round((total / placedS) * 10) / 10,
      completed_per_second: Math.round((total / totalS) * 10) / 10,
      creation_to_end_ms: summary(e2e),
      turn_ms: summary(turnMs),
      turns_measured: turnMs.length,
      node: process.version,
    };
    console.log(
      `calls: ${total} simulated calls, ${turns} caller lines each, ${concurrency} POSTs in flight, instant loopback LLM`,
    );
    console.log(
      `  POST /v1/calls: p50 ${result.post_ms.p50} ms, p99 ${result.post_ms.p99} ms  (${result.placed_per_second} calls placed/s)`,
    );
    console.log(
      `  completed/s: ${result.completed_per_second}  (${total} in ${totalS.toFixed(1)} s); statuses ${JSON.stringify(result.statuses)}`,
    );
    console.log(`  creation → ended: p50 ${result.creation_to_end_ms.p50} ms, p99 ${result.creation_to_end_ms.p99} ms`);
    console.log(
      `  turn (caller line → assistant answer): p50 ${result.turn_ms.p50} ms, p99 ${result.turn_ms.p99} ms over ${turnMs.length} turns`,
    );
    console.log(JSON.stringify(result));
    console.log(
      `reproduce: npm run build && BENCH_CALLS=${total} BENCH_CONCURRENCY=${concurrency} BENCH_TURNS=${turns} node dist/bench/calls.js`,
    );
  } finally {
    await stopHarness();
  }
}

async function waitUntilEnded(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const terminal = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];
  for (;;) {
    const open = await Call.countDocuments({ _id: { $in: ids }, status: { $nin: terminal } });
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`${open} calls still open after the time limit`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
