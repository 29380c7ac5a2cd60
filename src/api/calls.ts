/**
 * Calls (spec section 4, scopes `calls:read` / `calls:write`; DESIGN.md section 6):
 * `POST /v1/calls`, `GET /v1/calls`, `GET /v1/calls/{id}`, `POST /v1/calls/{id}/transfer`,
 * `POST /v1/calls/{id}/end`, `GET /v1/calls/{id}/transcript`, and a live call's stream and steering
 *: `GET /v1/calls/{id}/stream`, `POST /v1/calls/{id}/say`, `POST /v1/calls/{id}/context`.
 *
 * Creating a call starts `callWorkflow` (workflow id = call id) and answers `queued` at once; reads come
 * from the MongoDB read model the workflow's activities keep (the stream too: src/api/sse.ts over the
 * call's `call_stream` entries); end, transfer, say and context are Workflow Updates.
 */
import type { Router } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import {
  Call,
  CallNoteObject,
  CallObject,
  CallSayObject,
  CallTurn,
  renderCall,
  renderTranscript,
  renderTurn,
  TranscriptObject,
  type CallDoc,
  type CallStreamEntryDoc,
} from '../models/calls';
import { seconds, type WithId } from '../models/store';
import { listOf, recordingSettingsObject } from '../models/wire';
import { ApiError, invalidParam } from '../errors';
import { MAX_DURATION, QUEUE_TIMEOUT } from '../services/calls';
import { findCall, prepareCall, runCallUpdate, startCall } from '../services/call-requests';
import { checkAnswering } from '../services/squads';
import { acquireApiStreamLease, readCallStreamEntry, readStreamedCall, watchCall } from '../services/call-streams';
import {
  callWorkflowId,
  contextUpdate,
  endUpdate,
  NOTE_MAX_CHARS,
  SAY_MAX_CHARS,
  sayUpdate,
  isTransferTarget,
  TERMINAL_STATUSES,
  CALL_DIRECTIONS,
  CALLING_HOURS_POLICIES,
  CALL_STATUSES,
  DEFAULT_TRANSFER_TIMEOUT_SECONDS,
  TRANSFER_MODES,
  TRANSFER_TIMEOUT,
  transferUpdate,
} from '../shared/calls';
import { jsonDepth } from './middleware';
import { idempotent } from './idempotency';
import { createdIdRange, createdQuery, createdRange, idRangeOf, listPage, type IdSkew } from './lists';
import { operation, operationsRouter } from './operations';
import {
  agentVersionQuery,
  callingWindow,
  e164,
  isE164,
  metadata,
  queryFilters,
  simulationSchema,
  voicemailSchema,
} from './validation';
import { parseScheduledAt } from '../services/call-schedule';
import { AnalysisPlanObject } from '../models/analyses';
import { checkAnalysisPlan } from '../services/analysis';
import { lastEventId, serveEventStream, SSE_EVENT_SCHEMA, STREAM_RETRY_MS, type StreamEvent } from './sse';
import { config } from '../config';
import { checkLlmQuota } from '../services/quotas';
import { callModelUsage } from '../services/usage';
import { requireDestination } from '../services/dial-gate';
import { auditTranscriptRead } from './audit-reads';

/** `context` limits: it becomes part of the system prompt of every turn, so it is bounded as rendered there. */
export const CONTEXT_LIMITS = { depth: 10, renderedBytes: 16_384 };

/**
 * Checks `context`: at most `CONTEXT_LIMITS.depth` levels deep and at most `renderedBytes` once rendered
 * as the prompt renders it (indented JSON), so a small but deep body cannot become a huge prompt.
 * @throws ApiError 400 naming `context`
 */
function checkContext(context: Record<string, unknown>): void {
  if (jsonDepth(context, CONTEXT_LIMITS.depth) > CONTEXT_LIMITS.depth) {
    throw invalidParam('context', `Invalid context: must be at most ${CONTEXT_LIMITS.depth} levels deep.`);
  }
  if (Buffer.byteLength(JSON.stringify(context, null, 2)) > CONTEXT_LIMITS.renderedBytes) {
    throw invalidParam(
      'context',
      `Invalid context: must be at most ${CONTEXT_LIMITS.renderedBytes} bytes once rendered as indented JSON.`,
    );
  }
}

