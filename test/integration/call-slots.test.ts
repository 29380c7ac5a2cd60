/**
 * The concurrency limit: an organization's `max_concurrent_calls` per mode, held by
 * its `callSlotsWorkflow`. Outbound calls wait `queued` in line and dial in order as slots free, within
 * `queue_timeout_seconds`; an inbound call at the limit hears "all lines are busy" (or goes to the
 * number's `overflow_to`); a browser voice call is 429 with `Retry-After`. Asserted from the calls' own
 * timestamps (`dialed_ms`, `ended_ms` in the store).
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { createKey } from '../../src/keys';
import { Call } from '../../src/models/calls';
import { announceCallLimit, queueCallForSlot, tryAcquireCallSlot } from '../../src/services/call-slots';
import { setOrgCallLimit } from '../../src/services/limits';
import { config } from '../../src/config';
import { CALL_SLOTS_WORKFLOW, callSlotsWorkflowId, slotsQuery } from '../../src/shared/call-slots';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { lines, mostAtOnce, settledSlots } from '../support/call-slots';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function placeCall(t: Tenant, simulation: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await request('POST', '/v1/calls', {
    key: t.testKey,
    body: { to: '+14155550123', agent_id: t.agentId, simulation, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { id: string };
}

describe('call slots: max_concurrent_calls', function () {
  this.timeout(120_000);

  it('limit 2: six outbound calls and one inbound; never more than two live, the queued dialed in order, the inbound refused', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 2);
    // Call i lasts i + 3 caller lines of 0.3 s: their ends never coincide.
    const calls: { id: string }[] = [];
    for (let i = 0; i < 6; i++) calls.push(await placeCall(t, { caller: lines(i + 3), pause_seconds: 0.3 }));

    await waitForCall(t.testKey, calls[1].id, (c) => c.status === 'in_progress');
    const waiting = await request('GET', `/v1/calls/${calls[5].id}`, { key: t.testKey });
    expect(waiting.body.status, 'the sixth waits in line').to.equal('queued');
    const state = await h().env.client.workflow.getHandle(callSlotsWorkflowId(t.orgId, false)).query(slotsQuery);
    expect(state.limit).to.equal(2);
    expect(state.holders.map((x) => x.callId)).to.have.members([calls[0].id, calls[1].id]);
    expect(state.queue.map((w) => w.callId)).to.deep.equal(calls.slice(2).map((c) => c.id));

    const inbound = await request('POST', '/v1/test_helpers/inbound_calls', {
      key: t.testKey,
      body: { from: '+14155550177' },
    });
    expect(inbound.status, JSON.stringify(inbound.body)).to.equal(200);
    const refused = await waitForCall(t.testKey, inbound.body.id);
    expect(refused).to.include({ direction: 'inbound', status: 'busy', end_reason: 'concurrency_limit' });
    expect(refused.answered_at).to.equal(null);

    for (const c of calls) expect((await waitForCall(t.testKey, c.id)).status).to.equal('completed');
    const docs = await Call.find({ _id: { $in: calls.map((c) => c.id) } }).lean();
    const byId = new Map(docs.map((d) => [d._id, d]));
    const intervals = calls.map((c) => [byId.get(c.id)!.dialed_ms!, byId.get(c.id)!.ended_ms!] as [number, number]);
    for (const [a, b] of intervals) expect(a, 'dialed before ended').to.be.a('number').and.below(b);
    expect(mostAtOnce(intervals), 'calls live at once').to.equal(2);
    const queued = calls.slice(2).map((c) => byId.get(c.id)!.dialed_ms!);
    expect(queued, 'the queued calls dialed first come first served').to.deep.equal([...queued].sort((a, b) => a - b));
    // Each queued call dialed only after an earlier call's end was recorded.
    const ends = intervals.map(([, b]) => b).sort((a, b) => a - b);
    queued.forEach((dialed, i) => expect(dialed, `queued call ${i + 1}`).to.be.at.least(ends[i]));
    const after = await settledSlots(t.orgId);
    expect(after.holders, 'every slot freed').to.deep.equal([]);
    // The six grants were told by local activities (`tellGranted`), one per workflow
    // task's grants: markers in the semaphore's history, no SignalExternal command per grant.
    const events = (await h().env.client.workflow.getHandle(callSlotsWorkflowId(t.orgId, false)).fetchHistory())
      .events!;
    const tellings = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(events.filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes)).to.have.length(0);
    expect(tellings.length, 'local activities that told grants').to.be.within(1, 6);
    // The audit keeps one timer of its own: no timer started and cancelled per request.
    expect(
      events.filter((e) => e.timerCanceledEventAttributes),
      'timers cancelled',
    ).to.have.length(0);
    expect(events.filter((e) => e.timerStartedEventAttributes).length, 'timers started').to.be.at.most(3);
  });

  it('the audit frees the slot of a call whose workflow closed without freeing it, and keeps the running ones', async () => {
    const t = await newTenant();
    const tenant = { orgId: t.orgId, livemode: false };
    const client = h().env.client;
    // A semaphore auditing every 300 ms (the default is a minute); two "calls": workflows no worker runs.
    const slots = await client.workflow.start(CALL_SLOTS_WORKFLOW, {
      workflowId: callSlotsWorkflowId(t.orgId, false),
      taskQueue: config().taskQueue,
      args: [{ orgId: t.orgId, livemode: false, limit: 5, auditMs: 300 }],
    });
    const [closing, running] = [newId('call'), newId('call')];
    for (const id of [closing, running]) {
      await client.workflow.start('auditedCallWorkflow', { workflowId: id, taskQueue: `${config().taskQueue}-nobody` });
      expect((await tryAcquireCallSlot(client, tenant, id)).granted, id).to.equal(true);
    }
    await client.workflow.getHandle(closing).terminate('simulated: ended without freeing its slot');
    const started = Date.now();
    let holders = (await slots.query(slotsQuery)).holders.map((x) => x.callId);
    while (holders.includes(closing) && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      holders = (await slots.query(slotsQuery)).holders.map((x) => x.callId);
    }
    expect(holders, 'the closed call freed, the running one kept').to.deep.equal([running]);
    // Audits go on, each on a timer of its own; none is cancelled.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await slots.query(slotsQuery)).holders.map((x) => x.callId)).to.deep.equal([running]);
    const events = (await slots.fetchHistory()).events!;
    const audits = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'endedCalls');
    expect(audits.length, 'audits').to.be.at.least(2);
    expect(
      events.filter((e) => e.timerCanceledEventAttributes),
      'timers cancelled',
    ).to.have.length(0);
    await client.workflow.getHandle(running).terminate('test over');
    await slots.terminate('test over');
  });

  it('a burst of ten calls at once takes fewer signals than calls, and the line keeps their creation order', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 1);
    const calls = await Promise.all(
      Array.from({ length: 10 }, () => placeCall(t, { caller: lines(1), pause_seconds: 0.2 })),
    );
    const handle = h().env.client.workflow.getHandle(callSlotsWorkflowId(t.orgId, false));
    // The places in line are signalled after the answers, not waited for: wait until all
    // ten are held, in line or done.
    const placed = async () => {
      const state = await handle.query(slotsQuery).catch(() => null);
      const line = state ? [...state.holders.map((x) => x.callId), ...state.queue.map((w) => w.callId)] : [];
      const done = await Call.countDocuments({ _id: { $in: calls.map((c) => c.id) }, ended_ms: { $ne: null } });
      return { line, all: line.length + done >= calls.length };
    };
    let { line, all } = await placed();
    for (let i = 0; i < 50 && !all; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ({ line, all } = await placed());
    }
    expect(all, 'every call held, in line or done').to.equal(true);
    expect(line.slice(1), 'waiting in creation order (ids are time-ordered)').to.deep.equal([...line.slice(1)].sort());
    const history = await handle.fetchHistory();
    const batches = (history.events ?? []).filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'queueCalls',
    ).length;
    expect(batches, 'signals carrying the ten calls').to.be.within(1, 9);
    for (const c of calls) expect((await waitForCall(t.testKey, c.id)).status).to.equal('completed');
  });

  it('calls put in line together go in one signal, which reads the limit once and carries it', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 3);
    const tenant = { orgId: t.orgId, livemode: false };
    // Org reads of this process while the calls go in line (the driver's command events; no call runs).
    const client = mongoose.connection.getClient();
    let orgReads = 0;
    const seen = (e: { commandName: string; command: Record<string, unknown> }) =>
      void (e.commandName === 'find' && e.command.find === 'orgs' && orgReads++);
    client.on('commandStarted', seen);
    const ids = Array.from({ length: 6 }, () => newId('call'));
    try {
      await queueCallForSlot(h().env.client, tenant, ids[0]); // a lone call goes at once
      await Promise.all(ids.slice(1).map((id) => queueCallForSlot(h().env.client, tenant, id))); // within the linger
    } finally {
      client.off('commandStarted', seen);
    }
    const handle = h().env.client.workflow.getHandle(callSlotsWorkflowId(t.orgId, false));
    // A signal that comes while the semaphore's workflow task runs enters its history after that task.
    let state = await handle.query(slotsQuery);
    for (let i = 0; i < 50 && state.holders.length + state.queue.length < ids.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await handle.query(slotsQuery);
    }
    expect(state.limit, 'the limit the signals carried').to.equal(3);
    expect(state.holders.map((x) => x.callId)).to.deep.equal(ids.slice(0, 3));
    expect(state.queue.map((w) => w.callId)).to.deep.equal(ids.slice(3));
    const signals = (await handle.fetchHistory()).events!.filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'queueCalls',
    );
    expect(signals, 'the lone call, then the five that came within the linger').to.have.length(2);
    expect(orgReads, 'one read of the limit per signal').to.equal(2);
    await handle.terminate('test over: its calls never ran');
  });

  it('a call whose place in line the API could not signal asks the semaphore itself and dials', async () => {
    const t = await newTenant();
    const client = h().env.client.workflow;
    const signalWithStart = client.signalWithStart;
    let refused = 0;
    client.signalWithStart = (async () => {
      refused++;
      throw new Error('simulated: the signal did not reach the Temporal server');
    }) as typeof signalWithStart;
    let call: { id: string };
    try {
      call = await placeCall(t, { caller: lines(1) });
      // The place in line is signalled after the answer, not waited for: keep the failure in place until tried.
      for (let i = 0; refused === 0 && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      client.signalWithStart = signalWithStart;
    }
    expect(refused).to.equal(1);
    const done = await waitForCall(t.testKey, call.id);
    expect(done.status).to.equal('completed');
    const hist = await client.getHandle(call.id).fetchHistory();
    const asked = (hist.events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'requestCallSlot',
    );
    expect(asked, 'asked once, after SLOT_ASK_AGAIN_MS').to.have.length(1);
    expect((await settledSlots(t.orgId)).holders).to.deep.equal([]);
  });

  it('a queued call fails after queue_timeout_seconds; one ended while queued is canceled and leaves the line', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 1);
    const long = await placeCall(t, { caller: lines(3), pause_seconds: 1 });
    await waitForCall(t.testKey, long.id, (c) => c.status === 'in_progress');
    const impatient = await placeCall(t, { caller: lines(1) }, { queue_timeout_seconds: 1 });
    const dropped = await placeCall(t, { caller: lines(1) });
    const ended = await request('POST', `/v1/calls/${dropped.id}/end`, { key: t.testKey });
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body).to.include({ status: 'canceled', end_reason: 'api_ended' });
    const timedOut = await waitForCall(t.testKey, impatient.id);
    expect(timedOut).to.include({ status: 'failed', end_reason: 'queue_timeout', answered_at: null });
    expect(timedOut.error.message).to.match(/max_concurrent_calls/);
    expect((await waitForCall(t.testKey, long.id)).status).to.equal('completed');
    const state = await settledSlots(t.orgId);
    expect(state).to.deep.include({ holders: [], queue: [] });
    // Neither ever dialed.
    for (const id of [impatient.id, dropped.id]) expect((await Call.findById(id).lean())!.dialed_ms).to.equal(null);
  });

  it('an inbound call at the limit goes to overflow_to; a raised limit dials waiting calls at once', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 1);
    const number = await request('POST', '/v1/phone_numbers', {
      key: t.testKey,
      body: { number: '+14155550160', channels: ['voice'], overflow_to: '+14155550199' },
    });
    expect(number.status).to.equal(200);
    const first = await placeCall(t, { caller: lines(4), pause_seconds: 1 });
    await waitForCall(t.testKey, first.id, (c) => c.status === 'in_progress');
    const inbound = await request('POST', '/v1/test_helpers/inbound_calls', {
      key: t.testKey,
      body: { from: '+14155550177', to: '+14155550160' },
    });
    const forwarded = await waitForCall(t.testKey, inbound.body.id);
    expect(forwarded).to.include({
      status: 'transferred',
      end_reason: 'concurrency_limit',
      transferred_to: '+14155550199',
    });

    const second = await placeCall(t, { caller: lines(1) });
    await new Promise((r) => setTimeout(r, 300));
    expect((await request('GET', `/v1/calls/${second.id}`, { key: t.testKey })).body.status).to.equal('queued');
    await setOrgCallLimit(t.orgId, 'test', 2);
    await announceCallLimit(h().env.client, { orgId: t.orgId, livemode: false }, 2);
    const done = await waitForCall(t.testKey, second.id);
    expect(done.status).to.equal('completed');
    const firstDoc = (await Call.findById(first.id).lean())!;
    expect((await Call.findById(second.id).lean())!.dialed_ms, 'dialed before the first call ended').to.be.below(
      firstDoc.ended_ms ?? Infinity,
    );
  });

  it('a browser voice call at the limit is 429 concurrency_limit with Retry-After, and nothing is created', async () => {
    const t = await newTenant();
    await setOrgCallLimit(t.orgId, 'test', 1);
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const busy = await placeCall(t, { caller: lines(3), pause_seconds: 1 });
    await waitForCall(t.testKey, busy.id, (c) => c.status === 'in_progress');
    const session = (await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: 'v-429' } })).body;
    const before = await Call.countDocuments({ org_id: t.orgId });
    const res = await request('POST', '/v1/widget/voice', {
      key: session.token,
      headers: { 'Idempotency-Key': 'voice-429' },
    });
    expect(res.status).to.equal(429);
    expect(res.body.error).to.include({ type: 'rate_limit_error', code: 'concurrency_limit' });
    expect(Number(res.headers.get('retry-after'))).to.be.above(0);
    expect(await Call.countDocuments({ org_id: t.orgId })).to.equal(before);
    await waitForCall(t.testKey, busy.id);
    // The same Idempotency-Key runs again once a slot is free (a 429 is not kept as the key's result).
    const again = await request('POST', '/v1/widget/voice', {
      key: session.token,
      headers: { 'Idempotency-Key': 'voice-429' },
    });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect((await waitForCall(t.testKey, again.body.call_id)).status).to.equal('completed');
  });
});
