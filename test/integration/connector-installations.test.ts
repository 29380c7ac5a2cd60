/**
 * Connectors that install, through the real API: a bundle declaring two tools and a
 * `config_schema` published by one organization and installed by another with config (the secret value
 * sealed, never answered), listed, retrieved, moved to another version, its config changed (a secret left
 * out kept), deleted (and pulled out of the agents listing it); bad config naming the path; unknown
 * connectors and versions; the revocation rule; a bad manifest refused at upload; and what the tool-call
 * path gets (`installationTools`, `connectorToolRequest`), called in this process; and the tools used on a
 * test call against a loopback HTTPS server: templates filled, requests signed with the installation's
 * secret, the calls in the transcript.
 */
import { expect } from 'chai';
import { createKey } from '../../src/keys';
import { ConnectorInstallation } from '../../src/models/connector-installations';
import { ConnectorVersion, PublisherKey } from '../../src/models/connectors';
import {
  connectorToolRequest,
  dropDeletedInstallations,
  installationTools,
} from '../../src/services/connector-installations';
import { isSealed, openSecret } from '../../src/secrets';
import { idTime } from '../../src/shared/ids';
import { freshId, install, newPublisher, publish, publishOk, type Publisher } from '../support/connectors';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { placeCall, verify } from '../support/webhooks';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    subdomain: { type: 'string', pattern: '^[a-z0-9-]+$' },
    api_key: { type: 'string', 'x-secret': true },
  },
  required: ['subdomain', 'api_key'],
  additionalProperties: false,
};

const TOOLS = [
  {
    name: 'lookup_order',
    description: 'Look up an order by its number.',
    parameters: { type: 'object', properties: { order_number: { type: 'string' } }, required: ['order_number'] },
    request: {
      method: 'GET',
      url: 'https://{{config.subdomain}}.crm.example.com/api/orders/{{arguments.order_number}}',
      headers: { Authorization: 'Bearer {{config.api_key}}' },
    },
    speak_while_running: 'Let me check that order.',
  },
  {
    name: 'create_ticket',
    description: 'Open a support ticket.',
    parameters: {
      type: 'object',
      properties: { subject: { type: 'string' }, priority: { type: 'integer' } },
      required: ['subject'],
    },
    request: {
      method: 'POST',
      url: 'https://{{config.subdomain}}.crm.example.com/api/tickets',
      headers: { 'X-Api-Key': '{{config.api_key}}' },
      body: { subject: '{{arguments.subject}}', priority: '{{arguments.priority}}', source: 'voice' },
    },
    timeout_ms: 8000,
  },
];

const crmManifest = (id: string, version: string, extra: Record<string, unknown> = {}) => ({
  id,
  version,
  name: 'Example CRM',
  tools: TOOLS,
  config_schema: CONFIG_SCHEMA,
  ...extra,
});

