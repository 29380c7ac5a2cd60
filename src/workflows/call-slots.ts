/**
 * `callSlotsWorkflow`: an organization's concurrent calls in one mode, counted, so none exceeds its
 * `max_concurrent_calls`. One long-lived run per organization and mode (workflow id
 * `call-slots:org_…:live`, started by the first request for a slot, an update-with-start), a counting
 * semaphore in the shape of the Temporal samples' `mutex` (temporalio/samples-typescript `mutex`): requests come in as updates (answered
 * at once: granted, refused, or in line) or as `queueCall` signals (an outbound call placed through the
 * API: no answer, its grant is told like a later one), later grants go out as signals to the waiting call's workflow
 * (its id is the call id); releases come in as signals.
 *
 * Requests come one per update (`tryAcquireSlot`) or, from this service's processes, gathered per process
 * (`tryAcquireSlots`: a burst of requests costs one update in flight per process, not one per request).
 *
 * Rules (src/shared/call-slots.ts):
 * - at most `limit` holders; a request granted at once only when a slot is free and nobody waits;
 * - waiting calls are granted in the order they were created (first come first served: call ids are
 *   time-ordered), as slots free up or the limit is raised; a lowered limit takes no slot back, it only
 *   grants nothing until the calls are below it;
 * - a grant is told to the call's workflow by signal (again, a second apart, while it does not run yet),
 *   the grants of one workflow task together by one local activity (`tellGranted`);
 * - every `CALL_SLOTS_AUDIT_MS` while slots are held, the `endedCalls` activity names holders whose
 *   call's workflow closed without releasing (terminated) or never started (after a grace), and their
 *   slots are freed: a slot is never leaked.
 * - Bounded history: continues as new when Temporal suggests it or after `REQUESTS_PER_RUN` requests,
 *   carrying the holders, the queue and the grants not told yet.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
  setWorkflowOptions,
} from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as slotActivities from '../activities/call-slots';
import {
  CALL_SLOTS_AUDIT_MS,
  limitChangedSignal,
  queueCallSignal,
  queueCallsSignal,
  releaseSlotSignal,
  slotsQuery,
  tryAcquireSlotUpdate,
  tryAcquireSlotsUpdate,
  type CallSlotsInput,
  type CallSlotsWorkflow,
  type SlotAnswer,
  type SlotHolder,
  type SlotWaiter,
} from '../shared/call-slots';
import { PASS_RETRY } from './retry';

const { endedCalls } = proxyActivities<typeof slotActivities>({ startToCloseTimeout: '30 seconds', retry: PASS_RETRY });

/**
 * Tells granted calls (src/activities/call-slots.ts `tellGranted`); it answers the calls not told, and never
 * fails for them. A local activity holds the semaphore's workflow task open while it runs (updates asking
 * for slots wait for the next task), so it is given 5 s: a batch cut short is told again a second later.
 */
const { tellGranted } = proxyLocalActivities<typeof slotActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { maximumAttempts: 1 },
});

/**
 * Requests and releases one run handles before it continues as new: well under Temporal's cap of updates
 * per run (`history.maxTotalUpdates`, 2,000) and its history limits, whatever the server suggests.
 */
const REQUESTS_PER_RUN = 1000;

/** How many times a grant is told to a call's workflow that does not run (yet), a second apart. */
const TELL_ATTEMPTS = 5;

/** A limit as sent by a requester: an integer 1–1,000, else the one kept. */
const saneLimit = (limit: unknown, kept: number): number =>
  typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 1000 ? limit : kept;

/**
 * The semaphore's audit, on its own timer (one timer per audit, where a wait with a
 * timeout in the main loop started and cancelled a timer at every request, two history events and a
 * timer task each): every `everyMs` while slots are held, the `endedCalls` activity names the holders
 * whose call's workflow closed without freeing its slot (terminated) or never started (after a grace),
 * and their slots are freed. Never returns.
 * @param slots the count of holders, the holders with the time of their grant, and how to free one
 * @param busy told `true` while an audit's activity runs, `false` after (a new run waits for it)
 */
