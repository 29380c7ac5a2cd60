/**
 * Dependencies down: an API process (the production entry point) whose Temporal
 * or store is SIGKILLed answers 503 `service_unavailable` naming it, with `Retry-After`, within 5 s, never
 * a 500 or a hang, and recovers when the store is back; a malformed path escape is 400; and the
 * Idempotency-Key of a request whose API process died is taken over within 10 s. Each test runs its own
 * Temporal dev server or FerretDB (the harness's stay up for the other tests).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { freePort, infraBinaries, startFerretDB, startTemporalDevServer, type ChildServer } from '../../src/dev/infra';
import { IdempotencyRecord } from '../../src/models/idempotency';
import { newTenant, request, startWorkerProcess, stopWorkerProcess } from '../support/harness';
import { seedOrgWithKey } from '../support/store-outage';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** A request to one API process, timed. */
async function timed(api: ApiProcess, method: string, urlPath: string, key: string, body?: unknown, headers = {}) {
  const started = Date.now();
  const res = await fetch(api.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text, ms: Date.now() - started };
}

/** Asserts a 503 `service_unavailable` naming `dependency`, with Retry-After and no stack, within 5 s. */
function expectUnavailable(res: Awaited<ReturnType<typeof timed>>, dependency: RegExp): void {
  expect(res.status, res.text).to.equal(503);
  expect(res.body.error).to.include({ type: 'api_error', code: 'service_unavailable' });
  expect(res.body.error.message).to.match(dependency);
  expect(res.text).to.not.match(/\n\s+at |node_modules/);
  expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
  expect(res.ms, 'answered within 5 s').to.be.below(5_000);
}

const KILLED = (server: ChildServer) =>
  new Promise<void>((resolve) => {
    server.process.once('exit', () => resolve());
    server.process.kill('SIGKILL');
  });

