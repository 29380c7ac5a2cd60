/**
 * Callbacks the assistant promises: the built-in tool `schedule_callback`, offered
 * when the agent lists it in `enabled_tools`. Node-side rules, for the `scheduleCallback` activity
 * (src/activities/callbacks.ts) and the LLM activity (the prompt's clock):
 *
 * - `callerTimeZone`: the person's zone, from their number's region (the first of a number's zones when it
 *   has several, e.g. a US toll-free number; UTC when unknown).
 * - `callbackPrompt`: what the system message of a request offering the tool adds: the current date and
 *   time in that zone, so the model can resolve "tomorrow at three".
 * - `parseCallbackTime`: the tool's `at`, ISO 8601 with an offset or the person's local wall-clock time,
 *   from now (a minute of clock skew) to 30 days ahead (src/services/call-schedule.ts `SCHEDULE_BOUNDS`).
 * - `scheduleCallback`: the scheduled call itself, to the same person with the same agent from the same
 *   service number, moved into the agent's calling window (`dialTime`), created exactly once per tool call
 *   (its id is derived from the tool call's key by the workflow), after canceling the callback still
 *   pending from the same call or conversation (one pending callback each).
 *
 * Bad input is never thrown: it comes back as the tool's error text, which the assistant recovers from.
 */
import type { Client } from '@temporalio/client';
import { aiDisclosureEnabled } from './ai-disclosure';
import { ownsCallerNumber } from './caller-ids';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { ApiError } from '../errors';
import { findLiveAgent } from '../models/agents';
import { versionedAgent } from './agent-versions';
import { Call, newCallDocument } from '../models/calls';
import { PhoneNumber } from '../models/conversations';
import { insertIfAbsent } from '../models/store';
import { CALL_NOT_LIVE, callWorkflowId, endUpdate, type CallingWindow } from '../shared/calls';
import { contactZoneKey, localTimeToUtc } from './bulk-calls';
import { dialTime, parseIsoWithOffset, SCHEDULE_BOUNDS } from './call-schedule';
import { newCallInput, startCallWorkflow } from './calls';
import { currentTraceId } from '../platform/tracing';

/** The person's IANA zone: their number's (the first when it has several), else UTC. */
export async function callerTimeZone(number: string): Promise<string> {
  return (await contactZoneKey(number, undefined)).split(',')[0] || 'UTC';
}

/**
 * Instant `ms` as the person hears it and as ISO 8601 in zone `tz`: `Tuesday, December 1, 2026 at 3:00
 * PM PST (2026-12-01T15:00:00-08:00)`.
 */
export function formatLocalTime(ms: number, tz: string): string {
  const spoken = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
    .format(new Date(ms))
    .replace(/\s/g, ' '); // ICU puts a narrow no-break space before AM/PM
  return `${spoken} (${isoLocal(ms, tz)})`;
}

