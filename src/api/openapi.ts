/**
 * The API contract as an OpenAPI 3.1 document (issue 15), served at `GET /v1/openapi.json` without a
 * key, and `GET /docs`, a reference page rendered from it by Swagger UI (the `swagger-ui-dist` npm
 * package, served from this process: no CDN).
 *
 * Generated, never hand-written: request bodies are the zod schemas the routes validate with (exported by
 * each router), converted by zod 4's `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect);
 * responses are the object schemas of src/api/objects.ts, shared as `components.schemas`. The operation
 * table below says, per route, its scope, query parameters, body and answer; test/unit/openapi.test.ts
 * checks that it names exactly the routes the app mounts, and scripts/fuzz-api.sh (schemathesis, in CI)
 * checks that every answer matches it.
 */
import path from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import { API_VERSION } from '../config';
import { CHANNELS } from '../shared/conversations';
import * as O from './objects';
import {
  API_OPERATIONS,
  operation as declareOperation,
  operationsRouter,
  type ApiOperation,
  type QueryParam,
} from './operations';
import { API_OBJECTS } from '../models/wire';
import { connectorVersionSchema, publisherKeySchema } from './connectors';
import { inboundMessageSchema, messageTemplateSchema, phoneNumberSchema, sendMessageSchema } from './conversations';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from './webhooks';
import { widgetMessageSchema, widgetSessionSchema } from './widget';

