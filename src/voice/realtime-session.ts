/**
 * The server-side ("sideband") WebSocket of a realtime call (OpenAI's Realtime API over SIP,
 * https://platform.openai.com/docs/guides/realtime-server-controls), as the call's `attendRealtimeCall`
 * activity holds it: it reads the session's server events (typed by the `openai` package's
 * `RealtimeServerEvent`) and tells the call's workflow what matters, in order, by `realtimeEvents` signals
 * (src/shared/realtime.ts `RealtimeCallEvent`; what comes while a signal is on its way goes in the next):
 * - `conversation.item.input_audio_transcription.completed` → `caller` (the caller's words);
 * - `response.output_audio_transcript.done` → `assistant` (what the model said);
 * - `response.done` whose output holds `function_call` items → `function_calls`, marked `interrupted` when
 *   the caller talked over the answer (`input_audio_buffer.speech_started` while it was being made, when the
 *   session interrupts on speech, or the response `cancelled`). An answer that completed, uncut, whose
 *   calls are all of the organization's tools the activity gave it (`tools`: none needing a confirmation,
 *   never a built-in one such as `end_call` or `transfer_call`), the session runs itself
 *   (src/shared/realtime.ts `sidebandRunsAnswer`, the rule the workflow keeps too): told with their keys
 *   (`sidebandKeys`, the workflow's `Idempotency-Key`s), run once that signal is accepted, their outputs
 *   sent on the socket at once with `response.create`, then told (`tool_results`): no workflow task
 *   between the model's call and its output. Any other answer's calls the workflow runs as the same
 *   durable tool activity as the pipeline's (or drops them all when interrupted), and the session asks
 *   the workflow for the outputs (update `realtimeOutputs`, answered as soon as the workflow has them) and
 *   sends each as `conversation.item.create` of a `function_call_output`, then `response.create` unless a
 *   tool ended the call or the caller is talking, then tells `sent`;
 * - `conversation.item.truncated` (the caller cut the audio of an answer: OpenAI truncates it for a SIP
 *   call) → `interrupted`, with what the caller heard estimated from `audio_end_ms` (`heardOfAudio`);
 * - `error` → `error`; a normal close (1000, 1005) → `closed`; any other close fails the session (the
 *   workflow re-attaches a new socket to the call: `attach` numbers the events of each).
 * - every server event, and each batch of outputs sent back, also goes to the meter
 *   (src/voice/realtime-meter.ts): each response's usage, and the answer's `latency` on `assistant`.
 * The greeting (the agent's first message) is asked for once the socket is open (`response.create` with
 * instructions to say it), on the first attach only. Audio never comes here: only events.
 *
 * A squad's hand-off (a batch with `handoff`, src/shared/realtime.ts `RealtimeMemberSwitch`): after the
 * batch's outputs, `session.update` with the receiving member's configuration, `conversation.item.delete`
 * of every item its context policy drops, `conversation.item.create` of its system notes, then
 * `response.create`. The items are those this socket saw (`input_audio_buffer.committed`,
 * `response.output_item.added`, `response.done`'s output, `conversation.item.added`, the items it created
 * itself, each with an id of its own, `svc<attach>_<n>`): after a re-attach the items of earlier sockets
 * are not known and stay.
 */
import type {
  RealtimeClientEvent,
  RealtimeConversationItemFunctionCall,
  RealtimeServerEvent,
  RealtimeSessionCreateRequest,
} from 'openai/resources/realtime/realtime';
import type WebSocket from 'ws';
import type { RealtimeMeter } from './realtime-meter';
import type { RealtimeResponseSpans } from './realtime-spans';
import {
  heardOfAudio,
  sidebandRunsAnswer,
  type RealtimeCallEvent,
  type RealtimeCallEventBody,
  type RealtimeFunctionCall,
  type RealtimeMemberSwitch,
  type RealtimeOutputsReply,
  type SidebandToolResult,
} from '../shared/realtime';
import type { ToolCallOutcome } from '../shared/tools';

/**
 * The pause before asking the workflow for function outputs again after an ask failed (ms): the update
 * refused or lost (a workflow task that failed, the server unreachable); a call that is over cancels the
 * activity meanwhile.
 */
export const OUTPUTS_RETRY_MS = 200;
/** How often the session tells Temporal it is alive (ms); the activity's heartbeat timeout is a few times this. */
const HEARTBEAT_MS = 1000;

