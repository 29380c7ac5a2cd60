/**
 * `CallQueue`: what a call waits for before it may dial, for one run of `callWorkflow`. It owns a
 * scheduled call's clock (`scheduled_at`, moved ahead in test mode by `advanceClock`) and an outbound
 * call's place in its organization's line for a call slot (src/workflows/call-slots.ts: asked by the
 * `requestCallSlot` activity, granted later by the `slotGranted` signal, freed by `releaseCallSlot`).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { ApplicationFailure, condition } from '@temporalio/workflow';
import { DEFAULT_QUEUE_TIMEOUT_SECONDS, SLOT_ASK_AGAIN_MS } from '../shared/call-slots';
import { CALL_NOT_SCHEDULED, type AdvanceClockRequest, type CallWorkflowInput } from '../shared/calls';
import { dialGate, slotRelease, slots } from './call-activities';
import type { CallRecord } from './call-record';

/** A call's wait for its time and its slot. */
export class CallQueue {
  /** An outbound call waiting in line: its slot is granted (`slotGranted` signal). */
  private slotGranted = false;
  /** A scheduled test-mode call: how far `advanceClock` moved its clock ahead of workflow time (ms). */
  clockOffsetMs = 0;
  /** When the call was queued (workflow time, ms): its wait for a slot counts from then. */
  private queuedMs: number;
  /** Unix seconds the call waits for while `scheduled`: its `scheduled_at`, then a calling-hours hold's opening. */
  scheduledAt: number | undefined;

  /**
   * @param input the run's input: its `scheduled_at`, `slot` and `queue_timeout_seconds`
   * @param record the call's status and stop: the waits end when the call stops
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
  ) {
    this.queuedMs = input.created * 1000;
    this.scheduledAt = input.scheduled_at;
  }

  /** Signal `slotGranted`: the organization's call slots granted this call one (src/workflows/call-slots.ts). */
  onSlotGranted(): void {
    this.slotGranted = true;
  }

  /** Validator of update `advanceClock`: a scheduled test-mode call only (`CALL_NOT_SCHEDULED`). */
  validateAdvanceClock({ to }: AdvanceClockRequest): void {
    const { record } = this;
    if (this.input.livemode || record.status !== 'scheduled' || record.stop !== null)
      throw ApplicationFailure.create({
        message: `The call is ${record.stop ? 'ending' : record.status}; only a scheduled test-mode call's clock can be advanced.`,
        type: CALL_NOT_SCHEDULED,
        nonRetryable: true,
      });
    if (!Number.isFinite(to))
      throw ApplicationFailure.create({ message: 'to must be unix seconds', nonRetryable: true });
  }

  /**
   * A scheduled call (`scheduled_at`) emits `call.scheduled` and waits, `scheduled`, on a durable
   * timer (a Temporal timer: it survives every restart, and fires once) until its time, then is `queued`.
   * In test mode `advanceClock` moves the time forward. Ended through the API before then: `canceled`.
   * @returns true when the call goes on to dial
   */
  async waitForScheduledTime(): Promise<boolean> {
    const at = this.input.scheduled_at;
    if (at === undefined) return true;
    await this.record.transition('scheduled', { scheduled_at: at }, ['call.scheduled']);
    return await this.waitUntil(at);
  }

  /**
   * The dial gate (src/services/dial-gate.ts, activity `checkDialGate`), for calls started with
   * `dial_gate` (others dial as they always did: their recorded histories hold no such activity).
   * `dial`: go on. `refuse`: the call stops `canceled` with the reason (`do_not_call`,
   * `outside_calling_hours`), never dialed. `hold`: the call is `scheduled` (`scheduled_reason:
   * "calling_hours"`, `call.scheduled`) on a durable timer until the window opens (test mode: moved by
   * `advanceClock`), `queued` again, and asks the gate again (a number put on a list meanwhile is refused).
   * @returns true when the call may dial
   */
  async passDialGate(): Promise<boolean> {
    const { input, record } = this;
    if (!input.dial_gate || input.direction === 'inbound' || input.room) return true;
    for (;;) {
      const decision = await dialGate.checkDialGate.executeWithOptions({ summary: `dial gate for ${input.to}` }, [
        {
          callId: input.callId,
          orgId: input.orgId,
          livemode: input.livemode,
          to: input.to,
          contactId: input.contactId ?? null,
          atMs: Date.now() + this.clockOffsetMs,
          leg: 'call',
          policy: input.dial_gate.calling_hours,
        },
      ]);
      if (decision.verdict === 'dial') return true;
      if (decision.verdict === 'refuse') {
        record.stop ??= { status: 'canceled', reason: decision.reason, error: decision.message };
        return false;
      }
      const at = Math.ceil(decision.heldUntilMs / 1000);
      this.scheduledAt = at;
      await record.transition('scheduled', { scheduled_at: at, scheduled_reason: 'calling_hours' }, ['call.scheduled']);
      if (!(await this.waitUntil(at))) return false;
    }
  }

