/**
 * Retention, with injected time: the sweep (`retentionSweepWorkflow`, run here with a
 * later clock) deletes what is older than each kind's days — transcript turns, messages, recordings,
 * analyses, events — and leaves what is newer; calls stay as skeletons and usage totals do not change; a
 * worker killed between batches resumes without counting anything twice.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Analysis } from '../../src/models/analyses';
import { CallTurn } from '../../src/models/calls';
import { Message } from '../../src/models/conversations';
import { Event } from '../../src/models/events';
import { Recording, recordingIdOf } from '../../src/models/recordings';
import {
  RETENTION_SWEEP_SCHEDULE_ID,
  RETENTION_SWEEP_WORKFLOW,
  type RetentionSweepInput,
  type RetentionSweepWorkflow,
} from '../../src/shared/privacy';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';
import {
  externalServers,
  h,
  newTenant,
  request,
  startWorkerProcess,
  stopWorkerProcess,
  waitForCall,
} from '../support/harness';
import { captureQueries, checkShapes } from '../support/query-shapes';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const DAY = 86_400_000;

/** Runs one sweep with the clock at `nowMs` on `taskQueue` (default: the harness's worker). */
function sweep(input: RetentionSweepInput, taskQueue = h().taskQueue) {
  return h().env.client.workflow.start<RetentionSweepWorkflow>(RETENTION_SWEEP_WORKFLOW, {
    workflowId: `retention-test-${crypto.randomBytes(4).toString('hex')}`,
    taskQueue,
    args: [input],
  });
}

