/**
 * Custom tools, scopes `agents:write` / `agents:read`:
 *
 *   POST   /v1/tools        create an `http` or `mcp` tool (Idempotency-Key) → the tool; an http tool with its `secret`
 *   GET    /v1/tools        list, newest first (list conventions)
 *   GET    /v1/tools/{id}   retrieve (no secret, header names only)
 *   POST   /v1/tools/{id}   update (Idempotency-Key): any field of its type; `type` never changes
 *   DELETE /v1/tools/{id}   delete → `{id, object: "tool", deleted: true}`; agents listing it lose it
 *
 * A tool belongs to the key's organization and mode. The rules (names, JSON Schema, addresses, sealed
 * headers, what a deletion does to agents) are src/services/tools.ts's; an agent lists the tools it may
 * call in `tool_ids` (src/api/agents.ts).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { findLiveTool, renderTool, Tool, TOOL_METHODS, ToolObject, type ToolDoc } from '../models/tools';
import { DeletedObject, listOf } from '../models/wire';
import { notFound } from '../errors';
import {
  checkAllowedTools,
  checkToolMock,
  checkToolName,
  checkToolParameters,
  checkToolUrl,
  DEFAULT_TOOL_TIMEOUT_MS,
  deleteTool,
  insertTool,
  sealHeaders,
  TOOL_NAME,
  TOOL_TIMEOUT_MAX_MS,
  TOOL_TIMEOUT_MIN_MS,
  updateTool,
} from '../services/tools';
import { TOOL_MOCK_LIMITS, type ToolMock } from '../shared/tool-mocks';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { mergedMetadata, metadata, parseBody } from './validation';

const nameField = z.string().regex(TOOL_NAME, 'must be 1 to 64 letters, digits, underscores or hyphens');
const urlField = z.string().trim().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');
const headersField = z
  .record(z.string(), z.string())
  .describe('Static headers sent with each request (an API key of yours); stored sealed, shown by name only.');

const mockField = z
  .strictObject({
    rules: z
      .array(
        z.strictObject({
          when: z
            .record(z.string(), z.unknown())
            .refine((w) => Object.keys(w).length > 0, 'must name at least one argument')
            .describe(
              "Arguments (named in the tool's `parameters`) and the values a call must have, each compared deeply.",
            ),
          result: z
            .unknown()
            .refine((v) => v !== undefined, 'is required')
            .describe('What a matching call gets: a string as it is, any other JSON value as JSON text.'),
        }),
      )
      .max(TOOL_MOCK_LIMITS.rules, `must list at most ${TOOL_MOCK_LIMITS.rules} rules`)
      .optional()
      .describe('Tried in order; the first whose `when` matches answers.'),
    default: z
      .unknown()
      .optional()
      .describe('What a call no rule matches gets (any JSON value); absent: a made-up result.'),
  })
  .describe(
    `Replays only (\`fork\` mode, README "Replays of recorded calls"): what a mocked call of the tool gets when no recorded call had its arguments: the first rule whose \`when\` matches, else \`default\`, else a plausible result a model makes up. At most ${TOOL_MOCK_LIMITS.rules} rules and ${TOOL_MOCK_LIMITS.mockChars} characters of JSON in all. Never used on real calls.`,
  );

const httpFields = {
  name: nameField.describe('The name the model calls the tool by; unique among your tools in this mode.'),
  description: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1024, 'must be at most 1024 characters')
    .describe('What the tool does and when to use it, for the model.'),
  parameters: z
    .looseObject({})
    .describe(
      'The JSON Schema (draft 2020-12, or draft-07 by `$schema`) of the arguments: `type: "object"`. Its `pattern`s run on a linear-time engine (RE2: no backreferences or lookaround, refused with 400 naming the place); the model may only send arguments named in `properties`.',
    ),
  url: urlField.describe('HTTPS; the host must resolve to public addresses.'),
  method: z.enum(TOOL_METHODS),
  headers: headersField,
  timeout_ms: z
    .number()
    .int('must be an integer')
    .min(TOOL_TIMEOUT_MIN_MS, `must be at least ${TOOL_TIMEOUT_MIN_MS}`)
    .max(TOOL_TIMEOUT_MAX_MS, `must be at most ${TOOL_TIMEOUT_MAX_MS}`),
  speak_while_running: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .describe('What a caller hears when the tool takes longer than about a second.'),
  confirm: z
    .boolean()
    .describe(
      "Phone calls: hold each call of it until the caller says yes (bookings, payments). The assistant is told to ask; a yes in the caller's next turn runs it, anything else drops it (marked in the transcript). Default false.",
    ),
  mock: mockField,
  metadata,
};

const mcpFields = {
  name: nameField.describe('A name for the server; unique among your tools in this mode.'),
  server_url: urlField.describe("The server's Streamable HTTP address: HTTPS, public addresses only."),
  headers: headersField,
  allowed_tools: z
    .array(nameField)
    .min(1, 'must list at least one tool (omit it for all of them)')
    .max(128, 'must list at most 128 tools')
    .describe("The server's tools offered to the model; all of them when omitted."),
  metadata,
};

/** `POST /v1/tools`: an http tool or an MCP server, by `type`. */
export const createToolSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('http'),
    ...httpFields,
    method: httpFields.method.optional(),
    headers: httpFields.headers.optional(),
    timeout_ms: httpFields.timeout_ms.optional(),
    speak_while_running: httpFields.speak_while_running.optional(),
    confirm: httpFields.confirm.optional(),
    mock: httpFields.mock.optional(),
    metadata: metadata.optional(),
  }),
  z.strictObject({
    type: z.literal('mcp'),
    ...mcpFields,
    headers: mcpFields.headers.optional(),
    allowed_tools: mcpFields.allowed_tools.optional(),
    metadata: metadata.optional(),
  }),
]);

