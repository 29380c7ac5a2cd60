/**
 * Endpointing for browser voice rooms: where a visitor's utterance starts and ends in a stream of 16-bit
 * PCM, so that each utterance is transcribed once it is complete and handed to the call as one caller
 * turn (ConversationRelay does the same for phone calls on Twilio's side).
 *
 * An energy detector with an adaptive noise floor, in 10 ms windows:
 * - a window is voiced when its level (dBFS, RMS) is above `max(minSpeechDb, noise floor + marginDb)`;
 *   the noise floor is the quietest window of the last `floorWindowMs` (minimum statistics: speech has
 *   quiet gaps between syllables, steady noise has none), so a fan or a hum stops counting as speech
 *   once the floor has seen it for that long;
 * - speech starts after `startMs` of voiced windows (a click does not start it) and is reported at once
 *   (`speech_start`: the assistant stops talking when the visitor talks over it);
 * - the utterance ends after `silenceMs` of unvoiced windows (the end-of-turn pause) or at
 *   `maxUtteranceMs`; it carries `preRollMs` of audio from before the start (the first syllable's onset
 *   is quieter than the threshold) and is dropped when it holds less than `minSpeechMs` of voiced audio.
 *
 * Pure and synchronous: the caller feeds samples as they come (`push`) and tells it when the stream
 * stalls (`flush`).
 */

/** Tuning of `Endpointer` (every duration in ms; levels in dBFS). */
export interface EndpointerOptions {
  /** Sample rate of the PCM fed in (Hz). */
  sampleRate: number;
  /** Pause that ends an utterance (default 600 ms: a turn-taking pause, not a breath between words). */
  silenceMs?: number;
  /** Voiced audio needed to start an utterance (default 60 ms). */
  startMs?: number;
  /** Audio kept from before the start (default 200 ms). */
  preRollMs?: number;
  /** Utterances with less voiced audio than this are dropped (default 150 ms). */
  minSpeechMs?: number;
  /** Longest utterance; a longer one is cut here (default 30 s). */
  maxUtteranceMs?: number;
  /** The level below which nothing is speech, however quiet the room (default -50 dBFS). */
  minSpeechDb?: number;
  /** How far above the noise floor speech is (default 12 dB). */
  marginDb?: number;
  /** How much recent audio the noise floor is the minimum of (default 3 s). */
  floorWindowMs?: number;
}

/** What `push` and `flush` report. */
export type EndpointerEvent =
  | { type: 'speech_start' }
  | {
      type: 'utterance';
      pcm: Int16Array;
      durationMs: number;
      voicedMs: number;
      /**
       * The unvoiced windows that ended it, after its last voiced one (ms): its end of speech was this
       * long before the end of the window that ended it (a stall's `flush`: before the last window fed).
       */
      silentMs: number;
    };

const WINDOW_MS = 10;

/** Splits a stream of PCM into utterances (see the module's description). */
export class Endpointer {
  private readonly window: number;
  private readonly o: Required<EndpointerOptions>;
  /** Samples of the window being filled. */
  private pending: Int16Array;
  private pendingLength = 0;
  /** Recent unvoiced windows, kept as the next utterance's pre-roll. */
  private preRoll: Int16Array[] = [];
  /** Windows of the utterance in progress (null while idle). */
  private utterance: Int16Array[] | null = null;
  private voicedRun = 0;
  private candidate: Int16Array[] = [];
  private silentMs = 0;
  private voicedMs = 0;
  /** Levels of the last `floorWindowMs` of windows (a ring), and where the next one goes. */
  private readonly levels: Float64Array;
  private levelAt = 0;

  constructor(options: EndpointerOptions) {
    this.o = {
      silenceMs: 600,
      startMs: 60,
      preRollMs: 200,
      minSpeechMs: 150,
      maxUtteranceMs: 30_000,
      minSpeechDb: -50,
      marginDb: 12,
      floorWindowMs: 3_000,
      ...options,
    };
    this.levels = new Float64Array(Math.max(1, Math.round(this.o.floorWindowMs / WINDOW_MS))).fill(-100);
    if (!(this.o.sampleRate >= 8000))
      throw new RangeError(`sampleRate must be at least 8000 Hz, not ${this.o.sampleRate}`);
    this.window = Math.round((this.o.sampleRate * WINDOW_MS) / 1000);
    this.pending = new Int16Array(this.window);
  }

  /** True while an utterance is in progress (speech started, its end not yet seen). */
  get speaking(): boolean {
    return this.utterance !== null;
  }

