/**
 * `svcctl deploy status|promote|drain`: a rolling deploy with Temporal's Worker Versioning (README,
 * "Rolling deploys"). Workers of the new build start beside the old ones (`SVC_WORKER_VERSIONING=1`, each
 * build its own `SVC_BUILD_ID`); `promote` makes the new build the deployment's current version (new calls
 * and conversations start on it, campaigns and other AUTO_UPGRADE runs move to it at their next task);
 * `drain` reports, and with `--wait` waits until, no run is left on the old build, whose workers can then
 * be stopped. The same operations as `temporal worker deployment describe|set-current-version|describe-version`.
 *
 *   svcctl deploy status [--deployment NAME]                 → {"object":"worker_deployment","current_build_id",…,"versions":[…]}
 *   svcctl deploy promote --build-id B [--deployment NAME]   → the status after the change
 *   svcctl deploy drain --build-id A [--deployment NAME] [--wait] [--timeout-s N]
 *                                                            → {"object":"worker_deployment_version_drainage","open_workflows":N,"drained":bool,…}
 *
 * `--deployment` defaults to `SVC_DEPLOYMENT_NAME`, else `svc-assistant`. Temporal is reached as the API
 * reaches it (`TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, TLS/API key options).
 */
import type { Client } from '@temporalio/client';
import { connectClient } from '../platform/temporal';
import { deploymentStatus, drainStatus, promote, type DrainStatus } from '../platform/deployments';
import { DEFAULT_DEPLOYMENT_NAME } from '../shared/deployments';

/** What a deploy command was given (checked by svcctl's option parser). */
export interface DeployArgs {
  deployment?: string;
  buildId?: string;
  wait?: boolean;
  /** `--wait`'s bound in seconds (default 3600). */
  timeoutS?: number;
}

/** Thrown for a missing or malformed option (svcctl exits 2). */
export class DeployUsageError extends Error {}

/**
 * Runs `svcctl deploy ACTION`. Connects to Temporal, runs, closes the connection.
 * @throws DeployUsageError for a missing `--build-id` or a bad `--timeout-s`; Error when the deployment is
 *   unknown, the drain times out, or Temporal refuses (e.g. promoting a build none of whose workers polled)
 */
export async function deployCommand(action: 'status' | 'promote' | 'drain', args: DeployArgs): Promise<unknown> {
  const name = args.deployment || process.env.SVC_DEPLOYMENT_NAME || DEFAULT_DEPLOYMENT_NAME;
  if (action !== 'status' && !args.buildId) throw new DeployUsageError('--build-id is required');
  const timeoutS = args.timeoutS ?? 3600;
  if (!Number.isInteger(timeoutS) || timeoutS < 1) throw new DeployUsageError('--timeout-s must be an integer ≥ 1');
  const client = await connectClient();
  try {
    if (action === 'promote') await promote(client, name, args.buildId!);
    if (action === 'drain') return await drain(client, name, args.buildId!, args.wait ? timeoutS * 1000 : 0);
    const status = await deploymentStatus(client, name);
    if (!status)
      throw new Error(`No worker deployment named ${name}: no worker with SVC_WORKER_VERSIONING=1 has polled it.`);
    return status;
  } finally {
    await client.connection.close();
  }
}

/** The old build's drainage; with `waitMs` > 0, polled every 2 s until drained (Error past the bound). */
async function drain(client: Client, name: string, buildId: string, waitMs: number): Promise<DrainStatus> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const status = await drainStatus(client, name, buildId);
    if (status.drained || waitMs === 0) return status;
    if (Date.now() > deadline)
      throw new Error(`${name}:${buildId} not drained after ${waitMs / 1000} s: ${status.open_workflows} runs open`);
    process.stderr.write(`svcctl: ${status.open_workflows} runs still on ${name}:${buildId}\n`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}
