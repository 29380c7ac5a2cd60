/**
 * Records `callWorkflow` histories from real runs, for the replay tests (test/replay/replay.test.ts).
 * Starts the same harness as the tests (real Temporal dev server and FerretDB), drives one call per way a
 * call can end through the API, and writes each history as JSON to
 * test/replay/histories/call-<name>.json (call-<VERSION>-<name>.json once VERSION is set).
 *
 *   npm run record-histories                                      # every scenario
 *   npm run build && node dist/test/support/record-histories.js api-   # only the scenarios named api-…
 *
 * (`npm run record-histories -- api-` would hand the prefix to the last of its recorders only.)
 * It records what the current code does. Before the first release (now) there is no running workflow to
 * protect: a change to the workflow simply re-records these files. From the first release on (README,
 * "Changing a workflow"), a change gets a `patched(…)` gate, VERSION is raised (`v2`, `v3`, …) and the
 * new files are recorded beside the old ones, which are never overwritten: running workflows must still
 * replay them.
 * For a call that continued as new, the first run's history is written (the one that decided to).
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';
import { startHttpsReceiver, type HttpsReceiver } from './https-receiver';

/** The workflow version the current code records (see the header): none before the first release. */
const VERSION: string | null = null;

export const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

/**
 * Http tools of the tenant answering from `receiver` (issue 27): `lookup_order` (200 JSON),
 * `flaky_lookup` (503 twice, then 200), `missing_lookup` (404), `slow_lookup` (1.5 s, with
 * `speak_while_running`); answers their ids. Shared by the call and conversation recorders.
 */
