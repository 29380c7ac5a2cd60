/**
 * Every query the service runs has an index that serves it, on MongoDB and on the
 * embedded store (/work/pushdown-rule.md: FerretDB serves a filter from an index when it begins with
 * top-level equalities on an index's leading keys).
 *
 * A representative flow is driven through the API and the worker of the harness (calls with transcripts,
 * lists with filters and cursors, conversations and their messages, contacts and records, usage for a
 * month, events, webhook endpoints and their attempts, the widget, a campaign and its results, knowledge
 * in the prompt) while test/support/query-shapes.ts records the shape of every query sent to the store;
 * each shape must then be served by a declared index (`_id` lookups pass), and the ones that are not are
 * listed with the line of src/ that sent them. `explain()` on FerretDB then shows a few key queries served
 * by an index (`SEARCH … USING INDEX`), once the FerretDB build carries the equality pushdown patch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createKey } from '../../src/keys';
import { BulkCallResult } from '../../src/models/bulk-calls';
import { Call, CallTurn } from '../../src/models/calls';
import { ContactRecord } from '../../src/models/contacts';
import { Message } from '../../src/models/conversations';
import { Event } from '../../src/models/events';
import { KnowledgeChunk, KnowledgeRevision } from '../../src/models/knowledge';
import { UsageRecord } from '../../src/models/usage';
import { WebhookAttempt } from '../../src/models/webhooks';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { campaignOver, createForm, phone, startCampaign, waitForCampaign } from '../support/bulk-calls';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { captureQueries, checkShapes, type Capture } from '../support/query-shapes';
import { readStream } from '../support/widget';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** GETs `url` and expects 200; returns the body. */
async function get(key: string, url: string): Promise<any> {
  const res = await request('GET', url, { key });
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).to.equal(200);
  return res.body;
}

/** Walks a list both ways: the first page of one, the next page after it, and the page before that one. */
async function pageThrough(key: string, url: string): Promise<void> {
  const sep = url.includes('?') ? '&' : '?';
  const first = await get(key, `${url}${sep}limit=1`);
  if (first.data.length === 0) return;
  const next = await get(key, `${url}${sep}limit=1&starting_after=${first.data[0].id}`);
  if (next.data.length) await get(key, `${url}${sep}limit=1&ending_before=${next.data[0].id}`);
}

/**
 * True when the FerretDB build serves equality filters from indexes (scripts/ferretdb-patches/ carries
 * more than the `_id` fix 0001), or `QUERY_INDEXES_EXPLAIN=1` asks for the check: then the `explain()`
 * assertions below must hold.
 */
function storePushesDownEqualities(): boolean {
  if (process.env.QUERY_INDEXES_EXPLAIN === '1') return true;
  const dir = path.resolve(__dirname, '../../../scripts/ferretdb-patches');
  return fs.readdirSync(dir).some((f) => f.endsWith('.patch') && !f.startsWith('0001-'));
}

/** Every `details`-like string of an explain answer (FerretDB puts SQLite's EXPLAIN QUERY PLAN there). */
function planText(explained: unknown): string {
  return JSON.stringify(explained);
}

