/**
 * PII redaction: finds card numbers, US Social Security numbers, email addresses and
 * phone numbers other than the parties' own in a text and replaces each by a typed placeholder
 * (`[card]`, `[ssn]`, `[email]`, `[phone]`). Pure: no store, no clock; src/services/redaction-policy.ts
 * decides when it applies (the organization's `redaction.enabled`) and where.
 *
 * What is detected, and how (each measured on bench/redaction-set.jsonl, `npm run bench:redaction`):
 * - `card`: a run of 13–19 digits, optionally grouped by single spaces or dashes, that braintree's
 *   `card-validator` accepts (a known brand's prefix and length, Luhn checksum; UnionPay included). A run
 *   glued to letters or dashes (`ORD-4481-2209-1177`, `INV-…`) is not a card; within a longer spaced run
 *   (a card followed by its expiry or code) the longest valid group-aligned span is taken.
 * - `ssn`: `AAA-GG-SSSS` or `AAA GG SSSS` with SSA's rules (area not 000, 666 or 900–999; group not 00;
 *   serial not 0000: https://www.ssa.gov/employer/randomization.html); nine digits in one block only when
 *   "SSN", "social security" or "social" is written shortly before.
 * - `email`: the WHATWG HTML `valid e-mail address` production (local part, `@`, dot-separated labels),
 *   with a top-level domain of letters; and the spoken form a speech-to-text engine writes
 *   (`jane dot doe at example dot com`).
 * - `phone`: Google's libphonenumber rules through `libphonenumber-js` (`findPhoneNumbersInText`, metadata
 *   `max`, leniency VALID), national numbers read in `defaultCountry`; the parties' own numbers (`keep`,
 *   compared as E.164 whatever their written form) are left, and so is a number written right after an
 *   order, invoice, reference or tracking word or `#`, or glued to letters.
 *
 * Order numbers, prices, amounts, dates, times, postal codes and tracking numbers are not matched (see
 * the set's negatives). A text made only of PII keeps its placeholders: the result is never empty when
 * the input was not.
 */
import cardValidator from 'card-validator';
import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** The kinds of personal data replaced, each by its placeholder `[<kind>]`. */
export const PII_KINDS = ['card', 'ssn', 'email', 'phone'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** How many of each kind were replaced; a kind that was not found is absent (`{}`: nothing replaced). */
export type RedactionCounts = Partial<Record<PiiKind, number>>;

export interface RedactOptions {
  /**
   * The parties' own numbers (a call's `from`/`to`, a conversation's customer and service numbers), in
   * any form libphonenumber parses (`+14155550123`, `whatsapp:+1…`); never redacted. Other values
   * (`visitor:…`) are ignored.
   */
  keep?: readonly (string | null | undefined)[];
  /**
   * The country national numbers (`(415) 555-0199`, `020 7946 0958`) are read in; absent: the country of
   * the first kept number, else `US`.
   */
  defaultCountry?: CountryCode;
  /**
   * The kinds looked for; absent: every kind. `['card']` is what is redacted whatever the organization's
   * setting (src/services/redaction-policy.ts): no full card number is ever stored.
   */
  kinds?: readonly PiiKind[];
}

/** One finding: `text.slice(start, end)` is PII of `kind`. */
export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
}

export interface Redacted {
  text: string;
  counts: RedactionCounts;
}

/** `[card]`, `[ssn]`, `[email]`, `[phone]`. */
export const placeholder = (kind: PiiKind): string => `[${kind}]`;

/**
 * Replaces every card number, SSN, email address and other party's phone number of `text` by its
 * placeholder (see the module comment for the rules).
 * @returns the text and how many of each kind were replaced (`counts` is `{}` when nothing was)
 */
