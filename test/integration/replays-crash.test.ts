/**
 * A worker process killed (SIGKILL) in the middle of a replay of 50 recorded calls: after a restart
 * the replay completes with every call replayed once (one `replayCallWorkflow` per call, one stored row per
 * replayed turn, the model asked again only for turns whose answer was in flight) and one
 * `replay.completed` event.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { ReplayCall, ReplayTurn } from '../../src/models/replays';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { eventually } from '../support/webhooks';

const CALLS = 50;

describe('a worker killed during a replay', function () {
  this.timeout(300_000);
  let child: ChildProcess | undefined;
  afterEach(async () => {
    h().llm.delayMs = 0;
    await stopWorkerProcess(child, 'SIGTERM');
  });

  it('replays each of 50 calls once and completes after a restart', async () => {
    const t = await newTenant({ instructions: 'Offer the spring discount.' });
    const ids: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: `+141555501${String(i).padStart(2, '0')}`,
          agent_id: t.agentId,
          simulation: { caller: ['Hello.', i % 2 ? 'Any discount?' : 'Thanks.'] },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(res.body.id);
    }
    for (const id of ids) expect((await waitForCall(t.testKey, id, undefined, 120_000)).status).to.equal('completed');
    const edited = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { instructions: 'Never offer a discount.', publish: false },
    });
    const version = edited.body.latest_version as number;

    const queue = `svc-test-replay-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // the replay runs on the child process's queue only
    try {
      child = await startWorkerProcess(queue);
      h().llm.delayMs = 150; // each regenerated turn takes a while: the kill lands mid-replay
      const created = await request('POST', `/v1/agents/${t.agentId}/replays`, {
        key: t.testKey,
        body: { version, call_ids: ids },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const replayId = created.body.id as string;
      await eventually(
        async () => (await ReplayTurn.countDocuments({ replay_id: replayId })) >= 20,
        'twenty turns replayed',
        120_000,
      );
      await stopWorkerProcess(child, 'SIGKILL');
      const before = await ReplayTurn.countDocuments({ replay_id: replayId });
      expect(before, 'killed mid-replay').to.be.lessThan(CALLS * 2);

      child = await startWorkerProcess(queue);
      const replay = await eventually(
        async () => {
          const res = await request('GET', `/v1/agents/${t.agentId}/replays/${replayId}`, { key: t.testKey });
          return res.body.status === 'completed' ? res.body : undefined;
        },
        'the replay completed',
        180_000,
      );
      expect(replay.progress).to.deep.include({ total: CALLS, completed: CALLS, errored: 0, skipped: 0 });
      expect(replay.totals.turns).to.equal(CALLS * 2);
      expect(replay.totals.turns_changed).to.equal(CALLS / 2);
      expect(await ReplayCall.countDocuments({ replay_id: replayId })).to.equal(CALLS);
      expect(await ReplayTurn.countDocuments({ replay_id: replayId })).to.equal(CALLS * 2);

      // One child workflow per call, each run once (its workflow id derived from the replay and the call).
      const children: { workflowId: string; runId: string }[] = [];
      for await (const w of h().env.client.workflow.list({ query: `WorkflowType = 'replayCallWorkflow'` }))
        if (w.workflowId.startsWith(`${replayId}-`)) children.push({ workflowId: w.workflowId, runId: w.runId });
      expect(children).to.have.length(CALLS);
      expect(new Set(children.map((c) => c.workflowId)).size).to.equal(CALLS);

      // The model was asked again only for turns in flight at the kill (at most one per lane).
      const regenerated = h().llm.requests.filter(
        (r) => String(r.user ?? '').startsWith(`${replayId}:`) && !r.response_format,
      );
      expect(regenerated.length).to.be.at.least(CALLS * 2);
      expect(regenerated.length - CALLS * 2, 'asked again after the kill').to.be.at.most(5);

      const events = await eventually(async () => {
        const res = await request('GET', '/v1/events?limit=100', { key: t.testKey });
        const mine = (res.body.data as any[]).filter((e) => e.type === 'replay.completed');
        return mine.length ? mine : undefined;
      }, 'replay.completed');
      expect(events).to.have.length(1);
    } finally {
      setConfig(saved);
    }
  });
});
