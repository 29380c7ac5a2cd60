/**
 * The rules of custom tools (the model and who writes it: src/models/tools.ts), shared by
 * the tools' routes (src/api/tools.ts) and the agents' `tool_ids` (src/api/agents.ts):
 *
 * - a name the model calls it by: `^[a-zA-Z0-9_-]{1,64}$` (the Chat Completions function-name rule), not a
 *   built-in tool's (src/shared/tools.ts `TOOLS`: 400), unique per organization and mode (the unique
 *   index of `name_key`: 409 `tool_exists` naming `name`, on creation and on a rename);
 * - an http tool's `parameters` is a JSON Schema of an object (`type: "object"`), checked as JSON Schema
 *   with Ajv (draft 2020-12, or draft-07 when `$schema` names it): against the dialect's meta-schema, then
 *   compiled in strict mode (an unknown keyword such as a misspelt `requried`, a `$ref` that does not
 *   resolve, are refused); the 400 `parameter_invalid` names the bad place, `parameters.properties.date.type`;
 * - every `pattern` and `patternProperties` name of a schema compiled here (ours, a connector's, an
 *   analysis's, an MCP server's) runs on the linear-time engine of src/services/linear-regexp.ts, never on
 *   JavaScript's backtracking `RegExp`: a pattern it cannot run (a backreference, a lookaround) is a 400
 *   naming the `pattern` (`parameters.properties.code.pattern`), not a fallback;
 * - `url` / `server_url`: HTTPS with the webhook endpoints' address rules and SSRF guard
 *   (src/services/webhooks.ts `checkPublicHttpsUrl`);
 * - static `headers` are sealed at rest (src/secrets.ts) and shown by name only; the headers the service
 *   sets itself on a tool's request (`Idempotency-Key`, `Svc-Signature`, `User-Agent`, `Content-Type`, and
 *   the connection's own) cannot be given;
 * - an http tool's signing secret is made like a webhook endpoint's (`whsec_…`) and sealed;
 * - deleting a tool pulls it out of every agent's `tool_ids` (an agent never lists a deleted tool).
 */
import Ajv, { type AnySchemaObject, type ErrorObject as AjvError, type Options as AjvOptions } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { Agent } from '../models/agents';
import { findLiveTool, Tool, type ToolDoc } from '../models/tools';
import { isDuplicateKey } from '../models/store';
import { ApiError, invalidParam, notFound } from '../errors';
import { newWebhookSecret } from '../providers/webhook-signing';
import { openSecret, sealSecret } from '../secrets';
import { idTime } from '../shared/ids';
import { TOOL_MOCK_LIMITS, type ToolMock } from '../shared/tool-mocks';
import { isToolName } from '../shared/tools';
import { checkPublicHttpsUrl } from './webhooks';
import { linearRegExpEngine, UnsupportedPatternError } from './linear-regexp';

