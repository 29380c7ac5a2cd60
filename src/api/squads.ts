/**
 * Squads (beyond the specification; scopes `agents:read` / `agents:write`, as agents):
 *
 *   POST   /v1/squads        `{name, members: [{name, agent_id, version?, description?, handoffs: [{to,
 *                            description, context?}], voice_change?}], start, max_handoffs?, overflow?, metadata?}`
 *                            (Idempotency-Key)
 *   GET    /v1/squads        list, newest first
 *   GET    /v1/squads/{id}   the squad
 *   POST   /v1/squads/{id}   update: the fields given replace the stored ones (`members` whole); a
 *                            configuration change makes the next version (`publish: false`: a draft);
 *                            `traffic_split` shares new calls between versions
 *   DELETE /v1/squads/{id}   soft delete: calls in flight keep their snapshot
 *
 * Versions (list, retrieve, publish = roll back or forward) are src/api/squad-versions.ts.
 *
 * A call takes `squad_id` where it takes `agent_id` (src/api/calls.ts): the `start` member answers, and
 * each member's model is offered one `handoff_to_<name>` tool per hand-off it may make
 * (src/workflows/call-squad.ts).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { notFound } from '../errors';
import { findLiveSquad, renderSquad, Squad, SquadObject, squadConfig, type SquadDoc } from '../models/squads';
import { insertIfAbsent, type WithId } from '../models/store';
import { DeletedObject, listOf } from '../models/wire';
import { checkSquadConfig } from '../services/squads';
import {
  checkSquadTrafficSplit,
  createSquadVersion,
  ensureSquadVersions,
  squadConfigFields,
  writeFirstSquadVersion,
} from '../services/squad-versions';
import { idTime } from '../shared/ids';
import {
  DEFAULT_MAX_HANDOFFS,
  DEFAULT_VOICE_CHANGE,
  MAX_LAST_TURNS,
  MAX_MAX_HANDOFFS,
  MAX_SQUAD_MEMBERS,
  MEMBER_NAME_PATTERN,
  VOICE_CHANGES,
  type SquadConfig,
  type SquadMember,
} from '../shared/squads';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { metadata, parseIndexed } from './validation';

const memberName = z
  .string()
  .regex(
    MEMBER_NAME_PATTERN,
    'must start with a lower-case letter and hold only a-z, 0-9 and _, at most 40 characters',
  );

const handoffSchema = z.strictObject({
  to: memberName.describe('The member handed to (its `name`).'),
  description: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000, 'must be at most 1000 characters')
    .describe('When to hand off: the description of the `handoff_to_<to>` tool the model is offered.'),
  context: z
    .union([
      z.enum(['all', 'summary']),
      z.strictObject({
        last: z.number().int().min(1).max(MAX_LAST_TURNS, `must be at most ${MAX_LAST_TURNS}`),
      }),
    ])
    .optional()
    .describe(
      'What the receiving member sees: `"all"` (default: every caller and assistant line), `{"last": N}` (the last N lines) or `"summary"` (a summary written at the hand-off, stored on the transcript entry).',
    ),
});

const memberSchema = z.strictObject({
  name: memberName.describe('Unique in the squad; its hand-off tool is `handoff_to_<name>`.'),
  agent_id: z.string().meta({ examples: ['agt_01jd5x2v7c0000000000000000'] }),
  version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Pin a version of the agent; absent: the agent's version when a call starts (published, or its split's pick).",
    ),
  description: z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters').optional(),
  handoffs: z
    .array(handoffSchema)
    .max(MAX_SQUAD_MEMBERS, `must list at most ${MAX_SQUAD_MEMBERS} hand-offs`)
    .optional(),
  voice_change: z
    .enum(VOICE_CHANGES)
    .optional()
    .describe(
      'On a live call, when this member speaks with another voice or language than the member handing to it: `"seamless"` (default: it answers in its own voice) or `"announced"` (the member handing off first says "One moment, I\'m passing you to <description or name>." in its own voice).',
    ),
});

export const createSquadSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  members: z
    .array(memberSchema)
    .min(1, 'must have at least one member')
    .max(MAX_SQUAD_MEMBERS, `must have at most ${MAX_SQUAD_MEMBERS} members`),
  start: memberName.describe('The member that answers first.'),
  max_handoffs: z
    .number()
    .int()
    .min(1)
    .max(MAX_MAX_HANDOFFS, `must be at most ${MAX_MAX_HANDOFFS}`)
    .optional()
    .describe(
      `Hand-offs one call may make (default ${DEFAULT_MAX_HANDOFFS}): a loop (A→B→A→…) ends there; the hand-off beyond goes to \`overflow\`.`,
    ),
  overflow: memberName
    .nullable()
    .optional()
    .describe(
      'The member a hand-off beyond `max_handoffs` goes to instead; absent or null: that hand-off is refused (the model is told) and the member keeps the caller.',
    ),
  metadata: metadata.optional(),
});

export const updateSquadSchema = createSquadSchema.partial().extend({
  publish: z
    .boolean()
    .optional()
    .describe(
      '`false` makes the configuration change a draft version (a call may pin it, a traffic split may use it) and leaves the published one, which new calls use, as it is. Default true.',
    ),
  traffic_split: z
    .array(
      z.strictObject({
        version: z.number().int().min(1).describe('A version of this squad.'),
        weight: z.number().int().min(0).max(100).describe('Its share of new calls, in percent.'),
      }),
    )
    .max(10, 'must list at most 10 versions')
    .nullable()
    .optional()
    .describe(
      'Shares of new calls by version (weights add to 100), picked per contact (the same person keeps the same version); null removes the split.',
    ),
});

/** The configuration fields of a squad update: any of them makes a new version. */
const CONFIG_FIELDS = ['members', 'start', 'max_handoffs', 'overflow'] as const;

