/**
 * Connector installations, scopes `connectors:write` / `connectors:read`:
 *
 *   POST   /v1/connector_installations        install `{connector_id, version?, config?, metadata?}`
 *                                             (Idempotency-Key) → the installation with its `secret`
 *   GET    /v1/connector_installations        list, newest first (list conventions)
 *   GET    /v1/connector_installations/{id}   retrieve (no secret; secret config values by name only)
 *   POST   /v1/connector_installations/{id}   update (Idempotency-Key): another `version`, `config`, `metadata`
 *   DELETE /v1/connector_installations/{id}   delete → `{id, object: "connector_installation", deleted: true}`
 *
 * An installation belongs to the key's organization and mode; the connector may be anyone's published
 * connector in that mode. The rules (which versions install, the revocation rule, config and its secrets,
 * what a deletion does to agents) are src/services/connector-installations.ts's; an agent lists the
 * installations whose tools it may call in `connector_installation_ids` (src/api/agents.ts).
 */
import type { Router } from 'express';
import { z } from 'zod';
import {
  ConnectorInstallation,
  ConnectorInstallationObject,
  findLiveInstallation,
  renderInstallation,
  type ConnectorInstallationDoc,
} from '../models/connector-installations';
import { DeletedObject, listOf } from '../models/wire';
import { notFound } from '../errors';
import {
  deleteInstallation,
  insertInstallation,
  installableVersion,
  installationSet,
  storedConfig,
  updateInstallation,
} from '../services/connector-installations';
import { CONNECTOR_ID_RULE, isConnectorId } from '../shared/connectors';
import { isPublishableVersion } from '../services/connectors';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { mergedMetadata, metadata } from './validation';

const versionField = z
  .string()
  .refine(isPublishableVersion, 'must be a semantic version like 1.2.0 or 2.0.0-rc.1')
  .describe('A published version of the connector; its latest release when omitted.');
const configField = z
  .record(z.string(), z.unknown())
  .describe(
    "Values for the version's `config_schema`; those it marks `x-secret` are stored sealed and shown by name only.",
  );

/** `POST /v1/connector_installations`. */
export const createInstallationSchema = z.strictObject({
  connector_id: z
    .string()
    .refine(isConnectorId, `must be ${CONNECTOR_ID_RULE}`)
    .describe('The connector to install: any connector published in this mode.'),
  version: versionField.optional(),
  config: configField.optional(),
  metadata: metadata.optional(),
});

/**
 * `POST /v1/connector_installations/{id}`: another version and/or config (a secret key omitted keeps its
 * value), metadata merged.
 */
export const updateInstallationSchema = z.strictObject({
  version: versionField
    .describe('Move to this published version; the config is checked against its schema.')
    .optional(),
  config: configField
    .describe(
      "Replaces the config; a secret key left out keeps its stored value, one set to null is removed. Checked against the (target) version's `config_schema`.",
    )
    .optional(),
  metadata: metadata.optional(),
});

const tag = 'Connector installations';

/**
 * `POST /v1/connector_installations` → the installation with its signing `secret`, shown this once (a replay
 * with the same Idempotency-Key shows it again). 400 naming `connector_id`, `version` or `config.<key>`; 404
 * `resource_missing` naming `connector_id` (nothing published in this mode) or `version`; 409
 * `connector_version_revoked` (the revocation rule) or `connector_version_invalid`.
 */
const createInstallation = operation({
  method: 'post',
  path: '/v1/connector_installations',
  operationId: 'createConnectorInstallation',
  errors: { '404': ['resource_missing'], '409': ['connector_version_invalid', 'connector_version_revoked'] },
  tag,
  summary: 'Install a connector',
  description:
    "Installs a published version (the latest release when `version` is omitted) with your `config`, checked against the version's `config_schema`. Answers the signing `secret` this once.",
  scope: 'connectors:write',
  body: createInstallationSchema,
  example: { connector_id: 'com.example.crm', config: { subdomain: 'acme', api_key: 'sk_yours' } },
  response: ConnectorInstallationObject,
  handler: async (req, res, { body }) => {
    const version = await installableVersion(req.auth!, body.connector_id, body.version);
    const config = storedConfig(version, body.config ?? {});
    await idempotent(req, res, 'cinst', async (id) => {
      const { doc, secret } = await insertInstallation(req.auth!, id, {
        version,
        config,
        metadata: body.metadata ?? {},
      });
      return { status: 200, body: renderInstallation(doc, secret) };
    });
  },
});