/** A tool's name, and an MCP tool's in `allowed_tools` (the Chat Completions function-name rule). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The largest `parameters`, in characters of its JSON. */
export const MAX_PARAMETERS_CHARS = 32_768;
/** Static headers a tool may have, and the length of each value. */
export const MAX_HEADERS = 20;
export const MAX_HEADER_VALUE_CHARS = 4096;
/** Custom tools an agent may list in `tool_ids`. */
export const MAX_AGENT_TOOLS = 32;
/** An http tool's default `timeout_ms`, and its bounds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5000;
export const TOOL_TIMEOUT_MIN_MS = 500;
export const TOOL_TIMEOUT_MAX_MS = 20_000;

/** Headers the service sets itself on a tool's request (lower case); a tool's static headers cannot. */
const RESERVED_HEADERS = new Set([
  'idempotency-key',
  'svc-signature',
  'user-agent',
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
/**
 * What every Ajv instance compiling a schema written by a tenant, a publisher or an MCP server is given:
 * its patterns run on the linear-time engine (src/services/linear-regexp.ts), never on JavaScript's
 * backtracking one, and a pattern that engine refuses fails the compilation. `allowMatchingProperties`:
 * Ajv's strict check that no `properties` name matches a `patternProperties` pattern runs the pattern
 * with `new RegExp` on the names (a backtracking match a schema's author chooses), so it is off.
 */
export const LINEAR_PATTERN_OPTIONS = {
  code: { regExp: linearRegExpEngine },
  allowMatchingProperties: true,
} as const satisfies AjvOptions;

// Strict: a keyword Ajv does not know is refused (a typo would silently validate nothing). Formats are
// annotations here (no format vocabulary is loaded); type and tuple strictness are style, not errors.
const AJV_OPTIONS: AjvOptions = {
  strict: true,
  strictTypes: false,
  strictTuples: false,
  validateFormats: false,
  logger: false,
  ...LINEAR_PATTERN_OPTIONS,
};
let validators: { draft2020: Ajv2020; draft07: Ajv } | undefined;
/** The same, reporting every problem of a value (the arguments of a tool call), not only the first. */
let allErrorValidators: { draft2020: Ajv2020; draft07: Ajv } | undefined;
/** The same, not strict: for schemas written by others (an MCP server's), whose own keywords are allowed. */
let lenientValidators: { draft2020: Ajv2020; draft07: Ajv } | undefined;

/**
 * The Ajv instance of a schema's dialect (`$schema`; draft 2020-12 when absent), or null for another
 * dialect. `allErrors`: the instances that report every problem of a value.
 */
function ajvFor(schema: Record<string, unknown>, allErrors = false, lenient = false): Ajv | null {
  const options = allErrors ? { ...AJV_OPTIONS, allErrors: true, ...(lenient ? { strict: false } : {}) } : AJV_OPTIONS;
  const made = lenient
    ? (lenientValidators ??= { draft2020: new Ajv2020(options), draft07: new Ajv(options) })
    : allErrors
      ? (allErrorValidators ??= { draft2020: new Ajv2020(options), draft07: new Ajv(options) })
      : (validators ??= { draft2020: new Ajv2020(options), draft07: new Ajv(options) });
  const dialect = schema.$schema;
  if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020.test(dialect))) return made.draft2020;
  if (typeof dialect === 'string' && DRAFT_07.test(dialect)) return made.draft07;
  return null;
}

/**
 * The request parameter of a place in `value` given as a JSON Pointer (RFC 6901, as Ajv's `instancePath`
 * reports it): segments joined with `.` under `root`, array indexes as `[n]` (the API's way of naming
 * `contacts[17].phone`). `~1` and `~0` are decoded.
 * @example jsonPointerParam({properties: {date: {type: 'strin'}}}, '/properties/date/type') // 'parameters.properties.date.type'
 */
export function jsonPointerParam(value: unknown, pointer: string, root = 'parameters'): string {
  let param = root;
  let at: unknown = value;
  if (pointer === '') return param;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^\d+$/.test(segment)) {
      param += `[${segment}]`;
      at = at[Number(segment)];
    } else {
      param += `.${segment}`;
      at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[segment] : undefined;
    }
  }
  return param;
}

/** Keywords whose value maps names to subschemas: the keys under them are names, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * The JSON Pointer of the first place in `schema` (depth first, in key order) where `keyword` is used as a
 * keyword (not as a property's name under `properties`, `$defs`…), with `value` when given; null if none.
 */
export function keywordPointer(schema: unknown, keyword: string, value?: unknown, pointer = ''): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  const names = NAME_MAPS.has(pointer.slice(pointer.lastIndexOf('/') + 1)) && !Array.isArray(schema);
  for (const [key, child] of Object.entries(schema)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!names && key === keyword && (value === undefined || child === value)) return here;
    const found = keywordPointer(child, keyword, value, here);
    if (found !== null) return found;
  }
  return null;
}

/** The 400 for the first of Ajv's meta-schema errors about `schema` (the request's `root` param). */
function metaSchemaError(schema: Record<string, unknown>, errors: AjvError[], root: string): ApiError {
  // The most specific error first: Ajv lists an `anyOf`'s branches before the `anyOf` itself.
  const first = errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0];
  const param = jsonPointerParam(schema, first.instancePath, root);
  const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues;
  const detail = allowed ? ` (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return invalidParam(param, `Invalid ${param}: ${first.message ?? 'is not valid JSON Schema'}${detail}.`);
}

/**
 * The JSON Pointer of the first place in `schema` (depth first, in key order) where `name` is a key of a
 * `patternProperties` used as a keyword (a pattern written as a property name), or null.
 */
function patternPropertyPointer(schema: unknown, name: string, pointer = ''): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  const names = NAME_MAPS.has(pointer.slice(pointer.lastIndexOf('/') + 1)) && !Array.isArray(schema);
  for (const [key, child] of Object.entries(schema)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!names && key === 'patternProperties' && child !== null && typeof child === 'object')
      if (Object.prototype.hasOwnProperty.call(child, name))
        return `${here}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const found = patternPropertyPointer(child, name, here);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The 400 for a pattern the linear-time engine refuses (a backreference, a lookaround, bad syntax), naming
 * the `pattern` keyword that holds it or the `patternProperties` name that is it.
 */
