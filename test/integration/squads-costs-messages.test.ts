/**
 * Squads, through the real API, Temporal and store: a squad call's cost split per member (each member's
 * model requests priced at its own model's price, the parts adding up to the call's cost, and `GET
 * /v1/usage?agent_id=…` charging each member's agent its part); `squad_id` on `POST /v1/messages` (a new
 * conversation, and an existing one switched to the squad, then handed off) and on SIP trunks (the trunk's
 * inbound calls run as squad calls), with the same refusals as `POST /v1/calls`; a squad conversation
 * that continues as new keeping the member answering it; and one whose squad stops answering when a
 * message names an agent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { config, setConfig, type Config } from '../../src/config';
import { loadPriceTable } from '../../src/pricing/prices';
import { conversationInput, ensureConversation } from '../../src/services/conversations';
import { CONVERSATION_WORKFLOW, SIMULATED_NUMBER, type ConversationWorkflow } from '../../src/shared/conversations';
import { PhoneNumber } from '../../src/models/conversations';
import { UsageRecord } from '../../src/models/usage';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { callEvents } from '../support/webhooks';
import { customerNumber, eventually, inbound, messagesOf, waitForMessages } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const aroundToday = () => `from=${utcDate(Date.now() - DAY)}&to=${utcDate(Date.now() + DAY)}`;
const BACK_MODEL = 'squad-back-model';

/** A price table: the default model at 1 and 2 micro-units per input and output token, the back member's at 3 and 5. */
function prices() {
  return {
    currency: 'usd',
    as_of: '2026-11-30',
    telephony: {
      per_minute: { inbound: { default: '0.0100' }, outbound: { default: '0.5000', US: '0.020000' } },
      sip_per_minute: '0.0040',
      recording_per_minute: '0.0025',
    },
    models: {
      [config().openaiModel]: { input: '1.00', output: '2.00' },
      [BACK_MODEL]: { input: '3.00', output: '5.00' },
    },
    platform_per_minute: '0.050000',
  };
}

