/**
 * The widget endpoints (spec section 4 "Widget"; DESIGN.md section 10 `widget_session`), called by the
 * browser script `/widget.js` from the organization's own pages:
 *
 *   POST /v1/widget/session   publishable key; `{visitor_id, identity?: {user_id, user_hash}}` → widget_session (with `token`)
 *   POST /v1/widget/messages  session token; `{text}`, Idempotency-Key → the stored message
 *   GET  /v1/widget/stream    `?token=` (or the Bearer header); server-sent events, resumable by `Last-Event-ID`
 *   POST /v1/widget/voice     session token, Idempotency-Key → `{url, room, token, expires_at, call_id, simulated}`
 *
 * Rules every one applies: CORS for the organization's allowed origins only (src/services/widget.ts
 * `originAllowed`; a preflight is answered for any origin, the request itself is refused with 403
 * `origin_not_allowed`); rate limits per organization and IP address and per session, counted in the store so they hold
 * across API processes (src/platform/rate-limit.ts); a secret or restricted key is 403 (widgets must never carry
 * one).
 *
 * The chat is a conversation on the `web` channel (src/workflows/conversations.ts): the visitor's message
 * goes through the conversation's workflow like a WhatsApp message, and the stream reads the conversation's
 * log (`conversation_log`, one entry per stored message, numbered without gaps in the order stored) from
 * the store, so any API process serves any reconnect and nothing said while a browser was away is lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError } from '../errors';
import { config } from '../config';
import { conversationAnswerer, ensureConversation, updateConversation } from '../services/conversations';
import { consumeRateLimit } from '../platform/rate-limit';
import { rateLimited } from '../platform/metrics';
import {
  anonymousVisitorAddress,
  identityVerified,
  newSessionToken,
  hashSessionToken,
  originAllowed,
  sessionOfToken,
  SESSION_TTL_MS,
  widgetPolicy,
  type WidgetPolicy,
} from '../services/widget';
import { acquireStreamLease, watchConversation } from '../services/widget-streams';
import { answeringAgent, defaultAgentId, type AgentDoc } from '../models/agents';
import { renderCall } from '../models/calls';
import {
  Conversation,
  ConversationLogEntry,
  Message,
  MessageObject,
  renderMessage,
  type ConversationDoc,
  type MessageDoc,
} from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import {
  renderWidgetSession,
  WidgetSession,
  WidgetSessionObject,
  WidgetVoiceObject,
  type WidgetSessionDoc,
} from '../models/widget';
import { idTime, newId } from '../shared/ids';
import {
  conversationLogId,
  receiveUpdate,
  WIDGET_SERVICE_ADDRESS,
  widgetCustomerAddress,
} from '../shared/conversations';
import { livekitSettings, startVoiceRoomCall } from '../services/widget-voice';
import { idempotent } from './idempotency';
import { applyRateLimit, authenticate } from './middleware';
import { operation, operationsRouter } from './operations';
import { lastEventId, serveEventStream, SSE_EVENT_SCHEMA, STREAM_RETRY_MS } from './sse';
import { acceptsQuery, MAX_TEXT, parseBody } from './validation';
import { logger } from '../logger';

/** `POST /v1/widget/session` body. */
export const widgetSessionSchema = z.strictObject({
  visitor_id: z
    .string()
    .min(1, 'must not be empty')
    .max(128, 'must be at most 128 characters')
    .meta({ description: 'A stable id of this browser, chosen by the page (e.g. a random id kept in localStorage).' }),
  previous_token: z.string().max(200, 'must be at most 200 characters').optional().meta({
    description:
      "The token of this browser's earlier session (expired or not). Without it, a visitor_id whose conversation exists gets a new conversation: knowing a visitor_id never shows that visitor's conversation. Not needed with a verified identity.",
  }),
  identity: z
    .strictObject({
      user_id: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
      user_hash: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (HMAC-SHA256 of user_id under the identity secret)'),
    })
    .optional()
    .meta({ description: "A verified visitor: the organization's server computes user_hash for its signed-in user." }),
});

/** `POST /v1/widget/messages` body. */
export const widgetMessageSchema = z.strictObject({
  text: z.string().min(1, 'must not be empty').max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
});