export const createCallSchema = z.strictObject({
  to: e164,
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe('The agent that answers; required unless `squad_id` is given (one of the two).'),
  squad_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A squad (`sqd_…`) instead of one agent: its `start` member answers and the members hand the call to each other; the call's `agent_id` is the start member's.",
    ),
  squad_version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "With `squad_id`: pin a version of the squad (`GET /v1/squads/{id}/versions`, drafts too); absent: the squad's published version, or its traffic split's pick for the contact.",
    ),
  from: e164.optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  metadata: metadata.optional(),
  simulation: simulationSchema.optional(),
  max_duration_seconds: z.number().int().min(MAX_DURATION.min).max(MAX_DURATION.max).optional(),
  contact_id: z.string().min(1).optional(),
  queue_timeout_seconds: z
    .number()
    .int()
    .min(QUEUE_TIMEOUT.min)
    .max(QUEUE_TIMEOUT.max)
    .optional()
    .describe(
      'How long the call may stay `queued` while the organization is at `max_concurrent_calls` (default 600); then `failed`, `queue_timeout`.',
    ),
  scheduled_at: z
    .union([z.number().int('must be an integer (unix seconds)'), z.string()])
    .optional()
    .describe(
      'When to dial: unix seconds, or ISO 8601 with a UTC offset (`2026-12-01T15:00:00-05:00`); from now (a minute of clock skew allowed) to 30 days ahead. The call is `scheduled` until then.',
    ),
  calling_window: callingWindow
    .optional()
    .describe(
      "Local times the call may ring in the callee's zone: a time outside it (or now, without `scheduled_at`) moves to its next opening. Default for a scheduled call: the agent's window, else 08:00–21:00 for a live +1 number.",
    ),
  voicemail: voicemailSchema.optional().describe("This call's voicemail setting, replacing the agent's."),
  recording: recordingSettingsObject
    .optional()
    .describe("Record this call, instead of the agent's `recording`; `GET /v1/calls/{id}/recording` once ready."),
  analysis: AnalysisPlanObject.nullable()
    .optional()
    .describe("This call's analysis plan, instead of the agent's; null: no analysis for this call."),
  calling_hours: z
    .enum(CALLING_HOURS_POLICIES)
    .optional()
    .describe(
      'Outside the callee\'s calling hours (their local time: US/CA 08:00-21:00, GB 08:00-21:00 weekdays and 09:00-21:00 weekends, others 09:00-20:00, narrowed by the operator and the account\'s `calling_hours`): `hold` (default) keeps the call `scheduled` (`scheduled_reason: "calling_hours"`) and dials it when they open; `refuse` answers 422 `outside_calling_hours`.',
    ),
});

export const transferSchema = z.strictObject({
  to: z.string().refine(isTransferTarget, 'must be an E.164 number, a sip: URI or a client: identity'),
  mode: z
    .enum(TRANSFER_MODES)
    .optional()
    .describe(
      '`cold` (default): Twilio `<Dial>` hands the line over and the assistant is gone. `warm`: the caller waits on hold in a conference while `to` is dialed; when the person answers they hear `summary`, then are joined with the caller and the assistant leaves; busy, no answer within `transfer_timeout_seconds` or a hang-up during the summary bring the caller back to the assistant (`call.transfer_failed`).',
    ),
  summary: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000, 'must be at most 1000 characters')
    .optional()
    .describe('Warm: what the person hears before joining; absent: the model summarizes the transcript.'),
  transfer_timeout_seconds: z
    .number()
    .int()
    .min(TRANSFER_TIMEOUT.min)
    .max(TRANSFER_TIMEOUT.max)
    .optional()
    .describe(`Warm: how long the person may take to answer, seconds (default ${DEFAULT_TRANSFER_TIMEOUT_SECONDS}).`),
});

const tag = 'Calls';

