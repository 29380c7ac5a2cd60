/**
 * `callWorkflow`: one phone call, live (Twilio) or simulated (test mode), from `queued` to its terminal
 * status. Workflow id = call id (`call_…`), so starting it twice for one call is impossible.
 *
 * Statuses (DESIGN.md section 6): queued → ringing → in_progress → completed | transferred | busy |
 * no_answer | failed | canceled, with `end_reason` saying who or what ended it. Every transition is
 * mirrored into MongoDB by the `transitionCall` activity, which also emits `call.started` /
 * `call.transferred` / `call.ended` events carrying the call's `metadata` (spec section 6, rule 1).
 *
 * Reached from outside by (src/shared/calls.ts): update `end`, update `transfer` (validators refuse
 * with ApplicationFailure type `call_not_live`, the status in its details), updates `callerSaid` and
 * `answer` (live voice loop), signal `telephonyStatus` (Twilio status callbacks), query `state`.
 *
 * Reads top-down: handlers, ring, talk, finish.
 * - Never stuck: ringing is bounded (simulation `ring_seconds`, 60 s live), the conversation by
 *   `max_duration_seconds` from the answer, a silent live caller by a silence timeout, each turn by its
 *   deadline (a holding line, then the end), each LLM request by the activity's timeouts and retries.
 * - The end is always recorded: the finish phase runs in a non-cancellable scope, a failing hang-up is
 *   noted, not fatal; a run closed by an operator is found by the reconciler (src/workflows/calls-reconciler.ts).
 * - Bounded history: runs since `patched('local-turns')` ask the LLM and write the transcript through
 *   local activities (no server round trip per turn; their inputs are not recorded), holding the
 *   conversation in memory; older runs, and runs continuing a long call, have the LLM activity load the
 *   recorded transcript by call id. A long call continues as new when Temporal suggests it (or after
 *   `LOCAL_TURNS_PER_RUN` local turns).
 * - Exactly once: transitions that emit events stay scheduled activities (event ids fixed in the history);
 *   a worker crash in the middle of a workflow task re-runs its local activities: the LLM request may be
 *   sent again (metered once: usage rows are keyed by run and activity id), transcript rows are
 *   insert-if-absent.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import {
  callSystemPrompt,
  type AssistantContextIds,
  type ChatMessage,
  type CallTurnInput,
  type KnowledgeRef,
} from '../shared/assistant';
import { newId } from '../shared/ids';
import { searchAttributeKeys } from '../shared/search-attributes';
import {
  answerUpdate,
  CALL_NOT_LIVE,
  CALL_NOT_TRANSFERABLE,
  callerSaidUpdate,
  DEFAULT_TURN_DEADLINE_MS,
  endUpdate,
  HOLDING_LINE,
  isTransferTarget,
  stateQuery,
  TELEPHONY_REJECTED,
  TELEPHONY_STATUS_RANK,
  telephonyStatusSignal,
  transferUpdate,
  VOICE_ROOM_UNAVAILABLE,
  type CallerSaidResult,
  type CallState,
  type CallStatus,
  type CallWorkflow,
  type CallWorkflowInput,
  type DialOutcome,
  type EndReason,
  type TelephonyStatus,
  type TransferRequest,
} from '../shared/calls';
import { callFinishedSignal } from '../shared/bulk-calls';
import { type FormValues } from '../shared/forms';
import { assistantTurn, fillFormTool, searchKnowledgeTool, type ToolHandlers } from './assistant';

/** Writes to our own store: retried until they succeed (a store outage delays a call, never loses it). */
const store = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The same writes as local activities (runs started since `patched('local-turns')`): the call's record,
 * transitions without events and transcript turns take milliseconds and are idempotent, so the worker runs
 * them inside the workflow task instead of a round trip through the server each. Transitions that emit
 * events stay scheduled activities: their event ids are fixed in the history before they run.
 */
const localStore = proxyLocalActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/** Telephony (Twilio in live mode; no-ops for simulated calls); a refused request is not retried. */
const telephony = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [TELEPHONY_REJECTED] },
});

/**
 * The assistant in a browser voice room (`attendRoom`, src/activities/voice-room.ts): one activity for
 * the whole call, heartbeating every second. A worker that dies stops the heartbeats: after 10 s Temporal
 * retries it on another worker, which joins the room again. Bounded by the call: the workflow cancels it
 * when the call ends; the start-to-close timeout is a backstop past the longest call.
 */
