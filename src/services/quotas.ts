/**
 * Per-organization daily quotas: spend a tenant cannot inflate. Three caps, each per organization (both
 * modes together) and per UTC day (they reset at 00:00 UTC):
 * - `llm_tokens_per_day`: prompt and completion tokens of the organization's model requests (calls,
 *   conversations, analyses), as the provider reported them;
 * - `test_suite_runs_per_day`: `POST /v1/test_suites/{id}/runs`;
 * - `analysis_reruns_per_day`: `POST /v1/calls/{id}/analyze` and `POST /v1/conversations/{id}/analyze`.
 *
 * Operator defaults come from `QUOTA_LLM_TOKENS_PER_DAY`, `QUOTA_TEST_SUITE_RUNS_PER_DAY` and
 * `QUOTA_ANALYSIS_RERUNS_PER_DAY` (src/config.ts; 0: no cap); `svcctl quotas set` gives an organization
 * its own (stored on the organization, `quotas.*`, null for the default). `GET /v1/account` shows each
 * cap, what the day used and when it resets.
 *
 * Where the check happens: before new work starts, never inside work already running. A new outbound
 * call, bulk campaign, widget message, test-suite run or analysis re-run is refused with 429
 * `quota_exceeded` (param: the quota) once the day's tokens reached the cap; a call or conversation
 * already under way keeps answering to its end (its tokens still count), so no caller is cut off
 * mid-sentence and no transcript is lost: the cap may be exceeded by the work that was running when it
 * was reached. Inbound calls and messages (the tenant's own customers) are answered whatever the quota.
 */
import { config } from '../config';
import { ApiError } from '../errors';
import { Org, type OrgDoc } from '../models/orgs';
import { QuotaCounter } from '../models/quotas';
import { findByIdShared, isDuplicateKey } from '../models/store';
import { groupCommit } from '../shared/group-commit';

/** The quotas, as the API and `svcctl` name them. */
export const QUOTAS = ['llm_tokens_per_day', 'test_suite_runs_per_day', 'analysis_reruns_per_day'] as const;
export type QuotaName = (typeof QUOTAS)[number];

/** The highest cap an operator may set (a safe integer, far beyond any day's use). */
export const MAX_QUOTA = 1_000_000_000_000;

/** The counter field of `quota_counters` each quota compares with its cap. */
const COUNTER = {
  llm_tokens_per_day: 'llm_tokens',
  test_suite_runs_per_day: 'test_suite_runs',
  analysis_reruns_per_day: 'analysis_reruns',
} as const satisfies Record<QuotaName, string>;

/** The operator's default cap of each quota (null: no cap, the variable is 0). */
function defaultCap(quota: QuotaName): number | null {
  const d = config().quotaDefaults;
  const n = {
    llm_tokens_per_day: d.llmTokensPerDay,
    test_suite_runs_per_day: d.testSuiteRunsPerDay,
    analysis_reruns_per_day: d.analysisRerunsPerDay,
  }[quota];
  return n === 0 ? null : n;
}

/** The UTC day of `ms`, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The next 00:00 UTC after `ms` (ms): when the day's quotas reset. */
export function nextUtcMidnight(ms: number): number {
  return (Math.floor(ms / 86_400_000) + 1) * 86_400_000;
}

/** Each quota's cap of an organization document: its own, else the operator's default (null: no cap). */
function capsOf(org: Pick<OrgDoc, 'quotas'> | null): Record<QuotaName, number | null> {
  const own = (org?.quotas ?? {}) as Partial<Record<QuotaName, number | null>>;
  return Object.fromEntries(QUOTAS.map((q) => [q, own[q] ?? defaultCap(q)])) as Record<QuotaName, number | null>;
}