async function auditForever(
  slots: { count: () => number; held: () => SlotHolder[]; release: (callId: string) => void },
  everyMs: number,
  busy: (auditing: boolean) => void,
): Promise<never> {
  for (;;) {
    await condition(() => slots.count() > 0);
    await sleep(everyMs);
    if (slots.count() === 0) continue;
    busy(true);
    try {
      const gone = await endedCalls({ holders: slots.held() }).catch(() => [] as string[]);
      for (const callId of gone) {
        log.warn('call slot: freed for a call whose workflow is not running', { call_id: callId });
        slots.release(callId);
      }
    } finally {
      busy(false);
    }
  }
}

/**
 * One run's semaphore: the limit, the holders, the line of waiting calls, the grants not told yet, and
 * the bookkeeping of the run (requests handled, tells in flight). Its methods are the handlers' bodies.
 */
class SlotSemaphore {
  limit: number;
  /** Call id → since when it holds a slot (epoch ms). */
  readonly holders: Map<string, number>;
  readonly queue: SlotWaiter[];
  /** Calls granted whose workflows are not told yet. */
  readonly toTell: string[];
  /** Tells in flight (a new run waits for them). */
  telling = 0;
  /** Requests and releases this run has handled (Temporal caps a run's updates: `history.maxTotalUpdates`). */
  handled = 0;

  /** @param input the organization, mode and limit; a continued run's holders, queue and grants not told */
  constructor(input: CallSlotsInput) {
    this.limit = saneLimit(input.limit, 10);
    this.holders = new Map<string, number>((input.holders ?? []).map((h) => [h.callId, h.sinceMs]));
    this.queue = [...(input.queue ?? [])];
    this.toTell = [...(input.tell ?? [])];
  }

  /** Queues a grant to tell, once per call. */
  tellOnce(callId: string): void {
    if (!this.toTell.includes(callId)) this.toTell.push(callId);
  }

  /** Grants the waiting calls, first in line first, while slots are free. */
  grantWaiting(): void {
    while (this.queue.length > 0 && this.holders.size < this.limit) {
      const next = this.queue.shift()!;
      this.holders.set(next.callId, Date.now());
      this.toTell.push(next.callId);
    }
  }

  /** Frees `callId`'s slot (or its place in line), then grants the next waiting calls. */
  release(callId: string): void {
    this.holders.delete(callId);
    const i = this.queue.findIndex((w) => w.callId === callId);
    if (i >= 0) this.queue.splice(i, 1);
    this.grantWaiting();
  }

  /** A new limit (an invalid one keeps the old), then grants the waiting calls it allows. */
  setLimit(sent: unknown): void {
    this.limit = saneLimit(sent, this.limit);
    this.grantWaiting();
  }

  /**
   * A request for a slot: granted at once when one is free and nobody waits; else, with `wait`, put in
   * line by creation (call ids are time-ordered, src/shared/ids.ts: a call created earlier whose request
   * comes a moment later still dials first). Idempotent per call id.
   */
  ask(callId: string, sent: number, wait: boolean): SlotAnswer {
    const { holders, queue } = this;
    this.handled++;
    this.limit = saneLimit(sent, this.limit);
    this.grantWaiting();
    if (!holders.has(callId) && queue.length === 0 && holders.size < this.limit) holders.set(callId, Date.now());
    if (holders.has(callId)) return { granted: true, active: holders.size, limit: this.limit };
    let place = queue.findIndex((w) => w.callId === callId);
    if (place < 0 && wait) {
      place = queue.findIndex((w) => w.callId > callId);
      if (place < 0) place = queue.length;
      queue.splice(place, 0, { callId, sinceMs: Date.now() });
    }
    return { granted: false, active: holders.size, limit: this.limit, ...(place >= 0 ? { position: place + 1 } : {}) };
  }

