/**
 * A loopback fake of OpenAI's Realtime API over SIP (https://platform.openai.com/docs/guides/realtime-sip),
 * driven by the real `openai` package and `ws` of the service:
 * - the simulated SIP leg: `POST /sim/sip/calls` `{to, headers, caller}` (what Twilio's `<Dial><Sip>` is
 *   for a live call: src/activities/realtime.ts `ringRealtimeSimulation`) makes a call `rtc_fake_<n>` and
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
 *   `always` terminates every later socket at once too.
 * Every REST request and client event is kept for assertions.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  RealtimeClientEvent,
  RealtimeConversationItemAssistantMessage,
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
  /** Client events the sideband received, in order. */
  clientEvents: RealtimeClientEvent[];
  /** Transcripts the fake "model" said, in order. */
  said: string[];
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

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on a free loopback port. */
export async function startFakeRealtime(): Promise<FakeRealtime> {
  const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
  let seq = 0;
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
        id: `rtc_fake_${++seq}`,
        headers: b.headers ?? {},
        caller: b.caller ?? [],
        bargeIns: b.bargeIns ?? [],
        refers: [],
        attaches: 0,
        next: 0,
        state: 'ringing',
        clientEvents: [],
        said: [],
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
    let n = 0;
    const id = (p: string) => `${p}_${call.attaches}_${++n}`;
    const inbox: RealtimeClientEvent[] = [];
    let wake: () => void = () => undefined;
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as RealtimeClientEvent;
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
    const say = (text: string) => {
      const responseId = id('resp');
      const itemId = id('item');
      transcriptDone(responseId, itemId, text);
      send({
        type: 'response.done',
        event_id: id('event'),
        response: { id: responseId, object: 'realtime.response', status: 'completed', output: [message(itemId, text)] },
      });
    };
    type Fc = { type: 'function_call'; id: string; call_id: string; name: string; arguments: string };
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
    /** An answer the caller cuts after hearing `heard` of its words, as OpenAI cuts one on a SIP call. */
    const interruptedAnswer = (text: string, calls: Fc[], heard: string) => {
      const responseId = id('resp');
      const itemId = id('item');
      send({
        type: 'response.created',
        event_id: id('event'),
        response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [] },
      });
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
        audio_start_ms: 0,
      });
      send({
        type: 'response.done',
        event_id: id('event'),
        response: {
          id: responseId,
          object: 'realtime.response',
          status: 'cancelled',
          status_details: { type: 'cancelled', reason: 'turn_detected' },
          output: [message(itemId, text), ...calls],
        },
      });
      send({
        type: 'conversation.item.truncated',
        event_id: id('event'),
        item_id: itemId,
        content_index: 0,
        audio_end_ms: heard.length * REALTIME_SPEECH_MS_PER_CHAR,
      });
    };
    /** Answers caller line `i`; false when the call is over (a tool ended it, the socket closed). */
    const answer = async (i: number): Promise<boolean> => {
      const line = call.caller[i];
      const barge = call.bargeIns.find((b) => b.line === i + 1);
      const tools = line.split(' && ').map((part) => /^TOOL (\S+)\s*(.*)$/s.exec(part));
      if (!tools.every((t) => t !== null)) {
        if (barge) interruptedAnswer(`You said: ${line}`, [], barge.heard ?? '');
        else say(`You said: ${line}`);
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
        interruptedAnswer('One moment, please.', calls, barge.heard ?? '');
        return (await outputsOf(calls)) !== null; // told not run; the caller is talking: no answer after them
      }
      send({
        type: 'response.done',
        event_id: id('event'),
        response: { id: id('resp'), object: 'realtime.response', status: 'completed', output: calls },
      });
      const outputs = await outputsOf(calls);
      if (!outputs) return false;
      const respond = await next((e) => e.type === 'response.create', 2_000);
      if (!respond) return false; // a tool that ended the call: no answer after it; the hang-up comes
      say(`Tool said: ${outputs.join(' ')}`);
      return true;
    };

    send({
      type: 'session.created',
      event_id: id('event'),
      session: { type: 'realtime', model: String(call.accept?.model ?? 'gpt-realtime') },
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
      if (quoted) say(JSON.parse(quoted[1]) as string);
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
      await wait(20);
      send({
        type: 'conversation.item.input_audio_transcription.completed',
        event_id: id('event'),
        item_id: id('item'),
        content_index: 0,
        transcript: line,
        usage: { type: 'duration', seconds: 1 },
      });
      if (!(await answer(i))) return;
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
