/**
 * Fills the store with weeks of organizations' work, fast, for the scale benchmark (bench/scale.ts, issue
 * 32 item 4) and its test (test/integration/scale-fill.test.ts): calls and their transcript turns,
 * conversations and messages (with the widget's log for web conversations), usage rows, contacts and
 * their records, knowledge documents with their chunks, events, webhook deliveries and attempts,
 * campaigns with their result rows, audit log entries, and a test suite with its runs.
 *
 * Every document is made by the service's own mongoose model (`new Model(fields)`: its casts, defaults
 * and validation, so rows have the shape the service writes) and inserted in batches with the model's
 * collection `insertMany` (one round trip per batch; the collections and indexes are the models' own,
 * created by `connectStore`). Nothing goes through the API or the workflows: the fill is data at rest,
 * as the store holds it after the work is done. Times (`created`, `at_ms`, `occurred_ms`…) are spread over
 * the `FILL_DAYS` days before now; ids are made at fill time (`newId`, so unique and time-ordered).
 */
import type { Model } from 'mongoose';
import { Call, CallTurn, renderCall, type CallDoc, type CallObject } from '../../src/models/calls';
import { Conversation, ConversationLogEntry, Message } from '../../src/models/conversations';
import { UsageRecord } from '../../src/models/usage';
import { backfillUsageRollups } from '../../src/services/usage-rollups';
import { Contact, ContactRecord } from '../../src/models/contacts';
import {
  KnowledgeChange,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeHead,
  KnowledgeRevision,
} from '../../src/models/knowledge';
import { Event, renderEvent } from '../../src/models/events';
import type { WithId } from '../../src/models/store';
import { WebhookAttempt, WebhookDelivery } from '../../src/models/webhooks';
import { BulkCall, BulkCallResult } from '../../src/models/bulk-calls';
import { AuditEvent } from '../../src/models/audit';
import { TestSuite, TestSuiteRun } from '../../src/models/test-suites';
import { derivedId, newId } from '../../src/shared/ids';
import { bulkCallResultId } from '../../src/shared/bulk-calls';
import { conversationLogId } from '../../src/shared/conversations';
import { conversationWorkflowIds } from '../../src/services/conversations';

/** How much to write, in total over the organizations filled. */
export interface FillPlan {
  calls: number;
  /** Transcript turns per call (the plan's turns are `calls × turnsPerCall`). */
  turnsPerCall: number;
  conversations: number;
  messagesPerConversation: number;
  /** Every `webEvery`-th conversation is a widget (`web`) one, its messages in the widget's log. */
  webEvery: number;
  usageRows: number;
  contacts: number;
  recordsPerContact: number;
  knowledgeDocuments: number;
  chunksPerDocument: number;
  events: number;
  /** One webhook delivery per event up to this many, each with `attemptsPerDelivery` attempts. */
  deliveries: number;
  attemptsPerDelivery: number;
  campaigns: number;
  resultsPerCampaign: number;
  /** Audit log entries (`audit_events`), of API actions. */
  auditEvents: number;
  /** Runs of one test suite per organization filled (`test_suite_runs`). */
  testSuiteRuns: number;
}

/**
 * The store: 200,000 transcript turns, 20,000 calls, 50,000 messages, 100,000
 * usage rows, 10,000 contacts with 30,000 records, 10,000 knowledge chunks; and 50,000 events, 20,000
 * webhook deliveries with 40,000 attempts, 10,000 widget log entries, 10,000 campaign result rows; 20,000
 * audit log entries and 2,000 test suite runs.
 */
export const FULL_PLAN: FillPlan = {
  calls: 20_000,
  turnsPerCall: 10,
  conversations: 5_000,
  messagesPerConversation: 10,
  webEvery: 5,
  usageRows: 100_000,
  contacts: 10_000,
  recordsPerContact: 3,
  knowledgeDocuments: 500,
  chunksPerDocument: 20,
  events: 50_000,
  deliveries: 20_000,
  attemptsPerDelivery: 2,
  campaigns: 4,
  resultsPerCampaign: 2_500,
  auditEvents: 20_000,
  testSuiteRuns: 2_000,
};

