/**
 * Records the shape of every query the service sends to the store while a test drives it, and checks
 * each shape against the indexes the models declare (the rule is the one of the
 * embedded store's pushdown and of MongoDB's equality-sort-range rule, see `servingIndex`).
 *
 * Capture: mongoose's `operation-start` event (every collection method a model or `Model.collection`
 * calls, with the filter as sent after casting) gives the shape; the caller in src/ is found by wrapping
 * the model statics and `Query#exec`/`Aggregate#exec` in an AsyncLocalStorage that carries the first
 * stack frame under dist/src/ (mongoose executes a query after an `await`, where the caller's frames are
 * gone). Queries of the harness process only: the API and the worker both run there (test/support/harness.ts).
 * GridFS (src/services/recordings.ts) talks to the driver directly and is not seen.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import mongoose from 'mongoose';

/** One query as the store received it. */
export interface QueryShape {
  collection: string;
  /** The collection method: find, findOne, countDocuments, updateOne, findOneAndUpdate, aggregate… */
  op: string;
  /** The filter (for `aggregate`, its first `$match`; for `bulkWrite`, one operation's filter). */
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1> | undefined;
  /** `file:line` of the first frame under dist/src/ that asked for it, or `?`. */
  origin: string;
  /** How many times this shape came from this origin (a capture keeps one shape per shape and origin). */
  times?: number;
}

/** An index as declared: its keys in order with their directions. */
export type IndexKeys = [string, 1 | -1][];

/** The verdict on one shape. */
export interface ShapeVerdict {
  shape: QueryShape;
  /** Canonical text of the shape: `collection.op {eq fields} [other fields] sort(...)`. */
  key: string;
  /** The index serving it (`_id` for an `_id` lookup), or null. */
  index: string | null;
  /** Why no index serves it. */
  reason?: string;
  /** Why the shape is accepted without one (`ACCEPTED_SHAPES`). */
  accepted?: string;
}

/** Methods that send no filter (writes of new documents, index management). */
const NO_FILTER = new Set(['insertOne', 'insertMany', 'createIndex', 'createIndexes', 'listIndexes', 'dropIndex']);

/** Model statics that build or run a query; wrapped to remember their caller. */
const STATICS = [
  'find',
  'findOne',
  'findById',
  'exists',
  'countDocuments',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'findOneAndDelete',
  'findByIdAndDelete',
  'replaceOne',
  'distinct',
  'aggregate',
  'bulkWrite',
] as const;

const origins = new AsyncLocalStorage<string>();

/**
 * The first frame of `stack` in the service's compiled code (dist/src/), as `src/path.js:line`; else the
 * first in the tests' (`test/…`: a test reading the store itself, not a query of the service), else `?`.
 */
function callerOf(stack: string | undefined): string {
  const lines = (stack ?? '').split('\n').slice(1);
  for (const line of lines) {
    const m = /[/\\]dist[/\\](src[/\\][^:()]+):(\d+)/.exec(line);
    if (m && !m[1].endsWith('models/store.js')) return `${m[1]}:${m[2]}`;
  }
  for (const line of lines) {
    const m = /[/\\]dist[/\\](test[/\\][^:()]+):(\d+)/.exec(line);
    if (m && !m[1].includes('support/query-shapes')) return `${m[1]}:${m[2]}`;
  }
  return '?';
}

/**
 * Shapes no equality index serves, accepted by design, each with why. Periodic sweeps of what expired
 * select by a time range: MongoDB serves each from the index on that field (declared beside the model);
 * the embedded store reads the table once per sweep, never on a request. And two reads of the small
 * organizations table outside any request.
 */
