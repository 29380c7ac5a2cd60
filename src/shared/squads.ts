/**
 * Squads (`sqd_…`, object `squad`): several agents on one call, handing the caller to each other. The
 * shapes the API stores and a call carries, and the pure rules both the API and the call workflow apply
 * (the hand-off tools' names, the context a receiving member's model is given).
 *
 * Deterministic-safe: imports only types and other deterministic src/shared modules.
 */
import type { ChatMessage } from './assistant';
import type { SpeechSettings } from './speech';

/** A member's name: used in its hand-off tool's name (`handoff_to_<name>`), so a-z, 0-9 and _. */
export const MEMBER_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
/** Members a squad may have. */
export const MAX_SQUAD_MEMBERS = 10;
/** The most turns `{"last": N}` may keep. */
export const MAX_LAST_TURNS = 200;
/** `max_handoffs` when the squad does not set it, and its bounds. */
export const DEFAULT_MAX_HANDOFFS = 10;
export const MAX_MAX_HANDOFFS = 100;
/** The tool name prefix of a hand-off: `handoff_to_billing`. */
export const HANDOFF_TOOL_PREFIX = 'handoff_to_';

/**
 * What the receiving member's model is given of the conversation so far: `all` (every caller and assistant
 * line said), `{last: N}` (the last N of those lines), or `summary` (a summary written by the model at the
 * hand-off, stored on the hand-off's transcript entry). Its own system prompt and tools are always its own.
 */
export type HandoffContext = 'all' | 'summary' | { last: number };

/** One hand-off a member may make: to another member (by name), offered to its model as `handoff_to_<to>`. */
export interface SquadHandoff {
  to: string;
  /** The tool's description: when to hand off (what the model reads). */
  description: string;
  context: HandoffContext;
}

/**
 * How a live call changes voice when the caller is handed to a member whose agent speaks with another voice
 * or language: `seamless` (the member simply answers in its own voice) or `announced` (the member handing
 * off first says `handoffAnnouncement` in its own voice).
 */
export const VOICE_CHANGES = ['seamless', 'announced'] as const;
export type VoiceChange = (typeof VOICE_CHANGES)[number];
/** `voice_change` when a member does not set it. */
export const DEFAULT_VOICE_CHANGE: VoiceChange = 'seamless';

/** A member as stored on the squad. */
export interface SquadMember {
  name: string;
  agent_id: string;
  /** A pinned agent version; null: the agent's version when a call starts (its published one or split's pick). */
  version: number | null;
  description: string | null;
  handoffs: SquadHandoff[];
  /** How a hand-off to this member changes the voice on a live call; absent (squads saved before it): `seamless`. */
  voice_change?: VoiceChange;
}

/** A squad's configuration: what a call runs. */
export interface SquadConfig {
  members: SquadMember[];
  /** The member that answers first. */
  start: string;
  /** Hand-offs a call may make; the one beyond goes to `overflow` (or is refused when there is none). */
  max_handoffs: number;
  /** The member a hand-off beyond `max_handoffs` goes to instead; null: the hand-off is refused, the member stays. */
  overflow: string | null;
}

/** The tool name of a hand-off to member `to`. */
export function handoffToolName(to: string): string {
  return `${HANDOFF_TOOL_PREFIX}${to}`;
}

/** The Chat Completions function of a hand-off (no parameters: the hand-off itself is the request). */
export function handoffFunction(h: SquadHandoff): {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
} {
  return {
    name: handoffToolName(h.to),
    description: h.description,
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  };
}

/** The context policy as shown in the transcript entry (`all`, `last:3`, `summary`). */
export function contextLabel(context: HandoffContext): string {
  return typeof context === 'string' ? context : `last:${context.last}`;
}

/** The context policy of a transcript entry's label (`contextLabel`'s inverse); null for a label it never writes. */
export function contextOfLabel(label: string): HandoffContext | null {
  if (label === 'all' || label === 'summary') return label;
  const last = /^last:(\d+)$/.exec(label);
  return last ? { last: Number(last[1]) } : null;
}

/**
 * The spoken conversation of a model's messages: the caller's and the assistant's lines with words, in
 * order (no system prompts, notes or tool traffic: those were the previous member's own).
 */
export function spokenLines(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content !== '')
    .map((m) => ({ role: m.role, content: m.content }) as ChatMessage);
}

/**
 * The messages a receiving member's model starts from: its own system prompt, then the context the policy
 * gives (`all` the spoken lines, `{last: N}` the last N of them, `summary` a system message with the
 * summary), then a system message telling it the hand-off happened and that it now answers.
 */
export function handoffMessages(input: {
  systemPrompt: string;
  from: string;
  to: string;
  context: HandoffContext;
  previous: readonly ChatMessage[];
  summary?: string | null;
  /** Who was handed over, as the note names them: `caller` (a call, the default) or `customer` (a conversation). */
  party?: 'caller' | 'customer';
}): ChatMessage[] {
  const lines = spokenLines(input.previous);
  const context: ChatMessage[] =
    input.context === 'all'
      ? lines
      : input.context === 'summary'
        ? [{ role: 'system', content: `Summary of the conversation so far: ${input.summary ?? '(none)'}` }]
        : lines.slice(Math.max(0, lines.length - input.context.last));
  return [
    { role: 'system', content: input.systemPrompt },
    ...context,
    {
      role: 'system',
      content: `The ${input.party ?? 'caller'} was handed to you (${input.to}) by ${input.from}. Continue the conversation: answer the ${input.party ?? 'caller'} now.`,
    },
  ];
}

