/**
 * What a realtime call's session costs and how long its answers take, read from the sideband socket's
 * server events on the activity's clock (src/voice/realtime-session.ts feeds it every event it receives
 * and every batch of function outputs it sends back):
 *
 * - Usage: each `response.done` carries the response's `usage` (input and output tokens, with their text,
 *   audio and cached parts); it is handed to `usage` once per response id (the activity writes the usage
 *   row, keyed by that id: src/services/usage.ts `realtimeResponseUsage`).
 * - Latency (src/shared/latency.ts `TurnLatency`), one record per caller turn, on the first answer the
 *   caller hears after it:
 *   - the caller's end of speech: `input_audio_buffer.speech_stopped`'s `audio_end_ms` is on the session's
 *     audio clock and includes the turn detection's silence (`silence_duration_ms`, read from the
 *     session's `session.created`/`session.updated`; 0 when unknown, e.g. `semantic_vad`). The audio clock is
 *     mapped to ours by the earliest receipt of such an event (an event never arrives before the audio it
 *     reports), so the end of speech is `offset + audio_end_ms - silence`, never later than we heard of it;
 *   - `end_of_speech_ms`: that instant to the receipt of the caller's final transcript
 *     (`conversation.item.input_audio_transcription.completed`); null when either is missing;
 *   - `model_first_token_ms`: the model's time: the turn's earlier responses (function calls) whole,
 *     `response.created` → `response.done`, then the answering response's `response.created` → its first
 *     `response.output_audio.delta` (or transcript or text delta);
 *   - `tool_ms`: the tools run on the way (each batch's longest call, as the workflow reports it with the
 *     batch, `RealtimeOutbox`);
 *   - `orchestration_ms`: ours: from the `response.done` that asked for the function calls to our sending
 *     their outputs back (`response.create`), minus the tools' time: the signal, the workflow, the outbox
 *     poll. 0 for an answer without tools: the audio does not pass through us;
 *   - `first_audio_ms`: end of speech (or, without one, the receipt of the caller's transcript) → the
 *     first audio (or transcript) delta of the answer. The rest of it (the turn detection's silence,
 *     OpenAI's time before `response.created`) is in none of the parts.
 *   The greeting (asked for before the caller spoke) has no record.
 *
 * Pure bookkeeping over events and times given to it: no I/O, no clock of its own (tests drive it).
 */
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import type { TurnLatency } from '../shared/latency';

/** One response's usage as `response.done` reported it, with the session's model. */
export interface MeteredUsage {
  responseId: string;
  model: string;
  usage: NonNullable<Extract<RealtimeServerEvent, { type: 'response.done' }>['response']['usage']>;
  /** When `response.done` came (ms since the epoch). */
  atMs: number;
}

/** A caller turn: from their end of speech to the first answer they heard. */
interface Turn {
  itemId: string | null;
  /** The end of speech (ms since the epoch), or null when the session did not report it. */
  endOfSpeechMs: number | null;
  transcriptMs: number | null;
  /** What `first_audio_ms` counts from: the end of speech, else the transcript's receipt. */
  anchorMs: number;
  modelMs: number;
  toolMs: number;
  orchestrationMs: number;
  /** The `response.done` that asked for function calls whose outputs are not sent yet. */
  roundDoneMs: number | null;
  /** The response whose audio the caller heard first, and when its first delta came. */
  spokenBy: string | null;
  firstAudioMs: number | null;
  reported: boolean;
}

interface Response {
  createdMs: number;
  firstMs: number | null;
  turn: Turn | null;
}

/** The delta events that mean the answer is being heard (the first one counts). */
export const FIRST_OUTPUT = new Set([
  'response.output_audio.delta',
  'response.output_audio_transcript.delta',
  'response.output_text.delta',
]);

/** One session's meter. */
export class RealtimeMeter {
  private model = 'gpt-realtime';
  private silenceMs = 0;
  /** Our clock minus the session's audio clock (ms), the smallest seen. */
  private audioOffsetMs = Number.POSITIVE_INFINITY;
  private turn: Turn | null = null;
  private readonly responses = new Map<string, Response>();
  private readonly usageSeen = new Set<string>();

  /** @param usage called once per response id with its usage */
  constructor(private readonly usage: (u: MeteredUsage) => void) {}