/**
 * `POST /v1/calls` body `{to, agent_id, from?, context?, metadata?, max_duration_seconds?, simulation?,
 * contact_id?, queue_timeout_seconds?, scheduled_at?, calling_window?, voicemail?, recording?, analysis?}`
 * (`analysis`: the call's plan instead of the agent's, null for none; its schema checked, 400 naming
 * `analysis.structured_data.schema…`) → the call object with `status:
 * "queued"`, or `scheduled` when it is dialed later (`scheduled_at`, unix seconds or ISO 8601
 * with an offset, a minute of skew to 30 days ahead, else 400 naming it; moved to the next opening of its
 * calling window, src/services/call-schedule.ts `dialTime`; a durable timer in its workflow dials it). The call's contact (whose name and records
 * the assistant is given) is `contact_id` (404 naming it when unknown), else the contact whose phone is
 * `to`; the call shows it as `contact_id`. A deleted agent is 404 naming `agent_id`. Test keys only: `simulation` (`caller`, `outcome`,
 * `ring_seconds`, `pause_seconds`). Live keys: Twilio must be configured (else 503); `from` must be one of
 * the organization's voice numbers or a caller ID it verified (`POST /v1/caller_ids`), else 400
 * `from_not_owned`; without `from`, the agent's number, else the organization's oldest voice number
 * (none: 400 `parameter_missing` naming `from`).
 * At the organization's `max_concurrent_calls` the call stays `queued`, in line (its place taken here,
 * in the order calls are created), and dials when a slot frees, at most `queue_timeout_seconds`
 * (src/workflows/call-slots.ts). `voicemail` replaces the agent's setting for this call. The dial gate
 * (src/services/dial-gate.ts) checks the number at its dial time: on a do-not-call list → 422
 * `number_on_do_not_call` naming `to`; outside the callee's calling hours → `scheduled` until they open
 * (`scheduled_reason: "calling_hours"`), or 422 `outside_calling_hours` with `calling_hours: "refuse"`.
 * The check is on the call as `compliance`; the workflow checks again right before it dials.
 */
const createCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls',
    operationId: 'createCall',
    errors: {
      '400': ['from_not_owned', 'destination_not_allowed'],
      '404': ['resource_missing'],
      '422': ['number_on_do_not_call', 'outside_calling_hours'],
      '429': ['concurrency_limit', 'quota_exceeded'],
      '503': ['telephony_not_configured'],
    },
    tag,
    summary: 'Place a call',
    description:
      "Starts the call and answers `queued` at once (`scheduled` with a later `scheduled_at`, a closed `calling_window`, or outside the callee's calling hours); a number on a do-not-call list is 422 `number_on_do_not_call`, one the account's `dialing_permissions` refuse (a country not allowed, a premium-rate, shared-cost, personal or satellite number) 400 `destination_not_allowed` naming `to`; follow it with `GET /v1/calls/{id}` or the `call.*` events. A live key needs Twilio, and `from` must be one of the organization's voice numbers or verified caller IDs (400 `from_not_owned`; absent: the agent's number, else the organization's first voice number); a test key simulates the call (`simulation`: the caller's lines, the outcome, ring and pause seconds).",
    scope: 'calls:write',
    body: createCallSchema,
    example: {
      to: '+14155550123',
      agent_id: 'agent_01jd5x2v7c0000000000000000',
      context: { appointment: '2026-11-24 10:00' },
      simulation: { caller: ['Hi, I need to move my appointment.', 'Thursday works.'] },
    },
    response: CallObject,
    handler: async (req, res, { body }) => {
      const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
      checkCallRequest(tenant.livemode, body);
      await checkLlmQuota(tenant.orgId); // a new call's assistant spends tokens: not past the day's cap
      const nowMs = Date.now();
      const requestedMs = body.scheduled_at !== undefined ? parseScheduledAt(body.scheduled_at, nowMs) : null;
      // The reads and checks run beside the idempotency record's insert (a 404 or 400 there does not keep
      // the key); the organization's call limit is read after the start, with the slot request that carries it.
      await idempotent(
        req,
        res,
        'call',
        async (callId, prepared) => {
          const { doc, stored } = await startCall(temporal, tenant, callId, body, prepared);
          return { status: 200, body: renderCall(doc), alongside: stored };
        },
        () => prepareCall(tenant, body, { requestedMs, nowMs }),
      );
    },
  });

