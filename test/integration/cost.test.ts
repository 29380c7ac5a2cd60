/**
 * Costs end to end (README "Costs"): calls placed through the API and run by the real worker, priced
 * with price tables written to files and loaded as `PRICES_FILE` is (src/pricing/prices.ts), checked
 * against amounts worked out here from the tables' round prices and what the fake LLM counted; Twilio's
 * reported price of a live call (the fake Twilio's call resource) preferred to the table's; `GET
 * /v1/usage` cost totals equal to the calls' costs and their daily sums; a malformed table stopping an
 * API process at start-up.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { config, setConfig, type Config } from '../../src/config';
import { loadPriceTable } from '../../src/pricing/prices';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { callEvents, eventually, placeCall } from '../support/webhooks';
import { inbound, waitForMessages } from '../support/conversations';
import { postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { useFakeRealtime } from '../support/realtime-fixture';
import { UsageRecord } from '../../src/models/usage';

const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const aroundToday = () => `?from=${utcDate(Date.now() - DAY)}&to=${utcDate(Date.now() + DAY)}`;

/** A price table with round prices (micro-units: outbound US `us` per minute, model 1 and 2 per token…). */
function table(opts: { us: string; platform: string; model: string }) {
  return {
    currency: 'usd',
    as_of: '2026-11-30',
    telephony: {
      per_minute: {
        inbound: { default: '0.0100', US: '0.0085' },
        outbound: { default: '0.5000', US: opts.us },
      },
      sip_per_minute: '0.0040',
      recording_per_minute: '0.0025',
    },
    // Input 1 micro-unit per token, output 2 (×`model`): the model's cost is exact in whole micro-units.
    models: {
      [opts.model]: { input: '1.00', output: '2.00' },
    },
    platform_per_minute: opts.platform,
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prices-'));
/** Writes `json` as a price file and loads it the way start-up does (`PRICES_FILE`). */
function usePrices(name: string, json: unknown) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  setConfig({ ...config(), prices: loadPriceTable(file) });
  return file;
}

/** The fake LLM's tokens for call `id`: prompt and completion, summed over its answered requests. */
function tokensOf(id: string) {
  const answered = h().llm.requests.filter((r) => r.user === id && r.usage && !r.response_format);
  return {
    models: [...new Set(answered.map((r) => r.model))],
    prompt: answered.reduce((n, r) => n + r.usage!.prompt_tokens, 0),
    completion: answered.reduce((n, r) => n + r.usage!.completion_tokens, 0),
  };
}

/** Billable minutes as telephony bills them: talk time rounded up, at least 1 when answered. */
const minutesOf = (call: any) => (call.answered_at === null ? 0 : Math.max(1, Math.ceil(call.duration_seconds / 60)));

describe('costs', function () {
  this.timeout(180_000);
  let saved: Config;

  before(() => {
    saved = config();
  });
  afterEach(() => setConfig({ ...config(), prices: saved.prices, llmModels: saved.llmModels }));
  after(() => {
    setConfig(saved);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prices a call from the table, keeps it when the table changes, and sums it in GET /v1/usage', async () => {
    const model = config().openaiModel;
    usePrices('a.json', table({ us: '0.020000', platform: '0.050000', model }));
    const t = await newTenant({ first_message: 'Hello.' });
    const first = await placeCall(t, { simulation: { caller: ['Hi there', 'Bye'] } });
    const a = await waitForCall(t.testKey, first.id, (c) => c.cost !== null);
    const minutesA = minutesOf(a);
    expect(minutesA, 'the call was answered').to.be.greaterThan(0);
    const tokA = tokensOf(a.id);
    expect(tokA.models).to.deep.equal([model]);
    expect(tokA.prompt, 'the fake LLM counted tokens').to.be.greaterThan(0);
    const expectedA = {
      currency: 'usd',
      telephony_micros: minutesA * 20_000,
      model_micros: tokA.prompt * 1 + tokA.completion * 2,
      recording_micros: 0,
      platform_micros: minutesA * 50_000,
      source: 'table',
    };
    expect(a.cost).to.deep.equal({
      ...expectedA,
      total_micros: expectedA.telephony_micros + expectedA.model_micros + expectedA.platform_micros,
    });
    expect(a.cost_incomplete).to.equal(false);
    // The call.ended event carries the same cost.
    const ended = (await callEvents(t.testKey, a.id, 1)).find((e: any) => e.type === 'call.ended');
    expect(ended.data.object.cost).to.deep.equal(a.cost);

    // A new table: the next call is priced with it; the first keeps what it recorded.
    usePrices('b.json', table({ us: '0.030000', platform: '0.070000', model }));
    const second = await placeCall(t, { simulation: { caller: ['Again'] } });
    const b = await waitForCall(t.testKey, second.id, (c) => c.cost !== null);
    const minutesB = minutesOf(b);
    const tokB = tokensOf(b.id);
    expect(b.cost).to.include({
      telephony_micros: minutesB * 30_000,
      platform_micros: minutesB * 70_000,
      model_micros: tokB.prompt + tokB.completion * 2,
    });
    const again = (await request('GET', `/v1/calls/${a.id}`, { key: t.testKey })).body;
    expect(again.cost, 'an old cost is never re-priced').to.deep.equal(a.cost);

    // An unanswered call costs nothing but is counted.
    const busy = await placeCall(t, { simulation: { outcome: 'busy' } });
    const c = await waitForCall(t.testKey, busy.id, (x) => x.cost !== null);
    expect(c.cost).to.include({ total_micros: 0, telephony_micros: 0, platform_micros: 0, model_micros: 0 });

    // GET /v1/usage: totals are the calls' costs, and the days add up to them.
    const report = (await request('GET', `/v1/usage${aroundToday()}`, { key: t.testKey })).body;
    expect(report.currency).to.equal('usd');
    const calls = [a, b, c];
    const sum = (f: string) => calls.reduce((n, x) => n + x.cost[f], 0);
    expect(report.totals.cost).to.deep.equal({
      total_micros: sum('total_micros'),
      telephony_micros: sum('telephony_micros'),
      model_micros: sum('model_micros'),
      recording_micros: sum('recording_micros'),
      platform_micros: sum('platform_micros'),
      incomplete: 0,
    });
    for (const f of Object.keys(report.totals.cost))
      expect(
        report.daily.reduce((n: number, d: any) => n + d.cost[f], 0),
        `daily ${f}`,
      ).to.equal(report.totals.cost[f]);
    // By agent version too (the console's chart per version).
    const byVersion = (
      await request('GET', `/v1/usage${aroundToday()}&agent_id=${t.agentId}&agent_version=1`, { key: t.testKey })
    ).body;
    expect(byVersion.totals.cost.total_micros).to.equal(sum('total_micros'));
  });

  it('records model null and cost_incomplete when the model is missing from the table', async () => {
    setConfig({ ...config(), llmModels: [...config().llmModels, 'unpriced-model'] });
    usePrices('c.json', table({ us: '0.020000', platform: '0.050000', model: 'some-other-model' }));
    const t = await newTenant({ first_message: 'Hello.', model: 'unpriced-model' });
    const placed = await placeCall(t, { simulation: { caller: ['Hi'] } });
    const call = await waitForCall(t.testKey, placed.id, (c) => c.cost !== null);
    expect(tokensOf(call.id).models).to.deep.equal(['unpriced-model']);
    const minutes = minutesOf(call);
    expect(call.cost).to.deep.equal({
      currency: 'usd',
      total_micros: minutes * 70_000,
      telephony_micros: minutes * 20_000,
      model_micros: null,
      recording_micros: 0,
      platform_micros: minutes * 50_000,
      source: 'table',
    });
    expect(call.cost_incomplete).to.equal(true);
    const report = (await request('GET', `/v1/usage${aroundToday()}`, { key: t.testKey })).body;
    expect(report.totals.cost).to.include({ incomplete: 1, model_micros: 0, total_micros: minutes * 70_000 });
  });

  it("records each conversation turn's and each analysis request's cost as it happens, apart from the call's", async () => {
    const model = config().openaiModel;
    usePrices('f.json', table({ us: '0.020000', platform: '0.050000', model }));
    const t = await newTenant({ first_message: 'Hello.' });
    // A call with an analysis: the analysis's requests are priced on the analysis, not in the call's cost.
    const placed = await placeCall(t, { simulation: { caller: ['Hi there'] }, analysis: { summary: true } });
    const call = await waitForCall(t.testKey, placed.id, (c) => c.cost !== null && c.analysis !== null);
    const analysisRequests = h().llm.requests.filter((r) => r.user === call.id && r.usage && r.response_format);
    expect(analysisRequests.length, 'the analysis asked the model').to.be.greaterThan(0);
    const analysisMicros = analysisRequests.reduce(
      (n, r) => n + r.usage!.prompt_tokens + 2 * r.usage!.completion_tokens,
      0,
    );
    expect(call.analysis.cost).to.include({
      model_micros: analysisMicros,
      total_micros: analysisMicros,
      telephony_micros: 0,
    });
    expect(call.analysis.cost_incomplete).to.equal(false);
    const tok = tokensOf(call.id);
    expect(call.cost.model_micros).to.equal(tok.prompt + 2 * tok.completion);

    // A conversation never ends: each turn's cost is recorded with its answer.
    const from = `+1415555${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const first = await inbound(t.testKey, { channel: 'sms', from, text: 'one' });
    const convId = first.body.conversation_id;
    await waitForMessages(t.testKey, convId, 1, (m) => m.author === 'assistant');
    await inbound(t.testKey, { channel: 'sms', from, text: 'two' });
    await waitForMessages(t.testKey, convId, 2, (m) => m.author === 'assistant');
    const turns = h().llm.requests.filter((r) => r.user === convId && r.usage);
    expect(turns.length).to.equal(2);
    const convMicros = turns.reduce((n, r) => n + r.usage!.prompt_tokens + 2 * r.usage!.completion_tokens, 0);
    const conv = (await request('GET', `/v1/conversations/${convId}`, { key: t.testKey })).body;
    expect(conv.cost).to.deep.equal({
      currency: 'usd',
      total_micros: convMicros,
      telephony_micros: 0,
      model_micros: convMicros,
      recording_micros: 0,
      platform_micros: 0,
      source: 'table',
    });

    // The usage report: the call, its analysis and the conversation's turns, each once.
    const expected = call.cost.total_micros + analysisMicros + convMicros;
    const report = await eventually(async () => {
      const r = (await request('GET', `/v1/usage${aroundToday()}`, { key: t.testKey })).body;
      return r.totals.cost.total_micros === expected ? r : undefined;
    }, 'the usage cost of the call, the analysis and the conversation');
    expect(report.totals.cost.model_micros).to.equal(call.cost.model_micros + analysisMicros + convMicros);
  });

  describe('a realtime call', () => {
    const realtime = useFakeRealtime({ speechMs: 30, silenceMs: 80, transcribeMs: 20, modelMs: 60 });

    it('prices its text and audio tokens apart, from the responses recorded by its end', async () => {
      await realtime.withRealtime(async () => {
        const model = config().openaiRealtime!.model;
        // Round prices per token: text in 1, out 2; audio in 4, cached audio 3, audio out 8.
        const json = table({ us: '0.020000', platform: '0.050000', model: 'unused' }) as any;
        json.models[model] = {
          input: '1.00',
          output: '2.00',
          audio_input: '4.00',
          audio_cached_input: '3.00',
          audio_output: '8.00',
        };
        usePrices('g.json', json);
        const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
        const placed = await placeCall(t, { simulation: { caller: ['I have a question.', 'Thanks.'] } });
        const call = await waitForCall(t.testKey, placed.id, (c) => c.cost !== null, 60_000);
        expect(call.engine_fallback).to.equal(null);
        // The responses recorded before the call's end (its row) are the ones its cost counts.
        const callRow = await UsageRecord.findById(`call:${call.id}`).lean();
        const rows = await UsageRecord.find({ subject_id: call.id, kind: 'realtime_response' }).lean();
        const counted = rows.filter((r) => r.recorded_ms! <= callRow!.recorded_ms!);
        expect(counted.length, 'responses recorded before the end').to.be.greaterThan(0);
        expect(counted.map((r) => r.model)).to.satisfy((m: string[]) => m.every((x) => x === model));
        expect(
          counted.reduce((n, r) => n + r.prompt_audio_tokens!, 0),
          'the fake sent audio tokens',
        ).to.be.greaterThan(0);
        // Cached input tokens are priced as cached audio, taken from the audio tokens first (README "Costs").
        const expected = counted.reduce((n, r) => {
          const cachedAudio = Math.min(r.prompt_cached_tokens!, r.prompt_audio_tokens!);
          const cachedText = r.prompt_cached_tokens! - cachedAudio;
          return (
            n +
            (r.prompt_text_tokens! - cachedText) * 1 +
            cachedText * 1 +
            r.completion_text_tokens! * 2 +
            (r.prompt_audio_tokens! - cachedAudio) * 4 +
            cachedAudio * 3 +
            r.completion_audio_tokens! * 8
          );
        }, 0);
        expect(call.cost.model_micros).to.equal(expected);
        expect(call.cost_incomplete).to.equal(false);
      });
    });
  });

  describe('a live call', () => {
    let fake: FakeTwilio;
    before(async () => {
      fake = await startFakeTwilio();
      setConfig({
        ...config(),
        twilioAccountSid: fake.accountSid,
        twilioAuthToken: fake.authToken,
        twilioApiBaseUrl: fake.url,
        publicBaseUrl: h().api.url,
      });
    });
    after(async () => {
      setConfig({
        ...config(),
        twilioAccountSid: saved.twilioAccountSid,
        twilioAuthToken: saved.twilioAuthToken,
        twilioApiBaseUrl: saved.twilioApiBaseUrl,
        publicBaseUrl: saved.publicBaseUrl,
      });
      await fake.close();
    });

    /** Places a live call, answers and hangs it up as Twilio's status callbacks would; the ended call. */
    async function liveCall(price: { price: string; price_unit: string } | null) {
      const t = await newTenant({ first_message: 'Hello.' });
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hello.' },
      });
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agent.body.id },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      if (price) fake.callPrices.set(sid, price);
      const status = (CallStatus: string) => postAsTwilio(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus });
      expect((await status('in-progress')).status).to.equal(204);
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      expect((await status('completed')).status).to.equal(204);
      return waitForCall(t.liveKey, id, (c) => c.cost !== null);
    }

    it("prefers Twilio's reported price of the call to the table's", async () => {
      usePrices('d.json', table({ us: '0.020000', platform: '0.050000', model: config().openaiModel }));
      const call = await liveCall({ price: '-0.02100', price_unit: 'USD' });
      expect(call.cost).to.include({ source: 'twilio', telephony_micros: 21_000, recording_micros: 0 });
      expect(call.cost.platform_micros).to.equal(minutesOf(call) * 50_000);
      expect(call.cost.total_micros).to.equal(21_000 + call.cost.platform_micros + call.cost.model_micros);
    });

    it("uses the table when Twilio has not set the call's price yet", async () => {
      usePrices('e.json', table({ us: '0.020000', platform: '0.050000', model: config().openaiModel }));
      const call = await liveCall(null);
      expect(call.cost).to.include({ source: 'table', telephony_micros: minutesOf(call) * 20_000 });
    });
  });

  it('a malformed PRICES_FILE stops start-up naming the file and the JSON path of the problem', () => {
    const bad = table({ us: '0.02', platform: '0.05', model: 'gpt-4o' }) as any;
    bad.models['gpt-4o'].output = 'ten dollars';
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify(bad));
    const run = spawnSync(process.execPath, [path.resolve(__dirname, '../../src/api/main.js')], {
      env: { ...process.env, PRICES_FILE: file, MONGODB_URI: 'mongodb://127.0.0.1:1/none', LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, 'the process stopped').to.not.equal(0);
    const said = run.stdout + run.stderr;
    expect(said).to.contain(file).and.contain('models.gpt-4o.output');
    // Not JSON at all: the file and the parser's reason.
    fs.writeFileSync(file, '{"currency": "usd",');
    expect(() => loadPriceTable(file))
      .to.throw(file)
      .and.match(/not JSON/);
    // The default table loads.
    expect(loadPriceTable().models['gpt-4o'].output).to.equal(10_000_000);
  });
});