export async function recordedTools(key: string, receiver: HttpsReceiver): Promise<string[]> {
  const parameters = {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^[A-Z][0-9]+$' } },
    required: ['order_id'],
  };
  receiver.route('/lookup', (req) => ({ status: 200, body: JSON.stringify({ order: req.body?.arguments?.order_id }) }));
  receiver.route('/flaky', (_req, n) => (n % 3 === 0 ? { status: 200, body: 'found' } : { status: 503 }));
  receiver.route('/missing', () => ({ status: 404, body: '{"error":"no such order"}' }));
  receiver.route('/slow', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    return { status: 200, body: 'slow but found' };
  });
  const ids: string[] = [];
  for (const [name, pathname, extra] of [
    ['lookup_order', '/lookup', {}],
    ['flaky_lookup', '/flaky', { timeout_ms: 10_000 }],
    ['missing_lookup', '/missing', {}],
    ['slow_lookup', '/slow', { speak_while_running: 'Let me check that for you.' }],
  ] as const) {
    const res = await request('POST', '/v1/tools', {
      key,
      body: { type: 'http', name, description: `${name}.`, parameters, url: receiver.url(pathname), ...extra },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids.push(res.body.id);
  }
  return ids;
}

async function main(): Promise<void> {
  await startHarness();
  const receiver = await startHttpsReceiver();
  try {
    const t = await newTenant({ first_message: 'Hello, this is a recorded call.', transfer_to: '+14155550199' });
    const place = async (body: Record<string, unknown>) => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, metadata: { recorded: 'yes' }, ...body },
      });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      return res.body.id as string;
    };
    const scenarios: Record<string, () => Promise<string>> = {
      'assistant-ended': async () =>
        place({
          context: { name: 'Ana' },
          simulation: { caller: ['Hi', 'TOOL transfer_call {"to":"nowhere"}', 'TOOL end_call {}'] },
        }),
      'caller-hung-up': async () => place({ simulation: { caller: ['One', 'Two', 'Three'] } }),
      'tool-transfer': async () => place({ simulation: { caller: ['TOOL transfer_call {}'] } }),
      busy: async () => place({ simulation: { outcome: 'busy' } }),
      'no-answer': async () => place({ simulation: { outcome: 'no_answer', ring_seconds: 1 } }),
      'max-duration': async () =>
        place({ max_duration_seconds: 2, simulation: { caller: Array(10).fill('talking'), pause_seconds: 1 } }),
      'llm-failed': async () => place({ simulation: { caller: ['FAIL 400'] } }),
      'deadline-failed': async () => place({ simulation: { caller: ['SLOW 10000'] } }),
      'api-end': async () => {
        const id = await place({ simulation: { caller: ['a', 'b', 'c'], pause_seconds: 5 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        await request('POST', `/v1/calls/${id}/end`, { key: t.testKey });
        return id;
      },
      // A run holds at most 500 local turns: 260 exchanges cross it.
      'api-transfer': async () => {
        const id = await place({ simulation: { caller: ['a', 'b', 'c'], pause_seconds: 5 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        await request('POST', `/v1/calls/${id}/transfer`, { key: t.testKey, body: { to: '+14155550100' } });
        return id;
      },
      'search-knowledge': async () => {
        const doc = await request('POST', '/v1/knowledge', {
          key: t.testKey,
          body: {
            agent_id: t.agentId,
            title: 'Refunds',
            text: 'Bicycles may be returned within 45 days for a full refund.',
          },
        });
        if (doc.status !== 200) throw new Error(JSON.stringify(doc.body));
        await request('POST', '/v1/contacts', {
          key: t.testKey,
          body: { phone: '+14155550124', name: 'Recorded Contact' },
        });
        await request('POST', '/v1/records', {
          key: t.testKey,
          body: { contact: { phone: '+14155550124' }, records: [{ text: 'Bought a bicycle.' }] },
        });
        return place({
          to: '+14155550124',
          simulation: {
            caller: [
              'Can I return my bicycle?',
              'TOOLONCE search_knowledge {"query":"refund days"}',
              'TOOL end_call {}',
            ],
          },
        });
      },
      'canceled-while-ringing': async () => {
        const id = await place({ simulation: { ring_seconds: 30 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'ringing');
        await request('POST', `/v1/calls/${id}/end`, { key: t.testKey });
        return id;
      },
      'continued-as-new': async () =>
        place({ simulation: { caller: Array.from({ length: 260 }, (_, i) => `line ${i}`) } }),
      // The organization's tools (issue 27): an http tool answering, one retried after a 503, one refused
      // (404), arguments refused before any request, a slow one said `speak_while_running` for, and two
      // called at once.
      'custom-tools': async () => {
        const agent = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: {
            name: 'Agent with tools',
            instructions: 'You look up orders.',
            tool_ids: await recordedTools(t.testKey, receiver),
          },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        const agentId = agent.body.id as string;
        return place({
          agent_id: agentId,
          simulation: {
            caller: [
              'TOOLONCE lookup_order {"order_id":"A1"}',
              'TOOLONCE flaky_lookup {"order_id":"A2"}',
              'TOOLONCE missing_lookup {"order_id":"A3"}',
              'TOOLONCE lookup_order {"order_id":"bad"}',
              'TOOLONCE slow_lookup {"order_id":"A4"}',
              'TOOLSONCE [["lookup_order",{"order_id":"A5"}],["slow_lookup",{"order_id":"A6"}]]',
            ],
          },
        });
      },
    };
    const only = process.argv[2] ?? '';
    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const [name, run] of Object.entries(scenarios)) {
      if (!name.startsWith(only)) continue;
      const id = await run();
      const call = await waitForCall(t.testKey, id, undefined, 120_000);
      let handle = h().env.client.workflow.getHandle(id);
      await handle.result();
      for await (const r of h().env.client.workflow.list({
        query: `WorkflowId = '${id}' AND ExecutionStatus = 'ContinuedAsNew'`,
      })) {
        handle = h().env.client.workflow.getHandle(id, r.runId); // the (last) run that continued as new
      }
      // proto3 JSON, the form Worker.runReplayHistories reads (as `temporal workflow show --output json`).
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.join(HISTORIES_DIR, `call-${VERSION ? `${VERSION}-` : ''}${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(
        `${name}: ${id} ended ${call.status}/${call.end_reason}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`,
      );
    }
  } finally {
    await receiver.close();
    await stopHarness();
  }
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
