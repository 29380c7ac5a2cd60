/**
 * A connector version's publication as named steps (`POST /v1/connectors/{id}/versions`,
 * src/api/connectors.ts), which a route or a test calls directly: `verifyConnectorVersion` (the bundle's
 * base64, size, Ed25519 signature under one of the organization's publisher keys, and its manifest) and
 * `publishConnectorVersionOf` (the id claimed, the version stored once, its event emitted once).
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam } from '../errors';
import { Event } from '../models/events';
import { insertIfAbsent, isDuplicateKey } from '../models/store';
import {
  Connector,
  ConnectorBundle,
  ConnectorOwner,
  ConnectorVersion,
  PublisherKey,
  publisherKeyStatus,
  renderConnectorVersion,
  type ConnectorVersionDoc,
  type PublisherKeyDoc,
} from '../models/connectors';
import {
  BundleError,
  checkSignature,
  decodeBase64,
  inspectBundle,
  type BundleRejection,
  type SignatureCheck,
} from './connectors';
import { emitEvent } from './events';
import { MAX_BUNDLE_BYTES, VERSION_PUBLISHED_EVENT } from '../shared/connectors';
import { idTime, newId } from '../shared/ids';

/** 400 `bundle_invalid` with a machine-readable `reason` (src/services/connectors.ts `BundleRejection`) beside the message. */
export class BundleInvalidError extends ApiError {
  constructor(
    public readonly reason: BundleRejection,
    message: string,
  ) {
    super(400, 'invalid_request_error', 'bundle_invalid', message, 'bundle');
  }

  override toBody() {
    return { ...super.toBody(), reason: this.reason };
  }
}

/**
 * The `_id` of a connector's row in one mode: `live:<id>` (the id's owner's), `test:<org>:<id>` (test-mode
 * publications are private to their organization: several may test the same id).
 */
export const modeKey = (livemode: boolean, connectorId: string, orgId: string) =>
  livemode ? `live:${connectorId}` : `test:${orgId}:${connectorId}`;

/** The `evt_…` id of a version's `connector.version_published` event: fixed by the version id, so a retry emits it once. */
const publishedEventId = (versionId: string) => `evt_${versionId.slice(versionId.indexOf('_') + 1)}`;

/** A version whose bundle and signature verified: what `publishConnectorVersionOf` stores. */
export interface VerifiedVersion {
  connectorId: string;
  bundle: Buffer;
  sha256: string;
  keyId: string;
  manifest: Awaited<ReturnType<typeof inspectBundle>>['manifest'];
}

/**
 * Checks a version's upload: `signature` the base64 of a 64-byte Ed25519 signature, `bundle` standard
 * base64 of at most `MAX_BUNDLE_BYTES`, signed (over the bundle's SHA-256 digest) by one of the
 * tenant's active publisher keys, and a bundle whose manifest names `connectorId`.
 * @throws ApiError 400 naming `signature` or `bundle`, 400 `signature_invalid`, 400 `bundle_invalid` (`BundleInvalidError`)
 */
export async function verifyConnectorVersion(
  tenant: { orgId: string; livemode: boolean },
  connectorId: string,
  body: { bundle: string; signature: string },
): Promise<VerifiedVersion> {
  const signature = decodeBase64(body.signature);
  if (!signature || signature.length !== 64)
    throw invalidParam('signature', 'Invalid signature: must be the base64 of a 64-byte Ed25519 signature.');
  const bundleText = body.bundle.replace(/\s+/g, '');
  const bundle = decodeBase64(bundleText);
  if (!bundle)
    throw invalidParam(
      'bundle',
      'Invalid bundle: must be standard base64 (RFC 4648, A-Z a-z 0-9 + /, padded with =) of the tar or tar.gz bytes.',
    );
  if (bundle.length > MAX_BUNDLE_BYTES)
    throw new BundleInvalidError(
      'too_large',
      `The bundle is ${bundle.length} bytes; at most ${MAX_BUNDLE_BYTES} (10 MB) are accepted.`,
    );
  const keys = (await PublisherKey.find({
    org_id: tenant.orgId,
    livemode: tenant.livemode,
  }).lean()) as PublisherKeyDoc[];
  const check = checkSignature(
    bundle,
    bundleText,
    signature,
    keys.map((k) => ({ id: k._id, publicKey: k.public_key, status: publisherKeyStatus(k) })),
  );
  if (!check.ok)
    throw new ApiError(400, 'invalid_request_error', 'signature_invalid', signatureMessage(check), 'signature');
  let info: Awaited<ReturnType<typeof inspectBundle>>;
  try {
    info = await inspectBundle(bundle, connectorId);
  } catch (err) {
    if (err instanceof BundleError) throw new BundleInvalidError(err.reason, `Invalid bundle: ${err.message}`);
    throw err;
  }
  const sha256 = crypto.createHash('sha256').update(bundle).digest('hex');
  return { connectorId, bundle, sha256, keyId: check.keyId, manifest: info.manifest };
}