export const ACCEPTED_SHAPES: Record<string, string> = {
  'rate_limit_slots.deleteMany {} [expires_ms:$lt]':
    'prune of ended rate-limit windows, once a minute per API process (index {expires_ms}); the table holds the live windows only',
  'dial_pace_ticks.deleteMany {} [expires_ms:$lt]':
    "prune of the dialing pacer's past turns, at most every 10 minutes per process dialing (index {expires_ms}); the table holds the last hour of turns",
  'dial_pace_holds.deleteMany {} [expires_ms:$lt]':
    "prune of the dialing pacer's lapsed holds, at most every 10 minutes per process dialing (index {expires_ms})",
  'idempotency_keys.deleteMany {} [expires_ms:$lte]': 'sweep of expired idempotency records (index {expires_ms})',
  'console_signin_attempts.deleteMany {} [expires_ms:$lt]':
    'prune of forgotten console sign-in attempts, once a minute per API process signing people in (index {expires_ms})',
  'webhook_endpoints.updateMany {} [previous_secret:$ne,previous_secret_expires_ms:$lte]':
    'sweep of rotated webhook secrets past their overlap (index {previous_secret_expires_ms})',
  'orgs.find {retention_set} sort(_id:1)':
    'retention sweeps (hourly; recordings every 10 minutes): the organizations that set a retention (index {retention_set})',
  'audit_events.find {} [_id:$lt] sort(_id:1)':
    'audit retention: the oldest entries before the cutoff id, one bounded batch an activity (the primary key)',
  'audit_events.deleteMany {} [_id:$lte]':
    'audit retention: deletes through the last id of the batch just read, a bounded range of the primary key',
  'orgs.findOne {demo}': "npm start's demo organization, once at start (index {demo}: one row has demo: true)",
  'orgs.find {} sort(_id:-1)': '`svcctl orgs list`: every organization, all of which it prints',
  'usage_records.find {} sort(_id:1)':
    'usage rollups backfill (once per store, at `npm start`, and `svcctl usage rebuild`): the first batch of one pass over every row, in primary-key order',
  'usage_records.find {} [_id:$gt] sort(_id:1)':
    'usage rollups backfill: the next batch after the last id read, a bounded range of the primary key',
  'usage_daily.find {} sort(_id:1)':
    "usage rollups' day sums (once per store, at `npm start`, and `svcctl usage rebuild`): the first batch of one pass over every rollup document, in primary-key order",
  'usage_daily.find {} [_id:$gt] sort(_id:1)':
    "usage rollups' day sums: the next batch after the last id read, a bounded range of the primary key",
};

/**
 * Shapes an index serves on paper that the store's `explain()` still shows reading the collection, accepted
 * with why (test/support/query-shapes-hooks.ts fails the run on any other).
 */
export const EXPLAIN_ACCEPTED: Record<string, string> = {};

/** A running capture; `stop()` removes every hook and returns the shapes seen. */
export interface Capture {
  shapes: QueryShape[];
  stop(): QueryShape[];
}

/**
 * Starts recording the queries of this process's mongoose connection. One capture at a time.
 * @returns the capture; call `stop()` before the end of the test (it restores mongoose's own methods)
 */
export function captureQueries(): Capture {
  const shapes: QueryShape[] = [];
  // One shape per shape key and origin, counted: a whole test run sends millions of queries of a few
  // hundred shapes, whose filters need not stay in memory.
  const seen = new Map<string, QueryShape>();
  const restore: (() => void)[] = [];
  const M = mongoose.Model as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of STATICS) {
    const orig = M[name];
    M[name] = function (this: unknown, ...args: unknown[]) {
      const origin = callerOf(new Error().stack);
      const r = origins.run(origin, () => orig.apply(this, args));
      if (r && typeof r === 'object') (r as { _svcOrigin?: string })._svcOrigin ??= origin;
      return r;
    };
    restore.push(() => (M[name] = orig));
  }
  for (const proto of [mongoose.Query.prototype, mongoose.Aggregate.prototype] as unknown as Record<
    string,
    (...a: unknown[]) => unknown
  >[]) {
    for (const method of ['exec', 'cursor']) {
      const orig = proto[method];
      if (!orig) continue;
      proto[method] = function (this: { _svcOrigin?: string }, ...args: unknown[]) {
        const origin = this._svcOrigin;
        return origin ? origins.run(origin, () => orig.apply(this, args)) : orig.apply(this, args);
      };
      restore.push(() => (proto[method] = orig));
    }
  }
  const listener = (ev: { collectionName: string; method: string; params: unknown[] }) => {
    if (NO_FILTER.has(ev.method)) return;
    const origin = origins.getStore() ?? callerOf(new Error().stack);
    for (const s of shapesOf(ev.collectionName, ev.method, ev.params)) {
      const shape: QueryShape = { ...s, origin, times: 1 };
      const key = `${shapeKey(shape)}|${origin}`;
      const known = seen.get(key);
      if (known) known.times = (known.times ?? 1) + 1;
      else {
        seen.set(key, shape);
        shapes.push(shape);
      }
    }
  };
  mongoose.connection.on('operation-start', listener);
  restore.push(() => mongoose.connection.off('operation-start', listener));
  return {
    shapes,
    stop() {
      for (const r of restore.reverse()) r();
      restore.length = 0;
      return shapes;
    },
  };
}

