/**
 * The OpenAPI document (src/api/openapi.ts) against the app itself: every route the app mounts
 * is documented and every documented route is mounted (read from the routers with router 2.3's
 * `listRoutes`), every `$ref` resolves, every keyed operation names its scope and security, and every
 * example body passes the zod schema the route validates with.
 */
import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import type { Router } from 'express';
import { createApp } from '../../src/api/app';
import { UNDOCUMENTED_ROUTES, documentedOperations, openApiDocument } from '../../src/api/openapi';
import { EVENT_TYPES } from '../../src/shared/webhooks';

interface ListedRoute {
  path: string;
  methods?: string[];
  router?: Router & { listRoutes(): ListedRoute[] };
}

/** `METHOD /path/{param}` of every route under `router`, mount paths joined. */
function mountedRoutes(router: { listRoutes(): ListedRoute[] }, prefix = ''): string[] {
  const out: string[] = [];
  for (const r of router.listRoutes()) {
    const full = (prefix + (r.path === '/' && r.router ? '' : r.path)).replace(/\/$/, '') || '/';
    if (r.router) out.push(...mountedRoutes(r.router, full === '/' ? '' : full));
    for (const m of r.methods ?? []) {
      if (m.toLowerCase() === 'head') continue; // Express answers HEAD with the GET route
      out.push(`${m.toUpperCase()} ${full.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  const app = createApp({ temporal: {} as Client }) as unknown as { router: { listRoutes(): ListedRoute[] } };
  const mounted = new Set(
    mountedRoutes(app.router).filter((r) => !UNDOCUMENTED_ROUTES.some((re) => re.test(r.split(' ')[1]))),
  );
  const OPERATIONS = documentedOperations();
  const documented = new Set(OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`));
  const doc = openApiDocument() as any;

  it('documents every route the app mounts, and only those', () => {
    expect(mounted.size, 'the walk found the routes').to.be.greaterThan(60);
    expect(
      [...mounted].filter((r) => !documented.has(r)),
      'mounted but undocumented',
    ).to.deep.equal([]);
    expect(
      [...documented].filter((r) => !mounted.has(r)),
      'documented but not mounted',
    ).to.deep.equal([]);
    expect(documented.size, 'each operation once').to.equal(OPERATIONS.length);
  });

  it('is OpenAPI 3.1 whose every $ref resolves, with unique operation ids', () => {
    expect(doc.openapi).to.equal('3.1.0');
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).to.be.greaterThan(100);
    for (const ref of new Set(refs)) {
      const pointer = ref.slice(8, -1);
      expect(pointer, ref).to.match(/^#\//);
      const target = pointer
        .slice(2)
        .split('/')
        .reduce((o: any, k) => (o == null ? undefined : o[k]), doc);
      expect(target, `${pointer} resolves`).to.be.an('object');
    }
    const ids = OPERATIONS.map((o) => o.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('gives every keyed operation its scope, its security, the error object and the Idempotency-Key of POSTs', () => {
    for (const o of OPERATIONS) {
      const op = doc.paths[o.path][o.method];
      expect(op.responses[o.okStatus ?? '200'], o.operationId).to.be.an('object');
      expect(op.responses.default.content['application/json'].schema.$ref).to.equal('#/components/schemas/ApiError');
      if (o.twilioForm) {
        expect(op.security, o.operationId).to.deep.equal([{ twilioSignature: [] }]);
        expect(Object.keys(op.requestBody.content)).to.deep.equal(['application/x-www-form-urlencoded']);
        continue;
      }
      if (o.widget) {
        // The widget's operations: a publishable key or a session token, and the widget's errors.
        expect(op.security, o.operationId).to.deep.equal([{ [o.widget]: [] }]);
        expect(Object.keys(op.responses), o.operationId).to.include.members(['400', '401', '403', '429']);
        const idempotency = (op.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey');
        expect(idempotency, `${o.operationId} Idempotency-Key`).to.equal(Boolean(o.idempotent));
        continue;
      }
      if (!o.scope) {
        expect(op.security, o.operationId).to.deep.equal([]);
        continue;
      }
      expect(op.security, o.operationId).to.deep.equal([{ secretKey: [] }, { restrictedKey: [o.scope] }]);
      expect(op['x-scope']).to.match(/^[a-z_]+:(read|write)$/);
      const idempotency = (op.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey');
      expect(idempotency, `${o.operationId} Idempotency-Key`).to.equal(o.method === 'post');
    }
    expect(Object.keys(doc.components.securitySchemes)).to.have.members([
      'secretKey',
      'restrictedKey',
      'publishableKey',
      'widgetSessionToken',
      'twilioSignature',
    ]);
  });

  it('has examples that pass the schemas the routes validate with', () => {
    const withExamples = OPERATIONS.filter((o) => o.example !== undefined);
    expect(withExamples.length).to.be.greaterThan(8);
    for (const o of withExamples) {
      const result = (o.body ?? o.bodyDoc)!.safeParse(o.example);
      expect(result.success, `${o.operationId}: ${JSON.stringify(result.error?.issues)}`).to.equal(true);
    }
  });

  it('describes request bodies with the routes’ own limits (strict objects, lengths, enums)', () => {
    const body = doc.paths['/v1/calls'].post.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).to.equal(false);
    // `agent_id` or `squad_id`, one of the two (checked by the route: 400 naming the missing or extra one).
    expect(body.required).to.have.members(['to']);
    expect(body.properties).to.include.keys('agent_id', 'squad_id');
    expect(body.properties.simulation.properties.outcome.enum).to.include('busy');
    expect(body.properties.to.pattern).to.be.a('string');
    const contacts =
      doc.paths['/v1/bulk-calls'].post.requestBody.content['application/json'].schema.properties.contacts;
    expect(contacts.maxItems).to.equal(10_000);
  });

  it('types query parameters as what they are: an integer limit, plain string cursors, created as a deepObject of integers', () => {
    const params = doc.paths['/v1/events'].get.parameters;
    const byName = Object.fromEntries(params.map((p: any) => [p.name, p]));
    expect(byName.limit.schema).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(byName.starting_after.schema).to.deep.equal({ type: 'string' });
    expect(byName.ending_before.schema).to.deep.equal({ type: 'string' });
    expect(byName.created).to.include({ style: 'deepObject', explode: true });
    expect(Object.keys(byName.created.schema.properties)).to.have.members(['gte', 'gt', 'lte', 'lt']);
    for (const k of ['gte', 'gt', 'lte', 'lt']) expect(byName.created.schema.properties[k].type).to.equal('integer');
  });

  it('declares the error answers of every keyed operation, each with the enum of its codes', () => {
    for (const o of OPERATIONS.filter((x) => x.scope)) {
      const op = doc.paths[o.path][o.method];
      for (const status of ['400', '401', '403', '429', '503'])
        expect(op.responses[status], `${o.operationId} ${status}`).to.be.an('object');
      if (o.path.includes('{')) expect(op.responses['404'], o.operationId).to.be.an('object');
      const ref = op.responses['400'].content['application/json'].schema.$ref as string;
      const name = ref.split('/').pop()!;
      const detail = doc.components.schemas[doc.components.schemas[name].properties.error.$ref.split('/').pop()];
      expect(detail.properties.code.enum, o.operationId).to.include.members(['parameter_unknown', 'scope_missing']);
    }
    const send = doc.paths['/v1/messages'].post;
    const sendCodes = doc.components.schemas.SendMessageErrorDetail.properties.code.enum;
    expect(sendCodes).to.include.members(['whatsapp_window_closed', 'recipient_opted_out', 'idempotency_key_reused']);
    expect(send.responses['422'].description).to.contain('whatsapp_window_closed');
    expect(send.description).to.contain('422 `whatsapp_window_closed`').and.not.contain('409 `whatsapp_window_closed`');
  });

  it('names every object: lists, nested objects, ApiError (not Error); answers stay open to new fields', () => {
    const schemas = doc.components.schemas;
    expect(schemas).to.not.have.property('Error');
    expect(schemas.ApiError.properties.error.$ref).to.equal('#/components/schemas/ApiErrorDetail');
    expect(doc.paths['/v1/calls'].get.responses['200'].content['application/json'].schema.$ref).to.equal(
      '#/components/schemas/CallList',
    );
    expect(schemas.BulkCall.properties.schedule.anyOf[0].$ref).to.equal('#/components/schemas/BulkCallSchedule');
    expect(schemas.BulkCallSchedule.properties.window.$ref).to.equal('#/components/schemas/BulkCallScheduleWindow');
    const text = JSON.stringify(schemas);
    expect(text).to.not.contain('"additionalProperties":false');
    // Every inline object left in a component is a map (no named properties).
    const walk = (s: any, at: string, top: boolean) => {
      if (!s || typeof s !== 'object') return;
      if (!top && s.type === 'object' && s.properties && Object.keys(s.properties).length)
        expect.fail(`an anonymous object at ${at}`);
      for (const [k, v] of Object.entries(s)) walk(v, `${at}.${k}`, false);
    };
    for (const [name, s] of Object.entries(schemas)) walk(s, name, true);
  });

  it('describes Event as a oneOf told apart by type, data.object typed for each event type', () => {
    const event = doc.components.schemas.Event;
    expect(event.discriminator.propertyName).to.equal('type');
    expect(Object.keys(event.discriminator.mapping)).to.have.members([...EVENT_TYPES]);
    expect(event.oneOf).to.have.length(new Set(Object.values(event.discriminator.mapping)).size);
    const call = doc.components.schemas.CallEvent;
    expect(call.properties.type.enum).to.include('call.ended');
    const data = doc.components.schemas[call.properties.data.$ref.split('/').pop()];
    expect(data.properties.object.$ref).to.equal('#/components/schemas/Call');
  });

  it('describes every operation and tag, without internal references', () => {
    for (const o of OPERATIONS)
      expect(doc.paths[o.path][o.method].description, o.operationId).to.be.a('string').and.not.empty;
    for (const t of doc.tags) expect(t.description, t.name).to.be.a('string').and.not.empty;
    const text = JSON.stringify({ ...doc, components: { ...doc.components } });
    expect(text).to.not.match(/spec section|\bissue \d+|DESIGN\.md/i);
  });
});
