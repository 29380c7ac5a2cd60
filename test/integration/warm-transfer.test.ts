/**
 * Warm transfer: the caller waits in a Twilio conference while the person is dialed,
 * the person hears a summary first and is then joined, or the caller comes back to the assistant when
 * the person is busy, does not answer or hangs up during the summary. Live calls run against the
 * loopback Twilio-shaped server (its conferences and participants, their signed callbacks) and the
 * ConversationRelay client simulator; test-mode calls simulate the same with `simulation.transfer`.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import {
  answerInbound,
  joinConference,
  legStatus,
  twilioCallback,
  useFakeTwilio,
  type FakeTwilio,
} from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { TRANSFER_FAILED_LINES } from '../../src/shared/calls';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function eventsOf(key: string, callId: string) {
  const res = await request('GET', '/v1/events?limit=100', { key });
  expect(res.status).to.equal(200);
  return (res.body.data as any[]).filter((e) => e.data.object.id === callId).reverse();
}

async function turnsOf(key: string, callId: string): Promise<{ role: string; text: string }[]> {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.turns;
}

/** Polls `check` every 100 ms until it returns a value (not undefined), at most `ms`. */
async function eventually<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('warm transfer', function () {
  this.timeout(120_000);

  describe('live, through Twilio', () => {
    let fake: FakeTwilio;
    let restore: () => Promise<void>;
    let t: Tenant;
    let agentId: string;

    before(async () => {
      ({ fake, restore } = await useFakeTwilio());
      t = await newTenant();
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Warm', instructions: 'Be brief.', first_message: 'Hi, this is Warm.' },
      });
      agentId = agent.body.id;
    });
    after(() => restore());

    const sidOf = (id: string) => fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;

    /** A live call, answered, its first ConversationRelay session open. */
    async function liveCall() {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agentId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = sidOf(id);
      await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      expect((await session.say('I need to change my booking')).token).to.equal(
        'You said: I need to change my booking',
      );
      return { id, sid, session };
    }

    /** Starts a warm transfer (the request answers once the outcome is known) and waits for the hold. */
    async function startWarm(id: string, sid: string, body: Record<string, unknown>) {
      const pending = request('POST', `/v1/calls/${id}/transfer`, { key: t.liveKey, body: { mode: 'warm', ...body } });
      const hold = await eventually('the caller on hold', () =>
        fake.updates.find((u) => u.callSid === sid && (u.params.Twiml ?? '').includes('<Conference')),
      );
      const leg = await eventually('the person dialed', () =>
        fake.created.find((c) => c.StatusCallback?.endsWith(`/twilio/transfer/${id}/status`)),
      );
      return { pending, hold, leg };
    }

    /** The caller brought back: the update to `?resume=1`, its TwiML, and a new relay session. */
    async function comeback(id: string, sid: string) {
      const back = await eventually('the caller brought back', () =>
        fake.updates.find((u) => u.callSid === sid && (u.params.Url ?? '').includes(`/twilio/voice/${id}?resume=`)),
      );
      const twiml = await twilioCallback(fake, back.params.Url, { CallSid: sid });
      expect(twiml.status).to.equal(200);
      const query = /\/twilio\/relay\/call_[0-9a-z]+\?sid=CA[0-9a-f]+(&amp;resume=\d+)/.exec(twiml.text)?.[1];
      expect(query, twiml.text).to.be.a('string');
      const session = await relayClient(
        id,
        sid,
        fake.authToken,
        { from: '+14155550100', to: '+14155550123' },
        query!.replace('&amp;', '&'),
      );
      return { twiml: twiml.text, session, query: query!.replace('&amp;', '&') };
    }

    it('holds the caller, briefs the person with the summary first, then joins them (call.transferred, mode warm)', async () => {
      const { id, sid, session } = await liveCall();
      const { pending, hold, leg } = await startWarm(id, sid, { to: '+14155550177' });
      session.ws.close(); // Twilio ends the ConversationRelay session when the call's TwiML is replaced
      expect(hold.params.Twiml).to.match(/<Dial><Conference [^>]*startConferenceOnEnter="false"/);
      expect(hold.params.Twiml).to.include('waitUrl="https://twimlets.com/holdmusic');
      expect(hold.params.Twiml).to.include(`>transfer-${id}</Conference>`);
      // The person hears the summary (the model's, from the transcript) before the conference.
      const summaryRequest = h()
        .llm.requests.filter((r) => r.user === id)
        .find((r) => r.messages.some((m) => (m.content ?? '').includes('The caller is being transferred')));
      expect(summaryRequest, 'the model was asked for the summary').to.not.equal(undefined);
      expect(summaryRequest!.messages.map((m) => m.content)).to.include('I need to change my booking');
      expect(leg).to.include({ To: '+14155550177', From: '+14155550100', Timeout: '30' });
      const say = leg.Twiml.indexOf('<Say>You said: I need to change my booking</Say>');
      expect(say, leg.Twiml).to.be.at.least(0);
      expect(leg.Twiml.indexOf('<Conference'), 'the summary comes first').to.be.greaterThan(say);
      expect(leg.Twiml).to.match(/startConferenceOnEnter="true"/);

      // The caller joins the conference (its own join is not the person's); a foreign SID is ignored.
      expect((await joinConference(fake, sid))?.status).to.equal(204);
      const stranger = 'CA' + crypto.randomBytes(16).toString('hex');
      await twilioCallback(fake, `/twilio/transfer/${id}/status`, { CallSid: stranger, CallStatus: 'busy' });
      await twilioCallback(fake, `/twilio/transfer/${id}/conference`, {
        CallSid: stranger,
        StatusCallbackEvent: 'participant-join',
      });
      // A second transfer while this one runs: 409.
      const second = await request('POST', `/v1/calls/${id}/transfer`, {
        key: t.liveKey,
        body: { to: '+14155550178', mode: 'warm' },
      });
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('transfer_in_progress');
      expect((await waitForCall(t.liveKey, id, (c) => c.transfer !== null)).transfer.status).to.equal('dialing');

      await legStatus(fake, leg.Sid, 'ringing');
      await legStatus(fake, leg.Sid, 'in-progress');
      const briefing = await waitForCall(t.liveKey, id, (c) => c.transfer?.status === 'briefing');
      expect(briefing.transfer.summary).to.equal('You said: I need to change my booking');
      await joinConference(fake, leg.Sid); // after the <Say>, the person reaches <Conference>

      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'transferred', end_reason: 'transferred', transferred_to: '+14155550177' });
      expect(res.body.transfer).to.include({ mode: 'warm', status: 'transferred', reason: null, attempt: 1 });
      expect(fake.conferences.get(`transfer-${id}`)!.participants).to.deep.equal([sid, leg.Sid]);
      expect(
        fake.updates.some((u) => (u.params.Twiml ?? '').includes('<Number>')),
        'no cold <Dial>',
      ).to.equal(false);
      const events = await eventsOf(t.liveKey, id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.transferred', 'call.ended']);
      expect(events[1].data.object.transfer).to.include({ mode: 'warm', to: '+14155550177' });
      const turns = await turnsOf(t.liveKey, id);
      const notes = turns.filter((x) => x.role === 'system').map((x) => x.text);
      expect(notes[0]).to.include('Warm transfer to +14155550177');
      expect(notes[1]).to.include('answered and hears the summary: You said: I need to change my booking');
      expect(notes[2]).to.include('connected with the caller');
    });

    it('brings the caller back to the assistant when the person does not answer in time', async () => {
      const { id, sid, session } = await liveCall();
      const { pending, leg } = await startWarm(id, sid, {
        to: '+14155550177',
        summary: 'Dana wants to move her booking.',
        transfer_timeout_seconds: 5,
      });
      session.ws.close();
      expect(leg.Twiml).to.include('<Say>Dana wants to move her booking.</Say>');
      expect(leg.Timeout).to.equal('5');
      await legStatus(fake, leg.Sid, 'ringing');
      const res = await pending; // nobody answers: after 5 s the leg is hung up
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.status).to.equal('in_progress');
      expect(res.body.transfer).to.include({ mode: 'warm', status: 'failed', reason: 'no_answer' });
      expect(fake.updates.some((u) => u.callSid === leg.Sid && u.params.Status === 'completed')).to.equal(true);

      const back = await comeback(id, sid);
      expect(back.twiml, 'the assistant says why').to.match(/welcomeGreeting="I[^"]*m sorry, nobody answered/);
      expect(back.twiml, 'no second recording, no second first message').to.not.include('Hi, this is Warm.');
      expect((await back.session.say('OK, then you help me')).token).to.equal('You said: OK, then you help me');
      // The comeback's handshake is taken once.
      const replay = relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' }, back.query);
      await replay.then(
        () => expect.fail('a second comeback session was accepted'),
        (err: Error) => expect(err.message).to.include('409'),
      );

      const events = await eventsOf(t.liveKey, id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.transfer_failed']);
      expect(events[1].data.object.transfer).to.include({ reason: 'no_answer', status: 'failed' });
      back.session.ws.close();
      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      const turns = await turnsOf(t.liveKey, id);
      const texts = turns.map((x) => [x.role, x.text]);
      expect(texts).to.deep.include(['assistant', TRANSFER_FAILED_LINES.no_answer]);
      expect(texts).to.deep.include(['assistant', 'You said: OK, then you help me']);
      expect(turns.find((x) => x.role === 'system' && x.text.includes('failed (no answer)'))).to.not.equal(undefined);
      // The model is told too: the next request carries the note and the line.
      const last = h()
        .llm.requests.filter((r) => r.user === id)
        .pop()!;
      expect(last.messages.map((m) => m.content)).to.include(TRANSFER_FAILED_LINES.no_answer);
    });

    it('brings the caller back when the person hangs up during the summary', async () => {
      const { id, sid, session } = await liveCall();
      const { pending, leg } = await startWarm(id, sid, { to: '+14155550177', summary: 'Booking change.' });
      session.ws.close();
      await legStatus(fake, leg.Sid, 'in-progress');
      await waitForCall(t.liveKey, id, (c) => c.transfer?.status === 'briefing');
      await legStatus(fake, leg.Sid, 'completed');
      const res = await pending;
      expect(res.body.status).to.equal('in_progress');
      expect(res.body.transfer).to.include({ status: 'failed', reason: 'hung_up', summary: 'Booking change.' });
      const back = await comeback(id, sid);
      expect((await back.session.say('Hello?')).token).to.equal('You said: Hello?');
      expect((await eventsOf(t.liveKey, id)).map((e) => e.type)).to.deep.equal([
        'call.started',
        'call.transfer_failed',
      ]);
      back.session.ws.close();
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    });

    it('an inbound caller leaving the relay for the conference is not a hang-up: the <Connect> action Twilio requests keeps the call, which is transferred', async () => {
      const ours = '+14155550161';
      const number = await request('POST', '/v1/phone_numbers', {
        key: t.liveKey,
        body: { number: ours, channels: ['voice'], agent_id: agentId },
      });
      expect(number.status, JSON.stringify(number.body)).to.equal(200);
      const sid = 'CA' + crypto.randomBytes(16).toString('hex');
      const twiml = await answerInbound(fake, { CallSid: sid, From: '+14155550162', To: ours });
      const id = /\/twilio\/relay\/(call_[0-9a-z]{26})/.exec(twiml.text)?.[1];
      expect(id, twiml.text).to.be.a('string');
      expect(fake.connectAction.get(sid), 'the session reports its end to the <Connect> action').to.equal(
        `${h().api.url}/twilio/voice/${id}/ended`,
      );
      await waitForCall(t.liveKey, id!, (c) => c.status === 'in_progress');
      const session = await relayClient(id!, sid, fake.authToken, { from: '+14155550162', to: ours });
      expect((await session.say('Put me through to billing')).token).to.equal('You said: Put me through to billing');

      const { pending, leg } = await startWarm(id!, sid, { to: '+14155550177', summary: 'Billing question.' });
      session.ws.close();
      // The redirect into the conference ended the relay session: Twilio requested the <Connect> action,
      // the caller still on the line (CallStatus in-progress). That is not the caller hanging up.
      const action = await eventually('the <Connect> action requested', () =>
        fake.connectActions.find((a) => a.callSid === sid),
      );
      expect(action.params.CallStatus).to.equal('in-progress');
      const answer = await action.answer;
      expect(answer.status).to.equal(200);
      expect((await joinConference(fake, sid))?.status).to.equal(204);
      await legStatus(fake, leg.Sid, 'in-progress');
      const briefing = await waitForCall(t.liveKey, id!, (c) => c.transfer?.status === 'briefing' || c.ended_at);
      expect(briefing, 'still in the transfer, not ended by the action').to.include({ status: 'in_progress' });
      await joinConference(fake, leg.Sid);
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'transferred', end_reason: 'transferred', direction: 'inbound' });
      expect(res.body.transfer).to.include({ mode: 'warm', status: 'transferred' });
      expect(answer.text, 'the call goes on in the conference: no hang-up').to.not.contain('<Hangup');
      expect((await eventsOf(t.liveKey, id!)).map((e) => e.type)).to.deep.equal([
        'call.started',
        'call.transferred',
        'call.ended',
      ]);
      // Later, the caller hanging up in the conference is the conference's business: the call stays transferred.
      const ended = await twilioCallback(fake, `/twilio/voice/${id}/ended`, { CallSid: sid, CallStatus: 'completed' });
      expect(ended.status).to.equal(200);
      expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body.status).to.equal('transferred');
    });

    it('keeps the cold transfer as it was (the default mode), and refuses a bad destination naming to', async () => {
      const { id, sid, session } = await liveCall();
      const bad = await request('POST', `/v1/calls/${id}/transfer`, {
        key: t.liveKey,
        body: { to: 'desk', mode: 'warm' },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ param: 'to' });
      const badMode = await request('POST', `/v1/calls/${id}/transfer`, {
        key: t.liveKey,
        body: { to: '+14155550111', mode: 'lukewarm' },
      });
      expect(badMode.status).to.equal(400);
      expect(badMode.body.error.param).to.equal('mode');
      const res = await request('POST', `/v1/calls/${id}/transfer`, { key: t.liveKey, body: { to: '+14155550111' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'transferred', transferred_to: '+14155550111' });
      expect(res.body.transfer).to.include({ mode: 'cold', status: 'transferred' });
      const dial = fake.updates.find((u) => u.callSid === sid && (u.params.Twiml ?? '').includes('+14155550111'));
      expect(dial?.params.Twiml).to.contain('<Dial><Number>+14155550111</Number></Dial>');
      session.ws.close();
    });
  });

  describe('test mode (simulation.transfer)', () => {
    let t: Tenant;
    before(async () => {
      t = await newTenant({ first_message: 'Hello.', transfer_to: '+14155550188', transfer_mode: 'warm' });
    });

    async function simulated(simulation: Record<string, unknown>) {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.id as string;
    }

    it('validates the agent field transfer_mode', async () => {
      const res = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'x', instructions: 'y', transfer_mode: 'lukewarm' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.param).to.equal('transfer_mode');
      const agent = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
      expect(agent.body.transfer_mode).to.equal('warm');
    });

    it('answered: the person hears the summary and is joined (API transfer)', async () => {
      const id = await simulated({
        caller: ['I want a person', 'still here'],
        pause_seconds: 4,
        transfer: { answer: 'answered', after_seconds: 1 },
      });
      await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
      const res = await request('POST', `/v1/calls/${id}/transfer`, {
        key: t.testKey,
        body: { to: '+14155550177', mode: 'warm', summary: 'Wants a person.' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'transferred', transferred_to: '+14155550177' });
      expect(res.body.transfer).to.include({ mode: 'warm', status: 'transferred', summary: 'Wants a person.' });
      const events = await eventsOf(t.testKey, id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.transferred', 'call.ended']);
      expect(events[1].data.object.transfer.mode).to.equal('warm');
      const notes = (await turnsOf(t.testKey, id)).filter((x) => x.role === 'system').map((x) => x.text);
      expect(notes).to.have.length(3);
      expect(notes[1]).to.include('hears the summary: Wants a person.');
    });

    it('no_answer: the transfer_call tool (agent transfer_mode warm) fails and the assistant goes on', async () => {
      const id = await simulated({
        caller: ['TOOL transfer_call {}', 'Then help me yourself'],
        transfer: { answer: 'no_answer', after_seconds: 1 },
      });
      const call = await waitForCall(t.testKey, id);
      expect(call).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
      expect(call.transfer).to.include({ mode: 'warm', to: '+14155550188', status: 'failed', reason: 'no_answer' });
      const events = await eventsOf(t.testKey, id);
      expect(events.map((e) => e.type)).to.deep.equal(['call.started', 'call.transfer_failed', 'call.ended']);
      const turns = (await turnsOf(t.testKey, id)).map((x) => [x.role, x.text]);
      const line = turns.findIndex(([r, x]) => r === 'assistant' && x === TRANSFER_FAILED_LINES.no_answer);
      expect(line, JSON.stringify(turns)).to.be.greaterThan(0);
      expect(turns[line - 1][0]).to.equal('system');
      expect(turns.slice(line)).to.deep.include(['assistant', 'You said: Then help me yourself']);
      expect(turns.find(([r]) => r === 'tool')![1]).to.include('Warm transfer to +14155550188 started');
    });

    it('busy: the caller is back with the assistant (API transfer answers in_progress, transfer failed)', async () => {
      const id = await simulated({ caller: ['one', 'two'], pause_seconds: 4, transfer: { answer: 'busy' } });
      await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
      const res = await request('POST', `/v1/calls/${id}/transfer`, {
        key: t.testKey,
        body: { to: '+14155550177', mode: 'warm', summary: 'x' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.status).to.equal('in_progress');
      expect(res.body.transfer).to.include({ status: 'failed', reason: 'busy', summary: null });
      const call = await waitForCall(t.testKey, id);
      expect(call.status).to.equal('completed');
      const turns = (await turnsOf(t.testKey, id)).map((x) => [x.role, x.text]);
      expect(turns).to.deep.include(['assistant', TRANSFER_FAILED_LINES.busy]);
      expect(turns).to.deep.include(['assistant', 'You said: two']);
    });
  });
});
