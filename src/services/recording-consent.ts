/**
 * Recording consent, Node side: where a call's numbers put it (`consentJurisdiction`), the decision a new
 * call carries (`decideRecordingConsent`, called by src/services/calls.ts `newCallInput` for every
 * starter), and how a caller's answer to the consent question is understood (`classifyConsentAnswer`, a
 * keyword list per language, run by the `recordConsentAnswer` activity so that a change of the lists never
 * changes a recorded workflow history).
 *
 * Not legal advice: the lists below are the common reading of the statutes, kept in one place so an
 * operator can review them.
 * - US all-party-consent states (recording a telephone call needs every party's consent): California
 *   (Cal. Penal Code §632), Connecticut (civil liability, Conn. Gen. Stat. §52-570d), Delaware, Florida
 *   (Fla. Stat. §934.03), Illinois (720 ILCS 5/14-2), Maryland (Md. Code, Cts. & Jud. Proc. §10-402),
 *   Massachusetts (M.G.L. c. 272 §99), Michigan (MCL 750.539c; disputed for participants, included),
 *   Montana (MCA 45-8-213), Nevada (NRS 200.620, telephone calls), New Hampshire (RSA 570-A:2),
 *   Pennsylvania (18 Pa.C.S. §5704), Washington (RCW 9.73.030). Oregon requires all parties' consent only
 *   for in-person conversations (ORS 165.540), not telephone calls: not listed.
 * - Outside the US: the EU and EEA (GDPR arts. 6 and 13: the caller is told before recording), the
 *   United Kingdom (UK GDPR), Canada (PIPEDA) and Australia (state listening-device and federal
 *   telecommunications interception rules) are treated as notice jurisdictions: `announce` by default.
 *
 * US states are found by area code (`US_ALL_PARTY_CONSENT_AREA_CODES`, generated from Google's
 * libphonenumber geocoding data, which test/unit/recording-consent.test.ts checks it against).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import {
  openingLanguage,
  openingSentences,
  type ConsentAnswer,
  type RecordingConsent,
  type RecordingConsentMode,
} from '../shared/recording-consent';

/** Area codes (NPA) of the US all-party-consent states, by state. */
export const US_ALL_PARTY_CONSENT_AREA_CODES: Record<string, number[]> = {
  CA: [
    209, 213, 279, 310, 323, 341, 350, 369, 408, 415, 424, 442, 510, 530, 559, 562, 619, 626, 628, 650, 657, 661, 669,
    707, 714, 738, 747, 760, 805, 818, 820, 831, 840, 858, 909, 916, 925, 949, 951,
  ],
  CT: [203, 475, 860, 959],
  DE: [302],
  FL: [
    239, 305, 321, 324, 352, 386, 407, 448, 561, 645, 656, 689, 727, 728, 754, 772, 786, 813, 850, 863, 904, 941, 954,
  ],
  IL: [217, 224, 309, 312, 331, 447, 464, 618, 630, 708, 730, 773, 779, 815, 847, 872],
  MD: [227, 240, 301, 410, 443, 667],
  MA: [339, 351, 413, 508, 617, 774, 781, 857, 978],
  MI: [231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 947, 989],
  MT: [406],
  NV: [702, 725, 775],
  NH: [603],
  PA: [215, 223, 267, 272, 412, 445, 484, 570, 582, 610, 717, 724, 814, 835, 878],
  WA: [206, 253, 360, 425, 509, 564],
};

const STATE_OF_AREA_CODE = new Map<number, string>(
  Object.entries(US_ALL_PARTY_CONSENT_AREA_CODES).flatMap(([state, codes]) => codes.map((c) => [c, state] as const)),
);

/** Countries where the caller is told before a call is recorded (ISO 3166-1 alpha-2): EU, EEA, GB (with GG, JE, IM), CA, AU. */
export const NOTICE_COUNTRIES: ReadonlySet<string> = new Set([
  // EU
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  // EEA
  'IS', 'LI', 'NO',
  // The UK, and the Crown Dependencies that share its +44 numbers (their own GDPR-like data protection laws)
  'GB', 'GG', 'JE', 'IM',
  'CA', 'AU',
]); // prettier-ignore

/**
 * The consent jurisdiction of one E.164 number: `US-<state>` for a US number whose area code is an
 * all-party-consent state's, the country code for a notice country (`NOTICE_COUNTRIES`), else null (a
 * number libphonenumber cannot place, a one-party-consent state or country).
 */
export function numberJurisdiction(e164: string | null | undefined): string | null {
  if (!e164) return null;
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.country) return null;
  if (parsed.country === 'US') {
    const state = STATE_OF_AREA_CODE.get(Number(parsed.nationalNumber.slice(0, 3)));
    return state ? `US-${state}` : null;
  }
  return NOTICE_COUNTRIES.has(parsed.country) ? parsed.country : null;
}

