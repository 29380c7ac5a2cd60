/**
 * The token channel of a live call: the assistant's words go from the worker's LLM activity straight to
 * the API process that holds the call's ConversationRelay WebSocket, as the model streams them, instead
 * of waiting for the whole answer to travel through the workflow. The workflow stays the record of what
 * was said (the activity's result); this channel only carries early copies of the same words.
 *
 * - API side (`relayTokenServer`): an HTTP listener on `RELAY_STREAM_HOST` (default 127.0.0.1, any free
 *   port; HTTPS with `RELAY_STREAM_TLS_CERT`/`RELAY_STREAM_TLS_KEY`, which a host other than loopback
 *   requires: src/config.ts refuses it without them, and so does the listener) that takes
 *   `POST /calls/{call id}/tokens` with `Authorization: Bearer <session token>`, `Svc-Relay-Signature`
 *   (`relaySignature`: an HMAC-SHA256 under the secret every API and worker shares, `RELAY_STREAM_SECRET`,
 *   of the time and the request line, accepted for 5 minutes) and a newline-delimited JSON body, one
 *   `{"token":"…"}` per line, written as the model produces them. Each token is handed to the relay session
 *   registered for the call, which sends it to Twilio as `{"type":"text","token":…,"last":false}`; a
 *   `{"digits":"…"}` line (the `send_dtmf` tool) becomes ConversationRelay's
 *   `{"type":"sendDigits","digits":…}` (a voice room has no keys: ignored there); a `{"voice":{"announce",
 *   "messages"}}` line (a squad's hand-off to a member with another voice, `switchVoice`) has the session
 *   say `announce` (when not null) in the current voice, then send ConversationRelay's configuration
 *   `messages` (src/shared/squads.ts `relayVoiceUpdate`; a voice room has no such voices: ignored). 404 when
 *   no session of this process holds the call, 401 for another token or a missing, stale or wrong
 *   signature.
 * - The relay session records `stream_url` and `stream_token` (sealed, src/secrets.ts) in its
 *   `relay_sessions` document (src/models/calls.ts), so any worker finds the API instance that holds it.
 * - Worker side (`openTokenStream`): the LLM activity looks the session up and streams to it. Without a
 *   session (simulated calls, a relay not connected yet, another API instance gone) it returns null and
 *   the answer is spoken whole, as before; a channel that fails mid-answer is dropped, never fatal.
 * - Lines said on the API's behalf take the same way: `POST /calls/{call id}/say` (same
 *   authorization and signature) with `{"text","interrupt"}`, handed to the session's `say` (`sayOnRelay`,
 *   from the call's `speakLine` activity); 204 once handed over.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { config, isLoopbackHost } from '../config';
import { RelaySession } from '../models/calls';
import { logger } from '../logger';
import { openSecret } from '../secrets';

/** What the API's relay session does with streamed tokens of the answer being produced. */
export interface TokenSink {
  token(text: string): void;
  /** Keys to press on the line (`send_dtmf`): ConversationRelay's `sendDigits`; absent: not a phone line. */
  digits?(digits: string): void;
  /** A change of voice (a squad's hand-off): `announce` said first, then the messages; absent: not a phone line. */
  voice?(change: VoiceChangeLine): void;
  /**
   * A line said on the API's behalf (`POST /v1/calls/{id}/say`): spoken once the answer being
   * given is out, or at once with `interrupt`. Absent: the session cannot speak such lines (404 to the worker).
   */
  say?(text: string, interrupt: boolean): void;
  /**
   * Asked when a token stream ends: receipt of the caller's transcript to the first text sent for
   * synthesis (ms, the session's own clock) when that text came in this stream, once per utterance; null
   * otherwise. Sent back in the `Svc-Relay-First-Audio-Ms` header (src/shared/latency.ts). Absent: not timed.
   */
  firstAudioMs?(): number | null;
}

/**
 * A voice change on the token channel: the line said first in the current voice (null: none), then the
 * ConversationRelay messages that switch voice and language (`language` messages only).
 */
export interface VoiceChangeLine {
  announce: string | null;
  messages: Record<string, unknown>[];
}

/** `value` as a voice change line, or null when it is not one (a malformed line is skipped). */
function voiceChangeOf(value: unknown): VoiceChangeLine | null {
  const v = value as { announce?: unknown; messages?: unknown } | null;
  if (!v || typeof v !== 'object' || !Array.isArray(v.messages)) return null;
  if (v.announce !== null && (typeof v.announce !== 'string' || !v.announce || v.announce.length > 1000)) return null;
  const messages = v.messages as unknown[];
  if (!messages.every((m) => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'language'))
    return null;
  return { announce: v.announce, messages: messages as Record<string, unknown>[] };
}

