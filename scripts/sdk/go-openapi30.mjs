#!/usr/bin/env node
/**
 * Writes a copy of the API's OpenAPI 3.1 document (sdk/openapi.json) in the OpenAPI 3.0 dialect that
 * oapi-codegen (the Go SDK's type generator, kin-openapi underneath) reads; the committed document is not
 * touched. What changes, schema by schema, and why:
 * - `type: [T, "null"]` becomes `type: T, nullable: true`; `anyOf: [X, {type: "null"}]` becomes X made
 *   nullable (3.0 has no null type; oapi-codegen makes such fields pointers either way);
 * - a `type` list of several non-null types (`["string", "number", "boolean"]`: form answers, metadata
 *   values) is dropped, so the value is `interface{}` in Go;
 * - `const: v` becomes `enum: [v]` (3.0 has no `const`), and `examples` (3.1's list) and `propertyNames`
 *   (3.1 only) are dropped: they carry no type information.
 *
 * Usage: node scripts/sdk/go-openapi30.mjs <openapi 3.1 json> <operations.json> <out 3.0 json>
 */
import fs from 'node:fs';

/** True when `s` is the schema `{type: "null"}`, already rewritten (children are rewritten first). */
function isNull(s) {
  return Boolean(s && typeof s === 'object' && s['x-null']);
}

/** The 3.0 form of one schema object (recursively). */
function downgrade(node, inSchema) {
  if (Array.isArray(node)) return node.map((n) => downgrade(n, inSchema));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (inSchema && (k === 'examples' || k === 'propertyNames')) continue;
    // Under `properties` the keys are field names, whatever they are called.
    if (inSchema === 'props') out[k] = downgrade(v, true);
    else out[k] = downgrade(v, k === 'properties' ? 'props' : inSchema || SCHEMA_KEYS.has(k));
  }
  if (inSchema === true) schemaFixes(out);
  return out;
}

const SCHEMA_KEYS = new Set(['schema', 'schemas', 'items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not']);

/** Rewrites the 3.1-only keywords of one schema in place. */
function schemaFixes(s) {
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    if (types.length < s.type.length) s.nullable = true;
    if (types.length === 1) s.type = types[0];
    else delete s.type;
  }
  if (s.type === 'null') {
    delete s.type;
    s.nullable = true;
    s['x-null'] = true; // for the parent's anyOf/oneOf, below
  }
  if ('const' in s) {
    s.enum = [s.const];
    delete s.const;
  }
  for (const key of ['anyOf', 'oneOf']) {
    if (!Array.isArray(s[key]) || !s[key].some(isNull)) continue;
    const rest = s[key].filter((x) => !isNull(x));
    if (rest.length === 1 && !rest[0].$ref) {
      delete s[key];
      Object.assign(s, rest[0], { nullable: true });
    } else if (rest.length === 1) {
      s.allOf = rest;
      s.nullable = true;
      delete s[key];
    } else {
      s[key] = rest;
      s.nullable = true;
    }
  }
}

/**
 * Keeps the operations the SDK has a method for (sdk/operations.json: what a secret or restricted key
 * calls; Twilio's callbacks and the widget's routes are not the SDK's) and of each only its 2xx answers:
 * the SDK reads error bodies itself (errors.go), so the per-operation error schemas and their code enums
 * are left out of the generated types (oapi-codegen prunes what nothing references any more).
 */
function keepSdkOperations(doc, sdkOps) {
  const paths = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    const kept = {};
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.operationId) kept[method] = op;
      else if (sdkOps.has(op.operationId)) {
        const responses = Object.fromEntries(Object.entries(op.responses ?? {}).filter(([code]) => /^2/.test(code)));
        kept[method] = { ...op, responses };
      }
    }
    if (Object.values(kept).some((op) => op && op.operationId)) paths[p] = kept;
  }
  return { ...doc, paths };
}

const [input, opsFile, output] = process.argv.slice(2);
if (!input || !opsFile || !output) {
  console.error('usage: go-openapi30.mjs <openapi.json> <operations.json> <out.json>');
  process.exit(2);
}
const doc = JSON.parse(fs.readFileSync(input, 'utf8'));
const sdkOps = new Set(Object.keys(JSON.parse(fs.readFileSync(opsFile, 'utf8')).operations));
const out = downgrade(keepSdkOperations(doc, sdkOps), false);
out.openapi = '3.0.3';
fs.writeFileSync(output, JSON.stringify(out, null, 2) + '\n');
