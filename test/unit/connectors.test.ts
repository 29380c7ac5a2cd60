/**
 * The connectors domain's pure rules: connector ids, publishable versions and which is latest, strict
 * base64, public key parsing and fingerprints.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { isConnectorId } from '../../src/shared/connectors';
import {
  decodeBase64,
  isPublishableVersion,
  keyFingerprint,
  latestVersion,
  parsePublicKey,
  PublicKeyError,
} from '../../src/services/connectors';

describe('connector rules', () => {
  it('accepts lowercase reverse-DNS ids of at least two DNS labels', () => {
    for (const ok of ['com.example', 'com.example.crm', 'io.x9.a-b', '1password.com.cli', `com.${'a'.repeat(63)}`])
      expect(isConnectorId(ok), ok).to.equal(true);
    for (const bad of [
      'example',
      'Com.example',
      'com..x',
      'com.-x',
      'com.x-',
      'com.x_y',
      'com.x.',
      '.com.x',
      'com.x/y',
      `com.${'a'.repeat(64)}`,
      `${'ab.'.repeat(84)}com`,
      42,
      null,
    ]) {
      expect(isConnectorId(bad), String(bad)).to.equal(false);
    }
  });

  it('takes semantic versions written exactly, without build metadata', () => {
    for (const ok of ['0.0.1', '1.2.3', '2.0.0-rc.1', '1.0.0-alpha.beta.1'])
      expect(isPublishableVersion(ok), ok).to.equal(true);
    for (const bad of ['v1.2.3', '=1.2.3', ' 1.2.3', '1.2', '01.2.3', '1.2.3+build', '1.2.3-rc.1+b', '', 1])
      expect(isPublishableVersion(bad), String(bad)).to.equal(false);
  });

  it('calls latest the highest release, or the highest pre-release when there is no release', () => {
    const v = (...list: string[]) => latestVersion(list.map((version) => ({ version })))?.version ?? null;
    expect(v()).to.equal(null);
    expect(v('1.0.0', '1.10.0', '1.9.0')).to.equal('1.10.0');
    expect(v('1.0.0', '2.0.0-rc.1')).to.equal('1.0.0');
    expect(v('2.0.0-rc.1', '2.0.0-rc.10', '2.0.0-beta')).to.equal('2.0.0-rc.10');
    expect(v('2.0.0-rc.1', '2.0.0', '1.5.0')).to.equal('2.0.0');
  });

  it('decodes only canonical, padded standard base64 (whitespace ignored)', () => {
    expect(decodeBase64('aGVsbG8=')!.toString()).to.equal('hello');
    expect(decodeBase64('aGVs\nbG8=')!.toString()).to.equal('hello');
    for (const bad of ['aGVsbG8', 'aGVsbG9=', 'aGVs*G8=', 'aGVsbG8_', 'a==='])
      expect(decodeBase64(bad), bad).to.equal(null);
  });

  it('reads Ed25519 public keys as PEM or raw base64, and refuses private keys and other algorithms', () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const raw = Buffer.from((publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url');
    expect(parsePublicKey(publicKey.export({ format: 'pem', type: 'spki' }) as string).equals(raw)).to.equal(true);
    expect(parsePublicKey(raw.toString('base64')).equals(raw)).to.equal(true);
    expect(() => parsePublicKey(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)).to.throw(
      PublicKeyError,
      /PRIVATE key/,
    );
    const ec = crypto
      .generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ format: 'pem', type: 'spki' }) as string;
    expect(() => parsePublicKey(ec)).to.throw(PublicKeyError, /an ec key/);
    expect(() => parsePublicKey(raw.subarray(1).toString('base64'))).to.throw(PublicKeyError);
    expect(keyFingerprint(raw)).to.equal(
      'SHA256:' + crypto.createHash('sha256').update(raw).digest('base64').replace(/=+$/, ''),
    );
    expect(keyFingerprint(raw)).to.match(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});
