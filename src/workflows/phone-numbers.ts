/**
 * `phoneNumberProvisionWorkflow`: makes a pending live number the organization's, durably. Workflow id
 * `phone-number:<phone number id>` (src/shared/phone-numbers.ts `provisionWorkflowId`), started by
 * `POST /v1/phone_numbers` with a live key after it stored the number `pending`, and awaited by that
 * request.
 *
 * One activity, `provisionNumber` (src/services/number-provisioning.ts): look the number up in the
 * organization's Twilio account, import it or buy it, store it. It runs on a worker, not in the API
 * process, so a worker killed between Twilio's purchase answer and the store write is retried on another
 * worker (start-to-close 30 s), whose attempt finds the number in the account and stores it: bought once,
 * stored once. A refusal by Twilio of the lookup itself (`TelephonyRejected`) is not retried.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and activity types.
 */
import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import type * as numbers from '../activities/phone-numbers';
import type { ProvisionNumberInput, ProvisionOutcome } from '../shared/phone-numbers';
import { UNTIL_DONE_UNLESS_REFUSED } from './retry';

const { provisionNumber } = proxyActivities<typeof numbers>({
  startToCloseTimeout: '30 seconds',
  retry: UNTIL_DONE_UNLESS_REFUSED,
});

/** Provisions the number; answers whether it is stored (its source) or why not (nothing stored). */
export async function phoneNumberProvisionWorkflow(input: ProvisionNumberInput): Promise<ProvisionOutcome> {
  return await provisionNumber(input);
}

// Worker Versioning (src/shared/deployments.ts): Moves to the current version at its next task; changes gated with a patch (src/shared/deployments.ts).
setWorkflowOptions(versioningBehavior('AUTO_UPGRADE'), phoneNumberProvisionWorkflow);