/** Close codes of a socket that ended normally (1005: a close frame without a code); any other is a drop. */
const NORMAL_CLOSES = new Set([1000, 1005]);

/**
 * The function calls a session may run itself (src/shared/realtime.ts `SidebandTools`, made runnable by
 * its activity): the tools' names, the rank of the next call among the run's tool calls, the key of a
 * call (the workflow's, src/shared/tools.ts `toolCallKey`) and the call itself (the `runTool` request).
 */
export interface SidebandToolRunner {
  runnable: ReadonlySet<string>;
  keysFrom: number;
  key(rank: number, modelId: string): string;
  run(call: RealtimeFunctionCall, key: string): Promise<ToolCallOutcome>;
}

/** What a session needs from its activity. */
export interface SidebandOptions {
  socket: WebSocket;
  /** What the assistant says first; null: nothing until the caller speaks (and on a re-attach). */
  greeting: string | null;
  /** Which socket of the call this is (1, then each re-attach): every event told carries it. */
  attach: number;
  /** Outbox batches an earlier socket of the call sent already (this one goes on from there). */
  outboxFrom: number;
  /** `function_calls` events the workflow has from earlier sockets (their batches are this one's to send). */
  awaited: number;
  /** Whether the caller's speech cuts an answer (the session's `interrupt_response`, default true). */
  interruptOnSpeech: boolean;
  /**
   * Tells the workflow events, in order (signal `realtimeEvents`): one at a time, those queued while the
   * one before was on its way together.
   */
  tell(events: RealtimeCallEvent[]): Promise<void>;
  /**
   * Asks the workflow for the outbox batches from index `from` on (update `realtimeOutputs`): resolves
   * once the workflow has one, or with none and `final` when it will make no more.
   */
  outputs(from: number): Promise<RealtimeOutputsReply>;
  heartbeat(): void;
  /** The organization's tools the session runs itself (`sidebandRunsAnswer`); absent: the workflow runs every call. */
  tools?: SidebandToolRunner;
  /** Times the answers and hands each response's usage on (src/voice/realtime-meter.ts); absent: not metered. */
  meter?: RealtimeMeter;
  /** A span per response (src/voice/realtime-spans.ts), tracing on; absent: none. */
  spans?: RealtimeResponseSpans;
  /** Rejects when the activity is cancelled (the call stops). */
  cancelled: Promise<never>;
}

/** One sideband session, from the socket's opening to its close. */
export class RealtimeSideband {
  private seq = 0;
  /** `function_calls` events told, and outbox batches sent back (counting those of earlier sockets). */
  private asked: number;
  private sent: number;
  /**
   * Signals in flight, in order: each after the one before; `untold` the events numbered and not yet
   * sent, which the next signal takes all of.
   */
  private telling: Promise<void> = Promise.resolve();
  private untold: RealtimeCallEvent[] = [];
  private asking = false;
  /** Function calls told so far in the run (the rank of the next one's key), and the calls this socket runs. */
  private ranked: number;
  private running: Promise<void> = Promise.resolve();
  /** The response being made (`response.created` to `response.done`), and those the caller talked over. */
  private responding: string | null = null;
  private readonly interrupted = new Set<string>();
  /** The response of each output item seen, and the audio played of items cut before their transcript came. */
  private readonly itemResponse = new Map<string, string>();
  private readonly truncated = new Map<string, number>();
  /**
   * `assistant` events held until their answer is done (`response.done`), so that an answer's words and
   * its function calls reach the workflow together; anything else told first lets them go before it.
   */
  private held: { responseId: string; event: Extract<RealtimeCallEventBody, { type: 'assistant' }> }[] = [];
  /** The assistant's words told since the caller last spoke, by item (what an interruption cuts). */
  private spokenSince: { itemId: string; text: string }[] = [];
  /**
   * The conversation's items this socket knows, in order (what a squad's hand-off keeps or deletes):
   * `spoken` a caller's or the assistant's message with words; and how many items it created itself.
   */
  private items: { id: string; spoken: boolean }[] = [];
  private created = 0;

  constructor(private readonly o: SidebandOptions) {
    this.asked = o.awaited;
    this.sent = o.outboxFrom;
    this.ranked = o.tools?.keysFrom ?? 0;
  }

