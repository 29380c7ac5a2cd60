/**
 * The recording of a browser voice room (src/voice/room-recorder.ts) and the join of its parts into one
 * WAV (src/services/recording-audio.ts `joinedWav`), with an injected clock; the WAV parsed by `wavefile`.
 */
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { RoomRecorder, type RecordedPart } from '../../src/voice/room-recorder';
import { joinedWav } from '../../src/services/recording-audio';

const RATE = 16_000;
const FRAME = RATE / 100; // 10 ms

/** A recorder on a clock the test moves, collecting its parts. */
function recorderAt(startMs: number, keepPcm = true) {
  const clock = { ms: startMs };
  const parts: RecordedPart[] = [];
  const recorder = new RoomRecorder({
    sampleRate: RATE,
    now: () => clock.ms,
    sink: async (part) => void parts.push(keepPcm ? part : { ...part, pcm: Buffer.alloc(0) }),
  });
  return { clock, parts, recorder };
}

const frameOf = (value: number, n = FRAME) => new Int16Array(n).fill(value);

/** Channel `ch` of the parts joined, from `startMs`. */
function channel(parts: RecordedPart[], ch: number): Int16Array {
  const total = parts.reduce((n, p) => n + p.frames, 0);
  const out = new Int16Array(total);
  let at = 0;
  for (const p of parts) for (let f = 0; f < p.frames; f++) out[at++] = p.pcm.readInt16LE(f * 4 + ch * 2);
  return out;
}

describe('room recording', () => {
  it('places each party on its channel at its time, silence in the gaps; a barge-in erases the unheard rest', async () => {
    const { clock, parts, recorder } = recorderAt(1_000_000);
    // The visitor: 1 s of audio (value 100) in 10 ms frames, then 2 s without frames, then 1 s more (200).
    for (let i = 0; i < 100; i++) (recorder.visitor(frameOf(100)), (clock.ms += 10));
    clock.ms += 2_000;
    for (let i = 0; i < 100; i++) (recorder.visitor(frameOf(200)), (clock.ms += 10));
    // The assistant at 4 s: 1 s of speech into the track at once (queued ahead), cut 300 ms in.
    recorder.assistant(frameOf(300, RATE));
    clock.ms += 300;
    recorder.cutAssistant();
    clock.ms += 700;
    await recorder.close();
    expect(parts[0].startMs).to.equal(1_000_000);
    const left = channel(parts, 0);
    const right = channel(parts, 1);
    expect(left.length).to.equal(5 * RATE);
    const at = (s: number) => Math.round(s * RATE);
    expect(left[at(0.5)]).to.equal(100);
    expect(left[at(2)]).to.equal(0); // the stall: silence
    expect(left[at(3.5)]).to.equal(200);
    expect(right[at(3.5)]).to.equal(0);
    expect(right[at(4.1)]).to.equal(300);
    expect(right[at(4.5)]).to.equal(0); // queued, never heard
  });

  it('holds about a part of audio whatever the call length: 30 minutes of both parties', async () => {
    const { clock, parts, recorder } = recorderAt(0, false);
    for (let i = 0; i < 30 * 60 * 100; i++) {
      recorder.visitor(frameOf(1));
      if (i % 100 === 0) recorder.assistant(frameOf(2, RATE / 2)); // half a second a second
      clock.ms += 10;
      if (i % 100 === 0) await new Promise((r) => setImmediate(r)); // the sink's turn
    }
    await recorder.close();
    const frames = parts.reduce((n, p) => n + p.frames, 0);
    expect(frames).to.equal(30 * 60 * RATE);
    const heldBytes = recorder.peakWindowSamples * 2;
    console.log(
      `      room recording, 30 minutes at ${RATE} Hz: ${parts.length} parts of ≤ ${(parts[0].frames * 4) / 1e6} MB; ` +
        `at most ${(heldBytes / 1e6).toFixed(2)} MB of samples held (the whole call would be ${(frames * 4) / 1e6} MB)`,
    );
    expect(heldBytes).to.be.below(1_000_000);
  });

  it('joins the parts into one WAV: gaps silent, overlaps and what lies outside the call cut', async () => {
    const part = (startMs: number, seconds: number, left: number, right: number) => {
      const pcm = Buffer.alloc(seconds * RATE * 4);
      for (let f = 0; f < seconds * RATE; f++) (pcm.writeInt16LE(left, f * 4), pcm.writeInt16LE(right, f * 4 + 2));
      return {
        startMs,
        chunks: async function* () {
          for (let o = 0; o < pcm.length; o += 1000) yield pcm.subarray(o, o + 1000); // 1000: not whole frames
        },
      };
    };
    // A part from before the answer, a crash gap 2-3 s, an overlapping second attendance, the end cut at 5 s.
    const chunks: Buffer[] = [];
    for await (const c of joinedWav(5_000, RATE, [
      part(2_000 + 1_000, 3, 30, 40),
      part(-1_000, 3, 10, 20),
      part(3_500, 1, 50, 60),
    ]))
      chunks.push(c);
    const wav = new WaveFile(Buffer.concat(chunks));
    expect(wav.fmt).to.include({ numChannels: 2, sampleRate: RATE, bitsPerSample: 16 });
    const samples = wav.getSamples(false, Int16Array) as unknown as Int16Array[];
    expect(samples[0].length).to.equal(5 * RATE);
    const at = (s: number) => Math.round(s * RATE);
    expect([samples[0][at(1)], samples[1][at(1)]]).to.deep.equal([10, 20]);
    expect([samples[0][at(2.5)], samples[1][at(2.5)]]).to.deep.equal([0, 0]);
    expect([samples[0][at(3.7)], samples[1][at(3.7)]]).to.deep.equal([30, 40]);
    expect([samples[0][at(4.9)], samples[1][at(4.9)]]).to.deep.equal([30, 40]);
  });
});
