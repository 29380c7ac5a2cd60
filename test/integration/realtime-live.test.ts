/**
 * A LIVE realtime call (an agent version with `engine: "realtime"`) through the real API, Temporal and
 * worker, against the loopback fakes of Twilio (test/support/fake-twilio.ts) and of OpenAI's Realtime API
 * (test/support/fake-openai-realtime.ts): the call is placed with Twilio and answered; Twilio fetches its
 * TwiML, a `<Dial><Sip>` to the project's SIP URI with our call id header, and dials it (the fake Twilio
 * rings the Realtime API's simulated SIP side); OpenAI announces the leg by its signed webhook, the
 * workflow accepts it and attends the session. The greeting, two turns and the model's `end_call` (a
 * `hangup` at the Realtime API) make the transcript; the call's statuses and events are a live call's.
 * When `accept` answers 500 the call falls back to the pipeline on the same call: Twilio is redirected to
 * the call's TwiML URL (now ConversationRelay), the relay then talks, the greeting said once.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Call } from '../../src/models/calls';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startFakeRealtime, type FakeRealtime } from '../support/fake-openai-realtime';
import { fakeRealtimeProject } from '../support/realtime-fixture';
import { fetchTwiml, postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';

const OURS = '+14155550100';
const CALLER = '+14155550123';

/** Polls `check` until it answers something other than undefined (20 s at most). */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('realtime calls, live: the Twilio leg dialed to the Realtime API over SIP', function () {
  this.timeout(120_000);
  let twilioFake: FakeTwilio;
  let rtFake: FakeRealtime;
  let restoreConfig: () => void;
  let t: Awaited<ReturnType<typeof newTenant>>;
  let agentId: string;

  before(async () => {
    twilioFake = await startFakeTwilio();
    rtFake = await startFakeRealtime();
    rtFake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
    twilioFake.sipSimulatorUrl = rtFake.simulatorUrl;
    const saved = config();
    setConfig({
      ...saved,
      twilioAccountSid: twilioFake.accountSid,
      twilioAuthToken: twilioFake.authToken,
      twilioApiBaseUrl: twilioFake.url,
      publicBaseUrl: h().api.url,
      openaiRealtime: fakeRealtimeProject(rtFake),
    });
    restoreConfig = () => setConfig(saved);
    t = await newTenant();
    await verifiedCallerId(twilioFake, t.liveKey, OURS);
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live RT', instructions: 'Be brief.', first_message: 'Hi, this is Live.', engine: 'realtime' },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    agentId = agent.body.id;
  });
  after(async () => {
    restoreConfig?.();
    await twilioFake?.close();
    await rtFake?.close();
  });

  /**
   * Places a live call whose person says `lines` on the SIP leg, answers it (`in-progress`), then lets
   * Twilio fetch and follow its TwiML. Answers the call id, its Call SID and the TwiML.
   */
  async function placeAndAnswer(lines: string[]) {
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: CALLER, from: OURS, agent_id: agentId, metadata: { crm: '7' } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'queued', livemode: true, simulated: false, engine: 'realtime' });
    const id = res.body.id as string;
    await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
    const sid = twilioFake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
    twilioFake.sipCallers.set(sid, lines);
    const answered = await postAsTwilio(twilioFake, `/twilio/status/${id}`, {
      CallSid: sid,
      CallStatus: 'in-progress',
    });
    expect(answered.status).to.equal(204);
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    const twiml = await fetchTwiml(twilioFake, `/twilio/voice/${id}`, { CallSid: sid });
    expect(twiml.status).to.equal(200);
    return { id, sid, twiml: twiml.text };
  }

  it('dials the SIP URI, is greeted, takes two turns and ends by hangup; statuses and events as a live call', async () => {
    const { id, sid, twiml } = await placeAndAnswer(['I have a question.', 'Thanks.', 'TOOL end_call {}']);
    // The leg: <Dial><Sip> to the project's URI with our call id header; no ConversationRelay.
    expect(twiml).to.contain(
      `<Dial referUrl="${h().api.url}/twilio/voice/${id}/refer" referMethod="POST"><Sip>sip:proj_fake@sip.api.openai.com;transport=tls?X-Svc-Call-Id=${id}</Sip>`,
    );
    expect(twiml).to.not.contain('ConversationRelay');
    const dial = twilioFake.sipDials.find((d) => d.callSid === sid)!;
    expect(dial).to.deep.include({ status: 200, headers: { 'X-Svc-Call-Id': id } });

    const rt = await until('the SIP leg at the Realtime API', () => rtFake.callFor(id));
    await until('the hangup at the Realtime API', () =>
      rtFake.requests.find((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`),
    );
    expect(rt.state).to.equal('ended');
    expect((rt.accept as any).instructions).to.contain('Be brief.');
    expect((rt.accept as any).tools.map((x: any) => x.name)).to.include('end_call');
    expect(rtFake.deliveries.filter((d) => d.callId === rt.id)).to.deep.equal([{ callId: rt.id, status: 200 }]);
    const stored = await Call.findById(id, { realtime_call_id: 1 }).lean();
    expect(stored?.realtime_call_id).to.equal(rt.id);

    // The SIP leg over, Twilio is out of TwiML: it hangs up and reports it.
    await postAsTwilio(twilioFake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
    const ended = await waitForCall(t.liveKey, id, undefined, 30_000);
    expect(ended, JSON.stringify(ended)).to.include({
      status: 'completed',
      end_reason: 'assistant_ended',
      livemode: true,
      engine: 'realtime',
      engine_fallback: null,
    });
    expect(
      twilioFake.urlFetches.filter((f) => f.callSid === sid),
      'never redirected',
    ).to.have.length(0);

    // The transcript, from the session's input and output transcripts.
    const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns as any[];
    const spoken = turns.filter((x) => x.role !== 'tool').map((x) => `${x.role}: ${x.text}`);
    expect(spoken[0]).to.match(/^assistant: .*Hi, this is Live\.$/);
    expect(spoken.slice(1)).to.deep.equal([
      'caller: I have a question.',
      'assistant: You said: I have a question.',
      'caller: Thanks.',
      'assistant: You said: Thanks.',
      'caller: TOOL end_call {}',
    ]);
    expect(turns.filter((x) => x.role === 'tool').map((x) => x.tool.name)).to.deep.equal(['end_call']);
    // What the model said is what the session's output transcripts carried, greeting first.
    expect(rt.said).to.deep.equal([
      spoken[0].replace(/^assistant: /, ''),
      'You said: I have a question.',
      'You said: Thanks.',
    ]);

    const events = (await request('GET', '/v1/events?limit=100', { key: t.liveKey })).body.data.filter(
      (e: any) => e.data.object.id === id,
    );
    expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
    expect(events.every((e: any) => e.livemode === true && e.data.object.metadata.crm === '7')).to.equal(true);
    expect(events[0].data.object).to.include({ engine: 'realtime', end_reason: 'assistant_ended' });
  });

  it('falls back to the pipeline when accept answers 500: Twilio redirected to the relay, the greeting once', async () => {
    rtFake.acceptStatus = 500;
    try {
      const { id, sid, twiml } = await placeAndAnswer(['unheard']);
      expect(twiml).to.match(/<Dial referUrl="[^"]+\/refer" referMethod="POST"><Sip>/);
      const rt = await until('the SIP leg at the Realtime API', () => rtFake.callFor(id));

      // The workflow redirects the Twilio call to its TwiML URL, which now connects ConversationRelay.
      const update = await until('the redirect', () =>
        twilioFake.updates.find((u) => u.callSid === sid && u.params.Url !== undefined),
      );
      expect(update.params).to.include({ Url: `${h().api.url}/twilio/voice/${id}`, Method: 'POST' });
      const fetched = await until('Twilio fetching the new TwiML', () =>
        twilioFake.urlFetches.find((f) => f.callSid === sid),
      );
      const relayTwiml = await fetched.answer;
      expect(relayTwiml.status).to.equal(200);
      expect(relayTwiml.text).to.contain('<Connect><ConversationRelay').and.not.contain('<Sip>');
      expect(relayTwiml.text).to.contain(
        `welcomeGreeting="You're speaking with an automated assistant. Hi, this is Live."`,
      );
      expect(
        twilioFake.sipDials.filter((d) => d.callSid === sid),
        'the SIP URI dialed once',
      ).to.have.length(1);
      const fellBack = await waitForCall(t.liveKey, id, (c) => c.engine_fallback !== null);
      expect(fellBack).to.include({ status: 'in_progress', engine: 'realtime', engine_fallback: 'accept_failed' });

      // The relay then runs the call on the pipeline's model.
      const session = await relayClient(id, sid, twilioFake.authToken, { from: OURS, to: CALLER });
      expect(await session.say('Is it open?')).to.deep.equal({
        type: 'text',
        token: 'You said: Is it open?',
        last: true,
      });
      session.ws.close();
      const end = await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      expect(end.status).to.equal(200);
      const ended = await waitForCall(t.liveKey, id, undefined, 30_000);
      expect(ended).to.include({ status: 'completed', engine: 'realtime', engine_fallback: 'accept_failed' });

      // Never accepted: no session, nothing said by the realtime model, the accept tried twice.
      expect(rt.state).to.equal('ringing');
      expect(rt.said).to.deep.equal([]);
      expect(rtFake.requests.filter((r) => r.path === `/v1/realtime/calls/${rt.id}/accept`)).to.have.length(2);
      const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns as any[];
      const spoken = turns.map((x) => `${x.role}: ${x.text}`);
      expect(spoken.filter((x) => x.includes('Hi, this is Live.'))).to.deep.equal(['assistant: Hi, this is Live.']);
      expect(spoken.slice(spoken.indexOf('assistant: Hi, this is Live.') + 1)).to.deep.equal([
        'caller: Is it open?',
        'assistant: You said: Is it open?',
      ]);
    } finally {
      rtFake.acceptStatus = null;
    }
  });
  it("transfers by refer: the leg's referUrl dials the destination the call chose, and refuses any other REFER", async () => {
    const listed = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: {
        name: 'Live RT desk',
        instructions: 'Be brief.',
        first_message: 'Hi, this is Live.',
        engine: 'realtime',
        transfer_destinations: [{ name: 'billing', to: '+14155550111' }],
      },
    });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    const previous = agentId;
    agentId = listed.body.id;
    try {
      const { id, sid } = await placeAndAnswer(['I need billing.', 'TOOL transfer_call {"destination":"billing"}']);
      const rt = await until('the SIP leg at the Realtime API', () => rtFake.callFor(id));
      await until('the refer at the Realtime API', () => (rt.refers.length > 0 ? rt.refers : undefined));
      expect(rt.refers).to.deep.equal([{ target_uri: 'tel:+14155550111' }]);

      // Twilio receives the REFER on the SIP leg and asks the referUrl: the chosen destination is dialed.
      const referred = await postAsTwilio(twilioFake, `/twilio/voice/${id}/refer`, {
        CallSid: sid,
        ReferTransferTarget: '<tel:+14155550111>',
      });
      expect(referred.status).to.equal(200);
      expect(referred.text).to.contain('<Dial><Number>+14155550111</Number></Dial>');
      // Any other target, or the right one named for another Call SID, is refused.
      for (const [callSid, target] of [
        [sid, '<tel:+14155550999>'],
        [sid, '<sip:desk@attacker.example>'],
        ['CA' + '0'.repeat(32), '<tel:+14155550111>'],
      ]) {
        const refused = await postAsTwilio(twilioFake, `/twilio/voice/${id}/refer`, {
          CallSid: callSid,
          ReferTransferTarget: target,
        });
        expect(refused.text, target).to.not.contain('<Dial>');
        // A Call SID the call does not have may already be refused by the callbacks' guard (403).
        if (refused.status === 200) expect(refused.text, target).to.contain('<Hangup/>');
        else expect(refused.status, target).to.equal(403);
      }
      const ended = await waitForCall(t.liveKey, id, (c) => c.status === 'transferred', 30_000);
      expect(ended).to.include({ end_reason: 'transferred', transferred_to: '+14155550111', engine_fallback: null });
      expect(
        rtFake.requests.some((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`),
        'a transferred leg is not hung up',
      ).to.equal(false);
    } finally {
      agentId = previous;
    }
  });

  it('refuses a REFER on a call that asked for none', async () => {
    const { id, sid } = await placeAndAnswer(['Hello?', 'WAIT 30000']);
    await until('the SIP leg at the Realtime API', () => rtFake.callFor(id));
    const refused = await postAsTwilio(twilioFake, `/twilio/voice/${id}/refer`, {
      CallSid: sid,
      ReferTransferTarget: '<tel:+14155550111>',
    });
    expect(refused.status).to.equal(200);
    expect(refused.text).to.contain('<Hangup/>').and.not.contain('<Dial>');
    expect((await Call.findById(id, { realtime_refer_to: 1 }).lean())?.realtime_refer_to ?? null).to.equal(null);
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
  });
});
