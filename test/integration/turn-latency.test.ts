/**
 * Latency as the caller hears it (src/shared/latency.ts), end to end through the API, Temporal, the
 * worker and FerretDB with the fake LLM at a fixed model time: each answer's transcript turn carries its
 * `latency` record with consistent parts, the call object and `call.ended` carry the call's p50/p90,
 * `/metrics` has the histograms by engine; on a live call the ConversationRelay session times the first
 * text it sends for synthesis.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { UsageRecord } from '../../src/models/usage';
import { recordUsage } from '../../src/services/usage';
import { config, setConfig, type Config } from '../../src/config';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';
import { postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const FIELDS = ['end_of_speech_ms', 'model_first_token_ms', 'tool_ms', 'orchestration_ms', 'first_audio_ms'];
/** The fake model's time per answer in these tests (ms). */
const MODEL_MS = 150;

/** The parts of a record add up to its total (each rounded on its own: within 2 ms). */
function expectConsistent(latency: any, what: string): void {
  expect(Object.keys(latency).sort(), what).to.deep.equal([...FIELDS].sort());
  const parts = (latency.end_of_speech_ms ?? 0) + latency.model_first_token_ms + latency.tool_ms;
  expect(Math.abs(latency.first_audio_ms - parts - latency.orchestration_ms), `${what}: parts`).to.be.at.most(2);
  expect(latency.first_audio_ms, `${what}: first audio after the model's first token`).to.be.at.least(
    latency.model_first_token_ms,
  );
  expect(latency.orchestration_ms, `${what}: orchestration`).to.be.at.least(0);
}