function patternError(schema: Record<string, unknown>, err: UnsupportedPatternError, root: string): ApiError {
  const pointer = keywordPointer(schema, 'pattern', err.pattern) ?? patternPropertyPointer(schema, err.pattern);
  const param = pointer === null ? root : jsonPointerParam(schema, pointer, root);
  return invalidParam(param, `Invalid ${param}: the pattern /${err.pattern}/ is refused: ${err.reason}.`);
}

/**
 * The 400 for an error Ajv throws while compiling `schema` (strict mode, an unresolvable `$ref`, a pattern the
 * linear-time engine refuses).
 */
function compileError(schema: Record<string, unknown>, err: Error, root: string): ApiError {
  if (err instanceof UnsupportedPatternError) return patternError(schema, err, root);
  const missingRef = /can't resolve reference (\S+) from id/.exec(err.message)?.[1];
  const unknownKeyword = /unknown keyword: "([^"]+)"/.exec(err.message)?.[1];
  const pointer =
    missingRef !== undefined
      ? keywordPointer(schema, '$ref', missingRef)
      : unknownKeyword !== undefined
        ? keywordPointer(schema, unknownKeyword)
        : null;
  const param = pointer === null ? root : jsonPointerParam(schema, pointer, root);
  const message = err.message.replace(/^strict mode: /, '');
  return invalidParam(param, `Invalid ${param}: ${message}.`);
}

/**
 * Checks an http tool's `parameters` as a JSON Schema of the arguments object (see the header); also an
 * analysis plan's `structured_data.schema` (src/services/analysis.ts), named by `root`.
 * @param root the request parameter the schema is (errors name it or a place inside it)
 * @returns the schema, unchanged
 * @throws ApiError 400 `parameter_invalid` naming `root` or the bad place inside it
 */
export function checkToolParameters(value: Record<string, unknown>, root = 'parameters'): Record<string, unknown> {
  if (JSON.stringify(value).length > MAX_PARAMETERS_CHARS)
    throw invalidParam(root, `Invalid ${root}: must be at most ${MAX_PARAMETERS_CHARS} characters of JSON.`);
  const ajv = ajvFor(value);
  if (!ajv)
    throw invalidParam(
      `${root}.$schema`,
      `Invalid ${root}.$schema: must be https://json-schema.org/draft/2020-12/schema (the default) or http://json-schema.org/draft-07/schema#.`,
    );
  if (!ajv.validateSchema(value)) throw metaSchemaError(value, ajv.errors ?? [], root);
  if (value.type !== 'object')
    throw invalidParam(`${root}.type`, `Invalid ${root}.type: must be "object" (the value is an object).`);
  try {
    ajv.compile(value as AnySchemaObject);
  } catch (err) {
    throw compileError(value, err as Error, root);
  } finally {
    ajv.removeSchema(value); // no cache of every schema ever checked (nor of its `$id`)
  }
  return value;
}

/**
 * Checks an http tool's `mock` (src/shared/tool-mocks.ts `ToolMock`; its shape is the API schema's):
 * every rule's `when` names only arguments the tool's `parameters` lists in `properties`, and the whole is
 * at most `TOOL_MOCK_LIMITS.mockChars` characters of JSON.
 * @param parameters the tool's JSON Schema of its arguments (the request's, else the stored one)
 * @returns the mock as stored (JSON text)
 * @throws ApiError 400 `parameter_invalid` naming `mock` or `mock.rules[i].when.<argument>`
 */
export function checkToolMock(mock: ToolMock, parameters: Record<string, unknown>): string {
  const text = JSON.stringify(mock);
  if (text.length > TOOL_MOCK_LIMITS.mockChars)
    throw invalidParam('mock', `Invalid mock: must be at most ${TOOL_MOCK_LIMITS.mockChars} characters of JSON.`);
  const props = parameters.properties;
  const known = props && typeof props === 'object' ? Object.keys(props) : [];
  (mock.rules ?? []).forEach((rule, i) => {
    for (const arg of Object.keys(rule.when)) {
      const param = `mock.rules[${i}].when.${arg}`;
      if (!known.includes(arg))
        throw invalidParam(
          param,
          `Invalid ${param}: '${arg}' is not an argument of the tool (its parameters' properties).`,
        );
    }
  });
  return text;
}

