/**
 * A loopback fake of OpenAI's Realtime API over SIP (https://platform.openai.com/docs/guides/realtime-sip),
 * driven by the real `openai` package and `ws` of the service:
 * - the simulated SIP leg: `POST /sim/sip/calls` `{to, headers, caller}` (what Twilio's `<Dial><Sip>` is
 *   for a live call: src/activities/realtime.ts `ringRealtimeSimulation`) makes a call `rtc_fake_<random>_<n>` and
 *   sends the project's webhook `realtime.call.incoming` to `webhookUrl`, signed as OpenAI signs it
 *   (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` over
 *   `<id>.<timestamp>.<body>` with the base64 key of `whsec_…`);
 * - REST: `POST /v1/realtime/calls/{id}/accept|reject|hangup|refer` (`acceptStatus` makes accept answer
 *   an error status instead; `sessionError` makes the session send an `error` event at once);
 * - the sideband socket `GET /v1/realtime?call_id=…` (a bearer key required) speaking the documented server
 *   events, typed by the package's `RealtimeServerEvent`: `session.created`; a `response.create` whose
 *   instructions say `exactly: "<text>"` is answered with that text (the greeting); then each caller line
 *   as `conversation.item.input_audio_transcription.completed`, answered like the fake LLM answers
 *   (test/support/fake-llm.ts): `TOOL <name> <json>` (several joined by ` && `) → `response.done` with a
 *   `function_call` item each, then, once their `function_call_output`s and a `response.create` came,
 *   "Tool said: <outputs>"; `WAIT <ms>` → nothing said for that long; anything else → "You said: <text>"
 *   (`response.output_audio_transcript.done`, `response.done`). When the lines are over the caller hangs
 *   up (the socket closes); `hangup` and a successful `refer` close it too.
 * - the caller's barge-ins (`bargeIns` of the simulated leg, a call's `simulation.barge_ins`): the answer
 *   before line `line` is cut as OpenAI cuts it for a SIP call: `response.created`, the words ("One moment,
 *   please." first for function calls), `input_audio_buffer.speech_started`, `response.done` with status
 *   `cancelled` (its function calls in it), `conversation.item.truncated` after the audio of `heard`
 *   (`REALTIME_SPEECH_MS_PER_CHAR` a character); the function calls' outputs are awaited, no answer after them.
 * - drops: `dropSocket` `once` terminates the first socket of a call (no close frame: code 1006) after the
 *   answer to caller line `dropAfterLine`, and the next socket of the call goes on with the next line;
 *   `always` terminates every later socket at once too. With `dropWhileCalls`, a line that asks for
 *   function calls is cut instead just after their `response.done` (20 ms on): their outputs are awaited
 *   on the call's next socket (as OpenAI keeps the conversation), then answered.
 * - Timing and usage as a session has them (`timing`): each caller line is `input_audio_buffer.speech_started`,
 *   the line spoken (`speechMs`), the VAD's silence (`silenceMs`, announced in `session.created`'s
 *   `turn_detection`), `speech_stopped` with `audio_end_ms` on the session's audio clock (from the socket's
 *   opening, silence included, as documented) and `committed`; then `response.created`, the transcript
 *   after `transcribeMs`, the first `response.output_audio.delta` and transcript delta after `modelMs`
 *   (the model's time), the rest of the audio, `response.done`. Every `response.done` carries
 *   `response.usage`: input tokens (text: the instructions and the conversation's words; audio: the
 *   caller's speech so far, 10 tokens a second; cached: the previous response's input, in blocks of 64)
 *   and output tokens (text: the transcript; audio: 20 tokens a second of speech, 70 ms a character).
 * Every REST request and client event is kept for assertions.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  RealtimeClientEvent,
  RealtimeConversationItemAssistantMessage,
  RealtimeResponseUsage,
  RealtimeServerEvent,
} from 'openai/resources/realtime/realtime';
import { WebSocketServer, type WebSocket } from 'ws';
import { REALTIME_SPEECH_MS_PER_CHAR } from '../../src/shared/realtime';

/** One call of the fake, from its simulated INVITE on. */
export interface FakeRealtimeCall {
  id: string;
  headers: Record<string, string>;
  caller: string[];
  bargeIns: { line: number; heard?: string }[];
  state: 'ringing' | 'accepted' | 'rejected' | 'ended' | 'referred';
  accept?: Record<string, unknown>;
  /** `refer` requests' bodies (`{target_uri}`), in order. */
  refers: { target_uri: string }[];
  /** Sideband sockets opened so far, and the next caller line to say. */
  attaches: number;
  next: number;
  /**
   * Function calls of an answer whose outputs have not all come: a socket that drops meanwhile leaves them
   * pending, and the next socket of the call waits for their outputs (OpenAI keeps the conversation).
   */
  pendingCalls: FakeFunctionCall[] | null;
  /** Client events the sideband received, in order. */
  clientEvents: RealtimeClientEvent[];
  /** Transcripts the fake "model" said, in order. */
  said: string[];
  /** Per function call answered: its `response.done` sent → the `response.create` after its output came (ms). */
  toolRoundTrips: number[];
  socket?: WebSocket;
}

