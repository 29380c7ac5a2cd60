/**
 * The API contract as an OpenAPI 3.1 document, served at `GET /v1/openapi.json` without a key, and
 * `GET /docs`, a reference page rendered from it by Swagger UI (the `swagger-ui-dist` npm package, served
 * from this process: no CDN).
 *
 * Only the generator: nothing here lists the routes. Each router declares its operations once
 * (src/api/operations.ts `operation`, mounted by `operationsRouter`, which records them in
 * `API_OPERATIONS`); the document is built from those declarations: request bodies and query parameters
 * from the zod schemas the routes validate with, converted by zod 4's `z.toJSONSchema` (JSON Schema
 * 2020-12, OpenAPI 3.1's dialect); responses from the objects registered beside their renderers in
 * src/models (`apiObject`, src/models/wire.ts), shared as `components.schemas`, open to new fields, their
 * nested objects named after where they sit (`nameNestedObjects`); errors from what each declaration
 * implies plus its own `errors`, one `<Operation>Error` component per operation with the enum of its
 * codes. `npm run lint:openapi` lints the document (src/cli/openapi.ts). test/unit/openapi.test.ts
 * checks that the routes the app mounts and the operations the document lists are the same set, and the
 * schemathesis run in CI (test/fuzz) that every answer matches the document.
 */
import path from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import { API_VERSION } from '../config';
import { API_OBJECTS } from '../models/wire';
import {
  API_OPERATIONS,
  operation as declareOperation,
  operationsRouter,
  type ApiOperation,
  type QueryParam,
} from './operations';

const LIST_PARAMS: QueryParam[] = [
  {
    name: 'limit',
    description: 'How many objects to return, 1 to 100.',
    schema: z.int().min(1).max(100).default(20),
  },
  {
    name: 'starting_after',
    description: 'A cursor: the id of the last object of the previous page (the next page follows it).',
    schema: z.string(),
  },
  {
    name: 'ending_before',
    description: 'A cursor: the id of the first object of the next page (the previous page precedes it).',
    schema: z.string(),
  },
];

/**
 * Routes the app mounts that the document leaves out: the viewer's own static files under `/docs/`
 * (scripts and styles of `swagger-ui-dist`) and the staff console's app and endpoints under `/console`
 * (its own, not the public API). test/unit/openapi.test.ts allows exactly these.
 */
export const UNDOCUMENTED_ROUTES = [/^\/docs\/.+/, /^\/console(\/|\{|$)/];

type JsonSchema = Record<string, unknown>;

/**
 * Converts a zod schema to JSON Schema 2020-12, the registered objects (src/models) as component `$ref`s.
 * An answer (`io: 'output'`) is left open to new fields (no `additionalProperties: false`): the API adds
 * fields without a new version, and clients ignore those they do not know (README "Compatibility"); a
 * request body (`input`) stays strict, as the routes refuse unknown fields.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  delete out.$defs; // the registered objects, which are components
  const json = JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  return io === 'output' ? openToNewFields(json) : json;
}

/** `schema` with every `additionalProperties: false` removed, at any depth (an answer's objects). */
function openToNewFields<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(openToNewFields) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = openToNewFields(v);
  }
  return out as T;
}

/** `first_message` → `FirstMessage`: a field's name in a component name. */
const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** True for an inline object schema with named properties (not a map, not a `$ref`). */
const isInlineObject = (s: unknown): s is JsonSchema =>
  typeof s === 'object' &&
  s !== null &&
  (s as JsonSchema).type === 'object' &&
  typeof (s as JsonSchema).properties === 'object' &&
  Object.keys((s as JsonSchema).properties as object).length > 0;

/**
 * Moves every object nested in the component schemas (a field's object, an array's items, one side of a
 * nullable or a union) to a component of its own, named after where it sits (`Call.error` → `CallError`,
 * `Transcript.turns[]` → `TranscriptTurnsItem`), so client generators name the types after the API and
 * not after an anonymous position (`CallErrorType0`). Nested objects of nested objects are named in turn.
 * @throws Error when two different objects would take the same name
 */
