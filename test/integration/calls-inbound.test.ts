/**
 * Inbound calls: test mode through `POST /v1/test_helpers/inbound_calls`, live mode through
 * Twilio's signed incoming-call webhook and the ConversationRelay WebSocket, answered on the same
 * `callWorkflow`; who is calling (contacts), the number's inbound webhook choosing the agent (or timing
 * out, answering garbage, rejecting), the same CallSid twice, and bad input.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Call, InboundCallSid } from '../../src/models/calls';
import { Contact } from '../../src/models/contacts';
import { verifySignature } from '../../src/providers/webhook-signing';
import { postAsTwilio, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { relayClient } from '../support/relay-client';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** The events of call `callId`, oldest first. */
async function eventsOf(key: string, callId: string) {
  const res = await request('GET', '/v1/events?limit=100', { key });
  expect(res.status).to.equal(200);
  return (res.body.data as any[]).filter((e) => e.data.object.id === callId).reverse();
}

async function simulateInbound(key: string, body: Record<string, unknown>) {
  const res = await request('POST', '/v1/test_helpers/inbound_calls', { key, body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

async function connectNumber(key: string, body: Record<string, unknown>) {
  const res = await request('POST', '/v1/phone_numbers', { key, body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('inbound calls', function () {
  this.timeout(120_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  let second: string;

  before(async () => {
    t = await newTenant({ first_message: 'Thanks for calling Acme.' });
    receiver = await startHttpsReceiver();
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Billing Desk', instructions: 'You answer billing questions.', first_message: 'Billing here.' },
    });
    second = agent.body.id;
  });
  after(async () => receiver.close());

  describe('test mode', () => {
    it('answers the simulated number with the default agent: talked, transcribed, events with direction', async () => {
      const call = await simulateInbound(t.testKey, {
        from: '+14155550177',
        simulation: { caller: ['Hi, what are your hours?', 'Thanks, bye!'] },
      });
      expect(call).to.include({
        object: 'call',
        direction: 'inbound',
        from: '+14155550177',
        to: '+15005550006',
        agent_id: t.agentId,
        contact_id: null,
        inbound_webhook: null,
      });
      const ended = await waitForCall(t.testKey, call.id);
      expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up', direction: 'inbound' });
      expect(ended.answered_at).to.be.a('number');

      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      expect(tr.turns.map((x: any) => [x.role, x.text])).to.deep.equal([
        ['assistant', "You're speaking with an automated assistant."],
        ['assistant', 'Thanks for calling Acme.'],
        ['caller', 'Hi, what are your hours?'],
        ['assistant', 'You said: Hi, what are your hours?'],
        ['caller', 'Thanks, bye!'],
        ['assistant', 'You said: Thanks, bye!'],
      ]);
      // The model is told it answers the caller's call.
      const asked = h().llm.requests.filter((r) => r.user === call.id);
      expect(String(asked[0].messages[0].content)).to.contain('answering a phone call from +14155550177');

      const events = await eventsOf(t.testKey, call.id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.ended']);
      for (const e of events) expect(e.data.object).to.include({ direction: 'inbound', from: '+14155550177' });

      const run = await h().env.client.workflow.getHandle(call.id).describe();
      expect(await run.staticSummary()).to.equal('Inbound call +1415…77 → Test Agent, test');
    });

    it("knows the caller: the contact's id and records reach the assistant; a stranger gets none, and no contact is made", async () => {
      const contact = await request('POST', '/v1/contacts', {
        key: t.testKey,
        body: { phone: '+14155550188', name: 'Dana Whitfield' },
      });
      expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
      const rec = await request('POST', '/v1/records', {
        key: t.testKey,
        body: { contact: { phone: '+14155550188' }, records: [{ type: 'note', text: 'Prefers mornings.' }] },
      });
      expect(rec.status, JSON.stringify(rec.body)).to.equal(200);
      const known = await simulateInbound(t.testKey, { from: '+14155550188', simulation: { caller: ['Hello'] } });
      expect(known.contact_id).to.equal(contact.body.id);
      await waitForCall(t.testKey, known.id);
      const prompt = JSON.stringify(h().llm.requests.filter((r) => r.user === known.id)[0].messages);
      expect(prompt).to.contain('Dana Whitfield').and.contain('Prefers mornings.');

      const before = await Contact.countDocuments({ org_id: t.orgId });
      const stranger = await simulateInbound(t.testKey, { from: '+14155550199', simulation: { caller: ['Hello'] } });
      expect(stranger.contact_id).to.equal(null);
      await waitForCall(t.testKey, stranger.id);
      const strangerPrompt = JSON.stringify(h().llm.requests.filter((r) => r.user === stranger.id)[0].messages);
      expect(strangerPrompt).to.not.contain('Dana Whitfield');
      expect(await Contact.countDocuments({ org_id: t.orgId }), 'no contact created').to.equal(before);
    });

    it("answers a connected voice number with the number's agent; lists filter by direction", async () => {
      await connectNumber(t.testKey, { number: '+14155550111', channels: ['voice'], agent_id: second });
      const call = await simulateInbound(t.testKey, {
        from: '+14155550122',
        to: '+14155550111',
        simulation: { caller: ['Bye'] },
      });
      expect(call).to.include({ agent_id: second, to: '+14155550111' });
      await waitForCall(t.testKey, call.id);

      const outbound = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Bye'] } },
      });
      expect(outbound.body.direction).to.equal('outbound');
      const inbound = (await request('GET', '/v1/calls?direction=inbound&limit=100', { key: t.testKey })).body.data;
      expect(inbound.map((c: any) => c.id))
        .to.include(call.id)
        .and.not.include(outbound.body.id);
      expect(inbound.every((c: any) => c.direction === 'inbound')).to.equal(true);
      const out = (await request('GET', '/v1/calls?direction=outbound&limit=100', { key: t.testKey })).body.data;
      expect(out.map((c: any) => c.id))
        .to.include(outbound.body.id)
        .and.not.include(call.id);
      const bad = await request('GET', '/v1/calls?direction=sideways', { key: t.testKey });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'direction' });
    });

    it('refuses a number without voice, another number, and a live key, creating nothing', async () => {
      await connectNumber(t.testKey, { number: '+14155550133', channels: ['sms'] });
      const before = await Call.countDocuments({ org_id: t.orgId });
      for (const to of ['+14155550133', '+14155550144']) {
        const res = await request('POST', '/v1/test_helpers/inbound_calls', {
          key: t.testKey,
          body: { from: '+14155550100', to },
        });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'to' });
      }
      const live = await request('POST', '/v1/test_helpers/inbound_calls', {
        key: t.liveKey,
        body: { from: '+14155550100' },
      });
      expect(live.status).to.equal(403);
      expect(live.body.error.code).to.equal('test_mode_only');
      const badFrom = await request('POST', '/v1/test_helpers/inbound_calls', {
        key: t.testKey,
        body: { from: 'anonymous' },
      });
      expect(badFrom.status).to.equal(400);
      expect(badFrom.body.error.param).to.equal('from');
      expect(await Call.countDocuments({ org_id: t.orgId })).to.equal(before);
    });
  });

  describe("the number's inbound webhook", () => {
    let numberId: string;
    let secret: string;
    const to = '+14155550155';

    before(async () => {
      const number = await connectNumber(t.testKey, {
        number: to,
        channels: ['voice'],
        agent_id: t.agentId,
        inbound_webhook_url: receiver.url('/inbound'),
        inbound_webhook_timeout_ms: 1000,
      });
      numberId = number.id;
      secret = number.inbound_webhook_secret;
      expect(secret).to.match(/^whsec_/);
      expect(number).to.include({ inbound_webhook_url: receiver.url('/inbound'), inbound_webhook_timeout_ms: 1000 });
      const again = await request('GET', `/v1/phone_numbers/${numberId}`, { key: t.testKey });
      expect(again.body, 'the secret is shown once').to.not.have.property('inbound_webhook_secret');
    });

    it('chooses the agent, context and metadata, signed, with the contact', async () => {
      const contact = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone: '+14155550166' } });
      receiver.route('/inbound', () => ({
        status: 200,
        body: JSON.stringify({ agent_id: second, context: { tier: 'gold' }, metadata: { queue: 'billing' } }),
      }));
      const call = await simulateInbound(t.testKey, { from: '+14155550166', to, simulation: { caller: ['Bye'] } });
      expect(call).to.deep.include({
        agent_id: second,
        context: { tier: 'gold' },
        metadata: { queue: 'billing' },
        inbound_webhook: { status: 'succeeded' },
        contact_id: contact.body.id,
      });
      const got = receiver.at('/inbound').at(-1)!;
      expect(got.body).to.deep.equal({
        type: 'call.inbound',
        call_id: call.id,
        from: '+14155550166',
        to,
        contact_id: contact.body.id,
      });
      expect(verifySignature(got.rawBody, got.headers['svc-signature'] as string, secret)).to.equal(true);
      expect(verifySignature(got.rawBody, got.headers['svc-signature'] as string, 'whsec_other')).to.equal(false);
      const ended = await waitForCall(t.testKey, call.id);
      expect(ended).to.include({ status: 'completed', agent_id: second });
      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      expect(tr.turns[0]).to.include({ role: 'assistant', text: "You're speaking with an automated assistant." });
      expect(tr.turns[1]).to.include({ role: 'assistant', text: 'Billing here.' });
    });

    it("falls back to the number's agent on a timeout, a non-2xx, garbage or an unknown agent, and says why", async () => {
      const cases: [() => any, RegExp][] = [
        // Answers long after the number's 1000 ms timeout: the call goes on at the timeout, not at the answer.
        [() => new Promise((r) => setTimeout(() => r({ status: 200, body: '{}' }), 8000)), /^timeout$/],
        [() => ({ status: 500, body: '{}' }), /500/],
        [() => ({ status: 200, body: 'not json' }), /^invalid body/],
        [() => ({ status: 200, body: JSON.stringify({ agent_id: 42 }) }), /^invalid body: agent_id/],
        [
          () => ({ status: 200, body: JSON.stringify({ agent_id: 'agent_00000000000000000000000000' }) }),
          /unknown agent/,
        ],
      ];
      for (const [answer, error] of cases) {
        receiver.route('/inbound', answer);
        const startedMs = Date.now();
        const call = await simulateInbound(t.testKey, { from: '+14155550177', to, simulation: { caller: ['Bye'] } });
        // The timeout plus the call's own start on a loaded machine, well before the 8 s answer.
        expect(Date.now() - startedMs, 'waits at most inbound_webhook_timeout_ms').to.be.lessThan(5000);
        expect(call.agent_id).to.equal(t.agentId);
        expect(call.inbound_webhook.status).to.equal('failed');
        expect(call.inbound_webhook.error).to.match(error);
        expect((await waitForCall(t.testKey, call.id)).status).to.equal('completed');
      }
    });

    it('rejects the call when the webhook says reject: canceled, rejected, call.ended only', async () => {
      receiver.route('/inbound', () => ({ status: 200, body: JSON.stringify({ reject: true }) }));
      const call = await simulateInbound(t.testKey, { from: '+14155550177', to });
      const ended = await waitForCall(t.testKey, call.id);
      expect(ended).to.include({ status: 'canceled', end_reason: 'rejected', answered_at: null });
      expect((await eventsOf(t.testKey, call.id)).map((e) => e.type)).to.deep.equal(['call.ended']);
      expect(h().llm.requests.filter((r) => r.user === call.id)).to.have.length(0);
    });

    it('refuses a webhook URL that is not HTTPS or is private, and clears it with null', async () => {
      for (const url of ['http://example.com/hook', 'not a url']) {
        const res = await request('POST', `/v1/phone_numbers/${numberId}`, {
          key: t.testKey,
          body: { inbound_webhook_url: url },
        });
        expect(res.status, url).to.equal(400);
        expect(res.body.error.param).to.equal('inbound_webhook_url');
      }
      const saved = config();
      setConfig({ ...saved, webhookAllowPrivate: false });
      try {
        const res = await request('POST', `/v1/phone_numbers/${numberId}`, {
          key: t.testKey,
          body: { inbound_webhook_url: 'https://127.0.0.1/hook' },
        });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'url_private_address', param: 'inbound_webhook_url' });
      } finally {
        setConfig(saved);
      }
      const tooLong = await request('POST', `/v1/phone_numbers/${numberId}`, {
        key: t.testKey,
        body: { inbound_webhook_timeout_ms: 9000 },
      });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.error.param).to.equal('inbound_webhook_timeout_ms');
      const kept = await request('GET', `/v1/phone_numbers/${numberId}`, { key: t.testKey });
      expect(kept.body.inbound_webhook_url, 'nothing half written').to.equal(receiver.url('/inbound'));

      const cleared = await request('POST', `/v1/phone_numbers/${numberId}`, {
        key: t.testKey,
        body: { inbound_webhook_url: null, overflow_to: '+14155550000' },
      });
      expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
      expect(cleared.body).to.include({ inbound_webhook_url: null, overflow_to: '+14155550000' });
      const set = await request('POST', `/v1/phone_numbers/${numberId}`, {
        key: t.testKey,
        body: { inbound_webhook_url: receiver.url('/inbound') },
      });
      expect(set.body.inbound_webhook_secret, 'a new secret once the URL is set again').to.match(/^whsec_/);
      expect(set.body.inbound_webhook_secret).to.not.equal(secret);
      secret = set.body.inbound_webhook_secret;
    });
  });

  describe('live, through Twilio', () => {
    let fake: FakeTwilio;
    let restoreTwilio: () => Promise<void>;
    let liveAgent: string;
    const ours = '+14155550101';

    before(async () => {
      ({ fake, restore: restoreTwilio } = await useFakeTwilio());
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Front Desk', instructions: 'Be brief.', first_message: 'Front desk, how can I help?' },
      });
      liveAgent = agent.body.id;
      await connectNumber(t.liveKey, { number: ours, channels: ['voice', 'sms'], agent_id: liveAgent });
    });
    after(async () => restoreTwilio());

    /** Posts a Twilio webhook, signed by the account it speaks of (unsigned: a bogus signature). */
    const twilioPost = (path: string, params: Record<string, string>, signed = true) =>
      postAsTwilio(fake, path, params, signed ? undefined : 'bogus');
    const newSid = () => 'CA' + [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');

    it('answers with ConversationRelay, talks, and ends when the caller hangs up; one call per CallSid', async () => {
      const sid = newSid();
      const params = { CallSid: sid, From: '+14155550123', To: ours, CallStatus: 'ringing' };
      const twiml = await twilioPost('/twilio/voice/inbound', params);
      expect(twiml.status).to.equal(200);
      const link = await InboundCallSid.findById(sid).lean();
      const id = link!.call_id;
      expect(twiml.text)
        .to.contain('<Connect')
        .and.contain(`action="${h().api.url}/twilio/voice/${id}/ended"`)
        .and.contain('<ConversationRelay')
        .and.contain(`/twilio/relay/${id}?sid=${sid}`)
        .and.contain(`welcomeGreeting="You're speaking with an automated assistant. Front desk, how can I help?"`);
      // Twilio retries the webhook: the same call, the same answer.
      const retried = await twilioPost('/twilio/voice/inbound', params);
      expect(retried.text).to.equal(twiml.text);
      expect(await Call.countDocuments({ provider_call_sid: sid })).to.equal(1);

      const live = await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      expect(live).to.include({ direction: 'inbound', from: '+14155550123', to: ours, agent_id: liveAgent });
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550123', to: ours });
      expect(await session.say('Do you open on Sundays?')).to.deep.equal({
        type: 'text',
        token: 'You said: Do you open on Sundays?',
        last: true,
      });
      session.ws.close();
      // The caller hangs up: Twilio requests the <Connect> action.
      const ended = await twilioPost(`/twilio/voice/${id}/ended`, { CallSid: sid, CallStatus: 'completed' });
      expect(ended.text).to.contain('<Hangup/>');
      const done = await waitForCall(t.liveKey, id);
      expect(done).to.include({ status: 'completed', end_reason: 'caller_hung_up', livemode: true });
      expect(fake.created, 'nothing dialed for an inbound call').to.have.length(0);
      const events = await eventsOf(t.liveKey, id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.ended']);
      expect(events[1].data.object.direction).to.equal('inbound');
      const tr = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body;
      expect(tr.turns.map((x: any) => x.text)).to.deep.equal([
        "You're speaking with an automated assistant.",
        'Front desk, how can I help?',
        'Do you open on Sundays?',
        'You said: Do you open on Sundays?',
      ]);
    });

    it('answers a caller who withholds their number (From anonymous): no contact, the same relay', async () => {
      const sid = newSid();
      const twiml = await twilioPost('/twilio/voice/inbound', { CallSid: sid, From: 'anonymous', To: ours });
      expect(twiml.text).to.contain('<ConversationRelay');
      const id = (await InboundCallSid.findById(sid).lean())!.call_id;
      const call = await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      expect(call).to.include({ from: 'anonymous', contact_id: null, direction: 'inbound' });
      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      expect((await waitForCall(t.liveKey, id)).end_reason).to.equal('api_ended');
    });

    it('403 for an unsigned request; a short line and a hang-up for an unknown number or one without voice; nothing created', async () => {
      const before = await Call.countDocuments({});
      const unsigned = await twilioPost(
        '/twilio/voice/inbound',
        { CallSid: newSid(), From: '+14155550123', To: ours },
        false,
      );
      expect(unsigned.status).to.equal(403);
      await connectNumber(t.liveKey, { number: '+14155550102', channels: ['sms'] });
      for (const number of ['+14155550999', '+14155550102']) {
        const res = await twilioPost('/twilio/voice/inbound', { CallSid: newSid(), From: '+14155550123', To: number });
        expect(res.status).to.equal(200);
        expect(res.text).to.contain('<Say>').and.contain('<Hangup/>').and.not.contain('<Connect');
      }
      expect(await Call.countDocuments({})).to.equal(before);
    });
  });
});
