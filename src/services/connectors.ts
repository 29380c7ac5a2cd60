/**
 * Connector bundles: the exact signing rule, publisher key parsing, and the in-memory inspection of a
 * bundle (a tar, or a gzip-compressed tar) that refuses hostile archives. Nothing here touches the disk
 * or the database; src/api/connectors.ts calls it before it writes anything.
 *
 * The signing rule: the signed message is exactly the raw 32-byte SHA-256 digest of the decoded bundle
 * bytes, signed with Ed25519 (RFC 8032, "pure" Ed25519 over those 32 bytes). In Node:
 * `crypto.sign(null, digest, privateKey)` / `crypto.verify(null, digest, publicKey, signature)`.
 * Package registries show why the message must be fixed to the byte (signatures over a hex string, over
 * a re-encoding, over "the file" all exist in the wild): a signature over anything else is refused, and
 * the refusal says what was signed instead when it can tell.
 *
 * The archive rules follow the tar path-traversal CVEs of node-tar and tar-fs (absolute paths, `..`,
 * links pointing out, device files): only regular files and directories with relative paths that stay
 * inside the bundle, each path once, at most 1,000 entries, at most 50 MB once decompressed (the gzip
 * stream is inflated with an output cap, so a gzip bomb stops at the cap). Parsing is tar-stream's
 * (mafintosh/tar-stream), fed from memory.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import semver from 'semver';
import { extract as tarExtract, type Header } from 'tar-stream';
import {
  checkManifestTools,
  ConnectorToolsError,
  type ConnectorToolsRejection,
  type ConnectorToolSpec,
} from './connector-tools';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_ENTRIES, MAX_MANIFEST_BYTES, MAX_UNCOMPRESSED_BYTES } from '../shared/connectors';

const gunzip = promisify(zlib.gunzip) as (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>;

/** Why a bundle is refused (the `reason` of a 400 `bundle_invalid`). */
export type BundleRejection =
  | 'empty'
  | 'too_large'
  | 'too_large_uncompressed'
  | 'gzip_invalid'
  | 'tar_invalid'
  | 'too_many_entries'
  | 'path_absolute'
  | 'path_traversal'
  | 'path_invalid'
  | 'link'
  | 'device'
  | 'entry_type_unsupported'
  | 'duplicate_entry'
  | 'manifest_missing'
  | 'manifest_invalid'
  | 'id_mismatch'
  | ConnectorToolsRejection;

/** A refused bundle: `reason` for programs, `message` for people. */
export class BundleError extends Error {
  constructor(
    public readonly reason: BundleRejection,
    message: string,
  ) {
    super(message);
    this.name = 'BundleError';
  }
}

/**
 * Decodes standard base64 (RFC 4648 section 4, with padding), ignoring whitespace (so `base64`'s
 * 76-column lines are fine). Returns null for anything else: other characters, missing padding, or
 * non-canonical trailing bits, so that one string decodes to one byte sequence and back.
 */
export function decodeBase64(text: string): Buffer | null {
  const s = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  const buf = Buffer.from(s, 'base64');
  return buf.toString('base64') === s ? buf : null;
}

/** SHA-256 of the bundle bytes: the 32 bytes that are signed. */
export function bundleDigest(bundle: Buffer): Buffer {
  return crypto.createHash('sha256').update(bundle).digest();
}

/** `SHA256:` + unpadded base64 of SHA-256 of the raw 32-byte public key (OpenSSH's way of writing it). */
export function keyFingerprint(raw: Buffer): string {
  return 'SHA256:' + crypto.createHash('sha256').update(raw).digest('base64').replace(/=+$/, '');
}

/** A public key that could not be read; the message says why (for a 400 naming `public_key`). */
export class PublicKeyError extends Error {}

/**
 * Reads an Ed25519 public key given as PEM (`-----BEGIN PUBLIC KEY-----`, SubjectPublicKeyInfo,
 * RFC 8410) or as the base64 of its raw 32 bytes (RFC 8032 encoding).
 * @returns the raw 32 bytes
 * @throws PublicKeyError (a private key, another algorithm, a bad encoding)
 */
