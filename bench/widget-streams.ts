/**
 * Idle widget streams benchmark (issue 33, "widget streams cost nothing while idle"; not a timed test).
 * Starts the test harness (real Temporal dev server and FerretDB, one worker, the instant loopback LLM)
 * and an API in its own process (the production entry point, dist/src/api/main.js), opens BENCH_SESSIONS
 * widget sessions (one conversation each), then:
 *
 *   1. measures the CPU of the API process and of FerretDB with no stream open (the baseline),
 *   2. opens one stream per session against the API process and lets them sit idle, and measures again
 *      over the same window: CPU % of one core, from /proc/<pid>/stat (utime + stime) at the window's ends,
 *   3. sends BENCH_MESSAGES visitor messages (`POST /v1/widget/messages`, each to another session) while
 *      every stream stays open, and times each from the moment the worker wrote the message's log entry
 *      (its `created_ms`; what a stream waits for) to the message's event on its stream (p50 / p99 / max;
 *      the issue asks ≤ 500 ms), and from the POST sent (which adds the conversation's workflow).
 *
 * Caps of the API process: WIDGET_STREAMS_PER_IP and WIDGET_STREAMS_PER_ORG raised to the stream count
 * (every stream comes from loopback, for one organization); the per-session cap stays at its default.
 *
 * Bounded: BENCH_SESSIONS (default 1000, at most 5000), BENCH_WINDOW_MS (default 30000), BENCH_MESSAGES
 * (default 20). Linux only (/proc). Loopback only.
 *
 *   npm run bench:widget-streams
 *   BENCH_SESSIONS=2000 BENCH_WINDOW_MS=60000 node dist/bench/widget-streams.js
 */
import fs from 'node:fs';
import { createKey } from '../src/keys';
import { ConversationLogEntry } from '../src/models/conversations';
import { conversationLogId } from '../src/shared/conversations';
import { h, newTenant, request, startHarness, stopHarness } from '../test/support/harness';
import { startApiProcess } from '../test/support/widget';
import { percentile } from './stats';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const CLK_TCK = 100;

/** CPU seconds (user + system) `pid` has used so far (/proc/<pid>/stat fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), so field 3 (state) is index 0.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CPU % of one core used by each of `pids` over `ms`. */
async function measureCpu(pids: Record<string, number>, ms: number): Promise<Record<string, number>> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const seconds = (performance.now() - t0) / 1000;
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [
      name,
      Math.round(((cpuSeconds(pid) - before[name]) / seconds) * 1000) / 10,
    ]),
  );
}

/** When an event arrived (`Date.now()`, to compare with the log entry's `created_ms`) and its `id:`. */
interface Arrival {
  atMs: number;
  seq: number;
}

/** An open stream: the messages its events carried (by message id), and a waiter for one of them. */
interface OpenStream {
  abort: AbortController;
  seen: Map<string, Arrival>;
  waiting: Map<string, (arrival: Arrival) => void>;
}

