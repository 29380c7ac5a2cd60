/**
 * Object identifiers: `<prefix>_<26 chars>`, where the 26 characters are a ULID (48-bit millisecond
 * timestamp + 80 random bits, Crockford base32, lowercased). Ids therefore sort by creation time as plain
 * strings, which is what list pagination (`starting_after`/`ending_before`, newest first) relies on.
 *
 * This module is deterministic-safe: it imports nothing and takes the clock and the random source as
 * arguments, so workflow code can call it with Temporal's deterministic `Date.now()`/`Math.random()`.
 */

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Returns a new id `<prefix>_<ulid>`.
 * @param prefix e.g. `call`
 * @param now milliseconds since the epoch (default `Date.now()`)
 * @param random a source of floats in [0, 1) (default `Math.random`)
 */
export function newId(prefix: string, now: number = Date.now(), random: () => number = Math.random): string {
  let ms = Math.max(0, Math.floor(now));
  let digits: number[];
  if (ms <= lastMs) {
    // Same millisecond (or a clock step back): keep ordering by incrementing the last random part
    // (ULID's monotonic mode). In a workflow, Date.now() is fixed for an activation, so this is what
    // keeps several ids made in one activation in creation order.
    ms = lastMs;
    digits = increment(lastRandom);
  } else {
    digits = Array.from({ length: 16 }, () => Math.floor(random() * 32) % 32);
    digits[0] &= 0x0f; // leave headroom so increments never overflow
  }
  lastMs = ms;
  lastRandom = digits;
  let time = '';
  for (let i = 0, t = ms; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}${digits.map((d) => ALPHABET[d]).join('')}`;
}

let lastMs = -1;
let lastRandom: number[] = [];

function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/** True when `id` has the shape `newId(prefix)` produces. */
export function isId(prefix: string, id: unknown): id is string {
  return typeof id === 'string' && new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(id);
}

/** The creation time (ms since the epoch) encoded in an id made by `newId`, or NaN for another string. */
export function idTime(id: string): number {
  const m = /_([0-9a-hjkmnp-tv-z]{10})[0-9a-hjkmnp-tv-z]{16}$/.exec(id);
  if (!m) return NaN;
  let t = 0;
  for (const c of m[1]) t = t * 32 + ALPHABET.indexOf(c);
  return t;
}

/**
 * A deterministic id `<prefix>_<ulid>` for something that must be created once whoever creates it:
 * the time part from `ms`, the rest from a hash of `seed` (FNV-1a, 80 bits). Same inputs, same id.
 */
export function derivedId(prefix: string, ms: number, seed: string): string {
  let time = '';
  for (let i = 0, t = Math.max(0, Math.floor(ms)); i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rest = '';
  for (let round = 0; rest.length < 16; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
    for (let k = 0; k < 6 && rest.length < 16; k++, h >>>= 5) rest += ALPHABET[h & 31];
  }
  return `${prefix}_${time}${rest}`;
}
