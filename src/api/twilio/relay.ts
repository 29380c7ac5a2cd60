/**
 * The ConversationRelay WebSocket of a live call: `/twilio/relay/{call id}?sid={CallSid}` (Twilio does
 * speech-to-text and text-to-speech; https://www.twilio.com/docs/voice/conversationrelay/websocket-messages),
 * the socket the TwiML of src/api/twilio/index.ts points at. Each final `prompt` becomes a `callerSaid`
 * Workflow Update; DTMF digits are batched into one utterance. The answer is sent back as a `text`
 * message (a late answer: the holding line first, then the answer through the `answer` update), followed
 * by `end` once the call is over. An `interrupt` (the caller talked over the answer) becomes the
 * workflow's `interrupted` signal, in order with the utterances; the assistant's `send_dtmf` keys come
 * through the token channel and go out as `sendDigits`. With a streaming model the answer's words reach
 * the socket as the model writes them (`last: false`), through the token channel of src/voice/relay.ts,
 * and the update's answer closes them (`last: true`).
 *
 * Every talk cycle is `preemptible` (the TwiML sets it for the session, src/api/twilio/index.ts), so a
 * line said with `interrupt` cuts the answer being heard at once. Twilio does not say when the speech of
 * a text ends, so a line said without `interrupt` waits for the estimated end of what was sent
 * (`speechMs`: characters at a speaking pace), or it too would cut the answer it must follow.
 *
 * Hostile input never takes the process down: every socket has an `error` listener, frames are at most
 * 64 KB, a caller's pending text at most 4,000 characters, and a handshake is accepted once per call, for
 * the call's own CallSid, while the call is live (a captured handshake cannot be replayed later).
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Client } from '@temporalio/client';
import { Call, RelaySession } from '../../models/calls';
import { isDuplicateKey } from '../../models/store';
import { logger } from '../../logger';
import { callWorkflowId, type CallerSaidResult } from '../../shared/calls';
import { relayTokenServer, type TokenSink } from '../../voice/relay';
import { voiceTurns } from '../../voice/turns';
import { sealSecret } from '../../secrets';
import { backchannelsFor, isBackchannel, type TurnTaking } from '../../shared/turn-taking';
import { paymentOf } from './payments';
import { failedTransfer, LIVE_STATUSES, publicUrl, relaySignatureValid } from './requests';

const RELAY_PATH = /^\/twilio\/relay\/(call_[0-9a-z]{26})$/;
/** Largest ConversationRelay frame accepted (bytes); Twilio's are far smaller. */
export const RELAY_MAX_FRAME_BYTES = 64 * 1024;
/** Most characters of caller speech buffered before an utterance is handed over (longer text is cut). */
export const RELAY_MAX_UTTERANCE_CHARS = 4_000;
/** DTMF digits are gathered into one utterance: sent this long after the last digit, or at `#`. */
export const DTMF_GATHER_MS = 1_500;
const DTMF_MAX_DIGITS = 32;
/**
 * Speaking pace assumed for text sent to ConversationRelay (ms per character): about 150 words a minute,
 * a little slow on purpose, since a line sent early cuts the end of the answer and one sent late only waits.
 */
export const SPEECH_MS_PER_CHAR = 70;
/** Time from a text's arrival at Twilio to its first audio (synthesis), assumed before its characters (ms). */
export const SPEECH_START_MS = 500;

/** How long Twilio takes to say `text` (ms), by `SPEECH_MS_PER_CHAR`. */
export const speechMs = (text: string): number => text.length * SPEECH_MS_PER_CHAR;

/** The ConversationRelay endpoint attached to an HTTP server. */
export interface ConversationRelay {
  /** Ends every open session (going away, 1001): on shutdown, before the server stops. */
  close(): void;
}

/**
 * Serves the ConversationRelay WebSocket on `server` (upgrade requests to `/twilio/relay/{call id}`).
 * The handshake must carry a valid `X-Twilio-Signature` for the wss URL (403 otherwise), name the call's
 * own CallSid while the call is live, and be the first for the call (409 otherwise).
 */
