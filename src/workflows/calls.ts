/**
 * `callWorkflow`: one phone call, live (Twilio) or simulated (test mode), from `queued` to its terminal
 * status. Workflow id = call id (`call_…`), so starting it twice for one call is impossible.
 *
 * Statuses (DESIGN.md section 6): [scheduled →] queued → ringing → in_progress → completed | transferred | busy |
 * no_answer | failed | canceled, with `end_reason` saying who or what ended it. Every transition is
 * mirrored into MongoDB by the `transitionCall` activity, which also emits `call.started` /
 * `call.transferred` / `call.ended` events carrying the call's `metadata` (spec section 6, rule 1).
 *
 * Reached from outside by (src/shared/calls.ts): update `end`, update `transfer` (validators refuse
 * with ApplicationFailure type `call_not_live`, the status in its details), updates `callerSaid` and
 * `answer` (live voice loop), signal `telephonyStatus` (Twilio status callbacks), signal
 * `machineDetection` (Twilio's answering-machine detection), update `advanceClock` (a scheduled test-mode
 * call's clock), query `state`, signal `transferLeg` (Twilio callbacks of a warm transfer's leg to the
 * person; `transfer` refuses a second one with `transfer_in_progress`), signal `interrupted` (the caller
 * talked over the assistant), updates `say` and `context` (steering a live call), signal `slotGranted`
 * (the organization's call slots, src/workflows/call-slots.ts), signals `realtimeIncoming`,
 * `realtimeEvent` and `realtimeEvents`, update `realtimeOutputs` and query `realtimeOutbox` (a realtime call's SIP leg and
 * session, src/shared/realtime.ts).
 *
 * Reads top-down: handlers, ring, talk, finish; each a call into the run's `CallSession`
 * (src/workflows/call-session.ts), the conductor over the collaborators that hold the call's state and do
 * the work (its record, transcript, queue, line, warm transfers, tools and turn loop).
 * - Never stuck: ringing is bounded (simulation `ring_seconds`, 60 s live), the conversation by
 *   `max_duration_seconds` from the answer, a silent live caller by a silence timeout, each turn by its
 *   deadline (a holding line, then the end), each LLM request by the activity's timeouts and retries.
 * - The end is always recorded: the finish phase runs in a non-cancellable scope, a failing hang-up is
 *   noted, not fatal; a run closed by an operator is found by the reconciler (src/workflows/calls-reconciler.ts).
 * - Bounded history: the LLM is asked and the transcript written through local activities (no server
 *   round trip per turn; their inputs are not recorded); the run that began the call holds the
 *   conversation in memory, a run continuing a long call has the LLM activity load the recorded
 *   transcript by call id. A long call continues as new when Temporal suggests it (or after
 *   `LOCAL_TURNS_PER_RUN` local turns).
 * - Exactly once: transitions that emit events stay scheduled activities (event ids fixed in the history);
 *   a worker crash in the middle of a workflow task re-runs its local activities: the LLM request may be
 *   sent again (metered once: usage rows are keyed by run and activity id), transcript rows are
 *   insert-if-absent.
 */
