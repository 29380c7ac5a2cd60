/**
 * A workflow's Worker Versioning behavior (src/shared/deployments.ts), for `setWorkflowOptions`: given
 * only when the worker runs as a deployment version (`SVC_WORKER_VERSIONING`); an unversioned worker's
 * Temporal Core refuses a workflow task completed with a behavior.
 */
import { workflowInfo } from '@temporalio/workflow';
import type { VersioningBehavior, WorkflowDefinitionOptionsOrGetter } from '@temporalio/common';

/** The options getter: `{ versioningBehavior }` on a versioned worker, nothing on an unversioned one. */
export function versioningBehavior(behavior: VersioningBehavior): WorkflowDefinitionOptionsOrGetter {
  // An unversioned worker still reports a version for its tasks, with no deployment name.
  return () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: behavior } : {});
}
