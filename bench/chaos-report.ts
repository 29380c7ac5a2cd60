/**
 * The chaos bench's bookkeeping (bench/chaos.ts): from what one fault's burst recorded (the retrying
 * client's answers per Idempotency-Key, the calls and events the API lists, what the webhook receiver
 * answered, the delivery attempts the service logged), one row of the bench's table, and the table.
 * Pure functions, tested by test/unit/chaos-report.test.ts.
 *
 * The counts:
 *   - lost: keys sent with no call listed for them (the key is the call's `metadata.chaos_key`)
 *   - duplicated calls: calls beyond the first listed for one key
 *   - duplicated events: event ids beyond the first of one type for one call (two `call.ended` for one call)
 *   - undelivered: listed events the receiver never answered 2xx
 *   - duplicated deliveries: 2xx answers to an event id beyond the first that the service itself had logged
 *     as delivered (it knew the event was delivered and sent it again)
 *   - redelivered: 2xx answers beyond the first that the service had not logged as delivered (a crash
 *     between the receiver's 2xx and the service's record of it): the at-least-once repeat the README
 *     documents ("dedupe on `event.id`"), counted apart
 *   - 5xx: answers with a 5xx status the client saw, and of them 503 (`service_unavailable` with
 *     `Retry-After`: a dependency down, the answer owed; any other 5xx is a bug);
 *     refused: transport failures (connection refused or reset, timeouts), counted apart
 *   - failed: calls whose status is `failed`; unfinished: calls not in a terminal status when the bench
 *     stopped waiting
 *   - recovery: from the restart (or, where nothing is restarted, the kill) to the first success after it:
 *     a 2xx to a `POST /v1/calls` sent after it, or for faults the client does not see (worker, webhook
 *     receiver) the first webhook the receiver got after it
 *   - caught up: from the restart to the moment every call was over and every event delivered
 */

/** One answer (or transport failure) the retrying client got for a key; times in ms since the epoch. */
export interface ClientAnswer {
  sentMs: number;
  atMs: number;
  /** The HTTP status; absent on a transport failure. */
  status?: number;
  /** The transport failure (`ECONNREFUSED`, `timeout`...) or the error `code` of a 4xx/5xx body. */
  error?: string;
}

/** What the client did with one Idempotency-Key: every attempt, and the call id of its 200 if it got one. */
export interface KeyRecord {
  key: string;
  answers: ClientAnswer[];
  callId?: string;
}

/** A call as `GET /v1/calls` lists it, with its key (`metadata.chaos_key`). */
export interface ListedCall {
  id: string;
  status: string;
  key?: string;
}

/** An event as `GET /v1/events` lists it, with the id of the call in `data.object`. */
export interface ListedEvent {
  id: string;
  type: string;
  callId?: string;
}

/** One request the webhook receiver answered: the `Svc-Event-Id`, the status it answered, when. */
export interface ReceivedDelivery {
  eventId: string;
  status: number;
  atMs: number;
}

/** One attempt the service logged (`GET /v1/webhook-endpoints/{id}/deliveries`). */
export interface LoggedAttempt {
  eventId: string;
  succeeded: boolean;
}

/** Everything one fault's burst recorded. */
export interface FaultRecord {
  fault: string;
  /** How long the faulty part was down, s (null: killed and left down, or not a process). */
  downS: number | null;
  keys: KeyRecord[];
  calls: ListedCall[];
  events: ListedEvent[];
  received: ReceivedDelivery[];
  attempts: LoggedAttempt[];
  /** The restart (or the kill, when nothing is restarted), ms since the epoch; null for the fault-free run. */
  restartMs: number | null;
  /** What the first success after the restart is: a 2xx to the client, or a webhook received. */
  recoveredBy: 'answer' | 'delivery';
  /** When every call was over and every event delivered, ms since the epoch; null if that never held. */
  caughtUpMs: number | null;
  /** The machine's 1-minute load average when the burst ended. */
  load: number;
}

/** One row of the table. */
export interface FaultRow {
  fault: string;
  downS: number | null;
  keys: number;
  calls: number;
  lost: number;
  duplicatedCalls: number;
  failedCalls: number;
  unfinishedCalls: number;
  answers5xx: number;
  answers503: number;
  refused: number;
  duplicatedEvents: number;
  undelivered: number;
  duplicatedDeliveries: number;
  redelivered: number;
  recoveryS: number | null;
  caughtUpS: number | null;
  load: number;
}

/** Statuses a call does not leave (README "Calls"). */
export const TERMINAL_CALL_STATUSES = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];

/** Adds one to `key`'s count in `map`. */
function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * Deliveries beyond the first of each event id, split by whether the service had logged the event as
 * delivered: `duplicated` (it had: a second delivery it chose to make) and `redelivered` (it had not: the
 * documented at-least-once repeat). For one event answered 2xx `r` times and logged as succeeded `s`
 * times, the `r - 1` extra deliveries are redelivered up to `r - s` and duplicated for the rest.
 */
