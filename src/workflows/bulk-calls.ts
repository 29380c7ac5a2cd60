/**
 * `bulkCallWorkflow`: one bulk call campaign (workflow id = campaign id `bulk_…`), the shape of
 * temporalio/samples-typescript `batch-sliding-window`: a sliding window of at most `maxConcurrency` child
 * `callWorkflow`s that report back by signal, and continue-as-new once per page of contacts so that a
 * 10,000-contact campaign keeps every run's history small.
 *
 * Why signals, not child results: a child's result goes to the run that started it, and that run is gone
 * after continue-as-new; a signal to the campaign's workflow id reaches whichever run is current. Each
 * campaign call reports `bulkCallFinished` with its status and form values (src/workflows/calls.ts). A
 * report that never comes (a call terminated by an operator) cannot hold a slot for ever: past the call's
 * longest possible life the campaign asks the store and Temporal about it (`checkBulkCalls`).
 *
 * Exactly once per attempt: a contact's call id is derived from campaign id, contact index and attempt and
 * recorded before the child starts (`REJECT_DUPLICATE`), and a started child is in the history, so a
 * crash, a replay or a retried start never places a second call; a contact leaves `pending` only through
 * a call's report, a do-not-call check, a cancel or `ends_at`, so none is skipped.
 *
 * Rules: calls start only while the contact's calling window is open (intervals computed by activities,
 * waited for with timers); an unsuccessful outcome listed in `retry.on` is redialed after
 * `retry.intervalMs` until `retry.maxAttempts`; `pause` stops new dials at once (calls in flight finish),
 * `resume` dials again, `cancel` ends every pending contact `canceled` (calls in flight finish); at
 * `endsAtMs` pending contacts end `window_expired`.
 *
 * Store: the workflow is the only writer of its campaign document and result rows after creation; one
 * background writer (`recordBulkCallProgress`) sends whatever changed since its last write, one write at
 * a time, and emits `bulk_call.contact_completed` per final contact and `bulk_call.completed` at the end.
 * Updates resolve once the store shows their effect.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type * as activities from '../activities';
import type { ResultWrite } from '../activities/bulk-calls';
import {
  BULK_CALL_ENDED,
  bulkCallChildId,
  cancelUpdate,
  callFinishedSignal,
  countBucket,
  pauseUpdate,
  progressQuery,
  REDIAL_OUTCOMES,
  resultOfCall,
  resumeUpdate,
  type BulkCallCounts,
  type BulkCallProgress,
  type BulkCallState,
  type BulkCallWorkflowInput,
  type DeferredContact,
  type FinalResultStatus,
  type RedialOutcome,
} from '../shared/bulk-calls';
import { CALL_WORKFLOW, type CallStatus, type CallWorkflow, type CallWorkflowInput } from '../shared/calls';
import type { FormValues } from '../shared/forms';
import { newId } from '../shared/ids';
import { searchAttributeKeys } from '../shared/search-attributes';

/** Our store and the contact pages: retried until they succeed (a store outage delays a campaign, never loses it). */
const store = proxyActivities<typeof activities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The campaign's progress writes (result rows, counts, per-contact events): a write of many rows waits on
 * the store behind the campaign's calls, so it reports progress by heartbeat instead of racing a short
 * start-to-close timeout (a write retried whole on every timeout never finished on a loaded store).
 */
const progressStore = proxyActivities<typeof activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/** Contacts waiting for a window or a redial that a run carries at most; no further page loads past it. */
export const DEFERRED_CAP = 2000;
/** A run continues as new past this many history events even within a page (Temporal suggests it at 4 Ki). */
const HISTORY_EVENTS_LIMIT = 3000;
/** Result rows per store write (runs before `patched('progress-write-batch')`: 500). */
const WRITE_BATCH = 100;
/** Slack over a call's longest possible life before the campaign asks about a call that has not reported. */
const CHECK_MARGIN_MS = 5 * 60_000;
/** How long a live call may ring (src/workflows/calls.ts). */
const LIVE_RING_MS = 60_000;

type Taken = Omit<DeferredContact, 'notBeforeMs'>;

/**
 * Runs a campaign (one page of contacts per run) until every contact has its final result.
 * @returns the final progress (`completed` or `canceled`)
 */
