/**
 * Turn-taking: when the assistant stops for the caller, when it takes its turn, which of the caller's
 * sounds are only "I am listening" (backchannels), and how a caller's spoken yes or no is read.
 *
 * An agent version's `turn_taking` (stored on the agent, snapshotted into each call's `AgentSnapshot`):
 * - pipeline engine (Twilio ConversationRelay, https://www.twilio.com/docs/voice/twiml/connect/conversationrelay;
 *   the attribute names are those the `twilio` package's `ConversationRelayAttributes` types):
 *   `interruptible` (`none|dtmf|speech|any`), `preemptible`, `interrupt_sensitivity` (`low|medium|high`),
 *   `speech_model` and `hints` (recognition);
 * - realtime engine (OpenAI Realtime API, session `audio.input.turn_detection`; the `openai` package's
 *   `RealtimeAudioInputTurnDetection`): `turn_detection` (`server_vad` with `threshold`,
 *   `prefix_padding_ms`, `silence_duration_ms`, or `semantic_vad` with `eagerness`) and
 *   `interrupt_response` — `realtimeTurnDetection` builds the session's object;
 * - both: `backchannels`, per language, the words that never interrupt the assistant (`isBackchannel`).
 *
 * Bundle-safe: plain data and functions only (workflow code uses `isBackchannel` and `confirmationOf`).
 */

/** What may interrupt the assistant's speech on ConversationRelay (`interruptible`): nothing, keys, speech, either. */
export const TURN_INTERRUPTIBLE_MODES = ['none', 'dtmf', 'speech', 'any'] as const;
/** ConversationRelay's `interruptSensitivity`: how readily caller speech counts as an interruption. */
export const INTERRUPT_SENSITIVITIES = ['low', 'medium', 'high'] as const;
/** OpenAI Realtime `semantic_vad` `eagerness`: `low` waits longest (8 s at most), `high` least (2 s). */
export const VAD_EAGERNESS = ['low', 'medium', 'high', 'auto'] as const;

/** OpenAI Realtime `server_vad`: a voice activity detector with a threshold and a silence to end a turn. */
export interface ServerVadSetting {
  type: 'server_vad';
  /** Activation threshold 0–1 (OpenAI's default 0.5; higher: louder audio needed, better in noise). */
  threshold?: number;
  /** Audio kept before the detected speech, ms (OpenAI's default 300). */
  prefix_padding_ms?: number;
  /** Silence that ends the caller's turn, ms (OpenAI's default 500; shorter answers sooner, cuts in more). */
  silence_duration_ms?: number;
}

/** OpenAI Realtime `semantic_vad`: a model judges whether the caller has finished. */
export interface SemanticVadSetting {
  type: 'semantic_vad';
  eagerness?: (typeof VAD_EAGERNESS)[number];
}

/** An agent's `turn_taking`; every field absent means the engine's default. */
export interface TurnTaking {
  /** Pipeline: what may interrupt the assistant (overrides the agent's older top-level `interruptible`). */
  interruptible?: (typeof TURN_INTERRUPTIBLE_MODES)[number];
  /** Pipeline: whether the next text may cut the assistant's speech in progress (ConversationRelay `preemptible`). */
  preemptible?: boolean;
  /** Pipeline: ConversationRelay's `interruptSensitivity`. */
  interrupt_sensitivity?: (typeof INTERRUPT_SENSITIVITIES)[number];
  /** Pipeline: ConversationRelay's `speechModel` (the recognition provider's model name). */
  speech_model?: string;
  /** Pipeline: phrases recognized better, added to `transcription.hints` (ConversationRelay `hints`). */
  hints?: string[];
  /** Realtime: the session's turn detection. */
  turn_detection?: ServerVadSetting | SemanticVadSetting;
  /** Realtime: whether the caller's speech cancels the response being spoken (OpenAI's default true). */
  interrupt_response?: boolean;
  /**
   * Words and phrases, per language (`en`, `es`, or a full tag `en-GB`), that are only "I am listening":
   * said while the assistant speaks they neither interrupt it nor start a model turn. A language given
   * replaces its default list; `[]` switches them off for it. Absent: `DEFAULT_BACKCHANNELS`.
   */
  backchannels?: Record<string, string[]>;
}

