/**
 * Worker Deployment versioning (Temporal's Worker Versioning, https://docs.temporal.io/worker-versioning):
 * which version this worker process is, and the deployment operations `svcctl deploy` runs.
 *
 * Environment (off unless asked; the embedded `npm start` and the tests run unversioned workers):
 * - `SVC_WORKER_VERSIONING=1`: the worker polls as a version of a Worker Deployment. Workflows then
 *   run by their `versioningBehavior` (src/shared/deployments.ts) and new work goes to the deployment's
 *   current version, which an operator moves with `svcctl deploy promote`.
 * - `SVC_DEPLOYMENT_NAME` (default `svc-assistant`).
 * - `SVC_BUILD_ID` (default `<package.json version>-<12 hex of the commit>`, the commit from `SVC_COMMIT`
 *   or `git rev-parse HEAD`; with neither, versioning refuses to start rather than give every build one id).
 *
 * A deployment with no current version yet (a fresh Temporal) gets the first version that polls as its
 * current one (`adoptIfFirst`): otherwise its workers would get no task until someone promotes them.
 */
import { ServiceError, type Client } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import { temporal } from '@temporalio/proto';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { DEFAULT_DEPLOYMENT_NAME } from '../shared/deployments';
import { buildCommit, serviceVersion } from './metrics';

/**
 * The deployment version this worker process polls as, or undefined (unversioned: the default).
 * @throws Error when versioning is on but a name or build id is malformed, or no build id can be derived
 */
export function workerDeploymentVersion(env: NodeJS.ProcessEnv = process.env): WorkerDeploymentVersion | undefined {
  if (!['1', 'true', 'yes', 'on'].includes((env.SVC_WORKER_VERSIONING ?? '').toLowerCase())) return undefined;
  const deploymentName = env.SVC_DEPLOYMENT_NAME || DEFAULT_DEPLOYMENT_NAME;
  let buildId = env.SVC_BUILD_ID;
  if (!buildId) {
    const commit = buildCommit();
    if (commit === 'unknown')
      throw new Error(
        'SVC_WORKER_VERSIONING is on but no build id: set SVC_BUILD_ID, or SVC_COMMIT (or run from a git checkout).',
      );
    buildId = `${serviceVersion()}-${commit.slice(0, 12)}`;
  }
  for (const [name, value] of [
    ['SVC_DEPLOYMENT_NAME', deploymentName],
    ['SVC_BUILD_ID', buildId],
  ] as const)
    if (
      !/^[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,254}$/.test(value) ||
      (name === 'SVC_DEPLOYMENT_NAME' && value.includes('.'))
    )
      throw new Error(
        `${name} '${value}' is not a valid ${name === 'SVC_BUILD_ID' ? 'build id' : 'deployment name'}: letters, digits, _ + - (and . in a build id), at most 255.`,
      );
  return { deploymentName, buildId };
}

/** `name:build-id`, the form Temporal's CLI, Web UI and `TemporalWorkerDeploymentVersion` search attribute use. */
export function versionString(v: WorkerDeploymentVersion): string {
  return `${v.deploymentName}:${v.buildId}`;
}

const { VersionDrainageStatus, WorkerDeploymentVersionStatus } = temporal.api.enums.v1;

/** One version of a deployment as `svcctl deploy status` shows it. */
export interface DeploymentVersionSummary {
  build_id: string;
  /** `current`, `ramping`, `draining` (pinned runs may still be open), `drained`, `inactive`. */
  status: string;
  /** Unix seconds. */
  created: number | null;
}

/** A deployment's routing and versions (`svcctl deploy status`). */
export interface DeploymentStatus {
  object: 'worker_deployment';
  name: string;
  current_build_id: string | null;
  ramping_build_id: string | null;
  ramping_percentage: number;
  versions: DeploymentVersionSummary[];
}

/** Unix seconds of a protobuf timestamp, or null. */
function unixSeconds(ts: { seconds?: unknown } | null | undefined): number | null {
  return ts?.seconds != null ? Number(ts.seconds) : null;
}

/** The enum's name without its prefix, lower case: `WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING` → `draining`. */
function enumName(values: Record<string, unknown>, value: unknown, prefix: string): string {
  const name = Object.keys(values).find((k) => values[k] === value) ?? 'UNSPECIFIED';
  return name.replace(prefix, '').toLowerCase();
}

/**
 * The deployment's routing and versions, or null when Temporal knows no deployment of that name (no
 * versioned worker of it ever polled).
 */
