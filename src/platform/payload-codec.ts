/**
 * Encrypted workflow payloads: a Temporal `PayloadCodec` that encrypts every payload a
 * client or worker sends to the Temporal server (workflow and activity inputs and results, signals,
 * updates, queries, memos, summaries) with AES-256-GCM, so that the server and its Web UI hold no phone
 * number, instruction or caller's words in plain text. Temporal's pattern
 * (https://docs.temporal.io/production-deployment/data-encryption, samples-typescript `encryption`): the
 * whole `Payload` (its metadata and data, protobuf-encoded) is sealed and becomes the data of a payload
 * whose metadata says `encoding: binary/encrypted` and `encryption-key-id: <id>`.
 *
 * Keys: derived (HKDF-SHA256, info `svc-assistant temporal payloads v1`, a derivation of its own, not the
 * stored-secrets key of src/secrets.ts) from `SECRETS_KEY`; earlier values listed in
 * `SECRETS_KEY_PREVIOUS` still decode. The key id is a fingerprint of the key (HKDF, its own info string),
 * so a payload names the key that sealed it without revealing it. Encoding uses the current key.
 * Payloads without the encrypted encoding (histories recorded before the codec) decode unchanged.
 */
import crypto from 'node:crypto';
import { METADATA_ENCODING_KEY, type DataConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { config } from '../config';

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** The metadata naming the key that sealed a payload. */
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER_METADATA = 'encryption-cipher';
const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
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
 * The codec: encodes with `current`, decodes with whichever of `current` and `previous` a payload names.
 * A payload naming an unknown key, or altered, fails its decode (an Error naming the key id).
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: Map<string, Buffer>;

  constructor(
    private readonly current: PayloadKey,
    previous: PayloadKey[] = [],
  ) {
    this.keys = new Map([...previous, current].map((k) => [k.id, k.key]));
  }

  /** Seals each payload (see the module comment). */
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', this.current.key, iv);
      cipher.setAAD(Buffer.from(this.current.id));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING),
          [KEY_ID_METADATA]: utf8(this.current.id),
          [CIPHER_METADATA]: utf8(CIPHER),
        },
        data: new Uint8Array(sealed),
      };
    });
  }

  /** Opens sealed payloads; any other payload is returned as it is. @throws Error for an unknown key id or altered data */
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (text(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return payload;
      const keyId = text(payload.metadata?.[KEY_ID_METADATA]) ?? '';
      const key = this.keys.get(keyId);
      if (!key) throw new Error(`payload sealed under unknown key id "${keyId}" (set SECRETS_KEY_PREVIOUS)`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(keyId));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return temporal.api.common.v1.Payload.decode(plain) as Payload;
    });
  }
}

let cached: { sources: string; codec: EncryptionCodec } | undefined;

/**
 * The codec of the configuration: `SECRETS_KEY` current, `SECRETS_KEY_PREVIOUS` for decoding, rebuilt
 * when they change. @throws Error when SECRETS_KEY is missing or too short
 */
export function configuredCodec(): EncryptionCodec {
  const cfg = config();
  if (!cfg.secretsKey) throw new Error('SECRETS_KEY must be set to at least 32 characters.');
  const sources = JSON.stringify([cfg.secretsKey, cfg.secretsKeyPrevious]);
  if (cached?.sources !== sources)
    cached = {
      sources,
      codec: new EncryptionCodec(derivePayloadKey(cfg.secretsKey), cfg.secretsKeyPrevious.map(derivePayloadKey)),
    };
  return cached.codec;
}

/** A codec that reads the configuration at each call (`configuredCodec`), so a process may set it after start. */
const lazyCodec: PayloadCodec = {
  encode: (payloads) => configuredCodec().encode(payloads),
  decode: (payloads) => configuredCodec().decode(payloads),
};

/**
 * The data converter of every client and worker of the service (src/platform/temporal.ts,
 * src/worker/worker.ts, the test harness and replay tests): the default payload converter and the
 * encryption codec.
 */
export const dataConverter: DataConverter = { payloadCodecs: [lazyCodec] };
