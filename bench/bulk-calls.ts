/**
 * Bulk campaign benchmark (not a timed test): one test-mode campaign of BENCH_CONTACTS contacts whose calls
 * end at once (`simulation: {outcome: "no_answer", ring_seconds: 0}`), run by a separate worker process
 * (its own task queue) against the test harness's real Temporal dev server and FerretDB. Prints:
 *
 *   - `POST /v1/bulk-calls` time for the whole contact list (validation, result rows, workflow start)
 *   - contacts finished per second, from creation to `completed`
 *   - the worker process's resident memory (RSS) after the campaign started, at its end, the peak
 *     (sampled every second), and when each tenth of the contacts has finished: flat when continue-as-new
 *     keeps each run's state to one page
 *   - the campaign's runs (continue-as-new per page) and its largest run history (events and bytes)
 *
 * Bounded: BENCH_CONTACTS (default 10000, at most 10000), BENCH_CONCURRENCY (the campaign's
 * `max_concurrency`, default 50), BENCH_TIMEOUT_MS (default 7200000: two hours). Loopback only.
 *
 *   npm run bench:bulk-calls
 *   BENCH_CONTACTS=1000 node dist/bench/bulk-calls.js
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../src/config';
import {
  h,
  newTenant,
  request,
  startHarness,
  startWorkerProcess,
  stopHarness,
  stopWorkerProcess,
} from '../test/support/harness';
import { campaignOver, createForm, waitForCampaign } from '../test/support/bulk-calls';
import { rssMiB } from './stats';
import { setOrgCallLimit } from '../src/services/limits';

async function main(): Promise<void> {
  const total = Math.min(10_000, Math.max(1, Number(process.env.BENCH_CONTACTS ?? 10_000)));
  const concurrency = Math.min(50, Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 50)));
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 7_200_000);
  await startHarness();
  const queue = `svc-bench-bulk-${crypto.randomBytes(4).toString('hex')}`;
  const saved = config();
  setConfig({ ...saved, taskQueue: queue });
  let child: ChildProcess | undefined;
  try {
    child = await startWorkerProcess(queue);
    const t = await newTenant();
    // The orchestration is measured, not the organization's line: a limit no run reaches.
    await setOrgCallLimit(t.orgId, 'test', 1000);
    const formId = await createForm(t.testKey);
    // +1 212 555 0000…9999: 10,000 distinct valid numbers.
    const contacts = Array.from({ length: total }, (_, i) => `+1212555${String(i).padStart(4, '0')}`);
    const t0 = performance.now();
    const res = await request('POST', '/v1/bulk-calls', {
      key: t.testKey,
      body: {
        agent_id: t.agentId,
        form_id: formId,
        contacts,
        max_concurrency: concurrency,
        simulation: { outcome: 'no_answer', ring_seconds: 0 },
      },
    });
    const postMs = performance.now() - t0;
    if (res.status !== 200) throw new Error(`POST /v1/bulk-calls answered ${res.status}: ${JSON.stringify(res.body)}`);
    const id = res.body.id as string;
    const pid = child.pid!;
    const rssStart = rssMiB(pid);
    let rssPeak = rssStart;
    const sampler = setInterval(() => {
      try {
        rssPeak = Math.max(rssPeak, rssMiB(pid));
      } catch {
        // the process is gone: the campaign wait below fails on its own
      }
    }, 1000);
    // RSS when each tenth of the contacts has finished: flat when nothing accumulates across pages.
    const byTenth: number[] = [];
    const finishedOf = (c: { counts: Record<string, number> }) =>
      c.counts.completed + c.counts.not_reached + c.counts.failed + c.counts.skipped;
    const done = await waitForCampaign(
      t.testKey,
      id,
      (c) => {
        while (byTenth.length < 10 && finishedOf(c) >= ((byTenth.length + 1) * total) / 10) byTenth.push(rssMiB(pid));
        return campaignOver(c);
      },
      timeoutMs,
    );
    clearInterval(sampler);
    const elapsedS = (performance.now() - t0) / 1000;
    const rssEnd = rssMiB(pid);

    let runs = 0;
    let largestEvents = 0;
    let largestBytes = 0;
    for await (const run of h().env.client.workflow.list({ query: `WorkflowId = '${id}'` })) {
      runs++;
      const history = await h().env.client.workflow.getHandle(id, run.runId).fetchHistory();
      largestEvents = Math.max(largestEvents, history.events?.length ?? 0);
      largestBytes = Math.max(largestBytes, Buffer.byteLength(historyToJSON(history)));
    }
    const finished = finishedOf(done);
    console.log(`bulk campaign benchmark: ${total} contacts, max_concurrency ${concurrency}, instant outcomes`);
    console.log(`  POST /v1/bulk-calls:      ${Math.round(postMs)} ms for ${total} contacts`);
    console.log(
      `  campaign:                 ${done.status} in ${elapsedS.toFixed(1)} s, ${(finished / elapsedS).toFixed(1)} contacts/s (${finished} finished)`,
    );
    console.log(`  worker RSS:               start ${rssStart} MiB, end ${rssEnd} MiB, peak ${rssPeak} MiB`);
    console.log(`  worker RSS at 10%..100%:  ${byTenth.join(', ')} MiB`);
    console.log(
      `  workflow runs:            ${runs} (continue-as-new per page of ${saved.bulkCallPageSize}); largest history ${largestEvents} events, ${(largestBytes / 1024).toFixed(0)} KiB`,
    );
  } finally {
    setConfig(saved);
    await stopWorkerProcess(child, 'SIGTERM');
    await stopHarness();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
