/**
 * The `svcctl` CLI against the test database: JSON on stdout, keys that work (and stop working once
 * revoked), an organization's concurrency limits, usage errors with exit code 2, `--help` with exit code 0,
 * and an unreachable store named with the variable that chose its address.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import { createForm, phone, startCampaign } from '../support/bulk-calls';
import { KEY_CACHE_TTL_MS } from '../../src/keys';

const BIN = path.resolve(__dirname, '../../../bin/svcctl.js');

interface Run {
  code: number;
  /** stdout parsed as JSON (null when it is not: usage text). */
  out: any;
  err: string;
  /** stdout as printed. */
  text: string;
}

/** Runs svcctl with `env` as its only store settings (neither MONGODB_URI nor FERRETDB_PORT inherited). */
async function svcctlWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args], {
      env: { ...process.env, MONGODB_URI: undefined, FERRETDB_PORT: undefined, ...env },
    });
    let out: unknown = null;
    try {
      out = JSON.parse(stdout);
    } catch {
      // usage text
    }
    return { code: 0, out, err: stderr, text: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: null, err: err.stderr, text: err.stdout };
  }
}

/** Runs svcctl against the test store. */
const svcctl = (...args: string[]) => svcctlWith({ MONGODB_URI: h().ferret.uri }, ...args);

