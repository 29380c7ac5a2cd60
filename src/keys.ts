/**
 * Organizations and API keys (DESIGN.md section 5): `svc_sk_{test,live}_…` secret keys (every scope),
 * `svc_rk_…` restricted keys (their listed scopes), `svc_pk_…` publishable keys (only
 * `POST /v1/widget/session`). Keys are stored as SHA-256 hashes; the full key exists only in the
 * return value of `createKey`, shown once.
 */
import crypto from 'node:crypto';
import { ApiKey, Org } from './models/orgs';
import { newId } from './shared/ids';

/** Resources that scopes name (spec section 5, rule 3). */
export const SCOPE_RESOURCES = [
  'calls',
  'messages',
  'agents',
  'contacts',
  'records',
  'webhooks',
  'events',
  'usage',
  'connectors',
  'phone_numbers',
] as const;
/** Every scope: `<resource>:read` and `<resource>:write`, and `audit:read`. */
export const ALL_SCOPES: string[] = [
  ...SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`]),
  'audit:read', // the audit log, read only: nothing writes it through the API
];
/**
 * Scopes every secret and restricted key holds without listing them (and that `--scopes` does not take):
 * reading its own organization, `GET /v1/account` ("any secret or restricted key").
 */
export const IMPLIED_SCOPES: readonly string[] = ['account:read'];

export type KeyKind = 'secret' | 'restricted' | 'publishable';
const KIND_PREFIX: Record<KeyKind, string> = { secret: 'sk', restricted: 'rk', publishable: 'pk' };

/** sha256 hex of a full key, the form in which keys are stored and looked up. */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Parses a key's visible parts, or returns null when it does not have a key's shape. */
export function parseKey(key: string): { kind: KeyKind; livemode: boolean } | null {
  const m = /^svc_(sk|rk|pk)_(test|live)_[A-Za-z0-9]{24,}$/.exec(key);
  if (!m) return null;
  const kind = (Object.keys(KIND_PREFIX) as KeyKind[]).find((k) => KIND_PREFIX[k] === m[1])!;
  return { kind, livemode: m[2] === 'live' };
}

/** Creates an organization. */
export async function createOrg(name: string, opts: { demo?: boolean } = {}) {
  const doc = { _id: newId('org'), name, demo: opts.demo ?? false, created: Math.floor(Date.now() / 1000) };
  await Org.create(doc);
  return { id: doc._id, object: 'organization' as const, name: doc.name, created: doc.created };
}

/**
 * Creates an API key.
 * @param scopes for restricted keys: a non-empty subset of `ALL_SCOPES` (`x:write` implies `x:read`)
 * @throws Error when the org does not exist or the scopes are invalid
 * @returns the key object with the full `key` (the only time it is shown)
 */
export async function createKey(input: {
  orgId: string;
  mode: 'test' | 'live';
  kind: KeyKind;
  scopes?: string[];
  name?: string;
}) {
  if (!(await Org.exists({ _id: input.orgId }))) throw new Error(`No such organization: ${input.orgId}`);
  let scopes: string[] = [];
  if (input.kind === 'restricted') {
    scopes = [...new Set(input.scopes ?? [])];
    if (scopes.length === 0)
      throw new Error('A restricted key needs at least one scope (--scopes calls:read,calls:write).');
    const bad = scopes.filter((s) => !ALL_SCOPES.includes(s));
    if (bad.length) throw new Error(`Unknown scope(s): ${bad.join(', ')}. Known: ${ALL_SCOPES.join(', ')}.`);
  } else if (input.scopes && input.scopes.length) {
    throw new Error(`Only restricted keys take scopes; a ${input.kind} key has fixed permissions.`);
  }
  const secret = crypto.randomBytes(24).toString('base64url').replace(/[-_]/g, '').padEnd(32, '0').slice(0, 32);
  const key = `svc_${KIND_PREFIX[input.kind]}_${input.mode}_${secret}`;
  const doc = {
    _id: newId('key'),
    org_id: input.orgId,
    livemode: input.mode === 'live',
    kind: input.kind,
    scopes,
    hash: hashKey(key),
    redacted: `svc_${KIND_PREFIX[input.kind]}_${input.mode}_…${key.slice(-4)}`,
    name: input.name ?? null,
    created: Math.floor(Date.now() / 1000),
    revoked: null,
  };
  await ApiKey.create(doc);
  return { ...renderKey(doc), key };
}

/** The key object without the secret. */
export function renderKey(doc: {
  _id: string;
  org_id: string;
  livemode: boolean;
  kind: string;
  scopes: string[];
  redacted: string;
  name?: string | null;
  created: number;
  revoked?: number | null;
}) {
  return {
    id: doc._id,
    object: 'api_key' as const,
    org_id: doc.org_id,
    livemode: doc.livemode,
    kind: doc.kind,
    scopes: doc.kind === 'secret' ? ['*'] : doc.scopes,
    redacted_key: doc.redacted,
    name: doc.name ?? null,
    created: doc.created,
    revoked: doc.revoked ?? null,
  };
}

/** Lists an organization's keys, newest first. */
export async function listKeys(orgId: string) {
  const docs = await ApiKey.find({ org_id: orgId }).sort({ _id: -1 }).lean();
  return docs.map(renderKey);
}

/** What authentication needs of a key: whose it is, its mode, kind and scopes. */
export interface VerifiedKey {
  id: string;
  orgId: string;
  livemode: boolean;
  kind: KeyKind;
  scopes: string[];
}

/**
 * How long (ms) a process trusts a key it verified without reading the store again (the
 * key's lookup leaves the request path). The bound on revocation: a key revoked by another process
 * (`svcctl keys revoke`) is refused by every API process at most this long after; one revoked through this
 * process's `revokeKey` at once.
 */
export const KEY_CACHE_TTL_MS = 5_000;
/** At most this many verified keys are remembered per process (the oldest is forgotten first). */
const KEY_CACHE_MAX = 10_000;
/** Key hash → the key as verified, and until when (epoch ms) it is trusted. Valid keys only. */
const verifiedKeys = new Map<string, { key: VerifiedKey; untilMs: number }>();

/**
 * The live (not revoked) key whose hash is `hash`, or null: from this process's memory when verified in
 * the last `KEY_CACHE_TTL_MS`, else one lookup by the unique `hash` index. Unknown and revoked keys are
 * never remembered, so a new key works at once and a wrong one is read each time.
 * @param nowMs the clock (tests pass one)
 * @throws what the store throws (the API answers 503)
 */
export async function verifyKeyHash(hash: string, nowMs = Date.now()): Promise<VerifiedKey | null> {
  const cached = verifiedKeys.get(hash);
  if (cached && cached.untilMs > nowMs) return cached.key;
  verifiedKeys.delete(hash);
  const doc = await ApiKey.findOne({ hash }, { org_id: 1, livemode: 1, kind: 1, scopes: 1, revoked: 1 }).lean();
  if (!doc || doc.revoked != null) return null;
  const key = { id: doc._id, orgId: doc.org_id, livemode: doc.livemode, kind: doc.kind as KeyKind, scopes: doc.scopes };
  if (verifiedKeys.size >= KEY_CACHE_MAX) verifiedKeys.delete(verifiedKeys.keys().next().value!);
  verifiedKeys.set(hash, { key, untilMs: nowMs + KEY_CACHE_TTL_MS });
  return key;
}

/**
 * Revokes a key (idempotent); returns it, or null when it does not exist. This process stops trusting it
 * at once; other processes within `KEY_CACHE_TTL_MS`.
 */
export async function revokeKey(keyId: string) {
  const doc = await ApiKey.findById(keyId).lean();
  if (!doc) return null;
  verifiedKeys.delete(doc.hash);
  if (doc.revoked == null) {
    await ApiKey.updateOne({ _id: keyId }, { $set: { revoked: Math.floor(Date.now() / 1000) } });
    doc.revoked = Math.floor(Date.now() / 1000);
  }
  return renderKey(doc);
}
