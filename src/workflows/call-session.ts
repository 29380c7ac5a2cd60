/**
 * `CallSession`: the state of one run of `callWorkflow` (src/workflows/calls.ts) and everything it does,
 * as methods: the handlers' bodies (updates `end`, `transfer`, `callerSaid`, `answer`, `say`, `context`,
 * signals `telephonyStatus` and `machineDetection`, query `state`) and the phases the workflow function calls in turn (`attendRoom`,
 * `ring`, `talk`, then `continuation` or `finish`). The shape of the Temporal samples'
 * `safe-message-handlers` (one-line handlers over a `ClusterManager` class). Issue 31 adds the signal
 * `interrupted` (`onInterrupted`, applied by `applyInterruption`) and the `send_dtmf` tool's `pressKeys`.
 *
 * How a call is never stuck, always recorded, bounded in history and exactly once: see calls.ts.
 *
 * Answering machines (issue 29), when the call's voicemail setting (its own, else its agent's) has
 * `detection`: a live outbound call is placed with Twilio's asynchronous AMD, whose result comes as the
 * `machineDetection` signal; a simulated call with outcome `voicemail` is a machine that says its greeting
 * (the script's lines) and beeps once it is over, one with another outcome a person (`human` at the first
 * line). The detection window: until detection decides, the caller's lines are heard and recorded but
 * not answered (no LLM request), for at most `MACHINE_DETECTION_TIMEOUT_SECONDS` from the answer (Twilio
 * says `unknown` by then); past it the assistant answers and a late `machine` still stops it. A machine
 * stops the call at once (`completed`, `voicemail`, the LLM request in flight cancelled): `hang_up` hangs
 * up; `leave_message` records the message as the assistant's turn and has Twilio say it after the beep,
 * then hang up.
 *
 * Warm transfer (issue 31): the `transfer` update with `mode: "warm"` or `transfer_call` of an agent whose
 * `transfer_mode` is `warm` runs `runWarmTransfer` beside the conversation (which waits meanwhile: the
 * caller is on hold, never silent): hold, summary, the person dialed and briefed, then `transferred`, or
 * the caller back with the assistant (`call.transfer_failed`). See the methods under "Warm transfer".
 *
 * The live stream (issue 31): every transition and every transcript turn takes the next number of the
 * call's stream (`nextStreamEntry`), written with it by its activity (src/models/calls.ts
 * `CallStreamEntry`), so `GET /v1/calls/{id}/stream` reads the call in order from the store. Steering: a
 * `say` line waits for the pause before the caller's next line is taken (`speakApiLines`), or is said at
 * once with `interrupt`; a `context` note joins the model's conversation as a system message. Both are
 * turns by `author: "api"`.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type * as callActivities from '../activities/calls';
import type * as llmActivities from '../activities/llm';
import type * as slotActivities from '../activities/call-slots';
import type * as telephonyActivities from '../activities/telephony';
import type * as voiceRoomActivities from '../activities/voice-room';
import type * as simulatorActivities from '../activities/simulator';
import {
  callSystemPrompt,
  LLM_REQUEST_REJECTED,
  type AssistantContextIds,
  type ChatMessage,
  type CallTurnInput,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import { callFinishedSignal } from '../shared/bulk-calls';
import { noteMessage, SAY_MAX_CHARS, NOTE_MAX_CHARS, STAMP_NOW } from '../shared/calls';
import { DEFAULT_QUEUE_TIMEOUT_SECONDS, SLOT_ASK_AGAIN_MS } from '../shared/call-slots';
import {
  CALL_NOT_LIVE,
  CALL_NOT_SCHEDULED,
  CALL_NOT_TRANSFERABLE,
  DEFAULT_TURN_DEADLINE_MS,
  HOLDING_LINE,
  TELEPHONY_REJECTED,
  TELEPHONY_STATUS_RANK,
  VOICE_ROOM_UNAVAILABLE,
  type AdvanceClockRequest,
  type CallerSaidResult,
  type CallState,
  type CallStatus,
  type CallWorkflowInput,
  type ContextNote,
  type DialOutcome,
  type SayRequest,
  type SayResult,
  type EndReason,
  type TelephonyStatus,
  type TransferFailureReason,
  type TransferLegEvent,
  type TransferProgress,
  type TransferRequest,
  DEFAULT_TRANSFER_TIMEOUT_SECONDS,
  TRANSFER_FAILED_LINES,
  TRANSFER_IN_PROGRESS,
  answeredByOf,
  effectiveVoicemail,
  MACHINE_DETECTION_TIMEOUT_SECONDS,
  type AnsweredBy,
  type MachineDetection,
  type VoicemailSetting,
} from '../shared/calls';
import { newId } from '../shared/ids';
import { RECORDING_WORKFLOW, recordingWorkflowId, type RecordingWorkflow } from '../shared/recordings';
import { searchAttributeKeys } from '../shared/search-attributes';
import { assistantTurn } from './assistant';
import {
  channelTools,
  resolveCustomTools,
  toolCallKeys,
  type CallToolTarget,
  type CampaignCallToolTarget,
  type CustomToolSet,
  type ToolEffect,
  type ToolHandlers,
} from './tools';
import { offeredTools, type CustomTool, type ToolCallRecord } from '../shared/tools';
import { cutByInterruption, MAX_INTERRUPTION_CHARS, type Interruption } from '../shared/speech';

/** Transitions that emit events: scheduled activities, retried until they succeed (a store outage delays a call, never loses it). */
const store = proxyActivities<typeof callActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * Asking for the call's slot (src/shared/call-slots.ts): a scheduled activity, since the semaphore answers
 * from its own workflow task (a local activity would hold this run's task while it waits: with every task
 * slot of a worker so held, the semaphore's task could not run). Retried until it succeeds.
 */
const slots = proxyActivities<typeof slotActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});
/** Freeing it: a signal, no wait; a local activity in the finishing task. */
const slotRelease = proxyLocalActivities<typeof slotActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * The other writes as local activities: the call's record, transitions without events and transcript
 * turns take milliseconds and are idempotent, so the worker runs them inside the workflow task instead of
 * a round trip through the server each. Transitions that emit events stay scheduled activities: their
 * event ids are fixed in the history before they run.
 */
const localStore = proxyLocalActivities<typeof callActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The persona caller's turn (issue 37 item 3): a local activity like the assistant's turn (no server round
 * trip per turn), the same timeouts and retries; a request the provider refused is not retried.
 */
const simulator = proxyLocalActivities<typeof simulatorActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [LLM_REQUEST_REJECTED] },
});

/** Telephony (Twilio in live mode; no-ops for simulated calls); a refused request is not retried. */
const telephony = proxyActivities<typeof telephonyActivities>({
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
  proxyActivities<typeof voiceRoomActivities>({
    startToCloseTimeout: `${input.max_duration_seconds + 300} seconds`,
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '5 seconds',
      nonRetryableErrorTypes: [VOICE_ROOM_UNAVAILABLE],
    },
  });

/**
 * Warm transfers (issue 31): the person's leg is dialed once (a retry could ring them twice), and the
 * summary they hear is written by one LLM request, tried twice.
 */
const transferDial = proxyActivities<typeof telephonyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
});
const summaryLlm = proxyActivities<typeof llmActivities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});
/** What the person hears when no summary could be written. */
const FALLBACK_TRANSFER_SUMMARY = 'A caller is being transferred to you by the assistant.';
/** What the model is asked for the person a warm transfer dials. */
const SUMMARY_REQUEST =
  'The caller is being transferred to a person. Write what that person hears before joining: a summary of ' +
  'this call in at most two short sentences (who is calling and what they need). Answer with the summary only.';

/** How long a live call may ring before it is `no_answer`. */
const LIVE_RING_TIMEOUT_MS = 60_000;
/** How long a live caller may stay silent before the call ends (`silence_timeout`). */
const SILENCE_TIMEOUT_MS = 30_000;
/** Live calls: how long to let Twilio speak the goodbye and hang up before hanging up through the API. */
const GRACEFUL_HANGUP_MS = 10_000;
/**
 * Live calls: how long Twilio may take to say a voicemail message and hang up (ms per character, plus
 * `GRACEFUL_HANGUP_MS`) before the call is hung up through the API: 10 characters a second is slower
 * than any text-to-speech voice.
 */
const VOICEMAIL_MS_PER_CHAR = 100;
/**
 * A caller, live or simulated (issue 33), after the holding line, waits at most this many turn deadlines
 * before the call ends.
 */
const GIVE_UP_DEADLINES = 3;
/**
 * Transcript turns one run holds before it continues as new. A simulated call's turns run within one
 * workflow task, where the server's continue-as-new suggestion is not refreshed; each turn adds about one
 * marker event, so this keeps a run's history near the server's default suggestion.
 */
const LOCAL_TURNS_PER_RUN = 500;

/** How a dial that did not end in an answer ends the call: its status and `end_reason`. */
const UNANSWERED: Record<string, [CallStatus, EndReason]> = {
  busy: ['busy', 'busy'],
  no_answer: ['no_answer', 'no_answer'],
  failed: ['failed', 'dial_failed'],
  canceled: ['canceled', 'api_ended'],
};

