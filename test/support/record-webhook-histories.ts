/**
 * Records `webhookDeliveryWorkflow` histories from real runs, for the replay tests
 * (test/replay/replay.test.ts replays every file; test/integration/webhooks.test.ts checks these are
 * there). Starts the test harness (real Temporal dev server, FerretDB, worker, API) and an HTTPS
 * receiver, emits one event per scenario through `emitEvent` (the code path the activities use), and
 * writes each delivery's history to test/replay/histories/webhook-delivery-<scenario>.json:
 *
 *   succeeded, retried (500, 500, 200), gone (410: endpoint disabled, delivery_failed emitted),
 *   retries-exhausted (a 2-second window of 503s), canceled (endpoint deleted between retries),
 *   redelivery (POST /v1/events/{id}/redeliver)
 *
 *   npx tsc -p tsconfig.json && node dist/test/support/record-webhook-histories.js
 *
 * Re-record after an intentional, versioned change to the workflow (and keep the old files while
 * running workflows may still replay them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../../src/config';
import { emitEvent } from '../../src/services/events';
import { newId } from '../../src/shared/ids';
import { automaticDeliveryId } from '../../src/shared/webhooks';
import { h, newTenant, request, startHarness, stopHarness } from './harness';
import { startHttpsReceiver } from './https-receiver';

export const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

async function main(): Promise<void> {
  await startHarness();
  const receiver = await startHttpsReceiver();
  try {
    const t = await newTenant();
    const endpoint = async (name: string) => {
      const res = await request('POST', '/v1/webhook-endpoints', {
        key: t.testKey,
        body: { url: receiver.url(`/${name}`), events: ['call.ended'] },
      });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      return res.body.id as string;
    };
    /** Emits a call.ended event for a made-up call; returns its id. */
    const emit = async () => {
      const id = newId('evt');
      await emitEvent(h().env.client, {
        id,
        orgId: t.orgId,
        livemode: false,
        type: 'call.ended',
        createdMs: Date.now(),
        object: { id: newId('call'), object: 'call', status: 'completed', metadata: { recorded: 'yes' } },
      });
      return id;
    };
    const scenarios: Record<string, () => Promise<string>> = {
      succeeded: async () => {
        const we = await endpoint('succeeded');
        return automaticDeliveryId(await emit(), we);
      },
      retried: async () => {
        receiver.route('/retried', (_r, n) => (n <= 2 ? { status: 500 } : { status: 200 }));
        const we = await endpoint('retried');
        return automaticDeliveryId(await emit(), we);
      },
      gone: async () => {
        receiver.route('/gone', () => ({ status: 410 }));
        const we = await endpoint('gone');
        return automaticDeliveryId(await emit(), we);
      },
      'retries-exhausted': async () => {
        receiver.route('/exhausted', () => ({ status: 503 }));
        const we = await endpoint('exhausted');
        const saved = config();
        setConfig({ ...saved, webhookRetryWindowMs: 2000 });
        try {
          return automaticDeliveryId(await emit(), we);
        } finally {
          setConfig(saved);
        }
      },
      canceled: async () => {
        receiver.route('/canceled', () => ({ status: 500 }));
        const we = await endpoint('canceled');
        const id = automaticDeliveryId(await emit(), we);
        await receiver.waitFor(() => receiver.at('/canceled').length >= 2);
        await request('DELETE', `/v1/webhook-endpoints/${we}`, { key: t.testKey });
        return id;
      },
      redelivery: async () => {
        const we = await endpoint('redelivery');
        const eventId = await emit();
        await h().env.client.workflow.getHandle(automaticDeliveryId(eventId, we)).result();
        const res = await request('POST', `/v1/events/${eventId}/redeliver`, {
          key: t.testKey,
          body: { endpoint_id: we },
        });
        if (res.status !== 200) throw new Error(JSON.stringify(res.body));
        return res.body.data[0].id as string;
      },
    };
    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const [name, run] of Object.entries(scenarios)) {
      const workflowId = await run();
      const handle = h().env.client.workflow.getHandle(workflowId);
      const result = await handle.result();
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.join(HISTORIES_DIR, `webhook-delivery-${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(
        `${name}: ${workflowId} → ${result.status}${result.reason ? ` (${result.reason})` : ''}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`,
      );
    }
  } finally {
    await receiver.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
