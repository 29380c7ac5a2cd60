/**
 * An organization's privacy settings per mode: how many days each kind of data
 * is kept (`retention`) and whether personal data is redacted before storage (`redaction`). Stored on the
 * organization (src/models/orgs.ts `retention_live`/`retention_test`, `redaction_live`/`redaction_test`),
 * set by `POST /v1/account` (src/api/account.ts) and, for recordings in both modes, by
 * `svcctl recordings set-retention` (src/services/recordings.ts). Read by `GET /v1/account`, the retention
 * sweep (src/activities/retention.ts) and the redaction before storage (`privacySettings`, cached briefly).
 */
import { Org, type OrgDoc } from '../models/orgs';
import { RETENTION_DAYS_RANGE, RETENTION_KINDS, type PrivacySettings, type RetentionSettings } from '../shared/privacy';

/** A tenant: an organization in one mode. */
export interface Tenant {
  orgId: string;
  livemode: boolean;
}

/** The organization's fields that hold a mode's settings. */
export const retentionField = (livemode: boolean) => (livemode ? 'retention_live' : 'retention_test');
const redactionField = (livemode: boolean) => (livemode ? 'redaction_live' : 'redaction_test');

/** A mode's settings on an organization document (defaults: keep for ever, no redaction). */
export function privacyOf(org: Partial<OrgDoc> | null | undefined, livemode: boolean): PrivacySettings {
  const stored = (org?.[retentionField(livemode)] ?? {}) as Partial<Record<string, number | null>>;
  const retention = Object.fromEntries(
    RETENTION_KINDS.map((k) => [`${k}_days`, stored[`${k}_days`] ?? null]),
  ) as RetentionSettings;
  const redaction = (org?.[redactionField(livemode)] ?? {}) as { enabled?: boolean | null };
  return { retention, redaction: { enabled: redaction.enabled === true } };
}

/**
 * How long (ms) a process trusts the settings it read (the redaction before every write reads them): a
 * change through another API process applies everywhere within this bound, through this process at once.
 */
export const PRIVACY_CACHE_TTL_MS = 5_000;
const cache = new Map<string, { settings: PrivacySettings; untilMs: number }>();
const cacheKey = (t: Tenant) => `${t.orgId}|${t.livemode}`;

/**
 * The tenant's privacy settings (`{retention, redaction}`), from this process's memory when read in the
 * last `PRIVACY_CACHE_TTL_MS`, else one `_id` lookup of the organization. An unknown organization has the
 * defaults (keep for ever, no redaction).
 * @param nowMs the clock (tests pass one)
 * @throws what the store throws
 */
export async function privacySettings(tenant: Tenant, nowMs = Date.now()): Promise<PrivacySettings> {
  const hit = cache.get(cacheKey(tenant));
  if (hit && hit.untilMs > nowMs) return hit.settings;
  const org = await Org.findById(tenant.orgId, {
    [retentionField(tenant.livemode)]: 1,
    [redactionField(tenant.livemode)]: 1,
  }).lean();
  const settings = privacyOf(org, tenant.livemode);
  if (cache.size >= 10_000) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey(tenant), { settings, untilMs: nowMs + PRIVACY_CACHE_TTL_MS });
  return settings;
}

/** A change of settings: the retention fields given (null: keep for ever) and redaction's `enabled`. */
export interface PrivacyChange {
  retention?: Partial<RetentionSettings>;
  redaction?: { enabled?: boolean };
}

/**
 * Checks a retention's days: an integer within `RETENTION_DAYS_RANGE` (1–3,650) or null (keep for ever).
 * @param field how the message names it (`retention.transcripts_days`, `recording_retention_days`)
 * @throws Error naming the field, the range and the value
 */
export function checkRetentionDays(days: number | null, field: string, shown = String(days)): number | null {
  const { min, max } = RETENTION_DAYS_RANGE;
  if (days !== null && (!Number.isInteger(days) || days < min || days > max))
    throw new Error(`${field} must be an integer from ${min} to ${max}; got ${shown}.`);
  return days;
}

/**
 * Sets the tenant's privacy settings: only the fields given change (one `$set` of their paths, so two
 * changes of different fields never lose one). A retention set in any mode marks the organization for the
 * sweeps (`retention_set`). Forgets this process's cached settings of the tenant.
 * @throws Error for days out of range (`checkRetentionDays`) or an unknown organization
 * @returns the settings after the change
 */
export async function setPrivacySettings(tenant: Tenant, change: PrivacyChange): Promise<PrivacySettings> {
  const set: Record<string, unknown> = {};
  for (const [field, days] of Object.entries(change.retention ?? {})) {
    if (days === undefined) continue;
    set[`${retentionField(tenant.livemode)}.${field}`] = checkRetentionDays(days, `retention.${field}`);
    if (days !== null) set.retention_set = true;
  }
  if (change.redaction?.enabled !== undefined)
    set[`${redactionField(tenant.livemode)}.enabled`] = change.redaction.enabled;
  cache.delete(cacheKey(tenant));
  if (Object.keys(set).length > 0) {
    const { matchedCount } = await Org.updateOne({ _id: tenant.orgId }, { $set: set });
    if (matchedCount === 0) throw new Error(`No such organization: ${tenant.orgId}`);
  }
  cache.delete(cacheKey(tenant));
  return privacySettings(tenant);
}

/**
 * The tenants whose organization set a retention (the sweeps' work list), in organization order: one
 * equality query on the `retention_set` index, then each mode with at least one days value.
 */
export async function retentionTenants(): Promise<(Tenant & { retention: RetentionSettings })[]> {
  const orgs = await Org.find({ retention_set: true }, { retention_live: 1, retention_test: 1 })
    .sort({ _id: 1 })
    .lean();
  const tenants: (Tenant & { retention: RetentionSettings })[] = [];
  for (const org of orgs)
    for (const livemode of [false, true]) {
      const { retention } = privacyOf(org, livemode);
      if (Object.values(retention).some((d) => d !== null)) tenants.push({ orgId: org._id, livemode, retention });
    }
  return tenants;
}
