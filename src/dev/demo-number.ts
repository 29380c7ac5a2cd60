/**
 * The number the demo's printed curl calls: simulated (test-mode) calls pass the dial gate like live ones
 * (src/services/dial-gate.ts), so a call placed at night at the callee's local time is held until its
 * calling hours open (README "Calling within the law"). A newcomer's first call should show a whole call,
 * so the demo picks, among fictional numbers in zones spread around the world, the first whose calling
 * window (the country's default, narrowed by the operator's `CALLING_HOURS`) is open now and stays open for
 * the call's length. `scripts/smoke-lts.sh` places its call to the same number.
 */
import { config } from '../config';
import { callingHours } from '../services/calling-hours';

/**
 * Fictional single-zone numbers, in the order they are tried: the US demo number first, then zones whose
 * default windows (US 08:00–21:00, GB 08:00–21:00 weekdays, others 09:00–20:00) together cover every hour.
 */
export const DEMO_NUMBERS = [
  '+14155550123', // America/Los_Angeles
  '+12125550123', // America/New_York
  '+442079460123', // Europe/London
  '+4930123456789', // Europe/Berlin
  '+919876543210', // Asia/Kolkata
  '+81312345678', // Asia/Tokyo
  '+61291234567', // Australia/Sydney
] as const;

/** How long the window must stay open after the dial: a simulated demo call lasts seconds. */
const OPEN_FOR_MS = 10 * 60_000;

/**
 * The first of `DEMO_NUMBERS` whose calling window is open at `atMs` and `OPEN_FOR_MS` later (under the
 * operator's `CALLING_HOURS` when set), or the US demo number when none is (an operator window that no
 * zone is in now: the call is then held, as the README explains).
 * @param atMs epoch ms, default now
 * @returns an E.164 number
 */
export async function demoNumberInCallingHours(atMs = Date.now()): Promise<string> {
  const overrides = { operator: config().callingHours };
  for (const to of DEMO_NUMBERS) {
    const [now, later] = await Promise.all([
      callingHours(to, atMs, overrides),
      callingHours(to, atMs + OPEN_FOR_MS, overrides),
    ]);
    if (now.allowed && later.allowed) return to;
  }
  return DEMO_NUMBERS[0];
}
