/**
 * The rules of connector installations (the model: src/models/connector-installations.ts),
 * shared by their routes (src/api/connector-installations.ts), the agents' `connector_installation_ids`
 * (src/api/agents.ts) and the tool-call path (`installationTools`, `connectorToolRequest`):
 *
 * - which versions install: in live mode any published version of a connector, whoever published it
 *   (a published connector is public, like a package on a registry; publishing stays the owner's); in test
 *   mode the organization's own test-mode versions, else those of the id's owner (test-mode publications
 *   claim no id and are private to their organization; `versionScope`); the
 *   latest release (src/services/connectors.ts `latestVersion`) when no `version` is named;
 * - the revocation rule: a version signed by a publisher key that was revoked afterwards installs only if it
 *   was published before the revocation (its id's time before the key's `revoked_ms`), else 409
 *   `connector_version_revoked`. (A revoked key verifies nothing, so such a version can only come from a
 *   publication that raced the revocation.) An expired key does not affect the versions it signed;
 * - `config` is checked with Ajv against the version's `config_schema` (src/services/connector-tools.ts
 *   `configFault`; 400 naming `config.<key>`); the values of keys marked `"x-secret": true` are sealed at
 *   rest and never answered, the others are stored and shown; on an update, `config` replaces the values
 *   except that a secret key it omits keeps its stored value (null removes it), and the result is checked
 *   against the target version's schema;
 * - each installation has a signing secret (`whsec_…`, as webhook endpoints and http tools), sealed;
 * - deleting an installation pulls it out of every agent's `connector_installation_ids`, as a deleted tool
 *   is pulled out of `tool_ids` (src/services/tools.ts `deleteTool`).
 */
import { Agent } from '../models/agents';
import {
  ConnectorInstallation,
  findLiveInstallation,
  type ConnectorInstallationDoc,
} from '../models/connector-installations';
import { ConnectorOwner, ConnectorVersion, PublisherKey, type ConnectorVersionDoc } from '../models/connectors';
import { insertIfAbsent } from '../models/store';
import { ApiError, invalidParam, notFound } from '../errors';
import { newWebhookSecret } from '../providers/webhook-signing';
import { openSecret, sealSecret } from '../secrets';
import { idTime } from '../shared/ids';
import type { CustomTool } from '../shared/tools';
import {
  checkManifestTools,
  configFault,
  ConnectorToolsError,
  modelToolName,
  renderToolRequest,
  secretConfigKeys,
  type ConnectorToolsManifest,
} from './connector-tools';
import { latestVersion } from './connectors';

type Tenant = { orgId: string; livemode: boolean };

/** Connector installations an agent may list in `connector_installation_ids`. */
export const MAX_AGENT_INSTALLATIONS = 32;

/** A version's tools and config schema, parsed once per process (a version is immutable). */
const declaredByVersion = new Map<string, ConnectorToolsManifest>();

/**
 * What version `doc` declares (src/services/connector-tools.ts `checkManifestTools` on its stored manifest).
 * @throws ApiError 409 `connector_version_invalid` for a version published before these rules whose
 *   `tools` or `config_schema` does not follow them
 */
function versionDeclares(doc: Pick<ConnectorVersionDoc, '_id' | 'connector_id' | 'manifest_json' | 'version'>) {
  let declared = declaredByVersion.get(doc._id);
  if (!declared) {
    try {
      declared = checkManifestTools(JSON.parse(doc.manifest_json) as Record<string, unknown>, doc.connector_id);
    } catch (err) {
      if (!(err instanceof ConnectorToolsError)) throw err;
      throw new ApiError(
        409,
        'invalid_request_error',
        'connector_version_invalid',
        `Version ${doc.version} of ${doc.connector_id} cannot be installed: ${err.message}`,
        'version',
      );
    }
    if (declaredByVersion.size >= 1000) declaredByVersion.delete(declaredByVersion.keys().next().value!);
    declaredByVersion.set(doc._id, declared);
  }
  return declared;
}

/**
 * Whose versions of `connectorId` the tenant installs: in live mode every version (the id's
 * owner published them all); in test mode the organization's own test-mode versions when it published
 * some, else the id's owner's (the organization that published it live), else its own (none: 404).
 */
async function versionScope(
  tenant: Tenant,
  connectorId: string,
): Promise<{ livemode: boolean; connector_id: string; org_id?: string }> {
  const { livemode, orgId } = tenant;
  if (livemode) return { livemode, connector_id: connectorId };
  if (await ConnectorVersion.exists({ livemode, connector_id: connectorId, org_id: orgId }))
    return { livemode, connector_id: connectorId, org_id: orgId };
  const owner = await ConnectorOwner.findById(connectorId, { org_id: 1 }).lean();
  return { livemode, connector_id: connectorId, org_id: owner?.org_id ?? orgId };
}

