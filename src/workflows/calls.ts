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
 * with ApplicationFailure type `call_not_live`), update `callerSaid` (live voice loop), signal
 * `telephonyStatus` (Twilio status callbacks), query `state`.
 *
 * No call hangs: ringing is bounded (simulation `ring_seconds`, 60 s live), the conversation by
 * `max_duration_seconds` from the answer, a silent live caller by a silence timeout, each LLM turn by
 * the activity's timeouts and retries (then the call ends with `failed`/`error`).
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import type { AssistantContextIds, ChatMessage, CallTurnInput, KnowledgeRef } from '../shared/assistant';
import { newId } from '../shared/ids';
import { searchAttributeKeys } from '../shared/search-attributes';
import {
  CALL_NOT_LIVE,
  callerSaidUpdate,
  CallState,
  CallStatus,
  CallWorkflowInput,
  DialOutcome,
  EndReason,
  endUpdate,
  stateQuery,
  TELEPHONY_REJECTED,
  telephonyStatusSignal,
  TelephonyStatus,
  isTransferTarget,
  transferUpdate,
  TransferRequest,
} from '../shared/calls';
import { assistantTurn, callSystemPrompt, searchKnowledgeTool, type ToolHandlers } from './assistant';

/** Writes to our own store: retried until they succeed (a store outage delays a call, never loses it). */
const store = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/** Telephony (Twilio in live mode; no-ops for simulated calls); a refused request is not retried. */
const telephony = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [TELEPHONY_REJECTED] },
});

/** How long a live call may ring before it is `no_answer`. */
const LIVE_RING_TIMEOUT_MS = 60_000;
/** How long a live caller may stay silent before the call ends (`silence_timeout`). */
const SILENCE_TIMEOUT_MS = 30_000;
/** Live calls: how long to let Twilio speak the goodbye and hang up before hanging up through the API. */
const GRACEFUL_HANGUP_MS = 10_000;

interface StopRequest {
  status: CallStatus;
  reason: EndReason;
  transferTo?: string;
  error?: string;
}

/**
 * Runs one call to its end.
 * @param input everything fixed at creation (src/shared/calls.ts `CallWorkflowInput`)
 * @returns the final `CallState`
 */
