/**
 * A worker process killed in the middle of a call (SIGKILL, no clean shutdown) and started again: the
 * call resumes where its history says and ends normally, with no turn, event or call lost or repeated.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Call, CallTurn } from '../../src/models/calls';
import {
  h,
  newTenant,
  request,
  startWorkerProcess,
  stopWorkerProcess,
  waitForCall,
  waitForLocalActivity,
} from '../support/harness';

describe('a worker killed during a call', function () {
  this.timeout(180_000);
  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('finishes the call after a restart, with every turn and event exactly once', async () => {
    const queue = `svc-test-call-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // calls placed now run on the child process's queue only
    try {
      child = await startWorkerProcess(queue);
      const t = await newTenant();
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          metadata: { crash: 'call' },
          simulation: { caller: ['one', 'two', 'three'], pause_seconds: 2 },
        },
      });
      expect(res.status).to.equal(200);
      const id = res.body.id as string;

      // Kill the worker after the first exchange, while the caller "pauses" before line two.
      const deadline = Date.now() + 30_000;
      while ((await CallTurn.countDocuments({ call_id: id })) < 2) {
        if (Date.now() > deadline) throw new Error('the first exchange never happened');
        await new Promise((r) => setTimeout(r, 100));
      }
      // …and its answer is in the history (its turn is stored from inside the local activity, before the
      // workflow task records it; a kill in between would run the LLM request again, as Temporal allows).
      await waitForLocalActivity(id, 'generateReply');
      await stopWorkerProcess(child, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 3000)); // the pause ends while no worker runs
      expect((await Call.findById(id).lean())!.status, 'nothing runs without a worker').to.equal('in_progress');

      child = await startWorkerProcess(queue);
      const ended = await waitForCall(t.testKey, id, undefined, 60_000);
      expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });

      const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey })).body.turns.map(
        (x: any) => [x.role, x.text],
      );
      expect(turns).to.deep.equal([
        ['assistant', "You're speaking with an automated assistant."], // the AI disclosure, on by default
        ['caller', 'one'],
        ['assistant', 'You said: one'],
        ['caller', 'two'],
        ['assistant', 'You said: two'],
        ['caller', 'three'],
        ['assistant', 'You said: three'],
      ]);
      const events = (await request('GET', '/v1/events?limit=100', { key: t.testKey })).body.data.filter(
        (e: any) => e.data.object.id === id,
      );
      expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
      expect(events.every((e: any) => e.data.object.metadata.crash === 'call')).to.equal(true);
      expect(h().llm.requests.filter((r) => r.user === id).length, 'one LLM request per caller line').to.equal(3);
      expect((await request('GET', '/v1/calls?limit=100', { key: t.testKey })).body.data).to.have.length(1);
    } finally {
      setConfig(saved);
    }
  });
});
