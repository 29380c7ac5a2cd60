/**
 * Calls ride out a store outage and a busy machine:
 * - a simulated call whose store (its own FerretDB, with its own API and worker processes) is SIGKILLed in
 *   the middle of the conversation and started again 20 s later keeps talking, completes `completed`, and
 *   its transcript is whole: every line of the script and every answer once, in order;
 * - a simulated call placed while child processes spin on every core completes: the turn deadline counts
 *   the model's time, not the machine's queueing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { freePort, infraBinaries, startFerretDB, type ChildServer } from '../../src/dev/infra';
import { newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { seedOrgWithKey } from '../support/store-outage';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** A request to one API process; the body parsed. */
async function call(api: ApiProcess, method: string, urlPath: string, key: string, body?: unknown) {
  const res = await fetch(api.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** What the transcript must read, turn by turn: the scripted caller's lines and the fake model's answers. */
const expectedTurns = (lines: string[]) =>
  lines.flatMap((line) => [
    { role: 'caller', text: line },
    { role: 'assistant', text: `You said: ${line}` },
  ]);

describe('calls ride out a store outage and a busy machine', function () {
  this.timeout(240_000);
  let dataDir: string;
  const cleanups: (() => Promise<void>)[] = [];
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ride-'));
  });
  afterEach(async () => {
    for (const stop of cleanups.splice(0).reverse()) await stop();
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('a store outage of 20 s in the middle of a simulated call: the call completes, its transcript whole', async () => {
    const bins = await infraBinaries();
    const port = await freePort();
    const ferretDir = path.join(dataDir, 'store');
    let ferret: ChildServer & { uri: string } = await startFerretDB(bins.ferretdb, ferretDir, port);
    cleanups.push(() => ferret.stop());
    const { key } = await seedOrgWithKey(ferret.uri, 'Ride through');
    // The API and a worker on a queue of their own, both on this store.
    const queue = `svc-test-ride-${crypto.randomBytes(4).toString('hex')}`;
    const api = await startApiProcess({ MONGODB_URI: ferret.uri, TEMPORAL_TASK_QUEUE: queue });
    cleanups.push(() => api.stop());
    const worker = await startWorkerProcess(queue, { MONGODB_URI: ferret.uri });
    cleanups.push(() => stopWorkerProcess(worker, 'SIGTERM'));

    const agent = await call(api, 'POST', '/v1/agents', key, { name: 'Ride', instructions: 'You confirm orders.' });
    expect(agent.status, agent.text).to.equal(200);
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    const placed = await call(api, 'POST', '/v1/calls', key, {
      to: '+14155550123',
      agent_id: agent.body.id,
      simulation: { caller: lines, pause_seconds: 3 },
    });
    expect(placed.status, placed.text).to.equal(200);
    const callId = placed.body.id as string;

    // Two exchanges in, the store goes away for 20 s (the script goes on for 36 s in all).
    const started = Date.now();
    for (;;) {
      const now = await call(api, 'GET', `/v1/calls/${callId}`, key);
      if (now.status === 200 && (now.body.turns ?? []).length >= 4) break;
      expect(Date.now() - started, `two exchanges within 30 s: ${now.text}`).to.be.below(30_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise<void>((resolve) => {
      ferret.process.once('exit', () => resolve());
      ferret.process.kill('SIGKILL');
    });
    await new Promise((r) => setTimeout(r, 20_000));
    ferret = await startFerretDB(bins.ferretdb, ferretDir, port);

    let ended: { status: string; end_reason: string; error?: unknown } | undefined;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const res = await call(api, 'GET', `/v1/calls/${callId}`, key);
      if (res.status === 200 && !['queued', 'ringing', 'in_progress'].includes(res.body.status)) {
        ended = res.body;
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(ended, 'the call ended within 2 minutes of the store coming back').to.not.equal(undefined);
    expect(ended, JSON.stringify(ended)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const tr = await call(api, 'GET', `/v1/calls/${callId}/transcript`, key);
    expect(tr.status, tr.text).to.equal(200);
    expect(tr.body.turns.map((t: { role: string; text: string }) => ({ role: t.role, text: t.text }))).to.deep.equal([
      { role: 'assistant', text: "You're speaking with an automated assistant." }, // the AI disclosure, on by default
      ...expectedTurns(lines),
    ]);
    // One call.started and one call.ended.
    const events = await call(api, 'GET', '/v1/events?limit=100', key);
    const types = (events.body.data as { type: string; data: { object: { id: string } } }[])
      .filter((e) => e.data.object.id === callId)
      .map((e) => e.type)
      .sort();
    expect(types).to.deep.equal(['call.ended', 'call.started']);
  });

  it('a simulated call under a CPU hog completes', async () => {
    const hogs: ChildProcess[] = Array.from({ length: Math.max(4, os.cpus().length * 2) }, () =>
      spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
    );
    cleanups.push(async () => {
      await Promise.all(
        hogs.map((p) =>
          p.exitCode !== null || p.signalCode !== null
            ? undefined
            : new Promise((r) => {
                p.once('exit', r);
                p.kill('SIGKILL');
              }),
        ),
      );
    });
    const t = await newTenant({ first_message: 'Hello.' });
    const lines = Array.from({ length: 6 }, (_, i) => `busy ${i + 1}`);
    // A deadline of 3 s (read when the call is created): the model answers in milliseconds, the machine
    // around it takes what the hogs leave it.
    const saved = config();
    setConfig({ ...saved, callTurnDeadlineMs: 3_000 });
    let res;
    try {
      res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: lines } },
      });
    } finally {
      setConfig(saved);
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const ended = await waitForCall(t.testKey, res.body.id, undefined, 180_000);
    expect(ended, JSON.stringify(ended)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const tr = await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey });
    const said = tr.body.turns.map((x: { role: string; text: string }) => ({ role: x.role, text: x.text }));
    // A slow answer may be preceded by the holding line, as a live caller would hear it.
    expect(said.filter((x: { text: string }) => x.text !== 'One moment, please.')).to.deep.equal([
      { role: 'assistant', text: "You're speaking with an automated assistant." }, // the AI disclosure, on by default
      { role: 'assistant', text: 'Hello.' },
      ...expectedTurns(lines),
    ]);
  });
});