/** The filter(s) and sort of one collection method call, from its arguments. */
function shapesOf(collection: string, op: string, params: unknown[]): Omit<QueryShape, 'origin'>[] {
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  if (op === 'aggregate') {
    const first = (params[0] as Record<string, unknown>[] | undefined)?.[0];
    return [{ collection, op, filter: obj(first?.$match), sort: undefined }];
  }
  if (op === 'bulkWrite') {
    const out: Omit<QueryShape, 'origin'>[] = [];
    for (const w of (params[0] as Record<string, unknown>[]) ?? []) {
      const [kind, body] = Object.entries(w)[0] ?? [];
      if (kind && kind !== 'insertOne')
        out.push({ collection, op: `bulkWrite.${kind}`, filter: obj(obj(body).filter), sort: undefined });
    }
    return out;
  }
  if (op === 'distinct') return [{ collection, op, filter: obj(params[1]), sort: undefined }];
  const optionsAt = op === 'find' || op === 'findOne' || op === 'countDocuments' || op.startsWith('delete') ? 1 : 2;
  const sort = obj(obj(params[optionsAt]).sort) as Record<string, 1 | -1>;
  return [{ collection, op, filter: obj(params[0]), sort: Object.keys(sort).length ? sort : undefined }];
}

/**
 * True for a condition the embedded store serves from an index (/work/pushdown-rule.md, the lead's
 * FerretDB patch) and MongoDB as an equality: a string, boolean or ObjectId, bare or under `$eq`.
 */
function isEquality(cond: unknown): boolean {
  if (typeof cond === 'string' || typeof cond === 'boolean') return true;
  if (cond instanceof mongoose.Types.ObjectId) return true;
  if (cond && typeof cond === 'object' && Object.keys(cond).length === 1 && '$eq' in cond)
    return isEquality((cond as { $eq: unknown }).$eq);
  return false;
}

/** A selective value: a string or an ObjectId (a boolean alone splits a collection in two at best). */
const isSelective = (cond: unknown): boolean =>
  typeof cond === 'string' ||
  cond instanceof mongoose.Types.ObjectId ||
  (!!cond && typeof cond === 'object' && '$eq' in cond && isSelective((cond as { $eq: unknown }).$eq));

/** Canonical text of a shape: equality fields, other conditions (their operators), sort. */
export function shapeKey(s: QueryShape): string {
  const eq: string[] = [];
  const other: string[] = [];
  for (const [f, c] of Object.entries(s.filter)) {
    if (isEquality(c)) eq.push(f);
    else if (c && typeof c === 'object' && !(c instanceof mongoose.Types.ObjectId) && !Array.isArray(c))
      other.push(`${f}:${Object.keys(c).join('|') || '{}'}`);
    else other.push(`${f}:${c === null ? 'null' : typeof c}`);
  }
  const sort = s.sort ? ` sort(${Object.entries(s.sort).map(([f, d]) => `${f}:${d}`)})` : '';
  return `${s.collection}.${s.op} {${eq.sort().join(',')}}${other.length ? ` [${other.sort().join(',')}]` : ''}${sort}`;
}

/** Every declared index of every registered model, by collection name (`_id` included). */
export function declaredIndexes(): Map<string, IndexKeys[]> {
  const out = new Map<string, IndexKeys[]>();
  for (const model of Object.values(mongoose.models)) {
    const list: IndexKeys[] = [[['_id', 1]]];
    for (const [fields] of model.schema.indexes()) list.push(Object.entries(fields) as IndexKeys);
    out.set(model.collection.collectionName, list);
  }
  return out;
}

/** An index as the verdicts name it: `{org_id:1, livemode:1, _id:-1}`. */
export const indexName = (keys: IndexKeys) => `{${keys.map(([f, d]) => `${f}:${d}`).join(', ')}}`;

/** How many leading keys of `idx` are equality fields of `filter` (what the embedded store pushes down). */
function equalityPrefix(idx: IndexKeys, filter: Record<string, unknown>): number {
  let k = 0;
  while (k < idx.length && isEquality(filter[idx[k][0]])) k++;
  return k;
}

/**
 * The index that serves `shape`, by the rules of both stores:
 * - an equality on `_id` is a primary-key lookup;
 * - the embedded store uses the index with the longest prefix of equality fields of the filter
 *   (/work/pushdown-rule.md): that prefix must hold a selective value (a string or ObjectId, not only
 *   booleans) and every "scope" field of the filter, i.e. every selective equality field that leads some
 *   index of the collection (`conversation_id`, `contact_id`, `agent_id`…), so that it reads the rows of
 *   that scope and not, say, the whole organization's; with several such indexes, each must;
 * - MongoDB (equality, sort, range): some index begins with such a prefix and has the sort's keys right
 *   after it (either direction throughout), so that a page is read in order instead of sorted in memory.
 * @returns the verdict: `index` names the embedded store's pick (and MongoDB's when another), or null with
 *   a `reason`
 */
