#!/usr/bin/env node
/**
 * Generates the Go SDK's resource layer (sdk/go/resources.gen.go): one method per operation of
 * sdk/operations.json, on the resource its SDK name gives (`bulkCalls.results.list` is
 * `client.BulkCalls.Results.List`), typed with the structs oapi-codegen generated into sdk/go/types.gen.go.
 *
 *   func (r *CallsService) Create(ctx context.Context, params CreateCallJSONRequestBody, opts ...RequestOption) (*Call, error)
 *
 * Path parameters are positional strings in path order; a JSON request body is one value of its generated
 * `<Op>JSONRequestBody` type; query parameters are one `*<Op>Params` (nil for none); the result is the
 * generated type of the 200 answer's schema. A list (answer with `data` and `has_more`, cursor
 * `starting_after`) also gets `<Method>AutoPaging`, an `iter.Seq2[Item, error]` over every page; a
 * `text/event-stream` answer is an `iter.Seq2[StreamEvent, error]`; a binary answer (`application/gzip`…)
 * is `[]byte`. The event types of the `Event` schema's discriminator are registered for
 * `webhook.ConstructEvent`. Each type name is checked against types.gen.go, so a generator change that
 * renames one fails here instead of in `go build`.
 *
 * Usage: node scripts/sdk/go-resources.mjs <openapi.json> <operations.json> <types.gen.go> <out.go>
 */
import fs from 'node:fs';

const GO_KEYWORDS = new Set(['type', 'func', 'range', 'map', 'chan', 'go', 'select', 'default', 'interface']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const pascal = (s) => s.charAt(0).toUpperCase() + s.slice(1);
/** A Go identifier for a path or query parameter name (`last_event_id` → `lastEventID`-like camelCase). */
function goParam(name) {
  const camel = name.replace(/[_-](\w)/g, (_, c) => c.toUpperCase());
  return GO_KEYWORDS.has(camel) ? `${camel}Param` : camel;
}
/** The component name of a `$ref`. */
const refName = (ref) => ref.split('/').pop();

/** The first sentence of an operation's summary (or description), for the method's doc comment. */
function docLine(op) {
  const text = (op.summary || op.description || op.operationId).replace(/\s+/g, ' ').trim();
  const sentence = text.match(/^.*?[.!?](\s|$)/)?.[0].trim() ?? text;
  return sentence.endsWith('.') ? sentence : `${sentence}.`;
}

/** What a generator needs of one operation: method, path, parameters, body, result. */
function describe(doc, types, method, path, op, sdkName) {
  const params = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[refName(p.$ref)] : p));
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const query = params.filter((p) => p.in === 'query').map((p) => p.name);
  const opType = pascal(op.operationId);
  const need = (name) => {
    if (!types.has(name)) throw new Error(`${op.operationId}: type ${name} is not in types.gen.go`);
    return name;
  };
  const jsonBody = op.requestBody?.content?.['application/json'];
  const ok = op.responses?.['200'] ?? op.responses?.['201'] ?? op.responses?.['202'];
  const content = ok?.content ?? {};
  let result = { kind: 'json', type: 'json.RawMessage' };
  if (content['text/event-stream']) result = { kind: 'stream' };
  else if (content['application/json']?.schema?.$ref) {
    const name = refName(content['application/json'].schema.$ref);
    const schema = doc.components.schemas[name];
    result = { kind: 'json', type: need(pascal(name)) };
    const items = schema?.properties?.data?.items;
    if (schema?.properties?.has_more && items?.$ref && query.includes('starting_after')) {
      result.item = need(pascal(refName(items.$ref)));
    }
  } else if (Object.keys(content).some((ct) => !ct.includes('json'))) result = { kind: 'bytes' };
  const parts = sdkName.split('.');
  return {
    sdkName,
    method: method.toUpperCase(),
    path,
    pathParams,
    query,
    queryType: query.length ? need(`${opType}Params`) : undefined,
    bodyType: jsonBody ? need(`${opType}JSONRequestBody`) : undefined,
    result,
    resource: parts.slice(0, -1),
    name: pascal(parts[parts.length - 1]),
    doc: docLine(op),
    operationId: op.operationId,
  };
}

