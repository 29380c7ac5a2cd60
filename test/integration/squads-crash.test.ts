/**
 * A squad's hand-off and a crashing worker: the worker process is killed (SIGKILL) while the `summary`
 * hand-off's LLM request (the `generateReply` activity of src/workflows/call-squad.ts) is held unanswered
 * by the fake LLM; a new worker process starts; Temporal retries the activity once its start-to-close
 * timeout has passed and the call goes on. The call then records exactly one `handoff` entry and one
 * `call.handed_off` event, and the receiving member answers the rest of the call with its own prompt.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Event } from '../../src/models/events';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';
import { decodePayload } from '../support/history';

/** What the workflow asks the model for a `summary` hand-off opens with (src/workflows/call-squad.ts). */
const SUMMARY_REQUEST = 'The caller is being handed';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
type Req = { user?: string; messages: { role: string; content: string | null }[] };
const isSummary = (r: Req) => String(r.messages.at(-1)?.content).startsWith(SUMMARY_REQUEST);

async function createAgent(t: Tenant, name: string, instructions: string) {
  const res = await request('POST', '/v1/agents', { key: t.testKey, body: { name, instructions } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { id: string };
}

describe("squads: a worker killed during a hand-off's summary", function () {
  this.timeout(240_000);
  let child: ChildProcess | undefined;
  afterEach(async () => {
    h().llm.hold = null;
    await stopWorkerProcess(child, 'SIGTERM');
  });

  it('the call goes on with one hand-off recorded and the receiving member answering', async () => {
    const t = await newTenant();
    const reception = await createAgent(t, 'Reception', 'You are the receptionist of Acme Dental.');
    const booking = await createAgent(t, 'Booking', 'You book appointments at Acme Dental.');
    const squad = await request('POST', '/v1/squads', {
      key: t.testKey,
      body: {
        name: 'Crash desk',
        start: 'reception',
        members: [
          {
            name: 'reception',
            agent_id: reception.id,
            handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'summary' }],
          },
          { name: 'booking', agent_id: booking.id, handoffs: [] },
        ],
      },
    });
    expect(squad.status, JSON.stringify(squad.body)).to.equal(200);

    let held = 0;
    h().llm.hold = (body) => isSummary(body) && held++ === 0;
    const queue = `svc-test-squad-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // the call placed now runs on the child's queue only
    let id: string;
    try {
      child = await startWorkerProcess(queue);
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550177',
          squad_id: squad.body.id,
          simulation: { caller: ['Hello.', 'HANDOFF booking', 'Bye.'] },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      id = res.body.id;
      await eventually(async () => (held > 0 ? true : undefined), 'the held summary request', 90_000);
      await stopWorkerProcess(child, 'SIGKILL');
      child = await startWorkerProcess(queue);
    } finally {
      setConfig(saved);
    }
    const ended = await waitForCall(t.testKey, id, undefined, 120_000);
    expect(ended, JSON.stringify(ended)).to.include({ status: 'completed', squad_member: 'booking' });

    // The summary was asked twice (the held attempt and its retry), everything else once.
    const mine = (h().llm.requests as Req[]).filter((r) => r.user === id);
    expect(mine.filter(isSummary), 'the held summary request and its retry').to.have.length(2);
    const summary = 'You said: HANDOFF booking';

    const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey })).body.turns as any[];
    const handoffs = turns.filter((x) => x.role === 'handoff');
    expect(
      handoffs.map((x) => x.handoff),
      JSON.stringify(turns),
    ).to.deep.equal([{ from: 'reception', to: 'booking', context: 'summary', summary }]);
    const answers = turns
      .filter((x) => x.role === 'assistant' && String(x.text).startsWith('You said'))
      .map((x) => [x.text, x.agent_id]);
    expect(answers).to.deep.equal([
      ['You said: Hello.', reception.id],
      ['You said:', booking.id],
      ['You said: Bye.', booking.id],
    ]);
    // booking answered from its own prompt and the summary only.
    const bookingAsks = mine.filter((r) => !isSummary(r) && String(r.messages[0].content).includes('You book'));
    expect(bookingAsks.map((r) => r.messages[1])).to.deep.include({
      role: 'system',
      content: `Summary of the conversation so far: ${summary}`,
    });
    const events = await Event.find({ object_id: id, type: 'call.handed_off' }).lean();
    expect(events).to.have.length(1);
    expect(JSON.parse(events[0].payload_json).data.object.squad_member).to.equal('booking');

    // One activity for the summary, completed by its second attempt.
    const history = (await h().env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const summaries = await Promise.all(
      history.map((e) => (e.userMetadata?.summary ? decodePayload<string>(e.userMetadata.summary) : '')),
    );
    const scheduled = history.filter(
      (e, i) => e.activityTaskScheduledEventAttributes && summaries[i] === 'summary for a squad hand-off',
    );
    expect(scheduled, 'one summary activity').to.have.length(1);
    const started = history.filter(
      (e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled[0].eventId),
    );
    expect(started.map((e) => e.activityTaskStartedEventAttributes?.attempt)).to.deep.equal([2]);
  });
});
