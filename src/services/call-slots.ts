/**
 * Taking and freeing call slots from Node (the API and the activities): the organization's
 * `callSlotsWorkflow` (src/workflows/call-slots.ts, contract src/shared/call-slots.ts) is started by the
 * first request (update-with-start), so no separate step creates it. Every request carries the limit
 * read from the store now (src/services/limits.ts), so a changed `max_concurrent_calls` reaches the
 * semaphore with the next request even when the operator's notice did not.
 */
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { config } from '../config';
import { ApiError } from '../errors';
import { connectionOptions, isTemporalUnreachable, searchAttributeKeys } from '../platform/temporal';
import { dataConverter } from '../platform/payload-codec';
import {
  CALL_SLOTS_WORKFLOW,
  callSlotsWorkflowId,
  limitChangedSignal,
  queueCallsSignal,
  releaseSlotSignal,
  tryAcquireSlotsUpdate,
  type CallSlotsWorkflow,
  type QueueCallsRequest,
  type SlotAnswer,
} from '../shared/call-slots';
import { groupCommit } from '../shared/group-commit';
import { orgCallLimit } from './limits';

/** An organization in one mode. */
export interface Tenant {
  orgId: string;
  livemode: boolean;
}

/** How the semaphore's run is started when it does not run yet (id, queue, input, what the Web UI shows). */
function startOptions(tenant: Tenant, limit: number) {
  return {
    workflowId: callSlotsWorkflowId(tenant.orgId, tenant.livemode),
    taskQueue: config().taskQueue,
    args: [{ orgId: tenant.orgId, livemode: tenant.livemode, limit }] as Parameters<CallSlotsWorkflow>,
    staticSummary: `Call slots of ${tenant.orgId}, ${tenant.livemode ? 'live' : 'test'}`,
    staticDetails: `- At most \`max_concurrent_calls\` calls at once; outbound calls wait here in order.`,
    typedSearchAttributes: [
      { key: searchAttributeKeys.OrgId, value: tenant.orgId },
      { key: searchAttributeKeys.Livemode, value: tenant.livemode },
    ],
  };
}

/** Most requests one `tryAcquireSlotsUpdate` carries. */
export const MAX_REQUESTS_PER_UPDATE = 200;

/** A request for a slot waiting to go, with its tenant. */
interface PendingAsk {
  tenant: Tenant;
  callId: string;
  queue: boolean;
}

/** Per Temporal client, a group committer of slot requests by semaphore workflow id (src/shared/group-commit.ts). */
const askers = new WeakMap<Client, (workflowId: string, ask: PendingAsk) => Promise<SlotAnswer>>();

/**
 * What this process's slot updates met, since it started: updates sent (`tryAcquireSlots`, each carrying
 * `requests`), and the times Temporal refused one because the semaphore had too many in flight
 * (RESOURCE_EXHAUSTED) or aborted it (UNAVAILABLE, the semaphore continuing as new), each asked again.
 * Read by bench/call-slots-burst.ts.
 */
export const slotUpdateCounts = { updates: 0, requests: 0, busy: 0 };

/**
 * Asks for a slot: granted when one is free and no call waits in line. Not granted: refused (an inbound
 * or browser voice call), or, with `queue`, put in line (an outbound call's workflow, granted later by the
 * `slotGranted` signal). Idempotent per call id (a call that holds one is granted again; one in line keeps
 * its place). A call granted from the API must have its workflow started soon after: a holder whose
 * workflow never starts is freed by the semaphore's audit after `CALL_SLOTS_START_GRACE_MS`.
 *
 * Group commit: the requests of this process for one semaphore that come while its previous update to it
 * is on its way gather and go together in the next (`tryAcquireSlotsUpdate`, update-with-start, at most
 * `MAX_REQUESTS_PER_UPDATE`, the organization's limit read once for them), so a burst (a worker restart
 * that has every waiting call ask again; a wave of inbound calls) keeps one update in flight per process
 * instead of one per request: Temporal admits 10 updates in flight per workflow by default
 * (`history.maxInFlightUpdates`), and one update per request had hundreds refused and retried after a
 * restart (bench/call-slots-burst.ts measures both). A lone request goes at once. While Temporal still
 * refuses an update (too many in flight, from many processes) or aborts it (the semaphore continuing as
 * new), it is asked again with jittered backoff for at most `BUSY_RETRY_MS`.
 * @returns whether the call holds a slot, its place in line, and how many are taken of how many
 * @throws what the Temporal client throws (RESOURCE_EXHAUSTED past `BUSY_RETRY_MS`, an unreachable server,
 *   DEADLINE_EXCEEDED when no worker answered within `SLOT_UPDATE_DEADLINE_MS`), to every request of the
 *   failed update
 */