describe('connector installations', function () {
  this.timeout(120_000);
  let publisher: Publisher;
  let t: Tenant;
  let connectorId: string;
  const tenant = () => ({ orgId: t.orgId, livemode: false });

  before(async () => {
    publisher = await newPublisher();
    t = await newTenant();
    connectorId = freshId();
    await publishOk(publisher, crmManifest(connectorId, '1.0.0'));
    const v11 = crmManifest(connectorId, '1.1.0', {
      config_schema: {
        ...CONFIG_SCHEMA,
        properties: { ...CONFIG_SCHEMA.properties, region: { type: 'string', enum: ['eu', 'us'] } },
      },
    });
    await publishOk(publisher, v11);
  });

  it("installs another organization's published version with config; the secret value is never answered", async () => {
    const created = await install(t.testKey, {
      connector_id: connectorId,
      version: '1.0.0',
      config: { subdomain: 'acme', api_key: 'sk_customer_secret_1' },
      metadata: { team: 'support' },
    });
    expect(created.id).to.match(/^cinst_[0-9a-z]{26}$/);
    expect(created.secret).to.match(/^whsec_/);
    const { secret, ...shown } = created;
    expect(shown).to.deep.equal({
      id: created.id,
      object: 'connector_installation',
      livemode: false,
      connector_id: connectorId,
      version: '1.0.0',
      config: { subdomain: 'acme' },
      secret_config_keys: ['api_key'],
      tools: ['crm__lookup_order', 'crm__create_ticket'],
      metadata: { team: 'support' },
      created: created.created,
      updated: created.created,
    });
    expect(JSON.stringify(created)).not.to.include('sk_customer_secret_1');
    const stored = await ConnectorInstallation.findById(created.id).lean();
    expect(isSealed(stored!.secret_config_sealed)).to.equal(true);
    expect(isSealed(stored!.secret)).to.equal(true);
    expect(openSecret(stored!.secret)).to.equal(secret);
    expect(JSON.stringify(stored)).not.to.include('sk_customer_secret_1');

    const got = await request('GET', `/v1/connector_installations/${created.id}`, { key: t.testKey });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(shown);
    const list = await request('GET', '/v1/connector_installations?limit=5', { key: t.testKey });
    expect(list.status).to.equal(200);
    expect(list.body.data.map((i: { id: string }) => i.id)).to.include(created.id);
    expect(JSON.stringify(list.body)).not.to.include('whsec_');

    // What the tool-call path gets, in this process.
    const tools = await installationTools(tenant(), [created.id, 'cinst_00000000000000000000000000']);
    expect(tools.map((x) => [x.name, x.source, x.timeoutMs, x.speakWhileRunning])).to.deep.equal([
      [
        'crm__lookup_order',
        { kind: 'connector', installationId: created.id, toolName: 'lookup_order' },
        5000,
        'Let me check that order.',
      ],
      ['crm__create_ticket', { kind: 'connector', installationId: created.id, toolName: 'create_ticket' }, 8000, null],
    ]);
    expect(tools[0].parameters).to.deep.equal(TOOLS[0].parameters);
    expect(await connectorToolRequest(tenant(), created.id, 'lookup_order', { order_number: 'A-1/2' })).to.deep.equal({
      method: 'GET',
      url: 'https://acme.crm.example.com/api/orders/A-1%2F2',
      headers: { Authorization: 'Bearer sk_customer_secret_1' },
      body: null,
      secret,
    });
    const post = await connectorToolRequest(tenant(), created.id, 'create_ticket', { subject: 'Late', priority: 2 });
    expect(post).to.include({ method: 'POST', url: 'https://acme.crm.example.com/api/tickets', secret });
    expect(JSON.parse((post as { body: string }).body)).to.deep.equal({
      subject: 'Late',
      priority: 2,
      source: 'voice',
    });
    expect(await connectorToolRequest(tenant(), created.id, 'no_such_tool', {})).to.equal(null);
    // Another organization sees nothing of it.
    expect(await installationTools({ orgId: 'org_other', livemode: false }, [created.id])).to.deep.equal([]);
  });

  it('installs the latest release when no version is named', async () => {
    const created = await install(t.testKey, {
      connector_id: connectorId,
      config: { subdomain: 'acme', api_key: 'k', region: 'eu' },
    });
    expect(created.version).to.equal('1.1.0');
    expect(created.config).to.deep.equal({ subdomain: 'acme', region: 'eu' });
  });

  it('moves to another version and changes config; a secret left out keeps its value', async () => {
    const created = await install(t.testKey, {
      connector_id: connectorId,
      version: '1.0.0',
      config: { subdomain: 'acme', api_key: 'sk_keep_me' },
    });
    // region is not in 1.0.0's schema.
    const bad = await request('POST', `/v1/connector_installations/${created.id}`, {
      key: t.testKey,
      body: { config: { subdomain: 'acme', region: 'eu' } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'config.region' });
    const moved = await request('POST', `/v1/connector_installations/${created.id}`, {
      key: t.testKey,
      body: { version: '1.1.0', config: { subdomain: 'acme-eu', region: 'eu' }, metadata: { stage: 'eu' } },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body).to.include({ version: '1.1.0' });
    expect(moved.body).not.to.have.property('secret');
    expect(moved.body.config).to.deep.equal({ subdomain: 'acme-eu', region: 'eu' });
    expect(moved.body.secret_config_keys).to.deep.equal(['api_key']);
    expect(moved.body.metadata).to.deep.equal({ stage: 'eu' });
    const rendered = await connectorToolRequest(tenant(), created.id, 'lookup_order', { order_number: '9' });
    expect(rendered).to.deep.include({
      url: 'https://acme-eu.crm.example.com/api/orders/9',
      headers: { Authorization: 'Bearer sk_keep_me' },
    });
    // A new secret value replaces the stored one; a version move alone keeps the config.
    const rotated = await request('POST', `/v1/connector_installations/${created.id}`, {
      key: t.testKey,
      body: { config: { subdomain: 'acme-eu', api_key: 'sk_rotated' } },
    });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.config).to.deep.equal({ subdomain: 'acme-eu' });
    const back = await request('POST', `/v1/connector_installations/${created.id}`, {
      key: t.testKey,
      body: { version: '1.0.0' },
    });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    expect(back.body).to.include({ version: '1.0.0' });
    expect(await connectorToolRequest(tenant(), created.id, 'lookup_order', { order_number: '9' })).to.deep.include({
      headers: { Authorization: 'Bearer sk_rotated' },
    });
  });

  it('refuses bad config naming the path, unknown connectors and versions, and another mode', async () => {
    const refuse = async (key: string, body: Record<string, unknown>, status: number, code: string, param: string) => {
      const res = await request('POST', '/v1/connector_installations', { key, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.include({ code, param });
      return res.body.error;
    };
    const missing = await refuse(
      t.testKey,
      { connector_id: connectorId, version: '1.0.0', config: { subdomain: 'acme' } },
      400,
      'parameter_invalid',
      'config.api_key',
    );
    expect(missing.message).to.match(/is required/);
    await refuse(
      t.testKey,
      { connector_id: connectorId, config: { subdomain: 'Not Valid', api_key: 'k' } },
      400,
      'parameter_invalid',
      'config.subdomain',
    );
    await refuse(t.testKey, { connector_id: 'Not-An-Id', config: {} }, 400, 'parameter_invalid', 'connector_id');
    await refuse(
      t.testKey,
      { connector_id: 'com.nobody.nothing', config: {} },
      404,
      'resource_missing',
      'connector_id',
    );
    await refuse(
      t.testKey,
      { connector_id: connectorId, version: '9.9.9', config: {} },
      404,
      'resource_missing',
      'version',
    );
    // Published in test mode only: a live key finds nothing.
    // 1.1.0 is published in test mode only (the live publication that claimed the id was 1.0.0).
    await refuse(
      t.liveKey,
      { connector_id: connectorId, version: '1.1.0', config: {} },
      404,
      'resource_missing',
      'version',
    );
    const unknown = await request('GET', '/v1/connector_installations/cinst_00000000000000000000000000', {
      key: t.testKey,
    });
    expect(unknown.status).to.equal(404);
  });

  it('gives agents connector_installation_ids; a deleted installation is pulled out of them', async () => {
    const inst = await install(t.testKey, {
      connector_id: connectorId,
      version: '1.0.0',
      config: { subdomain: 'acme', api_key: 'k' },
    });
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'CRM agent', instructions: 'Help.', connector_installation_ids: [inst.id] },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    expect(agent.body.connector_installation_ids).to.deep.equal([inst.id]);
    const bad = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'x', instructions: 'y', connector_installation_ids: [inst.id, 'cinst_00000000000000000000000000'] },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ param: 'connector_installation_ids[1]' });
    const twice = await request('POST', `/v1/agents/${agent.body.id}`, {
      key: t.testKey,
      body: { connector_installation_ids: [inst.id, inst.id] },
    });
    expect(twice.body.error).to.include({ param: 'connector_installation_ids[1]' });
    const live = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'x', instructions: 'y', connector_installation_ids: [inst.id] },
    });
    expect(live.status).to.equal(400);
    expect(live.body.error).to.include({ param: 'connector_installation_ids[0]' });
    const plain = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
    expect(plain.body.connector_installation_ids).to.deep.equal([]);

    const deleted = await request('DELETE', `/v1/connector_installations/${inst.id}`, { key: t.testKey });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: inst.id, object: 'connector_installation', deleted: true });
    const after = await request('GET', `/v1/agents/${agent.body.id}`, { key: t.testKey });
    expect(after.body.connector_installation_ids).to.deep.equal([]);
    expect((await request('GET', `/v1/connector_installations/${inst.id}`, { key: t.testKey })).status).to.equal(404);
    expect((await request('DELETE', `/v1/connector_installations/${inst.id}`, { key: t.testKey })).status).to.equal(
      404,
    );
    expect(await installationTools(tenant(), [inst.id])).to.deep.equal([]);
    expect(await connectorToolRequest(tenant(), inst.id, 'lookup_order', { order_number: '1' })).to.equal(null);
    const stored = await ConnectorInstallation.findById(inst.id).lean();
    expect(stored).to.include({ secret: null, secret_config_sealed: null });
    const reuse = await request('POST', `/v1/agents/${agent.body.id}`, {
      key: t.testKey,
      body: { connector_installation_ids: [inst.id] },
    });
    expect(reuse.status).to.equal(400);
  });

  it('installs a version whose key was revoked afterwards only if it was published before the revocation', async () => {
    const p = await newPublisher();
    const id = freshId();
    const version = await publishOk(p, crmManifest(id, '1.0.0'));
    const revoked = await request('DELETE', `/v1/publisher_keys/${p.pkeyId}`, { key: p.key });
    expect(revoked.body.status).to.equal('revoked');
    const config = { subdomain: 'acme', api_key: 'k' };
    await install(t.testKey, { connector_id: id, config });
    // A publication that raced the revocation: its row is later than the key's revocation.
    await PublisherKey.updateOne({ _id: p.pkeyId }, { $set: { revoked_ms: idTime(version.id) - 1 } });
    const res = await request('POST', '/v1/connector_installations', {
      key: t.testKey,
      body: { connector_id: id, config },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.error).to.include({ code: 'connector_version_revoked', param: 'version' });
    expect(res.body.error.message).to.match(/published after its signing key .* was revoked/);
  });

  it('refuses a bad manifest at upload with its reason, and installs a connector without tools', async () => {
    const id = freshId();
    const dup = await publish(publisher, crmManifest(id, '1.0.0', { tools: [TOOLS[0], TOOLS[0]] }));
    expect(dup.status).to.equal(400);
    expect(dup.body.error).to.include({ code: 'bundle_invalid', reason: 'tool_name_duplicate', param: 'bundle' });
    const placeholder = await publish(publisher, crmManifest(id, '1.0.0', { config_schema: undefined }));
    expect(placeholder.body.error).to.include({ code: 'bundle_invalid', reason: 'placeholder_invalid' });
    expect(await ConnectorVersion.exists({ connector_id: id })).to.equal(null);

    await publishOk(publisher, { id, version: '0.1.0', name: 'Plain' });
    const plain = await install(t.testKey, { connector_id: id });
    expect(plain).to.deep.include({ version: '0.1.0', tools: [], config: {}, secret_config_keys: [] });
    const withConfig = await request('POST', '/v1/connector_installations', {
      key: t.testKey,
      body: { connector_id: id, config: { a: 1 } },
    });
    expect(withConfig.body.error).to.include({ param: 'config' });
  });

  it('corrects an agent written with an installation deleted meanwhile, and asks connectors:write / connectors:read', async () => {
    const config = { subdomain: 'acme', api_key: 'k' };
    const a = await install(t.testKey, { connector_id: connectorId, version: '1.0.0', config });
    const b = await install(t.testKey, { connector_id: connectorId, version: '1.0.0', config });
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Raced', instructions: 'Help.', connector_installation_ids: [a.id, b.id] },
    });
    // The deletion's mark landed, its pull of the agents ran before the agent's write: only the mark is seen.
    await ConnectorInstallation.updateOne({ _id: a.id }, { $set: { deleted_ms: Date.now() } });
    expect(await dropDeletedInstallations(agent.body.id, [a.id, b.id])).to.equal(true);
    const got = await request('GET', `/v1/agents/${agent.body.id}`, { key: t.testKey });
    expect(got.body.connector_installation_ids).to.deep.equal([b.id]);
    expect(await dropDeletedInstallations(agent.body.id, [b.id])).to.equal(false);

    const reader = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['connectors:read'] }))
      .key;
    expect((await request('GET', `/v1/connector_installations/${b.id}`, { key: reader })).status).to.equal(200);
    const refused = await request('POST', '/v1/connector_installations', {
      key: reader,
      body: { connector_id: connectorId, config },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'scope_missing' });
  });
});

