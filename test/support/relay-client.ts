/**
 * A ConversationRelay client as Twilio speaks it (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages):
 * opens the call's relay WebSocket with a valid `X-Twilio-Signature`, sends `setup`, then `prompt`s;
 * gathers streamed words (`last: false`) into the text message that closes them, as Twilio speaks them.
 */
import twilio from 'twilio';
import WebSocket from 'ws';
import { h } from './harness';
import { Call } from '../../src/models/calls';
import { fakeAccountToken } from './fake-twilio';

export interface RelayClient {
  ws: WebSocket;
  /** Says `text` as a final prompt; resolves with the next message (the answer). */
  say(text: string): Promise<any>;
  /** The next message received. */
  next(): Promise<any>;
  /** Every message received, as sent, with when it came (`Date.now()`). */
  raw: { msg: any; atMs: number }[];
}

/**
 * Connects to call `callId`'s relay as Twilio would for CallSid `sid`, the handshake signed by the
 * account the call is in (its `provider_account_sid`, an account of the current fake Twilio:
 * test/support/fake-twilio.ts `fakeAccountToken`), as Twilio signs each account's requests with its own
 * auth token.
 * @param authToken the auth token to sign with when the call is in no account of the fake (the platform's)
 */
export async function relayClient(
  callId: string,
  sid: string,
  authToken: string,
  parties: { from: string; to: string },
  /** More of the relay URL's query, as the TwiML gave it (`&resume=1`: a caller back from a warm transfer). */
  query = '',
): Promise<RelayClient> {
  const path = `/twilio/relay/${callId}?sid=${sid}${query}`;
  const url = h().api.url.replace(/^http/, 'ws') + path;
  const call = await Call.findById(callId, { provider_account_sid: 1 }).lean();
  const token = fakeAccountToken(call?.provider_account_sid) ?? authToken;
  const ws = new WebSocket(url, {
    headers: { 'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, url, {}) },
  });
  const inbox: any[] = [];
  const waiters: ((m: any) => void)[] = [];
  let words = '';
  const received: { msg: any; atMs: number }[] = [];
  ws.on('message', (raw) => {
    let msg = JSON.parse(String(raw));
    received.push({ msg, atMs: Date.now() });
    if (msg.type === 'text' && msg.last === false) return void (words += msg.token);
    if (msg.type === 'text' && words) [msg, words] = [{ ...msg, token: (words + msg.token).trim() }, ''];
    const w = waiters.shift();
    if (w) w(msg);
    else inbox.push(msg);
  });
  const next = () => new Promise<any>((resolve) => (inbox.length ? resolve(inbox.shift()) : waiters.push(resolve)));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      // Each session has its own id at Twilio (a comeback from a warm transfer is a new session).
      const sessionId = `VX${callId}${query ? `-${query.replace(/\W/g, '')}` : ''}`;
      ws.send(JSON.stringify({ type: 'setup', sessionId, callSid: sid, ...parties }));
      resolve({
        ws,
        next,
        raw: received,
        say: async (text: string) => (
          ws.send(JSON.stringify({ type: 'prompt', voicePrompt: text, lang: 'en-US', last: true })),
          next()
        ),
      });
    });
  });
}
