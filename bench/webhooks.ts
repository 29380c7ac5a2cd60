/**
 * Webhook delivery benchmark (not a timed test). Starts the test harness (real Temporal dev
 * server and FerretDB, one worker, the API) and an HTTPS receiver on loopback, subscribes one endpoint
 * to every event, emits BENCH_EVENTS events through `emitEvent` (the code path activities use) with
 * BENCH_CONCURRENCY emissions in flight (default 2), and prints:
 *
 *   - events delivered per second (distinct events received / time from the first emission to the last receipt)
 *   - p50 / p99 / max latency from event creation (the `emitEvent` call) to receipt by the endpoint
 *
 * Each delivery is a full `webhookDeliveryWorkflow`: start, workflow task, activity (endpoint and
 * event reads, DNS check, TLS connect, POST, attempt row, delivery update), workflow task, completion.
 * Bounded: BENCH_EVENTS (default 300, at most 5000) and BENCH_TIMEOUT_MS (default 180000). Loopback only.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/webhooks.js
 *   BENCH_EVENTS=1000 BENCH_CONCURRENCY=50 node dist/bench/webhooks.js
 */
import os from 'node:os';
import { emitEvent } from '../src/services/events';
import { newId } from '../src/shared/ids';
import { WebhookDelivery } from '../src/models/webhooks';
import { h, newTenant, request, startHarness, stopHarness } from '../test/support/harness';
import { percentile } from './stats';
import { startHttpsReceiver } from '../test/support/https-receiver';

async function main(): Promise<void> {
  const total = Math.min(5000, Math.max(1, Number(process.env.BENCH_EVENTS ?? 300)));
  const concurrency = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 2));
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);
  await startHarness();
  const receiver = await startHttpsReceiver();
  try {
    const t = await newTenant();
    const ep = await request('POST', '/v1/webhook-endpoints', {
      key: t.testKey,
      body: { url: receiver.url('/bench'), events: ['*'] },
    });
    if (ep.status !== 200) throw new Error(JSON.stringify(ep.body));

    // Warm-up: one delivery end to end, so that the figures leave out first-use costs.
    const warm = newId('evt');
    await emitEvent(h().env.client, {
      id: warm,
      orgId: t.orgId,
      livemode: false,
      type: 'call.ended',
      createdMs: Date.now(),
      object: { id: newId('call'), object: 'call', metadata: {} },
    });
    await receiver.waitFor((r) => r.some((x) => x.eventId === warm), 60_000, 'the warm-up delivery');

    const createdAt = new Map<string, number>();
    const ids = Array.from({ length: total }, () => newId('evt'));
    const firstEmit = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ids.length) {
          const id = ids[next++];
          const createdMs = Date.now();
          createdAt.set(id, createdMs);
          await emitEvent(h().env.client, {
            id,
            orgId: t.orgId,
            livemode: false,
            type: 'call.ended',
            createdMs,
            object: { id: newId('call'), object: 'call', status: 'completed', metadata: { bench: 'yes' } },
          });
        }
      }),
    );
    const emitted = Date.now();
    await receiver.waitFor(
      (r) => new Set(r.map((x) => x.eventId).filter((id) => id && createdAt.has(id))).size >= total,
      timeoutMs,
      `${total} deliveries`,
    );

    const firstReceipt = new Map<string, number>();
    let duplicates = 0;
    for (const r of receiver.at('/bench')) {
      if (!r.eventId || !createdAt.has(r.eventId)) continue;
      if (firstReceipt.has(r.eventId)) duplicates++;
      else firstReceipt.set(r.eventId, r.receivedMs);
    }
    const latencies = [...firstReceipt].map(([id, at]) => at - createdAt.get(id)!).sort((a, b) => a - b);
    const lastReceipt = Math.max(...firstReceipt.values());
    // Breakdown: creation → the delivery activity's first attempt starts (workflow start, workflow task,
    // activity dispatch), and attempt start → receipt (store reads, TLS connect, POST).
    const deliveries = await WebhookDelivery.find({ event_id: { $in: ids } }, { event_id: 1, created_ms: 1 }).lean();
    const toActivity = deliveries.map((d) => d.created_ms - createdAt.get(d.event_id)!).sort((a, b) => a - b);
    const inActivity = deliveries.map((d) => firstReceipt.get(d.event_id)! - d.created_ms).sort((a, b) => a - b);
    const seconds = (lastReceipt - firstEmit) / 1000;
    const result = {
      events: total,
      concurrency,
      emit_seconds: +((emitted - firstEmit) / 1000).toFixed(2),
      total_seconds: +seconds.toFixed(2),
      delivered_per_second: +(total / seconds).toFixed(1),
      latency_ms: {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies[latencies.length - 1],
      },
      creation_to_attempt_ms: { p50: percentile(toActivity, 50), p99: percentile(toActivity, 99) },
      attempt_to_receipt_ms: { p50: percentile(inActivity, 50), p99: percentile(inActivity, 99) },
      duplicates,
      node: process.version,
      cpus: os.cpus().length,
    };
    console.log(
      `webhook deliveries: ${total} events, ${concurrency} emissions in flight, one endpoint, loopback HTTPS`,
    );
    console.log(
      `  delivered/s: ${result.delivered_per_second}  (${total} in ${result.total_seconds} s; emitting took ${result.emit_seconds} s)`,
    );
    console.log(
      `  creation → receipt latency: p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms, max ${result.latency_ms.max} ms`,
    );
    console.log(
      `    of which creation → attempt start: p50 ${result.creation_to_attempt_ms.p50} ms, p99 ${result.creation_to_attempt_ms.p99} ms; attempt start → receipt: p50 ${result.attempt_to_receipt_ms.p50} ms, p99 ${result.attempt_to_receipt_ms.p99} ms`,
    );
    console.log(`  duplicates: ${duplicates}`);
    console.log(JSON.stringify(result));
    console.log(
      'reproduce: npx tsc -p tsconfig.json && BENCH_EVENTS=' +
        total +
        ' BENCH_CONCURRENCY=' +
        concurrency +
        ' node dist/bench/webhooks.js',
    );
  } finally {
    await receiver.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
