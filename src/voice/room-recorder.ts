/**
 * The recording of a browser voice room as its attendance hears and speaks it: two
 * channels of 16-bit PCM at one sample rate, channel 1 (left) the visitor, channel 2 (right) the assistant
 * (the layout of every recording, src/services/recording-audio.ts), aligned on the wall clock, silence
 * wherever a party is silent.
 *
 * Each write is placed on its channel at that channel's cursor (the audio goes on where it left off), or
 * at "now" when the cursor fell behind the clock by more than `JUMP_MS` (the visitor's stream stalled, the
 * assistant paused between answers). The assistant's audio is written as it goes into the room's track,
 * up to the track's queue ahead of the clock; `cutAssistant` (the visitor talked over it) erases what
 * was written ahead of now, since the track drops it unheard.
 *
 * Bounded in memory: only the last `partMs + lagMs` (and what the assistant wrote ahead) is held; every
 * `partMs` the stretch older than `lagMs` leaves as one part (`RecordedPart`, interleaved PCM, with the
 * wall-clock time of its first frame) to the `sink`, which stores it (src/activities/voice-room.ts:
 * GridFS), and the recording is joined from the parts when the call ends (src/services/recordings.ts). At
 * 16 kHz the defaults hold 0.9 MB of samples (14 s of two channels) and a part of 0.64 MB on its way to the
 * store, whatever the call's length (test/unit/room-recorder.test.ts measures a 30-minute call; the whole
 * of it would be 115 MB). Parts the sink has not yet taken wait in line, at most `MAX_PENDING_PARTS` (a
 * store outage: older parts are then dropped, their stretch silent).
 */

/** A stretch of the recording, ready to store: interleaved stereo 16-bit little-endian PCM. */
export interface RecordedPart {
  /** Wall-clock time of its first frame (ms since the epoch, fractional). */
  startMs: number;
  /** Frames (one sample per channel each) in `pcm`. */
  frames: number;
  sampleRate: number;
  pcm: Buffer;
}

/** Options of `RoomRecorder`. */
export interface RoomRecorderOptions {
  /** Samples per second of every write and of the parts (Hz). */
  sampleRate: number;
  /** Stores one part; parts come in order, one at a time. A rejection is logged through `onError`, the part lost. */
  sink: (part: RecordedPart) => Promise<void>;
  /** Length of a part (ms; default 10 s): what a crash of the worker can lose at most. */
  partMs?: number;
  /** Audio younger than this stays in memory, where late writes and `cutAssistant` can still change it (ms). */
  lagMs?: number;
  /** The clock (ms since the epoch); tests inject one. */
  now?: () => number;
  /** Told when the sink refused a part or a part was dropped. */
  onError?: (err: Error) => void;
}

/** Channel (0-based) of each party. */
const CHANNEL = { visitor: 0, assistant: 1 } as const;
/** How far ahead of the clock the window has room for from the start (ms): the track's queue (1 s) and more. */
const AHEAD_MS = 2_000;
/** A channel whose cursor is this far behind the clock resumes at the clock (ms): a gap, left silent. */
const JUMP_MS = 200;
/** Parts waiting for the sink beyond this: the oldest is dropped (a store outage must not fill the memory). */
export const MAX_PENDING_PARTS = 30;

/** Records one attendance of a room into parts (see the module's description). */
export class RoomRecorder {
  private readonly rate: number;
  private readonly now: () => number;
  private readonly partFrames: number;
  private readonly lagFrames: number;
  /** Wall-clock time of frame 0 (ms). */
  private readonly originMs: number;
  /** Absolute frame of `window[0]`: everything before it has left as parts. */
  private base = 0;
  /** The frames held: interleaved, `window.length / 2` frames, zero (silence) where nothing was written. */
  private window: Int16Array;
  /** Next frame of each channel (absolute). */
  private readonly cursor = [0, 0];
  private readonly pending: RecordedPart[] = [];
  private writing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Most samples the window held at once (frames × 2), for the memory figure in tests. */
  peakWindowSamples = 0;

  constructor(private readonly options: RoomRecorderOptions) {
    this.rate = options.sampleRate;
    this.now = options.now ?? Date.now;
    this.partFrames = Math.round(((options.partMs ?? 10_000) * this.rate) / 1000);
    this.lagFrames = Math.round(((options.lagMs ?? 2_000) * this.rate) / 1000);
    this.originMs = this.now();
    this.window = new Int16Array(this.capacity());
    this.timer = setInterval(() => this.cut(), 1000);
    this.timer.unref();
  }

