/**
 * Latency as the API shows it (src/shared/latency.ts says what each field measures and which engine
 * reports it): a transcript turn's `latency` (the OpenAPI component `TurnLatency`) and a call's per-call
 * summary (`CallLatency`: p50/p90 over its turns, in the call object and `call.ended`).
 *
 * Stored as JSON strings beside the rows that own them: a turn's `latency_json` (written with the turn by
 * src/activities/calls.ts `recordTurns`) and a call's `latency_json` (written with its end by
 * `transitionCall`, from its turns).
 */
import { z } from 'zod';
import { apiObject } from './wire';
import { callLatency, LATENCY_FIELDS, type CallLatency, type TurnLatency } from '../shared/latency';

const ms = (what: string) => z.number().int().nullable().describe(what);

/** One assistant turn's latency (the OpenAPI component `TurnLatency`). */
export const TurnLatencyObject = apiObject(
  'TurnLatency',
  "How long the caller waited for this answer, in milliseconds, and where the time went. On the first assistant turn of each answer to the caller. Null: the call's engine does not measure it.",
  z.object({
    end_of_speech_ms: ms(
      "The caller's last word to our receipt of the final transcript; null on the `pipeline` engine (ConversationRelay does not report when speech ended). `realtime`: the session's `speech_stopped` (its `audio_end_ms` less the turn detection's silence) to the transcript, which may come after the answer's first audio. Browser voice rooms: the visitor's last voiced audio (the room's endpointing) to the transcript, the end-of-turn pause and speech-to-text included; null in a simulated room.",
    ),
    model_first_token_ms: ms(
      "The model's time before the first words: earlier requests of the answer (a tool round) whole, then the answering request to its first token (`realtime`: each response's `response.created` to its `response.done`, then to the answer's first audio delta).",
    ),
    tool_ms: ms('Tools run before the first words (the longest call of each round); 0 when none.'),
    orchestration_ms: ms(
      "The service's own share: `first_audio_ms` minus the other three (`pipeline`); `realtime`: from the model's function calls to their outputs sent back on the session, minus the tools (0 without tools: the audio does not pass through the service). Browser voice rooms: as `pipeline`, the speech synthesis up to its first audio included.",
    ),
    first_audio_ms: ms(
      'End of speech (or, when not reported, receipt of the final transcript) to the first text sent for synthesis (`pipeline`) or the first audio (`realtime`; browser voice rooms: the first synthesized frame put into the room). Simulated calls: from the moment the scripted caller answered.',
    ),
  }),
);

const percentiles = (what: string) =>
  z
    .object({ p50: z.number().int().nullable(), p90: z.number().int().nullable() })
    .describe(`${what}: p50 and p90 over the turns that measured it (ms; null: none did).`);

/** A call's latency summary (the OpenAPI component `CallLatency`). */
export const CallLatencyObject = apiObject(
  'CallLatency',
  "The call's answers' latency (each turn's `latency`), p50 and p90 per field, nearest rank.",
  z.object({
    turns: z.number().int().describe('Answers with a latency record.'),
    end_of_speech_ms: percentiles('`end_of_speech_ms`'),
    model_first_token_ms: percentiles('`model_first_token_ms`'),
    tool_ms: percentiles('`tool_ms`'),
    orchestration_ms: percentiles('`orchestration_ms`'),
    first_audio_ms: percentiles('`first_audio_ms`'),
  }),
);

/** A turn's stored `latency_json` (null for turns without one) as stored: the five fields and the engine. */
export function turnLatencyJson(latency: (TurnLatency & { engine?: string }) | undefined): string | null {
  return latency ? JSON.stringify(latency) : null;
}

/** A turn's `latency` as the API shows it (the five fields, nothing else), or undefined. */
export function renderTurnLatency(json: string | null | undefined): TurnLatency | undefined {
  if (!json) return undefined;
  const stored = JSON.parse(json) as Partial<TurnLatency>;
  return Object.fromEntries(LATENCY_FIELDS.map((f) => [f, stored[f] ?? null])) as unknown as TurnLatency;
}

/** A call's summary from its turns' stored `latency_json` (JSON; null when no turn has one). */
export function callLatencyJson(turns: { latency_json?: string | null }[]): string | null {
  const records = turns.flatMap((t) => {
    const r = renderTurnLatency(t.latency_json);
    return r ? [r] : [];
  });
  return records.length ? JSON.stringify(callLatency(records)) : null;
}

/** A call's stored summary as the API shows it, or null (no answer measured, or a call of before). */
export const renderCallLatency = (json: string | null | undefined): CallLatency | null =>
  json ? (JSON.parse(json) as CallLatency) : null;
