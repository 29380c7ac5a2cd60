/**
 * `npm start`: the whole service in the foreground with embedded defaults for whatever is not
 * configured (DESIGN.md section 4): the Temporal dev server (SQLite under DATA_DIR, Web UI on 8233),
 * FerretDB on SQLite under DATA_DIR unless MONGODB_URI is set, the offline demo model unless
 * OPENAI_BASE_URL/OPENAI_API_KEY are set, then the worker and the API on PORT. Seeds the demo
 * organization and prints its test keys and a curl line. SIGINT/SIGTERM stop everything it started,
 * in this order: the API, the worker (drained), Temporal, FerretDB. SECRETS_KEY, when not set, is
 * generated once under DATA_DIR.
 *
 * Ports of the embedded servers: TEMPORAL_DEV_PORT (7233), TEMPORAL_UI_PORT (8233), FERRETDB_PORT (27017).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, setConfig } from '../config';
import { connectStore, disconnectStore } from '../models/store';
import { connectClient, ensureSearchAttributes } from '../lib/temporal';
import { createWorker } from '../worker/worker';
import { installRuntime } from '../worker/runtime';
import { startApi, type RunningApi } from '../api/server';
import { logger } from '../logger';
import { DEMO_MODEL_NAME, startDemoModel } from './demo-model';
import { infraBinaries, portInUse, startFerretDB, startTemporalDevServer, type ChildServer } from './infra';
import { seedDemo } from './seed';
import { ensureCallReconcilerSchedule } from '../lib/calls';

/** The development SECRETS_KEY: generated once and kept in `DATA_DIR/secrets.key` (mode 0600). */
function devSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return fs.readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  const cfg = loadConfig();
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping…');
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => logger.warn('cleanup failed', { error: String(err) }));
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    const temporalPort = Number(process.env.TEMPORAL_DEV_PORT || 7233);
    const uiPort = Number(process.env.TEMPORAL_UI_PORT || 8233);
    const ferretPort = Number(process.env.FERRETDB_PORT || 27017);
    const needTemporal = !cfg.temporalAddress;
    const needMongo = !cfg.mongodbUri;
    let uiUrl = 'your Temporal cluster\'s Web UI';

    if (needTemporal || needMongo) {
      logger.info('preparing the embedded servers (the first run builds them from the Go module proxy; a few minutes)');
      const bins = await infraBinaries();
      const children: ChildServer[] = [];
      cleanups.push(async () => {
        for (const c of children.reverse()) await c.stop();
      });
      if (needTemporal) {
        if (await portInUse(temporalPort)) throw new Error(`port ${temporalPort} is in use: stop what runs there, set TEMPORAL_DEV_PORT, or set TEMPORAL_ADDRESS to use that server`);
        const t = await startTemporalDevServer(bins.temporal, { dataDir: cfg.dataDir, port: temporalPort, uiPort });
        children.push(t);
        cfg.temporalAddress = t.address;
        uiUrl = `http://127.0.0.1:${uiPort}`;
        logger.info(`Temporal dev server on ${t.address}, Web UI ${uiUrl}`);
      }
      if (needMongo) {
        if (await portInUse(ferretPort)) throw new Error(`port ${ferretPort} is in use: stop what runs there, set FERRETDB_PORT, or set MONGODB_URI`);
        const f = await startFerretDB(bins.ferretdb, cfg.dataDir, ferretPort);
        children.push(f);
        cfg.mongodbUri = f.uri;
        logger.info(`FerretDB (SQLite under ${cfg.dataDir}/ferretdb) on ${f.uri}`);
      }
    }
    if (!cfg.openaiBaseUrl && !cfg.openaiApiKey) {
      const demo = await startDemoModel();
      cleanups.push(() => demo.close());
      cfg.openaiBaseUrl = demo.baseUrl;
      cfg.openaiModel = DEMO_MODEL_NAME;
      logger.warn(`no OPENAI_API_KEY: using the offline scripted demo model at ${demo.baseUrl} (keyword rules, not an LLM)`);
    }
    cfg.secretsKey ??= devSecretsKey(cfg.dataDir);
    setConfig(cfg);

    installRuntime();
    await connectStore(cfg.mongodbUri!);
    cleanups.push(() => disconnectStore());
    const client = await connectClient();
    cleanups.push(() => client.connection.close());
    await ensureSearchAttributes(client);
    await ensureCallReconcilerSchedule(client);

    const worker = await createWorker();
    const running = worker.run();
    cleanups.push(async () => {
      // The Temporal runtime also reacts to SIGINT/SIGTERM and may have started draining already.
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    });
    running.catch((err) => {
      logger.error('worker stopped', { error: String(err) });
      void shutdown(1);
    });

    const api: RunningApi = await startApi({ temporal: client, port: cfg.port });
    cleanups.push(() => api.close());

    const seed = await seedDemo(cfg.dataDir);
    const base = `http://localhost:${api.port}`;
    console.log(`
  Service ready on ${base}   (GET /healthz, GET /readyz)
  Temporal Web UI: ${uiUrl}
  Demo organization ${seed.org_id}${seed.created_now ? ' (created now)' : ''}, test-mode keys:
    secret key:       ${seed.secret_key}
    publishable key:  ${seed.publishable_key}
    demo agent:       ${seed.agent_id}

  Place a simulated demo call:
    curl -s ${base}/v1/calls -H "Authorization: Bearer ${seed.secret_key}" -H "Content-Type: application/json" \\
      -d '{"to":"+14155550123","agent_id":"${seed.agent_id}","metadata":{"order_id":"1234"}}'
  Then: curl -s ${base}/v1/calls/<id>/transcript -H "Authorization: Bearer ${seed.secret_key}"
        curl -s ${base}/v1/events -H "Authorization: Bearer ${seed.secret_key}"
  Ctrl-C stops everything.
`);
  } catch (err) {
    logger.error(err instanceof Error ? err.message : String(err));
    await shutdown(1);
  }
}

void main();
