/**
 * Records `bulkCallWorkflow` histories from real runs, for the replay tests (test/replay/replay.test.ts
 * replays every file and checks these are there). Starts the test harness (real Temporal dev server,
 * FerretDB, worker, API, fake LLM), runs one simulated campaign per scenario through the API, waits until
 * it is over, and writes the history of the run named below to
 * test/replay/histories/bulk-call-<scenario>.json:
 *
 *   completed      three contacts in one run: form filled, a busy contact redialed once, a no-answer
 *   continued      the first run of a campaign of five contacts in pages of two (ends ContinuedAsNew)
 *   paused-canceled  paused, resumed, then canceled with contacts still pending
 *   window-expired a window that is open now and an `ends_at` that comes before every contact is called
 *
 *   npm run record-histories   (records every workflow's histories; `-- NAME…` after the script for some)
 *
 * It records what the current code does. Until the first release no workflow runs in production, so the
 * workflow has no `patched()` gate and these files are simply recorded again after a change. From the
 * first release on, a change to the workflow gets its `patched(…)` gate, and its histories are recorded
 * under new names (e.g. `bulk-call-v2-<scenario>.json`: give `main` a version prefix) beside the old files,
 * which running workflows must still replay and which are never overwritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../../src/config';
import { h, newTenant, request, startHarness, stopHarness } from './harness';
import { createForm, phone, startCampaign, waitForCampaign } from './bulk-calls';

export const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

const fill = (fields: Record<string, unknown>) => `TOOL fill_form ${JSON.stringify({ fields })}`;

async function main(): Promise<void> {
  await startHarness();
  try {
    const t = await newTenant();
    const key = t.testKey;
    const formId = await createForm(key);
    const base = { agent_id: t.agentId, form_id: formId };
    let n = 0;
    const next = () => phone(500 + n++);

    const scenarios: Record<string, () => Promise<{ workflowId: string; runId?: string }>> = {
      completed: async () => {
        const c = await startCampaign(key, {
          ...base,
          contacts: [
            { phone: next(), simulation: { caller: [fill({ attending: true, party_size: 3 }), 'Bye'] } },
            { phone: next(), simulation: { outcome: 'busy' } },
            { phone: next(), simulation: { outcome: 'no_answer' } },
          ],
          retry: { max_attempts: 2, on: ['busy'], interval_seconds: 1 },
        });
        await waitForCampaign(key, c.id);
        return { workflowId: c.id };
      },
      continued: async () => {
        const saved = config();
        setConfig({ ...saved, bulkCallPageSize: 2 });
        try {
          const c = await startCampaign(key, {
            ...base,
            contacts: Array.from({ length: 5 }, () => next()),
            simulation: { caller: ['Bye'] },
          });
          await waitForCampaign(key, c.id);
          return { workflowId: c.id, runId: await firstRunId(c.id) };
        } finally {
          setConfig(saved);
        }
      },
      'paused-canceled': async () => {
        const c = await startCampaign(key, {
          ...base,
          contacts: Array.from({ length: 6 }, () => next()),
          max_concurrency: 1,
          simulation: { caller: ['One', 'Two'], pause_seconds: 1 },
        });
        const act = async (action: string) => {
          const res = await request('POST', `/v1/bulk-calls/${c.id}/${action}`, { key });
          if (res.status !== 200) throw new Error(`${action}: ${JSON.stringify(res.body)}`);
        };
        await act('pause');
        await act('resume');
        await waitForCampaign(key, c.id, (x) => x.counts.completed >= 1);
        await act('cancel');
        await waitForCampaign(key, c.id);
        return { workflowId: c.id };
      },
      'window-expired': async () => {
        const c = await startCampaign(key, {
          ...base,
          contacts: Array.from({ length: 4 }, () => next()),
          max_concurrency: 1,
          simulation: { caller: ['One'], pause_seconds: 1 },
          schedule: {
            window: { start: '00:00', end: '23:59' },
            timezone: 'UTC',
            ends_at: Math.floor(Date.now() / 1000) + 3,
          },
        });
        await waitForCampaign(key, c.id);
        return { workflowId: c.id };
      },
    };

    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    const only = process.argv.slice(2);
    for (const [name, run] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      const { workflowId, runId } = await run();
      const history = JSON.parse(
        historyToJSON(await h().env.client.workflow.getHandle(workflowId, runId).fetchHistory()),
      );
      const file = path.join(HISTORIES_DIR, `bulk-call-${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(`${name}: ${workflowId}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`);
    }
  } finally {
    await stopHarness();
  }
}

/** The run id of a workflow's first run (its earliest execution in visibility). */
async function firstRunId(workflowId: string): Promise<string> {
  const runs: { runId: string; startTime: Date }[] = [];
  for await (const run of h().env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
  runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  if (runs.length < 2) throw new Error(`${workflowId} did not continue as new (${runs.length} run)`);
  return runs[0].runId;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