/** How long a voice room token is valid (s): at most 10 minutes (the bound). */
export const VOICE_TOKEN_TTL_S = 600;
/** Widget rate limits are counted per minute. */
const RATE_WINDOW_MS = 60_000;

/** What the widget's authentication attaches. */
interface WidgetContext {
  session: WithId<WidgetSessionDoc> | null;
  policy: WidgetPolicy;
}
declare module 'express-serve-static-core' {
  interface Request {
    widget?: WidgetContext;
  }
}

const CORS_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, Svc-Version';
const EXPOSED_HEADERS =
  'Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed';

/**
 * CORS, first step: a preflight (`OPTIONS`) is answered 204 for any origin (it carries no credentials, so
 * the organization is not known yet); other requests get `Access-Control-Allow-Origin` for their origin,
 * taken back by `checkOrigin` once the organization is known and refuses it.
 */
const cors: RequestHandler = (req, res, next) => {
  const origin = req.get('Origin');
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    return void res.status(204).end();
  }
  next();
};

/** 403 `origin_not_allowed` (without CORS headers) when the page's origin is not the organization's. */
function checkOrigin(req: Request, res: Response, policy: WidgetPolicy, livemode: boolean): void {
  const origin = req.get('Origin');
  if (originAllowed(policy, livemode, origin)) return;
  res.removeHeader('Access-Control-Allow-Origin');
  res.removeHeader('Access-Control-Expose-Headers');
  throw new ApiError(
    403,
    'permission_error',
    'origin_not_allowed',
    policy.allowedOrigins.length
      ? `The origin ${origin} is not among this organization's widget origins (svcctl widget configure --allowed-origins).`
      : `Live-mode widgets answer only the organization's own origins; set them with svcctl widget configure --allowed-origins.`,
    'Origin',
  );
}

/**
 * Counts the request per organization and IP address (one organization's visitors never spend another's
 * budget; behind a load balancer `req.ip` is the visitor's with `TRUST_PROXY`) and, with a session, per
 * session; 429 with `Retry-After` past either (counted in `svc_rate_limited_total{limit="widget_ip"|"widget_session"}`).
 */
async function countWidgetRequest(req: Request, res: Response, orgId: string, sessionId: string | null): Promise<void> {
  const { widgetRateLimitIp, widgetRateLimitSession } = config();
  const checks: [string, number, string, string][] = [
    [`wip:${orgId}:${req.ip}`, widgetRateLimitIp, 'from this IP address', 'widget_ip'],
  ];
  if (sessionId) checks.push([`wses:${sessionId}`, widgetRateLimitSession, 'in this widget session', 'widget_session']);
  for (const [bucket, limit, subject, name] of checks) {
    if (limit === 0) continue;
    let rate;
    try {
      rate = await consumeRateLimit(bucket, limit, RATE_WINDOW_MS);
    } catch (err) {
      logger.warn('widget rate limit not counted', { error: String(err) });
      continue;
    }
    const limited = applyRateLimit(res, rate, subject, RATE_WINDOW_MS);
    if (limited) {
      rateLimited.inc({ limit: name, key_id: '' }); // per visitor: no key to name
      throw limited;
    }
  }
}

const sessionInvalid = () =>
  new ApiError(
    401,
    'authentication_error',
    'widget_session_invalid',
    'The widget session token is missing, invalid or expired. Open a new session with POST /v1/widget/session.',
  );

/**
 * Session authentication for messages, stream and voice: the token from `Authorization: Bearer` (or, for
 * the stream, `?token=`, since `EventSource` cannot send headers); then origin and rate limits. Sets
 * `req.widget` and a `req.auth` of kind `publishable` whose key id is the session (idempotency keys are
 * scoped to it).
 */
function sessionAuth(opts: { queryToken: boolean }): RequestHandler {
  return async (req, res, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('Authorization') ?? '')?.[1];
    const token = bearer ?? (opts.queryToken && typeof req.query.token === 'string' ? req.query.token : undefined);
    if (!token) throw sessionInvalid();
    const session = await sessionOfToken(token);
    if (!session) throw sessionInvalid();
    const policy = await widgetPolicy(session.org_id);
    checkOrigin(req, res, policy, session.livemode);
    await countWidgetRequest(req, res, session.org_id, session._id);
    req.widget = { session, policy };
    req.auth = {
      orgId: session.org_id,
      livemode: session.livemode,
      keyId: session._id,
      kind: 'publishable',
      scopes: [],
    };
    next();
  };
}

