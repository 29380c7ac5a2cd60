/**
 * One home per route: each router declares its operations once — method, path, scope, query parameters,
 * request body schema, response schema, examples and the handler — and both the Express routes and the
 * OpenAPI document (src/api/openapi.ts, the generator) come from those declarations. A route cannot be
 * mounted without being documented, nor documented without being mounted: `operationsRouter` is the only
 * way a router here adds a route, and it records each operation in `API_OPERATIONS` as it mounts it.
 *
 * What a declaration implies, so the handler does not repeat it:
 * - `scope`: `requireScope(scope)` before the handler (403 `scope_missing`; spec section 4's table);
 * - `list` and `query`: `acceptsQuery` with `limit`, `starting_after`, `ending_before` and the declared
 *   names (400 `parameter_unknown` for any other, as Stripe answers); keyed GETs and DELETEs only (a
 *   `scope` or a `widget` credential) — `POST`s take no query string (src/api/validation.ts
 *   `noQueryOnWrites`), and the service's probes, pages and scripts ignore one (a probe's or a cache
 *   buster's);
 * - `body` (a zod schema): the handler's `body` argument is the parsed body (400 naming the field at fault,
 *   src/api/validation.ts `parseBody`); `body: null` documents and enforces a POST that takes no body (an empty object at most); `bodyDoc` documents
 *   the body of a handler that parses it itself (`parseIndexed`'s `contacts[17].phone`).
 * - `response`: the 200 answer's zod schema, an object registered by src/models (the renderer returns
 *   its `z.output`, so a renamed field is a compile error there) or `listOf(object)`.
 * - `errors`: the error codes the operation answers beyond those its declaration implies, by status;
 *   the document lists every status with the enum of its codes (src/api/openapi.ts `impliedErrors`).
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { requireScope } from './middleware';
import { acceptsQuery, LIST_QUERY, parseBody, type QueryParam } from './validation';

export type { QueryParam } from './validation';

/** The names a query parameter takes in the query string (`created[gte]`, … for a deepObject). */
export function queryNames(q: QueryParam): string[] {
  return q.deepObject ? q.deepObject.map((k) => `${q.name}[${k}]`) : [q.name];
}

/**
 * The error codes an operation answers beyond those its declaration implies (src/api/openapi.ts
 * `impliedErrors`: bad parameters, keys, scopes, missing path objects, rate limits, idempotency, outages),
 * by HTTP status: its own conflicts, unprocessable requests and checks.
 */
export type DeclaredErrors = Partial<Record<'400' | '401' | '403' | '404' | '409' | '422' | '429' | '503', string[]>>;

/** What every handler is given besides the request and response. */
export interface HandlerArgs<B> {
  /** The body parsed with the operation's `body` schema (`undefined` when it declares none). */
  body: B;
}

/** The body type a declaration's `body` field gives its handler. */
type BodyOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** One route of the API: what the document says of it, and what serves it. */
export interface ApiOperation<S extends z.ZodType | null | undefined = z.ZodType | null | undefined> {
  method: 'get' | 'post' | 'delete';
  /** The OpenAPI path template (`/v1/calls/{id}`); path parameters are strings. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** The scope a restricted key needs (spec section 4's table); absent for routes that take no key. */
  scope?: string;
  /** Query parameters; `list: true` adds `limit`, `starting_after`, `ending_before`. */
  query?: QueryParam[];
  list?: boolean;
  /** The JSON body's schema, parsed before the handler runs; `null` for POSTs that take none. */
  body?: S;
  /**
   * The body's schema, documented but not parsed before the handler: for a handler that parses the body
   * itself (src/api/forms.ts `parseIndexed`, whose `param` names rows as `contacts[17].phone`).
   */
  bodyDoc?: z.ZodType;
  /**
   * The same body as `multipart/form-data` (a file upload), documented beside the JSON one; the route's
   * own parser (`before`, or one mounted ahead) maps the form to the JSON body's shape.
   */
  multipart?: z.ZodType;
  /** An example body for readers (test/unit/openapi.test.ts parses it with `body` or `bodyDoc`). */
  example?: unknown;
  /** The 200 answer's JSON schema (an object of src/models, or `listOf` one). */
  response?: z.ZodType;
  /** Extra 200 content types besides JSON (a CSV export), or instead of it (a binary download). */
  content?: Record<string, { schema: Record<string, unknown> }>;
  /** A Twilio callback: a form-encoded body of Twilio's parameters, signed with `X-Twilio-Signature`. */
  twilioForm?: Record<string, string>;
  /** The error codes of its own, by status (see `DeclaredErrors`). */
  errors?: DeclaredErrors;
  /** The success status when it is not 200 (a callback's 204). */
  okStatus?: '204';
  /** A widget operation: opened with a publishable key, or authenticated by a widget session token. */
  widget?: 'publishableKey' | 'widgetSessionToken';
  /**
   * The staff console's own endpoint (`/console/api/…`): mounted like the others but left out of
   * the public OpenAPI document (src/api/openapi.ts `documentedOperations`).
   */
  internal?: boolean;
  /** Takes an `Idempotency-Key` (every keyed POST does; widget POSTs say so here). */
  idempotent?: boolean;
  /**
   * Middleware run before the declared checks (a route's own body parser or authentication). The
   * handler runs after them; errors thrown or rejected go to the app's error handler.
   */
  before?: RequestHandler[];
  /** Serves the request: answers with `res`, or throws an `ApiError`. */
  handler: (req: Request, res: Response, args: HandlerArgs<BodyOf<S>>) => unknown;
}

