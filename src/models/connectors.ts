/**
 * Connector publishing models (DESIGN.md section 10), all written by the API only
 * (src/api/connectors.ts), and all insert-only except a publisher key's revocation:
 *
 * - `PublisherKey` (`pkey_…`, per organization and mode): an Ed25519 public key that may sign bundles.
 *   Written at creation; later only `revoked_ms`, set once (`DELETE`), never cleared. Unique on
 *   (organization, mode, fingerprint): the same key is registered once.
 * - `ConnectorOwner` (`_id` = the connector id): which organization owns an id, in both modes. Claimed
 *   by the first live-mode publication, inserting first (the unique `_id` makes two organizations racing
 *   for one id safe: one insert wins, the other reads the winner); never changed. A test-mode publication
 *   claims nothing (a free test key must not take an id from its real owner): test-mode
 *   connectors are private to their organization, and an id owned by another is refused in both modes.
 * - `Connector` (`_id` = `live:<connector id>`, or `test:<organization>:<connector id>`): the connector as
 *   listed in one mode; inserted by its first publication in that mode. Its `name` and `latest_version` are computed when read,
 *   from the immutable version rows (no counter or "latest" field that two publications could race on).
 * - `ConnectorVersion` (`cver_…`): one published version, immutable. Unique on (mode, connector id,
 *   version, organization), which is what makes a version immutable: a second publication of it is a
 *   duplicate key (in live mode the id has one owner; in test mode each organization has its own).
 * - `ConnectorBundle` (`_id` = the version's id): the bundle's bytes, in a collection of their own so
 *   that no list ever loads them (a 10 MB bundle is one BSON Binary, under MongoDB's 16 MB document
 *   limit). Inserted just before its version row, so a version never exists without its bytes; the
 *   request that inserted a bundle whose version row lost a race deletes it.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, seconds, type WithId } from './store';
import { apiObject, unix } from './wire';

const publisherKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, default: null },
    /** Base64 of the raw 32-byte Ed25519 public key. */
    public_key: { type: String, required: true },
    /** `SHA256:` + unpadded base64 of SHA-256(raw key). */
    fingerprint: { type: String, required: true },
    expires_ms: { type: Number, default: null },
    revoked_ms: { type: Number, default: null },
    created: { type: Number, required: true },
  },
  base,
);
publisherKeySchema.index({ org_id: 1, livemode: 1, fingerprint: 1 }, { unique: true });
publisherKeySchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const PublisherKey = mongoose.model('PublisherKey', publisherKeySchema, 'publisher_keys');
export type PublisherKeyDoc = WithId<InferSchemaType<typeof publisherKeySchema>>;

const ownerSchema = new Schema(
  {
    /** The connector id (`com.example.crm`). */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    created_ms: { type: Number, required: true },
  },
  base,
);
export const ConnectorOwner = mongoose.model('ConnectorOwner', ownerSchema, 'connector_owners');

const connectorSchema = new Schema(
  {
    /** `<test|live>:<connector id>`: one row per connector and mode. */
    _id: { type: String, required: true },
    connector_id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** A time-ordered id (`cnr_…`) fixing the list order, newest first. */
    seq: { type: String, required: true },
    created: { type: Number, required: true },
  },
  base,
);
connectorSchema.index({ org_id: 1, livemode: 1, seq: -1 });
export const Connector = mongoose.model('Connector', connectorSchema, 'connectors');
export type ConnectorDoc = WithId<InferSchemaType<typeof connectorSchema>>;

const versionSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    connector_id: { type: String, required: true },
    /** Semver, without build metadata (src/services/connectors.ts). */
    version: { type: String, required: true },
    /** Hex SHA-256 of the bundle bytes (what the signature signs, as raw bytes). */
    sha256: { type: String, required: true },
    /** Bundle size in bytes. */
    size: { type: Number, required: true },
    /** The publisher key whose signature verified. */
    key_id: { type: String, required: true },
    /** The manifest's `name` and `description`, kept apart so lists need not parse the manifest. */
    name: { type: String, required: true },
    description: { type: String, default: null },
    /** `connector.json` as published (a JSON string: its keys are the publisher's). */
    manifest_json: { type: String, required: true },
    created: { type: Number, required: true },
  },
  base,
);
versionSchema.index({ livemode: 1, connector_id: 1, version: 1, org_id: 1 }, { unique: true });
versionSchema.index({ org_id: 1, livemode: 1, connector_id: 1, _id: -1 });
export const ConnectorVersion = mongoose.model('ConnectorVersion', versionSchema, 'connector_versions');
export type ConnectorVersionDoc = WithId<InferSchemaType<typeof versionSchema>>;