describe('connector installations: the tools used on a call', function () {
  this.timeout(120_000);
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => receiver.close());

  it('fills the templates with the config and the arguments, signs with the installation secret, and records the calls', async () => {
    const publisher = await newPublisher();
    const t = await newTenant();
    const connectorId = freshId();
    const base = `https://127.0.0.1:${receiver.port}/crm/{{config.subdomain}}`;
    const tools = [
      { ...TOOLS[0], request: { ...TOOLS[0].request, url: `${base}/orders/{{arguments.order_number}}` } },
      { ...TOOLS[1], request: { ...TOOLS[1].request, url: `${base}/tickets` } },
    ];
    await publishOk(publisher, crmManifest(connectorId, '2.0.0', { tools }));
    receiver.route('/crm/acme/orders/42', () => ({ status: 200, body: '{"order":"42","status":"packed"}' }));
    receiver.route('/crm/acme/tickets', () => ({ status: 201, body: '{"ticket":"T-1"}' }));
    const installed = await install(t.testKey, {
      connector_id: connectorId,
      config: { subdomain: 'acme', api_key: 'sk_customer_secret_2' },
    });
    const agent = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { connector_installation_ids: [installed.id] },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);

    const call = await placeCall(t, {
      simulation: {
        caller: [
          'TOOLONCE crm__lookup_order {"order_number":"42"}',
          'TOOLONCE crm__create_ticket {"subject":"Broken","priority":2}',
        ],
      },
    });
    const ended = await waitForCall(t.testKey, call.id, undefined, 60_000);
    expect(ended.status).to.equal('completed');
    const offered = h()
      .llm.requests.find((r) => r.user === call.id)!
      .tools!.map((x) => x.function.name);
    expect(offered).to.include.members(['crm__lookup_order', 'crm__create_ticket']);

    const [lookup] = receiver.at('/crm/acme/orders/42');
    expect(lookup.headers.authorization).to.equal('Bearer sk_customer_secret_2');
    expect(lookup.rawBody).to.equal('');
    expect(verify(lookup.target, lookup.headers['svc-signature'] as string, installed.secret)).to.equal(true);
    const [ticket] = receiver.at('/crm/acme/tickets');
    expect(ticket.body).to.deep.equal({ subject: 'Broken', priority: 2, source: 'voice' });
    expect(ticket.headers['x-api-key']).to.equal('sk_customer_secret_2');
    expect(ticket.headers['content-type']).to.match(/^application\/json/);
    expect(verify(ticket.rawBody, ticket.headers['svc-signature'] as string, installed.secret)).to.equal(true);
    expect(receiver.received.filter((r) => r.path.startsWith('/crm/'))).to.have.length(2);

    const tr = await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey });
    const entries = (tr.body.turns as any[]).filter((x) => x.role === 'tool');
    expect(entries.map((e) => [e.name, e.status, e.result])).to.deep.equal([
      ['crm__lookup_order', 200, '{"order":"42","status":"packed"}'],
      ['crm__create_ticket', 201, '{"ticket":"T-1"}'],
    ]);
    expect(entries.map((e) => e.tool_call_id)).to.deep.equal([
      lookup.headers['idempotency-key'],
      ticket.headers['idempotency-key'],
    ]);
  });
});
