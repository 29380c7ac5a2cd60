/**
 * The dial gate: the one check every live outbound dial passes before Twilio is asked (DESIGN.md section
 * 11, "One dial gate"): `POST /v1/calls` (src/api/calls.ts, through src/services/call-requests.ts), and, in
 * the call's workflow, every call that dials (campaigns, redials, callbacks, scheduled calls: activity
 * `checkDialGate`, src/activities/telephony.ts) and a warm transfer's leg to the person. Simulated
 * (test-mode) dials pass it too, so tests see what a live call would do.
 *
 * Rules, each recorded on the call (`compliance.rules`):
 * - `do_not_call`: the number on the organization's own list, a contact marked `do_not_call` (the call's
 *   contact, or any contact with the number), or the operator's national registry copy
 *   (src/services/do-not-call.ts `blockedPhones`). Source: TCPA, 47 CFR 64.1200(c)(2) and (d). Listed: refused.
 * - `calling_hours`: the callee's local time inside the country's default window narrowed by the
 *   operator's `CALLING_HOURS` and the organization's `calling_hours` (src/services/calling-hours.ts).
 *   Source: TCPA, 47 CFR 64.1200(c)(1); Ofcom. Closed: held until the window opens, or refused when the
 *   call's policy is `refuse`. A test rig's `CALLING_HOURS_ENFORCEMENT=record` records it and dials anyway.
 * - `dialing_permissions`: the organization's dialing permissions (`checkDestination`: the countries it
 *   calls, the high-cost number types the operator allows it, the SIP domains it lists). Source: Twilio's
 *   Voice Dialing Geographic Permissions, the same defence per account
 *   (https://www.twilio.com/docs/sip-trunking/voice-dialing-geographic-permissions). Not allowed: refused
 *   (`destination_not_allowed`), in test mode too.
 *
 * `checkDestination` is also the one check of every other dial's destination: a transfer (`POST
 * /v1/calls/{id}/transfer`, the model's `transfer_call`, the `<Dial>` of a cold transfer, a warm
 * transfer's leg), an inbound number's `overflow_to`, and an agent's `transfer_destinations` and
 * `transfer_to` when they are saved.
 */
import { ApplicationFailure } from '@temporalio/common';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { config } from '../config';
import { ApiError } from '../errors';
import { Call } from '../models/calls';
import { Contact } from '../models/contacts';
import { Org } from '../models/orgs';
import type { CallingHoursPolicy, ComplianceCheck, ComplianceRule, DialGateVerdict } from '../shared/calls';
import { sipHost, type DestinationRefusal, type HighCostNumberType } from '../shared/dialing';
import { callingHours, type CallingHoursOverrides, type CallingWindow } from './calling-hours';
import { dialingPermissionsOf, type DialingPermissions } from './dialing-permissions';
import { blockedPhones } from './do-not-call';
import { ownsCallerNumber } from './caller-ids';

type Tenant = { orgId: string; livemode: boolean };

/** What the gate is asked: who is called, for which tenant, when, and what a closed window does. */
export interface DialRequest {
  to: string;
  /** The call's contact (`cont_…`), whose own `do_not_call` counts even under another number; null: none. */
  contactId?: string | null;
  /** The instant of the dial, epoch ms (a test-mode call's clock may be moved ahead). */
  atMs: number;
  /** `call` (the call's own dial) or `transfer` (a warm transfer's leg: never held, refused when closed). */
  leg: 'call' | 'transfer';
  policy: CallingHoursPolicy;
}

/** The gate's answer: the record for the call, and what the dial does. */
export interface DialDecision {
  check: ComplianceCheck;
  verdict: DialGateVerdict;
}

const LIST_WORDS = {
  organization: "the organization's do-not-call list",
  contact: 'a contact marked do_not_call',
  national_registry: "the operator's national do-not-call registry copy",
} as const;

/** The operator's and the organization's calling hours (each only narrows the country default). */
export async function callingHoursOverrides(orgId: string): Promise<CallingHoursOverrides> {
  const org = await Org.findById(orgId, { calling_hours_json: 1 }).lean();
  const own = org?.calling_hours_json ? (JSON.parse(org.calling_hours_json) as CallingWindow) : null;
  return { operator: config().callingHours, organization: own };
}

/**
 * Sets (or with null clears) the organization's calling hours, both modes (`POST /v1/account`
 * `calling_hours`); the API validated `HH:MM` and start before end.
 * @throws Error for an unknown organization
 */
export async function setOrgCallingHours(orgId: string, window: CallingWindow | null): Promise<void> {
  const json = window ? JSON.stringify({ start: window.start, end: window.end }) : null;
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: { calling_hours_json: json } });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
}