const bundleSchema = new Schema(
  {
    /** = the version's id. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    data: { type: Buffer, required: true },
  },
  base,
);
export const ConnectorBundle = mongoose.model('ConnectorBundle', bundleSchema, 'connector_bundles');

/** Reads a bundle's bytes, or null. The driver returns a BSON Binary; this gives a Buffer. */
export async function readBundle(versionId: string, orgId: string, livemode: boolean): Promise<Buffer | null> {
  const doc = await ConnectorBundle.collection.findOne({ _id: versionId as never, org_id: orgId, livemode });
  if (!doc) return null;
  const data = doc.data as { buffer?: Uint8Array } | Buffer;
  if (Buffer.isBuffer(data)) return data;
  const bytes = data.buffer!;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Publisher key status at `now` (ms): `revoked` (DELETE), `expired` (past `expires_at`) or `active`. */
export function publisherKeyStatus(
  doc: Pick<PublisherKeyDoc, 'revoked_ms' | 'expires_ms'>,
  now = Date.now(),
): 'active' | 'expired' | 'revoked' {
  if (doc.revoked_ms != null) return 'revoked';
  if (doc.expires_ms != null && doc.expires_ms <= now) return 'expired';
  return 'active';
}

/** The `publisher_key` object as the API answers it (the OpenAPI component `PublisherKey`). */
export const PublisherKeyObject = apiObject(
  'PublisherKey',
  'An Ed25519 public key that signs connector versions.',
  z.object({
    id: z.string(),
    object: z.literal('publisher_key'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    algorithm: z.literal('ed25519'),
    public_key: z.string(),
    fingerprint: z.string(),
    status: z.enum(['active', 'expired', 'revoked']),
    expires_at: unix.nullable(),
    revoked_at: unix.nullable(),
    created: unix,
  }),
);

/** The `publisher_key` object: its public key (base64 of the raw 32 bytes), fingerprint and status. */
export function renderPublisherKey(doc: PublisherKeyDoc, now = Date.now()): z.output<typeof PublisherKeyObject> {
  return {
    id: doc._id,
    object: 'publisher_key' as const,
    livemode: doc.livemode,
    name: doc.name ?? null,
    algorithm: 'ed25519' as const,
    public_key: doc.public_key,
    fingerprint: doc.fingerprint,
    status: publisherKeyStatus(doc, now),
    expires_at: seconds(doc.expires_ms),
    revoked_at: seconds(doc.revoked_ms),
    created: doc.created,
  };
}

/** The `connector_version` object as the API answers it (the OpenAPI component `ConnectorVersion`). */
export const ConnectorVersionObject = apiObject(
  'ConnectorVersion',
  'A signed, published version of a connector bundle.',
  z.object({
    id: z.string(),
    object: z.literal('connector_version'),
    livemode: z.boolean(),
    connector: z.string(),
    version: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    key_id: z.string(),
    manifest: z.record(z.string(), z.unknown()),
    created: unix,
  }),
);

/** The `connector_version` object (the manifest as published, parsed). */
export function renderConnectorVersion(doc: ConnectorVersionDoc): z.output<typeof ConnectorVersionObject> {
  return {
    id: doc._id,
    object: 'connector_version' as const,
    livemode: doc.livemode,
    connector: doc.connector_id,
    version: doc.version,
    sha256: doc.sha256,
    size: doc.size,
    key_id: doc.key_id,
    manifest: JSON.parse(doc.manifest_json) as Record<string, unknown>,
    created: doc.created,
  };
}

/** The `connector` object as the API answers it (the OpenAPI component `Connector`). */
export const ConnectorObject = apiObject(
  'Connector',
  'A connector and its latest version.',
  z.object({
    id: z.string(),
    object: z.literal('connector'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    latest_version: z.string().nullable(),
    versions: z.number().int(),
    created: unix,
  }),
);

/**
 * The `connector` object. `latest` is its latest version (src/services/connectors.ts `latestVersion`), whose
 * manifest gives `name` and `description`; `versions` is how many versions it has in this mode.
 */
export function renderConnector(
  doc: ConnectorDoc,
  latest: Pick<ConnectorVersionDoc, 'version' | 'name' | 'description'> | null,
  versions: number,
): z.output<typeof ConnectorObject> {
  return {
    id: doc.connector_id,
    object: 'connector' as const,
    livemode: doc.livemode,
    name: latest?.name ?? null,
    description: latest?.description ?? null,
    latest_version: latest?.version ?? null,
    versions,
    created: doc.created,
  };
}
