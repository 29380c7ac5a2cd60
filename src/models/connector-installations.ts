/**
 * Connector installations (`cinst_…`, object `connector_installation`): an organization's use of a
 * published connector version, with the config it supplies. Written only by the API
 * through src/services/connector-installations.ts (`POST /v1/connector_installations`, `POST` and `DELETE
 * /v1/connector_installations/{id}`); every write names its `revision` and increments it. Read by the API
 * and, for the agents listing it in `connector_installation_ids`, when the assistant is offered its tools.
 *
 * Secrets at rest (src/secrets.ts `sealSecret`): the signing `secret` (`whsec_…`, shown once, at creation)
 * and the config's secret values (the keys the version's `config_schema` marks `"x-secret": true`: one
 * sealed JSON object; only their names are stored in the clear and shown). The config's other values are
 * stored as JSON text (its keys are the publisher's). Deletion is soft (`deleted_ms`, secrets erased): a
 * deleted installation is missing for every read.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, metadataObject, unix } from './wire';

const installationSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** The connector id (`com.example.crm`); its publisher may be another organization. */
    connector_id: { type: String, required: true },
    /** The installed version (semver) and its `cver_…` id. */
    connector_version: { type: String, required: true },
    version_id: { type: String, required: true },
    /** The names the model calls the version's tools by (`crm__lookup_order`), for the object. */
    tool_names: { type: [String], default: [] },
    /** The config's values that are not secret, as JSON text. */
    config_json: { type: String, default: '{}' },
    /** The names of the secret config values held in `secret_config_sealed`. */
    secret_config_keys: { type: [String], default: [] },
    /** `sealSecret` of the JSON object of the secret config values; null when there are none. */
    secret_config_sealed: { type: String, default: null },
    /** `sealSecret` of the signing secret `whsec_…`; null once deleted. */
    secret: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    created: { type: Number, required: true },
    updated: { type: Number, required: true },
    revision: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
installationSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const ConnectorInstallation = mongoose.model(
  'ConnectorInstallation',
  installationSchema,
  'connector_installations',
);

export type ConnectorInstallationDoc = WithId<InferSchemaType<typeof installationSchema>>;

/**
 * The tenant's installation `id` unless it is deleted, else null: the one lookup of an installation by id.
 * Read by `_id` alone and the tenant checked here (see `findByIds` in ./store: FerretDB pushes down only a
 * filter that is exactly `{_id}`).
 */
export async function findLiveInstallation(
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<ConnectorInstallationDoc | null> {
  const doc = (await ConnectorInstallation.findById(id).lean()) as ConnectorInstallationDoc | null;
  return doc && doc.org_id === tenant.orgId && doc.livemode === tenant.livemode && doc.deleted_ms == null ? doc : null;
}

/** The `connector_installation` object as the API answers it (the OpenAPI component `ConnectorInstallation`). */
export const ConnectorInstallationObject = apiObject(
  'ConnectorInstallation',
  "A published connector version installed by your organization, with the config you supplied. Secret config values (`x-secret` in the version's `config_schema`) are shown by name only; the signing `secret` is shown once, at creation.",
  z.object({
    id: z.string().meta({ examples: ['cinst_01jd5x2v7c0000000000000000'] }),
    object: z.literal('connector_installation'),
    livemode: z.boolean(),
    connector_id: z.string().meta({ examples: ['com.example.crm'] }),
    version: z.string().meta({ examples: ['1.0.0'] }),
    config: z.record(z.string(), z.unknown()).describe('The config values that are not secret.'),
    secret_config_keys: z
      .array(z.string())
      .describe('The names of the secret config values you supplied; their values are never shown.'),
    tools: z
      .array(z.string())
      .describe("The names the assistant calls the version's tools by: `<last label of the connector id>__<tool>`."),
    metadata: metadataObject,
    secret: z
      .string()
      .optional()
      .meta({ examples: ['whsec_5b0c2f…'] })
      .describe(
        "Signs each request of the connector's tools (`Svc-Signature`, as webhooks are signed). Only in the answer of the creation.",
      ),
    created: unix,
    updated: unix,
  }),
);

/** The installation object. `secret` is the opened signing secret, given only by the creation's answer. */
export function renderInstallation(
  doc: ConnectorInstallationDoc,
  secret?: string,
): z.output<typeof ConnectorInstallationObject> {
  return {
    id: doc._id,
    object: 'connector_installation' as const,
    livemode: doc.livemode,
    connector_id: doc.connector_id,
    version: doc.connector_version,
    config: JSON.parse(doc.config_json ?? '{}') as Record<string, unknown>,
    secret_config_keys: [...(doc.secret_config_keys ?? [])],
    tools: [...(doc.tool_names ?? [])],
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    ...(secret !== undefined ? { secret } : {}),
    created: doc.created,
    updated: doc.updated,
  };
}
