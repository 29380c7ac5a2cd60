/**
 * A worker in its own process, for the crash tests (test/integration/webhooks.test.ts,
 * test/integration/crash.test.ts): a test starts it with `startWorkerProcess` (test/support/harness.ts),
 * kills it with SIGKILL in the middle of the work, and starts it again.
 *
 * Environment: MONGODB_URI, TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE (the queue it polls), WORKFLOW_BUNDLE_FILE
 * (the harness's prebuilt bundle, so no re-bundling), WEBHOOK_ALLOW_PRIVATE, and NODE_EXTRA_CA_CERTS (the
 * receiver's self-signed certificate: this process trusts it the way a production worker would).
 * Prints `ready` on stdout once the worker runs; SIGTERM shuts it down.
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { config } from '../../src/config';
import { connectStore, disconnectStore } from '../../src/models/register';
import { connectionOptions } from '../../src/platform/temporal';
import { createWorker } from '../../src/worker/worker';

async function main(): Promise<void> {
  const cfg = config();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  await connectStore(cfg.mongodbUri!);
  const connection = await NativeConnection.connect(connectionOptions());
  const worker = await createWorker({
    connection,
    workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_FILE! },
    taskQueue: cfg.taskQueue,
  });
  const run = worker.run();
  process.once('SIGTERM', () => worker.shutdown());
  process.stdout.write('ready\n');
  await run;
  await connection.close();
  await disconnectStore();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
