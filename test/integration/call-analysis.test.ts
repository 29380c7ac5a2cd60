/**
 * Call analysis (items 1–4): the agent's or the call's plan run once a test call has ended
 * (summary, structured data valid against a schema with required fields, a success verdict), its one
 * `call.analyzed` event delivered with the call's metadata; a model that answers invalid JSON first; one
 * that never validates (`failed`, with the errors); a re-run with a new schema keeping both; `form_id`;
 * bad schemas (400 naming the path); a conversation analysed; the usage line. With RECORD_HISTORIES=1 the
 * analyses' workflow histories are written to test/replay/histories/analysis-*.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Analysis } from '../../src/models/analyses';
import { UsageRecord } from '../../src/models/usage';
import { analysisWorkflowId } from '../../src/shared/analysis';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint, eventually, sleep } from '../support/webhooks';
import { customerNumber, inbound, waitForMessages } from '../support/conversations';

const SCHEMA = {
  type: 'object',
  properties: {
    confirmed: { type: 'boolean' },
    appointment_date: { type: 'string', format: 'date' },
    mood: { type: 'string', enum: ['happy', 'neutral', 'upset'] },
  },
  required: ['confirmed', 'appointment_date', 'mood'],
  additionalProperties: false,
};

const PLAN = {
  summary: true,
  structured_data: { schema: SCHEMA },
  success_evaluation: { rubric: 'The caller confirmed the appointment.', scale: 'pass_fail' },
};

/** Polls `GET /v1/calls/{id}` until the call has an analysis; answers the call. */
async function analysed(key: string, callId: string, until: (a: any) => boolean = () => true) {
  return waitForCall(key, callId, (c) => c.analysis !== null && until(c.analysis), 30_000);
}

/** The key's events of `type` about `objectId`. */
async function eventsOf(key: string, type: string, objectId: string): Promise<any[]> {
  const res = await request('GET', '/v1/events?limit=100', { key });
  return (res.body.data as any[]).filter((e) => e.type === type && e.data.object.id === objectId);
}

/** With RECORD_HISTORIES=1: writes the analysis workflow's history to test/replay/histories/analysis-<name>.json. */
async function keepHistory(subjectId: string, analysisId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const handle = h().env.client.workflow.getHandle(analysisWorkflowId(subjectId, analysisId));
  await handle.result();
  const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
  const file = path.resolve(__dirname, '../../../test/replay/histories', `analysis-${name}.json`);
  fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
}

