/**
 * Live calls through Twilio, with a Twilio-shaped REST server on loopback driven by the real `twilio`
 * package, signed status callbacks and TwiML fetches, and the ConversationRelay WebSocket spoken to as
 * Twilio would: setup, prompts, DTMF.
 */
import { expect } from 'chai';
import twilio from 'twilio';
import WebSocket from 'ws';
import { config, setConfig, type Config } from '../../src/config';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { startHttpsReceiver } from '../support/https-receiver';
import { verifySignature } from '../../src/lib/webhook-signing';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('live calls through Twilio', function () {
  let fake: FakeTwilio;
  let saved: Config;
  let t: Tenant;
  let agentId: string;

  before(async () => {
    fake = await startFakeTwilio();
    saved = config();
    setConfig({ ...saved, twilioAccountSid: fake.accountSid, twilioAuthToken: fake.authToken, twilioApiBaseUrl: fake.url, publicBaseUrl: h().api.url });
    t = await newTenant();
    const agent = await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hi, this is Live.' } });
    agentId = agent.body.id;
  });
  after(async () => {
    setConfig(saved);
    await fake.close();
  });

  const sign = (path: string, params: Record<string, string>, ws = false) =>
    twilio.getExpectedTwilioSignature(fake.authToken, (ws ? h().api.url.replace(/^http/, 'ws') : h().api.url) + path, params);

  async function twilioPost(path: string, params: Record<string, string>, signature = sign(path, params)) {
    const res = await fetch(h().api.url + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, text: await res.text() };
  }

  async function placeLive(metadata: Record<string, string> = {}) {
    const before = fake.created.length;
    const res = await request('POST', '/v1/calls', { key: t.liveKey, body: { to: '+14155550123', from: '+14155550100', agent_id: agentId, metadata } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'queued', livemode: true, simulated: false });
    const call = await waitForCall(t.liveKey, res.body.id, (c) => c.status === 'ringing');
    expect(fake.created.length).to.equal(before + 1);
    return { id: call.id as string, placed: fake.created[fake.created.length - 1] };
  }

  /** The Twilio Call SID the fake created for call `id`. */
  const sidOf = (id: string) => fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;

  async function answer(id: string) {
    expect((await twilioPost(`/twilio/status/${id}`, { CallSid: sidOf(id), CallStatus: 'in-progress' })).status).to.equal(204);
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
  }

  function relay(id: string): Promise<{ ws: WebSocket; say(text: string): Promise<any>; next(): Promise<any> }> {
    const path = `/twilio/relay/${id}?sid=${sidOf(id)}`;
    const ws = new WebSocket(h().api.url.replace(/^http/, 'ws') + path, { headers: { 'X-Twilio-Signature': sign(path, {}, true) } });
    const inbox: any[] = [];
    const waiters: ((m: any) => void)[] = [];
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      const w = waiters.shift();
      if (w) w(msg);
      else inbox.push(msg);
    });
    const next = () => new Promise<any>((resolve) => (inbox.length ? resolve(inbox.shift()) : waiters.push(resolve)));
    return new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => {
        ws.send(JSON.stringify({ type: 'setup', sessionId: `VX${id}`, callSid: sidOf(id), from: '+14155550100', to: '+14155550123' }));
        resolve({ ws, next, say: async (text: string) => (ws.send(JSON.stringify({ type: 'prompt', voicePrompt: text, lang: 'en-US', last: true })), next()) });
      });
    });
  }

  it('places the call with Twilio, connects ConversationRelay, talks, and hangs up when the assistant ends', async () => {
    const { id, placed } = await placeLive({ crm: '42' });
    expect(placed).to.include({ To: '+14155550123', From: '+14155550100', Url: `${h().api.url}/twilio/voice/${id}`, StatusCallback: `${h().api.url}/twilio/status/${id}` });
    await answer(id);

    const twiml = await twilioPost(`/twilio/voice/${id}`, { CallSid: sidOf(id) });
    expect(twiml.status).to.equal(200);
    expect(twiml.text).to.contain('<Connect><ConversationRelay').and.contain(`url="${h().api.url.replace(/^http/, 'ws')}/twilio/relay/${id}?sid=${sidOf(id)}"`).and.contain('welcomeGreeting="Hi, this is Live."');

    const session = await relay(id);
    expect(await session.say('Hello there')).to.deep.equal({ type: 'text', token: 'You said: Hello there', last: true });
    expect(await session.say('TOOL end_call {}')).to.deep.equal({ type: 'text', token: 'Calling end_call.', last: true });
    expect((await session.next()).type, 'the relay ends the session after the goodbye').to.equal('end');
    session.ws.close();
    // Twilio, out of TwiML, hangs up and reports it; the service does not cut the goodbye short.
    const updatesBefore = fake.updates.length;
    await twilioPost(`/twilio/status/${id}`, { CallSid: sidOf(id), CallStatus: 'completed' });

    const ended = await waitForCall(t.liveKey, id);
    expect(ended).to.include({ status: 'completed', end_reason: 'assistant_ended', livemode: true });
    expect(fake.updates.length, 'no hang-up through the REST API was needed').to.equal(updatesBefore);
    const tr = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body;
    expect(tr.turns.map((x: any) => x.text).slice(0, 3)).to.deep.equal(['Hi, this is Live.', 'Hello there', 'You said: Hello there']);
    const events = (await request('GET', '/v1/events?limit=100', { key: t.liveKey })).body.data.filter((e: any) => e.data.object.id === id);
    expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
    expect(events.every((e: any) => e.livemode === true && e.data.object.metadata.crm === '42')).to.equal(true);
  });

  it('hangs up through the REST API when Twilio does not end the call after the goodbye', async function () {
    this.timeout(60_000);
    const { id } = await placeLive();
    await answer(id);
    const session = await relay(id);
    await session.say('TOOL end_call {}');
    session.ws.close();
    const ended = await waitForCall(t.liveKey, id, undefined, 30_000);
    expect(ended).to.include({ status: 'completed', end_reason: 'assistant_ended' });
    expect(fake.updates.some((u) => u.params.Status === 'completed'), 'hung up through Twilio').to.equal(true);
  });

  it('transfers a live call with <Dial> through Twilio', async () => {
    const { id } = await placeLive();
    await answer(id);
    const res = await request('POST', `/v1/calls/${id}/transfer`, { key: t.liveKey, body: { to: '+14155550111' } });
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('transferred');
    const dial = fake.updates.find((u) => (u.params.Twiml ?? '').includes('+14155550111'));
    expect(dial?.params.Twiml).to.contain('<Dial><Number>+14155550111</Number></Dial>');
  });

  it('ends busy when Twilio reports busy, and caller_hung_up when the caller hangs up', async () => {
    const busy = await placeLive();
    await twilioPost(`/twilio/status/${busy.id}`, { CallSid: sidOf(busy.id), CallStatus: 'busy' });
    expect(await waitForCall(t.liveKey, busy.id)).to.include({ status: 'busy', end_reason: 'busy' });

    const hung = await placeLive();
    await answer(hung.id);
    await twilioPost(`/twilio/status/${hung.id}`, { CallSid: sidOf(hung.id), CallStatus: 'completed' });
    expect(await waitForCall(t.liveKey, hung.id)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
  });

  it('passes DTMF digits to the assistant', async () => {
    const { id } = await placeLive();
    await answer(id);
    const session = await relay(id);
    session.ws.send(JSON.stringify({ type: 'dtmf', digit: '5' }));
    const reply = await new Promise<any>((resolve) => session.ws.once('message', (raw) => resolve(JSON.parse(String(raw)))));
    expect(reply.token).to.equal('You said: DTMF 5');
    session.ws.close();
    await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
  });

  it('delivers the same webhooks for a live call as for a simulated one (spec section 6, rule 2)', async () => {
    const receiver = await startHttpsReceiver();
    try {
      const endpoint = async (key: string, path: string) => {
        const res = await request('POST', '/v1/webhook-endpoints', { key, body: { url: receiver.url(path), events: ['*'] } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.secret as string;
      };
      const liveSecret = await endpoint(t.liveKey, '/live');
      const testSecret = await endpoint(t.testKey, '/test');

      const live = await placeLive({ source: 'live' });
      await answer(live.id);
      const session = await relay(live.id);
      await session.say('TOOL end_call {}');
      session.ws.close();
      await twilioPost(`/twilio/status/${live.id}`, { CallSid: sidOf(live.id), CallStatus: 'completed' });
      await waitForCall(t.liveKey, live.id);

      const testAgent = await request('POST', '/v1/agents', { key: t.testKey, body: { name: 'Sim', instructions: 'Be brief.' } });
      const sim = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: testAgent.body.id, metadata: { source: 'test' }, simulation: { caller: ['TOOL end_call {}'] } },
      });
      await waitForCall(t.testKey, sim.body.id);

      const got = (path: string, id: string) => receiver.at(path).filter((r) => r.body?.data?.object?.id === id);
      await receiver.waitFor(() => got('/live', live.id).length === 2 && got('/test', sim.body.id).length === 2);
      const liveTypes = got('/live', live.id).map((r) => r.body.type).sort();
      const testTypes = got('/test', sim.body.id).map((r) => r.body.type).sort();
      expect(liveTypes).to.deep.equal(['call.ended', 'call.started']);
      expect(testTypes).to.deep.equal(liveTypes);
      for (const r of got('/live', live.id)) {
        expect(r.body.livemode).to.equal(true);
        expect(r.body.data.object.metadata).to.deep.equal({ source: 'live' });
        expect(verifySignature(r.rawBody, String(r.headers['svc-signature']), liveSecret)).to.equal(true);
      }
      for (const r of got('/test', sim.body.id)) {
        expect(r.body.livemode).to.equal(false);
        expect(r.body.data.object.metadata).to.deep.equal({ source: 'test' });
        expect(verifySignature(r.rawBody, String(r.headers['svc-signature']), testSecret)).to.equal(true);
      }
    } finally {
      await receiver.close();
    }
  });

  it('refuses unsigned or wrongly signed Twilio requests', async () => {
    const { id } = await placeLive();
    const forged = await twilioPost(`/twilio/status/${id}`, { CallStatus: 'in-progress' }, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.status).to.equal(403);
    expect(JSON.parse(forged.text).error.code).to.equal('twilio_signature_invalid');
    expect((await twilioPost(`/twilio/voice/${id}`, {}, '')).status).to.equal(403);
    expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body.status).to.equal('ringing');
    const ws = new WebSocket(h().api.url.replace(/^http/, 'ws') + `/twilio/relay/${id}`, { headers: { 'X-Twilio-Signature': 'forged' } });
    const refused = await new Promise<string>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.once('error', (err) => resolve(err.message));
      ws.once('open', () => resolve('open'));
    });
    expect(refused).to.match(/403/);
    await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
  });
});
