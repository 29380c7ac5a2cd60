/**
 * Inbound calls: a caller rings one of the organization's numbers connected with the `voice`
 * channel (live: Twilio's incoming-call webhook, src/api/twilio/index.ts; test mode:
 * `POST /v1/test_helpers/inbound_calls`), and the assistant answers on the same `callWorkflow` as
 * outbound calls, with `direction: "inbound"`. `startInboundCall` decides, in this order:
 *
 * 1. who calls: the contact whose phone is `from` (`contact_id`; none is created);
 * 2. which agent answers: the number's `inbound_webhook_url`, when set, is asked
 *    (`{"type":"call.inbound","call_id","from","to","contact_id"?}`, signed `Svc-Signature` with the
 *    number's secret, at most `inbound_webhook_timeout_ms`) and may name `agent_id`, give `context` and
 *    `metadata`, or `reject: true`; any other answer (timeout, non-2xx, invalid body, unknown agent) is
 *    recorded on the call (`inbound_webhook: {status: "failed", error}`) and the number's own agent
 *    answers (its `agent_id`, else the organization's default agent);
 * 3. whether a line is free: the call takes one of the organization's call slots at once
 *    (src/services/call-slots.ts `tryAcquireCallSlot`); at `max_concurrent_calls` it is refused, forwarded
 *    to the number's `overflow_to` when set (`transferred`), else told all lines are busy (`busy`), both
 *    with `end_reason: "concurrency_limit"`.
 *
 * The call's document is written before the answer goes back (Twilio's ConversationRelay connects at
 * once and its handshake checks the call), then its workflow is started; a refused call's workflow only
 * records the end and its events. A repeated request for the same call (Twilio retrying the same CallSid)
 * finds the call already there and answers from it: one call per CallSid.
 */
import type { Client } from '@temporalio/client';
import { aiDisclosureEnabled } from './ai-disclosure';
import { z } from 'zod';
import { config } from '../config';
import { answeringAgent, findLiveAgent, type AgentDoc } from '../models/agents';
import { findLiveSquad } from '../models/squads';
import { squadForCall } from './squads';
import { versionedAgent } from './agent-versions';
import { Call, InboundCallSid, newCallDocument, type CallDoc } from '../models/calls';
import { DEFAULT_INBOUND_WEBHOOK_TIMEOUT_MS, type PhoneNumberDoc } from '../models/conversations';
import { insertIfAbsent, isDuplicateKey, type WithId } from '../models/store';
import { httpsRequest } from '../providers/webhook-http';
import { signatureHeader, SIGNATURE_HEADER } from '../providers/webhook-signing';
import { openSecret } from '../secrets';
import type { CallWorkflowInput, InboundCall, InboundWebhookResult, Simulation } from '../shared/calls';
import { newId } from '../shared/ids';
import { newCallInput, startCallWorkflow } from './calls';
import { tryAcquireCallSlot } from './call-slots';
import { findContact } from './contacts';
import { checkDestination } from './dial-gate';
import { logger } from '../logger';
import { currentTraceId } from '../platform/tracing';

/** Default and bounds of a number's `inbound_webhook_timeout_ms` (ms). */
export const INBOUND_WEBHOOK_TIMEOUT = { default: DEFAULT_INBOUND_WEBHOOK_TIMEOUT_MS, min: 100, max: 8_000 };

/** The number a test-mode inbound call rings when it names none (answered by the default agent). */
export const SIMULATED_VOICE_NUMBER = '+15005550006';

/** The scripted caller of a test-mode inbound call without `simulation.caller`. */
export const DEFAULT_INBOUND_CALLER_SCRIPT = ['Hi, I have a quick question.', 'Okay, thank you. Goodbye!'];

/** What a caller hears when the number takes no calls (unknown, no `voice` channel, no agent). */
export const NUMBER_UNAVAILABLE_LINE = 'Sorry, this number cannot take calls right now. Goodbye.';
/** What a caller hears when every call slot is taken and the number has no `overflow_to`. */
export const ALL_LINES_BUSY_LINE = 'All our lines are busy right now. Please call again in a few minutes. Goodbye.';

/** An E.164 number. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** `User-Agent` of inbound webhook requests. */
const USER_AGENT = 'svc-assistant-inbound/1.0 (+https://docs.svc-assistant.dev/inbound-calls)';

/** What an inbound webhook may answer (unknown keys are ignored; a wrong type makes the answer invalid). */
const webhookAnswer = z.object({
  agent_id: z.string().min(1).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  metadata: z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys')
    .optional(),
  reject: z.boolean().optional(),
});
type WebhookAnswer = z.output<typeof webhookAnswer>;

/** Largest `context` an inbound webhook may give, as JSON (bytes). */
const MAX_WEBHOOK_CONTEXT_BYTES = 16 * 1024;