export function tryAcquireCallSlot(
  temporal: Client,
  tenant: Tenant,
  callId: string,
  queue = false,
): Promise<SlotAnswer> {
  let ask = askers.get(temporal);
  if (!ask) {
    ask = groupCommit<PendingAsk, SlotAnswer>(
      (_workflowId, asks) => askTogether(temporal, asks),
      MAX_REQUESTS_PER_UPDATE,
    );
    askers.set(temporal, ask);
  }
  return ask(callSlotsWorkflowId(tenant.orgId, tenant.livemode), { tenant, callId, queue });
}

/** Sends one semaphore's gathered requests in one update-with-start (see `tryAcquireCallSlot`). */
async function askTogether(temporal: Client, asks: PendingAsk[]): Promise<SlotAnswer[]> {
  const { tenant } = asks[0];
  const limit = await orgCallLimit(tenant);
  const requests = asks.map(({ callId, queue }) => ({ callId, limit, queue }));
  const until = Date.now() + BUSY_RETRY_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      slotUpdateCounts.updates++;
      slotUpdateCounts.requests += requests.length;
      // An update is answered by a worker: with none running (all restarting, or the task queue backed
      // up) it would wait for ever, and so would the request. Past SLOT_UPDATE_DEADLINE_MS the gRPC call
      // ends (DEADLINE_EXCEEDED, thrown: the API answers 503, src/platform/temporal.ts).
      return await temporal.connection.withDeadline(Date.now() + SLOT_UPDATE_DEADLINE_MS, () =>
        temporal.workflow.executeUpdateWithStart(tryAcquireSlotsUpdate, {
          args: [{ requests }],
          startWorkflowOperation: new WithStartWorkflowOperation<CallSlotsWorkflow>(CALL_SLOTS_WORKFLOW, {
            ...startOptions(tenant, limit),
            workflowIdConflictPolicy: 'USE_EXISTING',
          }),
        }),
      );
    } catch (err) {
      // Temporal admits a few updates in flight per workflow (`history.maxInFlightUpdates`), and aborts
      // those in flight when the semaphore continues as new: the requests wait their turn; they are
      // idempotent, so asking again is safe.
      if (!isBusy(err) || Date.now() >= until) throw err;
      slotUpdateCounts.busy++;
      await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

/** Most calls one `queueCallsSignal` carries (a few KB of ids). */
export const MAX_CALLS_PER_SIGNAL = 200;

/**
 * After a signal to a semaphore, how long the next calls for it gather before they go (ms). A lone call
 * goes at once; under a steady stream the calls go together at most every 50 ms, each signal costing the
 * semaphore one workflow task and one `tellGranted` (with one client, a signal per call
 * kept the two cores busy with the previous calls' grants). A call so waits at most 50 ms more for its
 * grant, against the seconds it rings.
 */
export const SLOT_SIGNAL_LINGER_MS = 50;

/** Per Temporal client, a group committer of calls by semaphore workflow id (src/shared/group-commit.ts). */
const outboxes = new WeakMap<Client, (workflowId: string, call: { tenant: Tenant; callId: string }) => Promise<void>>();

/**
 * Puts an outbound call in its organization's line without waiting for a worker: a
 * signal-with-start of `queueCallsSignal` carrying the organization's limit, read from the store as the
 * signal goes (src/services/limits.ts `orgCallLimit`, once for all the calls it carries), recorded in the
 * semaphore's history before this resolves. Group commit: while one signal to a semaphore is on its way,
 * and for `SLOT_SIGNAL_LINGER_MS` after it, the calls this process creates for it gather and go together
 * in the next (at most `MAX_CALLS_PER_SIGNAL`), in the order they came, so a burst or a stream of calls
 * costs a few history writes of one workflow and a few reads of the limit instead of one each, and a lone
 * call goes at once. The semaphore orders its line by call id (creation time) whatever the signals'
 * order. The grant, at once or later, comes to the call's workflow as `slotGrantedSignal`: start it with
 * `slot: 'waiting'` (a grant told before it runs is told again a second later; a call whose workflow never
 * starts is freed by the audit; a waiting call whose signal was lost asks itself,
 * src/workflows/call-queue.ts `waitForSlot`).
 * @throws what the store throws reading the limit, or the Temporal client (an unreachable server), to
 *   every call of the failed signal
 */
export function queueCallForSlot(temporal: Client, tenant: Tenant, callId: string): Promise<void> {
  let queue = outboxes.get(temporal);
  if (!queue) {
    queue = groupCommit<{ tenant: Tenant; callId: string }, void>(
      async (_workflowId, calls) => {
        const { tenant: first } = calls[0];
        const limit = await orgCallLimit(first);
        await temporal.workflow.signalWithStart<CallSlotsWorkflow, [QueueCallsRequest]>(CALL_SLOTS_WORKFLOW, {
          ...startOptions(first, limit),
          signal: queueCallsSignal,
          signalArgs: [{ callIds: calls.map((c) => c.callId), limit }],
        });
        return calls.map(() => undefined);
      },
      MAX_CALLS_PER_SIGNAL,
      SLOT_SIGNAL_LINGER_MS,
    );
    outboxes.set(temporal, queue);
  }
  return queue(callSlotsWorkflowId(tenant.orgId, tenant.livemode), { tenant, callId });
}

/** How long `tryAcquireCallSlot` keeps asking while the semaphore has too many updates in flight (ms). */
export const BUSY_RETRY_MS = 5_000;

/**
 * How long one slot update may wait for a worker to answer it (ms): a request never hangs on workers that
 * are all down (found by `npm run bench:chaos`: with no worker, `POST /v1/calls` waited until the client
 * gave up; it now takes its place in line by signal, `queueCallForSlot`). Long enough for a surviving
 * worker to take the semaphore over from a killed one (its sticky queue times out after 5 s: an inbound
 * call then still gets its answer), short of Twilio's 15 s webhook timeout. Past it the update throws
 * DEADLINE_EXCEEDED: an inbound or browser voice call is answered 503 rather than held.
 */
export const SLOT_UPDATE_DEADLINE_MS = 12_000;

/**
 * True for gRPC RESOURCE_EXHAUSTED (8: too many updates in flight) or UNAVAILABLE (14: the update was
 * aborted, the semaphore moving to its next run) anywhere in an error's causes; not for a server that
 * cannot be reached (the API answers that 503 at once).
 */
function isBusy(err: unknown): boolean {
  if (isTemporalUnreachable(err)) return false;
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as never, i++)
    if (e.code === 8 || e.code === 14 || e.code === 'RESOURCE_EXHAUSTED' || e.code === 'UNAVAILABLE') return true;
  return false;
}

