/**
 * `svcctl deploy promote` (src/platform/deployments.ts `promote`) on the harness's real Temporal dev server:
 * a versioned worker of a deployment of its own polls, and the promotion goes through a client whose every
 * request gets a 1 ms deadline unless it carries its own (connectClient's `deadlineInterceptor`, which
 * gives API requests 3 s). Temporal runs a routing change as an update of the deployment's system
 * workflow, seconds on a busy server: bench:deploy's promotion failed DEADLINE_EXCEEDED after 3 s on a
 * loaded machine. The promotion carries its own deadline (`DEPLOYMENT_CHANGE_DEADLINE_MS`).
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Client, Connection } from '@temporalio/client';
import { h } from '../support/harness';
import { createWorker } from '../../src/worker/worker';
import { deadlineInterceptor } from '../../src/platform/temporal';
import { deploymentStatus, drainStatus, promote } from '../../src/platform/deployments';

describe('svcctl deploy promote', function () {
  this.timeout(120_000);

  it('makes a polled version current even when the client bounds requests without a deadline of their own', async () => {
    const suffix = crypto.randomBytes(4).toString('hex');
    const deploymentName = `deploy-test-${suffix}`;
    const buildId = `1.0.0-${suffix}`;
    const worker = await createWorker({
      connection: h().env.nativeConnection,
      workflowBundle: h().bundle,
      taskQueue: `deploy-test-${suffix}`,
      deploymentVersion: { deploymentName, buildId },
    });
    const running = worker.run();
    const connection = await Connection.connect({
      address: h().env.connection.options.address,
      interceptors: [deadlineInterceptor(1)],
    });
    const tight = new Client({ connection, namespace: h().env.client.options.namespace });
    try {
      const deadline = Date.now() + 60_000;
      while (!(await deploymentStatus(h().env.client, deploymentName))?.versions.some((v) => v.build_id === buildId)) {
        expect(Date.now(), 'the version never showed up as polling').to.be.below(deadline);
        await new Promise((r) => setTimeout(r, 500));
      }
      // The interceptor does bound a request without its own deadline.
      const bounded = await tight.workflowService
        .describeWorkerDeployment({ namespace: tight.options.namespace, deploymentName })
        .then(
          () => null,
          (err: { code?: number }) => err,
        );
      expect(bounded?.code, 'a 1 ms deadline').to.equal(4); // DEADLINE_EXCEEDED
      await promote(tight, deploymentName, buildId);
      // Status and drain read through the same client: they carry their own deadline too.
      const status = await deploymentStatus(tight, deploymentName);
      expect(status?.current_build_id).to.equal(buildId);
      const drain = await drainStatus(tight, deploymentName, buildId);
      expect(drain.drained, 'the current version is never drained').to.equal(false);
    } finally {
      await connection.close();
      worker.shutdown();
      await running;
    }
  });
});
