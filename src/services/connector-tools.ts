/**
 * The tools a connector declares in `connector.json`, and what an installation supplies:
 *
 * - `tools`: at most `MAX_CONNECTOR_TOOLS` entries, each `{name, description, parameters, request,
 *   timeout_ms?, speak_while_running?}` and nothing else. `name` is `^[a-zA-Z0-9_-]{1,64}$`, once per
 *   bundle, and `<last label of the connector id>__<name>` (the name the model calls it by) fits in 64
 *   characters too; `description` 1–1,024 characters; `parameters` a JSON Schema object checked exactly as a
 *   custom tool's (src/services/tools.ts `checkToolParameters`); `request` is `{method: "GET"|"POST", url,
 *   headers?, body?}`: `url` an `https://` template whose host may hold `{{config.…}}` placeholders but never
 *   `{{arguments.…}}` (the model never chooses the server), `headers` string templates under the rules of a
 *   custom tool's static headers (no header the service sets itself), `body` any JSON whose strings may hold
 *   placeholders (POST only); `timeout_ms` 500–20,000 (default 5,000), `speak_while_running` 1–500 characters.
 * - `config_schema`: a JSON Schema object (`type: "object"`, checked like `parameters`) of what an installing
 *   organization supplies; `"x-secret": true` on a property under its `properties` marks a secret value
 *   (sealed at rest, never shown). `x-secret` anywhere else, or not a boolean, is refused.
 * - Placeholders are `{{config.<key>}}` (`<key>` one of `config_schema.properties`) and
 *   `{{arguments.<key>}}` (`<key>` one of `parameters.properties`); any other `{{` is refused.
 *
 * A fault is a `ConnectorToolsError` whose `reason` becomes the `reason` of the upload's 400 `bundle_invalid`
 * (src/services/connectors.ts `inspectBundle`). Nothing from a bundle is ever run: a tool is a request
 * template rendered here (`renderToolRequest`) and sent by the tool-call activity.
 */
import Ajv, { type ValidateFunction, type Options as AjvOptions } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { ApiError } from '../errors';
import { UnsupportedPatternError } from './linear-regexp';
import {
  checkToolParameters,
  DEFAULT_TOOL_TIMEOUT_MS,
  jsonPointerParam,
  LINEAR_PATTERN_OPTIONS,
  sealHeaders,
  TOOL_NAME,
  TOOL_TIMEOUT_MAX_MS,
  TOOL_TIMEOUT_MIN_MS,
} from './tools';

/** Most tools one connector may declare. */
export const MAX_CONNECTOR_TOOLS = 64;

/** Why a manifest's `tools` or `config_schema` is refused (added to src/services/connectors.ts `BundleRejection`). */
export type ConnectorToolsRejection =
  | 'tools_invalid'
  | 'tool_name_invalid'
  | 'tool_name_duplicate'
  | 'tool_description_invalid'
  | 'tool_parameters_invalid'
  | 'tool_request_invalid'
  | 'tool_url_invalid'
  | 'tool_timeout_invalid'
  | 'tool_speak_while_running_invalid'
  | 'placeholder_invalid'
  | 'config_schema_invalid';

/** A refused `tools` or `config_schema`: `reason` for programs, `message` (naming the place) for people. */
export class ConnectorToolsError extends Error {
  constructor(
    public readonly reason: ConnectorToolsRejection,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorToolsError';
  }
}

/** The request template of a connector's tool, as declared. */
export interface ConnectorRequestTemplate {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Any JSON whose strings may hold placeholders; undefined: no body. */
  body?: unknown;
}

/** A connector's tool, checked. */
export interface ConnectorToolSpec {
  /** The name in `connector.json` (the model is offered `<last label>__<name>`, see `modelToolName`). */
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  request: ConnectorRequestTemplate;
  timeoutMs: number;
  speakWhileRunning: string | null;
}

/** What a manifest declares for installations: its tools and its config schema (null: none). */
export interface ConnectorToolsManifest {
  tools: ConnectorToolSpec[];
  configSchema: Record<string, unknown> | null;
}

const TOOL_KEYS = new Set(['name', 'description', 'parameters', 'request', 'timeout_ms', 'speak_while_running']);
const REQUEST_KEYS = new Set(['method', 'url', 'headers', 'body']);
/** A placeholder: `{{config.<key>}}` or `{{arguments.<key>}}`, spaces allowed inside the braces. */
const PLACEHOLDER = /\{\{\s*(config|arguments)\.([A-Za-z0-9_-]{1,64})\s*\}\}/g;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The name the model is offered a connector's tool by: the connector id's last label, `__`, the tool's name
 * (`com.example.crm` → `crm__lookup_order`).
 */