/**
 * The checks of a call's body that need no read: `context`'s size, the analysis plan's schema, no
 * `simulation` with a live key (400 naming it). A live call's `from` is checked with the reads
 * (src/services/call-requests.ts `callerNumber`).
 * @throws ApiError 400 naming the field
 */
function checkCallRequest(livemode: boolean, body: z.output<typeof createCallSchema>): void {
  checkAnswering(body);
  if (body.squad_version !== undefined && body.squad_id === undefined)
    throw invalidParam('squad_version', 'Invalid squad_version: it pins a version of the squad named by squad_id.');
  if (body.context) checkContext(body.context);
  if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
  if (livemode && body.simulation)
    throw invalidParam('simulation', 'simulation is only accepted with a test-mode key; live calls ring real phones.');
}

/**
 * `GET /v1/calls` → list of calls, newest first; optional filters `status`, `agent_id`, `bulk_call_id`
 * (a campaign's calls), `direction` (`inbound` | `outbound`; calls made before directions existed are outbound),
 * and (the console's search by number, date range and a contact's calls) `to`, `from`
 * (E.164, exact), `contact_id`, `created[gte|gt|lte|lt]` (unix seconds). Each of `to`, `from`, `contact_id`
 * has its index `{org_id, livemode, <field>, _id}` (src/models/calls.ts).
 * @throws ApiError 400 `parameter_invalid` naming `to` or `from` when it is not an E.164 number, or a bad
 *   `created[…]`
 */
/** A call's id is made with it and its `created` is the id's second (src/models/calls.ts `newCallDocument`). */
const CALL_ID_SKEW: IdSkew = { before: 1_000, after: 1_000 };

const listCalls = operation({
  method: 'get',
  path: '/v1/calls',
  operationId: 'listCalls',
  tag,
  summary: 'List calls',
  scope: 'calls:read',
  list: true,
  query: [
    { name: 'status', description: 'Only calls in this status.', schema: CallObject.shape.status },
    { name: 'agent_id', description: 'Only calls of this agent.' },
    {
      name: 'agent_version',
      description: "Only calls that ran this version of their agent; with `agent_id`, of that agent's.",
      schema: z.string().regex(/^[1-9]\d{0,8}$/),
    },
    { name: 'bulk_call_id', description: "Only this campaign's calls." },
    { name: 'direction', description: 'Only inbound or only outbound calls.', schema: CallObject.shape.direction },
    { name: 'to', description: 'Only calls to this E.164 number (exact).', schema: e164 },
    { name: 'from', description: 'Only calls from this E.164 number (exact).', schema: e164 },
    { name: 'contact_id', description: "Only this contact's calls." },
    createdQuery('calls'),
  ],
  response: listOf(CallObject),
  handler: async (req, res) => {
    const filter = {
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
      ...queryFilters(req.query, { status: CALL_STATUSES, agent_id: null, bulk_call_id: null }),
    };
    const agentVersion = agentVersionQuery(req.query);
    if (agentVersion !== undefined) Object.assign(filter, { agent_version: agentVersion });
    const { direction } = queryFilters(req.query, { direction: CALL_DIRECTIONS });
    if (direction)
      Object.assign(filter, { direction: direction === 'outbound' ? { $in: ['outbound', null] } : direction });
    for (const param of ['to', 'from'] as const) {
      const v = req.query[param];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !isE164(v))
        throw invalidParam(param, `Invalid ${param}: must be a phone number in E.164 format, like +14155550123.`);
      Object.assign(filter, { [param]: v });
    }
    const { contact_id } = req.query;
    if (contact_id !== undefined) {
      if (typeof contact_id !== 'string' || !contact_id)
        throw invalidParam('contact_id', 'Invalid contact_id: must be a contact id.');
      Object.assign(filter, { contact_id });
    }
    const created = createdRange(req);
    // A call's `created` is its id's second (newCallDocument), so a time range is also a range of ids.
    if (created) Object.assign(filter, { created }, idRangeOf(createdIdRange(created, 'call', CALL_ID_SKEW)));
    res.json(await listPage(req, Call, filter, renderCall));
  },
});

/**
 * `GET /v1/calls/{id}` → the call with its model `usage` so far (src/services/usage.ts `callModelUsage`);
 * 404 `resource_missing`. A call not yet over also shows its `turns` so far (the turns recorded, each
 * written right after the answer it belongs to).
 */
