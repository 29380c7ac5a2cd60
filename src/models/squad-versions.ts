/**
 * Squad versions (object `squad_version`, id `<squad id>:v<number>`), as agent versions
 * (src/models/agent-versions.ts): one immutable document per configuration a squad has had (members,
 * `start`, `max_handoffs`, `overflow`, and the hand-offs with their context policies). Written only by the
 * API through src/services/squad-versions.ts: `POST /v1/squads` writes version 1, every
 * `POST /v1/squads/{id}` that gives a configuration field (or `"publish": false`) the next one. Its
 * `config_json` never changes; `published_ms` is set the first time it is published.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import type { SquadConfig } from '../shared/squads';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';
import { SquadObject, renderSquad, type SquadDoc } from './squads';

/** `sqd_…:v3`: the `_id` of version `number` of squad `squadId`. */
export function squadVersionId(squadId: string, number: number): string {
  return `${squadId}:v${number}`;
}

const squadVersionSchema = new Schema(
  {
    /** `squadVersionId(squad_id, number)`. */
    _id: { type: String, required: true },
    squad_id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** 1, 2, 3… per squad, in the order the versions were made. */
    number: { type: Number, required: true },
    /** The configuration (src/shared/squads.ts `SquadConfig`) as JSON; never changes. */
    config_json: { type: String, required: true },
    /** True when it was made by an update with `"publish": false`. */
    draft: { type: Boolean, default: false },
    created_ms: { type: Number, required: true },
    /** When it was first published (ms); null while it never was. */
    published_ms: { type: Number, default: null },
  },
  base,
);
/** `GET /v1/squads/{id}/versions`: one squad's versions, newest number first. */
squadVersionSchema.index({ squad_id: 1, number: -1 });
export const SquadVersion = mongoose.model('SquadVersion', squadVersionSchema, 'squad_versions');

export type SquadVersionDoc = InferSchemaType<typeof squadVersionSchema>;

/** The configuration stored in a version document. */
export function squadVersionConfig(doc: Pick<SquadVersionDoc, 'config_json'>): SquadConfig {
  return JSON.parse(doc.config_json) as SquadConfig;
}

const squadShape = SquadObject.shape;
/** The configuration as the API shows it: the squad object's fields that a version fixes. */
export const SquadVersionConfigObject = apiObject(
  'SquadVersionConfig',
  'The configuration of the squad this version fixes: its members (with their hand-offs and context policies), `start`, `max_handoffs` and `overflow`.',
  z.object({
    members: squadShape.members,
    start: squadShape.start,
    max_handoffs: squadShape.max_handoffs,
    overflow: squadShape.overflow,
  }),
);

/** The `squad_version` object (the OpenAPI component `SquadVersion`). */
export const SquadVersionObject = apiObject(
  'SquadVersion',
  "An immutable snapshot of a squad's configuration. Calls record the version they ran (`squad_version`).",
  z.object({
    id: z.string().meta({ examples: ['sqd_01jd5x2v7c0000000000000000:v3'] }),
    object: z.literal('squad_version'),
    livemode: z.boolean(),
    squad_id: z.string(),
    number: z.number().int().describe('1, 2, 3… in the order the versions were made.'),
    draft: z.boolean().describe('Made by an update with `"publish": false` (not published when made).'),
    published: z.boolean().describe('Whether it is the version new calls use (absent a traffic split).'),
    published_at: unix.nullable().describe('When it was first published; null while it never was.'),
    config: SquadVersionConfigObject,
    created: unix,
  }),
);

/**
 * The `squad_version` object.
 * @param publishedNumber the number of the squad's published version (`published` is whether it is this one)
 */
export function renderSquadVersion(
  doc: WithId<SquadVersionDoc>,
  squad: WithId<SquadDoc>,
  publishedNumber: number,
): z.output<typeof SquadVersionObject> {
  const config = squadVersionConfig(doc);
  const shown = renderSquad({
    ...squad,
    members_json: JSON.stringify(config.members),
    start: config.start,
    max_handoffs: config.max_handoffs,
    overflow: config.overflow,
  });
  return {
    id: doc._id,
    object: 'squad_version' as const,
    livemode: doc.livemode,
    squad_id: doc.squad_id,
    number: doc.number,
    draft: doc.draft ?? false,
    published: doc.number === publishedNumber,
    published_at: doc.published_ms == null ? null : Math.floor(doc.published_ms / 1000),
    config: { members: shown.members, start: shown.start, max_handoffs: shown.max_handoffs, overflow: shown.overflow },
    created: Math.floor(doc.created_ms / 1000),
  };
}
