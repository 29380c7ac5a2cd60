/**
 * Usage rollups (src/models/usage-rollups.ts): per UTC day and quarter-hour, the sums of the usage rows,
 * kept with `$inc` as the rows are stored, so that `GET /v1/usage` for a month reads about 31 rollup
 * documents per scope instead of the month's rows (DESIGN.md section 3: the rows stay the truth; the
 * rollups are derived from them and can be rebuilt). Each day has two documents per scope: its
 * quarter-hours (`slots`) and its sums alone (the `day:` twin, `total`); both are written in the same
 * way, one after the other in one queued write (below), so that they always agree.
 *
 * Exactly once, without transactions (FerretDB 1.x has none; each write is atomic on one document):
 * 1. The row is inserted with `rollup: 'pending'`, its `rollup_key` (a hash of its `_id`, kept when
 *    erasure re-keys the row) and a lease `rollup_lease_ms` (now + `FOLD_LEASE_MS`): the writer that
 *    inserted it folds it.
 * 2. Folding adds the row to each of its rollup documents (scope `all`, its agent's, its agent version's)
 *    with ONE conditional update per document: "if `applied` does not hold the row's key: `$inc` its
 *    measures and push its key" (an upsert; when its filter matches nothing and the insert finds the `_id`
 *    taken, the key is there, already added, or another writer just created the document: the update is
 *    tried again). A crash or retry between documents re-adds only what is missing.
 * 3. The row is marked `rollup: 'done'`; only then are its keys pulled from the documents' `applied`
 *    (so `applied` holds only rows in flight and stays small). A crash before 3 leaves the row pending
 *    with its keys in place: folding it again adds nothing twice. A crash between 3 and the pull leaves a
 *    stale key, which costs a few bytes and nothing else.
 * Anyone else folds a pending row only once its lease has expired and after taking the lease (a
 * conditional update): a retried activity that finds its row already stored, a usage report (which folds
 * its tenant's pending rows before reading, so that a crashed writer's row counts at the next report), the
 * backfill. The one hazard left is a folder that stalls longer than the lease between taking it and its
 * `$inc` while another finishes the row and pulls the key: then the row would count twice. The lease (one
 * minute) is far longer than the milliseconds a fold takes.
 *
 * One writer per rollup document: FerretDB 1.x applies an update as a read-modify-write without a version
 * check (two concurrent updates of one document can lose one), so every write of a process to a rollup
 * document is queued per document (`writeRollup`), and concurrent rows' increments go together in one
 * update. `npm start` runs the API and the worker in one process; with several processes on the embedded
 * store, only the rare folds of rows whose writer crashed (by a report, in the API process) could race a
 * worker's write to the same day. MongoDB applies each update atomically.
 *
 * Backfill: rows stored before rollups existed have no `rollup` field. `backfillUsageRollups` (at
 * `npm start` and `svcctl usage rebuild`) folds them in batches, through the same conditional updates,
 * once: a marker document in `usage_daily` says it ran, so later starts do not scan the rows again.
 * Before that it gives every quarter-hour document of a store from before the `day:` twins its twin, summed
 * from its slots (`buildDayTotals`, once too, with its own marker), inside the quarter-hour document's
 * queued write so that no fold of this process interleaves. `npm start` runs it before its worker starts;
 * when several processes upgrade at once, `svcctl usage rebuild` after the rollout rebuilds every twin.
 *
 * Reading (`sumRollups`): a period whose days are UTC days reads the `day:` twins. Otherwise its local day
 * boundaries must fall on quarter-hours of UTC (every zone's offset since 1980 is a multiple of 15
 * minutes); each quarter-hour of each rollup then belongs to exactly one local day, and the sums are the
 * rows' sums exactly. A period whose days do not (a zone's offset in the 1970s, like Africa/Monrovia's
 * −0:44:30) is summed from the rows (`usageReport` does).
 */