export function parsePublicKey(input: string): Buffer {
  const text = input.trim();
  if (text.startsWith('-----BEGIN')) {
    if (/PRIVATE KEY/.test(text))
      throw new PublicKeyError(
        'this is a PRIVATE key: send only the public key, and keep the private key secret (consider it exposed and make a new pair)',
      );
    if (!/^-----BEGIN PUBLIC KEY-----\r?\n[\s\S]+\r?\n-----END PUBLIC KEY-----$/.test(text))
      throw new PublicKeyError('a PEM public key must be a single "-----BEGIN PUBLIC KEY-----" (SPKI) block');
    let key: crypto.KeyObject;
    try {
      key = crypto.createPublicKey({ key: text, format: 'pem' });
    } catch {
      throw new PublicKeyError('the PEM block is not a readable public key');
    }
    if (key.asymmetricKeyType !== 'ed25519')
      throw new PublicKeyError(
        `this is a${key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec' ? 'n' : ''} ${key.asymmetricKeyType} key; only Ed25519 keys are accepted`,
      );
    return Buffer.from((key.export({ format: 'jwk' }) as { x: string }).x, 'base64url');
  }
  const raw = decodeBase64(text);
  if (!raw || raw.length !== 32)
    throw new PublicKeyError(
      'must be an Ed25519 public key as PEM (-----BEGIN PUBLIC KEY-----) or the base64 of its raw 32 bytes',
    );
  try {
    publicKeyObject(raw);
  } catch {
    throw new PublicKeyError('these 32 bytes are not a valid Ed25519 public key');
  }
  return raw;
}

