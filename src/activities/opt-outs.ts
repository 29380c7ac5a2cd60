/**
 * The `opt_out` tool's effect: `recordOptOut` records a person's request not to be called again through
 * src/services/opt-outs.ts (the rules live there), with the worker's Temporal client for the
 * `contact.opted_out` event. Called by the call workflow's tool (src/workflows/tools.ts) as a scheduled
 * activity; idempotent per the tool call's key, so a retried attempt (or a re-run after a worker died
 * mid-way) creates one contact and emits one event.
 */
import { Context } from '@temporalio/activity';
import { recordOptOut as record, type OptOutInput, type OptOutResult } from '../services/opt-outs';

export type { OptOutInput, OptOutResult };

/**
 * Records the opt-out (`input.channel` `voice` from a call): the contact (created if none) gets it and
 * `do_not_call`, the number goes on the organization's do-not-call list, `contact.opted_out` is emitted once.
 * @returns what was done (`recorded` false: the person had opted out already, or the number is not E.164)
 * @throws only failures a retry may cure (store, Temporal)
 */
export async function recordOptOut(input: OptOutInput): Promise<OptOutResult> {
  return record(Context.current().client, input);
}
