#!/usr/bin/env node
/**
 * The TypeScript SDK's generated part, besides openapi-typescript's types (scripts/sdk-generate.sh):
 *
 *   node scripts/sdk/ts-resources.mjs <openapi.json> <operations.json> --resources <resources.ts> [--document <out.json>]
 *
 * --resources writes sdk/typescript/src/generated/resources.ts: one class per resource path of
 * sdk/operations.json (`bulkCalls.results.list` → class BulkCallsResults, reached as `client.bulkCalls.results`)
 * with one method per operation, typed by the operation's id in openapi-typescript's `operations` (path
 * parameters positional in path order, then the JSON body or the query as one `params` argument, then
 * `RequestOptions`). A list (a 200 of `{ data, has_more }`) returns a `ListPromise`, a `text/event-stream`
 * an `EventStream`, a 200 without JSON bytes (`Uint8Array`); the calls go through the hand-written
 * `Transport` of src/index.ts. Also the event types webhooks deliver (`EVENT_TYPES`, from `Event`'s
 * discriminator).
 * --document writes the document openapi-typescript reads for the SDK: the operations of operations.json
 * and the components they reach (plus `Event`), so the committed types stay under the SDK's line budget.
 * Fails (exit 1) when an operation of operations.json is missing from the document, when a secret-key
 * operation has no entry, or when a name is both a method and a sub-resource.
 */
import fs from 'node:fs';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of `doc`: `{ id, method, path, op, pathItem }`. */
function operationsOf(doc) {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS)
      if (item[method]) out.push({ id: item[method].operationId, method, path, op: item[method], pathItem: item });
  return out;
}

/** Whether a secret key may call `op` (its security, or the document's, lists `secretKey`). */
export function secretKeyCalls(doc, op) {
  return (op.security ?? doc.security ?? []).some((s) => 'secretKey' in s);
}

/** `#/components/schemas/X` → the schema. */
function deref(doc, node) {
  let n = node;
  while (n && n.$ref)
    n = n.$ref
      .split('/')
      .slice(1)
      .reduce((o, k) => o[k], doc);
  return n;
}

/** The SDK's view of `doc`: the named operations and every component they (and `Event`) reach. */
export function sdkDocument(doc, names) {
  const out = structuredClone(doc);
  out.paths = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([k, v]) => !METHODS.includes(k) || v.operationId in names),
    );
    if (METHODS.some((m) => kept[m])) out.paths[path] = kept;
    // A summary the description repeats word for word is left out: one comment line less per operation.
    for (const m of METHODS)
      if (kept[m]?.summary && oneLine(kept[m].description).startsWith(kept[m].summary))
        kept[m] = { ...kept[m], summary: undefined };
  }
  const seen = new Set();
  const walk = (x) => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!x || typeof x !== 'object') return;
    if (typeof x.$ref === 'string' && x.$ref.startsWith('#/components/') && !seen.has(x.$ref)) {
      seen.add(x.$ref);
      walk(deref(doc, { $ref: x.$ref }));
    }
    Object.values(x).forEach(walk);
  };
  walk(out.paths);
  if (doc.components?.schemas?.Event) walk({ $ref: '#/components/schemas/Event' });
  for (const kind of ['schemas', 'parameters', 'headers', 'responses', 'requestBodies'])
    if (out.components?.[kind])
      out.components[kind] = Object.fromEntries(
        Object.entries(out.components[kind]).filter(([k]) => seen.has(`#/components/${kind}/${k}`)),
      );
  return out;
}

const pascal = (parts) => parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('');
const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\*\//g, '*\\/')
    .trim();

/**
 * How the SDK calls an operation: `list` (a GET of a page with a `starting_after` cursor: auto-paginated),
 * `stream`, `bytes` or `json`.
 */
function kindOf(doc, method, op, params) {
  const ok = op.responses?.['200']?.content ?? {};
  if (ok['text/event-stream']) return 'stream';
  const json = ok['application/json'];
  if (!json) return Object.keys(ok).length ? 'bytes' : 'json';
  const schema = deref(doc, json.schema);
  const cursor = params.some((p) => p.in === 'query' && p.name === 'starting_after');
  return method === 'get' && cursor && schema?.properties?.data && schema?.properties?.has_more ? 'list' : 'json';
}

