/**
 * `CallPayments`: the card payments of a call (the `collect_payment` tool), for one run of
 * `callWorkflow`. Offered only when the call was started with the organization's payment connector
 * (`payment_connector`, snapshotted by src/services/calls.ts `startCallWorkflow`). A live caller is
 * handed to Twilio `<Pay>` (src/activities/payments.ts: the recording paused, the call redirected),
 * keys in the card with the processor, and comes back through the `<Pay>` action callback
 * (src/api/twilio/payments.ts) into a new ConversationRelay session greeted with the outcome; the
 * callback's `paymentResult` signal brings that outcome here. A simulated call (test mode) takes a
 * simulated payment: the test card ending 4242, always accepted. Either way the transcript shows
 * `[payment details collected]` where the caller keyed in the card, the call stores the outcome
 * (`payment_json`), and the model is told the outcome only.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { condition, isCancellation, proxyActivities } from '@temporalio/workflow';
import type * as paymentActivities from '../activities/payments';
import type { CallWorkflowInput } from '../shared/calls';
import {
  PAYMENT_LINES,
  PAYMENT_TIMEOUT_MS,
  PAYMENT_TRANSCRIPT_LINE,
  paymentSummary,
  type PaymentProgress,
  type PaymentResult,
  type PaymentStatus,
} from '../shared/payments';
import { TOOLS, type ToolArguments } from '../shared/tools';
import type { CallLine } from './call-line';
import type { CallRecord } from './call-record';
import type { CallTranscript } from './call-transcript';
import { errorMessage, TELEPHONY_RETRY } from './retry';
import type { ToolEffect } from './tools';

/** Twilio requests (pause or resume the recording, redirect the call): 30 s per try, a refusal not retried. */
const payments = proxyActivities<typeof paymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: TELEPHONY_RETRY,
});

/** How a payment ended, as the call stores it. */
type PaymentOutcome = Pick<PaymentProgress, 'result' | 'last4' | 'confirmation_code'> & { status: PaymentStatus };

/** The last four digits of Twilio's test Visa card, what a simulated payment reports. */
export const SIMULATED_CARD_LAST4 = '4242';

/** A call's card payments: the one under way, how many so far, and the `<Pay>` outcomes signalled. */
export class CallPayments {
  /** The payment under way (the caller in `<Pay>`); null when none. */
  private current: PaymentProgress | null = null;
  /** Outcomes signalled for the payment under way (the first of its own CallSid counts). */
  private results: PaymentResult[] = [];

  /**
   * @param input the run's input: `payment_connector` decides whether the tool is offered
   * @param record the call's status and stop (a caller hanging up in `<Pay>` ends the wait)
   * @param transcript where the payment is noted
   * @param line the caller's provider call, handed to `<Pay>`
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly line: CallLine,
  ) {}

  /** Whether the call offers `collect_payment`: a phone call (not a browser room) with a payment connector. */
  get offered(): boolean {
    return Boolean(this.input.payment_connector) && !this.input.room;
  }

  /** Signal `paymentResult`: kept when it is the payment under way's (its attempt); ignored otherwise. */
  onResult(result: PaymentResult): void {
    if (this.current !== null && result.attempt === this.current.attempt) this.results.push(result);
  }

