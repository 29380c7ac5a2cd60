/**
 * Running the organization's own tools: what the model is offered of an
 * agent's `tool_ids` and `connector_installation_ids` (`resolveCustomTools`), and one attempt of one tool
 * call (`toolCallAttempt`), which the `runTool` activity (src/activities/tools.ts) makes and Temporal
 * retries within the tool's deadline.
 *
 * One tool call, whatever runs it:
 * - the model's arguments are parsed and checked against the tool's `parameters` (Ajv, as the tool was
 *   checked at creation: src/services/tools.ts `argumentProblems`) first; invalid ones go back to the model
 *   as a tool error and nothing is sent;
 * - an http tool gets one HTTPS request (src/providers/webhook-http.ts `httpsRequest`: the webhook
 *   endpoints' SSRF guard, the socket pinned to the checked address, no redirects), with the body
 *   `{"tool","arguments","tool_call_id","call_id"|"conversation_id","agent_id","contact_id"?,"metadata",
 *   "livemode"}` (a GET: the arguments as query parameters after those fixed in the tool's `url`, which
 *   an argument never replaces, and `tool_call_id`: `getToolUrl`), the headers
 *   `Idempotency-Key: tc_…` (the same on every retry of the call), `Svc-Signature` (webhooks' scheme,
 *   src/providers/webhook-signing.ts, signed with the tool's secret over the body, or for a GET over the
 *   request target `path?query`), `User-Agent`, and the tool's static headers;
 * - an MCP tool: one `tools/call` session of the official SDK client (src/providers/mcp.ts), every request
 *   with `Idempotency-Key: tc_…` and the tool's headers;
 * - an installed connector's tool: its manifest's request template filled with the installation's config
 *   and the arguments (src/services/connector-installations.ts `connectorToolRequest`; no code from the
 *   bundle runs), sent like an http tool's, signed with the installation's secret (over the body, or a
 *   GET's request target);
 * - a 2xx answer (JSON or text, cut at 16 KB) is the result the model sees; 408, 429, 5xx, a timeout and a
 *   network error are retryable (`retryable: true`); any other answer (another 4xx, a redirect, a refused
 *   address, a TLS failure) is final and the model is told the tool failed, with the status.
 * Nothing the server answers throws: every fault is an outcome.
 */
import { config } from '../config';
import { findLiveTool, type ToolDoc } from '../models/tools';
import { callMcpTool, listMcpTools, McpToolError } from '../providers/mcp';
import { httpsRequest } from '../providers/webhook-http';
import { SIGNATURE_HEADER, signatureHeader } from '../providers/webhook-signing';
import { openSecret } from '../secrets';
import { withTraceHeaders } from '../platform/tracing';
import { MAX_TOOL_RESULT_CHARS, type CustomTool, type ToolCallOutcome, type ToolCallRequest } from '../shared/tools';
import { argumentProblems, DEFAULT_TOOL_TIMEOUT_MS, foreignSchemaProblem } from './tools';
import { connectorToolRequest, installationTools } from './connector-installations';

/** `User-Agent` of the requests of tools. */
export const TOOL_USER_AGENT = 'svc-assistant-tools/1.0 (+https://docs.svc-assistant.dev/tools)';

