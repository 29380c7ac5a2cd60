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
import { postAsTwilio, startFakeTwilio, webhookSigner, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { startHttpsReceiver } from '../support/https-receiver';
import { verifySignature } from '../../src/providers/webhook-signing';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('live calls through Twilio', function () {
  let fake: FakeTwilio;
  let saved: Config;
  let t: Tenant;
  let agentId: string;

  before(async () => {
    fake = await startFakeTwilio();
    saved = config();
    setConfig({
      ...saved,
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      twilioApiBaseUrl: fake.url,
      publicBaseUrl: h().api.url,
    });
    t = await newTenant();
    await verifiedCallerId(fake, t.liveKey);
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hi, this is Live.' },
    });
    agentId = agent.body.id;
  });
  after(async () => {
    setConfig(saved);
    await fake.close();
  });

  /** The relay handshake's signature for `path`, by the account call `callSid` is in (as Twilio signs it). */
  const signRelay = async (path: string, callSid: string) =>
    twilio.getExpectedTwilioSignature(
      (await webhookSigner(fake, { CallSid: callSid })).authToken,
      h().api.url.replace(/^http/, 'ws') + path,
      {},
    );

  /** Posts a Twilio callback, signed by the account it speaks of (or with `signature` as given). */
  const twilioPost = (path: string, params: Record<string, string>, signature?: string) =>
    postAsTwilio(fake, path, params, signature);

  async function placeLive(metadata: Record<string, string> = {}) {
    const before = fake.created.length;
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: agentId, metadata },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'queued', livemode: true, simulated: false });
    const call = await waitForCall(t.liveKey, res.body.id, (c) => c.status === 'ringing');
    expect(fake.created.length).to.equal(before + 1);
    return { id: call.id as string, placed: fake.created[fake.created.length - 1] };
  }

  /** The Twilio Call SID the fake created for call `id`. */
  const sidOf = (id: string) => fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;

  async function answer(id: string) {
    expect(
      (await twilioPost(`/twilio/status/${id}`, { CallSid: sidOf(id), CallStatus: 'in-progress' })).status,
    ).to.equal(204);
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
  }

  /** A ConversationRelay session of call `id`, as Twilio opens it. */
  const relay = (id: string) =>
    relayClient(id, sidOf(id), fake.authToken, { from: '+14155550100', to: '+14155550123' });

  it("streams the answer's words to ConversationRelay as the model writes them", async () => {
    const { id } = await placeLive();
    await answer(id);
    const session = await relay(id);
    h().llm.streaming = { firstTokenMs: 200, tokenGapMs: 400 };
    try {
      const saidMs = Date.now();
      const whole = await session.say('Stream this');
      expect(whole).to.deep.equal({ type: 'text', token: 'You said: Stream this', last: true });
      const words = session.raw.filter((r) => r.msg.type === 'text' && r.msg.last === false);
      expect(words.map((r) => r.msg.token)).to.deep.equal(['You ', 'said: ', 'Stream ', 'this']);
      const request = h()
        .llm.requests.filter((r) => r.user === id)
        .pop()!;
      expect(request.stream, 'a streamed request').to.equal(true);
      // The first word left before the model had finished (three more words, 400 ms apart, were to come).
      expect(words[0].atMs, 'first word before the whole answer').to.be.lessThan(request.answeredMs!);
      expect(words[0].atMs - saidMs, 'the first word after the model wrote it').to.be.at.least(200);
      const closing = session.raw.find((r) => r.msg.type === 'text' && r.msg.last === true)!;
      expect(closing.msg.token, 'the update only closes what was streamed').to.equal('');
    } finally {
      h().llm.streaming = { firstTokenMs: 0, tokenGapMs: 0 };
    }
    const ended = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    expect(ended.status).to.equal(200);
    const transcript = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns;
    expect(transcript.map((x: any) => [x.role, x.text])).to.deep.include(['assistant', 'You said: Stream this']);
  });

  it('places the call with Twilio, connects ConversationRelay, talks, and hangs up when the assistant ends', async () => {
    const { id, placed } = await placeLive({ crm: '42' });
    expect(placed).to.include({
      To: '+14155550123',
      From: '+14155550100',
      Url: `${h().api.url}/twilio/voice/${id}`,
      StatusCallback: `${h().api.url}/twilio/status/${id}`,
    });
    await answer(id);

    const twiml = await twilioPost(`/twilio/voice/${id}`, { CallSid: sidOf(id) });
    expect(twiml.status).to.equal(200);
    expect(twiml.text)
      .to.contain('<Connect><ConversationRelay')
      .and.contain(`url="${h().api.url.replace(/^http/, 'ws')}/twilio/relay/${id}?sid=${sidOf(id)}"`)
      .and.contain(`welcomeGreeting="You're speaking with an automated assistant. Hi, this is Live."`)
      .and.contain('preemptible="true"');

    const session = await relay(id);
    expect(await session.say('Hello there')).to.deep.equal({
      type: 'text',
      token: 'You said: Hello there',
      last: true,
    });
    expect(await session.say('TOOL end_call {}')).to.deep.equal({
      type: 'text',
      token: 'Calling end_call.',
      last: true,
    });
    expect((await session.next()).type, 'the relay ends the session after the goodbye').to.equal('end');
    session.ws.close();
    // Twilio, out of TwiML, hangs up and reports it; the service does not cut the goodbye short.
    const updatesBefore = fake.updates.length;
    await twilioPost(`/twilio/status/${id}`, { CallSid: sidOf(id), CallStatus: 'completed' });

    const ended = await waitForCall(t.liveKey, id);
    expect(ended).to.include({ status: 'completed', end_reason: 'assistant_ended', livemode: true });
    expect(fake.updates.length, 'no hang-up through the REST API was needed').to.equal(updatesBefore);
    const tr = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body;
    expect(tr.turns.map((x: any) => x.text).slice(0, 4)).to.deep.equal([
      "You're speaking with an automated assistant.",
      'Hi, this is Live.',
      'Hello there',
      'You said: Hello there',
    ]);
    const events = (await request('GET', '/v1/events?limit=100', { key: t.liveKey })).body.data.filter(
      (e: any) => e.data.object.id === id,
    );
    expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
    expect(events.every((e: any) => e.livemode === true && e.data.object.metadata.crm === '42')).to.equal(true);
  });

  it("greets with the agent's first_message as the call was placed, not as the agent was edited since", async () => {
    const greeter = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Greeter', instructions: 'Be brief.', first_message: 'Hello from v1.' },
    });
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: greeter.body.id },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { id } = await waitForCall(t.liveKey, res.body.id, (c) => c.status === 'ringing');
    const edited = await request('POST', `/v1/agents/${greeter.body.id}`, {
      key: t.liveKey,
      body: { first_message: 'Hello from v2.' },
    });
    expect(edited.status).to.equal(200);
    const twiml = await twilioPost(`/twilio/voice/${id}`, { CallSid: sidOf(id) });
    expect(twiml.text)
      .to.match(/welcomeGreeting="[^"]* Hello from v1\."/)
      .and.not.contain('Hello from v2.');
    await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    await waitForCall(t.liveKey, id);
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
    expect(
      fake.updates.some((u) => u.params.Status === 'completed'),
      'hung up through Twilio',
    ).to.equal(true);
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

  it('passes DTMF digits to the assistant, a keypad burst as one utterance', async () => {
    const { id } = await placeLive();
    await answer(id);
    const session = await relay(id);
    session.ws.send(JSON.stringify({ type: 'dtmf', digit: '5' }));
    expect((await session.next()).token, 'sent after the gathering pause').to.equal('You said: DTMF 5');
    const before = h().llm.requests.filter((r) => r.user === id).length;
    for (const digit of ['1', '2', '3', '4', '#']) session.ws.send(JSON.stringify({ type: 'dtmf', digit }));
    expect((await session.next()).token).to.equal('You said: DTMF 1234#');
    expect(h().llm.requests.filter((r) => r.user === id).length - before, 'one turn for five digits').to.equal(1);
    session.ws.close();
    await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
  });

  it('delivers the same webhooks for a live call as for a simulated one (spec section 6, rule 2)', async () => {
    const receiver = await startHttpsReceiver();
    try {
      const endpoint = async (key: string, path: string) => {
        const res = await request('POST', '/v1/webhook-endpoints', {
          key,
          body: { url: receiver.url(path), events: ['*'] },
        });
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

      const testAgent = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'Sim', instructions: 'Be brief.' },
      });
      const sim = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: testAgent.body.id,
          metadata: { source: 'test' },
          simulation: { caller: ['TOOL end_call {}'] },
        },
      });
      await waitForCall(t.testKey, sim.body.id);

      const got = (path: string, id: string) => receiver.at(path).filter((r) => r.body?.data?.object?.id === id);
      await receiver.waitFor(() => got('/live', live.id).length === 2 && got('/test', sim.body.id).length === 2);
      const liveTypes = got('/live', live.id)
        .map((r) => r.body.type)
        .sort();
      const testTypes = got('/test', sim.body.id)
        .map((r) => r.body.type)
        .sort();
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
    const ws = new WebSocket(h().api.url.replace(/^http/, 'ws') + `/twilio/relay/${id}`, {
      headers: { 'X-Twilio-Signature': 'forged' },
    });
    const refused = await new Promise<string>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.once('error', (err) => resolve(err.message));
      ws.once('open', () => resolve('open'));
    });
    expect(refused).to.match(/403/);
    await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
  });

  describe('hardening', () => {
    afterEach(() => {
      fake.behave = {};
      setConfig({
        ...config(),
        twilioTimeoutMs: saved.twilioTimeoutMs,
        idempotencyLeaseMs: saved.idempotencyLeaseMs,
        callTurnDeadlineMs: saved.callTurnDeadlineMs,
      });
    });

    it('dials once when Twilio answers the create too late: the retry finds the call Twilio placed', async () => {
      setConfig({ ...config(), twilioTimeoutMs: 500 });
      fake.behave = { create: (n) => (n === 1 ? { delayMs: 2000 } : {}) };
      const before = fake.created.length;
      const listsBefore = fake.lists;
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550188', from: '+14155550100', agent_id: agentId },
      });
      expect(res.status).to.equal(200);
      const call = await waitForCall(t.liveKey, res.body.id, (c) => c.status === 'ringing', 30_000);
      expect(fake.created.length - before, 'one call placed').to.equal(1);
      expect(fake.lists - listsBefore, 'the retry looked for it').to.be.greaterThan(0);
      await answer(call.id);
      expect((await request('POST', `/v1/calls/${call.id}/end`, { key: t.liveKey })).status).to.equal(200);
    });

    it('ranks status callbacks: ringing after in-progress is ignored, completed before in-progress means answered, another SID is ignored', async () => {
      const a = await placeLive();
      await twilioPost(`/twilio/status/${a.id}`, { CallSid: 'CA' + 'f'.repeat(32), CallStatus: 'busy' });
      await new Promise((r) => setTimeout(r, 500));
      expect(
        (await request('GET', `/v1/calls/${a.id}`, { key: t.liveKey })).body.status,
        'a stale SID changes nothing',
      ).to.equal('ringing');
      await answer(a.id);
      await twilioPost(`/twilio/status/${a.id}`, { CallSid: sidOf(a.id), CallStatus: 'ringing' });
      await new Promise((r) => setTimeout(r, 500));
      expect((await request('GET', `/v1/calls/${a.id}`, { key: t.liveKey })).body.status).to.equal('in_progress');
      await request('POST', `/v1/calls/${a.id}/end`, { key: t.liveKey });

      const b = await placeLive();
      await twilioPost(`/twilio/status/${b.id}`, { CallSid: sidOf(b.id), CallStatus: 'completed' });
      await twilioPost(`/twilio/status/${b.id}`, { CallSid: sidOf(b.id), CallStatus: 'in-progress' });
      const ended = await waitForCall(t.liveKey, b.id);
      expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
      expect(ended.answered_at).to.be.a('number');
      const events = (await request('GET', '/v1/events?limit=100', { key: t.liveKey })).body.data.filter(
        (e: any) => e.data.object.id === b.id,
      );
      expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
    });

    it('answers TwiML with <Hangup/> unless the call is live and the CallSid is its own', async () => {
      const { id } = await placeLive();
      expect((await twilioPost(`/twilio/voice/${id}`, { CallSid: 'CA' + '1'.repeat(32) })).text).to.contain(
        '<Hangup/>',
      );
      expect((await twilioPost(`/twilio/voice/${id}`, { CallSid: sidOf(id) })).text).to.contain('<ConversationRelay');
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      await waitForCall(t.liveKey, id);
      expect(
        (await twilioPost(`/twilio/voice/${id}`, { CallSid: sidOf(id) })).text,
        'once the call is over',
      ).to.contain('<Hangup/>');
    });

    it('survives hostile relay frames, refuses oversized ones and a replayed handshake', async () => {
      const { id } = await placeLive();
      await answer(id);
      const session = await relay(id);
      session.ws.send('{not json');
      session.ws.send(JSON.stringify(null));
      session.ws.send(JSON.stringify({ type: 'prompt', voicePrompt: 'x'.repeat(10_000), last: false }));
      session.ws.send(JSON.stringify({ type: 'prompt', voicePrompt: ' and more', last: true }));
      const long = await session.next();
      expect(long.token.length, 'the utterance was capped').to.be.lessThan(4_100);
      expect((await request('GET', '/healthz')).status, 'the process is up').to.equal(200);

      // The same signed handshake again (a replay) is refused while the first session lives and after.
      const path = `/twilio/relay/${id}?sid=${sidOf(id)}`;
      const replay = new WebSocket(h().api.url.replace(/^http/, 'ws') + path, {
        headers: { 'X-Twilio-Signature': await signRelay(path, sidOf(id)) },
      });
      const replayed = await new Promise<string>((resolve) => {
        replay.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        replay.once('open', () => resolve('open'));
        replay.once('error', (err) => resolve(err.message));
      });
      expect(replayed).to.equal('409');

      const closed = new Promise<number>((resolve) => session.ws.once('close', (code) => resolve(code)));
      session.ws.on('error', () => undefined);
      session.ws.send('x'.repeat(100 * 1024));
      expect(await closed, 'message too big').to.equal(1009);
      expect((await request('GET', '/healthz')).status).to.equal(200);
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    });

    it('says a holding line when the answer is late, then the answer', async () => {
      setConfig({ ...config(), callTurnDeadlineMs: 700 });
      const { id } = await placeLive();
      await answer(id);
      const session = await relay(id);
      expect(await session.say('SLOW 1500')).to.deep.equal({ type: 'text', token: 'One moment, please.', last: true });
      expect(await session.next()).to.deep.equal({ type: 'text', token: 'Slow reply.', last: true });
      expect(await session.say('Still there?')).to.deep.equal({
        type: 'text',
        token: 'You said: Still there?',
        last: true,
      });
      session.ws.close();
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    });

    it('records the end when the hang-up keeps failing (Twilio 5xx), noting it', async function () {
      this.timeout(90_000);
      fake.behave = { update: () => ({ status: 503 }) };
      const { id } = await placeLive();
      await answer(id);
      const res = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      expect(res.status).to.equal(200);
      const ended = await waitForCall(t.liveKey, id, undefined, 60_000);
      expect(ended).to.include({ status: 'completed', end_reason: 'api_ended' });
      expect(ended.error.message).to.match(/^Hang-up failed/);
    });

    it('gives a retry 409 while the first /end runs past its lease, then the same answer', async function () {
      this.timeout(60_000);
      setConfig({ ...config(), idempotencyLeaseMs: 600 });
      fake.behave = { update: () => ({ delayMs: 2500 }) };
      const { id } = await placeLive();
      await answer(id);
      const headers = { 'Idempotency-Key': `end-${id}` };
      const first = request('POST', `/v1/calls/${id}/end`, { key: t.liveKey, headers });
      await new Promise((r) => setTimeout(r, 1500)); // past the lease: only renewal keeps it
      const during = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey, headers });
      expect(during.status).to.equal(409);
      expect(during.body.error.code).to.equal('idempotency_key_in_use');
      const done = await first;
      expect(done.status).to.equal(200);
      const after = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey, headers });
      expect(after.status).to.equal(200);
      expect(after.headers.get('idempotent-replayed')).to.equal('true');
      expect(after.body).to.deep.equal(done.body);
      expect(fake.updates.filter((u) => u.callSid === sidOf(id) && u.params.Status === 'completed')).to.have.length(1);
    });

    it('records the end of a call whose workflow an operator terminated (the reconciler), with one call.ended', async function () {
      this.timeout(60_000);
      const { id } = await placeLive({ reconcile: 'me' });
      await answer(id);
      await h().env.client.workflow.getHandle(id).terminate('operator test');
      await h().env.client.schedule.getHandle('call-reconciler').trigger();
      const ended = await waitForCall(t.liveKey, id, undefined, 30_000);
      expect(ended).to.include({ status: 'failed', end_reason: 'error' });
      expect(ended.error.message).to.contain('terminated');
      await h().env.client.schedule.getHandle('call-reconciler').trigger();
      await new Promise((r) => setTimeout(r, 2000));
      const events = (await request('GET', '/v1/events?limit=100', { key: t.liveKey })).body.data.filter(
        (e: any) => e.data.object.id === id,
      );
      expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
      expect(events[0].data.object.metadata).to.deep.equal({ reconcile: 'me' });
    });
  });
});
