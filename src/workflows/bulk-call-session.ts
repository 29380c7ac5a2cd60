/**
 * `BulkCallSession`: the state and the steps of one `bulkCallWorkflow` run (src/workflows/bulk-calls.ts
 * registers its handlers and runs its loop), the shape of temporalio/samples-typescript
 * `safe-message-handlers`' `ClusterManager`: the handlers change the state and wait for the store, the
 * main loop (`run`) ends pending contacts, asks about unreported calls, dials what is due or waits, and one
 * background writer (`writer`) sends whatever changed to the store.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type * as bulkCalls from '../activities/bulk-calls';
import type { ResultWrite } from '../activities/bulk-calls';
import {
  BULK_CALL_ENDED,
  bulkCallChildId,
  countBucket,
  REDIAL_OUTCOMES,
  resultOfCall,
  type BulkCallCounts,
  type BulkCallProgress,
  type BulkCallState,
  type BulkCallWorkflowInput,
  type CallFinished,
  type DeferredContact,
  type FinalResultStatus,
  type RedialOutcome,
} from '../shared/bulk-calls';
import {
  CALL_WORKFLOW,
  type CallStatus,
  type CallWorkflow,
  type CallWorkflowInput,
  type EndReason,
} from '../shared/calls';
import type { FormValues } from '../shared/forms';
import { newId } from '../shared/ids';
import { searchAttributeKeys } from '../shared/search-attributes';
import { UNTIL_STORED } from './retry';

/** Our store and the contact pages: retried until they succeed (a store outage delays a campaign, never loses it). */
const store = proxyActivities<typeof bulkCalls>({ startToCloseTimeout: '60 seconds', retry: UNTIL_STORED });

/**
 * The campaign's progress writes (result rows, counts, per-contact events): a write of many rows waits on
 * the store behind the campaign's calls, so it reports progress by heartbeat instead of racing a short
 * start-to-close timeout (a write retried whole on every timeout never finished on a loaded store).
 */
const progressStore = proxyActivities<typeof bulkCalls>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '60 seconds',
  retry: UNTIL_STORED,
});

/** Contacts waiting for a window or a redial that a run carries at most; no further page loads past it. */
export const DEFERRED_CAP = 2000;
/** A run continues as new past this many history events even within a page (Temporal suggests it at 4 Ki). */
const HISTORY_EVENTS_LIMIT = 3000;
/** Result rows per store write. */
const WRITE_BATCH = 100;
/** Slack over a call's longest possible life before the campaign asks about a call that has not reported. */
const CHECK_MARGIN_MS = 5 * 60_000;
/** How long a live call may ring (src/workflows/calls.ts). */
const LIVE_RING_MS = 60_000;

/** A contact taken to be dialled now: which attempt, its window's zone, and the calls of its earlier attempts. */
type Taken = Omit<DeferredContact, 'notBeforeMs'>;

/**
 * One campaign run's state (`BulkCallState`, carried over continue-as-new) and what its handlers, main loop
 * and store writer do with it. Only the workflow function creates it, once per run.
 */
export class BulkCallSession {
  private readonly s: BulkCallState;
  private pageLoadedThisRun = false;
  /** Bumped by every signal, update and state change the main loop may be waiting for. */
  private changed = 0;
  /** Result rows to write, latest per contact. */
  private readonly writes = new Map<number, ResultWrite>();
  /** Pending contacts to end in the store with the next complete write (a cancel or `ends_at`). */
  private endPending: 'canceled' | 'window_expired' | null = null;
  private completedEventId: string | null = null;
  /** What must reach the store (bumped per change) and what has (set after each complete write). */
  private writeVersion = 0;
  private storedVersion = 0;

