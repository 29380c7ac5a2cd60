/**
 * Idle call streams benchmark ("call streams cost nothing while idle"; not a timed test). Starts the
 * test harness (real Temporal dev server and FerretDB, one worker, the instant loopback LLM) and an API in
 * its own process (the production entry point, dist/src/api/main.js), creates BENCH_CALLS test calls
 * scheduled an hour ahead (they only wait), then:
 *
 *   1. measures the CPU of the API process and of FerretDB with no stream open (the baseline),
 *   2. opens BENCH_STREAMS call streams (`GET /v1/calls/{id}/stream`, spread over the scheduled calls)
 *      against the API process, lets them sit idle and measures again over the same window: CPU % of one
 *      core, from /proc/<pid>/stat (utime + stime) at the window's ends,
 *   3. with every stream still open, runs BENCH_RUNS simulated test calls one after the other, each
 *      followed by one more stream, and times each transcript line from the moment its stream entry is
 *      in the store (this process looks for the call's entries every 20 ms: what a stream waits for) to
 *      its `turn` event on the stream (p50 / p99 / max; the target is ≤ 500 ms), and from the turn's own
 *      time (`at_ms`, which adds the worker's write).
 *
 * Caps of the API process: API_STREAMS_PER_KEY, _PER_IP and _PER_ORG raised to the stream count (every
 * stream comes from loopback, with one key of one organization).
 *
 * Bounded: BENCH_STREAMS (default 1000, at most 5000), BENCH_CALLS (default 50), BENCH_WINDOW_MS
 * (default 30000), BENCH_RUNS (default 5, four caller lines each). Linux only (/proc). Loopback only.
 *
 *   npm run bench:streams
 *   BENCH_STREAMS=2000 BENCH_WINDOW_MS=60000 node dist/bench/call-streams.js
 */
import { CallStreamEntry } from '../src/models/calls';
import { h, newTenant, request, startHarness, stopHarness } from '../test/support/harness';
import { startApiProcess } from '../test/support/widget';
import { cpuMs, percentile } from './stats';

/** CPU % of one core used by each of `pids` over `ms`. */
async function measureCpu(pids: Record<string, number>, ms: number): Promise<Record<string, number>> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const elapsed = performance.now() - t0;
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuMs(pid) - before[name]) / elapsed) * 1000) / 10]),
  );
}

/** An open stream: `turn` events by id with the time they arrived, and whether it ended. */
interface OpenStream {
  abort: AbortController;
  turns: Map<number, number>;
  ended: boolean;
}

/** Opens `url` with `key` as an event stream and records each `turn` event's id with its arrival time. */
async function openStream(url: string, key: string): Promise<OpenStream> {
  const stream: OpenStream = { abort: new AbortController(), turns: new Map(), ended: false };
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` }, signal: stream.abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const id = Number(lines.find((l) => l.startsWith('id: '))?.slice(4));
          if (event === 'turn') stream.turns.set(id, Date.now());
          if (event === 'end') stream.ended = true;
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  return stream;
}

/** Sends `body` to `POST /v1/calls`, waiting out the key's rate limit as told. */
async function createCall(key: string, body: Record<string, unknown>): Promise<string> {
  for (;;) {
    const res = await request('POST', '/v1/calls', { key, body });
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (res.status !== 200) throw new Error(`call: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  }
}

/**
 * Runs one simulated call with a stream on it; returns, per transcript line, ms from its entry seen in
 * the store to its event on the stream, and from the turn's `at_ms`.
 */