/**
 * The backchannels of a language when the agent gives none: short acknowledgements that carry no request.
 * Only whole utterances made of them count (`isBackchannel`): "yeah, but on Friday" is a turn.
 */
export const DEFAULT_BACKCHANNELS: Readonly<Record<string, readonly string[]>> = {
  en: ['mhmm', 'mhm', 'mm', 'hmm', 'uh-huh', 'uh huh', 'yeah', 'yep', 'ok', 'okay', 'right', 'sure', 'i see', 'got it'],
  es: ['ajá', 'aja', 'sí', 'si', 'vale', 'claro', 'ya', 'mhm', 'ok', 'de acuerdo', 'entiendo'],
  fr: ['ouais', 'oui', 'mhm', 'hmm', "d'accord", 'ok', 'je vois', 'voilà', 'ah bon'],
  de: ['ja', 'mhm', 'hmm', 'genau', 'okay', 'ok', 'aha', 'stimmt', 'alles klar', 'verstehe'],
  it: ['sì', 'si', 'mhm', 'ok', 'certo', 'giusto', 'va bene', 'capisco'],
  pt: ['sim', 'aham', 'uhum', 'mhm', 'ok', 'certo', 'tá', 'entendi', 'claro'],
  nl: ['ja', 'mhm', 'oké', 'ok', 'precies', 'klopt', 'juist'],
};

/** Most languages in `backchannels`, phrases per language, and characters per phrase. */
export const BACKCHANNEL_LIMITS = { languages: 30, phrases: 50, chars: 40 } as const;

/** Lowercased words of `text`, punctuation dropped (apostrophes and hyphens inside words kept). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}'\- ]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean);
}

/**
 * The backchannel list for a call's `language` (BCP 47; absent: English): the agent's list for the full
 * tag, else for its primary language, else the default of that language, else English's.
 */
export function backchannelsFor(turnTaking: TurnTaking | undefined, language: string | undefined): readonly string[] {
  const tag = (language ?? 'en').toLowerCase();
  const primary = tag.split('-')[0];
  const own = turnTaking?.backchannels;
  if (own) {
    const key = Object.keys(own).find((k) => k.toLowerCase() === tag) ?? Object.keys(own).find((k) => k === primary);
    if (key !== undefined) return own[key];
  }
  return DEFAULT_BACKCHANNELS[primary] ?? DEFAULT_BACKCHANNELS.en;
}

/**
 * Whether `text` is nothing but backchannels of `list` (one or several: "yeah yeah", "mhm, okay"),
 * case and punctuation aside. An empty text or list: false.
 */
export function isBackchannel(text: string, list: readonly string[]): boolean {
  const said = words(text);
  if (said.length === 0 || list.length === 0) return false;
  const phrases = list.map(words).filter((p) => p.length > 0);
  // Greedy from the left, longest phrase first: every word must belong to one of the phrases.
  const longestFirst = [...phrases].sort((a, b) => b.length - a.length);
  let i = 0;
  while (i < said.length) {
    const match = longestFirst.find((p) => p.every((w, k) => said[i + k] === w));
    if (!match) return false;
    i += match.length;
  }
  return true;
}

/**
 * The Realtime session's `turn_detection` for an agent's `turn_taking` (the shape of the `openai`
 * package's `RealtimeAudioInputTurnDetection`, for `client.realtime.calls.accept` and `session.update`):
 * the agent's `server_vad` or `semantic_vad` settings, with `interrupt_response` when set, and
 * `create_response: true` (the model answers each finished turn by itself). Without `turn_detection`:
 * `server_vad` with OpenAI's defaults, unless `interrupt_response` is the only setting (then it alone is
 * added to `server_vad`). Only set fields are given: OpenAI's defaults apply to the rest.
 */