/** Opens `url` as an event stream and records each event's message id with the time it arrived. */
async function openStream(url: string): Promise<OpenStream> {
  const stream: OpenStream = { abort: new AbortController(), seen: new Map(), waiting: new Map() };
  const res = await fetch(url, { signal: stream.abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const data = lines.find((l) => l.startsWith('data: '));
          if (!data) continue;
          const id = (JSON.parse(data.slice(6)) as { id: string }).id;
          const arrival = { atMs: Date.now(), seq: Number(lines.find((l) => l.startsWith('id: '))?.slice(4)) };
          stream.seen.set(id, arrival);
          stream.waiting.get(id)?.(arrival);
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  return stream;
}

/** Runs `fn` over `items`, at most `width` at a time. */
async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc: Linux only');
  const sessions = Math.min(5000, Math.max(1, Number(process.env.BENCH_SESSIONS ?? 1000)));
  const windowMs = Math.max(1000, Number(process.env.BENCH_WINDOW_MS ?? 30_000));
  const messages = Math.min(sessions, Math.max(1, Number(process.env.BENCH_MESSAGES ?? 20)));
  await startHarness();
  const api = await startApiProcess({
    WIDGET_STREAMS_PER_IP: String(sessions),
    WIDGET_STREAMS_PER_ORG: String(sessions),
  });
  api.proc.stderr!.on('data', (chunk) => process.stderr.write(chunk)); // its errors, if any
  const streams: OpenStream[] = [];
  try {
    const t = await newTenant();
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const opened = await pool(
      Array.from({ length: sessions }, (_, i) => i),
      16,
      async (i) => {
        let res = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: `bench-${i}` } });
        // The publishable key's own rate limit (100 a second): wait as told and go on.
        while (res.status === 429) {
          await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
          res = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: `bench-${i}` } });
        }
        if (res.status !== 200) throw new Error(`session ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as { token: string };
      },
    );
    console.error(`  ${sessions} sessions open`);
    const pids = { api: api.proc.pid!, ferretdb: h().ferret.process!.pid! };
    await new Promise((r) => setTimeout(r, 2000));
    const baseline = await measureCpu(pids, windowMs);

    const t0 = performance.now();
    for (const batch of Array.from({ length: Math.ceil(sessions / 50) }, (_, b) => opened.slice(b * 50, b * 50 + 50)))
      streams.push(
        ...(await Promise.all(batch.map((s) => openStream(`${api.url}/v1/widget/stream?token=${s.token}`)))),
      );
    const openMs = Math.round(performance.now() - t0);
    console.error(`  ${sessions} streams open in ${openMs} ms`);
    await new Promise((r) => setTimeout(r, 5000)); // the opening's work done
    const idle = await measureCpu(pids, windowMs);

    // Messages to streams among the open ones, one after the other.
    const latencies: number[] = [];
    const fromPost: number[] = [];
    for (let m = 0; m < messages; m++) {
      const i = Math.floor((m * sessions) / messages);
      const stream = streams[i];
      const p0 = Date.now();
      const res = await fetch(`${api.url}/v1/widget/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${opened[i].token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: `bench message ${m}` }),
      });
      const body = (await res.json()) as { id: string; conversation_id: string };
      if (res.status !== 200) throw new Error(`message ${m}: ${res.status} ${JSON.stringify(body)}`);
      const arrived =
        stream.seen.get(body.id) ??
        (await new Promise<Arrival>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`message ${m} not on its stream within 10 s`)), 10_000);
          stream.waiting.set(body.id, (a) => (clearTimeout(timer), resolve(a)));
        }));
      // From the moment the worker wrote the message's log entry (what the stream waits for).
      const entry = await ConversationLogEntry.findById(conversationLogId(body.conversation_id, arrived.seq)).lean();
      if (!entry) throw new Error(`message ${m}: log entry ${arrived.seq} missing`);
      latencies.push(arrived.atMs - entry.created_ms);
      fromPost.push(arrived.atMs - p0);
    }
    const summary = (values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return { p50: Math.round(percentile(s, 50)), p99: Math.round(percentile(s, 99)), max: Math.round(s.at(-1)!) };
    };
    const result = {
      streams: sessions,
      window_ms: windowMs,
      cpu_percent_of_a_core: {
        no_stream: { ...baseline, total: Math.round((baseline.api + baseline.ferretdb) * 10) / 10 },
        idle_streams: { ...idle, total: Math.round((idle.api + idle.ferretdb) * 10) / 10 },
      },
      open_all_ms: openMs,
      logged_to_stream_ms: summary(latencies),
      post_to_stream_ms: summary(fromPost),
      messages,
      node: process.version,
    };
    console.log(
      `widget streams: ${sessions} idle streams on one API process (its own process), FerretDB, ${windowMs / 1000} s windows`,
    );
    console.log(
      `  CPU % of a core, no stream:        API ${baseline.api}, FerretDB ${baseline.ferretdb} (total ${result.cpu_percent_of_a_core.no_stream.total})`,
    );
    console.log(
      `  CPU % of a core, ${sessions} idle streams: API ${idle.api}, FerretDB ${idle.ferretdb} (total ${result.cpu_percent_of_a_core.idle_streams.total})`,
    );
    console.log(
      `  message logged → on its stream: p50 ${result.logged_to_stream_ms.p50} ms, p99 ${result.logged_to_stream_ms.p99} ms, max ${result.logged_to_stream_ms.max} ms (POST sent → on its stream: p50 ${result.post_to_stream_ms.p50} ms, max ${result.post_to_stream_ms.max} ms)`,
    );
    console.log(JSON.stringify(result));
    console.log(
      `reproduce: npm run build && BENCH_SESSIONS=${sessions} BENCH_WINDOW_MS=${windowMs} BENCH_MESSAGES=${messages} node dist/bench/widget-streams.js`,
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