const retrieveCall = operation({
  method: 'get',
  path: '/v1/calls/{id}',
  operationId: 'retrieveCall',
  tag,
  summary: 'Retrieve a call',
  description:
    "A call not yet over shows its `turns` so far. `usage` is the call's model usage so far (a realtime call's audio tokens apart), from its usage rows.",
  scope: 'calls:read',
  response: CallObject,
  handler: async (req, res) => {
    const call = await findCall(req.auth!, String(req.params.id));
    const usage = await callModelUsage(call._id);
    if ((TERMINAL_STATUSES as readonly string[]).includes(call.status))
      return void res.json({ ...renderCall(call), usage });
    const turns = await CallTurn.find({ call_id: call._id }).sort({ seq: 1 }).lean();
    res.json({ ...renderCall(call), usage, turns: turns.map((t) => renderTurn(call, t)) });
  },
});

/** `GET /v1/calls/{id}/transcript` → the transcript; 409 `call_not_ended` while the call lasts. */
const retrieveCallTranscript = operation({
  method: 'get',
  path: '/v1/calls/{id}/transcript',
  operationId: 'retrieveCallTranscript',
  errors: { '409': ['call_not_ended'] },
  tag,
  summary: "Retrieve a call's transcript",
  description: '409 `call_not_ended` while the call lasts.',
  scope: 'calls:read',
  response: TranscriptObject,
  handler: async (req, res) => {
    const call = await findCall(req.auth!, String(req.params.id));
    if (!(TERMINAL_STATUSES as readonly string[]).includes(call.status)) {
      throw new ApiError(
        409,
        'invalid_request_error',
        'call_not_ended',
        `The call is ${call.status}; its transcript is available once it has ended.`,
      );
    }
    // In `seq` order, which is `_id` order (`<call id>:<seq, 6 digits>`), from the `{call_id, seq}` index.
    const turns = await CallTurn.find({ call_id: call._id }).sort({ seq: 1 }).lean();
    res.json(renderTranscript(call, turns));
  },
});

/**
 * `POST /v1/calls/{id}/transfer` body `{to, mode?, summary?, transfer_timeout_seconds?}` → the call once
 * the transfer's outcome is known: `transferred` (cold, or warm and joined), or still `in_progress` with
 * `transfer.status: "failed"` (warm: the caller is back with the assistant). 400 naming `to` (or another
 * field) on bad input; 400 `destination_not_allowed` naming `to` when the account's dialing permissions
 * refuse it (src/services/dial-gate.ts `checkDestination`); 409 `call_not_live`, `call_not_transferable` (a browser voice call),
 * `transfer_in_progress` (a warm transfer of the call is under way). A realtime-engine call is referred
 * (src/workflows/call-realtime.ts `referOut`), always cold.
 */
const transferCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls/{id}/transfer',
    operationId: 'transferCall',
    errors: {
      '400': ['destination_not_allowed'],
      '409': ['call_not_live', 'call_not_transferable', 'transfer_in_progress'],
    },
    tag,
    summary: 'Transfer a live call',
    description:
      'To an E.164 number or a `sip:` URI the account\'s `dialing_permissions` allow (400 `destination_not_allowed` naming `to` otherwise: a country not allowed, a high-cost number type, a SIP domain not listed, a `client:` identity). `mode: "warm"` briefs the person first and brings the caller back to the assistant when they cannot take the call; answers once the outcome is known (`transferred`, or `transfer.status: "failed"`). A call on the realtime engine is transferred by a SIP `refer` of its leg, always cold (`mode: "warm"` too: its leg cannot be held while the person is briefed). 409 `call_not_live` once it has ended, `transfer_in_progress` while a warm transfer runs.',
    scope: 'calls:write',
    body: transferSchema,
    example: { to: '+14155550199', mode: 'warm', summary: 'Dana wants to move her Tuesday appointment.' },
    response: CallObject,
    handler: async (req, res, { body }) => {
      await requireDestination(req.auth!, body.to, 'to');
      await idempotent(req, res, 'req', async (updateId) => {
        // Read inside the handler: a retry that takes over sees the call as it is now.
        const call = await findCall(req.auth!, String(req.params.id));
        await runCallUpdate(temporal, call, () =>
          temporal.workflow.getHandle(callWorkflowId(call._id)).executeUpdate(transferUpdate, {
            args: [
              {
                to: body.to,
                ...(body.mode ? { mode: body.mode } : {}),
                ...(body.summary ? { summary: body.summary } : {}),
                ...(body.transfer_timeout_seconds ? { timeoutSeconds: body.transfer_timeout_seconds } : {}),
              },
            ],
            updateId,
          }),
        );
        return { status: 200, body: renderCall(await findCall(req.auth!, String(req.params.id))) };
      });
    },
  });