export interface FakeRealtime {
  /** The REST and WebSocket base (`OPENAI_REALTIME_BASE_URL`). */
  baseUrl: string;
  /** The simulated SIP leg's base (`OPENAI_REALTIME_SIMULATOR_URL`). */
  simulatorUrl: string;
  webhookSecret: string;
  /** Where the webhook goes (set by the test: the API's `/openai/realtime/webhook`). */
  webhookUrl: string;
  /** Answer accept with this status (e.g. 500); null: accept. */
  acceptStatus: number | null;
  /** The session sends an `error` event instead of the greeting (a session that fails before its first answer). */
  sessionError: boolean;
  /** Answer refer with this status (e.g. 500, 404); null: 200. */
  referStatus: number | null;
  /** Drop a call's socket (see above): `once`, `always`, or never (null); after caller line `dropAfterLine`. */
  dropSocket: 'once' | 'always' | null;
  dropAfterLine: number;
  /** Drop while line `dropAfterLine`'s function calls await their outputs, rather than after its answer. */
  dropWhileCalls: boolean;
  /** The session's pace (ms): see the header. Small by default (tests); `bench:voice` sets the model's time. */
  timing: FakeRealtimeTiming;
  /** Every `response.done`'s `response` (id and usage) the fake sent, in order. */
  responses: { callId: string; id: string; usage: RealtimeResponseUsage }[];
  calls: Map<string, FakeRealtimeCall>;
  requests: { method: string; path: string; body: unknown }[];
  /** Webhook deliveries and the status the service answered. */
  deliveries: { callId: string; status: number }[];
  /** The call rung for our call id (its `X-Svc-Call-Id` header), once rung. */
  callFor(svcCallId: string): FakeRealtimeCall | undefined;
  /** Signs a webhook body as OpenAI does (for tests that send their own). */
  sign(body: string, secret?: string): Record<string, string>;
  close(): Promise<void>;
}

