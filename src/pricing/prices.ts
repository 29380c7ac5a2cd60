/**
 * The price table (README "Costs"): what telephony, models, recordings and the platform cost, from which
 * each call, conversation turn and analysis records its `cost` when it ends. The operator owns it:
 * `PRICES_FILE` names a JSON file of the shape `PriceTableSchema` describes; without it, the default
 * table src/pricing/prices.default.json (public list prices, dated by its `as_of`).
 *
 * Prices are decimal strings in the table's currency (USD only): per minute for telephony, recordings and
 * the platform's fee; per million tokens for models. They are turned into integer micro-units (millionths
 * of a dollar) once, when the table is loaded, and every cost is computed in integer micro-units, so the
 * parts of a cost add up to its total exactly and daily sums add up to period totals exactly.
 */
import fs from 'node:fs';
import { z } from 'zod';
import defaultTable from './prices.default.json';

/** A non-negative decimal amount, at most 6 decimals (micro-units): `"0.0140"`, `"2.50"`. */
const amount = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a decimal string like "0.0140" (at most 6 decimals)');

/** A model's prices per million tokens; the audio ones are for speech-to-speech (realtime) models. */
const modelPrices = z.strictObject({
  input: amount,
  cached_input: amount.optional(),
  output: amount,
  audio_input: amount.optional(),
  audio_cached_input: amount.optional(),
  audio_output: amount.optional(),
});

/** Per-minute prices of one direction by ISO 3166-1 alpha-2 country (`US`, `GB`…), with a `default`. */
const byCountry = z
  .record(z.string().regex(/^([A-Z]{2}|default)$/, 'must be a country code (US, GB…) or "default"'), amount)
  .refine((r) => r.default !== undefined, { message: 'must have a "default" price' });

/** The price table's shape (README "Costs" describes each field). */
export const PriceTableSchema = z.strictObject({
  currency: z.literal('usd'),
  /** When the prices were read from their sources (`YYYY-MM-DD`). */
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'),
  sources: z.record(z.string(), z.string()).optional(),
  telephony: z.strictObject({
    per_minute: z.strictObject({ inbound: byCountry, outbound: byCountry }),
    sip_per_minute: amount,
    recording_per_minute: amount,
  }),
  models: z.record(z.string().min(1), modelPrices),
  platform_per_minute: amount,
});
export type PriceTableJson = z.output<typeof PriceTableSchema>;

/** A model's prices in micro-units per million tokens. */
export interface ModelPriceMicros {
  input: number;
  cachedInput: number;
  output: number;
  audioInput: number | null;
  audioCachedInput: number | null;
  audioOutput: number | null;
}

/** The price table, loaded: every price in integer micro-units. */
export interface PriceTable {
  currency: 'usd';
  asOf: string;
  /** Where it was read from: the file's path, or `default`. */
  source: string;
  perMinute: { inbound: Record<string, number>; outbound: Record<string, number> };
  sipPerMinute: number;
  recordingPerMinute: number;
  platformPerMinute: number;
  models: Record<string, ModelPriceMicros>;
}

/** `"0.0140"` → 14000: a decimal amount in micro-units (exact: string arithmetic, no floating point). */
export function toMicros(decimal: string): number {
  const [whole, frac = ''] = decimal.split('.');
  return Number(whole) * 1_000_000 + Number(frac.padEnd(6, '0'));
}

/** 14000 → `"0.014000"`: micro-units as a decimal string with 6 decimals (for logs and the console). */
export function fromMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  return `${sign}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, '0')}`;
}

/** The validated table JSON in micro-units; `source` says where it came from. */
function compile(json: PriceTableJson, source: string): PriceTable {
  const per = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toMicros(v)]));
  const opt = (v: string | undefined) => (v === undefined ? null : toMicros(v));
  return {
    currency: json.currency,
    asOf: json.as_of,
    source,
    perMinute: { inbound: per(json.telephony.per_minute.inbound), outbound: per(json.telephony.per_minute.outbound) },
    sipPerMinute: toMicros(json.telephony.sip_per_minute),
    recordingPerMinute: toMicros(json.telephony.recording_per_minute),
    platformPerMinute: toMicros(json.platform_per_minute),
    models: Object.fromEntries(
      Object.entries(json.models).map(([name, m]) => [
        name,
        {
          input: toMicros(m.input),
          cachedInput: toMicros(m.cached_input ?? m.input),
          output: toMicros(m.output),
          audioInput: opt(m.audio_input),
          audioCachedInput: opt(m.audio_cached_input ?? m.audio_input),
          audioOutput: opt(m.audio_output),
        },
      ]),
    ),
  };
}

/**
 * Validates a price table's JSON. `source` names it in errors.
 * @throws Error `price table <source>: <json path>: <problem>` (every problem, one per line) when the JSON does not fit `PriceTableSchema`
 */
export function parsePriceTable(json: unknown, source: string): PriceTable {
  const parsed = PriceTableSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new Error(`price table ${source}: ${problems.join('; ')}`);
  }
  return compile(parsed.data, source);
}

/**
 * The price table of `PRICES_FILE` (`file`), or the default table when `file` is undefined. Read once at
 * start-up (src/config.ts `loadConfig`), so a malformed table stops the process before it serves anything.
 * @throws Error naming the file and, for JSON that does not fit, the JSON path of each problem
 *   (`price table /etc/prices.json: models.gpt-4o.input: must be a decimal string…`); for a file that cannot be
 *   read or is not JSON, the file and the reason
 */
export function loadPriceTable(file?: string): PriceTable {
  if (file === undefined) return parsePriceTable(defaultTable, 'default');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`price table ${file} (PRICES_FILE): cannot be read: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`price table ${file} (PRICES_FILE): not JSON: ${(err as Error).message}`, { cause: err });
  }
  return parsePriceTable(json, `${file} (PRICES_FILE)`);
}

/**
 * A model's prices by the name a provider answered with: the exact name, else the name without a
 * dated suffix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`); null when the table does not list it.
 */
export function modelPrice(table: PriceTable, model: string): ModelPriceMicros | null {
  return table.models[model] ?? table.models[model.replace(/-\d{4}-\d{2}-\d{2}$/, '')] ?? null;
}
