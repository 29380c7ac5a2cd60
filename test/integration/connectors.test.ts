/**
 * Connector publishing end to end, through the real API on the real FerretDB (the bundles are stored
 * there) with deliveries of `connector.version_published` by the real webhook workflow: publisher keys
 * made in the test, the committed test vectors (test/fixtures/connectors, made by generate.ts), and
 * hostile archives built here with tar-stream's packer (links and devices as tar headers, a gzip bomb).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { pack as tarPack, type Header } from 'tar-stream';
import { createKey, createOrg } from '../../src/keys';
import { MB } from '../../src/shared/connectors';
import { h, request } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import {
  makeTar,
  makeVectorTar,
  OTHER_SEED_HEX,
  privateKeyFromSeed,
  PUBLISHER_SEED_HEX,
  rawPublicKey,
  VECTORS_DIR,
} from '../fixtures/connectors/generate';

const vectors = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'vectors.json'), 'utf8'));

/** An organization with secret keys in both modes. */
async function newPublisherOrg() {
  const org = await createOrg(`Publisher ${Math.random().toString(36).slice(2, 8)}`);
  const testKey = (await createKey({ orgId: org.id, mode: 'test', kind: 'secret' })).key;
  const liveKey = (await createKey({ orgId: org.id, mode: 'live', kind: 'secret' })).key;
  return { orgId: org.id, testKey, liveKey };
}
type Org = Awaited<ReturnType<typeof newPublisherOrg>>;

/** A fresh Ed25519 key pair. */
const newKeyPair = () => crypto.generateKeyPairSync('ed25519');
const pem = (k: crypto.KeyObject) => k.export({ format: 'pem', type: 'spki' }) as string;
const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest();
/** The signing rule: Ed25519 over the raw 32-byte SHA-256 digest of the bundle bytes. */
const sign = (bundle: Buffer, privateKey: crypto.KeyObject) =>
  crypto.sign(null, sha256(bundle), privateKey).toString('base64');

let idCounter = 0;
/** A connector id no other test uses. */
const freshId = (stem = 'crm') => `com.test${Date.now().toString(36)}${idCounter++}.${stem}`;

const manifestOf = (id: string, version = '1.0.0', extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, version, name: `Connector ${id}`, ...extra });
/** A well-formed gzip'd bundle for `id`@`version`. */
async function bundleOf(
  id: string,
  version = '1.0.0',
  files: [string, string | Buffer][] = [['index.js', 'module.exports = {};\n']],
) {
  return zlib.gzipSync(await makeTar([['connector.json', manifestOf(id, version)], ...files]));
}