  /** The visitor's audio (mono, `sampleRate`), as it was heard. */
  visitor(samples: Int16Array): void {
    this.write(CHANNEL.visitor, samples);
  }

  /** The assistant's audio (mono, `sampleRate`), as it goes into the room's track. */
  assistant(samples: Int16Array): void {
    this.write(CHANNEL.assistant, samples);
  }

  /** The track dropped the assistant's queued audio (barge-in): what was written ahead of now is erased. */
  cutAssistant(): void {
    const now = Math.max(this.base, this.clockFrame());
    const c = CHANNEL.assistant;
    for (let f = now; f < this.cursor[c]; f++) this.window[(f - this.base) * 2 + c] = 0;
    this.cursor[c] = Math.min(this.cursor[c], now);
  }

  /**
   * Ends the recording at the clock: what is held up to now leaves as the last part, later audio (the
   * assistant's, queued but unheard) is dropped. Resolves once the sink took every part.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    const end = this.clockFrame();
    if (end > this.base) this.emit(end - this.base);
    while (this.writing) await this.writing;
  }

  /** Samples the window is made for: a part, the lag, and the assistant's audio ahead of the clock. */
  private capacity(): number {
    return (this.partFrames + this.lagFrames + (AHEAD_MS * this.rate) / 1000) * 2;
  }

  /** The current absolute frame of the wall clock. */
  private clockFrame(): number {
    return Math.max(0, Math.floor(((this.now() - this.originMs) * this.rate) / 1000));
  }

  private write(channel: number, samples: Int16Array): void {
    if (this.closed || samples.length === 0) return;
    const now = this.clockFrame();
    let at = this.cursor[channel];
    if (at < now - (JUMP_MS * this.rate) / 1000) at = now;
    let from = 0;
    if (at < this.base) {
      // too late: that stretch has left
      from = this.base - at;
      at = this.base;
    }
    const end = at + samples.length - from;
    this.ensure(end - this.base);
    for (let i = from, f = at - this.base; i < samples.length; i++, f++) this.window[f * 2 + channel] = samples[i];
    this.cursor[channel] = Math.max(this.cursor[channel], end);
    this.cut();
  }

  /** Makes room for `frames` frames from `base`. */
  private ensure(frames: number): void {
    if (frames * 2 <= this.window.length) return;
    const grown = new Int16Array(frames * 2 + this.rate * 2); // and a second more
    grown.set(this.window);
    this.window = grown;
    this.peakWindowSamples = Math.max(this.peakWindowSamples, grown.length);
  }

  /** Sends the held audio older than `lagMs` as a part once there is a part's worth. */
  private cut(): void {
    if (this.closed) return;
    const ready = this.clockFrame() - this.lagFrames - this.base;
    if (ready >= this.partFrames) this.emit(ready);
  }

  /** Sends the first `frames` held frames as a part and drops them from the window. */
  private emit(frames: number): void {
    const n = Math.min(frames, this.window.length / 2);
    const pcm = Buffer.alloc(frames * 4);
    for (let i = 0; i < n * 2; i++) pcm.writeInt16LE(this.window[i], i * 2);
    this.peakWindowSamples = Math.max(this.peakWindowSamples, this.window.length);
    const rest = new Int16Array(Math.max(this.capacity(), this.window.length - n * 2));
    rest.set(this.window.subarray(n * 2));
    this.window = rest;
    const startMs = this.originMs + (this.base * 1000) / this.rate;
    this.base += frames;
    this.pending.push({ startMs, frames, sampleRate: this.rate, pcm });
    if (this.pending.length > MAX_PENDING_PARTS) {
      const lost = this.pending.shift()!;
      this.options.onError?.(new Error(`a recording part of ${lost.frames} frames was dropped: the store is behind`));
    }
    this.drain();
  }

  /** Hands the waiting parts to the sink, one at a time, in order. */
  private drain(): void {
    if (this.writing) return;
    this.writing = (async () => {
      for (let part = this.pending.shift(); part; part = this.pending.shift())
        await this.options.sink(part).catch((err: Error) => this.options.onError?.(err));
      this.writing = null;
    })();
  }
}