export function modelToolName(connectorId: string, toolName: string): string {
  return `${connectorId.slice(connectorId.lastIndexOf('.') + 1)}__${toolName}`;
}

/** The names under a JSON Schema object's `properties` (none when absent). */
const propertyNames = (schema: Record<string, unknown> | null): Set<string> =>
  new Set(schema && isObject(schema.properties) ? Object.keys(schema.properties) : []);

/** Runs a check of src/services/tools.ts, turning its 400 into a `ConnectorToolsError` at `where`. */
function asManifestFault<T>(reason: ConnectorToolsRejection, where: string, root: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const message = err.message.replace(/^Invalid [^:]+: /, '');
    const place = err.param ? where + err.param.slice(root.length) : where;
    throw new ConnectorToolsError(reason, `connector.json ${place}: ${message.replace(/\.$/, '')}.`);
  }
}

/**
 * Checks the placeholders of one template string at `where`.
 * @param hostEnd characters of `text` that are the URL's scheme and authority (no `arguments` there); 0 otherwise
 */
function checkPlaceholders(text: string, where: string, config: Set<string>, args: Set<string>, hostEnd = 0): void {
  for (const m of text.matchAll(PLACEHOLDER)) {
    const [whole, scope, key] = m;
    if (scope === 'config' && !config.has(key))
      throw new ConnectorToolsError(
        'placeholder_invalid',
        `connector.json ${where}: ${whole} names no property of config_schema.properties.`,
      );
    if (scope === 'arguments' && !args.has(key))
      throw new ConnectorToolsError(
        'placeholder_invalid',
        `connector.json ${where}: ${whole} names no property of the tool's parameters.properties.`,
      );
    if (scope === 'arguments' && m.index < hostEnd)
      throw new ConnectorToolsError(
        'tool_url_invalid',
        `connector.json ${where}: ${whole} is in the URL's host; the model's arguments may only fill its path and query.`,
      );
  }
  const rest = text.replace(PLACEHOLDER, '');
  if (rest.includes('{{'))
    throw new ConnectorToolsError(
      'placeholder_invalid',
      `connector.json ${where}: placeholders are {{config.<key>}} and {{arguments.<key>}} only.`,
    );
}

