/**
 * The audit log (issue 36 item 4): a sequence of API actions (create an agent, place a call, read its
 * transcript, create and delete a contact, a refused request) leaves entries in order with the actor,
 * action, object ids, IP and outcome; the filters and pagination; the scope; no route changes or deletes
 * an entry; `recordAuditEvent` for the console's own actions; retention deletes only expired entries
 * (injected time, through `auditRetentionWorkflow` as the schedule starts it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config } from '../../src/config';
import { createKey, hashKey } from '../../src/keys';
import { ApiKey } from '../../src/models/orgs';
import { AuditEvent } from '../../src/models/audit';
import { recordAuditEvent } from '../../src/services/audit';
import { AUDIT_RETENTION_WORKFLOW, type AuditRetentionWorkflow } from '../../src/shared/audit';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';

type Entry = {
  id: string;
  object: string;
  livemode: boolean;
  actor: { type: string; id: string };
  action: string;
  object_ids: string[];
  request_id: string | null;
  ip: string | null;
  outcome: { status: number; error_code: string | null };
  created: number;
};

describe('audit log (issue 36 item 4)', function () {
  this.timeout(120_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  let keyId: string;
  let callId: string;
  let contactId: string;
  const requestIds: string[] = [];

  async function entries(key: string, query = ''): Promise<{ status: number; body: any }> {
    return request('GET', `/v1/audit_events${query}`, { key });
  }

  before(async () => {
    t = await newTenant({ first_message: 'Hello.' });
    keyId = (await ApiKey.findOne({ hash: hashKey(t.testKey) }).lean())!._id;
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Audited', instructions: 'Hi.' },
    });
    requestIds.push(agent.headers.get('request-id')!);
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hello', 'TOOL end_call {}'] } },
    });
    expect(call.status, JSON.stringify(call.body)).to.equal(200);
    callId = call.body.id;
    await waitForCall(t.testKey, callId);
    expect((await request('GET', `/v1/calls/${callId}/transcript`, { key: t.testKey })).status).to.equal(200);
    const contact = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone: '+14155550199' } });
    contactId = contact.body.id;
    expect((await request('DELETE', `/v1/contacts/${contactId}`, { key: t.testKey })).status).to.equal(200);
    const refused = await request('POST', '/v1/calls', { key: t.testKey, body: { to: 'not a number' } });
    expect(refused.status).to.equal(400);
    requestIds.push(refused.headers.get('request-id')!);
  });

  it('records each action in order, newest first, with actor, action, object ids, IP and outcome', async () => {
    const list = await eventually(async () => {
      const res = await entries(t.testKey, '?limit=100');
      return res.body.data?.length >= 7 ? (res.body.data as Entry[]) : null;
    }, 'the audit entries');
    expect(list.map((e) => e.action)).to.deep.equal([
      'POST /v1/calls', // refused
      'DELETE /v1/contacts/{id}',
      'POST /v1/contacts',
      'GET /v1/calls/{id}/transcript',
      'POST /v1/calls',
      'POST /v1/agents',
      'POST /v1/agents', // newTenant's
    ]);
    const [refused, deleted, created, read, placed, agent] = list;
    expect(refused.outcome).to.deep.equal({ status: 400, error_code: refused.outcome.error_code });
    expect(refused.outcome.error_code).to.be.a('string').and.not.equal('');
    expect(refused.object_ids).to.deep.equal([]);
    expect(refused.request_id).to.equal(requestIds[1]);
    expect(deleted.object_ids).to.deep.equal([contactId]);
    expect(deleted.outcome).to.deep.equal({ status: 200, error_code: null });
    expect(created.object_ids).to.deep.equal([contactId]);
    expect(read.object_ids).to.deep.equal([callId]);
    expect(placed.object_ids).to.deep.equal([callId]);
    expect(agent.object_ids[0]).to.match(/^agt_/);
    expect(agent.request_id).to.equal(requestIds[0]);
    for (const e of list) {
      expect(e).to.include({ object: 'audit_event', livemode: false, ip: '127.0.0.1' });
      expect(e.id).to.match(/^aud_[0-9a-z]{26}$/);
      expect(e.actor.type).to.equal('api_key');
      expect(e.actor.id).to.match(/^key_/);
      expect(e.actor.id).to.equal(keyId);
      expect(JSON.stringify(e)).not.to.include('+14155550199'); // no request body is kept
    }
    // Creation order is id order, and newest first.
    expect([...list].sort((a, b) => (a.id < b.id ? 1 : -1)).map((e) => e.id)).to.deep.equal(list.map((e) => e.id));
    const one = await request('GET', `/v1/audit_events/${placed.id}`, { key: t.testKey });
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(placed);
    // The live mode has its own log; another organization sees none of these.
    expect((await entries(t.liveKey)).body.data).to.deep.equal([]);
    const other = await newTenant();
    expect((await request('GET', `/v1/audit_events/${placed.id}`, { key: other.testKey })).status).to.equal(404);
  });

  it('filters by actor, action, object_id and created, and pages', async () => {
    const byAction = (await entries(t.testKey, `?action=${encodeURIComponent('POST /v1/calls')}`)).body.data as Entry[];
    expect(byAction.map((e) => e.outcome.status)).to.deep.equal([400, 200]);
    const byObject = (await entries(t.testKey, `?object_id=${contactId}`)).body.data as Entry[];
    expect(byObject.map((e) => e.action)).to.deep.equal(['DELETE /v1/contacts/{id}', 'POST /v1/contacts']);
    const all = (await entries(t.testKey, '?limit=100')).body.data as Entry[];
    const actor = all[0].actor.id;
    expect((await entries(t.testKey, `?actor=${actor}&limit=100`)).body.data).to.have.length(all.length);
    expect((await entries(t.testKey, '?actor=key_00000000000000000000000000')).body.data).to.deep.equal([]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await entries(t.testKey, `?created[gte]=${future}`)).body.data).to.deep.equal([]);
    expect((await entries(t.testKey, `?created[lte]=${future}&limit=100`)).body.data).to.have.length(all.length);
    expect((await entries(t.testKey, '?created[gte]=soon')).status).to.equal(400);
    // Pages of two, newest first, the same entries as the whole list.
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await entries(t.testKey, `?limit=2${after}`);
      seen.push(...page.body.data.map((e: Entry) => e.id));
      if (!page.body.has_more) break;
      after = `&starting_after=${page.body.data[page.body.data.length - 1].id}`;
    }
    expect(seen).to.deep.equal(all.map((e) => e.id));
  });

  it('needs audit:read: secret keys hold it, restricted keys when given it', async () => {
    const plain = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['calls:read'] })).key;
    const res = await entries(plain);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('scope_missing');
    const auditor = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['audit:read'] })).key;
    expect((await entries(auditor)).status).to.equal(200);
  });

  it('offers no route that changes or deletes an entry', async () => {
    const [first] = (await entries(t.testKey)).body.data as Entry[];
    for (const [method, url] of [
      ['POST', `/v1/audit_events/${first.id}`],
      ['DELETE', `/v1/audit_events/${first.id}`],
      ['POST', '/v1/audit_events'],
      ['DELETE', '/v1/audit_events'],
    ]) {
      const res = await request(method, url, { key: t.testKey, body: method === 'POST' ? { action: 'x' } : undefined });
      expect(res.status, `${method} ${url}`).to.be.oneOf([404, 405]);
    }
    const again = await request('GET', `/v1/audit_events/${first.id}`, { key: t.testKey });
    expect(again.body).to.deep.equal(first);
  });

  it('takes a console action through recordAuditEvent with a staff user as the actor', async () => {
    const id = await recordAuditEvent({
      orgId: t.orgId,
      livemode: false,
      actor: { type: 'user', id: 'usr_01jd5x2v7c0000000000000000' },
      action: 'console.sign_in',
      outcome: { status: 200 },
      ip: '192.0.2.7',
    });
    const res = await request('GET', `/v1/audit_events?actor=usr_01jd5x2v7c0000000000000000`, { key: t.testKey });
    expect(res.body.data.map((e: Entry) => e.id)).to.deep.equal([id]);
    expect(res.body.data[0]).to.include({ action: 'console.sign_in', ip: '192.0.2.7' });
  });

  it('deletes only the entries past AUDIT_RETENTION_DAYS, in the scheduled workflow (injected time)', async () => {
    const days = config().auditRetentionDays;
    const now = Date.now() + 10 * 86_400_000; // ten days ahead: what is older than days - 10 expires
    const at = (ageDays: number) => now - ageDays * 86_400_000;
    const recent = (await entries(t.testKey, '?limit=100')).body.data.map((e: Entry) => e.id);
    const ids: Record<string, string> = {};
    for (const [name, age] of [
      ['old', days + 30],
      ['just-expired', days + 0.01],
      ['kept', days - 1],
    ] as const)
      ids[name] = await recordAuditEvent({
        orgId: t.orgId,
        livemode: false,
        actor: { type: 'api_key', id: 'key_retention' },
        action: `retention ${name}`,
        outcome: { status: 200 },
        atMs: at(age),
      });
    const handle = await h().env.client.workflow.start<AuditRetentionWorkflow>(AUDIT_RETENTION_WORKFLOW, {
      workflowId: `audit-retention-test-${newId('x')}`,
      taskQueue: h().taskQueue,
      args: [{ nowMs: now }],
    });
    const result = await handle.result();
    expect(result.deleted).to.be.at.least(2);
    expect(await AuditEvent.exists({ _id: ids.old })).to.equal(null);
    expect(await AuditEvent.exists({ _id: ids['just-expired'] })).to.equal(null);
    expect(await AuditEvent.exists({ _id: ids.kept })).to.not.equal(null);
    for (const id of recent) expect(await AuditEvent.exists({ _id: id }), id).to.not.equal(null);
    if (process.env.RECORD_HISTORIES === '1') {
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.resolve(__dirname, '../../../test/replay/histories/audit-retention.json');
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
    }
  });
});
