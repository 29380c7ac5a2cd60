/**
 * Calls ended by the reconciler get their analysis: a call whose `callWorkflow` run an operator
 * terminated mid-call is ended by `callReconcilerWorkflow` (`failed`, `error`), and its plan runs on what
 * was said before, as for a call that ended on its own (src/activities/calls.ts `reconcileCalls` →
 * src/services/analysis.ts `startEndedCallAnalysis`); a second pass starts no second analysis.
 */
import { expect } from 'chai';
import { Analysis } from '../../src/models/analyses';
import { CallTurn } from '../../src/models/calls';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually, sleep } from '../support/webhooks';

const PLAN = {
  summary: true,
  success_evaluation: { rubric: 'The caller confirmed the appointment.', scale: 'pass_fail' },
};

describe('call analysis of calls ended by the reconciler', function () {
  this.timeout(120_000);

  it('analyses a call whose workflow was terminated mid-call once the reconciler ends it, once', async () => {
    const t = await newTenant({ analysis: PLAN });
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        // The assistant's second answer takes 6 s: the operator terminates the run while it waits.
        simulation: { caller: ['Yes, Thursday works.', 'SLOW 6000', 'Bye!'] },
      },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const id = placed.body.id as string;
    await eventually(async () => CallTurn.exists({ call_id: id, role: 'caller' }), 'a caller turn stored', 10_000);
    await eventually(
      async () => h().llm.requests.some((r) => r.user === id && r.messages.at(-1)?.content === 'SLOW 6000'),
      'the second turn asked',
    );
    await h().env.client.workflow.getHandle(id).terminate('operator test');
    await h().env.client.schedule.getHandle('call-reconciler').trigger();
    const ended = await waitForCall(t.testKey, id, undefined, 30_000);
    expect(ended).to.include({ status: 'failed', end_reason: 'error' });

    const call = await waitForCall(t.testKey, id, (c) => c.analysis?.status === 'completed', 30_000);
    expect(call.analysis).to.include({ object: 'analysis', call_id: id });
    expect(call.analysis.summary).to.equal('The caller said: Yes, Thursday works.');

    // Another pass over the same run finds the analysis started: still one.
    await h().env.client.schedule.getHandle('call-reconciler').trigger();
    await sleep(2000);
    expect(await Analysis.countDocuments({ subject_id: id })).to.equal(1);
  });
});
