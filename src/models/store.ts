/**
 * The store: the mongoose connection and the write helpers every model file uses.
 *
 * Rules that keep the models correct on FerretDB 1.x as well as MongoDB (DESIGN.md section 3):
 * - `_id` is our prefixed string id, time-ordered, so `sort({_id:-1})` is "newest first".
 * - Free-form user JSON (`metadata`, `context`, rendered event payloads) is stored as a JSON string,
 *   because FerretDB refuses field names containing `.` or starting with `$`.
 * - No TTL indexes (FerretDB refuses them): expiry is a field compared in queries plus a sweep.
 * - Uniqueness comes from unique indexes and duplicate-key errors (`isDuplicateKey`), never read-then-write.
 * - Times are numbers: `created` in unix seconds (the API's unit), other `*_ms` fields in milliseconds.
 * - One writer per document: each model file's header says who writes what.
 *
 * Model files: one per domain beside this one, each with its schema, document type, renderer and who
 * writes it. Importing a model file registers its model; `connectStore` (./register.ts, which imports
 * every model file) creates the indexes of them all. This file imports no model.
 */
import mongoose from 'mongoose';
import { groupCommit } from '../shared/group-commit';

/** Schema options shared by every model: our own string `_id`, no `__v`. */
export const schemaOptions = { versionKey: false as const, _id: false as const };

/** A stored document with its `_id`. */
export type WithId<T> = T & { _id: string };

/** Milliseconds since the epoch → unix seconds (the API's unit); null stays null. */
export const seconds = (ms: number | null | undefined) => (ms == null ? null : Math.floor(ms / 1000));

/**
 * True for MongoDB's (and FerretDB's) E11000 duplicate key error, and for FerretDB 1.x's answer to an
 * update that would break a unique index (its SQLite backend reports `UNIQUE constraint failed` under
 * another code; the update is not applied).
 */
