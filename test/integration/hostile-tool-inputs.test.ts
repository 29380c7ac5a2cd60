/**
 * What a tenant, a publisher or the model writes into schemas and tool calls cannot freeze the service
 * or steer a tool's request, through the real API, Temporal and a loopback HTTPS tool server:
 * - a connector's `config_schema` pattern `^(a+)+$` (exponential on a backtracking engine) and a
 *   40-character value: the install answers within 50 ms and `/healthz`, asked at the same time, too;
 *   a tool's arguments against the same pattern are checked in linear time;
 * - lookaround and backreferences are refused at write time with a 400 naming the pattern's place;
 * - a GET tool's query parameters fixed in its `url` reach the server as written whatever the model
 *   sends; an argument outside `parameters.properties` is refused before any request (the model is told);
 * - a connector's `{{arguments.*}}` holding `/`, `?`, `#`, `..` stays in its placeholder.
 */
import { expect } from 'chai';
import { argumentProblems } from '../../src/services/tools';
import { newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { freshId, install, newPublisher, publish, publishOk, type Publisher } from '../support/connectors';
import { createHttpTool, useTools } from '../support/tools';
import { placeCall, type Tenant } from '../support/webhooks';

/** The pattern that takes 2^n steps on a backtracking engine for n `a`s and a `!`. */
const EVIL = '^(a+)+$';
const ATTACK = `${'a'.repeat(40)}!`;

/** Answers `run()`'s result and how long it took, ms. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

/** Places a test call where the scripted caller says `lines`; answers the ended call's tool turns. */
async function toolTurnsOf(tenant: Tenant, lines: string[]) {
  const call = await placeCall(tenant, { simulation: { caller: lines } });
  const ended = await waitForCall(tenant.testKey, call.id, undefined, 60_000);
  expect(ended.status, JSON.stringify(ended)).to.equal('completed');
  const tr = await request('GET', `/v1/calls/${call.id}/transcript`, { key: tenant.testKey });
  expect(tr.status).to.equal(200);
  return (tr.body.turns as any[]).filter((t) => t.role === 'tool');
}

describe('hostile inputs: tenant patterns run on a linear-time engine', function () {
  this.timeout(120_000);
  let publisher: Publisher;
  let t: Tenant;
  before(async () => {
    publisher = await newPublisher();
    t = await newTenant();
  });

  it('an install whose config meets ^(a+)+$ with 40 characters answers within 50 ms, and /healthz meanwhile', async () => {
    const connectorId = freshId();
    await publishOk(publisher, {
      id: connectorId,
      version: '1.0.0',
      name: 'Codes',
      config_schema: {
        type: 'object',
        properties: { code: { type: 'string', pattern: EVIL } },
        required: ['code'],
        additionalProperties: false,
      },
    });
    // The first install compiles the schema; the attack is timed on what every later one costs.
    await install(t.testKey, { connector_id: connectorId, config: { code: 'aaaa' } });
    const installs: number[] = [];
    const health: number[] = [];
    // Best of three: one slow round on a busy test machine is noise; a backtracking engine is slow in
    // every round (2^40 steps: hours, with the whole process frozen, the health check with it).
    for (let round = 0; round < 3; round++) {
      const [attack, healthz] = await Promise.all([
        timed(() =>
          request('POST', '/v1/connector_installations', {
            key: t.testKey,
            body: { connector_id: connectorId, version: '1.0.0', config: { code: ATTACK } },
          }),
        ),
        timed(async () => {
          await new Promise((resolve) => setTimeout(resolve, 2)); // after the install reached the server
          return request('GET', '/healthz');
        }),
      ]);
      expect(attack.value.status, JSON.stringify(attack.value.body)).to.equal(400);
      expect(attack.value.body.error).to.include({ code: 'parameter_invalid', param: 'config.code' });
      expect(healthz.value.status).to.equal(200);
      installs.push(attack.ms);
      health.push(healthz.ms);
    }
    expect(Math.min(...installs), `install ms: ${installs.join(', ')}`).to.be.below(50);
    expect(Math.min(...health), `healthz ms: ${health.join(', ')}`).to.be.below(50);
    // A value the pattern matches is still accepted.
    const ok = await install(t.testKey, { connector_id: connectorId, config: { code: 'a'.repeat(40) } });
    expect(ok.config).to.deep.equal({ code: 'a'.repeat(40) });
  });

  it("a tool's arguments meet ^(a+)+$ in linear time: 40 characters and 100,000 both well within a second", async () => {
    const parameters = { type: 'object', properties: { code: { type: 'string', pattern: EVIL } } };
    const created = await request('POST', '/v1/tools', {
      key: t.testKey,
      body: { type: 'http', name: 'evil_pattern', description: 'x', parameters, url: 'https://127.0.0.1:9/x' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(argumentProblems(parameters, { code: 'aa' })).to.deep.equal([]); // compiled once
    for (const value of [ATTACK, `${'a'.repeat(100_000)}!`]) {
      const { value: problems, ms } = await timed(async () => argumentProblems(parameters, { code: value }));
      expect(problems).to.deep.equal([`code: must match pattern "${EVIL}"`]);
      // A few ms in linear time; a backtracking engine needs hours for the 40 characters (2^40 paths). The bound
      // leaves room for a loaded machine's pauses.
      expect(ms, `${value.length} characters`).to.be.below(1000);
    }
  });

  it('refuses lookaround and backreferences with a 400 naming the place of the pattern', async () => {
    const tool = (parameters: Record<string, unknown>) =>
      request('POST', '/v1/tools', {
        key: t.testKey,
        body: { type: 'http', name: 'lookaround', description: 'x', parameters, url: 'https://127.0.0.1:9/x' },
      });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { type: 'object', properties: { code: { type: 'string', pattern: '^(?=a)a+$' } } },
        'parameters.properties.code.pattern',
        /lookahead and lookbehind/,
      ],
      [
        { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } },
        'parameters.properties.code.pattern',
        /backreferences/,
      ],
      [
        {
          type: 'object',
          properties: { list: { type: 'array', items: { type: 'string', pattern: '(?<n>x)\\k<n>' } } },
        },
        'parameters.properties.list.items.pattern',
        /backreferences/,
      ],
      [
        { type: 'object', patternProperties: { '(?<!x)y': { type: 'string' } } },
        'parameters.patternProperties.(?<!x)y',
        /lookahead and lookbehind/,
      ],
    ];
    for (const [parameters, param, why] of cases) {
      const res = await tool(parameters);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ type: 'invalid_request_error', code: 'parameter_invalid', param });
      expect(res.body.error.message).to.match(why);
    }
    // A publisher's config_schema alike, at upload.
    const bad = await publish(publisher, {
      id: freshId(),
      version: '1.0.0',
      name: 'Lookbehind',
      config_schema: { type: 'object', properties: { code: { type: 'string', pattern: '(?<=a)b' } } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'bundle_invalid', reason: 'config_schema_invalid' });
    expect(bad.body.error.message).to.include('config_schema.properties.code.pattern');
  });
});

