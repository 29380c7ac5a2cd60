/**
 * The shape of src/api's import graph, measured on the sources with the TypeScript compiler: no router
 * imports another router (what two routers share lives in src/api/validation.ts, lists.ts, sse.ts, the
 * Twilio helpers of twilio/requests.ts, or a service under src/services/), and the longest chain of
 * imports among src/api's files (main → server → app → a router → a helper → its helper) is at most 6
 * files, so a change to a helper reaches the routes through few layers. A router is a file that builds
 * routes (`Router(` or `operationsRouter(`); app.ts mounts them and operations.ts is the router factory,
 * as in the structure measure (node shared/tools/structure.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../../..');
const API = path.join(ROOT, 'src/api');
const MAX_LAYERS = 6;

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

/** The src/api files each src/api file imports (static, type-only and dynamic imports alike). */
function apiImports(files: string[]): Map<string, Set<string>> {
  const known = new Set(files);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const targets = new Set<string>();
    const visit = (n: ts.Node) => {
      let spec: string | undefined;
      if (
        (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
        n.moduleSpecifier &&
        ts.isStringLiteral(n.moduleSpecifier)
      )
        spec = n.moduleSpecifier.text;
      if (
        ts.isCallExpression(n) &&
        n.expression.kind === ts.SyntaxKind.ImportKeyword &&
        ts.isStringLiteral(n.arguments[0])
      )
        spec = n.arguments[0].text;
      if (spec?.startsWith('.')) {
        const base = path.resolve(path.dirname(file), spec);
        const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => known.has(c));
        if (target && target !== file) targets.add(target);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    edges.set(file, targets);
  }
  return edges;
}

/** The longest import chain from each file (files, in order); a circle is cut where it closes. */
function longestChains(edges: Map<string, Set<string>>): Map<string, string[]> {
  const memo = new Map<string, string[]>();
  const visiting = new Set<string>();
  const chain = (f: string): string[] => {
    const known = memo.get(f);
    if (known) return known;
    if (visiting.has(f)) return [f];
    visiting.add(f);
    let best = [f];
    for (const t of edges.get(f) ?? []) {
      const c = chain(t);
      if (c.length + 1 > best.length) best = [f, ...c];
    }
    visiting.delete(f);
    memo.set(f, best);
    return best;
  };
  for (const f of edges.keys()) chain(f);
  return memo;
}

describe('src/api import graph', () => {
  const files = sources(API);
  const edges = apiImports(files);
  const rel = (f: string) => path.relative(ROOT, f);
  const isRouter = (f: string) => /\b(express\.)?Router\(|\boperationsRouter\(/.test(fs.readFileSync(f, 'utf8'));

  it('measures something: the app mounts routers, which import helpers', () => {
    const app = path.join(API, 'app.ts');
    expect(files.length).to.be.greaterThan(30);
    expect([...edges.get(app)!].filter(isRouter).length, 'routers app.ts mounts').to.be.greaterThan(20);
  });

  it('no router imports a router', () => {
    const found: string[] = [];
    for (const [f, targets] of edges) {
      if (!isRouter(f) || rel(f) === 'src/api/app.ts') continue;
      for (const t of targets)
        if (isRouter(t) && rel(t) !== 'src/api/operations.ts') found.push(`${rel(f)} -> ${rel(t)}`);
    }
    expect(found).to.deep.equal([]);
  });

  it(`has no import chain longer than ${MAX_LAYERS} files`, () => {
    const longest = [...longestChains(edges).values()].reduce((a, b) => (b.length > a.length ? b : a), []);
    expect(longest.length, longest.map(rel).join(' -> ')).to.be.at.most(MAX_LAYERS);
    expect(longest.length, 'main → server → app → … is a chain').to.be.at.least(4);
  });
});