/** The response header that carries the session's first-audio time back to the LLM activity. */
export const FIRST_AUDIO_HEADER = 'svc-relay-first-audio-ms';

/** Digits a `{"digits":…}` line may carry (src/shared/tools.ts `send_dtmf`: 0-9, *, #, w for a pause). */
const DIGITS = /^[0-9*#w]{1,32}$/;

/** The API's listener for streamed tokens, shared by every relay session of the process. */
export interface RelayTokenServer {
  /** Registers the session holding `callId`; returns the URL and secret a worker streams to. */
  register(callId: string, sink: TokenSink): Promise<{ url: string; token: string }>;
  unregister(callId: string): void;
  close(): Promise<void>;
}

/** How long an answer's end waits for the API holding the relay to confirm it took every word (ms). */
const STREAM_END_WAIT_MS = 1_000;

/** Largest token stream accepted for one answer (bytes); an answer is far smaller. */
const MAX_STREAM_BYTES = 256 * 1024;

/** How far a signature's time may be from the listener's clock (ms). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/**
 * The secret the token channel's signatures are made with: `RELAY_STREAM_SECRET`, else one derived from
 * `SECRETS_KEY` (which every API and worker process shares already).
 * @throws Error when neither is set
 */
function channelSecret(): string {
  const { relayStreamSecret, secretsKey } = config();
  if (relayStreamSecret) return relayStreamSecret;
  if (!secretsKey) throw new Error('relay tokens: RELAY_STREAM_SECRET or SECRETS_KEY is required');
  return crypto.createHmac('sha256', secretsKey).update('svc relay stream').digest('hex');
}

/**
 * The `Svc-Relay-Signature` header of a token stream request: `t=<ms since the epoch>,v1=<hex
 * HMAC-SHA256 of "<t>.POST <path>" under the channel's shared secret>`.
 * @param path the request's path, `/calls/{call id}/tokens`
 */
export function relaySignature(path: string, nowMs = Date.now()): string {
  const mac = crypto.createHmac('sha256', channelSecret()).update(`${nowMs}.POST ${path}`).digest('hex');
  return `t=${nowMs},v1=${mac}`;
}

/** True when `header` is a valid signature of `path` made within `SIGNATURE_TOLERANCE_MS`. */
function signatureValid(header: string | undefined, path: string): boolean {
  const m = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m || Math.abs(Date.now() - Number(m[1])) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = Buffer.from(relaySignature(path, Number(m[1])));
  const given = Buffer.from(header!);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The listener's certificate and key (`RELAY_STREAM_TLS_CERT`, `RELAY_STREAM_TLS_KEY`), or null: plain HTTP. */
function tlsFiles(): { cert: Buffer; key: Buffer } | null {
  const { relayStreamTlsCert, relayStreamTlsKey } = config();
  if (!relayStreamTlsCert || !relayStreamTlsKey) return null;
  return { cert: fs.readFileSync(relayStreamTlsCert), key: fs.readFileSync(relayStreamTlsKey) };
}

/**
 * Starts the token listener (lazily, on the first registration) on `RELAY_STREAM_HOST`: HTTPS when
 * `RELAY_STREAM_TLS_CERT` and `RELAY_STREAM_TLS_KEY` are set, else plain HTTP on a loopback host only.
 * @returns the server; `close()` stops it and forgets every session. `register` rejects when the host is
 *   not loopback and no certificate is set (the session then speaks answers whole).
 */
export function relayTokenServer(): RelayTokenServer {
  const sessions = new Map<string, { sink: TokenSink; secret: string }>();
  let listening: Promise<string> | undefined;
  const handler: http.RequestListener = (req, res) => {
    const m = /^\/calls\/(call_[0-9a-z]{26})\/(tokens|say)$/.exec(req.url ?? '');
    const session = m ? sessions.get(m[1]) : undefined;
    if (req.method !== 'POST' || !session) return void res.writeHead(404).end();
    const given = Buffer.from(String(req.headers.authorization ?? ''));
    const expected = Buffer.from(`Bearer ${session.secret}`);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
      return void res.writeHead(401).end();
    if (!signatureValid(req.headers['svc-relay-signature'] as string | undefined, req.url!))
      return void res.writeHead(401).end();
    req.socket.setNoDelay(true);
    if (m![2] === 'say') return void takeLine(req, res, session.sink);
    let buffered = '';
    let size = 0;
    const take = (line: string) => {
      if (!line.trim()) return;
      try {
        const { token, digits, voice } = JSON.parse(line) as { token?: unknown; digits?: unknown; voice?: unknown };
        if (typeof token === 'string' && token) session.sink.token(token);
        if (typeof digits === 'string' && DIGITS.test(digits)) session.sink.digits?.(digits);
        const change = voice === undefined ? null : voiceChangeOf(voice);
        if (change) session.sink.voice?.(change);
      } catch {
        // a malformed line is skipped; the whole answer still comes through the workflow
      }
    };
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      size += chunk.length;
      if (size > MAX_STREAM_BYTES) return void req.destroy();
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        take(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
    req.on('end', () => {
      take(buffered);
      const firstAudio = session.sink.firstAudioMs?.() ?? null;
      res.writeHead(204, firstAudio === null ? {} : { [FIRST_AUDIO_HEADER]: String(Math.round(firstAudio)) }).end();
    });
    req.on('error', () => undefined);
  };
  const files = tlsFiles();
  const server = files ? https.createServer(files, handler) : http.createServer(handler);
  server.on('error', (err) => logger.warn('relay tokens: server error', { error: err.message }));
  const base = () =>
    (listening ??= new Promise<string>((resolve, reject) => {
      const host = config().relayStreamHost;
      if (!files && !isLoopbackHost(host))
        return reject(
          new Error(
            `relay tokens: RELAY_STREAM_HOST ${host} is not loopback; set RELAY_STREAM_TLS_CERT and RELAY_STREAM_TLS_KEY`,
          ),
        );
      server.once('error', reject);
      server.listen(0, host, () => {
        const { port } = server.address() as AddressInfo;
        resolve(`${files ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`);
      });
      server.unref();
    }));
  return {
    register: async (callId, sink) => {
      const secret = crypto.randomBytes(18).toString('base64url');
      sessions.set(callId, { sink, secret });
      return { url: `${await base()}/calls/${callId}/tokens`, token: secret };
    },
    unregister: (callId) => void sessions.delete(callId),
    close: async () => {
      sessions.clear();
      if (!listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Largest `say` request body (bytes): a line is at most 1,000 characters. */
const MAX_LINE_BYTES = 16 * 1024;

/**
 * Takes a `say` request's body `{"text","interrupt"}` and hands the line to `sink`: 204; 404 when the
 * session cannot speak lines, 400 for a malformed body.
 */
function takeLine(req: http.IncomingMessage, res: http.ServerResponse, sink: TokenSink): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
    if (body.length > MAX_LINE_BYTES) req.destroy();
  });
  req.on('end', () => {
    let line: { text?: unknown; interrupt?: unknown };
    try {
      line = JSON.parse(body) as typeof line;
    } catch {
      return void res.writeHead(400).end();
    }
    if (typeof line?.text !== 'string' || !line.text) return void res.writeHead(400).end();
    if (!sink.say) return void res.writeHead(404).end();
    sink.say(line.text, line.interrupt === true);
    res.writeHead(204).end();
  });
  req.on('error', () => undefined);
}

/**
 * Hands a line said on the API's behalf to the voice session holding `callId` (the API process with its
 * ConversationRelay socket, or the worker attending its voice room), through the token channel's listener.
 * @returns false when no session is registered for the call, its listener is gone (the API process holding
 *   it stopped) or it did not take the line: the line is then unsaid
 */
export async function sayOnRelay(callId: string, text: string, interrupt: boolean): Promise<boolean> {
  const session = await RelaySession.findById(callId, { stream_url: 1, stream_token: 1 }).lean();
  const secret = openSecret(session?.stream_token);
  if (!session?.stream_url || !secret) return false;
  const url = new URL(session.stream_url.replace(/\/tokens$/, '/say'));
  const { relayStreamTlsCert } = config();
  const status = await new Promise<number>((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${secret}`,
      'svc-relay-signature': relaySignature(url.pathname),
      'content-type': 'application/json',
    };
    const options = { method: 'POST', headers, timeout: 5_000 };
    const req =
      url.protocol === 'https:'
        ? https.request(url, {
            ...options,
            ca: relayStreamTlsCert ? [...tls.rootCertificates, fs.readFileSync(relayStreamTlsCert, 'utf8')] : undefined,
          })
        : http.request(url, options);
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('relay say: no answer within 5 s')));
    req.on('error', reject);
    req.end(JSON.stringify({ text, interrupt }));
  }).catch((err: Error) => {
    logger.info('relay say: the voice session did not take the line', { call_id: callId, error: err.message });
    return 0;
  });
  return status === 204;
}

/** A token stream to the relay of one call, open for one LLM answer (or one `send_dtmf`). */
export interface TokenStream {
  write(token: string): void;
  /** Asks the relay to press `digits` (0-9, *, #, w) on the line, after the tokens written before. */
  digits(digits: string): void;
  /** Asks the relay to say `change.announce` (if any), then switch voice and language (`change.messages`). */
  voice(change: VoiceChangeLine): void;
  /**
   * Ends the stream; resolves once the API has handed every line to the relay (true), or when the stream
   * failed or the API did not confirm within `STREAM_END_WAIT_MS` (false).
   */
  end(): Promise<boolean>;
  /** Once ended: the session's first-audio time for this answer (`TokenSink.firstAudioMs`), or null. */
  firstAudioMs(): number | null;
}

/** Where a call's relay takes its token stream: its `RelaySession`'s `stream_url` and `stream_token`. */
export type RelayStreamSession = { stream_url?: string | null; stream_token?: string | null } | null;

/** Reads `callId`'s relay session from the store (`openTokenStream`'s default lookup). */
export const readRelayStreamSession = (callId: string): Promise<RelayStreamSession> =>
  RelaySession.findById(callId, { stream_url: 1, stream_token: 1 }).lean();

/**
 * Opens the token channel to the API instance holding `callId`'s relay, or returns null when the call has
 * none registered. Never throws: a failing channel only loses the early copy of the words.
 * @param lookup how the session is found (default `readRelayStreamSession`; the LLM activity's rides out
 *   a store outage with the last-known copy)
 */
export async function openTokenStream(
  callId: string,
  lookup: (callId: string) => Promise<RelayStreamSession> = readRelayStreamSession,
): Promise<TokenStream | null> {
  let session: RelayStreamSession;
  try {
    session = await lookup(callId);
  } catch {
    return null;
  }
  const secret = openSecret(session?.stream_token);
  if (!session?.stream_url || !secret) return null;
  let failed = false;
  let firstAudioMs: number | null = null;
  const url = new URL(session.stream_url);
  const { relayStreamTlsCert } = config();
  let req: http.ClientRequest;
  try {
    const headers = {
      authorization: `Bearer ${secret}`,
      'svc-relay-signature': relaySignature(url.pathname),
      'content-type': 'application/x-ndjson',
    };
    req =
      url.protocol === 'https:'
        ? https.request(url, {
            method: 'POST',
            headers,
            // Node's roots, and the listener's own certificate when it is self-signed (RELAY_STREAM_TLS_CERT).
            ca: relayStreamTlsCert ? [...tls.rootCertificates, fs.readFileSync(relayStreamTlsCert, 'utf8')] : undefined,
          })
        : http.request(url, { method: 'POST', headers });
  } catch (err) {
    logger.info('relay tokens: channel not opened', { call_id: callId, error: (err as Error).message });
    return null;
  }
  const done = new Promise<boolean>((resolve) => {
    req.on('response', (res) => {
      const timed = Number(res.headers[FIRST_AUDIO_HEADER]);
      if (res.headers[FIRST_AUDIO_HEADER] !== undefined && Number.isFinite(timed) && timed >= 0) firstAudioMs = timed;
      res.resume();
      res.on('end', () => resolve(res.statusCode === 204));
      res.on('error', () => resolve(false));
    });
    req.on('error', (err) => {
      if (!failed) logger.info('relay tokens: channel failed', { call_id: callId, error: err.message });
      failed = true;
      resolve(false);
    });
  });
  req.on('socket', (socket) => socket.setNoDelay(true));
  req.flushHeaders();
  return {
    write: (token) => {
      if (!failed) req.write(`${JSON.stringify({ token })}\n`);
    },
    digits: (digits) => {
      if (!failed) req.write(`${JSON.stringify({ digits })}\n`);
    },
    voice: (voice) => {
      if (!failed) req.write(`${JSON.stringify({ voice })}\n`);
    },
    end: async () => {
      if (!failed) req.end();
      // Wait for the relay to have taken every word (so they precede the update's answer), but never hold
      // the answer itself for an API instance that does not answer.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STREAM_END_WAIT_MS)));
      const answered = await Promise.race([done, late]);
      clearTimeout(timer);
      if (answered === null) req.destroy();
      return answered === true;
    },
    firstAudioMs: () => firstAudioMs,
  };
}
