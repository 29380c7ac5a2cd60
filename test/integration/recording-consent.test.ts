/**
 * Recording consent and the AI disclosure on real calls (test mode, and live through the fake Twilio
 * and a ConversationRelay client): the announcement where all-party consent applies and not elsewhere,
 * `ask` with a no (nothing recorded, nothing asked of Twilio, the call goes on) and a yes (recorded from
 * the yes on), the disclosure said first unless the organization turns it off, and the persona tests'
 * built-in disclosure check.
 */
import { expect } from 'chai';
import { Call, CallTurn } from '../../src/models/calls';
import { Recording } from '../../src/models/recordings';
import { withBuiltInChecks } from '../../src/services/test-suites';
import { recordingWorkflowId } from '../../src/shared/recordings';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { postAsTwilio, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { eventually } from '../support/webhooks';

const DISCLOSURE = "You're speaking with an automated assistant.";
const RECORDED = 'This call is recorded.';
const QUESTION = 'May I record this call? Please say yes or no.';
const FIRST = 'Hi, this is the clinic.';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** The transcript of an ended call as `role: text` lines. */
async function lines(key: string, callId: string): Promise<string[]> {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.turns.map((t: any) => `${t.role}: ${t.text}`);
}

/** A test call of `agentId` to `to` with the scripted caller `caller`; answers the ended call. */
async function testCall(t: Tenant, agentId: string, to: string, caller: string[]): Promise<any> {
  const res = await request('POST', '/v1/calls', {
    key: t.testKey,
    body: { to, agent_id: agentId, simulation: { caller } },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return waitForCall(t.testKey, res.body.id);
}

/** Whether the call's recording workflow was ever started. */
async function recordingStarted(callId: string): Promise<boolean> {
  try {
    await h().env.client.workflow.getHandle(recordingWorkflowId(callId)).describe();
    return true;
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return false;
    throw err;
  }
}

describe('recording consent and AI disclosure', function () {
  this.timeout(120_000);
  let t: Tenant;
  const agent = async (key: string, body: Record<string, unknown>) => {
    const res = await request('POST', '/v1/agents', {
      key,
      body: { name: 'Clinic', instructions: 'Be brief.', first_message: FIRST, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };

  before(async () => {
    t = await newTenant();
  });

  it('announces recording to an all-party-consent number (California), not to a one-party state unless configured', async () => {
    const recorded = await agent(t.testKey, { recording: { enabled: true } });
    const ca = await testCall(t, recorded, '+14155550123', ['Okay.', 'Bye.']);
    expect((await lines(t.testKey, ca.id)).slice(0, 2)).to.deep.equal([
      `assistant: ${DISCLOSURE} ${RECORDED}`,
      `assistant: ${FIRST}`,
    ]);
    expect(ca.recording_consent).to.deep.include({
      mode: 'announce',
      configured: false,
      jurisdiction: 'US-CA',
      asked: false,
      answer: null,
      recording: 'on',
      words: RECORDED,
      language: 'en',
    });
    expect(ca.ai_disclosure).to.equal(DISCLOSURE);

    const ny = await testCall(t, recorded, '+12125550123', ['Okay.', 'Bye.']);
    const nyLines = await lines(t.testKey, ny.id);
    expect(nyLines.slice(0, 2)).to.deep.equal([`assistant: ${DISCLOSURE}`, `assistant: ${FIRST}`]);
    expect(nyLines.join('\n')).not.to.include(RECORDED);
    expect(ny.recording_consent).to.include({ mode: 'none', jurisdiction: null, recording: 'on', words: null });

    const configured = await agent(t.testKey, { recording: { enabled: true }, recording_consent: 'announce' });
    const ny2 = await testCall(t, configured, '+12125550123', ['Okay.', 'Bye.']);
    expect((await lines(t.testKey, ny2.id))[0]).to.equal(`assistant: ${DISCLOSURE} ${RECORDED}`);
    expect(ny2.recording_consent).to.include({ mode: 'announce', configured: true });

    // In the agent's language.
    const spanish = await agent(t.testKey, { recording: { enabled: true }, language: 'es-MX' });
    const es = await testCall(t, spanish, '+14155550123', ['Hola.']);
    expect((await lines(t.testKey, es.id))[0]).to.equal(
      'assistant: Está hablando con un asistente automático. Esta llamada se graba.',
    );
  });

  it('"ask" with a no in test mode: recording stays off, nothing is recorded, the call goes on', async () => {
    const asking = await agent(t.testKey, { recording: { enabled: true }, recording_consent: 'ask' });
    const call = await testCall(t, asking, '+12125550123', ["No, I'd rather not.", 'What is this about?', 'Bye.']);
    expect(call.status).to.equal('completed');
    expect(await lines(t.testKey, call.id)).to.deep.equal([
      `assistant: ${DISCLOSURE} ${QUESTION}`,
      "caller: No, I'd rather not.",
      `assistant: Understood. This call will not be recorded. ${FIRST}`,
      'caller: What is this about?',
      'assistant: You said: What is this about?',
      'caller: Bye.',
      'assistant: You said: Bye.',
    ]);
    expect(call.recording_consent).to.include({
      mode: 'ask',
      asked: true,
      answer: 'no',
      answer_seq: 1,
      recording: 'off',
      words: QUESTION,
    });
    await new Promise((r) => setTimeout(r, 1500)); // a recording would be started with the end
    expect(await recordingStarted(call.id), 'no recording workflow').to.equal(false);
    expect(await Recording.countDocuments({ call_id: call.id })).to.equal(0);
    expect((await request('GET', `/v1/calls/${call.id}/recording`, { key: t.testKey })).status).to.equal(404);
  });

  it('"ask" with a yes in test mode: recorded from the yes on', async () => {
    const asking = await agent(t.testKey, { recording: { enabled: true }, recording_consent: 'ask' });
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+12125550123',
        agent_id: asking,
        simulation: { caller: ['Yes, that is fine.', 'Thanks, bye.'], pause_seconds: 1 },
      },
    });
    const call = await waitForCall(t.testKey, res.body.id);
    expect((await lines(t.testKey, call.id)).slice(0, 3)).to.deep.equal([
      `assistant: ${DISCLOSURE} ${QUESTION}`,
      'caller: Yes, that is fine.',
      `assistant: Thank you. This call is now recorded. ${FIRST}`,
    ]);
    expect(call.recording_consent).to.include({ answer: 'yes', recording: 'on' });
    const rec = await eventually(async () => {
      const r = await request('GET', `/v1/calls/${call.id}/recording`, { key: t.testKey });
      return r.status === 200 ? r.body : null;
    }, 'the recording');
    const turns = await CallTurn.find({ call_id: call.id }).sort({ seq: 1 }).lean();
    const doc = (await Call.findById(call.id).lean())!;
    // From the reply to the yes (turn 2) to the end: the question and the answer are not in it.
    expect(rec.duration_ms).to.equal(doc.ended_ms! - turns[2].at_ms);
    expect(turns[2].at_ms - doc.answered_ms!, 'the caller took a second to answer').to.be.at.least(1000);
  });

  it('says the disclosure first on every call while on; the organization turns it off and on', async () => {
    const plain = await agent(t.testKey, {});
    const on = await testCall(t, plain, '+12125550123', ['Hi.']);
    expect((await lines(t.testKey, on.id))[0]).to.equal(`assistant: ${DISCLOSURE}`);
    expect((await request('GET', '/v1/account', { key: t.testKey })).body.ai_disclosure).to.equal(true);
    try {
      const off = await request('POST', '/v1/account', { key: t.testKey, body: { ai_disclosure: false } });
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
      expect(off.body.ai_disclosure).to.equal(false);
      // The live mode keeps its own setting.
      expect((await request('GET', '/v1/account', { key: t.liveKey })).body.ai_disclosure).to.equal(true);
      const call = await testCall(t, plain, '+12125550123', ['Hi.']);
      const said = await lines(t.testKey, call.id);
      expect(said[0]).to.equal(`assistant: ${FIRST}`);
      expect(said.join('\n')).not.to.include(DISCLOSURE);
      expect(call.ai_disclosure).to.equal(null);
    } finally {
      await request('POST', '/v1/account', { key: t.testKey, body: { ai_disclosure: true } });
    }
    const again = await testCall(t, plain, '+12125550123', ['Hi.']);
    expect((await lines(t.testKey, again.id))[0]).to.equal(`assistant: ${DISCLOSURE}`);
    const bad = await request('POST', '/v1/account', { key: t.testKey, body: { ai_disclosure: 'yes' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('ai_disclosure');
  });

  it('persona tests check the disclosure: passed when said first, the scenario failed when not', async () => {
    const plain = await agent(t.testKey, {});
    const suite = await request('POST', `/v1/agents/${plain}/test_suites`, {
      key: t.testKey,
      body: {
        name: 'Disclosure',
        scenarios: [
          {
            name: 'greets',
            persona: 'Ann. FAKE_PERSONA: Hello there. | BYE Bye.',
            goal: 'Say hello.',
            rubric: 'FAKE_JUDGE:pass The assistant greets.',
            max_turns: 3,
          },
        ],
      },
    });
    expect(suite.status, JSON.stringify(suite.body)).to.equal(200);
    const started = await request('POST', `/v1/test_suites/${suite.body.id}/runs`, { key: t.testKey, body: {} });
    const run = await eventually(async () => {
      const r = await request('GET', `/v1/test_suite_runs/${started.body.id}`, { key: t.testKey });
      return r.body.status === 'completed' ? r.body : null;
    }, 'the run');
    expect(run.results[0]).to.include({ status: 'passed', verdict: 'pass' });
    expect(run.results[0].checks).to.deep.equal([
      {
        name: 'ai_disclosure',
        passed: true,
        detail: `The first assistant turn begins with the disclosure: "${DISCLOSURE}"`,
      },
    ]);
    expect((await lines(t.testKey, run.results[0].call_id))[0]).to.equal(`assistant: ${DISCLOSURE}`);

    // A call whose first sentence was not the disclosure it should have said: the check fails the verdict.
    const callId = run.results[0].call_id as string;
    const first = await CallTurn.findOne({ call_id: callId, seq: 0 }).lean();
    await CallTurn.updateOne({ _id: first!._id }, { $set: { text: FIRST } });
    const verdict = await withBuiltInChecks(callId, {
      verdict: 'pass',
      score: 90,
      reasons: [{ quote: 'Hello there.', explanation: 'greeted' }],
    });
    expect(verdict.verdict).to.equal('fail');
    expect(verdict.checks![0]).to.include({ name: 'ai_disclosure', passed: false });
    expect(verdict.reasons.at(-1)!.quote).to.equal(FIRST);
    // With the disclosure off for the call, nothing to check.
    await Call.updateOne({ _id: callId }, { $set: { ai_disclosure: null } });
    expect((await withBuiltInChecks(callId, verdict)).checks).to.deep.equal(verdict.checks);
  });

  describe('live', () => {
    let fake: FakeTwilio;
    let restore: () => Promise<void>;
    let asking: string;
    before(async () => {
      ({ fake, restore } = await useFakeTwilio());
      await verifiedCallerId(fake, t.liveKey);
      asking = await agent(t.liveKey, { recording: { enabled: true }, recording_consent: 'ask' });
    });
    after(() => restore());

    /** Posts a Twilio callback, signed by the account it speaks of. */
    const twilioPost = (p: string, params: Record<string, string>) => postAsTwilio(fake, p, params);

    /** A live call of the asking agent, answered, its TwiML fetched and its relay connected. */
    async function liveCall() {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: asking },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const twiml = (await twilioPost(`/twilio/voice/${id}`, { CallSid: sid })).text;
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      return { id, sid, twiml, session };
    }

    it('"ask" + no: no <Start><Recording>, no recording asked of Twilio, the call goes on, nothing kept', async () => {
      const { id, sid, twiml, session } = await liveCall();
      expect(twiml).not.to.include('<Recording');
      const greeting = /welcomeGreeting="([^"]*)"/.exec(twiml)?.[1].replace(/&apos;|&#39;/g, "'");
      expect(greeting, 'the disclosure and the question, the first message after the answer').to.equal(
        `${DISCLOSURE} ${QUESTION}`,
      );
      expect((await session.say('No.')).token).to.equal(`Understood. This call will not be recorded. ${FIRST}`);
      expect((await session.say('When is my appointment?')).token).to.equal('You said: When is my appointment?');
      session.ws.close();
      await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
      const call = await waitForCall(t.liveKey, id);
      expect(call.recording_consent).to.include({ mode: 'ask', answer: 'no', recording: 'off' });
      expect(fake.callRecordings.filter((r) => r.callSid === sid)).to.deep.equal([]);
      // A recording callback for it anyway (forged or stray): ignored, nothing kept.
      const stray = {
        CallSid: sid,
        RecordingSid: 'RE' + 'ab'.repeat(16),
        RecordingStatus: 'completed',
        RecordingDuration: '3',
      };
      expect((await twilioPost(`/twilio/recording/${id}`, stray)).status).to.equal(204);
      expect(await recordingStarted(id)).to.equal(false);
      expect(await Recording.countDocuments({ call_id: id })).to.equal(0);
      const said = await lines(t.liveKey, id);
      expect(said.slice(0, 3)).to.deep.equal([
        `assistant: ${DISCLOSURE} ${QUESTION}`,
        'caller: No.',
        `assistant: Understood. This call will not be recorded. ${FIRST}`,
      ]);
    });

    it('"ask" + yes: Twilio is asked to record the call after the yes, two channels, with our callback', async () => {
      const { id, sid, twiml, session } = await liveCall();
      expect(twiml).not.to.include('<Recording');
      expect(fake.callRecordings.filter((r) => r.callSid === sid)).to.have.length(0);
      expect((await session.say('Yes, go ahead.')).token).to.equal(`Thank you. This call is now recorded. ${FIRST}`);
      const started = fake.callRecordings.filter((r) => r.callSid === sid);
      expect(started).to.have.length(1);
      expect(started[0].params).to.include({
        RecordingChannels: 'dual',
        RecordingStatusCallback: `${h().api.url}/twilio/recording/${id}`,
        RecordingStatusCallbackMethod: 'POST',
        RecordingStatusCallbackEvent: 'completed',
      });
      expect((await session.say('Thanks.')).token).to.equal('You said: Thanks.');
      session.ws.close();
      await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
      const call = await waitForCall(t.liveKey, id);
      expect(call.recording_consent).to.include({ answer: 'yes', recording: 'on', answer_seq: 1 });
    });
  });
});