  /**
   * Feeds samples (mono, `sampleRate`); any length.
   * @returns what happened in them, in order
   */
  push(samples: Int16Array): EndpointerEvent[] {
    const events: EndpointerEvent[] = [];
    let offset = 0;
    while (offset < samples.length) {
      const n = Math.min(this.window - this.pendingLength, samples.length - offset);
      this.pending.set(samples.subarray(offset, offset + n), this.pendingLength);
      this.pendingLength += n;
      offset += n;
      if (this.pendingLength === this.window) {
        this.take(this.pending.slice(), events);
        this.pendingLength = 0;
      }
    }
    return events;
  }

  /**
   * Ends the utterance in progress now (the stream stalled or ended), as a pause would.
   * @returns the utterance, if one was in progress and long enough
   */
  flush(): EndpointerEvent[] {
    const events: EndpointerEvent[] = [];
    this.finish(events);
    return events;
  }

  /** Level of a window in dBFS (RMS; -100 for digital silence). */
  static levelDb(window: Int16Array): number {
    let sum = 0;
    for (const s of window) sum += s * s;
    const rms = Math.sqrt(sum / Math.max(1, window.length)) / 32768;
    return rms > 0 ? Math.max(-100, 20 * Math.log10(rms)) : -100;
  }

  private take(window: Int16Array, events: EndpointerEvent[]): void {
    const db = Endpointer.levelDb(window);
    this.levels[this.levelAt] = db;
    this.levelAt = (this.levelAt + 1) % this.levels.length;
    const voiced = db > this.threshold();
    if (this.utterance) {
      this.utterance.push(window);
      if (voiced) {
        this.silentMs = 0;
        this.voicedMs += WINDOW_MS;
      } else this.silentMs += WINDOW_MS;
      if (this.silentMs >= this.o.silenceMs || this.utterance.length * WINDOW_MS >= this.o.maxUtteranceMs)
        this.finish(events);
      return;
    }
    if (voiced) {
      this.candidate.push(window);
      this.voicedRun += WINDOW_MS;
      if (this.voicedRun >= this.o.startMs) {
        this.utterance = [...this.preRoll, ...this.candidate];
        this.voicedMs = this.voicedRun;
        this.silentMs = 0;
        this.preRoll = [];
        this.candidate = [];
        events.push({ type: 'speech_start' });
      }
      return;
    }
    // A voiced run too short to be speech becomes part of the pre-roll.
    for (const w of [...this.candidate, window]) this.preRoll.push(w);
    this.candidate = [];
    this.voicedRun = 0;
    const keep = Math.ceil(this.o.preRollMs / WINDOW_MS);
    if (this.preRoll.length > keep) this.preRoll.splice(0, this.preRoll.length - keep);
  }

  private finish(events: EndpointerEvent[]): void {
    const windows = this.utterance;
    const voicedMs = this.voicedMs;
    this.utterance = null;
    this.silentMs = 0;
    this.voicedMs = 0;
    this.voicedRun = 0;
    this.candidate = [];
    if (!windows || voicedMs < this.o.minSpeechMs) return;
    // The closing pause is not part of the utterance (all but 100 ms of it).
    const silent = this.trailingSilentWindows(windows);
    const trailing = Math.max(0, Math.floor(silent - 100 / WINDOW_MS));
    const kept = windows.slice(0, windows.length - trailing);
    const pcm = new Int16Array(kept.length * this.window);
    kept.forEach((w, i) => pcm.set(w, i * this.window));
    const silentMs = silent * WINDOW_MS;
    events.push({ type: 'utterance', pcm, durationMs: kept.length * WINDOW_MS, voicedMs, silentMs });
  }

  /** The level above which a window is voiced now (dBFS). */
  private threshold(): number {
    let floor = 0;
    for (const l of this.levels) if (l < floor) floor = l;
    return Math.max(this.o.minSpeechDb, floor + this.o.marginDb);
  }

  private trailingSilentWindows(windows: Int16Array[]): number {
    const threshold = this.threshold();
    let n = 0;
    for (let i = windows.length - 1; i >= 0 && Endpointer.levelDb(windows[i]) <= threshold; i--) n++;
    return n;
  }
}

/**
 * A WAV file (RIFF, PCM 16-bit little-endian, mono) holding `pcm`: what speech-to-text APIs take.
 * http://soundfile.sapp.org/doc/WaveFormat/
 */
export function wavFile(pcm: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // size of the fmt chunk
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per sample frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
