/**
 * One sideband socket of the loopback fake of OpenAI's Realtime API (test/support/fake-openai-realtime.ts
 * says what it plays), by concern:
 * - the wire: client events received (kept on the call, awaited by `next`), server events sent;
 * - the pace (`FakeRealtimeTiming`): the caller's line heard (speech, the VAD's silence, the transcript),
 *   the model's answer spoken (its first audio `modelMs` after `response.created`);
 * - function calls: their `response.done`, their outputs awaited (also by the call's next socket), the
 *   answer after them;
 * - barge-ins: an answer cut as OpenAI cuts one on a SIP call;
 * - drops: the socket terminated (code 1006) where the fake's `dropSocket` says;
 * - usage (`SessionUsage`): what each `response.done`'s `usage` counts.
 */
import type {
  RealtimeClientEvent,
  RealtimeConversationItemAssistantMessage,
  RealtimeResponseUsage,
  RealtimeServerEvent,
} from 'openai/resources/realtime/realtime';
import type { WebSocket } from 'ws';
import { REALTIME_SPEECH_MS_PER_CHAR } from '../../src/shared/realtime';
import type { FakeFunctionCall, FakeRealtime, FakeRealtimeCall, FakeRealtimeTiming } from './fake-openai-realtime';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Speech time of a text: 70 ms a character (about 150 words a minute). */
const speechMsOf = (text: string) => text.length * 70;

type Response = Extract<RealtimeServerEvent, { type: 'response.done' }>['response'];

/**
 * A session's usage so far, as each `response.done` reports it: input tokens (text: the instructions and
 * the conversation's words, 4 characters a token; audio: the caller's speech so far, 10 tokens a second;
 * cached: the previous response's input, in blocks of 64) and output tokens (text: the transcript; audio:
 * 20 tokens a second of speech, 70 ms a character).
 */
export class SessionUsage {
  private text: number;
  private audioMs = 0;
  private lastInput = 0;

  constructor(instructions: string) {
    this.text = instructions.length;
  }

  /** The caller said `line`, speaking `speechMs`. */
  heard(line: string, speechMs: number): void {
    this.text += line.length;
    this.audioMs += speechMs;
  }

  /** The next response's usage: it said `said` (spoken aloud unless `spoken` is false). */
  of(said: string, spoken = true): RealtimeResponseUsage {
    const text = Math.ceil(this.text / 4);
    const audio = Math.ceil(this.audioMs / 100);
    const cached = Math.floor(this.lastInput / 64) * 64;
    const outText = Math.ceil(said.length / 4);
    const outAudio = spoken ? Math.ceil(speechMsOf(said) / 50) : 0;
    this.lastInput = text + audio;
    this.text += said.length;
    return {
      total_tokens: text + audio + outText + outAudio,
      input_tokens: text + audio,
      output_tokens: outText + outAudio,
      input_token_details: {
        text_tokens: text,
        audio_tokens: audio,
        image_tokens: 0,
        cached_tokens: Math.min(cached, text + audio),
        cached_tokens_details: {
          text_tokens: Math.min(cached, text),
          audio_tokens: Math.max(0, Math.min(cached, text + audio) - text),
          image_tokens: 0,
        },
      },
      output_token_details: { text_tokens: outText, audio_tokens: outAudio },
    };
  }
}

/** One socket's session: the greeting (first socket only), the caller's lines from where the call is, the hang-up. */
export class FakeRealtimeSession {
  private readonly openedMs = Date.now();
  private readonly pace: FakeRealtimeTiming;
  private readonly usage: SessionUsage;
  private readonly inbox: RealtimeClientEvent[] = [];
  private wake: () => void = () => undefined;
  private responseAskedMs = 0;
  private readonly closed: Promise<void>;