export function servingIndex(shape: QueryShape, indexes: Map<string, IndexKeys[]>): ShapeVerdict {
  const key = shapeKey(shape);
  const { filter } = shape;
  if (isEquality(filter._id)) return { shape, key, index: '_id' };
  if (ACCEPTED_SHAPES[key]) return { shape, key, index: null, accepted: ACCEPTED_SHAPES[key] };
  const declared = indexes.get(shape.collection);
  if (!declared) return { shape, key, index: null, reason: 'no model declares this collection' };
  const scope = new Set(declared.map((idx) => idx[0][0]).filter((f) => f !== '_id' && isSelective(filter[f])));
  /** Why the prefix of `idx` does not serve the filter, or null when it does. */
  const prefixFault = (idx: IndexKeys, k: number): string | null => {
    const prefix = idx.slice(0, k).map(([f]) => f);
    if (!prefix.some((f) => isSelective(filter[f]))) return `${indexName(idx)} begins with booleans only`;
    const missing = [...scope].filter((f) => !prefix.includes(f));
    return missing.length ? `${indexName(idx)} reads beyond the filter's ${missing.join(', ')}` : null;
  };
  const prefixes = declared.map((idx) => equalityPrefix(idx, filter));
  const longest = Math.max(...prefixes);
  if (longest === 0) return { shape, key, index: null, reason: 'no index begins with equality fields of the filter' };
  const picked = declared.filter((_, i) => prefixes[i] === longest);
  for (const idx of picked) {
    const fault = prefixFault(idx, longest);
    if (fault) return { shape, key, index: null, reason: `the embedded store picks ${fault}` };
  }
  const sort = Object.entries(shape.sort ?? {}).filter(([f]) => !isEquality(filter[f]));
  // The embedded store's pick first, when it serves the sort too.
  const sorted = [...picked, ...declared].find((idx) => {
    const k = prefixes[declared.indexOf(idx)];
    if (k === 0 || prefixFault(idx, k)) return false;
    const rest = idx.slice(k, k + sort.length);
    if (rest.length !== sort.length) return false;
    const same = rest.every(([f, d], j) => f === sort[j][0] && d === sort[j][1]);
    return same || rest.every(([f, d], j) => f === sort[j][0] && d === -sort[j][1]);
  });
  if (!sorted)
    return {
      shape,
      key,
      index: null,
      reason: `no index has the sort (${sort.map(([f, d]) => `${f}:${d}`)}) after the filter's equality fields`,
    };
  const name = indexName(picked[0]);
  return { shape, key, index: sorted === picked[0] ? name : `${name} (MongoDB: ${indexName(sorted)})` };
}

/**
 * The verdicts of `shapes`, one per distinct shape key with every origin seen; shapes sent by test code
 * itself (origin `test/…`) are left out.
 */