/** Why and how the call stops: the final status, its `end_reason`, a transfer's destination, an error. */
interface StopRequest {
  status: CallStatus;
  reason: EndReason;
  transferTo?: string;
  error?: string;
  /** A machine answered and the message is left (`voicemail.action` `leave_message`): what is said. */
  voicemailMessage?: string;
  /** A warm transfer joined the caller with the person (issue 31): nothing left to hand over. */
  warm?: TransferProgress;
}

/** A warm transfer under way (issue 31): its progress as the call shows it, and its leg's callbacks so far. */
interface WarmTransfer {
  progress: TransferProgress;
  timeoutSeconds: number;
  /** The summary the API gave; absent: the model writes one. */
  summary?: string;
  /** The person's leg (Call SID) once dialed. */
  legSid: string | null;
  /** Callbacks about legs received while it runs (those of another SID are never counted). */
  events: TransferLegEvent[];
}

/** How a warm transfer ended: joined, failed (why), or cut short because the call stopped. */
type WarmOutcome = 'joined' | TransferFailureReason | 'stopped';

/** One call's state and behaviour; constructed once per run, inside the workflow function. */
export class CallSession {
  /** The call's status as last written by `transitionCall`. */
  private status: CallStatus;
  /** Why the call stops, once decided; the first request wins. */
  private stop: StopRequest | null = null;
  /** The end is recorded (the `end` and `transfer` updates return then). */
  private finished = false;
  private providerCallSid: string | null;
  /** Transcript turns made so far (recorded or pending); the next turn's `seq`. */
  private turnCount: number;
  /** Turns said but not yet recorded, and the chat messages said since the last recording. */
  private pendingTurns: CallTurnInput[] = [];
  private pendingMessages: ChatMessage[] = [];
  /**
   * A run that began the call: the whole conversation as the model sees it, system prompt first, held here
   * and sent with each LLM request (a local activity's input is not recorded in the history), so no turn
   * reads the stored transcript back. A run that continues a long call (null here) has the LLM activity
   * load it from the store.
   */
  private readonly chatLog: ChatMessage[] | null;
  /** Live mode: what the caller said (callerSaid updates), waiting for the conversation loop. */
  private readonly callerInbox: { id: number; text: string }[] = [];
  /** Live mode: the assistant's answer to each utterance, by utterance id (`final: false` = holding line said). */
  private readonly answers = new Map<number, { text: string | null; final: boolean }>();
  private utterances: number;
  private scriptIndex: number;
  /** The highest-ranked provider status seen, and every status seen (callbacks arrive out of order). */
  private telephonyStatus: TelephonyStatus | null = null;
  private readonly telephonySeen: Set<TelephonyStatus['status']>;
  /** What ringing and talking await: cancelled by a stop request. */
  private readonly conversation = new CancellationScope();
  /** The assistant's attendance of a browser voice room: cancelled when the run ends. */
  private readonly roomScope = new CancellationScope();
  /** When the call was answered (epoch ms); 0 before. */
  private answeredMs: number;
  /** Transcript writes so far (written behind the next turn, awaited before the run ends). */
  private turnWrites: Promise<unknown> = Promise.resolve();
  /** Whom the call is with and which agent answers: the LLM activity loads records and knowledge from these. */
  private readonly context: AssistantContextIds;
  /** A campaign's call: the campaign's form and the values `fill_form` kept; null for other calls. */
  private readonly form: CampaignCallToolTarget['form'] | null;
  /** The call's tools (src/workflows/tools.ts): a phone call's, or a campaign call's with `fill_form`. */
  private readonly tools: ToolHandlers;
  /** The organization's tools the agent offers (issue 27), resolved once the conversation starts. */
  private customTools: Promise<CustomTool[]> | null = null;
  /** The keys of this run's tool calls (`tc_…`). */
  private readonly toolCallKey = toolCallKeys();
  /** An outbound call waiting in line: its slot is granted (`slotGranted` signal). */
  private slotGranted = false;
  /** A scheduled test-mode call: how far `advanceClock` moved its clock ahead of workflow time (ms). */
  private clockOffsetMs = 0;
  /** When the call was queued (workflow time, ms): its wait for a slot counts from then. */
  private queuedMs: number;
  /** The voicemail setting the call follows (its own, else its agent's); null: none. */
  private readonly voicemail: VoicemailSetting | null;
  /** Who answered, once answering-machine detection decided; null before, and without detection. */
  private answeredBy: AnsweredBy | null;
  /** The warm transfer under way (issue 31); null when none. */
  private warm: WarmTransfer | null = null;
  /** Warm transfers started so far on the call (each one's `attempt`). */
  private transfers: number;
  /** The run of the latest warm transfer; settles soon after the call stops. */
  private warmRun: Promise<void> = Promise.resolve();
  /** The caller's last interruption (issue 31: `interrupted` signal) not applied yet; null: none. */
  private interruption: Interruption | null = null;
  /** The assistant's turns said since the caller last spoke (what an interruption cuts), in order. */
  private spokenSince: { seq: number; text: string }[] = [];
  /**
   * Entries of the call's live stream numbered so far (each transition and each turn takes the next
   * number, src/models/calls.ts `CallStreamEntry`); null in a run continued from one before the stream.
   */
  private streamEntries: number | null;
  /** Lines the API asked the assistant to say (`say` update) waiting for the next pause, oldest first. */
  private readonly apiLines: { text: string; speaking: boolean; result: SayResult | null }[] = [];

  /** @param input everything fixed at creation, and for a continued run where the last one stopped */
  constructor(private readonly input: CallWorkflowInput) {
    const resumed = input.continuation;
    this.status = resumed ? 'in_progress' : input.scheduled_at !== undefined ? 'scheduled' : 'queued';
    this.queuedMs = input.created * 1000;
    this.providerCallSid = resumed?.providerCallSid ?? null;
    this.turnCount = resumed?.turns ?? 0;
    this.utterances = resumed?.utterances ?? 0;
    this.scriptIndex = resumed?.scriptIndex ?? 0;
    this.answeredMs = resumed?.answeredMs ?? 0;
    this.telephonySeen = new Set(resumed?.telephonySeen ?? []);
    for (const s of this.telephonySeen)
      if (rank(s) > rank(this.telephonyStatus?.status)) this.telephonyStatus = { status: s };
    this.chatLog = resumed
      ? null
      : [
          {
            role: 'system',
            content: callSystemPrompt({
              agent: input.agent,
              ...(input.direction === 'inbound'
                ? { to: input.from ?? 'an unknown caller', inbound: true }
                : { to: input.to }),
              context: input.context,
              form: input.campaign?.form,
            }),
          },
        ];
    this.context = {
      orgId: input.orgId,
      livemode: input.livemode,
      agentId: input.agent.id,
      contactId: input.contactId ?? null,
    };
    this.form = input.campaign ? { definition: input.campaign.form, values: resumed?.formValues ?? null } : null;
    this.tools = this.callTools();
    this.voicemail = effectiveVoicemail(input);
    this.answeredBy = resumed?.answeredBy ?? null;
    this.transfers = resumed?.transfers ?? 0;
    this.streamEntries = resumed ? (resumed.streamEntries ?? null) : 0;
  }

  /**
   * What `end_call`, `transfer_call`, `search_knowledge` (and `fill_form` on a campaign's call, and
   * `schedule_callback` when the agent enables it) reach of this call. A callback goes to the person (an
   * outbound call's `to`, an inbound call's `from`) from the service number (`from`, or an inbound call's `to`).
   */
  private callTools(): ToolHandlers {
    const { input } = this;
    const inbound = input.direction === 'inbound';
    const call: CallToolTarget = {
      context: this.context,
      room: Boolean(input.room),
      defaultTransferTo: input.agent.transfer_to,
      transferMode: input.agent.transfer_mode ?? 'cold',
      stop: (request) => {
        this.stop ??= request;
      },
      warmTransfer: (to) => {
        if (this.warm !== null || this.stop !== null) return 'a transfer is already under way';
        this.startWarmTransfer({ to, mode: 'warm' });
        return null;
      },
      callback: {
        orgId: input.orgId,
        livemode: input.livemode,
        agentId: input.agent.id,
        callbackOf: input.callId,
        to: inbound ? input.from : input.to,
        from: inbound ? input.to : input.from,
        contactId: this.context.contactId,
      },
      sendDigits: (digits) => this.pressKeys(digits),
    };
    const enabled = this.enabledTools();
    return this.form
      ? channelTools('campaign_call', { ...call, form: this.form }, enabled)
      : channelTools('phone_call', call, enabled);
  }

  /**
   * The optional built-in tools this call offers: the agent's `enabled_tools`, none in a browser voice
   * room (a visitor has no number to call back).
   */
  private enabledTools(): readonly string[] | undefined {
    return this.input.room ? undefined : this.input.agent.enabled_tools;
  }

  // Handlers (src/shared/calls.ts names them).

  /** Query `state`: status, end reason, transfer destination, turns. */
  state(): CallState {
    return {
      status: this.status,
      end_reason: this.stop?.reason ?? null,
      transferred_to: this.stop?.status === 'transferred' ? (this.stop.transferTo ?? null) : null,
      turns: this.turnCount,
    };
  }

  /** Validator of update `end`: only a live call can be ended (`CALL_NOT_LIVE` otherwise). */
  validateEnd(): void {
    if (!this.isLive()) throw this.notLive(`The call is ${this.status}; only a live call can be ended.`);
  }

