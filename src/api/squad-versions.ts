/**
 * Squad versions, as agent versions (src/api/agent-versions.ts): `GET /v1/squads/{id}/versions` (newest
 * first), `GET /v1/squads/{id}/versions/{version}` and `POST /v1/squads/{id}/versions/{version}/publish`
 * (makes that version the one new calls use; publishing an earlier one rolls back). Scopes
 * `agents:read` / `agents:write`, as squads. The rules are src/services/squad-versions.ts.
 */
import type { Request, Router } from 'express';
import { z } from 'zod';
import { ApiError, invalidParam, notFound } from '../errors';
import { findLiveSquad, renderSquad, Squad, SquadObject } from '../models/squads';
import { SquadVersion, SquadVersionObject, renderSquadVersion, squadVersionConfig } from '../models/squad-versions';
import type { WithId } from '../models/store';
import { listOf } from '../models/wire';
import {
  ensureSquadVersions,
  loadSquadVersion,
  squadConfigFields,
  type VersionedSquad,
} from '../services/squad-versions';
import { idempotent } from './idempotency';
import { listParams } from './lists';
import { operation, operationsRouter } from './operations';

const tag = 'Squads';

/** The tenant's live squad `{id}` with its versions (version 1 written for a squad made before them); 404 otherwise. */
async function versionedSquadOf(req: Request): Promise<VersionedSquad> {
  const id = String(req.params.id);
  const squad = await findLiveSquad(req.auth!, id);
  if (!squad) throw notFound('squad', id, 'id');
  return ensureSquadVersions(squad);
}

/**
 * Version `{version}` of the squad.
 * @throws ApiError 404 `resource_missing` naming `version` (not a positive integer, or no such version)
 */
async function versionOf(req: Request, squad: VersionedSquad) {
  const raw = String(req.params.version);
  const number = /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : NaN;
  const doc = Number.isSafeInteger(number) ? await loadSquadVersion(squad, number) : null;
  if (!doc)
    throw new ApiError(
      404,
      'invalid_request_error',
      'resource_missing',
      `No such squad_version: squad ${squad._id} has no version ${raw}.`,
      'version',
    );
  return doc;
}

/**
 * A list cursor of this squad's versions (`sqd_…:v3`) → its number.
 * @throws ApiError 400 naming the parameter when it is not a version id of this squad
 */
function cursorNumber(req: Request, name: 'starting_after' | 'ending_before', squadId: string): number | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? /^(.+):v(\d{1,9})$/.exec(v) : null;
  if (!m || m[1] !== squadId)
    throw invalidParam(name, `Invalid ${name}: must be a version id of this squad (${squadId}:v3).`);
  return Number(m[2]);
}

/**
 * `GET /v1/squads/{id}/versions` → list of `squad_version` objects, newest (highest number) first,
 * `limit`, `starting_after`/`ending_before` version ids (`sqd_…:v3`). 404 naming `id` for an unknown squad.
 */
const listSquadVersions = operation({
  method: 'get',
  path: '/v1/squads/{id}/versions',
  operationId: 'listSquadVersions',
  tag,
  summary: "List a squad's versions",
  description: 'Newest first; cursors are version ids (`sqd_…:v3`).',
  scope: 'agents:read',
  list: true,
  response: listOf(SquadVersionObject),
  handler: async (req, res) => {
    const squad = await versionedSquadOf(req);
    const { limit } = listParams({ query: { limit: req.query.limit } } as unknown as Request);
    const after = cursorNumber(req, 'starting_after', squad._id);
    const before = cursorNumber(req, 'ending_before', squad._id);
    if (after !== undefined && before !== undefined)
      throw invalidParam('ending_before', 'Use starting_after or ending_before, not both.');
    const filter: Record<string, unknown> = { squad_id: squad._id };
    if (before !== undefined) filter.number = { $gt: before };
    if (after !== undefined) filter.number = { $lt: after };
    const docs = await SquadVersion.find(filter)
      .sort({ number: before !== undefined ? 1 : -1 })
      .limit(limit + 1)
      .lean();
    const hasMore = docs.length > limit;
    const page = before !== undefined ? docs.slice(0, limit).reverse() : docs.slice(0, limit);
    res.json({
      object: 'list' as const,
      data: page.map((d) => renderSquadVersion(d as WithId<typeof d>, squad, squad.version)),
      has_more: hasMore,
      url: `/v1/squads/${squad._id}/versions`,
    });
  },
});

/** `GET /v1/squads/{id}/versions/{version}` → the `squad_version`; 404 naming `id` or `version`. */
const retrieveSquadVersion = operation({
  method: 'get',
  path: '/v1/squads/{id}/versions/{version}',
  operationId: 'retrieveSquadVersion',
  tag,
  summary: 'Retrieve a squad version',
  scope: 'agents:read',
  response: SquadVersionObject,
  handler: async (req, res) => {
    const squad = await versionedSquadOf(req);
    res.json(renderSquadVersion(await versionOf(req, squad), squad, squad.version));
  },
});

/**
 * `POST /v1/squads/{id}/versions/{version}/publish` (no body; Idempotency-Key) → the squad, now at that
 * version: its configuration becomes the squad's and new calls use it (unless a `traffic_split` says
 * otherwise); calls in flight keep theirs. Publishing an earlier version rolls back; publishing the current
 * one changes nothing. 404 naming `id` (unknown, deleted, another organization's squad) or `version`.
 */
const publishSquadVersion = operation({
  method: 'post',
  path: '/v1/squads/{id}/versions/{version}/publish',
  operationId: 'publishSquadVersion',
  tag,
  summary: 'Publish a squad version',
  description:
    'New calls use it from now on (unless a `traffic_split` says otherwise); calls in flight keep their version. Publishing an earlier version rolls back.',
  scope: 'agents:write',
  body: z.strictObject({}),
  response: SquadObject,
  handler: async (req, res) => {
    await idempotent(req, res, 'req', async () => {
      const squad = await versionedSquadOf(req);
      const doc = await versionOf(req, squad);
      const updated = await Squad.findOneAndUpdate(
        { _id: squad._id, deleted_ms: null },
        {
          $set: { ...squadConfigFields(squadVersionConfig(doc)), version: doc.number },
          $max: { latest_version: doc.number },
        },
        { returnDocument: 'after' },
      ).lean();
      if (!updated) throw notFound('squad', squad._id, 'id');
      await SquadVersion.updateOne({ _id: doc._id, published_ms: null }, { $set: { published_ms: Date.now() } });
      return { status: 200, body: renderSquad(updated) };
    });
  },
});

/** The version routes under `/v1/squads` (mounted there by src/api/app.ts, before src/api/squads.ts's). */
export function squadVersionsRouter(): Router {
  return operationsRouter('/v1/squads', [listSquadVersions, retrieveSquadVersion, publishSquadVersion]);
}