/** One attempt's outcome: the call's outcome, and whether a later attempt may do better. */
export interface ToolCallAttempt extends Omit<ToolCallOutcome, 'durationMs'> {
  retryable: boolean;
  /** The server's `Retry-After` (429/503), ms, or null. */
  retryAfterMs: number | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const final = (text: string, status: number | null = null): ToolCallAttempt => ({
  ok: false,
  text,
  status,
  retryable: false,
  retryAfterMs: null,
});

/**
 * The model's arguments, parsed and checked against the tool's `parameters`; an error sentence for the
 * model when they are not JSON, not an object, or refused by the schema. For the organization's own
 * tools (http and connector tools, not an MCP server's, which checks its own), an argument whose name is
 * not one of `parameters.properties` is refused too, whatever `additionalProperties` says: the model may
 * only fill what the tool's author declared, never add a query parameter or a field of its own choosing.
 */
export function checkToolArguments(
  tool: CustomTool,
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  let args: unknown;
  try {
    args = JSON.parse(text.trim() || '{}');
  } catch {
    return { ok: false, error: `Error: the arguments of ${tool.name} are not valid JSON.` };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return { ok: false, error: `Error: the arguments of ${tool.name} must be a JSON object.` };
  // An MCP server's schema is the server's: checked leniently (its own keywords allowed); ours strictly.
  const problems = argumentProblems(tool.parameters, args, { lenient: tool.source.kind === 'mcp' });
  if (tool.source.kind !== 'mcp') {
    const declared = isObject(tool.parameters.properties) ? tool.parameters.properties : {};
    for (const name of Object.keys(args)) {
      const problem = `${name}: is not allowed`;
      if (!Object.prototype.hasOwnProperty.call(declared, name) && !problems.includes(problem)) problems.push(problem);
    }
  }
  if (problems.length)
    return { ok: false, error: `Error: the arguments of ${tool.name} are invalid: ${problems.join('; ')}.` };
  return { ok: true, args: args as Record<string, unknown> };
}

/**
 * One attempt of tool call `request`, given until `deadlineMs` (epoch ms) to finish. Never throws for the
 * tool's or its server's faults (see the header); a store read that fails throws (the activity retries).
 */
export async function toolCallAttempt(request: ToolCallRequest, deadlineMs: number): Promise<ToolCallAttempt> {
  const { tool } = request;
  const checked = checkToolArguments(tool, request.arguments);
  if (!checked.ok) return final(checked.error);
  const leftMs = deadlineMs - Date.now();
  if (leftMs <= 0) return final(`Error: ${tool.name} did not answer within ${seconds(tool.timeoutMs)}.`);
  const tenant = { orgId: request.context.orgId, livemode: request.context.livemode };
  switch (tool.source.kind) {
    case 'http': {
      const doc = await findLiveTool(tenant, tool.source.toolId);
      if (!doc || doc.type !== 'http') return final(`Error: the tool ${tool.name} no longer exists.`);
      return httpToolAttempt(doc, request, checked.args, leftMs);
    }
    case 'mcp': {
      const doc = await findLiveTool(tenant, tool.source.toolId);
      if (!doc || doc.type !== 'mcp') return final(`Error: the tool ${tool.name} no longer exists.`);
      return mcpToolAttempt(doc, request, tool.source.remoteName, checked.args, leftMs);
    }
    case 'connector': {
      const rendered = await connectorToolRequest(
        tenant,
        tool.source.installationId,
        tool.source.toolName,
        checked.args,
      );
      if (!rendered) return final(`Error: the tool ${tool.name} no longer exists.`);
      if ('error' in rendered) return final(`Error: ${tool.name} cannot be called: ${rendered.error}`);
      const target = new URL(rendered.url);
      const outcome = await httpsRequest({
        method: rendered.method,
        url: rendered.url,
        body: rendered.body,
        headers: {
          ...rendered.headers,
          ...requestHeaders(request, rendered.body ?? target.pathname + target.search, [rendered.secret]),
          ...(rendered.body !== null ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
        },
        ...guarded(leftMs),
      });
      return httpOutcome(tool, outcome);
    }
  }
}

/**
 * The headers the service sets on a request of a tool (the tool's own cannot replace them): `Accept`,
 * `User-Agent`, `Idempotency-Key: tc_…` and `Svc-Signature` over `signed` (the body, or a GET's request
 * target) with `secrets`; with tracing on, the W3C `traceparent` of the tool call's span.
 */
function requestHeaders(request: ToolCallRequest, signed: string, secrets: string[]): Record<string, string> {
  return withTraceHeaders({
    Accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
    'User-Agent': TOOL_USER_AGENT,
    'Idempotency-Key': request.toolCallId,
    ...(secrets.length ? { [SIGNATURE_HEADER]: signatureHeader(signed, secrets, Math.floor(Date.now() / 1000)) } : {}),
  });
}

/**
 * The guard and limits of a tool's HTTPS request: the webhook address rules and CA, `leftMs`, 16 KB kept,
 * the connection kept for the tool's next call.
 */
const guarded = (leftMs: number) => ({
  keepAlive: true,
  allowPrivate: config().webhookAllowPrivate,
  caFile: config().webhookCaFile,
  timeoutMs: leftMs,
  maxResponseBytes: MAX_TOOL_RESULT_CHARS * 4,
  keptChars: MAX_TOOL_RESULT_CHARS,
});

/** The static headers of a tool (opened), with our `User-Agent`. */
function toolHeaders(doc: ToolDoc): Record<string, string> {
  return {
    ...(JSON.parse(openSecret(doc.headers_sealed) ?? '{}') as Record<string, string>),
    'User-Agent': TOOL_USER_AGENT,
  };
}

/**
 * One call of one tool of an MCP server (src/providers/mcp.ts `callMcpTool`: a session of the official SDK
 * client over Streamable HTTP, every request carrying `Idempotency-Key: tc_…` and the tool's headers).
 * The tool's `isError` answer is a final failure; the client's retryable faults (network, timeout, 408,
 * 429, 5xx) are retryable here too.
 */
async function mcpToolAttempt(
  doc: ToolDoc,
  request: ToolCallRequest,
  remoteName: string,
  args: Record<string, unknown>,
  leftMs: number,
): Promise<ToolCallAttempt> {
  try {
    const answer = await callMcpTool({
      serverUrl: doc.server_url!,
      headers: toolHeaders(doc),
      allowPrivate: config().webhookAllowPrivate,
      caFile: config().webhookCaFile,
      timeoutMs: leftMs,
      name: remoteName,
      arguments: args,
      idempotencyKey: request.toolCallId,
    });
    const text = answer.text.trim() ? answer.text : '(no content)';
    return answer.ok
      ? { ok: true, text, status: null, retryable: false, retryAfterMs: null }
      : final(`Error: ${request.tool.name} failed: ${text}`);
  } catch (err) {
    if (!(err instanceof McpToolError)) throw err;
    return {
      ok: false,
      text: `Error: ${request.tool.name} failed (${err.message}).`,
      status: err.status,
      retryable: err.retryable,
      retryAfterMs: null,
    };
  }
}

/** The body an http tool is sent (see the header); its exact text is what is signed. */
export function toolCallPayload(request: ToolCallRequest, args: Record<string, unknown>): Record<string, unknown> {
  const { context } = request;
  return {
    tool: request.tool.name,
    arguments: args,
    tool_call_id: request.toolCallId,
    [`${context.subject.kind}_id`]: context.subject.id,
    agent_id: context.agentId,
    ...(context.contactId ? { contact_id: context.contactId } : {}),
    metadata: context.metadata,
    livemode: context.livemode,
  };
}

/**
 * The URL of a GET tool's request: the tool's `url` as written, its query kept byte for byte, then each
 * argument as a query parameter (strings as they are, other JSON as JSON), then `tool_call_id`. The tool's
 * URL wins: an argument named like a parameter fixed in `url` is not added (the server sees the fixed
 * value only), and `tool_call_id` is always the service's.
 */
export function getToolUrl(toolUrl: string, args: Record<string, unknown>, toolCallId: string): URL {
  const url = new URL(toolUrl);
  // The fixed pairs as written (not re-serialized), but a `tool_call_id` of the URL's: the service's is sent.
  const pairs = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && new URLSearchParams(pair).keys().next().value !== 'tool_call_id');
  const fixed = new Set(new URLSearchParams(pairs.join('&')).keys());
  const added = new URLSearchParams();
  for (const [k, v] of Object.entries(args))
    if (!fixed.has(k) && k !== 'tool_call_id') added.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  added.append('tool_call_id', toolCallId);
  url.search = [...pairs, added.toString()].join('&');
  return url;
}

/** One request to an http tool's server (see the header). */
async function httpToolAttempt(
  doc: ToolDoc,
  request: ToolCallRequest,
  args: Record<string, unknown>,
  leftMs: number,
): Promise<ToolCallAttempt> {
  const secret = openSecret(doc.secret);
  const method = doc.method === 'GET' ? 'GET' : 'POST';
  const url = method === 'GET' ? getToolUrl(doc.url!, args, request.toolCallId) : new URL(doc.url!);
  let body: string | null = null;
  let signed: string;
  if (method === 'GET') {
    signed = url.pathname + url.search;
  } else {
    body = JSON.stringify(toolCallPayload(request, args));
    signed = body;
  }
  const outcome = await httpsRequest({
    method,
    url: url.toString(),
    body,
    headers: {
      ...toolHeaders(doc),
      ...(body !== null ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
      ...requestHeaders(request, signed, secret ? [secret] : []),
    },
    ...guarded(leftMs),
  });
  return httpOutcome(request.tool, outcome);
}

/**
 * What an HTTP answer means for the model: a 2xx's body is the result (`(no content)` when empty; a note
 * when it was cut); 408/429/5xx, a timeout and a network error are retryable; the rest is final.
 */
export function httpOutcome(tool: CustomTool, outcome: Awaited<ReturnType<typeof httpsRequest>>): ToolCallAttempt {
  const status = outcome.statusCode;
  if (outcome.ok) {
    const text = outcome.responseBody?.trim() ? outcome.responseBody : '(no content)';
    const cut = outcome.truncated || text.length >= MAX_TOOL_RESULT_CHARS;
    return {
      ok: true,
      text: cut ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[the answer was cut at 16 KB]` : text,
      status,
      retryable: false,
      retryAfterMs: null,
    };
  }
  const answer = outcome.responseBody?.trim() ? `: ${outcome.responseBody.trim().slice(0, 500)}` : '';
  const retryable =
    outcome.errorCode === 'timeout' ||
    outcome.errorCode === 'network_error' ||
    (status !== null && (status === 408 || status === 429 || status >= 500));
  const why =
    status !== null
      ? `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}${answer}`
      : outcome.errorCode === 'timeout'
        ? `no answer within ${seconds(tool.timeoutMs)}`
        : (outcome.error ?? 'unknown error');
  return {
    ok: false,
    text: `Error: ${tool.name} failed (${why}).`,
    status,
    retryable,
    retryAfterMs: outcome.retryAfterMs,
  };
}

/**
 * Tools one request to the model may offer, built-in ones included (OpenAI's Chat Completions limit:
 * `tools` holds at most 128 functions, and a longer list fails the whole request).
 */
export const MAX_OFFERED_TOOLS = 128;

/**
 * Characters of descriptions and schemas the offered tools may have in all: what `resolveTools` answers
 * stays far below Temporal's payload limit (2 MB), and every request to the model stays reasonable.
 */
export const MAX_OFFERED_TOOL_CHARS = 256 * 1024;

/** The characters a tool adds to what the model is offered (its description and schema). */
const toolChars = (tool: CustomTool) => tool.description.length + JSON.stringify(tool.parameters).length;

/** How long listing one MCP server's tools may take when a call or a turn starts, ms. */
export const MCP_LIST_TIMEOUT_MS = 5000;

/**
 * The tools an agent's `tool_ids` and `connector_installation_ids` offer the model, in that order:
 * - an http tool as it is stored;
 * - an mcp tool's server's tools as the server lists them now (src/providers/mcp.ts `listMcpTools`: at
 *   most 64, within `MCP_LIST_TIMEOUT_MS`; only `allowed_tools` when set; only those whose input schema
 *   the model's provider would take: `foreignSchemaProblem`), under their own names, each with the MCP
 *   tool's deadline;
 * - then the installed connectors' tools (`installationTools`: `<last label>__<tool name>`), run
 *   declaratively.
 * Tools deleted since are skipped. Named in `problems` (the activity logs them), never thrown: a server
 * that cannot be listed (it offers nothing), a name already taken (by a built-in tool or an earlier tool:
 * the model never sees two tools of one name), and the count of tools left out past `MAX_OFFERED_TOOLS`
 * tools or `MAX_OFFERED_TOOL_CHARS` characters in all.
 * @param reserved names already offered (the channel's built-in tools)
 */
export async function resolveCustomTools(
  tenant: { orgId: string; livemode: boolean },
  ids: { toolIds: readonly string[]; installationIds: readonly string[] },
  reserved: readonly string[],
): Promise<{ tools: CustomTool[]; problems: string[] }> {
  const tools: CustomTool[] = [];
  const problems: string[] = [];
  const taken = new Set(reserved);
  const room = MAX_OFFERED_TOOLS - reserved.length;
  let overflow = 0;
  let chars = 0;
  const offer = (tool: CustomTool) => {
    if (taken.has(tool.name)) problems.push(`${tool.name}: the name is taken by another tool; not offered`);
    else if (tools.length >= room || chars + toolChars(tool) > MAX_OFFERED_TOOL_CHARS) overflow++;
    else {
      chars += toolChars(tool);
      taken.add(tool.name);
      tools.push(tool);
    }
  };
  const docs = await Promise.all(ids.toolIds.map((id) => findLiveTool(tenant, id)));
  // Every server listed at once: a slow one costs its own timeout, not the sum of all.
  const listed = await Promise.all(docs.map((doc) => (doc?.type === 'mcp' ? mcpTools(doc) : null)));
  docs.forEach((doc, i) => {
    if (!doc) return;
    if (doc.type === 'http') return offer(httpTool(doc));
    const server = listed[i]!;
    if (server.problem) problems.push(server.problem);
    server.tools.forEach(offer);
  });
  (await installationTools(tenant, [...ids.installationIds])).forEach(offer);
  if (overflow)
    problems.push(
      `${overflow} tools not offered: at most ${MAX_OFFERED_TOOLS} tools and ${MAX_OFFERED_TOOL_CHARS} characters of descriptions and schemas`,
    );
  return { tools, problems };
}

/** The tools of MCP tool `doc`'s server as the model is offered them, or why there are none. */
async function mcpTools(doc: ToolDoc): Promise<{ tools: CustomTool[]; problem?: string }> {
  try {
    const { tools, truncated } = await listMcpTools({
      serverUrl: doc.server_url!,
      headers: toolHeaders(doc),
      allowPrivate: config().webhookAllowPrivate,
      caFile: config().webhookCaFile,
      timeoutMs: MCP_LIST_TIMEOUT_MS,
    });
    const allowed = doc.allowed_tools ? new Set(doc.allowed_tools) : null;
    const refused: string[] = [];
    const offered = tools
      .filter((t) => !allowed || allowed.has(t.name))
      .filter((t) => {
        const problem = foreignSchemaProblem(t.inputSchema);
        if (problem) refused.push(`${doc.name}: ${t.name} is not offered: ${problem}`);
        return !problem;
      })
      .map((t): CustomTool => ({
        name: t.name,
        description: t.description || `The ${t.name} tool of the ${doc.name} server.`,
        parameters: t.inputSchema,
        source: { kind: 'mcp', toolId: doc._id, remoteName: t.name },
        timeoutMs: doc.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
        speakWhileRunning: doc.speak_while_running ?? null,
      }));
    if (truncated && !allowed)
      refused.push(`${doc.name}: the server lists more tools than offered; the first ${tools.length} kept`);
    return { tools: offered, ...(refused.length ? { problem: refused.join('; ') } : {}) };
  } catch (err) {
    if (!(err instanceof McpToolError)) throw err;
    return { tools: [], problem: `${doc.name}: the MCP server's tools could not be listed (${err.message})` };
  }
}

/** An http tool as the model is offered it. */
function httpTool(doc: ToolDoc): CustomTool {
  return {
    name: doc.name,
    description: doc.description ?? '',
    parameters: JSON.parse(doc.parameters_json ?? '{"type":"object"}') as Record<string, unknown>,
    source: { kind: 'http', toolId: doc._id },
    timeoutMs: doc.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
    speakWhileRunning: doc.speak_while_running ?? null,
    ...(doc.confirm ? { confirm: true as const } : {}),
  };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