/** One inbound call to start. */
export interface InboundCallStart {
  tenant: { orgId: string; livemode: boolean };
  /** The call's id: derived from the CallSid (live; `inboundCallId`) or the request's (test mode). */
  callId: string;
  /** The caller (E.164; `anonymous` or Twilio's placeholder when the caller ID is withheld). */
  from: string;
  /** The number called (E.164). */
  to: string;
  /** The organization's number called; null for test mode's simulated number. */
  number: WithId<PhoneNumberDoc> | null;
  /** Twilio's CallSid; null for a simulated call. */
  providerCallSid: string | null;
  /** Test mode: the scripted caller (defaults: `DEFAULT_INBOUND_CALLER_SCRIPT`, no pauses). */
  simulation?: { caller?: string[]; pause_seconds?: number } | null;
}

/**
 * The call id of Twilio's call `callSid`: the first request for it makes one (kept under the CallSid's
 * `_id`, insert-if-absent), every later one gets the same, so a retried webhook is the same call.
 */
export async function inboundCallId(callSid: string): Promise<string> {
  const found = await InboundCallSid.findById(callSid).lean();
  if (found) return found.call_id;
  const callId = newId('call');
  try {
    await InboundCallSid.collection.insertOne({ _id: callSid as never, call_id: callId, created_ms: Date.now() });
    return callId;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const winner = await InboundCallSid.findById(callSid).lean();
    if (!winner) throw err;
    return winner.call_id;
  }
}

/** The call id of an inbound call's CallSid, or null when no inbound call has it (status callbacks). */
export async function callIdOfCallSid(callSid: string): Promise<string | null> {
  return (await InboundCallSid.findById(callSid).lean())?.call_id ?? null;
}

/**
 * Whether the number's `overflow_to` may take the calls that find every slot taken: set, and allowed by
 * the organization's dialing permissions (src/services/dial-gate.ts `checkDestination`; the `<Dial>` to
 * it is a call the organization pays for). Refused, the caller hears that all lines are busy.
 */
async function overflowAllowed(tenant: { orgId: string; livemode: boolean }, to: string | null | undefined) {
  if (!to) return false;
  const check = await checkDestination(tenant, to);
  if (!check.allowed) logger.warn('overflow_to refused by the dialing permissions', { detail: check.detail });
  return check.allowed;
}

/**
 * Starts (or finds) inbound call `start.callId`: contact, agent (webhook; else the number's squad, else its
 * agent or the default agent), call slot, document, workflow.
 * @returns the call's document as stored (a repeated request: the first's), or null when nobody can
 *   answer (no agent at all): nothing is created
 */
export async function startInboundCall(temporal: Client, start: InboundCallStart): Promise<WithId<CallDoc> | null> {
  const existing = await Call.findById(start.callId).lean();
  if (existing) return existing;
  const { tenant } = start;
  // A withheld caller ID (`anonymous`) is nobody's phone.
  const contactId = E164.test(start.from) ? ((await findContact(tenant, { phone: start.from }))?._id ?? null) : null;
  const asked = start.number?.inbound_webhook_url
    ? await askInboundWebhook(start.number, { call_id: start.callId, from: start.from, to: start.to, contactId })
    : null;
  let answer = asked?.answer ?? null;
  let webhook = asked?.result ?? null;
  let agent = answer?.agent_id ? await findLiveAgent(tenant, answer.agent_id) : null;
  if (answer?.agent_id && !agent) {
    webhook = { status: 'failed', error: `unknown agent ${answer.agent_id}` };
    answer = null;
  }
  // The number's squad, unless the webhook named an agent: the call starts as a squad call.
  const squad = agent ? null : await numberSquad(tenant, start.number, { contactId, phone: start.from });
  agent ??= squad ? null : await answeringAgent(tenant, start.number?.agent_id);
  if (!agent && !squad) return null;

  let refusal: InboundCall['refusal'] = null;
  if (answer?.reject) refusal = { status: 'canceled', reason: 'rejected' };
  else if (!(await tryAcquireCallSlot(temporal, tenant, start.callId)).granted)
    refusal = (await overflowAllowed(tenant, start.number?.overflow_to))
      ? { status: 'transferred', reason: 'concurrency_limit', transferTo: start.number!.overflow_to! }
      : { status: 'busy', reason: 'concurrency_limit' };

  // The call's version is fixed now, per caller (the agent's traffic split; a squad's: every member's).
  const versioned = squad?.start ?? (await versionedAgent(agent!, { contactId, phone: start.from }));
  const input = inboundCallInput(start, versioned, {
    aiDisclosure: await aiDisclosureEnabled(tenant),
    contactId,
    context: answer?.context ?? {},
    metadata: answer?.metadata ?? {},
    inbound: { providerCallSid: start.providerCallSid, webhook, refusal },
  });
  if (squad) input.squad = squad.squad;
  // Written before the answer goes back (the relay handshake checks it), then the workflow; a crash in
  // between is repaired by the retried request (same CallSid, same call id) or the workflow's insert.
  await insertIfAbsent(Call, newCallDocument(input, currentTraceId()));
  await startCallWorkflow(temporal, input);
  return await Call.findById(start.callId).lean();
}

