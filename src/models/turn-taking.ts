/**
 * An agent's `turn_taking` as the API takes and shows it (src/shared/turn-taking.ts `TurnTaking`): zod
 * checks whose errors name the parameter (`turn_taking.turn_detection.threshold`), and the OpenAPI text
 * of what each setting does.
 */
import { z } from 'zod';
import {
  BACKCHANNEL_LIMITS,
  INTERRUPT_SENSITIVITIES,
  TURN_INTERRUPTIBLE_MODES,
  VAD_EAGERNESS,
  type TurnTaking,
} from '../shared/turn-taking';

/** Most `hints`, and the longest one (characters): as the agent's `transcription.hints` (./agents.ts). */
const MAX_HINTS = 100;
const HINT_MAX = 100;

const phrase = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(BACKCHANNEL_LIMITS.chars, `must be at most ${BACKCHANNEL_LIMITS.chars} characters`);

/** OpenAI Realtime `server_vad` (https://platform.openai.com/docs/guides/realtime-vad). */
const ServerVadObject = z.strictObject({
  type: z.literal('server_vad'),
  threshold: z
    .number()
    .min(0, 'must be between 0 and 1')
    .max(1, 'must be between 0 and 1')
    .optional()
    .describe('Activation threshold 0–1 (default 0.5): higher needs louder speech, better in noisy places.'),
  prefix_padding_ms: z
    .number()
    .int()
    .min(0)
    .max(2000, 'must be at most 2000')
    .optional()
    .describe('Audio kept before detected speech, ms (default 300).'),
  silence_duration_ms: z
    .number()
    .int()
    .min(100, 'must be at least 100')
    .max(5000, 'must be at most 5000')
    .optional()
    .describe('Silence that ends the caller’s turn, ms (default 500): shorter answers sooner but cuts in on pauses.'),
});

/** OpenAI Realtime `semantic_vad`. */
const SemanticVadObject = z.strictObject({
  type: z.literal('semantic_vad'),
  eagerness: z
    .enum(VAD_EAGERNESS)
    .optional()
    .describe(
      'How soon the model takes its turn: `low` waits for the caller longest (at most 8 s), `high` least (2 s); `auto` (default) is `medium` (4 s).',
    ),
});

/** The `turn_taking` object of an agent (and of its versions). */
export const TurnTakingObject = z
  .strictObject({
    interruptible: z
      .enum(TURN_INTERRUPTIBLE_MODES)
      .optional()
      .describe(
        "Pipeline engine: what interrupts the assistant's speech (ConversationRelay `interruptible`, the welcome greeting too): `none`, `dtmf` (keys), `speech`, `any`. Takes precedence over the agent's top-level `interruptible`.",
      ),
    preemptible: z
      .boolean()
      .optional()
      .describe(
        "Pipeline engine: whether the assistant's next words may cut what it is saying (ConversationRelay `preemptible`, default true here).",
      ),
    interrupt_sensitivity: z
      .enum(INTERRUPT_SENSITIVITIES)
      .optional()
      .describe('Pipeline engine: how readily caller speech interrupts (ConversationRelay `interruptSensitivity`).'),
    speech_model: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .optional()
      .describe(
        "Pipeline engine: the recognition provider's model (ConversationRelay `speechModel`), e.g. `nova-3-general`.",
      ),
    hints: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(HINT_MAX, `must be at most ${HINT_MAX} characters`)
          .refine((h) => !h.includes(','), 'must not contain a comma'),
      )
      .max(MAX_HINTS, `must list at most ${MAX_HINTS} hints`)
      .optional()
      .describe('Pipeline engine: speech hints, added to `transcription.hints` (ConversationRelay `hints`).'),
    turn_detection: z
      .discriminatedUnion('type', [ServerVadObject, SemanticVadObject])
      .optional()
      .describe(
        "Realtime engine: the session's turn detection: `server_vad` (`threshold`, `prefix_padding_ms`, `silence_duration_ms`) or `semantic_vad` (`eagerness`). Absent: `server_vad` with OpenAI's defaults.",
      ),
    interrupt_response: z
      .boolean()
      .optional()
      .describe("Realtime engine: whether the caller's speech cancels the answer being spoken (default true)."),
    backchannels: z
      .record(
        z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'keys must be language tags such as en or en-GB'),
        z.array(phrase).max(BACKCHANNEL_LIMITS.phrases, `must list at most ${BACKCHANNEL_LIMITS.phrases} phrases`),
      )
      .refine(
        (r) => Object.keys(r).length <= BACKCHANNEL_LIMITS.languages,
        `must list at most ${BACKCHANNEL_LIMITS.languages} languages`,
      )
      .optional()
      .describe(
        'Per language (`en`, `es`, `en-GB`…): words that only say "I am listening". Said alone while the assistant speaks, they neither interrupt it nor start a new model turn; the transcript keeps them, marked `backchannel: true`. A language given replaces its default list (`[]`: none); absent: the defaults (en: mhmm, uh-huh, yeah, ok, right…; es, fr, de, it, pt, nl likewise).',
      ),
  })
  .describe(
    "How the assistant takes turns on phone calls: the pipeline engine's interruption settings and speech hints, the realtime engine's turn detection, and backchannels. Null or absent: each engine's defaults.",
  ) satisfies z.ZodType<TurnTaking>;
