/**
 * Connector publishing (spec section 4 "Connectors"; DESIGN.md section 10), scopes `connectors:read` /
 * `connectors:write`:
 *
 *   GET    /v1/connectors                                      the connectors the caller publishes (list)
 *   GET    /v1/connectors/{id}                                 one connector
 *   POST   /v1/connectors/{id}/versions                        publish `{bundle, signature}` (Idempotency-Key)
 *   GET    /v1/connectors/{id}/versions                        its versions (list)
 *   GET    /v1/connectors/{id}/versions/{version}              one version
 *   GET    /v1/connectors/{id}/versions/{version}/bundle       the bundle's bytes, exactly as published
 *   POST   /v1/publisher_keys                                  register an Ed25519 public key (Idempotency-Key)
 *   GET    /v1/publisher_keys, GET /v1/publisher_keys/{id}     list, retrieve
 *   DELETE /v1/publisher_keys/{id}                             revoke
 *
 * Publisher keys are beyond the specification, which says versions are signed but not by whom: an
 * organization registers one or more public keys per mode (several may be active, so keys rotate
 * without downtime), and a version is accepted when its signature verifies under one of them over
 * exactly the raw 32-byte SHA-256 digest of the bundle (src/services/connectors.ts).
 *
 * Modes: publisher keys, connectors, versions and their lists are per mode (a test key sees only test
 * publications, and a test-mode publisher key does not sign for live). Ownership of a connector id is
 * per organization across both modes: the first organization to publish an id, in either mode, owns it
 * in both, so rehearsing a publication in test mode can never be overtaken in live mode by another
 * organization. Ownership is claimed by inserting `connector_owners` first (unique `_id`), never by
 * read-then-write, so two organizations racing for one id get one owner.
 *
 * A version is immutable (unique on mode, connector, version): the same bytes again answer 200 with the
 * stored version; other bytes are 409 `version_exists`. The bundle upload route, alone, takes a JSON
 * body up to 15 MB (the base64 of a 10 MB bundle), parsed before the 1 MB parser of the rest of `/v1`.
 */
import crypto from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam, notFound } from '../errors';
import { isDuplicateKey } from '../models/store';
import {
  Connector,
  ConnectorObject,
  ConnectorVersion,
  ConnectorVersionObject,
  PublisherKey,
  PublisherKeyObject,
  publisherKeyStatus,
  readBundle,
  renderConnector,
  renderConnectorVersion,
  renderPublisherKey,
  type ConnectorDoc,
  type ConnectorVersionDoc,
  type PublisherKeyDoc,
} from '../models/connectors';
import {
  isPublishableVersion,
  keyFingerprint,
  latestVersion,
  parsePublicKey,
  PublicKeyError,
} from '../services/connectors';
import {
  BundleInvalidError,
  modeKey,
  publishConnectorVersionOf,
  verifyConnectorVersion,
} from '../services/connector-publishing';
import {
  CONNECTOR_ID_RULE,
  isConnectorId,
  MAX_ACTIVE_PUBLISHER_KEYS,
  MAX_BUNDLE_BYTES,
  MB,
} from '../shared/connectors';
import { idTime } from '../shared/ids';
import { authenticate, largeJsonBody, requireScope } from './middleware';
import { listOf } from '../models/wire';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { parseBody } from './validation';

/** Body limit of the upload route: the base64 of a 10 MB bundle (13.4 MB) plus the rest, with room for line breaks. */
export const VERSION_BODY_LIMIT = 15 * MB;

export const connectorVersionSchema = z.strictObject({
  bundle: z.string().min(1, 'must not be empty'),
  signature: z.string().min(1, 'must not be empty'),
});

export const publisherKeySchema = z.strictObject({
  public_key: z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters'),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  expires_at: z
    .number()
    .int('must be an integer (unix seconds)')
    .positive('must be unix seconds')
    .max(253_402_300_799, 'must be before the year 10000')
    .optional(),
});

/**
 * The body parser of `POST /v1/connectors/{id}/versions`, mounted on `/v1` before the shared 1 MB JSON
 * parser (which then finds the body already read and steps aside). It authenticates and checks the
 * scope first, so no one without `connectors:write` makes the API read 15 MB. A body over the limit is
 * 400 `bundle_invalid` (`too_large`) rather than 413: the only large field is the bundle.
 */
