/**
 * The latency meter (src/shared/latency.ts): how an answer's model requests and tool rounds make its
 * record, on a live call (the voice session's first-audio figure) and a simulated one (from the anchor),
 * and the per-call percentiles.
 */
import { expect } from 'chai';
import { callLatency, LatencyMeter, nearestRank } from '../../src/shared/latency';

/** A request scheduled at `at`, sent 5 ms later, first token after `first` ms, whole after `whole` ms. */
const timing = (at: number, first: number | null, whole: number, firstAudioMs?: number) => ({
  scheduledMs: at,
  sentMs: at + 5,
  firstTokenMs: first === null ? null : at + 5 + first,
  answeredMs: at + 5 + whole,
  ...(firstAudioMs !== undefined ? { firstAudioMs } : {}),
});

describe('latency meter', () => {
  it('a simulated answer counts from the anchor: the model to its first token, the rest is orchestration', () => {
    const meter = new LatencyMeter('pipeline', false, 1_000);
    const record = meter.reply(timing(1_020, 150, 150), true);
    expect(record).to.deep.equal({
      engine: 'pipeline',
      end_of_speech_ms: null,
      model_first_token_ms: 150,
      tool_ms: 0,
      orchestration_ms: 25, // 20 before the request was scheduled, 5 before it was sent
      first_audio_ms: 175,
    });
    expect(meter.lastAnsweredMs).to.equal(1_175);
  });

  it('a tool round before the first words: the first request whole, the longest tool, the next to its first token', () => {
    const meter = new LatencyMeter('pipeline', false, null);
    expect(meter.reply(timing(1_000, null, 100), false)).to.equal(null);
    meter.tool(40);
    meter.tool(70); // side by side: the longest counts
    const record = meter.reply(timing(1_200, 30, 90), true)!;
    expect(record).to.include({ model_first_token_ms: 130, tool_ms: 70, first_audio_ms: 235 });
    expect(record.orchestration_ms).to.equal(35);
    // Later words of the same answer make no second record; later tools do not count.
    meter.tool(500);
    expect(meter.reply(timing(1_400, 10, 20), true)).to.equal(null);
  });

  it("a live call takes the voice session's figure, and none when it reported none", () => {
    const live = new LatencyMeter('pipeline', true, null);
    expect(live.reply(timing(1_000, 200, 600, 260), true)).to.include({
      first_audio_ms: 260,
      model_first_token_ms: 200,
      orchestration_ms: 60,
    });
    const unreported = new LatencyMeter('pipeline', true, null);
    expect(unreported.reply(timing(1_000, 200, 600), true)).to.include({
      first_audio_ms: null,
      orchestration_ms: null,
    });
  });

  it("an engine's end of speech is part of the total, not of orchestration", () => {
    const meter = new LatencyMeter('realtime', true, null, 120);
    expect(meter.reply(timing(0, 300, 300, 500), true)).to.include({
      engine: 'realtime',
      end_of_speech_ms: 120,
      orchestration_ms: 80,
    });
  });

  it('results recorded before timings existed make no record', () => {
    expect(new LatencyMeter('pipeline', false, 5).reply(undefined, true)).to.equal(null);
  });

  it("a call's p50/p90 by nearest rank, each field over the turns that measured it", () => {
    expect(nearestRank([], 50)).to.equal(null);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).to.equal(9);
    const rec = (first: number | null) => ({
      end_of_speech_ms: null,
      model_first_token_ms: 100,
      tool_ms: 0,
      orchestration_ms: first === null ? null : first - 100,
      first_audio_ms: first,
    });
    const summary = callLatency([rec(300), rec(110), rec(null), rec(200)]);
    expect(summary.turns).to.equal(4);
    expect(summary.first_audio_ms).to.deep.equal({ p50: 200, p90: 300 });
    expect(summary.orchestration_ms).to.deep.equal({ p50: 100, p90: 200 });
    expect(summary.end_of_speech_ms).to.deep.equal({ p50: null, p90: null });
  });
});
