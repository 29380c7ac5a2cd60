/**
 * Squad versions and traffic splits, mirroring agent versions (src/services/agent-versions.ts):
 *
 * - A squad's document holds its published configuration; `version` names it, `latest_version` the
 *   newest (a draft when above it). Each version is an immutable `squad_version` document
 *   (src/models/squad-versions.ts) read by `_id`.
 * - A new call fixes its squad version when it starts (`squadVersionForCall`): the one `POST /v1/calls`
 *   pins (`squad_version`), else the traffic split's pick for its contact (the same hash as an agent's
 *   split, keyed by the squad id: `pickSplitVersion`), else the published one. The call's workflow input
 *   carries that configuration (src/services/squads.ts `squadForCall`).
 * - Version numbers are taken by inserting `<squad>:v<n>` and, on a duplicate key, trying the next.
 */
import { invalidParam } from '../errors';
import type { TrafficSplit } from '../models/agents';
import { insertIfAbsent, type WithId } from '../models/store';
import { Squad, squadConfig, type SquadDoc } from '../models/squads';
import { SquadVersion, squadVersionConfig, squadVersionId, type SquadVersionDoc } from '../models/squad-versions';
import type { SquadConfig } from '../shared/squads';
import { contactKeyOf, pickSplitVersion } from './agent-versions';

/** A squad document whose version numbers are known. */
export type VersionedSquad = WithId<SquadDoc> & { version: number; latest_version: number };

/** Most attempts at taking the next version number when other requests take them at the same time. */
const MAX_NUMBER_ATTEMPTS = 20;

/** The document fields that hold a squad's configuration (what a published version writes into it). */
export function squadConfigFields(config: SquadConfig): Record<string, unknown> {
  return {
    members_json: JSON.stringify(config.members),
    start: config.start,
    max_handoffs: config.max_handoffs,
    overflow: config.overflow,
  };
}

/**
 * Writes version `number` (1 for a new squad) of `squad` with `config` by `_id`; false when that number is
 * taken already (another request, or version 1 written before).
 */
async function insertVersion(
  squad: Pick<WithId<SquadDoc>, '_id' | 'org_id' | 'livemode'>,
  number: number,
  config: SquadConfig,
  draft: boolean,
  nowMs: number,
): Promise<boolean> {
  return insertIfAbsent(SquadVersion, {
    _id: squadVersionId(squad._id, number),
    squad_id: squad._id,
    org_id: squad.org_id,
    livemode: squad.livemode,
    number,
    config_json: JSON.stringify(config),
    draft,
    created_ms: nowMs,
    published_ms: draft ? null : nowMs,
  });
}

/**
 * Writes version 1 of a new squad: its configuration, published when it was created (`createdS`, unix
 * seconds). Idempotent (insert by `_id`). `POST /v1/squads` writes it before the squad.
 */
export async function writeFirstSquadVersion(
  squad: Pick<WithId<SquadDoc>, '_id' | 'org_id' | 'livemode' | 'created'>,
  config: SquadConfig,
): Promise<void> {
  await insertVersion(squad, 1, config, false, squad.created * 1000);
}

/**
 * The squad with its version 1 written when it was made before versions existed (`latest_version` null):
 * version 1 is its current configuration, published. Safe with several processes (insert by `_id`; the
 * numbers are set only while still null). Squads made since are returned as they are.
 */
export async function ensureSquadVersions(squad: WithId<SquadDoc>): Promise<VersionedSquad> {
  if (squad.latest_version != null && squad.version != null) return squad as VersionedSquad;
  await writeFirstSquadVersion(squad, squadConfig(squad));
  await Squad.updateOne({ _id: squad._id, latest_version: null }, { $set: { version: 1, latest_version: 1 } });
  return { ...squad, version: squad.version ?? 1, latest_version: squad.latest_version ?? 1 };
}

/**
 * Writes the next version of `squad` with `config` and answers its number: the first free number after
 * `latest_version`. Does not change the squad's document (the caller moves `latest_version`, and when
 * publishing its configuration and `version`, in one write).
 * @throws Error when `MAX_NUMBER_ATTEMPTS` numbers in a row were taken
 */