describe('dependencies down: 503 within 5 s', function () {
  this.timeout(180_000);
  let dataDir: string;
  const apis: ApiProcess[] = [];
  const servers: ChildServer[] = [];
  const workers: ChildProcess[] = [];
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outages-'));
  });
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((a) => a.stop()));
    await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, 'SIGTERM')));
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('Temporal stopped: POST /v1/calls is 503 naming Temporal, fast, and the key is not consumed', async () => {
    const bins = await infraBinaries();
    const temporal = await startTemporalDevServer(bins.temporal, {
      dataDir: path.join(dataDir, 'temporal'),
      port: await freePort(),
      uiPort: 0,
      inMemory: true,
    });
    servers.push(temporal);
    const api = await startApiProcess({ TEMPORAL_ADDRESS: temporal.address });
    apis.push(api);
    const t = await newTenant();
    await KILLED(temporal);
    const body = { to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'busy' } };
    const headers = { 'Idempotency-Key': `outage-${Date.now()}` };
    const first = await timed(api, 'POST', '/v1/calls', t.testKey, body, headers);
    expectUnavailable(first, /Temporal/);
    // Not kept as the key's result: the retry runs again (and meets the same outage), no 409 or 500.
    expectUnavailable(await timed(api, 'POST', '/v1/calls', t.testKey, body, headers), /Temporal/);
    // What needs only the store still answers.
    expect((await timed(api, 'GET', '/v1/calls?limit=1', t.testKey)).status).to.equal(200);
  });

  it('store stopped: requests and the authentication of a well-formed key are 503 naming the store; back when it is', async () => {
    const bins = await infraBinaries();
    const port = await freePort();
    const ferretDir = path.join(dataDir, 'store');
    let ferret = await startFerretDB(bins.ferretdb, ferretDir, port);
    servers.push(ferret);
    const { key } = await seedOrgWithKey(ferret.uri, 'Outage');
    const api = await startApiProcess({ MONGODB_URI: ferret.uri });
    apis.push(api);
    expect((await timed(api, 'GET', '/v1/calls', key)).status).to.equal(200);
    const unknown = `svc_sk_test_${'a'.repeat(32)}`;
    expect((await timed(api, 'GET', '/v1/calls', unknown)).status).to.equal(401);

    await KILLED(ferret);
    expectUnavailable(await timed(api, 'GET', '/v1/calls', key), /store/);
    expectUnavailable(await timed(api, 'GET', '/v1/calls', unknown), /store/);
    expectUnavailable(
      await timed(api, 'POST', '/v1/agents', key, { name: 'a', instructions: 'b' }, { 'Idempotency-Key': 'x' }),
      /store/,
    );

    ferret = await startFerretDB(bins.ferretdb, ferretDir, port);
    servers.push(ferret);
    const deadline = Date.now() + 30_000;
    let back = await timed(api, 'GET', '/v1/calls', key);
    while (back.status !== 200 && Date.now() < deadline) {
      expect(back.status, back.text).to.equal(503);
      await new Promise((r) => setTimeout(r, 250));
      back = await timed(api, 'GET', '/v1/calls', key);
    }
    expect(back.status, back.text).to.equal(200);
    expect((await timed(api, 'GET', '/v1/calls', unknown)).status).to.equal(401);
  });

  it('answers a malformed path escape 400 invalid_request_error, not 500', async () => {
    const t = await newTenant();
    for (const p of ['/v1/calls/%ff', '/v1/agents/%E0%A4%A', '/v1/calls/%ff/transcript']) {
      const res = await request('GET', p, { key: t.testKey });
      expect(res.status, `${p}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error).to.include({ type: 'invalid_request_error', code: 'url_invalid' });
      expect(JSON.stringify(res.body)).to.not.match(/\n\s+at |URIError/);
    }
  });

  it("takes over the Idempotency-Key of a request whose API process died, within 10 s, under the first request's record", async () => {
    // The API processes start calls on a queue no worker polls yet: the first request, a call's end (a
    // Workflow Update), waits for a worker until its process is SIGKILLed; a worker then comes, and the
    // retry takes over. (`POST /v1/calls` itself no longer waits for a worker: it answers before the workflow runs.)
    const queue = `svc-test-lease-${crypto.randomBytes(4).toString('hex')}`;
    const env = { TEMPORAL_TASK_QUEUE: queue, CALL_TURN_DEADLINE_MS: '60000' };
    const [dying, other] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    apis.push(dying, other);
    const t = await newTenant();
    const body = { to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'busy' } };
    const placed = await timed(other, 'POST', '/v1/calls', t.testKey, body);
    expect(placed.status, placed.text).to.equal(200);
    const endPath = `/v1/calls/${placed.body.id}/end`;
    const key = `lease-${Date.now()}`;
    const headers = { 'Idempotency-Key': key };
    const first = timed(dying, 'POST', endPath, t.testKey, undefined, headers).catch((err: Error) => err);
    const id = crypto.createHash('sha256').update(`${t.orgId}|false|${key}`, 'utf8').digest('hex');
    const started = Date.now();
    let record = await IdempotencyRecord.findById(id).lean();
    while (!record && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
      record = await IdempotencyRecord.findById(id).lean();
    }
    expect(record?.state).to.equal('in_progress');
    await new Promise((r) => setTimeout(r, 500)); // the request is waiting on its end update
    dying.proc.kill('SIGKILL');
    const killedMs = Date.now();
    expect(await first).to.be.instanceOf(Error); // the connection died with the process
    workers.push(await startWorkerProcess(queue));

    let retry = await timed(other, 'POST', endPath, t.testKey, undefined, headers);
    while (retry.status === 409 && retry.body.error.code === 'idempotency_key_in_use') {
      expect(Date.now() - killedMs, 'taken over within 10 s').to.be.below(10_000);
      await new Promise((r) => setTimeout(r, 200));
      retry = await timed(other, 'POST', endPath, t.testKey, undefined, headers);
    }
    // The first request's end update (its update id is the record's resource id) may have reached the server
    // before its process died; then the call ends by it, and the retry's end finds the call no longer live.
    if (retry.status === 200) expect(retry.body).to.include({ id: placed.body.id, status: 'canceled' });
    else expect(retry.body.error.code, retry.text).to.equal('call_not_live');
    const taken = await IdempotencyRecord.findById(id).lean();
    expect(taken, "the retry ran under the first request's record").to.include({
      state: 'completed',
      resource_id: record!.resource_id,
    });
    const calls = (await request('GET', '/v1/calls?limit=10', { key: t.testKey })).body.data;
    expect(calls.map((c: { id: string; status: string }) => [c.id, c.status])).to.deep.equal([
      [placed.body.id, 'canceled'],
    ]);
  });
});