  /** Update `end`: an answered call completes, one not yet answered is canceled; returns once the end is recorded. */
  async end(): Promise<CallState> {
    this.requestStop(
      this.status === 'in_progress'
        ? { status: 'completed', reason: 'api_ended' }
        : { status: 'canceled', reason: 'api_ended' },
    );
    await condition(() => this.finished);
    return this.state();
  }

  /** Validator of update `advanceClock`: a scheduled test-mode call only (`CALL_NOT_SCHEDULED`). */
  validateAdvanceClock({ to }: AdvanceClockRequest): void {
    if (this.input.livemode || this.status !== 'scheduled' || this.stop !== null)
      throw ApplicationFailure.create({
        message: `The call is ${this.stop ? 'ending' : this.status}; only a scheduled test-mode call's clock can be advanced.`,
        type: CALL_NOT_SCHEDULED,
        nonRetryable: true,
      });
    if (!Number.isFinite(to))
      throw ApplicationFailure.create({ message: 'to must be unix seconds', nonRetryable: true });
  }

  /**
   * Update `advanceClock` (test mode): moves the call's clock to `to` (never back); once that reaches
   * `scheduled_at` the call is dialed, and this returns when it has left `scheduled`.
   */
  async advanceClock({ to }: AdvanceClockRequest): Promise<CallState> {
    this.clockOffsetMs = Math.max(this.clockOffsetMs, to * 1000 - Date.now());
    if (to >= (this.input.scheduled_at ?? 0)) await condition(() => this.status !== 'scheduled' || this.stop !== null);
    return this.state();
  }

  /**
   * Validator of update `transfer`: an in-progress phone call only (`CALL_NOT_LIVE`, `CALL_NOT_TRANSFERABLE`),
   * and none while a warm transfer runs (`TRANSFER_IN_PROGRESS`).
   */
  validateTransfer(_request: TransferRequest): void {
    if (!this.isLive() || this.status !== 'in_progress')
      throw this.notLive(`The call is ${this.status}; only an in-progress call can be transferred.`);
    if (this.input.room)
      throw ApplicationFailure.create({
        message: 'A browser voice call has no phone line to transfer; end it instead.',
        type: CALL_NOT_TRANSFERABLE,
        nonRetryable: true,
      });
    if (this.warm !== null)
      throw ApplicationFailure.create({
        message: `A warm transfer to ${this.warm.progress.to} is under way; wait for its outcome.`,
        type: TRANSFER_IN_PROGRESS,
        nonRetryable: true,
      });
  }

  /**
   * Update `transfer`: a cold transfer hands the call to `to` and returns once the end is recorded; a warm
   * one (issue 31, `startWarmTransfer`) returns once its outcome is known: the end recorded when the
   * person joined, else the call back with the assistant.
   */
  async transfer(request: TransferRequest): Promise<CallState> {
    if (request.mode === 'warm') {
      this.startWarmTransfer(request);
      await condition(() => this.warm === null);
      if (this.stop !== null) await condition(() => this.finished);
      return this.state();
    }
    this.requestStop({ status: 'transferred', reason: 'transferred', transferTo: request.to });
    await condition(() => this.finished);
    return this.state();
  }

  /** Validator of update `callerSaid`: the call must be in progress. */
  validateCallerSaid(_utterance: { text: string }): void {
    if (this.status !== 'in_progress' || this.stop !== null) throw this.notLive('The call is not in progress.');
  }

  /** Update `callerSaid` (live voice loop): queues the caller's line; returns its answer, or the holding line while late. */
  async callerSaid({ text }: { text: string }): Promise<CallerSaidResult> {
    const id = ++this.utterances;
    this.callerInbox.push({ id, text });
    await condition(() => this.answers.has(id) || this.stop !== null);
    return this.answerOf(id, false);
  }

  /** Validator of update `answer`: `utterance` must be one this call was told. */
  validateAnswer({ utterance }: { utterance: number }): void {
    if (!Number.isInteger(utterance) || utterance < 1 || utterance > this.utterances)
      throw this.notLive(`No utterance ${utterance} on this call.`);
  }

  /** Update `answer`: the final answer to `utterance` (after a holding line). */
  async answer({ utterance }: { utterance: number }): Promise<CallerSaidResult> {
    await condition(() => this.answers.get(utterance)?.final === true || this.stop !== null);
    return this.answerOf(utterance, true);
  }

  /**
   * Validator of updates `say` and `context` (issue 31): an in-progress call (`CALL_NOT_LIVE` otherwise),
   * and text of 1 to `max` characters once trimmed (the API checks it first: 400).
   */
  validateSteering(text: unknown, max: number): void {
    if (this.status !== 'in_progress' || this.stop !== null)
      throw this.notLive(`The call is ${this.status}; only an in-progress call can be steered.`);
    if (typeof text !== 'string' || !text.trim() || text.length > max)
      throw ApplicationFailure.create({ message: `The text must have 1 to ${max} characters.`, nonRetryable: true });
  }

  /** Validator of update `say`. */
  validateSay({ text }: SayRequest): void {
    this.validateSteering(text, SAY_MAX_CHARS);
  }

  /**
   * Update `say`: the assistant says `text` on the API's behalf, at once with `interrupt`, else at the
   * next pause (`speakApiLines`, before the caller's next line is taken); resolves once it is said, or
   * unsaid when the call stops first.
   */
  async sayLine({ text, interrupt }: SayRequest): Promise<SayResult> {
    if (interrupt) return await this.speakApiLine(text.trim(), true, this.chatLog !== null);
    const line = { text: text.trim(), speaking: false, result: null as SayResult | null };
    this.apiLines.push(line);
    // Unsaid when the call stops first (or stops it while it is being said and the run ends).
    await condition(() => line.result !== null || (this.stop !== null && !line.speaking) || this.finished);
    return line.result ?? { spoken: false, seq: null };
  }

  /** Validator of update `context`. */
  validateContext({ note }: ContextNote): void {
    this.validateSteering(note, NOTE_MAX_CHARS);
  }

  /**
   * Update `context`: a note the model sees from its next request on (a system message where it came),
   * recorded as a `note` turn (`author: "api"`) so a continued run's conversation has it too.
   */
  addNote({ note }: ContextNote): { seq: number } {
    const text = note.trim();
    const seq = this.say('note', text, undefined, 'api');
    this.hearMessage({ role: 'system', content: noteMessage(text) });
    // Shown at once when no store read depends on the pending turns (see speakApiLine).
    if (this.chatLog !== null) void this.flushTurns(true);
    return { seq };
  }

  /** Signal `telephonyStatus`: a provider status callback; never moves backwards; a hang-up stops a live call. */
  onTelephonyStatus(s: TelephonyStatus): void {
    // A callback about another provider call (a stale dial) is not this call's.
    if (s.providerCallSid && this.providerCallSid && s.providerCallSid !== this.providerCallSid) return;
    this.telephonySeen.add(s.status);
    if (rank(s.status) < rank(this.telephonyStatus?.status)) return; // never backwards
    this.telephonyStatus = s;
    if (rank(s.status) === 3 && this.status === 'in_progress')
      this.requestStop({ status: 'completed', reason: 'caller_hung_up' });
  }

  /**
   * Signal `machineDetection` (issue 29): Twilio's AMD result, or the simulated machine's beep. Counts only
   * on a call that detects (`detects`), for its own provider call (a live result naming another CallSid
   * is ignored), the first decision, before the call stops. A machine on an answered call stops it
   * (`machineAnswered`); one reported while still ringing answers the call, then stops it (`talk`).
   */
  onMachineDetection(result: MachineDetection): void {
    if (!this.detects() || this.answeredBy !== null || this.stop !== null) return;
    if (!this.input.simulation && (!result.providerCallSid || result.providerCallSid !== this.providerCallSid)) return;
    this.answeredBy = answeredByOf(result.answeredBy);
    if (this.answeredBy === 'machine' && this.status === 'in_progress') this.machineAnswered();
  }

  /**
   * Signal `transferLeg` (issue 31): a Twilio callback about a warm transfer's leg, kept while one runs
   * (it counts only for the leg's own CallSid; see `warmLive`); ignored otherwise.
   */
  onTransferLeg(event: TransferLegEvent): void {
    if (this.warm !== null && typeof event.providerCallSid === 'string') this.warm.events.push(event);
  }

  /**
   * Signal `interrupted` (issue 31): the caller talked over the assistant; kept until the conversation
   * applies it (`applyInterruption`, before the next caller turn or at the end).
   */
  onInterrupted({ spoken, durationMs }: Interruption): void {
    this.interruption = {
      spoken: String(spoken ?? '').slice(0, MAX_INTERRUPTION_CHARS),
      ...(Number.isFinite(durationMs) ? { durationMs } : {}),
    };
  }

  /** Signal `slotGranted`: the organization's call slots granted this call one (src/workflows/call-slots.ts). */
  onSlotGranted(): void {
    this.slotGranted = true;
  }

  // Phases, in the order the workflow runs them.