/**
 * Checks static headers: names are HTTP tokens, none twice (in any case), none the service sets itself;
 * values without line breaks. Answers what is stored: the names as given and the sealed JSON (null for none).
 * @throws ApiError 400 `parameter_invalid` naming `headers` or `headers.<name>`
 */
export function sealHeaders(headers: Record<string, string> | null | undefined): {
  header_names: string[];
  headers_sealed: string | null;
} {
  const names = Object.keys(headers ?? {});
  if (names.length > MAX_HEADERS) throw invalidParam('headers', `Invalid headers: at most ${MAX_HEADERS} headers.`);
  const seen = new Set<string>();
  for (const name of names) {
    const param = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw invalidParam(param, `Invalid ${param}: not a valid HTTP header name.`);
    if (RESERVED_HEADERS.has(lower))
      throw invalidParam(param, `Invalid ${param}: the service sets this header itself.`);
    if (seen.has(lower)) throw invalidParam(param, `Invalid ${param}: the header is given twice.`);
    seen.add(lower);
    const v = headers![name];
    if (v.length > MAX_HEADER_VALUE_CHARS || /[\r\n\0]/.test(v))
      throw invalidParam(
        param,
        `Invalid ${param}: a value is at most ${MAX_HEADER_VALUE_CHARS} characters, without line breaks.`,
      );
  }
  return { header_names: names, headers_sealed: names.length ? sealSecret(JSON.stringify(headers)) : null };
}

/**
 * Checks a tool's name (http) or server's name (mcp): the format comes from the request schema; a built-in
 * tool's name is refused.
 * @throws ApiError 400 `parameter_invalid` naming `param`
 */
export function checkToolName(name: string, param = 'name'): string {
  if (isToolName(name))
    throw invalidParam(param, `Invalid ${param}: '${name}' is the name of a built-in tool; choose another.`);
  return name;
}

/** Checks an http tool's `url` or an MCP server's `server_url` (see `checkPublicHttpsUrl`). */
export const checkToolUrl = (raw: string, param: 'url' | 'server_url') => checkPublicHttpsUrl(raw, param, 'tools');

/** Checks `allowed_tools`: names like a tool's, none built-in, none twice. @throws ApiError 400 naming `allowed_tools[i]` */
export function checkAllowedTools(names: string[]): string[] {
  names.forEach((name, i) => {
    checkToolName(name, `allowed_tools[${i}]`);
    if (names.indexOf(name) !== i)
      throw invalidParam(`allowed_tools[${i}]`, `Invalid allowed_tools[${i}]: '${name}' is listed twice.`);
  });
  return names;
}

/** The 409 for a name another live tool of the organization and mode has. */
const nameTaken = (name: string) =>
  new ApiError(409, 'invalid_request_error', 'tool_exists', `A tool named '${name}' already exists.`, 'name');

/** What a new tool stores besides its id, tenant and bookkeeping (checked already). */
export type NewToolFields =
  | {
      type: 'http';
      name: string;
      description: string;
      parameters: Record<string, unknown>;
      url: string;
      method: 'POST' | 'GET';
      timeout_ms: number;
      speak_while_running: string | null;
      /** Held for the caller's yes on calls; null: false. */
      confirm?: boolean | null;
      /** The `mock` of fork replays, JSON text (`checkToolMock`); null: none. */
      mock_json?: string | null;
      headers: Record<string, string>;
      metadata: Record<string, string>;
    }
  | {
      type: 'mcp';
      name: string;
      server_url: string;
      allowed_tools: string[] | null;
      headers: Record<string, string>;
      metadata: Record<string, string>;
    };

/**
 * Inserts tool `id` (its fields checked by the caller); an http tool gets its signing secret. A retry of
 * the same creation (the idempotency record's id) finds it there and answers it as stored.
 * @returns the stored document and its opened signing secret (null for mcp)
 * @throws ApiError 409 `tool_exists` naming `name` when another live tool has the name
 */
