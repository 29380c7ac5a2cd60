/**
 * The named steps behind `POST /v1/calls` and `POST /v1/bulk-calls` (src/services/call-requests.ts,
 * src/services/bulk-call-requests.ts), called directly as a route calls them: with the real store and
 * Temporal of the harness, no HTTP in between.
 */
import { expect } from 'chai';
import { ApiError } from '../../src/errors';
import { newId } from '../../src/shared/ids';
import { findCall, prepareCall, runCallUpdate, startCall } from '../../src/services/call-requests';
import { prepareBulkCall, startBulkCall } from '../../src/services/bulk-call-requests';
import { h, newTenant, request, waitForCall } from '../support/harness';

/** Resolves to the ApiError `p` rejects with (fails when it resolves). */
async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('call requests (service functions)', function () {
  this.timeout(60_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  let tenant: { orgId: string; livemode: boolean };

  before(async () => {
    t = await newTenant({ first_message: 'Hello from the service.' });
    tenant = { orgId: t.orgId, livemode: false };
  });

  it('prepareCall refuses an unknown agent naming agent_id, and another tenant cannot find the call', async () => {
    const missing = await refusal(
      prepareCall(
        tenant,
        { to: '+14155550123', agent_id: 'agent_01jd5x2v7c0000000000000000' },
        { requestedMs: null, nowMs: Date.now() },
      ),
    );
    expect(missing).to.include({ status: 404, param: 'agent_id' });
    const gone = await refusal(findCall(tenant, 'call_01jd5x2v7c0000000000000000'));
    expect(gone).to.include({ status: 404, param: 'id' });
  });

  it('prepareCall then startCall places a call the API shows; runCallUpdate refuses it once over (409 call_not_live)', async () => {
    const nowMs = Date.now();
    const prepared = await prepareCall(
      tenant,
      { to: '+14155550123', agent_id: t.agentId },
      { requestedMs: null, nowMs },
    );
    expect(prepared.agent._id).to.equal(t.agentId);
    expect(prepared.agent.version).to.be.a('number');
    expect(prepared.dial.later, 'a test call is dialed at once').to.equal(false);

    const callId = newId('call');
    const request_ = { to: '+14155550123', simulation: { caller: ['Thanks, bye.'] } };
    const { doc, stored } = await startCall(h().env.client, tenant, callId, request_, prepared);
    await stored;
    expect(doc).to.include({ _id: callId, status: 'queued', agent_id: t.agentId, livemode: false });
    expect((await findCall(tenant, callId))._id).to.equal(callId);
    const other = await refusal(findCall({ orgId: 'org_01jd5x2v7c0000000000000000', livemode: false }, callId));
    expect(other.status).to.equal(404);

    const done = await waitForCall(t.testKey, callId);
    expect(done.status).to.equal('completed');
    const notLive = await refusal(runCallUpdate(h().env.client, done, async () => undefined));
    expect(notLive).to.include({ status: 409, code: 'call_not_live' });
  });

  it('prepareBulkCall settles the defaults; startBulkCall stores the campaign with a row per contact', async () => {
    const form = await request('POST', '/v1/forms', {
      key: t.testKey,
      body: { name: 'Survey', fields: [{ key: 'ok', type: 'boolean' }] },
    });
    expect(form.status, JSON.stringify(form.body)).to.equal(200);
    const prepared = await prepareBulkCall(tenant, {
      agent_id: t.agentId,
      form_id: form.body.id,
      contacts: [{ phone: '+14155550131' }, { phone: '+14155550132' }],
      given: ['+14155550131', '+14155550132'],
      duplicates: 1,
      retry: {},
      simulation: { caller: ['Yes.'] },
    });
    expect(prepared.retry).to.deep.equal({ max_attempts: 3, on: ['no_answer', 'failed'], interval_seconds: 3600 });
    expect(prepared.schedule).to.equal(null);
    const missingForm = await refusal(
      prepareBulkCall(tenant, { ...prepared.request, form_id: 'form_01jd5x2v7c0000000000000000' }),
    );
    expect(missingForm).to.include({ status: 404, param: 'form_id' });

    const bulkCallId = newId('bulk');
    const stored = await startBulkCall(h().env.client, tenant, bulkCallId, prepared);
    expect(stored).to.include({ _id: bulkCallId, agent_id: t.agentId, duplicates_removed: 1, max_concurrency: 5 });
    const res = await request('GET', `/v1/bulk-calls/${bulkCallId}`, { key: t.testKey });
    expect(res.status).to.equal(200);
    expect(res.body.counts.total).to.equal(2);
  });
});