  /**
   * A browser voice call: the assistant attends the room from the start (it reports the visitor's arrival
   * and departure as `telephonyStatus` signals) until the run ends. Its failure (no LiveKit on the
   * worker) fails the call; it ending on its own (the visitor left, another attendance took over) is
   * already told through its signals. Does nothing for a phone call.
   */
  attendRoom(): void {
    const room = this.input.room;
    if (!room) return;
    void this.roomScope
      .run(() =>
        roomActivities(this.input).attendRoom.executeWithOptions({ summary: `assistant in room ${room.name}` }, [
          {
            callId: this.input.callId,
            room,
            firstMessage: this.input.continuation ? null : spokenGreeting(this.input),
          },
        ]),
      )
      .catch((err) => {
        if (!isCancellation(err)) this.requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
      });
  }

  /**
   * Creates the call's record and rings: answered → `in_progress` (`call.started`); otherwise the stop
   * the dial's outcome means (busy, no answer, dial failed, canceled while ringing).
   */
  async ring(): Promise<void> {
    await localStore.ensureCallRecord(this.input);
    const refusal = this.input.inbound?.refusal;
    if (refusal) {
      // Refused before any conversation (src/services/inbound-calls.ts): only the end is recorded.
      this.stop = { status: refusal.status, reason: refusal.reason, transferTo: refusal.transferTo };
      return;
    }
    if (!(await this.waitForScheduledTime())) return;
    if (!(await this.waitForSlot())) return;
    const { outcome, error } = this.input.inbound ? { outcome: 'answered' as const } : await this.dial();
    if (outcome === 'answered' && this.stop === null) {
      this.answeredMs = Date.now();
      if (this.input.inbound) this.providerCallSid = this.input.inbound.providerCallSid;
      await this.transition('in_progress', { answered_ms: this.answeredMs, ...this.dialed() }, ['call.started']);
      // Answered and already hung up (Twilio's `completed` before or without `in-progress`).
      if (rank(this.telephonyStatus?.status) === 3) this.requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } else if (this.stop === null) {
      const [status, reason] = UNANSWERED[outcome] ?? ['failed', 'dial_failed'];
      this.stop = { status, reason, error };
    }
  }

  /**
   * A scheduled call (issue 29: `scheduled_at`) emits `call.scheduled` and waits, `scheduled`, on a durable
   * timer (a Temporal timer: it survives every restart, and fires once) until its time, then is `queued`.
   * In test mode `advanceClock` moves the time forward. Ended through the API before then: `canceled`.
   * @returns true when the call goes on to dial
   */
  private async waitForScheduledTime(): Promise<boolean> {
    const at = this.input.scheduled_at;
    if (at === undefined) return true;
    await this.transition('scheduled', { scheduled_at: at }, ['call.scheduled']);
    for (;;) {
      const leftMs = at * 1000 - (Date.now() + this.clockOffsetMs);
      if (leftMs <= 0 || this.stop !== null) break;
      const clock = this.clockOffsetMs;
      await condition(() => this.stop !== null || this.clockOffsetMs !== clock, leftMs);
    }
    if (this.stop !== null) return false;
    this.queuedMs = Date.now();
    await this.transition('queued', {}, []);
    return true;
  }

  /**
   * An outbound call (`slot: 'queue'`: it asks first; `waiting`: the API put it in line, and the call asks
   * itself after `SLOT_ASK_AGAIN_MS` without a grant, in case the API's signal, sent after its start, was
   * lost) waits in its organization's line for a slot, `queued` meanwhile, at most `queue_timeout_seconds`
   * from its creation, or from its scheduled time (then `failed`, `queue_timeout`). A call ended through the
   * API while waiting is `canceled`. Other calls go on at once.
   * @returns true when the call may dial
   */
  private async waitForSlot(): Promise<boolean> {
    const { input } = this;
    if (input.slot !== 'queue' && input.slot !== 'waiting') return true;
    const timeoutS = input.queue_timeout_seconds ?? DEFAULT_QUEUE_TIMEOUT_SECONDS;
    const deadlineMs = this.queuedMs + timeoutS * 1000;
    const answered = () => this.slotGranted || this.stop !== null;
    if (input.slot === 'queue' && (await this.askForSlot('ask for a call slot'))) return true;
    if (input.slot === 'waiting') {
      await condition(answered, Math.max(1, Math.min(deadlineMs - Date.now(), SLOT_ASK_AGAIN_MS)));
      if (!answered() && Date.now() < deadlineMs && (await this.askForSlot('ask for a call slot again')))
        this.slotGranted = true;
    }
    await condition(answered, Math.max(1, deadlineMs - Date.now()));
    if (this.stop !== null) return false;
    if (!this.slotGranted) {
      this.stop = {
        status: 'failed',
        reason: 'queue_timeout',
        error: `No call slot freed within ${timeoutS} s (max_concurrent_calls reached).`,
      };
      return false;
    }
    return true;
  }

  /** Asks the semaphore for a slot, in line when none is free (activity `requestCallSlot`); true when granted. */
  private async askForSlot(summary: string): Promise<boolean> {
    const { input } = this;
    const { granted } = await slots.requestCallSlot.executeWithOptions({ summary }, [
      { orgId: input.orgId, livemode: input.livemode, callId: input.callId },
    ]);
    return granted;
  }

  /**
   * `dialed_ms` for the transition that takes the call out of `queued` (when it began to count against
   * the limit), stamped `now` by the activity's clock: workflow time is the start of the workflow task,
   * which the wait for a slot's answer (a local activity) can leave behind. Nothing afterwards, nor for
   * calls started before issue 28 (no `direction`).
   */
  private dialed(): { dialed_ms?: typeof STAMP_NOW } {
    return this.status === 'queued' && this.input.direction ? { dialed_ms: STAMP_NOW } : {};
  }

  /** The dial, in the cancellable conversation scope: a stop while ringing is `canceled`, an error `failed`. */
  private async dial(): Promise<{ outcome: DialOutcome | 'canceled'; error?: string }> {
    try {
      return { outcome: await this.conversation.run(() => this.ringPhone()) };
    } catch (err) {
      return isCancellation(err) ? { outcome: 'canceled' } : { outcome: 'failed', error: errorMessage(err) };
    }
  }

  /** Rings the phone (simulated, a browser room, or placed through the provider) until an outcome is known. */
  private async ringPhone(): Promise<DialOutcome> {
    const { input } = this;
    if (input.simulation) {
      // A phone that answers at once (ring_seconds 0) goes straight to in_progress in one write.
      if (input.simulation.ring_seconds > 0 || input.simulation.outcome !== 'answered')
        await this.transition('ringing', this.dialed(), []);
      if (input.simulation.ring_seconds > 0) await sleep(input.simulation.ring_seconds * 1000);
      // A simulated answering machine answers the call like a person (detection tells them apart).
      return input.simulation.outcome === 'voicemail' ? 'answered' : input.simulation.outcome;
    }
    if (input.room) {
      // Rings until the visitor is in the room (the assistant's attendance signals `in-progress`).
      await this.transition('ringing', this.dialed(), []);
    } else {
      const placed = await telephony.placeCall({
        callId: input.callId,
        to: input.to,
        from: input.from,
        ...(this.detects() ? { machineDetection: true } : {}),
      });
      this.providerCallSid = placed.providerCallSid;
      await this.transition('ringing', { provider_call_sid: this.providerCallSid, ...this.dialed() }, []);
    }
    // A detection result means the call was answered, even if its status callback is yet to come.
    const answered = () => rank(this.telephonyStatus?.status) >= 2 || this.answeredBy !== null;
    const decided = await condition(answered, LIVE_RING_TIMEOUT_MS);
    return !decided ? 'no_answer' : this.answeredBy !== null ? 'answered' : liveOutcome(this.telephonySeen);
  }

  /**
   * The conversation, if the call is in progress, bounded by `max_duration_seconds` from the answer.
   * @returns true when the run should continue as new (a long call, nothing stopping it)
   */
  async talk(): Promise<boolean> {
    if (this.status !== 'in_progress' || this.stop !== null) return false;
    if (this.answeredBy === 'machine') {
      this.machineAnswered(); // detected before the answer's status callback came
      return false;
    }
    const maxDurationMs = this.input.continuation
      ? Math.max(1, this.answeredMs + this.input.max_duration_seconds * 1000 - Date.now())
      : this.input.max_duration_seconds * 1000;
    void sleep(maxDurationMs).then(() => this.requestStop({ status: 'completed', reason: 'max_duration' }));
    let continued = false;
    try {
      continued = (await this.conversation.run(() => this.converse())) === 'continue';
      if (this.stop === null && !continued) this.requestStop({ status: 'completed', reason: 'caller_hung_up' });
    } catch (err) {
      if (!isCancellation(err)) this.requestStop({ status: 'failed', reason: 'error', error: errorMessage(err) });
    }
    return continued && this.stop === null;
  }

  /**
   * A long call's next run: records the pending turns, leaves the room (the next run attends it) and
   * returns the input the next run starts from, with a fresh history.
   */
  async continuation(): Promise<CallWorkflowInput> {
    await this.flushTurns();
    this.roomScope.cancel();
    return {
      ...this.input,
      continuation: {
        answeredMs: this.answeredMs,
        turns: this.turnCount,
        scriptIndex: this.scriptIndex,
        utterances: this.utterances,
        providerCallSid: this.providerCallSid,
        telephonySeen: [...this.telephonySeen],
        ...(this.answeredBy !== null ? { answeredBy: this.answeredBy } : {}),
        ...(this.input.campaign ? { formValues: this.form?.values ?? null } : {}),
        ...(this.transfers ? { transfers: this.transfers } : {}),
        ...(this.streamEntries !== null ? { streamEntries: this.streamEntries } : {}),
      },
    };
  }

