/**
 * src/voice/endpointing.ts: where utterances start and end in PCM (tones stand in for speech), and the
 * WAV container speech-to-text receives.
 */
import { expect } from 'chai';
import { Endpointer, wavFile, type EndpointerEvent } from '../../src/voice/endpointing';

const RATE = 16_000;

/** `ms` of a tone of `hz` at `amplitude`, or of silence (`hz` 0), or of white noise (`hz` -1). */
function audio(ms: number, hz = 0, amplitude = 8000): Int16Array {
  const out = new Int16Array((RATE * ms) / 1000);
  let seed = 42;
  for (let i = 0; i < out.length; i++) {
    if (hz > 0) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE));
    else if (hz < 0) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      out[i] = Math.round(((seed / 2 ** 31) * 2 - 1) * amplitude);
    }
  }
  return out;
}

/** Feeds the pieces in 20 ms frames (as a media track delivers them); returns every event. */
function run(e: Endpointer, ...pieces: Int16Array[]): EndpointerEvent[] {
  const events: EndpointerEvent[] = [];
  for (const piece of pieces)
    for (let at = 0; at < piece.length; at += 320) events.push(...e.push(piece.subarray(at, at + 320)));
  return events;
}

const utterances = (events: EndpointerEvent[]) =>
  events.filter((e): e is Extract<EndpointerEvent, { type: 'utterance' }> => e.type === 'utterance');

describe('endpointing', () => {
  it('finds one utterance in speech between silences: starts it at once, ends it after the pause, with the pre-roll', () => {
    const e = new Endpointer({ sampleRate: RATE, silenceMs: 600 });
    const events = run(e, audio(1000), audio(500, 300), audio(1000));
    expect(events.map((x) => x.type)).to.deep.equal(['speech_start', 'utterance']);
    const [u] = utterances(events);
    expect(u.voicedMs).to.be.within(490, 510);
    // 200 ms pre-roll + 500 ms of speech + 100 ms of the closing pause.
    expect(u.durationMs).to.be.within(780, 820);
    expect(u.pcm.length).to.equal((u.durationMs * RATE) / 1000);
    // Its end of speech: the end-of-turn pause before the window that ended it (a room's latency counts from there).
    expect(u.silentMs).to.be.within(590, 610);
    expect(e.speaking).to.equal(false);
  });

  it("says how long before a stall's flush the utterance's speech ended", () => {
    const e = new Endpointer({ sampleRate: RATE, silenceMs: 600 });
    run(e, audio(1000), audio(500, 300), audio(250));
    const [u] = utterances(e.flush());
    expect(u.silentMs).to.be.within(240, 260);
  });

  it('keeps a pause shorter than the end-of-turn pause inside the utterance, and splits at a longer one', () => {
    const short = run(
      new Endpointer({ sampleRate: RATE, silenceMs: 600 }),
      audio(300, 300),
      audio(400),
      audio(300, 300),
      audio(800),
    );
    expect(utterances(short)).to.have.length(1);
    expect(utterances(short)[0].voicedMs).to.be.within(590, 610);
    const long = run(
      new Endpointer({ sampleRate: RATE, silenceMs: 600 }),
      audio(300, 300),
      audio(700),
      audio(300, 300),
      audio(800),
    );
    expect(utterances(long)).to.have.length(2);
  });

  it('ignores clicks: voiced audio shorter than the start or than the least speech', () => {
    const e = new Endpointer({ sampleRate: RATE });
    expect(run(e, audio(200), audio(40, 300), audio(800))).to.deep.equal([]);
    // Long enough to start (60 ms), too short to keep (150 ms): reported as started, then dropped.
    expect(run(e, audio(100, 300), audio(800)).map((x) => x.type)).to.deep.equal(['speech_start']);
  });

  it('learns steady noise as the floor: noise alone stops counting as speech, speech over it is still found', () => {
    const e = new Endpointer({ sampleRate: RATE, floorWindowMs: 1_000 });
    // Noise at about -37 dBFS, louder than the absolute threshold (-50): speech until the floor has seen it.
    run(e, audio(2_000, -1, 800));
    expect(run(e, audio(3_000, -1, 800))).to.deep.equal([]);
    expect(e.speaking).to.equal(false);
    const speech = new Int16Array(audio(500, 300));
    const noise = audio(500, -1, 800);
    for (let i = 0; i < speech.length; i++) speech[i] += noise[i];
    const events = run(e, speech, audio(1_000, -1, 800));
    expect(utterances(events)).to.have.length(1);
    expect(utterances(events)[0].voicedMs).to.be.within(450, 520);
  });

  it('cuts an utterance at the longest length, and flush ends one in progress', () => {
    const e = new Endpointer({ sampleRate: RATE, maxUtteranceMs: 1_000 });
    expect(utterances(run(e, audio(2_500, 300)))).to.have.length(2);
    expect(e.speaking).to.equal(true);
    const flushed = e.flush();
    expect(flushed).to.have.length(1);
    expect(e.speaking).to.equal(false);
    expect(e.flush()).to.deep.equal([]);
  });

  it('refuses a sample rate it cannot cut into 10 ms windows of speech', () => {
    expect(() => new Endpointer({ sampleRate: 0 })).to.throw(RangeError);
  });

  it('wraps PCM in a WAV file: RIFF header, 16-bit mono at the given rate, the samples little-endian', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768]);
    const wav = wavFile(pcm, RATE);
    expect(wav.length).to.equal(44 + 10);
    expect(wav.toString('ascii', 0, 4)).to.equal('RIFF');
    expect(wav.readUInt32LE(4)).to.equal(36 + 10);
    expect(wav.toString('ascii', 8, 16)).to.equal('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).to.deep.equal([
      1,
      1,
      RATE,
      16,
    ]);
    expect(wav.readUInt32LE(40)).to.equal(10);
    expect([0, 1, 2, 3, 4].map((i) => wav.readInt16LE(44 + 2 * i))).to.deep.equal([0, 1, -1, 32767, -32768]);
  });
});