  /** @param id makes the fake's ids (`<prefix>_<n>`, unique across its calls) */
  constructor(
    private readonly fake: FakeRealtime,
    private readonly call: FakeRealtimeCall,
    private readonly ws: WebSocket,
    private readonly id: (prefix: string) => string,
  ) {
    call.socket = ws;
    call.attaches++;
    this.pace = { ...fake.timing };
    this.usage = new SessionUsage(String(call.accept?.instructions ?? ''));
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as RealtimeClientEvent;
      if (event.type === 'response.create') this.responseAskedMs = Date.now();
      call.clientEvents.push(event);
      this.inbox.push(event);
      this.wake();
    });
    this.closed = new Promise<void>((r) => ws.on('close', () => r()));
  }

  /** The session from `session.created` to the caller's hang-up (or the socket's close or drop). */
  async run(): Promise<void> {
    const { call, fake, ws } = this;
    this.send({
      type: 'session.created',
      event_id: this.id('event'),
      session: {
        type: 'realtime',
        model: String(call.accept?.model ?? 'gpt-realtime'),
        audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: this.pace.silenceMs } } },
      },
    });
    if (fake.sessionError) {
      this.send({
        type: 'error',
        event_id: this.id('event'),
        error: { type: 'server_error', code: 'session_failed', message: 'The session failed.' },
      });
      return;
    }
    if (fake.dropSocket === 'always' && call.attaches > 1) return this.drop();
    if (call.attaches === 1) await this.greet();
    else if (call.pendingCalls) {
      // A socket dropped while the function calls of line `call.next` were running: their outputs come here.
      if (!(await this.finishCalls(call.pendingCalls))) return;
      call.next++;
    }
    while (call.next < call.caller.length) {
      const i = call.next;
      const line = call.caller[i];
      if (ws.readyState !== ws.OPEN) return;
      const pause = /^WAIT (\d+)$/.exec(line);
      if (pause) {
        await Promise.race([wait(Number(pause[1])), this.closed]);
        call.next = i + 1;
        continue;
      }
      if (!(await this.answer(i, await this.hear(line)))) return;
      call.next = i + 1;
      if (this.dropsAfter(i)) {
        await wait(50);
        return this.drop();
      }
    }
    await wait(50);
    if (ws.readyState === ws.OPEN) ws.close(); // the caller hangs up
    call.state = 'ended';
  }

  // The wire.

  private send(event: RealtimeServerEvent): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.call.serverEvents.push(event);
    this.ws.send(JSON.stringify(event));
  }

  /** The next client event matching `test`, or null after `ms` (or once the socket closed). */
  private async next(test: (e: RealtimeClientEvent) => boolean, ms: number): Promise<RealtimeClientEvent | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.inbox.findIndex(test);
      if (i >= 0) return this.inbox.splice(i, 1)[0];
      if (Date.now() >= deadline || this.ws.readyState !== this.ws.OPEN) return null;
      await Promise.race([new Promise<void>((r) => (this.wake = r)), wait(deadline - Date.now()), this.closed]);
    }
  }

  private audioMs(): number {
    return Date.now() - this.openedMs;
  }

  private responseDone(response: Response): void {
    this.fake.responses.push({ callId: this.call.id, id: response.id!, usage: response.usage! });
    this.send({ type: 'response.done', event_id: this.id('event'), response });
  }

  private transcriptDone(responseId: string, itemId: string, text: string): void {
    this.call.said.push(text);
    this.send({
      type: 'response.output_audio_transcript.done',
      event_id: this.id('event'),
      response_id: responseId,
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      transcript: text,
    });
  }

  /** A response's start: `response.created` (its id). */
  private created(): string {
    const responseId = this.id('resp');
    this.send({
      type: 'response.created',
      event_id: this.id('event'),
      response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [] },
    });
    return responseId;
  }

  // The pace: the caller heard, the model speaking.

  /** The greeting, when the first `response.create` (within 500 ms) asks for it: `exactly: "<text>"`. */
  private async greet(): Promise<void> {
    const greeting = await this.next((e) => e.type === 'response.create', 500);
    const quoted = /exactly: (".*")$/s.exec(
      greeting?.type === 'response.create' ? (greeting.response?.instructions ?? '') : '',
    );
    if (quoted) await this.say(JSON.parse(quoted[1]) as string);
  }

  /**
   * The caller says `line`: speech, the VAD's silence, `speech_stopped`, the response created at once and
   * the transcript `transcribeMs` later; returns the response's id and how long ago it was created.
   */
  private async hear(line: string): Promise<{ responseId: string; sinceMs: number }> {
    const { pace } = this;
    const itemId = this.id('item');
    this.send({
      type: 'input_audio_buffer.speech_started',
      event_id: this.id('event'),
      item_id: itemId,
      audio_start_ms: this.audioMs(),
    });
    await wait(pace.speechMs + pace.silenceMs);
    this.send({
      type: 'input_audio_buffer.speech_stopped',
      event_id: this.id('event'),
      item_id: itemId,
      audio_end_ms: this.audioMs(),
    });
    this.send({
      type: 'input_audio_buffer.committed',
      event_id: this.id('event'),
      item_id: itemId,
      previous_item_id: null,
    });
    const responseId = this.created();
    const transcribe = Math.min(pace.transcribeMs, pace.modelMs);
    await wait(transcribe);
    this.usage.heard(line, pace.speechMs);
    this.send({
      type: 'conversation.item.input_audio_transcription.completed',
      event_id: this.id('event'),
      item_id: itemId,
      content_index: 0,
      transcript: line,
      usage: { type: 'duration', seconds: Math.max(1, Math.ceil(pace.speechMs / 1000)) },
    });
    return { responseId, sinceMs: transcribe };
  }

  /** The model speaks `text` as response `responseId` (already created `sinceMs` ago): audio, transcript, done. */
  private async say(text: string, responseId = this.created(), sinceMs = 0): Promise<void> {
    const itemId = this.id('item');
    await wait(Math.max(0, this.pace.modelMs - sinceMs));
    const delta = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
    const audio = () => Buffer.alloc(160, 0xff).toString('base64');
    this.send({ type: 'response.output_audio.delta', event_id: this.id('event'), ...delta, delta: audio() });
    this.send({ type: 'response.output_audio_transcript.delta', event_id: this.id('event'), ...delta, delta: text });
    await wait(5);
    this.send({ type: 'response.output_audio.delta', event_id: this.id('event'), ...delta, delta: audio() });
    this.send({ type: 'response.output_audio.done', event_id: this.id('event'), ...delta });
    this.transcriptDone(responseId, itemId, text);
    this.responseDone({
      id: responseId,
      object: 'realtime.response',
      status: 'completed',
      output: [message(itemId, text)],
      usage: this.usage.of(text),
    });
  }

  // Function calls.

  /**
   * Answers caller line `i` as response `responseId` (created `sinceMs` ago): `TOOL <name> <json>` (several
   * joined by ` && `) → function calls, anything else → "You said: <text>"; cut when the caller barges in
   * over it. False when the call is over (a tool ended it, the socket closed or dropped).
   */
  private async answer(i: number, { responseId, sinceMs }: { responseId: string; sinceMs: number }): Promise<boolean> {
    const { call } = this;
    const line = call.caller[i];
    const barge = call.bargeIns.find((b) => b.line === i + 1);
    const tools = line.split(' && ').map((part) => /^TOOL (\S+)\s*(.*)$/s.exec(part));
    if (!tools.every((t) => t !== null)) {
      if (barge) this.interruptedAnswer(responseId, `You said: ${line}`, [], barge.heard ?? '');
      else await this.say(`You said: ${line}`, responseId, sinceMs);
      return true;
    }
    const calls: FakeFunctionCall[] = tools.map((t) => ({
      type: 'function_call',
      id: this.id('item'),
      call_id: this.id('fc'),
      name: t![1],
      arguments: t![2] || '{}',
    }));
    if (barge) {
      this.interruptedAnswer(responseId, 'One moment, please.', calls, barge.heard ?? '');
      return (await this.outputsOf(calls)) !== null; // told not run; the caller is talking: no answer after them
    }
    await wait(Math.max(0, this.pace.modelMs - sinceMs));
    this.responseDone({
      id: responseId,
      object: 'realtime.response',
      status: 'completed',
      output: calls,
      usage: this.usage.of(calls.map((c) => `${c.name}${c.arguments}`).join(''), false),
    });
    if (this.dropsWhileCalls(i)) {
      call.pendingCalls = calls;
      await wait(20); // the `response.done` reaches the service first
      this.drop();
      return false;
    }
    return await this.finishCalls(calls);
  }

  /** The function calls' outputs, once all came (null: the socket closed first). */
  private async outputsOf(calls: FakeFunctionCall[]): Promise<string[] | null> {
    const outputs: string[] = [];
    for (const fc of calls) {
      const out = await this.next(
        (e) =>
          e.type === 'conversation.item.create' &&
          e.item.type === 'function_call_output' &&
          e.item.call_id === fc.call_id,
        15_000,
      );
      if (!out || out.type !== 'conversation.item.create' || out.item.type !== 'function_call_output') return null;
      outputs.push(out.item.output);
    }
    return outputs;
  }

  /**
   * Waits for the outputs of `calls` (pending until all came, also for the call's next socket), then for
   * `response.create`, and answers with them; false when the call is over.
   */
  private async finishCalls(calls: FakeFunctionCall[]): Promise<boolean> {
    const { call } = this;
    const askedMs = Date.now();
    call.pendingCalls = calls;
    const outputs = await this.outputsOf(calls);
    if (!outputs) return false;
    call.pendingCalls = null;
    const respond = await this.next((e) => e.type === 'response.create', 2_000);
    if (!respond) return false; // a tool that ended the call: no answer after it; the hang-up comes
    call.toolRoundTrips.push(this.responseAskedMs - askedMs);
    await this.say(`Tool said: ${outputs.join(' ')}`);
    return true;
  }

  // Barge-ins.

  /**
   * An answer (response `responseId`, already created) the caller cuts after hearing `heard` of its words,
   * as OpenAI cuts one on a SIP call: the words, `speech_started`, `response.done` `cancelled` (its function
   * calls in it), `conversation.item.truncated` after the audio of `heard`.
   */
  private interruptedAnswer(responseId: string, text: string, calls: FakeFunctionCall[], heard: string): void {
    const itemId = this.id('item');
    this.send({
      type: 'response.output_item.added',
      event_id: this.id('event'),
      response_id: responseId,
      output_index: 0,
      item: { type: 'message', role: 'assistant', id: itemId, content: [] },
    });
    this.transcriptDone(responseId, itemId, text);
    this.send({
      type: 'input_audio_buffer.speech_started',
      event_id: this.id('event'),
      item_id: this.id('item'),
      audio_start_ms: this.audioMs(),
    });
    this.responseDone({
      id: responseId,
      object: 'realtime.response',
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'turn_detected' },
      output: [message(itemId, text), ...calls],
      usage: this.usage.of(heard),
    });
    this.send({
      type: 'conversation.item.truncated',
      event_id: this.id('event'),
      item_id: itemId,
      content_index: 0,
      audio_end_ms: heard.length * REALTIME_SPEECH_MS_PER_CHAR,
    });
  }

  // Drops.

  /** The first socket drops after the answer to line `i` (`dropSocket`, `dropAfterLine`). */
  private dropsAfter(i: number): boolean {
    return this.fake.dropSocket !== null && this.fake.dropAfterLine === i && this.call.attaches === 1;
  }

  /** The first socket drops while line `i`'s function calls await their outputs (`dropWhileCalls`). */
  private dropsWhileCalls(i: number): boolean {
    return this.fake.dropWhileCalls && this.dropsAfter(i);
  }

  /** No close frame: the service sees code 1006. */
  private drop(): void {
    this.ws.terminate();
  }
}

/** An assistant message item of `text` (its audio's transcript). */
function message(itemId: string, text: string): RealtimeConversationItemAssistantMessage {
  return { type: 'message', role: 'assistant', id: itemId, content: [{ type: 'output_audio', transcript: text }] };
}
