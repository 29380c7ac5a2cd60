/**
 * `callSlotsWorkflow`: an organization's concurrent calls in one mode, counted (issue 28, item 5). One
 * long-lived run per organization and mode (workflow id `call-slots:org_…:live`, started by the first
 * request for a slot, an update-with-start), a counting semaphore in the shape of the
 * Temporal samples' `mutex` (temporalio/samples-typescript `mutex`): requests come in as updates (answered
 * at once: granted, refused, or in line) or as `queueCall` signals (an outbound call placed through the
 * API: no answer, its grant is told like a later one), later grants go out as signals to the waiting call's workflow
 * (its id is the call id); releases come in as signals.
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
} from '@temporalio/workflow';
import type * as slotActivities from '../activities/call-slots';
import {
  CALL_SLOTS_AUDIT_MS,
  limitChangedSignal,
  queueCallSignal,
  queueCallsSignal,
  releaseSlotSignal,
  slotsQuery,
  tryAcquireSlotUpdate,
  type CallSlotsInput,
  type CallSlotsWorkflow,
  type SlotAnswer,
  type SlotHolder,
  type SlotWaiter,
} from '../shared/call-slots';

const { endedCalls } = proxyActivities<typeof slotActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

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
 * The semaphore's audit, on its own timer (issue 32 item 5: one timer per audit, where a wait with a
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
 * Counts one organization's calls in one mode; never returns on its own (it continues as new).
 * @param input the organization, mode and limit; a continued run's holders and queue
 */
export async function callSlotsWorkflow(input: CallSlotsInput): Promise<void> {
  let limit = saneLimit(input.limit, 10);
  /** Call id → since when it holds a slot (epoch ms). */
  const holders = new Map<string, number>((input.holders ?? []).map((h) => [h.callId, h.sinceMs]));
  const queue: SlotWaiter[] = [...(input.queue ?? [])];
  /** Calls granted whose workflows are not told yet. */
  const toTell: string[] = [...(input.tell ?? [])];
  const tellOnce = (callId: string) => toTell.includes(callId) || toTell.push(callId);
  let telling = 0;
  /** Requests and releases this run has handled (Temporal caps a run's updates: `history.maxTotalUpdates`). */
  let handled = 0;

  const grantWaiting = () => {
    while (queue.length > 0 && holders.size < limit) {
      const next = queue.shift()!;
      holders.set(next.callId, Date.now());
      toTell.push(next.callId);
    }
  };
  const release = (callId: string) => {
    holders.delete(callId);
    const i = queue.findIndex((w) => w.callId === callId);
    if (i >= 0) queue.splice(i, 1);
    grantWaiting();
  };

  setHandler(releaseSlotSignal, ({ callId }) => {
    handled++;
    release(callId);
  });
  setHandler(limitChangedSignal, ({ limit: sent }) => {
    limit = saneLimit(sent, limit);
    grantWaiting();
  });
  /**
   * A request for a slot: granted at once when one is free and nobody waits; else, with `wait`, put in
   * line by creation (call ids are time-ordered, src/shared/ids.ts: a call created earlier whose request
   * comes a moment later still dials first). Idempotent per call id.
   */
  const ask = (callId: string, sent: number, wait: boolean): SlotAnswer => {
    handled++;
    limit = saneLimit(sent, limit);
    grantWaiting();
    if (!holders.has(callId) && queue.length === 0 && holders.size < limit) holders.set(callId, Date.now());
    if (holders.has(callId)) return { granted: true, active: holders.size, limit };
    let place = queue.findIndex((w) => w.callId === callId);
    if (place < 0 && wait) {
      place = queue.findIndex((w) => w.callId > callId);
      if (place < 0) place = queue.length;
      queue.splice(place, 0, { callId, sinceMs: Date.now() });
    }
    return { granted: false, active: holders.size, limit, ...(place >= 0 ? { position: place + 1 } : {}) };
  };
  setHandler(tryAcquireSlotUpdate, ({ callId, limit: sent, queue: wait }) => ask(callId, sent, wait === true));
  // No answer to a queueCall: a slot granted at once is told to the call's workflow like a later grant.
  const queueCall = (callId: string, sent: number) => void (ask(callId, sent, true).granted && tellOnce(callId));
  setHandler(queueCallSignal, ({ callId, limit: sent }) => queueCall(callId, sent));
  setHandler(queueCallsSignal, ({ callIds, limit: sent }) => [callIds].flat().forEach((id) => queueCall(id, sent)));
  const held = () => [...holders].map(([callId, sinceMs]) => ({ callId, sinceMs }));
  setHandler(slotsQuery, () => ({ limit, holders: held(), queue: [...queue] }));

  /**
   * Tells granted calls' workflows, all of one workflow task's grants in one local activity (issue 32
   * item 5: one marker in the history, where a SignalExternal per grant cost two events and a further
   * workflow task). Calls not running yet (their API asked just before starting them) are told again, up
   * to `TELL_ATTEMPTS` times a second apart; past them, the slot stays until the audit finds the call's
   * workflow closed or never started.
   */
  const tellAll = async (callIds: string[]) => {
    telling++;
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
      telling--;
    }
  };

  const auditMs = input.auditMs ?? CALL_SLOTS_AUDIT_MS;
  let auditing = false;
  void auditForever({ count: () => holders.size, held, release }, auditMs, (busy) => (auditing = busy));

  const newRunDue = () => workflowInfo().continueAsNewSuggested || handled >= REQUESTS_PER_RUN;
  for (;;) {
    // Sleeps until there is a grant to tell or a new run is due.
    await condition(() => toTell.length > 0 || newRunDue());
    if (toTell.length > 0) void tellAll(toTell.splice(0));
    if (newRunDue()) {
      await condition(() => telling === 0 && !auditing && allHandlersFinished());
      return await continueAsNew<CallSlotsWorkflow>({
        orgId: input.orgId,
        livemode: input.livemode,
        limit,
        holders: held(),
        queue,
        tell: toTell.splice(0),
        ...(input.auditMs !== undefined ? { auditMs: input.auditMs } : {}),
      });
    }
  }
}