export function attachConversationRelay(server: http.Server, temporal: Client): ConversationRelay {
  const wss = new WebSocketServer({ noServer: true, maxPayload: RELAY_MAX_FRAME_BYTES });
  const tokens = relayTokenServer();
  wss.on('error', (err) => logger.warn('relay: server error', { error: err.message }));
  const refuse = (socket: Duplex, status: string) => socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a reset during the handshake is not our crash
    const [pathname, query = ''] = (req.url ?? '').split('?');
    const m = RELAY_PATH.exec(pathname);
    if (!m) return void socket.destroy();
    const signature = req.headers['x-twilio-signature'];
    const callId = m[1];
    const sid = new URLSearchParams(query).get('sid') ?? '';
    const resumeParam = new URLSearchParams(query).get('resume');
    const paymentParam = new URLSearchParams(query).get('payment');
    void (async () => {
      const call = await Call.findOne({ _id: callId, livemode: true }).lean();
      const signed =
        call &&
        (await relaySignatureValid(
          typeof signature === 'string' ? signature : undefined,
          publicUrl(req.url ?? '', true),
          call,
        ));
      if (!call || !signed || !LIVE_STATUSES.includes(call.status) || !sid || call.provider_call_sid !== sid)
        return refuse(socket, '403 Forbidden');
      const resume = resumeParam !== null ? failedTransfer(call, resumeParam) : undefined;
      if (resume === null) return refuse(socket, '403 Forbidden');
      const payment = paymentParam !== null && !resume ? paymentOf(call, paymentParam) : undefined;
      if (payment === null) return refuse(socket, '403 Forbidden');
      // The streamed words of answers come here until the session's socket is open, then to it.
      const sink: RelaySink = {
        token: (text) => sink.to?.(text),
        say: (text, interrupt) => sink.line?.(text, interrupt),
      };
      // Without the channel (its listener could not start) the answers are spoken whole, as before.
      const channel = await tokens.register(callId, sink).catch((err: Error) => {
        logger.warn('relay: token channel unavailable', { call_id: callId, error: err.message });
        return null;
      });
      const session = {
        provider_call_sid: sid,
        created_ms: Date.now(),
        stream_url: channel?.url ?? null,
        stream_token: channel ? sealSecret(channel.token) : null,
      };
      try {
        if (resume) {
          // A comeback from failed warm transfer `attempt`: accepted once, after every earlier one.
          const taken = await RelaySession.collection.updateOne(
            { _id: callId as never, $or: [{ resume: { $exists: false } }, { resume: { $lt: resume.attempt } }] },
            { $set: { ...session, resume: resume.attempt } },
          );
          if (taken.matchedCount === 0) {
            tokens.unregister(callId);
            return refuse(socket, '409 Conflict');
          }
        } else if (payment) {
          // A comeback from `<Pay>` (payment `attempt`): accepted once, after every earlier one.
          const taken = await RelaySession.collection.updateOne(
            {
              _id: callId as never,
              $or: [{ payment_resume: { $exists: false } }, { payment_resume: { $lt: payment.attempt } }],
            },
            { $set: { ...session, payment_resume: payment.attempt } },
          );
          if (taken.matchedCount === 0) {
            tokens.unregister(callId);
            return refuse(socket, '409 Conflict');
          }
        } else await RelaySession.collection.insertOne({ _id: callId as never, ...session });
      } catch (err) {
        tokens.unregister(callId);
        if (isDuplicateKey(err)) return refuse(socket, '409 Conflict'); // one session per call: no replay
        throw err;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('close', () => tokens.unregister(callId));
        relaySession(ws, callId, temporal, sink, callBackchannels(call.agent_json));
      });
    })().catch((err) => {
      logger.warn('relay: handshake failed', { call_id: callId, error: String(err) });
      refuse(socket, '503 Service Unavailable');
    });
  });
  return {
    close: () => {
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      void tokens.close();
    },
  };
}

/** The token channel's sink of one relay session: its socket's handlers once open (`to`, `line`). */
type RelaySink = TokenSink & {
  to?: (text: string) => void;
  line?: (text: string, interrupt: boolean) => void;
};

/**
 * One ConversationRelay session: utterances to the workflow in order, answers back. Words streamed by
 * the LLM activity (through `sink`) are sent as they come (`last: false`); the update's answer then only
 * closes them (`last: true`, empty) instead of saying them again. Lines said on the API's behalf
 * (through `sink.say`) are their own `text` message (`sayLine`).
 */