export function splitRepeats(
  received: ReceivedDelivery[],
  attempts: LoggedAttempt[],
): { duplicated: number; redelivered: number } {
  const answered = new Map<string, number>();
  for (const r of received) if (r.status >= 200 && r.status < 300) bump(answered, r.eventId);
  const logged = new Map<string, number>();
  for (const a of attempts) if (a.succeeded) bump(logged, a.eventId);
  let duplicated = 0;
  let redelivered = 0;
  for (const [eventId, r] of answered) {
    const extra = r - 1;
    const unlogged = Math.max(0, r - (logged.get(eventId) ?? 0));
    const documented = Math.min(extra, unlogged);
    redelivered += documented;
    duplicated += extra - documented;
  }
  return { duplicated, redelivered };
}

/** Seconds from `fromMs` to the first success at or after it (see the module's "recovery"); null if none. */
export function recoverySeconds(record: FaultRecord): number | null {
  const from = record.restartMs;
  if (from === null) return null;
  const times =
    record.recoveredBy === 'answer'
      ? record.keys.flatMap((k) =>
          k.answers.filter((a) => a.sentMs >= from && a.status !== undefined && a.status < 300).map((a) => a.atMs),
        )
      : record.received.filter((r) => r.atMs >= from && r.status < 300).map((r) => r.atMs);
  if (times.length === 0) return null;
  return round1((Math.min(...times) - from) / 1000);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The table row of one fault's record. */
export function faultRow(record: FaultRecord): FaultRow {
  const byKey = new Map<string, number>();
  for (const c of record.calls) if (c.key !== undefined) bump(byKey, c.key);
  const sent = new Set(record.keys.map((k) => k.key));
  let duplicatedCalls = 0;
  for (const [key, n] of byKey) if (sent.has(key)) duplicatedCalls += n - 1;
  const perCallType = new Map<string, number>();
  for (const e of record.events) if (e.callId) bump(perCallType, `${e.callId} ${e.type}`);
  let duplicatedEvents = 0;
  for (const n of perCallType.values()) duplicatedEvents += n - 1;
  const delivered = new Set(record.received.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.eventId));
  const answers = record.keys.flatMap((k) => k.answers);
  const { duplicated, redelivered } = splitRepeats(record.received, record.attempts);
  const mine = record.calls.filter((c) => c.key !== undefined && sent.has(c.key));
  return {
    fault: record.fault,
    downS: record.downS,
    keys: sent.size,
    calls: mine.length,
    lost: [...sent].filter((key) => !byKey.has(key)).length,
    duplicatedCalls,
    failedCalls: mine.filter((c) => c.status === 'failed').length,
    unfinishedCalls: mine.filter((c) => !TERMINAL_CALL_STATUSES.includes(c.status)).length,
    answers5xx: answers.filter((a) => a.status !== undefined && a.status >= 500).length,
    answers503: answers.filter((a) => a.status === 503).length,
    refused: answers.filter((a) => a.status === undefined).length,
    duplicatedEvents,
    undelivered: record.events.filter((e) => !delivered.has(e.id)).length,
    duplicatedDeliveries: duplicated,
    redelivered,
    recoveryS: recoverySeconds(record),
    caughtUpS:
      record.restartMs === null || record.caughtUpMs === null
        ? null
        : round1(Math.max(0, record.caughtUpMs - record.restartMs) / 1000),
    load: round1(record.load),
  };
}

/** The columns of the table: header and how a row shows it. */
const COLUMNS: [string, (r: FaultRow) => string | number][] = [
  ['fault', (r) => r.fault],
  ['down s', (r) => r.downS ?? '–'],
  ['keys', (r) => r.keys],
  ['calls', (r) => r.calls],
  ['lost', (r) => r.lost],
  ['dup calls', (r) => r.duplicatedCalls],
  ['failed', (r) => r.failedCalls],
  ['unfinished', (r) => r.unfinishedCalls],
  ['5xx', (r) => r.answers5xx],
  ['of them 503', (r) => r.answers503],
  ['refused', (r) => r.refused],
  ['dup events', (r) => r.duplicatedEvents],
  ['undelivered', (r) => r.undelivered],
  ['dup deliveries', (r) => r.duplicatedDeliveries],
  ['redelivered', (r) => r.redelivered],
  ['recovery s', (r) => r.recoveryS ?? '–'],
  ['caught up s', (r) => r.caughtUpS ?? '–'],
  ['load', (r) => r.load],
];

/** The rows as a Markdown table (the README's), one line per fault. */
export function renderTable(rows: FaultRow[]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    line(COLUMNS.map(([h]) => h)),
    line(COLUMNS.map(() => '---')),
    ...rows.map((r) => line(COLUMNS.map(([, show]) => show(r)))),
  ].join('\n');
}
