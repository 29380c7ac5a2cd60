/**
 * Encrypted workflow payloads: a Temporal `PayloadCodec` that encrypts every payload a
 * client or worker sends to the Temporal server (workflow and activity inputs and results, signals,
 * updates, queries, memos, summaries, and the message and stack trace of every failure: see
 * `dataConverter`) with AES-256-GCM, so that the server and its Web UI hold no phone number, instruction,
 * caller's words or error text in plain text. Temporal's pattern
 * (https://docs.temporal.io/production-deployment/data-encryption, samples-typescript `encryption`): the
 * whole `Payload` (its metadata and data, protobuf-encoded) is sealed and becomes the data of a payload
 * whose metadata says `encoding: binary/encrypted` and `encryption-key-id: <id>`.
 *
 * Sealed data: a 12-byte IV, the ciphertext, the full 16-byte GCM tag (a shorter tag is refused, never
 * checked as a truncated one: NIST SP 800-38D section 5.2.1.2). The additional authenticated data binds
 * a payload to where it belongs; its format is named by the `encryption-cipher` metadata:
 * - `AES-256-GCM/v2` (written now): `svc-assistant payload v2`, the key id and the Temporal namespace,
 *   so a payload copied into another namespace's history, or relabelled with another key id, does not open;
 * - `AES-256-GCM` (written before v2, still opened): the key id alone.
 * Relabelling a v2 payload as v1 changes the additional data too, so it cannot be downgraded.
 *
 * Keys: derived (HKDF-SHA256, info `svc-assistant temporal payloads v1`, a derivation of its own, not the
 * stored-secrets key of src/secrets.ts) from `SECRETS_KEY`; earlier values listed in
 * `SECRETS_KEY_PREVIOUS` still decode. The key id is a fingerprint of the key (HKDF, its own info string),
 * so a payload names the key that sealed it without revealing it. Encoding uses the current key.
 * Payloads without the encrypted encoding (histories recorded before the codec) decode unchanged.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { METADATA_ENCODING_KEY, type DataConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { config } from '../config';

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** The metadata naming the key that sealed a payload. */
export const KEY_ID_METADATA = 'encryption-key-id';
/** The metadata naming the format of the sealed data (module comment). */
export const CIPHER_METADATA = 'encryption-cipher';
/** The format written now: the additional data binds the key id and the namespace. */
export const CIPHER_V2 = 'AES-256-GCM/v2';
/** The format written before v2 (additional data: the key id alone); still decoded. */
export const CIPHER_V1 = 'AES-256-GCM';
const IV_BYTES = 12;
/** GCM's full tag; `createDecipheriv` is told so (`authTagLength`) and refuses any other. */
const TAG_BYTES = 16;

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

/** One payload key: its id (in each payload's metadata) and the AES-256 key. */
export interface PayloadKey {
  id: string;
  key: Buffer;
}

/**
 * The payload key derived from a `SECRETS_KEY` value: HKDF-SHA256 with the info string
 * `svc-assistant temporal payloads v1` (32 bytes), and its id, 16 hex digits of another HKDF output.
 * @throws Error when `source` is shorter than 32 characters (as src/secrets.ts requires)
 */
export function derivePayloadKey(source: string): PayloadKey {
  if (source.length < 32) throw new Error('SECRETS_KEY must be set to at least 32 characters.');
  const hkdf = (info: string, bytes: number) =>
    Buffer.from(crypto.hkdfSync('sha256', source, Buffer.alloc(0), info, bytes));
  return {
    id: hkdf('svc-assistant temporal payloads key id v1', 8).toString('hex'),
    key: hkdf('svc-assistant temporal payloads v1', 32),
  };
}

/**
 * The additional authenticated data of a sealed payload: v2 binds the key id and the namespace (NUL
 * separated: neither contains one), v1 the key id alone.
 */
function additionalData(cipher: string, keyId: string, namespace: string): Buffer {
  return cipher === CIPHER_V2 ? Buffer.from(`svc-assistant payload v2\0${keyId}\0${namespace}`) : Buffer.from(keyId);
}