/** The `do_not_call` rule: the lists of `blockedPhones`, and the call's own contact. */
async function doNotCallRule(tenant: Tenant, to: string, contactId: string | null): Promise<ComplianceRule> {
  const [blocked, contact] = await Promise.all([
    blockedPhones(tenant, [to]),
    contactId
      ? Contact.findOne({ _id: contactId, org_id: tenant.orgId, livemode: tenant.livemode }, { do_not_call: 1 }).lean()
      : null,
  ]);
  const source = blocked.get(to) ?? (contact?.do_not_call ? 'contact' : undefined);
  if (!source) return { rule: 'do_not_call', result: 'clear', detail: 'On no do-not-call list.' };
  return { rule: 'do_not_call', result: 'listed', source, detail: `${to} is on ${LIST_WORDS[source]}.` };
}

/** The `calling_hours` rule at `atMs`; `enforced` false when a test-mode call only records it. */
async function callingHoursRule(tenant: Tenant, to: string, atMs: number): Promise<ComplianceRule> {
  const hours = await callingHours(to, atMs, await callingHoursOverrides(tenant.orgId));
  const rule: ComplianceRule = {
    rule: 'calling_hours',
    result: hours.allowed ? 'open' : 'closed',
    detail: hours.rule,
    local: hours.local,
    zone: hours.zone,
    zones: hours.zones,
    ...(hours.assumed ? { assumed: hours.assumed } : {}),
  };
  if (hours.allowed) return rule;
  const recordOnly = config().callingHoursEnforcement === 'record';
  return {
    ...rule,
    opens_at: hours.opensAtMs === null ? null : Math.ceil(hours.opensAtMs / 1000),
    enforced: !recordOnly,
  };
}

/**
 * Whether `to` is a widget visitor (`user:…`/`visitor:…`, src/shared/conversations.ts
 * `widgetCustomerAddress`): the `to` of a browser voice call, which a test-mode call without LiveKit
 * simulates through the same workflow as a phone call.
 */
const isBrowserVisitor = (to: string): boolean => /^(user|visitor):/.test(to);

/**
 * The `dialing_permissions` answer for a browser voice call: allowed, since no telephone number is dialed
 * and Twilio's geographic permissions, which the rule mirrors, concern the telephone network only.
 */
const browserVisitor = (to: string): DestinationCheck => ({
  allowed: true,
  detail: `${to} is a browser visitor (a widget voice call): no telephone number is dialed.`,
});

/**
 * Checks a dial against every rule (module comment) and decides: `refuse` when the dialing permissions
 * do not allow the number, or it is on a do-not-call list, or the window is closed and the policy is
 * `refuse` (a transfer leg always refuses: a caller on hold cannot wait for the morning), or the window
 * never opens within 8 days; `hold` until the opening when closed; else `dial`.
 * @returns the record to store on the call (`compliance`) and the verdict
 */
export async function checkDial(tenant: Tenant, request: DialRequest): Promise<DialDecision> {
  const [dnc, hours, destination] = await Promise.all([
    doNotCallRule(tenant, request.to, request.contactId ?? null),
    callingHoursRule(tenant, request.to, request.atMs),
    request.leg === 'call' && isBrowserVisitor(request.to)
      ? browserVisitor(request.to)
      : checkDestination(tenant, request.to),
  ]);
  const permissions: ComplianceRule = {
    rule: 'dialing_permissions',
    result: destination.allowed ? 'allowed' : 'not_allowed',
    detail: destination.detail,
    ...(destination.allowed ? {} : { refusal: destination.refusal }),
  };
  const verdict = decide(dnc, hours, permissions, request);
  const check: ComplianceCheck = {
    checked_at: Math.floor(request.atMs / 1000),
    to: request.to,
    leg: request.leg,
    decision: verdict.verdict,
    rules: [hours, dnc, permissions],
  };
  return { check, verdict };
}

function decide(
  dnc: ComplianceRule,
  hours: ComplianceRule,
  permissions: ComplianceRule,
  request: DialRequest,
): DialGateVerdict {
  if (permissions.result === 'not_allowed')
    return { verdict: 'refuse', reason: 'destination_not_allowed', message: permissions.detail };
  if (dnc.result === 'listed') return { verdict: 'refuse', reason: 'do_not_call', message: dnc.detail };
  if (hours.result === 'open' || hours.enforced === false) return { verdict: 'dial' };
  const opens = hours.opens_at ?? null;
  const message = closedMessage(request.to, hours);
  if (request.policy === 'refuse' || request.leg === 'transfer' || opens === null)
    return { verdict: 'refuse', reason: 'outside_calling_hours', message };
  return { verdict: 'hold', heldUntilMs: opens * 1000 };
}