/** A simulated call to a fresh number, ended; and a WhatsApp exchange with another. */
async function someData(t: Tenant) {
  const placed = await request('POST', '/v1/calls', {
    key: t.testKey,
    body: {
      to: customerNumber(),
      agent_id: t.agentId,
      context: { note: 'private' },
      simulation: { caller: ['Hi.', 'Bye.'] },
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
  const call = await waitForCall(t.testKey, placed.body.id);
  const msg = await inbound(t.testKey, { channel: 'whatsapp', from: customerNumber(), text: 'Hello' });
  await waitForMessages(t.testKey, msg.body.conversation_id, 1, (m) => m.author === 'assistant');
  return { call, conversationId: msg.body.conversation_id as string };
}

const setRetention = async (t: Tenant, retention: Record<string, number | null>) => {
  const res = await request('POST', '/v1/account', { key: t.testKey, body: { retention } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
};

describe('retention', function () {
  this.timeout(240_000);

  it('deletes what is past each kind’s days, keeps what is newer, leaves skeletons and usage totals', async () => {
    const t = await newTenant({ recording: { enabled: true }, analysis: { summary: true } });
    const { call, conversationId } = await someData(t);
    await eventually(async () => (await Recording.findById(recordingIdOf(call.id)).lean()) !== null, 'recording');
    await eventually(async () => (await Analysis.countDocuments({ subject_id: call.id })) > 0, 'analysis');
    // Transcripts, recordings, analyses and events after 30 days; messages after 90.
    await setRetention(t, {
      transcripts_days: 30,
      recordings_days: 30,
      analyses_days: 30,
      events_days: 30,
      messages_days: 90,
    });
    const usageBefore = (await request('GET', '/v1/usage', { key: t.testKey })).body.totals;
    expect(await CallTurn.countDocuments({ call_id: call.id })).to.be.greaterThan(0);
    // The events so far, by id: one more may still come (an analysis or a delivery finishing), which is no
    // business of the sweep's.
    const eventIds = (await Event.find({ org_id: t.orgId, livemode: false }).select({ _id: 1 }).lean()).map(
      (e) => e._id,
    );
    const events = eventIds.length;
    expect(events).to.be.greaterThan(0);

    // Ten days on: nothing has expired.
    const early = await (await sweep({ nowMs: Date.now() + 10 * DAY })).result();
    expect(await CallTurn.countDocuments({ call_id: call.id })).to.be.greaterThan(0);
    expect(await Event.countDocuments({ _id: { $in: eventIds } })).to.equal(events);
    expect(early.deleted).to.be.an('object');

    // Thirty-one days on: transcripts, recordings, analyses and events go; messages (90 days) stay.
    const turns = await CallTurn.countDocuments({ call_id: call.id });
    const late = (await (await sweep({ nowMs: Date.now() + 31 * DAY })).result()).deleted;
    expect(late.transcript_turns).to.be.at.least(turns);
    expect(late.recordings).to.be.at.least(1);
    expect(late.analyses).to.be.at.least(1);
    expect(late.events).to.be.at.least(events);
    expect(late.skeletons).to.be.at.least(1);
    expect(await CallTurn.countDocuments({ call_id: call.id })).to.equal(0);
    expect(await Analysis.countDocuments({ subject_id: call.id })).to.equal(0);
    expect((await Recording.findById(recordingIdOf(call.id)).lean())?.deleted_ms).to.be.a('number');
    expect(
      await Event.countDocuments({ org_id: t.orgId, livemode: false, created: { $lt: Math.floor(Date.now() / 1000) } }),
    ).to.equal(0);
    expect(await Message.countDocuments({ conversation_id: conversationId })).to.be.at.least(2);
    // The skeleton: id, status, direction, duration stay; the context is gone; the transcript is empty.
    const skeleton = (await request('GET', `/v1/calls/${call.id}`, { key: t.testKey })).body;
    expect(skeleton).to.include({
      id: call.id,
      status: call.status,
      direction: call.direction,
      duration_seconds: call.duration_seconds,
    });
    expect(skeleton.context).to.deep.equal({});
    const transcript = await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey });
    expect(transcript.body.turns ?? []).to.deep.equal([]);
    // Usage is computed from usage rows, which retention never touches.
    expect((await request('GET', '/v1/usage', { key: t.testKey })).body.totals).to.deep.equal(usageBefore);

    // Ninety-one days on: the messages go too, and the conversation stays.
    const msgs = (await (await sweep({ nowMs: Date.now() + 91 * DAY })).result()).deleted.messages;
    expect(msgs).to.be.at.least(2);
    expect(await Message.countDocuments({ conversation_id: conversationId })).to.equal(0);
    expect((await request('GET', `/v1/conversations/${conversationId}`, { key: t.testKey })).status).to.equal(200);
    // The schedule exists (workers create it).
    const schedule = await h().env.client.schedule.getHandle(RETENTION_SWEEP_SCHEDULE_ID).describe();
    expect(schedule.action).to.include({ workflowType: RETENTION_SWEEP_WORKFLOW });
  });

  describe('a worker killed between batches', () => {
    let child: ChildProcess | undefined;
    afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

    it('resumes where the store stands and counts each deletion once', async () => {
      const t = await newTenant();
      const data = [await someData(t), await someData(t), await someData(t)];
      await setRetention(t, { transcripts_days: 1, messages_days: 1 });
      let turns = 0;
      for (const d of data) turns += await CallTurn.countDocuments({ call_id: d.call.id });
      let messages = 0;
      for (const d of data) messages += await Message.countDocuments({ conversation_id: d.conversationId });
      const queue = `svc-test-retention-crash-${crypto.randomBytes(4).toString('hex')}`;
      child = await startWorkerProcess(queue);
      // One document per batch: three calls, then each message, each its own activity.
      const handle = await sweep({ nowMs: Date.now() + 2 * DAY, batchLimit: 1 }, queue);
      await eventually(
        async () => {
          const history = await handle.fetchHistory();
          return (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes).length >= 3;
        },
        'three batches done',
        60_000,
      );
      await stopWorkerProcess(child, 'SIGKILL');
      child = await startWorkerProcess(queue);
      const { deleted } = await handle.result();
      // Other tenants of this file already swept at +2 days hold nothing older; this one's counts are exact.
      expect(deleted.transcript_turns).to.equal(turns);
      expect(deleted.messages).to.equal(messages);
      for (const d of data) {
        expect(await CallTurn.countDocuments({ call_id: d.call.id })).to.equal(0);
        expect(await Message.countDocuments({ conversation_id: d.conversationId })).to.equal(0);
      }
    });
  });

  it('reads every kind by an index of the tenant, never the whole messages table', async () => {
    const t = await newTenant();
    const { conversationId } = await someData(t);
    await setRetention(t, { transcripts_days: 1, messages_days: 1, analyses_days: 1, events_days: 1 });
    const capture = captureQueries();
    let deleted;
    try {
      deleted = (await (await sweep({ nowMs: Date.now() + 2 * DAY })).result()).deleted;
    } finally {
      capture.stop();
    }
    expect(deleted.messages).to.be.at.least(2);
    expect(await Message.countDocuments({ conversation_id: conversationId })).to.equal(0);
    // Every query the sweep's batches sent is served by a declared index: none accepted as a scan.
    const verdicts = checkShapes(capture.shapes).filter((v) => v.origins.some((o) => o.includes('services/retention')));
    const read = verdicts.find((v) => v.key.startsWith('messages.find'));
    expect(read, verdicts.map((v) => v.key).join('\n')).to.not.equal(undefined);
    expect(read!.key).to.equal('messages.find {livemode,org_id} [created:$lt] sort(created:1)');
    expect(read!.index, read!.reason).to.equal('{org_id:1, livemode:1, created:1}');
    const unserved = verdicts.filter((v) => !v.index).map((v) => `${v.key}: ${v.reason ?? v.accepted}`);
    expect(unserved, unserved.join('\n')).to.deep.equal([]);
    // And the embedded store's plan of that read is a search of the index, not a scan of the table: a plan
    // of FerretDB's SQLite backend, which an external store (`npm run test:cluster`: FerretDB on
    // PostgreSQL, whose planner scans a table this small) does not give.
    if (externalServers()) return;
    const plan = JSON.stringify(
      await Message.find({ org_id: t.orgId, livemode: false, created: { $lt: Math.floor(Date.now() / 1000) } })
        .sort({ created: 1 })
        .limit(500)
        .explain(),
    );
    expect(plan, plan).to.match(/SEARCH \S+ USING (COVERING )?INDEX/);
    expect(plan, plan).not.to.match(/\bSCAN\b/);
  });

  it('refuses retention days outside 1–3650', async () => {
    const t = await newTenant();
    const res = await request('POST', '/v1/account', { key: t.testKey, body: { retention: { events_days: 4000 } } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'retention.events_days' });
  });
});