  /** @param input the campaign, and the state carried by a continue-as-new (if any) */
  constructor(private readonly input: BulkCallWorkflowInput) {
    this.s = input.state ?? {
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
    this.s.run += 1;
  }

  /** `progress` query (and what the updates return): status, counts, contacts waiting, run number. */
  progress(): BulkCallProgress {
    return { status: this.s.status, counts: this.counts(), waiting: this.s.deferred.length, run: this.s.run };
  }

  /** `bulkCallFinished` signal: a campaign call reports its end. */
  callFinished(report: CallFinished): void {
    this.finishCall(report.callId, report.status, report.form, report.endReason);
  }

  /** `pause` update: stops new dials (calls in flight finish); resolves once the store shows it. */
  pause(): Promise<BulkCallProgress> {
    return this.moveStatus('running', 'paused');
  }

  /** `resume` update: dials again; resolves once the store shows it. */
  resume(): Promise<BulkCallProgress> {
    return this.moveStatus('paused', 'running');
  }

  /** `cancel` update: every pending contact ends `canceled` (calls in flight finish); resolves once stored. */
  async cancel(): Promise<BulkCallProgress> {
    if (this.s.status === 'running' || this.s.status === 'paused') {
      this.s.status = 'canceled';
      this.touch();
    }
    await condition(() => this.s.pendingEnded);
    await this.stored();
    return this.progress();
  }

  /**
   * Validator of `pause` and `resume`: refused once the campaign is over.
   * @throws ApplicationFailure of type `BULK_CALL_ENDED` (non-retryable), details `[status]`
   */
  refuseWhenOver(): void {
    if (this.s.status === 'completed' || this.s.status === 'canceled') throw this.ended();
  }

  /**
   * Validator of `cancel`: refused once completed (a cancel of a canceled campaign is a no-op).
   * @throws ApplicationFailure of type `BULK_CALL_ENDED` (non-retryable), details `[status]`
   */
  refuseWhenCompleted(): void {
    if (this.s.status === 'completed') throw this.ended();
  }

  /** First run: inserts the campaign's document if absent (`ensureBulkCallRecord`); then starts the writer. */
  async start(): Promise<void> {
    if (this.input.record) await store.ensureBulkCallRecord(this.input.record);
    void this.writer();
  }

  /**
   * The main loop, until every contact has its final result or the run must continue as new: ends pending
   * contacts on cancel or `ends_at`, asks about calls past their longest life, dials what is due, or else
   * waits for a signal, an update or the next due time (`nextWakeMs`). Its awaits are the workflow's own
   * (no helper is awaited between them), so its commands keep their order beside the writer's.
   * @returns `done` once every contact has its final result (the campaign then ends `completed` or
   *   `canceled`, see `finished`), `continue-as-new` when this run's page is done or its history is long
   */
  async run(): Promise<'done' | 'continue-as-new'> {
    const s = this.s;
    for (;;) {
      const now = Date.now();
      if (
        !s.pendingEnded &&
        (s.status === 'canceled' || (this.input.endsAtMs !== null && now >= this.input.endsAtMs))
      ) {
        this.endPendingContacts(s.status === 'canceled' ? 'canceled' : 'window_expired');
      }
      if (
        s.nextIndex >= this.input.total &&
        s.page.length === 0 &&
        s.deferred.length === 0 &&
        this.inFlightCount() === 0
      )
        break;
      const unreported = Object.keys(s.inFlight).filter((id) => s.inFlight[id].checkAtMs <= now);
      if (unreported.length) {
        for (const c of await store.checkBulkCalls({ callIds: unreported })) {
          if (c.status) this.finishCall(c.callId, c.status, c.form, c.endReason);
          else if (s.inFlight[c.callId]) s.inFlight[c.callId].checkAtMs = Date.now() + CHECK_MARGIN_MS;
        }
        continue;
      }
      if (this.shouldContinueAsNew()) return 'continue-as-new';
      const free = s.status === 'running' ? this.input.maxConcurrency - this.inFlightCount() : 0;
      if (free > 0) {
        const { taken, again } = await this.take(free, now);
        if (taken.length) {
          await this.dial(taken);
          continue;
        }
        if (again) continue;
      }
      const wake = this.nextWakeMs(Date.now());
      const seen = this.changed;
      if (wake === null) await condition(() => this.changed !== seen);
      else await condition(() => this.changed !== seen, Math.max(1, wake - Date.now()));
    }
    s.status = s.status === 'canceled' ? 'canceled' : 'completed';
    this.completedEventId = newId('evt');
    this.touch();
    return 'done';
  }

  /**
   * Before a continue-as-new: waits until the store has every change and no handler runs.
   * @returns the next run's input (no record to insert, the state carried)
   */
  async drain(): Promise<BulkCallWorkflowInput> {
    await condition(() => this.storedVersion === this.writeVersion && allHandlersFinished());
    return { ...this.input, record: undefined, state: this.s };
  }

  /**
   * After `run` is `done`: waits until the store has the end (`bulk_call.completed`) and no handler runs.
   * @returns the final progress (`completed` or `canceled`)
   */
  async finished(): Promise<BulkCallProgress> {
    await condition(() => this.storedVersion === this.writeVersion && allHandlersFinished());
    return this.progress();
  }

  /** This run's page is done (more contacts remain), or Temporal suggests a new run, or the history is long. */
  private shouldContinueAsNew(): boolean {
    const info = workflowInfo();
    return (
      info.continueAsNewSuggested ||
      info.historyLength > HISTORY_EVENTS_LIMIT ||
      (this.pageLoadedThisRun && this.s.page.length === 0 && this.s.nextIndex < this.input.total)
    );
  }

  /** Moves the campaign from `from` to `to` (nothing when it is not `from`), then waits for the store. */
  private async moveStatus(from: 'running' | 'paused', to: 'running' | 'paused'): Promise<BulkCallProgress> {
    if (this.s.status === from) {
      this.s.status = to;
      this.touch();
    }
    await this.stored();
    return this.progress();
  }

  private inFlightCount(): number {
    return Object.keys(this.s.inFlight).length;
  }

  private counts(): BulkCallCounts {
    const d = this.s.done;
    const inProgress = this.inFlightCount();
    return {
      total: this.input.total,
      pending: this.input.total - inProgress - d.completed - d.not_reached - d.failed - d.skipped,
      in_progress: inProgress,
      ...d,
    };
  }

  /** Marks a change the store must see and the main loop may be waiting for. */
  private touch(): void {
    this.writeVersion++;
    this.changed++;
  }

  /** Resolves once the store has every change made so far. */
  private async stored(): Promise<void> {
    const v = this.writeVersion;
    await condition(() => this.storedVersion >= v);
  }

  private ended(): ApplicationFailure {
    return ApplicationFailure.create({
      message: `The campaign is ${this.s.status}.`,
      type: BULK_CALL_ENDED,
      nonRetryable: true,
      details: [this.s.status],
    });
  }

  /** Records a contact's final result (counted now, written by the writer with its event). */
  private final(
    index: number,
    status: FinalResultStatus,
    attempts: number,
    callIds: string[],
    form: FormValues | null,
  ) {
    this.s.done[countBucket(status)]++;
    this.writes.set(index, { index, status, attempts, callIds, form, eventId: newId('evt') });
    this.touch();
  }

  /**
   * A call ended (its report, or `checkBulkCalls`): redial or record the contact's result (`voicemail`
   * for a call a machine answered, `end_reason` `voicemail`).
   */
  private finishCall(
    callId: string,
    status: CallStatus,
    form: FormValues | null,
    endReason: EndReason | null = null,
  ): void {
    const s = this.s;
    const f = s.inFlight[callId];
    if (!f) return; // reported twice, or not ours
    delete s.inFlight[callId];
    const result = resultOfCall(status, endReason);
    const nextAt = Date.now() + this.input.retry.intervalMs;
    const redial =
      (REDIAL_OUTCOMES as readonly string[]).includes(result) &&
      this.input.retry.on.includes(result as RedialOutcome) &&
      f.attempt < this.input.retry.maxAttempts &&
      s.status !== 'canceled' &&
      !s.pendingEnded &&
      (this.input.endsAtMs === null || nextAt < this.input.endsAtMs);
    if (redial) {
      s.deferred.push({
        index: f.index,
        attempt: f.attempt + 1,
        notBeforeMs: nextAt,
        zone: f.zone,
        callIds: f.callIds,
      });
      this.writes.set(f.index, {
        index: f.index,
        status: 'pending',
        attempts: f.attempt,
        callIds: f.callIds,
        eventId: null,
      });
      this.touch();
    } else this.final(f.index, result, f.attempt, f.callIds, form);
  }

  /** Ends every contact still pending (not loaded, on the page, waiting) with `status` (store: one update). */
  private endPendingContacts(status: 'canceled' | 'window_expired'): void {
    this.s.done.skipped += this.counts().pending;
    this.s.page = [];
    this.s.deferred = [];
    this.s.nextIndex = this.input.total;
    this.s.pendingEnded = true;
    this.endPending = status;
    this.touch();
  }

  /** `open`, the time it opens, or `unknown` (no intervals left for the zone: ask again). */
  private windowAt(zone: string | null, now: number): 'open' | 'unknown' | { opensAt: number } {
    if (zone === null) return 'open';
    const intervals = this.s.windows[zone];
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
  private async take(free: number, now: number): Promise<{ taken: Taken[]; again: boolean }> {
    const s = this.s;
    const refresh = new Set<string>();
    const taken = this.takeDeferred(free, now, refresh);
    while (taken.length < free && s.deferred.length < DEFERRED_CAP && refresh.size === 0) {
      if (s.page.length === 0) {
        if (s.nextIndex >= this.input.total || this.pageLoadedThisRun) break;
        const page = await store.loadBulkCallPage({
          bulkCallId: this.input.bulkCallId,
          fromIndex: s.nextIndex,
          limit: this.input.pageSize,
        });
        s.page = page.contacts;
        s.windows = { ...s.windows, ...page.windows };
        s.nextIndex += page.contacts.length;
        this.pageLoadedThisRun = true;
        continue;
      }
      const c = s.page[0];
      const w = this.windowAt(c.zone, now);
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
        ...(await store.bulkCallWindows({ bulkCallId: this.input.bulkCallId, zones: [...refresh] })),
      };
    return { taken, again: refresh.size > 0 };
  }

  /**
   * Takes up to `free` deferred contacts that are due and whose window is open, in due order; moves a
   * closed window's wait to its opening and adds a zone without known intervals to `refresh`.
   */
  private takeDeferred(free: number, now: number, refresh: Set<string>): Taken[] {
    const taken: Taken[] = [];
    this.s.deferred.sort((a, b) => a.notBeforeMs - b.notBeforeMs || a.index - b.index);
    const keep: DeferredContact[] = [];
    for (const d of this.s.deferred) {
      if (taken.length >= free || d.notBeforeMs > now) {
        keep.push(d);
        continue;
      }
      const w = this.windowAt(d.zone, now);
      if (w === 'open') taken.push({ index: d.index, attempt: d.attempt, zone: d.zone, callIds: d.callIds });
      else {
        if (w === 'unknown') refresh.add(d.zone!);
        else d.notBeforeMs = w.opensAt;
        keep.push(d);
      }
    }
    this.s.deferred = keep;
    return taken;
  }

  /** Prepares and starts one call per taken contact (all started in one workflow task). */
  private async dial(taken: Taken[]): Promise<void> {
    const s = this.s;
    const at = Date.now();
    const items = taken.map((t) => ({
      index: t.index,
      attempt: t.attempt,
      callId: bulkCallChildId(this.input.bulkCallId, t.index, t.attempt, at),
    }));
    const prepared = await store.prepareBulkCalls({ bulkCallId: this.input.bulkCallId, items });
    // Canceled meanwhile: these contacts are still pending and end `canceled` with the others.
    if (s.status === 'canceled') return;
    const byIndex = new Map(taken.map((t) => [t.index, t]));
    const starts: Promise<void>[] = [];
    for (const p of prepared) {
      const t = byIndex.get(p.index)!;
      if (p.kind === 'do_not_call') this.final(t.index, 'do_not_call', t.attempt - 1, t.callIds, null);
      else if (p.kind === 'failed') this.final(t.index, 'failed', t.attempt - 1, t.callIds, null);
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
        this.writes.set(t.index, {
          index: t.index,
          status: 'in_progress',
          attempts: t.attempt,
          callIds,
          eventId: null,
        });
        starts.push(this.startCall(p.input));
      }
    }
    this.touch();
    await Promise.all(starts);
  }

  /** Starts a contact's call as a child that outlives this run (`ABANDON`); one already started is fine. */
  private async startCall(call: CallWorkflowInput): Promise<void> {
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
      this.finishCall(call.callId, 'failed', null);
    }
  }