/** The message of a refused signature (400 `signature_invalid`). */
function signatureMessage(check: Exclude<SignatureCheck, { ok: true }>): string {
  switch (check.why) {
    case 'wrong_message':
      return `The signature verifies under publisher key ${check.keyId}, but over ${check.signed}. Sign exactly the raw 32-byte SHA-256 digest of the decoded bundle bytes (Node: crypto.sign(null, digest, privateKey)).`;
    case 'key_inactive':
      return `The signature was made with publisher key ${check.keyId}, which is ${check.status}. Sign with an active key, or register a new one with POST /v1/publisher_keys.`;
    case 'no_match':
      return check.activeKeys === 0
        ? 'This organization has no active publisher key in this mode. Register the public key with POST /v1/publisher_keys, then sign the raw 32-byte SHA-256 digest of the bundle with it.'
        : `The signature matches none of this organization's ${check.activeKeys} active publisher key(s) in this mode. It must be the Ed25519 signature of the raw 32-byte SHA-256 digest of the decoded bundle bytes.`;
  }
}

/**
 * Stores a verified version under `versionId` and emits its event, or finds the version already there.
 * Idempotent for a given `versionId` (a retry taking over an abandoned request finishes the same work).
 * @returns the stored version
 * @throws ApiError 403 `connector_owned_elsewhere`, 409 `version_exists`
 */
export async function publishConnectorVersionOf(
  temporal: Client,
  tenant: { orgId: string; livemode: boolean },
  versionId: string,
  v: VerifiedVersion,
): Promise<ConnectorVersionDoc> {
  const { orgId, livemode } = tenant;
  const now = Date.now();
  // The first live publication claims the id (the unique _id decides a race between organizations); a
  // test-mode one claims nothing and is private to its organization, but may not use an id another owns.
  const claimed =
    livemode && (await insertIfAbsent(ConnectorOwner, { _id: v.connectorId, org_id: orgId, created_ms: now }));
  if (!claimed) {
    const owner = await ConnectorOwner.findById(v.connectorId).lean();
    if (owner && owner.org_id !== orgId) {
      throw new ApiError(
        403,
        'permission_error',
        'connector_owned_elsewhere',
        `The connector id ${v.connectorId} is owned by another organization; publish under an id of a domain you control.`,
        'id',
      );
    }
  }
  await insertIfAbsent(Connector, {
    _id: modeKey(livemode, v.connectorId, orgId),
    connector_id: v.connectorId,
    org_id: orgId,
    livemode,
    seq: newId('cnr'),
    created: Math.floor(now / 1000),
  });

  const key = { livemode, connector_id: v.connectorId, version: v.manifest.version, org_id: orgId };
  let stored = (await ConnectorVersion.findOne(key).lean()) as ConnectorVersionDoc | null;
  if (!stored) {
    const doc: ConnectorVersionDoc = {
      _id: versionId,
      org_id: orgId,
      livemode,
      connector_id: v.connectorId,
      version: v.manifest.version,
      sha256: v.sha256,
      size: v.bundle.length,
      key_id: v.keyId,
      name: v.manifest.name,
      description: v.manifest.description,
      manifest_json: JSON.stringify(v.manifest.raw),
      created: Math.floor(idTime(versionId) / 1000),
    };
    // The bytes first, so that a version row never exists without them.
    await insertIfAbsent(ConnectorBundle, { _id: versionId, org_id: orgId, livemode, data: v.bundle });
    try {
      await ConnectorVersion.collection.insertOne(doc as never);
      stored = doc;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      stored = (await ConnectorVersion.findOne(key).lean()) as ConnectorVersionDoc | null;
      if (!stored) throw err;
      if (stored._id !== versionId) await ConnectorBundle.deleteOne({ _id: versionId });
    }
  }
  if (stored._id !== versionId && stored.sha256 !== v.sha256) {
    throw new ApiError(
      409,
      'invalid_request_error',
      'version_exists',
      `Version ${stored.version} of ${v.connectorId} is already published with other bytes (sha256 ${stored.sha256}); versions are immutable: publish a new version.`,
      'bundle',
    );
  }
  // Emit (again, if a crash came between the row and the event: emitEvent is idempotent for an id).
  const eventId = publishedEventId(stored._id);
  if (stored._id === versionId || !(await Event.exists({ _id: eventId }))) {
    await emitEvent(temporal, {
      id: eventId,
      orgId,
      livemode,
      type: VERSION_PUBLISHED_EVENT,
      createdMs: idTime(stored._id),
      object: renderConnectorVersion(stored),
    });
  }
  return stored;
}