/** A tar of raw tar-stream headers (any type: links, devices, absolute names...), each with its content. */
async function rawTar(
  entries: [Partial<Header> & { name: string; pax?: Record<string, string> }, (string | Buffer)?][],
): Promise<Buffer> {
  const pack = tarPack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => chunks.push(Buffer.from(c as Uint8Array)));
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const [header, content] of entries)
    pack.entry({ mode: 0o644, mtime: new Date(0), ...header } as Header, content ?? '');
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function registerKey(apiKey: string, publicKey: string, extra: Record<string, unknown> = {}) {
  const res = await request('POST', '/v1/publisher_keys', { key: apiKey, body: { public_key: publicKey, ...extra } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

function publish(
  apiKey: string,
  id: string,
  bundle: Buffer | string,
  signature: string,
  headers: Record<string, string> = {},
) {
  const b64 = typeof bundle === 'string' ? bundle : bundle.toString('base64');
  return request('POST', `/v1/connectors/${id}/versions`, { key: apiKey, body: { bundle: b64, signature }, headers });
}

async function download(apiKey: string, id: string, version: string) {
  const res = await fetch(`${h().api.url}/v1/connectors/${id}/versions/${version}/bundle`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('connectors', function () {
  this.timeout(120_000);
  let a: Org;
  let b: Org;
  const aKeys = newKeyPair();
  const bKeys = newKeyPair();

  before(async () => {
    a = await newPublisherOrg();
    b = await newPublisherOrg();
    await registerKey(a.testKey, pem(aKeys.publicKey), { name: 'ci' });
    await registerKey(b.testKey, pem(bKeys.publicKey));
  });

  /** Expects a 400 `bundle_invalid` with `reason`, and that nothing of the connector was stored. */
  async function expectRefused(id: string, bundle: Buffer, reason: string, messagePart: RegExp) {
    const res = await publish(a.testKey, id, bundle, sign(bundle, aKeys.privateKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error).to.include({
      type: 'invalid_request_error',
      code: 'bundle_invalid',
      param: 'bundle',
      reason,
    });
    expect(res.body.error.message).to.match(messagePart);
    const got = await request('GET', `/v1/connectors/${id}`, { key: a.testKey });
    expect(got.status).to.equal(404);
    return res.body.error;
  }

  describe('publisher keys', () => {
    it('registers Ed25519 keys as PEM or raw base64, with a fingerprint, and lists them', async () => {
      const org = await newPublisherOrg();
      const k1 = newKeyPair();
      const k2 = newKeyPair();
      const raw2 = Buffer.from((k2.publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url');
      const first = await registerKey(org.testKey, pem(k1.publicKey), { name: 'laptop' });
      expect(first.id).to.match(/^pkey_[0-9a-z]{26}$/);
      expect(first).to.include({
        object: 'publisher_key',
        livemode: false,
        name: 'laptop',
        algorithm: 'ed25519',
        status: 'active',
        expires_at: null,
        revoked_at: null,
      });
      const raw1 = Buffer.from((k1.publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url');
      expect(first.public_key).to.equal(raw1.toString('base64'));
      expect(first.fingerprint).to.equal('SHA256:' + sha256(raw1).toString('base64').replace(/=+$/, ''));
      const second = await registerKey(org.testKey, raw2.toString('base64'));
      expect(second.public_key).to.equal(raw2.toString('base64'));

      const list = await request('GET', '/v1/publisher_keys', { key: org.testKey });
      expect(list.body).to.include({ object: 'list', url: '/v1/publisher_keys', has_more: false });
      expect(list.body.data.map((k: any) => k.id)).to.deep.equal([second.id, first.id]);
      const got = await request('GET', `/v1/publisher_keys/${first.id}`, { key: org.testKey });
      expect(got.body).to.deep.equal(first);
      // Keys are per mode.
      const live = await request('GET', '/v1/publisher_keys', { key: org.liveKey });
      expect(live.body.data).to.deep.equal([]);
      expect((await request('GET', `/v1/publisher_keys/${first.id}`, { key: org.liveKey })).status).to.equal(404);
    });

    it('refuses private keys, other algorithms, bad encodings, duplicates and past expiries, naming the param', async () => {
      const org = await newPublisherOrg();
      const ed = newKeyPair();
      const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const cases: [Record<string, unknown>, string, string, RegExp?][] = [
        [
          { public_key: ed.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string },
          'public_key',
          'parameter_invalid',
          /PRIVATE key/,
        ],
        [{ public_key: pem(rsa.publicKey) }, 'public_key', 'parameter_invalid', /only Ed25519/],
        [{ public_key: Buffer.alloc(31, 7).toString('base64') }, 'public_key', 'parameter_invalid'],
        [{ public_key: 'not a key' }, 'public_key', 'parameter_invalid'],
        [{}, 'public_key', 'parameter_missing'],
        [
          { public_key: pem(ed.publicKey), expires_at: Math.floor(Date.now() / 1000) - 10 },
          'expires_at',
          'parameter_invalid',
        ],
        [{ public_key: pem(ed.publicKey), algorithm: 'rsa' }, 'algorithm', 'parameter_unknown'],
      ];
      for (const [body, param, code, message] of cases) {
        const res = await request('POST', '/v1/publisher_keys', { key: org.testKey, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error, JSON.stringify(body)).to.include({ param, code });
        if (message) expect(res.body.error.message).to.match(message);
      }
      const created = await registerKey(org.testKey, pem(ed.publicKey));
      const again = await request('POST', '/v1/publisher_keys', {
        key: org.testKey,
        body: { public_key: pem(ed.publicKey) },
      });
      expect(again.status).to.equal(409);
      expect(again.body.error).to.include({ code: 'publisher_key_exists', param: 'public_key' });
      expect(again.body.error.message).to.contain(created.id);
    });

    it('needs connectors:write to register or revoke, connectors:read to list', async () => {
      const reader = (
        await createKey({ orgId: a.orgId, mode: 'test', kind: 'restricted', scopes: ['connectors:read'] })
      ).key;
      const denied = await request('POST', '/v1/publisher_keys', {
        key: reader,
        body: { public_key: pem(newKeyPair().publicKey) },
      });
      expect(denied.status).to.equal(403);
      expect(denied.body.error).to.include({ code: 'scope_missing' });
      expect((await request('GET', '/v1/publisher_keys', { key: reader })).status).to.equal(200);
      const upload = await publish(reader, freshId(), Buffer.from('x'), Buffer.alloc(64).toString('base64'));
      expect(upload.status).to.equal(403);
      expect(upload.body.error).to.include({ code: 'scope_missing' });
      const calls = (await createKey({ orgId: a.orgId, mode: 'test', kind: 'restricted', scopes: ['calls:read'] })).key;
      expect((await request('GET', '/v1/connectors', { key: calls })).status).to.equal(403);
    });
  });

  describe('test vectors (README)', () => {
    it('are consistent: the bundle file, its digest, the key of RFC 8032 TEST 1 and deterministic signatures', async () => {
      const bundle = fs.readFileSync(path.join(VECTORS_DIR, vectors.bundle_file));
      expect(bundle.toString('base64')).to.equal(vectors.bundle_base64);
      expect(bundle.length).to.equal(vectors.bundle_size);
      expect(sha256(bundle).toString('hex')).to.equal(vectors.bundle_sha256);
      const key = privateKeyFromSeed(PUBLISHER_SEED_HEX);
      expect(Buffer.from(rawPublicKey(key), 'base64').toString('hex')).to.equal(
        'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
      ); // RFC 8032 TEST 1
      expect(rawPublicKey(key)).to.equal(vectors.public_key);
      expect(sign(bundle, key)).to.equal(vectors.signature);
      const pub = crypto.createPublicKey(vectors.public_key_pem);
      expect(crypto.verify(null, sha256(bundle), pub, Buffer.from(vectors.signature, 'base64'))).to.equal(true);
      for (const bad of Object.values(vectors.invalid_signatures) as string[]) {
        expect(crypto.verify(null, sha256(bundle), pub, Buffer.from(bad, 'base64'))).to.equal(false);
      }
      // The script made them: the same tar inside, the same (deterministic) signatures.
      expect(zlib.gunzipSync(bundle).equals(await makeVectorTar())).to.equal(true);
      expect(crypto.sign(null, Buffer.from(sha256(bundle).toString('hex')), key).toString('base64')).to.equal(
        vectors.invalid_signatures.over_hex_digest,
      );
      expect(sign(bundle, privateKeyFromSeed(OTHER_SEED_HEX))).to.equal(vectors.invalid_signatures.by_unregistered_key);
      // The README gives them.
      const readme = fs.readFileSync(path.join(VECTORS_DIR, '../../../README.md'), 'utf8');
      for (const value of [
        vectors.public_key,
        vectors.bundle_base64,
        vectors.bundle_sha256,
        vectors.signature,
        ...Object.values(vectors.invalid_signatures),
      ])
        expect(readme).to.contain(value);
    });

    it('publish through the API: each invalid signature is refused, saying why; the valid one is accepted', async () => {
      const org = await newPublisherOrg();
      await registerKey(org.testKey, vectors.public_key);
      const expectations: [string, RegExp][] = [
        ['over_hex_digest', /over the hex SHA-256 digest as text/],
        ['over_raw_bundle', /over the raw bundle bytes/],
        ['by_unregistered_key', /matches none of this organization's 1 active publisher key/],
        ['one_bit_flipped', /matches none/],
      ];
      for (const [name, message] of expectations) {
        const res = await publish(
          org.testKey,
          vectors.connector_id,
          vectors.bundle_base64,
          vectors.invalid_signatures[name],
        );
        expect(res.status, name).to.equal(400);
        expect(res.body.error, name).to.include({ code: 'signature_invalid', param: 'signature' });
        expect(res.body.error.message, name).to.match(message);
      }
      // Each test run has its own database, and no other test uses the vectors' id.
      const ok = await publish(org.testKey, vectors.connector_id, vectors.bundle_base64, vectors.signature);
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body).to.include({
        connector: 'com.example.crm',
        version: '1.0.0',
        sha256: vectors.bundle_sha256,
        size: vectors.bundle_size,
      });
    });
  });

  describe('versions', () => {
    it('publishes a signed bundle and answers the version, the connector, the lists and the exact bytes', async () => {
      const id = freshId();
      const bundle = await bundleOf(id, '1.0.0');
      const res = await publish(a.testKey, id, bundle, sign(bundle, aKeys.privateKey));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const keyId = (await request('GET', '/v1/publisher_keys', { key: a.testKey })).body.data.find(
        (k: any) => k.name === 'ci',
      ).id;
      expect(res.body.id).to.match(/^cver_[0-9a-z]{26}$/);
      expect(res.body).to.deep.include({
        object: 'connector_version',
        livemode: false,
        connector: id,
        version: '1.0.0',
        sha256: sha256(bundle).toString('hex'),
        size: bundle.length,
        key_id: keyId,
        manifest: { id, version: '1.0.0', name: `Connector ${id}` },
      });
      expect(res.body.created).to.be.closeTo(Date.now() / 1000, 120);

      const bundle2 = await bundleOf(id, '1.1.0-beta.1');
      expect((await publish(a.testKey, id, bundle2, sign(bundle2, aKeys.privateKey))).status).to.equal(200);

      const connector = await request('GET', `/v1/connectors/${id}`, { key: a.testKey });
      expect(connector.body).to.deep.include({
        id,
        object: 'connector',
        livemode: false,
        name: `Connector ${id}`,
        latest_version: '1.0.0',
        versions: 2,
      });
      const list = await request('GET', '/v1/connectors?limit=100', { key: a.testKey });
      expect(list.body).to.include({ object: 'list', url: '/v1/connectors' });
      expect(list.body.data.find((c: any) => c.id === id)).to.deep.equal(connector.body);
      expect(JSON.stringify(list.body)).to.not.contain(bundle.toString('base64').slice(0, 40));

      const versions = await request('GET', `/v1/connectors/${id}/versions`, { key: a.testKey });
      expect(versions.body.data.map((v: any) => v.version)).to.deep.equal(['1.1.0-beta.1', '1.0.0']);
      expect(versions.body.data[1]).to.deep.equal(res.body);
      const one = await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: a.testKey });
      expect(one.body).to.deep.equal(res.body);

      const dl = await download(a.testKey, id, '1.0.0');
      expect(dl.status).to.equal(200);
      expect(dl.bytes.equals(bundle)).to.equal(true);
      expect(dl.headers.get('content-type')).to.equal('application/gzip');
      expect(dl.headers.get('repr-digest')).to.equal(`sha-256=:${sha256(bundle).toString('base64')}:`);
      expect((await download(a.testKey, id, '9.9.9')).status).to.equal(404);
      expect((await download(b.testKey, id, '1.0.0')).status).to.equal(404);
    });

    it('pages the connectors list with connector ids as cursors, newest first', async () => {
      const org = await newPublisherOrg();
      const keys = newKeyPair();
      await registerKey(org.testKey, pem(keys.publicKey));
      const ids = [freshId('one'), freshId('two'), freshId('three')];
      for (const id of ids) {
        const bundle = await bundleOf(id);
        expect((await publish(org.testKey, id, bundle, sign(bundle, keys.privateKey))).status).to.equal(200);
      }
      const first = await request('GET', '/v1/connectors?limit=2', { key: org.testKey });
      expect(first.body.data.map((c: any) => c.id)).to.deep.equal([ids[2], ids[1]]);
      expect(first.body.has_more).to.equal(true);
      const next = await request('GET', `/v1/connectors?limit=2&starting_after=${ids[1]}`, { key: org.testKey });
      expect(next.body.data.map((c: any) => c.id)).to.deep.equal([ids[0]]);
      expect(next.body.has_more).to.equal(false);
      const back = await request('GET', `/v1/connectors?ending_before=${ids[0]}`, { key: org.testKey });
      expect(back.body.data.map((c: any) => c.id)).to.deep.equal([ids[2], ids[1]]);
      const bad = await request('GET', '/v1/connectors?starting_after=com.nobody.here', { key: org.testKey });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ param: 'starting_after' });
    });

    it('accepts a bundle of almost 10 MB (the route’s own body limit) and returns it byte for byte', async () => {
      const id = freshId('big');
      const tar = await makeTar([
        ['connector.json', manifestOf(id)],
        ['blob.bin', crypto.randomBytes(10 * MB - 4096)],
      ]);
      expect(tar.length).to.be.at.most(10 * MB);
      const res = await publish(a.testKey, id, tar, sign(tar, aKeys.privateKey));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.size).to.equal(tar.length);
      const dl = await download(a.testKey, id, '1.0.0');
      expect(dl.headers.get('content-type')).to.equal('application/x-tar');
      expect(dl.bytes.length).to.equal(tar.length);
      expect(dl.bytes.equals(tar)).to.equal(true);
      // The rest of /v1 keeps its 1 MB limit.
      const agent = await request('POST', '/v1/agents', {
        key: a.testKey,
        body: { name: 'x', instructions: 'y'.repeat(2 * MB) },
      });
      expect(agent.status).to.equal(413);
      expect(agent.body.error.code).to.equal('body_too_large');
    });
  });

  describe('signatures', () => {
    it('refuses a signature over the hex digest, over the raw bundle or over the digest of the base64 text, saying which', async () => {
      const id = freshId();
      const bundle = await bundleOf(id);
      const cases: [Buffer, RegExp][] = [
        [Buffer.from(sha256(bundle).toString('hex'), 'ascii'), /over the hex SHA-256 digest as text/],
        [bundle, /over the raw bundle bytes instead of their 32-byte SHA-256 digest/],
        [sha256(bundle.toString('base64')), /over the SHA-256 of the base64 text/],
      ];
      for (const [message, expected] of cases) {
        const res = await publish(
          a.testKey,
          id,
          bundle,
          crypto.sign(null, message, aKeys.privateKey).toString('base64'),
        );
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'signature_invalid', param: 'signature' });
        expect(res.body.error.message).to.match(expected);
        expect(res.body.error.message).to.contain('raw 32-byte SHA-256 digest');
      }
      const malformed = await publish(a.testKey, id, bundle, 'AAAA');
      expect(malformed.status).to.equal(400);
      expect(malformed.body.error).to.include({ code: 'parameter_invalid', param: 'signature' });
      expect((await request('GET', `/v1/connectors/${id}`, { key: a.testKey })).status).to.equal(404);
    });

    it('rotates keys: two active keys both sign; a revoked key signs nothing more, and the refusal says so', async () => {
      const org = await newPublisherOrg();
      const oldKeys = newKeyPair();
      const newKeys = newKeyPair();
      const oldKey = await registerKey(org.testKey, pem(oldKeys.publicKey));
      const newKey = await registerKey(org.testKey, pem(newKeys.publicKey));
      const id = freshId();
      const v1 = await bundleOf(id, '1.0.0');
      const v2 = await bundleOf(id, '1.0.1');
      expect((await publish(org.testKey, id, v1, sign(v1, oldKeys.privateKey))).body.key_id).to.equal(oldKey.id);
      expect((await publish(org.testKey, id, v2, sign(v2, newKeys.privateKey))).body.key_id).to.equal(newKey.id);

      const revoked = await request('DELETE', `/v1/publisher_keys/${oldKey.id}`, { key: org.testKey });
      expect(revoked.status).to.equal(200);
      expect(revoked.body).to.include({ id: oldKey.id, status: 'revoked' });
      expect(revoked.body.revoked_at).to.be.a('number');
      const again = await request('DELETE', `/v1/publisher_keys/${oldKey.id}`, { key: org.testKey });
      expect(again.body.revoked_at).to.equal(revoked.body.revoked_at);

      const v3 = await bundleOf(id, '1.0.2');
      const refused = await publish(org.testKey, id, v3, sign(v3, oldKeys.privateKey));
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.include({ code: 'signature_invalid', param: 'signature' });
      expect(refused.body.error.message).to.contain(oldKey.id).and.to.contain('revoked');
      // A version published before the revocation stays published.
      expect((await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: org.testKey })).body.key_id).to.equal(
        oldKey.id,
      );
      expect((await publish(org.testKey, id, v3, sign(v3, newKeys.privateKey))).status).to.equal(200);
    });

    it('stops accepting a key after its expires_at', async () => {
      const org = await newPublisherOrg();
      const keys = newKeyPair();
      const key = await registerKey(org.testKey, pem(keys.publicKey), {
        expires_at: Math.floor(Date.now() / 1000) + 2,
      });
      expect(key.status).to.equal('active');
      const deadline = Date.now() + 30_000;
      while ((await request('GET', `/v1/publisher_keys/${key.id}`, { key: org.testKey })).body.status !== 'expired') {
        if (Date.now() > deadline) throw new Error('the key never expired');
        await new Promise((r) => setTimeout(r, 250));
      }
      const id = freshId();
      const bundle = await bundleOf(id);
      const res = await publish(org.testKey, id, bundle, sign(bundle, keys.privateKey));
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('signature_invalid');
      expect(res.body.error.message).to.contain('expired');
    });

    it('refuses a signature from a key of another organization', async () => {
      const id = freshId();
      const bundle = await bundleOf(id);
      const res = await publish(a.testKey, id, bundle, sign(bundle, bKeys.privateKey));
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('signature_invalid');
      expect(res.body.error.message).to.match(/matches none/);
    });
  });

  describe('hostile archives', () => {
    it('refuses an absolute path', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: '/etc/cron.d/evil' }, '* * * * * root sh\n'],
        ]),
        'path_absolute',
        /"\/etc\/cron.d\/evil" has an absolute path/,
      );
    });

    it('refuses a .. path segment, also when hidden in a pax header', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: 'lib/../../evil.js' }, 'x'],
        ]),
        'path_traversal',
        /'\.\.' path segment/,
      );
      const pax = await rawTar([
        [{ name: 'connector.json' }, manifestOf(id)],
        [{ name: 'innocent.js', pax: { path: '../../.bashrc' } }, 'x'],
      ]);
      await expectRefused(id, zlib.gzipSync(pax), 'path_traversal', /"\.\.\/\.\.\/\.bashrc"/);
    });

    it('refuses a symbolic link', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: 'passwd', type: 'symlink', linkname: '/etc/passwd' }],
        ]),
        'link',
        /symbolic link/,
      );
    });

    it('refuses a hard link', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: 'copy.json', type: 'link', linkname: 'connector.json' }],
        ]),
        'link',
        /hard link/,
      );
    });

    it('refuses a device file', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: 'null', type: 'character-device', devmajor: 1, devminor: 3 }],
        ]),
        'device',
        /character device/,
      );
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: 'sda', type: 'block-device', devmajor: 8, devminor: 0 }],
        ]),
        'device',
        /block device/,
      );
      await expectRefused(
        id,
        await rawTar([[{ name: 'connector.json' }, manifestOf(id)], [{ name: 'pipe', type: 'fifo' }]]),
        'entry_type_unsupported',
        /FIFO/,
      );
    });

    it('refuses more than 1,000 entries', async () => {
      const id = freshId();
      const files: [string, string][] = Array.from({ length: 1000 }, (_, i) => [`f/${i}.txt`, `${i}`]);
      const ok = zlib.gzipSync(await makeTar([['connector.json', manifestOf(id)], ...files.slice(0, 999)]));
      const tooMany = zlib.gzipSync(await makeTar([['connector.json', manifestOf(id)], ...files]));
      await expectRefused(id, tooMany, 'too_many_entries', /more than 1000 entries/);
      expect((await publish(a.testKey, id, ok, sign(ok, aKeys.privateKey))).status).to.equal(200);
    });

    it('refuses more than 50 MB uncompressed (a gzip bomb) without inflating past the cap', async () => {
      const id = freshId();
      const bomb = zlib.gzipSync(
        await makeTar([
          ['connector.json', manifestOf(id)],
          ['zeros.bin', Buffer.alloc(51 * MB)],
        ]),
        { level: 9 },
      );
      expect(bomb.length).to.be.below(200 * 1024);
      await expectRefused(id, bomb, 'too_large_uncompressed', /more than 52428800 bytes/);
    });

    it('refuses a bundle over 10 MB, in the decoded bytes and in the body', async () => {
      const id = freshId();
      const over = crypto.randomBytes(10 * MB + 1);
      const res = await publish(a.testKey, id, over, sign(over, aKeys.privateKey));
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'bundle_invalid', reason: 'too_large', param: 'bundle' });
      const huge = await publish(a.testKey, id, crypto.randomBytes(12 * MB), Buffer.alloc(64).toString('base64'));
      expect(huge.status).to.equal(400);
      expect(huge.body.error).to.include({ code: 'bundle_invalid', reason: 'too_large' });
    });

    it('refuses a missing manifest, or one at a subdirectory only', async () => {
      const id = freshId();
      await expectRefused(
        id,
        zlib.gzipSync(await makeTar([['index.js', 'x']])),
        'manifest_missing',
        /no connector.json at its root/,
      );
      await expectRefused(
        id,
        zlib.gzipSync(await makeTar([['pkg/connector.json', manifestOf(id)]])),
        'manifest_missing',
        /no connector.json/,
      );
    });

    it('refuses an invalid manifest', async () => {
      const id = freshId();
      const cases: [string, RegExp][] = [
        ['{not json', /not valid UTF-8 JSON/],
        ['[1,2]', /must be a JSON object/],
        [JSON.stringify({ version: '1.0.0', name: 'x' }), /"id" string/],
        [manifestOf(id, 'v1.0.0'), /semantic version/],
        [manifestOf(id, '1.0'), /semantic version/],
        [manifestOf(id, '1.0.0+build.7'), /no build metadata/],
        [JSON.stringify({ id, version: '1.0.0' }), /"name" must be a non-empty string/],
        [manifestOf(id, '1.0.0', { description: 42 }), /"description"/],
      ];
      for (const [manifest, message] of cases)
        await expectRefused(id, await makeTar([['connector.json', manifest]]), 'manifest_invalid', message);
    });

    it('refuses a manifest whose id is not the connector id of the path', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await bundleOf('com.someone.else'),
        'id_mismatch',
        /has id "com.someone.else", but this upload is for connector/,
      );
    });

    it('refuses the same path twice, and bytes that are no tar', async () => {
      const id = freshId();
      await expectRefused(
        id,
        await rawTar([
          [{ name: 'connector.json' }, manifestOf(id)],
          [{ name: './Connector.json' }, manifestOf(id, '2.0.0')],
        ]),
        'duplicate_entry',
        /more than once/,
      );
      await expectRefused(id, Buffer.from('just some text, not an archive'), 'tar_invalid', /not a readable tar/);
      await expectRefused(id, Buffer.from([0x1f, 0x8b, 1, 2, 3, 4]), 'gzip_invalid', /does not decompress/);
      const notBase64 = await publish(a.testKey, id, 'this is not base64!', Buffer.alloc(64).toString('base64'));
      expect(notBase64.body.error).to.include({ code: 'parameter_invalid', param: 'bundle' });
    });
  });

  describe('ids, ownership, immutability, modes', () => {
    it('refuses ids that are not lowercase reverse-DNS with two labels, naming id', async () => {
      const bundle = Buffer.from('x');
      for (const bad of [
        'crm',
        'Com.Example.crm',
        'com..crm',
        'com.-bad.crm',
        'com.example.crm-',
        'com_example.crm',
        '.com.example',
        `com.${'a'.repeat(64)}.crm`,
        `${'abc.'.repeat(63)}com`,
      ]) {
        const res = await publish(a.testKey, encodeURIComponent(bad), bundle, sign(bundle, aKeys.privateKey));
        expect(res.status, bad).to.equal(400);
        expect(res.body.error, bad).to.include({ code: 'parameter_invalid', param: 'id' });
        expect(res.body.error.message).to.contain('reverse-DNS');
        expect((await request('GET', `/v1/connectors/${encodeURIComponent(bad)}`, { key: a.testKey })).status).to.equal(
          400,
        );
      }
      const good = `io.x9${Date.now().toString(36)}.a-b.c1`;
      const ok = await bundleOf(good);
      expect((await publish(a.testKey, good, ok, sign(ok, aKeys.privateKey))).status).to.equal(200);
    });

    it('gives an id to the first organization that publishes it live: another gets 403 connector_owned_elsewhere, in either mode', async () => {
      await registerKey(a.liveKey, pem(aKeys.publicKey));
      await registerKey(b.liveKey, pem(bKeys.publicKey));
      const id = freshId();
      const mine = await bundleOf(id);
      expect((await publish(a.liveKey, id, mine, sign(mine, aKeys.privateKey))).status).to.equal(200);
      const theirs = await bundleOf(id, '2.0.0');
      const res = await publish(b.testKey, id, theirs, sign(theirs, bKeys.privateKey));
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ type: 'permission_error', code: 'connector_owned_elsewhere', param: 'id' });
      const live = await publish(b.liveKey, id, theirs, sign(theirs, bKeys.privateKey));
      expect(live.status).to.equal(403);
      expect(live.body.error.code).to.equal('connector_owned_elsewhere');
      expect((await request('GET', `/v1/connectors/${id}`, { key: b.testKey })).status).to.equal(404);
      expect((await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: a.liveKey })).body.sha256).to.equal(
        sha256(mine).toString('hex'),
      );
    });

    it('claims nothing with a test-mode publication: private to its organization, the id still free for a live owner', async () => {
      const id = freshId('squat');
      const squat = await bundleOf(id);
      expect((await publish(b.testKey, id, squat, sign(squat, bKeys.privateKey))).status).to.equal(200);
      // Another organization publishes the same id and version in test mode: its own, no version_exists.
      const mine = await bundleOf(id, '1.0.0', [['index.js', 'module.exports = { mine: true };\n']]);
      const test = await publish(a.testKey, id, mine, sign(mine, aKeys.privateKey));
      expect(test.status, JSON.stringify(test.body)).to.equal(200);
      expect((await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: a.testKey })).body.sha256).to.equal(
        sha256(mine).toString('hex'),
      );
      expect((await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: b.testKey })).body.sha256).to.equal(
        sha256(squat).toString('hex'),
      );
      // The real owner claims it live; the test-mode publisher is refused from then on, in both modes.
      const live = await publish(a.liveKey, id, mine, sign(mine, aKeys.privateKey));
      expect(live.status, JSON.stringify(live.body)).to.equal(200);
      const next = await bundleOf(id, '1.1.0');
      expect((await publish(b.testKey, id, next, sign(next, bKeys.privateKey))).body.error.code).to.equal(
        'connector_owned_elsewhere',
      );
      expect((await publish(b.liveKey, id, next, sign(next, bKeys.privateKey))).body.error.code).to.equal(
        'connector_owned_elsewhere',
      );
    });

    it('resolves a race for a new id between two organizations to one owner', async () => {
      for (let round = 0; round < 3; round++) {
        const id = freshId('race');
        const bundle = await bundleOf(id);
        const results = await Promise.all([
          publish(a.liveKey, id, bundle, sign(bundle, aKeys.privateKey)),
          publish(b.liveKey, id, bundle, sign(bundle, bKeys.privateKey)),
        ]);
        expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).to.deep.equal([
          200, 403,
        ]);
        const winner = results[0].status === 200 ? a : b;
        const loser = winner === a ? b : a;
        expect((await request('GET', `/v1/connectors/${id}`, { key: winner.liveKey })).status).to.equal(200);
        expect((await request('GET', `/v1/connectors/${id}`, { key: loser.liveKey })).status).to.equal(404);
      }
    });

    it('keeps a version immutable: the same bytes again are 200 with the stored version, other bytes 409 version_exists', async () => {
      const id = freshId();
      const bundle = await bundleOf(id, '3.1.4');
      const first = await publish(a.testKey, id, bundle, sign(bundle, aKeys.privateKey));
      expect(first.status).to.equal(200);
      const same = await publish(a.testKey, id, bundle, sign(bundle, aKeys.privateKey));
      expect(same.status).to.equal(200);
      expect(same.body).to.deep.equal(first.body);
      const other = await bundleOf(id, '3.1.4', [['index.js', 'module.exports = { changed: true };\n']]);
      const conflict = await publish(a.testKey, id, other, sign(other, aKeys.privateKey));
      expect(conflict.status).to.equal(409);
      expect(conflict.body.error).to.include({ code: 'version_exists' });
      expect(conflict.body.error.message).to.contain(first.body.sha256);
      expect((await download(a.testKey, id, '3.1.4')).bytes.equals(bundle)).to.equal(true);
      const versions = await request('GET', `/v1/connectors/${id}/versions`, { key: a.testKey });
      expect(versions.body.data).to.have.length(1);

      // Idempotency-Key: a retry replays the first answer.
      const next = await bundleOf(id, '3.2.0');
      const headers = { 'Idempotency-Key': `pub-${id}` };
      const r1 = await publish(a.testKey, id, next, sign(next, aKeys.privateKey), headers);
      const r2 = await publish(a.testKey, id, next, sign(next, aKeys.privateKey), headers);
      expect(r2.headers.get('idempotent-replayed')).to.equal('true');
      expect(r2.body).to.deep.equal(r1.body);
    });

    it('keeps test and live apart: keys, connectors and versions per mode; the id owned across modes', async () => {
      const org = await newPublisherOrg();
      const keys = newKeyPair();
      await registerKey(org.testKey, pem(keys.publicKey));
      const id = freshId();
      const testBundle = await bundleOf(id, '1.0.0');
      expect((await publish(org.testKey, id, testBundle, sign(testBundle, keys.privateKey))).status).to.equal(200);

      expect((await request('GET', '/v1/connectors', { key: org.liveKey })).body.data).to.deep.equal([]);
      expect((await request('GET', `/v1/connectors/${id}`, { key: org.liveKey })).status).to.equal(404);
      const liveBundle = await bundleOf(id, '1.0.0', [['index.js', 'module.exports = { live: true };\n']]);
      const noLiveKey = await publish(org.liveKey, id, liveBundle, sign(liveBundle, keys.privateKey));
      expect(noLiveKey.status).to.equal(400);
      expect(noLiveKey.body.error.code).to.equal('signature_invalid');
      expect(noLiveKey.body.error.message).to.contain('no active publisher key in this mode');

      await registerKey(org.liveKey, pem(keys.publicKey));
      const live = await publish(org.liveKey, id, liveBundle, sign(liveBundle, keys.privateKey));
      expect(live.status, JSON.stringify(live.body)).to.equal(200);
      expect(live.body).to.include({ livemode: true, version: '1.0.0', sha256: sha256(liveBundle).toString('hex') });
      const testVersion = await request('GET', `/v1/connectors/${id}/versions/1.0.0`, { key: org.testKey });
      expect(testVersion.body).to.include({ livemode: false, sha256: sha256(testBundle).toString('hex') });
      expect((await download(org.liveKey, id, '1.0.0')).bytes.equals(liveBundle)).to.equal(true);
      expect((await download(org.testKey, id, '1.0.0')).bytes.equals(testBundle)).to.equal(true);
      const liveEvents = await request('GET', '/v1/events?type=connector.version_published', { key: org.liveKey });
      expect(liveEvents.body.data.map((e: any) => e.data.object.id)).to.deep.equal([live.body.id]);
    });
  });

  describe('events', () => {
    let receiver: HttpsReceiver;
    before(async () => {
      receiver = await startHttpsReceiver();
    });
    after(async () => receiver?.close());

    it('emits connector.version_published once per version, delivered to subscribed endpoints', async () => {
      const org = await newPublisherOrg();
      const keys = newKeyPair();
      await registerKey(org.testKey, pem(keys.publicKey));
      const endpoint = await request('POST', '/v1/webhook-endpoints', {
        key: org.testKey,
        body: { url: receiver.url('/connectors'), events: ['connector.version_published'] },
      });
      expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(200);
      const id = freshId();
      const bundle = await bundleOf(id, '0.1.0');
      const published = await publish(org.testKey, id, bundle, sign(bundle, keys.privateKey));
      expect(published.status).to.equal(200);
      expect((await publish(org.testKey, id, bundle, sign(bundle, keys.privateKey))).status).to.equal(200); // same bytes: no second event

      await receiver.waitFor(
        (all) => all.some((r) => r.path === '/connectors'),
        30_000,
        'the connector.version_published webhook',
      );
      const hook = receiver.at('/connectors')[0];
      expect(hook.body).to.include({ type: 'connector.version_published', livemode: false });
      expect(hook.body.data.object).to.deep.equal(published.body);
      const events = await request('GET', '/v1/events?type=connector.version_published', { key: org.testKey });
      expect(events.body.data).to.have.length(1);
      expect(events.body.data[0].id).to.equal(hook.body.id);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/connectors')).to.have.length(1);
    });
  });
});
