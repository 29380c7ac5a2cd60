/**
 * Erasure: one person spread across every kind of data — a contact with records, a
 * recorded and analysed simulated call, a WhatsApp conversation, a campaign row, webhook events delivered
 * to an endpoint, idempotent POSTs — is erased by `DELETE /v1/contacts/{id}`; once `completed`, every
 * document of every collection of the store is read and searched for the number (E.164 and digits), the
 * name and the external id: none is left. A new message from the number then starts a new conversation
 * whose model request holds nothing of the old one. Also: an unknown person (zero counts), bad input, and
 * a worker killed mid-erasure (same counts as an erasure that was not interrupted).
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import mongoose from 'mongoose';
import { openSecret } from '../../src/secrets';
import { createErasure, resolvePerson } from '../../src/services/erasure';
import { ERASURE_WORKFLOW, type ErasureSubject, type ErasureWorkflow } from '../../src/shared/privacy';
import { createForm, startCampaign, waitForCampaign } from '../support/bulk-calls';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint } from '../support/webhooks';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A distinctive person: a fresh number, a name and an external id no other test uses. */
function person() {
  const tag = crypto.randomBytes(3).toString('hex');
  return { phone: customerNumber(), name: `Zebulon Quaritch${tag}`, externalId: `crm-erase-${tag}` };
}

/** The strings the store must not hold after the erasure: the number in E.164 and digits, the name, the external id. */
const needles = (p: ReturnType<typeof person>) => [p.phone, p.phone.slice(1), p.phone.slice(2), p.name, p.externalId];

/** Every document of every collection of the store, as `collection: JSON` lines holding one of `strings`. */
async function traces(strings: string[]): Promise<string[]> {
  const db = mongoose.connection.db!;
  const found: string[] = [];
  for (const c of await db.listCollections().toArray()) {
    for (const doc of await db.collection(c.name).find({}).toArray()) {
      // Sealed values (src/secrets.ts: idempotency responses, secrets) are read opened.
      const text = JSON.stringify(doc, (_k, v) => (typeof v === 'string' ? (openSecret(v) ?? v) : v));
      if (strings.some((s) => text.includes(s))) found.push(`${c.name}: ${text.slice(0, 400)}`);
    }
  }
  return found;
}

/** Polls `GET /v1/erasures/{id}` until `completed`. */
async function completed(key: string, id: string): Promise<any> {
  return eventually(
    async () => {
      const r = await request('GET', `/v1/erasures/${id}`, { key });
      return r.status === 200 && r.body.status === 'completed' ? r.body : null;
    },
    `erasure ${id} completed`,
    60_000,
  );
}

/** Spreads `p` over a contact with records, a call (transcript, recording, analysis), a WhatsApp conversation. */
async function spread(t: Tenant, p: ReturnType<typeof person>, opts: { calls?: number } = {}) {
  const contact = await request('POST', '/v1/contacts', {
    key: t.testKey,
    body: { phone: p.phone, name: p.name, external_id: p.externalId },
    headers: { 'Idempotency-Key': `contact-${p.externalId}` },
  });
  expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
  const records = await request('POST', '/v1/records', {
    key: t.testKey,
    body: {
      contact: { external_id: p.externalId },
      records: [{ text: `${p.name} asked about invoice 7.` }, { text: 'Prefers mornings.', data: { phone: p.phone } }],
    },
    headers: { 'Idempotency-Key': `records-${p.externalId}` },
  });
  expect(records.status, JSON.stringify(records.body)).to.equal(200);
  const calls: any[] = [];
  for (let i = 0; i < (opts.calls ?? 1); i++) {
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: p.phone,
        agent_id: t.agentId,
        context: { customer_name: p.name },
        metadata: { crm: p.externalId },
        simulation: { caller: [`Hi, this is ${p.name}, call me at ${p.phone}.`, 'Bye.'] },
      },
      headers: { 'Idempotency-Key': `call-${p.externalId}-${i}` },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    calls.push(await waitForCall(t.testKey, placed.body.id));
  }
  const first = await inbound(t.testKey, { channel: 'whatsapp', from: p.phone, text: `Hello, ${p.name} here.` });
  expect(first.status, JSON.stringify(first.body)).to.equal(200);
  const conversationId = first.body.conversation_id as string;
  await waitForMessages(t.testKey, conversationId, 1, (m) => m.author === 'assistant');
  return { contactId: contact.body.id as string, calls, conversationId };
}

