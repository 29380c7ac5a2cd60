/**
 * Secrets at rest (webhook signing secrets, stored responses that carry them): sealed with AES-256-GCM
 * under a key derived (HKDF-SHA256) from `SECRETS_KEY`, the same for every API and worker process.
 * Sealed values read `enc:v1:<iv>.<tag>.<ciphertext>` (base64url); a value without the prefix is a
 * secret stored before sealing existed and is returned as it is.
 */
import crypto from 'node:crypto';
import { config } from './config';

const PREFIX = 'enc:v1:';
let cached: { source: string; key: Buffer } | undefined;

function key(): Buffer {
  const source = config().secretsKey;
  if (!source || source.length < 32)
    throw new Error('SECRETS_KEY must be set to at least 32 characters (for example 32 random bytes in hex).');
  if (cached?.source !== source) cached = { source, key: sealingKey(source) };
  return cached.key;
}

/** The sealing key of a `SECRETS_KEY` value (HKDF-SHA256, info `svc-assistant secrets v1`). */
const sealingKey = (source: string) =>
  Buffer.from(crypto.hkdfSync('sha256', source, Buffer.alloc(0), 'svc-assistant secrets v1', 32));

/** HMAC-SHA256 of `payload` under the key derived from `base` for `purpose` (see `secretsMac`). */
function macUnder(base: Buffer, purpose: string, payload: string): string {
  const derived = Buffer.from(crypto.hkdfSync('sha256', base, Buffer.alloc(0), `svc-assistant mac ${purpose}`, 32));
  return crypto.createHmac('sha256', derived).update(payload).digest('base64url');
}

/** Seals `plain` for storage. @throws Error when SECRETS_KEY is missing or too short */
export function sealSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key(), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${ct.toString('base64url')}`;
}

/**
 * Opens a stored value sealed by `sealSecret` (null stays null; an unsealed legacy value is returned as is),
 * under the current `SECRETS_KEY`, else under each of `SECRETS_KEY_PREVIOUS` (a value sealed before a
 * rotation).
 * @throws Error when the value was sealed under none of those keys, or altered
 */
export function openSecret(stored: string | null | undefined): string | null {
  if (stored == null) return null;
  if (!stored.startsWith(PREFIX)) return stored;
  const [iv, tag, ct] = stored.slice(PREFIX.length).split('.');
  const keys = [key(), ...config().secretsKeyPrevious.map(sealingKey)];
  for (let i = 0; ; i++) {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', keys[i], Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch (err) {
      if (i === keys.length - 1) throw err;
    }
  }
}

/** True when `stored` is sealed (not a legacy plain value). */
export const isSealed = (stored: string | null | undefined): boolean =>
  typeof stored === 'string' && stored.startsWith(PREFIX);

/**
 * HMAC-SHA256 of `payload` (base64url) under a key derived (HKDF-SHA256) from `SECRETS_KEY` for `purpose`
 * alone, so a link signed for one purpose never verifies for another and no sealing key is reused. Used
 * for the short-lived signed links to recordings' audio (src/services/recordings.ts).
 * @throws Error when SECRETS_KEY is missing or too short
 */
export function secretsMac(purpose: string, payload: string): string {
  return macUnder(key(), purpose, payload);
}

/**
 * `secretsMac(purpose, payload)` under the current `SECRETS_KEY` first, then under each of
 * `SECRETS_KEY_PREVIOUS` (in their order): a value keyed by a MAC (a conversation's workflow id,
 * which must stay the same for the conversation's life) is still found after the key rotates. @throws Error when SECRETS_KEY is missing or too short
 */
export function secretsMacs(purpose: string, payload: string): string[] {
  return [key(), ...config().secretsKeyPrevious.map(sealingKey)].map((base) => macUnder(base, purpose, payload));
}
