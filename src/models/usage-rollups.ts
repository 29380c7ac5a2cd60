/**
 * Usage rollups: per UTC day, the sums of an organization's usage rows (src/models/usage.ts), from
 * which `GET /v1/usage` answers a month by reading about 31 small documents instead of every row of the
 * month. Written only by src/services/usage-rollups.ts (`foldUsageRows`), with `$inc` as the rows are
 * stored; that module's header gives the scheme that keeps them exact under retries and crashes.
 *
 * One document per organization, mode, scope and UTC day, `_id` `<org>:<test|live>:<scope>:<YYYY-MM-DD>`:
 * - scope `all`: every row of the organization and mode;
 * - scope `a:<agent id>`: the rows of one agent's calls and conversations (`?agent_id=`);
 * - scope `v:<agent id>:<version>`: of one version of the agent (`?agent_id=&agent_version=`).
 * `slots` holds the measures of each quarter-hour of the UTC day that has usage, under `t<HHMM>` (the
 * quarter-hour's start, `t0915`), each a partial `UsageMeasures` (only the fields a row added to), so
 * that a report in any time zone whose days start on a quarter-hour (every zone's offset today) is exact.
 * Each such document has a twin holding the day's sums alone (`total`, a partial `UsageMeasures`), scope
 * `day:<scope>` (`dayTotalsScope`), `_id` `<org>:<test|live>:day:<scope>:<YYYY-MM-DD>`: a report whose
 * days are UTC days reads those (about 1 KB each) instead of the quarter-hours (up to 96 slots, ~11 KB,
 * which the embedded store reads whole even under a projection). A report in another time zone keeps each
 * local day's sums in a cache document, scope `zone:<time zone>:<scope>`, `day` the local date, checked
 * against the versions (`v`) of the twins it was summed from (src/services/usage-rollups.ts `sumZoneDays`).
 * `applied`: the rollup keys (`rollup_key` of a row) of the rows folded in recently, so that folding a row
 * twice adds it once; emptied again once the row says it is folded.
 */
import mongoose, { Schema } from 'mongoose';
import { schemaOptions } from './store';

const usageRollupSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** `all`, `a:<agent id>` or `v:<agent id>:<version>` (see the header). */
    scope: { type: String, required: true },
    /** The UTC day, `YYYY-MM-DD`. */
    day: { type: String, required: true },
    /** Per quarter-hour `t<HHMM>`: the sums of its rows (nested like `UsageMeasures`). */
    slots: { type: Schema.Types.Mixed },
    /** A `day:` document's sums of the whole UTC day (nested like `UsageMeasures`); a `zone:` one's, of its local day. */
    total: { type: Schema.Types.Mixed },
    /** A `day:` document's version: changed by every row added to it (a `zone:` cache checks it). */
    v: { type: Number },
    /** A `zone:` cache's local day: its first instant and its end (ms). */
    bounds: { type: [Number], default: undefined },
    /** A `zone:` cache's versions of the `day:` documents it was summed from, `{YYYY-MM-DD: v}`. */
    deps: { type: Schema.Types.Mixed },
    /** Rollup keys of rows folded in and not yet marked folded on the row (see the header). */
    applied: { type: [String], default: undefined },
  },
  { ...schemaOptions, minimize: false },
);
/** A report: one scope's days of a period (equality prefix, then a string range on `day`). */
usageRollupSchema.index({ org_id: 1, livemode: 1, scope: 1, day: 1 });
export const UsageRollup = mongoose.model('UsageRollup', usageRollupSchema, 'usage_daily');

/** A rollup document as stored. */
export interface UsageRollupDoc {
  _id: string;
  org_id: string;
  livemode: boolean;
  scope: string;
  day: string;
  slots?: Record<string, Record<string, unknown>>;
  total?: Record<string, unknown>;
  v?: number;
  bounds?: number[];
  deps?: Record<string, number>;
  applied?: string[];
}

/** The `_id` of the rollup of `scope` on UTC day `day`. */
export function rollupId(orgId: string, livemode: boolean, scope: string, day: string): string {
  return `${orgId}:${livemode ? 'live' : 'test'}:${scope}:${day}`;
}

/** The scope of the day-totals twin of the rollups of `scope` (`day:all`, `day:a:<agent id>`…). */
export function dayTotalsScope(scope: string): string {
  return `day:${scope}`;
}
