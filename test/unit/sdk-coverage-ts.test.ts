/**
 * The TypeScript SDK covers the API: every operation of sdk/openapi.json a secret key calls (its `security`
 * lists `secretKey`) has an entry in sdk/operations.json, and the SDK's client has that method, which sends
 * the operation's HTTP method to its path (checked through the client's `fetch` option, nothing mocked in the
 * service: no service is called). The committed generated code (sdk/typescript/src/generated/) stays at most
 * 25,000 lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Svc } from '../../sdk/typescript/src';

const ROOT = path.resolve(__dirname, '../../..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const GENERATED_LINES_MAX = 25_000;

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8'));

/** Every operation of the document a secret key calls: `{ id, method, path, op }`. */
function secretKeyOperations() {
  const doc = readJson('sdk/openapi.json') as { paths: Record<string, Record<string, Operation>> };
  const out: { id: string; method: string; path: string; op: Operation }[] = [];
  for (const [p, item] of Object.entries(doc.paths))
    for (const m of METHODS) {
      const op = item[m];
      if (op && (op.security ?? []).some((s) => 'secretKey' in s))
        out.push({ id: op.operationId, method: m.toUpperCase(), path: p, op });
    }
  return out;
}

/** A client whose `fetch` records each request and answers an empty page / object / stream. */
function recordingClient() {
  const seen: { method: string; url: string; body?: string }[] = [];
  const fakeFetch = async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ method: String(init?.method), url: String(url), body: init?.body as string | undefined });
    const accept = (init?.headers as Record<string, string>)?.Accept;
    if (accept === 'text/event-stream')
      return new Response('event: end\nid: 1\ndata: {"status":"completed"}\n\n', {
        headers: { 'Content-Type': 'text/event-stream' },
      });
    return new Response(JSON.stringify({ object: 'list', data: [], has_more: false }), {
      headers: { 'Content-Type': 'application/json', 'Request-Id': 'req_test' },
    });
  };
  const svc = new Svc({
    apiKey: 'svc_sk_test_coverage',
    baseUrl: 'http://sdk.invalid',
    fetch: fakeFetch as typeof fetch,
  });
  return { svc, seen };
}

describe('TypeScript SDK coverage', () => {
  const names = (readJson('sdk/operations.json') as { operations: Record<string, string> }).operations;
  const operations = secretKeyOperations();

  it('names every operation a secret key calls in sdk/operations.json', () => {
    expect(operations.length).to.be.greaterThan(100);
    const missing = operations.filter((o) => !(o.id in names)).map((o) => o.id);
    expect(missing, 'operations without an SDK name').to.deep.equal([]);
  });

  it('has a method for each, sending the operation to its path', async () => {
    const { svc, seen } = recordingClient();
    const lacking: string[] = [];
    const wrong: string[] = [];
    for (const { id, method, path: template } of operations) {
      const parts = (names[id] ?? '').split('.');
      let target: unknown = svc;
      for (const p of parts.slice(0, -1)) target = (target as Record<string, unknown>)?.[p];
      const fn = (target as Record<string, unknown>)?.[parts[parts.length - 1]];
      if (typeof fn !== 'function') {
        lacking.push(`${id} (${names[id]})`);
        continue;
      }
      const pathArgs = [...template.matchAll(/\{([^}]+)\}/g)].map((_, i) => `p${i + 1}`);
      const before = seen.length;
      const result = (fn as (...a: unknown[]) => unknown).call(target, ...pathArgs, {}, { maxRetries: 0 });
      if (result && typeof (result as Promise<unknown>).then === 'function') await result;
      else for await (const _ of result as AsyncIterable<unknown>) break;
      let n = 0;
      const expected = `${method} http://sdk.invalid${template.replace(/\{[^}]+\}/g, () => `p${++n}`)}`;
      const sent = seen.slice(before).map((s) => `${s.method} ${s.url.split('?')[0]}`);
      if (sent.length !== 1 || sent[0] !== expected)
        wrong.push(`${id}: sent ${sent.join(', ') || 'nothing'}, expected ${expected}`);
    }
    expect(lacking, 'operations without a method in the TypeScript SDK').to.deep.equal([]);
    expect(wrong, 'methods that send another request than their operation').to.deep.equal([]);
    expect(seen.length).to.equal(operations.length);
  });

  it('sends one Idempotency-Key per POST and a POST body as JSON', async () => {
    const keys: string[] = [];
    const svc = new Svc({
      apiKey: 'svc_sk_test_coverage',
      baseUrl: 'http://sdk.invalid',
      fetch: (async (_url: string, init: RequestInit) => {
        keys.push((init.headers as Record<string, string>)['Idempotency-Key']);
        expect(JSON.parse(init.body as string)).to.deep.equal({ to: '+14155550100', agent_id: 'agt_x' });
        return new Response('{"id":"call_x"}', { headers: { 'Content-Type': 'application/json' } });
      }) as unknown as typeof fetch,
    });
    await svc.calls.create({ to: '+14155550100', agent_id: 'agt_x' });
    await svc.calls.create({ to: '+14155550100', agent_id: 'agt_x' }, { idempotencyKey: 'mine' });
    expect(keys[0]).to.match(/^[0-9a-f-]{36}$/);
    expect(keys[1]).to.equal('mine');
  });

  it(`commits at most ${GENERATED_LINES_MAX.toLocaleString('en')} generated lines`, () => {
    const dir = path.join(ROOT, 'sdk/typescript/src/generated');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).to.include.members(['schema.ts', 'resources.ts']);
    const lines = files.reduce((n, f) => n + fs.readFileSync(path.join(dir, f), 'utf8').split('\n').length, 0);
    expect(lines).to.be.at.most(GENERATED_LINES_MAX);
  });
});
