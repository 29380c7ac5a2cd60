/**
 * src/voice/room-latency.ts: how a voice room completes its answers' latency records (the arithmetic, and
 * which answer a first frame belongs to), with the write captured instead of the store's.
 */
import { expect } from 'chai';
import type { CallerSaidResult } from '../../src/shared/calls';
import type { RecordedLatency } from '../../src/shared/latency';
import { RoomLatency, roomTurnLatency } from '../../src/voice/room-latency';

/** The workflow's record of a room answer: the model's and tools' parts, the room's left null. */
const recorded = (seq: number, model: number, tool = 0): NonNullable<CallerSaidResult['latency']> => ({
  engine: 'room',
  end_of_speech_ms: null,
  model_first_token_ms: model,
  tool_ms: tool,
  orchestration_ms: null,
  first_audio_ms: null,
  seq,
});

describe('room latency', () => {
  it('completes a record: end of speech to transcript, end of speech to first frame, orchestration the rest', () => {
    const { seq: _seq, ...record } = recorded(4, 150, 40);
    const l = roomTurnLatency(record, { endOfSpeechMs: 10_000, transcriptMs: 10_500, firstAudioMs: 11_000 });
    expect(l).to.deep.equal({
      engine: 'room',
      end_of_speech_ms: 500,
      model_first_token_ms: 150,
      tool_ms: 40,
      orchestration_ms: 310,
      first_audio_ms: 1_000,
    });
  });

  it("writes each answer's record once both its first frame and the call's record are known, in order, never a holding line's", async () => {
    const writes: { seq: number; latency: RecordedLatency }[] = [];
    const room = new RoomLatency('call_x', {}, async (_call, seq, latency) => (writes.push({ seq, latency }), true));
    const now = Date.now();
    // Utterance 1: a streamed answer, its first frame before the update's result.
    room.heard(now - 1_000, now - 600);
    room.firstAudio();
    room.firstAudio(); // a later sentence's first frame: not the answer's first audio
    expect(writes).to.deep.equal([]);
    room.answer({ text: 'One moment.', ended: false, pending: true, utterance: 1 }); // the holding line
    room.answer({ text: 'You said: one', ended: false, utterance: 1, latency: recorded(3, 200) });
    room.spoken({ text: 'You said: one', ended: false, utterance: 1 });
    await room.settled();
    expect(writes.map((w) => w.seq)).to.deep.equal([3]);
    expect(writes[0].latency.end_of_speech_ms).to.equal(400);
    expect(writes[0].latency.first_audio_ms).to.be.within(1_000, 1_100);
    expect(writes[0].latency).to.not.have.property('seq');
    // Utterance 2: the result first (a one-sentence answer is spoken after it), then its first frame.
    room.heard(now, now + 450);
    room.answer({ text: 'You said: two', ended: false, utterance: 2, latency: recorded(6, 120) });
    expect(writes).to.have.length(1);
    room.firstAudio();
    room.spoken({ text: 'You said: two', ended: false, utterance: 2 });
    await room.settled();
    expect(writes.map((w) => w.seq)).to.deep.equal([3, 6]);
    expect(writes[1].latency.end_of_speech_ms).to.equal(450);
    // Utterance 3: cut before any frame: nothing written; the next answer's frame is not counted for it.
    room.heard(now + 2_000, now + 2_400);
    room.answer({ text: 'You said: three', ended: false, utterance: 3, latency: recorded(9, 100) });
    room.spoken({ text: 'You said: three', ended: false, utterance: 3 });
    room.firstAudio();
    await room.settled();
    expect(writes.map((w) => w.seq)).to.deep.equal([3, 6]);
  });
});