/** The session's conversation (written with the session, so it exists). */
async function sessionConversation(session: WithId<WidgetSessionDoc>): Promise<WithId<ConversationDoc>> {
  const doc = (await Conversation.findById(session.conversation_id).lean()) as WithId<ConversationDoc> | null;
  if (!doc) throw new Error(`widget session ${session._id}: conversation ${session.conversation_id} is missing`);
  return doc;
}

const tag = 'Widget';

/**
 * `POST /v1/widget/session` (publishable key) `{visitor_id, identity?}` → a `widget_session` with its
 * `token` (shown once; valid 24 h). 403 `publishable_key_required` for a secret or restricted key;
 * 401 `identity_verification_failed` for a wrong `user_hash`, `identity_required` when the organization
 * requires identity and none is given. The verified `user_id` (else the `visitor_id`) names the
 * conversation, so a signed-in user finds theirs in every browser; an unverified visitor's session joins
 * its `visitor_id`'s conversation only with `previous_token`, a token of its earlier session there (or when
 * there is none yet), else gets one of its own (src/services/widget.ts `anonymousVisitorAddress`), so its
 * history is replayed only to the browser holding its token. `greeting` is the answering agent's
 * `first_message` (web/widget.js shows it when the panel opens). The key, the origin and the rate limits
 * are checked before the body is read.
 */
const createWidgetSession = operation({
  method: 'post',
  path: '/v1/widget/session',
  operationId: 'createWidgetSession',
  tag,
  summary: 'Open a widget session',
  description:
    "With a publishable key, from the organization's allowed origins. `identity.user_hash` is the lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret (`svcctl widget configure`); a verified user continues the same conversation in every browser.",
  widget: 'publishableKey',
  before: [authenticate, acceptsQuery()],
  bodyDoc: widgetSessionSchema,
  example: { visitor_id: 'b9f0c6de-2f39-4a8e-9d39-2a1d3f3c5e10' },
  response: WidgetSessionObject,
  handler: async (req, res) => {
    const auth = req.auth!;
    if (auth.kind !== 'publishable')
      throw new ApiError(
        403,
        'permission_error',
        'publishable_key_required',
        'Widget sessions are opened with a publishable key (svc_pk_…); never put a secret or restricted key in a browser.',
      );
    const policy = await widgetPolicy(auth.orgId);
    checkOrigin(req, res, policy, auth.livemode);
    await countWidgetRequest(req, res, auth.orgId, null);
    const body = parseBody(widgetSessionSchema, req.body);
    let userId: string | null = null;
    if (body.identity) {
      if (!identityVerified(policy, body.identity.user_id, body.identity.user_hash))
        throw new ApiError(
          401,
          'authentication_error',
          'identity_verification_failed',
          "identity.user_hash is not the HMAC-SHA256 of identity.user_id under this organization's widget identity secret.",
          'identity',
        );
      userId = body.identity.user_id;
    } else if (policy.requireIdentity) {
      throw new ApiError(
        401,
        'authentication_error',
        'identity_required',
        'This organization requires a verified identity: send identity {user_id, user_hash}.',
        'identity',
      );
    }
    const tenant = { orgId: auth.orgId, livemode: auth.livemode };
    const id = newId('wses');
    const customer =
      userId !== null
        ? widgetCustomerAddress({ userId, visitorId: body.visitor_id })
        : await anonymousVisitorAddress({
            ...tenant,
            visitorId: body.visitor_id,
            previousToken: body.previous_token,
            sessionId: id,
          });
    const conversation = await ensureConversation(
      { ...tenant, channel: 'web', customerNumber: customer },
      async () => ({
        serviceNumber: WIDGET_SERVICE_ADDRESS,
        // The widget's squad when it is one of this mode, else the default agent.
        ...(await conversationAnswerer(tenant, {
          agentId: await defaultAgentId(auth.orgId, auth.livemode),
          squadId: policy.squadId,
        })),
      }),
    );
    const token = newSessionToken(id);
    const now = idTime(id);
    const doc: WithId<WidgetSessionDoc> = {
      _id: id,
      org_id: auth.orgId,
      livemode: auth.livemode,
      token_hash: hashSessionToken(token),
      visitor_id: body.visitor_id,
      user_id: userId,
      conversation_id: conversation._id,
      ip: req.ip ?? null,
      expires_ms: now + SESSION_TTL_MS,
      created: Math.floor(now / 1000),
    };
    await insertIfAbsent(WidgetSession, doc);
    // The greeting the panel shows as it opens: the answering agent's own words, no model request.
    const agent = await answeringAgent(tenant, conversation.agent_id);
    res.json(renderWidgetSession(doc, token, agent?.first_message ?? null));
  },
});

