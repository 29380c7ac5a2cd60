/**
 * Helpers of the connector tests (test/integration/connector-installations.test.ts and the tests of
 * hostile inputs): a publishing organization with a registered key, and signed bundles published
 * through the real API.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { createKey, createOrg } from '../../src/keys';
import { makeTar } from '../fixtures/connectors/generate';
import { request } from './harness';

let counter = 0;
/** A connector id never used before (its last label `crm`: the model calls its tools `crm__<name>`). */
export const freshId = () => `com.inst${Date.now().toString(36)}${counter++}.crm`;

const sign = (bundle: Buffer, key: crypto.KeyObject) =>
  crypto.sign(null, crypto.createHash('sha256').update(bundle).digest(), key).toString('base64');

/**
 * A publishing organization with the same public key registered in both modes: its test-mode versions
 * install in other organizations' test mode once it owns the id (a live publication claims it).
 */
export async function newPublisher() {
  const org = await createOrg(`Publisher ${Math.random().toString(36).slice(2, 8)}`);
  const key = (await createKey({ orgId: org.id, mode: 'test', kind: 'secret' })).key;
  const liveKey = (await createKey({ orgId: org.id, mode: 'live', kind: 'secret' })).key;
  const pair = crypto.generateKeyPairSync('ed25519');
  const publicKey = pair.publicKey.export({ format: 'pem', type: 'spki' }) as string;
  const res = await request('POST', '/v1/publisher_keys', { key, body: { public_key: publicKey } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const live = await request('POST', '/v1/publisher_keys', { key: liveKey, body: { public_key: publicKey } });
  expect(live.status, JSON.stringify(live.body)).to.equal(200);
  return { key, liveKey, privateKey: pair.privateKey, pkeyId: res.body.id as string, claimed: new Set<string>() };
}
export type Publisher = Awaited<ReturnType<typeof newPublisher>>;

/**
 * Publishes `manifest` (id and version inside) as a signed gzip'd bundle in test mode; answers the
 * response. The first publication of an id is made in live mode first, which claims the id (its answer
 * is the one returned when it is refused).
 */
export async function publish(p: Publisher, manifest: Record<string, unknown>) {
  const bundle = zlib.gzipSync(await makeTar([['connector.json', JSON.stringify(manifest)]]));
  const send = (key: string) =>
    request('POST', `/v1/connectors/${String(manifest.id)}/versions`, {
      key,
      body: { bundle: bundle.toString('base64'), signature: sign(bundle, p.privateKey) },
    });
  if (!p.claimed.has(String(manifest.id))) {
    const claim = await send(p.liveKey);
    if (claim.status !== 200) return claim; // a refused bundle is refused alike in both modes
    p.claimed.add(String(manifest.id));
  }
  return send(p.key);
}

/** `publish`, expecting a 200; answers the version. */
export async function publishOk(p: Publisher, manifest: Record<string, unknown>) {
  const res = await publish(p, manifest);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Installs a connector (`POST /v1/connector_installations`), expecting a 200; answers the installation. */
export async function install(key: string, body: Record<string, unknown>) {
  const res = await request('POST', '/v1/connector_installations', { key, body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}
