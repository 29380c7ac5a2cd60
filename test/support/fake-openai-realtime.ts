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
 * Every REST request and client event is kept for assertions. The socket's session is
 * test/support/fake-realtime-session.ts (`FakeRealtimeSession`, by concern: the wire, the pace, function
 * calls, barge-ins, drops, usage).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  RealtimeClientEvent,
  RealtimeResponseUsage,
  RealtimeServerEvent,
} from 'openai/resources/realtime/realtime';
import { WebSocketServer, type WebSocket } from 'ws';
import { FakeRealtimeSession } from './fake-realtime-session';

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
  /** Server events the fake sent the sideband, in order (every socket of the call). */
  serverEvents: RealtimeServerEvent[];
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

/** A `function_call` item of a response, as the fake's model makes it. */
export type FakeFunctionCall = { type: 'function_call'; id: string; call_id: string; name: string; arguments: string };

/** Starts the fake on a free loopback port. */
export async function startFakeRealtime(): Promise<FakeRealtime> {
  const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
  let seq = 0;
  let ids = 0;
  const id = (prefix: string) => `${prefix}_${++ids}`;
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
        serverEvents: [],
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
    wss.handleUpgrade(req, socket, head, (ws) => void new FakeRealtimeSession(fake, call, ws, id).run());
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.simulatorUrl = `http://127.0.0.1:${port}/sim`;
  return fake;
}
