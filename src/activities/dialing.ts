/**
 * The dialing permissions as an activity (src/services/dial-gate.ts `checkDestination`): a call's
 * workflow asks it before the model's `transfer_call` transfers (src/workflows/call-tools.ts), so a
 * destination the organization may not call is a tool error for the model, never a transfer. Reads only;
 * the workflow acts on the answer its history holds.
 */
import { ApplicationFailure } from '@temporalio/common';
import { Call } from '../models/calls';
import { checkDestination } from '../services/dial-gate';

/**
 * Whether organization `orgId` (in `livemode`) may transfer call `callId` to `to`.
 * @returns `{allowed: true}`, or `{allowed: false, message}` naming the permission that refuses it
 */
export async function checkTransferDestination(input: {
  callId: string;
  orgId: string;
  livemode: boolean;
  to: string;
}): Promise<{ allowed: true } | { allowed: false; message: string }> {
  const check = await checkDestination({ orgId: input.orgId, livemode: input.livemode }, input.to);
  return check.allowed ? { allowed: true } : { allowed: false, message: check.detail };
}

/** Failure type of a dial refused by the dialing permissions inside a telephony activity (not retried). */
export const DESTINATION_NOT_ALLOWED = 'DestinationNotAllowed';

/**
 * The last word before Twilio is asked to dial `to` for call `callId` (a live call's own dial, the
 * `<Dial>` of a cold transfer, a warm transfer's leg): the dialing permissions of the call's organization
 * (src/services/dial-gate.ts `checkDestination`), whatever path led here.
 * @throws ApplicationFailure `DESTINATION_NOT_ALLOWED` (non-retryable) naming the permission that refuses it
 */
export async function requireDialAllowed(callId: string, to: string): Promise<void> {
  const call = await Call.findById(callId, { org_id: 1, livemode: 1 }).lean();
  if (!call) throw ApplicationFailure.nonRetryable(`No such call: ${callId}`, DESTINATION_NOT_ALLOWED);
  const check = await checkDestination({ orgId: call.org_id, livemode: call.livemode }, to);
  if (!check.allowed) throw ApplicationFailure.nonRetryable(check.detail, DESTINATION_NOT_ALLOWED);
}