/** `POST /v1/calls/{id}/end` (no body) → the call, ended (`completed`, or `canceled` before answer); 409 `call_not_live`. */
const endCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls/{id}/end',
    operationId: 'endCall',
    errors: { '409': ['call_not_live'] },
    tag,
    summary: 'End a call',
    description: '`completed` once answered, `canceled` before. 409 `call_not_live` once it has ended.',
    scope: 'calls:write',
    body: null,
    response: CallObject,
    handler: async (req, res) => {
      await idempotent(req, res, 'req', async (updateId) => {
        const call = await findCall(req.auth!, String(req.params.id));
        await runCallUpdate(temporal, call, () =>
          temporal.workflow.getHandle(callWorkflowId(call._id)).executeUpdate(endUpdate, { updateId }),
        );
        return { status: 200, body: renderCall(await findCall(req.auth!, String(req.params.id))) };
      });
    },
  });

/** The stream's event names (`event:`) by what their entry is. */
const STREAM_EVENTS = {
  turn: 'turn',
  tool: 'tool_call',
  status: 'status',
  transfer: 'transfer',
  end: 'end',
} as const;

/**
 * The stream event of entry `entry` of `call`'s stream: a `turn` (`tool_call` for a tool turn) with the
 * turn as the transcript shows it and its `seq`; a `status` change with its events and fields (`transfer`
 * when it emitted a `call.transfer…` event), `end` for the terminal one. Null when the turn an entry
 * names is not readable yet (the reader looks again).
 */
async function streamEvent(call: WithId<CallDoc>, entry: CallStreamEntryDoc): Promise<StreamEvent | null> {
  if (entry.kind === 'turn') {
    const turn = await CallTurn.findById(`${call._id}:${String(entry.turn_seq).padStart(6, '0')}`).lean();
    if (!turn) return null;
    // Turns come after the answer: the call read before it may not know when that was.
    if (call.answered_ms == null)
      call.answered_ms = (await Call.findById(call._id, { answered_ms: 1 }).lean())?.answered_ms;
    const event = turn.role === 'tool' ? STREAM_EVENTS.tool : STREAM_EVENTS.turn;
    return { event, id: entry.n, data: { seq: turn.seq, ...renderTurn(call, turn) } };
  }
  const events = entry.events ?? [];
  const status = entry.status ?? 'unknown';
  const event = (TERMINAL_STATUSES as readonly string[]).includes(status)
    ? STREAM_EVENTS.end
    : events.some((e) => e.startsWith('call.transfer'))
      ? STREAM_EVENTS.transfer
      : STREAM_EVENTS.status;
  const fields = JSON.parse(entry.fields_json ?? '{}') as Record<string, unknown>;
  return { event, id: entry.n, data: { status, events, at: seconds(entry.at_ms), ...fields } };
}

/**
 * The next event of `call`'s stream after event `last`, or null when there is none yet: entry `last + 1`
 * by `_id`; without it, the call as stored now (its terminal transition's entry is written before the
 * call shows it, so a call that shows its end with no entry here has no more to come: its end is the next
 * event, `ended` is then called). Two counted reads at most when nothing is new (src/services/call-streams.ts).
 */
