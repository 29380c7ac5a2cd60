/**
 * A worker process killed (SIGKILL) while the model writes a call's analysis: after a restart
 * the analysis is stored once and `call.analyzed` emitted once; the call itself ended normally before.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Analysis } from '../../src/models/analyses';
import { UsageRecord } from '../../src/models/usage';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { eventually, sleep } from '../support/webhooks';

describe('a worker killed during a call analysis', function () {
  this.timeout(180_000);
  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('stores one analysis and emits one call.analyzed after a restart', async () => {
    const queue = `svc-test-analysis-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // the call and its analysis run on the child process's queue only
    try {
      child = await startWorkerProcess(queue);
      const t = await newTenant({
        analysis: {
          summary: { prompt: 'FAKE_ANALYSIS:slow=4000' },
          success_evaluation: { rubric: 'The caller agreed.', scale: 'pass_fail' },
        },
      });
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          metadata: { crash: 'analysis' },
          simulation: { caller: ['Yes.'] },
        },
      });
      expect(res.status).to.equal(200);
      const id = res.body.id as string;
      const ended = await waitForCall(t.testKey, id);
      expect(ended.status).to.equal('completed');

      // Kill the worker while the (slow) analysis request is in flight.
      const analysisRequests = () => h().llm.requests.filter((r) => r.user === id && r.response_format);
      await eventually(async () => analysisRequests().length >= 1, 'the analysis request');
      await stopWorkerProcess(child, 'SIGKILL');
      expect((await request('GET', `/v1/calls/${id}`, { key: t.testKey })).body.analysis).to.equal(null);

      child = await startWorkerProcess(queue);
      const call = await waitForCall(t.testKey, id, (c) => c.analysis !== null, 90_000);
      expect(call.status, 'the call keeps its status').to.equal('completed');
      expect(call.analysis).to.include({ status: 'completed', summary: 'The caller said: Yes.' });
      expect(analysisRequests().length, 'the request was made again after the crash').to.be.at.least(2);
      await sleep(2000);
      expect(await Analysis.countDocuments({ subject_id: id })).to.equal(1);
      const events = (await request('GET', '/v1/events?limit=100', { key: t.testKey })).body.data.filter(
        (e: any) => e.data.object.id === id,
      );
      expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended', 'call.analyzed']);
      expect(events[0].data.object.metadata).to.deep.equal({ crash: 'analysis' });
      expect(await UsageRecord.countDocuments({ kind: 'analysis', subject_id: id }), 'metered once').to.equal(1);
    } finally {
      setConfig(saved);
    }
  });
});
