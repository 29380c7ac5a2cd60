/**
 * Speech settings through live calls: each agent's speech settings (voice, language,
 * transcription, interruptible, dtmf) validated on write and carried into the `<ConversationRelay>` TwiML
 * of outbound and inbound calls; an `interrupt` from the ConversationRelay client simulator cutting the
 * assistant's turn in the transcript and in the next LLM request; the `send_dtmf` tool reaching the relay
 * socket as `sendDigits` (and recorded in test mode, refused with bad digits).
 */
import { expect } from 'chai';
import { InboundCallSid } from '../../src/models/calls';
import { postAsTwilio, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { relayClient, type RelayClient } from '../support/relay-client';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const SPEECH = {
  voice: { provider: 'ElevenLabs', voice_id: 'UgBBYS2sOqTuMpoF3BR0' },
  language: 'es-mx',
  transcription: { provider: 'Deepgram', hints: ['Acme', 'Zyrtec'] },
  interruptible: 'speech',
  dtmf: true,
};

describe('relay settings, interruptions and send_dtmf', function () {
  this.timeout(120_000);
  let t: Tenant;
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let agentId: string;
  const ours = '+14155550141'; // a number no other test connects (numbers are unique across organizations)

  before(async () => {
    t = await newTenant();
    ({ fake, restore } = await useFakeTwilio());
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: {
        name: 'Relay',
        instructions: 'Be brief.',
        first_message: 'Hola, habla Relay.',
        enabled_tools: ['send_dtmf'],
        ...SPEECH,
      },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    agentId = agent.body.id;
    const number = await request('POST', '/v1/phone_numbers', {
      key: t.liveKey,
      body: { number: ours, channels: ['voice'], agent_id: agentId },
    });
    expect(number.status, JSON.stringify(number.body)).to.equal(200);
  });
  after(async () => restore());

  /** Posts a Twilio webhook, signed by the account it speaks of. */
  const twilioPost = (path: string, params: Record<string, string>) => postAsTwilio(fake, path, params);

  /** A live outbound call, answered; its CallSid. */
  async function liveCall(): Promise<{ id: string; sid: string }> {
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: ours, agent_id: agentId },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.id as string;
    await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
    const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
    expect((await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' })).status).to.equal(
      204,
    );
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    return { id, sid };
  }

  const relay = (id: string, sid: string): Promise<RelayClient> =>
    relayClient(id, sid, fake.authToken, { from: ours, to: '+14155550123' });

  const transcriptOf = async (id: string) =>
    (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns as any[];

  /** The attributes TwiML must carry for `SPEECH` (the language canonical). */
  const expectSpeechAttributes = (twiml: string) =>
    expect(twiml)
      .to.contain('<ConversationRelay')
      .and.contain('ttsProvider="ElevenLabs"')
      .and.contain('voice="UgBBYS2sOqTuMpoF3BR0"')
      .and.contain('language="es-MX"')
      .and.contain('transcriptionProvider="Deepgram"')
      .and.contain('hints="Acme,Zyrtec"')
      .and.contain('interruptible="speech"')
      .and.contain('welcomeGreetingInterruptible="speech"')
      .and.contain('dtmfDetection="true"');

  it('renders the settings on the agent and refuses bad ones with a 400 naming the field', async () => {
    const agent = await request('GET', `/v1/agents/${agentId}`, { key: t.liveKey });
    expect(agent.body).to.deep.include({ ...SPEECH, language: 'es-MX' });
    const bad: [Record<string, unknown>, string][] = [
      [{ language: 'not a language!' }, 'language'],
      [{ voice: { provider: 'Acme TTS', voice_id: 'x' } }, 'voice.provider'],
      [{ voice: { provider: 'Google', voice_id: '' } }, 'voice.voice_id'],
      [{ transcription: { provider: 'Deepgram', hints: ['a,b'] } }, 'transcription.hints.0'],
      [{ interruptible: 'sometimes' }, 'interruptible'],
      [{ dtmf: 'yes' }, 'dtmf'],
      [{ enabled_tools: ['press_keys'] }, 'enabled_tools[0]'],
    ];
    for (const [body, param] of bad) {
      const res = await request('POST', `/v1/agents/${agentId}`, { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.include({ type: 'invalid_request_error', param });
    }
    const created = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'x', instructions: 'y', language: 'en_US!' },
    });
    expect(created.status).to.equal(400);
    expect(created.body.error.param).to.equal('language');
    // Nothing half written; null clears a setting.
    expect((await request('GET', `/v1/agents/${agentId}`, { key: t.liveKey })).body.language).to.equal('es-MX');
    const other = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Other', instructions: 'y', ...SPEECH },
    });
    const cleared = await request('POST', `/v1/agents/${other.body.id}`, {
      key: t.liveKey,
      body: { voice: null, language: null, transcription: null, interruptible: null, dtmf: null },
    });
    expect(cleared.body).to.include({
      voice: null,
      language: null,
      transcription: null,
      interruptible: null,
      dtmf: null,
    });
  });

  it("puts the agent's voice, language, transcription, interruptible and dtmf into an outbound call's TwiML", async () => {
    const { id, sid } = await liveCall();
    const twiml = await twilioPost(`/twilio/voice/${id}`, { CallSid: sid });
    expect(twiml.status).to.equal(200);
    expectSpeechAttributes(twiml.text);
    // The AI disclosure in the agent's language, then its first message.
    expect(twiml.text).to.contain('welcomeGreeting="Está hablando con un asistente automático. Hola, habla Relay."');
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
  });

  it("puts them into an inbound call's TwiML", async () => {
    const sid = 'CA' + [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');
    const twiml = await twilioPost('/twilio/voice/inbound', { CallSid: sid, From: '+14155550188', To: ours });
    expect(twiml.status).to.equal(200);
    expectSpeechAttributes(twiml.text);
    const id = (await InboundCallSid.findById(sid).lean())!.call_id;
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
  });

  it('cuts the interrupted answer to what was heard, in the transcript and the next LLM request', async () => {
    const { id, sid } = await liveCall();
    const session = await relay(id, sid);
    expect((await session.say('Tell me everything')).token).to.equal('You said: Tell me everything');
    // The caller talks over the answer after its first two words, then says something.
    session.ws.send(
      JSON.stringify({ type: 'interrupt', utteranceUntilInterrupt: 'You said:', durationUntilInterruptMs: 640 }),
    );
    const second = await session.say('Stop, one question');
    expect(second, JSON.stringify(session.raw.map((r) => r.msg))).to.include({ token: 'You said: Stop, one question' });
    const asked = h().llm.requests.filter((r) => r.user === id);
    const next = asked[asked.length - 1].messages.map((m) => [m.role, m.content]);
    expect(next).to.deep.include(['assistant', 'You said:']);
    expect(next).to.not.deep.include(['assistant', 'You said: Tell me everything']);
    expect(next[next.length - 1]).to.deep.equal(['user', 'Stop, one question']);
    // An interruption of the welcome greeting's turn is not involved: it was heard whole.
    expect(next).to.deep.include(['assistant', 'Hola, habla Relay.']);
    session.ws.close();
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
    await waitForCall(t.liveKey, id);
    const turns = await transcriptOf(id);
    expect(turns.map((x) => [x.role, x.text, x.interrupted ?? false])).to.deep.equal([
      ['assistant', 'Está hablando con un asistente automático.', false],
      ['assistant', 'Hola, habla Relay.', false],
      ['caller', 'Tell me everything', false],
      ['assistant', 'You said:', true],
      ['caller', 'Stop, one question', false],
      ['assistant', 'You said: Stop, one question', false],
    ]);
  });

  it('presses keys through ConversationRelay with send_dtmf, in the transcript; bad digits are a tool error', async () => {
    const { id, sid } = await liveCall();
    const session = await relay(id, sid);
    // The keys go out while the turn runs, before its answer is spoken.
    expect(await session.say('TOOLONCE send_dtmf {"digits":"1w2#"}')).to.deep.equal({
      type: 'sendDigits',
      digits: '1w2#',
    });
    const answer = await session.next();
    expect(answer.type).to.equal('text');
    expect(answer.token).to.contain('Tool result received.');
    await session.say('TOOLONCE send_dtmf {"digits":"12x"}');
    expect(session.raw.filter((r) => r.msg.type === 'sendDigits')).to.have.length(1);
    session.ws.close();
    expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
    await waitForCall(t.liveKey, id);
    const tools = (await transcriptOf(id)).filter((x) => x.role === 'tool');
    expect(tools.map((x) => [x.tool.name, x.tool.arguments, x.text.split(':')[0]])).to.deep.equal([
      ['send_dtmf', { digits: '1w2#' }, 'Pressed 1w2#.'],
      ['send_dtmf', { digits: '12x' }, 'Error'],
    ]);
    expect(tools[1].text).to.contain('digits');
    const offered = h()
      .llm.requests.filter((r) => r.user === id)[0]
      .tools!.map((x) => x.function.name);
    expect(offered).to.include('send_dtmf');
  });

  it('records send_dtmf in test mode (no relay)', async () => {
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Menu', instructions: 'Navigate menus.', enabled_tools: ['send_dtmf'] },
    });
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: agent.body.id,
        simulation: { caller: ['TOOLONCE send_dtmf {"digits":"3"}'] },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitForCall(t.testKey, res.body.id);
    const turns = (await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey })).body.turns;
    const tool = turns.find((x: any) => x.role === 'tool');
    expect(tool).to.deep.include({ text: 'Pressed 3.', tool: { name: 'send_dtmf', arguments: { digits: '3' } } });
  });
});
