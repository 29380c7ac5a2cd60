/**
 * Worker bootstrap: one Temporal worker on the configured task queue that runs every workflow
 * (src/workflows) and every activity (src/activities). Stateless; run as many as you like.
 */
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import * as activities from '../activities';
import { config } from '../config';
import { connectionOptions } from '../platform/temporal';
import { dataConverter } from '../platform/payload-codec';
import { temporalWorkerTracing } from '../platform/tracing';

/** Path of the workflows module the worker bundles (compiled JS next to this file). */
export const WORKFLOWS_PATH = path.resolve(__dirname, '../workflows/index.js');

export interface CreateWorkerOptions {
  connection?: NativeConnection;
  /** A prebuilt bundle (`bundleWorkflowCode`); tests bundle once per run. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue?: string;
}

/**
 * Creates (does not run) the worker. The caller runs it with `worker.run()` and shuts it down. With
 * tracing on (src/platform/tracing.ts) it adds Temporal's OpenTelemetry interceptors and sink; a prebuilt
 * `workflowBundle` must then have been bundled with `workflowInterceptorModules()`.
 */
export async function createWorker(opts: CreateWorkerOptions = {}): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect(connectionOptions()));
  return Worker.create({
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