const LIST_PARAMS: QueryParam[] = [
  {
    name: 'limit',
    description: 'How many objects to return, 1 to 100 (default 20).',
    schema: z.string().regex(/^(100|[1-9][0-9]?)$/),
  },
  { name: 'starting_after', description: 'A cursor: the id of the last object of the previous page.' },
  { name: 'ending_before', description: 'A cursor: the id of the first object of the next page.' },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const op = (o: Omit<ApiOperation<any>, 'handler'>) => o as ApiOperation;
const crud = (tag: string) => ({ tag });

/** Every route of the API, in the order the reference shows them. */
export const OPERATIONS: ApiOperation[] = [
  // Messaging
  op({
    ...crud('Messaging'),
    method: 'post',
    path: '/v1/messages',
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      "WhatsApp or SMS. Free-form text inside WhatsApp's 24-hour window, a `template` outside it (else 409 `whatsapp_window_closed`).",
    scope: 'messages:write',
    body: sendMessageSchema,
    example: { channel: 'sms', to: '+14155550123', text: 'Your appointment is confirmed.' },
    response: O.Message,
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/messages/{id}',
    operationId: 'retrieveMessage',
    summary: 'Retrieve a message',
    scope: 'messages:read',
    response: O.Message,
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/conversations',
    operationId: 'listConversations',
    summary: 'List conversations',
    scope: 'messages:read',
    list: true,
    query: [
      { name: 'channel', description: 'Only this channel.', schema: z.enum(CHANNELS) },
      { name: 'status', description: 'Only conversations in this status.', schema: O.Conversation.shape.status },
      { name: 'customer_number', description: "Only this customer's conversations (E.164)." },
    ],
    response: O.listOf(O.Conversation),
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/conversations/{id}',
    operationId: 'retrieveConversation',
    summary: 'Retrieve a conversation',
    scope: 'messages:read',
    response: O.Conversation,
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/conversations/{id}/messages',
    operationId: 'listConversationMessages',
    summary: "List a conversation's messages",
    scope: 'messages:read',
    list: true,
    response: O.listOf(O.Message),
  }),
  op({
    ...crud('Messaging'),
    method: 'post',
    path: '/v1/conversations/{id}/resume',
    operationId: 'resumeConversation',
    summary: 'Hand a conversation back to the assistant',
    scope: 'messages:write',
    body: null,
    response: O.Conversation,
  }),
  op({
    ...crud('Messaging'),
    method: 'post',
    path: '/v1/phone_numbers',
    operationId: 'createPhoneNumber',
    summary: 'Connect a number for messaging',
    scope: 'phone_numbers:write',
    body: phoneNumberSchema,
    example: { number: '+14155550100', channels: ['whatsapp', 'sms'] },
    response: O.PhoneNumber,
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/phone_numbers',
    operationId: 'listPhoneNumbers',
    summary: 'List connected numbers',
    scope: 'phone_numbers:read',
    list: true,
    response: O.listOf(O.PhoneNumber),
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/phone_numbers/{id}',
    operationId: 'retrievePhoneNumber',
    summary: 'Retrieve a connected number',
    scope: 'phone_numbers:read',
    response: O.PhoneNumber,
  }),
  op({
    ...crud('Messaging'),
    method: 'delete',
    path: '/v1/phone_numbers/{id}',
    operationId: 'deletePhoneNumber',
    summary: 'Disconnect a number',
    scope: 'phone_numbers:write',
    response: O.DeletedObject,
  }),
  op({
    ...crud('Messaging'),
    method: 'post',
    path: '/v1/message_templates',
    operationId: 'createMessageTemplate',
    summary: 'Register a WhatsApp template',
    scope: 'messages:write',
    body: messageTemplateSchema,
    response: O.MessageTemplate,
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/message_templates',
    operationId: 'listMessageTemplates',
    summary: 'List WhatsApp templates',
    scope: 'messages:read',
    list: true,
    response: O.listOf(O.MessageTemplate),
  }),
  op({
    ...crud('Messaging'),
    method: 'get',
    path: '/v1/message_templates/{id}',
    operationId: 'retrieveMessageTemplate',
    summary: 'Retrieve a WhatsApp template',
    scope: 'messages:read',
    response: O.MessageTemplate,
  }),
  op({
    ...crud('Messaging'),
    method: 'post',
    path: '/v1/test_helpers/inbound_messages',
    operationId: 'simulateInboundMessage',
    summary: 'Simulate an inbound message (test mode)',
    description: 'As if a customer had written to a service number; the assistant answers as it would live.',
    scope: 'messages:write',
    body: inboundMessageSchema,
    response: O.Message,
  }),
  // The browser widget (spec section 4 "Widget"): no scope; a publishable key or a session token.
  op({
    tag: 'Widget',
    method: 'post',
    path: '/v1/widget/session',
    operationId: 'createWidgetSession',
    summary: 'Open a widget session',
    description:
      "With a publishable key, from the organization's allowed origins. `identity.user_hash` is the lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret (`svcctl widget configure`); a verified user continues the same conversation in every browser.",
    widget: 'publishableKey',
    body: widgetSessionSchema,
    example: { visitor_id: 'b9f0c6de-2f39-4a8e-9d39-2a1d3f3c5e10' },
    response: O.WidgetSession,
  }),
  op({
    tag: 'Widget',
    method: 'post',
    path: '/v1/widget/messages',
    operationId: 'sendWidgetMessage',
    summary: "Send the visitor's message",
    description: "Stored in the session's `web` conversation; the assistant's answer arrives on the stream.",
    widget: 'widgetSessionToken',
    idempotent: true,
    body: widgetMessageSchema,
    example: { text: 'Do you open on Saturdays?' },
    response: O.Message,
  }),
  op({
    tag: 'Widget',
    method: 'get',
    path: '/v1/widget/stream',
    operationId: 'streamWidgetEvents',
    summary: 'Stream the conversation (server-sent events)',
    description:
      '`text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order.',
    widget: 'widgetSessionToken',
    query: [
      { name: 'token', required: true, description: 'The widget session token (EventSource cannot send headers).' },
      {
        name: 'last_event_id',
        description: 'Resume after this event id (the `Last-Event-ID` header wins).',
        schema: z.string().regex(/^\d{1,10}$/),
      },
    ],
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  }),
  op({
    tag: 'Widget',
    method: 'post',
    path: '/v1/widget/voice',
    operationId: 'startWidgetVoice',
    summary: 'Start a browser voice call',
    description:
      'A LiveKit room token (valid 10 minutes to join) for a room the assistant joins, listens in and answers aloud, when the service has LiveKit; in test mode without it, a simulated room whose call runs as a simulated call; in live mode without it, 503 `voice_not_configured`. The voice session is a call (`GET /v1/calls/{id}`, `POST /v1/calls/{id}/end`).',
    widget: 'widgetSessionToken',
    idempotent: true,
    body: null,
    response: O.WidgetVoice,
  }),
  op({
    tag: 'Widget',
    method: 'get',
    path: '/widget.js',
    operationId: 'widgetScript',
    summary: 'The widget script',
    description:
      'The browser script: `SvcWidget.mount({publishableKey, apiBase?, identity?, voice?})` shows a chat panel (session, stream, messages) with a Call button (a voice room, `POST /v1/widget/voice`). No key needed.',
    content: { 'application/javascript': { schema: { type: 'string' } } },
  }),
  op({
    tag: 'Widget',
    method: 'get',
    path: '/widget/demo',
    operationId: 'widgetDemo',
    summary: 'The widget demo page',
    description: 'A page that mounts the widget with the publishable key of its fragment (`#key=svc_pk_…`).',
    content: { 'text/html': { schema: { type: 'string' } } },
  }),
  op({
    tag: 'Widget',
    method: 'get',
    path: '/widget/livekit-client.js',
    operationId: 'widgetLivekitClient',
    summary: "LiveKit's browser SDK",
    description:
      "The `livekit-client` package's UMD build (global `LivekitClient`), which the widget loads when the visitor starts a voice call. No key needed.",
    content: { 'application/javascript': { schema: { type: 'string' } } },
  }),
  // Webhooks
  op({
    ...crud('Webhooks'),
    method: 'post',
    path: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description: 'HTTPS only. The answer holds the signing `secret`, shown this once.',
    scope: 'webhooks:write',
    body: createWebhookEndpointSchema,
    example: { url: 'https://example.com/hooks/svc', events: ['call.ended', 'bulk_call.completed'] },
    response: O.WebhookEndpoint,
  }),
  op({
    ...crud('Webhooks'),
    method: 'get',
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    scope: 'webhooks:read',
    list: true,
    response: O.listOf(O.WebhookEndpoint),
  }),
  op({
    ...crud('Webhooks'),
    method: 'get',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'retrieveWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint',
    scope: 'webhooks:read',
    response: O.WebhookEndpoint,
  }),
  op({
    ...crud('Webhooks'),
    method: 'post',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'updateWebhookEndpoint',
    summary: 'Update a webhook endpoint',
    scope: 'webhooks:write',
    body: updateWebhookEndpointSchema,
    response: O.WebhookEndpoint,
  }),
  op({
    ...crud('Webhooks'),
    method: 'delete',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    scope: 'webhooks:write',
    response: O.DeletedObject,
  }),
  op({
    ...crud('Webhooks'),
    method: 'post',
    path: '/v1/webhook-endpoints/{id}/rotate_secret',
    operationId: 'rotateWebhookEndpointSecret',
    summary: "Rotate an endpoint's signing secret",
    description: 'Both secrets sign for 24 hours; the answer holds the new one.',
    scope: 'webhooks:write',
    body: null,
    response: O.WebhookEndpoint,
  }),
  op({
    ...crud('Webhooks'),
    method: 'get',
    path: '/v1/webhook-endpoints/{id}/deliveries',
    operationId: 'listWebhookDeliveryAttempts',
    summary: "List an endpoint's delivery attempts",
    scope: 'webhooks:read',
    list: true,
    query: [{ name: 'event', description: "Only this event's attempts (`evt_…`)." }],
    response: O.listOf(O.WebhookDeliveryAttempt),
  }),
  // Connectors
  op({
    ...crud('Connectors'),
    method: 'post',
    path: '/v1/publisher_keys',
    operationId: 'createPublisherKey',
    summary: 'Register a publisher key',
    description: 'An Ed25519 public key (PEM or base64 SPKI/raw) that signs connector versions.',
    scope: 'connectors:write',
    body: publisherKeySchema,
    response: O.PublisherKey,
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/publisher_keys',
    operationId: 'listPublisherKeys',
    summary: 'List publisher keys',
    scope: 'connectors:read',
    list: true,
    response: O.listOf(O.PublisherKey),
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/publisher_keys/{id}',
    operationId: 'retrievePublisherKey',
    summary: 'Retrieve a publisher key',
    scope: 'connectors:read',
    response: O.PublisherKey,
  }),
  op({
    ...crud('Connectors'),
    method: 'delete',
    path: '/v1/publisher_keys/{id}',
    operationId: 'revokePublisherKey',
    summary: 'Revoke a publisher key',
    description: 'Versions it signed stay published; new ones it signs are refused.',
    scope: 'connectors:write',
    response: O.PublisherKey,
  }),
  op({
    ...crud('Connectors'),
    method: 'post',
    path: '/v1/connectors/{id}/versions',
    operationId: 'publishConnectorVersion',
    summary: 'Publish a connector version',
    description:
      'A tar or gzipped tar `bundle` (base64, at most 10 MB) and its Ed25519 `signature` (base64) over the SHA-256 digest of the bundle. The same bytes again answer the stored version.',
    scope: 'connectors:write',
    body: connectorVersionSchema,
    response: O.ConnectorVersion,
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/connectors',
    operationId: 'listConnectors',
    summary: 'List connectors',
    scope: 'connectors:read',
    list: true,
    response: O.listOf(O.Connector),
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/connectors/{id}',
    operationId: 'retrieveConnector',
    summary: 'Retrieve a connector',
    scope: 'connectors:read',
    response: O.Connector,
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/connectors/{id}/versions',
    operationId: 'listConnectorVersions',
    summary: "List a connector's versions",
    scope: 'connectors:read',
    list: true,
    response: O.listOf(O.ConnectorVersion),
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/connectors/{id}/versions/{version}',
    operationId: 'retrieveConnectorVersion',
    summary: 'Retrieve a connector version',
    scope: 'connectors:read',
    response: O.ConnectorVersion,
  }),
  op({
    ...crud('Connectors'),
    method: 'get',
    path: '/v1/connectors/{id}/versions/{version}/bundle',
    operationId: 'downloadConnectorBundle',
    summary: "Download a version's bundle",
    description: 'Byte for byte as published, with `Repr-Digest` (RFC 9530) and `ETag`.',
    scope: 'connectors:read',
    content: {
      'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } },
      'application/x-tar': { schema: { type: 'string', contentMediaType: 'application/x-tar' } },
    },
  }),
];

/**
 * Routes the app mounts that the document leaves out: only the viewer's own static files under `/docs/`
 * (scripts and styles of `swagger-ui-dist`). test/unit/openapi.test.ts allows exactly these.
 */
export const UNDOCUMENTED_ROUTES = [/^\/docs\/.+/];

type JsonSchema = Record<string, unknown>;

/** Converts a zod schema to JSON Schema 2020-12, objects of src/api/objects.ts as component `$ref`s. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  delete out.$defs; // the registered objects, which are components
  return JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The `responses` of an operation: its 200, the errors every keyed route may answer, and `default`. */
function responses(o: ApiOperation): JsonSchema {
  const ok: JsonSchema = { description: 'OK' };
  const content: Record<string, unknown> = {};
  if (o.response) content['application/json'] = { schema: jsonSchema(o.response, 'output') };
  Object.assign(content, o.content ?? {});
  ok.content = content;
  if (o.method === 'post' && (o.scope || o.idempotent))
    ok.headers = { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
  const out: JsonSchema = { [o.okStatus ?? '200']: o.okStatus ? { description: 'Taken; no body.' } : ok };
  if (o.twilioForm) {
    out['400'] = errorResponse('A parameter Twilio always sends is missing or malformed.');
    out['403'] = errorResponse('`X-Twilio-Signature` does not verify (`twilio_signature_invalid`).');
  }
  if (o.path === '/metrics') out['403'] = errorResponse('Not from loopback, and no valid `METRICS_TOKEN`.');
  if (o.scope) {
    out['400'] = errorResponse('Invalid request: `param` names the field at fault.');
    out['401'] = errorResponse('No key, or an invalid key.');
    out['403'] = errorResponse(`The key lacks the \`${o.scope}\` scope.`);
    if (o.path.includes('{')) out['404'] = errorResponse('No such object in this mode.');
    out['429'] = {
      ...errorResponse('Too many requests for this key; retry after `Retry-After` seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    };
  }
  if (o.widget) {
    out['400'] = errorResponse('Invalid request: `param` names the field at fault.');
    out['401'] = errorResponse(
      o.widget === 'publishableKey'
        ? 'No key or an invalid key; `identity_verification_failed` for a wrong `user_hash`; `identity_required` when the organization requires one.'
        : '`widget_session_invalid`: no session token, or an invalid or expired one.',
    );
    out['403'] = errorResponse(
      o.widget === 'publishableKey'
        ? '`publishable_key_required` (a secret or restricted key), or `origin_not_allowed`.'
        : "`origin_not_allowed`: the page's origin is not the organization's.",
    );
    out['429'] = {
      ...errorResponse('Too many requests from this IP address or in this session; retry after `Retry-After` seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    };
  }
  if (o.path === '/readyz') out['503'] = { description: 'Not ready: names what is down.', content: o.content };
  out.default = errorResponse('Any other error (409 conflicts, 415, 5xx), in the same shape.');
  return out;
}

/** The OpenAPI operation object of `o`. */
function operation(o: ApiOperation): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const name of o.path.match(/\{(\w+)\}/g) ?? []) {
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const q of [...(o.list ? LIST_PARAMS : []), ...(o.query ?? [])]) {
    parameters.push({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: q.schema ? jsonSchema(q.schema, 'input') : { type: 'string' },
    });
  }
  if (o.method === 'post' && (o.scope || o.idempotent))
    parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const out: JsonSchema = {
    operationId: o.operationId,
    tags: [o.tag],
    summary: o.summary,
    ...(o.description ? { description: o.description } : {}),
    ...(parameters.length ? { parameters } : {}),
  };
  const body = o.body ?? o.bodyDoc;
  if (body) {
    const schema = jsonSchema(body, 'input');
    out.requestBody = {
      required: true,
      content: { 'application/json': { schema, ...(o.example ? { example: o.example } : {}) } },
    };
  } else if (o.body === null) {
    out.requestBody = {
      required: false,
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } },
    };
  }
  if (o.twilioForm) {
    // Not required: a callback without Twilio's parameters is answered harmlessly (`<Hangup/>`, ignored).
    out.requestBody = {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(
              Object.entries(o.twilioForm).map(([k, description]) => [k, { type: 'string', description }]),
            ),
          },
        },
      },
    };
  }
  out.responses = responses(o);
  if (o.twilioForm) {
    out.security = [{ twilioSignature: [] }];
  } else if (o.scope) {
    out.security = [{ secretKey: [] }, { restrictedKey: [o.scope] }];
    out['x-scope'] = o.scope;
  } else if (o.widget) {
    out.security = [{ [o.widget]: [] }];
  } else {
    out.security = [];
  }
  return out;
}