/** The 429 of a quota used up: `quota_exceeded`, `param` the quota, `Retry-After` until 00:00 UTC. */
export function quotaExceeded(quota: QuotaName, cap: number, nowMs = Date.now()): ApiError {
  const resets = nextUtcMidnight(nowMs);
  return new ApiError(
    429,
    'rate_limit_error',
    'quota_exceeded',
    `The organization's daily quota ${quota} (${cap}) is used up for today; it resets at ${new Date(resets).toISOString()} (00:00 UTC). Work already running goes on; the operator can raise it with \`svcctl quotas set\`.`,
    quota,
    { 'Retry-After': String(Math.max(1, Math.ceil((resets - nowMs) / 1000))) },
  );
}

/** The organization's counters of the UTC day of `nowMs` (zeros when nothing was counted yet). */
async function todayCounts(orgId: string, nowMs: number): Promise<Record<QuotaName, number>> {
  const doc = await QuotaCounter.findById(`${orgId}:${utcDay(nowMs)}`).lean();
  return Object.fromEntries(QUOTAS.map((q) => [q, doc?.[COUNTER[q]] ?? 0])) as Record<QuotaName, number>;
}

/**
 * Refuses new model work once the organization's tokens of the day reached `llm_tokens_per_day`: one
 * read of the organization (shared with concurrent lookups) and one of the day's counter.
 * @throws ApiError 429 `quota_exceeded` (param `llm_tokens_per_day`)
 */
export async function checkLlmQuota(orgId: string, nowMs = Date.now()): Promise<void> {
  const cap = capsOf(await findByIdShared<OrgDoc>(Org, orgId)).llm_tokens_per_day;
  if (cap === null) return;
  const used = (await todayCounts(orgId, nowMs)).llm_tokens_per_day;
  if (used >= cap) throw quotaExceeded('llm_tokens_per_day', cap, nowMs);
}

/**
 * Takes one of the day's test-suite runs or analysis re-runs: adds one to the day's counter and, when
 * that passed the cap, gives it back and refuses (concurrent requests cannot both take the last one:
 * each sees the count its own `$inc` made).
 * @throws ApiError 429 `quota_exceeded` naming the quota
 */
export async function takeQuota(
  orgId: string,
  quota: Exclude<QuotaName, 'llm_tokens_per_day'>,
  nowMs = Date.now(),
): Promise<void> {
  const cap = capsOf(await findByIdShared<OrgDoc>(Org, orgId))[quota];
  if (cap === null) return;
  const taken = await writeCounter(`${orgId}:${utcDay(nowMs)}`, { field: COUNTER[quota], take: cap });
  if (!taken) throw quotaExceeded(quota, cap, nowMs);
}

/** One change to a day's counter document: add `add` to `field`, or take one of it under the cap `take`. */
type CounterWrite =
  { field: 'llm_tokens'; add: number } | { field: 'test_suite_runs' | 'analysis_reruns'; take: number };

/**
 * `$inc` of a day's counter, created on its first write. An upsert whose insert lost the race for the
 * `_id` to another writer's (E11000: MongoDB retries that itself since 4.2, FerretDB 1.x does not) is
 * tried again, and then updates the document the other writer created.
 * @returns the document after the update
 */
async function incCounter(id: string, inc: Record<string, number>): Promise<Record<string, unknown> | null> {
  const [orgId, day] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
  for (let attempt = 0; ; attempt++) {
    try {
      return (await QuotaCounter.findOneAndUpdate(
        { _id: id },
        { $inc: inc, $set: { org_id: orgId, day } },
        { upsert: true, returnDocument: 'after', lean: true },
      )) as Record<string, unknown> | null;
    } catch (err) {
      if (!isDuplicateKey(err) || attempt >= 2) throw err;
    }
  }
}

/**
 * Every write of this process to one day's counter document goes through here, one at a time per
 * document: FerretDB 1.x applies an `$inc` as a read-modify-write without a version check, so two
 * concurrent increments of one document can lose one (DESIGN.md section 3, "one writer per document").
 * Token additions that come together go in one `$inc`; each take is its own `$inc` of one, given back
 * when it passed the cap (a take sees the count its own increment made).
 * @returns per write: true (added, or taken), false (a take past the cap)
 */