describe('turn latency', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant({ first_message: 'Hello, latency here.' });
  });

  it("records each answer's latency on its turn, the call's p50/p90 on the call and call.ended, and histograms in /metrics", async () => {
    const before = h().llm.delayMs;
    h().llm.delayMs = MODEL_MS;
    let id: string;
    try {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['One', 'Two', 'Three'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      id = res.body.id;
      await waitForCall(t.testKey, id);
    } finally {
      h().llm.delayMs = before;
    }
    const tr = await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey });
    expect(tr.status).to.equal(200);
    const turns = tr.body.turns as any[];
    // The opening is not an answer: no record; each answer to the caller has one.
    expect(turns.filter((x) => x.latency).map((x) => x.text)).to.deep.equal([
      'You said: One',
      'You said: Two',
      'You said: Three',
    ]);
    for (const turn of turns.filter((x) => x.latency)) {
      const l = turn.latency;
      expectConsistent(l, turn.text);
      expect(l.end_of_speech_ms, 'no end of speech on the pipeline').to.equal(null);
      expect(l.tool_ms).to.equal(0);
      // The fake model took MODEL_MS before it answered (not streamed: the first token is the answer).
      expect(l.model_first_token_ms, turn.text)
        .to.be.at.least(MODEL_MS)
        .and.below(MODEL_MS + 2_000);
      expect(l.orchestration_ms, turn.text).to.be.below(5_000);
    }

    const call = await request('GET', `/v1/calls/${id}`, { key: t.testKey });
    const values = (f: string) =>
      turns
        .filter((x) => x.latency)
        .map((x) => x.latency[f])
        .sort((a: number, b: number) => a - b);
    expect(call.body.latency.turns).to.equal(3);
    // Nearest rank over three answers: p50 the second, p90 the third.
    for (const f of ['model_first_token_ms', 'orchestration_ms', 'first_audio_ms', 'tool_ms'])
      expect(call.body.latency[f], f).to.deep.equal({ p50: values(f)[1], p90: values(f)[2] });
    expect(call.body.latency.end_of_speech_ms).to.deep.equal({ p50: null, p90: null });

    const events = await request('GET', '/v1/events?limit=100', { key: t.testKey });
    const ended = (events.body.data as any[]).find((e) => e.type === 'call.ended' && e.data.object.id === id);
    expect(ended, 'call.ended').to.exist;
    expect(ended.data.object.latency).to.deep.equal(call.body.latency);

    const metrics = await (await fetch(`${h().api.url}/metrics`)).text();
    const count = /^svc_voice_turn_first_audio_seconds_count\{engine="pipeline"\} (\d+)/m.exec(metrics);
    expect(count, 'the first-audio histogram by engine').to.not.equal(null);
    expect(Number(count![1])).to.be.at.least(3);
    expect(metrics).to.match(/^svc_voice_turn_orchestration_seconds_bucket\{le="0\.05",engine="pipeline"\} \d+/m);
  });

  it('leaves the call without latency when no answer was given', async () => {
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'no_answer' } },
    });
    const call = await waitForCall(t.testKey, res.body.id);
    expect(call.latency).to.equal(null);
  });

  it("an answer's usage row is stored before the answer returns; its rollups are folded behind it", async () => {
    // The LLM activity waited for the rollups' seven or so store writes per answer after the model had
    // answered (recordUsage awaited the fold): 30 ms of a 50 ms orchestration (bench:voice).
    const row = {
      _id: `llm:bench-fold-behind:${Date.now()}`,
      kind: 'llm_request' as const,
      org_id: t.orgId,
      livemode: false,
      subject_id: 'call_none',
      occurred_ms: Date.now(),
      model: 'fake-model',
      prompt_tokens: 10,
      completion_tokens: 5,
    };
    const client = mongoose.connection.getClient();
    const started: string[] = [];
    const seen = (e: { commandName: string; command: Record<string, unknown> }) =>
      started.push(`${String(e.command[e.commandName])}.${e.commandName}`);
    client.on('commandStarted', seen);
    let atReturn: string[];
    try {
      expect(await recordUsage(row, { foldBehind: true })).to.equal(true);
      atReturn = [...started];
    } finally {
      client.off('commandStarted', seen);
    }
    expect(atReturn, 'the row was inserted').to.include('usage_records.insert');
    expect(
      atReturn.filter((c) => c.startsWith('usage_daily.')),
      'no rollup write before the return',
    ).to.deep.equal([]);
    // Folded behind: the row is done and counted in the organization's usage.
    await eventually(
      async () => (await UsageRecord.findById(row._id).lean())?.rollup === 'done',
      'the row is folded into its rollups',
    );
    const usage = await request('GET', '/v1/usage', { key: t.testKey });
    expect(usage.status).to.equal(200);
    expect(usage.body.totals.llm.prompt_tokens).to.be.at.least(10);
  });

  describe('live (ConversationRelay)', function () {
    let fake: FakeTwilio;
    let saved: Config;
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
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hi.' },
      });
      agentId = agent.body.id;
    });
    after(async () => {
      setConfig(saved);
      await fake.close();
    });

    it("times the first text sent for synthesis from the final transcript's receipt, on the relay's clock", async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agentId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      await postAsTwilio(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      const streaming = h().llm.streaming;
      h().llm.streaming = { firstTokenMs: MODEL_MS, tokenGapMs: 100 };
      let saidMs: number;
      try {
        saidMs = Date.now();
        await session.say('Time this');
      } finally {
        h().llm.streaming = streaming;
      }
      const firstWordMs = session.raw.find((r) => r.msg.type === 'text' && r.msg.last === false)!.atMs;
      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      await waitForCall(t.liveKey, id);
      const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns as any[];
      const answer = turns.find((x) => x.text === 'You said: Time this');
      expect(answer?.latency, 'the answer has a record').to.exist;
      const l = answer.latency;
      expectConsistent(l, 'live answer');
      expect(l.end_of_speech_ms, "ConversationRelay's prompt tells no end of speech").to.equal(null);
      // Streamed: the first token after MODEL_MS, well before the whole answer (3 more words, 100 ms apart).
      expect(l.model_first_token_ms)
        .to.be.at.least(MODEL_MS)
        .and.below(MODEL_MS + 250);
      // The relay's own figure, within what the caller side saw from its prompt to the first word.
      expect(l.first_audio_ms).to.be.at.most(firstWordMs - saidMs + 5);
      const call = await eventually(async () => {
        const c = await request('GET', `/v1/calls/${id}`, { key: t.liveKey });
        return c.body.latency ? c.body : undefined;
      }, 'the call carries its latency');
      expect(call.latency.first_audio_ms).to.deep.equal({ p50: l.first_audio_ms, p90: l.first_audio_ms });
    });
  });
});