/** `GET /v1/connector_installations` → list of installations, newest first (no secrets). */
const listInstallations = operation({
  method: 'get',
  path: '/v1/connector_installations',
  operationId: 'listConnectorInstallations',
  tag,
  summary: 'List connector installations',
  scope: 'connectors:read',
  list: true,
  response: listOf(ConnectorInstallationObject),
  handler: async (req, res) => {
    const filter = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null };
    res.json(
      await listPage(req, ConnectorInstallation, filter, (doc: ConnectorInstallationDoc) => renderInstallation(doc)),
    );
  },
});

/** `GET /v1/connector_installations/{id}` → the installation (no secret); 404 `resource_missing` naming `id`. */
const retrieveInstallation = operation({
  method: 'get',
  path: '/v1/connector_installations/{id}',
  operationId: 'retrieveConnectorInstallation',
  tag,
  summary: 'Retrieve a connector installation',
  scope: 'connectors:read',
  response: ConnectorInstallationObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await findLiveInstallation(req.auth!, id);
    if (!doc) throw notFound('connector installation', id, 'id');
    res.json(renderInstallation(doc));
  },
});

/**
 * `POST /v1/connector_installations/{id}` (Idempotency-Key) body `{version?, config?, metadata?}` → the
 * installation (no secret). The config (given, or the stored one on a version move) is checked against the
 * target version's schema before anything is written; `metadata` merges (a key set to `""` is removed).
 * Errors as at creation, and 404 `resource_missing` naming `id`.
 */
const updateInstallationOperation = operation({
  method: 'post',
  path: '/v1/connector_installations/{id}',
  operationId: 'updateConnectorInstallation',
  errors: { '409': ['connector_version_invalid', 'connector_version_revoked', 'resource_conflict'] },
  tag,
  summary: 'Update a connector installation',
  description:
    "Move to another published `version` and/or replace the `config` (a secret key left out keeps its value); the config is checked against the target version's `config_schema`.",
  scope: 'connectors:write',
  body: updateInstallationSchema,
  example: { version: '1.1.0', config: { subdomain: 'acme-eu' } },
  response: ConnectorInstallationObject,
  handler: async (req, res, { body }) => {
    const id = String(req.params.id);
    const change = {
      connectorVersion: body.version,
      config: body.config,
      metadata: body.metadata && ((current: string | null | undefined) => mergedMetadata(current, body.metadata!)),
    };
    // Checked before the idempotency record (a corrected retry may reuse the key); applied with a revision check.
    const current = await findLiveInstallation(req.auth!, id);
    if (!current) throw notFound('connector installation', id, 'id');
    await installationSet(req.auth!, current, change);
    await idempotent(req, res, 'req', async () => ({
      status: 200,
      body: renderInstallation(await updateInstallation(req.auth!, id, change)),
    }));
  },
});

/**
 * `DELETE /v1/connector_installations/{id}` → `{id, object: "connector_installation", deleted: true}`. Its
 * tools are gone from then on and it is removed from the `connector_installation_ids` of every agent that
 * listed it. 404 `resource_missing` when unknown or already deleted.
 */
const deleteInstallationOperation = operation({
  method: 'delete',
  path: '/v1/connector_installations/{id}',
  operationId: 'deleteConnectorInstallation',
  tag,
  summary: 'Delete a connector installation',
  description: 'Agents that list it in `connector_installation_ids` lose it.',
  scope: 'connectors:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    await deleteInstallation(req.auth!, id);
    res.json({ id, object: 'connector_installation' as const, deleted: true });
  },
});

/** Routes under `/v1/connector_installations` (mounted there by src/api/app.ts). */
export function connectorInstallationsRouter(): Router {
  return operationsRouter('/v1/connector_installations', [
    createInstallation,
    listInstallations,
    retrieveInstallation,
    updateInstallationOperation,
    deleteInstallationOperation,
  ]);
}
