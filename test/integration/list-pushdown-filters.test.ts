/**
 * The lists not covered by list-pushdown.test.ts, and the filters every list documents, read a page's worth
 * of rows from the embedded store however many rows the tenant has: with 5,000 rows of one tenant, the first
 * page (and a page by `starting_after` / `ending_before`) reads at most `limit + 1` rows more than the same
 * request on a tenant without those rows (counted by the store: test/support/rows-read.ts).
 *
 * The filtered lists are the hard case: the 5,000 rows are the tenant's NEWEST, and the 30 rows a filter
 * matches (a failed inbound call of another agent and version, an event of another type or object…) are
 * older. A store walking the tenant's `_id` order and filtering in memory reads the 5,000 first; served from
 * an index led by the filter's fields (or, for `created[…]`, bounded by the ids of that time: ids are
 * time-ordered) it reads the page.
 */
import { expect } from 'chai';
import { createKey, createOrg } from '../../src/keys';
import { AuditEvent } from '../../src/models/audit';
import { Call } from '../../src/models/calls';
import { Event, renderEvent } from '../../src/models/events';
import { TestSuiteRun } from '../../src/models/test-suites';
import { WebhookAttempt, WebhookEndpoint } from '../../src/models/webhooks';
import { derivedId, newId } from '../../src/shared/ids';
import { filledCallObject, fillStore } from '../support/scale-fill';
import { newTenant, request } from '../support/harness';
import { NONE, idsOf, rowsRead } from '../support/rows-read';

const ROWS = 5_000;
const LIMIT = 20;
/** Rows a filter matches, older than the 5,000. */
const SPECIAL = 30;
const DAY = 86_400_000;

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A list to check: its path on the filled tenant and on the empty one, the filled one's expected ids (newest first). */
interface List {
  filled: string;
  empty: string;
  /** In the list's order (newest first; a campaign's results in contact order). */
  ids: string[];
  /** Rows read beyond the page's (a renderer reading each listed object again), allowed on top of `LIMIT + 1`. */
  extra?: number;
}

/** Inserts `docs` of `model` as the service stores them (defaults applied), in one round trip. */
async function insert(model: typeof Call | typeof Event | typeof AuditEvent | typeof TestSuiteRun, docs: object[]) {
  const rows = docs.map((d) => new (model as any)(d).toObject());
  await (model as any).collection.insertMany(rows, { ordered: false });
}

