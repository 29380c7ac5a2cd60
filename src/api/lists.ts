/**
 * The list convention of every list endpoint (DESIGN.md section 5, Stripe's pagination):
 * `{"object":"list","data":[…],"has_more":bool,"url":"/v1/…"}`, newest first, `limit` 1–100 (default
 * 20, else 400), `starting_after` / `ending_before` object ids (mutually exclusive).
 *
 * Ids are time-ordered (src/shared/ids.ts), so paging by `_id` is stable when new objects arrive between pages:
 * a new object sorts before the first page and never shifts a later one.
 */
import type { Request } from 'express';
import type { Model } from 'mongoose';
import { z } from 'zod';
import { ApiError, invalidParam } from '../errors';
import { derivedId } from '../shared/ids';
import type { QueryParam } from './validation';

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface ListParams {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

/** Parses and checks `limit`, `starting_after`, `ending_before` from the query string. */
export function listParams(req: Request): ListParams {
  const q = req.query as Record<string, unknown>;
  let limit = 20;
  if (q.limit !== undefined) {
    if (typeof q.limit !== 'string' || !/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > 100) {
      throw invalidParam('limit', 'Invalid limit: must be an integer from 1 to 100.');
    }
    limit = Number(q.limit);
  }
  const cursor = (name: string) => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !/^[a-z]+_[0-9a-z]{26}$/.test(v))
      throw invalidParam(name, `Invalid ${name}: must be an object id from a previous page.`);
    return v;
  };
  const startingAfter = cursor('starting_after');
  const endingBefore = cursor('ending_before');
  if (startingAfter && endingBefore) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'parameter_invalid',
      'Use starting_after or ending_before, not both.',
      'ending_before',
    );
  }
  return { limit, startingAfter, endingBefore };
}

/** A bound on `_id` as MongoDB takes it (`{$gt: …, $lt: …}`). */
type IdRange = Partial<Record<'$gt' | '$gte' | '$lt' | '$lte', string>>;

/**
 * `a` and `b` together: of two lower (or two upper) bounds, the tighter one. Ids compare as strings.
 */
function intersect(a: IdRange, b: IdRange): IdRange {
  const out: IdRange = { ...a };
  const tighter = (ops: ['$gt', '$gte'] | ['$lt', '$lte'], below: boolean) => {
    const [strict, loose] = ops;
    const bounds = [a, b].flatMap((r) =>
      [strict, loose].filter((op) => r[op] !== undefined).map((op) => ({ op, v: r[op]! })),
    );
    if (bounds.length === 0) return;
    delete out[strict];
    delete out[loose];
    // The tightest bound: the highest lower bound (the lowest upper one); strict wins a tie.
    const best = bounds.reduce((x, y) => {
      if (x.v === y.v) return x.op === strict ? x : y;
      return below === x.v > y.v ? x : y;
    });
    out[best.op] = best.v;
  };
  tighter(['$gt', '$gte'], true);
  tighter(['$lt', '$lte'], false);
  return out;
}

/**
 * Runs a paginated query on `model` (documents keyed by time-ordered `_id`) and renders a list page.
 *
 * The query is `filter` plus the cursor's bound on `_id`, sorted by `_id` with `limit + 1`: the shape an
 * index `{<filter's equality fields>, _id}` serves on MongoDB (equality, sort, range) and on the embedded
 * store (scripts/ferretdb-patches/0003: it walks that index and stops at the limit). A range on `_id`
 * already in `filter` (`createdIdRange`) is kept, narrowed by the cursor's.
 * @param filter the tenant/mode filter plus any endpoint filters
 * @param render document → API object
 */
export async function listPage<T>(
  req: Request,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>,
  filter: Record<string, unknown>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  render: (doc: any) => T,
): Promise<ListPage<T>> {
  const { limit, startingAfter, endingBefore } = listParams(req);
  const query: Record<string, unknown> = { ...filter };
  const given = (filter._id ?? {}) as IdRange;
  let docs: { _id: string }[];
  if (endingBefore) {
    query._id = intersect(given, { $gt: endingBefore });
    docs = (await model
      .find(query)
      .sort({ _id: 1 })
      .limit(limit + 1)
      .lean()) as { _id: string }[];
    const hasMore = docs.length > limit;
    docs = docs.slice(0, limit).reverse();
    return {
      object: 'list',
      data: docs.map(render),
      has_more: hasMore,
      url: req.baseUrl + req.path.replace(/\/$/, ''),
    };
  }
  if (startingAfter) query._id = intersect(given, { $lt: startingAfter });
  docs = (await model
    .find(query)
    .sort({ _id: -1 })
    .limit(limit + 1)
    .lean()) as { _id: string }[];
  return {
    object: 'list',
    data: docs.slice(0, limit).map(render),
    has_more: docs.length > limit,
    url: req.baseUrl + req.path.replace(/\/$/, ''),
  };
}

