/**
 * API plumbing that every endpoint shares: authentication and scopes, the error object and headers,
 * validation naming the param, metadata limits, and the list convention.
 */
import { execFile as execFileCb } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { createKey, hashKey, KEY_CACHE_TTL_MS, revokeKey, verifyKeyHash } from '../../src/keys';
import { ApiKey } from '../../src/models/orgs';
import { RateLimitSlot } from '../../src/models/rate-limits';
import { findByIds } from '../../src/models/store';
import { countInserts } from '../support/store-calls';
import { config, setConfig } from '../../src/config';
import { startApi } from '../../src/api/server';
import { consumeRateLimit } from '../../src/platform/rate-limit';
import { h, newTenant, request } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const execFile = promisify(execFileCb);

describe('authentication and scopes', () => {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('refuses a request without a key (401 api_key_missing) with the error shape and headers', async () => {
    const res = await request('GET', '/v1/calls');
    expect(res.status).to.equal(401);
    expect(res.body.error).to.include({ type: 'authentication_error', code: 'api_key_missing' });
    expect(res.body.error.request_id).to.match(/^req_/);
    expect(res.headers.get('request-id')).to.equal(res.body.error.request_id);
    expect(res.headers.get('svc-version')).to.equal('2026-10-04');
  });

  it('refuses malformed, unknown and revoked keys (401 api_key_invalid)', async () => {
    for (const key of ['nonsense', 'svc_sk_test_' + 'x'.repeat(32)]) {
      const res = await request('GET', '/v1/calls', { key });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('api_key_invalid');
    }
    const k = await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' });
    expect((await request('GET', '/v1/calls', { key: k.key })).status).to.equal(200);
    await revokeKey(k.id);
    const res = await request('GET', '/v1/calls', { key: k.key });
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('api_key_invalid');
  });

  it('trusts a verified key for KEY_CACHE_TTL_MS at most: revoked in the store by another process, refused within it', async () => {
    const k = await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' });
    const hash = hashKey(k.key);
    const t0 = Date.now();
    expect(await verifyKeyHash(hash, t0)).to.include({ id: k.id, orgId: t.orgId, kind: 'secret', livemode: false });
    // `svcctl keys revoke` in another process: only the store changes, this process's memory does not.
    await ApiKey.updateOne({ _id: k.id }, { $set: { revoked: Math.floor(Date.now() / 1000) } });
    expect(await verifyKeyHash(hash, t0 + 1000), 'remembered, not read again').to.include({ id: k.id });
    expect(await verifyKeyHash(hash, t0 + KEY_CACHE_TTL_MS + 1), 'read again past the bound').to.equal(null);

    // Through the API: the bound holds end to end.
    const other = await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' });
    expect((await request('GET', '/v1/calls', { key: other.key })).status).to.equal(200);
    const revokedMs = Date.now();
    await ApiKey.updateOne({ _id: other.id }, { $set: { revoked: Math.floor(revokedMs / 1000) } });
    let res = await request('GET', '/v1/calls', { key: other.key });
    while (res.status === 200 && Date.now() - revokedMs < KEY_CACHE_TTL_MS + 2000) {
      await new Promise((r) => setTimeout(r, 200));
      res = await request('GET', '/v1/calls', { key: other.key });
    }
    expect(res.status, 'refused within KEY_CACHE_TTL_MS').to.equal(401);
    expect(Date.now() - revokedMs).to.be.below(KEY_CACHE_TTL_MS + 2000);
  });

  it('gives restricted keys only their scopes, with write implying read, and names the missing scope', async () => {
    const reader = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['calls:read'] })).key;
    expect(reader).to.match(/^svc_rk_test_/);
    expect((await request('GET', '/v1/calls', { key: reader })).status).to.equal(200);
    const denied = await request('POST', '/v1/calls', {
      key: reader,
      body: { to: '+14155550123', agent_id: t.agentId },
    });
    expect(denied.status).to.equal(403);
    expect(denied.body.error).to.include({ type: 'permission_error', code: 'scope_missing' });
    expect(denied.body.error.message).to.contain('calls:write');
    const agents = await request('GET', '/v1/agents', { key: reader });
    expect(agents.status).to.equal(403);
    expect(agents.body.error.message).to.contain('agents:read');

    const writer = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['agents:write'] }))
      .key;
    expect((await request('GET', '/v1/agents', { key: writer })).status).to.equal(200);
    expect((await request('GET', '/v1/events', { key: writer })).status).to.equal(403);
  });

  it('does not let a publishable key call secret endpoints', async () => {
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    expect(pk).to.match(/^svc_pk_test_/);
    const res = await request('GET', '/v1/calls', { key: pk });
    expect(res.status).to.equal(403);
    expect(res.body.error.type).to.equal('permission_error');
  });

  it('answers unknown routes, malformed JSON and non-object bodies with JSON errors and no stack', async () => {
    const unknown = await request('GET', '/nope');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error).to.include({ type: 'invalid_request_error', code: 'route_unknown' });
    const unknownV1 = await request('GET', '/v1/nope', { key: t.testKey });
    expect(unknownV1.status).to.equal(404);
    const bad = await request('POST', '/v1/calls', { key: t.testKey, body: '{"to": ' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('body_invalid');
    expect(JSON.stringify(bad.body)).to.not.match(/at \w+ \(|node_modules/);
    const arr = await request('POST', '/v1/calls', { key: t.testKey, body: '[1,2]' });
    expect(arr.status).to.equal(400);
    expect(arr.body.error.code).to.equal('body_invalid');
    // A JSON null is a body that is not an object, even where no parameters are taken; no body is none.
    const nullBody = await request('POST', '/v1/calls/call_00000000000000000000000000/end', {
      key: t.testKey,
      body: 'null',
    });
    expect(nullBody.status).to.equal(400);
    expect(nullBody.body.error.code).to.equal('body_invalid');
    const noBody = await request('POST', '/v1/calls/call_00000000000000000000000000/end', { key: t.testKey });
    expect(noBody.status).to.equal(404);
  });

  it('takes JSON bodies only (415 naming Content-Type), in gzip, deflate or br but no other encoding (415)', async () => {
    const agent = { name: 'Encoded', instructions: 'Be brief.' };
    const send = (body: Buffer | string, headers: Record<string, string>) =>
      fetch(`${h().api.url}/v1/agents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.testKey}`, ...headers },
        body,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const form = await send('name=Encoded', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).to.equal(415);
    expect(form.body.error).to.include({ code: 'content_type_unsupported', param: 'Content-Type' });
    const text = await send(JSON.stringify(agent), { 'Content-Type': 'text/plain' });
    expect(text.status).to.equal(415);
    const none = await send(Buffer.from(JSON.stringify(agent)), {}); // fetch labels a string body text/plain
    expect(none.status).to.equal(415);
    expect(none.body.error.message).to.include('no Content-Type');
    const zstd = await send(JSON.stringify(agent), { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' });
    expect(zstd.status).to.equal(415);
    expect(zstd.body.error).to.include({ code: 'content_encoding_unsupported', param: 'Content-Encoding' });
    for (const [encoding, encode] of [
      ['gzip', zlib.gzipSync],
      ['deflate', zlib.deflateSync],
      ['br', zlib.brotliCompressSync],
    ] as const) {
      const ok = await send(encode(Buffer.from(JSON.stringify({ ...agent, name: encoding }))), {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Encoding': encoding,
      });
      expect(ok.status, encoding).to.equal(200);
      expect(ok.body.name).to.equal(encoding);
    }
    // A gzip body that does not inflate is the client's fault (400), never a 500.
    const broken = await send(Buffer.from('not gzip at all'), {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
    });
    expect(broken.status).to.equal(400);
    expect(broken.body.error.code).to.equal('body_invalid');
    // A POST without a body needs no Content-Type.
    const bare = await fetch(`${h().api.url}/v1/calls/call_missing/end`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.testKey}` },
    });
    expect(bare.status).to.equal(404);
  });

  it('keeps idle connections longer than load balancers (65 s) and bounds the time to send a request', () => {
    const server = h().api.server;
    expect(server.keepAliveTimeout).to.equal(65_000);
    expect(server.headersTimeout).to.be.greaterThan(server.keepAliveTimeout);
    expect(server.requestTimeout).to.be.within(server.headersTimeout, 300_000);
  });

  it('rate-limits each key across API processes: 429 rate_limit_exceeded with Retry-After and RateLimit-*', async () => {
    const fresh = await newTenant(); // its own keys: buckets no other test used
    const saved = config();
    const windowMs = 3_600_000; // one window for the whole test (unless it straddles the hour)
    setConfig({ ...saved, apiRateLimit: 5, apiRateLimitWindowMs: windowMs });
    const second = await startApi({ temporal: h().env.client, port: 0, host: '127.0.0.1' });
    try {
      const firstWindow = Math.floor(Date.now() / windowMs);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fetch(`${i % 2 ? second.url : h().api.url}/v1/agents`, {
            headers: { Authorization: `Bearer ${fresh.testKey}` },
          }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as any })),
        ),
      );
      const windows = Math.floor(Date.now() / windowMs) - firstWindow + 1;
      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(ok.length + limited.length).to.equal(12);
      expect(ok.length)
        .to.equal(windows === 1 ? 5 : ok.length)
        .and.to.be.at.most(5 * windows);
      expect(limited.length).to.be.at.least(12 - 5 * windows);
      for (const r of ok) expect(r.headers.get('RateLimit-Limit')).to.equal('5');
      const r429 = limited[0];
      expect(r429.body.error).to.include({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(Number(r429.headers.get('Retry-After'))).to.be.within(1, windowMs / 1000);
      expect(r429.headers.get('RateLimit-Remaining')).to.equal('0');
      expect(Number(r429.headers.get('RateLimit-Reset'))).to.equal(Number(r429.headers.get('Retry-After')));
      // Another key of the same organization has its own count.
      expect((await request('GET', '/v1/agents', { key: fresh.liveKey })).status).to.equal(200);
      // A bad key is refused as such, not as rate-limited.
      expect((await request('GET', '/v1/agents', { key: 'sk_test_nope' })).status).to.equal(401);
    } finally {
      setConfig(saved);
      await second.close();
    }
  });

  it('never admits more than the limit from two processes counting the same key at once', async () => {
    const bucket = `test:${Date.now()}:${Math.random()}`;
    const env = { MONGODB_URI: h().ferret.uri, BUCKET: bucket, LIMIT: '15', WINDOW_MS: '3600000', REQUESTS: '12' };
    const child = execFile(process.execPath, [path.resolve(__dirname, '../support/rate-limit-client.js')], {
      env: { ...process.env, ...env },
    });
    const [theirs, ours] = await Promise.all([
      child.then((r) => JSON.parse(r.stdout).allowed as number),
      Promise.all(Array.from({ length: 12 }, () => consumeRateLimit(bucket, 15, 3_600_000))).then(
        (rs) => rs.filter((r) => r.allowed).length,
      ),
    ]);
    // 24 requests for 15 slots (in one window, unless the test straddles the hour): exactly 15 admitted.
    expect(theirs + ours).to.be.oneOf([15, 24]);
    expect(theirs).to.be.greaterThan(0);
    expect(ours).to.be.greaterThan(0);
  });

  it('reserves slots ahead for a busy key: fewer store writes than requests, never more than the limit', async () => {
    const bucket = `test:${Date.now()}:${Math.random()}`;
    const { result: results, ...calls } = await countInserts(RateLimitSlot.collection, async () => {
      const out: Awaited<ReturnType<typeof consumeRateLimit>>[] = [];
      // 60 requests one after the other against a limit of 400 (blocks of up to 20): 1 + 2 + 4 + 8 + 16 + 20 + 20.
      for (let i = 0; i < 60; i++) out.push(await consumeRateLimit(bucket, 400, 3_600_000));
      return out;
    });
    expect(results.every((r) => r.allowed)).to.equal(true);
    expect(calls.insertOne + calls.insertMany).to.equal(7);
    // What the headers say counts every slot this process holds: the 60 used of 400 leave 340.
    expect(results[59].remaining).to.equal(340);
    const window = `${bucket}:${Math.floor(Date.now() / 3_600_000) * 3_600_000}`;
    const held = await findByIds(
      RateLimitSlot,
      Array.from({ length: 80 }, (_, i) => `${window}:${i + 1}`),
    );
    expect(held.length).to.be.oneOf([71, 0]); // 0: the test straddled the hour
  });

  it('never admits more than a large limit from two processes reserving blocks at once', async () => {
    const bucket = `test:${Date.now()}:${Math.random()}`;
    const env = { MONGODB_URI: h().ferret.uri, BUCKET: bucket, LIMIT: '200', WINDOW_MS: '3600000', REQUESTS: '150' };
    const child = execFile(process.execPath, [path.resolve(__dirname, '../support/rate-limit-client.js')], {
      env: { ...process.env, ...env },
    });
    const [theirs, ours] = await Promise.all([
      child.then((r) => JSON.parse(r.stdout).allowed as number),
      Promise.all(Array.from({ length: 150 }, () => consumeRateLimit(bucket, 200, 3_600_000))).then(
        (rs) => rs.filter((r) => r.allowed).length,
      ),
    ]);
    // 300 requests for 200 slots: never more than 200 (unless the test straddles the hour); each process
    // may end holding at most one unused block of 10.
    expect(theirs + ours).to.be.at.most(300);
    if (theirs + ours !== 300) expect(theirs + ours).to.be.within(180, 200);
    expect(theirs).to.be.greaterThan(0);
    expect(ours).to.be.greaterThan(0);
  });

  it('refuses an unknown pinned Svc-Version and accepts the current one', async () => {
    const bad = await request('GET', '/v1/calls', { key: t.testKey, headers: { 'Svc-Version': '2020-01-01' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'api_version_invalid', param: 'Svc-Version' });
    expect(
      (await request('GET', '/v1/calls', { key: t.testKey, headers: { 'Svc-Version': '2026-10-04' } })).status,
    ).to.equal(200);
  });

  it('reports health and readiness', async () => {
    expect((await request('GET', '/healthz')).status).to.equal(200);
    const ready = await request('GET', '/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({ status: 'ready', mongodb: 'ok', temporal: 'ok' });
  });

  it('serves the OpenAPI document without a key, and /docs with its viewer from this process', async () => {
    const doc = await request('GET', '/v1/openapi.json');
    expect(doc.status).to.equal(200);
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.servers[0].url).to.equal(h().api.url);
    expect(doc.body.paths['/v1/calls'].post.security).to.deep.include({ restrictedKey: ['calls:write'] });
    const page = await fetch(`${h().api.url}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const html = await page.text();
    for (const asset of [...html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((m) => m[1])) {
      const res = await fetch(h().api.url + asset);
      expect(res.status, asset).to.equal(200);
      expect((await res.arrayBuffer()).byteLength, asset).to.be.greaterThan(20);
    }
    expect(html).to.include('/docs/swagger-ui-bundle.js');
    expect((await fetch(`${h().api.url}/docs/init.js`).then((r) => r.text())).includes('/v1/openapi.json')).to.equal(
      true,
    );
  });
});

describe('validation', () => {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  const cases: [string, Record<string, unknown>, number, string, string][] = [
    ['missing to', {}, 400, 'parameter_missing', 'to'],
    ['non-E.164 to', { to: '415-555-0123' }, 400, 'parameter_invalid', 'to'],
    ['to with spaces', { to: '+1 415 555 0123' }, 400, 'parameter_invalid', 'to'],
    ['invalid number', { to: '+10000000000' }, 400, 'parameter_invalid', 'to'],
    ['wrong type', { to: 14155550123 }, 400, 'parameter_invalid', 'to'],
    ['missing agent_id', { to: '+14155550123', agent_id: undefined }, 400, 'parameter_missing', 'agent_id'],
    ['unknown field', { to: '+14155550123', colour: 'red' }, 400, 'parameter_unknown', 'colour'],
    ['bad from', { to: '+14155550123', from: 'abc' }, 400, 'parameter_invalid', 'from'],
    ['context not an object', { to: '+14155550123', context: 'x' }, 400, 'parameter_invalid', 'context'],
    ['metadata value not a string', { to: '+14155550123', metadata: { a: 1 } }, 400, 'parameter_invalid', 'metadata.a'],
    [
      'metadata key too long',
      { to: '+14155550123', metadata: { ['k'.repeat(41)]: 'v' } },
      400,
      'parameter_invalid',
      'metadata',
    ],
    [
      'metadata value too long',
      { to: '+14155550123', metadata: { k: 'v'.repeat(501) } },
      400,
      'parameter_invalid',
      'metadata.k',
    ],
    [
      'bad simulation outcome',
      { to: '+14155550123', simulation: { outcome: 'maybe' } },
      400,
      'parameter_invalid',
      'simulation.outcome',
    ],
    [
      'unknown simulation field',
      { to: '+14155550123', simulation: { mood: 'happy' } },
      400,
      'parameter_unknown',
      'simulation.mood',
    ],
    [
      'max_duration_seconds too large',
      { to: '+14155550123', max_duration_seconds: 999999 },
      400,
      'parameter_invalid',
      'max_duration_seconds',
    ],
    [
      'unknown agent',
      { to: '+14155550123', agent_id: 'agt_01m80np488q6rre43ctk0tmky1' },
      404,
      'resource_missing',
      'agent_id',
    ],
  ];
  for (const [name, body, status, code, param] of cases) {
    it(`POST /v1/calls: ${name} → ${status} ${code} naming ${param}`, async () => {
      const full = { agent_id: t.agentId, ...body };
      const res = await request('POST', '/v1/calls', { key: t.testKey, body: JSON.parse(JSON.stringify(full)) });
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.include({ code, param });
      expect(res.body.error.message).to.be.a('string').and.not.be.empty;
    });
  }

  it('allows 50 metadata keys and refuses 51', async () => {
    const meta = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    const ok = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, metadata: meta(50), simulation: { outcome: 'busy' } },
    });
    expect(ok.status).to.equal(200);
    const bad = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, metadata: meta(51) },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('metadata');
  });

  it('refuses simulation with a live key, and a live call without from', async () => {
    const live = await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'x' } });
    expect(live.status).to.equal(200);
    expect(live.body.livemode).to.equal(true);
    const sim = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: live.body.id, simulation: {} },
    });
    expect(sim.status).to.equal(400);
    expect(sim.body.error.param).to.equal('simulation');
    const noFrom = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', agent_id: live.body.id },
    });
    expect(noFrom.status).to.equal(400);
    expect(noFrom.body.error).to.include({ code: 'parameter_missing', param: 'from' });
    const noTwilio = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: '+14155550123', from: '+14155550100', agent_id: live.body.id },
    });
    expect(noTwilio.status).to.equal(503);
    expect(noTwilio.body.error.code).to.equal('telephony_not_configured');
  });

  it('leaves nothing written after refused requests', async () => {
    const fresh = await newTenant();
    await request('POST', '/v1/calls', { key: fresh.testKey, body: { to: 'bad', agent_id: fresh.agentId } });
    await request('POST', '/v1/calls', {
      key: fresh.testKey,
      body: { to: '+14155550123', agent_id: fresh.agentId, extra: 1 },
    });
    const list = await request('GET', '/v1/calls', { key: fresh.testKey });
    expect(list.body.data).to.deep.equal([]);
    expect((await request('GET', '/v1/events', { key: fresh.testKey })).body.data).to.deep.equal([]);
  });

  it('validates agents', async () => {
    const res = await request('POST', '/v1/agents', { key: t.testKey, body: { name: '', instructions: 'x' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.param).to.equal('name');
    const res2 = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'n', instructions: 'x', transfer_to: 'desk' },
    });
    expect(res2.body.error.param).to.equal('transfer_to');
    const missing = await request('GET', '/v1/agents/agt_01m80np488q6rre43ctk0tmky1', { key: t.testKey });
    expect(missing.status).to.equal(404);
    expect(missing.body.error.code).to.equal('resource_missing');
  });

  it('refuses a body on POST /v1/calls/{id}/end', async () => {
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'busy' } },
    });
    const res = await request('POST', `/v1/calls/${call.body.id}/end`, { key: t.testKey, body: { reason: 'x' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_unknown', param: 'reason' });
  });
});