describe('erasure of a person', function () {
  this.timeout(240_000);
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(() => receiver.close());

  it('reaches every copy: no trace of the number, name or external id in any collection; a new message starts clean', async () => {
    const t = await newTenant({ recording: { enabled: true }, analysis: { summary: true } });
    const p = person();
    const hook = `/erase-hook-${crypto.randomBytes(4).toString('hex')}`;
    await createWebhookEndpoint(receiver, t.testKey, hook, ['*']);
    const { contactId, calls, conversationId } = await spread(t, p);
    // An explicit analysis (idempotent POST) besides the agent's own.
    const analysed = await request('POST', `/v1/calls/${calls[0].id}/analyze`, {
      key: t.testKey,
      body: {},
      headers: { 'Idempotency-Key': `analyze-${p.externalId}` },
    });
    expect(analysed.status, JSON.stringify(analysed.body)).to.equal(200);
    // A campaign that includes the person.
    const formId = await createForm(t.testKey);
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      contacts: [{ phone: p.phone, name: p.name }, { phone: customerNumber() }],
      simulation: { outcome: 'no_answer' },
    });
    await waitForCampaign(t.testKey, campaign.id);
    // Webhook deliveries of the call's, the messages' and the campaign's events reached the endpoint.
    await receiver.waitFor((r) => r.filter((x) => x.path === hook).length >= 4, 60_000, 'events delivered');
    expect(await traces(needles(p)), 'the person is spread before the erasure').to.not.be.empty;

    const del = await request('DELETE', `/v1/contacts/${contactId}`, { key: t.testKey });
    expect(del.status, JSON.stringify(del.body)).to.equal(200);
    expect(del.body).to.include({ id: contactId, object: 'contact', deleted: true });
    expect(del.body.erasure).to.match(/^ers_[0-9a-z]{26}$/);
    const erasure = await completed(t.testKey, del.body.erasure);
    expect(erasure).to.include({ id: del.body.erasure, object: 'erasure', status: 'completed', livemode: false });
    expect(erasure.subject).to.deep.equal({ type: 'contact', contact: contactId });
    expect(erasure.completed_at).to.be.a('number');
    const c = erasure.counts;
    expect(c).to.include({ contacts: 1, records: 2, conversations: 1, bulk_call_results: 1 });
    expect(c.calls, 'the call and the campaign call').to.equal(2);
    expect(c.transcript_turns).to.be.greaterThan(2);
    expect(c.messages).to.be.at.least(2);
    expect(c.recordings).to.be.at.least(1);
    expect(c.analyses).to.be.at.least(1);
    expect(c.events).to.be.at.least(4);
    expect(c.idempotency_records).to.be.at.least(3);

    // Nothing of the person anywhere in the store (settle a moment for deliveries started before).
    await new Promise((r) => setTimeout(r, 1500));
    expect(await traces(needles(p))).to.deep.equal([]);
    // The call stays as a skeleton, its transcript gone.
    const skeleton = (await request('GET', `/v1/calls/${calls[0].id}`, { key: t.testKey })).body;
    expect(skeleton).to.include({ id: calls[0].id, status: 'completed', to: '[redacted]' });
    expect(skeleton.context).to.deep.equal({});
    // The event was emitted.
    const events = (await request('GET', '/v1/events?type=erasure.completed', { key: t.testKey })).body.data;
    expect(events.map((e: any) => e.data.object.id)).to.deep.equal([erasure.id]);

    // A new message from the number: a new conversation, and the model hears nothing of the old one.
    const llmBefore = h().llm.requests.length;
    const again = await inbound(t.testKey, { channel: 'whatsapp', from: p.phone, text: 'New question.' });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.conversation_id).to.not.equal(conversationId);
    await waitForMessages(t.testKey, again.body.conversation_id, 1, (m) => m.author === 'assistant');
    const asked = h()
      .llm.requests.slice(llmBefore)
      .filter((r) => JSON.stringify(r.messages).includes('New question.'));
    expect(asked).to.not.be.empty;
    for (const r of asked) {
      const said = JSON.stringify(r.messages);
      expect(said).to.not.include('here.');
      for (const s of needles(p).slice(3)) expect(said).to.not.include(s);
      expect(r.messages.filter((m) => m.role === 'user')).to.have.length(1);
    }
  });

  it('answers an unknown person with zero counts, and refuses both or neither of phone and external_id', async () => {
    const t = await newTenant();
    const unknown = await request('POST', '/v1/contacts/erase', { key: t.testKey, body: { phone: customerNumber() } });
    expect(unknown.status, JSON.stringify(unknown.body)).to.equal(200);
    expect(unknown.body).to.include({ object: 'erasure', status: 'running' });
    expect(unknown.body.subject.type).to.equal('phone');
    expect(unknown.body.subject.phone).to.match(/^\+1415•+\d{4}$/);
    const done = await completed(t.testKey, unknown.body.id);
    expect(Object.values(done.counts).every((n) => n === 0)).to.equal(true);
    const byExternal = await request('POST', '/v1/contacts/erase', {
      key: t.testKey,
      body: { external_id: 'nobody-here' },
      headers: { 'Idempotency-Key': 'erase-nobody' },
    });
    expect(byExternal.status).to.equal(200);
    const replay = await request('POST', '/v1/contacts/erase', {
      key: t.testKey,
      body: { external_id: 'nobody-here' },
      headers: { 'Idempotency-Key': 'erase-nobody' },
    });
    expect(replay.body.id, 'the same erasure').to.equal(byExternal.body.id);
    const both = await request('POST', '/v1/contacts/erase', {
      key: t.testKey,
      body: { phone: customerNumber(), external_id: 'x' },
    });
    expect(both.status).to.equal(400);
    expect(both.body.error).to.include({ code: 'parameter_invalid', param: 'external_id' });
    const neither = await request('POST', '/v1/contacts/erase', { key: t.testKey, body: {} });
    expect(neither.status).to.equal(400);
    expect(neither.body.error.code).to.equal('parameter_missing');
    const badPhone = await request('POST', '/v1/contacts/erase', { key: t.testKey, body: { phone: '4155550123' } });
    expect(badPhone.body.error).to.include({ code: 'parameter_invalid', param: 'phone' });
    expect((await request('GET', `/v1/erasures/${unknown.body.id}`, { key: t.liveKey })).status).to.equal(404);
  });

  describe('a worker killed mid-erasure', () => {
    let child: ChildProcess | undefined;
    afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

    it('completes with the same counts as an erasure that was not interrupted', async () => {
      const t = await newTenant();
      const [a, b] = [person(), person()];
      await spread(t, a, { calls: 2 });
      await spread(t, b, { calls: 2 });
      const queue = `svc-test-erasure-crash-${crypto.randomBytes(4).toString('hex')}`;
      const run = async (
        p: ReturnType<typeof person>,
        taskQueue: string,
        onStarted?: (id: string) => Promise<void>,
      ) => {
        const tenant = { orgId: t.orgId, livemode: false };
        const subject: ErasureSubject = { type: 'phone', phone: p.phone };
        const erasureId = `ers_${crypto.randomBytes(13).toString('hex').slice(0, 26)}`;
        await createErasure(tenant, erasureId, subject);
        const handle = await h().env.client.workflow.start<ErasureWorkflow>(ERASURE_WORKFLOW, {
          workflowId: erasureId,
          taskQueue,
          args: [{ erasureId, ...tenant, subject, person: await resolvePerson(tenant, subject), batchLimit: 4 }],
        });
        await onStarted?.(erasureId);
        return (await handle.result()).counts;
      };
      const control = await run(a, h().taskQueue);
      child = await startWorkerProcess(queue);
      const crashed = await run(b, queue, async (id) => {
        // Kill the worker once a few batches are done (each batch one activity, at most 4 documents).
        await eventually(
          async () => {
            const history = await h().env.client.workflow.getHandle(id).fetchHistory();
            return (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes).length >= 4;
          },
          'four batches done',
          60_000,
        );
        await stopWorkerProcess(child, 'SIGKILL');
        child = await startWorkerProcess(queue);
      });
      expect(crashed).to.deep.equal(control);
      expect(crashed.calls).to.equal(2);
      expect(crashed.messages).to.be.at.least(2);
      expect(await traces(needles(b))).to.deep.equal([]);
    });
  });
});