const RANGE_OPS = { gte: '$gte', gt: '$gt', lte: '$lte', lt: '$lt' } as const;

/**
 * The `created` query parameter of a list (Stripe's deepObject form: `created[gte]`, `created[gt]`,
 * `created[lte]`, `created[lt]`, unix seconds); `what` names the listed objects in its description.
 */
export function createdQuery(what: string): QueryParam {
  return {
    name: 'created',
    description: `Only ${what} created in this range of unix times (seconds): \`created[gte]\`, \`created[gt]\`, \`created[lte]\`, \`created[lt]\`.`,
    deepObject: Object.keys(RANGE_OPS),
    schema: z.object(
      Object.fromEntries(
        (Object.keys(RANGE_OPS) as (keyof typeof RANGE_OPS)[]).map((k) => [
          k,
          z
            .int()
            .min(0)
            .max(999_999_999_999)
            .optional()
            .describe({ gte: 'At or after.', gt: 'After.', lte: 'At or before.', lt: 'Before.' }[k]),
        ]),
      ),
    ),
  };
}

/**
 * The MongoDB range of the request's `created[…]` parameters (`{$gte: …}`), or undefined when none is given.
 * @throws ApiError 400 `parameter_invalid` naming a value that is not unix seconds
 */
export function createdRange(req: Request): Record<string, number> | undefined {
  const q = req.query as Record<string, unknown>;
  const range: Record<string, number> = {};
  for (const [key, op] of Object.entries(RANGE_OPS)) {
    const param = `created[${key}]`;
    const v = q[param];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !/^\d{1,12}$/.test(v))
      throw invalidParam(param, `Invalid ${param}: must be a unix timestamp in seconds.`);
    range[op] = Number(v);
  }
  return Object.keys(range).length ? range : undefined;
}

/**
 * How far an object's id time may be from its `created` (ms), for `createdIdRange`: `before`, how much
 * earlier than `created` the id may be made (null: without limit, e.g. an event whose id is made when it is
 * scheduled and which is stored when it happens); `after`, how much later than the end of `created`'s second.
 */
export interface IdSkew {
  before: number | null;
  after: number;
}

/**
 * The `_id` range of the objects whose `created` (unix seconds) is in `created` (`createdRange`), given that
 * their ids (`<prefix>_<ULID>`, src/shared/ids.ts) are made within `skew` of that time: a range of the
 * index the list already walks for its page (`{…, _id}`), so that a page of a time range reads from the
 * range's first row and stops at the range's end instead of filtering the tenant's rows one by one. The
 * `created` condition stays in the filter (the ids only narrow what is read).
 * @returns the range, or undefined when it would not narrow anything
 */
export function createdIdRange(
  created: Record<string, number>,
  prefix: string,
  skew: IdSkew,
): Record<string, string> | undefined {
  /** The smallest id string of the millisecond `ms` (the id's time digits, no random part). */
  const at = (ms: number) => derivedId(prefix, Math.max(0, ms), '').slice(0, prefix.length + 11);
  const range: Record<string, string> = {};
  const lower = created.$gte ?? (created.$gt !== undefined ? created.$gt + 1 : undefined);
  if (lower !== undefined && skew.before !== null) range.$gte = at(lower * 1000 - skew.before);
  const upper = created.$lt ?? (created.$lte !== undefined ? created.$lte + 1 : undefined);
  if (upper !== undefined) range.$lt = at(upper * 1000 + skew.after);
  return Object.keys(range).length ? range : undefined;
}

/** `{_id: range}` to merge into a filter, or nothing when there is no range. */
export const idRangeOf = (range: Record<string, string> | undefined): { _id?: Record<string, string> } =>
  range ? { _id: range } : {};