function nameNestedObjects(schemas: Record<string, JsonSchema>): void {
  const queue = Object.keys(schemas);
  const objects = new Set(queue);
  const place = (wanted: string, schema: JsonSchema): JsonSchema => {
    // A name an API object already has (`Message.template` and `MessageTemplate`) takes `Details`.
    const name = objects.has(wanted) ? `${wanted}Details` : wanted;
    const existing = schemas[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema))
      throw new Error(`two nested objects would be the component ${name}`);
    if (!existing) {
      schemas[name] = schema;
      queue.push(name);
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  /** Replaces the inline objects in `s` (a property's schema) named `name`. */
  const visit = (s: unknown, name: string): unknown => {
    if (isInlineObject(s)) {
      const { description, ...rest } = s;
      const ref = place(name, rest);
      return description ? { ...ref, description } : ref;
    }
    if (typeof s !== 'object' || s === null) return s;
    const out = { ...(s as JsonSchema) };
    if (out.items) out.items = visit(out.items, `${name}Item`);
    for (const k of ['anyOf', 'oneOf'] as const) {
      const members = out[k] as unknown[] | undefined;
      if (!members) continue;
      const objects = members.filter(isInlineObject);
      out[k] = members.map((m) =>
        isInlineObject(m) ? visit(m, objects.length > 1 ? `${name}${objects.indexOf(m) + 1}` : name) : m,
      );
    }
    if (isInlineObject(out.additionalProperties))
      out.additionalProperties = visit(out.additionalProperties, `${name}Value`);
    return out;
  };
  while (queue.length) {
    const id = queue.shift()!;
    const schema = schemas[id];
    const props = schema.properties as Record<string, unknown> | undefined;
    if (props) for (const [k, v] of Object.entries(props)) props[k] = visit(v, `${id}${pascal(k)}`);
    for (const k of ['anyOf', 'oneOf'] as const) {
      const members = schema[k] as unknown[] | undefined;
      if (members) schema[k] = members.map((m, i) => visit(m, `${id}${i + 1}`));
    }
  }
}

const errorResponse = (description: string, schema = 'ApiError') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

type Status = '400' | '401' | '403' | '404' | '409' | '413' | '415' | '422' | '429' | '503';

/** What each error status means, for the responses' descriptions. */
const STATUS_MEANING: Record<Status, string> = {
  '400': 'Invalid request: `param` names the field at fault.',
  '401': 'No credential, or an invalid one.',
  '403': 'The credential may not do this.',
  '404': 'No such object in this mode (`param` names the id at fault when it came in the body).',
  '409': 'Conflicts with the state of an object, or with a request still running under the same `Idempotency-Key`.',
  '413': 'The body is larger than this operation takes.',
  '415': 'The body is not `application/json` (or uses an unsupported `Content-Encoding`).',
  '422': 'Understood but not done: the `code` says why.',
  '429': 'Too many requests; retry after `Retry-After` seconds.',
  '503':
    'A dependency did not answer (named in the message), or the service is not configured for this; retry after `Retry-After` seconds, with the same `Idempotency-Key`.',
};

/**
 * The error codes an operation's declaration implies, by status: bad parameters and bodies, keys and
 * scopes (src/api/middleware.ts), a path object that does not exist, idempotency (src/api/idempotency.ts),
 * rate limits and outages; its own codes come from its `errors` (src/api/operations.ts `DeclaredErrors`).
 */
function impliedErrors(o: ApiOperation): Partial<Record<Status, string[]>> {
  const out: Partial<Record<Status, string[]>> = {};
  const add = (status: Status, ...codes: string[]) => (out[status] = [...(out[status] ?? []), ...codes]);
  const post = o.method === 'post';
  const takesBody = post && !o.twilioForm;
  if (o.twilioForm) {
    add('400', 'parameter_missing', 'parameter_invalid');
    // src/api/twilio/requests.ts `twilioCallbackGuard`: an unverified signature, or another organization's account.
    add('403', 'twilio_signature_invalid', 'twilio_account_mismatch');
  }
  if (o.scope || o.widget) {
    add('400', 'parameter_unknown', 'api_version_invalid');
    // A path parameter that does not percent-decode (`url_invalid`), or not in its form (`parameter_invalid`).
    if (o.path.includes('{')) add('400', 'url_invalid', 'parameter_invalid');
    if (o.list || o.query?.length || takesBody) add('400', 'parameter_invalid', 'parameter_missing');
    if (takesBody) add('400', 'body_invalid');
    if (takesBody && (o.scope || o.idempotent)) add('400', 'idempotency_key_invalid');
    if (o.scope) {
      add('401', 'api_key_missing', 'api_key_invalid');
      add('403', 'scope_missing');
      // The staff console calls these with its session cookie instead of a key (src/api/console.ts
      // `consoleSessionAuth`): a session that is gone, or a write without the session's CSRF token.
      add('401', 'session_missing', 'session_expired');
      if (o.method !== 'get') add('403', 'csrf_token_invalid');
      if (o.path.includes('{')) add('404', 'resource_missing');
    } else if (o.widget === 'publishableKey') {
      add('401', 'api_key_missing', 'api_key_invalid', 'identity_verification_failed', 'identity_required');
      add('403', 'publishable_key_required', 'origin_not_allowed');
    } else {
      add('401', 'widget_session_invalid');
      add('403', 'origin_not_allowed');
    }
    if (takesBody && (o.scope || o.idempotent)) {
      add('409', 'idempotency_key_in_use');
      add('422', 'idempotency_key_reused');
    }
    if (takesBody) {
      add('413', 'body_too_large');
      add('415', 'content_type_unsupported', 'content_encoding_unsupported');
    }
    add('429', 'rate_limit_exceeded');
    add('503', 'service_unavailable');
  }
  for (const [status, codes] of Object.entries(o.errors ?? {})) add(status as Status, ...codes);
  return out;
}

/** `createCall` → `CreateCall`. */
const typeName = (operationId: string) => operationId[0].toUpperCase() + operationId.slice(1);

/**
 * The error components of `o`: `<Operation>Error` (`{error}`) and `<Operation>ErrorDetail`, the
 * `ApiErrorDetail` whose `code` is the enum of every code the operation answers.
 */
function operationErrorSchemas(o: ApiOperation, codes: string[], detail: JsonSchema): Record<string, JsonSchema> {
  const name = `${typeName(o.operationId)}Error`;
  const properties = detail.properties as Record<string, JsonSchema>;
  return {
    [name]: {
      type: 'object',
      description: `An error \`${o.operationId}\` answers: \`error.code\` is one of its codes.`,
      required: ['error'],
      properties: { error: { $ref: `#/components/schemas/${name}Detail` } },
    },
    [`${name}Detail`]: {
      ...detail,
      description: `The \`error\` of a failed \`${o.operationId}\`.`,
      properties: { ...properties, code: { type: 'string', enum: [...new Set(codes)].sort() } },
    },
  };
}

/** The `responses` of an operation: its 200, each error status it answers with its codes, and `default`. */
function responses(o: ApiOperation, errorSchema: string | undefined): JsonSchema {
  const ok: JsonSchema = { description: 'OK' };
  const content: Record<string, unknown> = {};
  if (o.response) content['application/json'] = { schema: jsonSchema(o.response, 'output') };
  Object.assign(content, o.content ?? {});
  ok.content = content;
  if (o.method === 'post' && (o.scope || o.idempotent))
    ok.headers = { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
  const out: JsonSchema = { [o.okStatus ?? '200']: o.okStatus ? { description: 'Taken; no body.' } : ok };
  const errors = impliedErrors(o);
  for (const status of Object.keys(errors).sort() as Status[]) {
    const codes = [...new Set(errors[status])].sort();
    out[status] = {
      ...errorResponse(`${STATUS_MEANING[status]} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`, errorSchema),
      ...(status === '429' || status === '503'
        ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } }
        : {}),
    };
  }
  if (o.path === '/readyz') out['503'] = { description: 'Not ready: names what is down.', content: o.content };
  if (o.path === '/metrics') {
    const text = { 'text/plain': { schema: { type: 'string' } } };
    out['401'] = { description: 'A `METRICS_TOKEN` is set and the bearer token is not it.', content: text };
    out['403'] = { description: 'Not from loopback, and no `METRICS_TOKEN` is set.', content: text };
  }
  out.default = errorResponse('Any other error (a 5xx), in the same shape.');
  return out;
}