/** The pace of the fake's sessions (ms). */
export interface FakeRealtimeTiming {
  /** How long the caller speaks a line (audio clock). */
  speechMs: number;
  /** The VAD's silence before `speech_stopped` (the session's `silence_duration_ms`). */
  silenceMs: number;
  /** `response.created` → the caller's transcript (`input_audio_transcription.completed`). */
  transcribeMs: number;
  /** `response.created` → the first audio delta (the model's time; at least `transcribeMs`). */
  modelMs: number;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Speech time of a text: 70 ms a character (about 150 words a minute). */
/** A `function_call` item of a response, as the fake's model makes it. */
type FakeFunctionCall = { type: 'function_call'; id: string; call_id: string; name: string; arguments: string };

const speechMsOf = (text: string) => text.length * 70;

/** Starts the fake on a free loopback port. */
export async function startFakeRealtime(): Promise<FakeRealtime> {
  const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
  let seq = 0;
  let ids = 0;
  const server = http.createServer((req, res) => void serve(req, res));
  const wss = new WebSocketServer({ noServer: true });
  const fake: FakeRealtime = {
    baseUrl: '',
    simulatorUrl: '',
    webhookSecret,
    webhookUrl: '',
    acceptStatus: null,
    sessionError: false,
    referStatus: null,
    dropSocket: null,
    dropAfterLine: 0,
    dropWhileCalls: false,
    timing: { speechMs: 20, silenceMs: 30, transcribeMs: 5, modelMs: 25 },
    responses: [],
    calls: new Map(),
    requests: [],
    deliveries: [],
    callFor: (svcCallId) => [...fake.calls.values()].find((c) => Object.values(c.headers).includes(svcCallId)),
    sign: (body, secret = webhookSecret) => {
      const id = `msg_${crypto.randomBytes(8).toString('hex')}`;
      const ts = String(Math.floor(Date.now() / 1000));
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const sig = crypto.createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
      return { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sig}` };
    },
    close: async () => {
      for (const c of fake.calls.values()) c.socket?.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  async function readJson(req: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : {};
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readJson(req);
    fake.requests.push({ method: req.method ?? '', path: url.pathname, body });
    if (req.method === 'POST' && url.pathname === '/sim/sip/calls') {
      const b = body as { headers: Record<string, string>; caller: string[]; bargeIns?: FakeRealtimeCall['bargeIns'] };
      const call: FakeRealtimeCall = {
        // Unique across fakes (as OpenAI's are): a test file's calls never share ids (nor usage rows) with another's.
        id: `rtc_fake_${crypto.randomBytes(5).toString('hex')}_${++seq}`,
        headers: b.headers ?? {},
        caller: b.caller ?? [],
        bargeIns: b.bargeIns ?? [],
        refers: [],
        attaches: 0,
        next: 0,
        pendingCalls: null,
        state: 'ringing',
        clientEvents: [],
        said: [],
        toolRoundTrips: [],
      };
      fake.calls.set(call.id, call);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: call.id }));
      void sendWebhook(call);
      return;
    }
    const m = /^\/v1\/realtime\/calls\/([^/]+)\/(accept|reject|hangup|refer)$/.exec(url.pathname);
    const call = m ? fake.calls.get(m[1]) : undefined;
    if (!m || !call || req.method !== 'POST') {
      const error = {
        message: 'No session found for the provided call_id',
        type: 'invalid_request_error',
        code: 'call_id_not_found',
      };
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return;
    }
    if (m[2] === 'accept' && fake.acceptStatus !== null) {
      const error = { message: 'The server had an error', type: 'server_error', code: null };
      res.writeHead(fake.acceptStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return;
    }
    if (m[2] === 'refer' && fake.referStatus !== null) {
      const error = { message: 'The refer failed', type: 'server_error', code: null };
      res.writeHead(fake.referStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return;
    }
    if (m[2] === 'refer') {
      call.refers.push(body as { target_uri: string });
      call.state = 'referred';
      call.socket?.close();
    } else if (m[2] === 'accept') {
      call.state = 'accepted';
      call.accept = body as Record<string, unknown>;
    } else if (m[2] === 'reject') call.state = 'rejected';
    else if (m[2] === 'hangup') {
      call.state = 'ended';
      call.socket?.close();
    }
    res.writeHead(200).end();
  }

  async function sendWebhook(call: FakeRealtimeCall): Promise<void> {
    const event = {
      object: 'event',
      id: `evt_${crypto.randomBytes(8).toString('hex')}`,
      type: 'realtime.call.incoming',
      created_at: Math.floor(Date.now() / 1000),
      data: {
        call_id: call.id,
        sip_headers: [
          { name: 'From', value: 'sip:+15005550006@sip.twilio.com' },
          { name: 'To', value: 'sip:proj_fake@sip.api.openai.com' },
          { name: 'Call-ID', value: crypto.randomUUID() },
          ...Object.entries(call.headers).map(([name, value]) => ({ name, value })),
        ],
      },
    };
    const text = JSON.stringify(event);
    const res = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fake.sign(text) },
      body: text,
    });
    fake.deliveries.push({ callId: call.id, status: res.status });
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const call = fake.calls.get(url.searchParams.get('call_id') ?? '');
    if (url.pathname !== '/v1/realtime' || !call || call.state !== 'accepted' || !req.headers.authorization) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => void converse(call, ws));
  });

  /**
   * The session: the greeting when asked for (first socket only), then the caller's lines from where the
   * call is, then the caller's hang-up.
   */
  async function converse(call: FakeRealtimeCall, ws: WebSocket): Promise<void> {
    call.socket = ws;
    call.attaches++;
    const id = (p: string) => `${p}_${++ids}`;
    const openedMs = Date.now();
    const audioMs = () => Date.now() - openedMs;
    const pace = { ...fake.timing };
    /** The usage so far: the conversation's words and the caller's audio seconds (what each response reads). */
    const words = { text: String(call.accept?.instructions ?? '').length, audioMs: 0, lastInput: 0 };
    const usageOf = (said: string, spoken = true): RealtimeResponseUsage => {
      const text = Math.ceil(words.text / 4);
      const audio = Math.ceil(words.audioMs / 100);
      const cached = Math.floor(words.lastInput / 64) * 64;
      const outText = Math.ceil(said.length / 4);
      const outAudio = spoken ? Math.ceil(speechMsOf(said) / 50) : 0;
      words.lastInput = text + audio;
      words.text += said.length;
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
    };
    const responseDone = (response: Extract<RealtimeServerEvent, { type: 'response.done' }>['response']) => {
      fake.responses.push({ callId: call.id, id: response.id!, usage: response.usage! });
      send({ type: 'response.done', event_id: id('event'), response });
    };
    const inbox: RealtimeClientEvent[] = [];
    let wake: () => void = () => undefined;
    let responseAskedMs = 0;
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as RealtimeClientEvent;
      if (event.type === 'response.create') responseAskedMs = Date.now();
      call.clientEvents.push(event);
      inbox.push(event);
      wake();
    });
    const closed = new Promise<void>((r) => ws.on('close', () => r()));
    const send = (event: RealtimeServerEvent) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
    };
    /** The next client event matching `test`, or null after `ms` (or once the socket closed). */
    const next = async (test: (e: RealtimeClientEvent) => boolean, ms: number): Promise<RealtimeClientEvent | null> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const i = inbox.findIndex(test);
        if (i >= 0) return inbox.splice(i, 1)[0];
        if (Date.now() >= deadline || ws.readyState !== ws.OPEN) return null;
        await Promise.race([new Promise<void>((r) => (wake = r)), wait(deadline - Date.now()), closed]);
      }
    };
    const transcriptDone = (responseId: string, itemId: string, text: string) => {
      call.said.push(text);
      send({
        type: 'response.output_audio_transcript.done',
        event_id: id('event'),
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        transcript: text,
      });
    };
    const message = (itemId: string, text: string): RealtimeConversationItemAssistantMessage => ({
      type: 'message',
      role: 'assistant',
      id: itemId,
      content: [{ type: 'output_audio', transcript: text }],
    });
    /** A response's start: `response.created` (its id). */
    const created = (): string => {
      const responseId = id('resp');
      send({
        type: 'response.created',
        event_id: id('event'),
        response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [] },
      });
      return responseId;
    };
    /** The model speaks `text` as response `responseId` (already created `sinceMs` ago): audio, transcript, done. */
    const say = async (text: string, responseId = created(), sinceMs = 0) => {
      const itemId = id('item');
      await wait(Math.max(0, pace.modelMs - sinceMs));
      const delta = {
        event_id: id('event'),
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
      };
      send({ type: 'response.output_audio.delta', ...delta, delta: Buffer.alloc(160, 0xff).toString('base64') });
      send({ type: 'response.output_audio_transcript.delta', ...delta, event_id: id('event'), delta: text });
      await wait(5);
      send({
        type: 'response.output_audio.delta',
        ...delta,
        event_id: id('event'),
        delta: Buffer.alloc(160, 0xff).toString('base64'),
      });
      send({ type: 'response.output_audio.done', ...delta, event_id: id('event') });
      transcriptDone(responseId, itemId, text);
      responseDone({
        id: responseId,
        object: 'realtime.response',
        status: 'completed',
        output: [message(itemId, text)],
        usage: usageOf(text),
      });
    };
    type Fc = FakeFunctionCall;
    /** The function calls' outputs, once all came (null: the socket closed first). */
    const outputsOf = async (calls: Fc[]): Promise<string[] | null> => {
      const outputs: string[] = [];
      for (const fc of calls) {
        const out = await next(
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
    };
    /**
     * An answer (response `responseId`, already created) the caller cuts after hearing `heard` of its words,
     * as OpenAI cuts one on a SIP call.
     */
    const interruptedAnswer = (responseId: string, text: string, calls: Fc[], heard: string) => {
      const itemId = id('item');
      send({
        type: 'response.output_item.added',
        event_id: id('event'),
        response_id: responseId,
        output_index: 0,
        item: { type: 'message', role: 'assistant', id: itemId, content: [] },
      });
      transcriptDone(responseId, itemId, text);
      send({
        type: 'input_audio_buffer.speech_started',
        event_id: id('event'),
        item_id: id('item'),
        audio_start_ms: audioMs(),
      });
      responseDone({
        id: responseId,
        object: 'realtime.response',
        status: 'cancelled',
        status_details: { type: 'cancelled', reason: 'turn_detected' },
        output: [message(itemId, text), ...calls],
        usage: usageOf(heard),
      });
      send({
        type: 'conversation.item.truncated',
        event_id: id('event'),
        item_id: itemId,
        content_index: 0,
        audio_end_ms: heard.length * REALTIME_SPEECH_MS_PER_CHAR,
      });
    };
    /**
     * The caller says `line`: speech, the VAD's silence, `speech_stopped`, the response created at once and
     * the transcript `transcribeMs` later; returns the response's id and how long ago it was created.
     */
    const hear = async (line: string): Promise<{ responseId: string; sinceMs: number }> => {
      const itemId = id('item');
      send({
        type: 'input_audio_buffer.speech_started',
        event_id: id('event'),
        item_id: itemId,
        audio_start_ms: audioMs(),
      });
      await wait(pace.speechMs + pace.silenceMs);
      words.audioMs += pace.speechMs;
      send({
        type: 'input_audio_buffer.speech_stopped',
        event_id: id('event'),
        item_id: itemId,
        audio_end_ms: audioMs(),
      });
      send({ type: 'input_audio_buffer.committed', event_id: id('event'), item_id: itemId, previous_item_id: null });
      const responseId = created();
      const transcribe = Math.min(pace.transcribeMs, pace.modelMs);
      await wait(transcribe);
      words.text += line.length;
      send({
        type: 'conversation.item.input_audio_transcription.completed',
        event_id: id('event'),
        item_id: itemId,
        content_index: 0,
        transcript: line,
        usage: { type: 'duration', seconds: Math.max(1, Math.ceil(pace.speechMs / 1000)) },
      });
      return { responseId, sinceMs: transcribe };
    };
    /**
     * Answers caller line `i` as response `responseId` (created `sinceMs` ago); false when the call is over
     * (a tool ended it, the socket closed).
     */
    const answer = async (i: number, { responseId, sinceMs }: { responseId: string; sinceMs: number }) => {
      const line = call.caller[i];
      const barge = call.bargeIns.find((b) => b.line === i + 1);
      const tools = line.split(' && ').map((part) => /^TOOL (\S+)\s*(.*)$/s.exec(part));
      if (!tools.every((t) => t !== null)) {
        if (barge) interruptedAnswer(responseId, `You said: ${line}`, [], barge.heard ?? '');
        else await say(`You said: ${line}`, responseId, sinceMs);
        return true;
      }
      const calls: Fc[] = tools.map((t) => ({
        type: 'function_call',
        id: id('item'),
        call_id: id('fc'),
        name: t![1],
        arguments: t![2] || '{}',
      }));
      if (barge) {
        interruptedAnswer(responseId, 'One moment, please.', calls, barge.heard ?? '');
        return (await outputsOf(calls)) !== null; // told not run; the caller is talking: no answer after them
      }
      await wait(Math.max(0, pace.modelMs - sinceMs));
      responseDone({
        id: responseId,
        object: 'realtime.response',
        status: 'completed',
        output: calls,
        usage: usageOf(calls.map((c) => `${c.name}${c.arguments}`).join(''), false),
      });
      if (fake.dropSocket !== null && fake.dropWhileCalls && fake.dropAfterLine === i && call.attaches === 1) {
        call.pendingCalls = calls;
        await wait(20); // the `response.done` reaches the service first
        ws.terminate(); // no close frame: code 1006
        return false;
      }
      return await finishCalls(calls);
    };
    /**
     * Waits for the outputs of `calls` (pending until all came, also for the call's next socket), then for
     * `response.create`, and answers with them; false when the call is over.
     */
    const finishCalls = async (calls: Fc[]): Promise<boolean> => {
      const askedMs = Date.now();
      call.pendingCalls = calls;
      const outputs = await outputsOf(calls);
      if (!outputs) return false;
      call.pendingCalls = null;
      const respond = await next((e) => e.type === 'response.create', 2_000);
      if (!respond) return false; // a tool that ended the call: no answer after it; the hang-up comes
      call.toolRoundTrips.push(responseAskedMs - askedMs);
      await say(`Tool said: ${outputs.join(' ')}`);
      return true;
    };

    send({
      type: 'session.created',
      event_id: id('event'),
      session: {
        type: 'realtime',
        model: String(call.accept?.model ?? 'gpt-realtime'),
        audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: pace.silenceMs } } },
      },
    });
    if (fake.sessionError) {
      send({
        type: 'error',
        event_id: id('event'),
        error: { type: 'server_error', code: 'session_failed', message: 'The session failed.' },
      });
      return;
    }
    if (fake.dropSocket === 'always' && call.attaches > 1) {
      ws.terminate();
      return;
    }
    if (call.attaches === 1) {
      const greeting = await next((e) => e.type === 'response.create', 500);
      const quoted = /exactly: (".*")$/s.exec(
        greeting?.type === 'response.create' ? (greeting.response?.instructions ?? '') : '',
      );
      if (quoted) await say(JSON.parse(quoted[1]) as string);
    } else if (call.pendingCalls) {
      // A socket dropped while the function calls of line `call.next` were running: their outputs come here.
      if (!(await finishCalls(call.pendingCalls))) return;
      call.next++;
    }
    while (call.next < call.caller.length) {
      const i = call.next;
      const line = call.caller[i];
      if (ws.readyState !== ws.OPEN) return;
      const pause = /^WAIT (\d+)$/.exec(line);
      if (pause) {
        await Promise.race([wait(Number(pause[1])), closed]);
        call.next = i + 1;
        continue;
      }
      if (!(await answer(i, await hear(line)))) return;
      call.next = i + 1;
      if (fake.dropSocket !== null && fake.dropAfterLine === i && call.attaches === 1) {
        await wait(50);
        ws.terminate(); // no close frame: the service sees code 1006
        return;
      }
    }
    await wait(50);
    if (ws.readyState === ws.OPEN) ws.close(); // the caller hangs up
    call.state = 'ended';
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.simulatorUrl = `http://127.0.0.1:${port}/sim`;
  return fake;
}
