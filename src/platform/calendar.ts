/**
 * Calendar days in an IANA time zone, with Node's `Intl` (ICU's tz database) and no other dependency:
 * where a day starts and which day an instant falls on. DST-correct: a day is the set of
 * instants whose local date is that day, so it lasts 23 or 25 hours when the clocks change, and starts
 * at 01:00 where the clocks skip midnight (America/Santiago, America/Havana…).
 *
 * Dates are `YYYY-MM-DD` strings (ISO 8601 calendar dates, proleptic Gregorian), years 1970 to 9999.
 */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Parses a `YYYY-MM-DD` date of a real calendar day from 1970 to 9999; null otherwise (`2026-02-30`). */
export function parseDate(s: string): { y: number; m: number; d: number } | null {
  const match = DATE_RE.exec(s);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < 1970 || m < 1 || m > 12 || d < 1) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** Days from `from` to `to` (both valid dates): 0 when equal, negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);
}

/** 00:00 UTC of `date` (ms): the day's number in `dayStartOf`. */
export function utcMidnight(date: string): number {
  const p = parseDate(date);
  if (!p) throw new Error(`not a date: ${date}`);
  return Date.UTC(p.y, p.m - 1, p.d);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The canonical name of time zone `tz` as `Intl` knows it (`utc` → `UTC`), or null when `Intl` does
 * not know it.
 */
export function canonicalTimeZone(tz: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null; // RangeError: Invalid time zone specified
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The local calendar date and time at instant `ms` in `tz`. */
export function zonedParts(
  ms: number,
  tz: string,
): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    y: Number(parts.year),
    m: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour) % 24,
    min: Number(parts.minute),
    s: Number(parts.second),
  };
}

/** The local wall-clock time of instant `ms` in `tz`, as if it were UTC (ms), whole seconds. */
function wallClock(ms: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The local date (`YYYY-MM-DD`) of instant `ms` in `tz`. */
export function localDate(ms: number, tz: string): string {
  return new Date(wallClock(ms, tz)).toISOString().slice(0, 10);
}

/** The first instant (ms) of `date` in `tz`: the earliest instant whose local date is `date` or later. */
export function dayStart(date: string, tz: string): number {
  return dayStartOf(utcMidnight(date), tz);
}

/**
 * The first instant (ms) of the day whose UTC midnight is `midnight` (ms), in `tz`. Found from the zone's
 * offset and checked; bisected when the check fails (a day whose midnight the clocks skip or repeat).
 */
export function dayStartOf(midnight: number, tz: string): number {
  // Local date ≥ the day ⇔ local wall clock ≥ its 00:00:00.
  const inOrAfter = (ms: number) => wallClock(ms, tz) >= midnight;
  // Two offset refinements find local midnight whenever it exists and is unambiguous. Offsets are whole
  // seconds in the tz database and the formatter works in whole seconds, so every candidate is a whole
  // second, and the first second of the day found is its first millisecond.
  let guess = midnight - (wallClock(midnight, tz) - midnight);
  guess = midnight - (wallClock(guess, tz) - guess);
  if (inOrAfter(guess) && !inOrAfter(guess - 1000)) return guess;
  // Otherwise bisect over ±27 h: UTC offsets range from -12 to +14 hours, plus a DST hour.
  let lo = midnight - 27 * 3_600_000; // before the day
  let hi = midnight + 27 * 3_600_000; // in the day or after
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (inOrAfter(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