import crypto from 'node:crypto';
import { emptyMeasures, addRow, UsageRecord, type UsageMeasures, type UsageRecordDoc } from '../models/usage';
import { dayTotalsScope, rollupId, UsageRollup, type UsageRollupDoc } from '../models/usage-rollups';
import { bulkUpdate, isDuplicateKey } from '../models/store';
import { groupCommit } from '../shared/group-commit';
import { logger } from '../logger';

/** How long the writer that inserted a row (or took its lease) has to fold it before another may (ms). */
export const FOLD_LEASE_MS = 60_000;
/** A quarter-hour (ms): the rollups' finest unit. */
export const SLOT_MS = 900_000;
const DAY_MS = 86_400_000;
/** The `_id` of the backfill's marker document in `usage_daily`. */
const BACKFILL_MARKER = 'backfill:v1';
/** The `_id` of the marker saying every quarter-hour document has its `day:` twin (`buildDayTotals`). */
const DAY_TOTALS_MARKER = 'backfill:day-totals:v1';
/** Rows folded per batch by the backfill and a report's repair. */
const BATCH = 500;

/** The fields of a usage row that folding reads. */
export type FoldableRow = Partial<UsageRecordDoc> & { _id: string; org_id: string; livemode: boolean };

/** The rollup key of a row `_id`: the marker its folds leave in `applied` (a hash: ids may hold numbers). */
export function rollupKey(rowId: string): string {
  return crypto.createHash('sha256').update(rowId).digest('base64url').slice(0, 22);
}

/** The scopes a row counts in: `all`, and its agent's and agent version's when it has them. */
function scopesOf(row: FoldableRow): string[] {
  const scopes = ['all'];
  if (typeof row.agent_id === 'string') {
    scopes.push(`a:${row.agent_id}`);
    if (typeof row.agent_version === 'number') scopes.push(`v:${row.agent_id}:${row.agent_version}`);
  }
  return scopes;
}

