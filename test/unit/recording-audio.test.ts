/** The WAV writer of recordings (src/services/recording-audio.ts), checked with the `wavefile` library. */
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { synthesizedWav, turnSegments, wavHeader, WAV_HEADER_BYTES } from '../../src/services/recording-audio';

describe('recording audio (WAV)', () => {
  it('writes the canonical 44-byte PCM header', () => {
    const header = wavHeader({ channels: 2, sampleRate: 8000, dataBytes: 32_000 });
    expect(header.length).to.equal(WAV_HEADER_BYTES);
    const wav = new WaveFile(Buffer.concat([header, Buffer.alloc(32_000)]));
    expect(wav.fmt).to.include({
      audioFormat: 1,
      numChannels: 2,
      sampleRate: 8000,
      byteRate: 32_000,
      blockAlign: 4,
      bitsPerSample: 16,
    });
    expect((wav.data as { chunkSize: number }).chunkSize).to.equal(32_000);
    expect(header.readUInt32LE(4)).to.equal(32_000 + 36);
  });

  it('synthesizes a tone per turn on the speaker channel, for the whole duration', () => {
    const segments = turnSegments(
      [
        { role: 'assistant', atMs: 1000 },
        { role: 'caller', atMs: 1500 },
        { role: 'tool', atMs: 2200 },
        { role: 'assistant', atMs: 2300 },
      ],
      1000,
      3500,
    );
    expect(segments).to.deep.equal([
      { startMs: 0, endMs: 500, channel: 1 },
      { startMs: 500, endMs: 1200, channel: 0 },
      { startMs: 1300, endMs: 2500, channel: 1 },
    ]);
    const bytes = Buffer.concat([...synthesizedWav(2500, segments)]);
    const wav = new WaveFile(bytes);
    const [caller, assistant] = wav.getSamples(false, Int16Array) as unknown as Int16Array[];
    expect(caller.length).to.equal(20_000);
    const loud = (ch: Int16Array, fromMs: number, toMs: number) =>
      ch.subarray((fromMs * 8000) / 1000, (toMs * 8000) / 1000).some((s) => Math.abs(s) > 1000);
    expect(loud(assistant, 0, 500)).to.equal(true);
    expect(loud(caller, 0, 500)).to.equal(false);
    expect(loud(caller, 500, 1200)).to.equal(true);
    expect(loud(assistant, 500, 1200)).to.equal(false);
    expect(loud(caller, 1210, 2500) || loud(assistant, 1210, 1290)).to.equal(false);
    expect(Buffer.concat([...synthesizedWav(2500, segments)]).equals(bytes), 'deterministic').to.equal(true);
  });
});
