/**
 * Squads on live calls: a hand-off to a member whose agent speaks with another voice and language switches
 * the ConversationRelay session (its `language` message) before that member answers, announced in the old
 * voice when the member's `voice_change` is `announced` (the announcement written as the old member's turn); a hand-off between members of one voice sends
 * nothing. Runs against the loopback Twilio-shaped server and the ConversationRelay client simulator; the
 * squad's `voice_change` field is checked through the API (default, refusal named by its param).
 */
import { expect } from 'chai';
import { newTenant, request, waitForCall } from '../support/harness';
import { twilioCallback, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { CallTurn } from '../../src/models/calls';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('squads: voice per member on live calls', function () {
  this.timeout(120_000);
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let t: Tenant;
  const agents: Record<string, string> = {};

  const createAgent = async (name: string, speech: Record<string, unknown>) => {
    const res = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name, instructions: `You are ${name} at Acme Dental.`, ...speech },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };

  before(async () => {
    ({ fake, restore } = await useFakeTwilio());
    t = await newTenant();
    await verifiedCallerId(fake, t.liveKey);
    const english = { voice: { provider: 'Google', voice_id: 'en-US-Journey-O' }, language: 'en-US' };
    agents.reception = await createAgent('Reception', english);
    agents.booking = await createAgent('Booking', english);
    agents.billing = await createAgent('Billing', {
      voice: { provider: 'ElevenLabs', voice_id: 'UgBBYS2sOqTuMpoF3BR0' },
      language: 'es-MX',
    });
  });
  after(() => restore());

  const members = (billingChange: string | undefined) => [
    {
      name: 'reception',
      agent_id: agents.reception,
      handoffs: [{ to: 'booking', description: 'The caller wants an appointment.' }],
    },
    {
      name: 'booking',
      agent_id: agents.booking,
      handoffs: [{ to: 'billing', description: 'The caller asks about a bill.' }],
    },
    {
      name: 'billing',
      agent_id: agents.billing,
      description: 'our billing team',
      handoffs: [],
      ...(billingChange ? { voice_change: billingChange } : {}),
    },
  ];

  it('takes voice_change per member (default seamless) and refuses another value naming it', async () => {
    const bad = await request('POST', '/v1/squads', {
      key: t.liveKey,
      body: { name: 'Desk', members: members('loud'), start: 'reception' },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ type: 'invalid_request_error', param: 'members[2].voice_change' });
    expect((await request('GET', '/v1/squads', { key: t.liveKey })).body.data).to.have.length(0);

    const ok = await request('POST', '/v1/squads', {
      key: t.liveKey,
      body: { name: 'Desk', members: members('announced'), start: 'reception' },
    });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.members.map((m: { voice_change: string }) => m.voice_change)).to.deep.equal([
      'seamless',
      'seamless',
      'announced',
    ]);
  });

  /** A live call of squad `squadId`, answered, its ConversationRelay session open. */
  async function liveSquadCall(squadId: string) {
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', squad_id: squadId },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.id as string;
    await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
    const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
    await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
    await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
    const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
    return { id, session };
  }

  for (const change of ['announced', 'seamless'] as const) {
    it(`switches voice and language at a hand-off to a member of another voice (${change}), not between members of one voice`, async () => {
      const squad = await request('POST', '/v1/squads', {
        key: t.liveKey,
        body: { name: `Desk ${change}`, members: members(change), start: 'reception' },
      });
      expect(squad.status, JSON.stringify(squad.body)).to.equal(200);
      const { id, session } = await liveSquadCall(squad.body.id);

      // reception → booking: one voice, nothing but booking's answer.
      expect(await session.say('HANDOFF booking')).to.deep.include({
        type: 'text',
        token: 'You said: HANDOFF booking',
      });
      await waitForCall(t.liveKey, id, (c) => c.squad_member === 'booking');
      expect(session.raw.filter((r) => r.msg.type === 'language')).to.have.length(0);

      // booking → billing: (the announcement in booking's voice,) the switch, then billing's answer.
      const before = session.raw.length;
      const first = await session.say('HANDOFF billing');
      if (change === 'announced') {
        expect(first).to.deep.equal({
          type: 'text',
          token: "One moment, I'm passing you to our billing team.",
          last: true,
        });
      }
      const switched = change === 'announced' ? await session.next() : first;
      expect(switched).to.deep.equal({
        type: 'language',
        ttsLanguage: 'es-MX',
        transcriptionLanguage: 'es-MX',
        code: 'es-MX',
        ttsProvider: 'ElevenLabs',
        voice: 'UgBBYS2sOqTuMpoF3BR0',
      });
      expect(await session.next()).to.deep.include({ type: 'text', token: 'You said: HANDOFF billing' });
      // In that order on the wire: nothing of billing's answer before the switch.
      const sent = session.raw.slice(before).map((r) => r.msg);
      const at = sent.findIndex((m) => m.type === 'language');
      expect(sent.slice(0, at).every((m) => m.type === 'text' && m.last === true)).to.equal(true);
      expect(sent.slice(0, at)).to.have.length(change === 'announced' ? 1 : 0);
      expect(sent.filter((m) => m.type === 'language')).to.have.length(1);
      await waitForCall(t.liveKey, id, (c) => c.squad_member === 'billing');
      // The announcement said in booking's voice is booking's turn, right before the hand-off entry (the
      // store's turns: the transcript endpoint answers once the call has ended).
      const turns = await CallTurn.find({ call_id: id }).sort({ seq: 1 }).lean();
      const entry = turns.findIndex((x) => x.role === 'handoff' && x.text === 'booking → billing');
      expect(entry).to.be.greaterThan(0);
      const announcements = turns.filter((x) => x.text === "One moment, I'm passing you to our billing team.");
      if (change === 'announced') {
        expect(announcements).to.have.length(1);
        expect(turns[entry - 1]).to.include({
          role: 'assistant',
          agent_id: agents.booking,
          text: announcements[0].text,
        });
      } else expect(announcements).to.have.length(0);
      session.ws.close();
    });
  }
});
