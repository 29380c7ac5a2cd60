/**
 * The staff console's server side (issue 35), at the API level against the real servers: sign-in and the
 * session cookie (and behind a TLS proxy), one answer for every bad sign-in, growing delays after failed
 * sign-ins (never a lock-out of the owner) and their audit entries, idle and absolute expiry, sign-in
 * replacing the browser's earlier session, sign-out and user
 * disable, CSRF and Origin checks, roles (agent and viewer refusals), the test/live mode switch, a person's
 * reply with the staff user's id, take-over and hand-back, the live stream, the security headers, and that
 * no API secret key reaches the console except in the one answer that creates it.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DEMO_ADMIN_EMAIL, seedDemoUser } from '../../src/dev/seed';
import { config, setConfig, type Config } from '../../src/config';
import { ConsoleSession } from '../../src/models/users';
import { createUser, disableUser } from '../../src/services/users';
import { sessionId } from '../../src/services/console-sessions';
import { h, newTenant, request } from '../support/harness';
import { customerNumber, eventually, inbound, messagesOf, sleep } from '../support/conversations';
import { readStream } from '../support/widget';

/** A full secret key anywhere in a text. */
const SECRET_KEY = /svc_(sk|rk)_(test|live)_[A-Za-z0-9]{24,}/;

/** Every console answer's text, checked at the end for secret keys (except the key-creation answer). */
const seen: { what: string; text: string }[] = [];

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A request with the console's cookie (and CSRF token, unless told otherwise); records the answer. */
async function call(
  method: string,
  urlPath: string,
  opts: { cookie?: string; csrf?: string; body?: unknown; headers?: Record<string, string>; record?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.cookie) headers.Cookie = opts.cookie;
  if (opts.csrf) headers['X-CSRF-Token'] = opts.csrf;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(h().api.url + urlPath, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (opts.record !== false) seen.push({ what: `${method} ${urlPath}`, text: text + JSON.stringify([...res.headers]) });
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

interface Signed {
  cookie: string;
  csrf: string;
  session: any;
  setCookie: string;
}

async function signIn(email: string, password: string): Promise<Signed> {
  const res = await call('POST', '/console/api/session', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: res.body.csrf_token, session: res.body, setCookie };
}

const PASSWORD = 'correct horse battery';

/**
 * A sign-in from the local address `from` (any of 127.0.0.0/8 on Linux): the API sees it as the client's
 * IP address, as it would see two people's, without a proxy header to trust.
 */
function signInFrom(
  from: string,
  email: string,
  password: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const url = new URL('/console/api/session', h().api.url);
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('console API (issue 35)', function () {
  this.timeout(60_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  let saved: Config;
  let n = 0;
  const email = (role: string) => `${role}.${++n}.${Date.now()}@console.example`;
  const user = async (role: 'admin' | 'agent' | 'viewer') => {
    const u = await createUser({ orgId: t.orgId, email: email(role), role, password: PASSWORD });
    return { ...u, signed: await signIn(u.email, PASSWORD) };
  };

  before(async () => {
    t = await newTenant();
    saved = config();
    // Every test signs in from 127.0.0.1: the per-IP limit is tested on its own below.
    setConfig({ ...saved, consoleSigninPerIp: 0 });
  });
  after(() => setConfig(saved));

  it('signs in: the session object and an HttpOnly, SameSite=Lax cookie (not Secure over HTTP)', async () => {
    const u = await createUser({
      orgId: t.orgId,
      email: `  Mixed.${Date.now()}@Console.Example `,
      role: 'admin',
      password: PASSWORD,
    });
    expect(u.email).to.equal(u.email.toLowerCase().trim());
    const s = await signIn(u.email.toUpperCase(), PASSWORD);
    expect(s.session).to.deep.include({ object: 'console_session', mode: 'test' });
    expect(s.session.user).to.deep.equal({ id: u.id, object: 'user', email: u.email, role: 'admin', org_id: t.orgId });
    expect(s.session.org.id).to.equal(t.orgId);
    expect(s.session.csrf_token).to.be.a('string').with.length.greaterThan(20);
    expect(s.setCookie).to.match(/^svc_console=[A-Za-z0-9_-]{40,};/);
    expect(s.setCookie).to.include('HttpOnly').and.include('SameSite=Lax').and.include('Path=/');
    expect(s.setCookie).not.to.include('Secure');
    // The store holds the token's hash only.
    const token = s.cookie.split('=')[1];
    expect(await ConsoleSession.findById(token).lean()).to.equal(null);
    expect(await ConsoleSession.findById(sessionId(token)).lean()).to.include({ user_id: u.id, mode: 'test' });
    const again = await call('GET', '/console/api/session', { cookie: s.cookie });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(s.session);
    // The call page's link to the Temporal Web UI: TEMPORAL_UI_URL and the namespace.
    expect(s.session.temporal_ui_url).to.equal(`${config().temporalUiUrl}/namespaces/${config().temporalNamespace}`);
    const saved = config();
    setConfig({ ...saved, temporalUiUrl: 'https://temporal.example.com' });
    try {
      const moved = await call('GET', '/console/api/session', { cookie: s.cookie });
      expect(moved.body.temporal_ui_url).to.equal(`https://temporal.example.com/namespaces/${saved.temporalNamespace}`);
    } finally {
      setConfig(saved);
    }
    // The session works on /v1 as the organization.
    const calls = await call('GET', '/v1/calls', { cookie: s.cookie });
    expect(calls.status, calls.text).to.equal(200);
  });

  it('behind a TLS proxy (PUBLIC_BASE_URL https): a Secure __Host- cookie and its origin, whatever X-Forwarded-Proto says', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('admin'), role: 'admin', password: PASSWORD });
    const cfg = config();
    const publicOrigin = 'https://console.example.test';
    setConfig({ ...cfg, publicBaseUrl: publicOrigin });
    try {
      // The proxy speaks plain HTTP to the API; a client's X-Forwarded-Proto: http changes nothing.
      const res = await call('POST', '/console/api/session', {
        body: { email: u.email, password: PASSWORD },
        headers: { 'X-Forwarded-Proto': 'http' },
      });
      expect(res.status, res.text).to.equal(200);
      const setCookie = res.headers.get('set-cookie') ?? '';
      expect(setCookie).to.match(/^__Host-svc_console=[A-Za-z0-9_-]{40,}; /);
      expect(setCookie).to.include('; Secure').and.include('Path=/').and.include('HttpOnly');
      expect(setCookie).not.to.match(/Domain=/i);
      const cookie = setCookie.split(';')[0];
      const host = new URL(h().api.url).host;
      const mode = (origin: string, headers: Record<string, string> = {}) =>
        call('POST', '/console/api/session/mode', {
          cookie,
          csrf: res.body.csrf_token,
          body: { mode: 'live' },
          headers: { Origin: origin, ...headers },
        });
      // The CSRF origin is PUBLIC_BASE_URL's; the request's own scheme and host, forwarded or not, are not.
      expect((await mode(publicOrigin)).status).to.equal(200);
      for (const [origin, headers] of [
        [`http://${host}`, {}],
        [`https://${host}`, { 'X-Forwarded-Proto': 'https' }],
        ['https://evil.example', { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }],
      ] as [string, Record<string, string>][]) {
        const refused = await mode(origin, headers);
        expect(refused.status, origin).to.equal(403);
        expect(refused.body.error.code).to.equal('csrf_token_invalid');
      }
      // The plain-HTTP name is not this console's cookie any more.
      const plain = await call('GET', '/console/api/session', { cookie: `svc_console=${cookie.split('=')[1]}` });
      expect(plain.body.error.code).to.equal('session_missing');
      expect((await call('GET', '/console/api/session', { cookie })).status).to.equal(200);
    } finally {
      setConfig(cfg);
    }
    // Plain HTTP (development): the plain name, no Secure, even when a client says X-Forwarded-Proto: https.
    const dev = await call('POST', '/console/api/session', {
      body: { email: u.email, password: PASSWORD },
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(dev.headers.get('set-cookie'))
      .to.match(/^svc_console=/)
      .and.not.include('Secure');
  });

  it('answers a wrong password, an unknown email and a disabled user alike (401 credentials_invalid)', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('agent'), role: 'agent', password: PASSWORD });
    const off = await createUser({ orgId: t.orgId, email: email('agent'), role: 'agent', password: PASSWORD });
    await disableUser(off.id);
    const answers = [
      await call('POST', '/console/api/session', { body: { email: u.email, password: 'wrong password!' } }),
      await call('POST', '/console/api/session', {
        body: { email: `nobody.${Date.now()}@x.example`, password: PASSWORD },
      }),
      await call('POST', '/console/api/session', { body: { email: off.email, password: PASSWORD } }),
    ];
    for (const a of answers) {
      expect(a.status).to.equal(401);
      expect(a.body.error).to.include({
        type: 'authentication_error',
        code: 'credentials_invalid',
        message: 'Email or password is incorrect.',
      });
      expect(a.headers.get('set-cookie')).to.equal(null);
    }
    const none = await call('GET', '/console/api/session');
    expect(none.status).to.equal(401);
    expect(none.body.error.code).to.equal('session_missing');
  });

  it('counts only failures: one user signs in again and again', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('viewer'), role: 'viewer', password: PASSWORD });
    for (let i = 0; i < 8; i++) {
      const a = await signInFrom('127.0.0.1', u.email, PASSWORD);
      expect(a.status, `sign-in ${i + 1}`).to.equal(200);
    }
  });

  it('six wrong passwords from one address slow that address down with growing delays; the owner signs in from another', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('admin'), role: 'admin', password: PASSWORD });
    const guesser = '127.0.0.5';
    for (let i = 0; i < 5; i++)
      expect((await signInFrom(guesser, u.email, `wrong password ${i}`)).status, `guess ${i + 1}`).to.equal(401);
    // Past 5 failures, each further attempt waits: 1 s after the 5th, 2 s after the 6th, …
    const sixth = await signInFrom(guesser, u.email, 'wrong password 5');
    expect(sixth.status).to.equal(429);
    expect(sixth.body.error).to.include({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(sixth.body.error.message).to.include('for this email address from this IP address');
    expect(sixth.headers['retry-after']).to.equal('1');
    await sleep(1100);
    expect((await signInFrom(guesser, u.email, 'wrong password 5')).status, 'the 6th, after its delay').to.equal(401);
    const seventh = await signInFrom(guesser, u.email, 'wrong password 6');
    expect(seventh.status).to.equal(429);
    expect(seventh.headers['retry-after'], 'the delay doubled').to.equal('2');
    // The right password from the guessing address waits too; from the owner's address it signs in at once.
    expect((await signInFrom(guesser, u.email, PASSWORD)).status).to.equal(429);
    const owner = await signInFrom('127.0.0.6', u.email, PASSWORD);
    expect(owner.status, JSON.stringify(owner.body)).to.equal(200);
    expect(owner.body.user.id).to.equal(u.id);

    // Each refusal is in the organization's audit log, with the address it came from.
    let failed: any[] = [];
    for (let i = 0; i < 50 && failed.length < 9; i++) {
      const res = await request('GET', `/v1/audit_events?actor=${u.id}&limit=20`, { key: t.testKey });
      failed = (res.body.data ?? []).filter((e: any) => e.outcome.status !== 200);
      if (failed.length < 9) await sleep(100);
    }
    const codes = failed.map((e: any) => [e.action, e.outcome.status, e.outcome.error_code, e.ip]).reverse();
    expect(codes.filter((c) => c[1] === 401)).to.have.length(6);
    expect(codes.filter((c) => c[1] === 429)).to.have.length(3);
    for (const c of codes) {
      expect(c[0]).to.equal('POST /console/api/session');
      expect(c[3]).to.match(/127\.0\.0\.5$/);
    }
    expect(codes[0]).to.include('credentials_invalid');
  });

  it('slows down many addresses guessing one email, except an address the owner signed in from', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('admin'), role: 'admin', password: PASSWORD });
    const perEmail = config().consoleSigninPerEmail;
    setConfig({ ...config(), consoleSigninPerEmail: 1 }); // from all addresses together: 4 failures
    try {
      expect((await signInFrom('127.0.0.20', u.email, PASSWORD)).status, 'the owner, earlier').to.equal(200);
      for (let i = 21; i <= 24; i++)
        expect((await signInFrom(`127.0.0.${i}`, u.email, 'wrong password')).status).to.equal(401);
      const fifth = await signInFrom('127.0.0.25', u.email, PASSWORD);
      expect(fifth.status).to.equal(429);
      expect(fifth.body.error.message).to.include('for this email address:');
      expect((await signInFrom('127.0.0.20', u.email, PASSWORD)).status, "the owner's address").to.equal(200);
    } finally {
      setConfig({ ...config(), consoleSigninPerEmail: perEmail });
    }
  });

  it('slows down one address guessing many emails (CONSOLE_SIGNIN_PER_IP failures), not the others', async () => {
    const u = await createUser({ orgId: t.orgId, email: email('agent'), role: 'agent', password: PASSWORD });
    setConfig({ ...config(), consoleSigninPerIp: 3 });
    try {
      for (let i = 0; i < 3; i++)
        expect((await signInFrom('127.0.0.7', `ip.${i}.${Date.now()}@x.example`, PASSWORD)).status).to.equal(401);
      const limited = await signInFrom('127.0.0.7', `ip.3.${Date.now()}@x.example`, PASSWORD);
      expect(limited.status).to.equal(429);
      expect(limited.body.error.message).to.include('from this IP address');
      expect(limited.headers['retry-after']).to.match(/^\d+$/);
      expect((await signInFrom('127.0.0.7', u.email, PASSWORD)).status).to.equal(429);
      expect((await signInFrom('127.0.0.8', u.email, PASSWORD)).status).to.equal(200);
    } finally {
      setConfig({ ...config(), consoleSigninPerIp: 0 });
    }
  });

  it('ends a session 7 days after sign-in however active (CONSOLE_SESSION_MAX_AGE_MS)', async () => {
    const a = await user('agent');
    const token = a.signed.cookie.split('=')[1];
    // Used a minute ago, begun 7 days and a minute ago.
    await ConsoleSession.updateOne(
      { _id: sessionId(token) },
      {
        $set: { last_seen: Date.now() - 60_000, created: Math.floor((Date.now() - 7 * 24 * 3600_000 - 60_000) / 1000) },
      },
    );
    const expired = await call('GET', '/console/api/session', { cookie: a.signed.cookie });
    expect(expired.status).to.equal(401);
    expect(expired.body.error.code).to.equal('session_expired');
    expect(await ConsoleSession.findById(sessionId(token)).lean()).to.equal(null);
    // A shorter lifetime is the operator's to set.
    const b = await signIn(a.email, PASSWORD);
    setConfig({ ...config(), consoleSessionMaxAgeMs: 1000 });
    try {
      await sleep(2100);
      expect((await call('GET', '/console/api/session', { cookie: b.cookie })).body.error.code).to.equal(
        'session_expired',
      );
    } finally {
      setConfig({ ...config(), consoleSessionMaxAgeMs: saved.consoleSessionMaxAgeMs });
    }
  });

  it("signing in replaces the browser's earlier session (its cookie's session ends)", async () => {
    const a = await user('agent');
    const b = await createUser({ orgId: t.orgId, email: email('viewer'), role: 'viewer', password: PASSWORD });
    const res = await call('POST', '/console/api/session', {
      cookie: a.signed.cookie,
      body: { email: b.email, password: PASSWORD },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.user.id).to.equal(b.id);
    const old = await call('GET', '/console/api/session', { cookie: a.signed.cookie });
    expect(old.status).to.equal(401);
    expect(old.body.error.code).to.equal('session_missing');
    expect(await ConsoleSession.countDocuments({ user_id: a.id })).to.equal(0);
    const fresh = (res.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await call('GET', '/console/api/session', { cookie: fresh })).body.user.id).to.equal(b.id);
    // A failed sign-in ends nothing.
    const wrong = await call('POST', '/console/api/session', {
      cookie: fresh,
      body: { email: a.email, password: 'nope nope nope' },
    });
    expect(wrong.status).to.equal(401);
    expect((await call('GET', '/console/api/session', { cookie: fresh })).status).to.equal(200);
  });

  it('expires a session idle for 12 hours; sign-out and disable end one', async () => {
    const a = await user('agent');
    const token = a.signed.cookie.split('=')[1];
    await ConsoleSession.updateOne(
      { _id: sessionId(token) },
      { $set: { last_seen: Date.now() - 12 * 3600_000 - 1000 } },
    );
    const expired = await call('GET', '/console/api/session', { cookie: a.signed.cookie });
    expect(expired.status).to.equal(401);
    expect(expired.body.error).to.include({ type: 'authentication_error', code: 'session_expired' });
    expect((await call('GET', '/v1/calls', { cookie: a.signed.cookie })).status).to.equal(401);

    const b = await signIn(a.email, PASSWORD);
    const out = await call('DELETE', '/console/api/session', { cookie: b.cookie, csrf: b.csrf });
    expect(out.status, out.text).to.equal(200);
    expect(out.body).to.deep.equal({ object: 'console_session', deleted: true });
    expect(out.headers.get('set-cookie')).to.match(/^svc_console=;.*Max-Age=0/);
    const after = await call('GET', '/console/api/session', { cookie: b.cookie });
    expect(after.body.error.code).to.equal('session_missing');

    const c = await signIn(a.email, PASSWORD);
    expect((await call('GET', '/v1/contacts', { cookie: c.cookie })).status).to.equal(200);
    await disableUser(a.id);
    expect(await ConsoleSession.countDocuments({ user_id: a.id })).to.equal(0);
    expect((await call('GET', '/v1/contacts', { cookie: c.cookie })).status).to.equal(401);
  });

  it('refuses a cookie-authenticated write without the CSRF token, with a forged one, or from another origin', async () => {
    const a = await user('admin');
    const phone = customerNumber();
    const attempts = [
      await call('POST', '/v1/contacts', { cookie: a.signed.cookie, body: { phone } }),
      await call('POST', '/v1/contacts', {
        cookie: a.signed.cookie,
        csrf: 'forged-token-000000000000',
        body: { phone },
      }),
      await call('POST', '/v1/contacts', {
        cookie: a.signed.cookie,
        csrf: a.signed.csrf,
        headers: { Origin: 'https://evil.example' },
        body: { phone },
      }),
      await call('POST', '/console/api/session/mode', { cookie: a.signed.cookie, body: { mode: 'live' } }),
    ];
    for (const r of attempts) {
      expect(r.status, r.text).to.equal(403);
      expect(r.body.error).to.include({ type: 'permission_error', code: 'csrf_token_invalid' });
    }
    const list = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key: t.testKey });
    expect(list.body.data, 'no contact created').to.deep.equal([]);
    expect(
      (await call('GET', '/console/api/session', { cookie: a.signed.cookie })).body.mode,
      'mode unchanged',
    ).to.equal('test');
    // The same request with the token, from the console's own origin, works; a bearer key needs no token.
    const ok = await call('POST', '/v1/contacts', {
      cookie: a.signed.cookie,
      csrf: a.signed.csrf,
      headers: { Origin: h().api.url },
      body: { phone },
    });
    expect(ok.status, ok.text).to.equal(200);
    expect(
      (await request('POST', '/v1/contacts', { key: t.testKey, body: { phone: customerNumber() } })).status,
    ).to.equal(200);
  });

  it('keeps keys and users to admins; shows a new secret once and never again', async () => {
    const agent = await user('agent');
    for (const [method, p] of [
      ['GET', '/console/api/keys'],
      ['POST', '/console/api/keys'],
      ['GET', '/console/api/users'],
    ] as const) {
      const r = await call(method, p, {
        cookie: agent.signed.cookie,
        csrf: agent.signed.csrf,
        body: method === 'POST' ? { kind: 'secret' } : undefined,
      });
      expect(r.status, `${method} ${p}`).to.equal(403);
      expect(r.body.error).to.include({
        type: 'permission_error',
        code: 'scope_missing',
        message: 'An agent cannot manage API keys or staff users.',
      });
    }
    // Every role reads the staff directory: ids and emails only (who took a conversation).
    const staff = await call('GET', '/console/api/staff', { cookie: agent.signed.cookie });
    expect(staff.status, staff.text).to.equal(200);
    expect(staff.body.data).to.deep.include({ id: agent.id, object: 'user', email: agent.email });
    expect(staff.body.data.every((u: any) => Object.keys(u).sort().join() === 'email,id,object')).to.equal(true);
    expect((await call('GET', '/console/api/staff')).status, 'no session').to.equal(401);
    // An agent cannot reach webhook endpoints through /v1 either.
    const hooks = await call('GET', '/v1/webhook-endpoints', { cookie: agent.signed.cookie });
    expect(hooks.status).to.equal(403);
    expect(hooks.body.error.message).to.equal('An agent cannot see webhook endpoints.');

    const admin = await user('admin');
    const created = await call('POST', '/console/api/keys', {
      cookie: admin.signed.cookie,
      csrf: admin.signed.csrf,
      body: { kind: 'restricted', scopes: ['calls:read'] },
      record: false,
    });
    expect(created.status, created.text).to.equal(200);
    expect(created.body.key).to.match(/^svc_rk_test_/);
    expect((await request('GET', '/v1/calls', { key: created.body.key })).status).to.equal(200);
    const list = await call('GET', '/console/api/keys', { cookie: admin.signed.cookie });
    expect(list.status).to.equal(200);
    const listed = list.body.data.find((k: any) => k.id === created.body.id);
    expect(listed).to.include({ kind: 'restricted', livemode: false, revoked: null });
    expect(listed).not.to.have.property('key');
    expect(
      list.body.data.every((k: any) => k.livemode === false),
      'test-mode keys only',
    ).to.equal(true);
    const revoked = await call('POST', `/console/api/keys/${created.body.id}/revoke`, {
      cookie: admin.signed.cookie,
      csrf: admin.signed.csrf,
    });
    expect(revoked.status, revoked.text).to.equal(200);
    expect(revoked.body.revoked).to.be.a('number');
    expect((await request('GET', '/v1/calls', { key: created.body.key })).status).to.equal(401);
    const users = await call('GET', '/console/api/users', { cookie: admin.signed.cookie });
    expect(users.body.data.map((u: any) => u.id)).to.include.members([agent.id, admin.id]);
    expect(users.text).not.to.include('password');
  });

  it('writes an audit entry for each console action, in order, with the staff user as the actor (issue 36 item 4)', async () => {
    const admin = await user('admin');
    const cookie = admin.signed.cookie;
    const created = await call('POST', '/console/api/keys', {
      cookie,
      csrf: admin.signed.csrf,
      body: { kind: 'publishable' },
      record: false,
    });
    expect(created.status, created.text).to.equal(200);
    await call('POST', `/console/api/keys/${created.body.id}/revoke`, { cookie, csrf: admin.signed.csrf });
    const record = await call('POST', '/v1/contacts', {
      cookie,
      csrf: admin.signed.csrf,
      body: { phone: customerNumber(), name: 'Audit Person' },
    });
    expect(record.status, record.text).to.equal(200);
    const refused = await call('POST', '/v1/contacts', { cookie, csrf: 'forged', body: { phone: customerNumber() } });
    expect(refused.status).to.equal(403);
    await call('DELETE', '/console/api/session', { cookie, csrf: admin.signed.csrf });
    // Entries are written once each answer is sent: wait for the last one.
    let entries: any[] = [];
    for (let i = 0; i < 50 && entries.length < 6; i++) {
      const res = await request('GET', `/v1/audit_events?actor=${admin.id}&limit=20`, { key: t.testKey });
      entries = res.body.data ?? [];
      if (entries.length < 6) await new Promise((r) => setTimeout(r, 100));
    }
    expect(
      entries
        .slice()
        .reverse()
        .map((e: any) => [e.action, e.outcome.status]),
    ).to.deep.equal([
      ['POST /console/api/session', 200],
      ['POST /console/api/keys', 200],
      ['POST /console/api/keys/{id}/revoke', 200],
      ['POST /v1/contacts', 200],
      ['POST /v1/contacts', 403],
      ['DELETE /console/api/session', 200],
    ]);
    for (const e of entries) expect(e.actor).to.deep.equal({ type: 'user', id: admin.id });
    expect(entries[3].object_ids).to.include(created.body.id);
    expect(entries[2].object_ids).to.include(record.body.id);
    expect(entries[1].outcome.error_code).to.equal('csrf_token_invalid');
  });

  it('shows test or live data by the session mode, never both', async () => {
    const testPhone = customerNumber();
    const livePhone = customerNumber();
    expect((await request('POST', '/v1/contacts', { key: t.testKey, body: { phone: testPhone } })).status).to.equal(
      200,
    );
    expect((await request('POST', '/v1/contacts', { key: t.liveKey, body: { phone: livePhone } })).status).to.equal(
      200,
    );
    const v = await user('viewer');
    const phones = async () =>
      ((await call('GET', '/v1/contacts?limit=100', { cookie: v.signed.cookie })).body.data as any[]).map(
        (c) => c.phone,
      );
    expect(await phones())
      .to.include(testPhone)
      .and.not.include(livePhone);
    const live = await call('POST', '/console/api/session/mode', {
      cookie: v.signed.cookie,
      csrf: v.signed.csrf,
      body: { mode: 'live' },
    });
    expect(live.status, live.text).to.equal(200);
    expect(live.body.mode).to.equal('live');
    expect(await phones())
      .to.include(livePhone)
      .and.not.include(testPhone);
    const bad = await call('POST', '/console/api/session/mode', {
      cookie: v.signed.cookie,
      csrf: v.signed.csrf,
      body: { mode: 'both' },
    });
    expect(bad.status).to.equal(400);
  });

  it("stores a person's reply with the staff user's id; refuses a viewer's; takes over and hands back", async () => {
    const from = customerNumber();
    const first = await inbound(t.testKey, { channel: 'sms', from, text: 'Hello' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const convId = first.body.conversation_id as string;

    const viewer = await user('viewer');
    const before = (await messagesOf(t.testKey, convId)).length;
    const refused = await call('POST', '/v1/messages', {
      cookie: viewer.signed.cookie,
      csrf: viewer.signed.csrf,
      body: { channel: 'sms', to: from, text: 'viewer reply' },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({
      type: 'permission_error',
      code: 'scope_missing',
      message: 'A viewer cannot reply to conversations.',
    });
    const handoffRefused = await call('POST', `/v1/conversations/${convId}/handoff`, {
      cookie: viewer.signed.cookie,
      csrf: viewer.signed.csrf,
      body: {},
    });
    expect(handoffRefused.status).to.equal(403);

    const agent = await user('agent');
    const taken = await call('POST', `/v1/conversations/${convId}/handoff`, {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
      body: { reason: 'Refund request' },
    });
    expect(taken.status, taken.text).to.equal(200);
    expect(taken.body).to.include({
      id: convId,
      status: 'needs_person',
      taken_by: agent.id,
      handoff_reason: 'Refund request',
    });

    const reply = await call('POST', '/v1/messages', {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
      body: { channel: 'sms', to: from, text: '<img src=x onerror=alert(1)>' },
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.body).to.include({ author: 'person', user_id: agent.id, text: '<img src=x onerror=alert(1)>' });
    const stored = await eventually(
      async () => (await messagesOf(t.testKey, convId)).find((m) => m.id === reply.body.id && m.status !== 'queued'),
      'the reply delivered',
    );
    expect(stored).to.include({ author: 'person', user_id: agent.id, direction: 'outbound' });
    expect((await messagesOf(t.testKey, convId)).filter((m) => m.text === 'viewer reply')).to.deep.equal([]);
    expect(before).to.be.greaterThan(0);

    // An API key's hand-over has no staff user.
    const resumed = await call('POST', `/v1/conversations/${convId}/resume`, {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
    });
    expect(resumed.status, resumed.text).to.equal(200);
    expect(resumed.body).to.include({ status: 'open', taken_by: null, handoff_reason: null });
    const byKey = await request('POST', `/v1/conversations/${convId}/handoff`, { key: t.testKey, body: {} });
    expect(byKey.status, JSON.stringify(byKey.body)).to.equal(200);
    expect(byKey.body).to.include({ status: 'needs_person', taken_by: null });
    // A console user takes over a conversation already handed over: marked as theirs.
    const mine = await call('POST', `/v1/conversations/${convId}/handoff`, {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
      body: {},
    });
    expect(mine.body).to.include({ status: 'needs_person', taken_by: agent.id });
  });

  it('a take-over while the assistant is answering stops that answer: nothing sent or stored after it', async () => {
    const agent = await user('agent');
    const from = customerNumber();
    const asked = h().llm.requests.length;
    const posted = await inbound(t.testKey, { channel: 'whatsapp', from, text: 'SLOW 2500' });
    expect(posted.status).to.equal(200);
    const convId: string = posted.body.conversation_id;
    // The assistant's turn is under way: the LLM holds the request for 2.5 s.
    await eventually(
      async () =>
        h()
          .llm.requests.slice(asked)
          .some((r) => r.messages.at(-1)?.content === 'SLOW 2500') || null,
      'the LLM asked',
    );
    const taken = await call('POST', `/v1/conversations/${convId}/handoff`, {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
      body: {},
    });
    expect(taken.status, taken.text).to.equal(200);
    expect(taken.body).to.include({ status: 'needs_person', taken_by: agent.id });
    await eventually(
      async () =>
        h()
          .llm.requests.slice(asked)
          .some((r) => r.messages.at(-1)?.content === 'SLOW 2500' && r.answeredMs) || null,
      'the LLM answered',
    );
    await sleep(1_500); // time enough for a reply to be queued and sent, were it kept
    const messages = await messagesOf(t.testKey, convId);
    expect(messages.filter((m) => m.author === 'assistant')).to.deep.equal([]);
    expect(messages.map((m) => m.text)).to.deep.equal(['SLOW 2500']);
    // The person answers; the conversation stays theirs.
    const reply = await call('POST', '/v1/messages', {
      cookie: agent.signed.cookie,
      csrf: agent.signed.csrf,
      body: { channel: 'whatsapp', to: from, text: 'A person here.' },
    });
    expect(reply.status, reply.text).to.equal(200);
    const after = await messagesOf(t.testKey, convId);
    expect(after.map((m) => [m.author, m.text])).to.deep.equal([
      ['customer', 'SLOW 2500'],
      ['person', 'A person here.'],
    ]);
  });

  it('streams a new inbound message of the session org and mode within 2 s', async () => {
    const a = await user('agent');
    const from = customerNumber();
    const text = `stream check ${Date.now()}`;
    const reading = readStream(`${h().api.url}/console/api/stream`, {
      headers: { Cookie: a.signed.cookie },
      // The message, then its conversation.
      stop: (events) =>
        events.some((e) => e.event === 'message' && JSON.parse(e.data).text === text) &&
        events.some((e) => e.event === 'conversation' && JSON.parse(e.data).customer_number === from),
      timeoutMs: 15_000,
    });
    await sleep(500);
    const posted = await inbound(t.testKey, { channel: 'whatsapp', from, text });
    const postedAt = Date.now();
    expect(posted.status).to.equal(200);
    const read = await reading;
    const arrived = Date.now();
    expect(read.status).to.equal(200);
    expect(read.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(read.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    const message = read.events.find((e) => e.event === 'message' && JSON.parse(e.data).text === text)!;
    expect(message, 'the message event').to.not.equal(undefined);
    expect(arrived - postedAt, 'ms from stored to the stream').to.be.below(2_000);
    expect(JSON.parse(message.data)).to.include({ object: 'message', id: posted.body.id, author: 'customer' });
    expect(message.id).to.match(/^\d+$/);
    for (const e of read.events) {
      const d = JSON.parse(e.data);
      expect(d.livemode, 'test mode only').to.equal(false);
    }
    const conversationEvent = read.events.find(
      (e) => e.event === 'conversation' && JSON.parse(e.data).customer_number === from,
    );
    expect(JSON.parse(conversationEvent!.data)).to.include({ object: 'conversation', id: posted.body.conversation_id });

    // A take-over reaches the stream as the conversation's change.
    const takeOver = readStream(`${h().api.url}/console/api/stream`, {
      headers: { Cookie: a.signed.cookie },
      stop: (events) => events.some((e) => e.event === 'conversation' && JSON.parse(e.data).taken_by === a.id),
      timeoutMs: 15_000,
    });
    await sleep(500);
    const taken = await call('POST', `/v1/conversations/${posted.body.conversation_id}/handoff`, {
      cookie: a.signed.cookie,
      csrf: a.signed.csrf,
      body: {},
    });
    expect(taken.status, taken.text).to.equal(200);
    const takenAt = Date.now();
    const changed = await takeOver;
    expect(Date.now() - takenAt, 'live: the poller reads every 200 ms (room for a loaded machine)').to.be.below(5_000);
    const c = changed.events.find((e) => e.event === 'conversation' && JSON.parse(e.data).taken_by === a.id);
    expect(JSON.parse(c!.data)).to.include({ status: 'needs_person' });

    const unauthenticated = await readStream(`${h().api.url}/console/api/stream`, { timeoutMs: 2_000 });
    expect(unauthenticated.status).to.equal(401);
  });

  it('resumes the stream after Last-Event-ID: the message missed while away comes first, once', async () => {
    const a = await user('agent');
    const from = customerNumber();
    const first = `before the cut ${Date.now()}`;
    const missed = `while away ${Date.now()}`;
    const url = `${h().api.url}/console/api/stream`;
    const hasText = (text: string) => (e: { event: string; data: string }) =>
      e.event === 'message' && JSON.parse(e.data).text === text;
    const reading = readStream(url, {
      headers: { Cookie: a.signed.cookie },
      stop: (events) => events.some(hasText(first)),
      timeoutMs: 15_000,
    });
    await sleep(500);
    expect((await inbound(t.testKey, { channel: 'whatsapp', from, text: first })).status).to.equal(200);
    const before = await reading; // the connection is cut here
    const lastId = before.events.at(-1)!.id!;
    expect(lastId).to.match(/^\d{16}$/);
    const posted = await inbound(t.testKey, { channel: 'whatsapp', from, text: missed });
    expect(posted.status).to.equal(200);
    await sleep(600); // the poller has seen it, with nobody to send it to
    const again = await readStream(url, {
      headers: { Cookie: a.signed.cookie, 'Last-Event-ID': lastId },
      stop: (events) => events.some(hasText(missed)),
      timeoutMs: 10_000,
    });
    expect(again.status).to.equal(200);
    const caughtUp = again.events.filter(hasText(missed));
    expect(caughtUp, 'the missed message, once').to.have.length(1);
    expect(JSON.parse(caughtUp[0].data)).to.include({ id: posted.body.id, author: 'customer' });
    const ids = again.events.map((e) => Number(e.id));
    expect(ids.every((id) => id > Number(lastId))).to.equal(true);
    expect(ids).to.deep.equal([...ids].sort((x, y) => x - y));
    // Without Last-Event-ID (a first connection) nothing of before is sent.
    const fresh = await readStream(url, { headers: { Cookie: a.signed.cookie }, timeoutMs: 1_500 });
    expect(fresh.events.filter(hasText(missed))).to.deep.equal([]);
    // A malformed id is refused before the stream starts.
    const bad = await readStream(url, { headers: { Cookie: a.signed.cookie, 'Last-Event-ID': 'abc' } });
    expect(bad.status).to.equal(400);
  });

  it('sends the security headers on the app and the API', async () => {
    for (const p of ['/console', '/console/inbox/conv_123', '/console/api/session']) {
      const r = await call('GET', p);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp, p)
        .to.include("default-src 'self'")
        .and.include("script-src 'self'")
        .and.include("frame-ancestors 'none'");
      expect(csp).not.to.include('unsafe-inline');
      expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(r.headers.get('referrer-policy')).to.equal('same-origin');
      if (p.startsWith('/console/api')) expect(r.headers.get('cache-control')).to.equal('no-store');
      else expect([200, 503], p).to.include(r.status); // 503 "console not built" before the app's build
    }
  });

  it('serves the built app: its files, index.html for client-side routes, never for /console/api', async () => {
    const dir = path.resolve(__dirname, '../../console'); // dist/console, where the app's build writes
    const ours = !fs.existsSync(path.join(dir, 'index.html'));
    if (ours) {
      fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console test</title>');
      fs.writeFileSync(path.join(dir, 'assets', 'app-test.js'), 'console.log(1);');
    }
    try {
      const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
      for (const p of ['/console', '/console/', '/console/inbox/conv_123']) {
        const r = await call('GET', p);
        expect(r.status, p).to.equal(200);
        expect(r.headers.get('content-type')).to.match(/^text\/html/);
        expect(r.text).to.equal(index);
        expect(r.headers.get('content-security-policy')).to.include("script-src 'self'");
      }
      if (ours) {
        const asset = await call('GET', '/console/assets/app-test.js');
        expect(asset.status).to.equal(200);
        expect(asset.headers.get('content-type')).to.match(/javascript/);
        expect(asset.headers.get('x-content-type-options')).to.equal('nosniff');
      }
      const api = await call('GET', '/console/api/nothing-here');
      expect(api.status).to.equal(404);
      expect(api.body.error.code).to.equal('route_unknown');
    } finally {
      if (ours) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seeds the demo admin once for npm start and prints the same credentials at each start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-seed-'));
    try {
      const first = await seedDemoUser(dataDir, t.orgId);
      expect(first).to.include({ email: DEMO_ADMIN_EMAIL, created_now: true });
      const second = await seedDemoUser(dataDir, t.orgId);
      expect(second).to.deep.equal({ ...first, created_now: false });
      expect(fs.statSync(path.join(dataDir, 'demo-console.json')).mode & 0o777).to.equal(0o600);
      const s = await signIn(DEMO_ADMIN_EMAIL, first!.password);
      expect(s.session.user.role).to.equal('admin');
      // The file lost: the password is reset (and the old sessions end), the same user kept.
      fs.rmSync(path.join(dataDir, 'demo-console.json'));
      const third = await seedDemoUser(dataDir, t.orgId);
      expect(third!.user_id).to.equal(first!.user_id);
      expect(third!.password).not.to.equal(first!.password);
      expect((await call('GET', '/console/api/session', { cookie: s.cookie })).status).to.equal(401);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('never sends an API secret key to the console except the one key-creation answer', () => {
    expect(seen.length).to.be.greaterThan(20);
    for (const s of seen) expect(SECRET_KEY.test(s.text), s.what).to.equal(false);
  });
});