/** Why a closed `calling_hours` rule keeps `to` from being dialed, and when the window opens. */
function closedMessage(to: string, hours: ComplianceRule): string {
  const opens = hours.opens_at ?? null;
  return (
    `Outside calling hours at ${to} (${hours.local}; ${hours.detail})` +
    (opens === null
      ? '; the window does not open within 8 days.'
      : `; it opens at ${new Date(opens * 1000).toISOString()}.`)
  );
}

/**
 * The `calling_hours` rule again at the instant `atMs` a call's turn of the dialing pace comes
 * (src/services/dial-pace.ts): the gate passed the call when it was checked, but a long backlog of the
 * account's dials may bring its turn after the callee's window closed, and Twilio would then ring the
 * person outside the hours the gate enforces (TCPA, 47 CFR 64.1200(c)(1)). Null when the window is open
 * then (or only recorded, `CALLING_HOURS_ENFORCEMENT=record`, or `to` is no E.164 number: no local time);
 * else held until the opening (`policy` `hold`, as the gate holds a closed call), or refused.
 */
export async function callingHoursAtTurn(
  tenant: Tenant,
  to: string,
  atMs: number,
  policy: CallingHoursPolicy,
): Promise<null | { heldUntilMs: number } | { refused: { reason: 'outside_calling_hours'; message: string } }> {
  if (!/^\+[1-9]\d{1,14}$/.test(to)) return null;
  const hours = await callingHoursRule(tenant, to, atMs);
  if (hours.result === 'open' || hours.enforced === false) return null;
  const opens = hours.opens_at ?? null;
  if (policy === 'hold' && opens !== null) return { heldUntilMs: opens * 1000 };
  return { refused: { reason: 'outside_calling_hours', message: closedMessage(to, hours) } };
}

/**
 * The `from` rule again at dial time (src/services/caller-ids.ts `ownsCallerNumber`), for a live call
 * whose `from` was checked when it was made but is dialed later (a scheduled call, one held for calling
 * hours or queued for a slot): the number may have been released, the caller ID deleted, or the
 * organization's Twilio account changed meanwhile, and Twilio would then show a number that is no longer
 * the organization's. Null when it still is (or the call is simulated, or has no `from`).
 */
export async function fromRefusedAtDial(
  callId: string,
  from: string | null,
): Promise<{ reason: 'from_not_owned'; message: string } | null> {
  const call = await Call.findById(callId, { org_id: 1, livemode: 1 }).lean();
  if (!call || !call.livemode || !from) return null;
  if (await ownsCallerNumber({ orgId: call.org_id, livemode: true }, from)) return null;
  return {
    reason: 'from_not_owned',
    message: `${from} is no longer one of your organization's voice numbers or verified caller IDs of its Twilio account; the call was not dialed.`,
  };
}

/** The dialing permissions' answer for one destination: allowed, or which permission refused it and why. */
export type DestinationCheck =
  { allowed: true; detail: string } | { allowed: false; refusal: DestinationRefusal; detail: string };

/** libphonenumber's number types that are high-cost (src/shared/dialing.ts `HIGH_COST_NUMBER_TYPES`). */
const HIGH_COST_TYPES: Partial<Record<string, HighCostNumberType>> = {
  PREMIUM_RATE: 'premium_rate',
  SHARED_COST: 'shared_cost',
  PERSONAL_NUMBER: 'personal_number',
};

const TYPE_WORDS: Record<HighCostNumberType, string> = {
  premium_rate: 'a premium-rate number',
  shared_cost: 'a shared-cost number',
  personal_number: 'a personal number (charged up to premium rates)',
  non_geographic: 'a non-geographic number (satellite or an international network: no country)',
};

/** The refusal of a high-cost number type the operator has not allowed. */
const typeRefusal = (to: string, type: HighCostNumberType): DestinationCheck => ({
  allowed: false,
  refusal: 'number_type_not_allowed',
  detail:
    `Destination not allowed: ${to} is ${TYPE_WORDS[type]} (number type ${type}), which the organization may not call ` +
    'unless the operator allows it (svcctl dialing allow-number-types).',
});