/** Where a URL template's authority ends: the first `/`, `?` or `#` after `https://` (the whole text when none). */
function authorityEnd(url: string): number {
  const rest = url.slice('https://'.length).search(/[/?#]/);
  return rest === -1 ? url.length : 'https://'.length + rest;
}

/** Checks every string inside a body template (keys are not templates). */
function checkBodyPlaceholders(value: unknown, where: string, config: Set<string>, args: Set<string>): void {
  if (typeof value === 'string') checkPlaceholders(value, where, config, args);
  else if (Array.isArray(value)) value.forEach((v, i) => checkBodyPlaceholders(v, `${where}[${i}]`, config, args));
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) checkBodyPlaceholders(v, `${where}.${k}`, config, args);
}

/** Checks `request` of tool `where` (see the header). */
function checkRequest(raw: unknown, where: string, config: Set<string>, args: Set<string>): ConnectorRequestTemplate {
  if (!isObject(raw))
    throw new ConnectorToolsError(
      'tool_request_invalid',
      `connector.json ${where}: must be an object {method, url, headers?, body?}.`,
    );
  const unknown = Object.keys(raw).find((k) => !REQUEST_KEYS.has(k));
  if (unknown !== undefined)
    throw new ConnectorToolsError(
      'tool_request_invalid',
      `connector.json ${where}.${unknown}: unknown field (a request has method, url, headers and body).`,
    );
  if (raw.method !== 'GET' && raw.method !== 'POST')
    throw new ConnectorToolsError('tool_request_invalid', `connector.json ${where}.method: must be "GET" or "POST".`);
  const url = raw.url;
  if (typeof url !== 'string' || url.length > 2048 || !/^https:\/\/[^/?#]/.test(url))
    throw new ConnectorToolsError(
      'tool_url_invalid',
      `connector.json ${where}.url: must be an https:// URL (a template) of at most 2048 characters.`,
    );
  const hostEnd = authorityEnd(url);
  checkPlaceholders(url, `${where}.url`, config, args, hostEnd);
  if (/[@\s]/.test(url.slice(0, hostEnd)))
    throw new ConnectorToolsError(
      'tool_url_invalid',
      `connector.json ${where}.url: the host may not hold credentials (user@) or spaces.`,
    );
  // The URL with every placeholder filled by a letter must be a URL: catches what a template cannot fix.
  if (!URL.canParse(url.replace(PLACEHOLDER, 'x')))
    throw new ConnectorToolsError('tool_url_invalid', `connector.json ${where}.url: is not a valid URL.`);
  let headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isObject(raw.headers) || Object.values(raw.headers).some((v) => typeof v !== 'string'))
      throw new ConnectorToolsError(
        'tool_request_invalid',
        `connector.json ${where}.headers: must be an object of string values.`,
      );
    headers = raw.headers as Record<string, string>;
    asManifestFault('tool_request_invalid', `${where}.headers`, 'headers', () => sealHeaders(headers));
    for (const [name, value] of Object.entries(headers))
      checkPlaceholders(value, `${where}.headers.${name}`, config, args);
  }
  if (raw.body !== undefined) {
    if (raw.method === 'GET')
      throw new ConnectorToolsError(
        'tool_request_invalid',
        `connector.json ${where}.body: a GET request has no body; use the URL's query.`,
      );
    checkBodyPlaceholders(raw.body, `${where}.body`, config, args);
  }
  return { method: raw.method, url, headers, ...(raw.body !== undefined ? { body: raw.body } : {}) };
}

/** Checks one entry of `tools` (index `i`); `names` collects the names seen. */
function checkTool(raw: unknown, i: number, connectorId: string, config: Set<string>, names: Set<string>) {
  const where = `tools[${i}]`;
  if (!isObject(raw)) throw new ConnectorToolsError('tools_invalid', `connector.json ${where}: must be an object.`);
  const unknown = Object.keys(raw).find((k) => !TOOL_KEYS.has(k));
  if (unknown !== undefined)
    throw new ConnectorToolsError(
      'tools_invalid',
      `connector.json ${where}.${unknown}: unknown field (a tool has name, description, parameters, request, timeout_ms and speak_while_running).`,
    );
  const name = raw.name;
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    throw new ConnectorToolsError(
      'tool_name_invalid',
      `connector.json ${where}.name: must be 1 to 64 letters, digits, underscores or hyphens.`,
    );
  if (modelToolName(connectorId, name).length > 64)
    throw new ConnectorToolsError(
      'tool_name_invalid',
      `connector.json ${where}.name: the model calls it ${modelToolName(connectorId, name)}, over 64 characters; shorten it.`,
    );
  if (names.has(name))
    throw new ConnectorToolsError('tool_name_duplicate', `connector.json ${where}.name: '${name}' is declared twice.`);
  names.add(name);
  const description = raw.description;
  if (typeof description !== 'string' || description.trim().length === 0 || description.length > 1024)
    throw new ConnectorToolsError(
      'tool_description_invalid',
      `connector.json ${where}.description: must be a non-empty string of at most 1024 characters.`,
    );
  if (!isObject(raw.parameters))
    throw new ConnectorToolsError(
      'tool_parameters_invalid',
      `connector.json ${where}.parameters: must be a JSON Schema object with type "object".`,
    );
  const parameters = raw.parameters;
  asManifestFault('tool_parameters_invalid', `${where}.parameters`, 'parameters', () =>
    checkToolParameters(parameters),
  );
  const request = checkRequest(raw.request, `${where}.request`, config, propertyNames(parameters));
  const timeout = raw.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (
    !Number.isInteger(timeout) ||
    (timeout as number) < TOOL_TIMEOUT_MIN_MS ||
    (timeout as number) > TOOL_TIMEOUT_MAX_MS
  )
    throw new ConnectorToolsError(
      'tool_timeout_invalid',
      `connector.json ${where}.timeout_ms: must be an integer from ${TOOL_TIMEOUT_MIN_MS} to ${TOOL_TIMEOUT_MAX_MS}.`,
    );
  const speak = raw.speak_while_running ?? null;
  if (speak !== null && (typeof speak !== 'string' || speak.trim().length === 0 || speak.length > 500))
    throw new ConnectorToolsError(
      'tool_speak_while_running_invalid',
      `connector.json ${where}.speak_while_running: must be a non-empty string of at most 500 characters.`,
    );
  return {
    name,
    description,
    parameters,
    request,
    timeoutMs: timeout as number,
    speakWhileRunning: speak,
  } satisfies ConnectorToolSpec;
}

/** The schema without its `x-secret` marks (for the checks that know no such keyword). */
function withoutSecretMarks(schema: Record<string, unknown>): Record<string, unknown> {
  if (!isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => {
      if (!isObject(v) || !('x-secret' in v)) return [k, v];
      const { 'x-secret': _mark, ...rest } = v;
      return [k, rest];
    }),
  );
  return { ...schema, properties };
}

