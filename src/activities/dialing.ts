/**
 * The dialing permissions as an activity (src/services/dial-gate.ts `checkDestination`): a call's
 * workflow asks it before the model's `transfer_call` transfers (src/workflows/call-tools.ts), so a
 * destination the organization may not call is a tool error for the model, never a transfer. Reads only;
 * the workflow acts on the answer its history holds.
 */
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
