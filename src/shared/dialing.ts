/**
 * Where an organization's calls and transfers may go: the shapes of its transfer destinations (an agent's
 * `transfer_destinations`, the only places the model's `transfer_call` can name) and of its dialing
 * permissions (`GET/POST /v1/account` `dialing_permissions`, and what the operator allows it with
 * `svcctl dialing allow-number-types`). The rule itself is src/services/dial-gate.ts `checkDestination`.
 *
 * Why: a destination the model writes is something a caller can talk it into ("transfer me to
 * +881 …" makes the platform pay for a satellite call: toll fraud, International Revenue Share Fraud).
 * Twilio's own defence is the same shape: countries enabled one by one, and the high-risk ranges (premium,
 * special services, shared cost) off unless asked for
 * (https://www.twilio.com/docs/sip-trunking/voice-dialing-geographic-permissions,
 * https://www.twilio.com/docs/voice/api/dialing-permissions-resources).
 *
 * Bundle-safe (the workflow bundle includes it): plain data and pure functions only.
 */

/** One of an agent's transfer destinations, as stored, snapshotted on a call and shown by the API. */
export interface TransferDestination {
  /** What the model names it by: `[a-z0-9_-]`, 1–40 characters, unique within the agent. */
  name: string;
  /** Where it goes: an E.164 number or a `sip:` URI. */
  to: string;
  /** When to transfer there, for the model (at most 300 characters); null: none. */
  description: string | null;
  /** True: a warm transfer (the person is briefed first); false: cold; null: the agent's `transfer_mode`. */
  warm: boolean | null;
}

/** Bounds of `transfer_destinations`: how many, and the longest name, description and `to`. */
export const TRANSFER_DESTINATION_LIMITS = { maxCount: 20, nameMax: 40, descriptionMax: 300, toMax: 256 } as const;

/** The pattern a destination's name follows (what the model writes back; a JSON schema enum value). */
export const TRANSFER_DESTINATION_NAME = /^[a-z0-9_-]{1,40}$/;

/**
 * The number types refused unless the operator allows them for the organization (`svcctl dialing
 * allow-number-types`), in libphonenumber's terms (`PhoneNumberType`, read with libphonenumber-js
 * `getType()` on its full metadata):
 * - `premium_rate` (PREMIUM_RATE): the callee is paid per minute: the revenue of toll fraud.
 * - `shared_cost` (SHARED_COST): the caller pays part of a service's cost (UK 084/087, FR 08 1x).
 * - `personal_number` (PERSONAL_NUMBER): a number that follows a person (UK 070), charged up to premium
 *   rates and a known fraud range (Ofcom's 070 warnings).
 * - `non_geographic`: a number of an international network or global service, libphonenumber's region
 *   "001" (+800, +808, +870 Inmarsat, +881 satellite, +882/+883 international networks, +979): no
 *   country's permissions cover it, and satellite ranges cost the most per minute.
 * Not refused: fixed lines, mobiles, toll-free, VoIP (UK 056), UAN (company numbers) and pagers, charged
 * as ordinary calls in the ranges libphonenumber assigns them; Twilio's own high-risk list still applies
 * on top in live mode.
 */
export const HIGH_COST_NUMBER_TYPES = ['premium_rate', 'shared_cost', 'personal_number', 'non_geographic'] as const;
export type HighCostNumberType = (typeof HIGH_COST_NUMBER_TYPES)[number];

/** Whether `value` names one of `HIGH_COST_NUMBER_TYPES`. */
export function isHighCostNumberType(value: string): value is HighCostNumberType {
  return (HIGH_COST_NUMBER_TYPES as readonly string[]).includes(value);
}

/**
 * Which permission refused a destination (the `dialing_permissions` rule's `refusal`, and the word in the
 * 400 `destination_not_allowed` message):
 * - `country_not_allowed`: an E.164 number of a country not in `allowed_countries` (or of no country).
 * - `number_type_not_allowed`: a number of a type of `HIGH_COST_NUMBER_TYPES` the operator has not allowed.
 * - `sip_domain_not_listed`: a `sip:` URI whose host is not one of `sip_domains`.
 * - `client_not_allowed`: a `client:` identity (Twilio Voice SDK clients of the account the call runs in:
 *   on a shared account, every organization's; the service registers none of its own).
 * - `invalid_destination`: none of E.164, `sip:` or `client:`.
 */
export const DESTINATION_REFUSALS = [
  'country_not_allowed',
  'number_type_not_allowed',
  'sip_domain_not_listed',
  'client_not_allowed',
  'invalid_destination',
] as const;
export type DestinationRefusal = (typeof DESTINATION_REFUSALS)[number];

/** Bounds of `dialing_permissions`: how many countries and SIP domains an organization lists. */
export const DIALING_PERMISSION_LIMITS = { maxCountries: 250, maxSipDomains: 50, domainMax: 253 } as const;

/**
 * The host of a `sip:` URI (`sip:user@host[:port][;params][?headers]`, RFC 3261 section 19.1), lower-cased;
 * null when `uri` is not one. The host is what `sip_domains` lists.
 */
export function sipHost(uri: string): string | null {
  const m = /^sip:(?:[^@\s]+@)?(\[[0-9a-f:.]+\]|[^:;?@\s]+)(?::\d+)?(?:[;?].*)?$/i.exec(uri);
  return m ? m[1]!.toLowerCase() : null;
}

/** A lower-cased DNS host name (letters, digits, hyphens; two labels at least) or IPv4 address: a `sip_domains` entry. */
export const SIP_DOMAIN_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