export async function callWorkflow(input: CallWorkflowInput): Promise<CallState> {
  let status = 'queued' as CallStatus;
  let stop: StopRequest | null = null;
  let finished = false;
  let providerCallSid: string | null = null;
  const turns: CallTurnInput[] = [];
  let recordedTurns = 0;
  /** Live mode: what the caller said (callerSaid updates), waiting for the conversation loop. */
  const callerInbox: { id: number; text: string }[] = [];
  /** Live mode: the assistant's answer to each utterance, by utterance id. */
  const answers = new Map<number, string | null>();
  let utterances = 0;
  let telephonyStatus: TelephonyStatus | null = null;
  const conversation = new CancellationScope();
  /** An update refused because the call is not live; `details[0]` is the status (the API shows it). */
  const notLive = (message: string) => ApplicationFailure.create({ message, type: CALL_NOT_LIVE, nonRetryable: true, details: [status] });

  const isLive = () => stop === null && (status === 'queued' || status === 'ringing' || status === 'in_progress');
  const state = (): CallState => ({
    status,
    end_reason: stop?.reason ?? null,
    transferred_to: stop?.status === 'transferred' ? stop.transferTo ?? null : null,
    turns: turns.length,
  });
  /** Asks the call to stop; the first request wins. Cancels whatever the conversation awaits. */
  const requestStop = (request: StopRequest) => {
    if (stop !== null) return;
    stop = request;
    conversation.cancel();
  };

  /** Whom the call is with and which agent answers: the LLM activity loads records and knowledge from these. */
  const assistantContext: AssistantContextIds = { orgId: input.orgId, livemode: input.livemode, agentId: input.agent.id, contactId: input.contactId ?? null };

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
      const to = typeof args.to === 'string' && args.to ? args.to : input.agent.transfer_to;
      if (!to || !isTransferTarget(to)) return { summary: 'Error: no valid transfer destination (E.164 number, sip: or client: address).', ends: false };
      if (stop === null) stop = { status: 'transferred', reason: 'transferred', transferTo: to };
      return { summary: `Transferring to ${to}.`, ends: true };
    },
  };
  if (patched('search-knowledge-tool')) callTools.search_knowledge = searchKnowledgeTool(assistantContext);

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
        if (!isLive() || status !== 'in_progress') throw notLive(`The call is ${status}; only an in-progress call can be transferred.`);
      },
    },
  );
  setHandler(
    callerSaidUpdate,
    async ({ text }) => {
      const id = ++utterances;
      callerInbox.push({ id, text });
      await condition(() => answers.has(id) || stop !== null);
      return { text: answers.get(id) ?? null, ended: stop !== null };
    },
    {
      validator: (_utterance: { text: string }) => {
        if (status !== 'in_progress' || stop !== null) throw notLive('The call is not in progress.');
      },
    },
  );
  setHandler(telephonyStatusSignal, (s) => {
    telephonyStatus = s;
    if (s.providerCallSid) providerCallSid = s.providerCallSid;
    if ((s.status === 'completed' || s.status === 'canceled') && status === 'in_progress') {
      requestStop({ status: 'completed', reason: 'caller_hung_up' });
    }
  });

  const eventId = () => newId('evt');
  const transition = async (next: CallStatus, patch: Record<string, unknown>, events: string[]) => {
    status = next;
    await store.transitionCall({
      callId: input.callId,
      atMs: Date.now(),
      patch: { status: next, ...patch },
      events: events.map((type) => ({ id: eventId(), type })),
    });
    upsertSearchAttributes([{ key: searchAttributeKeys.CallStatus, value: next }]);
  };
  const say = (role: 'assistant' | 'caller', text: string, knowledge?: KnowledgeRef[]) => {
    turns.push({ seq: turns.length, role, text, atMs: Date.now(), ...(knowledge?.length ? { knowledge } : {}) });
  };
  const flushTurns = async () => {
    if (recordedTurns < turns.length) {
      const batch = turns.slice(recordedTurns);
      await store.recordTurns({ callId: input.callId, turns: batch });
      recordedTurns += batch.length;
    }
  };

  // 1. Ring.
  await store.ensureCallRecord(input);
  let outcome = 'failed' as DialOutcome | 'canceled';
  let dialError: string | undefined;
  try {
    await conversation.run(async () => {
      if (input.simulation) {
        await transition('ringing', {}, []);
        if (input.simulation.ring_seconds > 0) await sleep(input.simulation.ring_seconds * 1000);
        outcome = input.simulation.outcome;
      } else {
        const placed = await telephony.placeCall({ callId: input.callId, to: input.to, from: input.from });
        providerCallSid = placed.providerCallSid;
        await transition('ringing', { provider_call_sid: providerCallSid }, []);
        const answeredInTime = await condition(() => telephonyStatus !== null && telephonyStatus.status !== 'ringing', LIVE_RING_TIMEOUT_MS);
        const s = (telephonyStatus as TelephonyStatus | null)?.status;
        outcome = !answeredInTime ? 'no_answer' : s === 'in-progress' || s === 'answered' ? 'answered' : s === 'busy' ? 'busy' : s === 'no-answer' ? 'no_answer' : 'failed';
      }
    });
  } catch (err) {
    if (!isCancellation(err)) {
      outcome = 'failed';
      dialError = errorMessage(err);
    } else outcome = 'canceled';
  }

  // 2. Talk, if answered.
  if (outcome === 'answered' && stop === null) {
    await transition('in_progress', { answered_ms: Date.now() }, ['call.started']);
    const maxDuration = sleep(input.max_duration_seconds * 1000).then(() => requestStop({ status: 'completed', reason: 'max_duration' }));
    void maxDuration;
    try {
      await conversation.run(() => converse());
      if (stop === null) requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } catch (err) {
      if (!isCancellation(err)) requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
    }
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

  // 3. Finish: never cancelled, so the end is always recorded.
  const final = stop as StopRequest | null ?? { status: 'failed', reason: 'error' };
  await flushTurns();
  const events: string[] = [];
  if (final.status === 'transferred' && final.transferTo) {
    try {
      await telephony.transferCall({ callId: input.callId, livemode: input.livemode, providerCallSid, to: final.transferTo });
      events.push('call.transferred');
    } catch (err) {
      final.status = 'failed';
      final.reason = 'error';
      final.error = `Transfer to ${final.transferTo} failed: ${errorMessage(err)}`;
    }
  } else if (status === 'in_progress' || status === 'ringing') {
    // Live, assistant said goodbye: the relay ends ConversationRelay after the goodbye is spoken, and
    // Twilio hangs up and reports `completed`. Hang up ourselves only if that does not come in time.
    const hungUp = () => (telephonyStatus as TelephonyStatus | null)?.status === 'completed';
    if (!input.simulation && final.reason === 'assistant_ended') await condition(hungUp, GRACEFUL_HANGUP_MS);
    if (!hungUp()) await telephony.hangUpCall({ callId: input.callId, livemode: input.livemode, providerCallSid });
  }
  events.push('call.ended');
  await transition(
    final.status,
    {
      end_reason: final.reason,
      transferred_to: final.status === 'transferred' ? final.transferTo ?? null : null,
      error_message: final.error ?? null,
      ended_ms: Date.now(),
    },
    events,
  );
  finished = true;
  return state();

  /** The conversation loop; runs inside the cancellable `conversation` scope. */
  async function converse(): Promise<void> {
    const messages: ChatMessage[] = [{ role: 'system', content: callSystemPrompt(input) }];
    if (input.agent.first_message) {
      say('assistant', input.agent.first_message);
      messages.push({ role: 'assistant', content: input.agent.first_message });
      await flushTurns();
    }
    let scriptIndex = 0;
    for (;;) {
      // Hear the caller.
      let heard: string;
      let utterance: number | undefined;
      if (input.simulation) {
        if (scriptIndex >= input.simulation.caller.length) return; // the scripted caller hangs up
        if (input.simulation.pause_seconds > 0) await sleep(input.simulation.pause_seconds * 1000);
        heard = input.simulation.caller[scriptIndex++];
      } else {
        const spoke = await condition(() => callerInbox.length > 0, SILENCE_TIMEOUT_MS);
        if (!spoke) {
          requestStop({ status: 'completed', reason: 'silence_timeout' });
          return;
        }
        const next = callerInbox.shift()!;
        heard = next.text;
        utterance = next.id;
      }
      say('caller', heard);
      messages.push({ role: 'user', content: heard });

      // Answer, possibly through tools.
      const said: string[] = [];
      try {
        await assistantTurn({
          conversationId: input.callId,
          model: input.agent.model,
          messages,
          tools: callTools,
          context: assistantContext,
          observer: {
            onText: (text, knowledge) => {
              say('assistant', text, knowledge);
              said.push(text);
            },
            onTool: (call, effect) => {
              turns.push({
                seq: turns.length,
                role: 'tool',
                text: effect.summary,
                atMs: Date.now(),
                toolName: call.name,
                toolArguments: call.arguments,
                ...(effect.knowledge?.length ? { knowledge: effect.knowledge } : {}),
              });
            },
          },
        });
      } finally {
        if (utterance !== undefined) answers.set(utterance, said.length ? said.join(' ') : null);
      }
      await flushTurns();
      if (stop !== null) return;
    }
  }
}

function errorMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause) e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