async function nextCallEvent(call: WithId<CallDoc>, last: number, ended: () => void): Promise<StreamEvent | null> {
  let entry = await readCallStreamEntry(call._id, last + 1);
  if (!entry) {
    const now = await readStreamedCall(call._id);
    if (!now || !(TERMINAL_STATUSES as readonly string[]).includes(now.status)) return null;
    entry = await readCallStreamEntry(call._id, last + 1);
    if (!entry) {
      ended();
      const data = { status: now.status, events: [], at: seconds(now.ended_ms), end_reason: now.end_reason };
      return { event: STREAM_EVENTS.end, id: last + 1, data };
    }
  }
  const event = await streamEvent(call, entry);
  if (event?.event === STREAM_EVENTS.end) ended();
  return event;
}

/**
 * `GET /v1/calls/{id}/stream[?last_event_id=N]` → `text/event-stream` (src/api/sse.ts) of the call from
 * its first status change to its end: `status` (and `transfer`) for each status change, `turn` for each
 * turn once final (the caller's, the assistant's, a line said or a note added through the API),
 * `tool_call` for each tool call, `end` for the terminal status; then the stream closes. `id:` is the
 * event's place in the call's stream (1, 2, …: numbered by the call's workflow, src/models/calls.ts
 * `CallStreamEntry`), so a reconnect with `Last-Event-ID` (to any API process) gets every event after it,
 * once, in order. A call with no further entry that is over (ended before the stream existed, or its end
 * recorded by the reconciler) gets `end` under the next number.
 *
 * An idle stream reads nothing: it waits on its process's one call-stream poller
 * (src/services/call-streams.ts), so a scheduled call's stream reads nothing until the call starts. Open
 * streams are capped per API key, per client IP address and per organization (`API_STREAMS_PER_KEY`,
 * `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`, across API processes): beyond, 429 `too_many_streams` with
 * `Retry-After` (the lease is taken after the call is found, so an unknown call is a 404 whatever the caps).
 */
const streamCall = operation({
  method: 'get',
  path: '/v1/calls/{id}/stream',
  operationId: 'streamCall',
  tag,
  summary: 'Stream a live call (server-sent events)',
  description:
    "`text/event-stream` from the first status change to the end: `event: status` (`data`: `{status, events, at, end_reason?, transferred_to?, answered_by?, error?}`; `transfer` when it carries a `call.transfer…` event), `event: turn` (each turn once final, as the transcript shows it, with its `seq`; `author: \"api\"` for lines said and notes added through the API), `event: tool_call` (a tool turn), `event: end` (the terminal status), then the stream closes. `id:` is the event's place in the call's stream (1, 2, …); a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or `last_event_id`) to any API process to receive every event after it, once, in order. Open streams (this route and the console's) are capped across API processes per API key (default 100), per client IP address (default 200) and per organization (default 1,000): beyond, 429 `rate_limit_error` with code `too_many_streams` and `Retry-After: 5` (end a stream before opening another; the operator sets the caps with `API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`).",
  scope: 'calls:read',
  query: [
    {
      name: 'last_event_id',
      description: 'Resume after this event id (the `Last-Event-ID` header wins).',
      schema: z.int().min(0).max(9_999_999_999),
    },
  ],
  content: { 'text/event-stream': { schema: SSE_EVENT_SCHEMA } },
  errors: { '429': ['too_many_streams'] },
  handler: async (req, res) => {
    const call = await findCall(req.auth!, String(req.params.id));
    const after = lastEventId(req);
    const release = await acquireApiStreamLease({ orgId: call.org_id, keyId: req.auth!.keyId, ip: req.ip ?? '' });
    let ended = false;
    try {
      await auditTranscriptRead(req, res); // the transcript's lines follow: one entry per stream, stored first
      await serveEventStream(req, res, after, {
        name: 'call stream',
        logFields: { call_id: call._id },
        live: () => !ended,
        watch: (wake, last) => watchCall(call._id, wake, last),
        retryMs: STREAM_RETRY_MS,
        heartbeatMs: config().widgetStreamHeartbeatMs,
        next: (last) => nextCallEvent(call, last, () => (ended = true)),
      });
    } finally {
      await release();
    }
  },
});

export const saySchema = z.strictObject({
  text: z
    .string()
    .max(SAY_MAX_CHARS, `must have at most ${SAY_MAX_CHARS} characters`)
    .refine((t) => t.trim().length > 0, 'must not be empty')
    .describe('What the assistant says, as it says it (1 to 1,000 characters).'),
  interrupt: z
    .boolean()
    .optional()
    .describe(
      'false (default): said at the next pause, once the answer being given is heard out; true: said at once, cutting what the assistant is saying, and heard whole (not interruptible by the caller).',
    ),
});

