/**
 * Latency as the caller hears it: one record per assistant turn that answered the caller, and the
 * per-call summary (p50/p90) the call object and `call.ended` carry. Engine-neutral: the pipeline engine
 * (ConversationRelay text in and out, our model) and a speech-to-speech engine fill the same fields, each
 * with what it can measure; a field an engine cannot measure is null, never a guess.
 *
 * The fields (milliseconds):
 * - `end_of_speech_ms`: the caller's last word to our receipt of the final transcript. Only an engine
 *   whose recognizer says when speech ended reports it (a realtime session's `speech_stopped` to its
 *   transcript); ConversationRelay's `prompt` carries no such time, so the pipeline reports null.
 * - `model_first_token_ms`: the model's time on the way to the first audio: every request of the turn
 *   that came before the first spoken words, whole, plus the request that spoke first up to its first
 *   token (from the request sent; the whole answer when it was not streamed).
 * - `tool_ms`: tools run on the way to the first audio (a tool round's calls run side by side: the
 *   longest of each round); 0 when the first words came before any tool.
 * - `first_audio_ms`: the total: end of speech (or, when the engine does not report it, our receipt of the
 *   final transcript) to the first audio frame, or the first text sent for synthesis (pipeline: the first
 *   `text` token sent to ConversationRelay, timed by the API process holding its socket).
 * - `orchestration_ms`: ours: `first_audio_ms` minus the three above (never below 0).
 *
 * Where the clocks are read: never in workflow code. The LLM activity reads when it was scheduled, sent
 * its request, got the first token and the whole answer (`ReplyTiming`); the voice session (the API's
 * ConversationRelay socket) times receipt to first text on its own clock and reports it through the token
 * channel. The workflow only combines those recorded numbers (`LatencyMeter`), so replay is deterministic.
 *
 * Browser voice rooms (engine `room`): the workflow records the model's and the tools' parts as on the
 * pipeline; the room's attendance, which hears the visitor and speaks the answer, completes the record on
 * its own clock (src/voice/room-latency.ts): `end_of_speech_ms` from the visitor's last voiced audio
 * (the room's endpointing) to the transcript, `first_audio_ms` to the first synthesized frame put into the
 * room's track (so `orchestration_ms` includes the speech synthesis's time to its first audio).
 *
 * Simulated calls (test mode) have no voice session: their scripted caller answers the moment it hears
 * an answer, so "receipt" is when the previous answer came from the model (`anchorMs`); the first turn,
 * persona callers and scripts with a pause count from when the turn's first model request was scheduled.
 *
 * Bundle-safe: plain data, types and arithmetic only.
 */

/**
 * Which engine produced a turn (the `engine` label of the latency histograms): `pipeline` (a phone call's
 * ConversationRelay), `realtime` (a speech-to-speech session), `room` (a browser voice room: the
 * pipeline's model and tools, with the room's own endpointing, speech-to-text and speech; a simulated
 * room too).
 */
export type LatencyEngine = 'pipeline' | 'realtime' | 'room';

/**
 * The engine a pipeline-driven call's turns are labelled with: `room` for a browser voice call (a LiveKit
 * room, or in test mode its simulated room, whose caller is the widget's visitor `user:…`/`visitor:…`),
 * else `pipeline`.
 */
export function turnLoopEngine(call: { room?: unknown; to: string }): LatencyEngine {
  return call.room || /^(user|visitor):/.test(call.to) ? 'room' : 'pipeline';
}

/** One assistant turn's latency (ms; null: the engine does not measure it, or it was not measured). */
export interface TurnLatency {
  end_of_speech_ms: number | null;
  model_first_token_ms: number | null;
  tool_ms: number | null;
  orchestration_ms: number | null;
  first_audio_ms: number | null;
}

/** The fields of `TurnLatency`, in the order they are shown. */
export const LATENCY_FIELDS = [
  'end_of_speech_ms',
  'model_first_token_ms',
  'tool_ms',
  'orchestration_ms',
  'first_audio_ms',
] as const satisfies readonly (keyof TurnLatency)[];

/** A turn's latency as the workflow records it with the turn: the record and the engine that made it. */
export type RecordedLatency = TurnLatency & { engine: LatencyEngine };

