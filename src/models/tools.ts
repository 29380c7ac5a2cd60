/**
 * Custom tools (`tool_…`, object `tool`): an HTTP endpoint of the customer's (`type: "http"`) or a Model
 * Context Protocol server (`type: "mcp"`) an agent may call. Written only by the API through
 * src/services/tools.ts (`POST /v1/tools`, `POST` and `DELETE /v1/tools/{id}`); every write of a tool
 * names its `version` and increments it. Read by the API and, by the agents that list them in `tool_ids`,
 * when the assistant is offered its tools.
 *
 * Names are unique per organization and mode by the unique index on `name_key`: the name while the tool
 * is live, `~<tool id>` once it is deleted (FerretDB 1.x has no partial indexes), so a deleted tool's name
 * may be taken again. Deletion is soft (`deleted_ms`): a deleted tool is missing for every read.
 *
 * Secrets at rest (src/secrets.ts `sealSecret`): the signing `secret` (`whsec_…`, shown once, at
 * creation) and the static `headers` (one sealed JSON object; only their names are stored in the clear
 * and shown). `parameters` is stored as JSON text: a JSON Schema holds `$ref`/`$defs` keys, which
 * FerretDB refuses as field names.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import type { ToolMock } from '../shared/tool-mocks';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, metadataObject, unix } from './wire';

/** What a tool is: an HTTP endpoint called once per tool call, or an MCP server whose tools are listed. */
export const TOOL_TYPES = ['http', 'mcp'] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

/** The methods an HTTP tool may be called with. */
export const TOOL_METHODS = ['POST', 'GET'] as const;

const toolSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    type: { type: String, enum: TOOL_TYPES, required: true },
    name: { type: String, required: true },
    /** `name` while live, `~<tool id>` once deleted (see the header). */
    name_key: { type: String, required: true },
    /** http: what the model is told the tool does. */
    description: { type: String, default: null },
    /** http: the JSON Schema (an object schema) of the arguments, as JSON text. */
    parameters_json: { type: String, default: null },
    /** http: the endpoint; mcp: null. */
    url: { type: String, default: null },
    method: { type: String, enum: [...TOOL_METHODS, null], default: null },
    timeout_ms: { type: Number, default: null },
    speak_while_running: { type: String, default: null },
    /** http: true when a call of it runs only after the caller's spoken yes (src/workflows/call-heard.ts); null: false. */
    confirm: { type: Boolean, default: null },
    /**
     * http: the tool's `mock` (src/shared/tool-mocks.ts `ToolMock`) as JSON text (its `when` names the
     * tool's arguments, which may be any key); null: none.
     */
    mock_json: { type: String, default: null },
    /** mcp: the server's Streamable HTTP address. */
    server_url: { type: String, default: null },
    /** mcp: the server's tools offered to the model (null: all of them). */
    allowed_tools: { type: [String], default: null },
    /** The static headers' names, as given (shown); their values are in `headers_sealed`. */
    header_names: { type: [String], default: [] },
    /** `sealSecret` of the JSON object of the static headers; null when there are none. */
    headers_sealed: { type: String, default: null },
    /** http: `sealSecret` of the signing secret `whsec_…`; null for mcp and once deleted. */
    secret: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    created: { type: Number, required: true },
    version: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
toolSchema.index({ org_id: 1, livemode: 1, name_key: 1 }, { unique: true });
toolSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Tool = mongoose.model('Tool', toolSchema, 'tools');

export type ToolDoc = WithId<InferSchemaType<typeof toolSchema>>;

/**
 * The tenant's tool `id` unless it is deleted, else null: the one lookup of a tool by id (the API's
 * routes, an agent's `tool_ids`). Read by `_id` alone and the tenant checked here (see `findByIds` in
 * ./store: FerretDB pushes down only a filter that is exactly `{_id}`).
 */
export async function findLiveTool(tenant: { orgId: string; livemode: boolean }, id: string): Promise<ToolDoc | null> {
  const doc = (await Tool.findById(id).lean()) as ToolDoc | null;
  return doc && doc.org_id === tenant.orgId && doc.livemode === tenant.livemode && doc.deleted_ms == null ? doc : null;
}

/** A tool's `mock` as the API shows it (src/shared/tool-mocks.ts `ToolMock`). */
export const ToolMockObject = z
  .object({
    rules: z
      .array(
        z.object({
          when: z
            .record(z.string(), z.unknown())
            .describe('Arguments of the tool and their values; a call matches when each equals its own (deeply).'),
          result: z.unknown().describe('What the call gets: a string as it is, any other JSON value as JSON text.'),
        }),
      )
      .describe('Tried in order; the first whose `when` matches answers.'),
    default: z.unknown().optional().describe('What a call no rule matches gets; absent: a made-up result.'),
  })
  .describe(
    "What a mocked call of the tool (a `fork` replay's) gets when no recorded call had its arguments: the first matching rule's `result`, else `default`, else a plausible result a model makes up.",
  );

const toolCommon = {
  id: z.string().meta({ examples: ['tool_01jd5x2v7c0000000000000000'] }),
  object: z.literal('tool'),
  livemode: z.boolean(),
  name: z.string().describe('The name the model calls it by (http), or the name of the server (mcp).'),
  header_names: z
    .array(z.string())
    .describe('The names of the static headers sent with each request; their values are never shown.'),
  metadata: metadataObject,
  created: unix,
};