describe('call analysis', function () {
  this.timeout(120_000);
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(() => receiver.close());

  it("analyses an ended call with the agent's plan and delivers call.analyzed once, with the call's metadata", async () => {
    const t = await newTenant({ analysis: PLAN });
    const agent = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
    expect(agent.body.analysis).to.deep.equal(PLAN);
    const endpoint = await createWebhookEndpoint(receiver, t.testKey, '/analyzed', ['call.analyzed']);
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        metadata: { order: 'A-17' },
        simulation: { caller: ['Yes, Thursday works.', 'Bye!'] },
      },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    expect(placed.body.analysis).to.equal(null);
    const call = await analysed(t.testKey, placed.body.id);
    expect(call.status).to.equal('completed');
    const a = call.analysis;
    expect(a).to.include({ object: 'analysis', status: 'completed', call_id: call.id, conversation_id: null });
    expect(a.summary).to.equal('The caller said: Yes, Thursday works.');
    expect(a.structured_data).to.deep.equal({ confirmed: true, appointment_date: '2026-01-15', mood: 'happy' });
    expect(a.success).to.deep.equal({ verdict: 'pass', reason: 'example' });
    expect(a.model).to.equal('fake-model');
    expect(a.plan).to.deep.equal(PLAN);
    expect(a.id).to.match(/^ana_/);

    // The model was asked with the JSON-schema response format, the transcript in the prompt.
    const asked = h().llm.requests.filter((r) => r.user === call.id && r.response_format);
    expect(asked).to.have.length(1);
    expect(asked[0].response_format!.type).to.equal('json_schema');
    expect(asked[0].response_format!.json_schema!.schema).to.nested.include({
      'properties.structured_data.type': 'object',
    });
    expect(asked[0].messages[1].content).to.include('Caller: Yes, Thursday works.');

    await receiver.waitFor((r) => r.some((x) => x.path === '/analyzed'), 30_000, 'call.analyzed delivered');
    await sleep(1500); // no second delivery follows
    const delivered = receiver.at('/analyzed');
    expect(delivered).to.have.length(1);
    expect(delivered[0].body.type).to.equal('call.analyzed');
    expect(delivered[0].body.data.object).to.include({ id: call.id, object: 'call' });
    expect(delivered[0].body.data.object.metadata).to.deep.equal({ order: 'A-17' });
    expect(delivered[0].body.data.object.analysis).to.deep.equal(a);
    expect(await eventsOf(t.testKey, 'call.analyzed', call.id)).to.have.length(1);
    expect(endpoint.id).to.be.a('string');

    // Usage: the analysis tokens on their own line, as the provider counted them.
    const usage = await request('GET', '/v1/usage', { key: t.testKey });
    expect(usage.status).to.equal(200);
    expect(usage.body.totals.analysis).to.deep.equal({
      requests: 1,
      prompt_tokens: asked[0].usage!.prompt_tokens,
      completion_tokens: asked[0].usage!.completion_tokens,
    });
    expect(await UsageRecord.countDocuments({ kind: 'analysis', subject_id: call.id })).to.equal(1);
    await keepHistory(call.id, a.id, 'completed');
  });

  it('a call without a caller turn is not analysed; a per-call plan replaces the agent’s, null turns it off', async () => {
    const t = await newTenant({ analysis: { summary: true } });
    const silent = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'busy' } },
    });
    const off = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, analysis: null, simulation: { caller: ['Hi'] } },
    });
    const own = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        analysis: { success_evaluation: { rubric: 'Polite.', scale: 'numeric_1_10' } },
        simulation: { caller: ['Hi'] },
      },
    });
    const withOwn = await analysed(t.testKey, own.body.id);
    expect(withOwn.analysis).to.include({ status: 'completed', summary: null, structured_data: null });
    expect(withOwn.analysis.success).to.deep.equal({ verdict: 'pass', score: 1, reason: 'example' });
    await waitForCall(t.testKey, silent.body.id);
    await waitForCall(t.testKey, off.body.id);
    await sleep(1500);
    for (const id of [silent.body.id, off.body.id]) {
      expect((await request('GET', `/v1/calls/${id}`, { key: t.testKey })).body.analysis).to.equal(null);
      expect(await Analysis.countDocuments({ subject_id: id })).to.equal(0);
    }
  });

  it('asks again with the validation errors when the first answer is not JSON', async () => {
    const t = await newTenant();
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        analysis: { ...PLAN, structured_data: { schema: SCHEMA, prompt: 'FAKE_ANALYSIS:invalid-once' } },
        simulation: { caller: ['Yes.'] },
      },
    });
    const call = await analysed(t.testKey, placed.body.id);
    expect(call.analysis.status).to.equal('completed');
    expect(call.analysis.structured_data).to.deep.equal({
      confirmed: true,
      appointment_date: '2026-01-15',
      mood: 'happy',
    });
    const asked = h().llm.requests.filter((r) => r.user === call.id && r.response_format);
    expect(asked).to.have.length(2);
    const retry = asked[1].messages;
    expect(retry[2]).to.include({ role: 'assistant', content: 'Sure! The caller was happy, I think.' });
    expect(retry[3].content).to.match(/^That answer is not valid: the answer is not valid JSON/);
    expect(await UsageRecord.countDocuments({ kind: 'analysis', subject_id: call.id })).to.equal(2);
    await keepHistory(call.id, call.analysis.id, 'retried');
  });

  it('records failed, with the validation errors, when the model never validates; the call keeps its status', async () => {
    const t = await newTenant();
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        metadata: { k: 'v' },
        analysis: { ...PLAN, summary: { prompt: 'FAKE_ANALYSIS:never-valid' } },
        simulation: { caller: ['Yes.'] },
      },
    });
    const call = await analysed(t.testKey, placed.body.id);
    expect(call.status).to.equal('completed');
    const a = call.analysis;
    expect(a).to.include({ status: 'failed', summary: null, structured_data: null, success: null });
    expect(a.error.validation_errors).to.include.members([
      "must have required property 'summary'",
      "must have required property 'structured_data'",
      "must have required property 'success'",
    ]);
    expect(a.error.message).to.match(/did not validate after a second request/);
    const events = await eventsOf(t.testKey, 'call.analyzed', call.id);
    expect(events).to.have.length(1);
    expect(events[0].data.object.analysis.status).to.equal('failed');
    expect(events[0].data.object.metadata).to.deep.equal({ k: 'v' });
    expect(h().llm.requests.filter((r) => r.user === call.id && r.response_format)).to.have.length(2);
    await keepHistory(call.id, a.id, 'failed');
  });

  it('falls back to JSON mode when the model refuses json_schema', async () => {
    const t = await newTenant();
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        analysis: { ...PLAN, summary: { prompt: 'FAKE_ANALYSIS:no-json-schema' } },
        simulation: { caller: ['Yes.'] },
      },
    });
    const call = await analysed(t.testKey, placed.body.id);
    expect(call.analysis.status).to.equal('completed');
    const asked = h().llm.requests.filter((r) => r.user === call.id && r.response_format);
    expect(asked.map((r) => r.response_format!.type)).to.deep.equal(['json_schema', 'json_object']);
  });

  it('re-runs with a new schema (Idempotency-Key): the call shows the newest, both are listed, newest first', async () => {
    const t = await newTenant({ analysis: PLAN });
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Yes, see you then.'] } },
    });
    const first = (await analysed(t.testKey, placed.body.id)).analysis;
    const schema = {
      type: 'object',
      properties: { callback_requested: { type: 'boolean' }, topic: { type: 'string' } },
      required: ['callback_requested', 'topic'],
    };
    const body = { analysis: { structured_data: { schema } } };
    const headers = { 'Idempotency-Key': `rerun-${placed.body.id}` };
    const rerun = await request('POST', `/v1/calls/${placed.body.id}/analyze`, { key: t.testKey, body, headers });
    expect(rerun.status, JSON.stringify(rerun.body)).to.equal(200);
    expect(rerun.body).to.include({ object: 'analysis', status: 'completed', call_id: placed.body.id });
    expect(rerun.body.structured_data).to.deep.equal({ callback_requested: true, topic: 'example' });
    expect(rerun.body.id > first.id).to.equal(true);
    const replay = await request('POST', `/v1/calls/${placed.body.id}/analyze`, { key: t.testKey, body, headers });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.id).to.equal(rerun.body.id);

    const call = (await request('GET', `/v1/calls/${placed.body.id}`, { key: t.testKey })).body;
    expect(call.analysis.id).to.equal(rerun.body.id);
    const list = await request('GET', `/v1/calls/${placed.body.id}/analyses`, { key: t.testKey });
    expect(list.body.object).to.equal('list');
    expect(list.body.data.map((x: any) => x.id)).to.deep.equal([rerun.body.id, first.id]);
    expect(list.body.data[1].structured_data).to.deep.equal(first.structured_data);
    await eventually(
      async () => (await eventsOf(t.testKey, 'call.analyzed', placed.body.id)).length === 2,
      'two call.analyzed events',
    );
    await keepHistory(placed.body.id, rerun.body.id, 'rerun');

    // A form fills the structured data from the same transcript.
    const form = await request('POST', '/v1/forms', {
      key: t.testKey,
      body: {
        name: 'Attendance',
        fields: [
          { key: 'attending', type: 'boolean', required: true },
          { key: 'day', type: 'date', required: true },
          { key: 'meal', type: 'enum', options: ['fish', 'veg'] },
        ],
      },
    });
    expect(form.status, JSON.stringify(form.body)).to.equal(200);
    const filled = await request('POST', `/v1/calls/${placed.body.id}/analyze`, {
      key: t.testKey,
      body: { form_id: form.body.id },
    });
    expect(filled.status, JSON.stringify(filled.body)).to.equal(200);
    expect(filled.body).to.include({ status: 'completed', form_id: form.body.id });
    expect(filled.body.structured_data).to.deep.equal({ attending: true, day: '2026-01-15', meal: 'fish' });
    expect(filled.body.summary).to.be.a('string'); // the call's own summary part is kept
  });

  it('refuses bad plans with a 400 naming the path, and re-runs that cannot run', async () => {
    const t = await newTenant();
    const cases: [unknown, string][] = [
      [{ type: 'object', properties: { a: { type: 'strin' } } }, 'analysis.structured_data.schema.properties.a.type'],
      [{ type: 'array', items: { type: 'string' } }, 'analysis.structured_data.schema.type'],
      [{ type: 'object', requried: ['a'] }, 'analysis.structured_data.schema.requried'],
      [
        {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: 800 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(20) }]),
          ),
        },
        'analysis.structured_data.schema',
      ],
    ];
    for (const [schema, param] of cases) {
      for (const [method, url, extra] of [
        ['POST', '/v1/agents', { name: 'A', instructions: 'B' }],
        ['POST', '/v1/calls', { to: '+14155550123', agent_id: t.agentId }],
      ] as const) {
        const res = await request(method, url, {
          key: t.testKey,
          body: { ...extra, analysis: { structured_data: { schema } } },
        });
        expect(res.status, `${url} ${param}`).to.equal(400);
        expect(res.body.error).to.include({ type: 'invalid_request_error', param });
      }
    }
    const update = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { analysis: { structured_data: { schema: { type: 'object', properties: 3 } } } },
    });
    expect(update.status).to.equal(400);
    expect(update.body.error.param).to.match(/^analysis\.structured_data\.schema/);
    const empty = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'A', instructions: 'B', analysis: {} },
    });
    expect(empty.status).to.equal(400);
    expect(empty.body.error.param).to.equal('analysis');
    expect(await Analysis.countDocuments({ org_id: t.orgId })).to.equal(0);

    // Set, then cleared with null.
    const set = await request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body: { analysis: PLAN } });
    expect(set.body.analysis).to.deep.equal(PLAN);
    const cleared = await request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body: { analysis: null } });
    expect(cleared.body.analysis).to.equal(null);

    // A call with no plan: a re-run needs one; a live call cannot be analysed yet.
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hi'], pause_seconds: 3 } },
    });
    const early = await request('POST', `/v1/calls/${placed.body.id}/analyze`, { key: t.testKey, body: {} });
    expect(early.status).to.equal(409);
    expect(early.body.error.code).to.equal('call_not_ended');
    await waitForCall(t.testKey, placed.body.id);
    const none = await request('POST', `/v1/calls/${placed.body.id}/analyze`, { key: t.testKey, body: {} });
    expect(none.status).to.equal(400);
    expect(none.body.error.param).to.equal('analysis');
    const unknownForm = await request('POST', `/v1/calls/${placed.body.id}/analyze`, {
      key: t.testKey,
      body: { form_id: 'form_01jd5x2v7c0000000000000000' },
    });
    expect(unknownForm.status).to.equal(404);
    expect(unknownForm.body.error.param).to.equal('form_id');
  });

  it('analyses a conversation from its stored messages', async () => {
    const t = await newTenant({ analysis: { summary: true, structured_data: { schema: SCHEMA } } });
    const from = customerNumber();
    const res = await inbound(t.testKey, { channel: 'sms', from, text: 'Can I move my visit to Friday?' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const conversationId = res.body.conversation_id as string;
    await waitForMessages(t.testKey, conversationId, 2);
    const done = await request('POST', `/v1/conversations/${conversationId}/analyze`, { key: t.testKey, body: {} });
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    expect(done.body).to.include({ status: 'completed', conversation_id: conversationId, call_id: null });
    expect(done.body.summary).to.equal('The caller said: Can I move my visit to Friday?');
    const list = await request('GET', `/v1/conversations/${conversationId}/analyses`, { key: t.testKey });
    expect(list.body.data.map((x: any) => x.id)).to.deep.equal([done.body.id]);
    const events = await eventsOf(t.testKey, 'conversation.analyzed', conversationId);
    expect(events).to.have.length(1);
    expect(events[0].data.object).to.include({ object: 'conversation', id: conversationId });
    expect(events[0].data.object.analysis.id).to.equal(done.body.id);
    await keepHistory(conversationId, done.body.id, 'conversation');
  });
});
