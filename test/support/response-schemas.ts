/**
 * Every answer of the service the test suite receives, checked against the OpenAPI document
 * (src/api/openapi.ts `openApiDocument`): the JSON body of a response against the schema its operation
 * (method + path template) documents for that status (the status itself, else `default`), with Ajv
 * (JSON Schema 2020-12, OpenAPI 3.1's dialect; `$ref`s resolved inside the document; each schema compiled
 * once). So the document, which the SDKs are generated from, cannot drift from what the API answers.
 *
 * Installed by the root hooks (test/support/hooks.ts `installResponseValidation`) as a wrapper of the
 * process's `fetch`: it sees the harness's `request`, the Twilio callback helpers (test/support/fake-twilio.ts),
 * the tests' own `fetch`es and the TypeScript SDK's, whichever API instance answers (a response of the
 * service carries `Svc-Version`, src/api/middleware.ts). A mismatch throws from that `fetch`, failing the
 * test that made the request with the operation, the status, the JSON pointer and Ajv's message. Not
 * checked, but counted (`responseChecks`): bodies that are not JSON (TwiML, audio, CSV, event streams),
 * empty bodies, and paths the document leaves out (the console, `/docs/…`).
 *
 * `SVC_VALIDATE_RESPONSES=0` turns the check off (benchmarks, which start the harness without the root
 * hooks, never install it); `SVC_VALIDATE_RESPONSES=report` only lists the mismatches after the run (to
 * survey a group of files at once), failing no test.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/api/openapi';

type Doc = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
  components: { schemas: Record<string, unknown> };
};
type Response = { content?: Record<string, { schema?: unknown }> };

/** What the check has seen in this process. */
export const responseChecks = {
  /** JSON bodies checked against their operation's schema. */
  validated: 0,
  /** Answers of documented operations whose body is not JSON, or is empty. */
  notJson: 0,
  /** Answers of the service to paths the document does not list (`METHOD /path` → count). */
  undocumented: new Map<string, number>(),
  /** Every mismatch found (also thrown to the test that made the request). */
  mismatches: [] as string[],
  /** The test running now (set by the root hooks), named with each mismatch. */
  currentTest: '',
};

/** The document's id inside Ajv, so schema references read `openapi.json#/…`. */
const DOC_ID = 'openapi.json';

let state: { ajv: Ajv2020; doc: Doc; routes: { method: string; template: string; re: RegExp; params: number }[] };
const compiled = new Map<string, ValidateFunction | null>();

/** Ajv over the document (built on first use: after the app's routers exist, so every operation is in it). */
function load(): typeof state {
  if (state) return state;
  const doc = openApiDocument() as unknown as Doc;
  // Formats checked (date-time, uri, email…); OpenAPI's own keywords (`discriminator`, `example`, `x-…`)
  // are annotations here: `strict: false` lets Ajv ignore what it does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
  const routes = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      template,
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    })),
  );
  // A literal segment wins over a parameter (`/v1/calls/search` before `/v1/calls/{id}`).
  routes.sort((a, b) => a.params - b.params);
  state = { ajv, doc, routes };
  return state;
}

/** A JSON pointer (RFC 6901) of `parts`, as a URI fragment. */
const pointer = (parts: string[]) =>
  parts.map((p) => '/' + encodeURIComponent(p.replaceAll('~', '~0').replaceAll('/', '~1'))).join('');

/** The compiled schema of `ref` (a pointer into the document), compiled once. */
export function documentSchema(...parts: string[]): ValidateFunction {
  const key = pointer(parts);
  let fn = compiled.get(key);
  if (!fn) {
    fn = load().ajv.compile({ $ref: `${DOC_ID}#${key}` });
    compiled.set(key, fn);
  }
  return fn;
}

/** `GET /v1/events/evt_1?limit=2` → the documented operation's method and template, or undefined. */
export function documentedOperation(method: string, urlPath: string): { method: string; template: string } | undefined {
  const path = urlPath.split('?')[0];
  return load().routes.find((r) => r.method === method.toUpperCase() && r.re.test(path));
}