/**
 * `POST /v1/widget/messages` (session token) `{text}`, Idempotency-Key (scoped to the session) → the
 * stored `message` (`direction: inbound`, `author: customer`). The conversation's workflow stores it and
 * the assistant answers; the answer arrives on the stream.
 */
function sendWidgetMessage(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/widget/messages',
    operationId: 'sendWidgetMessage',
    tag,
    summary: "Send the visitor's message",
    description: "Stored in the session's `web` conversation; the assistant's answer arrives on the stream.",
    widget: 'widgetSessionToken',
    idempotent: true,
    before: [sessionAuth({ queryToken: false }), acceptsQuery()],
    body: widgetMessageSchema,
    example: { text: 'Do you open on Saturdays?' },
    response: MessageObject,
    handler: async (req, res, { body }) => {
      const session = req.widget!.session!;
      await idempotent(req, res, 'msg', async (messageId) => {
        const conv = await sessionConversation(session);
        const result = await updateConversation(temporal, conv, receiveUpdate, messageId, {
          messageId,
          dedupeKey: `msg:${messageId}`,
          from: conv.customer_number,
          to: WIDGET_SERVICE_ADDRESS,
          text: body.text,
          receivedMs: Date.now(),
          providerSid: null,
        });
        const doc = (await Message.findById(result.messageId).lean()) as WithId<MessageDoc> | null;
        if (!doc) throw new Error(`widget message ${result.messageId} not found after it was stored`);
        return { status: 200, body: renderMessage(doc) };
      });
    },
  });
}

/** The stream's query parameters, checked before the session token (which may be one of them). */
const STREAM_QUERY = ['token', 'last_event_id'];

/**
 * `GET /v1/widget/stream?token=…[&last_event_id=N]` → `text/event-stream` (src/api/sse.ts): every message
 * of the session's conversation as `event: message`, `id: <log entry>`, `data: <message object>`, in the
 * order stored; `retry:` first, a `: heartbeat` comment every 15 s. A reconnect with `Last-Event-ID` (or
 * `?last_event_id=`) gets every message after that entry, once, in order. The events come from the store
 * (`conversation_log`), so any API process serves any reconnect; an idle stream reads nothing, woken by
 * its process's one poller when its conversation changes (src/services/widget-streams.ts). The stream ends
 * when the session expires. Open streams are capped per session, per organization and IP address and per
 * organization (`WIDGET_STREAMS_PER_SESSION`, `WIDGET_STREAMS_PER_IP`, `WIDGET_STREAMS_PER_ORG`): 429
 * `stream_limit_exceeded` with `Retry-After` beyond.
 */
