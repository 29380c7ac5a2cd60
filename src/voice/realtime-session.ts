/**
 * The server-side ("sideband") WebSocket of a realtime call (OpenAI's Realtime API over SIP,
 * https://platform.openai.com/docs/guides/realtime-server-controls), as the call's `attendRealtimeCall`
 * activity holds it: it reads the session's server events (typed by the `openai` package's
 * `RealtimeServerEvent`) and tells the call's workflow what matters, in order, as `realtimeEvent` signals
 * (src/shared/realtime.ts `RealtimeCallEvent`):
 * - `conversation.item.input_audio_transcription.completed` → `caller` (the caller's words);
 * - `response.output_audio_transcript.done` → `assistant` (what the model said);
 * - `response.done` whose output holds `function_call` items → `function_calls`; the workflow runs each as
 *   the same durable tool activity as the pipeline's, and the session then reads the outputs from the
 *   workflow (query `realtimeOutbox`) and sends each as `conversation.item.create` of a
 *   `function_call_output`, then `response.create` unless a tool ended the call;
 * - `error` → `error`; the socket's close → `closed`;
 * - every server event, and each batch of outputs sent back, also goes to the meter
 *   (src/voice/realtime-meter.ts): each response's usage, and the answer's `latency` on `assistant`.
 * The greeting (the agent's first message) is asked for once the socket is open (`response.create` with
 * instructions to say it). Audio never comes here: only events.
 */
import type {
  RealtimeClientEvent,
  RealtimeConversationItemFunctionCall,
  RealtimeServerEvent,
} from 'openai/resources/realtime/realtime';
import type WebSocket from 'ws';
import type { RealtimeMeter } from './realtime-meter';
import type {
  RealtimeCallEvent,
  RealtimeCallEventBody,
  RealtimeFunctionCall,
  RealtimeOutbox,
} from '../shared/realtime';

/**
 * How often the session asks the workflow for function outputs while some are awaited (ms): first after
 * `OUTBOX_FIRST_POLL_MS`, then twice as long each time up to `OUTBOX_POLL_MS`. A flat 100 ms cost an
 * answer after a fast tool about 100 ms of waiting for the next poll (bench:voice --engine realtime).
 */
export const OUTBOX_POLL_MS = 100;
export const OUTBOX_FIRST_POLL_MS = 10;
/** How often the session tells Temporal it is alive (ms); the activity's heartbeat timeout is a few times this. */
const HEARTBEAT_MS = 1000;

/** What a session needs from its activity. */
export interface SidebandOptions {
  socket: WebSocket;
  /** What the assistant says first; null: nothing until the caller speaks. */
  greeting: string | null;
  /** Tells the workflow (signal `realtimeEvent`). */
  tell(event: RealtimeCallEvent): Promise<void>;
  /** Asks the workflow for the function outputs so far (query `realtimeOutbox`). */
  outbox(): Promise<RealtimeOutbox>;
  heartbeat(): void;
  /** Times the answers and hands each response's usage on (src/voice/realtime-meter.ts); absent: not metered. */
  meter?: RealtimeMeter;
  /** Rejects when the activity is cancelled (the call stops). */
  cancelled: Promise<never>;
}

/** One sideband session, from the socket's opening to its close. */
export class RealtimeSideband {
  private seq = 0;
  /** `function_calls` events told, and outbox batches sent back. */
  private asked = 0;
  private sent = 0;
  /** Signals in flight, in order: each event is told after the one before. */
  private telling: Promise<void> = Promise.resolve();
  private polling = false;

  constructor(private readonly o: SidebandOptions) {}

  /**
   * Runs the session until the socket closes (resolves) or the activity is cancelled (closes the socket,
   * rejects with the cancellation). A signal that fails (the workflow gone) closes the socket too.
   */
  async run(): Promise<void> {
    const { socket } = this.o;
    const beat = setInterval(() => this.o.heartbeat(), HEARTBEAT_MS);
    try {
      await Promise.race([
        new Promise<void>((resolve, reject) => {
          socket.on('open', () => this.opened());
          socket.on('message', (data) => this.received(String(data)));
          socket.on('error', (err) => reject(err));
          socket.on('close', () => {
            this.tell({ type: 'closed' });
            void this.telling.then(resolve, reject);
          });
        }),
        this.o.cancelled,
      ]);
    } finally {
      clearInterval(beat);
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
    }
  }

  private send(event: RealtimeClientEvent): void {
    this.o.socket.send(JSON.stringify(event));
  }

  private opened(): void {
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
    this.o.meter?.observe(event, Date.now());
    switch (event.type) {
      case 'conversation.item.input_audio_transcription.completed':
        if (event.transcript.trim()) this.tell({ type: 'caller', text: event.transcript.trim() });
        break;
      case 'response.output_audio_transcript.done':
        if (event.transcript.trim()) {
          const latency = this.o.meter?.latency(event.response_id);
          this.tell({ type: 'assistant', text: event.transcript.trim(), ...(latency ? { latency } : {}) });
        }
        break;
      case 'response.done': {
        const calls: RealtimeFunctionCall[] = (event.response.output ?? [])
          .filter((item): item is RealtimeConversationItemFunctionCall => item.type === 'function_call')
          .map((item) => ({ id: item.call_id ?? item.id ?? '', name: item.name, arguments: item.arguments }));
        if (calls.length) {
          this.asked++;
          this.tell({ type: 'function_calls', calls });
          void this.telling.then(() => this.pollOutbox());
        }
        break;
      }
      case 'error':
        this.tell({ type: 'error', message: `${event.error.type}: ${event.error.message}` });
        break;
      default:
        break;
    }
  }

  /** Queues a signal after those before it (a failed one closes the socket: the workflow is gone). */
  private tell(event: RealtimeCallEventBody): void {
    const numbered: RealtimeCallEvent = { ...event, seq: ++this.seq };
    this.telling = this.telling.then(() => this.o.tell(numbered));
    this.telling.catch(() => this.o.socket.close());
  }

  /**
   * While function calls await their outputs: asks the workflow (10 ms, then twice as long each time, at
   * most `OUTBOX_POLL_MS`) and sends each new
   * batch's outputs, then `response.create` when the model is to go on.
   */
  private async pollOutbox(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    let pause = OUTBOX_FIRST_POLL_MS;
    try {
      while (this.sent < this.asked && this.o.socket.readyState === this.o.socket.OPEN) {
        const { batches } = await this.o.outbox();
        for (; this.sent < batches.length; this.sent++) {
          const batch = batches[this.sent];
          for (const out of batch.outputs)
            this.send({
              type: 'conversation.item.create',
              item: { type: 'function_call_output', call_id: out.callId, output: out.output },
            });
          if (batch.respond) this.send({ type: 'response.create' });
          this.o.meter?.outputsSent(batch.tool_ms ?? 0, Date.now());
        }
        if (this.sent < this.asked) await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(OUTBOX_POLL_MS, pause * 2);
      }
    } finally {
      this.polling = false;
    }
  }
}
