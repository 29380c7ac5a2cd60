/**
 * An organization's dialing permissions (src/shared/dialing.ts): what it set (`POST /v1/account`
 * `dialing_permissions`: `allowed_countries`, `sip_domains`; both modes), what the operator allowed it
 * (`svcctl dialing allow-number-types`: high-cost number types), and the defaults in between. The dial
 * gate (src/services/dial-gate.ts `checkDestination`) reads them for every dial.
 *
 * `allowed_countries` unless the organization set it: the countries of its own numbers in the mode
 * (`phone_numbers`, read with libphonenumber-js), with the operator's `DEFAULT_ALLOWED_COUNTRIES`; without
 * numbers, a live organization the operator's `DEFAULT_ALLOWED_COUNTRIES` alone (none unless set), and a
 * test-mode one every country (its calls are simulated and cost nothing; set `allowed_countries` to see the
 * rule in test mode). This follows Twilio's own
 * practice of enabling the country an account signs up from and nothing else
 * (https://www.twilio.com/docs/voice/api/dialing-permissions-resources, "smart defaults").
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { config } from '../config';
import type { DialingPermissionsView } from '../models/dialing';
import { PhoneNumber } from '../models/conversations';
import { Org } from '../models/orgs';
import { isHighCostNumberType, type HighCostNumberType } from '../shared/dialing';

type Tenant = { orgId: string; livemode: boolean };

/** What the organization itself set (`dialing_permissions` of `POST /v1/account`). */
export interface DialingPermissionsSetting {
  /** null: the default (module comment). */
  allowed_countries: string[] | null;
  sip_domains: string[];
}

/** The permissions a dial is checked against, defaults applied. */
export interface DialingPermissions {
  /** Upper-case ISO 3166-1 alpha-2 codes; null: every country (the test-mode default). */
  allowedCountries: string[] | null;
  countriesSource: DialingPermissionsView['allowed_countries_source'];
  /** Lower-case hosts. */
  sipDomains: string[];
  allowedNumberTypes: HighCostNumberType[];
}

/** The stored setting of an organization document (null fields: nothing set). */
function settingOf(json: string | null | undefined): DialingPermissionsSetting {
  const stored = json ? (JSON.parse(json) as Partial<DialingPermissionsSetting>) : {};
  return { allowed_countries: stored.allowed_countries ?? null, sip_domains: stored.sip_domains ?? [] };
}

/** The countries of the tenant's own numbers (libphonenumber-js), sorted; a number of no country adds none. */
async function numberCountries(tenant: Tenant): Promise<string[]> {
  const numbers = await PhoneNumber.find({ org_id: tenant.orgId, livemode: tenant.livemode }, { number: 1 }).lean();
  const countries = numbers.map((n) => parsePhoneNumberFromString(n.number)?.country).filter((c) => c !== undefined);
  return [...new Set(countries)].sort();
}

/**
 * The tenant's dialing permissions with the defaults applied (module comment); null when the
 * organization does not exist.
 */
export async function dialingPermissionsOf(tenant: Tenant): Promise<DialingPermissions | null> {
  const org = await Org.findById(tenant.orgId, { dialing_permissions_json: 1, allowed_number_types: 1 }).lean();
  if (!org) return null;
  const setting = settingOf(org.dialing_permissions_json);
  const allowedNumberTypes = (org.allowed_number_types ?? []).filter(isHighCostNumberType);
  const base = { sipDomains: setting.sip_domains, allowedNumberTypes };
  if (setting.allowed_countries)
    return { ...base, allowedCountries: setting.allowed_countries, countriesSource: 'account' };
  const own = await numberCountries(tenant);
  const operator = config().defaultAllowedCountries;
  if (own.length > 0)
    return { ...base, allowedCountries: [...new Set([...own, ...operator])].sort(), countriesSource: 'phone_numbers' };
  if (!tenant.livemode) return { ...base, allowedCountries: null, countriesSource: 'test_mode' };
  return { ...base, allowedCountries: [...operator].sort(), countriesSource: 'operator_default' };
}

/** The account's `dialing_permissions` object. */
export function renderDialingPermissions(permissions: DialingPermissions): DialingPermissionsView {
  return {
    allowed_countries: permissions.allowedCountries,
    allowed_countries_source: permissions.countriesSource,
    sip_domains: permissions.sipDomains,
    allowed_number_types: permissions.allowedNumberTypes,
  };
}

/**
 * Sets what the organization's dialing permissions are, both modes (`POST /v1/account`
 * `dialing_permissions`): the fields given replace theirs (`allowed_countries: null` goes back to the
 * default), the others are kept. The API validated the codes (upper case, known to libphonenumber) and the
 * hosts (lower case).
 * @throws Error for an unknown organization
 */
export async function setDialingPermissions(orgId: string, patch: Partial<DialingPermissionsSetting>): Promise<void> {
  const org = await Org.findById(orgId, { dialing_permissions_json: 1 }).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  const next = { ...settingOf(org.dialing_permissions_json), ...patch };
  const json = next.allowed_countries === null && next.sip_domains.length === 0 ? null : JSON.stringify(next);
  await Org.updateOne({ _id: orgId }, { $set: { dialing_permissions_json: json } });
}

/**
 * Sets the high-cost number types the operator allows organization `orgId` (`svcctl dialing
 * allow-number-types`), replacing the earlier list; an empty list allows none again.
 * @returns `{object: "dialing_permissions", org, allowed_number_types}`
 * @throws Error for an unknown organization
 */
export async function setAllowedNumberTypes(
  orgId: string,
  types: HighCostNumberType[],
): Promise<{ object: 'dialing_permissions'; org: string; allowed_number_types: HighCostNumberType[] }> {
  const unique = [...new Set(types)];
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: { allowed_number_types: unique } });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
  return { object: 'dialing_permissions', org: orgId, allowed_number_types: unique };
}

/**
 * The operator's view of organization `orgId`'s dialing permissions, both modes (`svcctl dialing get`).
 * @throws Error for an unknown organization
 */
export async function orgDialingPermissions(
  orgId: string,
): Promise<{ object: 'dialing_permissions'; org: string; live: DialingPermissionsView; test: DialingPermissionsView }> {
  const [live, test] = await Promise.all([
    dialingPermissionsOf({ orgId, livemode: true }),
    dialingPermissionsOf({ orgId, livemode: false }),
  ]);
  if (!live || !test) throw new Error(`No such organization: ${orgId}`);
  return {
    object: 'dialing_permissions',
    org: orgId,
    live: renderDialingPermissions(live),
    test: renderDialingPermissions(test),
  };
}
