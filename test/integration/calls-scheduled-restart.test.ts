/**
 * A scheduled call survives a restart of everything that holds it (item 4: "restarting every
 * process does not lose or duplicate it"): a Temporal dev server of its own with its SQLite file, an API
 * process and a worker process on a task queue of their own. With the call `scheduled`, the worker and the
 * Temporal server are SIGKILLed and started again on the same file; the call is still `scheduled` on its
 * timer, and once its test clock reaches its time it is dialed exactly once: one `call.scheduled`, one
 * `call.started`, one `call.ended`, one timer in its history.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { Client, Connection } from '@temporalio/client';
import { freePort, infraBinaries, startTemporalDevServer, type ChildServer } from '../../src/dev/infra';
import { Event } from '../../src/models/events';
import { newTenant, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** Sends a request to the API process, retrying while it answers 5xx or cannot reach Temporal (at most `timeoutMs`). */
async function call(api: ApiProcess, method: string, urlPath: string, key: string, body?: unknown, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(api.url + urlPath, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `k-${urlPath}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = { status: res.status, body: (await res.json()) as any };
    if (answer.status < 500 || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The durable timers longer than 3,000 s (the call's wait for its time) in the call's history. */
async function longTimers(address: string, callId: string): Promise<number> {
  const connection = await Connection.connect({ address });
  try {
    const history = await new Client({ connection }).workflow.getHandle(callId).fetchHistory();
    return (history.events ?? []).filter(
      // `seconds` may be a protobuf Long: read it through its decimal string.
      (e) => Number(String(e.timerStartedEventAttributes?.startToFireTimeout?.seconds ?? 0)) > 3000,
    ).length;
  } finally {
    await connection.close();
  }
}

describe('scheduled calls: the worker and the Temporal server killed and restarted while a call waits', function () {
  this.timeout(240_000);
  let dataDir: string;
  let temporal: ChildServer | undefined;
  let worker: ChildProcess | undefined;
  let api: ApiProcess | undefined;

  after(async () => {
    await stopWorkerProcess(worker, 'SIGTERM');
    await api?.stop();
    await temporal?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is still scheduled after the restart, then dialed exactly once at its time', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sched-restart-'));
    const bins = await infraBinaries();
    const port = await freePort();
    const startTemporal = () => startTemporalDevServer(bins.temporal, { dataDir, port, uiPort: 0 });
    temporal = await startTemporal();
    const address = `127.0.0.1:${port}`;
    const queue = `svc-test-sched-${crypto.randomBytes(4).toString('hex')}`;
    const env = { TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: queue };
    api = await startApiProcess(env);
    worker = await startWorkerProcess(queue, env);

    const t = await newTenant();
    const at = Math.floor(Date.now() / 1000) + 3600;
    const created = await call(api, 'POST', '/v1/calls', t.testKey, {
      to: '+14155550123',
      agent_id: t.agentId,
      scheduled_at: at,
      simulation: { caller: ['Hello, you scheduled me.'] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as string;
    await waitForCall(t.testKey, id, (c) => c.status === 'scheduled');
    // The call.scheduled event is written before the timer starts (by an activity whose completion the
    // timer waits for): wait for the timer itself in the history, so the kill comes while the call sits on
    // it. (Waiting for the event alone let the kill land between the two: the activity was then retried
    // after the restart, the test clock had moved by then, and no long timer was ever started.)
    for (let i = 0; (await longTimers(address, id)) === 0; i++) {
      if (i > 200) throw new Error('no timer started for the scheduled call');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await Event.countDocuments({ org_id: t.orgId, type: 'call.scheduled' })).to.equal(1);

    // Everything that holds the call dies at once, then comes back on the same SQLite file.
    await stopWorkerProcess(worker, 'SIGKILL');
    const exited = new Promise((r) => temporal!.process.once('exit', r));
    temporal.process.kill('SIGKILL');
    await exited;
    temporal = await startTemporal();
    worker = await startWorkerProcess(queue, env);

    const still = await call(api, 'GET', `/v1/calls/${id}`, t.testKey);
    expect(still.body.status).to.equal('scheduled');
    const advanced = await call(api, 'POST', `/v1/test_helpers/calls/${id}/advance_clock`, t.testKey, {});
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    const ended = await waitForCall(t.testKey, id, undefined, 60_000);
    expect(ended).to.include({ status: 'completed', scheduled_at: at });

    const types = (await Event.find({ org_id: t.orgId }).lean()).map((e) => e.type).sort();
    expect(types).to.deep.equal(['call.ended', 'call.scheduled', 'call.started']);
    // The wait is one durable timer of about an hour, started once, before the kill (none after it).
    expect(await longTimers(address, id)).to.equal(1);
  });
});