export function redactText(text: string, options: RedactOptions = {}): Redacted {
  const spans = findPii(text, options);
  if (!spans.length) return { text, counts: {} };
  let out = '';
  let at = 0;
  const counts: RedactionCounts = {};
  for (const s of spans) {
    out += text.slice(at, s.start) + placeholder(s.kind);
    at = s.end;
    counts[s.kind] = (counts[s.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(at), counts };
}

/**
 * The PII of `text` (of `options.kinds`, else every kind), in order, without overlaps. Emails are found
 * first (an address may hold digits), then card numbers, SSNs, and phone numbers in what is left.
 */
export function findPii(text: string, options: RedactOptions = {}): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const free = (start: number, end: number) => !spans.some((s) => start < s.end && s.start < end);
  const add = (found: PiiSpan[]) => {
    for (const s of found) if (free(s.start, s.end)) spans.push(s);
  };
  const wanted = (kind: PiiKind) => !options.kinds || options.kinds.includes(kind);
  if (wanted('email')) add(findEmails(text));
  if (wanted('card')) add(findCards(text));
  if (wanted('ssn')) add(findSsns(text));
  if (!wanted('phone')) return spans.sort((a, b) => a.start - b.start);
  // Phone numbers are looked for with what is already found blanked out, so no digit is read twice.
  let blanked = text;
  for (const s of spans) blanked = blanked.slice(0, s.start) + ' '.repeat(s.end - s.start) + blanked.slice(s.end);
  add(findPhones(blanked, options));
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * Card numbers and email addresses of a log line's string replaced by `[card]` / `[email]`, whatever the
 * organization's setting (src/logger.ts): cheap on strings with neither an `@` nor four digits in a row.
 */
export function redactCardsAndEmails(text: string): string {
  if (!text.includes('@') && !/\d{4}/.test(text)) return text;
  const spans = findEmails(text);
  for (const c of findCards(text)) if (!spans.some((s) => c.start < s.end && s.start < c.end)) spans.push(c);
  if (!spans.length) return text;
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + placeholder(s.kind);
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * Redacts every string inside a JSON-like value (objects, arrays; 20 levels deep), keys untouched.
 * A string that is a whole phone number in E.164 (a field such as `to`, `from`, `customer_number`) is a
 * party's number and is kept, and every such number is kept in free text too.
 * @returns a copy with the strings redacted, and the counts over all of them
 */
export function redactValue<T>(value: T, options: RedactOptions = {}): { value: T; counts: RedactionCounts } {
  const parties = new Set<string>(options.keep?.filter((k): k is string => typeof k === 'string') ?? []);
  collectE164(value, parties, 0);
  const opts: RedactOptions = { ...options, keep: [...parties] };
  const counts: RedactionCounts = {};
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      if (E164.test(v)) return v;
      const r = redactText(v, opts);
      addCounts(counts, r.counts);
      return r.text;
    }
    if (depth >= 20 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  return { value: walk(value, 0) as T, counts };
}

/** Adds `more` into `into` (in place) and returns it. */
export function addCounts(into: RedactionCounts, more: RedactionCounts): RedactionCounts {
  for (const k of PII_KINDS) if (more[k]) into[k] = (into[k] ?? 0) + more[k];
  return into;
}

/** Whether anything was replaced. */
export const redactedAny = (counts: RedactionCounts): boolean => PII_KINDS.some((k) => (counts[k] ?? 0) > 0);

const E164 = /^\+[1-9]\d{6,14}$/;

function collectE164(v: unknown, into: Set<string>, depth: number): void {
  if (typeof v === 'string') {
    if (E164.test(v)) into.add(v);
  } else if (v && typeof v === 'object' && depth < 20)
    for (const x of Array.isArray(v) ? v : Object.values(v)) collectE164(x, into, depth + 1);
}

// --- email ------------------------------------------------------------------------------------------

/** WHATWG HTML's valid e-mail address, found in running text; the last label must be letters (a TLD). */
const EMAIL =
  /(?<![\w.+-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g;
/** The spoken form speech-to-text writes: `jane dot doe at example dot com` (`underscore`, `dash` too). */
const SPOKEN_EMAIL =
  /\b[a-z0-9]+(?:\s+(?:dot|underscore|dash|hyphen)\s+[a-z0-9]+)*\s+at\s+[a-z0-9]+(?:\s+dot\s+[a-z0-9]+)*\s+dot\s+(?:com|net|org|edu|gov|io|co|uk|us|ca|de|fr|es|it|nl|au|info|biz|me)\b/gi;

function findEmails(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const re of [EMAIL, SPOKEN_EMAIL])
    for (const m of text.matchAll(re)) spans.push({ kind: 'email', start: m.index, end: m.index + m[0].length });
  return spans;
}

// --- card -------------------------------------------------------------------------------------------

/** A run of digits joined by at most one space or dash, not glued to letters, `_`, `-` or `/`. */
const DIGIT_RUN = /(?<![\w/-])\d(?:[ -]?\d)*(?![\w/]|-\d)/g;
/** Longer runs are other numbers (tracking numbers: USPS has 20–22 digits), not a card with its extras. */
const MAX_RUN_DIGITS = 23;

function findCards(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    const run = m[0];
    const digits = run.replace(/\D/g, '').length;
    if (digits < 13 || digits > MAX_RUN_DIGITS) continue;
    const found = longestCard(run);
    if (found) spans.push({ kind: 'card', start: m.index + found.start, end: m.index + found.end });
  }
  return spans;
}

/**
 * The longest span of whole digit groups of `run` (earliest first on a tie) that is a valid card number:
 * 13–19 digits, a known brand and length, Luhn (card-validator).
 */
function longestCard(run: string): { start: number; end: number } | null {
  const groups = [...run.matchAll(/\d+/g)].map((g) => ({ start: g.index, end: g.index + g[0].length, n: g[0].length }));
  let best: { start: number; end: number; digits: number } | null = null;
  for (let i = 0; i < groups.length; i++) {
    let digits = 0;
    for (let j = i; j < groups.length; j++) {
      digits += groups[j].n;
      if (digits > 19) break;
      if (digits < 13 || (best && digits <= best.digits)) continue;
      const candidate = run.slice(groups[i].start, groups[j].end);
      if (isCardNumber(candidate.replace(/\D/g, ''))) best = { start: groups[i].start, end: groups[j].end, digits };
    }
  }
  return best;
}

/**
 * A card number: what card-validator accepts (brand prefix and length, Luhn, UnionPay's Luhn too), or a
 * 13-digit Visa of the older issues (credit-card-type no longer lists that length) that passes Luhn.
 */
function isCardNumber(digits: string): boolean {
  if (cardValidator.number(digits, { luhnValidateUnionPay: true }).isValid) return true;
  return digits.length === 13 && digits.startsWith('4') && luhn(digits);
}

/** The Luhn (mod 10) checksum of a digit string (ISO/IEC 7812-1 annex B). */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// --- ssn --------------------------------------------------------------------------------------------

/** `AAA-GG-SSSS` / `AAA GG SSSS` (one separator throughout) under SSA's rules. */
const SSN_GROUPED = /(?<![\w/-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w/]|-\d)/g;
/** Nine digits in one block, taken only after a word that says it is one. */
const SSN_PLAIN = /(?<![\w/#-])(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}(?![\w/-])/g;
const SSN_CONTEXT = /\b(?:ssn|ss#|social(?:\s+security)?(?:\s+(?:number|no\.?|#))?)\b[^.\n]{0,30}$/i;

function findSsns(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const m of text.matchAll(SSN_GROUPED)) spans.push({ kind: 'ssn', start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(SSN_PLAIN))
    if (SSN_CONTEXT.test(text.slice(Math.max(0, m.index - 60), m.index)))
      spans.push({ kind: 'ssn', start: m.index, end: m.index + m[0].length });
  return spans;
}

// --- phone ------------------------------------------------------------------------------------------

/** Words after which a number is an order, invoice, reference, tracking or account number, not a phone. */
const NOT_A_PHONE_BEFORE =
  /(?:#|\b(?:order|ord|invoice|inv|ref|reference|tracking|track|shipment|parcel|confirmation|conf|po|sku|item|case|ticket|booking|reservation|account|acct|id|serial|model|policy|claim|member|transaction|txn|receipt)\b(?:\s*(?:number|num|no\.?|nr|id|#))?)\s*[:#.-]?\s*(?:(?:is|was)\s+)?$/i;

function findPhones(text: string, options: RedactOptions): PiiSpan[] {
  const keep = new Set<string>();
  let country = options.defaultCountry;
  for (const k of options.keep ?? []) {
    const parsed = k ? parsePhoneNumberFromString(k.replace(/^[a-z]+:/i, '')) : undefined;
    if (!parsed) continue;
    keep.add(parsed.number);
    country ??= parsed.country;
  }
  const spans: PiiSpan[] = [];
  for (const m of findPhoneNumbersInText(text, { defaultCountry: country ?? 'US' })) {
    if (keep.has(m.number.number)) continue;
    if (/[\w/-]/.test(text[m.startsAt - 1] ?? '') && text[m.startsAt] !== '+') continue;
    if (/[\w/]/.test(text[m.endsAt] ?? '')) continue;
    if (NOT_A_PHONE_BEFORE.test(text.slice(Math.max(0, m.startsAt - 30), m.startsAt))) continue;
    spans.push({ kind: 'phone', start: m.startsAt, end: m.endsAt });
  }
  return spans;
}