/**
 * The codec of one namespace: encodes with `current` (format v2), decodes with whichever of `current`
 * and `previous` a payload names (formats v2 and v1). A payload naming an unknown key or format, sealed
 * for another namespace, with a tag shorter than 16 bytes, or altered, fails its decode (an Error
 * naming the reason).
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: Map<string, Buffer>;

  /** @param namespace the Temporal namespace the payloads belong to (v2's additional data) */
  constructor(
    private readonly current: PayloadKey,
    previous: PayloadKey[] = [],
    private readonly namespace = 'default',
  ) {
    this.keys = new Map([...previous, current].map((k) => [k.id, k.key]));
  }

  /** Seals each payload (see the module comment). */
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', this.current.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(CIPHER_V2, this.current.id, this.namespace));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING),
          [KEY_ID_METADATA]: utf8(this.current.id),
          [CIPHER_METADATA]: utf8(CIPHER_V2),
        },
        data: new Uint8Array(sealed),
      };
    });
  }

  /**
   * Opens sealed payloads; any other payload is returned as it is.
   * @throws Error for an unknown key id or format, data too short to hold an IV and a full tag, or data
   *   that does not authenticate (altered, truncated, or sealed for another namespace or key id)
   */
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (text(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return payload;
      const keyId = text(payload.metadata?.[KEY_ID_METADATA]) ?? '';
      const format = text(payload.metadata?.[CIPHER_METADATA]) ?? CIPHER_V1;
      if (format !== CIPHER_V1 && format !== CIPHER_V2) throw new Error(`payload sealed in unknown format "${format}"`);
      const key = this.keys.get(keyId);
      if (!key) throw new Error(`payload sealed under unknown key id "${keyId}" (set SECRETS_KEY_PREVIOUS)`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      if (data.length < IV_BYTES + TAG_BYTES)
        throw new Error(
          `sealed payload of ${data.length} bytes: shorter than its IV and full ${TAG_BYTES}-byte tag (truncated)`,
        );
      const tag = data.subarray(data.length - TAG_BYTES);
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(additionalData(format, keyId, this.namespace));
      decipher.setAuthTag(tag);
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new Error(
          `payload under key id "${keyId}" did not authenticate (altered, truncated, or sealed for another namespace than "${this.namespace}")`,
        );
      }
      return temporal.api.common.v1.Payload.decode(plain) as Payload;
    });
  }
}

const cached = new Map<string, EncryptionCodec>();

/**
 * The codec of the configuration for `namespace` (default `TEMPORAL_NAMESPACE`): `SECRETS_KEY` current,
 * `SECRETS_KEY_PREVIOUS` for decoding, rebuilt when they change. The codec server passes the namespace
 * the Web UI names (`X-Namespace`). @throws Error when SECRETS_KEY is missing or too short
 */
export function configuredCodec(namespace?: string): EncryptionCodec {
  const cfg = config();
  if (!cfg.secretsKey) throw new Error('SECRETS_KEY must be set to at least 32 characters.');
  const ns = namespace ?? cfg.temporalNamespace;
  const id = JSON.stringify([cfg.secretsKey, cfg.secretsKeyPrevious, ns]);
  let codec = cached.get(id);
  if (!codec) {
    if (cached.size >= 16) cached.clear(); // rotations and namespaces are few; never an unbounded map
    codec = new EncryptionCodec(derivePayloadKey(cfg.secretsKey), cfg.secretsKeyPrevious.map(derivePayloadKey), ns);
    cached.set(id, codec);
  }
  return codec;
}

/** A codec that reads the configuration at each call (`configuredCodec`), so a process may set it after start. */
const lazyCodec: PayloadCodec = {
  encode: (payloads) => configuredCodec().encode(payloads),
  decode: (payloads) => configuredCodec().decode(payloads),
};

/**
 * The failure converter's module (src/platform/failure-converter.ts, compiled next to this file): the
 * SDK loads it by path in clients and workers, and the workflow bundle must include it
 * (`bundleWorkflowCode({ failureConverterPath })`) for failures raised in workflow code.
 */
export const FAILURE_CONVERTER_PATH = path.resolve(__dirname, 'failure-converter.js');

/**
 * The data converter of every client and worker of the service (src/platform/temporal.ts,
 * src/worker/worker.ts, the test harness and replay tests): the default payload converter, the
 * encryption codec, and a failure converter that moves each failure's message and stack trace into its
 * encoded attributes (a payload, so sealed too: Twilio errors, tool bodies and model refusals never sit in
 * plain text in a history; the server sees the message `Encoded failure`).
 */
export const dataConverter: DataConverter = {
  payloadCodecs: [lazyCodec],
  failureConverterPath: FAILURE_CONVERTER_PATH,
};