export function connectorVersionBodyParser(): Router {
  const router = Router();
  const parseBundleBody = largeJsonBody(
    VERSION_BODY_LIMIT,
    () =>
      new BundleInvalidError(
        'too_large',
        `The request body is over ${VERSION_BODY_LIMIT} bytes: the bundle must be at most ${MAX_BUNDLE_BYTES} bytes (10 MB) before base64.`,
      ),
  );
  router.post('/connectors/:id/versions', authenticate, requireScope('connectors:write'), parseBundleBody);
  return router;
}

/** The path's connector id, or 400 naming `id`. */
function connectorIdParam(req: Request): string {
  const id = String(req.params.id);
  if (!isConnectorId(id)) throw invalidParam('id', `Invalid id: a connector id must be ${CONNECTOR_ID_RULE}.`);
  return id;
}

/** The path's version, or 400 naming `version`. */
function versionParam(req: Request): string {
  const version = String(req.params.version);
  if (!isPublishableVersion(version))
    throw invalidParam('version', 'Invalid version: must be a semantic version like 1.2.0 or 2.0.0-rc.1.');
  return version;
}

/** The caller's connector in the key's mode, or 404 `resource_missing`. */
async function findConnector(req: Request, connectorId: string): Promise<ConnectorDoc> {
  const { orgId, livemode } = req.auth!;
  const doc = (await Connector.findOne({
    _id: modeKey(livemode, connectorId, orgId),
    org_id: orgId,
  }).lean()) as ConnectorDoc | null;
  if (!doc) throw notFound('connector', connectorId, 'id');
  return doc;
}

/** Renders connectors with their latest version and version count, computed from the immutable version rows. */
async function renderConnectors(docs: ConnectorDoc[]) {
  if (docs.length === 0) return [];
  // One query per connector of the page (index `{org_id, livemode, connector_id, _id}`), side by side.
  const versions = (
    await Promise.all(
      docs.map((d) =>
        ConnectorVersion.find(
          { org_id: d.org_id, livemode: d.livemode, connector_id: d.connector_id },
          { connector_id: 1, version: 1, name: 1, description: 1 },
        ).lean(),
      ),
    )
  ).flat() as Pick<ConnectorVersionDoc, 'connector_id' | 'version' | 'name' | 'description'>[];
  return docs.map((d) => {
    const mine = versions.filter((v) => v.connector_id === d.connector_id);
    return renderConnector(d, latestVersion(mine), mine.length);
  });
}

/** The caller's version `{version}` of connector `{id}`, or 404. */
async function findVersion(req: Request): Promise<ConnectorVersionDoc> {
  const connectorId = connectorIdParam(req);
  const version = versionParam(req);
  const { orgId, livemode } = req.auth!;
  const doc = (await ConnectorVersion.findOne({
    livemode,
    connector_id: connectorId,
    version,
    org_id: orgId,
  }).lean()) as ConnectorVersionDoc | null;
  if (!doc) throw notFound('connector version', `${connectorId}@${version}`, 'version');
  return doc;
}

const tag = 'Connectors';

/**
 * `POST /v1/connectors/{id}/versions` body `{bundle, signature}` (Idempotency-Key) → the
 * `connector_version`. `bundle`: base64 (RFC 4648, padded; whitespace ignored) of a tar or gzip'd tar
 * of at most 10 MB; `signature`: base64 of the 64-byte Ed25519 signature of the raw 32-byte SHA-256
 * digest of the decoded bundle, by an active publisher key of the organization in this mode.
 * The signature is checked before the archive is opened (an unsigned archive is never inflated).
 * Errors: 400 `parameter_invalid` naming `id` (checked before the body), `bundle` or `signature`
 * (shape); 400 `signature_invalid` (saying what was signed instead when it can tell, or that the key is
 * revoked); 400 `bundle_invalid` with a `reason` (src/services/connectors.ts `inspectBundle`); 403
 * `connector_owned_elsewhere`; 409 `version_exists`. The same bytes again: 200 with the stored version.
 * Emits `connector.version_published` once per version.
 */
