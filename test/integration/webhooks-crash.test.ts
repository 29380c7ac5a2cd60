/**
 * Webhooks and a crashing worker: a worker process killed (SIGKILL) while an attempt is in flight; after a
 * restart no event is lost and none is delivered twice to a healthy endpoint.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { startHttpsReceiver, testCertificate, type HttpsReceiver } from '../support/https-receiver';
import {
  callEvents,
  createWebhookEndpoint,
  deliveredTo,
  eventWhen,
  placeCall,
  settled,
  sleep,
  verify,
} from '../support/webhooks';

describe('webhooks: a worker killed during a delivery', function () {
  this.timeout(180_000);
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver?.close();
  });
  const createEndpoint = (key: string, pathname: string, events: string[]) =>
    createWebhookEndpoint(receiver, key, pathname, events);

  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('completes the delivery after a restart: no event lost, none delivered twice to a healthy endpoint', async function () {
    this.timeout(180_000);
    const queue = `svc-test-webhook-crash-${crypto.randomBytes(4).toString('hex')}`;
    const startWorker = () =>
      startWorkerProcess(queue, {
        WEBHOOK_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: testCertificate().certFile,
        WEBHOOK_CA_FILE: '',
      });

    const saved = config();
    setConfig({ ...saved, webhookTaskQueue: queue }); // deliveries go to the child process's queue
    try {
      child = await startWorker();
      const tenant = await newTenant();
      // The slow endpoint holds its first request: the worker is killed while that attempt waits.
      receiver.route('/crash-slow', (_r, n) => (n === 1 ? 'hold' : { status: 200 }));
      const slow = await createEndpoint(tenant.testKey, '/crash-slow', ['*']);
      const healthy = await createEndpoint(tenant.testKey, '/crash-ok', ['*']);
      // call.started now; call.ended about 3 s later, while the worker is down.
      const call = await placeCall(tenant, {
        metadata: { crash: 'test' },
        simulation: { caller: ['hi'], pause_seconds: 3 },
      });
      const [started] = await callEvents(tenant.testKey, call.id, 1);
      await receiver.waitFor(() => receiver.at('/crash-slow').length >= 1, 60_000, 'the held attempt');
      // The healthy endpoint has its copy and the delivery recorded it (the activity may not have
      // reported to Temporal yet); the slow endpoint's attempt is in flight. Kill the worker now.
      await eventWhen(tenant.testKey, started.id, (e) => deliveredTo(e, healthy.id)[0]?.status === 'succeeded');
      const heldEvent = receiver.at('/crash-slow')[0].eventId;
      expect(heldEvent).to.equal(started.id);
      await stopWorkerProcess(child, 'SIGKILL');

      // While no worker runs, the call ends: its event is stored and its deliveries wait in Temporal.
      await waitForCall(tenant.testKey, call.id);
      const events = await callEvents(tenant.testKey, call.id, 2);
      await sleep(1000);
      expect(receiver.at('/crash-ok').map((r) => r.eventId)).to.deep.equal([started.id]);

      child = await startWorker();
      for (const e of events)
        await eventWhen(tenant.testKey, e.id, (x) => settled(x) && x.webhook_deliveries.length === 2, 90_000);
      const ids = events.map((e) => e.id).sort();

      const healthyGot = receiver.at('/crash-ok');
      expect(healthyGot.map((r) => r.eventId).sort(), 'each event exactly once to the healthy endpoint').to.deep.equal(
        ids,
      );
      const slowGot = receiver.at('/crash-slow');
      expect([...new Set(slowGot.map((r) => r.eventId))].sort(), 'no event lost').to.deep.equal(ids);
      const retried = slowGot.filter((r) => r.eventId === heldEvent);
      expect(retried.map((r) => r.attempt)).to.deep.equal([1, 2]);
      for (const r of healthyGot)
        expect(verify(r.rawBody, r.headers['svc-signature'] as string, healthy.secret)).to.equal(true);
      for (const r of slowGot)
        expect(verify(r.rawBody, r.headers['svc-signature'] as string, slow.secret)).to.equal(true);
      for (const r of [...healthyGot, ...slowGot]) expect(r.body.data.object.metadata).to.deep.equal({ crash: 'test' });

      // The attempt that died with its worker is in the log, as such.
      const attempts = (
        await request('GET', `/v1/webhook-endpoints/${slow.id}/deliveries?event=${heldEvent}`, { key: tenant.testKey })
      ).body.data;
      expect(attempts.map((a: any) => [a.attempt, a.succeeded, a.error_code])).to.deep.equal([
        [2, true, null],
        [1, false, 'attempt_lost'],
      ]);
    } finally {
      setConfig(saved);
    }
  });
});
