/**
 * Costs of calls, conversation turns and analyses (README "Costs"): what they used, read from the store
 * and Twilio, priced with the configured price table (src/pricing). A cost is computed once, where its
 * usage row is built, and stored in the row's `cost_*` fields (src/models/usage.ts): the row is written
 * once (`recordUsage`, insert-if-absent), so a retry or a later price table never changes a cost.
 */
import { config } from '../config';
import { Call, type CallDoc } from '../models/calls';
import type { WithId } from '../models/store';
import { SquadVersion, squadVersionConfig, squadVersionId } from '../models/squad-versions';
import {
  costOfRow,
  sumCostOfRows,
  UsageRecord,
  type CostFields,
  type CostView,
  type MemberCostView,
} from '../models/usage';
import { logger } from '../logger';
import { costOfComponent } from '../platform/metrics';
import { callCost, chatTokens, tokensOnlyCost, type CostMicros, type TokenUse } from '../pricing/costs';
import { callClient } from './telephony-accounts';

/** How long the end of a live call waits for Twilio's call resource (its `price`) before using the table (ms). */
const PRICE_FETCH_TIMEOUT_MS = 2_000;

/** A cost as a usage row's `cost_*` fields (micro-units; a missing model price is 0 with `cost_incomplete: 1`). */
export function costFields(cost: CostMicros): Required<CostFields> {
  return {
    cost_total_micros: cost.total,
    cost_telephony_micros: cost.telephony,
    cost_model_micros: cost.model ?? 0,
    cost_recording_micros: cost.recording,
    cost_platform_micros: cost.platform,
    cost_incomplete: cost.incomplete ? 1 : 0,
    cost_source: cost.source,
  };
}

/**
 * The model tokens of a call so far, from its usage rows (index `{subject_id}`): the pipeline's model
 * requests (`llm_request`: prompt as uncached input, completion as output; with `unpricedOnly`, not a squad
 * member's, priced on its own row: `recordedCallCost` adds those) and the realtime session's
 * responses (`realtime_response`: text and audio apart; the cached input tokens, which the Realtime API
 * reports as a part of text and audio without their split, are priced as cached audio, the bulk of a call's
 * input, and taken from its audio tokens first).
 */
export async function callTokens(callId: string, opts: { unpricedOnly?: boolean } = {}): Promise<TokenUse[]> {
  const rows = await UsageRecord.find(
    {
      subject_id: callId,
      kind: { $in: ['llm_request', 'realtime_response'] },
      // The call's own price leaves out a row priced on its own (a squad member's request).
      ...(opts.unpricedOnly ? { cost_total_micros: { $exists: false } } : {}),
    },
    {
      kind: 1,
      model: 1,
      prompt_tokens: 1,
      completion_tokens: 1,
      prompt_text_tokens: 1,
      prompt_audio_tokens: 1,
      prompt_cached_tokens: 1,
      completion_text_tokens: 1,
      completion_audio_tokens: 1,
    },
  ).lean();
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  return rows.map((r) => {
    const model = r.model ?? 'unknown';
    if (r.kind === 'llm_request') return chatTokens(model, n(r.prompt_tokens), n(r.completion_tokens));
    const text = n(r.prompt_text_tokens);
    const audio = n(r.prompt_audio_tokens);
    const split = text + audio > 0;
    const cached = Math.min(n(r.prompt_cached_tokens), split ? text + audio : n(r.prompt_tokens));
    const cachedAudio = Math.min(cached, audio);
    const outText = n(r.completion_text_tokens);
    const outAudio = n(r.completion_audio_tokens);
    return {
      model,
      input: (split ? text : n(r.prompt_tokens)) - (cached - cachedAudio),
      cachedInput: cached - cachedAudio,
      output: outText + outAudio > 0 ? outText : n(r.completion_tokens),
      audioInput: audio - cachedAudio,
      audioCachedInput: cachedAudio,
      audioOutput: outAudio,
    };
  });
}

/**
 * Twilio's reported `price` and `price_unit` of a live call (its Call resource, fetched in the call's
 * account), when Twilio has set them; null for a simulated call, a call without a Twilio Call SID, a price
 * not set yet (Twilio often sets it minutes after the end), and any error or a wait over 2 s (the
 * table's price is used then: the end of a call is never held up or failed for it).
 */
export async function reportedTwilioPrice(doc: WithId<CallDoc>): Promise<{ price: string; unit: string } | null> {
  const sid = doc.provider_call_sid;
  if (doc.simulated || !sid || !/^CA[0-9a-f]{32}$/.test(sid)) return null;
  try {
    const client = await callClient(doc._id);
    const call = await Promise.race([
      client.calls(sid).fetch(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), PRICE_FETCH_TIMEOUT_MS).unref()),
    ]);
    if (!call || call.price == null || call.price === '' || !call.priceUnit) return null;
    return { price: String(call.price), unit: call.priceUnit };
  } catch (err) {
    logger.warn("cost: Twilio's call price not read; the price table's is used", {
      call: doc._id,
      error: (err as Error).message,
    });
    return null;
  }
}

/**
 * The cost of an ended call (its document with its end applied): `billable minutes` as its usage row
 * counts them, the direction and the country of its `to`, SIP when `to` is a SIP URI, recorded when its
 * recording settings were on and consent did not turn it off, its model tokens not priced on their own rows
 * (`callTokens` with `unpricedOnly`: a squad member's are), and
 * Twilio's reported price when a live call has one (`reportedTwilioPrice`). Priced with the current table.
 */