export async function deploymentStatus(client: Client, name: string): Promise<DeploymentStatus | null> {
  let info;
  try {
    ({ workerDeploymentInfo: info } = await client.connection.withDeadline(
      Date.now() + DEPLOYMENT_CHANGE_DEADLINE_MS,
      () =>
        client.workflowService.describeWorkerDeployment({ namespace: client.options.namespace, deploymentName: name }),
    ));
  } catch (err) {
    if (err instanceof ServiceError && (err.cause as { code?: number })?.code === grpcStatus.NOT_FOUND) return null;
    if ((err as { code?: number }).code === grpcStatus.NOT_FOUND) return null;
    throw err;
  }
  const routing = info?.routingConfig;
  return {
    object: 'worker_deployment',
    name,
    current_build_id: routing?.currentDeploymentVersion?.buildId || null,
    ramping_build_id: routing?.rampingDeploymentVersion?.buildId || null,
    ramping_percentage: routing?.rampingVersionPercentage ?? 0,
    versions: (info?.versionSummaries ?? []).map((v) => ({
      build_id: v.deploymentVersion?.buildId ?? '',
      status: enumName(WorkerDeploymentVersionStatus, v.status, 'WORKER_DEPLOYMENT_VERSION_STATUS_'),
      created: unixSeconds(v.createTime),
    })),
  };
}

/**
 * Makes `buildId` the deployment's current version: new workflows, and AUTO_UPGRADE ones at their next
 * task, go to it; runs PINNED to the previous version stay there (it becomes `draining`).
 * @throws ServiceError from Temporal, e.g. FAILED_PRECONDITION / NOT_FOUND when no worker of that version
 *   has polled yet
 */
export async function promote(client: Client, name: string, buildId: string): Promise<void> {
  await client.connection.withDeadline(Date.now() + DEPLOYMENT_CHANGE_DEADLINE_MS, () =>
    client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace: client.options.namespace,
      deploymentName: name,
      buildId,
      identity: 'svcctl',
    }),
  );
}

/**
 * How long a change of a deployment's routing may take (ms). Temporal runs it as an update of the
 * deployment's own system workflow, which waits for the task queues to take the new routing: seconds on a
 * busy server, longer than the few seconds `connectClient`'s deadline gives an API request (bench:deploy's
 * promotion on a loaded machine failed DEADLINE_EXCEEDED after 3 s, and so did a drain's describe and
 * count). The operator's commands (`svcctl deploy status|promote|drain`) may wait.
 */
export const DEPLOYMENT_CHANGE_DEADLINE_MS = 60_000;

/** What `svcctl deploy drain` reports of an old version. */
export interface DrainStatus {
  object: 'worker_deployment_version_drainage';
  deployment: string;
  build_id: string;
  /** Open workflow runs whose version is this one (visibility: `TemporalWorkerDeploymentVersion`). */
  open_workflows: number;
  /** Temporal's own drainage status: `draining`, `drained`, or `unspecified` (current, or not yet checked). */
  drainage: string;
  /** True when nothing runs on the version any more: its workers can be stopped. */
  drained: boolean;
}

/**
 * The drainage of version `buildId`: how many open runs are on it (pinned ones stay until they finish) and
 * Temporal's status, which the server refreshes only every few minutes
 * (`matching.wv.VersionDrainageStatusRefreshInterval`); `drained` trusts the count of open runs.
 */
export async function drainStatus(client: Client, name: string, buildId: string): Promise<DrainStatus> {
  const version = versionString({ deploymentName: name, buildId });
  const [{ workerDeploymentVersionInfo: info }, { count }] = await client.connection.withDeadline(
    Date.now() + DEPLOYMENT_CHANGE_DEADLINE_MS,
    () =>
      Promise.all([
        client.workflowService.describeWorkerDeploymentVersion({
          namespace: client.options.namespace,
          deploymentVersion: { deploymentName: name, buildId },
        }),
        client.workflow.count(`TemporalWorkerDeploymentVersion = "${version}" AND ExecutionStatus = "Running"`),
      ]),
  );
  const drainage = enumName(VersionDrainageStatus, info?.drainageInfo?.status, 'VERSION_DRAINAGE_STATUS_');
  const isCurrent = info?.status === WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT;
  return {
    object: 'worker_deployment_version_drainage',
    deployment: name,
    build_id: buildId,
    open_workflows: count,
    drainage,
    drained: !isCurrent && count === 0,
  };
}

/**
 * On a deployment with no current version (a fresh Temporal, or the first versioned worker ever), makes
 * `version` current once Temporal has seen it poll; does nothing when some version is current already
 * (then `svcctl deploy promote` moves traffic). Retries for up to `timeoutMs` while the version is unknown.
 * @returns whether this call made `version` current
 */
export async function adoptIfFirst(
  client: Client,
  version: WorkerDeploymentVersion,
  timeoutMs = 60_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await deploymentStatus(client, version.deploymentName).catch(() => null);
    if (status?.current_build_id) return false;
    if (status?.versions.some((v) => v.build_id === version.buildId)) {
      try {
        await promote(client, version.deploymentName, version.buildId);
        return true;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    } else if (Date.now() > deadline)
      throw new Error(`worker deployment version ${versionString(version)} not registered after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
