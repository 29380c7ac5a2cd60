/**
 * Worker bootstrap: one Temporal worker on the configured task queue that runs every workflow
 * (src/workflows) and every activity (src/activities). Stateless; run as many as you like.
 */
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import * as activities from '../activities';
import { config } from '../config';
import { connectionOptions } from '../platform/temporal';
import { dataConverter } from '../platform/payload-codec';
import { temporalWorkerTracing } from '../platform/tracing';
import { adoptIfFirst, versionString, workerDeploymentVersion } from '../platform/deployments';
import type { Client } from '@temporalio/client';
import { logger } from '../logger';

/** Path of the workflows module the worker bundles (compiled JS next to this file). */
export const WORKFLOWS_PATH = path.resolve(__dirname, '../workflows/index.js');

export interface CreateWorkerOptions {
  connection?: NativeConnection;
  /** A prebuilt bundle (`bundleWorkflowCode`); tests bundle once per run. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue?: string;
  /**
   * The Worker Deployment version to poll as (src/platform/deployments.ts); default: from the environment
   * (`SVC_WORKER_VERSIONING`, unversioned unless set). `null`: unversioned whatever the environment says.
   */
  deploymentVersion?: WorkerDeploymentVersion | null;
}

/**
 * Creates (does not run) the worker. The caller runs it with `worker.run()` and shuts it down. With
 * tracing on (src/platform/tracing.ts) it adds Temporal's OpenTelemetry interceptors and sink; a prebuilt
 * `workflowBundle` must then have been bundled with `workflowInterceptorModules()`. Versioned (a deployment
 * version given or in the environment), each workflow runs by its own `versioningBehavior`
 * (src/shared/deployments.ts); one without it would be AUTO_UPGRADE.
 */
export async function createWorker(opts: CreateWorkerOptions = {}): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect(connectionOptions()));
  const version = opts.deploymentVersion === undefined ? workerDeploymentVersion() : opts.deploymentVersion;
  return Worker.create({
    ...(version
      ? {
          workerDeploymentOptions: { useWorkerVersioning: true, version, defaultVersioningBehavior: 'AUTO_UPGRADE' },
        }
      : {}),
    connection,
    namespace: config().temporalNamespace,
    taskQueue: opts.taskQueue ?? config().taskQueue,
    activities,
    dataConverter, // payloads encrypted
    ...temporalWorkerTracing(opts.workflowBundle !== undefined), // nothing when tracing is off
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    // At least the LLM activity's startToCloseTimeout (30 s), so a deploy lets a turn's request finish
    // instead of burning one of its three tries.
    shutdownGraceTime: '35 seconds',
    // After a worker dies, a workflow it had cached gets its next task on that worker's sticky queue while
    // the server saw it poll less than 10 s before (the server's sticky poller window); the task then
    // waits this long before any worker may take it. The TypeScript SDK's default is 10 s, a caller's
    // silence on a live call; 5 s is the Go and Java SDKs' default. Under load a task that waits this long is
    // replayed from its history by whichever worker takes it, which is correct, only slower.
    // https://github.com/temporalio/temporal/pull/2811 (StickyWorkerUnavailable), WorkerOptions docs.
    stickyQueueScheduleToStartTimeout: '5 seconds',
  });
}

/**
 * For a versioned worker (`SVC_WORKER_VERSIONING`): once it polls, makes its version the deployment's
 * current one if the deployment has none yet (a fresh Temporal: `npm start`, a first deploy), so tasks
 * flow without an operator. Later versions wait for `svcctl deploy promote`. Logs, never throws; resolves
 * at once for an unversioned worker. Call it after `worker.run()` has started.
 */
export async function adoptFirstVersion(client: Client): Promise<void> {
  const version = workerDeploymentVersion();
  if (!version) return;
  try {
    if (await adoptIfFirst(client, version))
      logger.info('worker deployment version made current (the deployment had none)', {
        version: versionString(version),
      });
    else
      logger.info('worker deployment version polling; promote it with svcctl deploy promote', {
        version: versionString(version),
      });
  } catch (err) {
    logger.warn('could not check the worker deployment', { version: versionString(version), error: String(err) });
  }
}
