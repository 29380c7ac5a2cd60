/**
 * Connects the store and creates every model's indexes, whichever entry point calls it (the API, the
 * worker, `npm start`, svcctl, the test harness, benchmarks): `connectStore` loads every model file beside
 * this one (importing a model file registers its model with mongoose), so a new domain's model needs no
 * registration by hand. Entry points import `connectStore` and `disconnectStore` from here; model files
 * import only ./store.ts and ./wire.ts, and nothing imports this file but entry points.
 */
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';

/** Files beside the model files that define no model. */
const NOT_MODELS = new Set(['register', 'store', 'wire']);

/**
 * Loads every model file of this directory (compiled `.js`, or `.ts` under a TypeScript loader), so
 * `mongoose.models` holds them all. Idempotent: Node caches modules.
 */
async function loadModels(): Promise<void> {
  const ext = path.extname(__filename);
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (path.extname(file) !== ext || file.endsWith('.d.ts')) continue;
    if (NOT_MODELS.has(path.basename(file, ext))) continue;
    await import(path.join(__dirname, file));
  }
}

export { disconnectStore } from './store';

/**
 * Connects mongoose to `uri`, loads every model file and creates their indexes (`autoIndex` is off so
 * that no request waits on it). Resolves once every model's indexes exist.
 * @param opts.deadlineMs how long a command waits for a store that does not answer (default 10 s): the
 *   driver's `serverSelectionTimeoutMS` and mongoose's `bufferTimeoutMS` (commands held while the connection
 *   is down); past it the command fails (src/models/store.ts `isStoreUnavailable`). The API passes
 *   `DEPENDENCY_DEADLINE_MS` so that a request answers 503 in time.
 * @throws the driver's error when the store cannot be reached within the deadline
 */
export async function connectStore(uri: string, opts: { deadlineMs?: number } = {}): Promise<typeof mongoose> {
  mongoose.set('autoIndex', false);
  mongoose.set('strictQuery', true);
  const deadlineMs = opts.deadlineMs ?? 10_000;
  mongoose.set('bufferTimeoutMS', deadlineMs);
  // monitorCommands: the driver's command events, which time `svc_store_command_duration_seconds`
  // (src/platform/metrics.ts).
  await mongoose.connect(uri, { serverSelectionTimeoutMS: deadlineMs, monitorCommands: true });
  await loadModels();
  for (const model of Object.values(mongoose.models)) {
    await dropStaleIndexes(model);
    await model.createIndexes();
  }
  return mongoose;
}

/**
 * Drops the indexes of a model's collection whose keys no index of its schema declares any more (never
 * `_id_`): an index a newer release replaced would otherwise stay, costing every write, and on the embedded
 * store it can win the choice of index (FerretDB patch 0002 takes the longest equality prefix) and read a
 * whole organization where the declared index reads one conversation. Indexes are compared by their keys,
 * not their options (FerretDB lists options such as `sparse` differently), so a declared index is never
 * dropped and rebuilt. Several processes may start at once: a drop that fails (already dropped) is ignored.
 */
async function dropStaleIndexes(model: mongoose.Model<unknown>): Promise<void> {
  const declared = new Set(model.schema.indexes().map(([fields]) => JSON.stringify(fields)));
  let existing: { name?: string; key: Record<string, unknown> }[];
  try {
    existing = (await model.listIndexes()) as typeof existing;
  } catch {
    return; // no collection yet: nothing stale
  }
  for (const index of existing) {
    if (!index.name || index.name === '_id_' || declared.has(JSON.stringify(index.key))) continue;
    await model.collection.dropIndex(index.name).catch(() => undefined);
  }
}