/** The Go source of one operation's method (and its auto-paging companion for a list). */
function methodSource(o) {
  const recv = `r *${serviceType(o.resource)}`;
  const args = ['ctx context.Context', ...o.pathParams.map((p) => `${goParam(p)} string`)];
  if (o.bodyType) args.push(`params ${o.bodyType}`);
  if (o.queryType) args.push(`params *${o.queryType}`);
  args.push('opts ...RequestOption');
  const pathExpr = o.pathParams.length
    ? `pathf(${JSON.stringify(o.path)}, ${o.pathParams.map(goParam).join(', ')})`
    : JSON.stringify(o.path);
  const queryExpr = o.queryType ? `queryOf(params, ${o.query.map((q) => JSON.stringify(q)).join(', ')})` : 'nil';
  const bodyExpr = o.bodyType ? 'params' : 'nil';
  const head = `// ${o.name} is ${o.method} ${o.path} (${o.operationId}): ${o.doc}`;
  const sig = `func (${recv}) ${o.name}(${args.join(', ')})`;
  const call = `ctx, r.client, ${JSON.stringify(o.method)}, ${pathExpr}, ${queryExpr}`;
  const lines = [head];
  if (o.result.kind === 'stream') {
    lines.push(`${sig} iter.Seq2[StreamEvent, error] {`, `\treturn streamEvents(${call}, opts)`, '}');
  } else if (o.result.kind === 'bytes') {
    lines.push(`${sig} ([]byte, error) {`, `\treturn doBytes(${call}, opts)`, '}');
  } else {
    lines.push(
      `${sig} (*${o.result.type}, error) {`,
      `\treturn doJSON[${o.result.type}](${call}, ${bodyExpr}, opts)`,
      '}',
    );
  }
  if (o.result.item) {
    lines.push(
      '',
      `// ${o.name}AutoPaging iterates every ${o.result.item} of every page of ${o.name}, following starting_after.`,
      `${sig.replace(`) ${o.name}(`, `) ${o.name}AutoPaging(`)} iter.Seq2[${o.result.item}, error] {`,
      `\treturn autoPage[${o.result.item}](${call}, opts)`,
      '}',
    );
  }
  return lines.join('\n');
}

const serviceType = (resource) => `${resource.map(pascal).join('')}Service`;

/** The service structs (one per resource path), their sub-resources, and the client's wiring. */
function servicesSource(ops) {
  const resources = new Map(); // "calls.recording" -> { path, children: Set, methods: Set }
  for (const o of ops) {
    for (let i = 1; i <= o.resource.length; i++) {
      const key = o.resource.slice(0, i).join('.');
      if (!resources.has(key))
        resources.set(key, { path: o.resource.slice(0, i), children: new Set(), methods: new Set() });
      if (i > 1) resources.get(o.resource.slice(0, i - 1).join('.')).children.add(key);
    }
    resources.get(o.resource.join('.')).methods.add(o.name);
  }
  const out = [];
  const top = [...resources.values()].filter((r) => r.path.length === 1);
  out.push(
    "// resources are the client's services, one per resource of sdk/operations.json.",
    'type resources struct {',
  );
  for (const r of top) out.push(`\t${pascal(r.path[0])} *${serviceType(r.path)}`);
  out.push('}', '');
  const init = (r) => {
    const fields = [...r.children].map((k) => resources.get(k)).map((c) => `${pascal(c.path.at(-1))}: ${init(c)}`);
    return `&${serviceType(r.path)}{client: c${fields.length ? ', ' + fields.join(', ') : ''}}`;
  };
  out.push('// initResources wires every service to the client.', 'func (c *Client) initResources() {');
  for (const r of top) out.push(`\tc.${pascal(r.path[0])} = ${init(r)}`);
  out.push('}');
  for (const r of resources.values()) {
    out.push('', `// ${serviceType(r.path)} holds the methods of client.${r.path.map(pascal).join('.')}.`);
    out.push(`type ${serviceType(r.path)} struct {`, '\tclient *Client');
    for (const k of r.children) {
      const name = pascal(resources.get(k).path.at(-1));
      if (r.methods.has(name)) throw new Error(`${k}: a sub-resource and a method share the name ${name}`);
      out.push(`\t${name} *${serviceType(resources.get(k).path)}`);
    }
    out.push('}');
  }
  return out.join('\n');
}