export const noteSchema = z.strictObject({
  note: z
    .string()
    .max(NOTE_MAX_CHARS, `must have at most ${NOTE_MAX_CHARS} characters`)
    .refine((t) => t.trim().length > 0, 'must not be empty')
    .describe('What the model is told (the caller does not hear it).'),
});

/**
 * `POST /v1/calls/{id}/say` body `{text, interrupt?}`, Idempotency-Key → `call_say` once the line is said
 *: by the live call's voice session (ConversationRelay or its voice room), at the next pause
 * or at once with `interrupt`; in test mode at the next pause between the scripted caller's lines. It is
 * the assistant's turn with `author: "api"`, in the model's conversation from then on. 409
 * `call_not_live` unless the call is in progress; 400 naming `text` when empty or over 1,000 characters.
 */
const sayOnCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls/{id}/say',
    operationId: 'sayOnCall',
    errors: { '409': ['call_not_live'] },
    tag,
    summary: 'Say a line on a live call',
    description:
      'The assistant says `text` at the next pause (at once with `interrupt`); the answer comes once it is said. It is in the transcript as the assistant\'s turn with `author: "api"`, and the model sees it. 409 `call_not_live` unless the call is in progress.',
    scope: 'calls:write',
    body: saySchema,
    example: { text: 'A colleague will call you back within the hour.' },
    response: CallSayObject,
    handler: async (req, res, { body }) => {
      await idempotent(req, res, 'req', async (updateId) => {
        const call = await findCall(req.auth!, String(req.params.id));
        const interrupt = body.interrupt ?? false;
        let spoken = false;
        await runCallUpdate(temporal, call, async () => {
          const result = await temporal.workflow
            .getHandle(callWorkflowId(call._id))
            .executeUpdate(sayUpdate, { args: [{ text: body.text.trim(), interrupt }], updateId });
          spoken = result.spoken;
        });
        const said: z.output<typeof CallSayObject> = {
          object: 'call_say',
          call_id: call._id,
          text: body.text.trim(),
          interrupt,
          spoken,
        };
        return { status: 200, body: said };
      });
    },
  });

/**
 * `POST /v1/calls/{id}/context` body `{note}`, Idempotency-Key → `call_note`: a system note
 * the model sees from its next request on (a supervisor's whisper), never spoken; recorded as a `note`
 * turn with `author: "api"`. 409 `call_not_live` unless the call is in progress; 400 naming `note`.
 */
const addCallContext = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls/{id}/context',
    operationId: 'addCallContext',
    errors: { '409': ['call_not_live'] },
    tag,
    summary: 'Whisper a note to the assistant',
    description:
      'A note the model sees from its next turn on; the caller does not hear it. In the transcript as a `note` turn with `author: "api"`. 409 `call_not_live` unless the call is in progress.',
    scope: 'calls:write',
    body: noteSchema,
    example: { note: 'The customer is a VIP: offer the free upgrade.' },
    response: CallNoteObject,
    handler: async (req, res, { body }) => {
      await idempotent(req, res, 'req', async (updateId) => {
        const call = await findCall(req.auth!, String(req.params.id));
        await runCallUpdate(temporal, call, () =>
          temporal.workflow
            .getHandle(callWorkflowId(call._id))
            .executeUpdate(contextUpdate, { args: [{ note: body.note.trim() }], updateId }),
        );
        const note: z.output<typeof CallNoteObject> = {
          object: 'call_note',
          call_id: call._id,
          note: body.note.trim(),
        };
        return { status: 200, body: note };
      });
    },
  });

/** Routes under `/v1/calls` (mounted there by src/api/app.ts); `temporal` starts and updates call workflows. */
export function callsRouter(temporal: Client): Router {
  return operationsRouter('/v1/calls', [
    createCall(temporal),
    listCalls,
    retrieveCall,
    retrieveCallTranscript,
    transferCall(temporal),
    endCall(temporal),
    streamCall,
    sayOnCall(temporal),
    addCallContext(temporal),
  ]);
}
