/**
 * OpenAI's Realtime API over SIP (https://platform.openai.com/docs/guides/realtime-sip), through the
 * `openai` package (6.x): the incoming-call webhook verified with `webhooks.unwrap` (Standard Webhooks:
 * `webhook-id`, `webhook-timestamp`, `webhook-signature` over `<id>.<timestamp>.<raw body>`, HMAC-SHA256
 * with the project's `whsec_…` secret, 5 minutes of tolerance), the call's REST verbs
 * (`realtime.calls.accept/hangup/refer/reject`) and the server-side ("sideband") WebSocket of a call,
 * `wss://…/v1/realtime?call_id=<id>`, which speaks the session's documented events.
 *
 * The project is the operator's (src/config.ts `openaiRealtime`); its base URL may point at a loopback
 * fake (test/support/fake-openai-realtime.ts) in test rigs.
 */
import OpenAI from 'openai';
import type { RealtimeClientEvent } from 'openai/resources/realtime/realtime';
import WebSocket from 'ws';
import { config, type RealtimeConfig } from '../config';

let client: OpenAI | undefined;
let clientKey = '';

/**
 * The operator's Realtime project, or an Error naming the missing variables (an agent saved with
 * `engine: "realtime"` before the operator removed them).
 */
export function realtimeProject(): RealtimeConfig {
  const rt = config().openaiRealtime;
  if (!rt)
    throw new Error('The realtime engine is not configured (OPENAI_REALTIME_PROJECT_ID, OPENAI_WEBHOOK_SECRET).');
  return rt;
}

/**
 * The `openai` client of the Realtime project (one per configuration; the SDK's own retries off, 10 s
 * timeout: the activities retry, and an incoming call rings while we answer).
 */
export function realtimeClient(): OpenAI {
  const rt = realtimeProject();
  const key = `${rt.baseUrl}|${rt.apiKey}|${rt.webhookSecret}`;
  if (!client || clientKey !== key) {
    client = new OpenAI({
      apiKey: rt.apiKey,
      baseURL: rt.baseUrl,
      webhookSecret: rt.webhookSecret,
      maxRetries: 0,
      timeout: 10_000,
    });
    clientKey = key;
  }
  return client;
}

/** The event types that announce an incoming SIP call (the first name, and the newer one). */
export const INCOMING_CALL_EVENTS = ['realtime.call.incoming', 'live.transport.incoming'] as const;

/** An incoming SIP call, as its webhook tells it. */
export interface IncomingRealtimeCall {
  /** The event's id (`evt_…`), for logs. */
  eventId: string;
  /** OpenAI's id of the call (`rtc_…`): what accept, reject, hangup and the sideband name. */
  openaiCallId: string;
  /** The INVITE's headers (`From`, `To`, `Call-ID`, our custom `X-` header). */
  sipHeaders: { name: string; value: string }[];
}

/**
 * Verifies a webhook from the Realtime project (`webhooks.unwrap` with `OPENAI_WEBHOOK_SECRET`) and reads
 * an incoming-call event from it: both `realtime.call.incoming` and `live.transport.incoming` carry
 * `data.call_id` and `data.sip_headers` (https://platform.openai.com/docs/api-reference/webhook-events).
 * @param rawBody the body exactly as received (the signature covers its bytes)
 * @returns the incoming call; null for a verified event of another type (nothing to do)
 * @throws `OpenAI.InvalidWebhookSignatureError` (or an Error for missing headers) when it is not verified
 */
export async function verifyRealtimeWebhook(
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<IncomingRealtimeCall | null> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(' ') : value;
  const event = (await realtimeClient().webhooks.unwrap(rawBody, flat)) as unknown as {
    id?: string;
    type?: string;
    data?: { call_id?: unknown; sip_headers?: unknown };
  };
  if (!INCOMING_CALL_EVENTS.includes(event.type as (typeof INCOMING_CALL_EVENTS)[number])) return null;
  const callId = event.data?.call_id;
  if (typeof callId !== 'string' || !callId) return null;
  const raw = Array.isArray(event.data?.sip_headers) ? (event.data.sip_headers as unknown[]) : [];
  const sipHeaders = raw
    .filter((h): h is { name: string; value: string } => {
      const o = h as { name?: unknown; value?: unknown };
      return typeof o?.name === 'string' && typeof o.value === 'string';
    })
    .map((h) => ({ name: h.name, value: h.value }));
  return { eventId: event.id ?? '', openaiCallId: callId, sipHeaders };
}

/**
 * The sideband URL of a call: the project's base URL with `ws`/`wss` for `http`/`https`, path
 * `/realtime`, `?call_id=` (OpenAI's "server-side controls" guide). Built here rather than by the
 * package's `OpenAIRealtimeWS`, which always says `wss` (a loopback fake speaks plain `ws`).
 */
export function sidebandUrl(openaiCallId: string): string {
  const url = new URL(`${realtimeProject().baseUrl}/realtime`);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  url.searchParams.set('call_id', openaiCallId);
  return url.toString();
}

/**
 * Opens the sideband WebSocket of a call, authorized with the project's key; a handshake not done within
 * 10 s fails it (the session's activity then fails and the workflow re-attaches).
 */
export function openSideband(openaiCallId: string): WebSocket {
  return new WebSocket(sidebandUrl(openaiCallId), {
    headers: { Authorization: `Bearer ${realtimeProject().apiKey}` },
    handshakeTimeout: 10_000,
  });
}

/** Sends one client event (typed by the `openai` package's `RealtimeClientEvent`) on a sideband socket. */
export function sendEvent(socket: WebSocket, event: RealtimeClientEvent): void {
  socket.send(JSON.stringify(event));
}
