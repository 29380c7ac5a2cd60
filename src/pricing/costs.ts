/**
 * Costs from a price table (src/pricing/prices.ts), in integer micro-units of the table's currency
 * (millionths of a dollar), so that a cost's parts add up to its total exactly (README "Costs").
 * Pure functions: the store reads and Twilio's reported price are src/services/costs.ts's.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { modelPrice, toMicros, type PriceTable } from './prices';

/** A cost in micro-units: `model` null when a model used is missing from the table (then `incomplete`). */
export interface CostMicros {
  telephony: number;
  model: number | null;
  recording: number;
  platform: number;
  /** The sum of the parts (a missing `model` counts 0: the total is then a lower bound). */
  total: number;
  /** True when a model used is missing from the table: `model` is null and `total` lacks its price. */
  incomplete: boolean;
  /** Where `telephony` came from: Twilio's reported `price`, or the table. */
  source: 'twilio' | 'table';
}

/** The tokens one model used (a call's, a turn's, an analysis request's), by how they are priced. */
export interface TokenUse {
  model: string;
  /** Text input tokens not read from the cache. */
  input: number;
  cachedInput: number;
  output: number;
  /** Speech-to-speech (realtime) audio tokens. */
  audioInput: number;
  audioCachedInput: number;
  audioOutput: number;
}

/** `tokens` at `perMillion` micro-units per million tokens, rounded half up to a micro-unit (exact integers). */
export function perMillion(tokens: number, perMillionMicros: number): number {
  const n = BigInt(tokens) * BigInt(perMillionMicros);
  return Number((n + 500_000n) / 1_000_000n);
}

/**
 * What `uses` cost in micro-units: each model's input (uncached, cached), output, and audio tokens at the
 * table's prices. Null when a model is missing from the table, or has audio tokens and no audio prices:
 * never a guessed number.
 */
export function modelCost(table: PriceTable, uses: TokenUse[]): number | null {
  let micros = 0;
  for (const u of uses) {
    const p = modelPrice(table, u.model);
    if (!p) return null;
    const audio = u.audioInput + u.audioCachedInput + u.audioOutput;
    if (audio > 0 && (p.audioInput === null || p.audioOutput === null)) return null;
    micros += perMillion(u.input, p.input) + perMillion(u.cachedInput, p.cachedInput) + perMillion(u.output, p.output);
    if (audio > 0)
      micros +=
        perMillion(u.audioInput, p.audioInput!) +
        perMillion(u.audioCachedInput, p.audioCachedInput ?? p.audioInput!) +
        perMillion(u.audioOutput, p.audioOutput!);
  }
  return micros;
}

/** The ISO 3166-1 alpha-2 country of an E.164 number (`+14155550100` → `US`); null for SIP URIs and unknown numbers. */
export function countryOf(number: string | null | undefined): string | null {
  if (!number || !number.startsWith('+')) return null;
  return parsePhoneNumberFromString(number)?.country ?? null;
}

/** What a call used, as `callCost` prices it. */
export interface CallUse {
  direction: 'inbound' | 'outbound';
  /** The number priced: the callee of an outbound call, our number of an inbound one (the call's `to`). */
  to: string;
  /** Billable minutes (talk time rounded up per call, at least 1 when answered; 0 when not). */
  minutes: number;
  /** The call went over SIP (a `sip:` destination). */
  sip: boolean;
  /** The call was recorded. */
  recorded: boolean;
  /** Twilio's reported `price` and `price_unit` of the call, when it reported them. */
  reported?: { price: string; unit: string } | null;
  tokens: TokenUse[];
}

/**
 * A call's cost: telephony (Twilio's reported price when it gave one in the table's currency, else the
 * table's per-minute price of the direction and the number's country, or its `default`, plus SIP's per
 * minute for a SIP call), recording (per minute of a recorded call), the platform's per-minute fee, and
 * the model's tokens (`modelCost`). Integers: `total` is exactly the sum of the parts.
 */
export function callCost(table: PriceTable, use: CallUse): CostMicros {
  const reported = twilioPrice(table, use.reported);
  let telephony: number;
  if (reported !== null) telephony = reported;
  else {
    const rates = table.perMinute[use.direction];
    const rate = rates[countryOf(use.to) ?? 'default'] ?? rates.default;
    telephony = use.minutes * (use.sip ? table.sipPerMinute : rate);
  }
  const model = modelCost(table, use.tokens);
  const recording = use.recorded ? use.minutes * table.recordingPerMinute : 0;
  const platform = use.minutes * table.platformPerMinute;
  return {
    telephony,
    model,
    recording,
    platform,
    total: telephony + (model ?? 0) + recording + platform,
    incomplete: model === null,
    source: reported !== null ? 'twilio' : 'table',
  };
}

/**
 * The cost of model work alone (a conversation's turn, an analysis request): no telephony, recording or
 * platform fee.
 */
export function tokensOnlyCost(table: PriceTable, tokens: TokenUse[]): CostMicros {
  const model = modelCost(table, tokens);
  return {
    telephony: 0,
    model,
    recording: 0,
    platform: 0,
    total: model ?? 0,
    incomplete: model === null,
    source: 'table',
  };
}

/**
 * Twilio's reported price in micro-units: its `price` is a decimal string, negative for a charge
 * (`"-0.01400"`), in `price_unit` (`USD`); null when absent, unparsable or in another currency than the table's.
 */
function twilioPrice(table: PriceTable, reported: CallUse['reported']): number | null {
  if (!reported || reported.unit.toLowerCase() !== table.currency) return null;
  const m = /^-?(\d{1,9}(?:\.\d+)?)$/.exec(reported.price.trim());
  if (!m) return null;
  const [whole, frac = ''] = m[1].split('.');
  // Rounded half up to the micro-unit (Twilio gives 5 decimals today).
  const exact = toMicros(`${whole}.${frac.slice(0, 6)}`);
  return frac.length > 6 && Number(frac[6]) >= 5 ? exact + 1 : exact;
}

/** Chat-completions tokens as a `TokenUse` (the prompt's cached tokens apart when the provider gave them). */
export function chatTokens(model: string, prompt: number, completion: number, cached = 0): TokenUse {
  const c = Math.min(cached, prompt);
  return {
    model,
    input: prompt - c,
    cachedInput: c,
    output: completion,
    audioInput: 0,
    audioCachedInput: 0,
    audioOutput: 0,
  };
}