async function timedRun(apiUrl: string, t: { testKey: string; agentId: string }, run: number) {
  const id = await createCall(t.testKey, {
    to: '+14155550123',
    agent_id: t.agentId,
    simulation: { caller: [`Hello ${run}.`, 'I need to move my appointment.', 'Thursday works.', 'Thanks, bye.'] },
  });
  const stream = await openStream(`${apiUrl}/v1/calls/${id}/stream`, t.testKey);
  const seen = new Map<number, { seenMs: number; atMs: number; kind: string }>();
  const deadline = Date.now() + 60_000;
  while (!stream.ended && Date.now() < deadline) {
    for (const e of await CallStreamEntry.find({ call_id: id }, { n: 1, kind: 1, at_ms: 1 }).lean())
      if (!seen.has(e.n)) seen.set(e.n, { seenMs: Date.now(), atMs: e.at_ms, kind: e.kind });
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 1000)); // the last events in
  stream.abort.abort();
  const fromEntry: number[] = [];
  const fromTurn: number[] = [];
  for (const [n, s] of seen) {
    if (s.kind !== 'turn') continue;
    const arrived = stream.turns.get(n);
    if (arrived === undefined) continue; // a tool turn comes as `tool_call`
    fromEntry.push(Math.max(0, arrived - s.seenMs));
    fromTurn.push(arrived - s.atMs);
  }
  return { fromEntry, fromTurn };
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc: Linux only');
  const streamCount = Math.min(5000, Math.max(1, Number(process.env.BENCH_STREAMS ?? 1000)));
  const callCount = Math.min(streamCount, Math.max(1, Number(process.env.BENCH_CALLS ?? 50)));
  const windowMs = Math.max(1000, Number(process.env.BENCH_WINDOW_MS ?? 30_000));
  const runs = Math.min(50, Math.max(1, Number(process.env.BENCH_RUNS ?? 5)));
  await startHarness();
  const caps = String(streamCount + runs);
  const api = await startApiProcess({ API_STREAMS_PER_KEY: caps, API_STREAMS_PER_IP: caps, API_STREAMS_PER_ORG: caps });
  api.proc.stderr!.on('data', (chunk) => process.stderr.write(chunk)); // its errors, if any
  const streams: OpenStream[] = [];
  try {
    const t = await newTenant({ first_message: 'Hi, this is the clinic.' });
    const at = Math.floor(Date.now() / 1000) + 3600;
    const calls: string[] = [];
    for (let i = 0; i < callCount; i++)
      calls.push(await createCall(t.testKey, { to: '+14155550123', agent_id: t.agentId, scheduled_at: at }));
    console.error(`  ${callCount} scheduled calls`);
    const pids = { api: api.proc.pid!, ferretdb: h().ferret.process!.pid! };
    await new Promise((r) => setTimeout(r, 5000)); // the calls' workflows settled on their timers
    const baseline = await measureCpu(pids, windowMs);

    const t0 = performance.now();
    for (let b = 0; b < streamCount; b += 50)
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, streamCount - b) }, (_, i) =>
            openStream(`${api.url}/v1/calls/${calls[(b + i) % callCount]}/stream`, t.testKey),
          ),
        )),
      );
    const openMs = Math.round(performance.now() - t0);
    console.error(`  ${streamCount} streams open in ${openMs} ms`);
    await new Promise((r) => setTimeout(r, 5000)); // the opening's work done
    const idle = await measureCpu(pids, windowMs);

    const fromEntry: number[] = [];
    const fromTurn: number[] = [];
    for (let r = 0; r < runs; r++) {
      const timed = await timedRun(api.url, t, r);
      fromEntry.push(...timed.fromEntry);
      fromTurn.push(...timed.fromTurn);
    }
    const summary = (values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return { p50: Math.round(percentile(s, 50)), p99: Math.round(percentile(s, 99)), max: Math.round(s.at(-1)!) };
    };
    const total = (c: Record<string, number>) => Math.round((c.api + c.ferretdb) * 10) / 10;
    const result = {
      streams: streamCount,
      calls: callCount,
      window_ms: windowMs,
      cpu_percent_of_a_core: {
        no_stream: { ...baseline, total: total(baseline) },
        idle_streams: { ...idle, total: total(idle) },
        added_per_1000_streams: Math.round(((total(idle) - total(baseline)) * 1000 * 10) / streamCount) / 10,
      },
      open_all_ms: openMs,
      lines: fromEntry.length,
      entry_to_stream_ms: summary(fromEntry),
      turn_to_stream_ms: summary(fromTurn),
      node: process.version,
    };
    console.log(
      `call streams: ${streamCount} idle streams on ${callCount} scheduled calls, one API process (its own process), FerretDB, ${windowMs / 1000} s windows`,
    );
    console.log(
      `  CPU % of a core, no stream:        API ${baseline.api}, FerretDB ${baseline.ferretdb} (total ${result.cpu_percent_of_a_core.no_stream.total})`,
    );
    console.log(
      `  CPU % of a core, ${streamCount} idle streams: API ${idle.api}, FerretDB ${idle.ferretdb} (total ${result.cpu_percent_of_a_core.idle_streams.total}; ${result.cpu_percent_of_a_core.added_per_1000_streams} above the baseline per 1,000 streams)`,
    );
    console.log(
      `  transcript line in the store → on its stream (${fromEntry.length} lines, ${runs} calls, every idle stream open): p50 ${result.entry_to_stream_ms.p50} ms, p99 ${result.entry_to_stream_ms.p99} ms, max ${result.entry_to_stream_ms.max} ms (from the turn's time: p50 ${result.turn_to_stream_ms.p50} ms, p99 ${result.turn_to_stream_ms.p99} ms)`,
    );
    console.log(JSON.stringify(result));
    console.log(
      `reproduce: npm run build && BENCH_STREAMS=${streamCount} BENCH_CALLS=${callCount} BENCH_WINDOW_MS=${windowMs} BENCH_RUNS=${runs} node dist/bench/call-streams.js`,
    );
  } finally {
    for (const s of streams) s.abort.abort();
    await api.stop();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