export async function createSquadVersion(
  squad: Pick<VersionedSquad, '_id' | 'org_id' | 'livemode' | 'latest_version'>,
  config: SquadConfig,
  draft: boolean,
): Promise<number> {
  const now = Date.now();
  let number = squad.latest_version + 1;
  for (let i = 0; i < MAX_NUMBER_ATTEMPTS; i++, number++) {
    if (await insertVersion(squad, number, config, draft, now)) return number;
  }
  throw new Error(`squad ${squad._id}: no free version number after ${MAX_NUMBER_ATTEMPTS} attempts`);
}

/** Version `number` of `squad` (already known to be the tenant's) as stored, or null. */
export async function loadSquadVersion(
  squad: Pick<WithId<SquadDoc>, '_id' | 'org_id' | 'livemode'>,
  number: number,
): Promise<WithId<SquadVersionDoc> | null> {
  if (!Number.isSafeInteger(number) || number < 1) return null;
  const doc = await SquadVersion.findById(squadVersionId(squad._id, number)).lean();
  if (!doc || doc.org_id !== squad.org_id || doc.livemode !== squad.livemode || doc.squad_id !== squad._id) return null;
  return doc as WithId<SquadVersionDoc>;
}

/** The squad's traffic split, or null. */
export function squadTrafficSplit(squad: Pick<SquadDoc, 'traffic_split_json'>): TrafficSplit | null {
  return squad.traffic_split_json ? (JSON.parse(squad.traffic_split_json) as TrafficSplit) : null;
}

/**
 * The version and configuration a new call of `squad` runs: `pinned` (`POST /v1/calls` `squad_version`)
 * when given, else the traffic split's pick for the contact (deterministic per contact, as an agent's:
 * src/services/agent-versions.ts `pickSplitVersion` keyed by the squad id), else the published version
 * (the squad's own document, no read).
 * @throws ApiError 400 `parameter_invalid` naming `squad_version` when the squad has no such version
 */
export async function squadVersionForCall(
  found: WithId<SquadDoc>,
  who: { contactId?: string | null; phone?: string | null },
  pinned?: number,
): Promise<{ version: number; config: SquadConfig }> {
  const squad = await ensureSquadVersions(found);
  const split = squadTrafficSplit(squad);
  const number = pinned ?? (split ? pickSplitVersion(squad._id, contactKeyOf(who), split) : squad.version);
  if (number === squad.version) return { version: number, config: squadConfig(squad) };
  const doc = await loadSquadVersion(squad, number);
  if (doc) return { version: number, config: squadVersionConfig(doc) };
  if (pinned !== undefined)
    throw invalidParam('squad_version', `Invalid squad_version: squad ${squad._id} has no version ${pinned}.`);
  return { version: squad.version, config: squadConfig(squad) };
}

/**
 * Checks a squad's `traffic_split`, as an agent's (src/services/agent-versions.ts `checkTrafficSplit`):
 * at least one entry, each version listed once and one of this squad's, weights adding to 100.
 * @throws ApiError 400 `parameter_invalid` naming `traffic_split` or `traffic_split[i].version`
 */
export async function checkSquadTrafficSplit(
  squad: Pick<WithId<SquadDoc>, '_id' | 'org_id' | 'livemode'>,
  split: TrafficSplit,
): Promise<TrafficSplit> {
  if (split.length === 0)
    throw invalidParam('traffic_split', 'Invalid traffic_split: list at least one version (null removes the split).');
  for (const [i, entry] of split.entries()) {
    const param = `traffic_split[${i}].version`;
    if (split.findIndex((e) => e.version === entry.version) !== i)
      throw invalidParam(param, `Invalid ${param}: version ${entry.version} is listed twice.`);
    if (!(await loadSquadVersion(squad, entry.version)))
      throw invalidParam(param, `Invalid ${param}: squad ${squad._id} has no version ${entry.version}.`);
  }
  const total = split.reduce((sum, e) => sum + e.weight, 0);
  if (total !== 100)
    throw invalidParam('traffic_split', `Invalid traffic_split: the weights add to ${total}, not 100.`);
  return split.map((e) => ({ version: e.version, weight: e.weight }));
}