const streamWidgetEvents = operation({
  method: 'get',
  path: '/v1/widget/stream',
  operationId: 'streamWidgetEvents',
  tag,
  summary: 'Stream the conversation (server-sent events)',
  description:
    '`text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order. Open streams are capped per session (default 5), per organization and IP address (default 50) and per organization (default 2,000): beyond, 429 `rate_limit_error` with code `stream_limit_exceeded` and `Retry-After` (close a stream before opening another).',
  widget: 'widgetSessionToken',
  query: [
    { name: 'token', required: true, description: 'The widget session token (EventSource cannot send headers).' },
    {
      name: 'last_event_id',
      description: 'Resume after this event id (the `Last-Event-ID` header wins).',
      schema: z.int().min(0).max(9_999_999_999),
    },
  ],
  // An unknown query parameter is refused before the token is looked at (the declared check repeats it).
  before: [acceptsQuery(...STREAM_QUERY), sessionAuth({ queryToken: true })],
  content: { 'text/event-stream': { schema: SSE_EVENT_SCHEMA } },
  errors: { '429': ['stream_limit_exceeded'] },
  handler: async (req, res) => {
    const session = req.widget!.session!;
    const after = lastEventId(req);
    const release = await acquireStreamLease({ orgId: session.org_id, sessionId: session._id, ip: req.ip ?? '' });
    try {
      await serveEventStream(req, res, after, {
        name: 'widget stream',
        logFields: { session: session._id },
        live: () => Date.now() < session.expires_ms,
        watch: (wake, last) => watchConversation({ conversationId: session.conversation_id, last, wake }),
        retryMs: STREAM_RETRY_MS,
        heartbeatMs: config().widgetStreamHeartbeatMs,
        next: async (last) => {
          const entry = await ConversationLogEntry.findById(
            conversationLogId(session.conversation_id, last + 1),
          ).lean();
          if (!entry) return null;
          const message = (await Message.findById(entry.message_id).lean()) as WithId<MessageDoc> | null;
          if (!message) throw new Error(`log entry ${entry._id} names a missing message ${entry.message_id}`);
          // The visitor sees the messages, not the tool calls behind the assistant's (their arguments and
          // answers are the organization's business): those are shown by the secret-key API only.
          const { tool_calls: _internal, ...shown } = renderMessage(message);
          return { event: 'message', id: entry.seq, data: shown };
        },
      });
    } finally {
      await release();
    }
  },
});

/**
 * What a widget session's voice call needs before anything is created: LiveKit (503
 * `voice_not_configured` in live mode without it), the session's conversation, and its answering agent
 * (the conversation's, else the default one, as a text turn picks it; 409 `agent_missing` without one).
 */
async function voiceCallFor(session: WithId<WidgetSessionDoc>) {
  const livekit = livekitSettings();
  if (session.livemode && !livekit)
    throw new ApiError(
      503,
      'api_error',
      'voice_not_configured',
      'Browser voice needs LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET on the service; use a test-mode key for a simulated room.',
    );
  const conv = await sessionConversation(session);
  const agent = await answeringAgent({ orgId: session.org_id, livemode: session.livemode }, conv.agent_id);
  if (!agent)
    throw new ApiError(
      409,
      'invalid_request_error',
      'agent_missing',
      'No assistant answers this widget: mark an agent default (POST /v1/agents/{id} with default: true).',
    );
  return { livekit, conv, agent: agent as WithId<AgentDoc> };
}

/**
 * `POST /v1/widget/voice` (session token), Idempotency-Key → `{object: 'widget_voice', url, room, token,
 * expires_at, call_id, simulated, call}`. The voice session is a call (`GET /v1/calls/{id}`, the same
 * events; `POST /v1/calls/{id}/end` ends it).
 * - With `LIVEKIT_URL`, `LIVEKIT_API_KEY` and `LIVEKIT_API_SECRET` (test or live mode): a LiveKit room
 *   named after the call, an access token for it and this visitor (src/providers/livekit.ts `roomToken`,
 *   identity = the conversation's visitor, valid 10 minutes to join), and the call's workflow sends the
 *   assistant into the room (`attendRoom`, src/activities/voice-room.ts): it listens, answers and speaks.
 *   The call rings until the visitor joins (60 s, then `no_answer`) and ends when they leave. One room
 *   per visitor at a time: 409 `call_in_progress` while their previous voice call is live.
 * - Without them: test mode answers a simulated room whose call runs as a simulated call; live mode is
 *   503 `voice_not_configured`.
 * - The room's call takes one of the organization's call slots at once (src/services/call-slots.ts
 *   `tryAcquireCallSlot`): at `max_concurrent_calls`, 429 `concurrency_limit` with `Retry-After`, and
 *   nothing is created.
 */
