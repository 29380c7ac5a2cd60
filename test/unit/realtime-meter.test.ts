/**
 * The realtime session's meter (src/voice/realtime-meter.ts) on a scripted sequence of server events at
 * given times: the latency record of each caller turn's first answer (end of speech from the audio clock
 * less the VAD's silence, the model's time over a function-call round, the tools and our own time until
 * the outputs went back) and each response's usage handed on once.
 */
import { expect } from 'chai';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { RealtimeMeter, type MeteredUsage } from '../../src/voice/realtime-meter';

const usage = { input_tokens: 10, output_tokens: 5, input_token_details: { audio_tokens: 4, text_tokens: 6 } };
const ev = (e: Record<string, unknown>) => ({ event_id: 'e', ...e }) as unknown as RealtimeServerEvent;

describe('realtime meter', () => {
  it('times a turn with a function-call round and hands each usage on once', () => {
    const used: MeteredUsage[] = [];
    const m = new RealtimeMeter((u) => used.push(u));
    const T = 1_000_000;
    m.observe(
      ev({
        type: 'session.created',
        session: {
          type: 'realtime',
          model: 'gpt-realtime',
          audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: 200 } } },
        },
      }),
      T,
    );
    // The greeting: no caller turn before it, no record.
    m.observe(ev({ type: 'response.created', response: { id: 'r0' } }), T + 10);
    m.observe(ev({ type: 'response.output_audio.delta', response_id: 'r0', delta: '' }), T + 60);
    expect(m.latency('r0')).to.equal(undefined);
    m.observe(ev({ type: 'response.done', response: { id: 'r0', output: [], usage } }), T + 80);

    // The caller stops speaking at audio 4,000 ms (the VAD says so 200 ms later, at audio 4,200, received at T+5,210).
    m.observe(ev({ type: 'input_audio_buffer.speech_stopped', item_id: 'i1', audio_end_ms: 4200 }), T + 5210);
    const eos = T + 5210 - 200;
    m.observe(ev({ type: 'response.created', response: { id: 'r1' } }), eos + 230);
    m.observe(
      ev({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: 'i1',
        transcript: 'book me',
      }),
      eos + 260,
    );
    // r1 asks for a function call: its whole time is the model's (300 ms).
    m.observe(
      ev({
        type: 'response.done',
        response: { id: 'r1', output: [{ type: 'function_call', call_id: 'c1', name: 'x', arguments: '{}' }], usage },
      }),
      eos + 530,
    );
    m.outputsSent(120, eos + 530 + 120 + 45); // tools 120 ms, ours 45 ms
    m.observe(ev({ type: 'response.created', response: { id: 'r2' } }), eos + 700);
    m.observe(ev({ type: 'response.output_audio.delta', response_id: 'r2', delta: '' }), eos + 950);
    m.observe(ev({ type: 'response.output_audio.delta', response_id: 'r2', delta: '' }), eos + 990);
    expect(m.latency('r2')).to.deep.equal({
      end_of_speech_ms: 260,
      model_first_token_ms: 300 + 250,
      tool_ms: 120,
      orchestration_ms: 45,
      first_audio_ms: 950,
    });
    expect(m.latency('r2'), 'once').to.equal(undefined);
    m.observe(ev({ type: 'response.done', response: { id: 'r2', output: [], usage } }), eos + 1000);
    m.observe(ev({ type: 'response.done', response: { id: 'r2', output: [], usage } }), eos + 1001);
    expect(used.map((u) => [u.responseId, u.model])).to.deep.equal([
      ['r0', 'gpt-realtime'],
      ['r1', 'gpt-realtime'],
      ['r2', 'gpt-realtime'],
    ]);

    // The next turn: a later speech_stopped received late (busy loop) is mapped by the earliest offset.
    m.observe(ev({ type: 'input_audio_buffer.speech_stopped', item_id: 'i2', audio_end_ms: 9200 }), T + 10_260);
    m.observe(ev({ type: 'response.created', response: { id: 'r3' } }), T + 10_300);
    m.observe(ev({ type: 'response.output_audio_transcript.delta', response_id: 'r3', delta: 'ok' }), T + 10_400);
    const r3 = m.latency('r3')!;
    expect(r3.first_audio_ms, 'from T+10,010 (offset T+1,010 + 9,000)').to.equal(390);
    expect(r3.end_of_speech_ms, 'no transcript yet').to.equal(null);
    expect([r3.model_first_token_ms, r3.tool_ms, r3.orchestration_ms]).to.deep.equal([100, 0, 0]);
  });

  it('counts from the transcript when the session reports no end of speech', () => {
    const m = new RealtimeMeter(() => undefined);
    m.observe(
      ev({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'i1', transcript: 'hi' }),
      500,
    );
    m.observe(ev({ type: 'response.created', response: { id: 'r1' } }), 520);
    m.observe(ev({ type: 'response.output_text.delta', response_id: 'r1', delta: 'x' }), 700);
    expect(m.latency('r1')).to.deep.equal({
      end_of_speech_ms: null,
      model_first_token_ms: 180,
      tool_ms: 0,
      orchestration_ms: 0,
      first_audio_ms: 200,
    });
  });
});
