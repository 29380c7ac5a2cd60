/**
 * The organization's concurrency limit: at most `max_concurrent_calls` of its calls are
 * live at once in each mode, whatever their direction or channel. This module is the limit as data: read
 * by the call-slot semaphore and `GET /v1/account` (src/api/account.ts), written by the operator with
 * `svcctl limits set` (src/cli/svcctl.ts). Stored on the organization (src/models/orgs.ts,
 * `max_concurrent_calls_live` and `max_concurrent_calls_test`, null for the default).
 */
import { dialingPermissionsOf, renderDialingPermissions } from './dialing-permissions';
import { Org, renderAccount, type AccountObject, type OrgDoc } from '../models/orgs';
import { findByIdShared } from '../models/store';
import type { z } from 'zod';
import { aiDisclosureOf } from './ai-disclosure';
import { privacyOf } from './privacy';
import { quotasOf } from './quotas';

/** The limit of an organization whose operator never set one: 10 calls at once, in each mode. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 10;
/** The limits an operator may set (inclusive; outside 1–1,000 is refused). */
export const MAX_CONCURRENT_CALLS_RANGE = { min: 1, max: 1000 } as const;

/** A mode as operators name it (`svcctl --mode`). */
export type LimitMode = 'test' | 'live';

/** What `setOrgCallLimit` answers and `svcctl limits set` prints. */
export interface OrgCallLimitView {
  object: 'limits';
  org: string;
  mode: LimitMode;
  max_concurrent_calls: number;
}

/** What `orgCallLimits` answers and `svcctl limits get` prints: both modes' limits, defaults applied. */
export interface OrgCallLimitsView {
  object: 'limits';
  org: string;
  live: { max_concurrent_calls: number };
  test: { max_concurrent_calls: number };
}

/** The organization's field that holds a mode's limit. */
const limitField = (livemode: boolean) => (livemode ? 'max_concurrent_calls_live' : 'max_concurrent_calls_test');

/** A mode's limit on an organization document, the default when unset. */
function limitOf(org: Partial<Pick<OrgDoc, ReturnType<typeof limitField>>>, livemode: boolean): number {
  return org[limitField(livemode)] ?? DEFAULT_MAX_CONCURRENT_CALLS;
}

/**
 * How many of the tenant's calls may be live at once in its mode (a count of calls). One `_id` lookup of
 * the organization (FerretDB indexes only `_id`), shared by the lookups of the same organization that come
 * while one is on its way (src/models/store.ts `findByIdShared`: a burst of one organization's calls
 * reads it a few times, not once each, and still sees a limit stored before it asked).
 * Never throws for a missing organization or an unset limit: both are `DEFAULT_MAX_CONCURRENT_CALLS`
 * (10).
 */
export async function orgCallLimit(tenant: { orgId: string; livemode: boolean }): Promise<number> {
  const org = await findByIdShared<OrgDoc>(Org, tenant.orgId);
  return org ? limitOf(org, tenant.livemode) : DEFAULT_MAX_CONCURRENT_CALLS;
}

/**
 * Checks a limit an operator asked for: an integer within `MAX_CONCURRENT_CALLS_RANGE` (1–1,000).
 * @param shown how the message quotes the value (the operator's own text; default `n`)
 * @throws Error naming the range and the value when `n` is not (a fraction, NaN, 0, 1,001…)
 */
export function checkCallLimit(n: number, shown = String(n)): number {
  const { min, max } = MAX_CONCURRENT_CALLS_RANGE;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`max_concurrent_calls must be an integer from ${min} to ${max}; got ${shown}.`);
  return n;
}

/**
 * Sets the organization's limit for one mode (a count of calls at once). Checks before
 * writing, so a refused limit changes nothing. Does not tell the semaphore: src/services/call-slots.ts `notifyLimitChanged` does.
 * @throws Error when `mode` is not `test` or `live`, when `n` is outside 1–1,000 or not an integer
 *   (`checkCallLimit`), or when the organization does not exist (`No such organization: org_…`)
 * @returns the limit as `svcctl limits set` prints it
 */
export async function setOrgCallLimit(orgId: string, mode: LimitMode, n: number): Promise<OrgCallLimitView> {
  if (mode !== 'test' && mode !== 'live') throw new Error(`mode must be test or live; got ${String(mode)}.`);
  checkCallLimit(n);
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: { [limitField(mode === 'live')]: n } });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
  return { object: 'limits', org: orgId, mode, max_concurrent_calls: n };
}

/**
 * Both modes' limits of an organization, defaults applied (`svcctl limits get`).
 * @throws Error when the organization does not exist
 */
export async function orgCallLimits(orgId: string): Promise<OrgCallLimitsView> {
  const org = await Org.findById(orgId).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  return {
    object: 'limits',
    org: orgId,
    live: { max_concurrent_calls: limitOf(org, true) },
    test: { max_concurrent_calls: limitOf(org, false) },
  };
}

/**
 * The `account` object of the tenant's organization in its mode (`GET /v1/account`): one
 * `_id` lookup, and one of the day's quota counters. `null` when the organization is gone (its keys outlived it).
 */
export async function retrieveAccount(tenant: {
  orgId: string;
  livemode: boolean;
}): Promise<z.output<typeof AccountObject> | null> {
  const [org, dialing] = await Promise.all([Org.findById(tenant.orgId).lean(), dialingPermissionsOf(tenant)]);
  return org && dialing
    ? renderAccount(
        org,
        tenant.livemode,
        limitOf(org, tenant.livemode),
        privacyOf(org, tenant.livemode),
        await quotasOf(org),
        (tenant.livemode ? org.payments_live : org.payments_test)?.connector ?? null,
        aiDisclosureOf(org, tenant.livemode),
        renderDialingPermissions(dialing),
      )
    : null;
}
