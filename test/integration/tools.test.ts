/**
 * Custom tools through the real API (issue 27 item 1): http and MCP tools created, listed, retrieved,
 * updated and deleted; every validation error named (the name, a built-in name, a duplicate name, a bad
 * place inside `parameters`, the address rules and SSRF guard shared with webhook endpoints, the timeout's
 * range, headers); static headers sealed at rest and shown by name only; the signing secret shown once;
 * test and live mode apart; agents' `tool_ids` (unknown, other mode, deleted), and a deleted tool pulled
 * out of the agents that listed it.
 */
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { Tool } from '../../src/models/tools';
import { dropDeletedTools } from '../../src/services/tools';
import { isSealed, openSecret } from '../../src/secrets';
import { newTenant, request } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A tool endpoint on loopback (the harness allows private addresses, as for webhook receivers). */
const TOOL_URL = 'https://127.0.0.1:9/tools/lookup-order';
const MCP_URL = 'https://127.0.0.1:9/mcp';

const httpTool = (overrides: Record<string, unknown> = {}) => ({
  type: 'http',
  name: 'lookup_order',
  description: 'Look up an order by its number.',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'string' } },
    required: ['order_number'],
  },
  url: TOOL_URL,
  ...overrides,
});

async function createTool(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await request('POST', '/v1/tools', { key, body, headers });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

describe('tools: custom tools as a resource', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('creates an http tool with its defaults, shows the secret once and the headers by name only', async () => {
    const body = httpTool({
      name: 'lookup_order_1',
      headers: { Authorization: 'Bearer sk_customer_123', 'X-Shop': 'acme' },
      speak_while_running: 'Let me check that for you.',
      metadata: { team: 'support' },
    });
    const created = await createTool(t.testKey, body, { 'Idempotency-Key': 'tool-create-1' });
    expect(created.id).to.match(/^tool_[0-9a-z]{26}$/);
    expect(created.secret).to.match(/^whsec_/);
    const { secret, ...shown } = created;
    expect(shown).to.deep.equal({
      id: created.id,
      object: 'tool',
      livemode: false,
      type: 'http',
      name: 'lookup_order_1',
      description: 'Look up an order by its number.',
      parameters: body.parameters,
      url: TOOL_URL,
      method: 'POST',
      timeout_ms: 5000,
      speak_while_running: 'Let me check that for you.',
      confirm: false,
      mock: null,
      header_names: ['Authorization', 'X-Shop'],
      metadata: { team: 'support' },
      created: created.created,
    });
    expect(JSON.stringify(created)).not.to.include('sk_customer_123');
    // The replay of the creation answers the same secret; reads never show it.
    const replay = await request('POST', '/v1/tools', {
      key: t.testKey,
      body,
      headers: { 'Idempotency-Key': 'tool-create-1' },
    });
    expect(replay.body).to.deep.equal(created);
    const got = await request('GET', `/v1/tools/${created.id}`, { key: t.testKey });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(shown);
    const list = await request('GET', '/v1/tools', { key: t.testKey });
    expect(list.body.data.find((x: { id: string }) => x.id === created.id)).to.deep.equal(shown);
    expect(JSON.stringify(list.body)).not.to.include('whsec_').and.not.to.include('sk_customer_123');
    // At rest: the secret and the headers sealed.
    const stored = await Tool.findById(created.id).lean();
    expect(isSealed(stored!.secret)).to.equal(true);
    expect(openSecret(stored!.secret)).to.equal(secret);
    expect(isSealed(stored!.headers_sealed)).to.equal(true);
    expect(JSON.stringify(stored)).not.to.include('sk_customer_123');
    expect(JSON.parse(openSecret(stored!.headers_sealed)!)).to.deep.equal({
      Authorization: 'Bearer sk_customer_123',
      'X-Shop': 'acme',
    });
  });

  it('creates, lists newest first, updates and deletes an MCP tool', async () => {
    const created = await createTool(t.testKey, {
      type: 'mcp',
      name: 'calendar',
      server_url: MCP_URL,
      headers: { Authorization: 'Bearer mcp_token' },
      allowed_tools: ['list_slots', 'book_slot'],
    });
    expect(created).to.deep.equal({
      id: created.id,
      object: 'tool',
      livemode: false,
      type: 'mcp',
      name: 'calendar',
      server_url: MCP_URL,
      allowed_tools: ['list_slots', 'book_slot'],
      header_names: ['Authorization'],
      metadata: {},
      created: created.created,
    });
    const second = await createTool(t.testKey, httpTool({ name: 'second_tool' }));
    const page = await request('GET', '/v1/tools?limit=2', { key: t.testKey });
    expect(page.body).to.include({ object: 'list', url: '/v1/tools' });
    expect(page.body.data.map((x: { id: string }) => x.id)).to.deep.equal([second.id, created.id]);
    const next = await request('GET', `/v1/tools?limit=1&starting_after=${second.id}`, { key: t.testKey });
    expect(next.body.data[0].id).to.equal(created.id);

    const upd = await request('POST', `/v1/tools/${created.id}`, {
      key: t.testKey,
      body: { name: 'calendar_2', allowed_tools: null, headers: { 'X-Api-Key': 'k2' }, metadata: { a: '1' } },
    });
    expect(upd.status, JSON.stringify(upd.body)).to.equal(200);
    expect(upd.body).to.deep.include({
      name: 'calendar_2',
      allowed_tools: null,
      header_names: ['X-Api-Key'],
      metadata: { a: '1' },
    });
    const stored = await Tool.findById(created.id).lean();
    expect(JSON.parse(openSecret(stored!.headers_sealed)!)).to.deep.equal({ 'X-Api-Key': 'k2' });
    // A field of an http tool is unknown to an MCP tool; `type` never changes.
    const wrong = await request('POST', `/v1/tools/${created.id}`, { key: t.testKey, body: { url: TOOL_URL } });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error).to.include({ code: 'parameter_unknown', param: 'url' });
    const retype = await request('POST', `/v1/tools/${created.id}`, { key: t.testKey, body: { type: 'http' } });
    expect(retype.body.error).to.include({ code: 'parameter_unknown', param: 'type' });

    const del = await request('DELETE', `/v1/tools/${created.id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ id: created.id, object: 'tool', deleted: true });
    expect((await request('GET', `/v1/tools/${created.id}`, { key: t.testKey })).status).to.equal(404);
    const again = await request('DELETE', `/v1/tools/${created.id}`, { key: t.testKey });
    expect(again.status).to.equal(404);
    expect(again.body.error).to.include({ code: 'resource_missing', param: 'id' });
    const gone = await request('POST', `/v1/tools/${created.id}`, { key: t.testKey, body: { name: 'x' } });
    expect(gone.status).to.equal(404);
    const listed = await request('GET', '/v1/tools?limit=100', { key: t.testKey });
    expect(listed.body.data.map((x: { id: string }) => x.id)).not.to.include(created.id);
    const deleted = await Tool.findById(created.id).lean();
    expect(deleted).to.include({ secret: null, headers_sealed: null });
  });

  it('updates an http tool: fields, headers replaced or cleared, null clears, metadata merges', async () => {
    const tool = await createTool(
      t.testKey,
      httpTool({
        name: 'upd_tool',
        headers: { 'X-A': 'a' },
        speak_while_running: 'One moment.',
        metadata: { k: 'v', j: 'w' },
      }),
    );
    const parameters = { type: 'object', properties: { email: { type: 'string', format: 'email' } } };
    const res = await request('POST', `/v1/tools/${tool.id}`, {
      key: t.testKey,
      body: {
        description: 'Find an order by email.',
        parameters,
        method: 'GET',
        timeout_ms: 20_000,
        speak_while_running: null,
        headers: null,
        metadata: { k: '', z: '1' },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { secret: _secret, ...before } = tool;
    expect(res.body).to.deep.equal({
      ...before,
      description: 'Find an order by email.',
      parameters,
      method: 'GET',
      timeout_ms: 20_000,
      speak_while_running: null,
      header_names: [],
      metadata: { j: 'w', z: '1' },
    });
    expect((await Tool.findById(tool.id).lean())!.headers_sealed).to.equal(null);
    const noop = await request('POST', `/v1/tools/${tool.id}`, { key: t.testKey, body: {} });
    expect(noop.body).to.deep.equal(res.body);
    const bad = await request('POST', `/v1/tools/${tool.id}`, {
      key: t.testKey,
      body: { parameters: { type: 'object', properties: { when: { type: 'date' } } } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'parameters.properties.when.type' });
    const wrong = await request('POST', `/v1/tools/${tool.id}`, { key: t.testKey, body: { server_url: MCP_URL } });
    expect(wrong.body.error).to.include({ code: 'parameter_unknown', param: 'server_url' });
    expect((await request('GET', `/v1/tools/${tool.id}`, { key: t.testKey })).body).to.deep.equal(res.body);
  });

  it('names every invalid field, inside parameters too', async () => {
    const t = await newTenant(); // its own keys: this test's requests stay under a key's rate limit
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...httpTool(), type: undefined }, 'type', 'parameter_missing'],
      [httpTool({ type: 'ftp' }), 'type', 'parameter_invalid'],
      [httpTool({ name: 'has space' }), 'name', 'parameter_invalid'],
      [httpTool({ name: 'x'.repeat(65) }), 'name', 'parameter_invalid'],
      [httpTool({ name: 'end_call' }), 'name', 'parameter_invalid'],
      [httpTool({ name: 'search_knowledge' }), 'name', 'parameter_invalid'],
      [httpTool({ description: '' }), 'description', 'parameter_invalid'],
      [httpTool({ description: 'd'.repeat(1025) }), 'description', 'parameter_invalid'],
      [httpTool({ description: undefined }), 'description', 'parameter_missing'],
      [httpTool({ parameters: undefined }), 'parameters', 'parameter_missing'],
      [httpTool({ parameters: 'object' }), 'parameters', 'parameter_invalid'],
      [httpTool({ parameters: { type: 'string' } }), 'parameters.type', 'parameter_invalid'],
      [httpTool({ parameters: { properties: {} } }), 'parameters.type', 'parameter_invalid'],
      [
        httpTool({ parameters: { type: 'object', properties: { date: { type: 'strin' } } } }),
        'parameters.properties.date.type',
        'parameter_invalid',
      ],
      [
        httpTool({ parameters: { type: 'object', properties: { a: { type: 'string' } }, required: 'a' } }),
        'parameters.required',
        'parameter_invalid',
      ],
      [
        httpTool({ parameters: { type: 'object', anyOf: [{ required: ['a'] }, { required: [7] }] } }),
        'parameters.anyOf[1].required[0]',
        'parameter_invalid',
      ],
      [
        httpTool({ parameters: { type: 'object', properties: { a: { type: 'string', minLenght: 2 } } } }),
        'parameters.properties.a.minLenght',
        'parameter_invalid',
      ],
      [
        httpTool({ parameters: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } }),
        'parameters.properties.a.$ref',
        'parameter_invalid',
      ],
      [
        httpTool({ parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } }),
        'parameters.$schema',
        'parameter_invalid',
      ],
      [httpTool({ url: 'http://example.com/tool' }), 'url', 'parameter_invalid'],
      [httpTool({ url: 'not a url' }), 'url', 'parameter_invalid'],
      [httpTool({ url: 'https://user:pw@example.com/tool' }), 'url', 'parameter_invalid'],
      [httpTool({ url: 'https://no-such-host.invalid/tool' }), 'url', 'url_unresolvable'],
      [httpTool({ method: 'PUT' }), 'method', 'parameter_invalid'],
      [httpTool({ timeout_ms: 499 }), 'timeout_ms', 'parameter_invalid'],
      [httpTool({ timeout_ms: 20_001 }), 'timeout_ms', 'parameter_invalid'],
      [httpTool({ timeout_ms: 1000.5 }), 'timeout_ms', 'parameter_invalid'],
      [httpTool({ speak_while_running: 's'.repeat(501) }), 'speak_while_running', 'parameter_invalid'],
      [httpTool({ headers: { 'Bad Header': 'x' } }), 'headers.Bad Header', 'parameter_invalid'],
      [httpTool({ headers: { 'X-Key': 'a\r\nInjected: 1' } }), 'headers.X-Key', 'parameter_invalid'],
      [httpTool({ headers: { 'Idempotency-Key': 'mine' } }), 'headers.Idempotency-Key', 'parameter_invalid'],
      [httpTool({ headers: { 'X-Key': 'a', 'x-key': 'b' } }), 'headers.x-key', 'parameter_invalid'],
      [httpTool({ headers: { 'X-Key': 7 } }), 'headers.X-Key', 'parameter_invalid'],
      [httpTool({ server_url: MCP_URL }), 'server_url', 'parameter_unknown'],
      [httpTool({ secret: 'whsec_mine' }), 'secret', 'parameter_unknown'],
      [{ type: 'mcp', name: 'm', server_url: 'http://example.com/mcp' }, 'server_url', 'parameter_invalid'],
      [{ type: 'mcp', name: 'm' }, 'server_url', 'parameter_missing'],
      [{ type: 'mcp', name: 'transfer_call', server_url: MCP_URL }, 'name', 'parameter_invalid'],
      [{ type: 'mcp', name: 'm', server_url: MCP_URL, allowed_tools: [] }, 'allowed_tools', 'parameter_invalid'],
      [
        { type: 'mcp', name: 'm', server_url: MCP_URL, allowed_tools: ['a', 'b c'] },
        'allowed_tools.1',
        'parameter_invalid',
      ],
      [
        { type: 'mcp', name: 'm', server_url: MCP_URL, allowed_tools: ['a', 'a'] },
        'allowed_tools[1]',
        'parameter_invalid',
      ],
      [
        { type: 'mcp', name: 'm', server_url: MCP_URL, allowed_tools: ['end_call'] },
        'allowed_tools[0]',
        'parameter_invalid',
      ],
      [{ type: 'mcp', name: 'm', server_url: MCP_URL, parameters: {} }, 'parameters', 'parameter_unknown'],
    ];
    for (const [body, param, code] of cases) {
      const res = await request('POST', '/v1/tools', { key: t.testKey, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.include({ type: 'invalid_request_error', param, code });
    }
    // None of them was stored.
    const list = await request('GET', '/v1/tools?limit=100', { key: t.testKey });
    expect(list.body.data.map((x: { name: string }) => x.name)).not.to.include('m');
  });

  it('refuses tool addresses resolving to loopback, private or metadata addresses unless WEBHOOK_ALLOW_PRIVATE is on', async () => {
    const saved = config();
    setConfig({ ...saved, webhookAllowPrivate: false });
    try {
      for (const url of [
        TOOL_URL,
        'https://localhost/x',
        'https://10.0.0.7/tool',
        'https://169.254.169.254/latest',
        'https://[::ffff:127.0.0.1]/x',
      ]) {
        const res = await request('POST', '/v1/tools', { key: t.testKey, body: httpTool({ name: 'private_1', url }) });
        expect(res.status, url).to.equal(400);
        expect(res.body.error, url).to.include({ param: 'url', code: 'url_private_address' });
      }
      const mcp = await request('POST', '/v1/tools', {
        key: t.testKey,
        body: { type: 'mcp', name: 'private_2', server_url: 'https://192.168.1.1/mcp' },
      });
      expect(mcp.status).to.equal(400);
      expect(mcp.body.error).to.include({ param: 'server_url', code: 'url_private_address' });
    } finally {
      setConfig(saved);
    }
    // An update is checked the same way.
    const tool = await createTool(t.testKey, httpTool({ name: 'private_3' }));
    setConfig({ ...saved, webhookAllowPrivate: false });
    try {
      const res = await request('POST', `/v1/tools/${tool.id}`, {
        key: t.testKey,
        body: { url: 'https://100.64.1.1/tool' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ param: 'url', code: 'url_private_address' });
    } finally {
      setConfig(saved);
    }
    expect((await request('GET', `/v1/tools/${tool.id}`, { key: t.testKey })).body.url).to.equal(TOOL_URL);
  });

  it('keeps names unique per organization and mode (409 tool_exists), free again after a deletion', async () => {
    const first = await createTool(t.testKey, httpTool({ name: 'unique_name' }));
    const dup = await request('POST', '/v1/tools', { key: t.testKey, body: httpTool({ name: 'unique_name' }) });
    expect(dup.status).to.equal(409);
    expect(dup.body.error).to.include({ type: 'invalid_request_error', code: 'tool_exists', param: 'name' });
    // An MCP server shares the names of http tools.
    const mcpDup = await request('POST', '/v1/tools', {
      key: t.testKey,
      body: { type: 'mcp', name: 'unique_name', server_url: MCP_URL },
    });
    expect(mcpDup.status).to.equal(409);
    // Live mode and another organization have their own names.
    await createTool(t.liveKey, httpTool({ name: 'unique_name' }));
    const other = await newTenant();
    await createTool(other.testKey, httpTool({ name: 'unique_name' }));
    // A rename onto a taken name is refused likewise, and changes nothing.
    const second = await createTool(t.testKey, httpTool({ name: 'unique_name_2' }));
    const rename = await request('POST', `/v1/tools/${second.id}`, { key: t.testKey, body: { name: 'unique_name' } });
    expect(rename.status).to.equal(409);
    expect(rename.body.error).to.include({ code: 'tool_exists', param: 'name' });
    expect((await request('GET', `/v1/tools/${second.id}`, { key: t.testKey })).body.name).to.equal('unique_name_2');
    // Two creations racing for one name: one wins.
    const race = await Promise.all(
      [1, 2, 3].map(() => request('POST', '/v1/tools', { key: t.testKey, body: httpTool({ name: 'raced_name' }) })),
    );
    expect(race.map((r) => r.status).sort()).to.deep.equal([200, 409, 409]);
    // Deleted, its name is free.
    await request('DELETE', `/v1/tools/${first.id}`, { key: t.testKey });
    const reused = await createTool(t.testKey, httpTool({ name: 'unique_name' }));
    expect(reused.id).not.to.equal(first.id);
  });

  it('keeps test and live mode apart, and asks agents:write / agents:read', async () => {
    const tool = await createTool(t.testKey, httpTool({ name: 'mode_tool' }));
    expect((await request('GET', `/v1/tools/${tool.id}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('POST', `/v1/tools/${tool.id}`, { key: t.liveKey, body: { name: 'x' } })).status).to.equal(
      404,
    );
    expect((await request('DELETE', `/v1/tools/${tool.id}`, { key: t.liveKey })).status).to.equal(404);
    const live = await request('GET', '/v1/tools?limit=100', { key: t.liveKey });
    expect(live.body.data.map((x: { id: string }) => x.id)).not.to.include(tool.id);
    expect(live.body.data.every((x: { livemode: boolean }) => x.livemode)).to.equal(true);
    const reader = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['agents:read'] })).key;
    expect((await request('GET', `/v1/tools/${tool.id}`, { key: reader })).status).to.equal(200);
    const refused = await request('POST', '/v1/tools', { key: reader, body: httpTool({ name: 'by_reader' }) });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'scope_missing' });
    expect((await request('DELETE', `/v1/tools/${tool.id}`, { key: reader })).status).to.equal(403);
  });

  it('agents take tool_ids: each a live tool of the organization and mode; a deleted tool leaves the agents', async () => {
    const t = await newTenant(); // its own keys: this test's requests stay under a key's rate limit
    const a = await createTool(t.testKey, httpTool({ name: 'agent_tool_a' }));
    const b = await createTool(t.testKey, { type: 'mcp', name: 'agent_tool_b', server_url: MCP_URL });
    const liveTool = await createTool(t.liveKey, httpTool({ name: 'agent_tool_live' }));
    const deleted = await createTool(t.testKey, httpTool({ name: 'agent_tool_deleted' }));
    await request('DELETE', `/v1/tools/${deleted.id}`, { key: t.testKey });
    const other = await newTenant();
    const foreign = await createTool(other.testKey, httpTool({ name: 'agent_tool_foreign' }));

    const plain = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
    expect(plain.body.tool_ids).to.deep.equal([]);
    const agentBody = { name: 'Tooled', instructions: 'You look orders up.' };
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { ...agentBody, tool_ids: [a.id, b.id] },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    expect(agent.body.tool_ids).to.deep.equal([a.id, b.id]);
    expect((await request('GET', `/v1/agents/${agent.body.id}`, { key: t.testKey })).body.tool_ids).to.deep.equal([
      a.id,
      b.id,
    ]);

    const refusals: [unknown[], string][] = [
      [[a.id, 'tool_01m80np488q6rre43ctk0tmky1'], 'tool_ids[1]'],
      [[liveTool.id], 'tool_ids[0]'],
      [[a.id, deleted.id], 'tool_ids[1]'],
      [[foreign.id], 'tool_ids[0]'],
      [[a.id, a.id], 'tool_ids[1]'],
      [[a.id, 7], 'tool_ids.1'],
    ];
    for (const [toolIds, param] of refusals) {
      const create = await request('POST', '/v1/agents', { key: t.testKey, body: { ...agentBody, tool_ids: toolIds } });
      expect(create.status, JSON.stringify(toolIds)).to.equal(400);
      expect(create.body.error, JSON.stringify(toolIds)).to.include({ code: 'parameter_invalid', param });
      const update = await request('POST', `/v1/agents/${agent.body.id}`, {
        key: t.testKey,
        body: { tool_ids: toolIds },
      });
      expect(update.status, JSON.stringify(toolIds)).to.equal(400);
      expect(update.body.error, JSON.stringify(toolIds)).to.include({ code: 'parameter_invalid', param });
    }
    // The live agent takes the live tool.
    const liveAgent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { ...agentBody, tool_ids: [liveTool.id] },
    });
    expect(liveAgent.status, JSON.stringify(liveAgent.body)).to.equal(200);

    // Update replaces the list; [] empties it.
    const upd = await request('POST', `/v1/agents/${agent.body.id}`, { key: t.testKey, body: { tool_ids: [b.id] } });
    expect(upd.body.tool_ids).to.deep.equal([b.id]);
    const emptied = await request('POST', `/v1/agents/${agent.body.id}`, { key: t.testKey, body: { tool_ids: [] } });
    expect(emptied.body.tool_ids).to.deep.equal([]);

    // Deleting a tool removes it from every agent that lists it (and leaves the others' tools).
    await request('POST', `/v1/agents/${agent.body.id}`, { key: t.testKey, body: { tool_ids: [a.id, b.id] } });
    const second = await request('POST', '/v1/agents', { key: t.testKey, body: { ...agentBody, tool_ids: [a.id] } });
    expect((await request('DELETE', `/v1/tools/${a.id}`, { key: t.testKey })).status).to.equal(200);
    expect((await request('GET', `/v1/agents/${agent.body.id}`, { key: t.testKey })).body.tool_ids).to.deep.equal([
      b.id,
    ]);
    expect((await request('GET', `/v1/agents/${second.body.id}`, { key: t.testKey })).body.tool_ids).to.deep.equal([]);
    expect((await request('GET', `/v1/agents/${liveAgent.body.id}`, { key: t.liveKey })).body.tool_ids).to.deep.equal([
      liveTool.id,
    ]);
  });

  it('corrects an agent written with a tool that was deleted meanwhile (the deletion raced the write)', async () => {
    const t = await newTenant();
    const a = await createTool(t.testKey, httpTool({ name: 'raced_tool_a' }));
    const b = await createTool(t.testKey, httpTool({ name: 'raced_tool_b' }));
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Raced', instructions: 'You look orders up.', tool_ids: [a.id, b.id] },
    });
    // The deletion's mark landed, its pull of the agents ran before the agent's write: only the mark is seen.
    await Tool.updateOne({ _id: a.id }, { $set: { deleted_ms: Date.now(), name_key: `~${a.id}` } });
    expect(await dropDeletedTools(agent.body.id, [a.id, b.id])).to.equal(true);
    expect((await request('GET', `/v1/agents/${agent.body.id}`, { key: t.testKey })).body.tool_ids).to.deep.equal([
      b.id,
    ]);
    expect(await dropDeletedTools(agent.body.id, [b.id])).to.equal(false);
  });
});
