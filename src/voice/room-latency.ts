/**
 * The latency of a browser voice room's answers as the visitor hears them (src/shared/latency.ts, engine
 * `room`), completed by the attendance that heard the visitor and spoke the answers
 * (src/voice/room-session.ts).
 *
 * The call's workflow records each answer's latency with its transcript turn, as on the pipeline engine:
 * the model's time to the first words (`model_first_token_ms`) and the tools on the way (`tool_ms`), read by
 * the LLM activity; what only the room sees it leaves null. The room session measures the rest on its own
 * clock and writes it into the same record once it has it:
 * - the end of speech: the visitor's last voiced audio per the room's endpointing (src/voice/endpointing.ts:
 *   the utterance ends after `VOICE_END_OF_TURN_MS` of silence, `silentMs` before the window that ended
 *   it), to the receipt of its transcript (`end_of_speech_ms`: the end-of-turn pause and speech-to-text);
 * - the first audio: end of speech to the first synthesized frame of the answer put into the room's track
 *   (`first_audio_ms`); the answer's words are spoken a sentence at a time as the model writes them, so a
 *   one-sentence answer is spoken once it is whole;
 * - `orchestration_ms`: `first_audio_ms` minus the three others: the update's way through the workflow,
 *   and the speech synthesis up to its first audio (which a phone call's ConversationRelay does on
 *   Twilio's side, after the first text it is sent).
 * The record reaches the session with the `callerSaid` update's final answer (`CallerSaidResult.latency`:
 * the record and its turn's `seq`), since a one-sentence answer's first audio comes after it; the
 * session writes the completed record into the turn's row (`latency_json`) and observes its three fields
 * in the latency histograms (the workflow's write observed the other two). An answer not heard (cut
 * before its first frame, or nothing said) keeps its nulls; so does one whose attendance failed before it
 * wrote it. The call's p50/p90 are made from the rows at its end (src/activities/calls.ts), so an answer
 * the visitor left before hearing counts only with what the workflow recorded.
 */
import { CallTurn, callTurnId } from '../models/calls';
import { turnLatencyJson } from '../models/latency';
import { logger } from '../logger';
import { observeTurnLatency } from '../platform/metrics';
import type { CallerSaidResult } from '../shared/calls';
import type { RecordedLatency } from '../shared/latency';

/** How long the session tries to find the answer's turn row (the workflow writes it behind the answer). */
const ROW_WAIT_MS = 5_000;

/** One utterance handed to the call, until its final answer was spoken (all times ms since the epoch). */
interface Heard {
  /** The visitor's last voiced audio. */
  endOfSpeechMs: number;
  /** When its transcript came (and it was handed to the call). */
  transcriptMs: number;
  /** When the first frame of its answer went into the track; null: not yet, or never. */
  firstAudioMs: number | null;
  /** The call's record of its answer (`CallerSaidResult.latency`); null: not come yet, or none. */
  recorded: NonNullable<CallerSaidResult['latency']> | null;
  written: boolean;
}

/**
 * A completed record of a room's answer: the workflow's `recorded` with what the room measured of it
 * (see the module's description). Pure arithmetic.
 */
export function roomTurnLatency(
  recorded: RecordedLatency,
  heard: { endOfSpeechMs: number; transcriptMs: number; firstAudioMs: number },
): RecordedLatency {
  const endOfSpeech = Math.max(0, Math.round(heard.transcriptMs - heard.endOfSpeechMs));
  const firstAudio = Math.max(0, Math.round(heard.firstAudioMs - heard.endOfSpeechMs));
  const model = recorded.model_first_token_ms ?? 0;
  const tool = recorded.tool_ms ?? 0;
  return {
    ...recorded,
    engine: 'room',
    end_of_speech_ms: endOfSpeech,
    first_audio_ms: firstAudio,
    orchestration_ms: Math.max(0, firstAudio - endOfSpeech - model - tool),
  };
}

/**
 * Writes the completed record of turn `seq` of call `callId` into its row (the workflow's write of the row
 * may still be under way: looked for up to `ROW_WAIT_MS`), and observes the room's fields.
 * @returns false when the row was not found in time (the record keeps the workflow's nulls)
 */
export async function completeTurnLatency(callId: string, seq: number, latency: RecordedLatency): Promise<boolean> {
  const _id = callTurnId(callId, seq);
  const until = Date.now() + ROW_WAIT_MS;
  for (;;) {
    const { matchedCount } = await CallTurn.collection.updateOne(
      { _id: _id as never, role: 'assistant', latency_json: { $ne: null } },
      { $set: { latency_json: turnLatencyJson(latency) } },
    );
    if (matchedCount > 0) break;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  observeTurnLatency({ ...latency, model_first_token_ms: null, tool_ms: null });
  return true;
}

/**
 * One attendance's bookkeeping: the utterances handed to the call in order (`heard`), the first frame of
 * the answer being given (`firstAudio`), the call's final answer to the oldest (`answer`, then `spoken`
 * once it is out). The voice loop answers one utterance at a time, in order (src/voice/turns.ts), so the
 * answer being spoken is always the oldest utterance's.
 */
export class RoomLatency {
  private readonly waiting: Heard[] = [];
  private writes: Promise<void> = Promise.resolve();

  /**
   * @param callId the call
   * @param log the attendance's log fields
   * @param write where a completed record goes (default `completeTurnLatency`)
   */
  constructor(
    private readonly callId: string,
    private readonly log: Record<string, unknown>,
    private readonly write: typeof completeTurnLatency = completeTurnLatency,
  ) {}

  /** An utterance was handed to the call: the visitor's end of speech, and its transcript's receipt. */
  heard(endOfSpeechMs: number, transcriptMs: number): void {
    this.waiting.push({ endOfSpeechMs, transcriptMs, firstAudioMs: null, recorded: null, written: false });
  }

  /** The first frame of a text of the answer went into the track (`Speaker.say`'s `firstFrame`). */
  readonly firstAudio = (): void => {
    const head = this.waiting[0];
    if (!head || head.firstAudioMs !== null) return;
    head.firstAudioMs = Date.now();
    this.complete(head);
  };

  /** The call's answer to the oldest utterance (a holding line's `pending` result is not the answer). */
  answer(result: CallerSaidResult): void {
    const head = this.waiting[0];
    if (!head || result.pending || !result.latency) return;
    head.recorded = result.latency;
    this.complete(head);
  }

  /** The final answer to the oldest utterance is out (heard, or cut): the next answer is the next one's. */
  spoken(result: CallerSaidResult): void {
    if (!result.pending) this.waiting.shift();
  }

  /** Resolves once every completed record so far is written (or given up). */
  settled(): Promise<void> {
    return this.writes;
  }

  private complete(heard: Heard): void {
    const { recorded, firstAudioMs } = heard;
    if (heard.written || recorded === null || firstAudioMs === null) return;
    heard.written = true;
    const { seq, ...record } = recorded;
    const latency = roomTurnLatency(record, { ...heard, firstAudioMs });
    this.writes = this.writes
      .then(async () => {
        if (!(await this.write(this.callId, seq, latency)))
          logger.info('voice room: the answer turn was not found; its latency keeps what the call recorded', {
            ...this.log,
            seq,
          });
      })
      .catch(
        (err: Error) =>
          void logger.warn('voice room: the latency of an answer could not be stored', {
            ...this.log,
            error: err.message,
          }),
      );
  }
}