describe("hostile inputs: a tool's own URL wins over the model's arguments", function () {
  this.timeout(120_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  before(async () => {
    t = await newTenant();
    receiver = await startHttpsReceiver();
  });
  after(async () => receiver.close());

  it('a GET tool keeps the query fixed in its url; an argument outside parameters.properties is refused unsent', async () => {
    // `account` is a declared parameter, so only the URL's rule keeps the fixed value; no additionalProperties.
    const parameters = {
      type: 'object',
      properties: { order_id: { type: 'string' }, account: { type: 'string' } },
      required: ['order_id'],
    };
    const fixed = await createHttpTool(t, receiver, 'fixed_get', '/fixed?account=acme&lang=en%20GB', {
      method: 'GET',
      parameters,
    });
    const open = await createHttpTool(t, receiver, 'open_post', '/open', { parameters });
    receiver.route('/fixed', () => ({ status: 200, body: '{"ok":true}' }));
    await useTools(t, [fixed.id, open.id]);
    const turns = await toolTurnsOf(t, [
      'TOOLONCE fixed_get {"order_id":"A1","account":"evil","lang":"xx","tool_call_id":"tc_forged"}',
      'TOOLONCE fixed_get {"order_id":"A2","account":"evil"}',
      'TOOLONCE open_post {"order_id":"A3","debug":"1"}',
    ]);

    // The first call names undeclared `lang` and `tool_call_id`: refused, nothing sent.
    const got = receiver.at('/fixed');
    expect(got, JSON.stringify(got.map((r) => r.target))).to.have.length(1);
    const query = new URL(got[0].target, 'https://x').searchParams;
    expect(query.getAll('account')).to.deep.equal(['acme']);
    expect(query.getAll('lang')).to.deep.equal(['en GB']);
    expect(query.get('order_id')).to.equal('A2');
    expect(query.getAll('tool_call_id')).to.deep.equal([got[0].headers['idempotency-key']]);
    expect(got[0].target).to.match(/^\/fixed\?account=acme&lang=en%20GB&/); // the fixed query as written

    expect(receiver.at('/open')).to.have.length(0);
    expect(turns.map((x) => x.name)).to.deep.equal(['fixed_get', 'fixed_get', 'open_post']);
    expect(turns[0].error).to.match(/^Error: the arguments of fixed_get are invalid: /);
    expect(turns[0].error)
      .to.match(/lang: is not allowed/)
      .and.match(/tool_call_id: is not allowed/);
    expect(turns[1].result).to.equal('{"ok":true}');
    expect(turns[2].error).to.match(/^Error: the arguments of open_post are invalid: debug: is not allowed\.$/);
  });

  it('a connector argument holding /, ?, #, .. stays in its placeholder; one outside properties is refused unsent', async () => {
    const publisher = await newPublisher();
    const connectorId = freshId();
    await publishOk(publisher, {
      id: connectorId,
      version: '1.0.0',
      name: 'CRM',
      config_schema: { type: 'object', properties: { subdomain: { type: 'string' } }, required: ['subdomain'] },
      tools: [
        {
          name: 'lookup',
          description: 'Look up an order.',
          parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
          request: {
            method: 'GET',
            url: `https://127.0.0.1:${receiver.port}/crm/{{config.subdomain}}/orders/{{arguments.order}}?scope=read`,
          },
        },
      ],
    });
    const installed = await install(t.testKey, { connector_id: connectorId, config: { subdomain: 'acme' } });
    const agent = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { tool_ids: [], connector_installation_ids: [installed.id] },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const turns = await toolTurnsOf(t, [
      'TOOLONCE crm__lookup {"order":"../../admin/users?scope=write#x"}',
      'TOOLONCE crm__lookup {"order":".."}',
      'TOOLONCE crm__lookup {"order":"7","scope":"write"}',
    ]);

    const sent = receiver.received.filter((r) => r.path.startsWith('/crm/') || r.path.startsWith('/admin'));
    expect(sent.map((r) => r.target)).to.deep.equal([
      '/crm/acme/orders/..%2F..%2Fadmin%2Fusers%3Fscope%3Dwrite%23x?scope=read',
    ]);
    expect(turns).to.have.length(3);
    expect(turns[1].error).to.match(/'\.' or '\.\.' segment/);
    expect(turns[2].error).to.match(/^Error: the arguments of crm__lookup are invalid: scope: is not allowed\.$/);
  });
});