const roomActivities = (input: CallWorkflowInput) =>
  proxyActivities<typeof activities>({
    startToCloseTimeout: `${input.max_duration_seconds + 300} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '5 seconds',
      nonRetryableErrorTypes: [VOICE_ROOM_UNAVAILABLE],
    },
  });

/** How long a live call may ring before it is `no_answer`. */
const LIVE_RING_TIMEOUT_MS = 60_000;
/** How long a live caller may stay silent before the call ends (`silence_timeout`). */
const SILENCE_TIMEOUT_MS = 30_000;
/** Live calls: how long to let Twilio speak the goodbye and hang up before hanging up through the API. */
const GRACEFUL_HANGUP_MS = 10_000;
/** A live caller, after the holding line, waits at most this many turn deadlines before the call ends. */
const LIVE_GIVE_UP_DEADLINES = 3;
/**
 * Local-turn runs: transcript turns one run holds before it continues as new. A simulated call's turns
 * run within one workflow task, where the server's continue-as-new suggestion is not refreshed; each turn
 * adds about one marker event, so this keeps a run's history near the server's default suggestion.
 */
const LOCAL_TURNS_PER_RUN = 500;

interface StopRequest {
  status: CallStatus;
  reason: EndReason;
  transferTo?: string;
  error?: string;
}

const rank = (s: TelephonyStatus['status'] | undefined) => (s === undefined ? -1 : TELEPHONY_STATUS_RANK[s]);

/**
 * Runs one call to its end (or to its next run, for a long call that continues as new).
 * @param input everything fixed at creation (src/shared/calls.ts `CallWorkflowInput`)
 * @returns the final `CallState`
 */
export async function callWorkflow(input: CallWorkflowInput): Promise<CallState> {
  // Runs started before it: every write and LLM request is a scheduled activity (their histories replay so).
  const localTurns = patched('local-turns');
  const writes = localTurns ? localStore : store;
  const resumed = input.continuation;
  let status = (resumed ? 'in_progress' : 'queued') as CallStatus;
  let stop: StopRequest | null = null;
  let finished = false;
  let providerCallSid: string | null = resumed?.providerCallSid ?? null;
  /** Transcript turns made so far (recorded or pending); the next turn's `seq`. */
  let turnCount = resumed?.turns ?? 0;
  /** Turns said but not yet recorded, and the chat messages said since the last recording. */
  let pendingTurns: CallTurnInput[] = [];
  let pendingMessages: ChatMessage[] = [];
  /**
   * Local-turn runs that began the call: the whole conversation as the model sees it, system prompt first,
   * held here and sent with each LLM request (a local activity's input is not recorded in the history), so
   * no turn reads the stored transcript back. Runs that continue a long call load it from the store.
   */
  const chatLog: ChatMessage[] | null =
    localTurns && !resumed
      ? [
          {
            role: 'system',
            content: callSystemPrompt({
              agent: input.agent,
              to: input.to,
              context: input.context,
              form: input.campaign?.form,
            }),
          },
        ]
      : null;
  /** Adds a message of the other party or a scripted line to what the next LLM request carries. */
  const hearMessage = (m: ChatMessage) => {
    pendingMessages.push(m);
    chatLog?.push(m);
  };
  /** Live mode: what the caller said (callerSaid updates), waiting for the conversation loop. */
  const callerInbox: { id: number; text: string }[] = [];
  /** Live mode: the assistant's answer to each utterance, by utterance id (`final: false` = holding line said). */
  const answers = new Map<number, { text: string | null; final: boolean }>();
  let utterances = resumed?.utterances ?? 0;
  let scriptIndex = resumed?.scriptIndex ?? 0;
  /** The highest-ranked provider status seen, and every status seen (callbacks arrive out of order). */
  let telephonyStatus: TelephonyStatus | null = null;
  const telephonySeen = new Set<TelephonyStatus['status']>(resumed?.telephonySeen ?? []);
  for (const s of telephonySeen) if (rank(s) > rank(telephonyStatus?.status)) telephonyStatus = { status: s };
  const conversation = new CancellationScope();
  /** An update refused because the call is not live; `details[0]` is the status (the API shows it). */
  const notLive = (message: string) =>
    ApplicationFailure.create({ message, type: CALL_NOT_LIVE, nonRetryable: true, details: [status] });

  const isLive = () => stop === null && (status === 'queued' || status === 'ringing' || status === 'in_progress');
  const state = (): CallState => ({
    status,
    end_reason: stop?.reason ?? null,
    transferred_to: stop?.status === 'transferred' ? (stop.transferTo ?? null) : null,
    turns: turnCount,
  });
  /** Asks the call to stop; the first request wins. Cancels whatever the conversation awaits. */
  const requestStop = (request: StopRequest) => {
    if (stop !== null) return;
    stop = request;
    conversation.cancel();
  };
  /** The answer to utterance `id` once known (or the holding line while it is late). */
  const answerOf = (id: number, final: boolean): CallerSaidResult => {
    const a = answers.get(id);
    const pending = a !== undefined && !a.final && stop === null;
    if (final || !pending) return { text: a?.text ?? null, ended: stop !== null, utterance: id };
    return { text: a.text, ended: false, pending: true, utterance: id };
  };

  /** Whom the call is with and which agent answers: the LLM activity loads records and knowledge from these. */
  const assistantContext: AssistantContextIds = {
    orgId: input.orgId,
    livemode: input.livemode,
    agentId: input.agent.id,
    contactId: input.contactId ?? null,
  };

  /**
   * The call's tools (src/workflows/assistant.ts): what `end_call` and `transfer_call` do to this call,
   * and `search_knowledge` (an activity; absent from runs recorded before it existed, which must replay).
   */
  const callTools: ToolHandlers = {
    end_call: () => {
      if (stop === null) stop = { status: 'completed', reason: 'assistant_ended' };
      return { summary: 'Call ended.', ends: true };
    },
    transfer_call: (args) => {
      if (input.room) return { summary: 'Error: a browser voice call cannot be transferred.', ends: false };
      const to = typeof args.to === 'string' && args.to ? args.to : input.agent.transfer_to;
      if (!to || !isTransferTarget(to))
        return {
          summary: 'Error: no valid transfer destination (E.164 number, sip: or client: address).',
          ends: false,
        };
      if (stop === null) stop = { status: 'transferred', reason: 'transferred', transferTo: to };
      return { summary: `Transferring to ${to}.`, ends: true };
    },
  };
  if (patched('search-knowledge-tool')) callTools.search_knowledge = searchKnowledgeTool(assistantContext);
  /** A campaign call (only) fills the campaign's form: `fill_form` keeps the checked values here. */
  const form: { values: FormValues | null } = { values: resumed?.formValues ?? null };
  if (input.campaign) callTools.fill_form = fillFormTool(input.campaign.form, form);

  // Handlers.
  setHandler(stateQuery, state);
  setHandler(
    endUpdate,
    async () => {
      requestStop(
        status === 'in_progress'
          ? { status: 'completed', reason: 'api_ended' }
          : { status: 'canceled', reason: 'api_ended' },
      );
      await condition(() => finished);
      return state();
    },
    {
      validator: () => {
        if (!isLive()) throw notLive(`The call is ${status}; only a live call can be ended.`);
      },
    },
  );
  setHandler(
    transferUpdate,
    async ({ to }) => {
      requestStop({ status: 'transferred', reason: 'transferred', transferTo: to });
      await condition(() => finished);
      return state();
    },
    {
      validator: (_request: TransferRequest) => {
        if (!isLive() || status !== 'in_progress')
          throw notLive(`The call is ${status}; only an in-progress call can be transferred.`);
        if (input.room)
          throw ApplicationFailure.create({
            message: 'A browser voice call has no phone line to transfer; end it instead.',
            type: CALL_NOT_TRANSFERABLE,
            nonRetryable: true,
          });
      },
    },
  );
  setHandler(
    callerSaidUpdate,
    async ({ text }) => {
      const id = ++utterances;
      callerInbox.push({ id, text });
      await condition(() => answers.has(id) || stop !== null);
      return answerOf(id, false);
    },
    {
      validator: (_utterance: { text: string }) => {
        if (status !== 'in_progress' || stop !== null) throw notLive('The call is not in progress.');
      },
    },
  );
  setHandler(
    answerUpdate,
    async ({ utterance }) => {
      await condition(() => answers.get(utterance)?.final === true || stop !== null);
      return answerOf(utterance, true);
    },
    {
      validator: ({ utterance }: { utterance: number }) => {
        if (!Number.isInteger(utterance) || utterance < 1 || utterance > utterances)
          throw notLive(`No utterance ${utterance} on this call.`);
      },
    },
  );
  setHandler(telephonyStatusSignal, (s) => {
    // A callback about another provider call (a stale dial) is not this call's.
    if (s.providerCallSid && providerCallSid && s.providerCallSid !== providerCallSid) return;
    telephonySeen.add(s.status);
    if (rank(s.status) < rank(telephonyStatus?.status)) return; // never backwards
    telephonyStatus = s;
    if (rank(s.status) === 3 && status === 'in_progress')
      requestStop({ status: 'completed', reason: 'caller_hung_up' });
  });

  const eventId = () => newId('evt');
  const transition = async (next: CallStatus, patch: Record<string, unknown>, events: string[]) => {
    const summary = `${status} → ${next}${events.length ? ` (${events.join(', ')})` : ''}`;
    status = next;
    await (events.length ? store : writes).transitionCall.executeWithOptions({ summary }, [
      {
        callId: input.callId,
        atMs: Date.now(),
        patch: { status: next, ...patch },
        events: events.map((type) => ({ id: eventId(), type })),
      },
    ]);
    upsertSearchAttributes([{ key: searchAttributeKeys.CallStatus, value: next }]);
  };
  const say = (role: 'assistant' | 'caller', text: string, knowledge?: KnowledgeRef[]) => {
    pendingTurns.push({ seq: turnCount++, role, text, atMs: Date.now(), ...(knowledge?.length ? { knowledge } : {}) });
  };
  /**
   * Runs that hold the whole conversation (`chatLog`) and began since `patched('turn-writes-behind')`:
   * a turn's transcript rows are written while the next turn goes on (the next LLM request does not read
   * them back), so no store write sits between the caller's line and the model. The writes are idempotent
   * per row id, never cancelled, and awaited before the run ends or continues as new.
   */
  const writeBehind = chatLog !== null && patched('turn-writes-behind');
  let turnWrites: Promise<unknown> = Promise.resolve();
  /**
   * Records the turns said since the last recording. `behind`: in write-behind runs, returns once the
   * write has started; otherwise (and always when not `behind`) returns when every write so far is done.
   */
  const flushTurns = async (behind = false) => {
    if (pendingTurns.length > 0) {
      const turns = pendingTurns;
      pendingTurns = [];
      pendingMessages = [];
      const write = CancellationScope.nonCancellable(() => writes.recordTurns({ callId: input.callId, turns }));
      turnWrites = Promise.all([turnWrites, write]);
    }
    if (!(behind && writeBehind)) await turnWrites;
  };

  /**
   * A browser voice call: the assistant attends the room from the start (it reports the visitor's arrival
   * and departure as `telephonyStatus` signals) until the finish cancels it. Its failure (no LiveKit on
   * the worker) fails the call; it ending on its own (the visitor left, another attendance took over) is
   * already told through its signals.
   */
  const roomScope = new CancellationScope();
  if (input.room) {
    const room = input.room;
    void roomScope
      .run(() =>
        roomActivities(input).attendRoom.executeWithOptions({ summary: `assistant in room ${room.name}` }, [
          { callId: input.callId, room, firstMessage: resumed ? null : input.agent.first_message },
        ]),
      )
      .catch((err) => {
        if (!isCancellation(err)) requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
      });
  }

  let continued = false;
  let answeredMs = resumed?.answeredMs ?? 0;
  if (!resumed) {
    // Ring.
    await writes.ensureCallRecord(input);
    let outcome = 'failed' as DialOutcome | 'canceled';
    let dialError: string | undefined;
    try {
      await conversation.run(async () => {
        if (input.simulation) {
          // A phone that answers at once (ring_seconds 0) goes straight to in_progress in one write.
          if (input.simulation.ring_seconds > 0 || !localTurns || input.simulation.outcome !== 'answered')
            await transition('ringing', {}, []);
          if (input.simulation.ring_seconds > 0) await sleep(input.simulation.ring_seconds * 1000);
          outcome = input.simulation.outcome;
        } else if (input.room) {
          // Rings until the visitor is in the room (the assistant's attendance signals `in-progress`).
          await transition('ringing', {}, []);
          const decided = await condition(() => rank(telephonyStatus?.status) >= 2, LIVE_RING_TIMEOUT_MS);
          outcome = !decided ? 'no_answer' : liveOutcome(telephonySeen);
        } else {
          const placed = await telephony.placeCall({ callId: input.callId, to: input.to, from: input.from });
          providerCallSid = placed.providerCallSid;
          await transition('ringing', { provider_call_sid: providerCallSid }, []);
          const decided = await condition(() => rank(telephonyStatus?.status) >= 2, LIVE_RING_TIMEOUT_MS);
          outcome = !decided ? 'no_answer' : liveOutcome(telephonySeen);
        }
      });
    } catch (err) {
      if (!isCancellation(err)) {
        outcome = 'failed';
        dialError = errorMessage(err);
      } else outcome = 'canceled';
    }
    if (outcome === 'answered' && stop === null) {
      answeredMs = Date.now();
      await transition('in_progress', { answered_ms: answeredMs }, ['call.started']);
      // Answered and already hung up (Twilio's `completed` before or without `in-progress`).
      if (rank(telephonyStatus?.status) === 3) requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } else if (stop === null) {
      const terminal: Record<string, [CallStatus, EndReason]> = {
        busy: ['busy', 'busy'],
        no_answer: ['no_answer', 'no_answer'],
        failed: ['failed', 'dial_failed'],
        canceled: ['canceled', 'api_ended'],
      };
      const [s, r] = terminal[outcome] ?? ['failed', 'dial_failed'];
      stop = { status: s, reason: r, error: dialError };
    }
  }

  // Talk, if answered.
  if (status === 'in_progress' && stop === null) {
    const maxDurationMs = resumed
      ? Math.max(1, answeredMs + input.max_duration_seconds * 1000 - Date.now())
      : input.max_duration_seconds * 1000;
    void sleep(maxDurationMs).then(() => requestStop({ status: 'completed', reason: 'max_duration' }));
    try {
      continued = (await conversation.run(() => converse())) === 'continue';
      if (stop === null && !continued) requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } catch (err) {
      if (!isCancellation(err)) requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
    }
  }
  if (continued && stop === null) {
    // A long call: the next run carries on where this one is, with a fresh history (and attends the room).
    await flushTurns();
    roomScope.cancel();
    return await continueAsNew<CallWorkflow>({
      ...input,
      continuation: {
        answeredMs,
        turns: turnCount,
        scriptIndex,
        utterances,
        providerCallSid,
        telephonySeen: [...telephonySeen],
        ...(input.campaign ? { formValues: form.values } : {}),
      },
    });
  }
  // Cancelled by an operator (a Temporal cancellation request), not by a stop of ours.
  if (stop === null)
    stop =
      status === 'in_progress'
        ? { status: 'completed', reason: 'api_ended' }
        : { status: 'canceled', reason: 'api_ended' };

  // Finish: never cancelled, so the end is always recorded.
  return await CancellationScope.nonCancellable(async () => {
    const final = stop as StopRequest;
    await flushTurns();
    const events: string[] = [];
    // Telephony is a no-op without a provider call (a simulated call): local-turn runs skip its round trip.
    const noProvider = localTurns && providerCallSid === null;
    if (final.status === 'transferred' && final.transferTo) {
      try {
        if (!noProvider)
          await telephony.transferCall({
            callId: input.callId,
            livemode: input.livemode,
            providerCallSid,
            to: final.transferTo,
          });
        events.push('call.transferred');
      } catch (err) {
        final.status = 'failed';
        final.reason = 'error';
        final.error = `Transfer to ${final.transferTo} failed: ${errorMessage(err)}`;
      }
    } else if (status === 'in_progress' || status === 'ringing') {
      // Live, assistant said goodbye: the relay ends ConversationRelay after the goodbye is spoken, and
      // Twilio hangs up and reports `completed`. Hang up ourselves only if that does not come in time.
      const hungUp = () => rank(telephonyStatus?.status) === 3;
      if (!input.simulation && final.reason === 'assistant_ended') await condition(hungUp, GRACEFUL_HANGUP_MS);
      if (input.room) {
        try {
          await telephony.closeRoom({ callId: input.callId, room: input.room.name });
        } catch (err) {
          final.error = `Closing the room failed: ${errorMessage(err)}`;
        }
      } else if (!hungUp() && !noProvider) {
        try {
          await telephony.hangUpCall({ callId: input.callId, livemode: input.livemode, providerCallSid });
        } catch (err) {
          // The provider will end the call on its own side sooner or later; the end is recorded now.
          final.error = `Hang-up failed: ${errorMessage(err)}`;
        }
      }
    }
    roomScope.cancel(); // the assistant leaves the room (if the visitor has not ended its attendance first)
    events.push('call.ended');
    await transition(
      final.status,
      {
        end_reason: final.reason,
        transferred_to: final.status === 'transferred' ? (final.transferTo ?? null) : null,
        error_message: final.error ?? null,
        ended_ms: Date.now(),
        ...(input.campaign ? { form_json: form.values ? JSON.stringify(form.values) : null } : {}),
      },
      events,
    );
    finished = true;
    if (input.campaign) await reportToCampaign(input.campaign.bulkCallId, final);
    return state();
  });

  /**
   * Tells the campaign (by workflow id, so whichever run is current gets it) how its call ended, with the
   * form's values. A campaign that no longer runs (canceled and finished) cannot be told: nothing to do;
   * a report lost any other way is recovered by the campaign asking the store (`checkBulkCalls`).
   */
  async function reportToCampaign(bulkCallId: string, final: StopRequest): Promise<void> {
    try {
      await getExternalWorkflowHandle(bulkCallId).signal(callFinishedSignal, {
        callId: input.callId,
        index: input.campaign!.contactIndex,
        attempt: input.campaign!.attempt,
        status,
        endReason: final.reason,
        form: form.values,
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
  }

  /**
   * The conversation loop; runs inside the cancellable `conversation` scope.
   * @returns `continue` when the run should continue as new (history long, no update in flight)
   */
  async function converse(): Promise<'done' | 'continue'> {
    const deadlineMs = input.turn_deadline_ms ?? DEFAULT_TURN_DEADLINE_MS;
    const firstTurn = turnCount;
    if (input.agent.first_message && !resumed) {
      say('assistant', input.agent.first_message);
      hearMessage({ role: 'assistant', content: input.agent.first_message });
      await flushTurns(true);
    }
    for (;;) {
      const longRun =
        workflowInfo().continueAsNewSuggested || (localTurns && turnCount - firstTurn >= LOCAL_TURNS_PER_RUN);
      if (longRun && callerInbox.length === 0 && pendingTurns.length === 0 && allHandlersFinished()) return 'continue';
      // Hear the caller.
      let heard: string;
      let utterance: number | undefined;
      if (input.simulation) {
        if (scriptIndex >= input.simulation.caller.length) return 'done'; // the scripted caller hangs up
        if (input.simulation.pause_seconds > 0) await sleep(input.simulation.pause_seconds * 1000);
        heard = input.simulation.caller[scriptIndex++];
      } else {
        const spoke = await condition(() => callerInbox.length > 0, SILENCE_TIMEOUT_MS);
        if (!spoke) {
          requestStop({ status: 'completed', reason: 'silence_timeout' });
          return 'done';
        }
        const next = callerInbox.shift()!;
        heard = next.text;
        utterance = next.id;
      }
      say('caller', heard);
      hearMessage({ role: 'user', content: heard });

      // Answer, possibly through tools. A late answer: a live caller hears the holding line and waits
      // up to LIVE_GIVE_UP_DEADLINES deadlines; a simulated call ends at the first.
      const said: string[] = [];
      try {
        await assistantTurn({
          conversationId: input.callId,
          model: input.agent.model,
          messages: chatLog ?? pendingMessages,
          ...(chatLog ? {} : { history: { callId: input.callId } }),
          turn: input.simulation ? scriptIndex : utterance,
          tools: callTools,
          context: assistantContext,
          local: localTurns,
          stream: localTurns && !input.simulation,
          observer: {
            onText: (text, knowledge) => {
              say('assistant', text, knowledge);
              said.push(text);
            },
            onTool: (call, effect) => {
              pendingTurns.push({
                seq: turnCount++,
                role: 'tool',
                text: effect.summary,
                atMs: Date.now(),
                toolName: call.name,
                toolArguments: call.arguments,
                toolCallId: call.id,
                ...(effect.knowledge?.length ? { knowledge: effect.knowledge } : {}),
              });
            },
          },
          deadline: input.simulation
            ? { slowMs: deadlineMs, giveUpMs: deadlineMs }
            : {
                slowMs: deadlineMs,
                giveUpMs: deadlineMs * LIVE_GIVE_UP_DEADLINES,
                onSlow: () => {
                  if (utterance !== undefined && !answers.has(utterance))
                    answers.set(utterance, { text: HOLDING_LINE, final: false });
                },
              },
        });
      } finally {
        if (utterance !== undefined) answers.set(utterance, { text: said.length ? said.join(' ') : null, final: true });
      }
      await flushTurns(true);
      if (stop !== null) return 'done';
    }
  }
}

/** What the provider statuses seen mean once ringing is over (Twilio: `completed` implies answered). */
function liveOutcome(seen: Set<TelephonyStatus['status']>): DialOutcome {
  if (seen.has('in-progress') || seen.has('answered') || seen.has('completed')) return 'answered';
  if (seen.has('busy')) return 'busy';
  if (seen.has('no-answer')) return 'no_answer';
  return 'failed';
}

function errorMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
