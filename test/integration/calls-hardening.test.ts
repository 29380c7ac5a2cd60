/**
 * The call core under hostile input and long runs (simulated calls): bounded history over a 600-turn
 * call that continues as new, bounded input (deep bodies, deep or huge `context`), the turn deadline,
 * and an API that stops with a deadline.
 */
import { expect } from 'chai';
import { temporal } from '@temporalio/proto';
import { config, setConfig } from '../../src/config';
import { startApi } from '../../src/api/server';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { MAX_QUOTA, setOrgQuotas } from '../../src/services/quotas';
import { UsageRecord } from '../../src/models/usage';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** `{"a":{"a":…}}` nested `depth` levels, as JSON text (JSON.stringify itself overflows on deep values). */
const nestedJson = (depth: number) => '{"a":'.repeat(depth - 1) + '{"leaf":1}' + '}'.repeat(depth - 1);
const nested = (depth: number): Record<string, unknown> => JSON.parse(nestedJson(depth));
/** A request body as JSON text: `fields` are JSON texts already. */
const bodyOf = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

describe('calls: bounded history, bounded input, deadlines', function () {
  this.timeout(300_000);
  let t: Tenant;
  before(async () => {
    t = await newTenant();
    // The 600-turn call's prompts hold its whole history: more tokens than a day's default cap, which
    // would refuse this tenant's next calls (429 quota_exceeded; the cap has its own tests).
    await setOrgQuotas(t.orgId, { llm_tokens_per_day: MAX_QUOTA });
    // The transcripts below are counted turn by turn: no AI disclosure line before the first one.
    expect((await request('POST', '/v1/account', { key: t.testKey, body: { ai_disclosure: false } })).status).to.equal(
      200,
    );
  });

  it('runs a 600-turn call to completed across runs, each run history under 5 MB, with its full transcript', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1} ${'words '.repeat(20)}`.trim());
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: lines } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const call = await waitForCall(t.testKey, res.body.id, undefined, 280_000);
    expect(call).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
    const transcript = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
    expect(transcript.turns).to.have.length(600);
    expect(transcript.turns[598]).to.include({ role: 'caller', text: lines[299] });
    expect(transcript.turns[599]).to.include({ role: 'assistant', text: `You said: ${lines[299]}` });

    const runs: { runId: string; status: string }[] = [];
    for await (const run of h().env.client.workflow.list({ query: `WorkflowId = '${call.id}'` }))
      runs.push({ runId: run.runId, status: run.status.name });
    expect(runs.length, 'the call continued as new at least once').to.be.greaterThan(1);
    expect(runs.filter((r) => r.status === 'CONTINUED_AS_NEW')).to.have.length(runs.length - 1);
    let largest = 0;
    for (const run of runs) {
      const history = await h().env.client.workflow.getHandle(call.id, run.runId).fetchHistory();
      largest = Math.max(largest, temporal.api.history.v1.History.encode(history).finish().length);
    }
    expect(largest, `largest run history ${largest} bytes`).to.be.lessThan(5 * 1024 * 1024);
    // One LLM request per caller line: nothing repeated across runs.
    expect(h().llm.requests.filter((r) => r.user === call.id)).to.have.length(300);
    // Each answer's usage row once, those of the answers before each continue-as-new included (the LLM
    // activity's result carries it; the run's last transcript write stores it).
    expect(await UsageRecord.countDocuments({ subject_id: call.id, kind: 'llm_request' })).to.equal(300);
    const events = (await request('GET', '/v1/events?limit=100', { key: t.testKey })).body.data.filter(
      (e: any) => e.data.object.id === call.id,
    );
    expect(events.map((e: any) => e.type).reverse()).to.deep.equal(['call.started', 'call.ended']);
  });

  it('refuses a deep context or a deep body anywhere with 400 naming it, never 500', async () => {
    const post = (body: unknown) => request('POST', '/v1/calls', { key: t.testKey, body });
    const base = { to: '+14155550123', agent_id: t.agentId };
    const eleven = await post({ ...base, context: nested(11) });
    expect(eleven.status).to.equal(400);
    expect(eleven.body.error).to.include({ code: 'parameter_invalid', param: 'context' });
    expect((await post({ ...base, context: nested(10) })).status, 'ten levels are fine').to.equal(200);
    const baseJson = { to: JSON.stringify(base.to), agent_id: JSON.stringify(base.agent_id) };
    for (const depth of [2_700, 10_000]) {
      const deep = await post(bodyOf({ ...baseJson, context: nestedJson(depth) }));
      expect(deep.status, `context nested ${depth} deep`).to.equal(400);
      expect(deep.body.error).to.include({ type: 'invalid_request_error', param: 'context' });
    }
    const deepMetadata = await post(bodyOf({ ...baseJson, metadata: nestedJson(10_000) }));
    expect(deepMetadata.status).to.equal(400);
    expect(deepMetadata.body.error.param).to.equal('metadata');
    const deepAgent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: bodyOf({ name: '"x"', instructions: '"y"', extra: nestedJson(5_000) }),
    });
    expect(deepAgent.status).to.equal(400);
    const raw = await request('POST', '/v1/webhook-endpoints', {
      key: t.testKey,
      body: '['.repeat(50_000) + ']'.repeat(50_000),
    });
    expect(raw.status).to.equal(400);
    // Small as JSON, large once rendered into the prompt (indentation): refused on the rendered size.
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, nested(9)]));
    expect(JSON.stringify(wide).length).to.be.lessThan(16_384);
    const rendered = await post({ ...base, context: wide });
    expect(rendered.status).to.equal(400);
    expect(rendered.body.error).to.include({ param: 'context' });
    expect(rendered.body.error.message).to.contain('rendered');
    expect((await request('GET', '/healthz')).status).to.equal(200);
  });

  it('ends a simulated call with error when the assistant misses three turn deadlines, after the holding line', async () => {
    const saved = config();
    setConfig({ ...saved, callTurnDeadlineMs: 700 });
    try {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['SLOW 6000', 'never said'] } },
      });
      const call = await waitForCall(t.testKey, res.body.id, undefined, 30_000);
      expect(call).to.include({ status: 'failed', end_reason: 'error' });
      expect(call.error.message).to.match(/did not answer within 2 s/);
      // Three deadlines (2.1 s) of the model's time, not the slow answer's 6 s.
      expect(call.ended_at - call.answered_at, 'ended at the deadline, not after the slow answer').to.be.lessThan(5);
      const tr = await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey });
      expect(tr.body.turns.map((x: { text: string }) => x.text)).to.deep.equal(['SLOW 6000', 'One moment, please.']);
    } finally {
      setConfig(saved);
    }
  });

  it('stops the API with a deadline: in-flight requests finish within it, then connections close', async () => {
    const api = await startApi({ temporal: h().env.client, port: 0, host: '127.0.0.1' });
    const slow = fetch(`${api.url}/v1/calls`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', agent_id: t.agentId }),
    });
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await api.close(5_000);
    const res = await slow;
    expect(res.status, 'the in-flight request finished').to.equal(200);
    expect(Date.now() - started).to.be.lessThan(5_000);
    const refused = await fetch(`${api.url}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });
});
