/**
 * Counts the insert commands a piece of code sends to one collection (issue 32 item 5: grouped inserts
 * and reserved rate-limit slots are shown by fewer round trips than requests). Wraps the driver
 * collection's `insertOne` and `insertMany` while `run` runs, and restores them after.
 */
import type mongoose from 'mongoose';

export async function countInserts<T>(
  collection: mongoose.Collection,
  run: () => Promise<T>,
): Promise<{ result: T; insertOne: number; insertMany: number }> {
  const counts = { insertOne: 0, insertMany: 0 };
  const saved = { insertOne: collection.insertOne, insertMany: collection.insertMany };
  collection.insertOne = ((...args: Parameters<typeof collection.insertOne>) => {
    counts.insertOne++;
    return saved.insertOne.apply(collection, args);
  }) as typeof collection.insertOne;
  collection.insertMany = ((...args: Parameters<typeof collection.insertMany>) => {
    counts.insertMany++;
    return saved.insertMany.apply(collection, args);
  }) as typeof collection.insertMany;
  try {
    return { result: await run(), ...counts };
  } finally {
    Object.assign(collection, saved);
  }
}