/** The KeyObject of a raw 32-byte Ed25519 public key. */
export function publicKeyObject(raw: Buffer): crypto.KeyObject {
  return crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** The PEM (SPKI) of a raw 32-byte Ed25519 public key. */
export function publicKeyPem(raw: Buffer): string {
  return publicKeyObject(raw).export({ format: 'pem', type: 'spki' }) as string;
}

/** A publisher key as the signature check needs it. */
export interface SigningKey {
  id: string;
  /** Base64 of the raw 32-byte public key. */
  publicKey: string;
  status: 'active' | 'expired' | 'revoked';
}

/** Outcome of `checkSignature`. */
export type SignatureCheck =
  | { ok: true; keyId: string }
  /** An active key verifies it over another message: `signed` says which, in words. */
  | { ok: false; why: 'wrong_message'; keyId: string; signed: string }
  /** It verifies under a revoked or expired key. */
  | { ok: false; why: 'key_inactive'; keyId: string; status: 'expired' | 'revoked' }
  /** No key of the organization and mode verifies it over anything we know of. */
  | { ok: false; why: 'no_match'; activeKeys: number };

function verifies(key: crypto.KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    return crypto.verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * Checks `signature` (64 bytes) over the bundle's digest against the organization's publisher keys.
 * Only an active key over exactly the 32-byte digest succeeds. When none does, looks for the usual
 * mistakes so that the error can say what went wrong: a signature over the hex digest (as text, either
 * case), over the raw bundle, or over the SHA-256 of the base64 text instead of the decoded bytes; or
 * a signature by a revoked or expired key.
 * @param bundleText the base64 text as sent (for the last diagnosis), whitespace removed
 */
export function checkSignature(
  bundle: Buffer,
  bundleText: string,
  signature: Buffer,
  keys: SigningKey[],
): SignatureCheck {
  const digest = bundleDigest(bundle);
  const withObjects = keys.map((k) => ({ ...k, object: publicKeyObject(Buffer.from(k.publicKey, 'base64')) }));
  const active = withObjects.filter((k) => k.status === 'active');
  for (const k of active) if (verifies(k.object, digest, signature)) return { ok: true, keyId: k.id };

  const hex = digest.toString('hex');
  const alternatives: [string, Buffer][] = [
    ['the hex SHA-256 digest as text (64 characters) instead of the raw 32-byte digest', Buffer.from(hex, 'ascii')],
    [
      'the uppercase hex SHA-256 digest as text instead of the raw 32-byte digest',
      Buffer.from(hex.toUpperCase(), 'ascii'),
    ],
    ['the raw bundle bytes instead of their 32-byte SHA-256 digest', bundle],
    [
      'the SHA-256 of the base64 text instead of the SHA-256 of the decoded bundle bytes',
      crypto.createHash('sha256').update(bundleText, 'utf8').digest(),
    ],
  ];
  for (const k of active) {
    for (const [signed, message] of alternatives)
      if (verifies(k.object, message, signature)) return { ok: false, why: 'wrong_message', keyId: k.id, signed };
  }
  for (const k of withObjects) {
    if (k.status !== 'active' && verifies(k.object, digest, signature))
      return { ok: false, why: 'key_inactive', keyId: k.id, status: k.status };
  }
  return { ok: false, why: 'no_match', activeKeys: active.length };
}

/** The manifest fields the service reads (the whole `connector.json` is kept as published). */
export interface Manifest {
  id: string;
  version: string;
  name: string;
  description: string | null;
  /** The tools it declares (src/services/connector-tools.ts); none when it declares no `tools`. */
  tools: ConnectorToolSpec[];
  /** Its `config_schema` (what an installing organization supplies), or null. */
  configSchema: Record<string, unknown> | null;
  /** The whole parsed `connector.json`. */
  raw: Record<string, unknown>;
}

/** What `inspectBundle` found in an accepted bundle. */
export interface BundleInfo {
  manifest: Manifest;
  gzip: boolean;
  entries: number;
  /** Size of the tar (after decompression), bytes. */
  tarBytes: number;
}

/**
 * True when `version` is a semantic version (semver 2.0.0) written exactly as the spec writes it
 * (`1.2.0`, `2.0.0-rc.1`): no leading `v` or `=`, no spaces, and no build metadata (`+…`), because
 * semver ignores build metadata when comparing, so `1.0.0+a` and `1.0.0+b` would be one version.
 */
export function isPublishableVersion(version: unknown): version is string {
  return typeof version === 'string' && semver.valid(version) === version && !version.includes('+');
}

/** The latest of `versions`: the highest release by semver precedence, or the highest pre-release when there is no release. */
export function latestVersion<T extends { version: string }>(versions: T[]): T | null {
  let best: T | null = null;
  for (const v of versions) {
    if (!best) best = v;
    else {
      const vPre = semver.prerelease(v.version) !== null;
      const bestPre = semver.prerelease(best.version) !== null;
      if ((bestPre && !vPre) || (bestPre === vPre && semver.gt(v.version, best.version))) best = v;
    }
  }
  return best;
}

/**
 * Inspects a bundle in memory and returns its manifest, or refuses it.
 * Rules (each a `BundleRejection`): at most 10 MB; gzip (magic 1f 8b) inflated to at most 50 MB;
 * a well-formed tar (ustar/GNU/pax, as tar-stream reads it) of at most 1,000 entries, each a regular
 * file or a directory, with a relative path free of `..` segments, each path once (compared without
 * case, as macOS and Windows file systems do); `connector.json` at the root, a JSON object of at most
 * 64 KB with `id` (equal to `connectorId`), `version` (`isPublishableVersion`), `name` (1–200
 * characters), optional `description` (at most 2,000 characters), and optional `tools` and
 * `config_schema` (src/services/connector-tools.ts `checkManifestTools`, each fault its own reason);
 * other manifest fields are kept.
 * @throws BundleError
 */
export async function inspectBundle(bundle: Buffer, connectorId: string): Promise<BundleInfo> {
  if (bundle.length === 0) throw new BundleError('empty', 'The bundle is empty.');
  if (bundle.length > MAX_BUNDLE_BYTES)
    throw new BundleError(
      'too_large',
      `The bundle is ${bundle.length} bytes; at most ${MAX_BUNDLE_BYTES} (10 MB) are accepted.`,
    );
  const gzip = bundle[0] === 0x1f && bundle[1] === 0x8b;
  let tar = bundle;
  if (gzip) {
    try {
      tar = await gunzip(bundle, { maxOutputLength: MAX_UNCOMPRESSED_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new BundleError(
          'too_large_uncompressed',
          `The bundle decompresses to more than ${MAX_UNCOMPRESSED_BYTES} bytes (50 MB), the most accepted.`,
        );
      }
      throw new BundleError(
        'gzip_invalid',
        `The bundle starts like gzip but does not decompress: ${(err as Error).message}.`,
      );
    }
  }
  const { entries, manifestBytes } = await readTar(tar);
  if (manifestBytes === null)
    throw new BundleError('manifest_missing', 'The bundle has no connector.json at its root.');
  return { manifest: parseManifest(manifestBytes, connectorId), gzip, entries, tarBytes: tar.length };
}

const ENTRY_KINDS: Record<string, [BundleRejection, string]> = {
  symlink: ['link', 'is a symbolic link; links are not accepted'],
  link: ['link', 'is a hard link; links are not accepted'],
  'character-device': ['device', 'is a character device; only regular files and directories are accepted'],
  'block-device': ['device', 'is a block device; only regular files and directories are accepted'],
  fifo: ['entry_type_unsupported', 'is a FIFO; only regular files and directories are accepted'],
  'contiguous-file': [
    'entry_type_unsupported',
    'is a contiguous file; only regular files and directories are accepted',
  ],
};

/** Checks one entry's header and returns its normalized path ('' for the root directory). */
function checkEntry(header: Header): string {
  const name = header.name;
  const shown = JSON.stringify(name.length > 200 ? name.slice(0, 200) + '…' : name);
  if (header.type !== 'file' && header.type !== 'directory') {
    const [reason, what] = ENTRY_KINDS[header.type as string] ?? [
      'entry_type_unsupported',
      `has an unsupported tar entry type (${String(header.type)})`,
    ];
    throw new BundleError(reason, `Entry ${shown} ${what}.`);
  }
  if (name.length === 0 || name.includes('\0'))
    throw new BundleError('path_invalid', `Entry ${shown} has an empty or invalid path.`);
  if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(name))
    throw new BundleError(
      'path_absolute',
      `Entry ${shown} has an absolute path; paths must be relative to the bundle root.`,
    );
  const segments = name.split(/[/\\]/);
  if (segments.includes('..'))
    throw new BundleError(
      'path_traversal',
      `Entry ${shown} has a '..' path segment; paths must stay inside the bundle.`,
    );
  const path = segments.filter((s) => s !== '' && s !== '.').join('/');
  if (path === '' && header.type !== 'directory')
    throw new BundleError('path_invalid', `Entry ${shown} is a file without a name.`);
  return path;
}

/** Reads every entry of a tar held in memory, checking each; keeps the bytes of `connector.json`. */
async function readTar(tar: Buffer): Promise<{ entries: number; manifestBytes: Buffer | null }> {
  const extract = tarExtract();
  const seen = new Set<string>();
  let entries = 0;
  let declared = 0;
  let manifestBytes: Buffer | null = null;
  extract.end(tar);
  try {
    for await (const entry of extract) {
      entries++;
      if (entries > MAX_BUNDLE_ENTRIES)
        throw new BundleError('too_many_entries', `The bundle has more than ${MAX_BUNDLE_ENTRIES} entries.`);
      const header = entry.header;
      const path = checkEntry(header);
      declared += header.size;
      if (declared > MAX_UNCOMPRESSED_BYTES)
        throw new BundleError(
          'too_large_uncompressed',
          `The bundle's files add up to more than ${MAX_UNCOMPRESSED_BYTES} bytes (50 MB).`,
        );
      if (path !== '') {
        const key = path.toLowerCase();
        if (seen.has(key))
          throw new BundleError(
            'duplicate_entry',
            `The path ${JSON.stringify(path)} appears more than once (paths are compared without case).`,
          );
        seen.add(key);
      }
      if (path === 'connector.json') {
        if (header.type !== 'file') throw new BundleError('manifest_invalid', 'connector.json must be a regular file.');
        if (header.size > MAX_MANIFEST_BYTES)
          throw new BundleError(
            'manifest_invalid',
            `connector.json is ${header.size} bytes; at most ${MAX_MANIFEST_BYTES} are accepted.`,
          );
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(Buffer.from(chunk as Uint8Array));
        manifestBytes = Buffer.concat(chunks);
      } else {
        entry.resume();
      }
    }
  } catch (err) {
    extract.destroy();
    if (err instanceof BundleError) throw err;
    throw new BundleError(
      'tar_invalid',
      `The bundle is not a readable tar (or gzip-compressed tar): ${(err as Error).message}.`,
    );
  }
  if (entries === 0) throw new BundleError('tar_invalid', 'The bundle is not a tar archive with entries.');
  return { entries, manifestBytes };
}

/** Parses and checks `connector.json` (see `inspectBundle`). */
function parseManifest(bytes: Buffer, connectorId: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new BundleError('manifest_invalid', 'connector.json is not valid UTF-8 JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new BundleError('manifest_invalid', 'connector.json must be a JSON object.');
  const m = parsed as Record<string, unknown>;
  if (typeof m.id !== 'string')
    throw new BundleError('manifest_invalid', 'connector.json must have an "id" string (the connector id).');
  if (m.id !== connectorId)
    throw new BundleError(
      'id_mismatch',
      `connector.json has id ${JSON.stringify(m.id)}, but this upload is for connector ${JSON.stringify(connectorId)}.`,
    );
  if (!isPublishableVersion(m.version)) {
    throw new BundleError(
      'manifest_invalid',
      `connector.json "version" must be a semantic version like 1.2.0 or 2.0.0-rc.1 (no leading v, no build metadata); got ${JSON.stringify(m.version ?? null)}.`,
    );
  }
  if (typeof m.name !== 'string' || m.name.trim().length === 0 || m.name.length > 200)
    throw new BundleError(
      'manifest_invalid',
      'connector.json "name" must be a non-empty string of at most 200 characters.',
    );
  if (m.description != null && (typeof m.description !== 'string' || m.description.length > 2000)) {
    throw new BundleError(
      'manifest_invalid',
      'connector.json "description", when present, must be a string of at most 2000 characters.',
    );
  }
  let declared: ReturnType<typeof checkManifestTools>;
  try {
    declared = checkManifestTools(m, connectorId);
  } catch (err) {
    if (err instanceof ConnectorToolsError) throw new BundleError(err.reason, err.message);
    throw err;
  }
  return {
    id: m.id,
    version: m.version,
    name: m.name,
    description: (m.description as string | undefined) ?? null,
    tools: declared.tools,
    configSchema: declared.configSchema,
    raw: m,
  };
}
