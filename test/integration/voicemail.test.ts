/**
 * Voicemail: answering-machine detection on live calls against the loopback Twilio-shaped
 * server (the create's AMD parameters, the AMD result posted signed as Twilio does, the message left
 * through the Calls resource), the detection window (no LLM request for a machine's greeting), the
 * simulated machine of test mode (`simulation.outcome: "voicemail"`) with the same statuses, fields and
 * events, the setting's validation, and campaigns that redial on voicemail and leave the message only on
 * their last attempt.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { twilioCallback, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { allResults, campaignCalls, createForm, startCampaign, waitForCampaign } from '../support/bulk-calls';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const MESSAGE = 'Hi, this is Acme Dental about your appointment. Please call us back at 415 555 0100.';
const LEAVE = { detection: true, action: 'leave_message', message: MESSAGE };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The events of call `id` (oldest first) as `[type, data.object]`. */
async function callEvents(key: string, id: string): Promise<[string, any][]> {
  const res = await request('GET', '/v1/events?limit=100', { key });
  return res.body.data
    .filter((e: any) => e.data.object.id === id)
    .reverse()
    .map((e: any) => [e.type, e.data.object]);
}

/** The transcript of call `id` as `[role, text]`. */
async function transcript(key: string, id: string): Promise<[string, string][]> {
  const res = await request('GET', `/v1/calls/${id}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.turns.map((t: any) => [t.role, t.text]);
}

/** LLM requests made for call `id`. */
const llmRequestsOf = (id: string) => h().llm.requests.filter((r) => r.user === id).length;

describe('voicemail: answering-machine detection', function () {
  this.timeout(60_000);
  let t: Tenant;

  before(async () => {
    t = await newTenant({ first_message: 'Hello, this is Acme Dental.' });
    // These tests follow what a machine hears and what is left on it, turn by turn; the AI disclosure
    // that opens every call (on by default) is tested in recording-consent.test.ts, so it is off here.
    for (const key of [t.testKey, t.liveKey])
      expect((await request('POST', '/v1/account', { key, body: { ai_disclosure: false } })).status).to.equal(200);
  });

  describe('the voicemail setting', () => {
    it('is validated on agents and calls, with a 400 naming the field', async () => {
      const noMessage = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: { detection: true, action: 'leave_message' } },
      });
      expect(noMessage.status).to.equal(400);
      expect(noMessage.body.error).to.include({ param: 'voicemail.message' });
      const tooLong = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: {
          name: 'VM',
          instructions: 'x',
          voicemail: { detection: true, action: 'leave_message', message: 'x'.repeat(1001) },
        },
      });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.error).to.include({ param: 'voicemail.message', code: 'parameter_invalid' });
      const badAction = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, voicemail: { detection: true, action: 'shout' } },
      });
      expect(badAction.status).to.equal(400);
      expect(badAction.body.error).to.include({ param: 'voicemail.action' });
      const badOn = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: { ...LEAVE, leave_message_on: 'sometimes' } },
      });
      expect(badOn.body.error).to.include({ param: 'voicemail.leave_message_on' });
    });

    it('is shown on the agent, defaults the action to hang_up, and clears with null', async () => {
      const created = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: { detection: true } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.voicemail).to.deep.equal({ detection: true, action: 'hang_up' });
      const updated = await request('POST', `/v1/agents/${created.body.id}`, {
        key: t.testKey,
        body: { voicemail: { ...LEAVE, leave_message_on: 'last_attempt' } },
      });
      expect(updated.body.voicemail).to.deep.equal({ ...LEAVE, leave_message_on: 'last_attempt' });
      const cleared = await request('POST', `/v1/agents/${created.body.id}`, {
        key: t.testKey,
        body: { voicemail: null },
      });
      expect(cleared.body.voicemail).to.equal(null);
      expect((await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey })).body.voicemail).to.equal(null);
    });
  });

  describe('live calls', () => {
    let fake: FakeTwilio;
    let restore: () => Promise<void>;
    let agentId: string;

    before(async () => {
      ({ fake, restore } = await useFakeTwilio());
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live VM', instructions: 'Be brief.', first_message: 'Hello, this is Acme.', voicemail: LEAVE },
      });
      expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
      agentId = agent.body.id;
    });
    after(async () => restore());

    /** Places a live call, waits until it rings, answers it (status callback `in-progress`). */
    async function placeAndAnswer(body: Record<string, unknown> = {}) {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agentId, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const placed = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!;
      const sid = placed.Sid;
      expect(
        (await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' })).status,
      ).to.equal(204);
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      return { id, sid, placed };
    }

    /** Posts Twilio's AMD result for call `id` (provider call `sid`), signed. */
    const amd = (id: string, sid: string, answeredBy: string) =>
      twilioCallback(fake, `/twilio/amd/${id}`, {
        CallSid: sid,
        AccountSid: fake.accountSid,
        AnsweredBy: answeredBy,
        MachineDetectionDuration: '4200',
      });

    it('asks Twilio for asynchronous AMD, holds the greeting, and leaves the message once after the beep', async () => {
      const { id, sid, placed } = await placeAndAnswer({ metadata: { crm: '7' } });
      expect(placed).to.include({
        MachineDetection: 'DetectMessageEnd',
        AsyncAmd: 'true',
        AsyncAmdStatusCallback: `${h().api.url}/twilio/amd/${id}`,
        AsyncAmdStatusCallbackMethod: 'POST',
        MachineDetectionTimeout: '30',
      });
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      const greeting = "Hi, you've reached Sam. Leave a message after the tone.";
      void session.say(greeting);
      await sleep(1500);
      expect(llmRequestsOf(id), 'no LLM request while detection decides').to.equal(0);

      expect((await amd(id, sid, 'machine_end_beep')).status).to.equal(204);
      const left = async () => fake.updates.filter((u) => u.callSid === sid && u.params.Twiml);
      for (let i = 0; i < 100 && (await left()).length === 0; i++) await sleep(100);
      const twiml = await left();
      expect(twiml).to.have.length(1);
      expect(twiml[0].params.Twiml).to.contain(`<Say>${MESSAGE}</Say><Hangup/>`);
      expect(
        session.raw.filter((r) => r.msg.type === 'end'),
        'the session is not ended before the message replaces it',
      ).to.have.length(0);
      // Twilio says the message, hangs up and reports it.
      await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
      const ended = await waitForCall(t.liveKey, id);
      expect(ended).to.include({ status: 'completed', end_reason: 'voicemail', answered_by: 'machine' });
      expect(ended.voicemail, 'the call says which message was left').to.deep.equal({ left: true, message: MESSAGE });
      expect(llmRequestsOf(id), 'no LLM tokens spent on the machine').to.equal(0);
      expect(await transcript(t.liveKey, id)).to.deep.equal([
        ['assistant', 'Hello, this is Acme.'],
        ['caller', greeting],
        ['assistant', MESSAGE],
      ]);
      const events = await callEvents(t.liveKey, id);
      expect(events.map(([type]) => type)).to.deep.equal(['call.started', 'call.ended']);
      expect(events[1][1]).to.include({ end_reason: 'voicemail', answered_by: 'machine', status: 'completed' });
      expect(events[1][1].metadata).to.deep.equal({ crm: '7' });
      expect(events[1][1].voicemail, 'call.ended says it too').to.deep.equal({ left: true, message: MESSAGE });
      expect(fake.updates.filter((u) => u.callSid === sid).length, 'the message once, no hang-up needed').to.equal(1);
      session.ws.close();

      // A second result once the call has ended changes nothing.
      expect((await amd(id, sid, 'human')).status).to.equal(204);
      await sleep(500);
      expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body).to.include({
        answered_by: 'machine',
        end_reason: 'voicemail',
      });
    });

    it('hangs up at once with action hang_up (a call-level setting replacing the agent’s)', async () => {
      const { id, sid, placed } = await placeAndAnswer({ voicemail: { detection: true, action: 'hang_up' } });
      expect(placed.MachineDetection).to.equal('DetectMessageEnd');
      expect((await amd(id, sid, 'machine_end_silence')).status).to.equal(204);
      const ended = await waitForCall(t.liveKey, id);
      expect(ended).to.include({ status: 'completed', end_reason: 'voicemail', answered_by: 'machine' });
      expect(ended.voicemail, 'a machine, no message').to.deep.equal({ left: false, message: null });
      const mine = fake.updates.filter((u) => u.callSid === sid);
      expect(mine.map((u) => u.params.Status ?? 'twiml')).to.deep.equal(['completed']);
      expect((await transcript(t.liveKey, id)).filter(([role]) => role === 'assistant')).to.deep.equal([
        ['assistant', 'Hello, this is Acme.'],
      ]);
      const events = await callEvents(t.liveKey, id);
      expect(events.map(([type]) => type)).to.deep.equal(['call.started', 'call.ended']);
      expect(events[1][1]).to.include({ end_reason: 'voicemail', answered_by: 'machine' });
      expect(events[1][1].voicemail).to.deep.equal({ left: false, message: null });
    });

    it('goes on with a person: the held line is answered once detection says human', async () => {
      const { id, sid } = await placeAndAnswer();
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      const answer = session.say('Hello?');
      await sleep(1000);
      expect(llmRequestsOf(id), 'held while detection decides').to.equal(0);
      expect((await amd(id, sid, 'human')).status).to.equal(204);
      expect(await answer).to.deep.equal({ type: 'text', token: 'You said: Hello?', last: true });
      expect(await session.say('Fine, thanks')).to.deep.include({ token: 'You said: Fine, thanks' });
      expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body.status).to.equal('in_progress');
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      const ended = await waitForCall(t.liveKey, id);
      expect(ended).to.include({ status: 'completed', end_reason: 'api_ended', answered_by: 'human' });
      expect(ended.voicemail, 'no machine: null').to.equal(null);
      expect(fake.updates.filter((u) => u.callSid === sid && u.params.Twiml)).to.have.length(0);
      session.ws.close();
    });

    it('ignores a result naming another CallSid', async () => {
      const { id } = await placeAndAnswer();
      const other = 'CA' + '0'.repeat(32);
      expect((await amd(id, other, 'machine_end_beep')).status).to.equal(204);
      await sleep(1000);
      expect((await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body.status).to.equal('in_progress');
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      const ended = await waitForCall(t.liveKey, id);
      expect(ended).to.include({ end_reason: 'api_ended', answered_by: null });
    });

    it('a result after the call ended has no effect', async () => {
      const { id, sid } = await placeAndAnswer();
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      const ended = await waitForCall(t.liveKey, id);
      const updates = fake.updates.length;
      expect((await amd(id, sid, 'machine_end_beep')).status).to.equal(204);
      await sleep(1000);
      const after = (await request('GET', `/v1/calls/${id}`, { key: t.liveKey })).body;
      expect(after).to.deep.equal(ended);
      expect(after).to.include({ end_reason: 'api_ended', answered_by: null });
      expect(fake.updates.length, 'no message left, no hang-up').to.equal(updates);
      expect((await callEvents(t.liveKey, id)).map(([type]) => type)).to.deep.equal(['call.started', 'call.ended']);
    });

    it('refuses an unsigned AMD callback and places calls without detection without AMD', async () => {
      const res = await fetch(`${h().api.url}/twilio/amd/call_x`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'CallSid=CAx&AnsweredBy=machine_end_beep',
      });
      expect(res.status).to.equal(403);
      const plain = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Plain', instructions: 'Be brief.' },
      });
      const { id, placed } = await placeAndAnswer({ agent_id: plain.body.id });
      expect(placed).to.not.have.property('MachineDetection');
      expect(placed).to.not.have.property('AsyncAmd');
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      expect(await waitForCall(t.liveKey, id)).to.include({ answered_by: null });
    });
  });

  describe('test mode', () => {
    it('simulation outcome voicemail: the machine greets and beeps, the message is left, with the live events', async () => {
      const agent = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', first_message: 'Hello, this is Acme.', voicemail: LEAVE },
      });
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: agent.body.id, simulation: { outcome: 'voicemail', ring_seconds: 1 } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const ended = await waitForCall(t.testKey, res.body.id);
      expect(ended).to.include({ status: 'completed', end_reason: 'voicemail', answered_by: 'machine' });
      expect(ended.answered_at).to.be.a('number');
      const turns = await transcript(t.testKey, res.body.id);
      expect(turns[0]).to.deep.equal(['assistant', 'Hello, this is Acme.']);
      expect(turns[1][0]).to.equal('caller');
      expect(turns[1][1]).to.match(/leave a message after the tone/);
      expect(turns.slice(2)).to.deep.equal([['assistant', MESSAGE]]);
      expect(llmRequestsOf(res.body.id), 'no LLM request for the greeting').to.equal(0);
      const events = await callEvents(t.testKey, res.body.id);
      expect(events.map(([type]) => type)).to.deep.equal(['call.started', 'call.ended']);
      expect(events[1][1]).to.include({ status: 'completed', end_reason: 'voicemail', answered_by: 'machine' });
      expect(ended.voicemail).to.deep.equal({ left: true, message: MESSAGE });
      expect(events[1][1].voicemail, 'call.ended says which message was left').to.deep.equal({
        left: true,
        message: MESSAGE,
      });

      // hang_up: the greeting (the script's lines) is heard, nothing is left.
      const hangUp = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: agent.body.id,
          voicemail: { detection: true, action: 'hang_up' },
          simulation: { outcome: 'voicemail', caller: ['You reached Sam.', 'Leave a message.'] },
        },
      });
      const hung = await waitForCall(t.testKey, hangUp.body.id);
      expect(hung).to.include({ end_reason: 'voicemail', answered_by: 'machine' });
      expect(hung.voicemail, 'hung up: nothing left').to.deep.equal({ left: false, message: null });
      expect(await transcript(t.testKey, hangUp.body.id)).to.deep.equal([
        ['assistant', 'Hello, this is Acme.'],
        ['caller', 'You reached Sam.'],
        ['caller', 'Leave a message.'],
      ]);
    });

    it('a person answering a call with detection is human; without detection answered_by stays null', async () => {
      const agent = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: LEAVE },
      });
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: agent.body.id, simulation: { caller: ['Hi', 'Bye'] } },
      });
      const ended = await waitForCall(t.testKey, res.body.id);
      expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up', answered_by: 'human' });
      expect((await transcript(t.testKey, res.body.id)).map(([, text]) => text)).to.deep.equal([
        'Hi',
        'You said: Hi',
        'Bye',
        'You said: Bye',
      ]);
      const plain = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hi'] } },
      });
      expect(await waitForCall(t.testKey, plain.body.id)).to.include({ answered_by: null });
    });
  });

  describe('campaigns', () => {
    it('redials on voicemail, says voicemail per contact, and leaves the message on the last attempt only', async () => {
      const formId = await createForm(t.testKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: { ...LEAVE, leave_message_on: 'last_attempt' } },
      });
      const campaign = await startCampaign(t.testKey, {
        agent_id: agent.body.id,
        form_id: formId,
        retry: { max_attempts: 2, on: ['voicemail'], interval_seconds: 1 },
        contacts: [
          { phone: '+14155557001', simulation: { outcome: 'voicemail', caller: ['Leave a message.'] } },
          { phone: '+14155557002', simulation: { caller: ['Hi'] } },
        ],
      });
      expect(campaign.retry).to.deep.equal({ max_attempts: 2, on: ['voicemail'], interval_seconds: 1 });
      const done = await waitForCampaign(t.testKey, campaign.id);
      expect(done.counts).to.include({ completed: 1, not_reached: 1, pending: 0 });
      const results = await allResults(t.testKey, campaign.id);
      expect(results.map((r) => [r.status, r.attempts, r.call_ids.length])).to.deep.equal([
        ['voicemail', 2, 2],
        ['completed', 1, 1],
      ]);
      const calls = (await campaignCalls(t.testKey, campaign.id))
        .filter((c) => c.to === '+14155557001')
        .sort((a, b) => a.created - b.created);
      expect(calls.map((c) => [c.status, c.end_reason, c.answered_by])).to.deep.equal([
        ['completed', 'voicemail', 'machine'],
        ['completed', 'voicemail', 'machine'],
      ]);
      expect(calls.map((c) => c.voicemail)).to.deep.equal([
        { left: false, message: null },
        { left: true, message: MESSAGE },
      ]);
      expect(await transcript(t.testKey, calls[0].id), 'the first attempt hangs up').to.deep.equal([
        ['caller', 'Leave a message.'],
      ]);
      expect(await transcript(t.testKey, calls[1].id), 'the last attempt leaves the message').to.deep.equal([
        ['caller', 'Leave a message.'],
        ['assistant', MESSAGE],
      ]);
      const filtered = await request('GET', `/v1/bulk-calls/${campaign.id}/results?status=voicemail`, {
        key: t.testKey,
      });
      expect(filtered.body.data.map((r: any) => r.index)).to.deep.equal([0]);
    });

    it('without voicemail in retry.on a machine ends the contact at once, the message left', async () => {
      const formId = await createForm(t.testKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'VM', instructions: 'x', voicemail: { ...LEAVE, leave_message_on: 'last_attempt' } },
      });
      const campaign = await startCampaign(t.testKey, {
        agent_id: agent.body.id,
        form_id: formId,
        retry: { max_attempts: 3, on: ['busy'], interval_seconds: 1 },
        contacts: [{ phone: '+14155557003', simulation: { outcome: 'voicemail', caller: ['Beep.'] } }],
      });
      await waitForCampaign(t.testKey, campaign.id);
      const [result] = await allResults(t.testKey, campaign.id);
      expect([result.status, result.attempts]).to.deep.equal(['voicemail', 1]);
      expect(await transcript(t.testKey, result.call_ids[0])).to.deep.equal([
        ['caller', 'Beep.'],
        ['assistant', MESSAGE],
      ]);
    });
  });
});
