/**
 * Spend and cardinality a tenant cannot inflate: an agent's `model` is one of the operator's
 * (`LLM_MODELS`); the daily quotas (LLM tokens, test-suite runs, analysis re-runs) refuse new work with
 * 429 `quota_exceeded` naming the quota, show in `GET /v1/account` and change with `svcctl quotas set`;
 * a model or a name the tenant chose never becomes a metrics label.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { allowedModels, config } from '../../src/config';
import { Agent } from '../../src/models/agents';
import { AgentVersion } from '../../src/models/agent-versions';
import { Org } from '../../src/models/orgs';
import { QuotaCounter } from '../../src/models/quotas';
import { addLlmTokens, takeQuota, utcDay } from '../../src/services/quotas';
import { h, newTenant, request, waitForCall } from '../support/harness';

const BIN = path.resolve(__dirname, '../../../bin/svcctl.js');

/** Runs svcctl against the test store; stdout parsed as JSON. */
async function svcctl(...args: string[]): Promise<{ code: number; out: any; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args], {
      env: { ...process.env, MONGODB_URI: h().ferret.uri, FERRETDB_PORT: undefined },
    });
    return { code: 0, out: JSON.parse(stdout), err: stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, out: null, err: err.stderr };
  }
}

/** A simulated test call that talks with the assistant (tokens spent), waited for to its end. */
async function endedCall(key: string, agentId: string): Promise<any> {
  const res = await request('POST', '/v1/calls', {
    key,
    body: { to: '+14155550123', agent_id: agentId, simulation: { caller: ['Hello', 'TOOL end_call {}'] } },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return waitForCall(key, res.body.id);
}

describe('tenant spend: models, daily quotas, bounded metric labels', function () {
  this.timeout(120_000);

  describe('agent.model', () => {
    it('refuses a model outside LLM_MODELS with 400 naming `model` and the allowed ones, on create and update', async () => {
      const t = await newTenant();
      const created = await request('POST', '/v1/agents', {
        key: t.testKey,
        body: { name: 'Pricey', instructions: 'Hi.', model: 'my-own-finetune-9000' },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(400);
      expect(created.body.error).to.include({ type: 'invalid_request_error', param: 'model' });
      for (const m of allowedModels()) expect(created.body.error.message).to.include(m);
      const updated = await request('POST', `/v1/agents/${t.agentId}`, {
        key: t.testKey,
        body: { model: 'my-own-finetune-9000' },
      });
      expect(updated.status).to.equal(400);
      expect(updated.body.error.param).to.equal('model');
      const agent = await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey });
      expect(agent.body.model, 'nothing written').to.equal(null);
      // A listed model and the operator's configured model are taken.
      for (const model of ['gpt-4.1', config().openaiModel]) {
        const ok = await request('POST', `/v1/agents/${t.agentId}`, { key: t.testKey, body: { model } });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
        expect(ok.body.model).to.equal(model);
      }
    });
  });

  describe('daily quotas', () => {
    let t: Awaited<ReturnType<typeof newTenant>>;
    let callId: string;

    before(async () => {
      t = await newTenant();
    });

    it('shows each quota with its default cap, today’s use and the reset in GET /v1/account', async () => {
      const res = await request('GET', '/v1/account', { key: t.testKey });
      expect(res.status).to.equal(200);
      const d = config().quotaDefaults;
      const midnight = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400;
      expect(res.body.quotas).to.deep.equal({
        llm_tokens_per_day: { limit: d.llmTokensPerDay || null, used: 0 },
        test_suite_runs_per_day: { limit: d.testSuiteRunsPerDay || null, used: 0 },
        analysis_reruns_per_day: { limit: d.analysisRerunsPerDay || null, used: 0 },
        resets_at: midnight,
      });
    });

    it('counts a call’s tokens, lets that call finish past the cap, then refuses new calls with 429 quota_exceeded until svcctl raises it', async () => {
      const set = await svcctl('quotas', 'set', '--org', t.orgId, '--llm-tokens-per-day', '1');
      expect(set.code, set.err).to.equal(0);
      expect(set.out).to.include({ object: 'quotas', org: t.orgId });
      expect(set.out.llm_tokens_per_day).to.deep.equal({ limit: 1, used: 0 });

      // The call started under the cap and goes on to its end although its first turn used the cap up.
      const call = await endedCall(t.testKey, t.agentId);
      expect(call.status).to.equal('completed');
      callId = call.id;
      const transcript = await request('GET', `/v1/calls/${callId}/transcript`, { key: t.testKey });
      const roles = transcript.body.turns.map((x: any) => x.role);
      expect(
        roles.filter((r: string) => r === 'caller'),
        JSON.stringify(roles),
      ).to.have.length(2);
      expect(roles.filter((r: string) => r === 'assistant').length, JSON.stringify(roles)).to.be.at.least(2);

      const account = await request('GET', '/v1/account', { key: t.liveKey }); // both modes together
      expect(account.body.quotas.llm_tokens_per_day.limit).to.equal(1);
      expect(account.body.quotas.llm_tokens_per_day.used).to.be.greaterThan(1);

      const refused = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hello'] } },
      });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
      expect(refused.body.error).to.include({
        type: 'rate_limit_error',
        code: 'quota_exceeded',
        param: 'llm_tokens_per_day',
      });
      expect(refused.body.error.message).to.match(/resets at \d{4}-\d\d-\d\dT00:00:00\.000Z/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 86_400);

      const raised = await svcctl('quotas', 'set', '--org', t.orgId, '--llm-tokens-per-day', 'default');
      expect(raised.out.llm_tokens_per_day.limit).to.equal(config().quotaDefaults.llmTokensPerDay || null);
      const again = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hello'] } },
      });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      await waitForCall(t.testKey, again.body.id);
    });

    it('counts test-suite runs and analysis re-runs per day and refuses past the cap, naming the quota', async () => {
      const set = await svcctl(
        'quotas',
        'set',
        '--org',
        t.orgId,
        '--test-suite-runs-per-day',
        '1',
        '--analysis-reruns-per-day',
        '1',
      );
      expect(set.code, set.err).to.equal(0);
      const suite = await request('POST', `/v1/agents/${t.agentId}/test_suites`, {
        key: t.testKey,
        body: {
          name: 'One',
          scenarios: [
            {
              name: 'books a table',
              persona: 'Maria. FAKE_PERSONA: A table for two. | BYE Thanks, bye.',
              goal: 'Book a table.',
              rubric: 'FAKE_JUDGE:pass The assistant confirms.',
              max_turns: 3,
            },
          ],
        },
      });
      expect(suite.status, JSON.stringify(suite.body)).to.equal(200);
      const first = await request('POST', `/v1/test_suites/${suite.body.id}/runs`, { key: t.testKey, body: {} });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const second = await request('POST', `/v1/test_suites/${suite.body.id}/runs`, { key: t.testKey, body: {} });
      expect(second.status).to.equal(429);
      expect(second.body.error).to.include({ code: 'quota_exceeded', param: 'test_suite_runs_per_day' });

      const analysis = { analysis: { summary: true } };
      const one = await request('POST', `/v1/calls/${callId}/analyze`, { key: t.testKey, body: analysis });
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      const two = await request('POST', `/v1/calls/${callId}/analyze`, { key: t.testKey, body: analysis });
      expect(two.status).to.equal(429);
      expect(two.body.error).to.include({ code: 'quota_exceeded', param: 'analysis_reruns_per_day' });

      const account = (await request('GET', '/v1/account', { key: t.testKey })).body.quotas;
      expect(account.test_suite_runs_per_day).to.deep.equal({ limit: 1, used: 1 });
      expect(account.analysis_reruns_per_day).to.deep.equal({ limit: 1, used: 1 });
      const got = await svcctl('quotas', 'get', '--org', t.orgId);
      expect(got.out.test_suite_runs_per_day).to.deep.equal({ limit: 1, used: 1 });
    });

    it('counts concurrent token additions and takes of one day exactly: the first writes race to create the counter, no increment is lost', async () => {
      const { orgId } = await newTenant();
      const at = Date.now();
      await Org.updateOne({ _id: orgId }, { $set: { 'quotas.test_suite_runs_per_day': 5 } });
      const [adds, takes] = await Promise.all([
        Promise.allSettled(Array.from({ length: 40 }, (_, i) => addLlmTokens(orgId, 7 + (i % 3), at))),
        Promise.allSettled(Array.from({ length: 12 }, () => takeQuota(orgId, 'test_suite_runs_per_day', at))),
      ]);
      expect(adds.filter((r) => r.status === 'rejected')).to.deep.equal([]);
      expect(takes.filter((r) => r.status === 'fulfilled')).to.have.length(5);
      for (const r of takes.filter((r) => r.status === 'rejected'))
        expect((r as PromiseRejectedResult).reason).to.include({ status: 429, code: 'quota_exceeded' });
      const counter = (await QuotaCounter.findById(`${orgId}:${utcDay(at)}`).lean()) as Record<string, unknown>;
      const tokens = Array.from({ length: 40 }, (_, i) => 7 + (i % 3)).reduce((a, b) => a + b, 0);
      expect(counter).to.include({ llm_tokens: tokens, test_suite_runs: 5 });
    });

    it('svcctl refuses a malformed quota (exit 2) and changes nothing', async () => {
      for (const bad of ['-1', '1e3']) {
        const res = await svcctl('quotas', 'set', '--org', t.orgId, '--test-suite-runs-per-day', bad);
        expect(res.code, bad).to.equal(2);
        expect(res.err).to.include('--test-suite-runs-per-day');
      }
      expect((await svcctl('quotas', 'set', '--org', t.orgId)).code).to.equal(2);
      expect((await svcctl('quotas', 'get', '--org', t.orgId)).out.test_suite_runs_per_day.limit).to.equal(1);
    });
  });

  describe('metric labels', () => {
    it('never carry a model or a name the tenant chose: an unlisted model is counted as `other`', async () => {
      const name = 'Tenant Chosen Label Probe';
      const model = 'tenant-chosen-model-probe';
      const t = await newTenant({ name });
      // An agent stored before the list existed (or written around the API) names a model of its own.
      await Agent.updateOne({ _id: t.agentId }, { $set: { model } });
      for (const v of await AgentVersion.find({ agent_id: t.agentId }).lean()) {
        const cfg = JSON.parse(v.config_json);
        await AgentVersion.updateOne({ _id: v._id }, { $set: { config_json: JSON.stringify({ ...cfg, model }) } });
      }
      await endedCall(t.testKey, t.agentId);
      const text = await (await fetch(`${h().api.url}/metrics`)).text();
      expect(text).to.match(/svc_llm_tokens_total\{model="other",type="prompt"\} [1-9]/);
      expect(text).to.match(/svc_llm_request_duration_seconds_count\{model="other",outcome="ok"\} [1-9]/);
      for (const chosen of [model, name, t.agentId])
        expect(text.includes(chosen), `${chosen} in /metrics`).to.equal(false);
    });
  });
});
