/**
 * What the API asks of a call, as named steps a route (src/api/calls.ts, src/api/test-helpers.ts,
 * src/api/analyses.ts, src/api/recordings.ts) or a test calls directly: `prepareCall` (the reads and
 * checks of `POST /v1/calls`, spec section 4), `startCall` (its workflow started, its place taken in the
 * organization's line), `findCall` (a tenant's call by id) and `runCallUpdate` (a Workflow Update on a
 * live call, its refusals as the API answers them).
 */
import type { Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError, missingParam, notFound } from '../errors';
import { telephonyConfigured } from '../config';
import { logger } from '../logger';
import { aiDisclosureEnabled } from './ai-disclosure';
import { checkFrom, defaultFrom } from './caller-ids';
import { findLiveAgent, type AgentDoc } from '../models/agents';
import { findLiveSquad, squadConfig, type SquadDoc } from '../models/squads';
import { squadForCall } from './squads';
import type { CallSquad } from '../shared/calls';
import { Call, newCallDocument, type CallDoc } from '../models/calls';
import { insertIfAbsentGrouped, type WithId } from '../models/store';
import {
  CALL_NOT_LIVE,
  CALL_NOT_SCHEDULED,
  CALL_NOT_TRANSFERABLE,
  TERMINAL_STATUSES,
  TRANSFER_IN_PROGRESS,
  type CallingHoursPolicy,
  type CallingWindow,
  type ComplianceCheck,
} from '../shared/calls';
import { versionedAgent, type VersionedAgent } from './agent-versions';
import { dialTime } from './call-schedule';
import { checkDial, destinationNotAllowed } from './dial-gate';
import { queueCallForSlot } from './call-slots';
import { newCallInput, startCallWorkflow, type CallRequest } from './calls';
import { resolveCallContact } from './contacts';
import { currentTraceId } from '../platform/tracing';

/** A tenant: the organization and the key's mode. */
export interface Tenant {
  orgId: string;
  livemode: boolean;
}

/**
 * What `prepareCall` read and decided: the agent at the call's version, its contact, when it dials, and
 * the dial gate's check at that time.
 */
export interface PreparedCall {
  agent: VersionedAgent;
  /** The number a live call is placed from: the request's, else the agent's or the organization's (`defaultFrom`). */
  from: string | null;
  contactId: string | null;
  dial: Awaited<ReturnType<typeof dialTime>>;
  gate: ComplianceCheck;
  /** A squad's call: its members at the versions fixed now (`agent` is the start member's). */
  squad?: CallSquad;
}

/**
 * A live key's request places real calls: Twilio must be configured on the service (test keys simulate).
 * @throws ApiError 503 `telephony_not_configured` for a live key without Twilio credentials
 */
export function requireTelephony(tenant: Tenant): void {
  if (tenant.livemode && !telephonyConfigured()) {
    throw new ApiError(
      503,
      'api_error',
      'telephony_not_configured',
      'Live calls need Twilio credentials on the service (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN). Use a test key for simulated calls.',
    );
  }
}

/**
 * The reads and checks of a new call, before anything is started: the live agent `agent_id` and the
 * call's contact (`contact_id`, else the contact whose phone is `to`), side by side (the agent's 404
 * first); Twilio configured for a live call; when it dials (`requestedMs`, the parsed `scheduled_at`, or
 * now, moved into its calling window, else the agent's: src/services/call-schedule.ts `dialTime`); the
 * agent's version fixed now (a traffic split picks it per contact); the dial gate at that time
 * (src/services/dial-gate.ts): calling hours closed moves the dial to their opening (`hold`, the
 * default; the call is `scheduled` with `scheduled_reason: "calling_hours"`).
 * A live call's `from` is checked, or chosen when absent (`callerNumber`).
 * @throws ApiError 404 naming `agent_id` (or `contact_id`), 503 `telephony_not_configured`, 400
 *   `from_not_owned` / `parameter_missing` naming `from`, 400 naming
 *   `calling_window` when it never opens, 422 `number_on_do_not_call` naming `to` (on a do-not-call list),
 *   422 `outside_calling_hours` naming `calling_hours` (closed, and the request said `refuse`);
 *   400 `destination_not_allowed` naming `to` (the account's dialing permissions refuse the number)
 */