  /**
   * Records the end, never cancelled: the pending turns (with a voicemail message left, as the
   * assistant's), the transfer, the voicemail message or the hang-up, the call's slot freed, the terminal
   * status with `call.ended` (and `call.transferred`; `answered_by` once detection decided), then tells a campaign. A run cancelled by an operator (a
   * Temporal cancellation request, not a stop of ours) ends `api_ended`.
   * @returns the final `CallState`
   */
  async finish(): Promise<CallState> {
    this.stop ??=
      this.status === 'in_progress'
        ? { status: 'completed', reason: 'api_ended' }
        : { status: 'canceled', reason: 'api_ended' };
    const final = this.stop;
    return await CancellationScope.nonCancellable(async () => {
      await this.warmRun; // a warm transfer cut short hangs up its leg first
      await this.applyInterruption();
      if (final.voicemailMessage !== undefined) this.say('assistant', final.voicemailMessage);
      await this.flushTurns();
      const events: string[] = [];
      if (final.status === 'transferred' && final.transferTo) {
        // A warm transfer already joined the caller with the person: nothing to hand over.
        if (final.warm || (await this.transferOut(final, final.transferTo))) events.push('call.transferred');
      } else if (final.voicemailMessage !== undefined && this.status === 'in_progress')
        await this.leaveVoicemail(final, final.voicemailMessage);
      else if (this.status === 'in_progress' || this.status === 'ringing') await this.hangUp(final);
      this.roomScope.cancel(); // the assistant leaves the room (if the visitor has not ended its attendance first)
      events.push('call.ended');
      const endedMs = Date.now();
      // The line is free: the next call in line may dial while this end is recorded (ended_ms is before it).
      // A call ended while `scheduled` never asked for one.
      if (this.input.slot && this.status !== 'scheduled')
        await slotRelease.releaseCallSlot.executeWithOptions({ summary: 'free the call slot' }, [
          { orgId: this.input.orgId, livemode: this.input.livemode, callId: this.input.callId },
        ]);
      const formValues = this.form?.values ?? null;
      await this.transition(
        final.status,
        {
          end_reason: final.reason,
          transferred_to: final.status === 'transferred' ? (final.transferTo ?? null) : null,
          ...this.transferRecord(final),
          error_message: final.error ?? null,
          ended_ms: endedMs,
          ...(this.answeredBy !== null ? { answered_by: this.answeredBy } : {}),
          ...(this.input.campaign ? { form_json: formValues ? JSON.stringify(formValues) : null } : {}),
        },
        events,
      );
      this.finished = true;
      await this.recordSimulation();
      if (this.input.campaign) await this.reportToCampaign(this.input.campaign.bulkCallId, final);
      return this.state();
    });
  }

  // The conversation.

  /**
   * The conversation loop; runs inside the cancellable `conversation` scope.
   * @returns `continue` when the run should continue as new (history long, no update in flight)
   */
  private async converse(): Promise<'done' | 'continue'> {
    const firstTurn = this.turnCount;
    this.customTools = resolveCustomTools({
      orgId: this.input.orgId,
      livemode: this.input.livemode,
      toolIds: this.input.agent.tool_ids,
      installationIds: this.input.agent.connector_installation_ids,
      reserved: offeredTools(this.input.campaign ? 'campaign_call' : 'phone_call', this.enabledTools()),
    });
    const notice = this.input.recording?.notice;
    if (notice && !this.input.continuation) this.say('assistant', notice); // before the greeting (issue 30)
    const firstMessage = this.input.agent.first_message;
    if (firstMessage && !this.input.continuation) {
      this.say('assistant', firstMessage);
      this.hearMessage({ role: 'assistant', content: firstMessage });
      await this.flushTurns(true);
    }
    for (;;) {
      const longRun = workflowInfo().continueAsNewSuggested || this.turnCount - firstTurn >= LOCAL_TURNS_PER_RUN;
      const idle =
        this.callerInbox.length === 0 &&
        this.pendingTurns.length === 0 &&
        this.warm === null &&
        this.interruption === null;
      if (longRun && idle && allHandlersFinished()) return 'continue';
      const heard = await this.hearCaller();
      await this.applyInterruption();
      if (heard === null) return 'done';
      this.say('caller', heard.text);
      this.hearMessage({ role: 'user', content: heard.text });
      if (heard.hangUp) return 'done'; // a persona's goodbye: it hangs up after saying it
      if (await this.holdForDetection()) {
        if (heard.utterance !== undefined) this.answers.set(heard.utterance, { text: null, final: true });
        continue;
      }
      await this.answerCaller(heard.utterance);
      await this.flushTurns(true);
      if (this.stop !== null) return 'done';
    }
  }

  /**
   * The caller's next line: the simulation's script (after its pause), or a live caller's `callerSaid`.
   * @returns null when the caller is done: the script is over (the scripted caller hangs up), or a live
   *   caller stayed silent for `SILENCE_TIMEOUT_MS` (the call stops, `silence_timeout`)
   */
  private async hearCaller(): Promise<{ text: string; utterance?: number; hangUp?: boolean } | null> {
    const simulation = this.input.simulation;
    if (simulation) {
      if (this.warm !== null) await condition(() => this.warm === null);
      if (simulation.persona) return await this.hearPersona(simulation);
      if (this.scriptIndex >= simulation.caller.length) {
        // A simulated machine beeps once its greeting is over: detection says so, as Twilio would.
        if (simulation.outcome === 'voicemail') this.onMachineDetection({ answeredBy: 'machine_end_beep' });
        return null;
      }
      if (simulation.pause_seconds > 0) await sleep(simulation.pause_seconds * 1000);
      // The simulated caller is on hold while a warm transfer runs (issue 31).
      if (this.warm !== null) await condition(() => this.warm === null);
      await this.speakApiLines();
      return { text: simulation.caller[this.scriptIndex++] };
    }
    // A live caller on hold during a warm transfer is not silent: the wait starts again once it is over.
    for (;;) {
      if (this.warm !== null) await condition(() => this.warm === null);
      await this.speakApiLines();
      // A line said on the API's behalf wakes the wait (and the caller's silence counts from it).
      const woke = await condition(
        () => this.callerInbox.length > 0 || this.apiLines.length > 0 || this.warm !== null,
        SILENCE_TIMEOUT_MS,
      );
      if (this.warm !== null) continue;
      if (!woke) {
        this.requestStop({ status: 'completed', reason: 'silence_timeout' });
        return null;
      }
      if (this.callerInbox.length === 0) {
        if (this.stop !== null) return null; // stopped: the lines left wait no more (their updates say unsaid)
        continue;
      }
      const next = this.callerInbox.shift()!;
      return { text: next.text, utterance: next.id };
    }
  }

  /**
   * A persona caller's next line (issue 37 item 3): after `max_turns` caller turns the persona hangs up
   * (null); otherwise, after the simulation's pause (and a warm transfer's hold), the `personaTurn` local
   * activity asks the simulator model with the conversation so far (the run's chat log, or a continued
   * run's messages since the stored transcript). A line without words is a hang-up (null); a line with
   * `hangUp` is said, then the caller hangs up (`converse`). Turns count in `scriptIndex`.
   */
  private async hearPersona(
    simulation: NonNullable<CallWorkflowInput['simulation']>,
  ): Promise<{ text: string; hangUp?: boolean } | null> {
    const persona = simulation.persona!;
    if (this.scriptIndex >= persona.max_turns) return null;
    if (simulation.pause_seconds > 0) await sleep(simulation.pause_seconds * 1000);
    if (this.warm !== null) await condition(() => this.warm === null);
    await this.speakApiLines();
    const line = await simulator.personaTurn.executeWithOptions({ summary: `persona turn ${this.scriptIndex + 1}` }, [
      {
        callId: this.input.callId,
        simulation: persona,
        messages: this.chatLog ?? this.pendingMessages,
        ...(this.chatLog ? {} : { history: { callId: this.input.callId } }),
      },
    ]);
    this.scriptIndex++;
    if (line.text === null) return null;
    return { text: line.text, ...(line.hangUp ? { hangUp: true } : {}) };
  }

  /**
   * The pause (issue 31): says the lines the API asked for (`say` without `interrupt`), oldest first,
   * while no answer is being given and before the caller's next line is taken; then records them (the
   * conversation loop is between turns: no LLM request reads the store now).
   */
  private async speakApiLines(): Promise<void> {
    if (this.apiLines.length === 0) return;
    while (this.apiLines.length > 0 && this.stop === null) {
      const line = this.apiLines[0];
      line.speaking = true;
      line.result = await this.speakApiLine(line.text, false, false);
      this.apiLines.shift();
    }
    await this.flushTurns(true);
  }