/** Frees the call's slot (or its place in line). A semaphore that does not run holds nothing: nothing to do. */
export async function releaseCallSlot(temporal: Client, tenant: Tenant, callId: string): Promise<void> {
  try {
    await temporal.workflow
      .getHandle(callSlotsWorkflowId(tenant.orgId, tenant.livemode))
      .signal(releaseSlotSignal, { callId });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * Tells the semaphore that the operator changed the limit (svcctl), so a raise grants waiting calls at
 * once. A semaphore that does not run reads the limit when it starts: nothing to do.
 */
export async function announceCallLimit(temporal: Client, tenant: Tenant, limit: number): Promise<void> {
  try {
    await temporal.workflow
      .getHandle(callSlotsWorkflowId(tenant.orgId, tenant.livemode))
      .signal(limitChangedSignal, { limit });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/** Seconds a refused browser voice call is told to wait (`Retry-After`): calls last minutes, slots free often. */
export const CONCURRENCY_RETRY_AFTER_S = 15;

/**
 * 429 `concurrency_limit` (`rate_limit_error`, with `Retry-After`): every call slot is taken. Not kept as
 * an Idempotency-Key's result, so the same request may be retried.
 * @param limit the organization's `max_concurrent_calls`
 */
export function concurrencyLimited(limit: number): ApiError {
  return new ApiError(
    429,
    'rate_limit_error',
    'concurrency_limit',
    `All ${limit} of this organization's concurrent calls (max_concurrent_calls) are in use; retry after Retry-After seconds.`,
    undefined,
    { 'Retry-After': String(CONCURRENCY_RETRY_AFTER_S) },
  );
}

/**
 * For `svcctl limits set`, after the limit is stored: connects to Temporal (`TEMPORAL_ADDRESS`, at most
 * 5 s) and tells the organization's semaphore (`announceCallLimit`), so a raise dials waiting calls at
 * once. Best effort: never throws; the stored limit stands and reaches the semaphore with the next request.
 * @returns true when the semaphore was told (or runs not, so needs no telling), false when Temporal was not reachable
 */
export async function notifyLimitChanged(orgId: string, livemode: boolean, limit: number): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ ...connectionOptions(), connectTimeout: '5 seconds' });
    const client = new Client({ connection, namespace: config().temporalNamespace, dataConverter });
    await announceCallLimit(client, { orgId, livemode }, limit);
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}