export async function prepareCall(
  tenant: Tenant,
  request: {
    to: string;
    agent_id?: string;
    squad_id?: string;
    squad_version?: number;
    from?: string;
    contact_id?: string;
    calling_window?: CallingWindow;
    calling_hours?: CallingHoursPolicy;
  },
  when: { requestedMs: number | null; nowMs: number },
): Promise<PreparedCall> {
  const [answering, contactId] = await Promise.allSettled([
    answeringOf(tenant, request),
    resolveCallContact(tenant, { to: request.to, contactId: request.contact_id }),
  ]).then(([a, c]) => {
    if (a.status === 'rejected') throw a.reason;
    if (c.status === 'rejected') throw c.reason;
    return [a.value, c.value] as const;
  });
  const agent = answering.agent;
  const from = await callerNumber(tenant, request.from, agent._id); // and Twilio configured for a live call
  const agentWindow = agent.calling_window_json ? JSON.parse(agent.calling_window_json) : null;
  let dial = await dialTime(
    { to: request.to, livemode: tenant.livemode, window: request.calling_window ?? null, agentWindow },
    when.requestedMs,
    when.nowMs,
  );
  const policy = request.calling_hours ?? 'hold';
  const { check, verdict } = await checkDial(tenant, {
    to: request.to,
    contactId,
    atMs: dial.atMs,
    leg: 'call',
    policy,
  });
  if (verdict.verdict === 'refuse' && verdict.reason === 'destination_not_allowed')
    throw destinationNotAllowed(verdict.message, 'to');
  if (verdict.verdict === 'refuse' && verdict.reason === 'do_not_call')
    throw new ApiError(422, 'invalid_request_error', 'number_on_do_not_call', verdict.message, 'to');
  if (verdict.verdict === 'refuse')
    throw new ApiError(
      422,
      'invalid_request_error',
      'outside_calling_hours',
      `${verdict.message} Send calling_hours "hold" (the default) to have the call wait for the window.`,
      'calling_hours',
    );
  if (verdict.verdict === 'hold') dial = { ...dial, atMs: verdict.heldUntilMs, later: true };
  if (answering.squad) {
    const who = { contactId, phone: request.to };
    const { squad, start } = await squadForCall(answering.squad, tenant, who, request.squad_version);
    return { agent: start, from, contactId, dial, gate: check, squad };
  }
  return { agent: await versionedAgent(agent, { contactId, phone: request.to }), from, contactId, dial, gate: check };
}

/**
 * Who answers a new call (or a campaign's calls: src/services/bulk-call-requests.ts): the live agent
 * `agent_id` (404 naming it), or the live squad `squad_id` (404 naming it) with its start member's live
 * agent (404 naming `squad_id` when that agent is gone).
 */
export async function answeringOf(
  tenant: Tenant,
  request: { agent_id?: string; squad_id?: string },
): Promise<{ agent: WithId<AgentDoc>; squad?: WithId<SquadDoc> }> {
  if (request.squad_id !== undefined) {
    const squad = await findLiveSquad(tenant, request.squad_id);
    if (!squad) throw notFound('squad', request.squad_id, 'squad_id');
    const config = squadConfig(squad);
    const startId = config.members.find((m) => m.name === config.start)!.agent_id;
    const agent = await findLiveAgent(tenant, startId);
    if (!agent) throw notFound('agent', startId, 'squad_id');
    return { agent, squad };
  }
  const agent = await findLiveAgent(tenant, request.agent_id ?? '');
  if (!agent) throw notFound('agent', request.agent_id ?? '', 'agent_id');
  return { agent };
}

/**
 * The number a call is placed from (src/services/caller-ids.ts): a live call's `from` must be the
 * organization's voice number or verified caller ID; without one, the agent's number, else the
 * organization's oldest voice number. Test calls keep the request's `from` unchecked (simulated).
 * @throws ApiError 400 `parameter_missing` naming `from` for a live call without one when the
 *   organization has no voice number; then 503 `telephony_not_configured` (`requireTelephony`); then 400
 *   `from_not_owned` naming `from`
 */