  /**
   * Waits, `scheduled`, until unix second `at` by the call's clock (workflow time plus a test-mode
   * `advanceClock`'s offset), then moves the call to `queued`. Ended through the API before then: false.
   */
  private async waitUntil(at: number): Promise<boolean> {
    const { record } = this;
    for (;;) {
      const leftMs = at * 1000 - (Date.now() + this.clockOffsetMs);
      if (leftMs <= 0 || record.stop !== null) break;
      const clock = this.clockOffsetMs;
      await condition(() => record.stop !== null || this.clockOffsetMs !== clock, leftMs);
    }
    if (record.stop !== null) return false;
    this.queuedMs = Date.now();
    await record.transition('queued', {}, []);
    return true;
  }

  /**
   * An outbound call (`slot: 'queue'`: it asks first; `waiting`: the API put it in line, and the call asks
   * itself after `SLOT_ASK_AGAIN_MS` without a grant, in case the API's signal, sent after its start, was
   * lost) waits in its organization's line for a slot, `queued` meanwhile, at most `queue_timeout_seconds`
   * from its creation, or from its scheduled time (then `failed`, `queue_timeout`). A call ended through the
   * API while waiting is `canceled`. Other calls go on at once.
   * @returns true when the call may dial
   */
  async waitForSlot(): Promise<boolean> {
    const { input, record } = this;
    if (input.slot !== 'queue' && input.slot !== 'waiting') return true;
    const timeoutS = input.queue_timeout_seconds ?? DEFAULT_QUEUE_TIMEOUT_SECONDS;
    const deadlineMs = this.queuedMs + timeoutS * 1000;
    const answered = () => this.slotGranted || record.stop !== null;
    if (input.slot === 'queue' && (await this.askForSlot('ask for a call slot'))) return true;
    if (input.slot === 'waiting') {
      await condition(answered, Math.max(1, Math.min(deadlineMs - Date.now(), SLOT_ASK_AGAIN_MS)));
      if (!answered() && Date.now() < deadlineMs && (await this.askForSlot('ask for a call slot again')))
        this.slotGranted = true;
    }
    await condition(answered, Math.max(1, deadlineMs - Date.now()));
    if (record.stop !== null) return false;
    if (!this.slotGranted) {
      record.stop = {
        status: 'failed',
        reason: 'queue_timeout',
        error: `No call slot freed within ${timeoutS} s (max_concurrent_calls reached).`,
      };
      return false;
    }
    return true;
  }

  /** Asks the semaphore for a slot, in line when none is free (activity `requestCallSlot`); true when granted. */
  private async askForSlot(summary: string): Promise<boolean> {
    const { input } = this;
    const { granted } = await slots.requestCallSlot.executeWithOptions({ summary }, [
      { orgId: input.orgId, livemode: input.livemode, callId: input.callId },
    ]);
    return granted;
  }

  /**
   * Frees the call's slot (a signal to the semaphore through a local activity), so the next call in line
   * may dial while this call's end is recorded. Resolves once the signal is sent.
   */
  releaseSlot(): Promise<unknown> {
    return slotRelease.releaseCallSlot.executeWithOptions({ summary: 'free the call slot' }, [
      { orgId: this.input.orgId, livemode: this.input.livemode, callId: this.input.callId },
    ]);
  }
}