  /**
   * Runs the session until the socket closes (resolves) or the activity is cancelled (closes the socket,
   * rejects with the cancellation). A signal that fails (the workflow gone) closes the socket too. Either
   * close waits for the calls the session runs itself to be told first.
   */
  async run(): Promise<void> {
    const { socket } = this.o;
    const beat = setInterval(() => this.o.heartbeat(), HEARTBEAT_MS);
    try {
      await Promise.race([
        new Promise<void>((resolve, reject) => {
          // A drop fails the session once the calls it runs are told (unsent: the next socket sends them).
          const fail = (err: Error) =>
            void this.running
              .then(() => this.telling)
              .then(
                () => reject(err),
                () => reject(err),
              );
          socket.on('open', () => this.opened());
          socket.on('message', (data) => this.received(String(data)));
          socket.on('error', (err) => fail(err));
          socket.on('close', (code) => {
            if (!NORMAL_CLOSES.has(code)) {
              fail(new Error(`the sideband socket dropped (close code ${code})`));
              return;
            }
            // The calls it runs are told first: their outputs are the workflow's only word of them.
            void this.running
              .then(() => {
                this.tell({ type: 'closed' });
                return this.telling;
              })
              .then(resolve, reject);
          });
        }),
        this.o.cancelled,
      ]);
    } finally {
      clearInterval(beat);
      this.o.spans?.close(Date.now());
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
    }
  }

  private send(event: RealtimeClientEvent): void {
    this.o.socket.send(JSON.stringify(event));
  }

  private opened(): void {
    this.afterTelling(() => this.deliverOutputs());
    if (this.o.greeting)
      this.send({
        type: 'response.create',
        response: { instructions: `Greet the caller by saying exactly: ${JSON.stringify(this.o.greeting)}` },
      });
  }

  /** One server event: told to the workflow when it matters; anything unparsable is ignored. */
  private received(text: string): void {
    let event: RealtimeServerEvent;
    try {
      event = JSON.parse(text) as RealtimeServerEvent;
    } catch {
      return;
    }
    const now = Date.now();
    this.o.meter?.observe(event, now);
    this.o.spans?.observe(event, now);
    this.track(event);
    switch (event.type) {
      case 'conversation.item.input_audio_transcription.completed':
        this.spokenSince = [];
        if (event.transcript.trim()) this.tell({ type: 'caller', text: event.transcript.trim() });
        break;
      case 'response.created':
        this.responding = event.response.id ?? null;
        break;
      case 'response.output_item.added':
        if (event.item.id) this.itemResponse.set(event.item.id, event.response_id);
        break;
      case 'input_audio_buffer.speech_started':
        if (this.responding !== null && this.o.interruptOnSpeech) this.interrupted.add(this.responding);
        break;
      case 'response.output_audio_transcript.done':
        this.itemResponse.set(event.item_id, event.response_id);
        if (event.transcript.trim()) {
          const latency = this.o.meter?.latency(event.response_id);
          this.held.push({
            responseId: event.response_id,
            event: { type: 'assistant', text: event.transcript.trim(), ...(latency ? { latency } : {}) },
          });
          this.spokenSince.push({ itemId: event.item_id, text: event.transcript.trim() });
        }
        if (this.truncated.has(event.item_id)) this.cut(event.item_id, this.truncated.get(event.item_id)!);
        break;
      case 'conversation.item.truncated':
        if (this.spokenSince.some((s) => s.itemId === event.item_id)) this.cut(event.item_id, event.audio_end_ms);
        else this.truncated.set(event.item_id, event.audio_end_ms);
        break;
      case 'response.done':
        this.answered(event.response);
        break;
      case 'error':
        this.tell({ type: 'error', message: `${event.error.type}: ${event.error.message}` });
        break;
      default:
        break;
    }
  }

  /** The conversation's items a server event shows (added, given words, or deleted). */
  private track(event: RealtimeServerEvent): void {
    switch (event.type) {
      case 'input_audio_buffer.committed':
        return this.item(event.item_id);
      case 'conversation.item.added':
        return event.item.id ? this.item(event.item.id) : undefined;
      case 'response.output_item.added':
        return event.item.id ? this.item(event.item.id) : undefined;
      case 'conversation.item.input_audio_transcription.completed':
        return this.item(event.item_id, event.transcript.trim() !== '');
      case 'response.output_audio_transcript.done':
        return this.item(event.item_id, event.transcript.trim() !== '');
      case 'response.done':
        for (const item of event.response.output ?? []) if (item.id) this.item(item.id);
        return;
      case 'conversation.item.deleted':
        this.items = this.items.filter((i) => i.id !== event.item_id);
        return;
      default:
        return;
    }
  }