describe('squads: cost per member, squad_id on messages and SIP trunks, a conversation continued as new', function () {
  this.timeout(180_000);
  let t: Tenant;
  let other: Tenant;
  let reception: string;
  let booking: string;
  let squad: string;
  let saved: Config;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-prices-'));
  const post = (path: string, body: unknown, tenant = t) => request('POST', path, { key: tenant.testKey, body });
  const get = (path: string) => request('GET', path, { key: t.testKey });

  before(async () => {
    saved = config();
    const file = path.join(dir, 'prices.json');
    fs.writeFileSync(file, JSON.stringify(prices()));
    setConfig({ ...config(), prices: loadPriceTable(file), llmModels: [...config().llmModels, BACK_MODEL] });
    [t, other] = await Promise.all([newTenant(), newTenant()]);
    reception = (await post('/v1/agents', { name: 'Reception', instructions: 'RECEPTION prompt.' })).body.id;
    const back = await post('/v1/agents', { name: 'Booking', instructions: 'BOOKING prompt.', model: BACK_MODEL });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    booking = back.body.id;
    const created = await post('/v1/squads', {
      name: 'Desk',
      members: [
        {
          name: 'reception',
          agent_id: reception,
          handoffs: [{ to: 'booking', description: 'Appointments.', context: 'summary' }],
        },
        { name: 'booking', agent_id: booking },
      ],
      start: 'reception',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    squad = created.body.id;
  });
  after(() => {
    setConfig(saved);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("splits a squad call's cost per member at each member's own model price, adding up to the call's cost", async () => {
    const placed = await post('/v1/calls', {
      to: customerNumber(),
      squad_id: squad,
      simulation: { caller: ['Hello.', 'HANDOFF booking', 'Sure.', 'Bye.'] },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const call = await waitForCall(t.testKey, placed.body.id, (c) => c.cost !== null);
    expect(call.squad_member).to.equal('booking');
    const split = call.cost_by_member as {
      member: string;
      agent_id: string;
      requests: number;
      prompt_tokens: number;
      completion_tokens: number;
      cost: Record<string, number | string | null>;
    }[];
    expect(split.map((m) => [m.member, m.agent_id])).to.deep.equal([
      ['reception', reception],
      ['booking', booking],
    ]);

    // What the fake model counted per model: reception's requests (its turns and the summary) and booking's.
    const asked = h().llm.requests.filter((r) => r.user === call.id && r.usage && !r.response_format);
    const tokens = (model: string) => {
      const mine = asked.filter((r) => r.model === model);
      return {
        requests: mine.length,
        prompt: mine.reduce((n, r) => n + r.usage!.prompt_tokens, 0),
        completion: mine.reduce((n, r) => n + r.usage!.completion_tokens, 0),
      };
    };
    const front = tokens(config().openaiModel);
    const backTok = tokens(BACK_MODEL);
    expect(front.requests + backTok.requests).to.equal(asked.length);
    expect(backTok.requests, 'booking answered').to.be.greaterThan(0);
    expect(split[0]).to.include({
      requests: front.requests,
      prompt_tokens: front.prompt,
      completion_tokens: front.completion,
    });
    expect(split[1]).to.include({
      requests: backTok.requests,
      prompt_tokens: backTok.prompt,
      completion_tokens: backTok.completion,
    });
    const minutes = Math.max(1, Math.ceil(call.duration_seconds / 60));
    expect(split[0].cost).to.include({
      model_micros: front.prompt * 1 + front.completion * 2,
      telephony_micros: minutes * 20_000,
      platform_micros: minutes * 50_000,
    });
    expect(split[1].cost).to.include({
      model_micros: backTok.prompt * 3 + backTok.completion * 5,
      telephony_micros: 0,
      platform_micros: 0,
      recording_micros: 0,
    });
    for (const f of ['total_micros', 'telephony_micros', 'model_micros', 'recording_micros', 'platform_micros'])
      expect((split[0].cost[f] as number) + (split[1].cost[f] as number), f).to.equal(call.cost[f]);
    expect(call.cost.total_micros).to.equal(
      minutes * 70_000 + front.prompt + 2 * front.completion + 3 * backTok.prompt + 5 * backTok.completion,
    );
    // The call.ended event carries the same split.
    const ended = (await callEvents(t.testKey, call.id, 1)).find((e: any) => e.type === 'call.ended');
    expect(ended.data.object.cost_by_member).to.deep.equal(call.cost_by_member);

    // GET /v1/usage by agent: each member's agent is charged its own part.
    for (const [agent, part] of [
      [reception, split[0]],
      [booking, split[1]],
    ] as const)
      await eventually(async () => {
        const usage = (await get(`/v1/usage?${aroundToday()}&agent_id=${agent}`)).body;
        return usage.totals.cost.total_micros === part.cost.total_micros &&
          usage.totals.cost.model_micros === part.cost.model_micros
          ? usage
          : null;
      }, `usage of ${agent}: ${part.cost.total_micros} micro-units`);
  });

  it('takes squad_id on POST /v1/messages: a new conversation answered by the squad, with the same refusals as a call', async () => {
    const deleted = await post('/v1/squads', {
      name: 'Gone',
      members: [{ name: 'only', agent_id: reception }],
      start: 'only',
    });
    expect((await request('DELETE', `/v1/squads/${deleted.body.id}`, { key: t.testKey })).status).to.equal(200);
    const to = customerNumber();
    const base = { channel: 'sms', to, text: 'Hi from Acme.' };
    const cases: [Tenant, unknown, number, string, string][] = [
      [t, { ...base, agent_id: reception, squad_id: squad }, 400, 'parameter_invalid', 'squad_id'],
      [t, { ...base, squad_id: deleted.body.id }, 404, 'resource_missing', 'squad_id'],
      [t, { ...base, squad_id: 'sqd_00000000000000000000000000' }, 404, 'resource_missing', 'squad_id'],
      [other, { ...base, squad_id: squad }, 404, 'resource_missing', 'squad_id'],
    ];
    for (const [tenant, body, status, code, param] of cases) {
      const res = await post('/v1/messages', body, tenant);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.include({ code, param });
    }
    const none = await get(`/v1/conversations?customer_number=${encodeURIComponent(to)}`);
    expect(none.body.data, 'a refused message creates nothing').to.deep.equal([]);

    const sent = await post('/v1/messages', { ...base, squad_id: squad });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const convId = sent.body.conversation_id as string;
    expect((await get(`/v1/conversations/${convId}`)).body).to.include({
      squad_id: squad,
      squad_member: 'reception',
      agent_id: reception,
    });
    await inbound(t.testKey, { channel: 'sms', from: to, text: 'HANDOFF booking' });
    const replies = await waitForMessages(t.testKey, convId, 1, (m) => m.author === 'assistant');
    // Booking answers at once, from the summary alone (no customer line is passed on: the fake model's echo is empty).
    expect(replies.map((m) => [m.text, m.agent_id])).to.deep.equal([['You said:', booking]]);
    const handoff = (await waitForMessages(t.testKey, convId, 1, (m) => m.author === 'handoff'))[0];
    expect(handoff.handoff).to.include({ from: 'reception', to: 'booking', context: 'summary' });
    expect(handoff.handoff.summary).to.be.a('string');
    // The summary request is metered to the conversation (its owner found from the conversation).
    const rows = await eventually(async () => {
      const found = await UsageRecord.find({ subject_id: convId, kind: 'llm_request' }).lean();
      const asked = h().llm.requests.filter((r) => r.user === convId && r.usage).length;
      return found.length === asked && asked >= 3 ? found : null;
    }, 'every request of the conversation metered');
    expect(rows.every((r) => typeof r.cost_total_micros === 'number')).to.equal(true);
    expect((await get(`/v1/conversations/${convId}`)).body).to.include({ squad_member: 'booking', agent_id: booking });
  });

  it('switches an existing conversation to a squad (POST /v1/messages squad_id), which keeps its member when it continues as new', async () => {
    const from = customerNumber();
    const doc = await ensureConversation(
      { orgId: t.orgId, livemode: false, channel: 'sms', customerNumber: from },
      { serviceNumber: SIMULATED_NUMBER, agentId: t.agentId },
    );
    const handle = await h().env.client.workflow.start<ConversationWorkflow>(CONVERSATION_WORKFLOW, {
      workflowId: doc.key,
      taskQueue: h().taskQueue,
      args: [{ ...conversationInput(doc), continueAsNewAtHistoryLength: 100 }],
    });
    await inbound(t.testKey, { channel: 'sms', from, text: 'Hello.' });
    await waitForMessages(t.testKey, doc._id, 1, (m) => m.author === 'assistant');
    const switched = await post('/v1/messages', {
      channel: 'sms',
      to: from,
      text: 'Our desk takes over.',
      squad_id: squad,
    });
    expect(switched.status, JSON.stringify(switched.body)).to.equal(200);
    await eventually(
      async () => ((await get(`/v1/conversations/${doc._id}`)).body.squad_id === squad ? true : null),
      'the conversation runs the squad',
    );
    await inbound(t.testKey, { channel: 'sms', from, text: 'HANDOFF booking' });
    await waitForMessages(t.testKey, doc._id, 1, (m) => m.author === 'handoff');
    await waitForMessages(t.testKey, doc._id, 1, (m) => m.agent_id === booking);
    const handedRun = (await handle.describe()).runId;
    // More lines until the run continues as new; booking answers every one.
    let n = 0;
    while ((await handle.describe()).runId === handedRun) {
      n++;
      expect(n, 'the run continues as new').to.be.lessThan(12);
      await inbound(t.testKey, { channel: 'sms', from, text: `line ${n}` });
      await waitForMessages(t.testKey, doc._id, 1, (m) => m.text === `You said: line ${n}`);
    }
    await inbound(t.testKey, { channel: 'sms', from, text: 'Still there?' });
    const last = (await waitForMessages(t.testKey, doc._id, 1, (m) => m.text === 'You said: Still there?'))[0];
    expect(last.agent_id, 'the continued run answers with the member it was left with').to.equal(booking);
    const prompt = h()
      .llm.requests.filter((r) => r.user === doc._id)
      .pop()!;
    expect(String(prompt.messages[0].content)).to.include('BOOKING prompt.');
    expect((prompt.tools ?? []).map((x: { function: { name: string } }) => x.function.name)).to.not.include(
      'handoff_to_booking',
    );
    const conv = (await get(`/v1/conversations/${doc._id}`)).body;
    expect(conv).to.include({ squad_id: squad, squad_member: 'booking', agent_id: booking });
    const all = await messagesOf(t.testKey, doc._id);
    expect(all.filter((m) => m.author === 'handoff')).to.have.length(1);
  });

  it("ends a squad's run of a conversation when a message names an agent, even the answering member's", async () => {
    const from = customerNumber();
    const started = await post('/v1/messages', {
      channel: 'sms',
      to: from,
      text: 'The desk is here.',
      squad_id: squad,
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const conversationId = started.body.conversation_id;
    expect((await get(`/v1/conversations/${conversationId}`)).body).to.include({
      squad_id: squad,
      agent_id: reception,
    });
    // The start member's own agent, named: the squad stops answering, the agent answers alone.
    const named = await post('/v1/messages', {
      channel: 'sms',
      to: from,
      text: 'Reception only now.',
      agent_id: reception,
    });
    expect(named.status, JSON.stringify(named.body)).to.equal(200);
    await eventually(
      async () => ((await get(`/v1/conversations/${conversationId}`)).body.squad_id === null ? true : null),
      'the squad no longer answers',
    );
    await inbound(t.testKey, { channel: 'sms', from, text: 'Anyone there?' });
    await waitForMessages(t.testKey, conversationId, 1, (m) => m.text === 'You said: Anyone there?');
    const prompt = h()
      .llm.requests.filter((r) => r.user === conversationId)
      .pop()!;
    expect(String(prompt.messages[0].content)).to.include('RECEPTION prompt.');
    const offered = (prompt.tools ?? []).map((x: { function: { name: string } }) => x.function.name);
    expect(offered, 'no hand-off to a member offered').to.not.include('handoff_to_booking');
    expect((await get(`/v1/conversations/${conversationId}`)).body).to.include({
      squad_id: null,
      squad_member: null,
      agent_id: reception,
    });
  });

  it('takes squad_id on SIP trunks: the trunk’s inbound calls run as squad calls and hand off', async () => {
    const number = '+14155550991';
    const base = { termination_uri: 'sip:sip.carrier.example', numbers: [number] };
    const cases: [unknown, number, string][] = [
      [{ ...base, agent_id: reception, squad_id: squad }, 400, 'squad_id'],
      [{ ...base, squad_id: 'sqd_00000000000000000000000000' }, 404, 'squad_id'],
    ];
    for (const [body, status, param] of cases) {
      const res = await post('/v1/sip_trunks', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error.param).to.equal(param);
    }
    expect(await PhoneNumber.countDocuments({ org_id: t.orgId, number }), 'nothing claimed').to.equal(0);
    const trunk = await post('/v1/sip_trunks', { ...base, squad_id: squad });
    expect(trunk.status, JSON.stringify(trunk.body)).to.equal(200);
    expect(trunk.body).to.include({ squad_id: squad, agent_id: null });
    const row = await PhoneNumber.findOne({ org_id: t.orgId, livemode: false, number }).lean();
    expect(row).to.include({ squad_id: squad, agent_id: null, source: 'sip_trunk' });

    const placed = await post('/v1/test_helpers/inbound_calls', {
      from: customerNumber(),
      to: number,
      simulation: { caller: ['Hello.', 'HANDOFF booking', 'Bye.'] },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body).to.include({ squad_id: squad, agent_id: reception, direction: 'inbound' });
    const call = await waitForCall(t.testKey, placed.body.id, (c) => c.status === 'completed');
    expect(call.squad_member).to.equal('booking');

    // Both again on update: refused; an agent replaces the squad on the trunk and its numbers.
    const both = await post(`/v1/sip_trunks/${trunk.body.id}`, { agent_id: reception, squad_id: squad });
    expect(both.status).to.equal(400);
    expect(both.body.error.param).to.equal('squad_id');
    const updated = await post(`/v1/sip_trunks/${trunk.body.id}`, { agent_id: reception });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.include({ agent_id: reception, squad_id: null });
    const after = await PhoneNumber.findOne({ org_id: t.orgId, livemode: false, number }).lean();
    expect(after).to.include({ agent_id: reception, squad_id: null });
  });
});
