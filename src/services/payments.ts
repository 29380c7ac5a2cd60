/**
 * Card payments on calls (the `collect_payment` tool): the organization's payment connector, the
 * `<Pay>` TwiML a live caller is handed to, and what is kept of Twilio's `<Pay>` action callback.
 *
 * - The payment connector is an account setting per mode (`POST /v1/account` `payments.connector`,
 *   shown on `GET /v1/account`): the unique name of a Twilio Pay Connector installed on the Twilio
 *   account (https://www.twilio.com/docs/voice/twiml/pay#attributes-paymentconnector). A call started
 *   while it is set offers `collect_payment` (src/services/calls.ts `startCallWorkflow` snapshots it);
 *   without it the tool is a tool error, never a half-taken payment.
 * - Twilio collects the card (DTMF) and charges it through the connector: our service never receives a
 *   full card number. Twilio's action callback carries a masked `PaymentCardNumber`
 *   (`xxxxxxxxxxxx1234`); `payResultOf` keeps only its last four digits and the confirmation code, with
 *   any run of 12 or more digits removed (`stripLongDigitRuns`) in case a connector echoes one.
 */
import type twilio from 'twilio';
import { config } from '../config';
import { Org } from '../models/orgs';
import { paymentStatusOf, type PaymentResult } from '../shared/payments';

/** A Pay Connector's unique name as Twilio's Console allows it: letters, digits, `_` and `-`, 1–64 characters. */
export const PAYMENT_CONNECTOR_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** How long a `<Pay>` prompt waits for the caller's keys (s), and how many tries a bad entry gets. */
const PAY_TIMEOUT_SECONDS = 10;
const PAY_MAX_ATTEMPTS = 3;

/**
 * The organization's payment connector in one mode, or null when none is set (or the organization is
 * unknown). One `{_id}` read.
 */
export async function paymentConnectorOf(tenant: { orgId: string; livemode: boolean }): Promise<string | null> {
  const org = await Org.findById(tenant.orgId, { payments_live: 1, payments_test: 1 }).lean();
  const settings = tenant.livemode ? org?.payments_live : org?.payments_test;
  return settings?.connector ?? null;
}

/** Sets (a name) or clears (null) the organization's payment connector in one mode (`POST /v1/account`). */
export async function setPaymentConnector(
  tenant: { orgId: string; livemode: boolean },
  connector: string | null,
): Promise<void> {
  const field = tenant.livemode ? 'payments_live.connector' : 'payments_test.connector';
  await Org.updateOne({ _id: tenant.orgId }, { $set: { [field]: connector } });
}

/**
 * Adds `<Pay>` for one payment to `response`: the connector, `chargeAmount` (decimal, major units),
 * `currency` (lower case, as Twilio writes it), `description`, keypad input only, the security code and
 * no postal code asked, `PAY_TIMEOUT_SECONDS` per prompt and `PAY_MAX_ATTEMPTS` tries; its `action` is
 * `POST /twilio/pay/{call id}/{attempt}` (src/api/twilio/payments.ts), whose answer brings the caller back
 * (https://www.twilio.com/docs/voice/twiml/pay#attributes).
 */
export function payTwiml(
  response: twilio.twiml.VoiceResponse,
  p: { callId: string; attempt: number; connector: string; amount: string; currency: string; description: string },
): void {
  response.pay({
    paymentConnector: p.connector,
    chargeAmount: p.amount,
    currency: p.currency.toLowerCase(),
    description: p.description,
    input: 'dtmf',
    securityCode: true,
    postalCode: 'false',
    timeout: PAY_TIMEOUT_SECONDS,
    maxAttempts: PAY_MAX_ATTEMPTS,
    action: `${config().publicBaseUrl}/twilio/pay/${p.callId}/${p.attempt}`,
  });
}

/** A run of 12 or more digits, possibly grouped by single spaces, dashes or dots: card-like, never kept. */
const LONG_DIGIT_RUN = /\d(?:[ .-]?\d){11,}/g;

/** `text` with every run of 12 or more digits replaced by `[digits]` (what a full card number would be). */
export function stripLongDigitRuns(text: string): string {
  return text.replace(LONG_DIGIT_RUN, '[digits]');
}

/**
 * What is kept of a `<Pay>` action callback's form (Twilio's parameters: `Result`, `PaymentCardNumber`
 * masked, `PaymentConfirmationCode`; https://www.twilio.com/docs/voice/twiml/pay#action): the status
 * (src/shared/payments.ts `paymentStatusOf`), `Result` as a short token, the last four digits of the
 * masked number (only when it ends in exactly four digits after masking characters), and the
 * confirmation code (at most 64 characters, long digit runs removed). Nothing else of the form is read.
 */
export function payResultOf(
  form: Record<string, unknown>,
  ids: { attempt: number; providerCallSid: string },
): PaymentResult {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const result = /^[a-z][a-z-]{0,63}$/.test(text(form.Result)) ? text(form.Result) : 'unknown';
  const masked = /^[xX*#•\s-]*(\d{4})$/.exec(text(form.PaymentCardNumber));
  const code = stripLongDigitRuns(text(form.PaymentConfirmationCode)).trim().slice(0, 64);
  return {
    ...ids,
    status: paymentStatusOf(result),
    result,
    last4: masked ? masked[1] : null,
    confirmationCode: code || null,
  };
}