/** `plan` with every total multiplied by `fraction` (at least 1 each); the per-parent counts unchanged. */
export function scaledPlan(fraction: number, plan: FillPlan = FULL_PLAN): FillPlan {
  const n = (v: number) => Math.max(1, Math.round(v * fraction));
  return {
    ...plan,
    calls: n(plan.calls),
    conversations: n(plan.conversations),
    usageRows: n(plan.usageRows),
    contacts: n(plan.contacts),
    knowledgeDocuments: n(plan.knowledgeDocuments),
    events: n(plan.events),
    deliveries: Math.min(n(plan.deliveries), n(plan.events)),
    campaigns: plan.campaigns,
    resultsPerCampaign: n(plan.resultsPerCampaign),
    auditEvents: n(plan.auditEvents),
    testSuiteRuns: n(plan.testSuiteRuns),
  };
}

/** An organization and mode the rows are written for, and the agent its calls and knowledge name. */
export interface FillTenant {
  orgId: string;
  livemode: boolean;
  agentId: string;
}

/** The stored fields of a filled call: completed, answered 4 s after it was dialed at `createdMs`, 90 s long. */
function filledCall(t: FillTenant, id: string, to: string, createdMs: number) {
  return {
    _id: id,
    org_id: t.orgId,
    livemode: t.livemode,
    agent_id: t.agentId,
    to,
    from: '+14155550100',
    status: 'completed',
    end_reason: 'caller_hung_up',
    simulated: !t.livemode,
    max_duration_seconds: 600,
    direction: 'outbound',
    created: Math.floor(createdMs / 1000),
    dialed_ms: createdMs,
    answered_ms: createdMs + 4_000,
    ended_ms: createdMs + 94_000,
  };
}

/**
 * The `call` object a filled event carries (`data.object`): a filled call (`filledCall`), rendered as the
 * API renders calls, so the filled events match the document's `Event` as emitted ones do.
 */
export function filledCallObject(t: FillTenant, id: string, createdMs: number): CallObject {
  return renderCall(new Call(filledCall(t, id, '+14155550123', createdMs)).toObject() as WithId<CallDoc>);
}

/** Rows written, by collection name (`call_turns`, `messages`…). */
export type FillCounts = Record<string, number>;

/** Days before now over which the rows' times are spread. */
export const FILL_DAYS = 60;

/** Documents per `insertMany` round trip. */
const BATCH = 2_000;

/** `n` fresh tenants of organizations that do not exist elsewhere (ids `org_…`, agents `agent_…`). */
export function otherTenants(n: number): FillTenant[] {
  return Array.from({ length: n }, (_, i) => ({ orgId: newId('org'), livemode: i % 2 === 1, agentId: newId('agent') }));
}

/** Writes documents of one model in batches; the first of each model is validated (casts and defaults apply to all). */
class Writer {
  readonly counts: FillCounts = {};
  private pending = new Map<Model<any>, Record<string, unknown>[]>();

  constructor(private readonly progress?: (line: string) => void) {}

  /** Queues one document of `model` (its fields as the service writes them); flushes a full batch. */
  async add(model: Model<any>, fields: Record<string, unknown>): Promise<void> {
    const doc = new model(fields);
    if (!this.counts[model.collection.collectionName]) {
      await doc.validate().catch((err: Error) => {
        throw new Error(`fill: ${model.modelName} document invalid: ${err.message}`);
      });
    }
    const list = this.pending.get(model) ?? [];
    list.push(doc.toObject());
    this.pending.set(model, list);
    this.counts[model.collection.collectionName] = (this.counts[model.collection.collectionName] ?? 0) + 1;
    if (list.length >= BATCH) await this.flush(model);
  }

  /** Inserts what is queued for `model` (every model when none is named). */
  async flush(model?: Model<any>): Promise<void> {
    for (const m of model ? [model] : [...this.pending.keys()]) {
      const list = this.pending.get(m);
      if (!list?.length) continue;
      this.pending.set(m, []);
      await m.collection.insertMany(list, { ordered: false });
      this.progress?.(`${m.collection.collectionName} ${this.counts[m.collection.collectionName]}`);
    }
  }
}

/** Splits `total` over `parts` (the first ones take the remainder). */
const share = (total: number, parts: number, i: number) => Math.floor(total / parts) + (i < total % parts ? 1 : 0);

/** A phone number `+1415…` from an integer (distinct integers, distinct numbers). */
const phone = (k: number) => `+1415${String(2_000_000 + (k % 7_000_000)).padStart(7, '0')}`;