/**
 * The squad a number assigns its inbound calls (`squad_id`), its members fixed for this caller
 * (src/services/squads.ts `squadForCall`); null when it has none, or the squad is deleted or unusable now
 * (a member's agent gone): the number's agent (else the default agent) answers instead.
 */
async function numberSquad(
  tenant: { orgId: string; livemode: boolean },
  number: WithId<PhoneNumberDoc> | null,
  who: { contactId: string | null; phone: string },
): Promise<Awaited<ReturnType<typeof squadForCall>> | null> {
  const squad = number?.squad_id ? await findLiveSquad(tenant, number.squad_id) : null;
  if (!squad) return null;
  try {
    return await squadForCall(squad, tenant, who);
  } catch (err) {
    logger.warn("inbound call: the number's squad cannot answer; its agent does", { error: String(err) });
    return null;
  }
}

/** The `callWorkflow` input of an inbound call: an outbound call's, turned around (`from` the caller, `to` our number). */
function inboundCallInput(
  start: InboundCallStart,
  agent: WithId<AgentDoc>,
  decided: {
    contactId: string | null;
    context: Record<string, unknown>;
    metadata: Record<string, string>;
    inbound: InboundCall;
    /** The organization's `ai_disclosure` (src/services/ai-disclosure.ts). */
    aiDisclosure: boolean;
  },
): CallWorkflowInput {
  const base = newCallInput(start.callId, { ...start.tenant, aiDisclosure: decided.aiDisclosure }, agent, {
    to: start.to,
    from: start.from,
    context: decided.context,
    metadata: decided.metadata,
    contact_id: decided.contactId,
  });
  const simulation: Simulation | null = base.simulation && {
    ...base.simulation,
    caller: start.simulation?.caller ?? DEFAULT_INBOUND_CALLER_SCRIPT,
    pause_seconds: start.simulation?.pause_seconds ?? 0,
  };
  return {
    ...base,
    simulation,
    direction: 'inbound',
    inbound: decided.inbound,
    // A slot was taken above for an answered call; a refused one holds none.
    slot: decided.inbound.refusal ? undefined : 'held',
    queue_timeout_seconds: undefined,
  };
}

/**
 * Asks the number's inbound webhook which agent answers (one signed POST, no retry: the caller is
 * waiting), at most `inbound_webhook_timeout_ms`.
 * @returns its answer when it is a 2xx with a valid JSON object body, else null; and the outcome to record
 */
async function askInboundWebhook(
  number: WithId<PhoneNumberDoc>,
  call: { call_id: string; from: string; to: string; contactId: string | null },
): Promise<{ answer: WebhookAnswer | null; result: InboundWebhookResult }> {
  const body = JSON.stringify({
    type: 'call.inbound',
    call_id: call.call_id,
    from: call.from,
    to: call.to,
    ...(call.contactId ? { contact_id: call.contactId } : {}),
  });
  const secret = openSecret(number.inbound_webhook_secret);
  const outcome = await httpsRequest({
    method: 'POST',
    url: number.inbound_webhook_url!,
    body,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
      'Idempotency-Key': call.call_id,
      ...(secret ? { [SIGNATURE_HEADER]: signatureHeader(body, [secret], Math.floor(Date.now() / 1000)) } : {}),
    },
    allowPrivate: config().webhookAllowPrivate,
    caFile: config().webhookCaFile,
    timeoutMs: number.inbound_webhook_timeout_ms ?? INBOUND_WEBHOOK_TIMEOUT.default,
    maxResponseBytes: 64 * 1024,
    keptChars: 64 * 1024,
  });
  const failed = (error: string) => ({ answer: null, result: { status: 'failed' as const, error } });
  if (!outcome.ok) return failed(outcome.errorCode === 'timeout' ? 'timeout' : (outcome.error ?? 'request failed'));
  if (outcome.truncated) return failed('invalid body: larger than 64 KB');
  let json: unknown;
  try {
    json = JSON.parse(outcome.responseBody ?? '');
  } catch {
    return failed('invalid body: not JSON');
  }
  const parsed = webhookAnswer.safeParse(json);
  if (!parsed.success)
    return failed(`invalid body: ${parsed.error.issues[0].path.join('.') || 'body'} ${parsed.error.issues[0].message}`);
  if (parsed.data.context && JSON.stringify(parsed.data.context).length > MAX_WEBHOOK_CONTEXT_BYTES)
    return failed(`invalid body: context larger than ${MAX_WEBHOOK_CONTEXT_BYTES} bytes`);
  return { answer: parsed.data, result: { status: 'succeeded' } };
}
