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

/**
 * Runs a paginated query on `model` (documents keyed by time-ordered `_id`) and renders a list page.
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
  let docs: { _id: string }[];
  if (endingBefore) {
    query._id = { $gt: endingBefore };
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
  if (startingAfter) query._id = { $lt: startingAfter };
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