describe('query indexes', function () {
  this.timeout(300_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  let capture: Capture | undefined;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await newTenant({ first_message: 'Hello, this is the index test agent.' });
    receiver = await startHttpsReceiver();
    capture = captureQueries();
    const key = t.testKey;
    const customer = customerNumber();

    // Knowledge for the agent, so that the call's and the conversation's turns read chunks for the prompt.
    const doc = await request('POST', '/v1/knowledge', {
      key,
      body: { agent_id: t.agentId, title: 'Depot', text: 'The depot takes parcels back at night, gate 4.' },
    });
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    ids.knowledge = doc.body.id;
    await get(key, `/v1/knowledge?agent_id=${t.agentId}`);
    await get(key, `/v1/knowledge/search?agent_id=${t.agentId}&query=parcels`);
    await get(key, `/v1/knowledge/${doc.body.id}`);

    // A contact with records (the customer of the calls and the conversation: their prompts read them).
    const contact = await request('POST', '/v1/contacts', {
      key,
      body: { phone: customer, external_id: `crm-${Date.now()}`, name: 'Rita' },
    });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
    ids.contact = contact.body.id;
    for (const n of [1, 2]) {
      const rec = await request('POST', '/v1/records', {
        key,
        body: { contact: { phone: customer }, records: [{ text: `Order ${n}`, external_id: `ord-${n}` }] },
      });
      expect(rec.status, JSON.stringify(rec.body)).to.equal(200);
    }
    await get(key, `/v1/contacts/${ids.contact}`);
    await pageThrough(key, `/v1/contacts/${ids.contact}/records`);
    await pageThrough(key, '/v1/contacts');
    await get(key, `/v1/contacts?phone=${encodeURIComponent(customer)}`);
    await get(key, `/v1/contacts?external_id=${contact.body.external_id}`);

    // A webhook endpoint for the calls' events, and its attempts.
    const endpoint = await request('POST', '/v1/webhook-endpoints', {
      key,
      body: { url: receiver.url('/hooks'), events: ['call.ended'] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(200);
    ids.endpoint = endpoint.body.id;

    // Calls with transcripts.
    for (const line of ['Where is the depot?', 'When does it open?']) {
      const call = await request('POST', '/v1/calls', {
        key,
        body: { to: customer, agent_id: t.agentId, simulation: { caller: [line, 'TOOL end_call {}'] } },
      });
      expect(call.status, JSON.stringify(call.body)).to.equal(200);
      ids.call = call.body.id;
      await waitForCall(key, call.body.id);
      await get(key, `/v1/calls/${call.body.id}/transcript`);
    }
    await get(key, `/v1/calls/${ids.call}`);
    await pageThrough(key, '/v1/calls');
    await pageThrough(key, `/v1/calls?status=completed&agent_id=${t.agentId}`);
    await get(key, '/v1/calls?direction=outbound');
    // The console's search by number, date range and a contact's calls.
    await pageThrough(key, `/v1/calls?to=${encodeURIComponent(customer)}`);
    await get(key, `/v1/calls?from=${encodeURIComponent(customer)}`);
    await pageThrough(key, `/v1/calls?contact_id=${ids.contact}`);
    await get(key, `/v1/calls?to=${encodeURIComponent(customer)}&status=completed`);
    await get(key, `/v1/calls?created[gte]=${Math.floor(Date.now() / 1000) - 3600}`);

    // Events, and the webhook deliveries and attempts of the call's `call.ended`.
    await receiver.waitFor((r) => r.length >= 2, 30_000, 'two deliveries');
    await pageThrough(key, '/v1/events');
    await get(key, '/v1/events?type=call.ended');
    await get(key, '/v1/events?type=call.*');
    await get(key, `/v1/events?created[gte]=${Math.floor(Date.now() / 1000) - 3600}`);
    const ended = (await get(key, '/v1/events?type=call.ended&limit=1')).data[0];
    ids.event = ended.id;
    await get(key, `/v1/events/${ended.id}`);
    await pageThrough(key, `/v1/webhook-endpoints/${ids.endpoint}/deliveries`);
    await get(key, `/v1/webhook-endpoints/${ids.endpoint}/deliveries?event=${ended.id}`);
    await get(key, '/v1/webhook-endpoints');

    // A conversation and its messages.
    const from = customer;
    const msg = await inbound(key, { channel: 'whatsapp', from, text: 'Is the depot open at night?' });
    expect(msg.status, JSON.stringify(msg.body)).to.equal(200);
    ids.conversation = msg.body.conversation_id;
    await waitForMessages(key, ids.conversation, 1, (m) => m.direction === 'outbound');
    await inbound(key, { channel: 'whatsapp', from, text: 'Thanks!' });
    await waitForMessages(key, ids.conversation, 2, (m) => m.direction === 'outbound');
    await get(key, `/v1/conversations/${ids.conversation}`);
    await pageThrough(key, `/v1/conversations/${ids.conversation}/messages`);
    await pageThrough(key, '/v1/conversations?channel=whatsapp');
    await get(key, `/v1/conversations?customer_number=${encodeURIComponent(from)}`);
    const outbound = await request('POST', '/v1/messages', {
      key,
      body: { channel: 'whatsapp', to: from, text: 'We open at 8.' },
    });
    expect(outbound.status, JSON.stringify(outbound.body)).to.equal(200);
    await get(key, `/v1/messages/${outbound.body.id}`);

    // Usage for a month.
    await get(key, '/v1/usage');
    const month = new Date().toISOString().slice(0, 7);
    await get(key, `/v1/usage?from=${month}-01&to=${new Date().toISOString().slice(0, 10)}`);

    // The widget: a session, a message answered, the stream read and resumed.
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: 'idx-visitor' } });
    expect(session.status, JSON.stringify(session.body)).to.equal(200);
    const token = session.body.token as string;
    const sent = await request('POST', '/v1/widget/messages', { key: token, body: { text: 'Where is gate 4?' } });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const streamUrl = `${h().api.url}/v1/widget/stream?token=${token}`;
    const read = await readStream(streamUrl, {
      stop: (ev) => ev.some((e) => e.event === 'message'),
      timeoutMs: 20_000,
    });
    expect(read.status).to.equal(200);
    const lastId = read.events.filter((e) => e.id).at(-1)?.id;
    if (lastId) await readStream(streamUrl, { headers: { 'Last-Event-ID': lastId }, timeoutMs: 1_500 });

    // A campaign and its results.
    const formId = await createForm(key);
    const campaign = await startCampaign(key, {
      agent_id: t.agentId,
      form_id: formId,
      contacts: [phone(701), phone(702), phone(703)].map((p) => ({ phone: p, simulation: { outcome: 'no_answer' } })),
    });
    ids.campaign = campaign.id;
    await waitForCampaign(key, campaign.id, campaignOver, 120_000);
    await pageThrough(key, '/v1/bulk-calls');
    await get(key, `/v1/bulk-calls/${campaign.id}`);
    const results = await get(key, `/v1/bulk-calls/${campaign.id}/results?limit=1`);
    await get(key, `/v1/bulk-calls/${campaign.id}/results?limit=1&starting_after=${results.data[0].id}`);
    await get(key, `/v1/calls?bulk_call_id=${campaign.id}`);
    await eventually(async () => (await get(key, '/v1/usage')).totals, 'usage after the campaign');

    // The audit log: the list, each filter, an entry.
    const audit = await eventually(async () => (await get(key, '/v1/audit_events?limit=1')).data[0], 'an audit entry');
    await pageThrough(key, '/v1/audit_events');
    await get(key, `/v1/audit_events?actor=${audit.actor.id}`);
    await get(key, `/v1/audit_events?action=${encodeURIComponent(audit.action)}`);
    await get(key, `/v1/audit_events?object_id=${ids.contact}`);
    await get(key, `/v1/audit_events?created[gte]=${Math.floor(Date.now() / 1000) - 3600}`);
    await get(key, `/v1/audit_events/${audit.id}`);
  });

  after(async () => {
    capture?.stop();
    await receiver?.close();
  });

  it('serves every query shape of the flow with a declared index', () => {
    const verdicts = checkShapes(capture!.stop());
    capture = undefined;
    // QUERY_SHAPES_OUT=<file>: every shape with the index serving it (the README's index inventory).
    if (process.env.QUERY_SHAPES_OUT)
      fs.writeFileSync(
        process.env.QUERY_SHAPES_OUT,
        JSON.stringify(
          verdicts.map(({ key, index, reason, accepted, origins, count }) => ({
            key,
            index,
            reason,
            accepted,
            origins,
            count,
          })),
          null,
          1,
        ),
      );
    expect(verdicts.length, 'the flow ran queries').to.be.greaterThan(40);
    const unserved = verdicts
      .filter((v) => !v.index && !v.accepted)
      .map((v) => `${v.key}: ${v.reason} (from ${v.origins.join(', ')})`);
    expect(unserved, `shapes no index serves:\n${unserved.join('\n')}`).to.deep.equal([]);
  });

  it("explain() on the embedded store shows SQLite's plan: a call by _id is an index search", async () => {
    // The control of the checks below: scripts/ferretdb-patches/0001 already serves `{_id}` from its index.
    const plan = planText(await Call.find({ _id: ids.call }).explain());
    expect(plan, plan).to.match(/SEARCH \S+ USING (COVERING )?INDEX/);
  });

  // These need the FerretDB build with the equality pushdown patch (the lead's, scripts/ferretdb-patches/):
  // without it every filter but `{_id}` is a SCAN, and they are skipped.
  describe('on the embedded store, explain() shows an index search', function () {
    before(function () {
      if (!storePushesDownEqualities()) this.skip();
    });

    const tenant = () => ({ org_id: t.orgId, livemode: false });
    const page = { _id: -1 } as const;
    const cases: [string, () => Promise<unknown>][] = [
      ['a transcript', () => CallTurn.find({ call_id: ids.call }).sort({ seq: 1 }).explain()],
      ['a page of calls', () => Call.find(tenant()).sort(page).limit(21).explain()],
      [
        "a page of a contact's calls",
        () =>
          Call.find({ ...tenant(), contact_id: ids.contact })
            .sort(page)
            .limit(21)
            .explain(),
      ],
      ['a page of events', () => Event.find(tenant()).sort(page).limit(21).explain()],
      [
        "a conversation's messages",
        () =>
          Message.find({ conversation_id: ids.conversation, ...tenant() })
            .sort(page)
            .limit(21)
            .explain(),
      ],
      [
        "a contact's records",
        () =>
          ContactRecord.find({ contact_id: ids.contact, ...tenant() })
            .sort(page)
            .limit(21)
            .explain(),
      ],
      [
        "an endpoint's delivery attempts",
        () =>
          WebhookAttempt.find({ endpoint_id: ids.endpoint, ...tenant() })
            .sort(page)
            .limit(21)
            .explain(),
      ],
      [
        'usage for a month',
        () => UsageRecord.find({ ...tenant(), occurred_ms: { $gte: Date.now() - 31 * 86_400_000 } }).explain(),
      ],
      [
        'knowledge chunks for the prompt',
        async () => {
          const [revision] = await KnowledgeRevision.find({ kdoc_id: ids.knowledge }).sort(page).limit(1).lean();
          return KnowledgeChunk.find({ revision_id: revision._id }).sort({ n: 1 }).explain();
        },
      ],
      [
        'a campaign page of results',
        () => BulkCallResult.find({ bulk_call_id: ids.campaign }).sort({ _id: 1 }).limit(21).explain(),
      ],
    ];
    for (const [what, explain] of cases) {
      it(`${what}: SEARCH … USING INDEX`, async () => {
        const plan = planText(await explain());
        expect(plan, plan).to.match(/SEARCH \S+ USING (COVERING )?INDEX/);
        expect(plan, plan).not.to.match(/\bSCAN\b/);
      });
    }
  });
});