/**
 * Writes `plan`'s rows, shared evenly among `tenants`, and returns how many rows of each collection were
 * written and how long it took. `progress` receives a line after each batch. `firstKey` numbers the
 * phone numbers and external ids the fill makes (unique per tenant: contacts, conversation keys): a second
 * fill of the same tenant passes one past the first fill's keys (the first fill uses fewer than
 * `plan.calls + plan.conversations + plan.contacts + …` of them; 1,000,000 is safe for the full plan).
 * @throws Error when a document fails its model's validation (nothing of that model was written then)
 */
export async function fillStore(
  plan: FillPlan,
  tenants: FillTenant[],
  progress?: (line: string) => void,
  firstKey = 0,
): Promise<{ counts: FillCounts; seconds: number }> {
  const started = performance.now();
  const w = new Writer(progress);
  const nowMs = Date.now();
  const span = FILL_DAYS * 86_400_000;
  let k = firstKey;
  /** A time in the filled period, moving forward with `i` of `n` (ms). */
  const at = (i: number, n: number) => nowMs - span + Math.floor(((i + 0.5) / Math.max(1, n)) * span);
  for (const [ti, t] of tenants.entries()) {
    const base = { org_id: t.orgId, livemode: t.livemode };

    const calls = share(plan.calls, tenants.length, ti);
    const callIds: string[] = [];
    for (let i = 0; i < calls; i++) {
      const id = newId('call');
      callIds.push(id);
      const created = at(i, calls);
      await w.add(Call, filledCall(t, id, phone(k++), created));
      for (let s = 1; s <= plan.turnsPerCall; s++)
        await w.add(CallTurn, {
          _id: `${id}:${String(s).padStart(6, '0')}`,
          call_id: id,
          seq: s,
          role: s % 2 === 1 ? 'assistant' : 'caller',
          text: s % 2 === 1 ? `Hello, this is the clinic about your appointment (${s}).` : `Yes, that works (${s}).`,
          at_ms: created + 4_000 + s * 8_000,
        });
    }

    const conversations = share(plan.conversations, tenants.length, ti);
    for (let i = 0; i < conversations; i++) {
      const id = newId('conv');
      const web = i % plan.webEvery === plan.webEvery - 1;
      const channel = web ? 'web' : 'whatsapp';
      const customer = web ? `visitor:${newId('v')}` : phone(k++);
      const created = at(i, conversations);
      const messages = plan.messagesPerConversation;
      await w.add(Conversation, {
        _id: id,
        key: conversationWorkflowIds({ orgId: t.orgId, livemode: t.livemode, channel, customerNumber: customer })[0],
        ...base,
        channel,
        customer_number: customer,
        service_number: web ? 'widget' : '+14155550100',
        agent_id: t.agentId,
        status: 'open',
        last_inbound_ms: created + (messages - 2) * 60_000,
        last_message_ms: created + (messages - 1) * 60_000,
        log_seq: web ? messages : 0,
        created: Math.floor(created / 1000),
      });
      for (let m = 0; m < messages; m++) {
        const msgId = newId('msg');
        const inbound = m % 2 === 0;
        await w.add(Message, {
          _id: msgId,
          ...base,
          conversation_id: id,
          channel,
          direction: inbound ? 'inbound' : 'outbound',
          from: inbound ? customer : '+14155550100',
          to: inbound ? '+14155550100' : customer,
          text: inbound ? `Do you open on Saturdays? (${m})` : `Yes, from 9 to 12. (${m})`,
          author: inbound ? 'customer' : 'assistant',
          status: inbound ? 'received' : 'delivered',
          dedupe_key: `msg:${msgId}`,
          received_ms: inbound ? created + m * 60_000 : null,
          created: Math.floor((created + m * 60_000) / 1000),
        });
        if (web)
          await w.add(ConversationLogEntry, {
            _id: conversationLogId(id, m + 1),
            conversation_id: id,
            seq: m + 1,
            message_id: msgId,
            created_ms: created + m * 60_000,
          });
      }
    }

    const usage = share(plan.usageRows, tenants.length, ti);
    for (let i = 0; i < usage; i++) {
      const occurred = at(i, usage);
      const kind = (['call', 'llm_request', 'message', 'webhook_attempt'] as const)[i % 4];
      const subject = callIds[i % Math.max(1, callIds.length)] ?? newId('call');
      const measures = {
        call: { status: 'completed', answered: 1, talk_seconds: 90, billable_minutes: 2 },
        llm_request: { model: 'gpt-4o-mini', prompt_tokens: 900, completion_tokens: 40 },
        message: { channel: 'whatsapp', direction: 'outbound', template: 0 },
        webhook_attempt: { succeeded: 1 },
      }[kind];
      await w.add(UsageRecord, {
        _id: `fill:${kind}:${newId('u')}`,
        ...base,
        kind,
        occurred_ms: occurred,
        subject_id: subject,
        recorded_ms: occurred,
        ...measures,
      });
    }

    const contacts = share(plan.contacts, tenants.length, ti);
    for (let i = 0; i < contacts; i++) {
      const id = newId('cont');
      const number = phone(k++);
      const created = at(i, contacts);
      await w.add(Contact, {
        _id: id,
        ...base,
        phone: number,
        external_id: `crm-${firstKey + i}`,
        phone_key: number,
        external_key: `crm-${firstKey + i}`,
        name: `Customer ${i}`,
        do_not_call: false,
        created: Math.floor(created / 1000),
        updated_ms: created,
      });
      for (let r = 0; r < plan.recordsPerContact; r++)
        await w.add(ContactRecord, {
          _id: newId('rec'),
          ...base,
          contact_id: id,
          external_id: `order-${i}-${r}`,
          external_key: `order-${i}-${r}`,
          type: 'order',
          title: `Order ${r + 1}`,
          text: `Order ${r + 1}: two items, delivered on time.`,
          data_json: JSON.stringify({ total: 42.5, items: 2 }),
          occurred_ms: created + r * 3_600_000,
          sort_ms: created + r * 3_600_000,
          created: Math.floor(created / 1000),
          updated_ms: created,
        });
    }

    const documents = share(plan.knowledgeDocuments, tenants.length, ti);
    for (let i = 0; i < documents; i++) {
      const kdoc = newId('kdoc');
      const krev = newId('krev');
      const created = at(i, documents);
      await w.add(KnowledgeDocument, { _id: kdoc, ...base, agent_id: t.agentId, created: Math.floor(created / 1000) });
      for (let n = 0; n < plan.chunksPerDocument; n++)
        await w.add(KnowledgeChunk, {
          _id: `${krev}:${String(n).padStart(5, '0')}`,
          revision_id: krev,
          kdoc_id: kdoc,
          agent_id: t.agentId,
          n,
          text: `Opening hours and services, part ${n}: we open Monday to Saturday from 9 to 18.`,
        });
      await w.add(KnowledgeRevision, {
        _id: krev,
        kdoc_id: kdoc,
        agent_id: t.agentId,
        title: `Handbook ${i}`,
        characters: plan.chunksPerDocument * 80,
        chunks: plan.chunksPerDocument,
        created_ms: created,
      });
      await w.add(KnowledgeChange, {
        _id: `${t.agentId}:${String(i + 1).padStart(12, '0')}`,
        agent_id: t.agentId,
        seq: i + 1,
        kdoc_id: kdoc,
        kind: 'created',
        created_ms: created,
      });
    }
    if (documents > 0) await w.add(KnowledgeHead, { _id: t.agentId, seq: documents });

    const events = share(plan.events, tenants.length, ti);
    const deliveries = share(plan.deliveries, tenants.length, ti);
    const endpointId = newId('we');
    for (let i = 0; i < events; i++) {
      const id = newId('evt');
      const created = at(i, events);
      const object = filledCallObject(t, callIds[i % Math.max(1, callIds.length)] ?? newId('call'), created);
      const event = renderEvent({
        id,
        type: 'call.ended',
        created: Math.floor(created / 1000),
        livemode: t.livemode,
        object,
      });
      await w.add(Event, {
        _id: id,
        ...base,
        type: event.type,
        created: event.created,
        object_id: object.id,
        payload_json: JSON.stringify(event),
      });
      if (i >= deliveries) continue;
      const deliveryId = `${id}:${endpointId}`;
      await w.add(WebhookDelivery, {
        _id: deliveryId,
        ...base,
        event_id: id,
        event_type: event.type,
        endpoint_id: endpointId,
        trigger: 'automatic',
        status: 'succeeded',
        attempts: plan.attemptsPerDelivery,
        last_attempt_ms: created + 1_000,
        last_status_code: 200,
        last_latency_ms: 40,
        created_ms: created,
        completed_ms: created + 1_000,
      });
      for (let a = 1; a <= plan.attemptsPerDelivery; a++)
        await w.add(WebhookAttempt, {
          _id: newId('wda'),
          ...base,
          delivery_id: deliveryId,
          endpoint_id: endpointId,
          event_id: id,
          event_type: event.type,
          trigger: 'automatic',
          attempt: a,
          url: 'https://hooks.example.com/svc',
          succeeded: a === plan.attemptsPerDelivery,
          status_code: a === plan.attemptsPerDelivery ? 200 : 503,
          latency_ms: 40,
          at_ms: created + a * 500,
        });
    }

    // Campaigns: the plan's campaigns go to the first tenants (a campaign is one organization's).
    const campaigns = share(plan.campaigns, tenants.length, ti);
    for (let c = 0; c < campaigns; c++) {
      const id = newId('bulk');
      const created = at(c, campaigns);
      const n = plan.resultsPerCampaign;
      await w.add(BulkCall, {
        _id: id,
        ...base,
        agent_id: t.agentId,
        form_id: newId('form'),
        max_concurrency: 10,
        max_duration_seconds: 600,
        retry_json: JSON.stringify({ max_attempts: 1, on: [], interval_seconds: 3600 }),
        duplicates_removed: 0,
        status: 'completed',
        counts: { total: n, pending: 0, in_progress: 0, completed: n, not_reached: 0, failed: 0, skipped: 0 },
        created: Math.floor(created / 1000),
        completed_ms: created + 3_600_000,
        updated_ms: created + 3_600_000,
      });
      for (let i = 0; i < n; i++) {
        const number = phone(k++);
        await w.add(BulkCallResult, {
          _id: bulkCallResultId(id, i),
          bulk_call_id: id,
          ...base,
          index: i,
          phone: number,
          contact_json: JSON.stringify(number),
          status: 'completed',
          attempts: 1,
          call_ids: [callIds[i % Math.max(1, callIds.length)] ?? newId('call')],
          updated_ms: created + 60_000,
        });
      }
    }
    await fillAuditAndRuns(
      w,
      t,
      share(plan.auditEvents, tenants.length, ti),
      share(plan.testSuiteRuns, tenants.length, ti),
      at,
    );
  }
  await w.flush();
  // The usage rows into the per-day rollups, as `recordUsage` adds each row it stores (written here as
  // rows from before rollups, then added the way an upgraded store's are).
  if (plan.usageRows > 0) await backfillUsageRollups({ force: true });
  return { counts: w.counts, seconds: (performance.now() - started) / 1000 };
}