/** `destinationVerdict` for an E.164 number: its number type first (cost), then its country. */
function numberVerdict(to: string, permissions: DialingPermissions): DestinationCheck {
  const parsed = parsePhoneNumberFromString(to);
  const allowedTypes = permissions.allowedNumberTypes;
  if (parsed?.isNonGeographic()) {
    if (!allowedTypes.includes('non_geographic')) return typeRefusal(to, 'non_geographic');
    return { allowed: true, detail: `${to}: a non-geographic number the operator allows this organization.` };
  }
  const highCost = HIGH_COST_TYPES[parsed?.getType() ?? ''];
  if (highCost && !allowedTypes.includes(highCost)) return typeRefusal(to, highCost);
  const country = parsed?.country ?? null;
  const countries = permissions.allowedCountries;
  if (countries !== null && (country === null || !countries.includes(country)))
    return {
      allowed: false,
      refusal: 'country_not_allowed',
      detail:
        `Destination not allowed: ${to} is ${country ? `a number of ${country}` : 'a number of no known country'}, ` +
        `not one of the organization's allowed_countries (${countries.join(', ') || 'none'}; dialing_permissions of POST /v1/account).`,
    };
  return {
    allowed: true,
    detail: `${to}: ${country ?? 'a number'} allowed by the organization's dialing permissions.`,
  };
}

/**
 * The dialing permissions' verdict on destination `to` (pure): an E.164 number (`numberVerdict`: a
 * high-cost type the operator has not allowed, or a country outside `allowed_countries`, refused), a
 * `sip:` URI (its host one of `sip_domains`), a `client:` identity (refused: src/shared/dialing.ts
 * `DESTINATION_REFUSALS`), anything else refused as invalid.
 */
export function destinationVerdict(to: string, permissions: DialingPermissions): DestinationCheck {
  if (/^\+[1-9]\d{1,14}$/.test(to)) return numberVerdict(to, permissions);
  if (/^sip:/i.test(to)) {
    const host = sipHost(to);
    if (host && /^sip:[^\s@]+@[^\s@]+$/i.test(to) && permissions.sipDomains.includes(host))
      return { allowed: true, detail: `${to}: ${host} is one of the organization's sip_domains.` };
    return {
      allowed: false,
      refusal: 'sip_domain_not_listed',
      detail:
        `Destination not allowed: ${to} is on ${host ?? 'no host'}, not one of the organization's sip_domains ` +
        `(${permissions.sipDomains.join(', ') || 'none'}; dialing_permissions of POST /v1/account).`,
    };
  }
  if (/^client:/i.test(to))
    return {
      allowed: false,
      refusal: 'client_not_allowed',
      detail: `Destination not allowed: ${to} is a client: identity; calls and transfers go to phone numbers and sip: addresses only.`,
    };
  return {
    allowed: false,
    refusal: 'invalid_destination',
    detail: `Destination not allowed: ${to} is not an E.164 number or a sip: URI.`,
  };
}

/**
 * Checks destination `to` of a dial or a transfer of `tenant` against its dialing permissions
 * (src/services/dialing-permissions.ts `dialingPermissionsOf`, defaults applied; `destinationVerdict`).
 * An organization that no longer exists may dial nowhere.
 */
export async function checkDestination(tenant: Tenant, to: string): Promise<DestinationCheck> {
  const permissions = await dialingPermissionsOf(tenant);
  if (!permissions)
    return { allowed: false, refusal: 'country_not_allowed', detail: 'Destination not allowed: no such organization.' };
  return destinationVerdict(to, permissions);
}

/**
 * `checkDestination` for the API: 400 `destination_not_allowed` naming `param`, its message naming the
 * rule, when the permissions refuse `to`.
 * @throws ApiError 400 `destination_not_allowed`
 */
export async function requireDestination(tenant: Tenant, to: string, param: string): Promise<void> {
  const check = await checkDestination(tenant, to);
  if (!check.allowed) throw destinationNotAllowed(check.detail, param);
}

/** 400 `destination_not_allowed` naming `param`. */
export const destinationNotAllowed = (message: string, param: string) =>
  new ApiError(400, 'invalid_request_error', 'destination_not_allowed', message, param);

/** Failure type of a dial refused by the dialing permissions inside a telephony activity (not retried). */
export const DESTINATION_NOT_ALLOWED = 'DestinationNotAllowed';

/**
 * The last word before Twilio is asked to dial `to` for call `callId` (a live call's own dial, the
 * `<Dial>` of a cold transfer, a warm transfer's leg): the dialing permissions of the call's organization
 * (src/services/dial-gate.ts `checkDestination`), whatever path led here.
 * @throws ApplicationFailure `DESTINATION_NOT_ALLOWED` (non-retryable) naming the permission that refuses it
 */
export async function requireDialAllowed(callId: string, to: string): Promise<void> {
  const call = await Call.findById(callId, { org_id: 1, livemode: 1 }).lean();
  if (!call) throw ApplicationFailure.nonRetryable(`No such call: ${callId}`, DESTINATION_NOT_ALLOWED);
  const check = await checkDestination({ orgId: call.org_id, livemode: call.livemode }, to);
  if (!check.allowed) throw ApplicationFailure.nonRetryable(check.detail, DESTINATION_NOT_ALLOWED);
}