  /**
   * Says one line on the API's behalf: a live call's voice session speaks it (`speakLine`: the
   * ConversationRelay socket or the voice room, through src/voice/relay.ts); a simulated call's caller
   * hears it. Said, it is the assistant's turn (`author: "api"`) and in the model's conversation.
   * @param flush record it now (`flushTurns` behind): only when no store read depends on the pending turns
   * @returns unsaid when no voice session took it (none connected, or its API process gone)
   */
  private async speakApiLine(text: string, interrupt: boolean, flush: boolean): Promise<SayResult> {
    if (!this.input.simulation) {
      const { delivered } = await telephony.speakLine({ callId: this.input.callId, text, interrupt });
      if (!delivered) return { spoken: false, seq: null };
    }
    const seq = this.say('assistant', text, undefined, 'api');
    this.hearMessage({ role: 'assistant', content: text });
    if (flush) await this.flushTurns(true);
    return { spoken: true, seq };
  }

  /**
   * The detection window (see the header): while answering-machine detection has not decided, a caller's
   * line is not answered. Live: waits for the decision, at most until `MACHINE_DETECTION_TIMEOUT_SECONDS`
   * after the answer (a machine stops the call, cancelling the wait), then answers. Simulated: a machine's
   * greeting line is never answered (it beeps when the greeting is over); a person is `human` at once.
   * Without detection (or once decided) nothing waits.
   * @returns true when the line is not to be answered
   */
  private async holdForDetection(): Promise<boolean> {
    if (!this.detects() || this.answeredBy !== null) return false;
    const simulation = this.input.simulation;
    if (simulation) {
      if (simulation.outcome === 'voicemail') return true;
      this.onMachineDetection({ answeredBy: 'human' });
      return false;
    }
    const leftMs = this.answeredMs + MACHINE_DETECTION_TIMEOUT_SECONDS * 1000 - Date.now();
    if (leftMs > 0) await condition(() => this.answeredBy !== null, leftMs);
    return false;
  }

  /**
   * The assistant's answer, possibly through tools (src/workflows/assistant.ts `assistantTurn`, a local
   * activity per LLM request). The deadline is the model's time (issue 33: the request's, not the
   * worker's queueing). A late answer: past one turn deadline a live caller hears the holding line (said by
   * the voice session; a simulated call's transcript records it before the answer), and any call waits up
   * to `GIVE_UP_DEADLINES` turn deadlines before it ends `failed`. A live utterance's answer is kept for its update.
   */
  private async answerCaller(utterance: number | undefined): Promise<void> {
    const { input } = this;
    const deadlineMs = input.turn_deadline_ms ?? DEFAULT_TURN_DEADLINE_MS;
    const said: string[] = [];
    const custom = await this.customToolSet(utterance);
    try {
      await assistantTurn({
        conversationId: input.callId,
        model: input.agent.model,
        messages: this.chatLog ?? this.pendingMessages,
        ...(this.chatLog ? {} : { history: { callId: input.callId } }),
        turn: input.simulation ? this.scriptIndex : utterance,
        tools: this.tools,
        ...(custom ? { custom } : {}),
        toolCallKey: this.toolCallKey,
        context: this.context,
        ...this.callbackClock(),
        local: true,
        stream: !input.simulation,
        observer: {
          onText: (text, knowledge) => {
            this.say('assistant', text, knowledge);
            said.push(text);
          },
          onTool: (call, effect, record) => this.sayTool(call, effect, record),
        },
        deadline: {
          slowMs: deadlineMs,
          giveUpMs: deadlineMs * GIVE_UP_DEADLINES,
          onSlow: () => {
            // The simulated caller hears the holding line a live caller hears from its voice session.
            if (input.simulation && said.length === 0) this.say('assistant', HOLDING_LINE);
            if (utterance !== undefined && !this.answers.has(utterance))
              this.answers.set(utterance, { text: HOLDING_LINE, final: false });
          },
        },
      });
    } finally {
      if (utterance !== undefined)
        this.answers.set(utterance, { text: said.length ? said.join(' ') : null, final: true });
    }
  }

  /**
   * With `schedule_callback` offered (and the person's number known): `caller`, for the request's clock
   * in their zone (src/workflows/assistant.ts `AssistantTurnInput.caller`); nothing otherwise.
   */
  private callbackClock(): { caller?: string } {
    const person = this.input.direction === 'inbound' ? this.input.from : this.input.to;
    return 'schedule_callback' in this.tools && person ? { caller: person } : {};
  }

  /**
   * The organization's tools this turn offers, with what their requests carry and, for a slow one, its
   * `speak_while_running` said to the caller (once per utterance, while the answer is not given yet: a
   * live caller hears it as the `callerSaid` update's pending answer, like the holding line) and recorded
   * in the transcript. Null when the agent has none.
   */
  private async customToolSet(utterance: number | undefined): Promise<CustomToolSet | null> {
    const tools = this.customTools ? await this.customTools : [];
    if (tools.length === 0) return null;
    let spoke = false;
    return {
      tools,
      context: {
        orgId: this.input.orgId,
        livemode: this.input.livemode,
        agentId: this.input.agent.id,
        subject: { kind: 'call', id: this.input.callId },
        contactId: this.context.contactId,
        metadata: this.input.metadata,
      },
      onSlow: (text) => {
        if (spoke || (utterance !== undefined && this.answers.has(utterance))) return;
        spoke = true;
        this.say('assistant', text);
        if (utterance !== undefined) this.answers.set(utterance, { text, final: false });
      },
    };
  }

  // Warm transfer (issue 31).

  /**
   * Starts a warm transfer to `to` (the `transfer` update with `mode: "warm"`, or `transfer_call` when the
   * agent's `transfer_mode` is `warm`): `runWarmTransfer` in its own scope, which the call's stop does not
   * cancel (it hangs up the person's leg itself, and `finish` waits for it).
   */
  private startWarmTransfer(request: TransferRequest): void {
    const warm: WarmTransfer = {
      progress: {
        mode: 'warm',
        to: request.to,
        status: 'dialing',
        reason: null,
        summary: null,
        attempt: ++this.transfers,
      },
      timeoutSeconds: request.timeoutSeconds ?? DEFAULT_TRANSFER_TIMEOUT_SECONDS,
      ...(request.summary ? { summary: request.summary } : {}),
      legSid: null,
      events: [],
    };
    this.warm = warm;
    this.warmRun = CancellationScope.nonCancellable(() => this.runWarmTransfer(warm)).catch((err) => {
      this.warm = null;
      this.requestStop({ status: 'failed', reason: 'error', error: `Warm transfer failed: ${errorMessage(err)}` });
    });
  }

  /**
   * A warm transfer from start to outcome: notes it in the transcript (`system` turns, which the model
   * sees) and on the call (`transfer`), holds the caller and dials the person (`warmLive`; a simulated
   * call: `warmSimulated`), then either stops the call `transferred` (the person joined; `call.transferred`
   * with `transfer.mode: "warm"` when `finish` records it) or brings the caller back: `call.transfer_failed`
   * with the reason, the assistant's line saying so (`TRANSFER_FAILED_LINES`), a live caller's call
   * redirected to a new ConversationRelay session (`returnFromTransfer`) that greets with that line.
   */
  private async runWarmTransfer(warm: WarmTransfer): Promise<void> {
    const { progress } = warm;
    const to = progress.to;
    this.note(`Warm transfer to ${to}: the caller is on hold while ${to} is dialed.`);
    await this.flushTurns();
    await this.transition('in_progress', { transfer_json: JSON.stringify(progress) }, []);
    const outcome: WarmOutcome =
      this.input.simulation || this.providerCallSid === null
        ? await this.warmSimulated(warm)
        : await this.warmLive(warm, this.providerCallSid);
    if (outcome === 'stopped' || this.stop !== null) {
      this.warm = null;
      return;
    }
    if (outcome === 'joined') {
      progress.status = 'transferred';
      this.note(`${to} heard the summary and is connected with the caller; the assistant left the call.`);
      this.warm = null;
      this.requestStop({ status: 'transferred', reason: 'transferred', transferTo: to, warm: progress });
      return;
    }
    progress.status = 'failed';
    progress.reason = outcome;
    this.note(`Warm transfer to ${to} failed (${outcome.replace('_', ' ')}); the caller is back with the assistant.`);
    const line = TRANSFER_FAILED_LINES[outcome];
    this.say('assistant', line);
    this.hearMessage({ role: 'assistant', content: line });
    await this.flushTurns();
    await this.transition('in_progress', { transfer_json: JSON.stringify(progress) }, ['call.transfer_failed']);
    if (this.providerCallSid !== null && !this.input.simulation)
      try {
        await telephony.returnFromTransfer({
          callId: this.input.callId,
          providerCallSid: this.providerCallSid,
          attempt: progress.attempt,
        });
      } catch (err) {
        // The caller hung up while on hold: their status callback ends the call.
        if (this.stop === null) this.note(`Bringing the caller back failed: ${errorMessage(err)}`);
      }
    this.warm = null;
  }