export async function bulkCallWorkflow(input: BulkCallWorkflowInput): Promise<BulkCallProgress> {
  const s: BulkCallState = input.state ?? {
    status: 'running',
    nextIndex: 0,
    page: [],
    deferred: [],
    inFlight: {},
    done: { completed: 0, not_reached: 0, failed: 0, skipped: 0 },
    windows: {},
    pendingEnded: false,
    run: 0,
  };
  s.run += 1;
  let pageLoadedThisRun = false;
  /** Bumped by every signal, update and state change the main loop may be waiting for. */
  let changed = 0;
  /** Result rows to write, latest per contact. */
  const writes = new Map<number, ResultWrite>();
  let endPending: 'canceled' | 'window_expired' | null = null;
  let completedEventId: string | null = null;
  /** What must reach the store (bumped per change) and what has (set after each complete write). */
  let writeVersion = 0;
  let storedVersion = 0;

  const inFlightCount = () => Object.keys(s.inFlight).length;
  const counts = (): BulkCallCounts => {
    const d = s.done;
    const inProgress = inFlightCount();
    return {
      total: input.total,
      pending: input.total - inProgress - d.completed - d.not_reached - d.failed - d.skipped,
      in_progress: inProgress,
      ...d,
    };
  };
  const progress = (): BulkCallProgress => ({
    status: s.status,
    counts: counts(),
    waiting: s.deferred.length,
    run: s.run,
  });
  const touch = () => {
    writeVersion++;
    changed++;
  };
  const stored = async () => {
    const v = writeVersion;
    await condition(() => storedVersion >= v);
  };
  const ended = () =>
    ApplicationFailure.create({
      message: `The campaign is ${s.status}.`,
      type: BULK_CALL_ENDED,
      nonRetryable: true,
      details: [s.status],
    });

  const final = (
    index: number,
    status: FinalResultStatus,
    attempts: number,
    callIds: string[],
    form: FormValues | null,
  ) => {
    s.done[countBucket(status)]++;
    writes.set(index, { index, status, attempts, callIds, form, eventId: newId('evt') });
    touch();
  };

  /** A call ended (its report, or `checkBulkCalls`): redial or record the contact's result. */
  const finishCall = (callId: string, status: CallStatus, form: FormValues | null) => {
    const f = s.inFlight[callId];
    if (!f) return; // reported twice, or not ours
    delete s.inFlight[callId];
    const result = resultOfCall(status);
    const nextAt = Date.now() + input.retry.intervalMs;
    const redial =
      (REDIAL_OUTCOMES as readonly string[]).includes(result) &&
      input.retry.on.includes(result as RedialOutcome) &&
      f.attempt < input.retry.maxAttempts &&
      s.status !== 'canceled' &&
      !s.pendingEnded &&
      (input.endsAtMs === null || nextAt < input.endsAtMs);
    if (redial) {
      s.deferred.push({
        index: f.index,
        attempt: f.attempt + 1,
        notBeforeMs: nextAt,
        zone: f.zone,
        callIds: f.callIds,
      });
      writes.set(f.index, {
        index: f.index,
        status: 'pending',
        attempts: f.attempt,
        callIds: f.callIds,
        eventId: null,
      });
      touch();
    } else final(f.index, result, f.attempt, f.callIds, form);
  };

  /** Pause and resume are refused once the campaign is over (a cancel of a canceled campaign is a no-op). */
  const refuseWhenOver = () => {
    if (s.status === 'completed' || s.status === 'canceled') throw ended();
  };

  setHandler(progressQuery, progress);
  setHandler(callFinishedSignal, (r) => finishCall(r.callId, r.status, r.form));
  setHandler(
    pauseUpdate,
    async () => {
      if (s.status === 'running') {
        s.status = 'paused';
        touch();
      }
      await stored();
      return progress();
    },
    { validator: refuseWhenOver },
  );
  setHandler(
    resumeUpdate,
    async () => {
      if (s.status === 'paused') {
        s.status = 'running';
        touch();
      }
      await stored();
      return progress();
    },
    { validator: refuseWhenOver },
  );
  setHandler(
    cancelUpdate,
    async () => {
      if (s.status === 'running' || s.status === 'paused') {
        s.status = 'canceled';
        touch();
      }
      await condition(() => s.pendingEnded);
      await stored();
      return progress();
    },
    {
      validator: () => {
        if (s.status === 'completed') throw ended();
      },
    },
  );

  if (input.record) await store.ensureBulkCallRecord(input.record);
  void writer();

  for (;;) {
    const now = Date.now();
    if (!s.pendingEnded && (s.status === 'canceled' || (input.endsAtMs !== null && now >= input.endsAtMs))) {
      endPendingContacts(s.status === 'canceled' ? 'canceled' : 'window_expired');
    }
    if (s.nextIndex >= input.total && s.page.length === 0 && s.deferred.length === 0 && inFlightCount() === 0) break;

    const unreported = Object.keys(s.inFlight).filter((id) => s.inFlight[id].checkAtMs <= now);
    if (unreported.length) {
      for (const c of await store.checkBulkCalls({ callIds: unreported })) {
        if (c.status) finishCall(c.callId, c.status, c.form);
        else if (s.inFlight[c.callId]) s.inFlight[c.callId].checkAtMs = Date.now() + CHECK_MARGIN_MS;
      }
      continue;
    }

    const info = workflowInfo();
    if (
      info.continueAsNewSuggested ||
      info.historyLength > HISTORY_EVENTS_LIMIT ||
      (pageLoadedThisRun && s.page.length === 0 && s.nextIndex < input.total)
    ) {
      await condition(() => storedVersion === writeVersion && allHandlersFinished());
      await continueAsNew<typeof bulkCallWorkflow>({ ...input, record: undefined, state: s });
    }

    if (s.status === 'running') {
      const free = input.maxConcurrency - inFlightCount();
      if (free > 0) {
        const { taken, again } = await take(free, now);
        if (taken.length) {
          await dial(taken);
          continue;
        }
        if (again) continue;
      }
    }

    const wake = nextWakeMs(Date.now());
    const seen = changed;
    if (wake === null) await condition(() => changed !== seen);
    else await condition(() => changed !== seen, Math.max(1, wake - Date.now()));
  }

  s.status = s.status === 'canceled' ? 'canceled' : 'completed';
  completedEventId = newId('evt');
  touch();
  await condition(() => storedVersion === writeVersion && allHandlersFinished());
  return progress();

  /** Ends every contact still pending (not loaded, on the page, waiting) with `status` (store: one update). */
  function endPendingContacts(status: 'canceled' | 'window_expired') {
    s.done.skipped += counts().pending;
    s.page = [];
    s.deferred = [];
    s.nextIndex = input.total;
    s.pendingEnded = true;
    endPending = status;
    touch();
  }

  /** `open`, the time it opens, or `unknown` (no intervals left for the zone: ask again). */
  function windowAt(zone: string | null, now: number): 'open' | 'unknown' | { opensAt: number } {
    if (zone === null) return 'open';
    const intervals = s.windows[zone];
    if (!intervals) return 'unknown';
    if (intervals.length === 0) return { opensAt: now + 3_600_000 }; // a window that never opens (not reachable with a valid schedule)
    const next = intervals.find(([, close]) => close > now);
    if (!next) return 'unknown';
    return next[0] <= now ? 'open' : { opensAt: next[0] };
  }

  /**
   * Takes up to `free` contacts to dial now: due redials and window waits first, then the page (loaded if
   * this run has not loaded one yet). Contacts whose window is closed wait in `deferred`.
   * @returns `again` when window intervals were fetched and contacts should be looked at anew
   */
  async function take(free: number, now: number): Promise<{ taken: Taken[]; again: boolean }> {
    const taken: Taken[] = [];
    const refresh = new Set<string>();
    s.deferred.sort((a, b) => a.notBeforeMs - b.notBeforeMs || a.index - b.index);
    const keep: DeferredContact[] = [];
    for (const d of s.deferred) {
      if (taken.length >= free || d.notBeforeMs > now) {
        keep.push(d);
        continue;
      }
      const w = windowAt(d.zone, now);
      if (w === 'open') taken.push({ index: d.index, attempt: d.attempt, zone: d.zone, callIds: d.callIds });
      else {
        if (w === 'unknown') refresh.add(d.zone!);
        else d.notBeforeMs = w.opensAt;
        keep.push(d);
      }
    }
    s.deferred = keep;
    while (taken.length < free && s.deferred.length < DEFERRED_CAP && refresh.size === 0) {
      if (s.page.length === 0) {
        if (s.nextIndex >= input.total || pageLoadedThisRun) break;
        const page = await store.loadBulkCallPage({
          bulkCallId: input.bulkCallId,
          fromIndex: s.nextIndex,
          limit: input.pageSize,
        });
        s.page = page.contacts;
        s.windows = { ...s.windows, ...page.windows };
        s.nextIndex += page.contacts.length;
        pageLoadedThisRun = true;
        continue;
      }
      const c = s.page[0];
      const w = windowAt(c.zone, now);
      if (w === 'unknown') {
        refresh.add(c.zone!);
        break;
      }
      s.page.shift();
      if (w === 'open') taken.push({ index: c.index, attempt: 1, zone: c.zone, callIds: [] });
      else s.deferred.push({ index: c.index, attempt: 1, notBeforeMs: w.opensAt, zone: c.zone, callIds: [] });
    }
    if (refresh.size)
      s.windows = {
        ...s.windows,
        ...(await store.bulkCallWindows({ bulkCallId: input.bulkCallId, zones: [...refresh] })),
      };
    return { taken, again: refresh.size > 0 };
  }

  /** Prepares and starts one call per taken contact (all started in one workflow task). */
  async function dial(taken: Taken[]): Promise<void> {
    const at = Date.now();
    const items = taken.map((t) => ({
      index: t.index,
      attempt: t.attempt,
      callId: bulkCallChildId(input.bulkCallId, t.index, t.attempt, at),
    }));
    const prepared = await store.prepareBulkCalls({ bulkCallId: input.bulkCallId, items });
    // Canceled meanwhile: these contacts are still pending and end `canceled` with the others.
    if (s.status === 'canceled') return;
    const byIndex = new Map(taken.map((t) => [t.index, t]));
    const starts: Promise<void>[] = [];
    for (const p of prepared) {
      const t = byIndex.get(p.index)!;
      if (p.kind === 'do_not_call') final(t.index, 'do_not_call', t.attempt - 1, t.callIds, null);
      else if (p.kind === 'failed') final(t.index, 'failed', t.attempt - 1, t.callIds, null);
      else if (s.status !== 'running')
        s.deferred.push({ ...t, notBeforeMs: at }); // paused meanwhile: dial after resume
      else {
        const callIds = [...t.callIds, p.input.callId];
        s.inFlight[p.input.callId] = {
          index: t.index,
          attempt: t.attempt,
          zone: t.zone,
          callIds,
          checkAtMs: at + callLifetimeMs(p.input) + CHECK_MARGIN_MS,
        };
        writes.set(t.index, { index: t.index, status: 'in_progress', attempts: t.attempt, callIds, eventId: null });
        starts.push(startCall(p.input));
      }
    }
    touch();
    await Promise.all(starts);
  }

  /** Starts a contact's call as a child that outlives this run (`ABANDON`); one already started is fine. */
  async function startCall(call: CallWorkflowInput): Promise<void> {
    try {
      await startChild<CallWorkflow>(CALL_WORKFLOW, {
        workflowId: call.callId,
        args: [call],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        typedSearchAttributes: [
          { key: searchAttributeKeys.CallStatus, value: 'queued' },
          { key: searchAttributeKeys.AgentId, value: call.agent.id },
          { key: searchAttributeKeys.OrgId, value: call.orgId },
          { key: searchAttributeKeys.Livemode, value: call.livemode },
        ],
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return;
      finishCall(call.callId, 'failed', null);
    }
  }

  /** The earliest time the main loop must look again without a signal: a due wait, a call check, `ends_at`. */
  function nextWakeMs(now: number): number | null {
    const times: number[] = [];
    if (s.status === 'running') for (const d of s.deferred) if (d.notBeforeMs > now) times.push(d.notBeforeMs);
    for (const f of Object.values(s.inFlight)) times.push(f.checkAtMs);
    if (input.endsAtMs !== null && !s.pendingEnded) times.push(input.endsAtMs);
    return times.length ? Math.min(...times) : null;
  }

  /** The one writer of the campaign's store records: whatever changed since the last write, one write at a time. */
  async function writer(): Promise<void> {
    for (;;) {
      await condition(() => storedVersion < writeVersion);
      const version = writeVersion;
      const rows = [...writes.values()].slice(0, patched('progress-write-batch') ? WRITE_BATCH : 500);
      for (const r of rows) writes.delete(r.index);
      const last = writes.size === 0;
      const mass = last ? endPending : null;
      const completedEvent = last ? completedEventId : null;
      await progressStore.recordBulkCallProgress({
        bulkCallId: input.bulkCallId,
        atMs: Date.now(),
        rows,
        endPending: mass,
        status: s.status,
        counts: counts(),
        completed: completedEvent !== null,
        completedEventId: completedEvent,
      });
      if (last) {
        if (mass !== null && endPending === mass) endPending = null;
        storedVersion = version;
      }
    }
  }
}

/** Longest life of a call before it must have ended: ringing plus its maximum duration, ms. */
function callLifetimeMs(call: CallWorkflowInput): number {
  return (call.simulation ? call.simulation.ring_seconds * 1000 : LIVE_RING_MS) + call.max_duration_seconds * 1000;
}
