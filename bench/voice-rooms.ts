/**
 * Browser voice benchmark (not a timed test): how many voice rooms one worker carries and how fast the
 * assistant answers in them. Starts the test harness (real Temporal dev server and FerretDB, the API, the
 * loopback LLM with its fake speech services), a real LiveKit server on loopback, and the rooms' worker in
 * its own process, as deployed. Then BENCH_ROOMS widget voice calls at once, each with a scripted visitor
 * (test/support/voice-visitor.ts, in this process) who says BENCH_TURNS lines (tones of 600 ms, a pause
 * after each answer), and prints:
 *
 *   - the answer delay: from the end of the visitor's line to the first sound of the assistant's answer
 *     heard in the room, p50/p99 (it includes the end-of-turn pause, VOICE_END_OF_TURN_MS, default 600);
 *   - the worker's CPU while the rooms talk (ms of CPU per second of wall time, and per room) and its RSS
 *     before, at the peak and after.
 *
 * Knobs: BENCH_ROOMS (default 6), BENCH_TURNS (default 5), BENCH_END_OF_TURN_MS (default 600).
 * Loopback only; the visitors' own media work shares the machine with the worker.
 *
 *   npm run bench:voice-rooms
 */
import { config, setConfig } from '../src/config';
import { createKey } from '../src/keys';
import {
  h,
  newTenant,
  request,
  startHarness,
  startWorkerProcess,
  stopHarness,
  stopWorkerProcess,
  waitForCall,
} from '../test/support/harness';
import { startTestLiveKit } from '../test/support/livekit';
import { Visitor } from '../test/support/voice-visitor';
import { cpuMs, percentile, rssMiB } from './stats';
import { setOrgCallLimit } from '../src/services/limits';

const num = (name: string, fallback: number, max: number) =>
  Math.min(max, Math.max(1, Number(process.env[name] ?? fallback)));

async function main(): Promise<void> {
  const rooms = num('BENCH_ROOMS', 6, 100);
  const turns = num('BENCH_TURNS', 5, 50);
  const endOfTurnMs = num('BENCH_END_OF_TURN_MS', 600, 5_000);
  await startHarness();
  const livekit = await startTestLiveKit({ endOfTurnMs });
  const taskQueue = `bench-voice-${Date.now()}`;
  const worker = await startWorkerProcess(taskQueue, livekit.env);
  let workerErr = '';
  worker.stderr!.on('data', (c) => (workerErr = (workerErr + c).slice(-4000)));
  worker.once('exit', (code, signal) => {
    if (code !== 0) console.error(`the worker process exited (${code ?? signal}): ${workerErr}`);
  });
  try {
    const t = await newTenant({ first_message: 'Hello.' });
    // The orchestration is measured, not the organization's line: a limit no run reaches.
    await setOrgCallLimit(t.orgId, 'test', 1000);
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    // One tone per line, each a phrase the fake speech-to-text knows.
    for (let i = 0; i < turns; i++) h().llm.audio.phrases.set(400 + 80 * i, `Line number ${i + 1}.`);
    const saved = config();
    setConfig({ ...saved, taskQueue, widgetRateLimitIp: 0, widgetRateLimitSession: 0 });
    const rssBefore = rssMiB(worker.pid!);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      if (worker.exitCode === null) rssPeak = Math.max(rssPeak, rssMiB(worker.pid!));
    }, 500);
    const delays: number[] = [];
    const cpuStart = cpuMs(worker.pid!);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: rooms }, async (_, r) => {
        const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: `bench-${r}` } });
        const voice = await request('POST', '/v1/widget/voice', { key: session.body.token });
        if (voice.status !== 200) throw new Error(`voice: ${JSON.stringify(voice.body)}`);
        const visitor = await Visitor.join(voice.body.url, voice.body.token);
        await visitor.heardAtLeast(1, 30_000); // the greeting
        for (let i = 0; i < turns; i++) {
          const heard = visitor.heard.length;
          await visitor.say(400 + 80 * i, 600);
          const saidAt = Date.now();
          const answer = (await visitor.heardAtLeast(heard + 1, 30_000))[heard];
          delays.push(answer.startMs - saidAt);
          await new Promise((resolve) => setTimeout(resolve, 500)); // the visitor pauses before the next line
        }
        await visitor.leave();
        await waitForCall(t.testKey, voice.body.call_id);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMs(worker.pid!) - cpuStart;
    clearInterval(sampler);
    setConfig(saved);
    const sorted = [...delays].sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          rooms,
          turns_per_room: turns,
          end_of_turn_ms: endOfTurnMs,
          answer_delay_ms: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length },
          wall_s: Math.round(seconds * 10) / 10,
          worker_cpu_ms_per_s: Math.round(cpu / seconds),
          worker_cpu_ms_per_s_per_room: Math.round(cpu / seconds / rooms),
          worker_rss_mib: { before: rssBefore, peak: rssPeak, after: rssMiB(worker.pid!) },
        },
        null,
        1,
      ),
    );
  } finally {
    await stopWorkerProcess(worker, 'SIGTERM');
    await livekit.stop();
    await stopHarness();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