export function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 11000 || (typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

/**
 * FerretDB's messages when it cannot reach its PostgreSQL backend: no connection (pgx's "failed to
 * connect to `user=…`"), a connection the server closed, or PostgreSQL's own SQLSTATE 57P01-57P03
 * (shutting down, crashed, starting up) and class 08 (connection exceptions).
 */
const BACKEND_DOWN =
  /failed to connect to `|\(SQLSTATE 57P0[123]\)|\(SQLSTATE 08[0-9A-Z]{3}\)|: conn closed|unexpected EOF/;

/** Node's error codes of a socket the other side closed or never opened. */
const SOCKET_GONE = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);

/**
 * True when `err` (or one of its causes) says the store did not answer, rather than refused a command:
 * the driver's network errors (a dropped or refused connection, a socket timeout), no server selectable
 * within `serverSelectionTimeoutMS`, a closed or unconnected client, and mongoose's "buffering timed out"
 * (a command held while the connection was down, past `bufferTimeoutMS`), and Node's own socket errors
 * raised inside the driver; and FerretDB's InternalError (code 1) when its PostgreSQL backend is down or
 * restarting (`BACKEND_DOWN`: FerretDB itself answers, its database does not; `npm run stack:cluster`).
 * The API answers these 503.
 */
export function isStoreUnavailable(err: unknown): boolean {
  const { mongo } = mongoose;
  for (let e = err, i = 0; typeof e === 'object' && e !== null && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (
      e instanceof mongo.MongoNetworkError ||
      e instanceof mongo.MongoServerSelectionError ||
      e instanceof mongo.MongoNotConnectedError ||
      e instanceof mongo.MongoTopologyClosedError
    )
      return true;
    const { name, message, code, stack } = e as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
    if (name === 'MongooseServerSelectionError') return true;
    if (e instanceof mongo.MongoServerError && code === 1 && typeof message === 'string' && BACKEND_DOWN.test(message))
      return true;
    // A socket the store closed, written to by the driver before it noticed: Node's own EPIPE (or reset)
    // error, which the driver lets through unwrapped (writeAfterFIN in its connection's writeCommand).
    if (
      typeof code === 'string' &&
      SOCKET_GONE.has(code) &&
      typeof stack === 'string' &&
      /[/\\]node_modules[/\\]mongodb[/\\]/.test(stack)
    )
      return true;
    if (name === 'MongooseError' && typeof message === 'string' && message.includes('buffering timed out')) return true;
  }
  return false;
}

/** Inserts `doc`; a duplicate `_id` or unique key is not an error (returns false). For idempotent writes. */
export async function insertIfAbsent(
  model: { collection: mongoose.Collection },
  doc: Record<string, unknown>,
): Promise<boolean> {
  try {
    await model.collection.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Inserts `docs` in one unordered `insertMany` (one round trip) and tells which went in: false for one
 * refused as a duplicate (`isDuplicateKey`), as `insertIfAbsent` answers for each.
 * @throws the store's error when anything else refused or failed (some documents may then be in)
 */
export async function insertManyIfAbsent(
  model: { collection: mongoose.Collection },
  docs: Record<string, unknown>[],
): Promise<boolean[]> {
  try {
    await model.collection.insertMany(docs, { ordered: false });
    return docs.map(() => true);
  } catch (err) {
    const listed = (err as { writeErrors?: unknown }).writeErrors;
    const failed = (Array.isArray(listed) ? listed : listed ? [listed] : []) as { index: number }[];
    if (failed.length === 0 || !failed.every(isDuplicateKey)) throw err;
    const duplicates = new Set(failed.map((e) => e.index));
    return docs.map((_, i) => !duplicates.has(i));
  }
}

/** Most documents one grouped insert carries. */
const GROUP_MAX = 100;

/** Per collection (by model), a group committer of inserts (src/shared/group-commit.ts). */
const inserters = new WeakMap<mongoose.Collection, (key: string, doc: Record<string, unknown>) => Promise<boolean>>();

/**
 * `insertIfAbsent` with group commit: a lone insert goes at once; those that come while
 * one to the same collection is on its way go together in the next (`insertManyIfAbsent`, at most
 * `GROUP_MAX`), so concurrent requests share round trips. Resolves once the document is stored (or is a
 * duplicate: false), as `insertIfAbsent` does.
 * @throws the store's error for this document (a failed round trip fails every document it carried)
 */
export function insertIfAbsentGrouped(
  model: { collection: mongoose.Collection },
  doc: Record<string, unknown>,
): Promise<boolean> {
  let insert = inserters.get(model.collection);
  if (!insert) {
    insert = groupCommit<Record<string, unknown>, boolean>(
      async (_key, docs) =>
        docs.length === 1 ? [await insertIfAbsent(model, docs[0])] : insertManyIfAbsent(model, docs),
      GROUP_MAX,
    );
    inserters.set(model.collection, insert);
  }
  return insert('', doc);
}

/**
 * Most updates one grouped `update` command carries: FerretDB 1.24 keeps each statement's read cursor of
 * one `update` command open until it ends, each holding one of its 100 SQLite connections (see
 * src/activities/bulk-calls.ts), so a command stays a few statements long.
 */
const UPDATE_GROUP_MAX = 16;

/**
 * Update statements sent in one `update` command by `bulkUpdate`. FerretDB 1.24's SQLite backend keeps
 * every statement's read cursor of one `update` command open until the command ends, each holding one
 * of its 100 SQLite connections: a command of 100 update statements that match documents waits for ever
 * for a connection to write with, and the whole store with it (measured: 99 statements answer in
 * 120 ms, 100 never). Deletes and inserts do not hold cursors that way.
 */
export const UPDATES_PER_COMMAND = 50;

/** The summed counts of a `bulkUpdate`. */
export interface BulkUpdateCounts {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

/**
 * `bulkWrite` of `updateOne` statements, unordered, in commands of at most `UPDATES_PER_COMMAND`
 * statements (one round trip each, one after the other): every statement is tried even when another
 * fails, as one unordered `bulkWrite` would.
 * @returns the counts summed over the commands
 * @throws the store's error (a `MongoBulkWriteError` for a failed statement) after every command ran
 */
export async function bulkUpdate(
  collection: mongoose.Collection | { bulkWrite: mongoose.Collection['bulkWrite'] },
  ops: { updateOne: { filter: Record<string, unknown>; update: Record<string, unknown>; upsert?: boolean } }[],
): Promise<BulkUpdateCounts> {
  const counts: BulkUpdateCounts = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
  let failure: unknown = null;
  for (let i = 0; i < ops.length; i += UPDATES_PER_COMMAND) {
    try {
      const res = await collection.bulkWrite(ops.slice(i, i + UPDATES_PER_COMMAND) as never, { ordered: false });
      counts.matchedCount += res.matchedCount;
      counts.modifiedCount += res.modifiedCount;
      counts.upsertedCount += res.upsertedCount;
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return counts;
}

/** Per collection, a group committer of single-document updates (src/shared/group-commit.ts). */
const updaters = new WeakMap<
  mongoose.Collection,
  (key: string, op: { filter: Record<string, unknown>; update: Record<string, unknown> }) => Promise<void>
>();

/**
 * `updateOne(filter, update)` on the raw collection (no casting: give stored types) with group commit
 *: a lone update goes at once; those that come while one to the same collection is on
 * its way go together in the next, one unordered `bulkWrite` (one `update` command of at most
 * `UPDATE_GROUP_MAX` statements). For writes whose caller does not need to know whether the filter
 * matched (a bulk write answers counts, not which statements matched), such as an idempotency record's
 * completion, whose filter names its lease.
 * @throws the store's error (a failed round trip fails every update it carried)
 */
export function updateOneGrouped(
  model: { collection: mongoose.Collection },
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
): Promise<void> {
  let send = updaters.get(model.collection);
  if (!send) {
    send = groupCommit<{ filter: Record<string, unknown>; update: Record<string, unknown> }, void>(
      async (_key, ops) => {
        if (ops.length === 1) await model.collection.updateOne(ops[0].filter, ops[0].update);
        else
          await model.collection.bulkWrite(
            ops.map((op) => ({ updateOne: op })),
            { ordered: false },
          );
        return ops.map(() => undefined);
      },
      UPDATE_GROUP_MAX,
    );
    updaters.set(model.collection, send);
  }
  return send('', { filter, update });
}

/** Per collection, a group committer of `_id` reads (src/shared/group-commit.ts). */
const readers = new WeakMap<mongoose.Collection, (id: string, item: null) => Promise<unknown>>();

/**
 * The document with this `_id` (raw, as stored; null when none), read once for the lookups of the same
 * `_id` that come while a read of it is on its way (a burst of calls for one agent).
 * Still read-your-writes: a lookup never shares a read that began before it was asked, only the next
 * one, which begins after every lookup it answers. Each caller gets its own copy.
 * @param model the model whose collection holds the document
 */
export async function findByIdShared<T>(model: { collection: mongoose.Collection }, id: string): Promise<T | null> {
  let read = readers.get(model.collection);
  if (!read) {
    read = groupCommit<null, unknown>(async (key, waiting) => {
      const doc = await model.collection.findOne({ _id: key as never });
      return waiting.map((_, i) => (i === 0 || doc === null ? doc : structuredClone(doc)));
    }, 1000);
    readers.set(model.collection, read);
  }
  return (await read(id, null)) as T | null;
}

/**
 * Reads the documents with these `_id`s, one `{_id}` query each, side by side; missing ids are left out
 * and the order is the order found. Use it instead of `{_id: {$in: ids}}` or an `_id` range on hot paths:
 * FerretDB 1.24's SQLite backend pushes down only a filter that is exactly `{_id: <string>}`
 * (internal/backends/sqlite/collection.go), so any other filter reads the whole collection into FerretDB,
 * and a campaign's 10,000 result rows made every such read cost ~10,000 documents. A `{_id}` query is an
 * index search in the FerretDB that scripts/build-infra.sh builds (scripts/ferretdb-patches/0001: upstream
 * spells the query's `_id` expression unlike its index's, and scans).
 * @param projection fields to return (MongoDB projection), as `findById` takes it
 */
export async function findByIds<M extends mongoose.Model<any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
  model: M,
  ids: readonly string[],
  projection?: Record<string, 0 | 1>,
): Promise<WithId<mongoose.InferSchemaType<M['schema']>>[]> {
  const docs = await Promise.all([...new Set(ids)].map((id) => model.findById(id, projection).lean()));
  return docs.filter((d) => d != null) as WithId<mongoose.InferSchemaType<M['schema']>>[];
}

/** Closes the mongoose connection. */
export async function disconnectStore(): Promise<void> {
  await mongoose.disconnect();
}
