/**
 * The concurrency limit across processes and through a crash: two API processes and
 * two worker processes on a task queue of their own (the harness's in-process worker takes none of this
 * work), limit 2, six outbound calls created alternately through the two APIs, and the worker running a
 * call that holds a slot SIGKILLed in the middle of that call. The other worker takes the killed worker's
 * workflows over (after the sticky queue's schedule-to-start timeout, src/worker/worker.ts) and finishes
 * them. Asserted from the calls' own timestamps (`dialed_ms`, `ended_ms` in the store): never more than two
 * live at once, every call completed, an inbound call refused while the slots are held by a dead worker's
 * calls, and the semaphore (`callSlotsWorkflow`) left with no holder and no one in line: no slot leaked.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { Call, CallTurn } from '../../src/models/calls';
import { setOrgCallLimit } from '../../src/services/limits';
import { callSlotsWorkflowId, slotsQuery } from '../../src/shared/call-slots';
import { h, newTenant, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { lines, mostAtOnce, settledSlots } from '../support/call-slots';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** Sends a request to one API process. */
async function call(api: ApiProcess, method: string, urlPath: string, key: string, body?: unknown) {
  const res = await fetch(api.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The identity (`pid@host`, the SDK's default) of the worker that ran the workflow's latest workflow task:
 * the worker holding it in its cache (its sticky queue).
 */
async function lastWorker(workflowId: string): Promise<string | undefined> {
  const history = await h().env.client.workflow.getHandle(workflowId).fetchHistory();
  const started = (history.events ?? []).filter((e) => e.workflowTaskStartedEventAttributes);
  return started[started.length - 1]?.workflowTaskStartedEventAttributes?.identity ?? undefined;
}

async function waitUntil(what: string, test: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('call slots: two API processes, two workers, one SIGKILLed while its calls hold slots', function () {
  this.timeout(180_000);
  const workers: ChildProcess[] = [];
  const apis: ApiProcess[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, 'SIGTERM')));
    await Promise.all(apis.splice(0).map((a) => a.stop()));
  });

  it('never more than two calls live, every call completed, the inbound one refused, no slot leaked', async () => {
    const queue = `svc-test-slots-crash-${crypto.randomBytes(4).toString('hex')}`;
    // Calls, the inbound call and the semaphore are started by the API processes on this queue, which only
    // the two worker processes poll. A killed worker is silent until the other takes its workflows over; the
    // call core fails a simulated call whose assistant misses a turn deadline, and this test is about the
    // slots, so the deadline the APIs give the calls is out of reach.
    const apiEnv = { TEMPORAL_TASK_QUEUE: queue, CALL_TURN_DEADLINE_MS: '60000' };
    apis.push(...(await Promise.all([startApiProcess(apiEnv), startApiProcess(apiEnv)])));
    workers.push(...(await Promise.all([startWorkerProcess(queue), startWorkerProcess(queue)])));
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 2);

    // Six outbound calls, alternately through the two APIs; call i lasts i + 4 caller lines of 0.8 s.
    const calls: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(apis[i % 2], 'POST', '/v1/calls', t.testKey, {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { caller: lines(i + 4), pause_seconds: 0.8 },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      calls.push(res.body.id);
    }
    const slots = h().env.client.workflow.getHandle(callSlotsWorkflowId(t.orgId, false));

    // A call that holds a slot, in progress, past its first exchange (so in a caller's pause, not in an
    // LLM request): kill the worker whose cache holds it.
    let victim = '';
    await waitUntil(
      'a slot holder past its first exchange',
      async () => {
        for (const { callId } of (await slots.query(slotsQuery)).holders) {
          if ((await CallTurn.countDocuments({ call_id: callId })) >= 2) victim = callId;
        }
        return victim !== '';
      },
      30_000,
    );
    const identity = await lastWorker(victim);
    const killed = workers.find((w) => identity?.startsWith(`${w.pid}@`));
    expect(killed, `the worker ${identity} is one of ours`).to.not.equal(undefined);
    await stopWorkerProcess(killed, 'SIGKILL');
    const survivor = workers.find((w) => w !== killed)!;
    expect((await Call.findById(victim).lean())!.status, 'killed in the middle of the call').to.equal('in_progress');

    // The slots are held (by the dead worker's calls, and calls wait in line): an inbound call is refused.
    const inbound = await call(apis[1], 'POST', '/v1/test_helpers/inbound_calls', t.testKey, {
      from: '+14155550177',
    });
    expect(inbound.status, JSON.stringify(inbound.body)).to.equal(200);
    const refused = await waitForCall(t.testKey, inbound.body.id, undefined, 60_000);
    expect(refused).to.include({ direction: 'inbound', status: 'busy', end_reason: 'concurrency_limit' });
    expect(refused.answered_at).to.equal(null);

    // Every call completes: the killed worker's calls are finished by the other worker, the queued ones
    // are dialed as slots free.
    for (const id of calls) {
      const ended = await waitForCall(t.testKey, id, undefined, 60_000);
      expect(ended, id).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    }
    expect(await lastWorker(victim), 'the victim was finished by the other worker').to.match(
      new RegExp(`^${survivor.pid}@`),
    );
    const docs = await Call.find({ _id: { $in: calls } }).lean();
    const byId = new Map(docs.map((d) => [d._id, d]));
    const intervals = calls.map((id) => [byId.get(id)!.dialed_ms!, byId.get(id)!.ended_ms!] as [number, number]);
    for (const [a, b] of intervals) expect(a, 'dialed before ended').to.be.a('number').and.below(b);
    expect(mostAtOnce(intervals), 'calls live at once').to.equal(2);
    // Each of the four queued calls dialed only after an earlier call's end was recorded.
    const ends = intervals.map(([, b]) => b).sort((a, b) => a - b);
    const queued = intervals
      .slice(2)
      .map(([a]) => a)
      .sort((a, b) => a - b);
    queued.forEach((dialed, i) => expect(dialed, `queued call ${i + 1}`).to.be.at.least(ends[i]));

    // No slot leaked: nobody holds one and nobody waits (the calls freed their slots as their ends were
    // recorded, whichever worker recorded them).
    const state = await settledSlots(t.orgId);
    expect(state).to.deep.include({ limit: 2, holders: [], queue: [] });
  });
});
