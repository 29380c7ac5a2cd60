/**
 * Twilio's side of a live call (not under `/v1`: Twilio authenticates with `X-Twilio-Signature`, HMAC-SHA1
 * of the full URL and the POST parameters with the auth token, checked by `twilio.validateRequest`;
 * https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 *
 * - `POST /twilio/voice/{call id}`: TwiML for the answered call: `<Connect><ConversationRelay>` pointing
 *   at our WebSocket, with the agent's `first_message` as the welcome greeting.
 * - `POST /twilio/status/{call id}`: status callbacks (`CallStatus`), signalled to the call's workflow
 *   (`telephonyStatus`): answered, busy, no-answer, failed, completed...
 * - WebSocket `/twilio/relay/{call id}`: ConversationRelay (Twilio does speech-to-text and text-to-speech;
 *   https://www.twilio.com/docs/voice/conversationrelay/websocket-messages). Each final `prompt` (and each
 *   `dtmf` digit) becomes a `callerSaid` Workflow Update; its result is sent back as a `text` message,
 *   followed by `end` once the call is over.
 *
 * A request whose signature does not verify gets 403 and changes nothing.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express, { Router, type Request } from 'express';
import twilio from 'twilio';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { config } from '../config';
import { Agent } from '../models/agents';
import { Call } from '../models/calls';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { callerSaidUpdate, telephonyStatusSignal, type TelephonyStatus } from '../shared/calls';
import { twilioMessagingRouter } from './twilio-messaging';

const RELAY_PATH = /^\/twilio\/relay\/(call_[0-9a-z]{26})$/;

/** The public URL Twilio used for a request to `path` (its signature covers it). */
function publicUrl(path: string, ws = false): string {
  const base = config().publicBaseUrl;
  return (ws ? base.replace(/^http/, 'ws') : base) + path;
}

/** True when `signature` is Twilio's for `url` and `params`. */
function signatureValid(signature: string | undefined, url: string, params: Record<string, unknown>): boolean {
  const token = config().twilioAuthToken;
  return Boolean(token && signature && twilio.validateRequest(token, signature, url, params));
}

/** Routes under `/twilio`. */
export function twilioRouter(temporal: Client): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '64kb' }));
  router.use((req, _res, next) => {
    if (!signatureValid(req.get('X-Twilio-Signature'), publicUrl(req.originalUrl), req.body ?? {})) {
      return next(new ApiError(403, 'permission_error', 'twilio_signature_invalid', 'The X-Twilio-Signature header does not verify.'));
    }
    next();
  });
  router.use('/messaging', twilioMessagingRouter(temporal));

  /** `POST /twilio/voice/{id}` → TwiML connecting the call to ConversationRelay. */
  router.post('/voice/:callId', async (req: Request, res) => {
    const call = await Call.findOne({ _id: String(req.params.callId), livemode: true }).lean();
    const response = new twilio.twiml.VoiceResponse();
    if (!call) {
      response.hangup();
    } else {
      const agent = await Agent.findById(call.agent_id).lean();
      const connect = response.connect();
      connect.conversationRelay({
        url: publicUrl(`/twilio/relay/${call._id}`, true),
        ...(agent?.first_message ? { welcomeGreeting: agent.first_message } : {}),
      });
    }
    res.type('text/xml').send(response.toString());
  });

  /** `POST /twilio/status/{id}` (form: `CallStatus`, `CallSid`) → 204; signals the call's workflow. */
  router.post('/status/:callId', async (req: Request, res) => {
    const callId = String(req.params.callId);
    const body = (req.body ?? {}) as Record<string, string>;
    const known: TelephonyStatus['status'][] = ['ringing', 'in-progress', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'completed'];
    const status = body.CallStatus as TelephonyStatus['status'];
    if (known.includes(status)) {
      try {
        await temporal.workflow.getHandle(callId).signal(telephonyStatusSignal, { status, providerCallSid: body.CallSid });
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // a late callback for a call that is over
      }
    }
    res.status(204).end();
  });

  return router;
}

/**
 * Serves the ConversationRelay WebSocket on `server` (upgrade requests to `/twilio/relay/{call id}`).
 * The handshake must carry a valid `X-Twilio-Signature` for the wss URL, else it is refused with 403.
 */
export function attachConversationRelay(server: http.Server, temporal: Client): void {
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const m = RELAY_PATH.exec((req.url ?? '').split('?')[0]);
    if (!m) return void socket.destroy();
    const signature = req.headers['x-twilio-signature'];
    if (!signatureValid(typeof signature === 'string' ? signature : undefined, publicUrl(req.url ?? '', true), {})) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => relaySession(ws, m[1], temporal));
  });
}

function relaySession(ws: WebSocket, callId: string, temporal: Client): void {
  const handle = temporal.workflow.getHandle(callId);
  let sessionId = 'session';
  let seq = 0;
  let partial = '';
  let queue = Promise.resolve();
  const send = (msg: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(msg));

  /** Hands one utterance to the workflow (in order) and speaks its answer. */
  const hear = (text: string) => {
    const updateId = `${sessionId}:${++seq}`;
    queue = queue.then(async () => {
      try {
        const result = await handle.executeUpdate(callerSaidUpdate, { args: [{ text }], updateId });
        if (result.text) send({ type: 'text', token: result.text, last: true });
        // The call is over (the assistant ended it): end the session after the last words; Twilio then
        // runs out of TwiML, hangs up and reports `completed` to the workflow.
        if (result.ended) send({ type: 'end', handoffData: JSON.stringify({ reason: 'call_ended' }) });
      } catch (err) {
        logger.info('relay: the call no longer takes speech', { call_id: callId, error: (err as Error).message });
        send({ type: 'end' });
      }
    });
  };

  ws.on('message', (raw) => {
    let msg: { type?: string; sessionId?: string; voicePrompt?: string; last?: boolean; digit?: string; description?: string };
    try {
      msg = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (msg.type === 'setup' && msg.sessionId) sessionId = msg.sessionId;
    else if (msg.type === 'prompt') {
      partial += msg.voicePrompt ?? '';
      if (msg.last !== false) {
        const text = partial.trim();
        partial = '';
        if (text) hear(text);
      }
    } else if (msg.type === 'dtmf' && msg.digit) hear(`DTMF ${msg.digit}`);
    else if (msg.type === 'error') logger.warn('relay: ConversationRelay reported an error', { call_id: callId, description: msg.description });
  });
}