  /**
   * A live warm transfer: the caller on hold in the conference (`holdForTransfer`), the summary, the person
   * dialed (`dialTransferLeg`). Only callbacks naming the leg's CallSid count: `in-progress`/`answered`
   * (briefing: they hear the summary), the conference's join (joined), `busy`, `no-answer`, `failed`, and
   * `completed` before the join (hung up during the briefing). No answer within `timeoutSeconds`, or a
   * briefing longer than the summary's speaking time: the leg is hung up.
   */
  private async warmLive(warm: WarmTransfer, callerSid: string): Promise<WarmOutcome> {
    const { input } = this;
    const from = input.direction === 'inbound' ? input.to : input.from;
    try {
      await telephony.holdForTransfer({ callId: input.callId, providerCallSid: callerSid });
    } catch {
      return this.stop !== null ? 'stopped' : 'failed';
    }
    const summary = await this.transferSummary(warm);
    if (!from) return 'failed';
    try {
      const leg = await transferDial.dialTransferLeg({
        callId: input.callId,
        to: warm.progress.to,
        from,
        summary,
        timeoutSeconds: warm.timeoutSeconds,
      });
      warm.legSid = leg.providerCallSid;
    } catch {
      return this.stop !== null ? 'stopped' : 'failed';
    }
    const mine = () => warm.events.filter((e) => e.providerCallSid === warm.legSid);
    const joined = () => mine().some((e) => e.joined === true);
    const ended = () => mine().find((e) => e.status !== undefined && rank(e.status) === 3)?.status;
    // Twilio's `completed` means it was answered (callbacks may come out of order).
    const answered = () =>
      mine().some((e) => e.status !== undefined && rank(e.status) === 2) || ended() === 'completed';
    await condition(
      () => answered() || joined() || ended() !== undefined || this.stop !== null,
      warm.timeoutSeconds * 1000,
    );
    if (this.stop === null && !joined() && answered()) {
      await this.briefing(warm, summary);
      await condition(
        () => joined() || ended() !== undefined || this.stop !== null,
        summary.length * VOICEMAIL_MS_PER_CHAR + GRACEFUL_HANGUP_MS,
      );
    }
    const outcome: WarmOutcome =
      this.stop !== null
        ? 'stopped'
        : joined()
          ? 'joined'
          : answered()
            ? 'hung_up'
            : ended() === 'busy'
              ? 'busy'
              : ended() === 'failed'
                ? 'failed'
                : 'no_answer';
    if (outcome !== 'joined' && ended() === undefined)
      try {
        await telephony.hangUpCall({ callId: input.callId, livemode: input.livemode, providerCallSid: warm.legSid });
      } catch {
        // The leg ends on its own (Twilio's Timeout, or the person hanging up).
      }
    return outcome;
  }

  /**
   * A simulated warm transfer (test mode, `simulation.transfer`): after `after_seconds` the person
   * answers (hears the summary and joins), or is `busy` / does not answer; the same transcript and events
   * as a live one.
   */
  private async warmSimulated(warm: WarmTransfer): Promise<WarmOutcome> {
    const person = this.input.simulation?.transfer ?? { answer: 'answered' as const };
    if (person.after_seconds) await condition(() => this.stop !== null, person.after_seconds * 1000);
    if (this.stop !== null) return 'stopped';
    if (person.answer !== 'answered') return person.answer;
    await this.briefing(warm, await this.transferSummary(warm));
    return this.stop !== null ? 'stopped' : 'joined';
  }

  /** The person answered: the call shows `briefing` with the summary they hear, and the transcript notes it. */
  private async briefing(warm: WarmTransfer, summary: string): Promise<void> {
    warm.progress.status = 'briefing';
    warm.progress.summary = summary;
    this.note(`${warm.progress.to} answered and hears the summary: ${summary}`);
    await this.flushTurns();
    await this.transition('in_progress', { transfer_json: JSON.stringify(warm.progress) }, []);
  }

  /**
   * What the person hears first: the API's `summary`, else the model's summary of the conversation so far
   * (one LLM request, `SUMMARY_REQUEST`), else `FALLBACK_TRANSFER_SUMMARY` when that request fails.
   */
  private async transferSummary(warm: WarmTransfer): Promise<string> {
    if (warm.summary) return warm.summary;
    try {
      const reply = await summaryLlm.generateReply.executeWithOptions({ summary: 'summary for a warm transfer' }, [
        {
          callId: this.input.callId,
          model: this.input.agent.model,
          messages: [...(this.chatLog ?? this.pendingMessages), { role: 'system', content: SUMMARY_REQUEST }],
          ...(this.chatLog ? {} : { history: { callId: this.input.callId } }),
          tools: [],
          context: this.context,
        },
      ]);
      warm.summary = reply.text?.slice(0, 1000) || FALLBACK_TRANSFER_SUMMARY;
    } catch {
      warm.summary = FALLBACK_TRANSFER_SUMMARY;
    }
    return warm.summary;
  }

  /**
   * The call's `transfer` as its end records it: a warm transfer's progress, or a cold transfer's
   * destination (`mode: "cold"`); nothing for other ends.
   */
  private transferRecord(final: StopRequest): { transfer_json?: string } {
    if (final.status !== 'transferred' || !final.transferTo) return {};
    const progress: TransferProgress = final.warm ?? {
      mode: 'cold',
      to: final.transferTo,
      status: 'transferred',
      reason: null,
      summary: null,
      attempt: 0,
    };
    return { transfer_json: JSON.stringify(progress) };
  }

  /**
   * Presses `digits` on the line (the `send_dtmf` tool, issue 31): a live call's through its
   * ConversationRelay session (the `sendDigits` activity); a simulated call has no line, the tool's turn
   * records them all the same.
   * @returns false when they could not be sent (the model is told so)
   */
  private async pressKeys(digits: string): Promise<boolean> {
    if (this.input.simulation) return true;
    try {
      await telephony.sendDigits.executeWithOptions({ summary: `press ${digits}` }, [
        { callId: this.input.callId, digits },
      ]);
      return true;
    } catch (err) {
      if (isCancellation(err)) throw err;
      return false;
    }
  }

  /**
   * Applies the caller's interruption, if one came (issue 31): the assistant's turns since the caller last
   * spoke keep only what was heard (src/shared/speech.ts `cutByInterruption`) and are marked
   * `interrupted`, in the transcript (a turn not recorded yet is changed before its write; a recorded one
   * is rewritten once its write is done: `interruptTurns`) and in the model's history (the run's chat log,
   * or the messages since the last recording; a continued run's LLM activity reads the rewritten rows), so
   * the next LLM request holds what the caller heard. A run that continued the call after those turns has
   * none of them here: nothing to cut.
   */
  private async applyInterruption(): Promise<void> {
    const heard = this.interruption;
    this.interruption = null;
    const said = this.spokenSince;
    if (heard === null || said.length === 0) return;
    this.spokenSince = [];
    const cut = cutByInterruption(
      said.map((t) => t.text),
      heard.spoken,
    );
    const recorded: { seq: number; text: string }[] = [];
    const messages = this.chatLog ?? this.pendingMessages;
    said.forEach((turn, i) => {
      const { text, interrupted } = cut[i];
      if (!interrupted) return;
      const pending = this.pendingTurns.find((t) => t.seq === turn.seq);
      if (pending) Object.assign(pending, { text, interrupted: true });
      else recorded.push({ seq: turn.seq, text });
      for (let m = messages.length - 1; m >= 0; m--) {
        const message = messages[m];
        if (message.role === 'user') break;
        if (message.role === 'assistant' && message.content === turn.text) {
          message.content = text;
          break;
        }
      }
    });
    if (recorded.length === 0) return;
    await this.turnWrites;
    await localStore.interruptTurns({ callId: this.input.callId, turns: recorded });
  }

  // The end.

  /**
   * Transfers the provider call to `to` (no provider call, a simulated call: nothing to do).
   * @returns false when the transfer failed: the call then ends `failed`, `error`
   */
  private async transferOut(final: StopRequest, to: string): Promise<boolean> {
    try {
      if (this.providerCallSid !== null)
        await telephony.transferCall({
          callId: this.input.callId,
          livemode: this.input.livemode,
          providerCallSid: this.providerCallSid,
          to,
        });
      return true;
    } catch (err) {
      final.status = 'failed';
      final.reason = 'error';
      final.error = `Transfer to ${to} failed: ${errorMessage(err)}`;
      return false;
    }
  }

  /**
   * Leaves the voicemail message on a live call (the simulated machine heard it as the turn `finish`
   * recorded): Twilio says it and hangs up; the call ends once Twilio reports `completed`, or is hung up
   * through the API if that does not come within the message's speaking time (`VOICEMAIL_MS_PER_CHAR`)
   * and `GRACEFUL_HANGUP_MS`. A failure is noted on the end (`final.error`), the call then hung up.
   */
  private async leaveVoicemail(final: StopRequest, message: string): Promise<void> {
    if (this.providerCallSid === null) return;
    try {
      await telephony.leaveVoicemail({ callId: this.input.callId, providerCallSid: this.providerCallSid, message });
      const hungUp = () => rank(this.telephonyStatus?.status) === 3;
      await condition(hungUp, message.length * VOICEMAIL_MS_PER_CHAR + GRACEFUL_HANGUP_MS);
    } catch (err) {
      final.error = `Leaving the voicemail message failed: ${errorMessage(err)}`;
    }
    await this.hangUp(final);
  }