/** Checks `config_schema` (see the header). @returns the schema, unchanged */
function checkConfigSchema(raw: unknown): Record<string, unknown> {
  if (!isObject(raw))
    throw new ConnectorToolsError(
      'config_schema_invalid',
      'connector.json config_schema: must be a JSON Schema object with type "object".',
    );
  if (isObject(raw.properties)) {
    for (const [key, property] of Object.entries(raw.properties)) {
      if (isObject(property) && 'x-secret' in property && typeof property['x-secret'] !== 'boolean')
        throw new ConnectorToolsError(
          'config_schema_invalid',
          `connector.json config_schema.properties.${key}.x-secret: must be true or false.`,
        );
    }
  }
  const stripped = withoutSecretMarks(raw);
  // A mark left anywhere else (nested, under $defs…) is an unknown keyword for the strict check below.
  asManifestFault('config_schema_invalid', 'config_schema', 'parameters', () => checkToolParameters(stripped));
  return raw;
}

/**
 * Checks a manifest's `tools` and `config_schema` (see the header); a manifest with neither has no tools.
 * @param manifest the parsed `connector.json` (its `id` is `connectorId`)
 * @throws ConnectorToolsError
 */
export function checkManifestTools(manifest: Record<string, unknown>, connectorId: string): ConnectorToolsManifest {
  const configSchema = manifest.config_schema === undefined ? null : checkConfigSchema(manifest.config_schema);
  if (manifest.tools === undefined) return { tools: [], configSchema };
  if (!Array.isArray(manifest.tools) || manifest.tools.length > MAX_CONNECTOR_TOOLS)
    throw new ConnectorToolsError(
      'tools_invalid',
      `connector.json tools: must be an array of at most ${MAX_CONNECTOR_TOOLS} tools.`,
    );
  const config = propertyNames(configSchema);
  const names = new Set<string>();
  return { tools: manifest.tools.map((t, i) => checkTool(t, i, connectorId, config, names)), configSchema };
}

/** The keys `config_schema` marks `"x-secret": true`. */
export function secretConfigKeys(configSchema: Record<string, unknown> | null): string[] {
  if (!configSchema || !isObject(configSchema.properties)) return [];
  return Object.entries(configSchema.properties)
    .filter(([, p]) => isObject(p) && p['x-secret'] === true)
    .map(([k]) => k);
}

// Config is checked like a tool's arguments would be: Ajv, formats as annotations, `x-secret` a known
// keyword, the publisher's patterns on the linear-time engine (a tenant's value never meets a backtracking one).
const CONFIG_AJV_OPTIONS: AjvOptions = {
  strict: true,
  strictTypes: false,
  strictTuples: false,
  validateFormats: false,
  allErrors: false,
  logger: false,
  keywords: ['x-secret'],
  ...LINEAR_PATTERN_OPTIONS,
};
let configAjv: { draft2020: Ajv2020; draft07: Ajv } | undefined;
const configValidators = new Map<string, ValidateFunction>();

/** The compiled validator of a config schema (checked at upload already), cached by its JSON. */
function configValidator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = configValidators.get(key);
  if (!validate) {
    configAjv ??= { draft2020: new Ajv2020(CONFIG_AJV_OPTIONS), draft07: new Ajv(CONFIG_AJV_OPTIONS) };
    const draft07 = typeof schema.$schema === 'string' && schema.$schema.includes('draft-07');
    const ajv = draft07 ? configAjv.draft07 : configAjv.draft2020;
    validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    if (configValidators.size >= 500) configValidators.delete(configValidators.keys().next().value!);
    configValidators.set(key, validate);
  }
  return validate;
}

/**
 * Checks an installation's `config` against the version's `config_schema` (none: only `{}` is accepted).
 * Its patterns run on the linear-time engine (src/services/linear-regexp.ts): a value's check takes time
 * linear in its length whatever the publisher wrote.
 * @returns null when valid, else the first fault: `param` (`config`, `config.<key>`, `config.<key>[0]`…) and
 *   a message saying what is wrong there
 */