/** Instant `ms` as ISO 8601 local time with its UTC offset in zone `tz` (`2026-12-01T15:00:00-08:00`). */
export function isoLocal(ms: number, tz: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const offsetMin = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/**
 * What a request offering `schedule_callback` adds to its system message (src/activities/llm.ts): the
 * current date and time in the person's zone and how to use the tool.
 * @param number the person's number (the callee of an outbound call, the caller of an inbound one, the customer)
 * @param nowMs the current time (epoch ms)
 */
export async function callbackPrompt(number: string, nowMs: number): Promise<string> {
  const tz = await callerTimeZone(number);
  return [
    `Now it is ${formatLocalTime(nowMs, tz)} where they are (time zone ${tz}).`,
    'When they ask to be called back later, call schedule_callback with `at` in their local time ' +
      '(ISO 8601, such as 2026-12-01T15:00) and a short reason; then tell them the time its answer gives ' +
      '(calls ring only in our calling hours, so it may be later than asked). If it answers an error, ask ' +
      'them what time suits them.',
  ].join('\n');
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

/** Why `at` cannot be used, as the tool's answer: the model asks the person again. */
const unreadable = (at: string) =>
  `Error: could not read the time "${at.slice(0, 100)}"; ask the caller what time suits them, then call schedule_callback ` +
  'again with `at` as an ISO 8601 date-time (2026-12-01T15:00).';

/**
 * The instant the person asked for: `at` with a UTC offset, or their local wall-clock time in `tz` (a
 * time the clocks skip is moved later by the change, a repeated one is its first occurrence).
 * @returns epoch ms, or the tool's error text: unreadable, past (beyond a minute of skew), beyond 30 days
 */
export function parseCallbackTime(at: string, tz: string, nowMs: number): number | string {
  const text = at.trim();
  let ms = parseIsoWithOffset(text);
  if (ms === null) {
    const m = LOCAL_TIME.exec(text);
    if (!m) return unreadable(at);
    const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
    const day = new Date(Date.UTC(y, mo - 1, d));
    if (mo < 1 || mo > 12 || day.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return unreadable(at);
    ms = localTimeToUtc(y, mo, d, h * 3600 + mi * 60 + s, tz);
  }
  if (ms < nowMs - SCHEDULE_BOUNDS.skewMs)
    return `Error: ${isoLocal(ms, tz)} has already passed (now it is ${isoLocal(nowMs, tz)}); ask the caller what time suits them.`;
  if (ms > nowMs + SCHEDULE_BOUNDS.aheadMs)
    return 'Error: a callback can be at most 30 days ahead; ask the caller for an earlier time.';
  return ms;
}

/** The `scheduleCallback` activity's input: the tool's arguments and where the call was promised. */
export interface ScheduleCallbackInput {
  orgId: string;
  livemode: boolean;
  /** The agent that answers the callback (the promising call's or conversation's). */
  agentId: string;
  /** The new call's id, derived by the workflow from the tool call's key: the same on every retry. */
  callId: string;
  /** The tool call's key (`tc_…`): the update id of the cancel of a replaced callback. */
  toolCallId: string;
  /** Where it was promised: the call (`call_…`) or the conversation (`conv_…`); the new call's `callback_of`. */
  callbackOf: string;
  /** The person's number (E.164); null when unknown (an inbound call from a hidden number). */
  to: string | null;
  /**
   * The service number to call from: a call's own; null for a conversation, whose `serviceNumber` is used
   * when it takes voice calls, else another voice number of the organization (none in test mode: simulated).
   */
  from: string | null;
  serviceNumber?: string;
  contactId: string | null;
  /** The tool's arguments. */
  at: string;
  reason: string | null;
}

/** What the tool answers: the text the model is given, and the call made (absent on an error). */
export interface ScheduleCallbackResult {
  text: string;
  callId?: string;
  /** When it rings, unix seconds. */
  scheduledAt?: number;
}

/**
 * Schedules the callback (see the module's comment). Idempotent per `callId`: a retry cancels nothing
 * more (the callback it made is excluded) and finds the call it created, answering its time.
 * @throws only what a retry may cure (the store, Temporal); bad input is the answer's error text
 */
export async function scheduleCallback(
  temporal: Client,
  input: ScheduleCallbackInput,
): Promise<ScheduleCallbackResult> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  const existing = await Call.findById(input.callId).lean();
  if (existing)
    return answer(input.callId, existing.scheduled_at ?? existing.created, null, await callerTimeZone(existing.to));
  if (!input.to) return { text: "Error: the caller's number is unknown, so they cannot be called back." };
  const agent = await findLiveAgent(tenant, input.agentId);
  if (!agent) return { text: 'Error: this assistant no longer exists; callbacks cannot be scheduled.' };
  const tz = await callerTimeZone(input.to);
  const nowMs = Date.now();
  const requestedMs = parseCallbackTime(input.at, tz, nowMs);
  if (typeof requestedMs === 'string') return { text: requestedMs };
  const from = input.from ?? (await voiceNumber(tenant, input.serviceNumber));
  if (input.livemode && !from)
    return { text: 'Error: no phone number of ours can place calls, so no callback can be scheduled.' };
  // The call's number may have been released since (or a caller ID deleted): a callback shows only what
  // the organization still holds (src/services/caller-ids.ts).
  if (input.livemode && from && !(await ownsCallerNumber(tenant, from)))
    return {
      text: 'Error: the number this call came from is no longer ours to call from, so no callback can be scheduled.',
    };
  const agentWindow = agent.calling_window_json ? (JSON.parse(agent.calling_window_json) as CallingWindow) : null;
  let dial: Awaited<ReturnType<typeof dialTime>>;
  try {
    dial = await dialTime({ to: input.to, livemode: input.livemode, agentWindow }, requestedMs, nowMs);
  } catch (err) {
    if (err instanceof ApiError) return { text: `Error: ${err.message} Tell the caller a person will follow up.` };
    throw err;
  }
  await cancelPending(temporal, input);
  // The callback is a new call: its version is picked for the contact now.
  const versioned = await versionedAgent(agent, { contactId: input.contactId, phone: input.to });
  const call = newCallInput(input.callId, { ...tenant, aiDisclosure: await aiDisclosureEnabled(tenant) }, versioned, {
    to: input.to,
    from,
    context: { callback_of: input.callbackOf, ...(input.reason ? { callback_reason: input.reason } : {}) },
    contact_id: input.contactId,
    scheduled_at: dial.later ? Math.ceil(dial.atMs / 1000) : undefined,
    callback_of: input.callbackOf,
  });
  await startCallWorkflow(temporal, call);
  await insertIfAbsent(Call, newCallDocument(call, currentTraceId())); // the workflow writes it too: whichever is first
  return answer(input.callId, call.scheduled_at ?? Math.floor(nowMs / 1000), requestedMs, tz);
}

/** The tool's answer for callback `callId` at unix time `atS`; says so when the window moved it from `requestedMs`. */
function answer(callId: string, atS: number, requestedMs: number | null, tz: string): ScheduleCallbackResult {
  const moved = requestedMs !== null && atS * 1000 > requestedMs + SCHEDULE_BOUNDS.skewMs;
  return {
    callId,
    scheduledAt: atS,
    text:
      `Callback scheduled for ${formatLocalTime(atS * 1000, tz)}, the caller's local time` +
      `${moved ? `, the next time our calling hours allow (asked: ${isoLocal(requestedMs, tz)})` : ''}. Tell the caller this time.`,
  };
}

/**
 * The number a conversation's callback is placed from: `preferred` (the conversation's service number)
 * when it is the organization's and takes voice calls, else the organization's oldest voice number, else null.
 */
async function voiceNumber(
  tenant: { orgId: string; livemode: boolean },
  preferred: string | undefined,
): Promise<string | null> {
  const numbers = await PhoneNumber.find({ org_id: tenant.orgId, livemode: tenant.livemode }).sort({ _id: 1 }).lean();
  const voice = numbers.filter((n) => !n.pending && (n.channels ?? []).includes('voice'));
  return (voice.find((n) => n.number === preferred) ?? voice[0])?.number ?? null;
}

/**
 * Cancels the callbacks still `scheduled` that were promised on the same call or conversation (one pending
 * callback each: the new one replaces them) through their `end` update (`canceled`, `api_ended`), with an
 * update id from the tool call's key so a retry is the same update. One that is no longer live is left.
 */
async function cancelPending(temporal: Client, input: ScheduleCallbackInput): Promise<void> {
  const pending = await Call.find({
    org_id: input.orgId,
    livemode: input.livemode,
    callback_of: input.callbackOf,
    status: 'scheduled',
  }).lean();
  for (const call of pending) {
    if (call._id === input.callId) continue;
    try {
      await temporal.workflow
        .getHandle(callWorkflowId(call._id))
        .executeUpdate(endUpdate, { updateId: `${input.toolCallId}:${call._id}` });
    } catch (err) {
      const notLive =
        err instanceof WorkflowUpdateFailedError &&
        err.cause instanceof ApplicationFailure &&
        err.cause.type === CALL_NOT_LIVE;
      const gone =
        err instanceof WorkflowNotFoundError || /workflow execution already completed/i.test((err as Error).message);
      if (!notLive && !gone) throw err;
    }
  }
}