/** The event type → typed event registry of the `Event` schema's discriminator. */
function eventsSource(doc, types) {
  const mapping = doc.components.schemas.Event?.discriminator?.mapping ?? {};
  const lines = ["// eventTypes makes the typed event of each event `type` (the Event schema's discriminator)."];
  lines.push('var eventTypes = map[string]func() any{');
  for (const [type, ref] of Object.entries(mapping)) {
    const name = pascal(refName(ref));
    if (!types.has(name)) throw new Error(`event ${type}: type ${name} is not in types.gen.go`);
    lines.push(`\t${JSON.stringify(type)}: func() any { return new(${name}) },`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** An ErrorCode constant per `code` any operation's error schema lists (the union of their enums). */
function errorCodesSource(doc) {
  const codes = new Set();
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (name.endsWith('ErrorDetail')) for (const c of schema.properties?.code?.enum ?? []) codes.add(c);
  }
  const lines = [
    '// ErrorCode is the stable reason of an error (Error.Code); the constants are every code the API document lists.',
    'type ErrorCode string',
    '',
    '// The error codes of the API document.',
    'const (',
  ];
  for (const c of [...codes].sort()) {
    lines.push(`\tErrorCode${c.split(/[_.-]/).map(pascal).join('')} ErrorCode = ${JSON.stringify(c)}`);
  }
  lines.push(')');
  return lines.join('\n');
}

function main() {
  const [openapi, operations, typesFile, output] = process.argv.slice(2);
  if (!output) {
    console.error('usage: go-resources.mjs <openapi.json> <operations.json> <types.gen.go> <out.go>');
    process.exit(2);
  }
  const doc = JSON.parse(fs.readFileSync(openapi, 'utf8'));
  const names = JSON.parse(fs.readFileSync(operations, 'utf8')).operations;
  const types = new Set([...fs.readFileSync(typesFile, 'utf8').matchAll(/^type (\w+) /gm)].map((m) => m[1]));
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op && names[op.operationId]) ops.push(describe(doc, types, method, path, op, names[op.operationId]));
    }
  }
  const missing = Object.keys(names).filter((id) => !ops.some((o) => o.operationId === id));
  if (missing.length) throw new Error(`sdk/operations.json names operations the document lacks: ${missing.join(', ')}`);
  ops.sort((a, b) => a.sdkName.localeCompare(b.sdkName));
  const source = [
    '// Code generated by scripts/sdk/go-resources.mjs from sdk/openapi.json and sdk/operations.json. DO NOT EDIT.',
    '',
    'package svc',
    '',
    'import (',
    '\t"context"',
    ...(ops.some((o) => o.result.type === 'json.RawMessage') ? ['\t"encoding/json"'] : []),
    '\t"iter"',
    ')',
    '',
    `// APIVersion is the API version these types describe, sent as Svc-Version (WithSvcVersion overrides it).`,
    `const APIVersion = ${JSON.stringify(doc.info.version)}`,
    '',
    errorCodesSource(doc),
    '',
    servicesSource(ops),
    '',
    ops.map(methodSource).join('\n\n'),
    '',
    eventsSource(doc, types),
    '',
  ].join('\n');
  fs.writeFileSync(output, source);
}

main();
