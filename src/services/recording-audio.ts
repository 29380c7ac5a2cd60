/**
 * Call audio as two-channel 16-bit PCM WAV: channel 1 (left) the caller or visitor,
 * channel 2 (right) the assistant, the layout of every recording the service keeps.
 *
 * The RIFF/WAVE header is written here (44 bytes, canonical PCM `fmt ` + `data`; the format as Microsoft
 * specified it, http://soundfile.sapp.org/doc/WaveFormat/) because the audio is streamed into the store
 * chunk by chunk: the WAV libraries on npm build the whole file in memory, and a 4-hour call is 460 MB.
 * test/unit/recording-audio.test.ts parses the output with the `wavefile` library.
 */

/** Bytes of the canonical PCM WAV header. */
export const WAV_HEADER_BYTES = 44;
/** Sample rate of synthesized (test-mode) recordings: telephone quality. */
export const SYNTH_SAMPLE_RATE = 8000;
/** Channel (0-based) of each speaker in every two-channel recording. */
export const SPEAKER_CHANNEL = { caller: 0, assistant: 1 } as const;

/** The shape of a PCM WAV file: channels, samples per second, and the size of its sample data in bytes. */
export interface WavFormat {
  channels: number;
  sampleRate: number;
  /** Bytes of sample data after the header (frames × channels × 2). */
  dataBytes: number;
}

/**
 * The 44-byte header of a 16-bit PCM WAV file.
 * @throws RangeError when the data would not fit a RIFF file (4 GiB)
 */
export function wavHeader({ channels, sampleRate, dataBytes }: WavFormat): Buffer {
  if (dataBytes + WAV_HEADER_BYTES - 8 > 0xffffffff) throw new RangeError('WAV data larger than 4 GiB');
  const blockAlign = channels * 2;
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(dataBytes + WAV_HEADER_BYTES - 8, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size (PCM)
  h.writeUInt16LE(1, 20); // audio format 1 = linear PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * blockAlign, 28); // byte rate
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** A stretch of the recording in which one party speaks (ms from the recording's start). */
export interface SpeechSegment {
  startMs: number;
  endMs: number;
  channel: number;
}

/** Tone of each channel in synthesized audio (Hz): the caller lower, the assistant higher. */
const TONE_HZ = [330, 440];
/** Peak amplitude of the tones (of 32767). */
const TONE_AMPLITUDE = 8000;
/** Fade in and out of each tone (ms), so turns are heard apart and without clicks. */
const FADE_MS = 15;

/**
 * A test-mode call's recording as WAV chunks (the header first, then about a second of samples per
 * chunk): `durationMs` of two-channel 8 kHz audio, silent except for a tone standing for each segment
 * on its speaker's channel. Deterministic: the same segments give the same bytes.
 */
export function* synthesizedWav(durationMs: number, segments: SpeechSegment[]): Generator<Buffer> {
  const rate = SYNTH_SAMPLE_RATE;
  const frames = Math.max(0, Math.round((durationMs * rate) / 1000));
  yield wavHeader({ channels: 2, sampleRate: rate, dataBytes: frames * 4 });
  const fade = (FADE_MS * rate) / 1000;
  const spans = segments.map((s) => ({
    from: Math.round((s.startMs * rate) / 1000),
    to: Math.min(frames, Math.round((s.endMs * rate) / 1000)),
    channel: s.channel,
  }));
  for (let start = 0; start < frames; start += rate) {
    const end = Math.min(frames, start + rate);
    const chunk = Buffer.alloc((end - start) * 4);
    for (const s of spans) {
      if (s.to <= start || s.from >= end) continue;
      const hz = TONE_HZ[s.channel] ?? 440;
      for (let f = Math.max(start, s.from); f < Math.min(end, s.to); f++) {
        const envelope = Math.min(1, (f - s.from) / fade, (s.to - f) / fade);
        const value = Math.round(TONE_AMPLITUDE * envelope * Math.sin((2 * Math.PI * hz * (f - s.from)) / rate));
        chunk.writeInt16LE(value, (f - start) * 4 + s.channel * 2);
      }
    }
    yield chunk;
  }
}

/** A transcript turn as far as the synthesized audio needs it. */
export interface TimedTurn {
  role: string;
  atMs: number;
}

/**
 * The segments of a call from its transcript: each caller or assistant turn speaks from its time until
 * the next turn (or the end), on its speaker's channel; tool turns are silent. Times are ms since the epoch.
 */
export function turnSegments(turns: TimedTurn[], answeredMs: number, endedMs: number): SpeechSegment[] {
  const segments: SpeechSegment[] = [];
  turns.forEach((t, i) => {
    if (t.role !== 'caller' && t.role !== 'assistant') return;
    const startMs = Math.max(0, t.atMs - answeredMs);
    const endMs = Math.max(startMs, (turns[i + 1]?.atMs ?? endedMs) - answeredMs);
    segments.push({ startMs, endMs, channel: SPEAKER_CHANNEL[t.role] });
  });
  return segments;
}

/** Sample rate of browser voice rooms' recordings (the rate the attendance hears the visitor at). */
export const ROOM_SAMPLE_RATE = 16_000;

/** A stored stretch of a room's recording: interleaved two-channel 16-bit PCM from `startMs`. */
export interface PcmPart {
  /** Time of its first frame, ms from the recording's start (negative: it began before). */
  startMs: number;
  /** Its bytes, in order. */
  chunks: () => AsyncIterable<Buffer>;
}

/** Largest run of silence yielded at once (frames): a second at 16 kHz. */
const SILENCE_CHUNK_FRAMES = 16_000;

/**
 * A room's recording as WAV chunks: `durationMs` of two-channel audio at `sampleRate`, made of the parts
 * (in order of `startMs`) each at its time, silence where none covers (a worker's crash, the moments before
 * the first), what lies before 0 or past the end cut off, and where parts overlap the earlier one kept.
 * Reads one part at a time: memory holds one chunk of the store, never the recording.
 */
export async function* joinedWav(durationMs: number, sampleRate: number, parts: PcmPart[]): AsyncGenerator<Buffer> {
  const frames = Math.max(0, Math.round((durationMs * sampleRate) / 1000));
  yield wavHeader({ channels: 2, sampleRate, dataBytes: frames * 4 });
  let cursor = 0; // frames written
  function* silence(until: number): Generator<Buffer> {
    while (cursor < until) {
      const n = Math.min(SILENCE_CHUNK_FRAMES, until - cursor);
      cursor += n;
      yield Buffer.alloc(n * 4);
    }
  }
  for (const part of [...parts].sort((a, b) => a.startMs - b.startMs)) {
    if (cursor >= frames) break;
    let at = Math.round((part.startMs * sampleRate) / 1000); // frame of the part's next byte
    yield* silence(Math.min(at, frames));
    let carry: Buffer = Buffer.alloc(0);
    for await (const chunk of part.chunks()) {
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % 4);
      carry = bytes.subarray(whole);
      const n = whole / 4;
      const from = Math.max(cursor, at);
      const to = Math.min(frames, at + n);
      if (to > from) {
        yield bytes.subarray((from - at) * 4, (to - at) * 4);
        cursor = to;
      }
      at += n;
      if (cursor >= frames) break;
    }
  }
  yield* silence(frames);
}