export async function insertTool(
  tenant: { orgId: string; livemode: boolean },
  id: string,
  fields: NewToolFields,
): Promise<{ doc: ToolDoc; secret: string | null }> {
  const { headers, metadata, ...rest } = fields;
  const doc: ToolDoc = {
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    type: rest.type,
    name: rest.name,
    name_key: rest.name,
    description: rest.type === 'http' ? rest.description : null,
    parameters_json: rest.type === 'http' ? JSON.stringify(rest.parameters) : null,
    url: rest.type === 'http' ? rest.url : null,
    method: rest.type === 'http' ? rest.method : null,
    timeout_ms: rest.type === 'http' ? rest.timeout_ms : null,
    speak_while_running: rest.type === 'http' ? rest.speak_while_running : null,
    confirm: rest.type === 'http' ? (rest.confirm ?? null) : null,
    mock_json: rest.type === 'http' ? (rest.mock_json ?? null) : null,
    server_url: rest.type === 'mcp' ? rest.server_url : null,
    allowed_tools: rest.type === 'mcp' ? rest.allowed_tools : null,
    ...sealHeaders(headers),
    secret: rest.type === 'http' ? sealSecret(newWebhookSecret()) : null,
    metadata_json: JSON.stringify(metadata),
    created: Math.floor(idTime(id) / 1000),
    version: 1,
    deleted_ms: null,
  } as ToolDoc;
  try {
    await Tool.collection.insertOne(doc as never);
    return { doc, secret: openSecret(doc.secret) };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const mine = (await Tool.findById(id).lean()) as ToolDoc | null; // a retry taking over: the first insert
    if (!mine) throw nameTaken(fields.name);
    return { doc: mine, secret: openSecret(mine.secret) };
  }
}

/**
 * Applies `change(current)` to the tenant's live tool `id` with a version check, re-reading and re-applying
 * when another request wrote it first. `change` answers the fields to `$set` (none: the tool as it is).
 * @throws ApiError 404 `resource_missing` naming `id`; 409 `tool_exists` for a name taken; 409
 *   `resource_conflict` after 5 lost races
 */
export async function updateTool(
  tenant: { orgId: string; livemode: boolean },
  id: string,
  change: (current: ToolDoc) => Record<string, unknown>,
): Promise<ToolDoc> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await findLiveTool(tenant, id);
    if (!current) throw notFound('tool', id, 'id');
    const set = change(current);
    if (Object.keys(set).length === 0) return current;
    if (typeof set.name === 'string') set.name_key = set.name;
    try {
      const updated = (await Tool.findOneAndUpdate(
        { _id: id, version: current.version, deleted_ms: null },
        { $set: set, $inc: { version: 1 } },
        { returnDocument: 'after' },
      ).lean()) as ToolDoc | null;
      if (updated) return updated;
    } catch (err) {
      if (isDuplicateKey(err)) throw nameTaken(String(set.name));
      throw err;
    }
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'resource_conflict',
    'The tool was changed by other requests at the same time; retry.',
  );
}

/**
 * Deletes the tenant's tool `id` (soft: `deleted_ms`; its name freed, its secret and headers erased) and
 * pulls it out of the `tool_ids` of every agent of the organization and mode, deleted agents included.
 * The pull also runs for a tool already deleted, finishing a deletion that crashed half-way.
 * @throws ApiError 404 `resource_missing` naming `id` when unknown or already deleted
 */
export async function deleteTool(tenant: { orgId: string; livemode: boolean }, id: string): Promise<void> {
  const { orgId, livemode } = tenant;
  const doc = await Tool.findOneAndUpdate(
    { _id: id, org_id: orgId, livemode, deleted_ms: null },
    {
      $set: { deleted_ms: Date.now(), name_key: `~${id}`, secret: null, headers_sealed: null },
      $inc: { version: 1 },
    },
    { returnDocument: 'after' },
  ).lean();
  const known = doc ?? (await Tool.findById(id).lean());
  if (known && known.org_id === orgId && known.livemode === livemode)
    await Agent.updateMany({ org_id: orgId, livemode, tool_ids: id }, { $pull: { tool_ids: id } });
  if (!doc) throw notFound('tool', id, 'id');
}

/**
 * Checks an agent's `tool_ids`: each a live tool of the organization and mode, none twice, at most
 * `MAX_AGENT_TOOLS`.
 * @throws ApiError 400 `parameter_invalid` naming `tool_ids` or `tool_ids[i]`
 */
export async function checkAgentToolIds(
  tenant: { orgId: string; livemode: boolean },
  ids: string[],
): Promise<string[]> {
  if (ids.length > MAX_AGENT_TOOLS)
    throw invalidParam('tool_ids', `Invalid tool_ids: an agent may have at most ${MAX_AGENT_TOOLS} tools.`);
  const found = await Promise.all(ids.map((id) => findLiveTool(tenant, id)));
  ids.forEach((id, i) => {
    if (!found[i]) throw invalidParam(`tool_ids[${i}]`, `Invalid tool_ids[${i}]: no such tool: '${id}'.`);
    if (ids.indexOf(id) !== i) throw invalidParam(`tool_ids[${i}]`, `Invalid tool_ids[${i}]: '${id}' is listed twice.`);
  });
  return ids;
}