function relaySession(
  ws: WebSocket,
  callId: string,
  temporal: Client,
  sink: RelaySink,
  backchannels: readonly string[] | null,
): void {
  const handle = temporal.workflow.getHandle(callWorkflowId(callId));
  /** Words of the answer in the making already sent to Twilio (`last: false`). */
  let streamed = false;
  /** The holding line is the last thing said: an interruption then cuts no answer of the transcript. */
  let holding = false;
  /** When what was sent is likely heard out (ms since the epoch, an estimate: Twilio reports no end of speech). */
  let heardByMs = 0;
  /** Sends one `text` message, and counts its words into the estimate of when speech ends. */
  const sendText = (msg: { token: string; last: boolean; interruptible?: boolean; preemptible?: boolean }) => {
    if (msg.token) heardByMs = Math.max(heardByMs, Date.now() + SPEECH_START_MS) + speechMs(msg.token);
    send({ type: 'text', ...msg });
  };
  // Latency (src/shared/latency.ts): receipt of the caller's last utterance to the first streamed text
  // of its answer, on this process's clock; ConversationRelay's prompt tells no end of speech.
  let heardMs: number | null = null;
  let firstAudioMs: number | null = null;
  sink.to = (text) => {
    if (heardMs !== null) [firstAudioMs, heardMs] = [Date.now() - heardMs, null];
    streamed = true;
    holding = false;
    sendText({ token: text, last: false });
  };
  sink.firstAudioMs = () => {
    const timed = firstAudioMs;
    firstAudioMs = null;
    return timed;
  };
  // Keys the assistant presses (`send_dtmf`), streamed here by the `sendDigits` activity.
  sink.digits = (digits) => send({ type: 'sendDigits', digits });
  // A squad's hand-off to a member with another voice (the `switchVoice` activity): the words streamed so
  // far closed, the announcement (if any) its own talk cycle in the current voice, then the configuration
  // messages (src/shared/squads.ts `relayVoiceUpdate`), so the next member's words take the new voice.
  sink.voice = ({ announce, messages }) => {
    if (streamed) sendText({ token: '', last: true });
    streamed = false;
    if (announce) sendText({ token: announce, last: true });
    for (const message of messages) send(message);
  };
  const send = (msg: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(msg));
  ws.on('error', (err) => logger.warn('relay: socket error', { call_id: callId, error: err.message }));

  /** Speaks an update's result; returns true when the call is over. */
  const speak = (result: CallerSaidResult): boolean => {
    if (streamed || result.text) holding = false;
    if (streamed) sendText({ token: '', last: true });
    else if (result.text) sendText({ token: result.text, last: true });
    streamed = false;
    // The call is over (the assistant ended it): end the session after the last words; Twilio then
    // runs out of TwiML, hangs up and reports `completed` to the workflow.
    if (result.ended) send({ type: 'end', handoffData: JSON.stringify({ reason: 'call_ended' }) });
    return result.ended;
  };

  /**
   * A line said on the API's behalf (`POST /v1/calls/{id}/say`): without `interrupt`, once every utterance
   * so far is answered and the answer is likely heard out (`afterSpeech`), `interruptible` and
   * `preemptible` like speech of the assistant's (the caller, or the next answer, may cut it); with
   * `interrupt`, at once: a talk cycle of its own that pre-empts the answer being heard (every talk cycle
   * is `preemptible`), closing the words of an answer being streamed, neither `interruptible` nor
   * `preemptible` itself (heard whole).
   * (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages: text message fields.)
   */
  const sayLine = (text: string, interrupt: boolean) => {
    if (streamed) send({ type: 'text', token: '', last: true });
    streamed = false;
    if (interrupt) heardByMs = 0; // what was playing stops here
    sendText({ token: text, last: true, interruptible: !interrupt, preemptible: !interrupt });
  };
  /** Resolves at the next pause: every utterance answered and what was sent likely heard out. */
  const afterSpeech = async (): Promise<void> => {
    for (;;) {
      await turns.idle();
      const left = heardByMs - Date.now();
      if (left <= 0 || ws.readyState !== ws.OPEN) return;
      await new Promise((resolve) => setTimeout(resolve, left));
    }
  };
  sink.line = (text, interrupt) =>
    interrupt ? sayLine(text, true) : void afterSpeech().then(() => sayLine(text, false));

  const turns = voiceTurns(handle, callId, {
    hold: (line) => {
      if (streamed) return false;
      sendText({ token: line, last: true });
      holding = true;
      return true;
    },
    speak,
    end: () => send({ type: 'end' }),
  });
  /**
   * Calls with turn-taking settings (`backchannels` not null): an interruption waits for the caller's words,
   * is dropped when they are only a backchannel (which then goes to the workflow marked `over_speech`), and
   * is otherwise signalled at once, so the answer in the making drops its actions not started.
   */
  let cut: { spoken: string; durationMs?: number } | null = null;
  callerInput(ws, callId, {
    utterance: (text, key) => {
      [heardMs, firstAudioMs] = [Date.now(), null];
      if (!backchannels) return turns.hear(text, key);
      const over = cut !== null || heardByMs > Date.now();
      if (cut && !isBackchannel(text, backchannels)) turns.interrupt(cut, true);
      cut = null;
      turns.hear(text, key, over);
    },
    interrupt: (interruption) => {
      heardByMs = 0; // the caller talked over the speech: it stopped
      if (holding) return;
      if (backchannels) cut = interruption;
      else turns.interrupt(interruption);
    },
  });
}

