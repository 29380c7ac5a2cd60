#!/usr/bin/env node
/**
 * Trims Twilio's published OpenAPI description of the 2010 REST API to what the fake Twilio of the tests
 * checks requests against: for each path, each method, the names of the form (request body) and query
 * parameters the operation takes. Source: github.com/twilio/twilio-oai, file
 * `spec/json/twilio_api_v2010.json` (Apache-2.0), the version named below (the repository's tag and commit
 * the trimmed file was made from). Writes test/support/twilio-oai-params.json.
 *
 * Usage: node scripts/twilio-oai-params.mjs <path to twilio_api_v2010.json> [<source version text>] [<output name>]
 *   e.g. git -C twilio-oai show HEAD:spec/json/twilio_api_v2010.json > /tmp/v2010.json
 *        node scripts/twilio-oai-params.mjs /tmp/v2010.json "twilio-oai 2.6.7 (d50069b44ea8cd23141385bdb6db48f16ff75bb5)"
 * The Voice v1 API (BYOC trunks, Connection Policies; `spec/json/twilio_voice_v1.json`) the same way,
 * into its own file:
 *        git -C twilio-oai show HEAD:spec/json/twilio_voice_v1.json > /tmp/voice_v1.json
 *        node scripts/twilio-oai-params.mjs /tmp/voice_v1.json "twilio-oai 2.6.7 (…)" twilio-oai-voice-params.json
 */
import fs from 'node:fs';
import path from 'node:path';

const [specPath, version = 'unknown', outName = 'twilio-oai-params.json'] = process.argv.slice(2);
if (!specPath) {
  console.error('usage: node scripts/twilio-oai-params.mjs <twilio_api_v2010.json> [<source version>]');
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
// The description's own file name in twilio-oai: the servers name the API (api.twilio.com: the 2010 API).
const server = spec.servers?.[0]?.url ?? 'https://api.twilio.com';
const specName = server.includes('voice.') ? 'twilio_voice_v1.json' : 'twilio_api_v2010.json';
const paths = {};
for (const [p, item] of Object.entries(spec.paths).sort(([a], [b]) => a.localeCompare(b))) {
  const shared = item.parameters ?? [];
  for (const method of ['get', 'post', 'delete']) {
    const op = item[method];
    if (!op) continue;
    const params = [...shared, ...(op.parameters ?? [])];
    const query = params.filter((x) => x.in === 'query').map((x) => x.name);
    const schema = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
    const form = Object.keys(schema?.properties ?? {});
    (paths[p] ??= {})[method.toUpperCase()] = { query: query.sort(), form: form.sort() };
  }
}
const out = {
  source: `https://github.com/twilio/twilio-oai/blob/main/spec/json/${specName}`,
  version: `${version}; info.version ${spec.info?.version ?? '?'}`,
  paths,
};
const target = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'test', 'support', outName);
fs.writeFileSync(target, JSON.stringify(out, null, 0).replace(/\},"\//g, '},\n"/') + '\n');
console.log(`wrote ${target}: ${Object.keys(paths).length} paths`);
