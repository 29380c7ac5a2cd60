/**
 * Production entry point of a worker process (`npm run start:worker`, docker-compose `worker`): connects
 * MongoDB (`MONGODB_URI`, required) and Temporal (`TEMPORAL_ADDRESS`), registers the search attributes,
 * and runs until SIGINT/SIGTERM.
 */
import { config } from '../config';
import { connectStore, disconnectStore } from '../models/store';
import { connectClient, ensureSearchAttributes } from '../lib/temporal';
import { logger } from '../logger';
import { createWorker } from './worker';
import { ensureCallReconcilerSchedule } from '../lib/calls';
import { installRuntime } from './runtime';

async function main(): Promise<void> {
  const cfg = config();
  if (!cfg.mongodbUri) throw new Error('MONGODB_URI is required (npm start runs an embedded database for development).');
  if (!cfg.secretsKey) throw new Error('SECRETS_KEY is required: it encrypts stored secrets (32 random bytes in hex, the same for every API and worker process).');
  installRuntime();
  await connectStore(cfg.mongodbUri);
  const client = await connectClient();
  await ensureSearchAttributes(client);
  await ensureCallReconcilerSchedule(client);
  await client.connection.close();
  const worker = await createWorker();
  logger.info('worker running', { taskQueue: cfg.taskQueue, namespace: cfg.temporalNamespace });
  await worker.run(); // resolves after SIGINT/SIGTERM (the runtime's shutdown signals)
  await disconnectStore();
}

main().catch((err) => {
  logger.error('worker failed', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
