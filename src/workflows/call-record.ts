/**
 * `CallRecord`: what every collaborator of a call's `CallSession` shares, and owns nothing else: the
 * call's status as last written (`transition`, mirrored into the store and the `CallStatus` search
 * attribute), why and how it stops (`stop`, the first request wins; `requestStop` cancels whatever the
 * conversation awaits), whether the end is recorded (`finished`), and the numbering of the call's live
 * stream (each transition and each transcript turn takes the next number, src/models/calls.ts
 * `CallStreamEntry`, so `GET /v1/calls/{id}/stream` reads the call in order from the store).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { ApplicationFailure, CancellationScope, upsertSearchAttributes } from '@temporalio/workflow';
import {
  CALL_NOT_LIVE,
  type CallStatus,
  type CallWorkflowInput,
  type EndReason,
  type TransferProgress,
} from '../shared/calls';
import { newId } from '../shared/ids';
import { searchAttributeKeys } from '../shared/search-attributes';
import { localStore, store } from './call-activities';

/** Why and how the call stops: the final status, its `end_reason`, a transfer's destination, an error. */
export interface StopRequest {
  status: CallStatus;
  reason: EndReason;
  transferTo?: string;
  error?: string;
  /** A machine answered and the message is left (`voicemail.action` `leave_message`): what is said. */
  voicemailMessage?: string;
  /** A warm transfer joined the caller with the person: nothing left to hand over. */
  warm?: TransferProgress;
}

/** The call's status, its stop and its stream numbering; one per run, shared by the run's collaborators. */
export class CallRecord {
  /** The call's status as last written by `transitionCall`. */
  status: CallStatus;
  /** Why the call stops, once decided; the first request wins. */
  stop: StopRequest | null = null;
  /** The end is recorded (the `end` and `transfer` updates return then). */
  finished = false;
  /** What ringing and talking await: cancelled by a stop request. */
  readonly conversation = new CancellationScope();
  /**
   * Entries of the call's live stream numbered so far (each transition and each turn takes the next
   * number, src/models/calls.ts `CallStreamEntry`); null in a run continued from one before the stream.
   */
  streamEntries: number | null;

  /** @param input the run's input: a continued run starts `in_progress`, a scheduled call `scheduled` */
  constructor(private readonly input: CallWorkflowInput) {
    const resumed = input.continuation;
    this.status = resumed ? 'in_progress' : input.scheduled_at !== undefined ? 'scheduled' : 'queued';
    this.streamEntries = resumed ? (resumed.streamEntries ?? null) : 0;
  }

  /** Whether the call is live: not stopping, and scheduled, queued, ringing or in progress. */
  isLive(): boolean {
    return (
      this.stop === null &&
      (this.status === 'scheduled' ||
        this.status === 'queued' ||
        this.status === 'ringing' ||
        this.status === 'in_progress')
    );
  }

  /** An update refused because the call is not live; `details[0]` is the status (the API shows it). */
  notLive(message: string): ApplicationFailure {
    return ApplicationFailure.create({ message, type: CALL_NOT_LIVE, nonRetryable: true, details: [this.status] });
  }

  /** Asks the call to stop; the first request wins. Cancels whatever the conversation awaits. */
  requestStop(request: StopRequest): void {
    if (this.stop !== null) return;
    this.stop = request;
    this.conversation.cancel();
  }

  /**
   * Moves the call to `next` and mirrors it into the store (`transitionCall`: a scheduled activity when
   * it emits `events`, their ids fixed in the history; a local one otherwise), then the `CallStatus`
   * search attribute.
   */
  async transition(next: CallStatus, patch: Record<string, unknown>, events: string[]): Promise<void> {
    const summary = `${this.status} → ${next}${events.length ? ` (${events.join(', ')})` : ''}`;
    this.status = next;
    await (events.length ? store : localStore).transitionCall.executeWithOptions({ summary }, [
      {
        callId: this.input.callId,
        atMs: Date.now(),
        patch: { status: next, ...patch },
        events: events.map((type) => ({ id: newId('evt'), type })),
        ...this.nextStreamEntry(),
      },
    ]);
    upsertSearchAttributes([{ key: searchAttributeKeys.CallStatus, value: next }]);
  }

  /** The next entry's number in the call's live stream, as a turn's or transition's `stream`; none in a run of before. */
  nextStreamEntry(): { stream?: number } {
    return this.streamEntries === null ? {} : { stream: ++this.streamEntries };
  }
}