  /** Item `id` is in the conversation (appended when new); `spoken` once it has words. */
  private item(id: string, spoken = false): void {
    const known = this.items.find((i) => i.id === id);
    if (known) known.spoken ||= spoken;
    else this.items.push({ id, spoken });
  }

  /** The id of an item this socket creates: `svc<attach>_<n>` (unique on the call, at most 32 characters). */
  private ownItemId(): string {
    const id = `svc${this.o.attach}_${++this.created}`;
    this.item(id);
    return id;
  }

  /**
   * A squad's hand-off: the receiving member's configuration (`session.update`), the items its context
   * policy drops deleted (`keep`: all; the last N messages with words; none), its notes added as system
   * messages.
   */
  private switchMember(handoff: RealtimeMemberSwitch): void {
    this.send({ type: 'session.update', session: handoff.session as unknown as RealtimeSessionCreateRequest });
    const { keep } = handoff;
    const kept =
      keep === 'all'
        ? this.items
        : keep === 'none' || keep.last <= 0
          ? []
          : this.items.filter((i) => i.spoken).slice(-keep.last);
    for (const item of this.items)
      if (!kept.includes(item)) this.send({ type: 'conversation.item.delete', item_id: item.id });
    this.items = [...kept];
    for (const text of handoff.notes)
      this.send({
        type: 'conversation.item.create',
        item: { id: this.ownItemId(), type: 'message', role: 'system', content: [{ type: 'input_text', text }] },
      });
  }

  /** An answer done: its function calls told (marked when the caller talked over it), their outputs awaited. */
  private answered(response: Extract<RealtimeServerEvent, { type: 'response.done' }>['response']): void {
    const id = response.id ?? '';
    if (this.responding === id) this.responding = null;
    if (response.status === 'cancelled') this.interrupted.add(id);
    const output = response.output ?? [];
    for (const item of output) if (item.id) this.itemResponse.set(item.id, id);
    const calls: RealtimeFunctionCall[] = output
      .filter((item): item is RealtimeConversationItemFunctionCall => item.type === 'function_call')
      .map((item) => ({ id: item.call_id ?? item.id ?? '', name: item.name, arguments: item.arguments }));
    this.release(calls.length > 0 ? id : null);
    if (!calls.length) return;
    const said = output
      .flatMap((item) => (item.type === 'message' ? (item.content as { transcript?: string | null }[]) : []))
      .map((c) => c.transcript ?? '')
      .join(' ')
      .trim();
    const interrupted = this.interrupted.has(id);
    const { tools } = this.o;
    const first = this.ranked;
    this.ranked += calls.length;
    // Only with nothing else outstanding (every batch told so far sent), so that the outbox stays in order.
    const itself =
      tools !== undefined &&
      this.sent === this.asked &&
      sidebandRunsAnswer(
        { responseId: id, interrupted, status: response.status, calls },
        this.interrupted,
        tools.runnable,
      );
    this.asked++;
    const sidebandKeys = itself ? calls.map((c, i) => tools.key(first + i, c.id)) : undefined;
    this.tell({
      type: 'function_calls',
      calls,
      responseId: id,
      interrupted,
      said,
      ...(sidebandKeys ? { sidebandKeys } : {}),
    });
    if (sidebandKeys) this.runItself(id, calls, sidebandKeys);
    else this.afterTelling(() => this.deliverOutputs());
  }

  /**
   * Runs answer `responseId`'s function calls here, once the signal that told them (with their keys) is
   * accepted: durable from then on, so no call runs that the workflow does not know of. Their outputs go on
   * the socket at once, then `response.create`, then `tool_results` tells the workflow (it records them as
   * its own tool activity would). A signal that failed runs nothing (the socket is closing). Should the
   * socket close before the outputs are sent, they are told unsent (`sent` unchanged): the workflow's
   * outbox has them for the next socket.
   */
  private runItself(responseId: string, calls: RealtimeFunctionCall[], keys: string[]): void {
    const tools = this.o.tools!;
    const told = this.telling;
    this.running = this.running.then(() =>
      told.then(
        async () => {
          const results: SidebandToolResult[] = await Promise.all(
            calls.map(async (call, i) => ({ callId: call.id, key: keys[i], ...(await tools.run(call, keys[i])) })),
          );
          if (this.open()) {
            for (const r of results)
              this.send({
                type: 'conversation.item.create',
                item: { id: this.ownItemId(), type: 'function_call_output', call_id: r.callId, output: r.text },
              });
            this.send({ type: 'response.create' });
            this.sent++;
            this.o.meter?.outputsSent(Math.max(0, ...results.map((r) => r.durationMs)), Date.now());
          }
          this.tell({ type: 'tool_results', responseId, results, sent: this.sent });
        },
        () => undefined,
      ),
    );
    // A run that threw tells nothing: the workflow runs the calls itself once this socket is over.
    this.running = this.running.catch(() => undefined);
  }