describe('lists read one page of rows whatever the filter (FerretDB SQLite sort pushdown patch)', function () {
  this.timeout(900_000);
  let filled: Tenant;
  let empty: Tenant;
  let emptyAuditKey: string;
  const otherAgent = newId('agent');
  const t0 = Date.now() - 90 * DAY;
  const lists: Record<string, List> = {};
  /** Tenants holding one kind of row each, so that one list's renderer does not read another's rows. */
  const more: Record<string, Tenant> = {};

  before(async () => {
    [filled, empty] = [await newTenant(), await newTenant()];
    const auditless = await createOrg('List pushdown, no audit entries');
    emptyAuditKey = (await createKey({ orgId: auditless.id, mode: 'test', kind: 'secret' })).key;
    for (const name of ['events', 'attempts', 'audit', 'runs', 'results', 'records', 'knowledge'])
      more[name] = await newTenant();
    const base = (t: Tenant) => ({ org_id: t.orgId, livemode: false });
    const fillTenant = (t: Tenant) => ({ orgId: t.orgId, livemode: false, agentId: t.agentId });

    // Calls: the 30 a filter matches, 90 days old (ids of their own time), then 5,000 newer ones.
    const special = Array.from({ length: SPECIAL }, (_, i) => t0 + i * 60_000);
    await insert(
      Call,
      special.map((ms, i) => ({
        _id: derivedId('call', ms, `special-${filled.orgId}-${i}`),
        ...base(filled),
        agent_id: otherAgent,
        agent_version: 7,
        to: '+14155550111',
        from: '+14155550100',
        status: 'failed',
        direction: 'inbound',
        simulated: true,
        max_duration_seconds: 600,
        created: Math.floor(ms / 1000),
      })),
    );
    await fillStore({ ...NONE, calls: ROWS }, [fillTenant(filled)]);
    const callIds = await idsOf('calls', base(filled));
    const specialCalls = callIds.slice(-SPECIAL);
    const callList = (query: string, ids: string[]): List => ({
      filled: `/v1/calls?${query}`,
      empty: `/v1/calls?${query}`,
      ids,
    });
    lists['calls?status=failed'] = callList('status=failed', specialCalls);
    lists[`calls?agent_id`] = callList(`agent_id=${otherAgent}`, specialCalls);
    lists['calls?direction=inbound'] = callList('direction=inbound', specialCalls);
    lists['calls?agent_version'] = callList('agent_version=7', specialCalls);
    lists['calls?created[lt]'] = callList(`created[lt]=${Math.floor((t0 + DAY) / 1000)}`, specialCalls);
    lists['calls?created[gte]'] = callList(`created[gte]=${Math.floor((t0 - DAY) / 1000)}`, callIds);

    // Events: 30 of one call (`call.started`), older, then 5,000 `call.ended` of other calls.
    const subject = newId('call');
    await insert(
      Event,
      special.map((ms, i) => {
        const id = derivedId('evt', ms, `special-${i}`);
        return {
          _id: id,
          ...base(more.events),
          type: 'call.started',
          created: Math.floor(ms / 1000),
          object_id: subject,
          payload_json: JSON.stringify(
            renderEvent({
              id,
              type: 'call.started',
              created: Math.floor(ms / 1000),
              livemode: false,
              object: filledCallObject(fillTenant(more.events), subject, ms),
            }),
          ),
        };
      }),
    );
    await fillStore({ ...NONE, events: ROWS }, [fillTenant(more.events)]);
    const specialEvents = (await idsOf('events', base(more.events))).slice(-SPECIAL);
    lists['events?type'] = {
      filled: '/v1/events?type=call.started',
      empty: '/v1/events?type=call.started',
      ids: specialEvents,
    };
    lists['events?type=prefix'] = {
      filled: '/v1/events?type=call.*',
      empty: '/v1/events?type=call.*',
      ids: await idsOf('events', base(more.events)),
    };
    lists['events?object_id'] = {
      filled: `/v1/events?object_id=${subject}`,
      empty: `/v1/events?object_id=${subject}`,
      ids: specialEvents,
    };
    lists['events?created[lt]'] = {
      filled: `/v1/events?created[lt]=${Math.floor((t0 + DAY) / 1000)}`,
      empty: `/v1/events?created[lt]=${Math.floor((t0 + DAY) / 1000)}`,
      ids: specialEvents,
    };

    // A webhook endpoint's 5,000 delivery attempts (one per event), and the empty tenant's endpoint with none.
    await fillStore({ ...NONE, events: ROWS, deliveries: ROWS, attemptsPerDelivery: 1 }, [fillTenant(more.attempts)]);
    const attempt = await WebhookAttempt.findOne(base(more.attempts)).lean();
    const endpointOf = async (t: Tenant, id: string) => {
      await WebhookEndpoint.collection.insertOne(
        new WebhookEndpoint({
          _id: id,
          ...base(t),
          url: 'https://hooks.example.com/svc',
          events: ['*'],
          status: 'enabled',
          created: Math.floor(Date.now() / 1000),
          version: 1,
        }).toObject() as any,
      );
      return id;
    };
    const filledEndpoint = await endpointOf(more.attempts, attempt!.endpoint_id);
    const emptyEndpoint = await endpointOf(empty, newId('we'));
    const attemptIds = await idsOf('webhook_attempts', { endpoint_id: filledEndpoint });
    lists['webhook delivery attempts'] = {
      filled: `/v1/webhook-endpoints/${filledEndpoint}/deliveries`,
      empty: `/v1/webhook-endpoints/${emptyEndpoint}/deliveries`,
      ids: attemptIds,
    };
    const oldestAttempt = await WebhookAttempt.findById(attemptIds.at(-1)).lean();
    lists['webhook delivery attempts?event'] = {
      filled: `/v1/webhook-endpoints/${filledEndpoint}/deliveries?event=${oldestAttempt!.event_id}`,
      empty: `/v1/webhook-endpoints/${emptyEndpoint}/deliveries?event=${oldestAttempt!.event_id}`,
      ids: [attemptIds.at(-1)!],
    };

    // Audit entries: 30 of one action, older, then 5,000 of another.
    const audit = (ms: number, i: number, action: string) => ({
      _id: derivedId('aud', ms, `${action}-${i}`),
      ...base(more.audit),
      actor_type: 'api_key',
      actor_id: 'key_x',
      action,
      object_ids: [],
      outcome: { status: 200 },
      created: Math.floor(ms / 1000),
    });
    await insert(
      AuditEvent,
      special.map((ms, i) => audit(ms, i, 'DELETE /v1/contacts/{id}')),
    );
    const now = Date.now();
    await insert(
      AuditEvent,
      Array.from({ length: ROWS }, (_, i) => audit(now - DAY + i * 1_000, i, 'POST /v1/calls')),
    );
    const auditIds = await idsOf('audit_events', base(more.audit));
    lists['audit events'] = { filled: '/v1/audit_events', empty: '/v1/audit_events', ids: auditIds };
    const action = encodeURIComponent('DELETE /v1/contacts/{id}');
    lists['audit events?action'] = {
      filled: `/v1/audit_events?action=${action}`,
      empty: `/v1/audit_events?action=${action}`,
      ids: auditIds.slice(-SPECIAL),
    };
    lists['audit events?created[lt]'] = {
      filled: `/v1/audit_events?created[lt]=${Math.floor((t0 + DAY) / 1000)}`,
      empty: `/v1/audit_events?created[lt]=${Math.floor((t0 + DAY) / 1000)}`,
      ids: auditIds.slice(-SPECIAL),
    };

    // A test suite with 5,000 runs; the empty tenant's suite has none.
    const suiteOf = async (t: Tenant) => {
      const res = await request('POST', `/v1/agents/${t.agentId}/test_suites`, {
        key: t.testKey,
        body: { name: 'Suite', scenarios: [{ name: 's', persona: 'p', goal: 'g', rubric: 'r' }] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.id as string;
    };
    const [filledSuite, emptySuite] = [await suiteOf(more.runs), await suiteOf(empty)];
    await insert(
      TestSuiteRun,
      Array.from({ length: ROWS }, (_, i) => ({
        _id: derivedId('tsr', now - DAY + i * 1_000, `run-${i}`),
        ...base(more.runs),
        suite_id: filledSuite,
        agent_id: more.runs.agentId,
        status: 'completed',
        scenarios_json: '[]',
        created: Math.floor((now - DAY + i * 1_000) / 1000),
      })),
    );
    lists['test suite runs'] = {
      filled: `/v1/test_suites/${filledSuite}/runs`,
      empty: `/v1/test_suites/${emptySuite}/runs`,
      ids: await idsOf('test_suite_runs', { suite_id: filledSuite }),
      // Each run of the page is read again by id to render it (its scenario results with it).
      extra: LIMIT,
    };

    // A campaign with 5,000 results (in contact order), and one with none.
    await fillStore({ ...NONE, campaigns: 1, resultsPerCampaign: ROWS }, [fillTenant(more.results)]);
    await fillStore({ ...NONE, campaigns: 1, resultsPerCampaign: 0 }, [fillTenant(empty)]);
    const [campaign] = await idsOf('bulk_calls', base(more.results));
    const [emptyCampaign] = await idsOf('bulk_calls', base(empty));
    const resultIds = (await idsOf('bulk_call_results', { bulk_call_id: campaign })).reverse();
    lists['bulk call results'] = {
      filled: `/v1/bulk-calls/${campaign}/results`,
      empty: `/v1/bulk-calls/${emptyCampaign}/results`,
      ids: resultIds,
    };

    // A contact with 5,000 records, and one with none.
    await fillStore({ ...NONE, contacts: 1, recordsPerContact: ROWS }, [fillTenant(more.records)]);
    await fillStore({ ...NONE, contacts: 1 }, [fillTenant(empty)]);
    const [contact] = await idsOf('contacts', base(more.records));
    const [emptyContact] = await idsOf('contacts', base(empty));
    lists['contact records'] = {
      filled: `/v1/contacts/${contact}/records`,
      empty: `/v1/contacts/${emptyContact}/records`,
      ids: await idsOf('records', { contact_id: contact }),
    };

    // 5,000 knowledge documents of the agent.
    await fillStore({ ...NONE, knowledgeDocuments: ROWS, chunksPerDocument: 0 }, [fillTenant(more.knowledge)]);
    const kdocs = await idsOf('knowledge_documents', base(more.knowledge));
    // (each document of the page is rendered with its current revision, read by id)
    lists['knowledge documents'] = { filled: '/v1/knowledge', empty: '/v1/knowledge', ids: kdocs, extra: LIMIT };
    lists['knowledge documents?agent_id'] = {
      filled: `/v1/knowledge?agent_id=${more.knowledge.agentId}`,
      empty: `/v1/knowledge?agent_id=${empty.agentId}`,
      ids: kdocs,
      extra: LIMIT,
    };
  });

  /**
   * The key of the tenant without rows for `name`: the audit log's is an organization made without the
   * API (the others' have the audit entries of their setup).
   */
  const emptyKeyOf = (name: string) => (name.startsWith('audit') ? emptyAuditKey : empty.testKey);

  /** The key of the tenant holding `name`'s rows. */
  const keyOf = (name: string) => {
    if (name.startsWith('events')) return more.events.testKey;
    if (name.startsWith('webhook')) return more.attempts.testKey;
    if (name.startsWith('audit')) return more.audit.testKey;
    if (name.startsWith('test suite')) return more.runs.testKey;
    if (name.startsWith('bulk')) return more.results.testKey;
    if (name.startsWith('contact records')) return more.records.testKey;
    if (name.startsWith('knowledge')) return more.knowledge.testKey;
    return filled.testKey;
  };

  const names = [
    'calls?status=failed',
    'calls?agent_id',
    'calls?direction=inbound',
    'calls?agent_version',
    'calls?created[lt]',
    'calls?created[gte]',
    'events?type',
    'events?type=prefix',
    'events?object_id',
    'events?created[lt]',
    'webhook delivery attempts',
    'webhook delivery attempts?event',
    'audit events',
    'audit events?action',
    'audit events?created[lt]',
    'test suite runs',
    'bulk call results',
    'contact records',
    'knowledge documents',
    'knowledge documents?agent_id',
  ];
  const sep = (path: string) => (path.includes('?') ? '&' : '?');

  for (const name of names) {
    it(`answers the first page of ${name} reading at most limit + 1 rows of the tenant's`, async () => {
      const list = lists[name];
      const allowed = LIMIT + 1 + (list.extra ?? 0);
      const emptyRead = await rowsRead(`${list.empty}${sep(list.empty)}limit=${LIMIT}`, emptyKeyOf(name));
      expect(emptyRead.body.data).to.have.length(0);
      const read = await rowsRead(`${list.filled}${sep(list.filled)}limit=${LIMIT}`, keyOf(name));
      expect(read.body.data.map((c: { id: string }) => c.id)).to.deep.equal(list.ids.slice(0, LIMIT));
      expect(read.body.has_more).to.equal(list.ids.length > LIMIT);
      expect(read.rows - emptyRead.rows, `rows read: ${read.rows} (empty tenant: ${emptyRead.rows})`).to.be.at.most(
        allowed,
      );
    });

    if (name.includes('attempts?event')) continue;
    it(`answers a page of ${name} by starting_after, and one by ending_before, the same way`, async () => {
      const list = lists[name];
      const allowed = LIMIT + 1 + (list.extra ?? 0);
      const at = Math.floor(list.ids.length / 2);
      const cursor = list.ids[at];
      const path = (p: string, c: string) => `${p}${sep(p)}limit=${LIMIT}&${c}=${cursor}`;
      const emptyRead = await rowsRead(
        path(list.empty, 'starting_after').replace(cursor, emptyCursor(list, cursor)),
        emptyKeyOf(name),
      );
      const after = await rowsRead(path(list.filled, 'starting_after'), keyOf(name));
      expect(after.body.data.map((c: { id: string }) => c.id)).to.deep.equal(list.ids.slice(at + 1, at + 1 + LIMIT));
      expect(after.rows - emptyRead.rows, `rows read: ${after.rows} (empty tenant: ${emptyRead.rows})`).to.be.at.most(
        allowed,
      );
      const before = await rowsRead(path(list.filled, 'ending_before'), keyOf(name));
      expect(before.body.data.map((c: { id: string }) => c.id)).to.deep.equal(
        list.ids.slice(Math.max(0, at - LIMIT), at),
      );
      expect(before.rows - emptyRead.rows, `rows read: ${before.rows} (empty tenant: ${emptyRead.rows})`).to.be.at.most(
        allowed,
      );
    });
  }

  /** A cursor the empty tenant's list accepts (a campaign's result ids name the campaign). */
  function emptyCursor(list: List, cursor: string): string {
    const m = /^\/v1\/bulk-calls\/([^/]+)\//.exec(list.empty);
    return m ? `${m[1]}:${cursor.split(':').at(-1)}` : cursor;
  }
});
