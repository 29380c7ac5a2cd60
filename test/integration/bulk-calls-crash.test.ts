/**
 * A worker process killed twice (SIGKILL, no clean shutdown) in the middle of a 200-contact campaign, with
 * several pages (continue-as-new), redials and form filling in flight: every contact is called exactly as
 * the rules say, none twice, none skipped, and every event exists once.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { BulkCallResult } from '../../src/models/bulk-calls';
import { newTenant, request, startWorkerProcess, stopWorkerProcess } from '../support/harness';
import { allResults, campaignCalls, createForm, phone, startCampaign, waitForCampaign } from '../support/bulk-calls';

/** Rows of the campaign that have a final status (the store, as the API reads it). */
async function finalRows(bulkCallId: string): Promise<number> {
  return BulkCallResult.countDocuments({ bulk_call_id: bulkCallId, status: { $nin: ['pending', 'in_progress'] } });
}

async function waitUntil(what: string, test: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a worker killed during a bulk campaign', function () {
  this.timeout(600_000);
  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('calls each of 200 contacts exactly as the rules say across two crashes, none twice, none skipped', async () => {
    const queue = `svc-test-bulk-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    // Campaigns and their calls run on the child process's queue only; pages of 40 contacts, so the
    // campaign continues as new several times while the worker is killed.
    setConfig({ ...saved, taskQueue: queue, bulkCallPageSize: 40 });
    try {
      // A call whose assistant stays silent past its turn deadline ends `failed` (the call core's rule),
      // and a killed worker is silent; this test is about the campaign, so the deadline is out of reach.
      const workerEnv = { CALL_TURN_DEADLINE_MS: '300000' };
      child = await startWorkerProcess(queue, workerEnv);
      const t = await newTenant();
      const formId = await createForm(t.testKey);
      const total = 200;
      // Every 10th contact is busy on every attempt (redialed once: 2 calls), every 25th has no answer
      // (not redialed: `no_answer` is not in `retry.on`), the others answer and fill the form.
      const contacts = Array.from({ length: total }, (_, i) => ({
        phone: phone(i),
        external_id: `crash-${i}`,
        simulation:
          i % 10 === 0
            ? { outcome: 'busy' }
            : i % 25 === 0
              ? { outcome: 'no_answer' }
              : {
                  caller: [`TOOL fill_form {"fields":{"attending":true,"party_size":${i}}}`, 'Bye'],
                  pause_seconds: 0.2,
                },
      }));
      const campaign = await startCampaign(t.testKey, {
        agent_id: t.agentId,
        form_id: formId,
        contacts,
        max_concurrency: 8,
        retry: { max_attempts: 2, on: ['busy'], interval_seconds: 1 },
        metadata: { crash: 'bulk' },
      });

      for (const after of [30, 110]) {
        await waitUntil(`${after} final results`, async () => (await finalRows(campaign.id)) >= after, 240_000);
        await stopWorkerProcess(child, 'SIGKILL');
        await new Promise((r) => setTimeout(r, 1500)); // calls and timers come due while no worker runs
        child = await startWorkerProcess(queue, workerEnv);
      }
      const done = await waitForCampaign(t.testKey, campaign.id, undefined, 300_000);

      const busy = contacts.filter((_, i) => i % 10 === 0).length; // 20
      const noAnswer = contacts.filter((_, i) => i % 10 !== 0 && i % 25 === 0).length; // 4
      expect(done.status).to.equal('completed');
      const failed = (await allResults(t.testKey, campaign.id)).filter((r) => r.status === 'failed');
      const why = await Promise.all(
        failed
          .flatMap((r) => r.call_ids)
          .map(async (id: string) => (await request('GET', `/v1/calls/${id}`, { key: t.testKey })).body),
      );
      expect(done.counts, JSON.stringify(why.map((c) => [c.id, c.status, c.end_reason, c.error]))).to.deep.equal({
        total,
        pending: 0,
        in_progress: 0,
        completed: total - busy - noAnswer,
        not_reached: busy + noAnswer,
        failed: 0,
        skipped: 0,
      });

      const results = await allResults(t.testKey, campaign.id);
      expect(results.map((r) => r.index)).to.deep.equal(contacts.map((_, i) => i));
      for (const r of results) {
        const i = r.index as number;
        const expected =
          i % 10 === 0
            ? { status: 'busy', attempts: 2 }
            : i % 25 === 0
              ? { status: 'no_answer', attempts: 1 }
              : { status: 'completed', attempts: 1 };
        expect({ status: r.status, attempts: r.attempts }, `contact ${i}`).to.deep.equal(expected);
        expect(r.call_ids, `contact ${i}`).to.have.length(expected.attempts);
        if (expected.status === 'completed')
          expect(r.form, `contact ${i}`).to.deep.equal({ attending: true, party_size: i });
      }

      // Calls: exactly one per attempt, to the right number, none twice.
      const calls = await campaignCalls(t.testKey, campaign.id);
      expect(calls).to.have.length(total + busy);
      expect(new Set(calls.map((c) => c.id)).size).to.equal(calls.length);
      const byContact = new Map<string, number>();
      for (const c of calls) byContact.set(c.to, (byContact.get(c.to) ?? 0) + 1);
      for (const [i, c] of contacts.entries()) {
        expect(byContact.get(c.phone), `calls to contact ${i}`).to.equal(i % 10 === 0 ? 2 : 1);
      }
      expect(new Set(results.flatMap((r) => r.call_ids))).to.deep.equal(new Set(calls.map((c) => c.id)));

      // Events: one `call.ended` per call, one `bulk_call.contact_completed` per contact, one `bulk_call.completed`.
      const events: any[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await request('GET', `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`, {
          key: t.testKey,
        });
        events.push(...page.body.data);
        if (!page.body.has_more) break;
        after = page.body.data[page.body.data.length - 1].id;
      }
      const ofType = (type: string) => events.filter((e) => e.type === type);
      const ended = ofType('call.ended').map((e) => e.data.object.id);
      expect(ended).to.have.length(calls.length);
      expect(new Set(ended).size).to.equal(calls.length);
      const perContact = ofType('bulk_call.contact_completed').map((e) => e.data.object.index);
      expect(perContact.sort((a, b) => a - b)).to.deep.equal(contacts.map((_, i) => i));
      expect(ofType('bulk_call.completed').map((e) => e.data.object.id)).to.deep.equal([campaign.id]);
      expect(ofType('call.ended').every((e) => e.data.object.metadata.crash === 'bulk')).to.equal(true);
    } finally {
      setConfig(saved);
    }
  });
});
