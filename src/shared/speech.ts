/**
 * How an agent sounds and listens on a call: its text-to-speech voice, its language, its
 * speech recognition, how the caller may interrupt it and whether keypresses are heard. Stored on the
 * agent, snapshotted into each call (src/shared/calls.ts `AgentSnapshot`), and given to Twilio's
 * ConversationRelay as attributes of `<ConversationRelay>` (src/providers/twilio.ts
 * `conversationRelayAttributes`; https://www.twilio.com/docs/voice/twiml/connect/conversationrelay).
 * A browser voice room's speech services (OpenAI's audio API, src/voice/room-session.ts) take the
 * `language`, and the `voice` when it names one of OpenAI's voices (`roomVoice`).
 *
 * Also the interruption a live voice session reports (the caller talked over the assistant): what was
 * heard of the answer, which the call's transcript and the model's history then keep instead of it.
 *
 * Bundle-safe: plain data and types only.
 */
import type { TurnTaking } from './turn-taking';

/** Text-to-speech providers ConversationRelay takes (its `ttsProvider` attribute), spelled as Twilio does. */
export const TTS_PROVIDERS = ['Google', 'Amazon', 'ElevenLabs'] as const;
/** Speech-recognition providers ConversationRelay takes (its `transcriptionProvider` attribute). */
export const TRANSCRIPTION_PROVIDERS = ['Google', 'Deepgram'] as const;
/**
 * What may interrupt the assistant while it speaks (ConversationRelay's `interruptible`): the caller's
 * speech or keypresses (`any`), speech only (`speech`), nothing (`none`).
 */
export const INTERRUPTIBLE_MODES = ['any', 'speech', 'none'] as const;

export type TtsProvider = (typeof TTS_PROVIDERS)[number];
export type TranscriptionProvider = (typeof TRANSCRIPTION_PROVIDERS)[number];
export type InterruptibleMode = (typeof INTERRUPTIBLE_MODES)[number];

/** An agent's voice: the provider and that provider's voice id (ConversationRelay `ttsProvider`, `voice`). */
export interface AgentVoice {
  provider: TtsProvider;
  voice_id: string;
}

/** An agent's speech recognition: the provider and phrases to recognize better (`transcriptionProvider`, `hints`). */
export interface AgentTranscription {
  provider: TranscriptionProvider;
  hints?: string[];
}

/**
 * An agent's speech settings as a call keeps them; every field absent means the provider's default
 * (ConversationRelay: its default voice, `en-US`, interruptible by `any`, no DTMF detection).
 */
export interface SpeechSettings {
  voice?: AgentVoice;
  /** BCP 47 language tag, canonical (`en-US`): speech synthesis and recognition. */
  language?: string;
  transcription?: AgentTranscription;
  interruptible?: InterruptibleMode;
  /** Whether the caller's keypresses are detected and reported (ConversationRelay `dtmfDetection`). */
  dtmf?: boolean;
  /**
   * The agent's turn-taking settings (src/shared/turn-taking.ts); absent on calls made before they
   * existed, which keep their behaviour (no backchannels, actions not held for what the caller heard).
   */
  turn_taking?: TurnTaking;
}

/**
 * The voices of OpenAI's speech (`voice` of `POST /v1/audio/speech`,
 * https://platform.openai.com/docs/api-reference/audio/createSpeech), which browser voice rooms speak with.
 */
export const ROOM_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'cedar',
  'coral',
  'echo',
  'fable',
  'marin',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;

/**
 * The voice a browser voice room speaks with: the agent's `voice.voice_id` when OpenAI's speech has a
 * voice of that name (any case, e.g. `{"provider": "ElevenLabs", "voice_id": "nova"}`), else `fallback`
 * (the worker's `VOICE_TTS_VOICE`): a ConversationRelay provider's voice (`en-US-Journey-O`,
 * `Polly.Joanna-Neural`) is not one OpenAI can speak.
 */
export function roomVoice(speech: SpeechSettings, fallback: string): string {
  const id = speech.voice?.voice_id?.trim().toLowerCase();
  return id && (ROOM_VOICES as readonly string[]).includes(id) ? id : fallback;
}

/**
 * The caller talked over the assistant (ConversationRelay's `interrupt` message, or a browser voice
 * room's barge-in): `spoken` is what the caller heard of the answer before it stopped
 * (`utteranceUntilInterrupt`), `durationMs` how long it had been speaking (`durationUntilInterruptMs`).
 */
export interface Interruption {
  spoken: string;
  durationMs?: number;
}

/** Longest `spoken` text of an interruption kept (characters); an answer is far shorter. */
export const MAX_INTERRUPTION_CHARS = 8_000;

/**
 * How the assistant's turns said since the caller last spoke (`texts`, in order, as they were spoken one
 * after the other with a space between) are cut by an interruption that heard `spoken` of them: each
 * turn heard whole keeps its text; the turn during which the speech stopped (at the latest the last one)
 * keeps what was heard of it, and it and the turns after it (not heard at all: text '') are `interrupted`.
 * @returns for each turn: its new text and whether it was interrupted
 */
export function cutByInterruption(texts: string[], spoken: string): { text: string; interrupted: boolean }[] {
  let rest = spoken.trim();
  let stopped = false;
  return texts.map((text, i) => {
    if (stopped) return { text: '', interrupted: true };
    if (rest.length >= text.length && i < texts.length - 1) {
      rest = rest.slice(text.length).trimStart();
      return { text, interrupted: false };
    }
    stopped = true;
    return { text: rest.length >= text.length ? text : rest.trimEnd(), interrupted: true };
  });
}