function publishConnectorVersion(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/connectors/{id}/versions',
    operationId: 'publishConnectorVersion',
    errors: {
      '400': ['signature_invalid', 'bundle_invalid'],
      '403': ['connector_owned_elsewhere'],
      '409': ['version_exists'],
    },
    tag,
    summary: 'Publish a connector version',
    description:
      'A tar or gzipped tar `bundle` (base64, at most 10 MB) and its Ed25519 `signature` (base64) over the SHA-256 digest of the bundle. The same bytes again answer the stored version.',
    scope: 'connectors:write',
    bodyDoc: connectorVersionSchema,
    response: ConnectorVersionObject,
    handler: async (req, res) => {
      const connectorId = connectorIdParam(req);
      const body = parseBody(connectorVersionSchema, req.body);
      const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
      const verified = await verifyConnectorVersion(tenant, connectorId, body);
      await idempotent(req, res, 'cver', async (versionId) => {
        const stored = await publishConnectorVersionOf(temporal, tenant, versionId, verified);
        return { status: 200, body: renderConnectorVersion(stored) };
      });
    },
  });
}

/**
 * `GET /v1/connectors` → list of the caller's `connector` objects in the key's mode, newest first
 * (by first publication in that mode); `starting_after` / `ending_before` take connector ids.
 */
const listConnectors = operation({
  method: 'get',
  path: '/v1/connectors',
  operationId: 'listConnectors',
  tag,
  summary: 'List connectors',
  scope: 'connectors:read',
  list: true,
  response: listOf(ConnectorObject),
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    const q = req.query as Record<string, unknown>;
    let limit = 20;
    if (q.limit !== undefined) {
      if (typeof q.limit !== 'string' || !/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > 100)
        throw invalidParam('limit', 'Invalid limit: must be an integer from 1 to 100.');
      limit = Number(q.limit);
    }
    if (q.starting_after !== undefined && q.ending_before !== undefined)
      throw invalidParam('ending_before', 'Use starting_after or ending_before, not both.');
    const cursorName =
      q.starting_after !== undefined ? 'starting_after' : q.ending_before !== undefined ? 'ending_before' : null;
    const filter: Record<string, unknown> = { org_id: orgId, livemode };
    if (cursorName) {
      const cursor = q[cursorName];
      const doc = isConnectorId(cursor)
        ? await Connector.findOne({ _id: modeKey(livemode, cursor, orgId), org_id: orgId }).lean()
        : null;
      if (!doc)
        throw invalidParam(
          cursorName,
          `Invalid ${cursorName}: must be the id of one of your connectors from a previous page.`,
        );
      filter.seq = cursorName === 'starting_after' ? { $lt: doc.seq } : { $gt: doc.seq };
    }
    let docs = (await Connector.find(filter)
      .sort({ seq: cursorName === 'ending_before' ? 1 : -1 })
      .limit(limit + 1)
      .lean()) as ConnectorDoc[];
    const hasMore = docs.length > limit;
    docs = docs.slice(0, limit);
    if (cursorName === 'ending_before') docs.reverse();
    res.json({ object: 'list', data: await renderConnectors(docs), has_more: hasMore, url: '/v1/connectors' });
  },
});

/** `GET /v1/connectors/{id}` → the `connector`; 404 `resource_missing` unless the caller publishes it in this mode. */
const retrieveConnector = operation({
  method: 'get',
  path: '/v1/connectors/{id}',
  operationId: 'retrieveConnector',
  tag,
  summary: 'Retrieve a connector',
  scope: 'connectors:read',
  response: ConnectorObject,
  handler: async (req, res) => {
    const [rendered] = await renderConnectors([await findConnector(req, connectorIdParam(req))]);
    res.json(rendered);
  },
});

/** `GET /v1/connectors/{id}/versions` → list of its `connector_version` objects, newest first. */
const listConnectorVersions = operation({
  method: 'get',
  path: '/v1/connectors/{id}/versions',
  operationId: 'listConnectorVersions',
  tag,
  summary: "List a connector's versions",
  scope: 'connectors:read',
  list: true,
  response: listOf(ConnectorVersionObject),
  handler: async (req, res) => {
    const connector = await findConnector(req, connectorIdParam(req));
    res.json(
      await listPage(
        req,
        ConnectorVersion,
        { org_id: connector.org_id, livemode: connector.livemode, connector_id: connector.connector_id },
        renderConnectorVersion,
      ),
    );
  },
});

