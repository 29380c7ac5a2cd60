/**
 * The compliance contract of a call's opening: recording consent (`recording_consent` of an agent
 * version: `announce`, `ask` or `off`, else the default by jurisdiction) and the AI disclosure (the
 * organization's `ai_disclosure`), the sentences that say them per language, and how the opening is put
 * together for every voice path (ConversationRelay's welcome greeting, a browser room's first line, the
 * workflow's transcript). Imported by the API, the services and the workflow bundle alike; no Node-only
 * imports, nothing of the project.
 *
 * Where the rules come from: two-party (all-party) consent statutes for recording a telephone call
 * (e.g. Cal. Penal Code §632; the states listed in src/services/recording-consent.ts), and the EU AI Act
 * (Regulation (EU) 2024/1689) art. 50(1): people are told they are interacting with an AI system.
 */

/** The values of an agent version's `recording_consent`. */
export const RECORDING_CONSENT_MODES = ['announce', 'ask', 'off'] as const;
export type RecordingConsentMode = (typeof RECORDING_CONSENT_MODES)[number];

/**
 * The decision a call carries (`recording_consent` on the call object), made when the call is created and
 * completed by the caller's answer in `ask` mode:
 * - `mode`: `announce` (the opening says the call is recorded), `ask` (recording starts only after a
 *   spoken yes), `off` (neither said nor recorded), or `none` (no consent step: no mode configured and no
 *   all-party-consent jurisdiction; the call is recorded as its `recording` says);
 * - `configured`: the mode came from the agent version (else it is the default by jurisdiction);
 * - `jurisdiction`: the all-party-consent or notice jurisdiction found from the numbers (`US-CA`, `DE`,
 *   `GB`…), or null;
 * - `asked`, `answer` (`yes`, `no`, `unclear`; null until answered or when not asked), `answer_seq` (the
 *   transcript turn of the caller's answer);
 * - `recording`: `on` or `off`, as it stands (`ask`: `off` until the yes);
 * - `words`: what the assistant said about recording (the announcement or the question), null when nothing.
 */
export interface RecordingConsent {
  mode: RecordingConsentMode | 'none';
  configured: boolean;
  jurisdiction: string | null;
  asked: boolean;
  answer: ConsentAnswer | null;
  answer_seq?: number | null;
  recording: 'on' | 'off';
  words: string | null;
  /** The language (primary subtag) the sentences were said in. */
  language: string;
  /** Why recording did not start after a yes (the provider refused it). */
  error?: string;
}

/** How a caller's answer to the consent question was understood. */
export type ConsentAnswer = 'yes' | 'no' | 'unclear';

/** The sentences of the opening in one language. */
export interface OpeningSentences {
  /** The AI disclosure: said first on every call when the organization's `ai_disclosure` is on. */
  disclosure: string;
  /** `announce`: the call is recorded. */
  recorded: string;
  /** `ask`: may the call be recorded. */
  question: string;
  /** `ask`, after a yes. */
  consented: string;
  /** `ask`, after a no or an answer not understood: recording stays off, the call goes on. */
  declined: string;
}

/**
 * The opening's sentences by primary language subtag (ISO 639-1) of the agent's `language`; English for
 * any other language and for an agent without one.
 */
