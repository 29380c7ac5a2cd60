/**
 * Production entry point of an API process (`npm run start:api`, docker-compose `api`): connects
 * MongoDB (`MONGODB_URI`, required) and Temporal (`TEMPORAL_ADDRESS`), each with the API's deadline
 * (`DEPENDENCY_DEADLINE_MS`: a dependency that does not answer is a 503, not a hang), checks that the
 * namespace has the service's search attributes (refusing to start without them), listens on `PORT`,
 * and stops cleanly on SIGINT/SIGTERM. Traces with the standard `OTEL_*` variables (src/platform/tracing.ts).
 */
import { config } from '../config';
import { DEPENDENCY_DEADLINE_MS } from '../errors';
import { connectStore, disconnectStore } from '../models/register';
import { connectClient, verifySearchAttributes } from '../platform/temporal';
import { logger } from '../logger';
import { startTracing, stopTracing } from '../platform/tracing';
import { startApi } from './server';

async function main(): Promise<void> {
  const cfg = config();
  if (!cfg.mongodbUri)
    throw new Error('MONGODB_URI is required (npm start runs an embedded database for development).');
  if (!cfg.secretsKey)
    throw new Error(
      'SECRETS_KEY is required: it encrypts stored secrets (32 random bytes in hex, the same for every API and worker process).',
    );
  startTracing('svc-assistant-api'); // only with OTEL_EXPORTER_OTLP_ENDPOINT (src/platform/tracing.ts)
  // A store or Temporal that does not answer fails a request within DEPENDENCY_DEADLINE_MS: 503.
  await connectStore(cfg.mongodbUri, { deadlineMs: DEPENDENCY_DEADLINE_MS });
  const temporal = await connectClient();
  await verifySearchAttributes(temporal); // registered by an operator: refuses to start without them
  const api = await startApi({ temporal, port: cfg.port });
  logger.info(`API listening on :${api.port}`);
  const stop = async () => {
    logger.info('stopping: finishing in-flight requests (up to 10 s)');
    await api.close();
    await temporal.connection.close();
    await disconnectStore();
    await stopTracing(); // the spans still queued
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  logger.error('API failed', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
