/**
 * Replay across a deployment boundary (README, "Rolling deploys"). Every history in
 * test/replay/histories was recorded with the code of deployment svc-assistant 0.1.0, before the
 * `callWorkflow` change of 0.2.0 (`PATCHES.callFinishedOnMemo`: the memo naming the version that finished
 * the call). Here each workflow kind's 0.1.0 histories replay on today's code, and a call run now (0.2.0:
 * the patch marker and the memo in its history) replays beside them: an AUTO_UPGRADE run moved to the new
 * version mid-flight, or a pinned call whose worker is replaced by a new build, takes the old path.
 * Histories recorded by a later version sit beside them with the version in their name (`-v030-`: recorded
 * by 0.3.0 code, after its `patched()` gates); they are not part of the 0.1.0 set (replay.test.ts replays them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { dataConverter } from '../../src/platform/payload-codec';
import { PATCHES } from '../../src/shared/deployments';

const DIR = path.resolve(__dirname, '../../../test/replay/histories');

/** A history recorded by a version after 0.2.0 (`call-v030-squad-realtime.json`). */
const LATER_VERSION = /-v0[3-9]\d-/;

type History = { events?: Record<string, any>[] };

/** The patch ids whose markers a history holds (each marker's details payload, JSON `{"id",…}`). */
function patchMarkers(history: History): string[] {
  return (history.events ?? [])
    .map((e) => e.markerRecordedEventAttributes)
    .filter((m) => m?.markerName === 'core_patch')
    .flatMap((m) => Object.values(m.details as Record<string, { payloads?: { data: string }[] }>))
    .map((details) => {
      const text = Buffer.from(details.payloads?.[0]?.data ?? '', 'base64').toString('utf8');
      return (JSON.parse(text) as { id: string }).id;
    });
}

describe('replay across the 0.1.0 → 0.2.0 deployment boundary', function () {
  this.timeout(120_000);
  const recorded = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.json') && !LATER_VERSION.test(f))
    .sort()
    .map((f) => {
      const history = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as History;
      const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name as string;
      return { workflowId: `v010-${f.replace(/\.json$/, '')}`, history, type };
    });

  it('has 0.1.0 histories of every workflow kind that runs past a deploy, none with the 0.2.0 marker', () => {
    const kinds = new Set(recorded.map((r) => r.type));
    expect([...kinds]).to.include.members([
      'callWorkflow', // PINNED
      'conversationWorkflow', // PINNED, upgraded by continue-as-new
      'testSuiteRunWorkflow', // PINNED
      'bulkCallWorkflow', // AUTO_UPGRADE
      'callSlotsWorkflow',
      'webhookDeliveryWorkflow',
      'recordingWorkflow',
      'recordingRetentionWorkflow',
      'callAnalysisWorkflow',
      'retentionSweepWorkflow',
      'erasureWorkflow',
      'auditRetentionWorkflow',
    ]);
    for (const r of recorded) expect(patchMarkers(r.history), r.workflowId).to.not.include(PATCHES.callFinishedOnMemo);
  });

  it('replays the 0.1.0 histories and a 0.2.0 call on the 0.2.0 code; the new call carries the marker and the memo', async () => {
    const t = await newTenant();
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hello?', 'Yes, thanks. Bye.'] } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitForCall(t.testKey, res.body.id);
    const handle = h().env.client.workflow.getHandle(res.body.id);
    await handle.result();
    const history = await handle.fetchHistory();
    const json = JSON.parse(historyToJSON(history)) as History;
    expect(patchMarkers(json)).to.deep.equal([PATCHES.callFinishedOnMemo]);
    // The harness's worker is unversioned: the memo says so.
    const memo = (await handle.describe()).memo ?? {};
    expect(memo).to.have.property('deployment_version'); // null, which Temporal's payload converter reads back as undefined
    expect(memo.deployment_version ?? null).to.equal(null);

    const histories = [...recorded, { workflowId: 'v020-call', history, type: 'callWorkflow' }];
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: h().bundle, replayName: 'replay-versions', dataConverter },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
      replayed++;
    }
    expect(failures).to.deep.equal([]);
    expect(replayed).to.equal(histories.length);
  });
});