/**
 * The OpenAPI operation object of `o`.
 * @param errorSchema the component its errors answer (`<Operation>Error`), when it answers any
 */
function operation(o: ApiOperation, errorSchema: string | undefined): JsonSchema {
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
      ...(q.deepObject ? { style: 'deepObject', explode: true } : {}),
      schema: q.schema ? jsonSchema(q.schema, 'input') : { type: 'string' },
    });
  }
  if (o.method === 'post' && (o.scope || o.idempotent))
    parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const out: JsonSchema = {
    operationId: o.operationId,
    tags: [o.tag],
    summary: o.summary,
    description: [o.description ?? `${o.summary}.`, o.scope ? `Needs the \`${o.scope}\` scope.` : '']
      .filter(Boolean)
      .join(' '),
    ...(parameters.length ? { parameters } : {}),
  };
  const body = o.body ?? o.bodyDoc;
  if (body) {
    const schema = jsonSchema(body, 'input');
    out.requestBody = {
      required: true,
      content: {
        'application/json': { schema, ...(o.example ? { example: o.example } : {}) },
        ...(o.multipart ? { 'multipart/form-data': { schema: jsonSchema(o.multipart, 'input') } } : {}),
      },
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
  out.responses = responses(o, errorSchema);
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

/** The component schemas: every object registered with `apiObject` (src/models), cross-references as `$ref`s. */
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
  const open = openToNewFields(schemas);
  nameNestedObjects(open);
  return open;
}

/** What each tag (a group of operations) is about. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Service: 'Probes, metrics and this document; no key needed. The codec server needs the operator token.',
  'Audit log':
    'Who changed what and who read recordings and transcripts: append-only entries, kept `AUDIT_RETENTION_DAYS`.',
  'OpenAI callbacks':
    "What OpenAI's Realtime project calls back (incoming SIP calls of the realtime engine), signed with `OPENAI_WEBHOOK_SECRET`.",
  'Twilio callbacks':
    "What Twilio calls back (call status, speech, recordings, messages), signed with the account's auth token.",
  Widget: 'The browser widget: its script, sessions opened with a publishable key, messages, events and voice.',
  Agents: 'Assistants: their instructions, voice, tools, knowledge and analysis plan.',
  Squads:
    'Agents that hand a call to each other (`handoff_to_<member>` tools), each hand-off with the context the next member sees.',
  Tools: 'Functions an assistant may call during a call or a conversation (HTTP, or a connector).',
  Calls: 'Phone calls placed or answered by an assistant: live through Twilio, or simulated with a test key.',
  Recordings: 'The audio of recorded calls, kept under the organization’s retention.',
  Knowledge: 'Documents an assistant draws on, and searching them.',
  Contacts: 'People and the records kept about them.',
  'Do not call':
    'Numbers no call is ever dialed to: the organization’s own list, checked with its contacts and the national registry.',
  Messaging: 'WhatsApp, SMS and web messages, conversations, phone numbers and message templates.',
  Connectors: 'Packaged integrations: publishers, versions and their signing keys.',
  'Connector installations': 'Connectors installed in an organization, with their configuration.',
  'Bulk calls': 'Campaigns that call a list of contacts and fill a form on each call; forms.',
  Events: 'Everything that happened, as events, and their webhook deliveries.',
  Webhooks: 'Endpoints that receive events, signed with `Svc-Signature`.',
  Usage: 'Minutes, messages and model tokens used, per day.',
  Account: 'The organization the key belongs to.',
  'Test suites':
    'Simulated callers (a persona and a goal, played by a model) calling an agent, each call judged against a rubric; runs compared with the previous one.',
  Replays:
    "An agent version's answers regenerated on the agent's recorded calls, each turn compared with what was said, before the version is published.",
};

let cached: { operations: number; document: JsonSchema } | undefined;

/**
 * The OpenAPI 3.1 document of the API: the operations of every router built so far (`createApp` builds
 * them all), so it depends only on the code; built once per process and again only if more routers are
 * built later.
 * @param serverUrl the `servers[0].url` to advertise: the request's own origin when served, else the
 *   API's address under `npm start` (`PORT` defaults to 3000, src/config.ts)
 */
export function openApiDocument(serverUrl = 'http://localhost:3000'): JsonSchema {
  if (cached?.operations !== API_OPERATIONS.size)
    cached = { operations: API_OPERATIONS.size, document: buildDocument() };
  return { ...cached.document, servers: [{ url: serverUrl }] };
}

/**
 * Every documented operation: those the routers declared and mounted (src/api/operations.ts
 * `API_OPERATIONS`, filled by `createApp`).
 */
export function documentedOperations(): ApiOperation[] {
  return [...API_OPERATIONS.values()].filter((o) => !o.internal);
}

function buildDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operations = documentedOperations();
  const schemas = componentSchemas();
  const detail = schemas.ApiErrorDetail;
  for (const o of operations) {
    const codes = Object.values(impliedErrors(o)).flat();
    const errorSchema = codes.length ? `${typeName(o.operationId)}Error` : undefined;
    if (errorSchema) Object.assign(schemas, operationErrorSchemas(o, codes, detail));
    (paths[o.path] ??= {})[o.method] = operation(o, errorSchema);
  }
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) => {
    const description = TAG_DESCRIPTIONS[name];
    if (!description) throw new Error(`the tag ${name} has no description (src/api/openapi.ts TAG_DESCRIPTIONS)`);
    return { name, description };
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Assistant telephony and messaging API',
      version: API_VERSION,
      description: [
        'Put an AI assistant on the phone and on WhatsApp/SMS: outbound calls (live through Twilio, or simulated with a test key), bulk call campaigns that fill a form on every call, messages and conversations, knowledge and contacts, signed webhooks, usage and connectors.',
        '',
        'Conventions: JSON bodies only; errors are `{"error": {type, code, message, param?, request_id}}`; lists are `{object: "list", data, has_more, url}` with `limit`, `starting_after`, `ending_before`; unknown body fields and query parameters are 400 `parameter_unknown`; every POST takes an `Idempotency-Key` (a retry with the same key and body answers the first response, never a second call, message or charge); test keys (`svc_sk_test_…`) and live keys never see each other\'s objects; each key is rate limited (429 with `Retry-After` and `RateLimit-*` headers).',
      ].join('\n'),
    },
    tags,
    paths,
    components: {
      schemas,
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
            "A restricted key: only its scopes (`resource:read|write`, write implying read), and `account:read`, which every restricted key holds. Each operation's `x-scope` names the one it needs; without it the answer is 403 `scope_missing`.",
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