export function checkShapes(
  shapes: QueryShape[],
  indexes = declaredIndexes(),
): (ShapeVerdict & { origins: string[]; count: number })[] {
  const byKey = new Map<string, ShapeVerdict & { origins: string[]; count: number }>();
  for (const s of shapes) {
    if (s.origin.startsWith('test')) continue;
    const v = servingIndex(s, indexes);
    const seen = byKey.get(v.key);
    if (seen) {
      seen.count += s.times ?? 1;
      if (!seen.origins.includes(s.origin)) seen.origins.push(s.origin);
    } else byKey.set(v.key, { ...v, origins: [s.origin], count: s.times ?? 1 });
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** What the store's `explain()` says of one shape. */
export interface ExplainVerdict {
  key: string;
  /** `index`: the plan searches an index; `scan`: it reads the collection; `skipped`: not asked, see `note`. */
  plan: 'index' | 'scan' | 'skipped';
  /** The plan's lines (SQLite's EXPLAIN QUERY PLAN on FerretDB, the winning plan's stages on MongoDB). */
  detail: string;
  /** The store applied the sort itself (FerretDB 0003's `sortPushdown`, or MongoDB without a SORT stage). */
  sortPushdown?: boolean;
  note?: string;
}

/**
 * A string the embedded store compares as SJSON text (scripts/ferretdb-patches/0002 `pushdownValue`): not one
 * with a control character, a quote, a backslash, `<`, `>`, `&` or a line separator (FerretDB's JSON
 * escapes those), which it filters in memory instead.
 */
const pushable = (v: unknown): boolean =>
  typeof v !== 'string' || ![...v].some((c) => c < ' ' || '"\\<>&\u2028\u2029'.includes(c));

/** The stage names of a MongoDB plan tree (`winningPlan`), depth first. */
function stagesOf(plan: unknown): string[] {
  if (!plan || typeof plan !== 'object') return [];
  const p = plan as Record<string, unknown>;
  const own = typeof p.stage === 'string' ? [p.stage] : [];
  const children = [p.inputStage, ...((p.inputStages as unknown[]) ?? []), p.queryPlan].flatMap(stagesOf);
  return [...own, ...children];
}

/**
 * Reads one explain answer: FerretDB's (`queryPlanner.Plan`, SQLite's plan lines: `SEARCH t USING INDEX …`
 * is an index, a bare `SCAN t` the whole table) or MongoDB's (`queryPlanner.winningPlan`: IXSCAN/IDHACK vs
 * COLLSCAN).
 */
export function readExplain(explained: unknown): Pick<ExplainVerdict, 'plan' | 'detail' | 'sortPushdown'> {
  const e = (explained ?? {}) as { queryPlanner?: { Plan?: unknown; winningPlan?: unknown }; sortPushdown?: unknown };
  const lines = e.queryPlanner?.Plan;
  if (Array.isArray(lines)) {
    const text = lines.map(String);
    const scan = text.some((l) => /\bSCAN \S+\s*$/.test(l.trim()) && !/USING/.test(l));
    const index = text.some((l) => /USING (COVERING |INTEGER PRIMARY KEY|PRIMARY KEY|INDEX)/.test(l));
    return {
      plan: index && !scan ? 'index' : 'scan',
      detail: text.join(' | '),
      sortPushdown: e.sortPushdown === true,
    };
  }
  const stages = stagesOf(e.queryPlanner?.winningPlan);
  const index = stages.some((s) => /IXSCAN|IDHACK|EXPRESS/.test(s));
  return {
    plan: index && !stages.includes('COLLSCAN') ? 'index' : 'scan',
    detail: stages.join(' > '),
    sortPushdown: !stages.includes('SORT'),
  };
}

/**
 * Asks the store to `explain()` each shape that a declared index serves (`verdicts` of `checkShapes`), once
 * per shape, as a `find` of the shape's recorded filter and sort with a page's limit: a shape whose plan
 * reads the collection although an index serves it on paper (the index missing from the store, a value
 * the store can not compare in the index) is a shape the store scans. Shapes accepted without an index
 * (`ACCEPTED_SHAPES`) are not asked. On a store whose explain answers no plan (or fails), every shape is
 * `skipped` with the store's answer as `note`.
 * @param db the store (mongoose's connection's database)
 * @param state carried from one call to the next: once the store has said it can not explain, no more asking
 */
export async function explainShapes(
  verdicts: ShapeVerdict[],
  db: mongoose.mongo.Db,
  state: { unsupported?: string } = {},
): Promise<ExplainVerdict[]> {
  const out: ExplainVerdict[] = [];
  let unsupported = state.unsupported;
  for (const v of verdicts) {
    if (!v.index) continue;
    if (unsupported) {
      out.push({ key: v.key, plan: 'skipped', detail: '', note: unsupported });
      continue;
    }
    const bad = Object.entries(v.shape.filter).find(
      ([, c]) => !pushable(c) || !pushable((c as { $eq?: unknown })?.$eq),
    );
    if (bad) {
      out.push({
        key: v.key,
        plan: 'skipped',
        detail: '',
        note: `the recorded ${bad[0]} is a string FerretDB escapes`,
      });
      continue;
    }
    try {
      const cursor = db.collection(v.shape.collection).find(v.shape.filter);
      if (v.shape.sort) cursor.sort(v.shape.sort).limit(21);
      const answer = await cursor.explain();
      const read = readExplain(answer);
      if (!read.detail) {
        unsupported = `the store's explain shows no plan: ${JSON.stringify(answer).slice(0, 200)}`;
        out.push({ key: v.key, plan: 'skipped', detail: '', note: unsupported });
        continue;
      }
      out.push({ key: v.key, ...read });
    } catch (err) {
      unsupported = `the store's explain failed: ${(err as Error).message}`;
      out.push({ key: v.key, plan: 'skipped', detail: '', note: unsupported });
    }
  }
  state.unsupported = unsupported;
  return out;
}