function startWidgetVoice(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/widget/voice',
    operationId: 'startWidgetVoice',
    errors: {
      '409': ['agent_missing', 'call_in_progress'],
      '429': ['concurrency_limit'],
      '503': ['voice_not_configured'],
    },
    tag,
    summary: 'Start a browser voice call',
    description:
      'A LiveKit room token (valid 10 minutes to join) for a room the assistant joins, listens in and answers aloud, when the service has LiveKit; in test mode without it, a simulated room whose call runs as a simulated call; in live mode without it, 503 `voice_not_configured`. The voice session is a call (`GET /v1/calls/{id}`, `POST /v1/calls/{id}/end`).',
    widget: 'widgetSessionToken',
    idempotent: true,
    before: [sessionAuth({ queryToken: false }), acceptsQuery()],
    body: null,
    response: WidgetVoiceObject,
    handler: async (req, res) => {
      const session = req.widget!.session!;
      const { livekit, conv, agent } = await voiceCallFor(session);
      await idempotent(req, res, 'call', async (callId) => {
        const started = await startVoiceRoomCall(temporal, session, callId, {
          agent,
          conv,
          livekit,
          ttlSeconds: VOICE_TOKEN_TTL_S,
        });
        const voice: z.output<typeof WidgetVoiceObject> = {
          object: 'widget_voice',
          url: started.room.url,
          room: callId,
          token: started.room.token,
          expires_at: started.expiresAt,
          call_id: callId,
          simulated: started.room.simulated,
          call: renderCall(started.doc),
        };
        return { status: 200, body: voice };
      });
    },
  });
}

/**
 * The widget routes (mounted at `/v1/widget`, before the API-key authentication of the other routes):
 * CORS for all of them, then each operation with its own authentication (`before`).
 */
export function widgetRouter(temporal: Client): Router {
  const router = Router();
  router.use(cors);
  router.use(
    operationsRouter('/v1/widget', [
      createWidgetSession,
      sendWidgetMessage(temporal),
      streamWidgetEvents,
      startWidgetVoice(temporal),
    ]),
  );
  return router;
}

/** Where the widget's browser files are: `web/` at the top of the checkout (this file is dist/src/api/). */
const WEB_DIR = path.resolve(__dirname, '..', '..', '..', 'web');

/** The LiveKit browser SDK's UMD build (global `LivekitClient`), which the widget loads for voice calls. */
const LIVEKIT_CLIENT_FILE = require.resolve('livekit-client');

/** Answers `file` as `type`, cacheable for 5 minutes, loadable from any origin. */
const serve = (file: string, type: string) => (_req: Request, res: Response) => {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(fs.readFileSync(file));
};

/**
 * `GET /widget.js` (the browser script, web/widget.js; any origin may load it), `GET /widget/demo`
 * (a page that mounts it with the publishable key in its fragment, `#key=svc_pk_…`; `npm start` prints
 * its address) and `GET /widget/livekit-client.js` (the `livekit-client` package's UMD build, loaded by
 * the widget when the visitor starts a voice call). No key is needed for any: they hold nothing secret.
 * Mounted at the root.
 */
export function widgetAssetsRouter(): Router {
  return operationsRouter('', [
    operation({
      method: 'get',
      path: '/widget.js',
      operationId: 'widgetScript',
      tag,
      summary: 'The widget script',
      description:
        'The browser script: `SvcWidget.mount({publishableKey, apiBase?, identity?, voice?})` shows a chat panel (session, stream, messages) with a Call button (a voice room, `POST /v1/widget/voice`). No key needed.',
      content: { 'application/javascript': { schema: { type: 'string' } } },
      handler: serve(path.join(WEB_DIR, 'widget.js'), 'application/javascript; charset=utf-8'),
    }),
    operation({
      method: 'get',
      path: '/widget/demo',
      operationId: 'widgetDemo',
      tag,
      summary: 'The widget demo page',
      description: 'A page that mounts the widget with the publishable key of its fragment (`#key=svc_pk_…`).',
      content: { 'text/html': { schema: { type: 'string' } } },
      handler: serve(path.join(WEB_DIR, 'widget-demo.html'), 'text/html; charset=utf-8'),
    }),
    operation({
      method: 'get',
      path: '/widget/livekit-client.js',
      operationId: 'widgetLivekitClient',
      tag,
      summary: "LiveKit's browser SDK",
      description:
        "The `livekit-client` package's UMD build (global `LivekitClient`), which the widget loads when the visitor starts a voice call. No key needed.",
      content: { 'application/javascript': { schema: { type: 'string' } } },
      handler: serve(LIVEKIT_CLIENT_FILE, 'application/javascript; charset=utf-8'),
    }),
  ]);
}