import { continueAsNew, patched, setHandler, setWorkflowOptions, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import { PATCHES } from '../shared/deployments';
import {
  advanceClockUpdate,
  answerUpdate,
  callerSaidUpdate,
  contextUpdate,
  endUpdate,
  interruptedSignal,
  machineDetectionSignal,
  sayUpdate,
  stateQuery,
  telephonyStatusSignal,
  transferLegSignal,
  transferUpdate,
  type AdvanceClockRequest,
  type CallState,
  type CallWorkflow,
  type CallWorkflowInput,
  type ContextNote,
  type SayRequest,
  type TransferRequest,
} from '../shared/calls';
import { slotGrantedSignal } from '../shared/call-slots';
import { paymentResultSignal } from '../shared/payments';
import {
  realtimeEventSignal,
  realtimeEventsSignal,
  realtimeIncomingSignal,
  realtimeOutboxQuery,
  realtimeOutputsUpdate,
  type RealtimeOutputsRequest,
} from '../shared/realtime';
import { validateRealtimeOutputs } from './call-realtime';
import { CallSession } from './call-session';

/**
 * Runs one call to its end (or to its next run, for a long call that continues as new).
 * @param input everything fixed at creation (src/shared/calls.ts `CallWorkflowInput`)
 * @returns the final `CallState`
 */
export async function callWorkflow(input: CallWorkflowInput): Promise<CallState> {
  const call = new CallSession(input);

  // Handlers: each a line over the session or the collaborator that owns what it reads or changes.
  const { turns, line, queue } = call;
  setHandler(stateQuery, () => call.state());
  setHandler(endUpdate, () => call.end(), { validator: () => call.validateEnd() });
  setHandler(transferUpdate, (request) => call.transfer(request), {
    validator: (request: TransferRequest) => call.validateTransfer(request),
  });
  setHandler(callerSaidUpdate, (utterance) => turns.callerSaid(utterance), {
    validator: (utterance: { text: string }) => turns.validateCallerSaid(utterance),
  });
  setHandler(answerUpdate, (request) => turns.answer(request), {
    validator: (request: { utterance: number }) => turns.validateAnswer(request),
  });
  setHandler(telephonyStatusSignal, (status) => line.onTelephonyStatus(status));
  setHandler(machineDetectionSignal, (result) => line.onMachineDetection(result));
  setHandler(transferLegSignal, (event) => call.warm.onLeg(event));
  setHandler(paymentResultSignal, (result) => call.payments.onResult(result));
  setHandler(interruptedSignal, (interruption) => call.transcript.onInterrupted(interruption));
  setHandler(slotGrantedSignal, () => queue.onSlotGranted());
  setHandler(advanceClockUpdate, (request) => call.advanceClock(request), {
    validator: (request: AdvanceClockRequest) => queue.validateAdvanceClock(request),
  });
  setHandler(sayUpdate, (request) => turns.sayLine(request), {
    validator: (request: SayRequest) => turns.validateSay(request),
  });
  setHandler(contextUpdate, (note) => turns.addNote(note), {
    validator: (note: ContextNote) => turns.validateContext(note),
  });
  // The realtime engine's (only its calls are sent them): the SIP leg announced, the session's events, the
  // function outputs pushed to the session's socket.
  setHandler(realtimeIncomingSignal, (incoming) => call.realtime?.onIncoming(incoming));
  setHandler(realtimeEventSignal, (event) => call.realtime?.onEvent(event));
  setHandler(realtimeEventsSignal, (events) => {
    for (const event of events) call.realtime?.onEvent(event);
  });
  setHandler(realtimeOutboxQuery, () => call.realtime?.outbox() ?? { batches: [] });
  setHandler(realtimeOutputsUpdate, (ask) => call.realtime!.outputs(ask), {
    validator: (ask: RealtimeOutputsRequest) => validateRealtimeOutputs(call.realtime, ask),
  });

  // Ring (a browser room is attended from the start), talk, then continue as new or finish.
  call.attendRoom();
  if (!input.continuation) await call.ring();
  if (await call.talk()) return await continueAsNew<CallWorkflow>(await call.continuation());
  const final = await call.finish();
  if (patched(PATCHES.callFinishedOnMemo)) {
    // The deployment version that finished the call, for operators (Web UI, describe): null when unversioned.
    const v = workflowInfo().currentDeploymentVersion;
    upsertMemo({ deployment_version: v?.deploymentName ? `${v.deploymentName}:${v.buildId}` : null });
  }
  return final;
}

// Worker Versioning (src/shared/deployments.ts): A call finishes on the version it started on (bounded by its max duration): its code needs no gate.
setWorkflowOptions(versioningBehavior('PINNED'), callWorkflow);