/**
 * The consent jurisdiction of a call: the first of its numbers (the other party's first — the callee of
 * an outbound call, the caller of an inbound one — then the organization's own number) that is in one.
 * Both count because the stricter law of either party's place is the one that binds a recording.
 */
export function consentJurisdiction(numbers: (string | null | undefined)[]): string | null {
  for (const n of numbers) {
    const j = numberJurisdiction(n);
    if (j) return j;
  }
  return null;
}

/** What `decideRecordingConsent` needs of a new call. */
export interface ConsentRequest {
  /** The agent version's `recording_consent`; null: the default by jurisdiction. */
  configured: RecordingConsentMode | null;
  /** Whether the call would be recorded (its `recording`, else its agent's, `enabled`). */
  recorded: boolean;
  /** The recording's own `notice`, said as the announcement when it has one. */
  notice: string | null;
  /** The call's numbers, the other party's first (see `consentJurisdiction`). */
  numbers: (string | null | undefined)[];
  /** The agent's BCP 47 `language`. */
  language: string | null;
}

/**
 * The recording-consent decision of a new call (src/shared/recording-consent.ts `RecordingConsent`):
 * - a configured mode applies as it is (`off`: not recorded; `announce`, `ask` only matter when the call
 *   is recorded: a call that is not says nothing about recording);
 * - with none configured, a recorded call in an all-party-consent or notice jurisdiction is `announce`,
 *   anything else `none` (recorded as its `recording` says, its own notice said as before).
 * The announcement is the recording's own `notice` when it has one, else the built-in sentence in the
 * agent's language; `ask` says the question and records nothing until the caller's yes.
 */
export function decideRecordingConsent(req: ConsentRequest): RecordingConsent {
  const jurisdiction = consentJurisdiction(req.numbers);
  const mode: RecordingConsent['mode'] = req.configured ?? (jurisdiction && req.recorded ? 'announce' : 'none');
  const language = openingLanguage(req.language);
  const sentences = openingSentences(req.language);
  const base = { configured: req.configured !== null, jurisdiction, answer: null, language };
  if (!req.recorded || mode === 'off' || mode === 'none')
    return { ...base, mode, asked: false, recording: req.recorded && mode === 'none' ? 'on' : 'off', words: null };
  if (mode === 'ask')
    return { ...base, mode, asked: true, answer_seq: null, recording: 'off', words: sentences.question };
  return { ...base, mode, asked: false, recording: 'on', words: req.notice || sentences.recorded };
}

/** Words that say yes or no, per language (see `classifyConsentAnswer`). */
interface ConsentWords {
  /** Phrases that say yes with a negative word in them ("no problem"): looked for first. */
  yesPhrases: string[];
  no: string[];
  yes: string[];
  /** Languages written without spaces: phrases match anywhere, not on word bounds. */
  anywhere?: boolean;
}