/**
 * `audits` audit log entries of tenant `t` (API actions, one of eight routes each), and, when `runs` > 0, a
 * test suite of its agent with `runs` completed runs; times from `at(i, n)`, ids time-ordered by them
 * (`derivedId`, as the service makes them).
 */
async function fillAuditAndRuns(
  w: Writer,
  t: FillTenant,
  audits: number,
  runs: number,
  at: (i: number, n: number) => number,
): Promise<void> {
  const base = { org_id: t.orgId, livemode: t.livemode };
  const actions = ['POST /v1/calls', 'GET /v1/calls', 'POST /v1/contacts', 'DELETE /v1/contacts/{id}'];
  for (let i = 0; i < audits; i++) {
    const ms = at(i, audits);
    const action = actions[i % actions.length];
    await w.add(AuditEvent, {
      _id: derivedId('aud', ms, `${action}-${i}-${newId('x')}`),
      ...base,
      actor_type: 'api_key',
      actor_id: 'key_fill',
      action,
      object_ids: [],
      outcome: { status: 200 },
      created: Math.floor(ms / 1000),
    });
  }
  if (runs === 0) return;
  const suiteId = newId('tsuite');
  const created = Math.floor(at(0, runs) / 1000);
  const scenario = { name: 'Booking', persona: 'A patient', goal: 'Book a visit', rubric: 'Booked' };
  await w.add(TestSuite, {
    _id: suiteId,
    ...base,
    agent_id: t.agentId,
    name: 'Fill',
    scenarios: [scenario],
    created,
    updated: created,
  });
  for (let i = 0; i < runs; i++) {
    const ms = at(i, runs);
    await w.add(TestSuiteRun, {
      _id: derivedId('tsrun', ms, `${suiteId}-${i}`),
      ...base,
      suite_id: suiteId,
      agent_id: t.agentId,
      status: 'completed',
      scenarios_json: JSON.stringify([scenario]),
      created: Math.floor(ms / 1000),
      completed_ms: ms + 60_000,
    });
  }
}
