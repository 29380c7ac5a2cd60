/**
 * Calls end to end through the real API, Temporal dev server, worker and FerretDB, with the fake LLM:
 * every way a call ends, transcripts, events carrying metadata, search attributes, mode isolation.
 */
import { expect } from 'chai';
import { h, isEnded, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function placeCall(t: Tenant, extra: Record<string, unknown> = {}) {
  const res = await request('POST', '/v1/calls', {
    key: t.testKey,
    body: { to: '+14155550123', agent_id: t.agentId, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

async function eventsOf(key: string, callId: string) {
  const res = await request('GET', '/v1/events?limit=100', { key });
  expect(res.status).to.equal(200);
  return (res.body.data as any[]).filter((e) => e.data.object.id === callId).reverse();
}

async function transcript(key: string, callId: string) {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('calls', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant({ first_message: 'Hello from the test agent.' });
  });

  it('answers queued at once with the spec fields, then the assistant ends the call', async () => {
    const created = await placeCall(t, {
      metadata: { order_id: 'A-1' },
      context: { appointment: '2026-12-01 10:00' },
      simulation: { caller: ['Hi there', 'TOOL end_call {}'] },
    });
    expect(created).to.include({
      object: 'call',
      status: 'queued',
      to: '+14155550123',
      livemode: false,
      agent_id: t.agentId,
    });
    expect(created.id).to.match(/^call_[0-9a-z]{26}$/);
    const ended = await waitForCall(t.testKey, created.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'assistant_ended' });
    expect(ended.ended_at).to.be.a('number');

    const tr = await transcript(t.testKey, created.id);
    expect(tr).to.include({ object: 'transcript', call_id: created.id, livemode: false });
    expect(tr.turns.map((x: any) => [x.role, x.text])).to.deep.equal([
      // The organization's AI disclosure (on by default) opens every call.
      ['assistant', "You're speaking with an automated assistant."],
      ['assistant', 'Hello from the test agent.'],
      ['caller', 'Hi there'],
      ['assistant', 'You said: Hi there'],
      ['caller', 'TOOL end_call {}'],
      ['assistant', 'Calling end_call.'],
      ['tool', 'Call ended.'],
    ]);

    const events = await eventsOf(t.testKey, created.id);
    expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.ended']);
    for (const e of events) {
      expect(e).to.include({ object: 'event', livemode: false, api_version: '2026-10-04' });
      expect(e.id).to.match(/^evt_/);
      expect(e.data.object.metadata).to.deep.equal({ order_id: 'A-1' });
    }
    expect(events[1].data.object.status).to.equal('completed');

    // The system prompt carried the agent's instructions and the call's context.
    const req = h().llm.requests.find((r) => r.user === created.id)!;
    expect(req, 'the LLM saw this call').to.exist;
    const system = req.messages[0].content!;
    expect(system).to.contain('You confirm appointments.').and.to.contain('2026-12-01 10:00');
    expect(req.tools!.map((x) => x.function.name)).to.include.members(['end_call']);
    // An agent with no transfer destination (nor `transfer_to`) is not offered transfer_call at all.
    expect(req.tools!.map((x) => x.function.name)).to.not.include('transfer_call');
  });

  it("runs a simulated call's turns without server round trips: 4 workflow tasks and 2 scheduled activities for 6 lines", async () => {
    const lines = ['one', 'two', 'three', 'four', 'five', 'six'];
    const created = await placeCall(t, { simulation: { caller: lines } });
    const ended = await waitForCall(t.testKey, created.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const history = await h().env.client.workflow.getHandle(created.id).fetchHistory();
    const count = (attributes: string) =>
      (history.events ?? []).filter((e) => (e as Record<string, unknown>)[attributes] != null).length;
    // The start (ensure the record), the slot's grant (the semaphore's answer to the API's `queueCall` signal,
    // the answer does not wait for a worker; then answer: call.started), the turns (local activities, then call.ended), the end.
    const kinds = (history.events ?? []).map((e) =>
      Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k] != null),
    );
    expect(count('workflowTaskCompletedEventAttributes'), `workflow tasks: ${kinds.join(' ')}`).to.be.at.most(4);
    expect(count('activityTaskScheduledEventAttributes'), 'scheduled activities: the two event transitions').to.equal(
      2,
    );
    // LLM requests and transcript writes are markers: one each per line, one write for the greeting.
    expect(count('markerRecordedEventAttributes')).to.be.at.least(2 * lines.length + 1);
    // The AI disclosure's turn, the greeting, then a caller line and its answer each.
    expect((await transcript(t.testKey, created.id)).turns).to.have.length(2 + 2 * lines.length);
  });

  it('ends with caller_hung_up when the scripted caller runs out of lines', async () => {
    const call = await placeCall(t, { simulation: { caller: ['One', 'Two'] } });
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const tr = await transcript(t.testKey, call.id);
    expect(tr.turns.filter((x: any) => x.role === 'caller').map((x: any) => x.text)).to.deep.equal(['One', 'Two']);
  });

  it('uses the default script when no simulation is given', async () => {
    const call = await placeCall(t);
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended.status).to.equal('completed');
    const tr = await transcript(t.testKey, call.id);
    expect(tr.turns.filter((x: any) => x.role === 'caller').length).to.equal(3);
  });

  it('ends a live call through the API (end update), then refuses a second end with 409 call_not_live', async () => {
    const call = await placeCall(t, { simulation: { caller: ['a', 'b', 'c', 'd', 'e'], pause_seconds: 5 } });
    await waitForCall(t.testKey, call.id, (c) => c.status === 'in_progress');
    const transcriptEarly = await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey });
    expect(transcriptEarly.status).to.equal(409);
    expect(transcriptEarly.body.error.code).to.equal('call_not_ended');

    const res = await request('POST', `/v1/calls/${call.id}/end`, { key: t.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ id: call.id, status: 'completed', end_reason: 'api_ended' });

    const again = await request('POST', `/v1/calls/${call.id}/end`, { key: t.testKey });
    expect(again.status).to.equal(409);
    expect(again.body.error).to.include({ type: 'invalid_request_error', code: 'call_not_live' });
    expect((await eventsOf(t.testKey, call.id)).map((e) => e.type)).to.deep.equal(['call.started', 'call.ended']);
  });

  it('cancels a ringing call when it is ended before the answer', async () => {
    const call = await placeCall(t, { simulation: { ring_seconds: 30 } });
    await waitForCall(t.testKey, call.id, (c) => c.status === 'ringing');
    const res = await request('POST', `/v1/calls/${call.id}/end`, { key: t.testKey });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'canceled', end_reason: 'api_ended', answered_at: null });
    expect((await eventsOf(t.testKey, call.id)).map((e) => e.type)).to.deep.equal(['call.ended']);
  });

  it('transfers a live call through the API, with call.transferred carrying metadata', async () => {
    const call = await placeCall(t, {
      metadata: { ticket: '77' },
      simulation: { caller: ['a', 'b', 'c'], pause_seconds: 5 },
    });
    await waitForCall(t.testKey, call.id, (c) => c.status === 'in_progress');
    const bad = await request('POST', `/v1/calls/${call.id}/transfer`, { key: t.testKey, body: { to: '12345' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'to' });

    const res = await request('POST', `/v1/calls/${call.id}/transfer`, {
      key: t.testKey,
      body: { to: '+14155550100' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'transferred', end_reason: 'transferred', transferred_to: '+14155550100' });
    const events = await eventsOf(t.testKey, call.id);
    expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.transferred', 'call.ended']);
    expect(events[1].data.object.metadata).to.deep.equal({ ticket: '77' });

    const late = await request('POST', `/v1/calls/${call.id}/transfer`, {
      key: t.testKey,
      body: { to: '+14155550100' },
    });
    expect(late.status).to.equal(409);
    expect(late.body.error.code).to.equal('call_not_live');
  });

  it('refuses to transfer a call that is still ringing (409 call_not_live)', async () => {
    const call = await placeCall(t, { simulation: { ring_seconds: 30 } });
    await waitForCall(t.testKey, call.id, (c) => c.status === 'ringing');
    const res = await request('POST', `/v1/calls/${call.id}/transfer`, {
      key: t.testKey,
      body: { to: '+14155550100' },
    });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('call_not_live');
    await request('POST', `/v1/calls/${call.id}/end`, { key: t.testKey });
  });

  it('transfers when the assistant calls transfer_call with one of its destinations', async () => {
    const permissions = await request('POST', '/v1/account', {
      key: t.testKey,
      body: { dialing_permissions: { sip_domains: ['example.com'] } },
    });
    expect(permissions.status, JSON.stringify(permissions.body)).to.equal(200);
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: {
        name: 'Desk',
        instructions: 'Transfer to the desk.',
        transfer_destinations: [{ name: 'desk', to: 'sip:desk@example.com', description: 'The front desk' }],
      },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const call = await placeCall(t, {
      agent_id: agent.body.id,
      simulation: { caller: ['TOOL transfer_call {"destination":"desk"}', 'never said'] },
    });
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended).to.include({
      status: 'transferred',
      end_reason: 'transferred',
      transferred_to: 'sip:desk@example.com',
    });
    const tr = await transcript(t.testKey, call.id);
    expect(tr.turns.map((x: any) => x.text)).to.not.include('never said');
  });

  it('answers a bad tool call to the model instead of failing the call', async () => {
    const call = await placeCall(t, { simulation: { caller: ['TOOL search_knowledge {"query":7}', 'bye'] } });
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const tr = await transcript(t.testKey, call.id);
    const tool = tr.turns.find((x: any) => x.role === 'tool');
    expect(tool.text).to.match(/^Error: the arguments of search_knowledge are invalid: query: /);
  });

  for (const [outcome, status, reason] of [
    ['busy', 'busy', 'busy'],
    ['no_answer', 'no_answer', 'no_answer'],
    ['failed', 'failed', 'dial_failed'],
  ] as const) {
    it(`ends ${status} when the simulated outcome is ${outcome}, with call.ended only`, async () => {
      const call = await placeCall(t, { metadata: { k: outcome }, simulation: { outcome } });
      const ended = await waitForCall(t.testKey, call.id);
      expect(ended).to.include({ status, end_reason: reason, answered_at: null, duration_seconds: null });
      // `call.ended` is stored after the call shows its end (the status is written first): wait for it.
      const events = await eventually(async () => {
        const list = await eventsOf(t.testKey, call.id);
        return list.length > 0 ? list : null;
      }, 'the call.ended event');
      expect(events.map((e) => e.type)).to.deep.equal(['call.ended']);
      expect(events[0].data.object.metadata).to.deep.equal({ k: outcome });
      expect((await transcript(t.testKey, call.id)).turns).to.deep.equal([]);
    });
  }

  it('ends at max_duration_seconds', async () => {
    const call = await placeCall(t, {
      max_duration_seconds: 2,
      simulation: { caller: Array(20).fill('still talking'), pause_seconds: 1 },
    });
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'max_duration' });
    expect(ended.duration_seconds).to.be.within(1, 4);
  });

  it('fails the call with end_reason error when the LLM keeps failing', async function () {
    this.timeout(60_000);
    const call = await placeCall(t, { simulation: { caller: ['FAIL 500'] } });
    const ended = await waitForCall(t.testKey, call.id, isEnded, 45_000);
    expect(ended).to.include({ status: 'failed', end_reason: 'error' });
    expect(ended.error.message).to.be.a('string');
    const attempts = h().llm.requests.filter((r) => r.user === call.id).length;
    expect(attempts).to.equal(3);
  });

  it('does not retry an LLM request the model rejects (4xx)', async () => {
    const call = await placeCall(t, { simulation: { caller: ['FAIL 400'] } });
    const ended = await waitForCall(t.testKey, call.id);
    expect(ended).to.include({ status: 'failed', end_reason: 'error' });
    expect(h().llm.requests.filter((r) => r.user === call.id).length).to.equal(1);
  });

  it('keeps test and live data apart', async () => {
    const call = await placeCall(t, { simulation: { caller: ['x'] } });
    await waitForCall(t.testKey, call.id);
    expect((await request('GET', `/v1/calls/${call.id}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.liveKey })).status).to.equal(404);
    const liveList = await request('GET', '/v1/calls', { key: t.liveKey });
    expect(liveList.body.data).to.deep.equal([]);
    const liveEvents = await request('GET', '/v1/events', { key: t.liveKey });
    expect(liveEvents.body.data).to.deep.equal([]);
    const agentFromLive = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: t.agentId },
    });
    expect(agentFromLive.status).to.equal(404);
    expect(agentFromLive.body.error.param).to.equal('agent_id');
    // another organization sees nothing either
    const other = await newTenant();
    expect((await request('GET', `/v1/calls/${call.id}`, { key: other.testKey })).status).to.equal(404);
  });

  it('lets operators find a call in Temporal by status, agent, organization and mode', async () => {
    const call = await placeCall(t, { simulation: { caller: ['TOOL end_call {}'] } });
    await waitForCall(t.testKey, call.id);
    const query = `WorkflowId = '${call.id}' AND CallStatus = 'completed' AND AgentId = '${t.agentId}' AND OrgId = '${t.orgId}' AND Livemode = false`;
    let found: string[] = [];
    for (let i = 0; i < 50 && found.length === 0; i++) {
      found = [];
      for await (const wf of h().env.client.workflow.list({ query })) found.push(wf.workflowId);
      if (!found.length) await new Promise((r) => setTimeout(r, 200));
    }
    expect(found).to.deep.equal([call.id]);
  });

  it("lists one call's events by object_id, every one of them and no other call's, page by page", async () => {
    const a = await placeCall(t, { simulation: { caller: ['Hello.'] } });
    const b = await placeCall(t, { simulation: { caller: ['Hi.'] } });
    await waitForCall(t.testKey, a.id);
    await waitForCall(t.testKey, b.id);
    const all = (await request('GET', '/v1/events?limit=100', { key: t.testKey })).body.data as any[];
    const ofA = all.filter((e) => e.data.object.id === a.id).map((e) => e.id);
    expect(ofA.length, "a call's lifecycle events (started, ended)").to.be.at.least(2);
    const listed = await request('GET', `/v1/events?object_id=${a.id}&limit=100`, { key: t.testKey });
    expect(listed.status).to.equal(200);
    expect(listed.body.data.map((e: any) => e.id)).to.deep.equal(ofA);
    expect(listed.body.data.every((e: any) => e.data.object.id === a.id)).to.equal(true);
    // Paged two at a time, the same events in the same order.
    const paged: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await request(
        'GET',
        `/v1/events?object_id=${a.id}&limit=2${after ? `&starting_after=${after}` : ''}`,
        { key: t.testKey },
      );
      paged.push(...page.body.data.map((e: any) => e.id));
      if (!page.body.has_more) break;
      after = page.body.data[page.body.data.length - 1].id;
    }
    expect(paged).to.deep.equal(ofA);
    const ended = await request('GET', `/v1/events?object_id=${b.id}&type=call.ended`, { key: t.testKey });
    expect(ended.body.data.map((e: any) => e.type)).to.deep.equal(['call.ended']);
    const other = await newTenant();
    expect((await request('GET', `/v1/events?object_id=${a.id}`, { key: other.testKey })).body.data).to.deep.equal([]);
    const bad = await request('GET', '/v1/events?object_id=%3Cscript%3E', { key: t.testKey });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'object_id' });
  });

  it('filters events by type and lists calls by status', async () => {
    const ended = await request('GET', '/v1/events?type=call.ended&limit=100', { key: t.testKey });
    expect(ended.body.data.length).to.be.greaterThan(0);
    expect(ended.body.data.every((e: any) => e.type === 'call.ended')).to.equal(true);
    const wildcard = await request('GET', '/v1/events?type=call.*&limit=100', { key: t.testKey });
    expect(wildcard.body.data.length).to.be.greaterThan(ended.body.data.length);
    const busy = await request('GET', '/v1/calls?status=busy', { key: t.testKey });
    expect(busy.body.data.map((c: any) => c.status)).to.deep.equal(['busy']);
    const one = await request('GET', `/v1/events/${ended.body.data[0].id}`, { key: t.testKey });
    expect(one.body).to.deep.equal(ended.body.data[0]);

    const all = (await request('GET', '/v1/events?limit=100', { key: t.testKey })).body.data as any[];
    const oldest = Math.min(...all.map((e) => e.created));
    const newest = Math.max(...all.map((e) => e.created));
    const inRange = await request('GET', `/v1/events?limit=100&created[gte]=${oldest}&created[lte]=${newest}`, {
      key: t.testKey,
    });
    expect(inRange.body.data.length).to.equal(all.length);
    const before = await request('GET', `/v1/events?created[lte]=${oldest - 1}`, { key: t.testKey });
    expect(before.body.data).to.deep.equal([]);
    const after = await request('GET', `/v1/events?limit=100&created[gte]=${newest}`, { key: t.testKey });
    expect(after.body.data.length).to.be.greaterThan(0);
    expect(after.body.data.every((e: any) => e.created >= newest)).to.equal(true);
    const bad = await request('GET', '/v1/events?created[gte]=yesterday', { key: t.testKey });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('created[gte]');
  });

  it('lists calls by number (to, from), by contact and by a created range, newest first', async () => {
    const u = await newTenant({ first_message: 'Hello.' });
    const list = async (query: string) => {
      const limit = query.includes('limit=') ? '' : 'limit=100&';
      const res = await request('GET', `/v1/calls?${limit}${query}`, { key: u.testKey });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.data as any[]).map((c) => c.id);
    };
    const contact = await request('POST', '/v1/contacts', {
      key: u.testKey,
      body: { phone: '+14155550161', name: 'Dana Whitfield' },
    });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
    const script = { simulation: { caller: ['TOOL end_call {}'] } };
    const toA1 = await placeCall(u, { to: '+14155550161', ...script });
    const toB = await placeCall(u, { to: '+14155550162', ...script });
    const toA2 = await placeCall(u, { to: '+14155550161', ...script });
    const inbound = await request('POST', '/v1/test_helpers/inbound_calls', {
      key: u.testKey,
      body: { from: '+14155550162', simulation: { caller: ['Bye'] } },
    });
    expect(inbound.status, JSON.stringify(inbound.body)).to.equal(200);
    for (const c of [toA1, toB, toA2, inbound.body]) await waitForCall(u.testKey, c.id);
    expect(toA1.contact_id).to.equal(contact.body.id);

    expect(await list('to=%2B14155550161')).to.deep.equal([toA2.id, toA1.id]);
    expect(await list('to=%2B14155550162')).to.deep.equal([toB.id]);
    expect(await list('from=%2B14155550162')).to.deep.equal([inbound.body.id]);
    expect(await list('from=%2B14155550162&direction=outbound')).to.deep.equal([]);
    expect(await list('to=%2B14155550161&limit=1')).to.deep.equal([toA2.id]);
    expect(await list(`contact_id=${contact.body.id}`)).to.deep.equal([toA2.id, toA1.id]);
    expect(await list('contact_id=ctc_nobody')).to.deep.equal([]);

    // A created range: calls made in the same second as another are told apart by their `created`.
    const all = await list('');
    expect(all).to.have.length(4);
    const created = (await Promise.all(all.map((id) => request('GET', `/v1/calls/${id}`, { key: u.testKey })))).map(
      (r) => r.body.created as number,
    );
    const first = Math.min(...created);
    const last = Math.max(...created);
    expect(await list(`created[gte]=${first}&created[lte]=${last}`)).to.deep.equal(all);
    expect(await list(`created[lt]=${first}`)).to.deep.equal([]);
    expect(await list(`created[gt]=${last}`)).to.deep.equal([]);
    expect(await list(`created[gte]=${last}`)).to.deep.equal(all.filter((_, i) => created[i] >= last));
    expect(await list(`to=%2B14155550161&created[lte]=${last}`)).to.deep.equal([toA2.id, toA1.id]);

    for (const [query, param] of [
      ['to=4155550161', 'to'],
      ['from=%2B1415555', 'from'],
      ['to=%2B14155550161&from=%2B999', 'from'],
      ['created[lte]=yesterday', 'created[lte]'],
    ]) {
      const bad = await request('GET', `/v1/calls?${query}`, { key: u.testKey });
      expect(bad.status, query).to.equal(400);
      expect(bad.body.error, query).to.include({ code: 'parameter_invalid', param });
    }
  });
});