describe('lists', () => {
  let t: Tenant;
  const ids: string[] = [];
  before(async () => {
    t = await newTenant();
    ids.push(t.agentId);
    for (let i = 0; i < 6; i++) {
      const res = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: `Agent ${i}`, instructions: 'x' },
      });
      ids.push(res.body.id);
    }
    ids.reverse(); // newest first
  });

  it('pages newest first with limit, starting_after and has_more', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await request('GET', `/v1/agents?limit=3${cursor ? `&starting_after=${cursor}` : ''}`, {
        key: t.testKey,
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ object: 'list', url: '/v1/agents' });
      seen.push(...res.body.data.map((a: any) => a.id));
      if (!res.body.has_more) break;
      cursor = res.body.data[res.body.data.length - 1].id;
    }
    expect(seen).to.deep.equal(ids);
  });

  it('defaults to 20 and pages backwards with ending_before', async () => {
    const all = await request('GET', '/v1/agents', { key: t.testKey });
    expect(all.body.data.map((a: any) => a.id)).to.deep.equal(ids);
    expect(all.body.has_more).to.equal(false);
    const before = await request('GET', `/v1/agents?limit=2&ending_before=${ids[4]}`, { key: t.testKey });
    expect(before.body.data.map((a: any) => a.id)).to.deep.equal([ids[2], ids[3]]);
    expect(before.body.has_more).to.equal(true);
  });

  it('stays stable when new objects arrive between pages', async () => {
    const first = await request('GET', '/v1/agents?limit=3', { key: t.testKey });
    await request('POST', '/v1/agents', { key: t.testKey, body: { name: 'Late', instructions: 'x' } });
    const second = await request('GET', `/v1/agents?limit=3&starting_after=${first.body.data[2].id}`, {
      key: t.testKey,
    });
    expect(second.body.data.map((a: any) => a.id)).to.deep.equal(ids.slice(3, 6));
  });

  for (const q of [
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'starting_after=xyz',
    `starting_after=${'a'}&ending_before=b`,
  ]) {
    it(`refuses ${q} with 400 naming the param`, async () => {
      const res = await request('GET', `/v1/calls?${q}`, { key: t.testKey });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('parameter_invalid');
      expect(['limit', 'starting_after', 'ending_before']).to.include(res.body.error.param);
    });
  }

  it('accepts the list parameters on every list endpoint', async () => {
    for (const path of ['/v1/calls', '/v1/agents', '/v1/events']) {
      const res = await request('GET', `${path}?limit=100`, { key: t.testKey });
      expect(res.status, path).to.equal(200);
      expect(res.body.object).to.equal('list');
      expect((await request('GET', `${path}?limit=101`, { key: t.testKey })).status, path).to.equal(400);
    }
  });

  it('refuses unknown query parameters with 400 parameter_unknown naming them, on reads and writes', async () => {
    const lists = [
      '/v1/calls',
      '/v1/agents',
      '/v1/events',
      '/v1/bulk-calls',
      '/v1/forms',
      '/v1/contacts',
      '/v1/knowledge',
      '/v1/conversations',
      '/v1/phone_numbers',
      '/v1/message_templates',
      '/v1/webhook-endpoints',
      '/v1/connectors',
      '/v1/publisher_keys',
    ];
    for (const path of lists) {
      const res = await request('GET', `${path}?limit=5&statuss=completed`, { key: t.testKey });
      expect(res.status, path).to.equal(400);
      expect(res.body.error, path).to.include({ code: 'parameter_unknown', param: 'statuss' });
    }
    // The filters an endpoint takes are accepted, list parameters too.
    const filtered = await request('GET', '/v1/calls?status=completed&agent_id=agt_x&limit=3', { key: t.testKey });
    expect(filtered.status).to.equal(200);
    const events = await request('GET', '/v1/events?type=call.*&created[gte]=0', { key: t.testKey });
    expect(events.status).to.equal(200);
    // A retrieve takes none; neither does a write, which leaves nothing behind.
    const one = await request('GET', `/v1/agents/${t.agentId}?expand=all`, { key: t.testKey });
    expect(one.body.error).to.include({ code: 'parameter_unknown', param: 'expand' });
    const before = (await request('GET', '/v1/agents?limit=100', { key: t.testKey })).body.data.length;
    const write = await request('POST', '/v1/agents?name=Query', {
      key: t.testKey,
      body: { name: 'Body', instructions: 'x' },
    });
    expect(write.status).to.equal(400);
    expect(write.body.error).to.include({ code: 'parameter_unknown', param: 'name' });
    expect((await request('GET', '/v1/agents?limit=100', { key: t.testKey })).body.data.length).to.equal(before);
  });

  it('refuses a filter value outside its list (400 naming it) rather than answering an empty list', async () => {
    for (const path of [
      '/v1/calls?status=AAA',
      '/v1/bulk-calls?status=AAA',
      '/v1/conversations?status=AAA',
      '/v1/conversations?channel=fax',
    ]) {
      const res = await request('GET', path, { key: t.testKey });
      expect(res.status, path).to.equal(400);
      expect(res.body.error, path).to.include({ code: 'parameter_invalid', param: path.split('?')[1].split('=')[0] });
      expect(res.body.error.message, path).to.match(/must be one of /);
    }
    expect((await request('GET', '/v1/bulk-calls?status=paused', { key: t.testKey })).status).to.equal(200);
  });
});