export function realtimeTurnDetection(
  turnTaking: TurnTaking | undefined,
):
  | (ServerVadSetting & { interrupt_response?: boolean; create_response: boolean })
  | (SemanticVadSetting & { interrupt_response?: boolean; create_response: boolean }) {
  const detection = turnTaking?.turn_detection ?? { type: 'server_vad' as const };
  const interrupt =
    turnTaking?.interrupt_response !== undefined ? { interrupt_response: turnTaking.interrupt_response } : {};
  if (detection.type === 'semantic_vad')
    return {
      type: 'semantic_vad',
      ...(detection.eagerness ? { eagerness: detection.eagerness } : {}),
      ...interrupt,
      create_response: true,
    };
  return {
    type: 'server_vad',
    ...(detection.threshold !== undefined ? { threshold: detection.threshold } : {}),
    ...(detection.prefix_padding_ms !== undefined ? { prefix_padding_ms: detection.prefix_padding_ms } : {}),
    ...(detection.silence_duration_ms !== undefined ? { silence_duration_ms: detection.silence_duration_ms } : {}),
    ...interrupt,
    create_response: true,
  };
}

/**
 * Yes and no, per language, for the confirmation of a `confirm: true` tool (`confirmationOf`). Each
 * entry is a whole word or phrase.
 */
const YES: Readonly<Record<string, readonly string[]>> = {
  en: [
    'yes',
    'yeah',
    'yep',
    'yup',
    'sure',
    'correct',
    'right',
    'ok',
    'okay',
    'confirm',
    'confirmed',
    'go ahead',
    'do it',
    'please do',
    'absolutely',
    'of course',
    'that is right',
    "that's right",
  ],
  es: ['sí', 'si', 'claro', 'vale', 'correcto', 'de acuerdo', 'confirmo', 'adelante', 'por supuesto', 'exacto'],
  fr: [
    'oui',
    'ouais',
    "d'accord",
    'ok',
    'exact',
    'exactement',
    'bien sûr',
    'je confirme',
    'allez-y',
    'vas-y',
    'correct',
  ],
  de: [
    'ja',
    'jawohl',
    'genau',
    'richtig',
    'okay',
    'ok',
    'klar',
    'gerne',
    'bitte',
    'bestätigt',
    'machen sie das',
    'stimmt',
  ],
  it: ['sì', 'si', 'certo', 'va bene', 'ok', 'esatto', 'confermo', 'giusto', 'certamente'],
  pt: ['sim', 'claro', 'certo', 'ok', 'confirmo', 'pode', 'exato', 'com certeza'],
  nl: ['ja', 'jazeker', 'klopt', 'oké', 'ok', 'prima', 'graag', 'bevestig', 'doe maar'],
};
const NO: Readonly<Record<string, readonly string[]>> = {
  en: ['no', 'nope', 'nah', 'not', "don't", 'dont', 'stop', 'cancel', 'wait', 'never'],
  es: ['no', 'nunca', 'cancela', 'cancelar', 'espera', 'todavía no'],
  fr: ['non', 'pas', 'annule', 'annuler', 'attendez', 'jamais'],
  de: ['nein', 'nicht', 'kein', 'keine', 'abbrechen', 'stopp', 'warten', 'nie'],
  it: ['no', 'non', 'annulla', 'aspetta', 'mai'],
  pt: ['não', 'nao', 'cancela', 'cancelar', 'espera', 'nunca'],
  nl: ['nee', 'niet', 'geen', 'annuleer', 'wacht', 'nooit'],
};

/** Whether `said` (words) contains `phrase` (words) at some position. */
function contains(said: string[], phrase: string[]): boolean {
  for (let i = 0; i + phrase.length <= said.length; i++) if (phrase.every((w, k) => said[i + k] === w)) return true;
  return false;
}

/**
 * The caller's answer to a confirmation question, read from their next utterance: `yes` when it holds a
 * yes word or phrase of its language (or English) and no word of refusal or doubt ("yes, but wait" is not
 * a yes); `no` when it holds a refusal; `other` otherwise. Only `yes` runs a held action: anything unclear
 * drops it (the assistant may ask again, and the model may call the tool again).
 * @param language BCP 47 tag of the call (absent: English); English words count in every language
 */
export function confirmationOf(text: string, language: string | undefined): 'yes' | 'no' | 'other' {
  const primary = (language ?? 'en').toLowerCase().split('-')[0];
  const said = words(text);
  const lists = (table: Readonly<Record<string, readonly string[]>>) =>
    [...(table[primary] ?? []), ...(primary === 'en' ? [] : table.en)].map(words);
  if (lists(NO).some((p) => contains(said, p))) return 'no';
  if (lists(YES).some((p) => contains(said, p))) return 'yes';
  return 'other';
}