/** `POST /v1/tools/{id}` of an http tool: any field; `headers` (replaced whole), `speak_while_running` and `mock` take null to clear. */
export const updateHttpToolSchema = z.strictObject({
  ...z.object(httpFields).partial().shape,
  headers: headersField.nullable().optional(),
  speak_while_running: httpFields.speak_while_running.nullable().optional(),
  mock: httpFields.mock.nullable().optional(),
});

/** `POST /v1/tools/{id}` of an MCP tool: any field; `headers` (replaced whole) and `allowed_tools` take null to clear. */
export const updateMcpToolSchema = z.strictObject({
  ...z.object(mcpFields).partial().shape,
  headers: headersField.nullable().optional(),
  allowed_tools: mcpFields.allowed_tools.nullable().optional(),
});

const TOOL_EXAMPLE = {
  type: 'http',
  name: 'lookup_order',
  description: 'Look up an order by its number: status, items and delivery date.',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'string', description: 'the number on the receipt, like A-1234' } },
    required: ['order_number'],
  },
  url: 'https://example.com/tools/lookup-order',
  headers: { Authorization: 'Bearer sk_yours' },
  speak_while_running: 'Let me check that for you.',
};

const tag = 'Tools';

/**
 * `POST /v1/tools` → the tool; an http tool's answer holds its signing `secret`, shown this once (a replay
 * with the same Idempotency-Key shows it again). 400 naming the param at fault (inside `parameters` too);
 * 409 `tool_exists` naming `name` when a live tool of the organization and mode has it.
 */
const createTool = operation({
  method: 'post',
  path: '/v1/tools',
  operationId: 'createTool',
  errors: { '400': ['url_private_address', 'url_unresolvable'], '409': ['tool_exists'] },
  tag,
  summary: 'Create a tool',
  description:
    'An HTTPS endpoint of yours the assistant may call (`http`), or a Model Context Protocol server whose tools it may call (`mcp`). An http tool answers its signing `secret` this once.',
  scope: 'agents:write',
  body: createToolSchema,
  example: TOOL_EXAMPLE,
  response: ToolObject,
  handler: async (req, res, { body }) => {
    checkToolName(body.name);
    sealHeaders(body.headers); // checked before the idempotency record: a corrected retry may reuse the key
    const fields =
      body.type === 'http'
        ? {
            type: 'http' as const,
            name: body.name,
            description: body.description,
            parameters: checkToolParameters(body.parameters),
            url: await checkToolUrl(body.url, 'url'),
            method: body.method ?? 'POST',
            timeout_ms: body.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
            speak_while_running: body.speak_while_running ?? null,
            confirm: body.confirm ?? null,
            mock_json: body.mock ? checkToolMock(body.mock, body.parameters) : null,
            headers: body.headers ?? {},
            metadata: body.metadata ?? {},
          }
        : {
            type: 'mcp' as const,
            name: body.name,
            server_url: await checkToolUrl(body.server_url, 'server_url'),
            allowed_tools: body.allowed_tools ? checkAllowedTools(body.allowed_tools) : null,
            headers: body.headers ?? {},
            metadata: body.metadata ?? {},
          };
    await idempotent(req, res, 'tool', async (id) => {
      const { doc, secret } = await insertTool(req.auth!, id, fields);
      return { status: 200, body: renderTool(doc, secret ?? undefined) };
    });
  },
});

/** `GET /v1/tools` → list of tools, newest first (no secrets; header names only). */
const listTools = operation({
  method: 'get',
  path: '/v1/tools',
  operationId: 'listTools',
  tag,
  summary: 'List tools',
  scope: 'agents:read',
  list: true,
  response: listOf(ToolObject),
  handler: async (req, res) => {
    const filter = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null };
    res.json(await listPage(req, Tool, filter, (doc: ToolDoc) => renderTool(doc)));
  },
});