  /**
   * The caller cut the audio of assistant item `itemId` after `audioEndMs`: its answer is interrupted, and
   * the workflow is told what was heard of the words said since the caller last spoke.
   */
  private cut(itemId: string, audioEndMs: number): void {
    this.truncated.delete(itemId);
    const responseId = this.itemResponse.get(itemId) ?? null;
    if (responseId !== null) this.interrupted.add(responseId);
    const at = this.spokenSince.findIndex((s) => s.itemId === itemId);
    const heard = [
      ...this.spokenSince.slice(0, at).map((s) => s.text),
      heardOfAudio(this.spokenSince[at].text, audioEndMs),
    ]
      .join(' ')
      .trim();
    this.tell({ type: 'interrupted', responseId, heard });
  }

  /**
   * Tells the held `assistant` events, in order; those of answer `withCalls` marked `thenCalls` (its
   * function calls are told next).
   */
  private release(withCalls: string | null): void {
    const held = this.held;
    this.held = [];
    for (const { responseId, event } of held)
      this.tell(responseId === withCalls ? { ...event, thenCalls: true } : event);
  }

  /**
   * Queues an event for the workflow after those before it (a failed signal closes the socket: the
   * workflow is gone); the held `assistant` events go first (`release`), so the workflow hears everything
   * in the order it happened. Events queued while a signal is on its way, or in the same turn of the event
   * loop (an answer's words and its function calls), go in one signal: one workflow task for them.
   */
  private tell(event: RealtimeCallEventBody): void {
    if (event.type !== 'assistant' && this.held.length > 0) this.release(null);
    this.untold.push({ ...event, seq: ++this.seq, attach: this.o.attach });
    this.telling = this.telling.then(() => {
      const events = this.untold.splice(0);
      return events.length > 0 ? this.o.tell(events) : undefined;
    });
    this.telling.catch(() => this.o.socket.close());
  }

  /** Runs `next` once the signals queued so far are told (not when one failed: the socket is closing). */
  private afterTelling(next: () => Promise<void>): void {
    void this.telling.then(next, () => undefined);
  }

  /**
   * While the socket is open: asks the workflow for the batches past those sent (update
   * `realtimeOutputs`, which it answers in the workflow task that made the next batch) and sends each
   * batch's outputs, then `response.create` when the model is to go on, then tells `sent`. The ask is
   * made ahead, from the socket's opening and again after each batch, so it waits in the workflow before
   * the next function calls are told: the workflow task that runs their tools (local activities) answers
   * it, one task from the calls to their outputs. One ask at a time; a failed ask is made again after
   * `OUTPUTS_RETRY_MS`; a `final` answer (the conversation is over) ends the asking.
   */
  private async deliverOutputs(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      while (this.open()) {
        let reply: RealtimeOutputsReply;
        try {
          reply = await this.o.outputs(this.sent);
        } catch {
          await new Promise((r) => setTimeout(r, OUTPUTS_RETRY_MS));
          continue;
        }
        if (reply.final) return;
        reply.batches.forEach((batch, i) => {
          if (reply.from + i === this.sent && this.open()) this.deliver(batch);
        });
      }
    } finally {
      this.asking = false;
    }
  }

  /**
   * One outbox batch on the socket: its outputs, a squad's hand-off (`switchMember`), `response.create`
   * when the model goes on; `sent` told.
   */
  private deliver(batch: RealtimeOutputsReply['batches'][number]): void {
    for (const out of batch.outputs)
      this.send({
        type: 'conversation.item.create',
        item: { id: this.ownItemId(), type: 'function_call_output', call_id: out.callId, output: out.output },
      });
    if (batch.handoff) this.switchMember(batch.handoff);
    if (batch.respond) this.send({ type: 'response.create' });
    this.o.meter?.outputsSent(batch.tool_ms ?? 0, Date.now());
    this.tell({ type: 'sent', batches: ++this.sent });
  }

  private open(): boolean {
    return this.o.socket.readyState === this.o.socket.OPEN;
  }
}