describe('svcctl', function () {
  this.timeout(60_000);

  it('creates an organization and keys, lists and revokes them', async () => {
    const org = await svcctl('orgs', 'create', '--name', 'CLI Org');
    expect(org.code).to.equal(0);
    expect(org.out).to.include({ object: 'organization', name: 'CLI Org' });
    expect(org.out.id).to.match(/^org_/);

    const secret = await svcctl('keys', 'create', '--org', org.out.id, '--mode', 'test', '--kind', 'secret');
    expect(secret.out.key).to.match(/^svc_sk_test_[A-Za-z0-9]{32}$/);
    expect(secret.out.id).to.match(/^key_/);
    expect((await request('GET', '/v1/calls', { key: secret.out.key })).status).to.equal(200);

    const restricted = await svcctl(
      'keys',
      'create',
      '--org',
      org.out.id,
      '--mode',
      'live',
      '--kind',
      'restricted',
      '--scopes',
      'calls:read,events:read',
    );
    expect(restricted.out.key).to.match(/^svc_rk_live_/);
    expect(restricted.out.scopes).to.deep.equal(['calls:read', 'events:read']);
    const live = await request('GET', '/v1/calls', { key: restricted.out.key });
    expect(live.status).to.equal(200);
    expect((await request('GET', '/v1/agents', { key: restricted.out.key })).status).to.equal(403);

    const list = await svcctl('keys', 'list', '--org', org.out.id);
    expect(list.out.map((k: any) => k.id)).to.have.members([secret.out.id, restricted.out.id]);
    expect(JSON.stringify(list.out)).to.not.contain(secret.out.key);
    expect(list.out.every((k: any) => !('key' in k))).to.equal(true);

    const revoked = await svcctl('keys', 'revoke', secret.out.id);
    expect(revoked.out.revoked).to.be.a('number');
    // Another process revoked it: the API's cache of verified keys honours that within KEY_CACHE_TTL_MS.
    const until = Date.now() + KEY_CACHE_TTL_MS + 2000;
    const statusNow = async () => (await request('GET', '/v1/calls', { key: secret.out.key })).status;
    let status = await statusNow();
    while (status !== 401 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      status = await statusNow();
    }
    expect(status, 'refused within the key cache bound').to.equal(401);
  });

  it('answers --help with the usage on stdout and exit code 0, of every command or of one', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const all = await svcctl(...args);
      expect(all.code, args.join(' ')).to.equal(0);
      expect(all.text).to.match(/^usage:\n/);
      for (const group of ['orgs', 'keys', 'bulk-calls', 'widget', 'limits', 'recordings'])
        expect(all.text).to.contain(`svcctl ${group} `);
    }
    const keys = await svcctl('keys', '--help');
    expect(keys.code).to.equal(0);
    expect(keys.text.trim().split('\n').slice(1)).to.have.length(3);
    expect(keys.text).to.contain('svcctl keys revoke KEY_ID');
    const create = await svcctl('keys', 'create', '--help');
    expect(create.code).to.equal(0);
    expect(create.text).to.contain('--kind secret|restricted|publishable');
    expect(create.text).to.not.contain('keys list');
    const unknown = await svcctl('nope', '--help');
    expect(unknown.code).to.equal(2);
    expect(unknown.err).to.contain('unknown command: nope');
  });

  it('says which address it tried and which variable set it when the store does not answer', async () => {
    const uri = await svcctlWith({ MONGODB_URI: 'mongodb://admin:hunter2@127.0.0.1:9/svc' }, 'orgs', 'list');
    expect(uri.code).to.equal(1);
    const message = JSON.parse(uri.err.split('\n')[0]).error.message;
    expect(message).to.contain('mongodb://admin:***@127.0.0.1:9/svc');
    expect(message).to.contain('MONGODB_URI');
    expect(message).to.not.contain('hunter2');
    const port = await svcctlWith({ FERRETDB_PORT: '9' }, 'orgs', 'list');
    expect(port.code).to.equal(1);
    expect(port.err).to.contain('mongodb://127.0.0.1:9/svc').and.to.contain('FERRETDB_PORT');
  });

  it('refuses bad input with a JSON error and a non-zero exit code', async () => {
    const usage = await svcctl('keys', 'create', '--org', 'org_x', '--mode', 'prod', '--kind', 'secret');
    expect(usage.code).to.equal(2);
    expect(JSON.parse(usage.err.split('\n')[0]).error.message).to.contain('--mode');
    const scopes = await svcctl('keys', 'create', '--org', 'org_missing', '--mode', 'test', '--kind', 'secret');
    expect(scopes.code).to.equal(1);
    expect(scopes.err).to.contain('No such organization');
    const badScope = await svcctl('orgs', 'create', '--name', 'X');
    const bad = await svcctl(
      'keys',
      'create',
      '--org',
      badScope.out.id,
      '--mode',
      'test',
      '--kind',
      'restricted',
      '--scopes',
      'calls:delete',
    );
    expect(bad.code).to.equal(1);
    expect(bad.err).to.contain('Unknown scope');
  });

  it('sets and shows an organization’s concurrency limit per mode, and refuses limits outside 1–1000', async () => {
    const org = await svcctl('orgs', 'create', '--name', 'Limits Org');
    const get = await svcctl('limits', 'get', '--org', org.out.id);
    expect(get.code, get.err).to.equal(0);
    expect(get.out).to.deep.equal({
      object: 'limits',
      org: org.out.id,
      live: { max_concurrent_calls: 10 },
      test: { max_concurrent_calls: 10 },
    });

    const set = await svcctl('limits', 'set', '--org', org.out.id, '--mode', 'live', '--max-concurrent-calls', '25');
    expect(set.code, set.err).to.equal(0);
    expect(set.out).to.deep.equal({ object: 'limits', org: org.out.id, mode: 'live', max_concurrent_calls: 25 });
    const edge = await svcctl('limits', 'set', '--org', org.out.id, '--mode', 'test', '--max-concurrent-calls', '1000');
    expect(edge.out).to.include({ mode: 'test', max_concurrent_calls: 1000 });
    expect((await svcctl('limits', 'get', '--org', org.out.id)).out).to.deep.include({
      live: { max_concurrent_calls: 25 },
      test: { max_concurrent_calls: 1000 },
    });

    for (const bad of ['0', '1001', '2.5', '-3', 'ten', '1e2', '']) {
      const args = ['limits', 'set', '--org', org.out.id, '--mode', 'live', `--max-concurrent-calls=${bad}`];
      const refused = await svcctl(...args);
      expect(refused.code, bad).to.equal(2);
      const message = JSON.parse(refused.err.split('\n')[0]).error.message;
      expect(message, bad).to.contain('--max-concurrent-calls');
      if (bad) expect(message, bad).to.contain(`'${bad}'`);
    }
    // A negative value as its own argument is an option to parseArgs: a usage error as well.
    const dash = await svcctl('limits', 'set', '--org', org.out.id, '--mode', 'live', '--max-concurrent-calls', '-3');
    expect(dash.code).to.equal(2);
    const mode = await svcctl('limits', 'set', '--org', org.out.id, '--mode', 'prod', '--max-concurrent-calls', '5');
    expect(mode.code).to.equal(2);
    expect(JSON.parse(mode.err.split('\n')[0]).error.message).to.contain('--mode');
    const missing = await svcctl('limits', 'set', '--org', org.out.id, '--mode', 'live');
    expect(missing.code).to.equal(2);
    const unknown = await svcctl(
      'limits',
      'set',
      '--org',
      'org_missing',
      '--mode',
      'live',
      '--max-concurrent-calls',
      '5',
    );
    expect(unknown.code).to.equal(1);
    expect(unknown.err).to.contain('No such organization: org_missing');
    const unknownGet = await svcctl('limits', 'get', '--org', 'org_missing');
    expect(unknownGet.code).to.equal(1);
    expect(unknownGet.err).to.contain('No such organization');

    // Nothing refused was written.
    expect((await svcctl('limits', 'get', '--org', org.out.id)).out).to.deep.include({
      live: { max_concurrent_calls: 25 },
      test: { max_concurrent_calls: 1000 },
    });
  });

  it('sets and shows an organization’s calls per second (pace), refusing values outside 1–100', async () => {
    const org = await svcctl('orgs', 'create', '--name', 'Pace Org');
    expect((await svcctl('pace', 'get', '--org', org.out.id)).out).to.deep.equal({
      object: 'pace',
      org: org.out.id,
      calls_per_second: 1,
    });
    const set = await svcctl('pace', 'set', '--org', org.out.id, '--calls-per-second', '3');
    expect(set.code, set.err).to.equal(0);
    expect(set.out).to.deep.equal({ object: 'pace', org: org.out.id, calls_per_second: 3 });
    for (const bad of ['0', '101', '1.5', 'ten', '']) {
      const refused = await svcctl('pace', 'set', '--org', org.out.id, `--calls-per-second=${bad}`);
      expect(refused.code, bad).to.equal(2);
      expect(JSON.parse(refused.err.split('\n')[0]).error.message, bad).to.contain('--calls-per-second');
    }
    expect((await svcctl('pace', 'get', '--org', org.out.id)).out).to.include({ calls_per_second: 3 });
    expect((await svcctl('pace', 'get', '--org', 'org_missing')).code).to.equal(1);
  });

  it('watches a campaign with a progress bar until it is over, then prints it', async () => {
    const t = await newTenant();
    const formId = await createForm(t.testKey);
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      contacts: [phone(901), phone(902), phone(903)],
      max_concurrency: 1,
      simulation: { caller: ['Hello', 'Bye'], pause_seconds: 0.5 },
    });
    const watched = await svcctl('bulk-calls', 'watch', campaign.id, '--interval-ms', '100');
    expect(watched.code, watched.err).to.equal(0);
    expect(watched.out).to.include({ id: campaign.id, object: 'bulk_call', status: 'completed' });
    expect(watched.out.counts).to.include({ total: 3, completed: 3, pending: 0 });
    const lines = watched.err.trim().split('\n');
    expect(lines.length, 'a line per change (stderr is not a terminal)').to.be.greaterThan(1);
    expect(lines[lines.length - 1]).to.match(/^\[#{30}\] 100% 3\/3 · completed 3 · .* · completed$/);
    expect(lines[0]).to.match(/^\[[#·]{30}\] +\d+% \d\/3 /);
    const missing = await svcctl('bulk-calls', 'watch', 'bulk_nope');
    expect(missing.code).to.equal(1);
    expect(missing.err).to.contain('No such bulk call');
  });
  it('creates staff users (a generated password shown once), lists, disables and resets them, ending sessions', async () => {
    const t = await newTenant();
    const email = `Staff.${Date.now()}@Example.com`;
    const made = await svcctl('users', 'create', '--org', t.orgId, '--email', email, '--role', 'agent');
    expect(made.code, made.err).to.equal(0);
    expect(made.out).to.include({
      object: 'user',
      org_id: t.orgId,
      email: email.toLowerCase(),
      role: 'agent',
      disabled: false,
    });
    expect(made.out.id).to.match(/^usr_/);
    expect(made.out.password).to.be.a('string').with.length.greaterThan(15);
    expect(JSON.stringify(made.out)).not.to.include('scrypt');
    const signIn = (password: string) =>
      fetch(`${h().api.url}/console/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    const session = await signIn(made.out.password);
    expect(session.status).to.equal(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
    const current = () => fetch(`${h().api.url}/console/api/session`, { headers: { Cookie: cookie } });
    expect((await current()).status).to.equal(200);

    const twice = await svcctl('users', 'create', '--org', t.orgId, '--email', email, '--role', 'viewer');
    expect(twice.code).to.equal(1);
    expect(JSON.parse(twice.err.split('\n')[0]).error.message).to.include('already exists');
    const badRole = await svcctl('users', 'create', '--org', t.orgId, '--email', 'x@example.com', '--role', 'owner');
    expect(badRole.code).to.equal(2);
    const shortPassword = await svcctl(
      'users',
      'create',
      '--org',
      t.orgId,
      '--email',
      'y@example.com',
      '--role',
      'viewer',
      '--password',
      'short',
    );
    expect(shortPassword.code).to.equal(1);

    const reset = await svcctl('users', 'reset-password', '--id', made.out.id, '--password', 'a new long password');
    expect(reset.code, reset.err).to.equal(0);
    expect(reset.out).not.to.have.property('password');
    expect((await current()).status, 'a reset ends the sessions').to.equal(401);
    expect((await signIn(made.out.password)).status).to.equal(401);
    const again = await signIn('a new long password');
    expect(again.status).to.equal(200);
    const cookie2 = (again.headers.get('set-cookie') ?? '').split(';')[0];

    const list = await svcctl('users', 'list', '--org', t.orgId);
    expect(list.out.map((u: { id: string }) => u.id)).to.deep.equal([made.out.id]);
    const off = await svcctl('users', 'disable', '--id', made.out.id);
    expect(off.out).to.include({ id: made.out.id, disabled: true });
    const after = await fetch(`${h().api.url}/console/api/session`, { headers: { Cookie: cookie2 } });
    expect(after.status, 'disable ends the sessions').to.equal(401);
    expect((await signIn('a new long password')).status).to.equal(401);
    expect((await svcctl('users', 'disable', '--id', 'usr_missing')).code).to.equal(1);
  });
});
