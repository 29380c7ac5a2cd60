/**
 * The tools a connector declares (src/services/connector-tools.ts): each refusal of `tools` and
 * `config_schema` with its own reason (also through `inspectBundle`, as the upload sees it), config checked
 * against `config_schema` naming the path, and the rendering of a request template.
 */
import { expect } from 'chai';
import {
  checkManifestTools,
  configFault,
  ConnectorToolsError,
  modelToolName,
  renderToolRequest,
  secretConfigKeys,
  type ConnectorRequestTemplate,
} from '../../src/services/connector-tools';
import { BundleError, inspectBundle } from '../../src/services/connectors';
import { makeTar } from '../fixtures/connectors/generate';

const ID = 'com.example.crm';

const configSchema = {
  type: 'object',
  properties: {
    subdomain: { type: 'string', pattern: '^[a-z0-9-]+$' },
    api_key: { type: 'string', 'x-secret': true },
    region: { type: 'string', enum: ['eu', 'us'] },
  },
  required: ['subdomain', 'api_key'],
  additionalProperties: false,
};

const lookupOrder = (overrides: Record<string, unknown> = {}) => ({
  name: 'lookup_order',
  description: 'Look up an order by its number.',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'string' }, include: { type: 'array', items: { type: 'string' } } },
    required: ['order_number'],
  },
  request: {
    method: 'GET',
    url: 'https://{{config.subdomain}}.crm.example.com/api/orders/{{arguments.order_number}}?region={{config.region}}',
    headers: { Authorization: 'Bearer {{config.api_key}}' },
  },
  ...overrides,
});

const manifest = (extra: Record<string, unknown>) => ({ id: ID, version: '1.0.0', name: 'CRM', ...extra });

