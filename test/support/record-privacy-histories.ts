/**
 * Records the histories of the privacy workflows, for the replay tests
 * (test/replay/replay.test.ts replays every file and checks these are there). Starts the test harness and
 * writes to test/replay/histories/:
 *
 *   retention-sweep.json   `retentionSweepWorkflow` deleting a call's transcript and a conversation's
 *                          messages past the retention (injected clock, batches of one document)
 *   erasure.json           `erasureWorkflow` of a contact with a call and a WhatsApp conversation
 *
 *   npm run build && node dist/test/support/record-privacy-histories.js
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { RETENTION_SWEEP_WORKFLOW, type RetentionSweepWorkflow } from '../../src/shared/privacy';
import { customerNumber, eventually, inbound, waitForMessages } from './conversations';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';

const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

/** Writes the history of workflow `workflowId` (once it has closed) as `<name>.json`. */
async function write(name: string, workflowId: string): Promise<void> {
  const handle = h().env.client.workflow.getHandle(workflowId);
  await handle.result();
  const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), JSON.stringify(history, null, 1) + '\n');
  console.log(`recorded ${name}.json`);
}

async function main(): Promise<void> {
  await startHarness();
  try {
    const t = await newTenant();
    const phone = customerNumber();
    await request('POST', '/v1/contacts', { key: t.testKey, body: { phone, name: 'Recorded Person' } });
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: phone, agent_id: t.agentId, simulation: { caller: ['Hi.', 'Bye.'] } },
    });
    await waitForCall(t.testKey, call.body.id);
    const msg = await inbound(t.testKey, { channel: 'whatsapp', from: phone, text: 'Hello' });
    await waitForMessages(t.testKey, msg.body.conversation_id, 1, (m) => m.author === 'assistant');

    const other = await newTenant();
    const old = await request('POST', '/v1/calls', {
      key: other.testKey,
      body: { to: customerNumber(), agent_id: other.agentId, simulation: { caller: ['Hi.'] } },
    });
    await waitForCall(other.testKey, old.body.id);
    const oldMsg = await inbound(other.testKey, { channel: 'sms', from: customerNumber(), text: 'Old' });
    await waitForMessages(other.testKey, oldMsg.body.conversation_id, 1, (m) => m.author === 'assistant');
    await request('POST', '/v1/account', {
      key: other.testKey,
      body: { retention: { transcripts_days: 1, messages_days: 1 } },
    });
    const sweepId = `retention-sweep-recorded-${Date.now()}`;
    await h().env.client.workflow.start<RetentionSweepWorkflow>(RETENTION_SWEEP_WORKFLOW, {
      workflowId: sweepId,
      taskQueue: h().taskQueue,
      args: [{ nowMs: Date.now() + 2 * 86_400_000, batchLimit: 1 }],
    });
    await write('retention-sweep', sweepId);

    const contacts = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key: t.testKey });
    const del = await request('DELETE', `/v1/contacts/${contacts.body.data[0].id}`, { key: t.testKey });
    await eventually(async () => {
      const r = await request('GET', `/v1/erasures/${del.body.erasure}`, { key: t.testKey });
      return r.body.status === 'completed';
    }, 'erasure completed');
    await write('erasure', del.body.erasure);
  } finally {
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
