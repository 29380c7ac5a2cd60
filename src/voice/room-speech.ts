/**
 * The assistant's voice in a browser voice room (src/voice/room-session.ts): `Speaker` turns texts into
 * speech in the room's track, one at a time, and stops at once when the visitor talks over it;
 * `SentenceStream` cuts an answer the model is still writing into sentences, so the first is heard long
 * before the whole answer is known.
 *
 * Sources: https://platform.openai.com/docs/api-reference/audio/createSpeech (`response_format: pcm` is
 * 24 kHz 16-bit little-endian mono), https://docs.livekit.io/reference/client-sdk-node/ (`AudioSource`:
 * `captureFrame` waits while its queue is full, `clearQueue` drops what is queued and releases
 * `waitForPlayout`).
 */
import { AudioFrame, type AudioSource } from '@livekit/rtc-node';
import { logger } from '../logger';
import { speechDuration } from '../platform/metrics';

/** Sample rate of the synthesized speech (Hz): OpenAI's `pcm`. */
export const SPEAK_RATE = 24_000;
/** Samples per frame handed to the track (20 ms at 24 kHz). */
const SPEAK_FRAME = 480;

/**
 * Text to speech: the 16-bit little-endian mono PCM at `SPEAK_RATE` of `text`, as it arrives; `signal`
 * aborts the request (a barge-in). Rejects when the speech cannot be had.
 */
export type Synthesize = (text: string, signal: AbortSignal) => Promise<AsyncIterable<Uint8Array>>;

/**
 * The assistant's voice: text to speech into the room's track, one text at a time in the order given;
 * `interrupt` stops what is being said and drops what waits.
 */
export class Speaker {
  private queue = Promise.resolve();
  private generation = 0;
  /** The transcript's texts queued and not yet heard or dropped (the holding line is not counted). */
  private pending = 0;
  /** The transcript's texts heard whole since the visitor last started talking (what a barge-in reports). */
  private heard: string[] = [];
  private abort: AbortController | null = null;
  /** Called when the assistant is stopped (a barge-in, a line said with `interrupt`, the end). */
  onInterrupt: () => void = () => undefined;
  /** Called with every frame that goes into the track (the recording). */
  onFrame: (frame: AudioFrame) => void = () => undefined;

  /**
   * @param source the room's track's source, at `SPEAK_RATE`, mono
   * @param synthesize the speech service
   * @param model the speech model's name, for the `svc_speech_request_duration_seconds` metric
   */
  constructor(
    readonly source: AudioSource,
    private readonly synthesize: Synthesize,
    private readonly model: string,
  ) {}

  /** Resolves once everything said so far is heard (or interrupted). */
  idle(): Promise<void> {
    return this.queue;
  }

  /**
   * Says `text` after what is already queued; resolves once it is heard (or interrupted). Never rejects:
   * a failed speech is logged and skipped, so one bad text cannot silence the texts after it.
   * @param spoken false for a line that is not the transcript's (the holding line): a barge-in does not count it
   * @param firstFrame called as its first frame goes into the track (an answer's first audio: src/voice/room-latency.ts)
   */
  say(text: string, spoken = true, firstFrame?: () => void): Promise<void> {
    const generation = this.generation;
    if (spoken) this.pending++;
    this.queue = this.queue
      .then(async () => {
        if (generation !== this.generation) return;
        await this.speak(text, generation, firstFrame);
        if (spoken && generation === this.generation) this.heard.push(text);
      })
      .catch((err: Error) => void logger.warn('voice room: a line could not be said', { error: err.message }))
      .finally(() => {
        if (spoken) this.pending--;
      });
    return this.queue;
  }

  /**
   * The visitor started talking: stops speaking (`interrupt`).
   * @param answering an answer is being given that the barge-in cuts, even if no word of it is playing
   *   (the model is still writing it: its next sentences are dropped)
   * @returns what was heard whole of what was being said (texts joined by a space), or null when none
   *   of the transcript's texts was cut (the assistant was silent, or said only the holding line)
   */
  bargeIn(answering = false): string | null {
    const cut = this.pending > 0 || answering ? this.heard.join(' ') : null;
    this.heard = [];
    this.interrupt();
    return cut;
  }

  /** Stops speaking now: the track's queued audio is dropped and so is every text waiting. */
  interrupt(): void {
    this.onInterrupt();
    this.generation++;
    this.abort?.abort();
    this.source.clearQueue();
  }

  private async speak(text: string, generation: number, firstFrame?: () => void): Promise<void> {
    const abort = (this.abort = new AbortController());
    // Synthesis latency: until the first audio of the sentence (what the visitor waits for).
    const timer = speechDuration.startTimer({ operation: 'synthesis', model: this.model });
    let timed = false;
    try {
      let carry = Buffer.alloc(0);
      for await (const chunk of await this.synthesize(text, abort.signal)) {
        if (!timed) timer({ outcome: 'ok' });
        timed = true;
        if (generation !== this.generation) return;
        carry = Buffer.concat([carry, chunk]);
        const whole = carry.length - (carry.length % (SPEAK_FRAME * 2));
        for (let at = 0; at < whole && generation === this.generation; at += SPEAK_FRAME * 2) {
          firstFrame?.();
          firstFrame = undefined;
          await this.frame(carry.subarray(at, at + SPEAK_FRAME * 2));
        }
        carry = carry.subarray(whole);
      }
      if (carry.length >= 2 && generation === this.generation) {
        firstFrame?.();
        await this.frame(carry.subarray(0, carry.length - (carry.length % 2)));
      }
      if (generation === this.generation) await this.source.waitForPlayout();
    } catch (err) {
      if (!timed && generation === this.generation) timer({ outcome: 'error' });
      if (generation === this.generation)
        logger.warn('voice room: speech failed', { error: (err as Error).message, chars: text.length });
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  /** One frame of 16-bit little-endian PCM into the track (waits while the track's queue is full). */
  private async frame(bytes: Buffer): Promise<void> {
    const samples = new Int16Array(bytes.length / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
    const frame = new AudioFrame(samples, SPEAK_RATE, 1, samples.length);
    this.onFrame(frame);
    await this.source.captureFrame(frame);
  }
}

/**
 * The streamed words of one answer, cut into sentences (at `.`, `!`, `?` or a line break followed by
 * space) so each is spoken as soon as it is complete: text-to-speech of a whole sentence sounds natural,
 * and the first one is heard long before the model has finished. `end` speaks the rest; `mute` drops the
 * answer's words still to come (the visitor talked over it) until the answer ends.
 */
export class SentenceStream {
  private pending = '';
  private muted = false;
  /** True from the first word of an answer until its `end`: the answer is being written. */
  started = false;

  constructor(private readonly sentence: (text: string) => void) {}

  /** A word (or a few) of the answer being written (`TokenSink`). */
  token(text: string): void {
    this.started = true;
    if (this.muted) return;
    this.pending += text;
    let m: RegExpExecArray | null;
    while ((m = /^([\s\S]*?(?:[.!?]|\n))\s+/.exec(this.pending))) {
      const said = m[1].trim();
      this.pending = this.pending.slice(m[0].length);
      if (said) this.sentence(said);
    }
  }

  /** The answer is complete: says what is left of it, and gets ready for the next. */
  end(): void {
    const rest = this.pending.trim();
    if (rest && !this.muted) this.sentence(rest);
    this.pending = '';
    this.started = false;
    this.muted = false;
  }

  /** The answer being written is cut: the words still to come are dropped until `end`. */
  mute(): void {
    if (this.started) this.muted = true;
    this.pending = '';
  }
}
