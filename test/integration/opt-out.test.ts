/**
 * Opt-outs on the spot, through the real API, store and Temporal: the built-in `opt_out` tool on a call
 * (scripted through the fake LLM) makes the contact `do_not_call`, lists the number on the
 * organization's do-not-call list (`source: "opt_out"`), emits one `contact.opted_out` and ends the call
 * after the confirmation; a campaign then skips the number (`result: "do_not_call"`, no call to it). On a
 * live call the confirmation reaches ConversationRelay before the session ends. An agent may switch the
 * tool off. An SMS/WhatsApp STOP records the messaging opt-out on the same contact record (one event;
 * calls not blocked), START clears it. The service that records an opt-out, run twice (a retried
 * activity), concurrently, or again after dying before its event, creates one contact and one event.
 */
import { expect } from 'chai';
import { config, setConfig, type Config } from '../../src/config';
import { Event } from '../../src/models/events';
import { recordOptOut, type OptOutInput } from '../../src/services/opt-outs';
import { allResults, campaignCalls, createForm, startCampaign, waitForCampaign } from '../support/bulk-calls';
import { customerNumber, inbound } from '../support/conversations';
import { postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { relayClient } from '../support/relay-client';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** The tenant's contact with `phone`, or null. */
async function contactOf(key: string, phone: string): Promise<any> {
  const res = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data[0] ?? null;
}

/** The tenant's `contact.opted_out` events about `phone`, newest first. */
async function optOutEvents(key: string, phone: string): Promise<any[]> {
  const res = await request('GET', '/v1/events?type=contact.opted_out&limit=100', { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data.filter((e: any) => e.data.object.phone === phone);
}

describe('opt-outs', function () {
  this.timeout(120_000);
  let t: Tenant;

  before(async () => {
    t = await newTenant({ first_message: 'Hello from the test agent.' });
  });

  it('an opt-out on a call: do_not_call, listed, one contact.opted_out, the call ends; a campaign then skips the number', async () => {
    const callee = customerNumber();
    const created = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: callee,
        agent_id: t.agentId,
        simulation: { caller: ['Hello', 'TOOLONCE opt_out {}', 'Are you still there?'] },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const call = await waitForCall(t.testKey, created.body.id);
    expect(call).to.include({ status: 'completed', end_reason: 'assistant_ended' });

    // The confirmation is said after the opt-out is recorded, and the call ends before the caller's next line.
    const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
    const lines = tr.turns.map((x: any) => [x.role, x.text]);
    // From the caller's request on (the opening, with the AI disclosure, and the first exchange before it).
    const at = lines.findIndex((l: string[]) => l[1] === 'TOOLONCE opt_out {}');
    expect(at).to.be.above(0);
    expect(lines.slice(at)).to.deep.equal([
      ['caller', 'TOOLONCE opt_out {}'],
      ['assistant', 'Calling opt_out.'],
      ['tool', lines[at + 2][1]],
      ['assistant', 'Tool result received.'],
    ]);
    expect(lines[at + 2][1]).to.match(/^Done: this number will not be called again/);
    const offered = h()
      .llm.requests.find((r) => r.user === call.id)!
      .tools!.map((x) => x.function.name);
    expect(offered).to.include('opt_out');

    const contact = await contactOf(t.testKey, callee);
    expect(contact, 'a contact was created for the number').to.include({ phone: callee, do_not_call: true });
    expect(contact.opt_outs).to.deep.equal([
      {
        channel: 'voice',
        source: 'opt_out_tool',
        created: contact.opt_outs[0].created,
        call_id: call.id,
        conversation_id: null,
      },
    ]);
    const listed = await request('GET', `/v1/do_not_call/${encodeURIComponent(callee)}`, { key: t.testKey });
    expect(listed.status).to.equal(200);
    expect(listed.body).to.include({ phone: callee, source: 'opt_out' });
    const events = await optOutEvents(t.testKey, callee);
    expect(events).to.have.length(1);
    expect(events[0].data.object).to.include({ id: contact.id, do_not_call: true });
    expect(events[0].data.object.opt_out).to.include({ channel: 'voice', source: 'opt_out_tool', call_id: call.id });

    // A campaign containing the number skips it and dials the other one.
    const other = customerNumber();
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: await createForm(t.testKey),
      contacts: [callee, other],
    });
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.counts).to.include({ skipped: 1 });
    const results = await allResults(t.testKey, campaign.id);
    expect(results.map((r) => [r.contact, r.status, r.call_ids.length])).to.deep.equal([
      [callee, 'do_not_call', 0],
      [other, results[1].status, 1],
    ]);
    expect((await campaignCalls(t.testKey, campaign.id)).map((c) => c.to)).to.deep.equal([other]);
  });

  it('on a live call the confirmation reaches ConversationRelay, then the session ends; Twilio never dials the number again', async () => {
    const fake: FakeTwilio = await startFakeTwilio();
    const saved: Config = config();
    setConfig({
      ...saved,
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      twilioApiBaseUrl: fake.url,
      publicBaseUrl: h().api.url,
    });
    try {
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'x' } });
      const callee = customerNumber();
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: callee, from: '+14155550100', agent_id: agent.body.id },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      const post = (path: string, params: Record<string, string>) => postAsTwilio(fake, path, params);
      await post(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: callee });
      const said = await session.say('TOOLONCE opt_out {}');
      expect(said.type).to.equal('text');
      const spoken = session.raw
        .filter((r) => r.msg.type === 'text')
        .map((r) => r.msg.token)
        .join('');
      expect(spoken, 'the confirmation is said').to.contain('Tool result received.');
      expect((await session.next()).type, 'the relay ends the session after the confirmation').to.equal('end');
      session.ws.close();
      await post(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
      expect(await waitForCall(t.liveKey, id)).to.include({ status: 'completed', end_reason: 'assistant_ended' });

      expect(await contactOf(t.liveKey, callee)).to.include({ do_not_call: true, livemode: true });
      expect((await optOutEvents(t.liveKey, callee)).map((e) => e.livemode)).to.deep.equal([true]);
      // Test mode is another world: the live opt-out is not there.
      expect(await contactOf(t.testKey, callee)).to.equal(null);
      expect(fake.created.filter((c) => c.To === callee)).to.have.length(1);
    } finally {
      setConfig(saved);
      await fake.close();
    }
  });

  it('an agent may switch the tool off (opt_out_tool: false); it is on by default', async () => {
    const off = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'No opt-out', instructions: 'x', opt_out_tool: false },
    });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body.opt_out_tool).to.equal(false);
    const versions = await request('GET', `/v1/agents/${off.body.id}/versions`, { key: t.testKey });
    expect(versions.body.data[0].config.opt_out_tool).to.equal(false);
    const on = (await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey })).body;
    expect(on.opt_out_tool).to.equal(true);

    const callee = customerNumber();
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: callee, agent_id: off.body.id, simulation: { caller: ['TOOL opt_out {}'] } },
    });
    const call = await waitForCall(t.testKey, res.body.id);
    const offered = h()
      .llm.requests.find((r) => r.user === call.id)!
      .tools!.map((x) => x.function.name);
    expect(offered).to.include('end_call').and.not.include('opt_out');
    const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
    expect(tr.turns.find((x: any) => x.role === 'tool').text).to.match(/not available/);
    expect(await contactOf(t.testKey, callee)).to.equal(null);
    expect(await optOutEvents(t.testKey, callee)).to.deep.equal([]);

    // Switched on again by an update.
    const back = await request('POST', `/v1/agents/${off.body.id}`, { key: t.testKey, body: { opt_out_tool: true } });
    expect(back.body.opt_out_tool).to.equal(true);
    const bad = await request('POST', `/v1/agents/${off.body.id}`, { key: t.testKey, body: { opt_out_tool: 'no' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('opt_out_tool');
  });

  it('an SMS STOP is the same record: a messaging opt-out on the contact, one event, calls not blocked; START clears it', async () => {
    const from = customerNumber();
    const stop = await inbound(t.testKey, { channel: 'sms', from, text: 'STOP' });
    expect(stop.status, JSON.stringify(stop.body)).to.equal(200);
    const conversationId = stop.body.conversation_id;
    let contact = await contactOf(t.testKey, from);
    expect(contact).to.include({ phone: from, do_not_call: false });
    expect(contact.opt_outs).to.deep.equal([
      {
        channel: 'sms',
        source: 'sms_stop',
        created: contact.opt_outs[0].created,
        call_id: null,
        conversation_id: conversationId,
      },
    ]);
    // A messaging opt-out does not list the number for calls.
    const listed = await request('GET', `/v1/do_not_call/${encodeURIComponent(from)}`, { key: t.testKey });
    expect(listed.status).to.equal(404);

    // A second STOP while opted out: no second event.
    await inbound(t.testKey, { channel: 'sms', from, text: 'stop' });
    let events = await optOutEvents(t.testKey, from);
    expect(events).to.have.length(1);
    expect(events[0].data.object.opt_out).to.deep.include({
      channel: 'sms',
      source: 'sms_stop',
      conversation_id: conversationId,
    });

    // WhatsApp is another channel: its own opt-out and event, on the same contact.
    await inbound(t.testKey, { channel: 'whatsapp', from, text: 'STOP' });
    contact = await contactOf(t.testKey, from);
    expect(contact.opt_outs.map((o: any) => [o.channel, o.source])).to.deep.equal([
      ['sms', 'sms_stop'],
      ['whatsapp', 'whatsapp_stop'],
    ]);
    expect(await optOutEvents(t.testKey, from)).to.have.length(2);

    await inbound(t.testKey, { channel: 'sms', from, text: 'START' });
    contact = await contactOf(t.testKey, from);
    expect(contact.opt_outs.map((o: any) => o.channel)).to.deep.equal(['whatsapp']);
    // Opted out again after START: a new opt-out, a new event.
    await inbound(t.testKey, { channel: 'sms', from, text: 'STOP' });
    events = await optOutEvents(t.testKey, from);
    expect(events).to.have.length(3);
    expect((await contactOf(t.testKey, from)).opt_outs.map((o: any) => o.channel)).to.deep.equal(['sms', 'whatsapp']);
  });

  it('recording an opt-out twice, concurrently, or again after dying before its event: one contact, one event', async () => {
    const phone = customerNumber();
    const input: OptOutInput = {
      orgId: t.orgId,
      livemode: false,
      phone,
      channel: 'voice',
      source: 'opt_out_tool',
      callId: 'call_01jd5x2v7c0000000000000000',
      conversationId: null,
      key: `tc_${Math.random().toString(36).slice(2)}`,
      atMs: Date.now(),
    };
    const client = h().env.client;
    const [a, b] = await Promise.all([recordOptOut(client, input), recordOptOut(client, input)]);
    expect(a.contactId).to.be.a('string').and.equal(b.contactId);
    expect(a.eventId).to.equal(b.eventId);
    const again = await recordOptOut(client, input);
    expect(again).to.deep.equal(a);
    expect(await optOutEvents(t.testKey, phone)).to.have.length(1);
    const contacts = (await request('GET', '/v1/contacts?limit=100', { key: t.testKey })).body.data.filter(
      (c: any) => c.phone === phone,
    );
    expect(contacts, 'one contact for the number').to.have.length(1);

    // A worker that died after the contact was written but before the event was stored: the retry emits it.
    await Event.deleteOne({ _id: a.eventId });
    expect(await optOutEvents(t.testKey, phone)).to.have.length(0);
    expect(await recordOptOut(client, input)).to.deep.equal(a);
    expect((await optOutEvents(t.testKey, phone)).map((e) => e.id)).to.deep.equal([a.eventId]);

    // Another request (another call's opt-out) for a number already opted out: nothing new.
    const later = await recordOptOut(client, { ...input, key: 'tc_other', atMs: Date.now() });
    expect(later).to.deep.equal({ contactId: a.contactId, recorded: false, eventId: null });
    expect(await optOutEvents(t.testKey, phone)).to.have.length(1);

    // The organization calling the person again clears the voice opt-out with the flag; a new request records anew.
    const cleared = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone, do_not_call: false } });
    expect(cleared.body).to.include({ id: a.contactId, do_not_call: false });
    expect(cleared.body.opt_outs).to.deep.equal([]);
    const anew = await recordOptOut(client, { ...input, key: 'tc_third', atMs: Date.now() });
    expect(anew).to.include({ contactId: a.contactId, recorded: true });
    expect(await contactOf(t.testKey, phone)).to.include({ do_not_call: true });
    expect(await optOutEvents(t.testKey, phone)).to.have.length(2);
  });
});
