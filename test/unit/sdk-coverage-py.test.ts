/**
 * The Python SDK covers the API: every operation of sdk/openapi.json that a secret key calls (its
 * `security` names `secretKey`) has an entry in sdk/operations.json, and that entry is a method of both
 * `Svc` and `AsyncSvc` (found by introspecting the package in the SDK's cached Python environment:
 * `client.bulk_calls.results.list`, resource and method names in snake_case). And the generated code the
 * repository carries (sdk/python/svc_assistant/_generated) stays at most 25,000 lines.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../../..');
const GENERATED = path.join(ROOT, 'sdk/python/svc_assistant/_generated');
const MAX_GENERATED_LINES = 25_000;

/** The operationIds of the document that a secret key calls. */
function secretKeyOperations(): string[] {
  const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'sdk/openapi.json'), 'utf8'));
  const ids: string[] = [];
  for (const item of Object.values<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const security: Record<string, unknown>[] = op.security ?? doc.security ?? [];
      if (security.some((s) => 'secretKey' in s)) ids.push(op.operationId);
    }
  }
  return ids;
}

/** `bulkCalls.results.list` -> `bulk_calls.results.list`. */
const snake = (name: string) =>
  name
    .split('.')
    .map((s) => s.replace(/([A-Z])/g, '_$1').toLowerCase())
    .join('.');

/** Which of `paths` are callable on a Svc and on an AsyncSvc of the package (Python's own answer). */
function pythonMethods(paths: string[]): { sync: string[]; async: string[] } {
  const python = execFileSync('bash', [path.join(ROOT, 'scripts/install-sdk-python.sh')], { encoding: 'utf8' }).trim();
  const script = [
    'import json, sys, functools',
    'from svc_assistant import Svc, AsyncSvc',
    'paths = json.load(sys.stdin)',
    'def has(client, p):',
    '    try: return callable(functools.reduce(getattr, p.split("."), client))',
    '    except AttributeError: return False',
    'clients = {"sync": Svc(api_key="svc_sk_test_x"), "async": AsyncSvc(api_key="svc_sk_test_x")}',
    'print(json.dumps({k: [p for p in paths if has(c, p)] for k, c in clients.items()}))',
  ].join('\n');
  const out = execFileSync(python, ['-c', script], {
    input: JSON.stringify(paths),
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: path.join(ROOT, 'sdk/python'), PYTHONDONTWRITEBYTECODE: '1' },
  });
  return JSON.parse(out);
}

describe('Python SDK coverage', function () {
  this.timeout(300_000);

  it('every operation a secret key calls has an sdk/operations.json entry and a method on Svc and AsyncSvc', () => {
    const table: Record<string, string> = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'sdk/operations.json'), 'utf8'),
    ).operations;
    const ops = secretKeyOperations();
    expect(ops.length).to.be.greaterThan(100);
    expect(
      ops.filter((id) => !table[id]),
      'operations without an sdk/operations.json entry',
    ).to.deep.equal([]);
    const wanted = ops.map((id) => snake(table[id]));
    const found = pythonMethods(wanted);
    expect(
      wanted.filter((p) => !found.sync.includes(p)),
      'operations without a method on Svc',
    ).to.deep.equal([]);
    expect(
      wanted.filter((p) => !found.async.includes(p)),
      'operations without a method on AsyncSvc',
    ).to.deep.equal([]);
    expect(found.sync).to.include.members(['calls.create', 'bulk_calls.results.list', 'agents.versions.publish']);
  });

  it(`commits at most ${MAX_GENERATED_LINES} generated lines`, () => {
    const files = fs.readdirSync(GENERATED).filter((f) => f.endsWith('.py'));
    expect(files).to.include.members(['models.py', 'params.py', 'resources.py']);
    const lines = files.reduce(
      (n, f) => n + fs.readFileSync(path.join(GENERATED, f), 'utf8').split('\n').length - 1,
      0,
    );
    expect(lines).to.be.at.most(MAX_GENERATED_LINES);
    expect(lines).to.be.greaterThan(1000);
  });
});
