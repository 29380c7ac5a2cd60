/**
 * What the API, the number-provisioning workflow (src/workflows/phone-numbers.ts) and its activity share:
 * the workflow's id and input, and its answer (the number stored, or why not).
 *
 * Deterministic workflow code may import this module: types and pure functions only.
 */

/** The kinds of number Twilio's AvailablePhoneNumbers resource lists (`Local`, `Mobile`, `TollFree`). */
export const AVAILABLE_NUMBER_TYPES = ['local', 'mobile', 'toll_free'] as const;
export type AvailableNumberType = (typeof AVAILABLE_NUMBER_TYPES)[number];

/**
 * How a live number came to the organization: `bought` by the service in the organization's Twilio
 * account (released at Twilio when deleted), `imported` from a number the account already held (only
 * detached when deleted), `simulated` in test mode, `connected` for numbers stored before the service
 * checked ownership (detached when deleted), `sip_trunk` for a number one of its SIP trunks carries
 * (src/services/sip-trunks.ts; nothing at Twilio to give back, the number stays with the carrier).
 */
export const NUMBER_SOURCES = ['bought', 'imported', 'simulated', 'connected', 'sip_trunk'] as const;
export type NumberSource = (typeof NUMBER_SOURCES)[number];

/** The provisioning workflow of phone number `phoneNumberId` (`pn_…`): one per stored number. */
export const provisionWorkflowId = (phoneNumberId: string) => `phone-number:${phoneNumberId}`;

/** The input of `phoneNumberProvisionWorkflow`: the pending number row to complete. */
export interface ProvisionNumberInput {
  phoneNumberId: string;
  orgId: string;
  /** E.164. */
  number: string;
}

/** A refusal the API answers with (Twilio's code and message carried when Twilio refused). */
export interface ProvisionRefusal {
  ok: false;
  /** The API error code: `phone_number_not_owned` or `phone_number_purchase_failed`. */
  code: 'phone_number_not_owned' | 'phone_number_purchase_failed';
  message: string;
  twilioCode: number | null;
  twilioMessage: string | null;
}

/** What provisioning ends with: the number stored (its source), or a refusal (nothing stored). */
export type ProvisionOutcome = { ok: true; source: 'bought' | 'imported'; twilioSid: string } | ProvisionRefusal;

/** The provisioning workflow's registered name. */
export const PHONE_NUMBER_PROVISION_WORKFLOW = 'phoneNumberProvisionWorkflow';
export type PhoneNumberProvisionWorkflow = (input: ProvisionNumberInput) => Promise<ProvisionOutcome>;
