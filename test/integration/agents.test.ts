/**
 * Agents managed in full through the real API: update (same validation as create, Stripe's metadata
 * merge, idempotency) and soft delete (missing for reads and new calls, while a call in flight keeps its
 * snapshot and its knowledge goes with it); a deleted agent is not dialled by a campaign and does not
 * answer a conversation (the number's or the organization's default agent does, else a person).
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { campaignCalls, createForm, phone, startCampaign, waitForCampaign, allResults } from '../support/bulk-calls';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function createAgent(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await request('POST', '/v1/agents', {
    key: t.testKey,
    body: { name: 'Agent', instructions: 'Old instructions.', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('agents: update and delete', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('updates fields, clears nullable ones and merges metadata like Stripe', async () => {
    const agent = await createAgent(t, {
      first_message: 'Hi!',
      model: 'gpt-4o',
      metadata: { team: 'sales', region: 'eu' },
    });
    const res = await request('POST', `/v1/agents/${agent.id}`, {
      key: t.testKey,
      body: {
        name: 'Renamed',
        instructions: 'New instructions.',
        first_message: null,
        transfer_to: '+14155550100',
        metadata: { region: '', tier: 'gold' },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      ...agent,
      name: 'Renamed',
      instructions: 'New instructions.',
      first_message: null,
      transfer_to: '+14155550100',
      metadata: { team: 'sales', tier: 'gold' },
      // Issue 37: a configuration change is the agent's next version, published.
      version: 2,
      latest_version: 2,
    });
    expect((await request('GET', `/v1/agents/${agent.id}`, { key: t.testKey })).body).to.deep.equal(res.body);
    const noop = await request('POST', `/v1/agents/${agent.id}`, { key: t.testKey, body: {} });
    expect(noop.body).to.deep.equal(res.body);
  });

  it('validates an update like a creation, naming the param', async () => {
    const agent = await createAgent(t);
    const post = (body: unknown) => request('POST', `/v1/agents/${agent.id}`, { key: t.testKey, body });
    expect((await post({ name: '' })).body.error).to.include({ code: 'parameter_invalid', param: 'name' });
    expect((await post({ instructions: null })).body.error).to.include({ param: 'instructions' });
    expect((await post({ transfer_to: 'desk' })).body.error).to.include({
      code: 'parameter_invalid',
      param: 'transfer_to',
    });
    expect((await post({ colour: 'red' })).body.error).to.include({ code: 'parameter_unknown', param: 'colour' });
    expect((await post({ metadata: { ['k'.repeat(41)]: 'v' } })).body.error).to.include({ param: 'metadata' });
    const missing = await request('POST', '/v1/agents/agt_01m80np488q6rre43ctk0tmky1', {
      key: t.testKey,
      body: { name: 'x' },
    });
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.include({ code: 'resource_missing', param: 'id' });
    expect((await request('POST', `/v1/agents/${agent.id}`, { key: t.liveKey, body: { name: 'x' } })).status).to.equal(
      404,
    );
    expect((await request('GET', `/v1/agents/${agent.id}`, { key: t.testKey })).body.name).to.equal('Agent');
  });

  it('replays an update with the same Idempotency-Key', async () => {
    const agent = await createAgent(t, { metadata: { n: '1' } });
    const headers = { 'Idempotency-Key': `agt-upd-${Math.random()}` };
    const first = await request('POST', `/v1/agents/${agent.id}`, {
      key: t.testKey,
      body: { metadata: { m: '2' } },
      headers,
    });
    const again = await request('POST', `/v1/agents/${agent.id}`, {
      key: t.testKey,
      body: { metadata: { m: '2' } },
      headers,
    });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(first.body.metadata).to.deep.equal({ n: '1', m: '2' });
  });

  it('deletes an agent: missing for reads, lists and new calls (404 naming agent_id), with its knowledge', async () => {
    const agent = await createAgent(t);
    const doc = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agent.id, title: 'Doc', text: 'Some knowledge.' },
    });
    expect(doc.status).to.equal(200);
    const del = await request('DELETE', `/v1/agents/${agent.id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ id: agent.id, object: 'agent', deleted: true });

    expect((await request('GET', `/v1/agents/${agent.id}`, { key: t.testKey })).status).to.equal(404);
    const list = await request('GET', '/v1/agents?limit=100', { key: t.testKey });
    expect(list.body.data.map((a: any) => a.id)).to.not.include(agent.id);
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: agent.id },
    });
    expect(call.status).to.equal(404);
    expect(call.body.error).to.include({ type: 'invalid_request_error', code: 'resource_missing', param: 'agent_id' });
    expect(
      (await request('POST', `/v1/agents/${agent.id}`, { key: t.testKey, body: { name: 'Back' } })).status,
    ).to.equal(404);
    expect((await request('DELETE', `/v1/agents/${agent.id}`, { key: t.testKey })).status).to.equal(404);
    expect((await request('GET', `/v1/knowledge/${doc.body.id}`, { key: t.testKey })).status).to.equal(404);
    const add = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agent.id, title: 'Late', text: 'Too late.' },
    });
    expect(add.status).to.equal(404);
    expect(add.body.error.param).to.equal('agent_id');
    expect((await request('DELETE', `/v1/agents/${agent.id}`, { key: t.liveKey })).status).to.equal(404);
  });

  it('refuses a deleted agent_id for campaigns, messages and phone numbers (404 naming agent_id)', async () => {
    const agent = await createAgent(t);
    expect((await request('DELETE', `/v1/agents/${agent.id}`, { key: t.testKey })).status).to.equal(200);
    const formId = await createForm(t.testKey);
    const answers = [];
    for (const [path, body] of [
      ['/v1/bulk-calls', { agent_id: agent.id, form_id: formId, contacts: [phone(1)] }],
      ['/v1/messages', { channel: 'sms', to: customerNumber(), text: 'Hi', agent_id: agent.id }],
      ['/v1/phone_numbers', { number: customerNumber(), channels: ['sms'], agent_id: agent.id }],
    ] as const) {
      const res = await request('POST', path, { key: t.testKey, body });
      answers.push([path, res.status, res.body.error?.code, res.body.error?.param]);
    }
    expect(answers).to.deep.equal([
      ['/v1/bulk-calls', 404, 'resource_missing', 'agent_id'],
      ['/v1/messages', 404, 'resource_missing', 'agent_id'],
      ['/v1/phone_numbers', 404, 'resource_missing', 'agent_id'],
    ]);
  });

  it('stops dialling a campaign whose agent was deleted: the contacts left fail', async function () {
    this.timeout(90_000);
    const agent = await createAgent(t);
    const campaign = await startCampaign(t.testKey, {
      agent_id: agent.id,
      form_id: await createForm(t.testKey),
      max_concurrency: 1,
      simulation: { caller: ['one', 'two'], pause_seconds: 1 },
      contacts: Array.from({ length: 4 }, (_, i) => phone(60 + i)),
    });
    await waitForCampaign(t.testKey, campaign.id, (c) => c.counts.completed >= 1, 30_000);
    expect((await request('POST', `/v1/bulk-calls/${campaign.id}/pause`, { key: t.testKey })).status).to.equal(200);
    const dialled = (await campaignCalls(t.testKey, campaign.id)).length;
    expect((await request('DELETE', `/v1/agents/${agent.id}`, { key: t.testKey })).status).to.equal(200);
    expect((await request('POST', `/v1/bulk-calls/${campaign.id}/resume`, { key: t.testKey })).status).to.equal(200);
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.status).to.equal('completed');
    expect((await campaignCalls(t.testKey, campaign.id)).length, 'no dial after the deletion').to.equal(dialled);
    const failed = (await allResults(t.testKey, campaign.id)).filter((r) => r.status === 'failed');
    expect(failed.length)
      .to.equal(4 - dialled)
      .and.to.be.greaterThan(0);
  });

  it("answers a conversation whose agent was deleted with the number's or default agent, else hands it to a person", async () => {
    const own = await newTenant(); // its first agent is its default
    const desk = await request('POST', '/v1/agents', {
      key: own.testKey,
      body: { name: 'Desk', instructions: 'You answer for the desk.' },
    });
    const number = customerNumber();
    const connected = await request('POST', '/v1/phone_numbers', {
      key: own.testKey,
      body: { number, channels: ['sms'], agent_id: desk.body.id },
    });
    expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
    const from = customerNumber();
    const prompts = (conversationId: string) =>
      h()
        .llm.requests.filter((r) => r.user === conversationId)
        .map((r) => r.messages[0].content as string);
    const conversation = async (id: string) =>
      (await request('GET', `/v1/conversations/${id}`, { key: own.testKey })).body;

    const first = await inbound(own.testKey, { channel: 'sms', from, to: number, text: 'one' });
    const id = first.body.conversation_id as string;
    await waitForMessages(own.testKey, id, 1, (m) => m.author === 'assistant');
    expect(prompts(id)[0]).to.contain('You answer for the desk.');

    expect((await request('DELETE', `/v1/agents/${desk.body.id}`, { key: own.testKey })).status).to.equal(200);
    await inbound(own.testKey, { channel: 'sms', from, to: number, text: 'two' });
    await waitForMessages(own.testKey, id, 2, (m) => m.author === 'assistant');
    expect(prompts(id)[1]).to.contain('You confirm appointments.').and.not.contain('the desk');
    expect((await conversation(id)).agent_id, 'the conversation names who answers now').to.equal(own.agentId);

    expect((await request('DELETE', `/v1/agents/${own.agentId}`, { key: own.testKey })).status).to.equal(200);
    await inbound(own.testKey, { channel: 'sms', from, to: number, text: 'three' });
    const handed = await eventually(async () => {
      const c = await conversation(id);
      return c.status === 'needs_person' ? c : null;
    }, 'needs_person once no agent is left');
    expect(handed.handoff_reason).to.equal('No assistant is set to answer this conversation.');
    expect(prompts(id).length, 'the deleted agents did not answer').to.equal(2);
  });

  it('lets a call in flight keep its snapshot of an agent updated or deleted meanwhile', async () => {
    const agent = await createAgent(t, { name: 'Snapshot', instructions: 'Snapshot instructions v1.' });
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: agent.id,
        simulation: { caller: ['first', 'second', 'third'], pause_seconds: 1 },
      },
    });
    expect(res.status).to.equal(200);
    await waitForCall(t.testKey, res.body.id, (c) => c.status === 'in_progress');
    expect(
      (
        await request('POST', `/v1/agents/${agent.id}`, {
          key: t.testKey,
          body: { instructions: 'Snapshot instructions v2.' },
        })
      ).status,
    ).to.equal(200);
    expect((await request('DELETE', `/v1/agents/${agent.id}`, { key: t.testKey })).status).to.equal(200);
    const ended = await waitForCall(t.testKey, res.body.id);
    expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up', agent_id: agent.id });
    const requests = h().llm.requests.filter((r) => r.user === res.body.id);
    expect(requests.length).to.equal(3);
    for (const r of requests)
      expect(r.messages[0].content).to.contain('Snapshot instructions v1.').and.not.contain('v2');
    const tr = await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey });
    // The model's three answers (the AI disclosure, on by default, opens the call before them).
    const answers = tr.body.turns.filter((x: any) => x.role === 'assistant' && x.text.startsWith('You said: '));
    expect(answers.length).to.equal(3);
  });
});