/** `GET /v1/connectors/{id}/versions/{version}` → the `connector_version`; 404 `resource_missing`. */
const retrieveConnectorVersion = operation({
  method: 'get',
  path: '/v1/connectors/{id}/versions/{version}',
  operationId: 'retrieveConnectorVersion',
  tag,
  summary: 'Retrieve a connector version',
  scope: 'connectors:read',
  response: ConnectorVersionObject,
  handler: async (req, res) => {
    res.json(renderConnectorVersion(await findVersion(req)));
  },
});

/**
 * `GET /v1/connectors/{id}/versions/{version}/bundle` → the bundle, byte for byte as published
 * (`application/gzip` or `application/x-tar`), with `Repr-Digest: sha-256=:<base64>:` (RFC 9530) and
 * `ETag: "<hex sha256>"`. The bytes are checked against the stored digest before they are sent.
 */
const downloadConnectorBundle = operation({
  method: 'get',
  path: '/v1/connectors/{id}/versions/{version}/bundle',
  operationId: 'downloadConnectorBundle',
  tag,
  summary: "Download a version's bundle",
  description: 'Byte for byte as published, with `Repr-Digest` (RFC 9530) and `ETag`.',
  scope: 'connectors:read',
  content: {
    'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } },
    'application/x-tar': { schema: { type: 'string', contentMediaType: 'application/x-tar' } },
  },
  handler: async (req, res) => {
    const version = await findVersion(req);
    const bytes = await readBundle(version._id, version.org_id, version.livemode);
    const digest = bytes && crypto.createHash('sha256').update(bytes).digest();
    if (!bytes || digest!.toString('hex') !== version.sha256)
      throw new Error(`bundle of ${version._id} is missing or does not match its sha256`);
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
    res
      .status(200)
      .set({
        'Content-Type': gzip ? 'application/gzip' : 'application/x-tar',
        'Content-Disposition': `attachment; filename="${version.connector_id}-${version.version}.${gzip ? 'tgz' : 'tar'}"`,
        'Repr-Digest': `sha-256=:${digest!.toString('base64')}:`,
        ETag: `"${version.sha256}"`,
        'X-Content-Type-Options': 'nosniff',
      })
      .end(bytes);
  },
});

/** Routes under `/v1/connectors`; `temporal` starts the deliveries of `connector.version_published`. */
export function connectorsRouter(temporal: Client): Router {
  return operationsRouter('/v1/connectors', [
    publishConnectorVersion(temporal),
    listConnectors,
    retrieveConnector,
    listConnectorVersions,
    retrieveConnectorVersion,
    downloadConnectorBundle,
  ]);
}

/** The caller's publisher key `req.params.id` in the key's mode, or 404 `resource_missing`. */
async function findPublisherKey(req: Request): Promise<PublisherKeyDoc> {
  const id = String(req.params.id);
  const doc = (await PublisherKey.findOne({
    _id: id,
    org_id: req.auth!.orgId,
    livemode: req.auth!.livemode,
  }).lean()) as PublisherKeyDoc | null;
  if (!doc) throw notFound('publisher key', id, 'id');
  return doc;
}

/**
 * `POST /v1/publisher_keys` body `{public_key, name?, expires_at?}` (Idempotency-Key) → the
 * `publisher_key`. `public_key`: Ed25519, PEM (SPKI) or base64 of the raw 32 bytes; `expires_at`:
 * unix seconds in the future, after which the key no longer verifies. Errors: 400 naming
 * `public_key` / `expires_at`; 400 `publisher_key_limit` beyond 10 active keys per organization and
 * mode; 409 `publisher_key_exists` when the key is already registered (even revoked: a revoked key
 * stays revoked).
 */