const SQUAD_EXAMPLE = {
  name: 'Front desk',
  members: [
    {
      name: 'reception',
      agent_id: 'agt_01jd5x2v7c0000000000000000',
      handoffs: [{ to: 'billing', description: 'The caller asks about an invoice or a payment.', context: 'summary' }],
    },
    { name: 'billing', agent_id: 'agt_01jd5x2v7c0000000000000001' },
  ],
  start: 'reception',
};

const tag = 'Squads';

/** The members as stored: defaults filled (`version` null, `context` `all`). */
function storedMembers(members: z.output<typeof memberSchema>[]): SquadMember[] {
  return members.map((m) => ({
    name: m.name,
    agent_id: m.agent_id,
    version: m.version ?? null,
    description: m.description ?? null,
    handoffs: (m.handoffs ?? []).map((h) => ({ to: h.to, description: h.description, context: h.context ?? 'all' })),
    voice_change: m.voice_change ?? DEFAULT_VOICE_CHANGE,
  }));
}

/**
 * `POST /v1/squads` → the squad. 400 naming the field on bad input (`members[1].handoffs[0].to` for a
 * hand-off to no member or to itself, `start`, `overflow`), 404 naming `members[i].agent_id` for an agent
 * that is not a live one of this organization and mode (src/services/squads.ts `checkSquadConfig`).
 */
const createSquad = operation({
  method: 'post',
  path: '/v1/squads',
  operationId: 'createSquad',
  tag,
  summary: 'Create a squad',
  description:
    'Members hand the call to each other with their `handoff_to_<name>` tools; a call takes `squad_id` where it takes `agent_id`.',
  scope: 'agents:write',
  bodyDoc: createSquadSchema,
  example: SQUAD_EXAMPLE,
  response: SquadObject,
  handler: async (req, res) => {
    const body = parseIndexed(createSquadSchema, req.body);
    const config: SquadConfig = {
      members: storedMembers(body.members),
      start: body.start,
      max_handoffs: body.max_handoffs ?? DEFAULT_MAX_HANDOFFS,
      overflow: body.overflow ?? null,
    };
    await checkSquadConfig(req.auth!, config);
    await idempotent(req, res, 'sqd', async (id) => {
      const tenant = { _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode };
      const created = Math.floor(idTime(id) / 1000);
      // Version 1 is this configuration, published (written first: a crash leaves no squad without it).
      await writeFirstSquadVersion({ ...tenant, created }, config);
      const doc: WithId<SquadDoc> = {
        _id: id,
        org_id: req.auth!.orgId,
        livemode: req.auth!.livemode,
        name: body.name,
        members_json: JSON.stringify(config.members),
        start: config.start,
        max_handoffs: config.max_handoffs,
        overflow: config.overflow,
        metadata_json: JSON.stringify(body.metadata ?? {}),
        version: 1,
        latest_version: 1,
        traffic_split_json: null,
        created,
        deleted_ms: null,
      };
      await insertIfAbsent(Squad, doc);
      return { status: 200, body: renderSquad(doc) };
    });
  },
});

/** `GET /v1/squads` → list of squads, newest first. */
const listSquads = operation({
  method: 'get',
  path: '/v1/squads',
  operationId: 'listSquads',
  tag,
  summary: 'List squads',
  scope: 'agents:read',
  list: true,
  response: listOf(SquadObject),
  handler: async (req, res) => {
    const filter = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null };
    res.json(await listPage(req, Squad, filter, renderSquad));
  },
});