  /**
   * Ends a live or ringing call's line: closes a browser room, or hangs up the provider call unless the
   * caller already did. A failure is noted on the end (`final.error`), never fatal: the end is recorded now.
   */
  private async hangUp(final: StopRequest): Promise<void> {
    const { input } = this;
    // Live, assistant said goodbye: the relay ends ConversationRelay after the goodbye is spoken, and
    // Twilio hangs up and reports `completed`. Hang up ourselves only if that does not come in time.
    const hungUp = () => rank(this.telephonyStatus?.status) === 3;
    if (!input.simulation && final.reason === 'assistant_ended') await condition(hungUp, GRACEFUL_HANGUP_MS);
    if (input.room) {
      try {
        await telephony.closeRoom({ callId: input.callId, room: input.room.name });
      } catch (err) {
        final.error = `Closing the room failed: ${errorMessage(err)}`;
      }
    } else if (!hungUp() && this.providerCallSid !== null) {
      try {
        await telephony.hangUpCall({
          callId: input.callId,
          livemode: input.livemode,
          providerCallSid: this.providerCallSid,
        });
      } catch (err) {
        // The provider will end the call on its own side sooner or later.
        final.error = `Hang-up failed: ${errorMessage(err)}`;
      }
    }
  }

  /**
   * A recorded test-mode call that was answered: its recording is synthesized from the transcript by
   * `recordingWorkflow` (src/workflows/recordings.ts), a child left running when this run closes, its id
   * derived from the call id (started once: a second start is refused and ignored).
   */
  private async recordSimulation(): Promise<void> {
    const { input } = this;
    if (!input.recording?.enabled || !input.simulation || !this.answeredMs) return;
    try {
      await startChild<RecordingWorkflow>(RECORDING_WORKFLOW, {
        workflowId: recordingWorkflowId(input.callId),
        args: [{ callId: input.callId, orgId: input.orgId, livemode: input.livemode, source: { kind: 'synthesized' } }],
        parentClosePolicy: 'ABANDON',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (err) {
      // @temporalio/common's WorkflowExecutionAlreadyStartedError, which the workflow package does not export.
      if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err;
    }
  }

  /**
   * Tells the campaign (by workflow id, so whichever run is current gets it) how its call ended, with the
   * form's values. A campaign that no longer runs (canceled and finished) cannot be told: nothing to do;
   * a report lost any other way is recovered by the campaign asking the store (`checkBulkCalls`).
   */
  private async reportToCampaign(bulkCallId: string, final: StopRequest): Promise<void> {
    try {
      await getExternalWorkflowHandle(bulkCallId).signal(callFinishedSignal, {
        callId: this.input.callId,
        index: this.input.campaign!.contactIndex,
        attempt: this.input.campaign!.attempt,
        status: this.status,
        endReason: final.reason,
        form: this.form?.values ?? null,
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
  }

  // State changes.

  /**
   * Whether the call tells machines from people (issue 29): its voicemail setting has `detection`, and
   * it is an outbound phone call (not inbound, not a browser voice room).
   */
  private detects(): boolean {
    return this.voicemail?.detection === true && !this.input.room && this.input.direction !== 'inbound';
  }

  /**
   * A machine answered: the call stops (`completed`, `voicemail`), leaving `voicemail.message` when the
   * action is `leave_message` (see `finish`), else hanging up at once.
   */
  private machineAnswered(): void {
    const vm = this.voicemail;
    const message = vm?.action === 'leave_message' ? vm.message : undefined;
    this.requestStop({ status: 'completed', reason: 'voicemail', ...(message ? { voicemailMessage: message } : {}) });
  }

  private isLive(): boolean {
    return (
      this.stop === null &&
      (this.status === 'scheduled' ||
        this.status === 'queued' ||
        this.status === 'ringing' ||
        this.status === 'in_progress')
    );
  }

  /** An update refused because the call is not live; `details[0]` is the status (the API shows it). */
  private notLive(message: string): ApplicationFailure {
    return ApplicationFailure.create({ message, type: CALL_NOT_LIVE, nonRetryable: true, details: [this.status] });
  }

  /** Asks the call to stop; the first request wins. Cancels whatever the conversation awaits. */
  private requestStop(request: StopRequest): void {
    if (this.stop !== null) return;
    this.stop = request;
    this.conversation.cancel();
  }

  /**
   * The answer to utterance `id` once known (or the holding line while it is late). `ended` tells the
   * voice session to end after it, except while a voicemail message is being left: the message's TwiML
   * replaces the session, which ending first would hang the call up before the message.
   */
  private answerOf(id: number, final: boolean): CallerSaidResult {
    const a = this.answers.get(id);
    const pending = a !== undefined && !a.final && this.stop === null;
    const ended = this.stop !== null && this.stop.voicemailMessage === undefined;
    if (final || !pending) return { text: a?.text ?? null, ended, utterance: id };
    return { text: a.text, ended: false, pending: true, utterance: id };
  }

  /**
   * Moves the call to `next` and mirrors it into the store (`transitionCall`: a scheduled activity when
   * it emits `events`, their ids fixed in the history; a local one otherwise), then the `CallStatus`
   * search attribute.
   */
  private async transition(next: CallStatus, patch: Record<string, unknown>, events: string[]): Promise<void> {
    const summary = `${this.status} → ${next}${events.length ? ` (${events.join(', ')})` : ''}`;
    this.status = next;
    await (events.length ? store : localStore).transitionCall.executeWithOptions({ summary }, [
      {
        callId: this.input.callId,
        atMs: Date.now(),
        patch: { status: next, ...patch },
        events: events.map((type) => ({ id: newId('evt'), type })),
        ...this.nextStreamEntry(),
      },
    ]);
    upsertSearchAttributes([{ key: searchAttributeKeys.CallStatus, value: next }]);
  }

  /** The next entry's number in the call's live stream, as a turn's or transition's `stream`; none in a run of before. */
  private nextStreamEntry(): { stream?: number } {
    return this.streamEntries === null ? {} : { stream: ++this.streamEntries };
  }

  /**
   * Adds a transcript turn of the assistant or the caller (or a `note` for the model), to be recorded with
   * the next flush; `author` `api` for what the API had said or added (issue 31).
   * @returns the turn's `seq`
   */
  private say(role: 'assistant' | 'caller' | 'note', text: string, knowledge?: KnowledgeRef[], author?: 'api'): number {
    const seq = this.turnCount++;
    this.pendingTurns.push({
      seq,
      role,
      text,
      atMs: Date.now(),
      ...(knowledge?.length ? { knowledge } : {}),
      ...(author ? { author } : {}),
      ...this.nextStreamEntry(),
    });
    // What an interruption cuts (`applyInterruption`): the assistant's turns since the caller spoke.
    if (role === 'caller') this.spokenSince = [];
    else if (role === 'assistant') this.spokenSince.push({ seq, text });
    return seq;
  }

  /** Adds a `system` turn noting what happened on the call (issue 31), which the model sees too. */
  private note(text: string): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'system',
      text,
      atMs: Date.now(),
      ...this.nextStreamEntry(),
    });
    this.hearMessage({ role: 'system', content: text });
  }

  /** Adds a tool turn: the call the model made, what it did, and its key, outcome and duration. */
  private sayTool(call: ToolCall, effect: ToolEffect, record: ToolCallRecord): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'tool',
      text: effect.summary,
      atMs: Date.now(),
      toolName: call.name,
      toolArguments: call.arguments,
      toolCallId: call.id,
      toolCall: record,
      ...(effect.knowledge?.length ? { knowledge: effect.knowledge } : {}),
      ...this.nextStreamEntry(),
    });
  }

  /** Adds a message of the other party or a scripted line to what the next LLM request carries. */
  private hearMessage(m: ChatMessage): void {
    this.pendingMessages.push(m);
    this.chatLog?.push(m);
  }

  /**
   * Records the turns said since the last recording. A run that holds the whole conversation (`chatLog`)
   * writes a turn's rows while the next turn goes on (`behind`: returns once the write has started), so no
   * store write sits between the caller's line and the model; the writes are idempotent per row id, never
   * cancelled. Otherwise, and always when not `behind`, returns when every write so far is done.
   */
  private async flushTurns(behind = false): Promise<void> {
    if (this.pendingTurns.length > 0) {
      const turns = this.pendingTurns;
      this.pendingTurns = [];
      this.pendingMessages = [];
      const write = CancellationScope.nonCancellable(() =>
        localStore.recordTurns({ callId: this.input.callId, turns }),
      );
      this.turnWrites = Promise.all([this.turnWrites, write]);
    }
    if (!(behind && this.chatLog !== null)) await this.turnWrites;
  }
}

/**
 * What the assistant says first in a browser room: the recording notice (issue 30), then the agent's
 * `first_message`; null when neither.
 */
function spokenGreeting(input: CallWorkflowInput): string | null {
  return [input.recording?.notice, input.agent.first_message].filter(Boolean).join(' ') || null;
}

/** A provider status's rank (src/shared/calls.ts `TELEPHONY_STATUS_RANK`); -1 for none. */
const rank = (s: TelephonyStatus['status'] | undefined) => (s === undefined ? -1 : TELEPHONY_STATUS_RANK[s]);

/** What the provider statuses seen mean once ringing is over (Twilio: `completed` implies answered). */
function liveOutcome(seen: Set<TelephonyStatus['status']>): DialOutcome {
  if (seen.has('in-progress') || seen.has('answered') || seen.has('completed')) return 'answered';
  if (seen.has('busy')) return 'busy';
  if (seen.has('no-answer')) return 'no_answer';
  return 'failed';
}

/** The innermost cause's message of a failure (an activity failure's cause is the activity's error). */
function errorMessage(err: unknown): string {
  let e: unknown = err;
  while (e && typeof e === 'object' && 'cause' in e && (e as { cause?: unknown }).cause)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