/** `GET /v1/tools/{id}` → the tool (no secret); 404 `resource_missing` naming `id`. */
const retrieveTool = operation({
  method: 'get',
  path: '/v1/tools/{id}',
  operationId: 'retrieveTool',
  tag,
  summary: 'Retrieve a tool',
  scope: 'agents:read',
  response: ToolObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await findLiveTool(req.auth!, id);
    if (!doc) throw notFound('tool', id, 'id');
    res.json(renderTool(doc));
  },
});

/**
 * `POST /v1/tools/{id}` (`agents:write`, Idempotency-Key) body: any field of the tool's type, checked as
 * at creation → the tool (no secret). `headers` replaces the whole set (null or `{}` clears it);
 * `speak_while_running` and `allowed_tools` take null to clear; `metadata` merges (a key set to `""` is
 * removed). A field of the other type is 400 `parameter_unknown`. 404 `resource_missing`; 409
 * `tool_exists` for a name another tool has.
 */
const updateToolOperation = operation({
  method: 'post',
  path: '/v1/tools/{id}',
  operationId: 'updateTool',
  errors: { '400': ['url_private_address', 'url_unresolvable'], '409': ['tool_exists', 'resource_conflict'] },
  tag,
  summary: 'Update a tool',
  description:
    'Only the fields given change; `type` never does. `headers` replaces the whole set; `speak_while_running` and `allowed_tools` take null to clear.',
  scope: 'agents:write',
  bodyDoc: z.union([updateHttpToolSchema, updateMcpToolSchema]),
  example: { description: 'Look up an order by its number or the email it was placed with.' },
  response: ToolObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const tool = await findLiveTool(req.auth!, id);
    if (!tool) throw notFound('tool', id, 'id');
    const set: Record<string, unknown> = {};
    let metadataPatch: Record<string, string> | undefined;
    if (tool.type === 'http') {
      const body = parseBody(updateHttpToolSchema, req.body);
      if (body.name !== undefined) set.name = checkToolName(body.name);
      if (body.description !== undefined) set.description = body.description;
      if (body.parameters !== undefined) set.parameters_json = JSON.stringify(checkToolParameters(body.parameters));
      if (body.url !== undefined) set.url = await checkToolUrl(body.url, 'url');
      if (body.method !== undefined) set.method = body.method;
      if (body.headers !== undefined) Object.assign(set, sealHeaders(body.headers));
      if (body.timeout_ms !== undefined) set.timeout_ms = body.timeout_ms;
      if (body.speak_while_running !== undefined) set.speak_while_running = body.speak_while_running;
      if (body.confirm !== undefined) set.confirm = body.confirm;
      if (body.mock !== undefined)
        set.mock_json = body.mock
          ? checkToolMock(body.mock, body.parameters ?? JSON.parse(tool.parameters_json ?? '{}'))
          : null;
      else if (body.parameters !== undefined && tool.mock_json)
        checkToolMock(JSON.parse(tool.mock_json) as ToolMock, body.parameters);
      metadataPatch = body.metadata;
    } else {
      const body = parseBody(updateMcpToolSchema, req.body);
      if (body.name !== undefined) set.name = checkToolName(body.name);
      if (body.server_url !== undefined) set.server_url = await checkToolUrl(body.server_url, 'server_url');
      if (body.headers !== undefined) Object.assign(set, sealHeaders(body.headers));
      if (body.allowed_tools !== undefined)
        set.allowed_tools = body.allowed_tools ? checkAllowedTools(body.allowed_tools) : null;
      metadataPatch = body.metadata;
    }
    await idempotent(req, res, 'req', async () => {
      const doc = await updateTool(req.auth!, id, (current) =>
        metadataPatch === undefined
          ? set
          : { ...set, metadata_json: mergedMetadata(current.metadata_json, metadataPatch) },
      );
      return { status: 200, body: renderTool(doc) };
    });
  },
});

/**
 * `DELETE /v1/tools/{id}` (`agents:write`) → `{id, object: "tool", deleted: true}`. The tool is missing
 * from then on, its name may be used again, and it is removed from the `tool_ids` of every agent that
 * listed it (src/services/tools.ts `deleteTool`). 404 `resource_missing` when unknown or already deleted.
 */
const deleteToolOperation = operation({
  method: 'delete',
  path: '/v1/tools/{id}',
  operationId: 'deleteTool',
  errors: { '409': ['resource_conflict'] },
  tag,
  summary: 'Delete a tool',
  description: 'Agents that list it in `tool_ids` lose it; its name is free again.',
  scope: 'agents:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    await deleteTool(req.auth!, id);
    res.json({ id, object: 'tool' as const, deleted: true });
  },
});

/** Routes under `/v1/tools` (mounted there by src/api/app.ts). */
export function toolsRouter(): Router {
  return operationsRouter('/v1/tools', [createTool, listTools, retrieveTool, updateToolOperation, deleteToolOperation]);
}