const CONSENT_WORDS: Record<string, ConsentWords> = {
  en: {
    yesPhrases: ['no problem', "don't mind", 'do not mind', 'not a problem', 'no objection', 'no worries', 'why not'],
    no: ['no', 'nope', 'nah', "don't", 'do not', 'not', 'rather not', 'refuse', 'decline', 'never'],
    yes: [
      'yes',
      'yeah',
      'yep',
      'yup',
      'sure',
      'okay',
      'ok',
      'fine',
      'go ahead',
      'of course',
      'alright',
      'agree',
      'absolutely',
      'certainly',
    ],
  },
  es: {
    yesPhrases: ['no hay problema', 'no me importa', 'sin problema'],
    no: ['no', 'prefiero que no', 'nunca', 'de ninguna manera'],
    yes: ['sí', 'si', 'claro', 'vale', 'de acuerdo', 'está bien', 'esta bien', 'por supuesto', 'adelante', 'bueno'],
  },
  fr: {
    yesPhrases: ['pas de problème', 'pas de souci', 'aucun problème', 'ça ne me dérange pas'],
    no: ['non', 'pas question', 'je refuse', 'je préfère pas', 'je préfère ne pas', 'jamais'],
    yes: ['oui', 'ouais', "d'accord", 'bien sûr', 'ok', 'okay', 'allez-y', 'volontiers', 'ça me va'],
  },
  de: {
    yesPhrases: ['kein problem', 'nichts dagegen', 'habe nichts dagegen'],
    no: ['nein', 'nicht', 'lieber nicht', 'auf keinen fall', 'niemals'],
    yes: ['ja', 'klar', 'okay', 'ok', 'einverstanden', 'gerne', 'gern', 'in ordnung', 'natürlich', 'sicher', 'jawohl'],
  },
  it: {
    yesPhrases: ['nessun problema', 'non mi dispiace'],
    no: ['no', 'preferisco di no', 'assolutamente no', 'mai'],
    yes: ['sì', 'si', 'certo', 'va bene', "d'accordo", 'ok', 'volentieri', 'certamente'],
  },
  pt: {
    yesPhrases: ['sem problema', 'não tem problema', 'nao tem problema', 'não me importo', 'nao me importo'],
    no: ['não', 'nao', 'prefiro que não', 'nunca'],
    yes: ['sim', 'claro', 'pode', 'tudo bem', 'está bem', 'esta bem', 'ok', 'com certeza', 'certo'],
  },
  nl: {
    yesPhrases: ['geen probleem', 'geen bezwaar'],
    no: ['nee', 'neen', 'liever niet', 'niet'],
    yes: ['ja', 'prima', 'goed', 'oké', 'oke', 'ok', 'akkoord', 'natuurlijk', 'zeker'],
  },
  pl: {
    yesPhrases: ['nie ma problemu', 'nie mam nic przeciwko'],
    no: ['nie', 'wolałbym nie', 'wolałabym nie'],
    yes: ['tak', 'dobrze', 'zgoda', 'jasne', 'oczywiście', 'ok', 'okej'],
  },
  sv: {
    yesPhrases: ['inga problem', 'inget problem'],
    no: ['nej', 'helst inte', 'inte'],
    yes: ['ja', 'okej', 'ok', 'visst', 'absolut', 'gärna', 'det går bra', 'javisst'],
  },
  da: {
    yesPhrases: ['intet problem', 'ikke noget problem'],
    no: ['nej', 'helst ikke', 'ikke'],
    yes: ['ja', 'okay', 'ok', 'fint', 'gerne', 'selvfølgelig', 'det er i orden'],
  },
  nb: {
    yesPhrases: ['ikke noe problem', 'ingen problem'],
    no: ['nei', 'helst ikke', 'ikke'],
    yes: ['ja', 'greit', 'ok', 'okei', 'gjerne', 'selvfølgelig', 'det går fint'],
  },
  fi: {
    yesPhrases: ['ei haittaa', 'ei ongelmaa'],
    no: ['ei', 'en halua', 'älä'],
    yes: ['kyllä', 'joo', 'ok', 'selvä', 'sopii', 'käy'],
  },
  ja: {
    anywhere: true,
    yesPhrases: ['構いません', 'かまいません', '問題ありません', '大丈夫です'],
    no: ['いいえ', 'いや', 'だめ', 'ダメ', '困ります', 'やめて', 'お断り', '結構です'],
    yes: ['はい', 'ええ', 'いいですよ', '大丈夫', 'どうぞ', 'オーケー'],
  },
  zh: {
    anywhere: true,
    yesPhrases: ['没问题', '不介意', '没关系'],
    no: ['不', '别', '拒绝'],
    yes: ['是', '好', '可以', '行', '同意', '当然'],
  },
  ko: {
    anywhere: true,
    yesPhrases: ['상관없어요', '상관없습니다', '괜찮아요', '괜찮습니다'],
    no: ['아니요', '아니오', '아니', '싫어요', '안 돼요', '안돼요', '거절'],
    yes: ['네', '예', '좋아요', '좋습니다', '그래요', '물론'],
  },
};
CONSENT_WORDS.no = CONSENT_WORDS.nb;
CONSENT_WORDS.nn = CONSENT_WORDS.nb;

/** Whether `text` (lower case) holds `phrase` (on word bounds unless the language is written without spaces). */
function holds(text: string, phrase: string, anywhere: boolean): boolean {
  if (anywhere) return text.includes(phrase);
  let from = 0;
  for (;;) {
    const at = text.indexOf(phrase, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + phrase.length] ?? '';
    if (!/[\p{L}\p{N}'’]/u.test(before) && !/[\p{L}\p{N}'’]/u.test(after)) return true;
    from = at + 1;
  }
}

/**
 * How a caller's answer to the consent question is understood, in the agent's language (English words
 * count in every language, since callers often answer "okay"): a phrase that says yes with a negative
 * word in it ("no problem") is a yes; otherwise any negative word is a no (a mixed answer is a no: never
 * record on a doubt); otherwise a yes word is a yes; anything else is `unclear`, which keeps recording off
 * like a no. Plain string search over fixed lists: linear in the answer's length.
 */
export function classifyConsentAnswer(text: string, language: string | null | undefined): ConsentAnswer {
  const said = text.toLowerCase().replace(/’/g, "'").replace(/\s+/g, ' ').trim();
  if (!said) return 'unclear';
  const lists = [CONSENT_WORDS[openingLanguage(language)] ?? CONSENT_WORDS.en];
  if (lists[0] !== CONSENT_WORDS.en) lists.push(CONSENT_WORDS.en);
  const any = (pick: (w: ConsentWords) => string[]) =>
    lists.some((w) => pick(w).some((p) => holds(said, p.toLowerCase(), w.anywhere === true)));
  if (any((w) => w.yesPhrases)) return 'yes';
  if (any((w) => w.no)) return 'no';
  if (any((w) => w.yes)) return 'yes';
  return 'unclear';
}
