/**
 * The TypeScript SDK as a package, the way a new user gets it: a clean copy of sdk/typescript (no
 * node_modules, no dist) installs its own build dependencies and `npm pack`s a tarball (its `prepack`
 * compiles it); a new npm project in a temporary directory outside the repository installs that tarball,
 * `typescript` and `@types/node` (the versions the SDK builds with), compiles sdk/typescript/examples/
 * quickstart.ts with `tsc --strict` (no DOM library, no `skipLibCheck`: the SDK's declarations must stand on
 * their own), and runs it against the service the harness started: an agent, a webhook endpoint, two test
 * calls polled to `completed`, the transcript, a call's event stream, the calls list page by page, a 422
 * caught as a typed error, then a real delivery verified with `constructEvent` (a forgery refused, an
 * unknown event type returned as an unknown event). examples/type-error.ts must fail to compile at exactly
 * its `expect-error` lines.
 * npm's downloads are cached in ~/.cache/svc-assistant/npm (`--prefer-offline`): a cached run takes well
 * under a minute.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { h, newTenant } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const ROOT = path.resolve(__dirname, '../../..');
const SDK = path.join(ROOT, 'sdk/typescript');
const NPM_CACHE = path.join(os.homedir(), '.cache/svc-assistant/npm');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd args` in `cwd` with `env` added (npm's own `npm_*` variables of this process left out). */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `run`, rejecting unless it exits 0. */
async function ok(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const r = await run(cmd, args, cwd, env);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--cache', NPM_CACHE];

/** Packs the SDK from a clean copy; resolves to the tarball's path. */
async function packSdk(tmp: string): Promise<string> {
  const copy = path.join(tmp, 'sdk-copy');
  fs.cpSync(SDK, copy, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist|examples)$/.test(src) && !src.endsWith('.tgz'),
  });
  await ok('npm', ['install', ...NPM_FLAGS], copy);
  const packed = JSON.parse(await ok('npm', ['pack', '--json', '--pack-destination', tmp, ...NPM_FLAGS], copy));
  return path.join(tmp, (packed as { filename: string }[])[0].filename);
}

/** A new npm project with the tarball, TypeScript and Node's types, and the SDK's two samples. */
async function newProject(tmp: string, tarball: string): Promise<string> {
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'sdk-sample', private: true }));
  const dev = (
    JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  ).devDependencies;
  const pin = (name: string) => `${name}@${dev[name].replace(/^[~^]/, '')}`;
  await ok('npm', ['install', ...NPM_FLAGS, tarball, pin('typescript'), pin('@types/node')], app);
  for (const f of ['quickstart.ts', 'type-error.ts']) fs.copyFileSync(path.join(SDK, 'examples', f), path.join(app, f));
  return app;
}

/** `tsc --strict` in `app` on `file` (no DOM library, declarations checked); `emit` writes out/. */
function tsc(app: string, file: string, emit: boolean): Promise<Ran> {
  const flags = ['--strict', '--target', 'ES2022', '--lib', 'ES2022', '--module', 'commonjs', '--types', 'node'];
  const out = emit ? ['--outDir', 'out'] : ['--noEmit'];
  return run(process.execPath, [path.join(app, 'node_modules/typescript/bin/tsc'), ...flags, ...out, file], app);
}

describe('TypeScript SDK package from a clean directory', function () {
  this.timeout(300_000);
  let receiver: HttpsReceiver;
  let tmp: string;
  let app: string;
  let compiled: Ran;

  before(async function () {
    const started = Date.now();
    receiver = await startHttpsReceiver();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sdk-ts-'));
    app = await newProject(tmp, await packSdk(tmp));
    compiled = await tsc(app, 'quickstart.ts', true);
    console.log(`      (packed, installed and compiled in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  });
  after(async () => {
    await receiver?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs the quickstart compiled with tsc --strict: agent, test calls polled to completed, transcript, stream, pages, a typed 422, a verified delivery', async () => {
    expect(compiled.code, compiled.stdout + compiled.stderr).to.equal(0);
    const node = (command: string, env: Record<string, string>) =>
      ok(process.execPath, ['out/quickstart.js', command], app, env).then((s) =>
        JSON.parse(s.trim().split('\n').pop()!),
      );
    const tenant = await newTenant();
    const result = await node('flow', {
      SVC_BASE_URL: h().api.url,
      SVC_API_KEY: tenant.testKey,
      SVC_WEBHOOK_URL: receiver.url('/sdk-ts-package'),
    });
    expect(result.statuses).to.deep.equal(['completed', 'completed']);
    expect(result.metadata).to.deep.equal({ sample: 'quickstart', n: '1' });
    expect(result.transcript_lines).to.include('Hi, is my appointment at ten?');
    expect(result.streamed).to.include('turn:Hi, is my appointment at ten?');
    expect(result.streamed[result.streamed.length - 1]).to.equal('end:completed');
    expect(result.first_page).to.deep.equal({ count: 1, has_more: true });
    expect(result.paged_ids).to.deep.equal([...result.call_ids].reverse());
    expect(result.error).to.include({ class: 'InvalidRequestError', status: 422, code: 'whatsapp_window_closed' });
    expect(result.error.request_id).to.be.a('string').and.not.equal('');

    await receiver.waitFor((r) => r.filter((x) => x.path === '/sdk-ts-package').length >= 2, 60_000, 'deliveries');
    const delivery = receiver.at('/sdk-ts-package')[0];
    const verified = await node('verify', {
      SVC_PAYLOAD: delivery.rawBody,
      SVC_SIGNATURE: String(delivery.headers['svc-signature']),
      SVC_SECRET: result.webhook_secret,
    });
    expect(verified).to.deep.include({ id: delivery.body.id, type: 'call.ended', forged_refused: true });
    expect(result.call_ids).to.include(verified.call_id);
    expect(verified.described).to.equal(`call ${verified.call_id} ended: completed`);
    expect(verified.unknown).to.deep.equal({
      type: 'call.teleported',
      known: false,
      described: `event ${delivery.body.id} of type call.teleported`,
    });
  });

  it('tsc --strict rejects the type-error sample at each of its expect-error lines, and nowhere else', async () => {
    const source = fs.readFileSync(path.join(app, 'type-error.ts'), 'utf8').split('\n');
    const marked = source.flatMap((line, i) => (/\/\/ expect-error/.test(line) ? [i + 1] : []));
    expect(marked).to.have.length.greaterThan(2);
    const checked = await tsc(app, 'type-error.ts', false);
    expect(checked.code).to.not.equal(0);
    const errorLines = [...checked.stdout.matchAll(/^type-error\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) =>
      Number(m[1]),
    );
    expect([...new Set(errorLines)], checked.stdout).to.deep.equal(marked);
  });
});
