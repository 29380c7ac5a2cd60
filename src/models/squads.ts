/**
 * Squads (`sqd_…`, object `squad`, src/shared/squads.ts): agents that hand a call to each other. Written
 * only by the API (`POST /v1/squads`, `POST` and `DELETE /v1/squads/{id}`, src/api/squads.ts); a call
 * keeps a snapshot of its squad's members at the versions fixed when it started (src/shared/squads.ts
 * `CallSquad`), so later edits never change a running call. Deletion is soft (`deleted_ms`), as agents'.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import {
  DEFAULT_VOICE_CHANGE,
  VOICE_CHANGES,
  type HandoffContext,
  type SquadConfig,
  type SquadMember,
} from '../shared/squads';
import { findByIdShared, schemaOptions as base, type WithId } from './store';
import { apiObject, metadataObject, unix } from './wire';
import type { TrafficSplit } from './agents';

const squadSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, required: true },
    /** The members (src/shared/squads.ts `SquadMember[]`), JSON. */
    members_json: { type: String, required: true },
    start: { type: String, required: true },
    max_handoffs: { type: Number, required: true },
    overflow: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    /**
     * The published version (the configuration in this document's fields is its) and the newest
     * version's number (src/models/squad-versions.ts); null for a squad made before versions existed,
     * until its version 1 is written (src/services/squad-versions.ts `ensureSquadVersions`).
     */
    version: { type: Number, default: null },
    latest_version: { type: Number, default: null },
    /** The traffic split (`[{version, weight}]`) as JSON; null: every new call uses `version`. */
    traffic_split_json: { type: String, default: null },
    created: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
squadSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Squad = mongoose.model('Squad', squadSchema, 'squads');

export type SquadDoc = InferSchemaType<typeof squadSchema>;

/** The squad's configuration as stored. */
export function squadConfig(doc: Pick<SquadDoc, 'members_json' | 'start' | 'max_handoffs' | 'overflow'>): SquadConfig {
  return {
    members: JSON.parse(doc.members_json) as SquadMember[],
    start: doc.start,
    max_handoffs: doc.max_handoffs,
    overflow: doc.overflow ?? null,
  };
}

/**
 * The tenant's squad `id` unless it is deleted, else null: the one lookup for every use of a squad by id
 * (read by `_id` alone, the tenant checked here, as `findLiveAgent`).
 */
export async function findLiveSquad(
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<WithId<SquadDoc> | null> {
  const doc = await findByIdShared<WithId<SquadDoc>>(Squad, id);
  return doc && doc.org_id === tenant.orgId && doc.livemode === tenant.livemode && doc.deleted_ms == null ? doc : null;
}

/** A hand-off's `context` policy as the API takes and shows it. */
export const HandoffContextObject = z
  .union([
    z.enum(['all', 'summary']),
    z.strictObject({ last: z.number().int().min(1).describe('How many of the latest lines the next member sees.') }),
  ])
  .describe(
    'What the receiving member sees of the conversation so far: `"all"` (every caller and assistant line), `{"last": N}` (the last N lines), or `"summary"` (a summary the model writes at the hand-off, stored on the transcript). Its system prompt and tools are its own.',
  );

/** One entry of a squad's `traffic_split` (the OpenAPI component `SquadTrafficSplitEntry`). */
export const SquadTrafficSplitEntryObject = apiObject(
  'SquadTrafficSplitEntry',
  "One version's share of a squad's new calls.",
  z.object({
    version: z.number().int().describe('A version of this squad.'),
    weight: z.number().int().describe('Its share of new calls, in percent (the weights add to 100).'),
  }),
);

/** The `squad` object (the OpenAPI component `Squad`). */
export const SquadObject = apiObject(
  'Squad',
  'Agents that hand a call to each other: each member is offered one `handoff_to_<name>` tool per hand-off it may make.',
  z.object({
    id: z.string().meta({ examples: ['sqd_01jd5x2v7c0000000000000000'] }),
    object: z.literal('squad'),
    livemode: z.boolean(),
    name: z.string(),
    members: z.array(
      z.object({
        name: z.string().describe('The member name, unique in the squad (its hand-off tool is `handoff_to_<name>`).'),
        agent_id: z.string(),
        version: z
          .number()
          .int()
          .nullable()
          .describe("A pinned version of the agent; null: the agent's version when a call starts."),
        description: z.string().nullable(),
        handoffs: z.array(
          z.object({
            to: z.string().describe('The member handed to.'),
            description: z.string().describe('When to hand off: the description of the tool the model is offered.'),
            context: HandoffContextObject,
          }),
        ),
        voice_change: z
          .enum(VOICE_CHANGES)
          .describe(
            'On a live call, when this member speaks with another voice or language than the member handing to it: `seamless` (it answers in its own voice) or `announced` (the member handing off first says who the caller is passed to).',
          ),
      }),
    ),
    start: z.string().describe('The member that answers first.'),
    max_handoffs: z
      .number()
      .int()
      .describe('Hand-offs one call may make; the one beyond goes to `overflow` (or is refused without one).'),
    overflow: z
      .string()
      .nullable()
      .describe(
        'The member a hand-off beyond `max_handoffs` goes to instead; null: such a hand-off is refused and the member keeps the caller.',
      ),
    version: z
      .number()
      .int()
      .describe('The published version: the one new calls use when there is no `traffic_split`.'),
    latest_version: z.number().int().describe('The newest version (a draft when it is above `version`).'),
    traffic_split: z
      .array(SquadTrafficSplitEntryObject)
      .nullable()
      .describe('Shares of new calls by version, picked per contact; null: all use `version`.'),
    metadata: metadataObject,
    created: unix,
  }),
);

/** The `squad` object. */
export function renderSquad(doc: WithId<SquadDoc>): z.output<typeof SquadObject> {
  const config = squadConfig(doc);
  return {
    id: doc._id,
    object: 'squad' as const,
    livemode: doc.livemode,
    name: doc.name,
    members: config.members.map((m) => ({
      name: m.name,
      agent_id: m.agent_id,
      version: m.version ?? null,
      description: m.description ?? null,
      handoffs: m.handoffs.map((h) => ({ to: h.to, description: h.description, context: h.context as HandoffContext })),
      voice_change: m.voice_change ?? DEFAULT_VOICE_CHANGE,
    })),
    start: config.start,
    max_handoffs: config.max_handoffs,
    overflow: config.overflow,
    // A squad made before versions existed has version 1 (its current document), written on first use.
    version: doc.version ?? 1,
    latest_version: doc.latest_version ?? 1,
    traffic_split: doc.traffic_split_json ? (JSON.parse(doc.traffic_split_json) as TrafficSplit) : null,
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    created: doc.created,
  };
}
