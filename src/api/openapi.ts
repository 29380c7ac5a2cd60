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
 * src/models (`apiObject`, src/models/wire.ts), shared as `components.schemas`. test/unit/openapi.test.ts
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
    description: 'How many objects to return, 1 to 100 (default 20).',
    schema: z.string().regex(/^(100|[1-9][0-9]?)$/),
  },
  { name: 'starting_after', description: 'A cursor: the id of the last object of the previous page.' },
  { name: 'ending_before', description: 'A cursor: the id of the first object of the next page.' },
];

/**
 * Routes the app mounts that the document leaves out: only the viewer's own static files under `/docs/`
 * (scripts and styles of `swagger-ui-dist`). test/unit/openapi.test.ts allows exactly these.
 */
export const UNDOCUMENTED_ROUTES = [/^\/docs\/.+/];

type JsonSchema = Record<string, unknown>;

/** Converts a zod schema to JSON Schema 2020-12, the registered objects (src/models) as component `$ref`s. */
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
  if (o.scope || o.widget)
    out['503'] = {
      ...errorResponse(
        '`service_unavailable`: the store or Temporal did not answer (named in the message); retry after `Retry-After` seconds, with the same `Idempotency-Key`.',
      ),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    };
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
  return schemas;
}

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
  return [...API_OPERATIONS.values()];
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
