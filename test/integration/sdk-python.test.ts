/**
 * The Python SDK as a package, against the real service: scripts/sdk/py-package.sh builds its wheel with
 * `python -m build` from a clean copy outside the repository and installs it into a virtual environment
 * of its own (cached per set of dependencies, the wheel reinstalled each run); the samples of
 * sdk/python/examples are copied to an empty directory outside the repository, where `mypy --strict`
 * accepts the quickstart and rejects the deliberate mistakes of type_error.py, and the quickstart runs
 * against the service the harness started: an agent, a webhook endpoint, a test call polled to
 * `completed`, its transcript, the calls page by page, a typed 422, and a real delivery verified with
 * `webhooks.construct_event`, which returns it as a `CallEvent`. And a binary answer (a connector's bundle)
 * comes back as `bytes`, byte for byte what was published.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { makeTar } from '../fixtures/connectors/generate';

const ROOT = path.resolve(__dirname, '../../..');
const CACHE =
  process.env.SVC_CACHE_DIR ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'svc-assistant');

/** Runs `python args…` in `cwd` with `env` and `stdin`; resolves to its exit code and output. */
function run(python: string, args: string[], cwd: string, env: Record<string, string> = {}, stdin = '') {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn('nice', ['-n', '19', python, ...args], {
      cwd,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}

/** The JSON line a sample printed last; fails with its output when it exited non-zero. */
function lastJson(r: { code: number | null; out: string; err: string }): any {
  if (r.code !== 0) throw new Error(`sample exited ${r.code}: ${r.err}\n${r.out}`);
  const lines = r.out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

describe('Python SDK: the package, built and installed outside the repository', function () {
  this.timeout(240_000);
  let python: string;
  let dir: string;
  let receiver: HttpsReceiver;

  before(async function () {
    this.timeout(600_000);
    python = (await promisify(execFile)('bash', [path.join(ROOT, 'scripts/sdk/py-package.sh')])).stdout.trim();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sdk-python-'));
    for (const f of ['quickstart.py', 'type_error.py'])
      fs.copyFileSync(path.join(ROOT, 'sdk/python/examples', f), path.join(dir, f));
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is the installed wheel, not the repository: svc_assistant imports from the environment', () => {
    const where = execFileSync(python, ['-c', 'import svc_assistant; print(svc_assistant.__file__)'], {
      cwd: dir,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: '' },
      encoding: 'utf8',
    }).trim();
    expect(where.startsWith(path.dirname(path.dirname(python)))).to.equal(true, where);
    expect(where.startsWith(ROOT)).to.equal(false);
  });

  it('mypy --strict accepts the quickstart and the package, and rejects each mistake of type_error.py', async () => {
    const mypy = ['-m', 'mypy', '--strict', '--cache-dir', path.join(CACHE, 'mypy-sdk-python-sample')];
    const ok = await run(python, [...mypy, 'quickstart.py'], dir);
    expect(ok.code, ok.out + ok.err).to.equal(0);
    expect(ok.out).to.include('Success: no issues found');
    const bad = await run(python, [...mypy, 'type_error.py'], dir);
    expect(bad.code).to.equal(1);
    expect(bad.out).to.include(
      'type_error.py:8: error: Argument "to" to "create" of "Calls" has incompatible type "int"',
    );
    expect(bad.out).to.include('type_error.py:9: error: Unexpected keyword argument "temperature_typo"');
    expect(bad.out).to.include('type_error.py:10: error: "Call" has no attribute "duration_minutes"');
    expect(bad.out).to.include('Found 3 errors in 1 file');
    // The package itself, as installed (hand-written core and generated layer), is strict-clean too.
    const pkg = await run(python, [...mypy, '-p', 'svc_assistant'], dir);
    expect(pkg.code, pkg.out + pkg.err).to.equal(0);
  });

  it('runs the quickstart against the service: call, transcript, pages, a typed 422, a verified delivery', async () => {
    const tenant = await newTenant();
    // One call before the quickstart's, so that its pages of one call each are two pages.
    const earlier = await request('POST', '/v1/calls', {
      key: tenant.testKey,
      body: { to: '+14155550125', agent_id: tenant.agentId },
    });
    expect(earlier.status).to.equal(200);
    const started = Date.now();
    const seen = lastJson(
      await run(python, ['quickstart.py'], dir, {
        SVC_BASE_URL: h().api.url,
        SVC_API_KEY: tenant.testKey,
        SVC_WEBHOOK_URL: receiver.url('/sdk-python-sample'),
      }),
    );
    expect(Date.now() - started).to.be.below(60_000);
    expect(seen.status).to.equal('completed');
    expect(seen.metadata).to.deep.equal({ order: '42' });
    expect(seen.turns).to.include('caller: Hi, is my appointment at ten?');
    expect(seen.call_ids).to.deep.equal([seen.call_id, earlier.body.id]);
    expect(seen.error).to.include({ status: 422, code: 'whatsapp_window_closed' });
    expect(seen.error.request_id).to.be.a('string').and.not.equal('');

    await receiver.waitFor(
      (r) => r.some((x) => x.path === '/sdk-python-sample' && x.body?.data?.object?.id === seen.call_id),
      60_000,
      "the quickstart call's call.ended delivery",
    );
    const delivery = receiver.at('/sdk-python-sample').find((x) => x.body.data.object.id === seen.call_id)!;
    const verified = lastJson(
      await run(
        python,
        ['quickstart.py', 'webhook'],
        dir,
        { SVC_SIGNATURE: String(delivery.headers['svc-signature']), SVC_WEBHOOK_SECRET: seen.webhook_secret },
        delivery.rawBody,
      ),
    );
    expect(verified).to.deep.equal({ model: 'CallEvent', type: 'call.ended', call_id: seen.call_id });
    const forged = await run(
      python,
      ['quickstart.py', 'webhook'],
      dir,
      { SVC_SIGNATURE: String(delivery.headers['svc-signature']), SVC_WEBHOOK_SECRET: 'whsec_not_the_secret' },
      delivery.rawBody,
    );
    expect(forged.code).to.equal(1);
    expect(forged.err).to.include('SignatureVerificationError');
  });

  it('returns a binary answer as bytes: a connector bundle, byte for byte what was published', async () => {
    const tenant = await newTenant();
    const keys = crypto.generateKeyPairSync('ed25519');
    const publicKey = keys.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const registered = await request('POST', '/v1/publisher_keys', {
      key: tenant.testKey,
      body: { public_key: publicKey },
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const id = `com.sdkpython${Date.now().toString(36)}.crm`;
    const manifest = JSON.stringify({ id, version: '1.0.0', name: 'SDK bundle' });
    const bundle = zlib.gzipSync(
      await makeTar([
        ['connector.json', manifest],
        ['index.js', 'module.exports = {};\n'],
      ]),
    );
    const digest = crypto.createHash('sha256').update(bundle).digest();
    const signature = crypto.sign(null, digest, keys.privateKey).toString('base64');
    const published = await request('POST', `/v1/connectors/${id}/versions`, {
      key: tenant.testKey,
      body: { bundle: bundle.toString('base64'), signature },
    });
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    const script = [
      'import hashlib, json, os',
      'from svc_assistant import Svc',
      'svc = Svc(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"])',
      'data = svc.connectors.versions.download_bundle(os.environ["CONNECTOR_ID"], "1.0.0")',
      'print(json.dumps({"type": type(data).__name__, "sha256": hashlib.sha256(data).hexdigest()}))',
    ].join('\n');
    const got = lastJson(
      await run(python, ['-c', script], dir, {
        SVC_BASE_URL: h().api.url,
        SVC_API_KEY: tenant.testKey,
        CONNECTOR_ID: id,
      }),
    );
    expect(got).to.deep.equal({ type: 'bytes', sha256: digest.toString('hex') });
  });
});