const createPublisherKey = operation({
  method: 'post',
  path: '/v1/publisher_keys',
  operationId: 'createPublisherKey',
  errors: { '400': ['publisher_key_limit'], '409': ['publisher_key_exists'] },
  tag,
  summary: 'Register a publisher key',
  description: 'An Ed25519 public key (PEM or base64 SPKI/raw) that signs connector versions.',
  scope: 'connectors:write',
  body: publisherKeySchema,
  response: PublisherKeyObject,
  handler: async (req, res, { body }) => {
    let raw: Buffer;
    try {
      raw = parsePublicKey(body.public_key);
    } catch (err) {
      if (err instanceof PublicKeyError) throw invalidParam('public_key', `Invalid public_key: ${err.message}.`);
      throw err;
    }
    if (body.expires_at !== undefined && body.expires_at * 1000 <= Date.now())
      throw invalidParam('expires_at', 'Invalid expires_at: must be in the future (unix seconds).');
    const { orgId, livemode } = req.auth!;
    await idempotent(req, res, 'pkey', async (id) => {
      const fingerprint = keyFingerprint(raw);
      const keys = (await PublisherKey.find({ org_id: orgId, livemode }).lean()) as PublisherKeyDoc[];
      const existing = keys.find((k) => k.fingerprint === fingerprint);
      if (existing && existing._id !== id) {
        throw new ApiError(
          409,
          'invalid_request_error',
          'publisher_key_exists',
          `This public key is already registered as ${existing._id} (${publisherKeyStatus(existing)}).`,
          'public_key',
        );
      }
      if (!existing && keys.filter((k) => publisherKeyStatus(k) === 'active').length >= MAX_ACTIVE_PUBLISHER_KEYS) {
        throw new ApiError(
          400,
          'invalid_request_error',
          'publisher_key_limit',
          `An organization may have at most ${MAX_ACTIVE_PUBLISHER_KEYS} active ${livemode ? 'live' : 'test'} publisher keys; revoke one first.`,
        );
      }
      const doc: PublisherKeyDoc = {
        _id: id,
        org_id: orgId,
        livemode,
        name: body.name ?? null,
        public_key: raw.toString('base64'),
        fingerprint,
        expires_ms: body.expires_at !== undefined ? body.expires_at * 1000 : null,
        revoked_ms: null,
        created: Math.floor(idTime(id) / 1000),
      };
      try {
        await PublisherKey.collection.insertOne(doc as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const winner = (await PublisherKey.findOne({
          org_id: orgId,
          livemode,
          fingerprint,
        }).lean()) as PublisherKeyDoc | null;
        if (winner?._id !== id)
          throw new ApiError(
            409,
            'invalid_request_error',
            'publisher_key_exists',
            `This public key is already registered as ${winner?._id}.`,
            'public_key',
          );
      }
      return { status: 200, body: renderPublisherKey(doc) };
    });
  },
});

/** `GET /v1/publisher_keys` → list of the organization's publisher keys in this mode (revoked ones too), newest first. */
const listPublisherKeys = operation({
  method: 'get',
  path: '/v1/publisher_keys',
  operationId: 'listPublisherKeys',
  tag,
  summary: 'List publisher keys',
  scope: 'connectors:read',
  list: true,
  response: listOf(PublisherKeyObject),
  handler: async (req, res) => {
    res.json(
      await listPage(
        req,
        PublisherKey,
        { org_id: req.auth!.orgId, livemode: req.auth!.livemode },
        (d: PublisherKeyDoc) => renderPublisherKey(d),
      ),
    );
  },
});

/** `GET /v1/publisher_keys/{id}` → the `publisher_key`; 404 `resource_missing`. */
const retrievePublisherKey = operation({
  method: 'get',
  path: '/v1/publisher_keys/{id}',
  operationId: 'retrievePublisherKey',
  tag,
  summary: 'Retrieve a publisher key',
  scope: 'connectors:read',
  response: PublisherKeyObject,
  handler: async (req, res) => {
    res.json(renderPublisherKey(await findPublisherKey(req)));
  },
});

/**
 * `DELETE /v1/publisher_keys/{id}` → the `publisher_key`, `status: "revoked"`. From then on it
 * verifies nothing; versions it signed before stay published. Revoking again changes nothing.
 */
const revokePublisherKey = operation({
  method: 'delete',
  path: '/v1/publisher_keys/{id}',
  operationId: 'revokePublisherKey',
  tag,
  summary: 'Revoke a publisher key',
  description: 'Versions it signed stay published; new ones it signs are refused.',
  scope: 'connectors:write',
  response: PublisherKeyObject,
  handler: async (req, res) => {
    const doc = await findPublisherKey(req);
    if (doc.revoked_ms == null)
      await PublisherKey.updateOne({ _id: doc._id, revoked_ms: null }, { $set: { revoked_ms: Date.now() } });
    res.json(renderPublisherKey(await findPublisherKey(req)));
  },
});

/** Routes under `/v1/publisher_keys`. */
export function publisherKeysRouter(): Router {
  return operationsRouter('/v1/publisher_keys', [
    createPublisherKey,
    listPublisherKeys,
    retrievePublisherKey,
    revokePublisherKey,
  ]);
}
