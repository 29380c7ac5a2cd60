/**
 * Records the histories of the recording path, for the replay tests
 * (test/replay/replay.test.ts replays every file and checks these are there). Starts the test harness
 * and a fake Twilio, and writes to test/replay/histories/:
 *
 *   call-recorded.json          a recorded test-mode call's `callWorkflow` (it starts its recording child)
 *   recording-synthesized.json  that call's `recordingWorkflow` (audio synthesized from the transcript)
 *   recording-twilio.json       a live call's `recordingWorkflow` (copied from Twilio, deleted there)
 *   recording-retention.json    `recordingRetentionWorkflow` deleting it past the retention (injected clock)
 *
 *   npm run build && node dist/test/support/record-recording-histories.js
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../../src/config';
import { synthesizedWav } from '../../src/services/recording-audio';
import { setRecordingRetention } from '../../src/services/recordings';
import {
  RECORDING_RETENTION_WORKFLOW,
  recordingWorkflowId,
  type RecordingRetentionWorkflow,
} from '../../src/shared/recordings';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';
import { postAsTwilio, startFakeTwilio } from './fake-twilio';
import { verifiedCallerId } from './fake-twilio-numbers';
import { eventually } from './webhooks';

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
  const fake = await startFakeTwilio();
  setConfig({
    ...config(),
    publicBaseUrl: h().api.url,
    twilioAccountSid: fake.accountSid,
    twilioAuthToken: fake.authToken,
    twilioApiBaseUrl: fake.url,
  });
  try {
    const recording = { enabled: true, notice: 'This call is recorded.' };
    const t = await newTenant({ first_message: 'Hello.', recording });
    const test = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hi.', 'Bye.'], pause_seconds: 1 } },
    });
    await waitForCall(t.testKey, test.body.id);
    await write('call-recorded', test.body.id);
    await write('recording-synthesized', recordingWorkflowId(test.body.id));

    await verifiedCallerId(fake, t.liveKey);
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live', instructions: 'Be brief.', recording },
    });
    const live = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: agent.body.id },
    });
    const id = live.body.id as string;
    await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
    const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
    const post = (p: string, params: Record<string, string>) => postAsTwilio(fake, p, params);
    await post(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    await post(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
    await waitForCall(t.liveKey, id);
    const recordingSid = 'RE' + 'abcdef0123456789'.repeat(2);
    fake.recordings.set(
      recordingSid,
      Buffer.concat([...synthesizedWav(2000, [{ startMs: 0, endMs: 1000, channel: 0 }])]),
    );
    await post(`/twilio/recording/${id}`, {
      CallSid: sid,
      RecordingSid: recordingSid,
      RecordingStatus: 'completed',
      RecordingDuration: '2',
    });
    await eventually(async () => fake.deletedRecordings.includes(recordingSid), "Twilio's copy deleted");
    await write('recording-twilio', recordingWorkflowId(id));

    await setRecordingRetention(t.orgId, 1);
    const retentionId = `recording-retention-recorded-${Date.now()}`;
    await h().env.client.workflow.start<RecordingRetentionWorkflow>(RECORDING_RETENTION_WORKFLOW, {
      workflowId: retentionId,
      taskQueue: h().taskQueue,
      args: [{ nowMs: Date.now() + 2 * 86_400_000 }],
    });
    await write('recording-retention', retentionId);
  } finally {
    await fake.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
