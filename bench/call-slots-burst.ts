/**
 * Call-slot burst after a worker restart (not a timed test). Starts the test harness (real Temporal dev
 * server and FerretDB), runs one organization's `callSlotsWorkflow` on a worker in its own process, then:
 *
 *   1. kills that worker (SIGKILL), so nothing answers the semaphore's updates;
 *   2. sends BENCH_BURST requests for a slot at once from this process (`tryAcquireCallSlot`, `queue: true`,
 *      as the waiting calls' `requestCallSlot` activities do when they ask again), each with its own call id;
 *   3. starts a new worker process after BENCH_DOWN_MS, and waits until every request is answered.
 *
 * Prints: requests answered (granted / in line / failed), the time from the new worker's start to the last
 * answer, and the RESOURCE_EXHAUSTED answers Temporal gave (each a request refused because the semaphore
 * had too many updates in flight, counted by a gRPC interceptor on this process's client, whatever the
 * code's version) with the updates sent when the code counts them (`slotUpdateCounts`).
 *
 * The harness's dev server admits 100 updates in flight per workflow (src/dev/infra.ts); a Temporal
 * cluster's default is 10 (`history.maxInFlightUpdates`).
 *
 * Knobs: BENCH_BURST (default 500), BENCH_LIMIT (the organization's max_concurrent_calls, default 100),
 * BENCH_DOWN_MS (default 3000).
 *
 *   npm run build && node dist/bench/call-slots-burst.js
 *
 * Measured on the project's 2-core machine (2026-11-29, defaults), before (one update per request) and
 * after (one update per process in flight, `tryAcquireSlots`; README "Dialing pace" has the table):
 *
 *   answered granted / in line / thrown      before 0 / 0 / 500      after 98 / 401 / 1
 *   RESOURCE_EXHAUSTED (worker down / all)   before 310 / 862        after 0 / 0
 *   updates sent                             before ≥ 500            after 4
 *   new worker's start → last answer         before 14.8 s           after 12.0 s (the lone first request's 12 s deadline)
 */
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { config, setConfig } from '../src/config';
import { boundedRetryInterceptor, connectionOptions, deadlineInterceptor } from '../src/platform/temporal';
import { dataConverter } from '../src/platform/payload-codec';
import * as slotService from '../src/services/call-slots';
import { setOrgCallLimit } from '../src/services/limits';
import { newId } from '../src/shared/ids';
import {
  h,
  newTenant,
  startHarness,
  startWorkerProcess,
  stopHarness,
  stopWorkerProcess,
} from '../test/support/harness';

const num = (name: string, def: number, max: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`${name} must be an integer 1–${max}`);
  return v;
};
const progress = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);

/** gRPC RESOURCE_EXHAUSTED answers seen by the counting interceptor. */
let exhausted = 0;
/** Counts every RESOURCE_EXHAUSTED status the server answers (inside the SDK's retry interceptor: each attempt). */
const counting: Interceptor = (options, nextCall) =>
  new InterceptingCall(nextCall(options), {
    start(metadata, _listener, next) {
      next(metadata, {
        onReceiveStatus(status, nextStatus) {
          if (status.code === 8) exhausted++;
          nextStatus(status);
        },
      });
    },
  });

async function main(): Promise<void> {
  const burst = num('BENCH_BURST', 500, 100_000);
  const limit = num('BENCH_LIMIT', 100, 1000);
  const downMs = num('BENCH_DOWN_MS', 3000, 600_000);
  await startHarness();
  const queue = `svc-bench-slots-burst-${crypto.randomBytes(4).toString('hex')}`;
  const saved = config();
  setConfig({ ...saved, taskQueue: queue }); // the semaphore runs on the worker process's queue only
  let worker = await startWorkerProcess(queue);
  const connection = await Connection.connect({
    ...connectionOptions(h().env.address),
    interceptors: [deadlineInterceptor(), boundedRetryInterceptor(), counting],
  });
  const client = new Client({ connection, namespace: config().temporalNamespace, dataConverter });
  try {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', limit);
    const tenant = { orgId: t.orgId, livemode: false };
    await slotService.tryAcquireCallSlot(client, tenant, newId('call'), true); // starts the semaphore
    progress('semaphore running; killing its worker');
    await stopWorkerProcess(worker, 'SIGKILL');
    exhausted = 0;
    const counts = (slotService as { slotUpdateCounts?: { updates: number; requests: number; busy: number } })
      .slotUpdateCounts;
    const before = counts ? { ...counts } : null;
    progress(`${burst} requests for a slot at once, no worker running`);
    let failed = 0;
    let granted = 0;
    let waiting = 0;
    let lastMs = 0;
    const asks = Array.from({ length: burst }, () =>
      slotService.tryAcquireCallSlot(client, tenant, newId('call'), true).then(
        (a) => {
          if (a.granted) granted++;
          else waiting++;
          lastMs = Date.now();
        },
        () => {
          failed++;
          lastMs = Date.now();
        },
      ),
    );
    await new Promise((r) => setTimeout(r, downMs));
    const refusedWhileDown = exhausted;
    progress(`starting a new worker after ${downMs} ms`);
    const restartMs = Date.now();
    worker = await startWorkerProcess(queue);
    await Promise.all(asks);
    const after = counts ? { ...counts } : null;
    console.log(`| figure | value |`);
    console.log('|---|---|');
    console.log(`| requests (queue: true), limit ${limit} | ${burst} |`);
    console.log(
      `| answered: granted / in line / failed (thrown to the caller) | ${granted} / ${waiting} / ${failed} |`,
    );
    console.log(`| RESOURCE_EXHAUSTED answers while no worker ran (${downMs} ms) | ${refusedWhileDown} |`);
    console.log(`| RESOURCE_EXHAUSTED answers in all | ${exhausted} |`);
    console.log(`| new worker's start → last answer (ms) | ${Math.max(0, lastMs - restartMs)} |`);
    if (before && after)
      console.log(
        `| updates sent / requests carried / busy retries (slotUpdateCounts) | ${after.updates - before.updates} / ${after.requests - before.requests} / ${after.busy - before.busy} |`,
      );
  } finally {
    await stopWorkerProcess(worker, 'SIGTERM');
    await connection.close();
    setConfig(saved);
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