/** Where a member's hand-off goes, as `routeHandoff` decides it. */
export type HandoffRoute = { to: string; context: HandoffContext } | { error: string };

/**
 * The channel-neutral rule of a hand-off the model asked for (`handoff_to_<name>`), as a call
 * (src/workflows/call-squad.ts) and a text conversation (src/workflows/conversation-squad.ts) apply it:
 * to the member named when the current member may hand to it; past `max_handoffs` to `overflow`
 * instead; refused (an error the model is given, the member keeps the other party) when it may not
 * hand to that member, or when the cap is reached and there is no other overflow member.
 * @param made hand-offs made so far (a call's, or a conversation's since it started with the squad)
 * @param medium what the refusal names: `call` (the caller) or `conversation` (the customer)
 */
export function routeHandoff(
  member: { name: string; handoffs: readonly SquadHandoff[] },
  squad: { max_handoffs: number; overflow: string | null },
  made: number,
  toolName: string,
  medium: 'call' | 'conversation' = 'call',
): HandoffRoute {
  const name = toolName.slice(HANDOFF_TOOL_PREFIX.length);
  const handoff = member.handoffs.find((h) => h.to === name);
  if (!handoff) return { error: `Error: no hand-off to '${name}'.` };
  if (made < squad.max_handoffs) return { to: name, context: handoff.context };
  if (squad.overflow === null || squad.overflow === member.name)
    return {
      error: `Error: this ${medium} has made its ${squad.max_handoffs} hand-offs; keep helping the ${medium === 'call' ? 'caller' : 'customer'} yourself.`,
    };
  return { to: squad.overflow, context: handoff.context };
}

/** What the model is asked for a `summary` hand-off (`call` or `conversation`: what it summarizes). */
export function handoffSummaryRequest(medium: 'call' | 'conversation'): string {
  const who = medium === 'call' ? 'caller' : 'customer';
  return `The ${who} is being handed to another assistant. Summarize this ${medium} for it in at most three short sentences: who is ${medium === 'call' ? 'calling' : 'writing'}, what they need, and what was already done or agreed. Answer with the summary only.`;
}

/** ConversationRelay's language when `<ConversationRelay>` sets none (its documented default). */
const RELAY_DEFAULT_LANGUAGE = 'en-US';

/**
 * The ConversationRelay WebSocket messages that make the receiving member's voice and language the call's,
 * or null when they are the same as the member handing off (`from`): nothing to change. One `language`
 * message (Twilio, "Update configuration during a call",
 * https://www.twilio.com/docs/voice/conversationrelay/dynamic-configuration: a language's voice and TTS
 * provider, and the session's active TTS and transcription languages, change over the call's WebSocket
 * without a new `<ConversationRelay>`): `ttsLanguage` and `transcriptionLanguage` (the active languages,
 * the message's documented fields), with the language's settings under the names of the `<Language>`
 * noun's attributes, `code`, `ttsProvider` and `voice`, when the receiving agent sets a voice. An agent
 * with no `language` speaks ConversationRelay's default, `en-US`.
 *
 * What is confirmed and what is not: the `language` message with `ttsLanguage` and `transcriptionLanguage`
 * is Twilio's documented shape (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages);
 * the dynamic-configuration page says a language's voice and TTS provider can change, and that a language
 * the TwiML did not declare can be "declared and switched to in a single message", but the copy of it
 * available here (2026-11-30) shows no example of those fields, so `code`/`ttsProvider`/`voice` (the
 * `<Language>` attributes, as Twilio's TwiML libraries name them) are unconfirmed on the wire.
 */
export function relayVoiceUpdate(from: SpeechSettings, to: SpeechSettings): Record<string, unknown>[] | null {
  const fromLanguage = from.language ?? RELAY_DEFAULT_LANGUAGE;
  const language = to.language ?? RELAY_DEFAULT_LANGUAGE;
  const sameVoice = from.voice?.provider === to.voice?.provider && from.voice?.voice_id === to.voice?.voice_id;
  if (sameVoice && fromLanguage === language) return null;
  return [
    {
      type: 'language',
      ttsLanguage: language,
      transcriptionLanguage: language,
      ...(to.voice ? { code: language, ttsProvider: to.voice.provider, voice: to.voice.voice_id } : {}),
    },
  ];
}

/** What an `announced` member's predecessor says before the voice changes: who the caller is passed to. */
export function handoffAnnouncement(member: { name: string; description?: string | null }): string {
  const who = member.description?.trim() || member.name.replace(/_/g, ' ');
  return `One moment, I'm passing you to ${who.replace(/[.!?]+$/, '')}.`;
}
