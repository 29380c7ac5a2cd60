/**
 * A real MCP server for the tests: the SDK's server side (`McpServer` + `StreamableHTTPServerTransport`,
 * stateful sessions) over HTTPS on 127.0.0.1 with the process's test certificate
 * (https-receiver.ts `testCertificate()`: trust its `certFile` through `caFile` / `WEBHOOK_CA_FILE`).
 *
 * Its tools:
 * - `lookup_order` `{order_id: string}` → text `{"order_id":…,"status":"shipped","eta":"2030-01-02"}`;
 * - `slow` `{ms: number}` → holds `ms` ms (or until the session ends), then text `done after <ms> ms`;
 * - `fail` `{}` → `isError: true`, text `order not found`;
 * - `picture` `{}` → a text part `here it is` and an image part (`image/png`);
 * - `stats` `{}` → `structuredContent` `{"orders":3}` and no content;
 * - listed only: `orders.lookup` (a name our client drops), `odd` (a 1,500-character description and an
 *   input schema `{type: 'string'}`), and `fillerTools` more named `tool_0001`… (`<fillerPrefix>0001`…).
 *
 * Every HTTP request is kept in `requests` (headers included: assert `Idempotency-Key` there), every
 * `tools/call` in `toolCalls`. Options make it misbehave: `hangOnInitialize`, `answer` (every request
 * gets this instead of MCP: a status, a redirect, a huge body), `pageSize` (tools/list pagination).
 */
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { testCertificate } from './https-receiver';

export interface McpTestServerOptions {
  /** Listed tools `tool_0001`… besides the real ones (1,000 for the listing cap). */
  fillerTools?: number;
  /** The filler tools' name prefix (default `tool_`). */
  fillerPrefix?: string;
  /** Tools per `tools/list` page (default: all on one page). */
  pageSize?: number;
  /** Never answer `initialize` (the client must give up on its own). */
  hangOnInitialize?: boolean;
  /** Answer every HTTP request with this, not MCP; `body` is written in chunks (no Content-Length). */
  answer?: { status: number; headers?: Record<string, string>; body?: string };
}

/** One HTTP request the server got. */
export interface McpTestRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The JSON-RPC methods of a POST's body (`initialize`, `tools/list`, …). */
  rpcMethods: string[];
}

/** One `tools/call` the server got. */
export interface McpTestToolCall {
  name: string;
  arguments: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface McpTestServer {
  /** `https://127.0.0.1:<port>/mcp` */
  url: string;
  requests: McpTestRequest[];
  toolCalls: McpTestToolCall[];
  close(): Promise<void>;
}

/** The listed tools: the callable ones (JSON schemas as the client sees them) and the listed-only ones. */
function listedTools(fillerTools: number, fillerPrefix = 'tool_'): Record<string, unknown>[] {
  const empty = { type: 'object', properties: {} };
  return [
    {
      name: 'lookup_order',
      description: 'Look up an order by its id.',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
    {
      name: 'slow',
      description: 'Wait, then answer.',
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
    },
    { name: 'fail', description: 'Always fails.', inputSchema: empty },
    { name: 'picture', description: 'A text and an image.', inputSchema: empty },
    { name: 'stats', description: 'Structured content only.', inputSchema: empty },
    { name: 'orders.lookup', description: 'A name with a dot.', inputSchema: empty },
    { name: 'odd', description: 'Odd. '.repeat(300), inputSchema: { type: 'string' } },
    ...Array.from({ length: fillerTools }, (_, i) => ({
      name: `${fillerPrefix}${String(i + 1).padStart(4, '0')}`,
      description: `Filler tool ${i + 1}.`,
      inputSchema: empty,
    })),
  ];
}

/** A session's server: the callable tools registered with `McpServer`, the listing ours (pages, fillers). */
function mcpServer(opts: McpTestServerOptions): McpServer {
  const server = new McpServer({ name: 'svc-test-mcp', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: { order_id: z.string() } }, ({ order_id }) => ({
    content: [{ type: 'text', text: JSON.stringify({ order_id, status: 'shipped', eta: '2030-01-02' }) }],
  }));
  server.registerTool('slow', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
    });
    return { content: [{ type: 'text', text: `done after ${ms} ms` }] };
  });
  server.registerTool('fail', {}, () => ({ isError: true, content: [{ type: 'text', text: 'order not found' }] }));
  server.registerTool('picture', {}, () => ({
    content: [
      { type: 'text', text: 'here it is' },
      { type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' },
    ],
  }));
  server.registerTool('stats', {}, () => ({ content: [], structuredContent: { orders: 3 } }));
  const tools = listedTools(opts.fillerTools ?? 0, opts.fillerPrefix);
  const pageSize = opts.pageSize ?? tools.length;
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) } as never;
  });
  return server;
}

/** Reads a request's JSON body (undefined when there is none or it is not JSON). */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function startMcpServer(opts: McpTestServerOptions = {}): Promise<McpTestServer> {
  const { cert, key } = testCertificate();
  const requests: McpTestRequest[] = [];
  const toolCalls: McpTestToolCall[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const held = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === 'POST' ? await jsonBody(req) : undefined;
    const messages = (Array.isArray(body) ? body : [body]) as { method?: string; params?: Record<string, unknown> }[];
    const rpcMethods = messages.flatMap((m) => (typeof m?.method === 'string' ? [m.method] : []));
    requests.push({ method: req.method ?? '', headers: req.headers, rpcMethods });
    for (const m of messages)
      if (m?.method === 'tools/call')
        toolCalls.push({
          name: String(m.params?.name),
          arguments: (m.params?.arguments ?? {}) as Record<string, unknown>,
          headers: req.headers,
        });
    if (opts.answer) {
      res.writeHead(opts.answer.status, { 'content-type': 'application/json', ...(opts.answer.headers ?? {}) });
      const text = opts.answer.body ?? '';
      for (let i = 0; i < text.length; i += 64 * 1024) res.write(text.slice(i, i + 64 * 1024));
      res.end();
      return;
    }
    if (opts.hangOnInitialize && rpcMethods.includes('initialize')) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport && !sessionId && rpcMethods.includes('initialize')) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
      await mcpServer(opts).connect(created);
      transport = created;
    }
    if (!transport) {
      res.writeHead(sessionId ? 404 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session' }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  };

  const server = https.createServer({ cert, key }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/mcp`,
    requests,
    toolCalls,
    async close() {
      for (const res of held) res.destroy();
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
