/**
 * Registers every model with mongoose (importing a model file registers it) and connects the store, so
 * that `connectStore` creates every model's indexes whichever entry point calls it. Entry points (the API,
 * the worker, `npm start`, svcctl, the test harness, benchmarks) import `connectStore` and
 * `disconnectStore` from here; the model files import only ./store.ts.
 */
import mongoose from 'mongoose';
import './orgs';
import './agents';
import './calls';
import './events';
import './idempotency';
import './webhooks';
import './knowledge';
import './contacts';
import './conversations';
import './connectors';
import './usage';
import './forms';
import './bulk-calls';
import './rate-limits';
import './widget';

export { disconnectStore } from './store';

/**
 * Connects mongoose to `uri` and creates the indexes (`autoIndex` is off so that no request waits on it).
 * Resolves once every model's indexes exist.
 */
export async function connectStore(uri: string): Promise<typeof mongoose> {
  mongoose.set('autoIndex', false);
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  for (const model of Object.values(mongoose.models)) await model.createIndexes();
  return mongoose;
}