/**
 * The version an organization may install: `version` of `connectorId` in the tenant's mode, or its latest
 * release when `version` is undefined, and it passes the revocation rule (see the header).
 * @throws ApiError 404 `resource_missing` naming `connector_id` (no version published in this mode) or
 *   `version`; 409 `connector_version_revoked` naming `version`
 */
export async function installableVersion(
  tenant: Tenant,
  connectorId: string,
  version: string | undefined,
): Promise<ConnectorVersionDoc> {
  const scope = await versionScope(tenant, connectorId);
  let doc: ConnectorVersionDoc | null;
  if (version === undefined) {
    const all = (await ConnectorVersion.find(scope).lean()) as ConnectorVersionDoc[];
    doc = latestVersion(all);
    if (!doc) throw notFound('connector', connectorId, 'connector_id');
  } else {
    doc = (await ConnectorVersion.findOne({ ...scope, version }).lean()) as ConnectorVersionDoc | null;
    if (!doc) {
      if (!(await ConnectorVersion.exists(scope))) throw notFound('connector', connectorId, 'connector_id');
      throw notFound('connector version', `${connectorId}@${version}`, 'version');
    }
  }
  const key = await PublisherKey.findById(doc.key_id, { revoked_ms: 1 }).lean();
  if (key?.revoked_ms != null && idTime(doc._id) >= key.revoked_ms)
    throw new ApiError(
      409,
      'invalid_request_error',
      'connector_version_revoked',
      `Version ${doc.version} of ${connectorId} was published after its signing key ${doc.key_id} was revoked; install a version published before the revocation, or a newer one signed by an active key.`,
      'version',
    );
  versionDeclares(doc);
  return doc;
}

/** An installation's config split for storage: the plain values' JSON, the secret keys, the sealed secrets. */
interface StoredConfig {
  config_json: string;
  secret_config_keys: string[];
  secret_config_sealed: string | null;
}

/**
 * Checks `config` against `version`'s `config_schema` and splits it for storage (see the header).
 * @throws ApiError 400 `parameter_invalid` naming `config` or `config.<key>…`
 */
export function storedConfig(version: ConnectorVersionDoc, config: Record<string, unknown>): StoredConfig {
  const { configSchema } = versionDeclares(version);
  const fault = configFault(configSchema, config);
  if (fault)
    throw invalidParam(
      fault.param,
      `Invalid ${fault.param}: ${fault.message} (the config_schema of ${version.connector_id} ${version.version}).`,
    );
  const secretKeys = new Set(secretConfigKeys(configSchema));
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) (secretKeys.has(k) ? secrets : plain)[k] = v;
  const names = Object.keys(secrets);
  return {
    config_json: JSON.stringify(plain),
    secret_config_keys: names,
    secret_config_sealed: names.length ? sealSecret(JSON.stringify(secrets)) : null,
  };
}

/** The whole config of an installation: its plain values and its opened secret values. */
function fullConfig(doc: ConnectorInstallationDoc): Record<string, unknown> {
  const secrets = openSecret(doc.secret_config_sealed);
  return {
    ...(JSON.parse(doc.config_json ?? '{}') as Record<string, unknown>),
    ...(secrets ? (JSON.parse(secrets) as Record<string, unknown>) : {}),
  };
}

/**
 * The config an update leaves: `patch` (when given) replaces the values, except that a secret key of the
 * target version's schema it omits keeps its stored value and a secret key it sets to null is removed;
 * without `patch`, the stored config as it is.
 */
export function updatedConfig(
  current: ConnectorInstallationDoc,
  target: ConnectorVersionDoc,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const stored = fullConfig(current);
  if (patch === undefined) return stored;
  const next: Record<string, unknown> = { ...patch };
  for (const key of secretConfigKeys(versionDeclares(target).configSchema)) {
    if (!(key in patch) && key in stored) next[key] = stored[key];
    if (patch[key] === null) delete next[key];
  }
  return next;
}

/** What `insertInstallation` stores besides the id and the tenant (checked already). */
export interface NewInstallation {
  version: ConnectorVersionDoc;
  config: StoredConfig;
  metadata: Record<string, string>;
}

/** The names the model calls a version's tools by. */
const toolNames = (version: ConnectorVersionDoc) =>
  versionDeclares(version).tools.map((t) => modelToolName(version.connector_id, t.name));

/**
 * Inserts installation `id` with a new signing secret. A retry of the same creation (the idempotency
 * record's id) finds it there and answers it as stored.
 * @returns the stored document and its opened signing secret
 */