  /** One server event received at `nowMs` (ms since the epoch). */
  observe(event: RealtimeServerEvent, nowMs: number): void {
    switch (event.type) {
      case 'session.created':
      case 'session.updated':
        this.session(event.session as SessionShape);
        return;
      case 'input_audio_buffer.speech_stopped': {
        this.audioOffsetMs = Math.min(this.audioOffsetMs, nowMs - event.audio_end_ms);
        const eos = Math.min(nowMs, this.audioOffsetMs + event.audio_end_ms - this.silenceMs);
        this.turn = newTurn(event.item_id, eos, eos);
        return;
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const turn = this.turn;
        if (turn && turn.itemId === event.item_id) turn.transcriptMs ??= nowMs;
        // No end of speech reported (no turn detection): the turn counts from its transcript.
        else if (!turn || turn.reported || turn.spokenBy !== null) {
          this.turn = newTurn(event.item_id, null, nowMs);
          this.turn.transcriptMs = nowMs;
        }
        return;
      }
      case 'response.created':
        if (event.response.id)
          this.responses.set(event.response.id, { createdMs: nowMs, firstMs: null, turn: this.turn });
        return;
      case 'response.done':
        this.done(event, nowMs);
        return;
      default:
        if (FIRST_OUTPUT.has(event.type)) this.firstOutput((event as { response_id: string }).response_id, nowMs);
    }
  }

  /** The outputs of a batch of function calls went back on the socket at `nowMs`; its tools ran `toolMs`. */
  outputsSent(toolMs: number, nowMs: number): void {
    const turn = this.turn;
    if (!turn || turn.roundDoneMs === null || turn.spokenBy !== null) return;
    const tool = Math.max(0, toolMs);
    turn.toolMs += tool;
    turn.orchestrationMs += Math.max(0, nowMs - turn.roundDoneMs - tool);
    turn.roundDoneMs = null;
  }

  /**
   * The latency record of response `responseId`, when it is the first answer its caller turn heard
   * (once: a second ask gets undefined); undefined for the greeting and later answers.
   */
  latency(responseId: string): TurnLatency | undefined {
    const turn = this.responses.get(responseId)?.turn;
    if (!turn || turn.spokenBy !== responseId || turn.reported || turn.firstAudioMs === null) return undefined;
    turn.reported = true;
    const round = (n: number) => Math.max(0, Math.round(n));
    const eos = turn.endOfSpeechMs;
    return {
      end_of_speech_ms: eos !== null && turn.transcriptMs !== null ? round(turn.transcriptMs - eos) : null,
      model_first_token_ms: round(turn.modelMs),
      tool_ms: round(turn.toolMs),
      orchestration_ms: round(turn.orchestrationMs),
      first_audio_ms: round(turn.firstAudioMs - turn.anchorMs),
    };
  }

  private session(session: SessionShape): void {
    if (typeof session?.model === 'string') this.model = session.model;
    const detection = session?.audio?.input?.turn_detection;
    if (detection === undefined) return;
    this.silenceMs =
      detection?.type === 'server_vad' && typeof detection.silence_duration_ms === 'number'
        ? detection.silence_duration_ms
        : 0;
  }

  private firstOutput(responseId: string, nowMs: number): void {
    const r = this.responses.get(responseId);
    if (!r || r.firstMs !== null) return;
    r.firstMs = nowMs;
    const turn = r.turn;
    if (!turn || turn.spokenBy !== null) return;
    turn.spokenBy = responseId;
    turn.firstAudioMs = nowMs;
    turn.modelMs += nowMs - r.createdMs;
  }

  private done(event: Extract<RealtimeServerEvent, { type: 'response.done' }>, nowMs: number): void {
    const { response } = event;
    const id = response.id ?? '';
    const r = this.responses.get(id);
    if (r?.turn && r.firstMs === null && r.turn.spokenBy === null) {
      r.turn.modelMs += nowMs - r.createdMs;
      if ((response.output ?? []).some((item) => item.type === 'function_call')) r.turn.roundDoneMs = nowMs;
    }
    if (response.usage && id && !this.usageSeen.has(id)) {
      this.usageSeen.add(id);
      this.usage({ responseId: id, model: this.model, usage: response.usage, atMs: nowMs });
    }
    // Kept until the answer's transcript was told (it comes before `response.done`); done now.
    if (r && (r.turn?.spokenBy !== id || r.turn.reported)) this.responses.delete(id);
  }
}

/** The parts of a `session.created`/`session.updated` session the meter reads. */
interface SessionShape {
  model?: unknown;
  audio?: { input?: { turn_detection?: { type?: string; silence_duration_ms?: number } | null } };
}

function newTurn(itemId: string | null, endOfSpeechMs: number | null, anchorMs: number): Turn {
  return {
    itemId,
    endOfSpeechMs,
    transcriptMs: null,
    anchorMs,
    modelMs: 0,
    toolMs: 0,
    orchestrationMs: 0,
    roundDoneMs: null,
    spokenBy: null,
    firstAudioMs: null,
    reported: false,
  };
}