/**
 * The backchannels of a call's agent snapshot (`agent_json`: src/shared/turn-taking.ts `backchannelsFor`
 * its language), or null for a call made before turn-taking settings (its interruptions go as they did).
 */
function callBackchannels(agentJson: string | null | undefined): readonly string[] | null {
  const agent = JSON.parse(agentJson ?? 'null') as { turn_taking?: TurnTaking; language?: string } | null;
  return agent?.turn_taking !== undefined ? backchannelsFor(agent.turn_taking, agent.language) : null;
}

/** What the caller's side of a session hands on: utterances (with their idempotency key) and barge-ins. */
interface CallerInputHandlers {
  utterance(text: string, key: string): void;
  interrupt(cut: { spoken: string; durationMs?: number }): void;
}

/**
 * The caller's side of one ConversationRelay session: `setup` names the session, final `prompt`s become
 * utterances keyed `<sessionId>:<n>` (at most `RELAY_MAX_UTTERANCE_CHARS`), DTMF digits are gathered into
 * one `DTMF <digits>` utterance (`DTMF_GATHER_MS` after the last, or at `#`), `interrupt` reports what
 * the caller heard before talking over the assistant, `error` is logged; anything else is ignored.
 */
function callerInput(ws: WebSocket, callId: string, on: CallerInputHandlers): void {
  let sessionId = 'session';
  let seq = 0;
  let partial = '';
  let digits = '';
  let digitTimer: NodeJS.Timeout | undefined;
  ws.on('close', () => clearTimeout(digitTimer));
  /** Hands one utterance to the workflow (in order) and speaks its answer (after the holding line, if late). */
  const hear = (text: string) => on.utterance(text, `${sessionId}:${++seq}`);
  const flushDigits = () => {
    clearTimeout(digitTimer);
    if (digits) hear(`DTMF ${digits}`);
    digits = '';
  };

  ws.on('message', (raw) => {
    let msg: {
      type?: string;
      sessionId?: string;
      voicePrompt?: string;
      last?: boolean;
      digit?: string;
      description?: string;
      utteranceUntilInterrupt?: string;
      durationUntilInterruptMs?: number;
    };
    try {
      msg = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'setup' && typeof msg.sessionId === 'string') sessionId = msg.sessionId.slice(0, 128);
    else if (msg.type === 'prompt') {
      if (partial.length < RELAY_MAX_UTTERANCE_CHARS)
        partial = (partial + String(msg.voicePrompt ?? '')).slice(0, RELAY_MAX_UTTERANCE_CHARS);
      if (msg.last !== false) {
        const text = partial.trim();
        partial = '';
        if (text) hear(text);
      }
    } else if (msg.type === 'dtmf' && typeof msg.digit === 'string' && /^[0-9*#A-D]$/.test(msg.digit)) {
      if (digits.length < DTMF_MAX_DIGITS) digits += msg.digit;
      clearTimeout(digitTimer);
      if (msg.digit === '#') flushDigits();
      else digitTimer = setTimeout(flushDigits, DTMF_GATHER_MS);
    } else if (msg.type === 'interrupt')
      on.interrupt({
        spoken: String(msg.utteranceUntilInterrupt ?? ''),
        ...(typeof msg.durationUntilInterruptMs === 'number' ? { durationMs: msg.durationUntilInterruptMs } : {}),
      });
    else if (msg.type === 'error')
      logger.warn('relay: ConversationRelay reported an error', {
        call_id: callId,
        description: String(msg.description ?? ''),
      });
  });
}