export async function callerNumber(
  tenant: Tenant,
  requested: string | null | undefined,
  agentId: string | null,
): Promise<string | null> {
  if (!tenant.livemode) return requested ?? null;
  const chosen = requested ?? (await defaultFrom(tenant, agentId));
  if (!chosen)
    throw missingParam(
      'from',
      'Missing required param: from (a live call needs a number to call from, and your organization has no voice number: add one with POST /v1/phone_numbers).',
    );
  requireTelephony(tenant);
  if (requested) await checkFrom(tenant, requested);
  return chosen;
}

/**
 * Starts call `callId` as `prepared` says: its workflow (workflow id = call id), `scheduled` until its
 * dial time when later, else `queued` and put in the organization's line (src/services/call-slots.ts
 * `queueCallForSlot`: a signal sent after the start and not waited for, so the answer waits for one
 * Temporal round trip, not two; a workflow that got no grant asks itself).
 * @returns the call's first document, and its insert (insert-if-absent: the workflow writes it too, so
 *   a crash before it loses nothing), to run beside the idempotency record's completion
 */
export async function startCall(
  temporal: Client,
  tenant: Tenant,
  callId: string,
  request: Omit<CallRequest, 'contact_id' | 'scheduled_at'>,
  prepared: PreparedCall,
): Promise<{ doc: WithId<CallDoc>; stored: Promise<unknown> }> {
  const { agent, contactId, dial } = prepared;
  const input = newCallInput(callId, { ...tenant, aiDisclosure: await aiDisclosureEnabled(tenant) }, agent, {
    ...request,
    from: prepared.from ?? request.from,
    contact_id: contactId,
    scheduled_at: dial.later ? Math.ceil(dial.atMs / 1000) : undefined,
  });
  if (prepared.squad) input.squad = prepared.squad;
  input.dial_gate = { calling_hours: request.calling_hours ?? 'hold', checked: prepared.gate };
  if (!dial.later) input.slot = 'waiting';
  await startCallWorkflow(temporal, input);
  if (!dial.later)
    void queueCallForSlot(temporal, tenant, callId).catch((err: unknown) =>
      logger.warn('call slot: not put in line by the API; the call asks itself', {
        call_id: callId,
        error: String(err),
      }),
    );
  const doc = newCallDocument(input, currentTraceId());
  return { doc, stored: insertIfAbsentGrouped(Call, doc) };
}

/** The tenant's call `id`; 404 `resource_missing` naming `id` when another tenant's or unknown. */
export async function findCall(tenant: Tenant, id: string): Promise<WithId<CallDoc>> {
  const doc = await Call.findOne({ _id: id, org_id: tenant.orgId, livemode: tenant.livemode }).lean();
  if (!doc) throw notFound('call', id, 'id');
  return doc;
}

const notLive = (status: string) =>
  new ApiError(409, 'invalid_request_error', CALL_NOT_LIVE, `The call is ${status}; this operation needs a live call.`);

/**
 * Runs an update on a call's workflow, mapping its refusals to 409 (`call_not_live` with the status,
 * `call_not_transferable`, `call_not_scheduled`, `transfer_in_progress`) and a closed workflow to `call_not_live`.
 */
export async function runCallUpdate(
  temporal: Client,
  call: { _id: string; status: string },
  update: () => Promise<unknown>,
): Promise<void> {
  if ((TERMINAL_STATUSES as readonly string[]).includes(call.status)) throw notLive(call.status);
  try {
    await update();
  } catch (err) {
    const refusal =
      err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure ? err.cause : null;
    if (refusal?.type === CALL_NOT_LIVE) {
      // The workflow's validator puts the call's status in the failure's details.
      const [status] = refusal.details ?? [];
      throw notLive(typeof status === 'string' ? status : 'not live');
    }
    if (
      refusal &&
      (refusal.type === CALL_NOT_TRANSFERABLE ||
        refusal.type === CALL_NOT_SCHEDULED ||
        refusal.type === TRANSFER_IN_PROGRESS)
    )
      throw new ApiError(409, 'invalid_request_error', refusal.type, refusal.message);
    if (err instanceof WorkflowNotFoundError || /workflow execution already completed/i.test((err as Error).message)) {
      throw notLive('over');
    }
    throw err;
  }
}