  /**
   * `collect_payment`: notes the payment, stores it `collecting` on the call, takes it (live: `<Pay>`;
   * simulated: the test card), then records the outcome on the call and `[payment details collected]`
   * with the line the caller heard in the transcript. Ends the turn (`ends: true`): a live caller is in
   * a new voice session, greeted with the outcome, whose next words start the next turn. Errors (no
   * connector, one payment already under way, `<Pay>` could not start) are tool errors; nothing is charged then.
   */
  async collect(args: ToolArguments<'collect_payment'>, key: string): Promise<ToolEffect> {
    const connector = this.input.payment_connector;
    if (!connector || !this.offered) return { summary: TOOLS.collect_payment.unavailable, ends: false };
    if (this.current !== null) return { summary: 'Error: a payment is already being collected.', ends: false };
    const { transcript, record } = this;
    const progress: PaymentProgress = {
      // The workflow's clock: unique on the call and growing across runs (a comeback names the latest).
      attempt: Date.now(),
      status: 'collecting',
      amount: args.amount,
      currency: args.currency.toUpperCase(),
      description: args.description.trim(),
      result: null,
      last4: null,
      confirmation_code: null,
    };
    this.current = progress;
    this.results = [];
    transcript.note(
      `Payment of ${progress.amount} ${progress.currency} (${progress.description}): the caller keys in the card with the payment processor; recording and transcription are paused meanwhile.`,
    );
    await transcript.flushTurns();
    await record.transition('in_progress', { payment_json: JSON.stringify(progress) }, []);
    const outcome =
      this.input.simulation || this.line.providerCallSid === null
        ? simulatedPayment(key)
        : await this.live(progress, connector, this.line.providerCallSid);
    this.current = null;
    if (outcome === 'not-started') {
      progress.status = 'failed';
      progress.result = 'not-started';
      await record.transition('in_progress', { payment_json: JSON.stringify(progress) }, []);
      return { summary: 'Error: the payment could not be started; nothing was charged.', ends: false };
    }
    Object.assign(progress, outcome);
    transcript.say('caller', PAYMENT_TRANSCRIPT_LINE);
    if (record.stop === null) transcript.say('assistant', PAYMENT_LINES[outcome.status]);
    await transcript.flushTurns();
    await record.transition(record.status, { payment_json: JSON.stringify(progress) }, []);
    return { summary: paymentSummary(progress), ends: true };
  }

  /**
   * A live payment: `startPayment` (the recording paused, the call redirected to `<Pay>`), then the
   * action callback's outcome for this attempt and CallSid, the caller's hang-up, or `PAYMENT_TIMEOUT_MS`;
   * then the recording resumed (`resumeRecording`) if the call goes on.
   * @returns the outcome's fields, or `not-started` when `<Pay>` could not be started (the caller is still
   *   in the conversation)
   */
  private async live(
    progress: PaymentProgress,
    connector: string,
    callSid: string,
  ): Promise<PaymentOutcome | 'not-started'> {
    const { input, record } = this;
    const recorded = Boolean(input.recording?.enabled);
    try {
      await payments.startPayment({
        callId: input.callId,
        providerCallSid: callSid,
        attempt: progress.attempt,
        connector,
        amount: progress.amount,
        currency: progress.currency,
        description: progress.description,
        recorded,
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      this.transcript.note(`The payment could not be started: ${errorMessage(err)}`);
      return 'not-started';
    }
    const mine = () => this.results.find((r) => r.providerCallSid === callSid);
    await condition(() => mine() !== undefined || record.stop !== null, PAYMENT_TIMEOUT_MS);
    const got = mine();
    if (recorded && record.stop === null)
      try {
        await payments.resumeRecording({ providerCallSid: callSid });
      } catch (err) {
        if (isCancellation(err)) throw err;
        this.transcript.note(`Resuming the recording failed: ${errorMessage(err)}`);
      }
    if (!got)
      return record.stop !== null
        ? { status: 'canceled', result: 'caller-hung-up', last4: null, confirmation_code: null }
        : { status: 'failed', result: 'timeout', last4: null, confirmation_code: null };
    return { status: got.status, result: got.result, last4: got.last4, confirmation_code: got.confirmationCode };
  }
}

/** A simulated call's payment: accepted, the test card's last four, a confirmation code from the tool call's key. */
function simulatedPayment(key: string): PaymentOutcome {
  return {
    status: 'succeeded',
    result: 'success',
    last4: SIMULATED_CARD_LAST4,
    confirmation_code: `sim_${key.replace(/^tc_/, '').slice(0, 16)}`,
  };
}
