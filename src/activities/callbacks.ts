/**
 * The `schedule_callback` tool's effect: `scheduleCallback` creates the scheduled call
 * the assistant promised, through src/services/callbacks.ts (the rules live there), with the worker's
 * Temporal client. Called by the call and conversation workflows' tool (src/workflows/tools.ts) as a
 * scheduled activity; idempotent per the new call's id, which the workflow derives from the tool call's key.
 */
import { Context } from '@temporalio/activity';
import {
  scheduleCallback as schedule,
  type ScheduleCallbackInput,
  type ScheduleCallbackResult,
} from '../services/callbacks';

export type { ScheduleCallbackInput, ScheduleCallbackResult };

/**
 * Schedules the callback: a call to `input.to` with the same agent, `scheduled` until the time the person
 * asked for (moved into the agent's calling window), replacing the one still pending from the same call or
 * conversation. Bad input (an unreadable, past or too distant time, no number) is the result's error text.
 * @returns the text the model is given (the time the call rings, in the person's zone), the call and its time
 * @throws only failures a retry may cure (store, Temporal)
 */
export async function scheduleCallback(input: ScheduleCallbackInput): Promise<ScheduleCallbackResult> {
  return schedule(Context.current().client, input);
}
