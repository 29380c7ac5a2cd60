/**
 * Card payments taken on a call (the `collect_payment` tool): the contract between the workflow
 * (src/workflows/call-payments.ts), the activities that hand a live caller to Twilio `<Pay>`
 * (src/activities/payments.ts), and the `<Pay>` action callback (src/api/twilio/payments.ts). The card
 * number is keyed in by the caller and sent by Twilio straight to the organization's payment processor
 * (its Pay Connector, https://www.twilio.com/docs/voice/twiml/pay): neither the model, nor the store, nor
 * a workflow history ever holds it; only the outcome below (status, the last four digits, the
 * processor's confirmation code, amount and currency) comes back.
 *
 * Bundle-safe: imports only `@temporalio/workflow` definition helpers.
 */
import { defineSignal } from '@temporalio/workflow';

/** What the transcript shows where the caller keyed in their card (never the digits). */
export const PAYMENT_TRANSCRIPT_LINE = '[payment details collected]';

/** How a payment ended: charged, refused or failed (`failed`), or left by the caller (`canceled`). */
export type PaymentStatus = 'succeeded' | 'failed' | 'canceled';

/**
 * A payment's progress as stored on the call (`payment_json`): `collecting` while the caller is in
 * `<Pay>`, then its outcome. Written by the call's workflow only; nothing here is card data but the last
 * four digits.
 */
export interface PaymentProgress {
  /**
   * The payment's id on the call: the workflow's clock when it started (ms), unique on the call and growing
   * across its runs; the `<Pay>` action URL and the relay comeback carry it.
   */
  attempt: number;
  status: 'collecting' | PaymentStatus;
  /** Decimal amount in major units as the model gave it (`"24.99"`). */
  amount: string;
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  description: string;
  /** Twilio's `Result` (`success`, `payment-connector-error`, `caller-hung-up`, …), or ours (`timeout`, `not-started`). */
  result: string | null;
  last4: string | null;
  confirmation_code: string | null;
}

/** A `<Pay>` outcome as the action callback signals it to the call's workflow (already stripped of card data). */
export interface PaymentResult {
  attempt: number;
  /** The CallSid the callback named (the workflow ignores another call's). */
  providerCallSid: string;
  status: PaymentStatus;
  result: string;
  last4: string | null;
  confirmationCode: string | null;
}

/** Live mode: the `<Pay>` action callback of payment `attempt` (src/api/twilio/payments.ts). */
export const paymentResultSignal = defineSignal<[PaymentResult]>('paymentResult');

/** How long a live caller may stay in `<Pay>` before the payment counts as failed (ms). */
export const PAYMENT_TIMEOUT_MS = 10 * 60 * 1000;

/** What the caller hears once back from `<Pay>` (the new ConversationRelay session's greeting), by status. */
export const PAYMENT_LINES: Record<PaymentStatus, string> = {
  succeeded: 'Thank you, your payment went through.',
  failed: "I'm sorry, the payment did not go through, and nothing was charged.",
  canceled: 'The payment was canceled, and nothing was charged.',
};

/** The status of Twilio's `<Pay>` `Result`: `success` is charged; the caller's `*` or hang-up cancels; the rest fail. */
export function paymentStatusOf(result: string): PaymentStatus {
  if (result === 'success') return 'succeeded';
  if (result === 'caller-interrupted-with-star' || result === 'caller-hung-up') return 'canceled';
  return 'failed';
}

/**
 * What the model is told of a payment (the tool's result): the outcome only, never card data beyond the
 * last four digits, and the line the caller heard.
 */
export function paymentSummary(p: PaymentProgress): string {
  if (p.status === 'succeeded')
    return (
      `Payment succeeded: ${p.amount} ${p.currency} charged to the card ending ${p.last4 ?? 'unknown'}` +
      `${p.confirmation_code ? `, confirmation code ${p.confirmation_code}` : ''}. The caller was told: "${PAYMENT_LINES.succeeded}"`
    );
  const how = p.status === 'canceled' ? 'canceled' : 'failed';
  return `Error: the payment ${how} (${p.result ?? 'unknown'}); nothing was charged. The caller was told: "${PAYMENT_LINES[p.status === 'collecting' ? 'failed' : p.status]}"`;
}
