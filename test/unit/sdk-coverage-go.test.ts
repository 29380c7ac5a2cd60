/**
 * The Go SDK covers the API: every operation of sdk/openapi.json that a secret key calls (its `security`
 * lists `secretKey`) has an entry in sdk/operations.json, and that entry a method in sdk/go's generated
 * resource layer (resources.gen.go: `func (r *BulkCallsResultsService) List(ctx context.Context, …`
 * for `bulkCalls.results.list`), reachable from the client (`client.BulkCalls.Results`); and the
 * committed generated Go (types.gen.go, resources.gen.go) stays within 25,000 lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../../..');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
}

/** The operationIds of the document that a secret key may call. */
function secretKeyOperations(): string[] {
  const doc = JSON.parse(read('sdk/openapi.json')) as {
    paths: Record<string, Record<string, Operation>>;
    security?: Record<string, string[]>[];
  };
  const ids: string[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      const security = op?.security ?? doc.security ?? [];
      if (op && security.some((s) => 'secretKey' in s)) ids.push(op.operationId);
    }
  }
  return ids;
}

/** `Service.Method` of every method the generated resource layer declares. */
function goMethods(): Set<string> {
  const source = read('sdk/go/resources.gen.go');
  const found = source.matchAll(/^func \(r \*(\w+)Service\) (\w+)\(ctx context\.Context/gm);
  return new Set([...found].map((m) => `${m[1]}.${m[2]}`));
}

/** Whether the client reaches a resource path: each step is a field of the service above it. */
function reachable(source: string, resource: string[]): boolean {
  for (let i = 0; i < resource.length; i++) {
    const owner = i === 0 ? 'resources' : `${resource.slice(0, i).map(pascal).join('')}Service`;
    const body = source.match(new RegExp(`^type ${owner} struct \\{([^}]*)\\}`, 'm'))?.[1] ?? '';
    const field = `${pascal(resource[i])} *${resource
      .slice(0, i + 1)
      .map(pascal)
      .join('')}Service`;
    if (!body.split('\n').some((line) => line.trim().replace(/\s+/g, ' ') === field)) return false;
  }
  return true;
}

describe('Go SDK coverage', () => {
  const names = (JSON.parse(read('sdk/operations.json')) as { operations: Record<string, string> }).operations;

  it('has an sdk/operations.json entry and a Go method for every operation a secret key calls', () => {
    const ids = secretKeyOperations();
    expect(ids.length, 'operations a secret key calls').to.be.greaterThan(100);
    const methods = goMethods();
    const source = read('sdk/go/resources.gen.go');
    const unnamed = ids.filter((id) => !names[id]);
    const missing = ids
      .filter((id) => names[id])
      .filter((id) => {
        const parts = names[id].split('.');
        const resource = parts.slice(0, -1);
        const key = `${resource.map(pascal).join('')}.${pascal(parts[parts.length - 1])}`;
        return !methods.has(key) || !reachable(source, resource);
      });
    expect(unnamed, 'operations without an sdk/operations.json entry').to.deep.equal([]);
    expect(missing, 'operations without a Go method').to.deep.equal([]);
  });

  it('gives every list with a starting_after cursor an iter.Seq2 auto-pager', () => {
    const source = read('sdk/go/resources.gen.go');
    const lists = Object.values(names).filter((n) => n.endsWith('.list'));
    const pagers = [...source.matchAll(/^func \(r \*(\w+)Service\) ListAutoPaging\(.*\) iter\.Seq2\[/gm)];
    expect(pagers.length).to.be.greaterThan(20);
    expect(pagers.length).to.be.at.most(lists.length);
  });

  it('commits at most 25,000 lines of generated Go', () => {
    const lines = ['sdk/go/types.gen.go', 'sdk/go/resources.gen.go']
      .map((f) => read(f).split('\n').length - 1)
      .reduce((a, b) => a + b, 0);
    expect(lines).to.be.within(1000, 25_000);
  });
});