/** Declares an operation (an identity that infers the handler's body type from `body`). */
export function operation<S extends z.ZodType | null | undefined = undefined>(o: ApiOperation<S>): ApiOperation<S> {
  return o;
}

/** The body of a POST that takes none: absent, or an empty object. */
const NO_BODY = z.strictObject({});

/** Checks that a body-less POST got no fields (400 naming the first); answers `undefined`. */
function parseNoBody(body: unknown): undefined {
  parseBody(NO_BODY, body);
  return undefined;
}

/**
 * Every operation mounted by `operationsRouter`, by `METHOD path`: the list the OpenAPI document is
 * generated from (src/api/openapi.ts). Filled as routers are built (the app builds every router in
 * src/api/app.ts `createApp`).
 */
export const API_OPERATIONS = new Map<string, ApiOperation>();

/** The Express path of an OpenAPI template under a mount path: `/v1/calls/{id}` at `/v1/calls` → `/:id`. */
export function expressPath(template: string, mountPath: string): string {
  if (!template.startsWith(mountPath)) throw new Error(`${template} is not under ${mountPath}`);
  const rest = template.slice(mountPath.length) || '/';
  return rest.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The Express router of `operations`, to be mounted at `mountPath` (the prefix every operation's path
 * starts with: `/v1/agents`, or `/v1` for a router that spans resources, or `` for the root). Each route
 * runs, in order: the operation's `before` middleware, `requireScope(scope)`, the query-parameter check,
 * the body parse, then the handler (an async handler's rejection reaches the app's error handler).
 * Records every operation in `API_OPERATIONS`.
 * @throws Error at build time when an operation's path is outside `mountPath` or declared twice
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each operation keeps its own body type
export function operationsRouter(mountPath: string, operations: ApiOperation<any>[]): Router {
  const router = Router();
  for (const o of operations) {
    const chain: RequestHandler[] = [...(o.before ?? [])];
    if (o.scope) chain.push(requireScope(o.scope));
    if (o.method !== 'post' && (o.scope || o.widget)) {
      const names = [...(o.list ? LIST_QUERY : []), ...(o.query ?? []).flatMap(queryNames)];
      chain.push(acceptsQuery(...names));
    }
    const schema = o.body;
    chain.push(async (req: Request, res: Response, next: NextFunction) => {
      try {
        // `body: null`: no field is taken (400 `parameter_unknown` naming any), and the handler gets none.
        const body = schema ? parseBody(schema, req.body) : schema === null ? parseNoBody(req.body) : undefined;
        await o.handler(req, res, { body });
      } catch (err) {
        next(err);
      }
    });
    router[o.method](expressPath(o.path, mountPath), ...chain);
    API_OPERATIONS.set(`${o.method.toUpperCase()} ${o.path}`, o);
  }
  return router;
}