/** The component schemas: every object of src/api/objects.ts, cross-references as `$ref`s. */
function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const [id, schema] of Object.entries(schemas)) {
    if (!(id in API_OBJECTS))
      throw new Error(`a zod schema registered outside src/models/wire.ts apiObject has the id ${id}`);
    delete schema.$schema;
    delete schema.$id;
    schema.description ??= z.globalRegistry.get(API_OBJECTS[id])?.description;
  }
  return schemas;
}

let cached: JsonSchema | undefined;

/**
 * The OpenAPI 3.1 document of the API (built once per process; it depends only on the code).
 * @param serverUrl the `servers[0].url` to advertise (the request's own origin when served)
 */
export function openApiDocument(serverUrl = 'http://localhost:8080'): JsonSchema {
  cached ??= buildDocument();
  return { ...cached, servers: [{ url: serverUrl }] };
}

/**
 * Every documented operation: those the routers declared and mounted (src/api/operations.ts
 * `API_OPERATIONS`, filled by `createApp`).
 */
export function documentedOperations(): ApiOperation[] {
  return [...API_OPERATIONS.values(), ...OPERATIONS];
}

function buildDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operations = documentedOperations();
  for (const o of operations) (paths[o.path] ??= {})[o.method] = operation(o);
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Assistant telephony and messaging API',
      version: API_VERSION,
      description: [
        'Put an AI assistant on the phone and on WhatsApp/SMS: outbound calls (live through Twilio, or simulated with a test key), bulk call campaigns that fill a form on every call, messages and conversations, knowledge and contacts, signed webhooks, usage and connectors.',
        '',
        'Conventions (spec section 7): JSON bodies only; errors are `{"error": {type, code, message, param?, request_id}}`; lists are `{object: "list", data, has_more, url}` with `limit`, `starting_after`, `ending_before`; unknown body fields and query parameters are 400 `parameter_unknown`; every POST takes an `Idempotency-Key` (a retry with the same key and body answers the first response, never a second call, message or charge); test keys (`svc_sk_test_…`) and live keys never see each other\'s objects; each key is rate limited (429 with `Retry-After` and `RateLimit-*` headers).',
      ].join('\n'),
    },
    tags,
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_sk_{test,live}_…',
          description: 'A secret key: every scope. Server-side only.',
        },
        restrictedKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_rk_{test,live}_…',
          description:
            "A restricted key: only its scopes (`resource:read|write`, write implying read). Each operation's `x-scope` names the one it needs; without it the answer is 403 `scope_missing`.",
        },
        publishableKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_pk_{test,live}_…',
          description:
            'A publishable key, safe in a browser: it opens widget sessions only, and is 403 on every other operation.',
        },
        twilioSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Twilio-Signature',
          description:
            "Twilio's HMAC-SHA1 of the full URL and the POST parameters, keyed with the account's auth token (https://www.twilio.com/docs/usage/webhooks/webhooks-security).",
        },
        widgetSessionToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A widget session token, answered by the widget session endpoint; valid 24 hours.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Up to 255 characters, unique per request (a UUID). The same key with the same request answers the first response (`Idempotent-Replayed: true`); with a different request, 422 `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use`. Kept 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        IdempotentReplayed: {
          description: '`true` when this answer is the replay of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'string' } },
      },
    },
  };
}

