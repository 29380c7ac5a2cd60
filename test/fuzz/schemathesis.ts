/**
 * The API fuzzed against its own document: `npm run test:fuzz`, run by CI after `npm test`.
 *
 * Starts the test harness (real Temporal dev server and FerretDB, the API, a worker, the fake LLM), makes
 * an organization with a test-mode secret key, and runs schemathesis (PyPI, installed by
 * scripts/install-schemathesis.sh into the cache) over every operation of `GET /v1/openapi.json`:
 * the `examples`, `coverage` and `fuzzing` phases, FUZZ_MAX_EXAMPLES cases per operation in fuzzing
 * (default 50), a fixed seed, Twilio's callbacks signed as Twilio signs them (test/fuzz/twilio_signature.py),
 * the widget's routes with a publishable key or a session token (schemathesis.toml, written to the report
 * folder), every other route with a test-mode secret key, and these checks:
 *
 *   - not_a_server_error: no 5xx, whatever the input;
 *   - status_code_conformance, content_type_conformance, response_schema_conformance: every answer is
 *     one the document describes (status, media type, body);
 *   - negative_data_rejection: a request the document says is invalid (a missing or malformed field, a
 *     value outside an enum) is refused with a 4xx, never taken;
 *   - ignored_auth: an operation that needs a key refuses a request without one.
 *
 * Exits 0 when schemathesis reports no failure; prints its summary and writes its JUnit report to
 * FUZZ_REPORT_DIR (default a temporary folder). Bounded: the case counts are fixed, and a run longer than
 * FUZZ_MAX_TIME_S (default 540 s) is stopped and fails (schemathesis's own `--max-time` would instead
 * repeat fuzzing until the time is spent).
 *
 *   npm run test:fuzz
 *   FUZZ_MAX_EXAMPLES=100 npm run test:fuzz
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { h, newTenant, request, startHarness, stopHarness } from '../support/harness';

/** The checks the run applies (schemathesis's names). */
export const FUZZ_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'ignored_auth',
  ...(process.env.FUZZ_EXTRA_CHECKS ? process.env.FUZZ_EXTRA_CHECKS.split(',') : []),
];

async function main(): Promise<number> {
  const root = path.resolve(__dirname, '../../..');
  const bin = execFileSync('bash', [path.join(root, 'scripts/install-schemathesis.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const reportDir = path.resolve(process.env.FUZZ_REPORT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fuzz-')));
  fs.mkdirSync(reportDir, { recursive: true });
  // The per-key rate limit off (the harness reads the environment): with it, most cases of the busiest
  // operations would be 429s and never reach validation (test/integration/api.test.ts covers the limit).
  process.env.API_RATE_LIMIT = '0';
  await startHarness();
  try {
    // Twilio's callbacks verify X-Twilio-Signature with the auth token: give the API one, and the hooks
    // (test/fuzz/twilio_signature.py) sign with it, so those routes are fuzzed past the signature check.
    const twilioAuthToken = crypto.randomBytes(16).toString('hex');
    setConfig({ ...config(), twilioAuthToken });
    const t = await newTenant();
    const url = h().api.url;
    // The widget's own credentials (test/fuzz/twilio_signature.py puts them on the widget routes).
    const publishable = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const session = await request('POST', '/v1/widget/session', { key: publishable, body: { visitor_id: 'fuzz' } });
    if (session.status !== 200) throw new Error(`widget session: ${JSON.stringify(session.body)}`);
    // The widget's routes take their own credentials: per-operation headers in schemathesis.toml, which
    // replace the run's `--header` for those operations (an auth hook would not: explicit headers win
    // over hooks). The stream is left with the secret key (401): a valid stream stays open for as long
    // as the request timeout.
    const configFile = path.join(reportDir, 'schemathesis.toml');
    fs.writeFileSync(
      configFile,
      [
        // A body over its route's size limit is refused with 413 `body_too_large` (RFC 9110 "Content Too
        // Large"), before any field is read: a rejection like the others, which schemathesis's default list
        // of rejection statuses leaves out. Generated bodies past 4 MB reach it (knowledge documents).
        '[checks.negative_data_rejection]',
        'expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]',
        '',
        '[[operations]]',
        'include-path = "/v1/widget/session"',
        'headers = { Authorization = "Bearer ${FUZZ_WIDGET_PUBLISHABLE_KEY}" }',
        '',
        '[[operations]]',
        'include-path-regex = "^/v1/widget/(messages|voice)$"',
        'headers = { Authorization = "Bearer ${FUZZ_WIDGET_SESSION_TOKEN}" }',
        '',
      ].join('\n'),
    );
    const args = [
      '--config-file',
      configFile,
      'run',
      `${url}/v1/openapi.json`,
      '--url',
      url,
      '--header',
      `Authorization: Bearer ${t.testKey}`,
      '--checks',
      FUZZ_CHECKS.join(','),
      '--phases',
      'examples,coverage,fuzzing',
      '--max-examples',
      process.env.FUZZ_MAX_EXAMPLES ?? '50',
      '--seed',
      process.env.FUZZ_SEED ?? '20261122',
      // One worker: schemathesis's threads parse lambdas' source with `ast.parse` at once, which CPython
      // 3.11 does not survive ("AST constructor recursion depth mismatch", a runtime error in the report).
      '--workers',
      '1',
      '--request-timeout',
      '30',
      '--no-color',
      '--report',
      'junit',
      '--report-dir',
      reportDir,
    ];
    console.log(`schemathesis ${args.join(' ').replace(t.testKey, 'svc_sk_test_…')}`);
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(bin, args, {
        cwd: reportDir, // schemathesis keeps a `.schemathesis/` cache in its working directory
        stdio: 'inherit',
        env: {
          ...process.env,
          PYTHONUNBUFFERED: '1',
          PYTHONPATH: path.join(root, 'test/fuzz'),
          SCHEMATHESIS_HOOKS: 'twilio_signature',
          FUZZ_TWILIO_AUTH_TOKEN: twilioAuthToken,
          FUZZ_PUBLIC_BASE_URL: config().publicBaseUrl,
          FUZZ_WIDGET_PUBLISHABLE_KEY: publishable,
          FUZZ_WIDGET_SESSION_TOKEN: session.body.token as string,
        },
      });
      const limitS = Number(process.env.FUZZ_MAX_TIME_S ?? 540);
      const timer = setTimeout(() => {
        console.error(`schemathesis ran past ${limitS} s: stopped`);
        child.kill('SIGTERM');
      }, limitS * 1000);
      child.once('error', reject);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c ?? 1);
      });
    });
    console.log(`schemathesis exited ${code}; JUnit report in ${reportDir}`);
    return code;
  } finally {
    await stopHarness();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