  /** The earliest time the main loop must look again without a signal: a due wait, a call check, `ends_at`. */
  private nextWakeMs(now: number): number | null {
    const times: number[] = [];
    if (this.s.status === 'running')
      for (const d of this.s.deferred) if (d.notBeforeMs > now) times.push(d.notBeforeMs);
    for (const f of Object.values(this.s.inFlight)) times.push(f.checkAtMs);
    if (this.input.endsAtMs !== null && !this.s.pendingEnded) times.push(this.input.endsAtMs);
    return times.length ? Math.min(...times) : null;
  }

  /**
   * The one writer of the campaign's store records (`recordBulkCallProgress`): whatever changed since the
   * last write, at most `WRITE_BATCH` rows per write, one write at a time (never returns).
   */
  private async writer(): Promise<void> {
    for (;;) {
      await condition(() => this.storedVersion < this.writeVersion);
      const version = this.writeVersion;
      const rows = [...this.writes.values()].slice(0, WRITE_BATCH);
      for (const r of rows) this.writes.delete(r.index);
      const last = this.writes.size === 0;
      const mass = last ? this.endPending : null;
      const completedEvent = last ? this.completedEventId : null;
      await progressStore.recordBulkCallProgress({
        bulkCallId: this.input.bulkCallId,
        atMs: Date.now(),
        rows,
        endPending: mass,
        status: this.s.status,
        counts: this.counts(),
        completed: completedEvent !== null,
        completedEventId: completedEvent,
      });
      if (last) {
        if (mass !== null && this.endPending === mass) this.endPending = null;
        this.storedVersion = version;
      }
    }
  }
}

/** Longest life of a call before it must have ended: ringing plus its maximum duration, ms. */
function callLifetimeMs(call: CallWorkflowInput): number {
  return (call.simulation ? call.simulation.ring_seconds * 1000 : LIVE_RING_MS) + call.max_duration_seconds * 1000;
}
