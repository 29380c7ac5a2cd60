/**
 * Unit tests of the MCP client (src/providers/mcp.ts) against a real MCP server built with the SDK's server
 * side on loopback HTTPS (test/support/mcp-server.ts): listing (cleanup, pagination, the 64-tool cap),
 * calling (text, isError, other content, Idempotency-Key on every request), and the hostile cases: a
 * server that hangs, redirects, fails, answers 10 MB or garbage, a loopback address while private
 * addresses are refused, an untrusted certificate. No Temporal needed.
 */
import dns from 'node:dns';
import { expect } from 'chai';
import { callMcpTool, listMcpTools, McpToolError } from '../../src/providers/mcp';
import { testCertificate } from '../support/https-receiver';
import { startMcpServer, type McpTestServer, type McpTestServerOptions } from '../support/mcp-server';

describe('MCP client', () => {
  const servers: McpTestServer[] = [];
  const start = async (opts: McpTestServerOptions = {}) => {
    const server = await startMcpServer(opts);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const base = (url: string) => ({
    serverUrl: url,
    headers: { Authorization: 'Bearer sk_test_1' },
    allowPrivate: true,
    caFile: testCertificate().certFile,
    timeoutMs: 5_000,
  });
  const call = (url: string, name: string, args: Record<string, unknown> = {}, timeoutMs = 5_000) =>
    callMcpTool({ ...base(url), timeoutMs, name, arguments: args, idempotencyKey: 'tc_abc123' });
  /** The McpToolError `promise` rejects with. */
  const failure = async (promise: Promise<unknown>): Promise<McpToolError> => {
    try {
      await promise;
    } catch (err) {
      expect(err).to.be.instanceOf(McpToolError);
      return err as McpToolError;
    }
    throw new Error('expected an McpToolError');
  };

  it('lists the tools, dropping bad names and cleaning descriptions and schemas', async () => {
    const server = await start();
    const { tools, truncated } = await listMcpTools(base(server.url));
    expect(truncated).to.equal(false);
    expect(tools.map((t) => t.name)).to.deep.equal(['lookup_order', 'slow', 'fail', 'picture', 'stats', 'odd']);
    expect(tools[0]).to.deep.equal({
      name: 'lookup_order',
      description: 'Look up an order by its id.',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    });
    const odd = tools.find((t) => t.name === 'odd')!;
    expect(odd.description).to.have.length(1024);
    expect(odd.inputSchema).to.deep.equal({ type: 'object' });
    expect(server.requests[0].headers.authorization).to.equal('Bearer sk_test_1');
  });

  it('follows tools/list pages', async () => {
    const server = await start({ pageSize: 2, fillerTools: 3 });
    const { tools, truncated } = await listMcpTools(base(server.url));
    expect(truncated).to.equal(false);
    expect(tools).to.have.length(9);
    expect(server.requests.filter((r) => r.rpcMethods.includes('tools/list'))).to.have.length(5);
  });

  it('keeps 64 of 1,000 tools and says it truncated, on one page or many', async () => {
    for (const pageSize of [undefined, 100]) {
      const server = await start({ fillerTools: 1000, pageSize });
      const { tools, truncated } = await listMcpTools(base(server.url));
      expect(tools).to.have.length(64);
      expect(truncated).to.equal(true);
      expect(tools[63].name).to.equal('tool_0058');
      expect((await listMcpTools({ ...base(server.url), maxTools: 3 })).tools.map((t) => t.name)).to.deep.equal([
        'lookup_order',
        'slow',
        'fail',
      ]);
    }
  });

  it('calls a tool: its text, the Idempotency-Key and static headers on every request', async () => {
    const server = await start();
    const outcome = await call(server.url, 'lookup_order', { order_id: 'A-17' });
    expect(outcome).to.deep.equal({ ok: true, text: '{"order_id":"A-17","status":"shipped","eta":"2030-01-02"}' });
    expect(server.toolCalls).to.have.length(1);
    expect(server.toolCalls[0]).to.deep.include({ name: 'lookup_order', arguments: { order_id: 'A-17' } });
    expect(server.requests.length).to.be.greaterThan(2); // initialize, initialized, tools/call, …
    for (const r of server.requests) {
      expect(r.headers['idempotency-key'], `${r.method} ${r.rpcMethods}`).to.equal('tc_abc123');
      expect(r.headers.authorization).to.equal('Bearer sk_test_1');
    }
  });

  it('gives isError as ok: false, summarizes other content, and structured content as JSON', async () => {
    const server = await start();
    expect(await call(server.url, 'fail')).to.deep.equal({ ok: false, text: 'order not found' });
    expect(await call(server.url, 'picture')).to.deep.equal({ ok: true, text: 'here it is\n[image image/png]' });
    expect(await call(server.url, 'stats')).to.deep.equal({ ok: true, text: '{"orders":3}' });
  });

  it('an unknown tool is a tool error; a JSON-RPC error of the server a non-retryable McpToolError', async () => {
    const server = await start();
    expect(await call(server.url, 'no_such_tool')).to.deep.equal({
      ok: false,
      text: 'MCP error -32602: Tool no_such_tool not found',
    });
    const refusing = await start({
      answer: { status: 200, body: '{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}' },
    });
    const err = await failure(call(refusing.url, 'lookup_order', { order_id: 'A-17' }));
    expect(err).to.include({ code: 'protocol_error', retryable: false });
    expect(err.message).to.equal('The MCP server refused the request: MCP error -32601: Method not found');
  });

  it('gives up on a server that hangs on initialize within timeoutMs', async () => {
    const server = await start({ hangOnInitialize: true });
    const started = Date.now();
    const err = await failure(listMcpTools({ ...base(server.url), timeoutMs: 400 }));
    expect(Date.now() - started, 'at timeoutMs, not at the 5 s default').to.be.within(350, 2_500);
    expect(err).to.include({ code: 'timeout', retryable: true });
    expect(err.message).to.equal('The MCP server did not answer within 400 ms.');
  });

  it('gives up on a tool that holds past timeoutMs', async () => {
    const server = await start();
    const started = Date.now();
    const err = await failure(call(server.url, 'slow', { ms: 10_000 }, 500));
    expect(Date.now() - started, 'at timeoutMs, long before the tool answers').to.be.within(450, 3_000);
    expect(err).to.include({ code: 'timeout', retryable: true });
  });

  it('refuses a loopback server when private addresses are not allowed, before connecting', async () => {
    const server = await start();
    const err = await failure(listMcpTools({ ...base(server.url), allowPrivate: false }));
    expect(err).to.include({ code: 'address_refused', retryable: false });
    expect(err.message).to.match(/127\.0\.0\.1, a loopback address/);
    expect(server.requests).to.have.length(0);
  });

  it('connects to the address the guard checked, not to a second DNS answer (DNS rebinding)', async () => {
    const server = await start();
    const port = new URL(server.url).port;
    // The guard's lookup says 127.0.0.1; any later lookup would say 192.0.2.1 (TEST-NET, unreachable).
    const checked = dns.promises.lookup;
    const later = dns.lookup;
    (dns.promises as { lookup: unknown }).lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    (dns as { lookup: unknown }).lookup = (_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
      opts.all ? cb(null, [{ address: '192.0.2.1', family: 4 }]) : cb(null, '192.0.2.1', 4);
    try {
      const { tools } = await listMcpTools({ ...base(`https://localhost:${port}/mcp`), timeoutMs: 2_000 });
      expect(tools).to.have.length(6);
    } finally {
      (dns.promises as { lookup: unknown }).lookup = checked;
      (dns as { lookup: unknown }).lookup = later;
    }
  });

  it('refuses http: URLs, and gives an unreachable server as a retryable error', async () => {
    expect(await failure(listMcpTools(base('http://127.0.0.1:9/mcp')))).to.include({
      code: 'invalid_url',
      retryable: false,
    });
    const server = await start();
    const url = server.url;
    await server.close();
    const err = await failure(listMcpTools(base(url)));
    expect(err).to.include({ code: 'network_error', retryable: true });
    expect(err.message).to.match(/^Could not reach the MCP server \(ECONNREFUSED/);
  });

  it('does not follow a redirect', async () => {
    const target = await start();
    const server = await start({ answer: { status: 302, headers: { location: target.url } } });
    const err = await failure(call(server.url, 'lookup_order', { order_id: 'A-17' }));
    expect(err).to.include({ code: 'redirect', retryable: false, status: 302 });
    expect(target.requests).to.have.length(0);
  });

  it('gives HTTP 500, 429 as retryable errors and 404 as a non-retryable one', async () => {
    for (const [status, retryable] of [
      [500, true],
      [429, true],
      [404, false],
    ] as const) {
      const server = await start({ answer: { status, body: '{"error":"nope"}' } });
      const err = await failure(call(server.url, 'lookup_order', { order_id: 'A-17' }));
      expect(err).to.include({ code: 'http_status', status, retryable });
      expect(err.message).to.equal(`The MCP server answered HTTP ${status}.`);
    }
  });

  it('stops reading a 10 MB answer', async () => {
    const server = await start({ answer: { status: 200, body: `{"x":"${'x'.repeat(10 * 1024 * 1024)}"}` } });
    const err = await failure(listMcpTools(base(server.url)));
    expect(err).to.include({ code: 'response_too_large', retryable: false });
  });

  it('refuses garbage', async () => {
    for (const answer of [
      { status: 200, body: 'this is not json' },
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html></html>' },
      { status: 200, body: '{"jsonrpc":"2.0","id":0,"result":{"tools":"many"}}' },
    ]) {
      const server = await start({ answer });
      const err = await failure(listMcpTools({ ...base(server.url), timeoutMs: 2_000 }));
      expect(err.retryable, `${answer.body}: ${err.code} ${err.message}`).to.equal(false);
      expect(err.code).to.be.oneOf(['invalid_response', 'protocol_error']);
    }
  });

  it('refuses a certificate it does not trust', async () => {
    const server = await start();
    const err = await failure(listMcpTools({ ...base(server.url), caFile: undefined }));
    expect(err).to.include({ code: 'tls_error', retryable: false });
  });
});