export async function endedCallCost(doc: WithId<CallDoc>, billableMinutes: number): Promise<CostMicros> {
  const recording = doc.recording_json ? (JSON.parse(doc.recording_json) as { enabled?: boolean }) : null;
  const consent = doc.recording_consent_json
    ? (JSON.parse(doc.recording_consent_json) as { recording?: string })
    : null;
  const cost = callCost(config().prices, {
    direction: doc.direction === 'inbound' ? 'inbound' : 'outbound',
    to: doc.to,
    minutes: billableMinutes,
    sip: doc.to.startsWith('sip:'),
    recorded: Boolean(recording?.enabled) && consent?.recording !== 'off',
    reported: billableMinutes > 0 ? await reportedTwilioPrice(doc) : null,
    tokens: await callTokens(doc._id, { unpricedOnly: true }),
  });
  return cost;
}

/** The cost of chat-completions tokens alone (a conversation's turn, an analysis request), with the current table. */
export function chatCost(model: string, prompt: number, completion: number): CostMicros {
  return tokensOnlyCost(config().prices, [chatTokens(model, prompt, completion)]);
}

/**
 * Counts a stored cost in `svc_cost_micros_total` (by component and mode), once: the caller calls it
 * only when its row was stored by this call (`recordUsage` returned true).
 */
export function countCost(fields: CostFields, livemode: boolean): void {
  const mode = livemode ? 'live' : 'test';
  const parts: [string, number | undefined][] = [
    ['telephony', fields.cost_telephony_micros],
    ['model', fields.cost_model_micros],
    ['recording', fields.cost_recording_micros],
    ['platform', fields.cost_platform_micros],
  ];
  for (const [component, micros] of parts) if (micros) costOfComponent.inc({ component, mode }, micros);
}

/** The cost fields of a usage row (`costOfRow`, `sumCostOfRows`), as a projection. */
const COST_FIELDS = {
  cost_total_micros: 1,
  cost_telephony_micros: 1,
  cost_model_micros: 1,
  cost_recording_micros: 1,
  cost_platform_micros: 1,
  cost_incomplete: 1,
  cost_source: 1,
} as const;

/**
 * A conversation's cost so far: the sum of its model requests' recorded costs (its `llm_request` rows,
 * index `{subject_id}`; its analyses apart); null when none was recorded.
 */
export async function conversationCost(conversationId: string): Promise<CostView | null> {
  const rows = await UsageRecord.find({ subject_id: conversationId, kind: 'llm_request' }, COST_FIELDS).lean();
  return sumCostOfRows(rows);
}

/** The fields of a usage row `recordedCallCost` reads: its cost, and whose it is. */
const COST_ROW_FIELDS = {
  squad_member: 1,
  agent_id: 1,
  agent_version: 1,
  prompt_tokens: 1,
  completion_tokens: 1,
  ...COST_FIELDS,
} as const;

/**
 * The recorded cost of an ended call as the call stores it (`cost_json`, and `cost_members_json` for a
 * squad's call), from its stored `call` row `callRowId` (the first stored stands) and, on a squad's call,
 * its members' priced model requests (`llm_request` rows naming `squad_member`, each priced when it was
 * made): the call's cost is the sum of all of them, and `cost_by_member` splits it, each member with its
 * own rows, the member the call started with (its squad version's `start`) also with the `call` row.
 * Exact: integer micro-units, the parts add up to the total. `{}` when the row is not stored or has no cost.
 */
export async function recordedCallCost(
  callRowId: string,
  callId: string,
): Promise<{ cost_json?: string; cost_members_json?: string }> {
  const callRow = await UsageRecord.findById(callRowId, COST_ROW_FIELDS).lean();
  const own = costOfRow(callRow);
  if (!callRow || !own) return {};
  const call = await Call.findById(callId, { squad_id: 1, squad_version: 1, squad_member: 1 }).lean();
  if (!call?.squad_id) return { cost_json: JSON.stringify(own) };
  // One call's rows (index `subject_id`), put in the order they were made here: no index sorts them.
  const rows = (
    await UsageRecord.find(
      {
        subject_id: callId,
        kind: 'llm_request',
        squad_member: { $exists: true },
        cost_total_micros: { $exists: true },
      },
      { ...COST_ROW_FIELDS, occurred_ms: 1 },
    ).lean()
  ).sort((a, b) => a.occurred_ms - b.occurred_ms || String(a._id).localeCompare(String(b._id)));
  const version =
    call.squad_version != null
      ? await SquadVersion.findById(squadVersionId(call.squad_id, call.squad_version), { config_json: 1 }).lean()
      : null;
  const start = version ? squadVersionConfig(version).start : (call.squad_member ?? 'start');
  // The members in the order they first spoke, the start member first (with the call's own row).
  const members = new Map<string, typeof rows>([[start, []]]);
  for (const r of rows) members.set(r.squad_member!, [...(members.get(r.squad_member!) ?? []), r]);
  const split: MemberCostView[] = [...members].map(([member, requests]) => {
    const agent = requests[0] ?? callRow;
    return {
      member,
      agent_id: agent.agent_id ?? null,
      agent_version: agent.agent_version ?? null,
      requests: requests.length,
      prompt_tokens: requests.reduce((n, r) => n + (r.prompt_tokens ?? 0), 0),
      completion_tokens: requests.reduce((n, r) => n + (r.completion_tokens ?? 0), 0),
      cost: sumCostOfRows(member === start ? [callRow, ...requests] : requests)!,
    };
  });
  return {
    cost_json: JSON.stringify(sumCostOfRows([callRow, ...rows])),
    cost_members_json: JSON.stringify(split),
  };
}