/**
 * After an agent's `tool_ids` were written: pulls out any of them deleted meanwhile. A deletion marks the
 * tool first and then pulls it from the agents it finds; a write of `tool_ids` checked before the mark
 * and stored after the pull is caught here, because this runs after that write. Answers whether it pulled any.
 */
export async function dropDeletedTools(agentId: string, ids: readonly string[]): Promise<boolean> {
  const docs = await Promise.all(ids.map((id) => Tool.findById(id, { deleted_ms: 1 }).lean()));
  const gone = ids.filter((_, i) => docs[i]?.deleted_ms != null);
  if (gone.length === 0) return false;
  // One plain `$pull` per tool: FerretDB 1.x ignores a `$pull` by condition (`{$in: …}`).
  for (const id of gone) await Agent.updateOne({ _id: agentId }, { $pull: { tool_ids: id } });
  return true;
}

/** Compiled argument validators of tools' `parameters`, by the schema's JSON text (at most `MAX_VALIDATORS`, oldest dropped). */
const argumentValidators = new Map<string, (value: unknown) => string[]>();
const MAX_VALIDATORS = 500;

/**
 * The problems of a tool call's `args` against the tool's `parameters` (a schema `checkToolParameters`
 * accepted; Ajv with the same options, every problem reported), each `<path>: <message>` (`order_id: must be string`); empty when
 * they are valid. Compiled once per schema text and kept. A schema that no longer compiles (a dialect
 * dropped since) answers one problem rather than throwing. `lenient`: a schema of someone else's (an MCP
 * server's): not strict, and one that does not compile checks nothing (the server checks its arguments).
 */
export function argumentProblems(
  parameters: Record<string, unknown>,
  args: unknown,
  { lenient = false }: { lenient?: boolean } = {},
): string[] {
  const key = `${lenient ? 'lenient' : 'strict'}:${JSON.stringify(parameters)}`;
  let check = argumentValidators.get(key);
  if (!check) {
    const ajv = ajvFor(parameters, true, lenient);
    let validate: ((value: unknown) => boolean) & { errors?: AjvError[] | null };
    try {
      if (!ajv) throw new Error('unknown $schema dialect');
      validate = ajv.compile(parameters as AnySchemaObject);
      ajv.removeSchema(parameters);
    } catch (err) {
      if (lenient) return [];
      return [`the tool's parameters schema is unusable (${(err as Error).message})`];
    }
    check = (value) =>
      validate(value)
        ? []
        : (validate.errors ?? []).map((e) => {
            const place = e.instancePath.slice(1).replace(/\//g, '.');
            if (e.keyword === 'additionalProperties')
              return `${place ? `${place}.` : ''}${String(e.params.additionalProperty)}: is not allowed`;
            return `${place ? `${place}: ` : ''}${e.message ?? 'invalid'}`;
          });
    if (argumentValidators.size >= MAX_VALIDATORS) argumentValidators.delete(argumentValidators.keys().next().value!);
    argumentValidators.set(key, check);
  }
  return check(args);
}

/**
 * Whether a schema written by someone else (an MCP server's `inputSchema`) may be offered to the model as a
 * tool's parameters: an object schema (`type: "object"`) of at most `MAX_PARAMETERS_CHARS` characters of
 * JSON that is a valid JSON Schema of its dialect (Ajv's meta-schema check, not strict: unknown keywords
 * are the server's business). A schema the model's provider would refuse (a misspelt `type`) would fail
 * every request of the call, so such a tool is left out instead.
 * @returns null when usable, else why not (a short phrase)
 */
export function foreignSchemaProblem(schema: Record<string, unknown>): string | null {
  if (schema.type !== 'object') return 'its input schema is not an object schema';
  if (JSON.stringify(schema).length > MAX_PARAMETERS_CHARS)
    return `its input schema is over ${MAX_PARAMETERS_CHARS} characters`;
  const ajv = ajvFor(schema, true, true);
  if (!ajv) return 'its input schema names an unknown $schema dialect';
  try {
    if (!ajv.validateSchema(schema)) {
      const [first] = ajv.errors ?? [];
      return `its input schema is invalid (${first ? `${first.instancePath || '/'} ${first.message ?? ''}`.trim() : 'meta-schema'})`;
    }
  } catch (err) {
    return `its input schema is invalid (${(err as Error).message})`;
  }
  return null;
}