/** Ajv's errors as `pointer: message (params)` lines. */
export const describeErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? [])
    .slice(0, 8)
    .map(
      (e) =>
        `${e.instancePath || '/'}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}, was ${JSON.stringify(e.data)?.slice(0, 120)} (schema ${e.schemaPath})`,
    )
    .join('; ');

/**
 * Checks one answer of the service against the document.
 * @param contentType the answer's `Content-Type` (null when none)
 * @param text the body as received
 * @returns the mismatch, described (operation, status, JSON pointer, Ajv's message), or null when it matches or is not checked
 */
export function responseMismatch(
  method: string,
  urlPath: string,
  status: number,
  contentType: string | null,
  text: string,
): string | null {
  const op = documentedOperation(method, urlPath);
  if (!op) {
    const key = `${method.toUpperCase()} ${urlPath.split('?')[0]}`;
    responseChecks.undocumented.set(key, (responseChecks.undocumented.get(key) ?? 0) + 1);
    return null;
  }
  if (!/^application\/(.+\+)?json\b/.test(contentType ?? '') || text === '') {
    responseChecks.notJson++;
    return null;
  }
  const { doc } = load();
  const operation = doc.paths[op.template][op.method.toLowerCase()];
  const where = `${op.method} ${op.template} (${operation.operationId}) answered ${status}`;
  const key = String(status) in operation.responses ? String(status) : 'default';
  const answer = operation.responses[key];
  if (!answer) return `${where}: the document lists no ${status} and no default`;
  if (!answer.content?.['application/json']?.schema)
    return `${where} with a JSON body: the document's ${key} has no application/json schema`;
  responseChecks.validated++;
  const validate = documentSchema(
    'paths',
    op.template,
    op.method.toLowerCase(),
    'responses',
    key,
    'content',
    'application/json',
    'schema',
  );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: the body is not JSON: ${text.slice(0, 200)}`;
  }
  return validate(body) ? null : `${where}: ${describeErrors(validate.errors)}`;
}

/** A mismatch between an answer and the document. */
export class ResponseSchemaMismatch extends Error {
  override name = 'ResponseSchemaMismatch';
}

/**
 * Wraps the process's `fetch` so every answer of the service (it carries `Svc-Version`, or comes from
 * `origin`) is checked (`responseMismatch`); a mismatch throws `ResponseSchemaMismatch`. Does nothing
 * when `SVC_VALIDATE_RESPONSES=0`.
 * @param origin the harness API's origin, read at each request (answers without `Svc-Version`, like Twilio's callbacks, are counted too)
 */
export function installResponseValidation(origin: () => string | undefined): void {
  if (process.env.SVC_VALIDATE_RESPONSES === '0') return;
  const original = globalThis.fetch;
  const wrapped: typeof fetch = async (input, init) => {
    const res = await original(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method.toUpperCase() === 'HEAD') return res;
    if (!res.headers.has('svc-version') && url.origin !== origin()) return res;
    const type = res.headers.get('content-type');
    if (!/json/.test(type ?? '') || res.status === 204) {
      responseMismatch(method, url.pathname, res.status, type, ''); // counted
      return res;
    }
    const mismatch = responseMismatch(method, url.pathname + url.search, res.status, type, await res.clone().text());
    if (mismatch) {
      responseChecks.mismatches.push(`${mismatch} [in "${responseChecks.currentTest}"]`);
      if (process.env.SVC_VALIDATE_RESPONSES === 'report') return res;
      throw new ResponseSchemaMismatch(`the answer does not match the OpenAPI document: ${mismatch}`);
    }
    return res;
  };
  globalThis.fetch = wrapped;
}

/** One line about what the check saw (printed after the run). */
export function responseChecksSummary(): string {
  const undocumented = [...responseChecks.undocumented.values()].reduce((a, b) => a + b, 0);
  return `responses checked against the OpenAPI document: ${responseChecks.validated} JSON bodies, ${responseChecks.notJson} not JSON or empty (not checked), ${undocumented} to undocumented paths (${responseChecks.undocumented.size} distinct), ${responseChecks.mismatches.length} mismatches`;
}