/** One method's source lines. */
function methodSource(doc, { id, method, path, op, pathItem }, name) {
  const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const query = params.filter((p) => p.in === 'query');
  const body = op.requestBody ? deref(doc, op.requestBody) : undefined;
  if (body && query.length) throw new Error(`${id}: both a body and a query`);
  const args = pathNames.map((p) => `${p.replace(/\W/g, '_')}: string`);
  const kind = kindOf(doc, method, op, params);
  let paramsType;
  if (body) paramsType = `BodyOf<'${id}'>`;
  else if (query.length) paramsType = `QueryOf<'${id}'>`;
  if (paramsType)
    args.push(`params${(body ? body.required : query.some((q) => q.required)) ? '' : '?'}: ${paramsType}`);
  args.push('options?: RequestOptions');
  const url = '`' + path.replace(/\{([^}]+)\}/g, (_, p) => `\${encodeURIComponent(${p.replace(/\W/g, '_')})}`) + '`';
  const p = paramsType ? 'params' : 'undefined';
  const M = method.toUpperCase();
  const call = {
    list: [`ListPromise<ItemOf<'${id}'>>`, `this.t.list(${url}, ${p}, options)`],
    stream: [`EventStream<StreamEventOf<'${id}'>>`, `this.t.stream(${url}, ${p}, options)`],
    bytes: ['Promise<Uint8Array>', `this.t.bytes('${M}', ${url}, ${p}, options)`],
    json: [`Promise<ResultOf<'${id}'>>`, `this.t.request('${M}', ${url}, ${body ? 'params ?? {}' : p}, options)`],
  }[kind];
  const summary = oneLine(op.summary);
  const description = oneLine(op.description);
  const doc1 = description.startsWith(summary) ? description : [summary, description].filter(Boolean).join(': ');
  return [
    `  /** ${doc1} (\`${M} ${path}\`, \`${id}\`) */`,
    `  ${name}(${args.join(', ')}): ${call[0]} {`,
    `    return ${call[1]};`,
    '  }',
  ];
}

/** resources.ts for `doc` and `names` (operationId → `a.b.method`). */
export function resourcesSource(doc, names) {
  const ops = new Map(operationsOf(doc).map((o) => [o.id, o]));
  const missing = Object.keys(names).filter((id) => !ops.has(id));
  if (missing.length) throw new Error(`operations.json names operations the document lacks: ${missing.join(', ')}`);
  const unnamed = [...ops.values()].filter((o) => secretKeyCalls(doc, o.op) && !(o.id in names)).map((o) => o.id);
  if (unnamed.length)
    throw new Error(`secret-key operations without an entry in operations.json: ${unnamed.join(', ')}`);
  // resource path ('' is the client) → { methods: [[name, id]], children: Set }
  const tree = new Map([['', { methods: [], children: new Set() }]]);
  const node = (key) => tree.get(key) ?? tree.set(key, { methods: [], children: new Set() }).get(key);
  for (const [id, full] of Object.entries(names)) {
    const parts = full.split('.');
    const method = parts.pop();
    for (let i = 0; i < parts.length; i++) node(parts.slice(0, i).join('.')).children.add(parts[i]);
    node(parts.join('.')).methods.push([method, id]);
  }
  for (const [key, n] of tree)
    for (const [m] of n.methods) if (n.children.has(m)) throw new Error(`${key}.${m} is both a method and a resource`);
  const className = (key) => (key ? pascal(key.split('.')) : 'Resources');
  const lines = [
    '// Generated by scripts/sdk/ts-resources.mjs from sdk/openapi.json and sdk/operations.json (npm run',
    '// sdk:generate): do not edit. The transport and the types named here are the hand-written src/index.ts.',
    'import type {',
    '  BodyOf, EventStream, ItemOf, ListPromise, QueryOf, RequestOptions, ResultOf, StreamEventOf, Transport,',
    "} from '../index';",
    '',
  ];
  const keys = [...tree.keys()].sort((a, b) => b.split('.').length - a.split('.').length || a.localeCompare(b));
  for (const key of keys) {
    const n = tree.get(key);
    const children = [...n.children].sort();
    const title = key ? `\`client.${key}\`` : 'The resources of the client (`client.calls`, `client.agents`, …)';
    lines.push(`/** ${title}. */`, `export class ${className(key)} {`);
    for (const c of children) lines.push(`  readonly ${c}: ${className(key ? `${key}.${c}` : c)};`);
    if (!children.length) lines.push('  constructor(protected readonly t: Transport) {}');
    else {
      lines.push('  constructor(protected readonly t: Transport) {');
      for (const c of children) lines.push(`    this.${c} = new ${className(key ? `${key}.${c}` : c)}(t);`);
      lines.push('  }');
    }
    for (const [m, id] of n.methods) lines.push(...methodSource(doc, ops.get(id), m));
    lines.push('}', '');
  }
  const mapping = deref(doc, doc.components?.schemas?.Event)?.discriminator?.mapping ?? {};
  lines.push(
    '/** The event types webhooks deliver and `GET /v1/events` lists, from the `Event` schema. */',
    `export const EVENT_TYPES = ${JSON.stringify(Object.keys(mapping))} as const;`,
    '',
  );
  return lines.join('\n');
}

function main(argv) {
  const [openapiPath, operationsPath, ...rest] = argv;
  const flag = (name) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (!openapiPath || !operationsPath || !flag('--resources')) {
    console.error(
      'usage: ts-resources.mjs <openapi.json> <operations.json> --resources <out.ts> [--document <out.json>]',
    );
    process.exit(2);
  }
  const doc = JSON.parse(fs.readFileSync(openapiPath, 'utf8'));
  const names = JSON.parse(fs.readFileSync(operationsPath, 'utf8')).operations;
  try {
    fs.writeFileSync(flag('--resources'), resourcesSource(doc, names));
    if (flag('--document')) fs.writeFileSync(flag('--document'), JSON.stringify(sdkDocument(doc, names), null, 2));
  } catch (e) {
    console.error(`ts-resources: ${e.message}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