export async function insertInstallation(
  tenant: Tenant,
  id: string,
  fields: NewInstallation,
): Promise<{ doc: ConnectorInstallationDoc; secret: string }> {
  const created = Math.floor(idTime(id) / 1000);
  const doc: ConnectorInstallationDoc = {
    _id: id,
    org_id: tenant.orgId,
    livemode: tenant.livemode,
    connector_id: fields.version.connector_id,
    connector_version: fields.version.version,
    version_id: fields.version._id,
    tool_names: toolNames(fields.version),
    ...fields.config,
    secret: sealSecret(newWebhookSecret()),
    metadata_json: JSON.stringify(fields.metadata),
    created,
    updated: created,
    revision: 1,
    deleted_ms: null,
  } as ConnectorInstallationDoc;
  const stored = (await insertIfAbsent(ConnectorInstallation, doc))
    ? doc
    : ((await ConnectorInstallation.findById(id).lean()) as ConnectorInstallationDoc);
  return { doc: stored, secret: openSecret(stored.secret)! };
}

/** A change of an installation: another version and/or config, metadata merged by the caller. */
export interface InstallationChange {
  connectorVersion?: string;
  config?: Record<string, unknown>;
  /** Answers the merged `metadata_json` from the current one; undefined: unchanged. */
  metadata?: (currentJson: string | null | undefined) => string;
}

/**
 * Computes the `$set` of `change` on `current` (empty when nothing changes): the target version (the one
 * named, else the installed one) and the config checked against its schema.
 * @throws ApiError as `installableVersion` and `storedConfig`
 */
export async function installationSet(
  tenant: Tenant,
  current: ConnectorInstallationDoc,
  change: InstallationChange,
): Promise<Record<string, unknown>> {
  const set: Record<string, unknown> = {};
  const moving = change.connectorVersion !== undefined && change.connectorVersion !== current.connector_version;
  if (moving || change.config !== undefined) {
    const target = moving
      ? await installableVersion(tenant, current.connector_id, change.connectorVersion)
      : ((await ConnectorVersion.findById(current.version_id).lean()) as ConnectorVersionDoc);
    Object.assign(set, storedConfig(target, updatedConfig(current, target, change.config)));
    if (moving)
      Object.assign(set, { connector_version: target.version, version_id: target._id, tool_names: toolNames(target) });
  }
  if (change.metadata) set.metadata_json = change.metadata(current.metadata_json);
  return set;
}

/**
 * Applies `change` to the tenant's live installation `id` with a revision check, recomputing it when another
 * request wrote first.
 * @throws ApiError 404 `resource_missing` naming `id`; as `installationSet`; 409 `resource_conflict` after 5
 *   lost races
 */
export async function updateInstallation(
  tenant: Tenant,
  id: string,
  change: InstallationChange,
): Promise<ConnectorInstallationDoc> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await findLiveInstallation(tenant, id);
    if (!current) throw notFound('connector installation', id, 'id');
    const set = await installationSet(tenant, current, change);
    if (Object.keys(set).length === 0) return current;
    set.updated = Math.floor(Date.now() / 1000);
    const updated = (await ConnectorInstallation.findOneAndUpdate(
      { _id: id, revision: current.revision, deleted_ms: null },
      { $set: set, $inc: { revision: 1 } },
      { returnDocument: 'after' },
    ).lean()) as ConnectorInstallationDoc | null;
    if (updated) return updated;
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'resource_conflict',
    'The connector installation was changed by other requests at the same time; retry.',
  );
}

/**
 * Deletes the tenant's installation `id` (soft: `deleted_ms`; its secrets erased) and pulls it out of the
 * `connector_installation_ids` of every agent of the organization and mode, deleted agents included. The
 * pull also runs for an installation already deleted, finishing a deletion that crashed half-way.
 * @throws ApiError 404 `resource_missing` naming `id` when unknown or already deleted
 */
export async function deleteInstallation(tenant: Tenant, id: string): Promise<void> {
  const { orgId, livemode } = tenant;
  const doc = await ConnectorInstallation.findOneAndUpdate(
    { _id: id, org_id: orgId, livemode, deleted_ms: null },
    { $set: { deleted_ms: Date.now(), secret: null, secret_config_sealed: null }, $inc: { revision: 1 } },
    { returnDocument: 'after' },
  ).lean();
  const known = doc ?? (await ConnectorInstallation.findById(id).lean());
  if (known && known.org_id === orgId && known.livemode === livemode)
    await Agent.updateMany(
      { org_id: orgId, livemode, connector_installation_ids: id },
      { $pull: { connector_installation_ids: id } },
    );
  if (!doc) throw notFound('connector installation', id, 'id');
}

/**
 * Checks an agent's `connector_installation_ids`: each a live installation of the organization and mode,
 * none twice, at most `MAX_AGENT_INSTALLATIONS`.
 * @throws ApiError 400 `parameter_invalid` naming `connector_installation_ids` or `connector_installation_ids[i]`
 */
