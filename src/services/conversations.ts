/**
 * Conversations, node side, for every starter (the API's `POST /v1/messages`, the test helper, the
 * Twilio messaging webhooks) and the activities: the conversation document (created once per
 * organization, mode, channel and customer number), the starters of `conversationWorkflow`
 * (signal-with-start, update-with-start with `USE_EXISTING`: "start it or talk to the one running"),
 * the customer's state as the stored messages show it (WhatsApp window, opt-out), and template rendering.
 * The contract itself is src/shared/conversations.ts.
 */
import type { Client } from '@temporalio/client';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { SearchAttributePair, SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { config } from '../config';
import {
  changeWindow,
  Conversation,
  Message,
  renderMessage,
  type ConversationDoc,
  type MessageDoc,
} from '../models/conversations';
import { emitEvent } from './events';
import { insertIfAbsent, type WithId } from '../models/store';
import { idTime, newId } from '../shared/ids';
import {
  CONVERSATION_WORKFLOW,
  conversationWorkflowId,
  nextStatus,
  type Channel,
  type ConversationWorkflow,
  type ConversationWorkflowInput,
  type OutboundStatus,
} from '../shared/conversations';
import { searchAttributeKeys } from '../platform/temporal';
import { messageTransitions } from '../platform/metrics';
import { secretsMacs } from '../secrets';
import { answeringAgent } from '../models/agents';
import { squadStart } from './squads';

/** Who a conversation is with and through which service number. */
export interface ConversationKey {
  orgId: string;
  livemode: boolean;
  channel: Channel;
  customerNumber: string;
}

/** What a new conversation starts with: its service number and the agent answering it. */
export interface ConversationInit {
  serviceNumber: string;
  /** The agent answering; a squad's conversation: its start member's agent. */
  agentId: string | null;
  /** A squad answers it (its members hand it to each other): the squad and its start member; absent: none. */
  squad?: { id: string; start: string } | null;
}

/**
 * Who answers a new conversation on a service number (a phone number's, or the widget's settings): its
 * live squad `squadId` (the start member's agent named as the conversation's agent), else its agent
 * `agentId` while it is live, else the organization's default agent (src/models/agents.ts `answeringAgent`).
 * A deleted squad falls back as a deleted agent does.
 */
export async function conversationAnswerer(
  tenant: { orgId: string; livemode: boolean },
  assigned: { agentId?: string | null; squadId?: string | null },
): Promise<Pick<ConversationInit, 'agentId' | 'squad'>> {
  const squad = assigned.squadId ? await squadStart(tenant, assigned.squadId) : null;
  if (squad) return { agentId: squad.agentId, squad: { id: squad.id, start: squad.start } };
  return { agentId: (await answeringAgent(tenant, assigned.agentId ?? null))?._id ?? null };
}

/**
 * The workflow ids (= the documents' `key`) a conversation of `key` may have, the current one first:
 * `conv:<org>:<mode>:<channel>:n_<HMAC>`, the customer's number replaced by a keyed hash (HMAC-SHA256
 * under a key derived from `SECRETS_KEY`, src/secrets.ts `secretsMacs`) so that no number is in plain
 * text at the Temporal server; then the same under each `SECRETS_KEY_PREVIOUS`; last the
 * id of conversations started before the hash (`…:<E.164 number>`), which keep their id and run.
 * Workflow code never computes it: the starters (API, webhooks) do, and the workflow is told its input.
 * @throws Error when SECRETS_KEY is missing or too short
 */
export function conversationWorkflowIds(key: ConversationKey): string[] {
  const refs = secretsMacs('conversation number', `${key.orgId}:${key.customerNumber}`).map((mac) => `n_${mac}`);
  return [...refs, key.customerNumber].map((ref) => conversationWorkflowId(key.orgId, key.livemode, key.channel, ref));
}

/** The stored conversation of `key`, under any of its `conversationWorkflowIds` (one indexed read each), or null. */
export async function findConversation(key: ConversationKey): Promise<WithId<ConversationDoc> | null> {
  for (const id of conversationWorkflowIds(key)) {
    const doc = await Conversation.findOne({ key: id }).lean();
    if (doc) return doc as WithId<ConversationDoc>;
  }
  return null;
}

/**
 * The conversation of `key`, created if there is none: inserted against the unique `key` index, so
 * concurrent first messages make one conversation (the loser reads the winner's). A new conversation
 * takes `init` (a function is called only when one is created); an existing one keeps its own.
 */
export async function ensureConversation(
  key: ConversationKey,
  init: ConversationInit | (() => Promise<ConversationInit>),
): Promise<WithId<ConversationDoc>> {
  const existing = await findConversation(key);
  if (existing) return existing;
  const workflowKey = conversationWorkflowIds(key)[0];
  const start = typeof init === 'function' ? await init() : init;
  const id = newId('conv');
  const doc: WithId<ConversationDoc> = {
    _id: id,
    key: workflowKey,
    org_id: key.orgId,
    livemode: key.livemode,
    channel: key.channel,
    customer_number: key.customerNumber,
    service_number: start.serviceNumber,
    agent_id: start.agentId,
    squad_id: start.squad?.id ?? null,
    squad_member: start.squad?.start ?? null,
    squad_handoffs: 0,
    status: 'open',
    handoff_reason: null,
    taken_by: null,
    last_inbound_ms: null,
    last_message_ms: null,
    contact_id: null,
    log_seq: 0,
    created: Math.floor(idTime(id) / 1000),
  };
  if (await insertIfAbsent(Conversation, doc)) return doc;
  const winner = await Conversation.findOne({ key: workflowKey }).lean();
  if (!winner) throw new Error(`conversation ${workflowKey} vanished after a duplicate insert`);
  return winner as WithId<ConversationDoc>;
}

/** The `conversationWorkflow` input of a stored conversation (used only if the workflow is not running). */
export function conversationInput(doc: WithId<ConversationDoc>): ConversationWorkflowInput {
  return {
    conversationId: doc._id,
    orgId: doc.org_id,
    livemode: doc.livemode,
    channel: doc.channel as Channel,
    customerNumber: doc.customer_number,
    serviceNumber: doc.service_number,
    agentId: doc.agent_id ?? null,
  };
}

function startOptions(doc: WithId<ConversationDoc>) {
  return {
    workflowId: doc.key,
    taskQueue: config().taskQueue,
    args: [conversationInput(doc)] as [ConversationWorkflowInput],
    typedSearchAttributes: [
      { key: searchAttributeKeys.OrgId, value: doc.org_id },
      { key: searchAttributeKeys.Livemode, value: doc.livemode },
    ] as SearchAttributePair[],
  };
}

/**
 * Signals the conversation's workflow, starting it if it is not running (signal-with-start): the signal
 * is durable once this resolves, whether or not a worker runs.
 */
export async function signalConversation<T>(
  temporal: Client,
  doc: WithId<ConversationDoc>,
  signal: SignalDefinition<[T]>,
  arg: T,
): Promise<void> {
  await temporal.workflow.signalWithStart<ConversationWorkflow, [unknown]>(CONVERSATION_WORKFLOW, {
    ...startOptions(doc),
    signal: signal.name,
    signalArgs: [arg],
  });
}

/**
 * Runs an update on the conversation's workflow, starting it if it is not running (update-with-start,
 * conflict policy `USE_EXISTING`), and returns its result. `updateId` deduplicates a retried request.
 */
export async function updateConversation<R, A extends unknown[]>(
  temporal: Client,
  doc: WithId<ConversationDoc>,
  update: UpdateDefinition<R, A>,
  updateId: string,
  ...args: A
): Promise<R> {
  const startWorkflowOperation = new WithStartWorkflowOperation<ConversationWorkflow>(CONVERSATION_WORKFLOW, {
    ...startOptions(doc),
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return temporal.workflow.executeUpdateWithStart(update, { args, updateId, startWorkflowOperation });
}

/** The customer's side of a conversation as its stored inbound messages show it. */
export interface CustomerState {
  /** Received time (ms) of the customer's latest message, or null if they never wrote. */
  lastInboundMs: number | null;
  /** True when the customer's latest opt-out/opt-in word was an opt-out word. */
  optedOut: boolean;
}

/**
 * Reads the customer's state from the conversation's immutable inbound rows (never from a counter): the
 * latest received time (the WhatsApp window runs from it) and the latest keyword (in arrival order).
 * Checked by the API before accepting a message and by the send activity before any provider request.
 */
export async function customerState(conversationId: string): Promise<CustomerState> {
  const [latest, keyword] = await Promise.all([
    Message.find({ conversation_id: conversationId, direction: 'inbound' }).sort({ received_ms: -1 }).limit(1).lean(),
    Message.find({ conversation_id: conversationId, direction: 'inbound', keyword: { $ne: null } })
      .sort({ _id: -1 })
      .limit(1)
      .lean(),
  ]);
  return { lastInboundMs: latest[0]?.received_ms ?? null, optedOut: keyword[0]?.keyword === 'opt_out' };
}

/** `{{1}}`…`{{n}}` placeholders in a template body. */
const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * The number of placeholders of a template body, which must be exactly `{{1}}`…`{{n}}` (each at least
 * once, none skipped); null when they are not (WhatsApp's rule for template variables).
 */
export function placeholderCount(body: string): number | null {
  const seen = new Set<number>();
  for (const m of body.matchAll(PLACEHOLDER)) seen.add(Number(m[1]));
  const n = seen.size;
  for (let i = 1; i <= n; i++) if (!seen.has(i)) return null;
  return n;
}

/** A registered template's body with `parameters` in its placeholders. */
export function renderTemplateBody(body: string, parameters: string[]): string {
  return body.replace(PLACEHOLDER, (_m, i: string) => parameters[Number(i) - 1] ?? '');
}

/** Test mode's rendering of an unregistered template: its name, language and parameters. */
export function renderUnregisteredTemplate(name: string, language: string, parameters: string[]): string {
  return `[${name} (${language})]${parameters.length ? ' ' + parameters.join(' | ') : ''}`;
}

/**
 * Where a message's status events go: the Temporal client that starts their webhook deliveries, and
 * whether this is a retried activity attempt (then the events the status implies are emitted again even
 * without a change: the first attempt may have died between the update and the emission).
 */
export interface StatusEmitter {
  temporal: Client;
  retry: boolean;
}

/**
 * Moves `row` to `next` if that is forward (`nextStatus`), then emits `message.sent`, `message.delivered`
 * and `message.failed` as its status implies, with the event ids fixed on the row: an event is emitted
 * once even when callbacks skip a status (delivered before sent emits both, in order) or a retry repeats
 * the call. Each status reached counts once in `svc_messages_total` (a retried attempt may count again).
 * Returns the row's status afterwards. Called by the activities that own the message
 * (src/activities/conversations.ts `applyMessageStatus`, src/activities/messaging.ts `sendMessage`).
 */
export async function advanceStatus(
  emitter: StatusEmitter,
  row: WithId<MessageDoc>,
  next: OutboundStatus,
  error: { code: string; message: string } | null,
  providerSid: string | null = null,
): Promise<OutboundStatus> {
  const current = row.status as OutboundStatus;
  const to = nextStatus(current, next);
  if (to) {
    // `window`: the console's stream sees the new status (src/services/console-changes.ts).
    const set: Record<string, unknown> = { status: to, window: changeWindow(Date.now()) };
    if (to === 'failed')
      Object.assign(set, { error_code: error?.code ?? 'send_failed', error_message: error?.message ?? null });
    if (providerSid && !row.provider_sid) set.provider_sid = providerSid;
    await Message.updateOne({ _id: row._id }, { $set: set });
    Object.assign(row, set);
    messageTransitions.inc({
      channel: row.channel,
      direction: 'outbound',
      status: to,
      mode: row.livemode ? 'live' : 'test',
    });
  }
  // Emit what the status implies when it changed, and on a retry (the first attempt may have updated the
  // row and died before emitting); emission is idempotent by event id.
  if (to || emitter.retry) await emitStatusEvents(emitter.temporal, row);
  return row.status as OutboundStatus;
}

async function emitStatusEvents(temporal: Client, row: WithId<MessageDoc>): Promise<void> {
  const ids = row.event_ids ?? {};
  const types: [string, string | null | undefined][] = [];
  if (row.status === 'sent' || row.status === 'delivered' || row.status === 'read')
    types.push(['message.sent', ids.sent]);
  if (row.status === 'delivered' || row.status === 'read') types.push(['message.delivered', ids.delivered]);
  if (row.status === 'failed') types.push(['message.failed', ids.failed]);
  const object = renderMessage(row);
  for (const [type, id] of types) {
    if (id)
      await emitEvent(temporal, { id, orgId: row.org_id, livemode: row.livemode, type, createdMs: Date.now(), object });
  }
}