/** The `tool` object as the API answers it (the OpenAPI component `Tool`): one shape per `type`. */
export const ToolObject = apiObject(
  'Tool',
  "A custom tool the assistant may call: an HTTPS endpoint of yours (`http`) or the tools of a Model Context Protocol server (`mcp`). Static headers are shown by name only; an http tool's signing `secret` is shown once, at creation.",
  z
    .discriminatedUnion('type', [
      apiObject(
        'HttpTool',
        'A tool that calls an HTTPS endpoint of yours (`type: http`).',
        z.object({
          ...toolCommon,
          type: z.literal('http'),
          description: z.string(),
          parameters: z
            .record(z.string(), z.unknown())
            .describe('The JSON Schema of the arguments (an object schema).'),
          url: z.string(),
          method: z.enum(TOOL_METHODS),
          timeout_ms: z.number().int(),
          speak_while_running: z.string().nullable(),
          confirm: z
            .boolean()
            .describe(
              "On phone calls, a call of it runs only after the caller's spoken yes in their next turn (bookings, payments).",
            ),
          mock: ToolMockObject.nullable(),
          secret: z
            .string()
            .optional()
            .meta({ examples: ['whsec_5b0c2f…'] })
            .describe(
              'Signs each request (`Svc-Signature`, as webhooks are signed). Only in the answer of the creation.',
            ),
        }),
      ),
      apiObject(
        'McpTool',
        'The tools of a Model Context Protocol server (`type: mcp`).',
        z.object({
          ...toolCommon,
          type: z.literal('mcp'),
          server_url: z.string(),
          allowed_tools: z
            .array(z.string())
            .nullable()
            .describe("The server's tools offered to the model; null for all of them."),
        }),
      ),
    ])
    .meta({
      discriminator: {
        propertyName: 'type',
        mapping: { http: '#/components/schemas/HttpTool', mcp: '#/components/schemas/McpTool' },
      },
    }),
);

/** A stored `mock` as the API shows it: `rules` always listed. */
const renderMock = (m: ToolMock): z.output<typeof ToolMockObject> => ({ ...m, rules: m.rules ?? [] });

/**
 * The tool object. `secret` is the opened signing secret, given only by the creation's answer; the
 * static headers appear by name only.
 */
export function renderTool(doc: ToolDoc, secret?: string): z.output<typeof ToolObject> {
  const common = {
    id: doc._id,
    object: 'tool' as const,
    livemode: doc.livemode,
    name: doc.name,
    header_names: [...(doc.header_names ?? [])],
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    created: doc.created,
  };
  if (doc.type === 'mcp') {
    return {
      ...common,
      type: 'mcp',
      server_url: doc.server_url!,
      allowed_tools: doc.allowed_tools ? [...doc.allowed_tools] : null,
    };
  }
  return {
    ...common,
    type: 'http',
    description: doc.description ?? '',
    parameters: JSON.parse(doc.parameters_json ?? '{}') as Record<string, unknown>,
    url: doc.url!,
    method: (doc.method ?? 'POST') as (typeof TOOL_METHODS)[number],
    timeout_ms: doc.timeout_ms ?? 5000,
    speak_while_running: doc.speak_while_running ?? null,
    confirm: doc.confirm === true,
    mock: doc.mock_json ? renderMock(JSON.parse(doc.mock_json) as ToolMock) : null,
    ...(secret !== undefined ? { secret } : {}),
  };
}

/**
 * A tool call's fields on a transcript entry (`role: "tool"`) and on a message (`tool_calls`):
 * `name`, `arguments`, `result` (success) or `error`, the server's `status` when it answered, `duration_ms`
 * and `tool_call_id` (`tc_…`, the `Idempotency-Key` its request carried; the model's id in entries
 * recorded before tool calls had keys).
 */
export const toolEntryFields = {
  name: z.string().optional().describe('Tool entries: the tool called.'),
  arguments: z.unknown().optional().describe("Tool entries: the model's arguments."),
  result: z.string().optional().describe('Tool entries: what the tool answered (the model saw it).'),
  error: z.string().optional().describe('Tool entries: why the call failed (the model was told).'),
  status: z.number().int().optional().describe("Tool entries: the HTTP status the tool's server answered."),
  duration_ms: z.number().int().optional().describe('Tool entries: how long the call took, ms.'),
  tool_call_id: z.string().optional().describe('Tool entries: `tc_…`, the `Idempotency-Key` of its request.'),
};

/** A recorded tool call as the API shows it (see `toolEntryFields`). */
export function toolEntry(t: {
  name: string;
  argumentsJson: string | null;
  text: string;
  ok: boolean | null;
  status: number | null;
  durationMs: number | null;
  key: string | null;
}): z.output<z.ZodObject<typeof toolEntryFields>> {
  let args: unknown;
  try {
    args = JSON.parse(t.argumentsJson || '{}');
  } catch {
    args = t.argumentsJson; // the model's text as it sent it
  }
  const ok = t.ok ?? !t.text.startsWith('Error:');
  return {
    name: t.name,
    arguments: args,
    ...(ok ? { result: t.text } : { error: t.text }),
    ...(t.status != null ? { status: t.status } : {}),
    ...(t.durationMs != null ? { duration_ms: t.durationMs } : {}),
    ...(t.key ? { tool_call_id: t.key } : {}),
  };
}
