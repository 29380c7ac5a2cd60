/**
 * Production entry point of a worker process (`npm run start:worker`, docker-compose `worker`): connects
 * MongoDB (`MONGODB_URI`, required) and Temporal (`TEMPORAL_ADDRESS`), checks that the namespace has the
 * service's search attributes (refusing to start without them: `verifySearchAttributes`), and runs until
 * SIGINT/SIGTERM, then drains (in-flight activities get `shutdownGraceTime`) and exits.
 *
 * With `METRICS_WORKER_PORT` set it serves, on that port, `GET /metrics` (what this process counts:
 * calls, webhook deliveries, LLM requests, and the Temporal SDK's worker metrics; `METRICS_TOKEN` or
 * loopback only, src/platform/metrics.ts) and `GET /healthz` (200 while the worker runs). Traces with the
 * standard `OTEL_*` variables (src/platform/tracing.ts).
 */
import http from 'node:http';
import { config } from '../config';
import { connectStore, disconnectStore } from '../models/register';
import { connectClient, verifySearchAttributes } from '../platform/temporal';
import { serveMetrics } from '../platform/metrics';
import { logger } from '../logger';
import { startTracing, stopTracing } from '../platform/tracing';
import { adoptFirstVersion, createWorker } from './worker';
import { ensureCallReconcilerSchedule } from '../services/calls';
import { ensureRetentionSweepSchedule } from '../services/privacy-schedule';
import { ensureRecordingRetentionSchedule } from '../services/recordings';
import { ensureAuditRetentionSchedule } from '../services/audit';
import { freeLoopbackAddress, installRuntime } from './runtime';

async function main(): Promise<void> {
  const cfg = config();
  if (!cfg.mongodbUri)
    throw new Error('MONGODB_URI is required (npm start runs an embedded database for development).');
  if (!cfg.secretsKey)
    throw new Error(
      'SECRETS_KEY is required: it encrypts stored secrets (32 random bytes in hex, the same for every API and worker process).',
    );
  startTracing('svc-assistant-worker'); // only with OTEL_EXPORTER_OTLP_ENDPOINT (src/platform/tracing.ts)
  installRuntime(cfg.metricsWorkerPort !== undefined ? { prometheusAddress: await freeLoopbackAddress() } : {});
  await connectStore(cfg.mongodbUri);
  const client = await connectClient();
  await verifySearchAttributes(client); // registered by an operator: refuses to start without them
  await ensureCallReconcilerSchedule(client);
  await ensureRecordingRetentionSchedule(client);
  await ensureRetentionSweepSchedule(client);
  await ensureAuditRetentionSchedule(client);
  const worker = await createWorker();
  let metricsServer: http.Server | undefined;
  if (cfg.metricsWorkerPort !== undefined) {
    metricsServer = http.createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/metrics')
        return void serveMetrics(req, res, cfg.metricsToken).catch(() => res.destroy());
      if (req.method === 'GET' && path === '/healthz') {
        const state = worker.getState();
        res.writeHead(state === 'RUNNING' ? 200 : 503, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ status: state === 'RUNNING' ? 'ok' : state.toLowerCase() }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) =>
      metricsServer!.once('error', reject).listen(cfg.metricsWorkerPort, resolve),
    );
    logger.info(`worker metrics on :${cfg.metricsWorkerPort}/metrics`);
  }
  logger.info('worker running', { taskQueue: cfg.taskQueue, namespace: cfg.temporalNamespace });
  const running = worker.run(); // resolves after SIGINT/SIGTERM (the runtime's shutdown signals), once drained
  await adoptFirstVersion(client); // versioned workers only (SVC_WORKER_VERSIONING)
  await client.connection.close();
  await running;
  metricsServer?.close();
  await disconnectStore();
  await stopTracing(); // the spans still queued
  logger.info('worker stopped');
  process.exit(0); // the worker's native connection would keep the process alive for nothing
}

main().catch((err) => {
  logger.error('worker failed', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