export function configFault(
  configSchema: Record<string, unknown> | null,
  config: Record<string, unknown>,
): { param: string; message: string } | null {
  if (!configSchema)
    return Object.keys(config).length === 0
      ? null
      : { param: 'config', message: 'this connector version takes no config (it has no config_schema)' };
  let validate: ValidateFunction;
  try {
    validate = configValidator(configSchema);
  } catch (err) {
    // A version uploaded before patterns ran on the linear-time engine may hold one it refuses.
    if (!(err instanceof UnsupportedPatternError)) throw err;
    return {
      param: 'config',
      message: `this connector version's config_schema has a pattern the service does not run (${err.reason}); install another version`,
    };
  }
  if (validate(config)) return null;
  const error = validate.errors![0];
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  let param = jsonPointerParam(config, error.instancePath, 'config');
  if (child !== undefined) param += `.${child}`;
  const what =
    params.missingProperty !== undefined
      ? 'is required'
      : params.additionalProperty !== undefined
        ? 'is not a property of the config_schema'
        : (error.message ?? 'is invalid');
  return { param, message: what };
}

/** A rendered request of a connector's tool (see `renderToolRequest`). */
export interface RenderedToolRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** The JSON text of the rendered body; null without a body. */
  body: string | null;
}

/** A value as text (URL, header, a string of the body): strings as they are, other JSON as JSON, absent as ''. */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Substitutes the placeholders of `text`, each value passed through `encode`. */
function substitute(text: string, values: PlaceholderValues, encode: (s: string) => string = (s) => s): string {
  return text.replace(PLACEHOLDER, (_whole, scope: 'config' | 'arguments', key: string) =>
    encode(asText(Object.prototype.hasOwnProperty.call(values[scope], key) ? values[scope][key] : undefined)),
  );
}

/** What placeholders are filled with: the installation's config (secrets opened) and the model's arguments. */
export interface PlaceholderValues {
  config: Record<string, unknown>;
  arguments: Record<string, unknown>;
}

const ABSENT = Symbol('absent');

/** Renders a body template: a string that is exactly one placeholder takes the value with its JSON type. */
function renderBody(value: unknown, values: PlaceholderValues): unknown {
  if (typeof value === 'string') {
    const only = new RegExp(`^${PLACEHOLDER.source}$`).exec(value);
    if (!only) return substitute(value, values);
    const source = values[only[1] as 'config' | 'arguments'];
    return Object.prototype.hasOwnProperty.call(source, only[2]) && source[only[2]] !== undefined
      ? source[only[2]]
      : ABSENT;
  }
  if (Array.isArray(value)) return value.map((v) => renderBody(v, values)).map((v) => (v === ABSENT ? null : v));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const rendered = renderBody(v, values);
      if (rendered !== ABSENT) out[k] = rendered;
    }
    return out;
  }
  return value;
}

/**
 * Renders a tool's request template with `values`: in the URL a placeholder's value is percent-encoded
 * (`encodeURIComponent`) in the path and query, and must be a host name's letters, digits, dots and hyphens
 * in the host; in a header it is the text; in the body a string that is exactly one placeholder becomes
 * the value with its JSON type (an absent value drops the key of an object, or is null in an array), any
 * other string takes the values as text. Values as text: strings as they are, numbers, booleans, objects
 * and arrays as JSON, absent or null as the empty string.
 * @returns the request, or `{error}` (a sentence for the model) when the rendered URL is not an HTTPS URL,
 *   its path has a `.` or `..` segment (which URL parsing would resolve: a value climbing the path), or a
 *   rendered header holds a line break
 */
export function renderToolRequest(
  template: ConnectorRequestTemplate,
  values: PlaceholderValues,
): RenderedToolRequest | { error: string } {
  const hostEnd = authorityEnd(template.url);
  let hostBad = false;
  const authority = substitute(template.url.slice(0, hostEnd), values, (s) => {
    if (!/^[A-Za-z0-9.-]*$/.test(s)) hostBad = true;
    return s;
  });
  const url = authority + substitute(template.url.slice(hostEnd), values, encodeURIComponent);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (hostBad || !parsed || parsed.protocol !== 'https:' || !parsed.hostname)
    return { error: 'Error: the tool is misconfigured: its URL, filled with the configuration, is not an HTTPS URL.' };
  // `.` and `..` segments (also written %2e) are resolved by URL parsing: a value could climb the path.
  const path = url.slice(hostEnd).split(/[?#]/)[0];
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    return {
      error: "Error: the arguments would make a '.' or '..' segment of the tool's URL path; the request was not sent.",
    };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(template.headers)) {
    headers[name] = substitute(value, values);
    if (/[\r\n\0]/.test(headers[name]))
      return { error: `Error: the tool's ${name} header, filled in, holds a line break; the request was not sent.` };
  }
  const rendered = template.body === undefined ? ABSENT : renderBody(template.body, values);
  const body = template.body === undefined ? null : JSON.stringify(rendered === ABSENT ? null : rendered);
  return { method: template.method, url: parsed.href, headers, body };
}