/** `GET /v1/openapi.json`: the document, its server the request's own origin. No key needed. */
const retrieveOpenApiDocument = declareOperation({
  method: 'get',
  path: '/v1/openapi.json',
  operationId: 'retrieveOpenApiDocument',
  tag: 'Service',
  summary: 'This document',
  description: 'No key needed.',
  content: { 'application/json': { schema: { type: 'object' } } },
  handler: (req, res) => {
    res.json(openApiDocument(`${req.protocol}://${req.get('host') ?? 'localhost'}`));
  },
});

/** `GET /docs` (and `/docs/`): the Swagger UI page over the document, under a same-origin CSP. */
const reference = declareOperation({
  method: 'get',
  path: '/docs',
  operationId: 'reference',
  tag: 'Service',
  summary: 'This document, rendered (Swagger UI)',
  content: { 'text/html': { schema: { type: 'string' } } },
  handler: (_req, res) => {
    res
      .type('html')
      .set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
      .send(DOCS_PAGE);
  },
});

/**
 * `GET /v1/openapi.json` (the document, no key) and `GET /docs` (Swagger UI over it, from the
 * `swagger-ui-dist` package's files, `UNDOCUMENTED_ROUTES`). Mounted before the API's key check.
 */
export function openApiRouter(): Router {
  const router = Router();
  router.use(operationsRouter('', [retrieveOpenApiDocument, reference]));
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/docs/init.js', (_req, res) => void res.type('js').send(DOCS_INIT));
  router.use('/docs', express.static(assets, { index: false, fallthrough: true }));
  return router;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true });\n`;
