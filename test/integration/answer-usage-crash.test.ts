/**
 * The usage row of a call's answer survives a crash of the worker that got the answer. A call's answer
 * does not write its usage row before the turn goes on: the row travels in the LLM activity's result
 * (recorded in the call's history) and the call's next transcript write stores it
 * (src/activities/llm.ts, src/activities/calls.ts `recordTurns`). Here the worker process is killed
 * (SIGKILL) after the model's first answer was recorded and while its tool's request is held by the
 * loopback tool server, before anything wrote that answer's usage; a new worker finishes the call. The
 * call then has exactly one usage row per answer the model gave, and the usage report counts each once.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { UsageRecord } from '../../src/models/usage';
import {
  h,
  loopbackHttpsEnv,
  newTenant,
  request,
  startWorkerProcess,
  stopWorkerProcess,
  waitForCall,
} from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { eventually } from '../support/conversations';
import { placeCall, sleep } from '../support/webhooks';
import { createHttpTool, useTools } from '../support/tools';

const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Today ± 1 day in UTC: a period that holds everything the test did, even across midnight. */
const aroundToday = () => `?from=${utcDate(Date.now() - DAY)}&to=${utcDate(Date.now() + DAY)}`;

describe("usage: a worker killed after a call's answer, before its usage row was written", function () {
  this.timeout(240_000);
  let receiver: HttpsReceiver;
  let child: ChildProcess | undefined;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver?.close();
  });
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  const startWorker = (queue: string) => startWorkerProcess(queue, loopbackHttpsEnv());

  it('a test call: one usage row per answer, counted once by the report', async () => {
    const t = await newTenant();
    const tool = await createHttpTool(t, receiver, 'usage_lookup', '/usage-crash', {
      description: 'Looks up an order.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      timeout_ms: 20_000,
    });
    await useTools(t, [tool.id]);
    // The first request is held until the worker dies; its retry (after the heartbeat timeout) is answered.
    receiver.route('/usage-crash', (_req, n) => (n === 1 ? 'hold' : { status: 200, body: '{"status":"shipped"}' }));
    const queue = `svc-test-usage-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // the call placed now runs on the child's queue only
    let id: string;
    let rowsAtKill: number;
    try {
      child = await startWorker(queue);
      id = (await placeCall(t, { simulation: { caller: ['TOOLONCE usage_lookup {"order_id":"U1"}'] } })).id;
      // The model answered with the tool call (its result recorded: the tool's activity was scheduled
      // after it), the tool's request is under way: the worker dies now.
      await receiver.waitFor(() => receiver.at('/usage-crash').length >= 1, 90_000, 'the held tool request');
      await stopWorkerProcess(child, 'SIGKILL');
      rowsAtKill = await UsageRecord.countDocuments({ subject_id: id, kind: 'llm_request' });
      child = await startWorker(queue);
      await receiver.waitFor(() => receiver.at('/usage-crash').length >= 2, 60_000, 'the retried tool request');
    } finally {
      setConfig(saved);
    }
    const ended = await waitForCall(t.testKey, id, undefined, 90_000);
    expect(ended.status, JSON.stringify(ended)).to.equal('completed');
    expect(rowsAtKill, "the first answer's usage row was not written when the worker died").to.equal(0);

    // The model answered twice (the tool call, then after the tool); the first answer was not asked again.
    const answered = h().llm.requests.filter((r) => r.user === id && r.usage);
    expect(answered, 'the tool call, then the answer').to.have.length(2);
    const rows = await UsageRecord.find({ subject_id: id, kind: 'llm_request' }).lean();
    expect(rows.map((r) => r._id).sort(), 'one row per answer').to.have.length(2);
    expect(new Set(rows.map((r) => r._id)).size).to.equal(2);
    for (const r of rows) expect(String(r._id)).to.match(new RegExp(`^llm:${id}:`));
    const tokens = (list: { prompt_tokens?: number | null; completion_tokens?: number | null }[]) =>
      list.reduce((n, r) => n + (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0), 0);
    expect(tokens(rows)).to.equal(tokens(answered.map((r) => r.usage!)));

    // The rollups count each row once (folded behind the write: wait for the folds, then look again).
    const seen = {
      requests: 2,
      prompt_tokens: answered.reduce((n, r) => n + r.usage!.prompt_tokens, 0),
      completion_tokens: answered.reduce((n, r) => n + r.usage!.completion_tokens, 0),
    };
    await eventually(async () => {
      const done = await UsageRecord.countDocuments({ subject_id: id, kind: 'llm_request', rollup: 'done' });
      return done === 2 || undefined;
    }, 'both rows folded');
    await sleep(500);
    const res = await request('GET', `/v1/usage${aroundToday()}`, { key: t.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.totals.llm).to.deep.equal(seen);
  });
});
