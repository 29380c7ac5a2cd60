/**
 * Contacts and records through the real API and FerretDB: upsert by external_id else phone, one contact
 * for fifty concurrent upserts, the identity conflict, do_not_call, erasure, records upserted by
 * external_id and listed newest first, the records budget given to the assistant, idempotency, scopes and
 * mode isolation.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { createKey } from '../../src/keys';
import { Contact, ContactRecord } from '../../src/models/contacts';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

let phoneSeq = 1000 + Math.floor(Math.random() * 4000);
/** A fresh valid US number for each use (consecutive from a random start). */
const newPhone = () => `+1415555${phoneSeq++}`;

async function upsert(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return request('POST', '/v1/contacts', { key, body, headers });
}

describe('contacts and records', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  describe('contacts', () => {
    it('creates a contact by phone and updates the same one on every later upsert', async () => {
      const phone = newPhone();
      const created = await upsert(t.testKey, { phone, name: 'Ana' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.include({
        object: 'contact',
        phone,
        name: 'Ana',
        external_id: null,
        do_not_call: false,
        livemode: false,
      });
      expect(created.body.id).to.match(/^cont_[0-9a-z]{26}$/);
      expect(created.body.created).to.be.a('number');
      expect(created.body.updated).to.be.at.least(created.body.created);

      const renamed = await upsert(t.testKey, { phone, name: 'Ana Diaz', do_not_call: true });
      expect(renamed.body).to.include({ id: created.body.id, name: 'Ana Diaz', do_not_call: true });
      const kept = await upsert(t.testKey, { phone });
      expect(kept.body).to.include({ id: created.body.id, name: 'Ana Diaz', do_not_call: true });
      const cleared = await upsert(t.testKey, { phone, name: null, do_not_call: false });
      expect(cleared.body).to.include({ id: created.body.id, name: null, do_not_call: false });
      expect((await request('GET', `/v1/contacts/${created.body.id}`, { key: t.testKey })).body).to.deep.equal(
        cleared.body,
      );
    });

    it('finds a contact by external_id first: a new phone moves to it, and a phone-only contact takes the external_id', async () => {
      const [p1, p2, p3] = [newPhone(), newPhone(), newPhone()];
      const a = await upsert(t.testKey, { external_id: 'crm-a', phone: p1, name: 'A' });
      expect(a.body).to.include({ external_id: 'crm-a', phone: p1 });
      const moved = await upsert(t.testKey, { external_id: 'crm-a', phone: p2 });
      expect(moved.body).to.include({ id: a.body.id, phone: p2, name: 'A' });
      // p1 is free again: a new contact may take it.
      const b = await upsert(t.testKey, { phone: p1 });
      expect(b.body.id).to.not.equal(a.body.id);
      // A contact known by phone only gets the external_id it is upserted with.
      const c = await upsert(t.testKey, { phone: p3 });
      const tagged = await upsert(t.testKey, { phone: p3, external_id: 'crm-c' });
      expect(tagged.body).to.include({ id: c.body.id, external_id: 'crm-c' });
      const externalOnly = await upsert(t.testKey, { external_id: 'crm-d', name: 'No phone yet' });
      expect(externalOnly.body).to.include({ phone: null, external_id: 'crm-d' });
      const list = await request('GET', '/v1/contacts?external_id=crm-c', { key: t.testKey });
      expect(list.body.data.map((x: any) => x.id)).to.deep.equal([c.body.id]);
    });

    it('answers 409 contact_identity_conflict when phone and external_id point at two contacts, and merges nothing', async () => {
      const [p1, p2] = [newPhone(), newPhone()];
      const a = await upsert(t.testKey, { external_id: 'crm-x', phone: p1, name: 'X' });
      const b = await upsert(t.testKey, { phone: p2, name: 'Y' });
      const conflict = await upsert(t.testKey, { external_id: 'crm-x', phone: p2 });
      expect(conflict.status).to.equal(409);
      expect(conflict.body.error).to.include({ type: 'invalid_request_error', code: 'contact_identity_conflict' });
      // A phone whose contact has another external_id.
      const other = await upsert(t.testKey, { external_id: 'crm-z', phone: p1 });
      expect(other.status).to.equal(409);
      expect(other.body.error.code).to.equal('contact_identity_conflict');
      expect((await request('GET', `/v1/contacts/${a.body.id}`, { key: t.testKey })).body).to.include({
        phone: p1,
        external_id: 'crm-x',
        name: 'X',
      });
      expect((await request('GET', `/v1/contacts/${b.body.id}`, { key: t.testKey })).body).to.include({
        phone: p2,
        external_id: null,
        name: 'Y',
      });
      expect((await request('GET', '/v1/contacts?external_id=crm-z', { key: t.testKey })).body.data).to.deep.equal([]);
    });

    it('makes one contact from fifty concurrent upserts of one phone (and of one external_id)', async () => {
      // Each burst with a key of its own: the per-key limit (100 a second) is not what this tests, and the
      // two bursts with the requests around them could otherwise fall into one window of the shared key.
      const [phoneKey, externalKey] = await Promise.all(
        [0, 1].map(async () => (await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' })).key),
      );
      const phone = newPhone();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => upsert(phoneKey, { phone, name: `Caller ${i}` })),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).to.equal(200);
      const ids = new Set(results.map((r) => r.body.id));
      expect(ids.size).to.equal(1);
      expect(await Contact.countDocuments({ org_id: t.orgId, livemode: false, phone })).to.equal(1);
      const listed = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key: t.testKey });
      expect(listed.body.data.length).to.equal(1);

      const external = `crm-race-${Date.now()}`;
      const byExternal = await Promise.all(
        Array.from({ length: 50 }, () => upsert(externalKey, { external_id: external, phone: newPhone() })),
      );
      for (const r of byExternal) expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(new Set(byExternal.map((r) => r.body.id)).size).to.equal(1);
      expect(await Contact.countDocuments({ org_id: t.orgId, livemode: false, external_id: external })).to.equal(1);
    });

    it('validates contacts, naming the param', async () => {
      const neither = await upsert(t.testKey, { name: 'Nobody' });
      expect(neither.status).to.equal(400);
      expect(neither.body.error).to.include({ code: 'parameter_missing', param: 'phone' });
      const badPhone = await upsert(t.testKey, { phone: '555-0100' });
      expect(badPhone.body.error).to.include({ code: 'parameter_invalid', param: 'phone' });
      const unknown = await upsert(t.testKey, { phone: newPhone(), email: 'a@b.c' });
      expect(unknown.body.error).to.include({ code: 'parameter_unknown', param: 'email' });
      const dnc = await upsert(t.testKey, { phone: newPhone(), do_not_call: 'yes' });
      expect(dnc.body.error).to.include({ code: 'parameter_invalid', param: 'do_not_call' });
      const badFilter = await request('GET', '/v1/contacts?phone=12', { key: t.testKey });
      expect(badFilter.body.error).to.include({ param: 'phone' });
      expect(
        (await request('GET', '/v1/contacts/cont_01m80np488q6rre43ctk0tmky1', { key: t.testKey })).status,
      ).to.equal(404);
    });

    it('replays an upsert with the same Idempotency-Key', async () => {
      const headers = { 'Idempotency-Key': `cont-${Math.random()}` };
      const phone = newPhone();
      const first = await upsert(t.testKey, { phone, name: 'Once' }, headers);
      const again = await upsert(t.testKey, { phone, name: 'Once' }, headers);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect((await upsert(t.testKey, { phone, name: 'Other' }, headers)).status).to.equal(422);
    });

    it('lists contacts newest first with the list conventions', async () => {
      const other = await newTenant();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await upsert(other.testKey, { phone: newPhone() })).body.id);
      const page = await request('GET', '/v1/contacts?limit=2', { key: other.testKey });
      expect(page.body).to.include({ object: 'list', has_more: true, url: '/v1/contacts' });
      expect(page.body.data.map((c: any) => c.id)).to.deep.equal([ids[2], ids[1]]);
      const next = await request('GET', `/v1/contacts?limit=2&starting_after=${ids[1]}`, { key: other.testKey });
      expect(next.body.data.map((c: any) => c.id)).to.deep.equal([ids[0]]);
    });
  });

  describe('records', () => {
    it('pushes records by phone or external_id, upserts by external_id, and lists them newest first', async () => {
      const phone = newPhone();
      const contact = (await upsert(t.testKey, { phone, external_id: `crm-rec-${Date.now()}`, name: 'Rita' })).body;
      const first = await request('POST', '/v1/records', {
        key: t.testKey,
        body: {
          contact: { phone },
          records: [
            {
              type: 'order',
              title: 'Order 1',
              text: 'Bought a red bicycle.',
              data: { amount: 300, paid: true, note: null },
              occurred_at: 1_780_000_000,
              external_id: 'ord-1',
            },
            { text: 'Called about delivery.' },
          ],
        },
      });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.include({ object: 'list', has_more: false, url: '/v1/records' });
      const [order, note] = first.body.data;
      expect(order).to.include({
        object: 'record',
        contact_id: contact.id,
        type: 'order',
        title: 'Order 1',
        text: 'Bought a red bicycle.',
        occurred_at: 1_780_000_000,
        external_id: 'ord-1',
        livemode: false,
      });
      expect(order.id).to.match(/^rec_[0-9a-z]{26}$/);
      expect(order.data).to.deep.equal({ amount: 300, paid: true, note: null });
      expect(note).to.include({ type: null, title: null, occurred_at: null, external_id: null });

      const again = await request('POST', '/v1/records', {
        key: t.testKey,
        body: {
          contact: { external_id: contact.external_id },
          records: [
            { type: 'order', title: 'Order 1', text: 'Bought a red bicycle; returned it.', external_id: 'ord-1' },
          ],
        },
      });
      expect(again.status).to.equal(200);
      expect(again.body.data[0]).to.include({ id: order.id, text: 'Bought a red bicycle; returned it.' });

      const list = await request('GET', `/v1/contacts/${contact.id}/records`, { key: t.testKey });
      expect(list.body).to.include({ object: 'list', url: `/v1/contacts/${contact.id}/records` });
      expect(list.body.data.map((r: any) => r.id)).to.deep.equal([note.id, order.id]);
      expect(list.body.data[1].text).to.equal('Bought a red bicycle; returned it.');
    });

    it('validates records, naming the param, and answers 404 naming contact for an unknown one', async () => {
      const phone = newPhone();
      await upsert(t.testKey, { phone });
      const post = (body: unknown) => request('POST', '/v1/records', { key: t.testKey, body });
      const unknown = await post({ contact: { phone: newPhone() }, records: [{ text: 'x' }] });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error).to.include({ code: 'resource_missing', param: 'contact' });
      expect((await post({ contact: { phone, external_id: 'e' }, records: [{ text: 'x' }] })).body.error).to.include({
        param: 'contact',
      });
      expect((await post({ contact: {}, records: [{ text: 'x' }] })).body.error).to.include({ param: 'contact' });
      expect((await post({ contact: { phone }, records: [] })).body.error).to.include({ param: 'records' });
      expect((await post({ contact: { phone }, records: Array(101).fill({ text: 'x' }) })).body.error).to.include({
        param: 'records',
      });
      expect((await post({ contact: { phone }, records: [{ text: 'x'.repeat(10_001) }] })).body.error).to.include({
        param: 'records.0.text',
      });
      expect((await post({ contact: { phone }, records: [{ title: 't' }] })).body.error).to.include({
        code: 'parameter_missing',
        param: 'records.0.text',
      });
      expect(
        (await post({ contact: { phone }, records: [{ text: 'x', data: { nested: { a: 1 } } }] })).body.error,
      ).to.include({ param: 'records.0.data.nested' });
      expect((await post({ contact: { phone }, records: [{ text: 'x', colour: 'red' }] })).body.error).to.include({
        code: 'parameter_unknown',
        param: 'records.0.colour',
      });
      const dup = await post({
        contact: { phone },
        records: [
          { text: 'a', external_id: 'same' },
          { text: 'b', external_id: 'same' },
        ],
      });
      expect(dup.body.error).to.include({ param: 'records.1.external_id' });
      // 100 records are fine.
      const hundred = await post({
        contact: { phone },
        records: Array.from({ length: 100 }, (_, i) => ({ text: `record ${i}` })),
      });
      expect(hundred.status).to.equal(200);
      expect(new Set(hundred.body.data.map((r: any) => r.id)).size).to.equal(100);
    });

    it('replays a push with the same Idempotency-Key without duplicating records', async () => {
      const phone = newPhone();
      const contact = (await upsert(t.testKey, { phone })).body;
      const headers = { 'Idempotency-Key': `rec-${Math.random()}` };
      const body = { contact: { phone }, records: [{ text: 'one' }, { text: 'two' }] };
      const first = await request('POST', '/v1/records', { key: t.testKey, body, headers });
      const again = await request('POST', '/v1/records', { key: t.testKey, body, headers });
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(await ContactRecord.countDocuments({ contact_id: contact.id })).to.equal(2);
    });

    it('erases a contact and its records on DELETE', async () => {
      const phone = newPhone();
      const contact = (await upsert(t.testKey, { phone })).body;
      await request('POST', '/v1/records', {
        key: t.testKey,
        body: { contact: { phone }, records: [{ text: 'private' }, { text: 'also private' }] },
      });
      expect(await ContactRecord.countDocuments({ contact_id: contact.id })).to.equal(2);
      const del = await request('DELETE', `/v1/contacts/${contact.id}`, { key: t.testKey });
      expect(del.body).to.deep.include({ id: contact.id, object: 'contact', deleted: true });
      expect(del.body.erasure).to.match(/^ers_/);
      expect(await ContactRecord.countDocuments({ contact_id: contact.id })).to.equal(0);
      expect((await request('GET', `/v1/contacts/${contact.id}`, { key: t.testKey })).status).to.equal(404);
      expect((await request('GET', `/v1/contacts/${contact.id}/records`, { key: t.testKey })).status).to.equal(404);
      expect((await request('DELETE', `/v1/contacts/${contact.id}`, { key: t.testKey })).status).to.equal(404);
      const recreated = await upsert(t.testKey, { phone });
      expect(recreated.body.id).to.not.equal(contact.id);
    });

    it('gives the assistant the newest records within about 4,000 characters', async () => {
      const phone = newPhone();
      await upsert(t.testKey, { phone, name: 'Budget Person' });
      const records = Array.from({ length: 12 }, (_, i) => ({
        text: `Record number ${i} ${'x'.repeat(480)}`,
        occurred_at: 1_700_000_000 + i * 86_400,
      }));
      expect(
        (await request('POST', '/v1/records', { key: t.testKey, body: { contact: { phone }, records } })).status,
      ).to.equal(200);
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: phone, agent_id: t.agentId, simulation: { caller: ['Hi'] } },
      });
      const call = await waitForCall(t.testKey, res.body.id);
      const system = h().llm.requests.find((r) => r.user === call.id)!.messages[0].content!;
      expect(system).to.contain('Name: Budget Person');
      const shown = [...system.matchAll(/Record number (\d+)/g)].map((m) => Number(m[1]));
      expect(shown.length).to.be.within(6, 8);
      expect(shown).to.deep.equal(Array.from({ length: shown.length }, (_, i) => 11 - i)); // newest first
      expect(system).to.contain(`(${12 - shown.length} older records not shown)`);
    });
  });

  it('needs contacts:read/write and records:read/write scopes', async () => {
    const reader = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['contacts:read'] }))
      .key;
    const phone = newPhone();
    expect((await request('GET', '/v1/contacts', { key: reader })).status).to.equal(200);
    const write = await upsert(reader, { phone });
    expect(write.status).to.equal(403);
    expect(write.body.error).to.include({ code: 'scope_missing' });
    const contact = (await upsert(t.testKey, { phone })).body;
    expect((await request('GET', `/v1/contacts/${contact.id}/records`, { key: reader })).status).to.equal(403);
    const pusher = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['records:write'] }))
      .key;
    expect(
      (await request('POST', '/v1/records', { key: pusher, body: { contact: { phone }, records: [{ text: 'x' }] } }))
        .status,
    ).to.equal(200);
    expect((await request('GET', `/v1/contacts/${contact.id}/records`, { key: pusher })).status).to.equal(200);
    expect((await request('DELETE', `/v1/contacts/${contact.id}`, { key: pusher })).status).to.equal(403);
  });

  it('keeps test and live contacts apart: the same phone is two contacts', async () => {
    const phone = newPhone();
    const test = (await upsert(t.testKey, { phone, name: 'Test' })).body;
    const live = (await upsert(t.liveKey, { phone, name: 'Live' })).body;
    expect(live.id).to.not.equal(test.id);
    expect(live.livemode).to.equal(true);
    expect((await request('GET', `/v1/contacts/${test.id}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('DELETE', `/v1/contacts/${test.id}`, { key: t.liveKey })).status).to.equal(404);
    const liveList = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key: t.liveKey });
    expect(liveList.body.data.map((c: any) => c.id)).to.deep.equal([live.id]);
    await request('POST', '/v1/records', {
      key: t.testKey,
      body: { contact: { phone }, records: [{ text: 'test-mode record' }] },
    });
    const liveRecords = await request('GET', `/v1/contacts/${live.id}/records`, { key: t.liveKey });
    expect(liveRecords.body.data).to.deep.equal([]);
    const other = await newTenant();
    expect((await request('GET', `/v1/contacts/${test.id}`, { key: other.testKey })).status).to.equal(404);
  });
});
