/**
 * `GET /v1/account`: the key's organization in the key's mode, with its concurrency
 * limit (default 10 in each mode; a limit set for one mode shows in that mode only); every secret and
 * restricted key may read it, a publishable key may not, no key is 401.
 */
import { expect } from 'chai';
import { config } from '../../src/config';
import { createKey } from '../../src/keys';
import { DEFAULT_MAX_CONCURRENT_CALLS, orgCallLimit, setOrgCallLimit } from '../../src/services/limits';
import { orgCallsPerSecond, setOrgCallsPerSecond } from '../../src/services/dial-pace';
import { privacySettings } from '../../src/services/privacy';
import { recordingRetention, setRecordingRetention } from '../../src/services/recordings';
import { newTenant, request } from '../support/harness';

/** The message `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('GET /v1/account', function () {
  this.timeout(30_000);

  it('shows the organization, its mode and its limits, 10 by default', async () => {
    const t = await newTenant();
    const test = await request('GET', '/v1/account', { key: t.testKey });
    expect(test.status, JSON.stringify(test.body)).to.equal(200);
    expect(test.body).to.deep.equal({
      id: t.orgId,
      object: 'account',
      name: t.org.name,
      livemode: false,
      mode: 'test',
      limits: { max_concurrent_calls: 10, calls_per_second: 1 },
      quotas: {
        llm_tokens_per_day: { limit: config().quotaDefaults.llmTokensPerDay, used: 0 },
        test_suite_runs_per_day: { limit: config().quotaDefaults.testSuiteRunsPerDay, used: 0 },
        analysis_reruns_per_day: { limit: config().quotaDefaults.analysisRerunsPerDay, used: 0 },
        resets_at: test.body.quotas.resets_at,
      },
      retention: {
        transcripts_days: null,
        messages_days: null,
        recordings_days: null,
        analyses_days: null,
        events_days: null,
      },
      redaction: { enabled: false },
      payments: { connector: null },
      ai_disclosure: true,
      calling_hours: null,
      // A test-mode organization without numbers may call every country (src/services/dialing-permissions.ts).
      dialing_permissions: {
        allowed_countries: null,
        allowed_countries_source: 'test_mode',
        sip_domains: [],
        allowed_number_types: [],
      },
    });
    const live = await request('GET', '/v1/account', { key: t.liveKey });
    expect(live.body).to.include({ id: t.orgId, livemode: true, mode: 'live' });
    expect(live.body.limits).to.deep.equal({ max_concurrent_calls: DEFAULT_MAX_CONCURRENT_CALLS, calls_per_second: 1 });
  });

  it('shows a limit set for one mode in that mode only', async () => {
    const t = await newTenant();
    expect(await setOrgCallLimit(t.orgId, 'live', 3)).to.deep.equal({
      object: 'limits',
      org: t.orgId,
      mode: 'live',
      max_concurrent_calls: 3,
    });
    expect((await request('GET', '/v1/account', { key: t.liveKey })).body.limits).to.deep.equal({
      max_concurrent_calls: 3,
      calls_per_second: 1,
    });
    expect((await request('GET', '/v1/account', { key: t.testKey })).body.limits).to.deep.equal({
      max_concurrent_calls: 10,
      calls_per_second: 1,
    });
    expect(await orgCallLimit({ orgId: t.orgId, livemode: true })).to.equal(3);
    expect(await orgCallLimit({ orgId: t.orgId, livemode: false })).to.equal(10);
    expect(await orgCallLimit({ orgId: 'org_missing', livemode: true })).to.equal(10);
  });

  it('shows the calls per second the operator set (svcctl pace set), read-only, refusing 0 and fractions', async () => {
    const t = await newTenant();
    expect(await setOrgCallsPerSecond(t.orgId, 5)).to.deep.equal({ object: 'pace', org: t.orgId, calls_per_second: 5 });
    expect((await request('GET', '/v1/account', { key: t.liveKey })).body.limits).to.include({ calls_per_second: 5 });
    expect(await orgCallsPerSecond(t.orgId)).to.deep.equal({ object: 'pace', org: t.orgId, calls_per_second: 5 });
    expect(await rejection(setOrgCallsPerSecond(t.orgId, 0))).to.contain(
      'calls_per_second must be an integer from 1 to 100',
    );
    expect(await rejection(setOrgCallsPerSecond(t.orgId, 1.5))).to.contain('got 1.5');
    expect(await rejection(setOrgCallsPerSecond('org_missing', 2))).to.contain('No such organization');
    const posted = await request('POST', '/v1/account', { key: t.liveKey, body: { calls_per_second: 50 } });
    expect(posted.status, 'not settable through the API').to.equal(400);
    expect((await request('GET', '/v1/account', { key: t.liveKey })).body.limits).to.include({ calls_per_second: 5 });
  });

  it('refuses a limit outside 1–1000 or for an unknown organization, writing nothing', async () => {
    const t = await newTenant();
    for (const n of [0, 1001, 2.5, NaN])
      expect(await rejection(setOrgCallLimit(t.orgId, 'test', n)), String(n)).to.contain('integer from 1 to 1000');
    expect(await rejection(setOrgCallLimit('org_missing', 'test', 5))).to.equal('No such organization: org_missing');
    expect(await orgCallLimit({ orgId: t.orgId, livemode: false })).to.equal(10);
  });

  it('is read by any restricted key, refused to a publishable key, 401 without a key', async () => {
    const t = await newTenant();
    const restricted = await createKey({ orgId: t.orgId, mode: 'live', kind: 'restricted', scopes: ['calls:read'] });
    const read = await request('GET', '/v1/account', { key: restricted.key });
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body).to.include({ id: t.orgId, mode: 'live' });

    const publishable = await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' });
    const refused = await request('GET', '/v1/account', { key: publishable.key });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('scope_missing');

    const anonymous = await request('GET', '/v1/account');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('api_key_missing');

    const query = await request('GET', '/v1/account?expand=x', { key: t.testKey });
    expect(query.status).to.equal(400);
    expect(query.body.error).to.include({ code: 'parameter_unknown', param: 'expand' });
  });
});

describe('POST /v1/account (retention and redaction)', function () {
  this.timeout(30_000);

  it('shows no retention and no redaction by default, then sets them per mode, unset fields unchanged', async () => {
    const t = await newTenant();
    const initial = await request('GET', '/v1/account', { key: t.testKey });
    expect(initial.body.retention).to.deep.equal({
      transcripts_days: null,
      messages_days: null,
      recordings_days: null,
      analyses_days: null,
      events_days: null,
    });
    expect(initial.body.redaction).to.deep.equal({ enabled: false });
    const set = await request('POST', '/v1/account', {
      key: t.testKey,
      body: { retention: { transcripts_days: 30, events_days: 7 }, redaction: { enabled: true } },
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body.retention).to.include({ transcripts_days: 30, events_days: 7, messages_days: null });
    expect(set.body.redaction).to.deep.equal({ enabled: true });
    const again = await request('POST', '/v1/account', {
      key: t.testKey,
      body: { retention: { transcripts_days: null, messages_days: 3650 } },
    });
    expect(again.body.retention).to.deep.equal({
      transcripts_days: null,
      messages_days: 3650,
      recordings_days: null,
      analyses_days: null,
      events_days: 7,
    });
    expect(again.body.redaction).to.deep.equal({ enabled: true });
    expect(await privacySettings({ orgId: t.orgId, livemode: false })).to.deep.equal({
      retention: again.body.retention,
      redaction: { enabled: true },
    });
    // The live mode is untouched.
    const live = await request('GET', '/v1/account', { key: t.liveKey });
    expect(live.body.retention.events_days).to.equal(null);
    expect(live.body.redaction).to.deep.equal({ enabled: false });
    expect((await privacySettings({ orgId: t.orgId, livemode: true })).redaction.enabled).to.equal(false);
  });

  it('refuses days outside 1–3650, unknown fields, and keys that are not secret, writing nothing', async () => {
    const t = await newTenant();
    for (const [body, param] of [
      [{ retention: { transcripts_days: 0 } }, 'retention.transcripts_days'],
      [{ retention: { recordings_days: 3651 } }, 'retention.recordings_days'],
      [{ retention: { messages_days: 1.5 } }, 'retention.messages_days'],
      [{ retention: { analyses_days: '30' } }, 'retention.analyses_days'],
      [{ redaction: { enabled: 'yes' } }, 'redaction.enabled'],
    ] as const) {
      const r = await request('POST', '/v1/account', {
        key: t.testKey,
        body: { ...body, retention: { ...((body as { retention?: object }).retention ?? {}), events_days: 5 } },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(400);
      expect(r.body.error).to.include({ code: 'parameter_invalid', param });
    }
    const unknown = await request('POST', '/v1/account', { key: t.testKey, body: { retention: { calls_days: 3 } } });
    expect(unknown.body.error).to.include({ code: 'parameter_unknown', param: 'retention.calls_days' });
    expect((await request('GET', '/v1/account', { key: t.testKey })).body.retention.events_days).to.equal(null);
    const restricted = await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['calls:write'] });
    const refused = await request('POST', '/v1/account', {
      key: restricted.key,
      body: { redaction: { enabled: true } },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('scope_missing');
  });

  it("sets the organization's calling hours for both modes, clears them with null, and refuses a bad window", async () => {
    const t = await newTenant();
    const set = await request('POST', '/v1/account', {
      key: t.testKey,
      body: { calling_hours: { start: '10:00', end: '18:00' } },
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body.calling_hours).to.deep.equal({ start: '10:00', end: '18:00' });
    expect((await request('GET', '/v1/account', { key: t.liveKey })).body.calling_hours).to.deep.equal({
      start: '10:00',
      end: '18:00',
    });
    for (const bad of [{ start: '18:00', end: '10:00' }, { start: '8am', end: '18:00' }, { start: '10:00' }]) {
      const res = await request('POST', '/v1/account', { key: t.testKey, body: { calling_hours: bad } });
      expect(res.status, JSON.stringify(bad)).to.equal(400);
      expect(res.body.error.param).to.match(/^calling_hours/);
    }
    const cleared = await request('POST', '/v1/account', { key: t.testKey, body: { calling_hours: null } });
    expect(cleared.body.calling_hours).to.equal(null);
  });

  it('is one source of truth with svcctl recordings set-retention (recordings_days in both modes)', async () => {
    const t = await newTenant();
    await setRecordingRetention(t.orgId, 12);
    for (const key of [t.testKey, t.liveKey])
      expect((await request('GET', '/v1/account', { key })).body.retention.recordings_days).to.equal(12);
    await request('POST', '/v1/account', { key: t.liveKey, body: { retention: { recordings_days: 4 } } });
    expect((await recordingRetention(t.orgId)).recording_retention_days).to.equal(4);
  });
});