/** When one model request of a turn happened (ms since the epoch, the worker's clock), read by the LLM activity. */
export interface ReplyTiming {
  /** When the request's activity was first scheduled (the workflow's decision to ask). */
  scheduledMs: number;
  /** When the request was sent to the model. */
  sentMs: number;
  /** When its first token of text came; null: it had no text (a tool call only). Unstreamed: the whole answer. */
  firstTokenMs: number | null;
  /** When the whole answer had come. */
  answeredMs: number;
  /**
   * Receipt of the caller's transcript to the first text sent for synthesis, as the voice session timed
   * it on its own clock (ms, a duration), when this request's words were the turn's first sent; absent:
   * not reported (no voice session, or not the first words).
   */
  firstAudioMs?: number;
}

/**
 * Combines the timings of one turn's model requests and tool rounds into its `TurnLatency`, in the order
 * they happen: `reply` for each model answer, `tool` for each tool call of its round. Pure arithmetic.
 */
export class LatencyMeter {
  private modelMs = 0;
  private toolMs = 0;
  private roundToolMs = 0;
  private done = false;
  /** The last answer's time (ms since the epoch): the next simulated turn's anchor. */
  lastAnsweredMs: number | null = null;

  /**
   * @param engine the engine of the call
   * @param voiceSession a live voice session times first audio (`ReplyTiming.firstAudioMs`); false: a
   *   simulated call, timed from `anchorMs`
   * @param anchorMs the receipt of the caller's line on a simulated call (the previous answer's time);
   *   null: the turn's first request's scheduling
   * @param endOfSpeechMs what the engine reported of the caller's end of speech; null: not reported
   */
  constructor(
    readonly engine: LatencyEngine,
    private readonly voiceSession: boolean,
    private anchorMs: number | null,
    private readonly endOfSpeechMs: number | null = null,
  ) {}

  /**
   * One model answer of the turn. Returns the turn's record when this answer's words are the first the
   * caller hears (`spoken`), else null; timings absent (results recorded before they were measured) make
   * the record null too.
   */
  reply(timing: ReplyTiming | undefined, spoken: boolean): RecordedLatency | null {
    if (this.done || !timing) {
      if (timing) this.lastAnsweredMs = timing.answeredMs;
      return null;
    }
    this.lastAnsweredMs = timing.answeredMs;
    this.anchorMs ??= timing.scheduledMs;
    this.toolMs += this.roundToolMs;
    this.roundToolMs = 0;
    if (!spoken) {
      this.modelMs += Math.max(0, timing.answeredMs - timing.sentMs);
      return null;
    }
    this.done = true;
    const firstMs = timing.firstTokenMs ?? timing.answeredMs;
    this.modelMs += Math.max(0, firstMs - timing.sentMs);
    const firstAudio = this.voiceSession ? (timing.firstAudioMs ?? null) : firstMs - this.anchorMs;
    return this.record(firstAudio);
  }

  /** One tool call of the current round, `ms` long (a round's calls run side by side: its longest counts). */
  tool(ms: number | null | undefined): void {
    if (!this.done && typeof ms === 'number' && ms > this.roundToolMs) this.roundToolMs = ms;
  }

  private record(firstAudio: number | null): RecordedLatency {
    const eos = this.endOfSpeechMs;
    const round = (n: number) => Math.max(0, Math.round(n));
    return {
      engine: this.engine,
      end_of_speech_ms: eos === null ? null : round(eos),
      model_first_token_ms: round(this.modelMs),
      tool_ms: round(this.toolMs),
      orchestration_ms: firstAudio === null ? null : round(firstAudio - (eos ?? 0) - this.modelMs - this.toolMs),
      first_audio_ms: firstAudio === null ? null : round(firstAudio),
    };
  }
}

/** p50 and p90 of one field over a call's turns (ms; null when no turn measured it). */
export interface LatencyPercentiles {
  p50: number | null;
  p90: number | null;
}

/** A call's latency: how many turns carry a record, and each field's p50/p90 over them. */
export type CallLatency = { turns: number } & Record<(typeof LATENCY_FIELDS)[number], LatencyPercentiles>;

/** The nearest-rank `p`th percentile of ascending `sorted` values (null when empty). */
export function nearestRank(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The per-call summary of turn records (nearest-rank percentiles, each field over the turns that measured it). */
export function callLatency(records: TurnLatency[]): CallLatency {
  const out = { turns: records.length } as CallLatency;
  for (const field of LATENCY_FIELDS) {
    const values = records
      .map((r) => r[field])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
      .sort((a, b) => a - b);
    out[field] = { p50: nearestRank(values, 50), p90: nearestRank(values, 90) };
  }
  return out;
}