export const OPENING_SENTENCES: Record<string, OpeningSentences> = {
  en: {
    disclosure: "You're speaking with an automated assistant.",
    recorded: 'This call is recorded.',
    question: 'May I record this call? Please say yes or no.',
    consented: 'Thank you. This call is now recorded.',
    declined: 'Understood. This call will not be recorded.',
  },
  es: {
    disclosure: 'Está hablando con un asistente automático.',
    recorded: 'Esta llamada se graba.',
    question: '¿Puedo grabar esta llamada? Por favor, diga sí o no.',
    consented: 'Gracias. Esta llamada se está grabando.',
    declined: 'Entendido. Esta llamada no se grabará.',
  },
  fr: {
    disclosure: 'Vous parlez avec un assistant automatisé.',
    recorded: 'Cet appel est enregistré.',
    question: 'Puis-je enregistrer cet appel ? Répondez oui ou non, s’il vous plaît.',
    consented: 'Merci. Cet appel est maintenant enregistré.',
    declined: 'Entendu. Cet appel ne sera pas enregistré.',
  },
  de: {
    disclosure: 'Sie sprechen mit einem automatisierten Assistenten.',
    recorded: 'Dieses Gespräch wird aufgezeichnet.',
    question: 'Darf ich dieses Gespräch aufzeichnen? Bitte sagen Sie ja oder nein.',
    consented: 'Danke. Das Gespräch wird jetzt aufgezeichnet.',
    declined: 'Verstanden. Das Gespräch wird nicht aufgezeichnet.',
  },
  it: {
    disclosure: 'Sta parlando con un assistente automatico.',
    recorded: 'Questa chiamata viene registrata.',
    question: 'Posso registrare questa chiamata? Risponda sì o no, per favore.',
    consented: 'Grazie. La chiamata ora viene registrata.',
    declined: 'Capito. La chiamata non verrà registrata.',
  },
  pt: {
    disclosure: 'Você está falando com um assistente automático.',
    recorded: 'Esta chamada está sendo gravada.',
    question: 'Posso gravar esta chamada? Por favor, diga sim ou não.',
    consented: 'Obrigado. Esta chamada agora está sendo gravada.',
    declined: 'Entendido. Esta chamada não será gravada.',
  },
  nl: {
    disclosure: 'U spreekt met een geautomatiseerde assistent.',
    recorded: 'Dit gesprek wordt opgenomen.',
    question: 'Mag ik dit gesprek opnemen? Zeg alstublieft ja of nee.',
    consented: 'Dank u. Dit gesprek wordt nu opgenomen.',
    declined: 'Begrepen. Dit gesprek wordt niet opgenomen.',
  },
  pl: {
    disclosure: 'Rozmawia Pan/Pani z automatycznym asystentem.',
    recorded: 'Ta rozmowa jest nagrywana.',
    question: 'Czy mogę nagrać tę rozmowę? Proszę powiedzieć tak lub nie.',
    consented: 'Dziękuję. Rozmowa jest teraz nagrywana.',
    declined: 'Rozumiem. Rozmowa nie będzie nagrywana.',
  },
  sv: {
    disclosure: 'Du talar med en automatiserad assistent.',
    recorded: 'Det här samtalet spelas in.',
    question: 'Får jag spela in det här samtalet? Säg ja eller nej.',
    consented: 'Tack. Samtalet spelas nu in.',
    declined: 'Jag förstår. Samtalet kommer inte att spelas in.',
  },
  da: {
    disclosure: 'Du taler med en automatiseret assistent.',
    recorded: 'Dette opkald bliver optaget.',
    question: 'Må jeg optage dette opkald? Sig venligst ja eller nej.',
    consented: 'Tak. Opkaldet bliver nu optaget.',
    declined: 'Forstået. Opkaldet bliver ikke optaget.',
  },
  nb: {
    disclosure: 'Du snakker med en automatisert assistent.',
    recorded: 'Denne samtalen blir tatt opp.',
    question: 'Kan jeg ta opp denne samtalen? Si ja eller nei.',
    consented: 'Takk. Samtalen blir nå tatt opp.',
    declined: 'Forstått. Samtalen blir ikke tatt opp.',
  },
  fi: {
    disclosure: 'Puhut automaattisen avustajan kanssa.',
    recorded: 'Tämä puhelu tallennetaan.',
    question: 'Saanko tallentaa tämän puhelun? Vastaa kyllä tai ei.',
    consented: 'Kiitos. Puhelu tallennetaan nyt.',
    declined: 'Selvä. Puhelua ei tallenneta.',
  },
  ja: {
    disclosure: 'こちらは自動アシスタントです。',
    recorded: 'この通話は録音されます。',
    question: 'この通話を録音してもよろしいですか？「はい」か「いいえ」でお答えください。',
    consented: 'ありがとうございます。この通話を録音します。',
    declined: '承知しました。この通話は録音しません。',
  },
  zh: {
    disclosure: '您正在与自动助手通话。',
    recorded: '本次通话将被录音。',
    question: '我可以为本次通话录音吗？请回答“可以”或“不可以”。',
    consented: '谢谢。本次通话现在开始录音。',
    declined: '明白了。本次通话不会录音。',
  },
  ko: {
    disclosure: '지금 자동 상담원과 통화하고 계십니다.',
    recorded: '이 통화는 녹음됩니다.',
    question: '이 통화를 녹음해도 될까요? 네 또는 아니요로 답해 주세요.',
    consented: '감사합니다. 지금부터 통화를 녹음합니다.',
    declined: '알겠습니다. 이 통화는 녹음하지 않습니다.',
  },
};
// Norwegian is tagged `no` as often as `nb` (Bokmål) or `nn` (Nynorsk).
OPENING_SENTENCES.no = OPENING_SENTENCES.nb;
OPENING_SENTENCES.nn = OPENING_SENTENCES.nb;

/** The primary subtag of a BCP 47 tag (`es-MX` → `es`) when the table has it, else `en`. */
export function openingLanguage(tag: string | null | undefined): string {
  const primary = (tag ?? '').split('-')[0].toLowerCase();
  return Object.hasOwn(OPENING_SENTENCES, primary) ? primary : 'en';
}

/** The opening's sentences in the language of BCP 47 `tag` (English fallback). */
export function openingSentences(tag: string | null | undefined): OpeningSentences {
  return OPENING_SENTENCES[openingLanguage(tag)];
}

/** What a call's opening is made of (the call's input, or its document read back). */
export interface OpeningParts {
  /** The AI disclosure sentence, when the organization's `ai_disclosure` is on. */
  aiDisclosure?: string | null;
  recordingConsent?: RecordingConsent | null;
  /** The recording's own `notice` (the agent's or the call's `recording`). */
  notice?: string | null;
  firstMessage?: string | null;
}

/**
 * The call's opening as said, in order, each an assistant turn of the transcript:
 * - `opening`: the disclosure and what the consent step says (`announce`: the recording's own `notice`
 *   when it has one, else the built-in sentence; `ask`: the question), one turn; null when neither;
 * - `notice`: the recording's own notice when no consent step says anything (mode `none`, and calls made
 *   before consent existed): said as its own turn, as it always was;
 * - `firstMessage`: the agent's first message (in `ask` mode: said after the caller's answer instead).
 */
export function openingTurns(parts: OpeningParts): {
  opening: string | null;
  notice: string | null;
  firstMessage: string | null;
} {
  const consent = parts.recordingConsent ?? null;
  const asking = consent?.mode === 'ask';
  const opening = [parts.aiDisclosure, consent?.words].filter(Boolean).join(' ') || null;
  const ownNotice = !consent || (consent.mode === 'none' && consent.recording === 'on');
  return {
    opening,
    notice: ownNotice ? (parts.notice ?? null) || null : null,
    firstMessage: asking ? null : (parts.firstMessage ?? null) || null,
  };
}

/** The opening as one greeting (ConversationRelay's `welcomeGreeting`, a room's first line); null when nothing is said. */
export function spokenOpening(parts: OpeningParts): string | null {
  const t = openingTurns(parts);
  return [t.opening, t.notice, t.firstMessage].filter(Boolean).join(' ') || null;
}
