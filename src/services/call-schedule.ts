/**
 * When a call is dialed: `scheduled_at` parsed and bounded, and moved to the next opening of
 * its calling window in the callee's local time. The window is the call's `calling_window`, else its
 * agent's, else, for a live call to a +1 number, the US TCPA's 08:00–21:00 that campaigns use
 * (src/services/bulk-calls.ts `DEFAULT_US_WINDOW`). The local times follow the zone's daylight-saving
 * rules as campaigns' windows do (`windowIntervals`: a time the clocks skip is moved later by the change,
 * a time they repeat is its first occurrence).
 *
 * A window applies to a call that is scheduled (`scheduled_at`) or that names one (`calling_window`); a
 * call with neither is dialed at once: the developer placing it decides when it may ring.
 */
import { invalidParam } from '../errors';
import type { CallingWindow } from '../shared/calls';
import { contactZoneKey, DAY_NAMES, DEFAULT_US_WINDOW, windowIntervals, type WindowRule } from './bulk-calls';

/** Bounds of `scheduled_at`: a minute of clock skew into the past, at most 30 days ahead. */
export const SCHEDULE_BOUNDS = { skewMs: 60_000, aheadMs: 30 * 86_400_000 };

/** A call's dial time: when, and the window that decided it (null: none applied). */
export interface DialTime {
  /** Epoch ms; never before `nowMs`. */
  atMs: number;
  /** True when the call waits (`scheduled`): `atMs` is later than `nowMs`. */
  later: boolean;
  window: (WindowRule & { timezone: string }) | null;
}

/**
 * Parses `scheduled_at`: unix seconds, or an ISO 8601 date-time with a UTC offset (`Z` or `±hh:mm`).
 * @param param the parameter's name in errors (`scheduled_at`, or a tool argument)
 * @returns epoch ms
 * @throws ApiError 400 naming `param` when unparsable, more than a minute in the past, or more than 30 days ahead
 */
export function parseScheduledAt(value: number | string, nowMs: number, param = 'scheduled_at'): number {
  const ms = typeof value === 'number' ? value * 1000 : parseIsoWithOffset(value);
  if (ms === null || !Number.isFinite(ms))
    throw invalidParam(
      param,
      `Invalid ${param}: must be unix seconds or an ISO 8601 date-time with a UTC offset, such as 2026-12-01T15:00:00-05:00.`,
    );
  if (ms < nowMs - SCHEDULE_BOUNDS.skewMs) throw invalidParam(param, `Invalid ${param}: must not be in the past.`);
  if (ms > nowMs + SCHEDULE_BOUNDS.aheadMs)
    throw invalidParam(param, `Invalid ${param}: must be at most 30 days ahead.`);
  return ms;
}

/** Epoch ms of an ISO 8601 date-time that carries its offset; null otherwise (a local time is ambiguous). */
export function parseIsoWithOffset(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(
    text.trim(),
  );
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', frac = '', zone] = m;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${offset}`);
  // Date.parse rolls some impossible dates over; a real calendar date and time round-trips.
  if (Number.isNaN(ms) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return null;
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return check.getUTCDate() === Number(d) ? ms : null;
}

/**
 * When a call is dialed: `requestedMs` (or now), moved to the next opening of the window that applies.
 * @param call the callee (`to`), the mode, and the windows: the call's own, else its agent's
 * @param requestedMs the parsed `scheduled_at`, or null for a call placed now
 * @throws ApiError 400 naming `calling_window` when the window never opens within the next 8 days
 */
export async function dialTime(
  call: { to: string; livemode: boolean; window?: CallingWindow | null; agentWindow?: CallingWindow | null },
  requestedMs: number | null,
  nowMs: number,
): Promise<DialTime> {
  const fromMs = Math.max(requestedMs ?? nowMs, nowMs);
  const window = applicableWindow(call, requestedMs !== null);
  if (!window) return { atMs: fromMs, later: fromMs > nowMs, window: null };
  const zone = await contactZoneKey(call.to, window.timezone);
  const open = windowIntervals(window, zone, fromMs).find(([, close]) => close > fromMs);
  if (!open) throw invalidParam('calling_window', 'Invalid calling_window: it does not open within the next 8 days.');
  const atMs = Math.max(open[0], fromMs);
  return { atMs, later: atMs > nowMs, window: { ...window, timezone: zone } };
}

/**
 * The window of a call: its own `calling_window`; for a scheduled call its agent's, else 08:00–21:00 local
 * for a live +1 number; for a call placed now with no window of its own, none.
 */
function applicableWindow(
  call: { to: string; livemode: boolean; window?: CallingWindow | null; agentWindow?: CallingWindow | null },
  scheduled: boolean,
): (WindowRule & { timezone?: string }) | null {
  const own = call.window ?? (scheduled ? call.agentWindow : null);
  if (own)
    return {
      start: own.start,
      end: own.end,
      days: own.days ?? [...DAY_NAMES],
      ...(own.timezone ? { timezone: own.timezone } : {}),
    };
  if (scheduled && call.livemode && call.to.startsWith('+1')) return DEFAULT_US_WINDOW;
  return null;
}