/** `GET /v1/squads/{id}` → the squad; 404 `resource_missing`. */
const retrieveSquad = operation({
  method: 'get',
  path: '/v1/squads/{id}',
  operationId: 'retrieveSquad',
  tag,
  summary: 'Retrieve a squad',
  scope: 'agents:read',
  response: SquadObject,
  handler: async (req, res) => {
    const doc = await findLiveSquad(req.auth!, String(req.params.id));
    if (!doc) throw notFound('squad', String(req.params.id), 'id');
    res.json(renderSquad(doc));
  },
});

/**
 * `POST /v1/squads/{id}` → the squad: the fields given replace the stored ones (`members` as a whole,
 * `overflow: null` removes it; `metadata` merges, a key set to `""` is removed). The result is checked as
 * creation checks it. A configuration change (`members`, `start`, `max_handoffs`, `overflow`) makes the
 * next `squad_version`, published at once, or with `"publish": false` a draft that leaves the squad (and
 * new calls) as they are; `name`, `metadata` and `traffic_split` alone make none. `traffic_split`
 * (src/services/squad-versions.ts `checkSquadTrafficSplit`: 400 naming `traffic_split` or
 * `traffic_split[i].version`), null to remove it. Calls already placed keep the squad as it was. 404 for
 * an unknown or deleted squad.
 */
const updateSquad = operation({
  method: 'post',
  path: '/v1/squads/{id}',
  operationId: 'updateSquad',
  tag,
  summary: 'Update a squad',
  description:
    'Only the fields given change. A configuration change (`members`, `start`, `max_handoffs`, `overflow`) makes the next version (`GET /v1/squads/{id}/versions`), published at once unless `"publish": false` makes it a draft; `traffic_split` shares new calls between versions per contact.',
  scope: 'agents:write',
  bodyDoc: updateSquadSchema,
  example: { max_handoffs: 4 },
  response: SquadObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const body = parseIndexed(updateSquadSchema, req.body);
    const found = await findLiveSquad(req.auth!, id);
    if (!found) throw notFound('squad', id, 'id');
    const existing = await ensureSquadVersions(found);
    const stored = squadConfig(existing);
    const config: SquadConfig = {
      members: body.members ? storedMembers(body.members) : stored.members,
      start: body.start ?? stored.start,
      max_handoffs: body.max_handoffs ?? stored.max_handoffs,
      overflow: body.overflow !== undefined ? body.overflow : stored.overflow,
    };
    await checkSquadConfig(req.auth!, config);
    const split = body.traffic_split ? await checkSquadTrafficSplit(existing, body.traffic_split) : body.traffic_split;
    const meta = {
      ...(JSON.parse(existing.metadata_json ?? '{}') as Record<string, string>),
      ...(body.metadata ?? {}),
    };
    for (const [k, v] of Object.entries(meta)) if (v === '') delete meta[k];
    const changes = CONFIG_FIELDS.some((f) => body[f] !== undefined) || body.publish === false;
    await idempotent(req, res, 'req', async () => {
      const draft = body.publish === false;
      const number = changes ? await createSquadVersion(existing, config, draft) : null;
      const set: Record<string, unknown> = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(number !== null && !draft ? { ...squadConfigFields(config), version: number } : {}),
        ...(split !== undefined ? { traffic_split_json: split ? JSON.stringify(split) : null } : {}),
        metadata_json: JSON.stringify(meta),
      };
      const doc = await Squad.findOneAndUpdate(
        { _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null },
        number !== null ? { $set: set, $max: { latest_version: number } } : { $set: set },
        { returnDocument: 'after' },
      ).lean();
      if (!doc) throw notFound('squad', id, 'id');
      return { status: 200, body: renderSquad(doc) };
    });
  },
});

/** `DELETE /v1/squads/{id}` → `{id, object: "squad", deleted: true}`; new calls naming it are 404 (`squad_id`). */
const deleteSquad = operation({
  method: 'delete',
  path: '/v1/squads/{id}',
  operationId: 'deleteSquad',
  tag,
  summary: 'Delete a squad',
  description: 'Calls already placed keep it; new calls naming it are 404.',
  scope: 'agents:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await Squad.findOneAndUpdate(
      { _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null },
      { $set: { deleted_ms: Date.now() } },
      { returnDocument: 'after' },
    ).lean();
    if (!doc) throw notFound('squad', id, 'id');
    res.json({ id, object: 'squad' as const, deleted: true });
  },
});

/** Routes under `/v1/squads` (mounted there by src/api/app.ts). */
export function squadsRouter(): Router {
  return operationsRouter('/v1/squads', [createSquad, listSquads, retrieveSquad, updateSquad, deleteSquad]);
}