/** Expects `checkManifestTools` to refuse with `reason` and a message matching `message`. */
function refused(extra: Record<string, unknown>, reason: string, message: RegExp) {
  let caught: unknown;
  try {
    checkManifestTools(manifest(extra), ID);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${reason}`).to.be.instanceOf(ConnectorToolsError);
  expect((caught as ConnectorToolsError).reason).to.equal(reason);
  expect((caught as Error).message).to.match(message);
}

describe('connector tools: the manifest', () => {
  it('accepts a manifest without tools (what was published before) and one with tools and a config schema', () => {
    expect(checkManifestTools(manifest({}), ID)).to.deep.equal({ tools: [], configSchema: null });
    const createTicket = {
      name: 'create_ticket',
      description: 'Open a support ticket.',
      parameters: { type: 'object', properties: { subject: { type: 'string' }, priority: { type: 'integer' } } },
      request: {
        method: 'POST',
        url: 'https://api.crm.example.com/v2/tickets',
        body: { subject: '{{arguments.subject}}', priority: '{{arguments.priority}}', tags: ['voice'] },
      },
      timeout_ms: 8000,
      speak_while_running: 'One moment, I am opening a ticket.',
    };
    const declared = checkManifestTools(
      manifest({ tools: [lookupOrder(), createTicket], config_schema: configSchema }),
      ID,
    );
    expect(declared.configSchema).to.deep.equal(configSchema);
    expect(declared.tools.map((t) => [t.name, t.request.method, t.timeoutMs, t.speakWhileRunning])).to.deep.equal([
      ['lookup_order', 'GET', 5000, null],
      ['create_ticket', 'POST', 8000, 'One moment, I am opening a ticket.'],
    ]);
    expect(secretConfigKeys(declared.configSchema)).to.deep.equal(['api_key']);
    expect(modelToolName(ID, 'lookup_order')).to.equal('crm__lookup_order');
  });

  it('refuses each fault of `tools` with its own reason, naming the place', () => {
    const c = { config_schema: configSchema };
    refused({ tools: { lookup_order: {} } }, 'tools_invalid', /tools: must be an array/);
    refused({ tools: Array.from({ length: 65 }, () => lookupOrder()) }, 'tools_invalid', /at most 64/);
    refused({ ...c, tools: ['lookup_order'] }, 'tools_invalid', /tools\[0\]: must be an object/);
    refused({ ...c, tools: [lookupOrder({ paramters: {} })] }, 'tools_invalid', /tools\[0\]\.paramters: unknown field/);
    refused({ ...c, tools: [lookupOrder({ name: 'lookup order' })] }, 'tool_name_invalid', /tools\[0\]\.name/);
    refused(
      { ...c, tools: [lookupOrder({ name: 'x'.repeat(60) })] },
      'tool_name_invalid',
      /crm__x+, over 64 characters/,
    );
    refused({ ...c, tools: [lookupOrder(), lookupOrder()] }, 'tool_name_duplicate', /tools\[1\]\.name: 'lookup_order'/);
    refused({ ...c, tools: [lookupOrder({ description: '' })] }, 'tool_description_invalid', /tools\[0\]\.description/);
    refused(
      { ...c, tools: [lookupOrder({ description: 'x'.repeat(1025) })] },
      'tool_description_invalid',
      /at most 1024/,
    );
    refused(
      { ...c, tools: [lookupOrder({ parameters: { type: 'object', properties: { n: { type: 'strin' } } } })] },
      'tool_parameters_invalid',
      /tools\[0\]\.parameters\.properties\.n\.type/,
    );
    refused(
      { ...c, tools: [lookupOrder({ parameters: { type: 'array' } })] },
      'tool_parameters_invalid',
      /tools\[0\]\.parameters\.type: must be "object"/,
    );
    refused(
      { ...c, tools: [lookupOrder({ parameters: { type: 'object', requried: ['x'] } })] },
      'tool_parameters_invalid',
      /requried/,
    );
    refused({ ...c, tools: [lookupOrder({ timeout_ms: 100 })] }, 'tool_timeout_invalid', /500 to 20000/);
    refused(
      { ...c, tools: [lookupOrder({ speak_while_running: '' })] },
      'tool_speak_while_running_invalid',
      /speak_while_running/,
    );
  });

  it('refuses each fault of a request template', () => {
    const c = { config_schema: configSchema };
    const withRequest = (request: unknown) => ({ ...c, tools: [lookupOrder({ request })] });
    const url = 'https://api.crm.example.com/orders';
    refused(withRequest(undefined), 'tool_request_invalid', /tools\[0\]\.request: must be an object/);
    refused(withRequest({ method: 'PUT', url }), 'tool_request_invalid', /request\.method/);
    refused(withRequest({ method: 'GET', url, query: {} }), 'tool_request_invalid', /request\.query: unknown field/);
    refused(withRequest({ method: 'GET', url, body: { a: 1 } }), 'tool_request_invalid', /a GET request has no body/);
    refused(withRequest({ method: 'GET', url, headers: { 'X-N': 1 } }), 'tool_request_invalid', /string values/);
    refused(
      withRequest({ method: 'GET', url, headers: { 'Idempotency-Key': 'x' } }),
      'tool_request_invalid',
      /request\.headers\.Idempotency-Key: the service sets this header itself/,
    );
    refused(withRequest({ method: 'GET', url, headers: { 'bad name': 'x' } }), 'tool_request_invalid', /header name/);
    refused(withRequest({ method: 'GET', url: 'http://api.example.com/x' }), 'tool_url_invalid', /https:\/\/ URL/);
    refused(withRequest({ method: 'GET', url: 'https://' }), 'tool_url_invalid', /https:\/\/ URL/);
    refused(
      withRequest({ method: 'GET', url: 'https://{{arguments.order_number}}.example.com/' }),
      'tool_url_invalid',
      /in the URL's host/,
    );
    refused(withRequest({ method: 'GET', url: 'https://user@example.com/x' }), 'tool_url_invalid', /credentials/);
    refused(withRequest({ method: 'GET', url: 'https://exa mple.com/x' }), 'tool_url_invalid', /spaces/);
  });

  it('refuses placeholders other than config and arguments keys that exist', () => {
    const c = { config_schema: configSchema };
    const withUrl = (url: string) => ({ ...c, tools: [lookupOrder({ request: { method: 'GET', url } })] });
    refused(
      withUrl('https://x.example.com/{{config.tenant}}'),
      'placeholder_invalid',
      /\{\{config\.tenant\}\} names no property of config_schema/,
    );
    refused(
      withUrl('https://x.example.com/{{arguments.id}}'),
      'placeholder_invalid',
      /names no property of the tool's parameters/,
    );
    refused(
      withUrl('https://x.example.com/{{env.HOME}}'),
      'placeholder_invalid',
      /\{\{config\.<key>\}\} and \{\{arguments\.<key>\}\} only/,
    );
    refused(withUrl('https://x.example.com/{{config.subdomain'), 'placeholder_invalid', /only/);
    // A config placeholder without any config_schema.
    refused(
      { tools: [lookupOrder({ request: { method: 'GET', url: 'https://{{config.subdomain}}.example.com/' } })] },
      'placeholder_invalid',
      /config_schema/,
    );
    refused(
      {
        ...c,
        tools: [
          lookupOrder({
            request: { method: 'POST', url: 'https://x.example.com/', body: { nested: [{ v: '{{arguments.nope}}' }] } },
          }),
        ],
      },
      'placeholder_invalid',
      /request\.body\.nested\[0\]\.v/,
    );
    refused(
      {
        ...c,
        tools: [
          lookupOrder({
            request: { method: 'GET', url: 'https://x.example.com/', headers: { 'X-Key': '{{secret}}' } },
          }),
        ],
      },
      'placeholder_invalid',
      /request\.headers\.X-Key/,
    );
  });

  it('refuses a config_schema that is not a JSON Schema object, or marks secrets wrongly', () => {
    refused({ config_schema: [] }, 'config_schema_invalid', /config_schema: must be a JSON Schema object/);
    refused({ config_schema: { type: 'string' } }, 'config_schema_invalid', /config_schema\.type: must be "object"/);
    refused(
      { config_schema: { type: 'object', properties: { k: { type: 'strng' } } } },
      'config_schema_invalid',
      /config_schema\.properties\.k\.type/,
    );
    refused(
      { config_schema: { type: 'object', properties: { k: { type: 'string', 'x-secret': 'yes' } } } },
      'config_schema_invalid',
      /properties\.k\.x-secret: must be true or false/,
    );
    refused(
      {
        config_schema: {
          type: 'object',
          properties: { k: { type: 'object', properties: { s: { 'x-secret': true } } } },
        },
      },
      'config_schema_invalid',
      /x-secret/,
    );
  });

  it('is what the upload checks: a fault is a BundleError with the same reason', async () => {
    const tar = await makeTar([
      [
        'connector.json',
        JSON.stringify(manifest({ config_schema: configSchema, tools: [lookupOrder(), lookupOrder()] })),
      ],
    ]);
    const err = await inspectBundle(tar, ID).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(BundleError);
    expect((err as BundleError).reason).to.equal('tool_name_duplicate');
    const ok = await inspectBundle(
      await makeTar([
        ['connector.json', JSON.stringify(manifest({ config_schema: configSchema, tools: [lookupOrder()] }))],
      ]),
      ID,
    );
    expect(ok.manifest.tools.map((t) => t.name)).to.deep.equal(['lookup_order']);
    expect(ok.manifest.configSchema).to.deep.equal(configSchema);
  });
});

describe('connector tools: config and rendering', () => {
  it('checks config against config_schema, naming the path at fault', () => {
    expect(configFault(configSchema, { subdomain: 'acme', api_key: 'sk' })).to.equal(null);
    expect(configFault(configSchema, { subdomain: 'acme' })).to.deep.equal({
      param: 'config.api_key',
      message: 'is required',
    });
    expect(configFault(configSchema, { subdomain: 'Acme!', api_key: 'sk' })?.param).to.equal('config.subdomain');
    expect(configFault(configSchema, { subdomain: 'acme', api_key: 'sk', region: 'mars' })?.param).to.equal(
      'config.region',
    );
    expect(configFault(configSchema, { subdomain: 'acme', api_key: 'sk', color: 'red' })).to.deep.equal({
      param: 'config.color',
      message: 'is not a property of the config_schema',
    });
    const nested = { type: 'object', properties: { hosts: { type: 'array', items: { type: 'string' } } } };
    expect(configFault(nested, { hosts: ['a', 2] })?.param).to.equal('config.hosts[1]');
    expect(configFault(null, {})).to.equal(null);
    expect(configFault(null, { a: 1 })?.param).to.equal('config');
  });

  const values = {
    config: { subdomain: 'acme', api_key: 'sk_live_1', region: 'eu' },
    arguments: { order_number: 'A/12 3?', count: 2, flags: { rush: true } },
  };

  it('renders URL values percent-encoded in the path and query, headers as text', () => {
    const template: ConnectorRequestTemplate = {
      method: 'GET',
      url: 'https://{{config.subdomain}}.crm.example.com/orders/{{arguments.order_number}}?n={{ arguments.count }}&missing={{arguments.none}}',
      headers: { Authorization: 'Bearer {{config.api_key}}', 'X-Flags': '{{arguments.flags}}' },
    };
    expect(renderToolRequest(template, values)).to.deep.equal({
      method: 'GET',
      url: 'https://acme.crm.example.com/orders/A%2F12%203%3F?n=2&missing=',
      headers: { Authorization: 'Bearer sk_live_1', 'X-Flags': '{"rush":true}' },
      body: null,
    });
  });

  it('renders a body: a string that is one placeholder keeps the JSON type, others are text, absent keys dropped', () => {
    const template: ConnectorRequestTemplate = {
      method: 'POST',
      url: 'https://api.example.com/tickets',
      headers: {},
      body: {
        count: '{{arguments.count}}',
        flags: '{{arguments.flags}}',
        subject: 'Order {{arguments.order_number}} ({{arguments.count}})',
        absent: '{{arguments.none}}',
        list: ['{{arguments.none}}', '{{config.region}}', 7],
        literal: true,
      },
    };
    const rendered = renderToolRequest(template, values);
    expect(rendered).to.not.have.property('error');
    expect(JSON.parse((rendered as { body: string }).body)).to.deep.equal({
      count: 2,
      flags: { rush: true },
      subject: 'Order A/12 3? (2)',
      list: [null, 'eu', 7],
      literal: true,
    });
    expect(renderToolRequest({ ...template, body: '{{arguments.none}}' }, values)).to.include({ body: 'null' });
  });

  it('answers an error, never a request, when the rendered URL is not HTTPS or a header holds a line break', () => {
    const template: ConnectorRequestTemplate = {
      method: 'GET',
      url: 'https://{{config.subdomain}}.example.com/x',
      headers: { 'X-Key': '{{config.api_key}}' },
    };
    const withConfig = (config: Record<string, unknown>) => renderToolRequest(template, { config, arguments: {} });
    expect(withConfig({ subdomain: 'evil.com/x?', api_key: 'k' }))
      .to.have.property('error')
      .match(/not an HTTPS URL/);
    expect(withConfig({ subdomain: 'a@b', api_key: 'k' })).to.have.property('error');
    expect(withConfig({ subdomain: 'acme', api_key: 'k\r\nX-Injected: 1' }))
      .to.have.property('error')
      .match(/line break/);
    expect(withConfig({ subdomain: 'acme', api_key: 'k' })).to.include({ url: 'https://acme.example.com/x' });
    const byArgument = (order: string) =>
      renderToolRequest(
        { method: 'GET', url: 'https://api.example.com/orders/{{arguments.order}}/items', headers: {} },
        { config: {}, arguments: { order } },
      );
    for (const climb of ['..', '.'])
      expect(byArgument(climb), climb)
        .to.have.property('error')
        .match(/'\.' or '\.\.' segment/);
    expect(byArgument('../admin')).to.include({ url: 'https://api.example.com/orders/..%2Fadmin/items' });
    expect(byArgument('.%2E')).to.include({ url: 'https://api.example.com/orders/.%252E/items' });
  });
});
