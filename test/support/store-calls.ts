/**
 * Counts the commands a piece of code sends to one collection (grouped inserts, updates
 * and reads, and reserved rate-limit slots, are shown by fewer round trips than requests). Wraps the
 * driver collection's methods while `run` runs, and restores them after.
 */
import type mongoose from 'mongoose';

type Method = 'insertOne' | 'insertMany' | 'updateOne' | 'bulkWrite' | 'findOne';

/**
 * Runs `run` with `methods` of `collection` counted; `around` (optional) may delay or observe each call
 * (it gets the method's name and a function that makes the real call).
 * @returns what `run` resolved to and the count of each method's calls
 */
export async function countCalls<T, M extends Method>(
  collection: mongoose.Collection,
  methods: readonly M[],
  run: () => Promise<T>,
  around: (method: M, call: () => Promise<unknown>) => Promise<unknown> = (_m, call) => call(),
): Promise<{ result: T } & Record<M, number>> {
  const counts = Object.fromEntries(methods.map((m) => [m, 0])) as Record<M, number>;
  const target = collection as unknown as Record<M, (...args: unknown[]) => Promise<unknown>>;
  const saved = Object.fromEntries(methods.map((m) => [m, target[m]])) as typeof target;
  for (const m of methods)
    target[m] = (...args: unknown[]) => {
      counts[m]++;
      return around(m, () => saved[m].apply(collection, args));
    };
  try {
    return { result: await run(), ...counts };
  } finally {
    Object.assign(collection, saved);
  }
}

/** `countCalls` of `insertOne` and `insertMany`. */
export function countInserts<T>(collection: mongoose.Collection, run: () => Promise<T>) {
  return countCalls(collection, ['insertOne', 'insertMany'] as const, run);
}