/** The quarter-hour field of `ms` within its UTC day: `t<HHMM>`. */
function slotOf(ms: number): string {
  const minutes = Math.floor((ms - Math.floor(ms / DAY_MS) * DAY_MS) / SLOT_MS) * 15;
  return `t${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

/** The non-zero numeric leaves of `m` as dotted paths under `prefix` (`slots.t0915.calls.count`). */
function flatten(m: Record<string, unknown>, prefix: string, out: Record<string, number>): Record<string, number> {
  for (const [k, v] of Object.entries(m)) {
    if (typeof v === 'number') {
      if (v !== 0) out[`${prefix}.${k}`] = (out[`${prefix}.${k}`] ?? 0) + v;
    } else if (v && typeof v === 'object') flatten(v as Record<string, unknown>, `${prefix}.${k}`, out);
  }
  return out;
}

/**
 * What one row adds to its rollups: its `$inc` of the quarter-hour document (`inc`, empty for a row of an
 * unknown kind) and of the `day:` twin (`dayInc`), its UTC day and scopes.
 */
function increment(row: FoldableRow): {
  inc: Record<string, number>;
  dayInc: Record<string, number>;
  day: string;
  scopes: string[];
  key: string;
} {
  const m = emptyMeasures();
  addRow(m, row);
  const ms = row.occurred_ms ?? 0;
  return {
    inc: flatten(m as unknown as Record<string, unknown>, `slots.${slotOf(ms)}`, {}),
    // (`v`: the twin's version, which every row added changes: the zone caches below check it)
    dayInc: { ...flatten(m as unknown as Record<string, unknown>, 'total', {}), v: 1 },
    day: new Date(ms).toISOString().slice(0, 10),
    scopes: scopesOf(row),
    key: row.rollup_key ?? rollupKey(row._id),
  };
}

/**
 * Adds `parts` (rows) to one rollup document unless their keys are in its `applied`, and pushes their
 * keys: all at once when none is there (one update), one by one otherwise (a refold after a crash).
 */
async function applyToRollup(
  id: string,
  base: Omit<UsageRollupDoc, '_id'>,
  parts: { key: string; inc: Record<string, number> }[],
): Promise<void> {
  if (parts.length > 1 && (await addUnlessApplied(id, base, parts))) return;
  for (const p of parts) {
    // A duplicate `_id` from the upsert means either the key is there (added before: done) or another
    // writer created the document between our filter and our insert (then the update matches: again).
    for (let tries = 0; !(await addUnlessApplied(id, base, [p])); tries++) {
      if ((await UsageRollup.collection.countDocuments({ _id: id, applied: p.key } as never)) > 0) break;
      if (tries >= 10) throw new Error(`usage rollup ${id}: could not add row key ${p.key}`);
    }
  }
}

/**
 * One conditional upsert: "if no key of `parts` is in `applied`: `$inc` their sums, push their keys".
 * @returns false when the filter matched no document and the insert found the `_id` taken
 */
async function addUnlessApplied(
  id: string,
  base: Omit<UsageRollupDoc, '_id'>,
  parts: { key: string; inc: Record<string, number> }[],
): Promise<boolean> {
  const inc: Record<string, number> = {};
  for (const p of parts) for (const [f, v] of Object.entries(p.inc)) inc[f] = (inc[f] ?? 0) + v;
  const keys = parts.map((p) => p.key);
  try {
    await UsageRollup.collection.updateOne(
      { _id: id, applied: { $nin: keys } } as never,
      {
        ...(Object.keys(inc).length ? { $inc: inc } : {}),
        $push: { applied: { $each: keys } },
        $setOnInsert: base,
      } as never,
      { upsert: true },
    );
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Folds `rows` into their rollups, marks them `done` and drops their keys from `applied` (the header's
 * steps 2 and 3). The caller holds the rows' lease (inserted them, or took it with `takeLease`).
 * Idempotent: a row already added to a document is not added again.
 * @throws the store's errors (the rows stay pending; folding them again is safe)
 */
export async function foldUsageRows(rows: FoldableRow[]): Promise<void> {
  if (rows.length === 0) return;
  const docs = new Map<string, Required<Pick<RollupWrite, 'base' | 'add' | 'day'>>>();
  for (const row of rows) {
    const { inc, dayInc, day, scopes, key } = increment(row);
    for (const scope of scopes) {
      const id = rollupId(row.org_id, row.livemode, scope, day);
      let doc = docs.get(id);
      if (!doc) {
        const base = { org_id: row.org_id, livemode: row.livemode, scope, day };
        doc = { base, day: dayTwin(base), add: [] };
        docs.set(id, doc);
      }
      doc.add.push({ key, inc, dayInc });
    }
  }
  await Promise.all([...docs].map(([id, doc]) => writeRollup(id, doc)));
  // One update per row by `_id` (a round trip per `UPDATES_PER_COMMAND` rows): a primary-key lookup on
  // every store, where `_id: {$in}` is not one on the embedded store's SQLite backend.
  await bulkUpdate(
    UsageRecord.collection,
    rows.map((r) => ({
      updateOne: { filter: { _id: r._id }, update: { $set: { rollup: 'done' }, $unset: { rollup_lease_ms: '' } } },
    })),
  );
  await Promise.all([...docs].map(([id, doc]) => writeRollup(id, { day: doc.day, pull: doc.add.map((p) => p.key) })));
}

/** The `_id` and fields of the `day:` twin of the quarter-hour document with fields `base`. */
function dayTwin(base: Omit<UsageRollupDoc, '_id'>): { id: string; base: Omit<UsageRollupDoc, '_id'> } {
  const scope = dayTotalsScope(base.scope);
  return { id: rollupId(base.org_id, base.livemode, scope, base.day), base: { ...base, scope } };
}

/**
 * One write to a quarter-hour rollup document and its `day:` twin (`day`): rows to add (with the
 * document's fields, for its creation: `base`), keys to pull, or (`rebuildDay`) the twin to make from the
 * document's slots (`buildDayTotals`).
 */
interface RollupWrite {
  base?: Omit<UsageRollupDoc, '_id'>;
  day: { id: string; base: Omit<UsageRollupDoc, '_id'> };
  add?: { key: string; inc: Record<string, number>; dayInc: Record<string, number> }[];
  pull?: string[];
  rebuildDay?: 'missing' | 'all';
}

/**
 * Every write of this process to one rollup document goes through here, one at a time per document (those
 * that come meanwhile go together in the next: src/shared/group-commit.ts). FerretDB 1.x applies an update
 * as a read-modify-write without a version check, so two concurrent updates of one document could lose
 * one (DESIGN.md section 3, "one writer per document"); MongoDB applies each atomically either way.
 */
const writeRollup = groupCommit<RollupWrite, void>(async (id, writes) => {
  const day = writes[0].day;
  const pulls = writes.flatMap((w) => w.pull ?? []);
  if (pulls.length > 0)
    await Promise.all(
      [id, day.id].map((doc) =>
        UsageRollup.collection.updateOne({ _id: doc } as never, { $pullAll: { applied: pulls } } as never),
      ),
    );
  const adds = writes.filter((w) => w.add && w.base).flatMap((w) => w.add!);
  const base = writes.find((w) => w.add && w.base)?.base;
  // The quarter-hours first, then the twin: a crash between the two leaves the row pending with its key
  // in the first only; folding it again adds it to the twin alone.
  if (base && adds.length > 0) {
    await applyToRollup(
      id,
      base,
      adds.map((a) => ({ key: a.key, inc: a.inc })),
    );
    await applyToRollup(
      day.id,
      day.base,
      adds.map((a) => ({ key: a.key, inc: a.dayInc })),
    );
  }
  const rebuild = writes.find((w) => w.rebuildDay)?.rebuildDay;
  if (rebuild) await rebuildDayTwin(id, day, rebuild === 'all');
  return writes.map(() => undefined);
}, 100);

/**
 * Makes the `day:` twin of quarter-hour document `id` from its slots (their sums, and its `applied` keys,
 * so that a row in flight is not added to the twin twice): when the twin is missing, or always when
 * `replace`. Runs inside `writeRollup`'s queue for `id`, so no fold of this process interleaves.
 */
async function rebuildDayTwin(
  id: string,
  day: { id: string; base: Omit<UsageRollupDoc, '_id'> },
  replace: boolean,
): Promise<void> {
  const doc = (await UsageRollup.findById(id).lean()) as UsageRollupDoc | null;
  if (!doc) return;
  const total: Record<string, unknown> = {};
  for (const m of Object.values(doc.slots ?? {})) addMeasures(total, m);
  const fields = { ...day.base, total, applied: doc.applied ?? [] };
  try {
    await UsageRollup.collection.updateOne(
      { _id: day.id } as never,
      { ...(replace ? { $set: fields } : { $setOnInsert: fields }), $inc: { v: 1 } },
      { upsert: true },
    );
  } catch (err) {
    if (!isDuplicateKey(err)) throw err; // created meanwhile by another process's fold: left to it
  }
}

/**
 * Takes the fold lease of row `id` when it is pending and its lease has expired (or it is a row from
 * before rollups, with no `rollup` field, when `legacy`): true when taken.
 */
async function takeLease(id: string, nowMs: number, legacy = false): Promise<boolean> {
  const res = await UsageRecord.collection.updateOne(
    (legacy
      ? { _id: id, rollup: { $exists: false } }
      : { _id: id, rollup: 'pending', rollup_lease_ms: { $lt: nowMs } }) as never,
    { $set: { rollup: 'pending', rollup_lease_ms: nowMs + FOLD_LEASE_MS } },
  );
  return res.modifiedCount === 1;
}

/**
 * Folds the stored row `id` if it is still pending and its lease has expired (a retried write that
 * found its row stored: the attempt that stored it may have crashed before folding it).
 * @returns true when this call folded it
 */
export async function foldIfAbandoned(id: string, nowMs = Date.now()): Promise<boolean> {
  const row = (await UsageRecord.findById(id).lean()) as FoldableRow | null;
  if (row?.rollup !== 'pending') return false;
  if (!(await takeLease(id, nowMs))) return false;
  await foldUsageRows([row]);
  return true;
}

/**
 * Makes sure row `row` (as read) is in its rollups before it is copied under another `_id` (erasure
 * re-keys rows): folds it when it is pending with an expired lease or from before rollups, and returns
 * the row as stored then (`rollup: 'done'`), so that the copy is never folded again.
 * @throws Error while another writer holds its lease (the caller retries later: that writer folds it)
 */
export async function settleUsageRow<T extends FoldableRow>(row: T, nowMs = Date.now()): Promise<T> {
  if (row.rollup === 'done') return row;
  if (!(await takeLease(row._id, nowMs, row.rollup === undefined)))
    throw new Error(`usage row ${row._id} is being added to its rollups; try again later`);
  await foldUsageRows([row]);
  const settled: T = { ...row, rollup: 'done' };
  delete settled.rollup_lease_ms;
  return settled;
}

/**
 * Folds the pending rows of one organization and mode whose writer's lease has expired (a writer that
 * crashed between storing a row and folding it). Reads the tenant's pending rows only (an index on
 * `{org_id, livemode, rollup}`): none, normally.
 * @returns how many rows it folded
 */
export async function foldAbandonedRows(orgId: string, livemode: boolean, nowMs = Date.now()): Promise<number> {
  const pending = (await UsageRecord.find({ org_id: orgId, livemode, rollup: 'pending' }).lean()) as FoldableRow[];
  const taken: FoldableRow[] = [];
  for (const row of pending)
    if ((row.rollup_lease_ms ?? 0) < nowMs && (await takeLease(row._id, nowMs))) taken.push(row);
  for (let i = 0; i < taken.length; i += BATCH) await foldUsageRows(taken.slice(i, i + BATCH));
  return taken.length;
}

/**
 * Folds every row stored before rollups existed (no `rollup` field) into the rollups, once: afterwards a
 * marker document says so and later calls return at once (unless `force`, which also folds pending rows
 * whose lease expired, for `svcctl usage rebuild`). One pass over the rows in `_id` order, `BATCH` rows
 * at a time (a range on the `_id` index: each row is read once, whatever the collection's size); each
 * row to fold is taken with its own conditional update (its lease), sent together (`bulkUpdate`), so that a row
 * another writer holds is left to it. Safe to run while the service writes rows, and to run twice at once.
 * @returns how many rows it folded
 */
export async function backfillUsageRollups(opts: { force?: boolean; nowMs?: number } = {}): Promise<number> {
  const nowMs = opts.nowMs ?? Date.now();
  await buildDayTotals(opts.force ?? false);
  if (!opts.force && (await UsageRollup.collection.countDocuments({ _id: BACKFILL_MARKER } as never)) > 0) return 0;
  let folded = 0;
  for (let after: string | null = null; ;) {
    const rows = (await UsageRecord.find(after === null ? {} : { _id: { $gt: after } })
      .sort({ _id: 1 })
      .limit(BATCH)
      .lean()) as FoldableRow[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1]._id;
    folded += await foldUnfolded(rows, nowMs);
  }
  await UsageRollup.collection.updateOne(
    { _id: BACKFILL_MARKER } as never,
    { $set: { scope: 'backfill', done_ms: nowMs } },
    { upsert: true },
  );
  return folded;
}

/**
 * Gives every quarter-hour rollup document its `day:` twin, summed from its slots: once per store (a
 * marker document says it ran; later calls return at once), or, with `all`, every twin rebuilt (for
 * `svcctl usage rebuild`). One pass over `usage_daily` in `_id` order, `BATCH` documents at a time; each
 * twin is made inside its document's queued write (`rebuildDayTwin`).
 * @returns how many quarter-hour documents it went through
 */
export async function buildDayTotals(all = false): Promise<number> {
  if (!all && (await UsageRollup.collection.countDocuments({ _id: DAY_TOTALS_MARKER } as never)) > 0) return 0;
  let seen = 0;
  for (let after: string | null = null; ;) {
    const docs = (await UsageRollup.find(after === null ? {} : { _id: { $gt: after } }, {
      org_id: 1,
      livemode: 1,
      scope: 1,
      day: 1,
    })
      .sort({ _id: 1 })
      .limit(BATCH)
      .lean()) as UsageRollupDoc[];
    if (docs.length === 0) break;
    after = docs[docs.length - 1]._id;
    const quarterHours = docs.filter((d) => typeof d.day === 'string' && /^(all$|a:|v:)/.test(d.scope));
    await Promise.all(
      quarterHours.map((d) =>
        writeRollup(d._id, {
          day: dayTwin({ org_id: d.org_id, livemode: d.livemode, scope: d.scope, day: d.day }),
          rebuildDay: all ? 'all' : 'missing',
        }),
      ),
    );
    seen += quarterHours.length;
  }
  await UsageRollup.collection.updateOne(
    { _id: DAY_TOTALS_MARKER } as never,
    { $set: { scope: 'backfill', done_ms: Date.now() } },
    { upsert: true },
  );
  return seen;
}

/**
 * Of `rows` (as read), takes the lease of those not folded (no `rollup` field, or pending with an expired
 * lease) and folds them: conditional updates by `_id`, sent together (`bulkUpdate`); when some update matched
 * nothing (another writer took or folded that row meanwhile), each row is read back by `_id` to find the
 * ones this call took (those carrying its lease, unique to the call).
 * @returns how many rows it folded
 */
async function foldUnfolded(rows: FoldableRow[], nowMs: number): Promise<number> {
  const candidates = rows.filter(
    (r) => r.rollup === undefined || (r.rollup === 'pending' && (r.rollup_lease_ms ?? 0) < nowMs),
  );
  if (candidates.length === 0) return 0;
  const lease = nowMs + FOLD_LEASE_MS + Math.random();
  const res = await bulkUpdate(
    UsageRecord.collection,
    candidates.map((r) => ({
      updateOne: {
        filter:
          r.rollup === undefined
            ? { _id: r._id, rollup: { $exists: false } }
            : { _id: r._id, rollup: 'pending', rollup_lease_ms: r.rollup_lease_ms },
        update: { $set: { rollup: 'pending', rollup_lease_ms: lease } },
      },
    })),
  );
  let taken = candidates;
  if (res.modifiedCount !== candidates.length) {
    const now = await Promise.all(candidates.map((r) => UsageRecord.findById(r._id).lean()));
    taken = candidates.filter((_, i) => (now[i] as FoldableRow | null)?.rollup_lease_ms === lease);
  }
  await foldUsageRows(taken);
  return taken.length;
}

/** Adds every numeric leaf of `from` into `into` (missing keys of `into` start at 0: `by_status`). */
function addMeasures(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + v;
    else if (v && typeof v === 'object') {
      if (!into[k] || typeof into[k] !== 'object') into[k] = {};
      addMeasures(into[k] as Record<string, unknown>, v as Record<string, unknown>);
    }
  }
}

/**
 * The measures of each local day from the rollups of one scope: `starts[i]` is the first instant of
 * day i (ms), `starts[days.length]` the end of the period; `days[i]` and `totals` receive the sums.
 * Null when a day boundary is not on a quarter-hour (the caller sums the rows instead).
 * Reads one document per UTC day the period touches (index `{org_id, livemode, scope, day}`).
 */
export async function sumRollups(
  owner: { orgId: string; livemode: boolean; scope: string; timezone?: string },
  starts: number[],
  days: (UsageMeasures & { date?: string })[],
  totals: UsageMeasures,
): Promise<boolean> {
  if (starts.some((s) => s % SLOT_MS !== 0)) return false;
  const first = new Date(starts[0]).toISOString().slice(0, 10);
  const last = new Date(starts[starts.length - 1] - 1).toISOString().slice(0, 10);
  if (starts.every((s) => s % DAY_MS === 0)) {
    await sumDayTotals(owner, { first, last }, starts, days, totals);
    return true;
  }
  if (owner.timezone && days.every((d) => typeof d.date === 'string')) {
    await sumZoneDays({ ...owner, timezone: owner.timezone }, { first, last }, starts, days, totals);
    return true;
  }
  const docs = (await UsageRollup.find(
    { org_id: owner.orgId, livemode: owner.livemode, scope: owner.scope, day: { $gte: first, $lte: last } },
    { day: 1, slots: 1 },
  ).lean()) as UsageRollupDoc[];
  for (const doc of docs)
    eachSlot(doc, starts, (i, m) => {
      addMeasures(days[i] as unknown as Record<string, unknown>, m);
      addMeasures(totals as unknown as Record<string, unknown>, m);
    });
  return true;
}

/** Calls `add(i, measures)` for each quarter-hour of `doc` that falls in day i of `starts` (`dayIndex`). */
function eachSlot(doc: UsageRollupDoc, starts: number[], add: (i: number, m: Record<string, unknown>) => void): void {
  const dayMs = Date.parse(`${doc.day}T00:00:00Z`);
  for (const [slot, m] of Object.entries(doc.slots ?? {})) {
    const i = dayIndex(starts, dayMs + (Number(slot.slice(1, 3)) * 60 + Number(slot.slice(3, 5))) * 60_000);
    if (i >= 0) add(i, m);
  }
}

/** A zone cache document as read (scope `zone:<time zone>:<scope>`, `day` the local date): see `sumZoneDays`. */
type ZoneDayDoc = Pick<UsageRollupDoc, 'day' | 'total' | 'bounds' | 'deps'>;

/**
 * `sumRollups` for local days that are not UTC days (a time zone's, `owner.timezone`; each day's `date` in
 * `days`). A local day overlaps two UTC days (three around some DST changes), so its sums need their
 * quarter-hours; those documents are big (up to 96 quarter-hours, read whole by the embedded store), so the
 * sums of each local day are kept once computed: a cache document per time zone, scope and local date
 * (`ZoneDayDoc`), valid while the versions of the `day:` twins of its UTC days are those it recorded (every
 * row added to a day changes its twin's version). A report reads the twins (small) and the cache (small),
 * and the quarter-hours only of the days whose cache is missing or stale (today's, normally).
 * Exact: the twins are read before the quarter-hours, and a row is added to its quarter-hours before its
 * twin, so a cache never lacks a row of the versions it records (one it holds beyond them changes a
 * version later, and the cache is computed again). A cache that cannot be written is computed again next time.
 */
async function sumZoneDays(
  owner: { orgId: string; livemode: boolean; scope: string; timezone: string },
  range: { first: string; last: string },
  starts: number[],
  days: (UsageMeasures & { date?: string })[],
  totals: UsageMeasures,
): Promise<void> {
  const tenant = { org_id: owner.orgId, livemode: owner.livemode };
  const zoneScope = `zone:${owner.timezone}:${owner.scope}`;
  const dates = days.map((d) => d.date!);
  const [twins, cached] = await Promise.all([
    UsageRollup.find(
      { ...tenant, scope: dayTotalsScope(owner.scope), day: { $gte: range.first, $lte: range.last } },
      {
        day: 1,
        v: 1,
      },
    ).lean<Pick<UsageRollupDoc, 'day' | 'v'>[]>(),
    UsageRollup.find(
      { ...tenant, scope: zoneScope, day: { $gte: dates[0], $lte: dates[dates.length - 1] } },
      {
        day: 1,
        total: 1,
        bounds: 1,
        deps: 1,
      },
    ).lean<ZoneDayDoc[]>(),
  ]);
  const version = new Map(twins.map((t) => [t.day, t.v ?? 0]));
  const cache = new Map(cached.map((c) => [c.day, c]));
  const sums: (Record<string, unknown> | null)[] = dates.map((date, i) => {
    const c = cache.get(date);
    const deps = utcDaysOf(starts[i], starts[i + 1]).map((d) => [d, version.get(d) ?? 0] as const);
    const fresh =
      c?.bounds?.[0] === starts[i] &&
      c.bounds[1] === starts[i + 1] &&
      Object.keys(c.deps ?? {}).length === deps.length &&
      deps.every(([d, v]) => c.deps?.[d] === v);
    return fresh ? (c.total ?? {}) : null;
  });
  const stale = sums.flatMap((sum, i) => (sum === null ? [i] : []));
  if (stale.length > 0) {
    const needed = [...new Set(stale.flatMap((i) => utcDaysOf(starts[i], starts[i + 1])))].filter((d) =>
      version.has(d),
    );
    const docs = await Promise.all(
      needed.map((d) => UsageRollup.findById(rollupId(owner.orgId, owner.livemode, owner.scope, d)).lean()),
    );
    for (const i of stale) sums[i] = {};
    for (const doc of docs as (UsageRollupDoc | null)[])
      if (doc)
        eachSlot(doc, starts, (i, m) => {
          if (stale.includes(i)) addMeasures(sums[i]!, m);
        });
    await Promise.all(stale.map((i) => cacheZoneDay(owner, zoneScope, dates[i], starts, i, version, sums[i]!)));
  }
  for (const [i, sum] of sums.entries()) {
    addMeasures(days[i] as unknown as Record<string, unknown>, sum!);
    addMeasures(totals as unknown as Record<string, unknown>, sum!);
  }
}

/**
 * Stores the sums `total` of local day i (`date`, `starts[i]` to `starts[i + 1]`) as its zone cache document,
 * with the versions `version` of its UTC days' twins; not for a day none of whose UTC days has a twin yet
 * (nothing to keep: a future day). A failed write is logged and left (computed again next time).
 */
async function cacheZoneDay(
  owner: { orgId: string; livemode: boolean },
  zoneScope: string,
  date: string,
  starts: number[],
  i: number,
  version: Map<string, number>,
  total: Record<string, unknown>,
): Promise<void> {
  const deps = Object.fromEntries(utcDaysOf(starts[i], starts[i + 1]).map((d) => [d, version.get(d) ?? 0]));
  if (Object.values(deps).every((v) => v === 0)) return;
  const fields = { org_id: owner.orgId, livemode: owner.livemode, scope: zoneScope, day: date };
  await UsageRollup.collection
    .updateOne(
      { _id: rollupId(owner.orgId, owner.livemode, zoneScope, date) } as never,
      { $set: { ...fields, total, bounds: [starts[i], starts[i + 1]], deps } },
      { upsert: true },
    )
    .catch((err: unknown) => logger.warn('usage: a zone day could not be cached', { error: String(err) }));
}

/** The UTC days (`YYYY-MM-DD`) that the instants from `fromMs` to `toMs` (excluded) fall on. */
function utcDaysOf(fromMs: number, toMs: number): string[] {
  const days: string[] = [];
  for (let d = Math.floor(fromMs / DAY_MS) * DAY_MS; d < toMs; d += DAY_MS)
    days.push(new Date(d).toISOString().slice(0, 10));
  return days;
}

/** `sumRollups` for a period of UTC days: one `day:` twin per day, its sums added to its day and the totals. */
async function sumDayTotals(
  owner: { orgId: string; livemode: boolean; scope: string },
  range: { first: string; last: string },
  starts: number[],
  days: UsageMeasures[],
  totals: UsageMeasures,
): Promise<void> {
  const docs = (await UsageRollup.find(
    {
      org_id: owner.orgId,
      livemode: owner.livemode,
      scope: dayTotalsScope(owner.scope),
      day: { $gte: range.first, $lte: range.last },
    },
    { day: 1, total: 1 },
  ).lean()) as UsageRollupDoc[];
  for (const doc of docs) {
    const i = dayIndex(starts, Date.parse(`${doc.day}T00:00:00Z`));
    if (i < 0 || !doc.total) continue;
    addMeasures(days[i] as unknown as Record<string, unknown>, doc.total);
    addMeasures(totals as unknown as Record<string, unknown>, doc.total);
  }
}

/** The day `ms` falls in: the last i with starts[i] ≤ ms (binary search), or -1 outside the period. */
export function dayIndex(starts: number[], ms: number): number {
  if (ms < starts[0] || ms >= starts[starts.length - 1]) return -1;
  let lo = 0;
  let hi = starts.length - 1; // starts[lo] ≤ ms < starts[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= ms) lo = mid;
    else hi = mid;
  }
  return lo;
}