const writeCounter = groupCommit<CounterWrite, boolean>(async (id, writes) => {
  const tokens = writes.reduce((n, w) => n + ('add' in w ? w.add : 0), 0);
  if (tokens > 0) await incCounter(id, { llm_tokens: tokens });
  const results: boolean[] = [];
  for (const w of writes) {
    if (!('take' in w)) {
      results.push(true);
      continue;
    }
    const after = await incCounter(id, { [w.field]: 1 });
    const ok = Number(after?.[w.field] ?? 0) <= w.take;
    if (!ok) await QuotaCounter.updateOne({ _id: id }, { $inc: { [w.field]: -1 } });
    results.push(ok);
  }
  return results;
}, 100);

/**
 * Counts `tokens` against the organization's `llm_tokens_per_day` of the UTC day of `atMs`. Called by
 * `recordUsage` (src/services/usage.ts) once per usage row it stores, so a retried activity adds once.
 */
export async function addLlmTokens(orgId: string, tokens: number, atMs: number): Promise<void> {
  if (!(tokens > 0)) return;
  await writeCounter(`${orgId}:${utcDay(atMs)}`, { field: 'llm_tokens', add: tokens });
}

/** One quota as `GET /v1/account` and `svcctl quotas get` show it. */
export interface QuotaView {
  /** The day's cap; null: no cap. */
  limit: number | null;
  /** What the organization used of it today (UTC). */
  used: number;
}

/** Every quota of an organization with today's use, and when they reset (unix seconds). */
export type QuotasView = Record<QuotaName, QuotaView> & { resets_at: number };

/** The quotas of an organization document today (`GET /v1/account`). */
export async function quotasOf(org: Pick<OrgDoc, 'quotas'> & { _id: string }, nowMs = Date.now()): Promise<QuotasView> {
  const caps = capsOf(org);
  const used = await todayCounts(org._id, nowMs);
  return {
    ...(Object.fromEntries(QUOTAS.map((q) => [q, { limit: caps[q], used: used[q] }])) as Record<QuotaName, QuotaView>),
    resets_at: Math.floor(nextUtcMidnight(nowMs) / 1000),
  };
}

/**
 * Checks a cap an operator asked for: an integer from 0 (nothing of it today) to `MAX_QUOTA`.
 * @throws Error naming the range and the value
 */
export function checkQuotaValue(n: number, shown = String(n)): number {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_QUOTA)
    throw new Error(`a quota must be an integer from 0 to ${MAX_QUOTA}; got ${shown}.`);
  return n;
}

/**
 * Sets an organization's own caps (`svcctl quotas set`): a number, or null for the operator's default.
 * Quotas not named are unchanged. Checks every value before writing.
 * @throws Error for an unknown quota, a value `checkQuotaValue` refuses, or an unknown organization
 * @returns the organization's quotas after the change
 */
export async function setOrgQuotas(
  orgId: string,
  caps: Partial<Record<QuotaName, number | null>>,
): Promise<{ object: 'quotas'; org: string } & QuotasView> {
  const set: Record<string, number | null> = {};
  for (const [quota, n] of Object.entries(caps)) {
    if (!(QUOTAS as readonly string[]).includes(quota)) throw new Error(`unknown quota: ${quota}`);
    if (n !== null && n !== undefined) checkQuotaValue(n);
    if (n !== undefined) set[`quotas.${quota}`] = n;
  }
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: set });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
  return orgQuotas(orgId);
}

/**
 * An organization's quotas with today's use (`svcctl quotas get`).
 * @throws Error when the organization does not exist
 */
export async function orgQuotas(orgId: string): Promise<{ object: 'quotas'; org: string } & QuotasView> {
  const org = await Org.findById(orgId).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  return { object: 'quotas', org: orgId, ...(await quotasOf(org)) };
}