  /** A call put in line without an answer (`queueCall`): a slot granted at once is told like a later grant. */
  queueCall(callId: string, sent: number): void {
    if (this.ask(callId, sent, true).granted) this.tellOnce(callId);
  }

  /** The holders with the time of their grant. */
  held(): SlotHolder[] {
    return [...this.holders].map(([callId, sinceMs]) => ({ callId, sinceMs }));
  }

  /**
   * Tells granted calls' workflows, all of one workflow task's grants in one local activity (one marker
   * in the history, where a SignalExternal per grant cost two events and a further workflow task). Calls
   * not running yet (their API asked just before starting them) are told again, up to `TELL_ATTEMPTS`
   * times a second apart; past them, the slot stays until the audit finds the call's workflow closed or
   * never started.
   */
  async tellAll(callIds: string[]): Promise<void> {
    this.telling++;
    try {
      let untold = callIds;
      for (let attempt = 1; ; attempt++) {
        untold = await tellGranted({ callIds: untold }).catch(() => untold);
        if (untold.length === 0) return;
        if (attempt >= TELL_ATTEMPTS) {
          log.warn('call slot: granted calls not running; the audit frees them if they never do', {
            call_ids: untold,
          });
          return;
        }
        await sleep(1000);
      }
    } finally {
      this.telling--;
    }
  }
}

/**
 * Counts one organization's calls in one mode; never returns on its own (it continues as new).
 * @param input the organization, mode and limit; a continued run's holders and queue
 */
export async function callSlotsWorkflow(input: CallSlotsInput): Promise<void> {
  const slots = new SlotSemaphore(input);
  setHandler(releaseSlotSignal, ({ callId }) => {
    slots.handled++;
    slots.release(callId);
  });
  setHandler(limitChangedSignal, ({ limit: sent }) => slots.setLimit(sent));
  setHandler(tryAcquireSlotUpdate, ({ callId, limit: sent, queue: wait }) => slots.ask(callId, sent, wait === true));
  setHandler(tryAcquireSlotsUpdate, ({ requests }) =>
    [requests].flat().map(({ callId, limit: sent, queue: wait }) => slots.ask(callId, sent, wait === true)),
  );
  setHandler(queueCallSignal, ({ callId, limit: sent }) => slots.queueCall(callId, sent));
  setHandler(queueCallsSignal, ({ callIds, limit: sent }) =>
    [callIds].flat().forEach((id) => slots.queueCall(id, sent)),
  );
  setHandler(slotsQuery, () => ({ limit: slots.limit, holders: slots.held(), queue: [...slots.queue] }));

  const auditMs = input.auditMs ?? CALL_SLOTS_AUDIT_MS;
  let auditing = false;
  void auditForever(
    { count: () => slots.holders.size, held: () => slots.held(), release: (callId) => slots.release(callId) },
    auditMs,
    (busy) => (auditing = busy),
  );

  const newRunDue = () => workflowInfo().continueAsNewSuggested || slots.handled >= REQUESTS_PER_RUN;
  for (;;) {
    // Sleeps until there is a grant to tell or a new run is due.
    await condition(() => slots.toTell.length > 0 || newRunDue());
    if (slots.toTell.length > 0) void slots.tellAll(slots.toTell.splice(0));
    if (newRunDue()) {
      await condition(() => slots.telling === 0 && !auditing && allHandlersFinished());
      return await continueAsNew<CallSlotsWorkflow>({
        orgId: input.orgId,
        livemode: input.livemode,
        limit: slots.limit,
        holders: slots.held(),
        queue: slots.queue,
        tell: slots.toTell.splice(0),
        ...(input.auditMs !== undefined ? { auditMs: input.auditMs } : {}),
      });
    }
  }
}

// Worker Versioning (src/shared/deployments.ts): Never ends: moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), callSlotsWorkflow);