export async function checkAgentInstallationIds(tenant: Tenant, ids: string[]): Promise<string[]> {
  const param = 'connector_installation_ids';
  if (ids.length > MAX_AGENT_INSTALLATIONS)
    throw invalidParam(
      param,
      `Invalid ${param}: an agent may have at most ${MAX_AGENT_INSTALLATIONS} connector installations.`,
    );
  const found = await Promise.all(ids.map((id) => findLiveInstallation(tenant, id)));
  ids.forEach((id, i) => {
    if (!found[i])
      throw invalidParam(`${param}[${i}]`, `Invalid ${param}[${i}]: no such connector installation: '${id}'.`);
    if (ids.indexOf(id) !== i) throw invalidParam(`${param}[${i}]`, `Invalid ${param}[${i}]: '${id}' is listed twice.`);
  });
  return ids;
}

/**
 * After an agent's `connector_installation_ids` were written: pulls out any of them deleted meanwhile (the
 * race `dropDeletedTools` of src/services/tools.ts closes for `tool_ids`). Answers whether it pulled any.
 */
export async function dropDeletedInstallations(agentId: string, ids: readonly string[]): Promise<boolean> {
  const docs = await Promise.all(ids.map((id) => ConnectorInstallation.findById(id, { deleted_ms: 1 }).lean()));
  const gone = ids.filter((_, i) => docs[i]?.deleted_ms != null);
  // One plain `$pull` per installation: FerretDB 1.x ignores a `$pull` by condition (`{$in: …}`).
  for (const id of gone) await Agent.updateOne({ _id: agentId }, { $pull: { connector_installation_ids: id } });
  return gone.length > 0;
}

/** The live installation `id` of the tenant with its version's declarations, or null. */
async function installationWithTools(tenant: Tenant, id: string) {
  const doc = await findLiveInstallation(tenant, id);
  if (!doc) return null;
  const version = (await ConnectorVersion.findById(doc.version_id).lean()) as ConnectorVersionDoc | null;
  return version ? { doc, declared: versionDeclares(version) } : null;
}

/**
 * The tools of the tenant's installations `installationIds`, in order, as the model is offered them (the
 * contract at the end of src/shared/tools.ts): named `<last label of the connector id>__<tool name>`, with
 * the tool's description, parameters, `timeout_ms` (default 5,000) and `speak_while_running`; source
 * `{kind: 'connector', installationId, toolName}`. Missing or deleted installations are skipped.
 */
export async function installationTools(tenant: Tenant, installationIds: string[]): Promise<CustomTool[]> {
  const found = await Promise.all(installationIds.map((id) => installationWithTools(tenant, id)));
  return found.flatMap((one) =>
    one
      ? one.declared.tools.map((t) => ({
          name: modelToolName(one.doc.connector_id, t.name),
          description: t.description,
          parameters: t.parameters,
          source: { kind: 'connector' as const, installationId: one.doc._id, toolName: t.name },
          timeoutMs: t.timeoutMs,
          speakWhileRunning: t.speakWhileRunning,
        }))
      : [],
  );
}

/** The request of a connector's tool call, ready to send and sign (see `connectorToolRequest`). */
export interface ConnectorToolRequest {
  method: 'GET' | 'POST';
  /** HTTPS, placeholders filled (src/services/connector-tools.ts `renderToolRequest`). */
  url: string;
  /** The manifest's headers, filled in; the caller adds its own (`Content-Type` for a body, signature…). */
  headers: Record<string, string>;
  /** The JSON text of the body; null without one. */
  body: string | null;
  /** The installation's signing secret (`whsec_…`), for `Svc-Signature`. */
  secret: string;
}

/**
 * The request of tool `toolName` (its name in `connector.json`) of the tenant's installation
 * `installationId`, called with `args` (already checked against the tool's parameters): the request
 * template rendered with the installation's config (secret values opened) and `args`.
 * @returns the request; `{error}` (a sentence for the model: the call failed) when the rendered URL is not an
 *   HTTPS URL or a rendered header holds a line break; null when the installation (or its tool) is gone
 */
export async function connectorToolRequest(
  tenant: Tenant,
  installationId: string,
  toolName: string,
  args: Record<string, unknown>,
): Promise<ConnectorToolRequest | { error: string } | null> {
  const one = await installationWithTools(tenant, installationId);
  const tool = one?.declared.tools.find((t) => t.name === toolName);
  if (!one || !tool) return null;
  const rendered = renderToolRequest(tool.request, { config: fullConfig(one.doc), arguments: args });
  if ('error' in rendered) return rendered;
  return { ...rendered, secret: openSecret(one.doc.secret)! };
}
