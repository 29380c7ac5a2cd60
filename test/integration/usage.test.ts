/**
 * Usage end to end: `GET /v1/usage` over rows written by the real activities (calls through the real
 * Temporal dev server and worker, the fake LLM's `usage` fields, webhook attempts to a real HTTPS
 * receiver), and over rows stored directly through the model (day boundaries in time zones, modes).
 * Totals are checked exactly against what the API, the LLM and the receiver saw, and `daily` against
 * `totals`.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { MockActivityEnvironment } from '@temporalio/testing';
import { generateReply } from '../../src/activities/llm';
import { transitionCall } from '../../src/activities/calls';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { knowledgeSearchUsage, messageUsage, recordUsage, webhookAttemptUsage } from '../../src/services/usage';
import { Call, CallTurn } from '../../src/models/calls';
import { UsageRecord } from '../../src/models/usage';
import {
  h,
  newTenant,
  request,
  startWorkerProcess,
  stopWorkerProcess,
  waitForCall,
  waitForLocalActivity,
} from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint, eventually, placeCall, settled, sleep, type Tenant } from '../support/webhooks';

const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function usage(key: string, query = '') {
  const res = await request('GET', `/v1/usage${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Adds every numeric leaf of `b` into `a` (same shape). */
function addInto(a: any, b: any): any {
  for (const [k, v] of Object.entries(b)) {
    if (typeof v === 'number') a[k] = (a[k] ?? 0) + v;
    else if (v && typeof v === 'object') addInto((a[k] ??= {}), v);
  }
  return a;
}

/** The sum of the `daily` entries, without their dates: must equal `totals`. */
function sumOfDays(report: any): any {
  const sum = {};
  for (const { date: _date, ...m } of report.daily) addInto(sum, m);
  return sum;
}

/** LLM requests the fake LLM answered for `callIds`, and their tokens. */
function llmSeen(callIds: string[]) {
  const answered = h().llm.requests.filter((r) => callIds.includes(r.user!) && r.usage);
  return {
    requests: answered.length,
    prompt_tokens: answered.reduce((n, r) => n + r.usage!.prompt_tokens, 0),
    completion_tokens: answered.reduce((n, r) => n + r.usage!.completion_tokens, 0),
  };
}

/** Today ± 1 day in UTC: a period that holds everything a test just did, even across midnight. */
const aroundToday = () => `?from=${utcDate(Date.now() - DAY)}&to=${utcDate(Date.now() + DAY)}`;

describe('usage', function () {
  this.timeout(180_000);
  let receiver: HttpsReceiver;

  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver?.close();
  });

  it('adds up calls, LLM tokens and webhook attempts exactly, in totals and by day', async () => {
    const t = await newTenant({ first_message: 'Hello.', transfer_to: '+14155550199' });
    receiver.route('/usage-hooks', (_r, n) => (n === 1 ? { status: 500 } : { status: 200 }));
    await createWebhookEndpoint(receiver, t.testKey, '/usage-hooks', ['call.ended']);
    const bodies = [
      { simulation: { caller: ['Hi there', 'TOOL end_call {}'] } },
      { simulation: { caller: ['One', 'Two'], pause_seconds: 1 } },
      { simulation: { caller: ['TOOL transfer_call {}'] } },
      { simulation: { outcome: 'busy' } },
      { simulation: { outcome: 'no_answer' } },
    ];
    const ids: string[] = [];
    for (const body of bodies) ids.push((await placeCall(t, body)).id);
    const calls = await Promise.all(ids.map((id) => waitForCall(t.testKey, id)));
    expect(calls.map((c) => c.status)).to.deep.equal(['completed', 'completed', 'transferred', 'busy', 'no_answer']);

    // Every call.ended delivered (the first attempt of all answered 500 and was retried).
    const events = await eventually(async () => {
      const res = await request('GET', '/v1/events?type=call.ended&limit=100', { key: t.testKey });
      const mine = res.body.data as any[];
      return mine.length === ids.length && mine.every(settled) ? mine : undefined;
    }, 'the call.ended deliveries');
    const deliveries = events.flatMap((e) => e.webhook_deliveries);

    const report = await usage(t.testKey, aroundToday());
    expect(report).to.include({
      object: 'usage',
      livemode: false,
      timezone: 'UTC',
      from: utcDate(Date.now() - DAY),
      to: utcDate(Date.now() + DAY),
    });
    expect(report.as_of).to.be.closeTo(Date.now() / 1000, 30);
    const answered = calls.filter((c) => c.answered_at !== null);
    const talk = answered.reduce((n, c) => n + c.duration_seconds, 0);
    expect(talk, 'one call paused between lines').to.be.greaterThan(0);
    expect(report.totals.calls).to.deep.equal({
      count: 5,
      answered: 3,
      by_status: { completed: 2, transferred: 1, busy: 1, no_answer: 1, failed: 0, canceled: 0 },
      talk_seconds: talk,
      billable_minutes: answered.reduce((n, c) => n + Math.max(1, Math.ceil(c.duration_seconds / 60)), 0),
    });
    const llm = llmSeen(ids);
    expect(llm.requests, 'two lines, two lines, one line').to.equal(5);
    expect(llm.prompt_tokens).to.be.greaterThan(0);
    expect(report.totals.llm).to.deep.equal(llm);
    expect(report.totals.webhooks).to.deep.equal({ attempts: 6, succeeded: 5 });
    expect(report.totals.webhooks.attempts).to.equal(deliveries.reduce((n: number, d: any) => n + d.attempts, 0));
    expect(report.totals.messages).to.deep.equal({
      outbound: { sms: 0, whatsapp: 0, whatsapp_template: 0, web: 0 },
      inbound: { sms: 0, whatsapp: 0, web: 0 },
    });
    expect(report.totals.knowledge).to.deep.equal({ searches: 0 });

    expect(report.daily.map((d: any) => d.date)).to.deep.equal([-1, 0, 1].map((n) => utcDate(Date.now() + n * DAY)));
    expect(sumOfDays(report)).to.deep.equal(report.totals);
    // Each call on the UTC day it ended.
    for (const d of report.daily)
      expect(d.calls.count, d.date).to.equal(calls.filter((c) => utcDate(c.ended_at * 1000) === d.date).length);

    // The default period (this month up to today, UTC) holds the same.
    const month = await usage(t.testKey);
    expect(month.to).to.equal(utcDate(Date.now()));
    expect(month.from).to.equal(`${month.to.slice(0, 8)}01`);
    expect(month.daily).to.have.length(Number(month.to.slice(8)));
    expect(sumOfDays(month)).to.deep.equal(month.totals);
    if (utcDate(calls[0].created * 1000) === month.to) expect(month.totals).to.deep.equal(report.totals); // unless the test straddled midnight
  });

  it('counts a finished call within 5 s, and as soon as the API shows it ended', async () => {
    const t = await newTenant();
    const { id } = await placeCall(t, { simulation: { caller: ['Hi'] } });
    await waitForCall(t.testKey, id);
    expect((await usage(t.testKey, aroundToday())).totals.calls.count, 'counted when the call shows ended').to.equal(1);

    // And the delay from the end to the count, polled from the start of a second call.
    const second = await placeCall(t, { simulation: { caller: ['Hi'] } });
    const seenMs = await eventually(
      async () => ((await usage(t.testKey, aroundToday())).totals.calls.count === 2 ? Date.now() : undefined),
      'the second call in usage',
    );
    // The usage row is written before the call shows as ended (src/activities/calls.ts): wait for its end.
    const endedMs = await eventually(
      async () => (await Call.findById(second.id).lean())?.ended_ms,
      'the second call ended',
    );
    expect(seenMs - endedMs, 'end → usage (ms)').to.be.lessThan(5000);
  });

  it('writes each row once when an activity runs again (a retry after a crash)', async () => {
    const t = await newTenant();
    const { id } = await placeCall(t, { simulation: { caller: ['Hi'] } });
    await waitForCall(t.testKey, id);
    const before = await usage(t.testKey, aroundToday());
    expect(before.totals.calls.count).to.equal(1);
    expect(before.totals.llm.requests).to.equal(1);

    // The call's end recorded again, with the same input, as a retried activity would.
    const doc = (await Call.findById(id).lean())!;
    const env = new MockActivityEnvironment(
      { activityId: '99', workflowExecution: { workflowId: id, runId: 'retry-test' } },
      { client: h().env.client },
    );
    await env.run(transitionCall, {
      callId: id,
      atMs: doc.ended_ms!,
      patch: {
        status: doc.status,
        end_reason: doc.end_reason,
        transferred_to: doc.transferred_to,
        error_message: doc.error_message,
        ended_ms: doc.ended_ms,
      },
      events: [],
    });
    // One LLM request run twice as the same attempt, then retried as attempt 2 (it reached the provider
    // again: both answers cost tokens).
    const llmInput = { callId: id, model: null, messages: [{ role: 'user' as const, content: 'Again?' }], tools: [] };
    const attempt = (n: number) =>
      new MockActivityEnvironment({
        activityId: '7',
        attempt: n,
        workflowExecution: { workflowId: id, runId: 'retry-test' },
      });
    await attempt(1).run(generateReply, llmInput);
    await attempt(1).run(generateReply, llmInput);
    await attempt(2).run(generateReply, llmInput);
    expect(await UsageRecord.countDocuments({ _id: { $regex: `^llm:${id}:retry-test:7:` } })).to.equal(2);
    const after = await usage(t.testKey, aroundToday());
    expect(after.totals.calls).to.deep.equal(before.totals.calls);
    expect(after.totals.llm.requests).to.equal(3);
    const again = h().llm.requests.filter(
      (r) => r.user === id && r.messages.length === 1 && r.messages[0].content === 'Again?',
    );
    expect(again).to.have.length(3); // the provider saw three requests; two attempts are metered
    expect(after.totals.llm.prompt_tokens - before.totals.llm.prompt_tokens).to.equal(
      2 * again[0].usage!.prompt_tokens,
    );
  });

  it('does not count twice a call whose worker was killed in the middle', async () => {
    const queue = `svc-test-usage-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // calls placed now run on the child process's queue only
    let child: ChildProcess | undefined;
    try {
      child = await startWorkerProcess(queue);
      const t = await newTenant();
      const { id } = await placeCall(t, { simulation: { caller: ['one', 'two', 'three'], pause_seconds: 2 } });
      await eventually(async () => (await CallTurn.countDocuments({ call_id: id })) >= 2, 'the first exchange');
      await waitForLocalActivity(id, 'generateReply'); // recorded, so not run again (calls-crash.test.ts)
      await stopWorkerProcess(child, 'SIGKILL');
      await sleep(3000); // the pause ends while no worker runs
      child = await startWorkerProcess(queue);
      const ended = await waitForCall(t.testKey, id, undefined, 60_000);
      expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up' });

      const report = await usage(t.testKey, aroundToday());
      expect(report.totals.calls).to.include({ count: 1, answered: 1, talk_seconds: ended.duration_seconds });
      expect(report.totals.calls.by_status.completed).to.equal(1);
      expect(report.totals.llm).to.deep.equal(llmSeen([id]));
      expect(report.totals.llm.requests, 'one LLM request per caller line').to.equal(3);
      expect(sumOfDays(report)).to.deep.equal(report.totals);
    } finally {
      setConfig(saved);
      await stopWorkerProcess(child, 'SIGTERM');
    }
  });

  it('counts once a call whose run an operator terminated, ended by the reconciler', async () => {
    const t = await newTenant();
    const { id } = await placeCall(t, { simulation: { caller: ['a', 'b'], pause_seconds: 60 } });
    await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
    await h().env.client.workflow.getHandle(id).terminate('usage test');
    await h().env.client.schedule.getHandle('call-reconciler').trigger();
    const ended = await waitForCall(t.testKey, id, undefined, 30_000);
    expect(ended).to.include({ status: 'failed', end_reason: 'error' });
    await h().env.client.schedule.getHandle('call-reconciler').trigger();
    await sleep(2000);
    const report = await usage(t.testKey, aroundToday());
    expect(report.totals.calls).to.deep.equal({
      count: 1,
      answered: 1,
      by_status: { completed: 0, transferred: 0, busy: 0, no_answer: 0, failed: 1, canceled: 0 },
      talk_seconds: ended.duration_seconds,
      billable_minutes: Math.max(1, Math.ceil(ended.duration_seconds / 60)),
    });
  });

  describe('rows stored directly', () => {
    let t: Tenant;
    let other: Tenant;
    const at = (isoTime: string) => Date.parse(isoTime);
    const message = (
      tenant: Tenant,
      n: string,
      occurredMs: number,
      extra: Partial<Parameters<typeof messageUsage>[0]> = {},
    ) =>
      recordUsage(
        messageUsage({
          orgId: tenant.orgId,
          livemode: false,
          messageId: `msg_${tenant.orgId}_${n}`,
          channel: 'sms',
          direction: 'outbound',
          template: false,
          occurredMs,
          ...extra,
        }),
      );

    before(async () => {
      t = await newTenant();
      other = await newTenant();
      // Around New York's spring-forward day (2026-03-08, 23 hours: 05:00Z to 04:00Z next day).
      await message(t, 'a', at('2026-03-08T04:59:59.999Z')); // NY 03-07 23:59:59.999
      await message(t, 'b', at('2026-03-08T05:00:00.000Z')); // NY 03-08 00:00
      await message(t, 'c', at('2026-03-09T03:59:59.999Z'), { channel: 'whatsapp', template: true }); // NY 03-08 23:59:59.999 EDT
      await message(t, 'd', at('2026-03-09T04:00:00.000Z'), { channel: 'whatsapp', direction: 'inbound' }); // NY 03-09 00:00
      // Around the fall-back day (2026-11-01, 25 hours: 04:00Z to 05:00Z next day).
      await recordUsage(
        knowledgeSearchUsage({
          orgId: t.orgId,
          livemode: false,
          key: `${t.orgId}:k1`,
          subjectId: t.agentId,
          occurredMs: at('2026-11-02T04:30:00.000Z'),
        }),
      ); // NY 11-01 23:30 EST
      await recordUsage(
        knowledgeSearchUsage({
          orgId: t.orgId,
          livemode: false,
          key: `${t.orgId}:k2`,
          subjectId: t.agentId,
          occurredMs: at('2026-11-02T05:00:00.000Z'),
        }),
      ); // NY 11-02 00:00
      // Live mode: a webhook attempt, and one of another organization's in test mode.
      const delivery = (tenant: Tenant, livemode: boolean) => ({
        deliveryId: `evt_x:we_${tenant.orgId}`,
        eventId: 'evt_x',
        eventType: 'call.ended',
        endpointId: 'we_x',
        orgId: tenant.orgId,
        livemode,
        trigger: 'automatic' as const,
        retry: { initialIntervalMs: 1, maximumIntervalMs: 1, windowMs: 1 },
        requestedMs: 0,
      });
      await recordUsage(webhookAttemptUsage(delivery(t, true), 1, at('2026-03-08T12:00:00Z'), true));
      await recordUsage(webhookAttemptUsage(delivery(other, false), 1, at('2026-03-08T12:00:00Z'), true));
    });

    it('stores a row once whatever the retries', async () => {
      expect(await message(t, 'a', at('2026-03-08T04:59:59.999Z'))).to.equal(false);
      expect(await UsageRecord.countDocuments({ _id: `msg:msg_${t.orgId}_a` })).to.equal(1);
    });

    it('counts each row on its local day, with 23- and 25-hour days', async () => {
      const ny = await usage(t.testKey, '?from=2026-03-07&to=2026-03-09&timezone=America/New_York');
      expect(ny.timezone).to.equal('America/New_York');
      expect(
        ny.daily.map((d: any) => [
          d.date,
          d.messages.outbound.sms,
          d.messages.outbound.whatsapp_template,
          d.messages.inbound.whatsapp,
        ]),
      ).to.deep.equal([
        ['2026-03-07', 1, 0, 0],
        ['2026-03-08', 1, 1, 0],
        ['2026-03-09', 0, 0, 1],
      ]);
      expect(ny.totals.messages).to.deep.equal({
        outbound: { sms: 2, whatsapp: 0, whatsapp_template: 1, web: 0 },
        inbound: { sms: 0, whatsapp: 1, web: 0 },
      });
      expect(sumOfDays(ny)).to.deep.equal(ny.totals);

      const utc = await usage(t.testKey, '?from=2026-03-07&to=2026-03-09');
      expect(
        utc.daily.map(
          (d: any) => d.messages.outbound.sms + d.messages.outbound.whatsapp_template + d.messages.inbound.whatsapp,
        ),
      ).to.deep.equal([0, 2, 2]);

      const fall = await usage(t.testKey, '?from=2026-11-01&to=2026-11-02&timezone=America/New_York');
      expect(fall.daily.map((d: any) => d.knowledge.searches)).to.deep.equal([1, 1]);
      const kolkata = await usage(t.testKey, '?from=2026-11-01&to=2026-11-02&timezone=Asia/Kolkata'); // +05:30: both on 11-02
      expect(kolkata.daily.map((d: any) => d.knowledge.searches)).to.deep.equal([0, 2]);
      // The first day alone ends where the second begins: the row at its last millisecond is in, the next one is out.
      const one = await usage(t.testKey, '?from=2026-03-08&to=2026-03-08&timezone=America/New_York');
      expect(one.totals.messages.outbound).to.deep.equal({ sms: 1, whatsapp: 0, whatsapp_template: 1, web: 0 });
    });

    it('keeps test and live usage, and organizations, apart', async () => {
      const test = await usage(t.testKey, '?from=2026-03-08&to=2026-03-08');
      const live = await usage(t.liveKey, '?from=2026-03-08&to=2026-03-08');
      expect(test).to.include({ livemode: false });
      expect(live).to.include({ livemode: true });
      expect(test.totals.webhooks).to.deep.equal({ attempts: 0, succeeded: 0 });
      expect(live.totals.webhooks).to.deep.equal({ attempts: 1, succeeded: 1 });
      expect(live.totals.messages.outbound.sms, 'test rows are not live').to.equal(0);
      expect(test.totals.messages.outbound.sms).to.equal(2);
      const theirs = await usage(other.testKey, '?from=2026-03-08&to=2026-03-08');
      expect(theirs.totals.webhooks).to.deep.equal({ attempts: 1, succeeded: 1 });
      expect(theirs.totals.messages.outbound.sms, "another organization's rows").to.equal(0);
    });
  });

  describe('bad requests', () => {
    let t: Tenant;
    before(async () => {
      t = await newTenant();
    });
    const cases: [string, string, string][] = [
      ['?from=2026-02-30', 'parameter_invalid', 'from'],
      ['?from=2026-1-1', 'parameter_invalid', 'from'],
      ['?to=tomorrow', 'parameter_invalid', 'to'],
      ['?from=2026-03-02&to=2026-03-01', 'parameter_invalid', 'from'],
      ['?from=2024-01-01&to=2025-01-01', 'parameter_invalid', 'to'],
      ['?to=1999-01-01', 'parameter_invalid', 'to'],
      ['?timezone=Mars/Olympus', 'parameter_invalid', 'timezone'],
      ['?from=2026-01-01&from=2026-01-02', 'parameter_invalid', 'from'],
      ['?start=2026-01-01', 'parameter_unknown', 'start'],
    ];
    for (const [query, code, param] of cases) {
      it(`400 ${code} ${param} for ${query}`, async () => {
        const res = await request('GET', `/v1/usage${query}`, { key: t.testKey });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ type: 'invalid_request_error', code, param });
        expect(res.body.error.message).to.be.a('string').and.not.be.empty;
      });
    }

    it('needs the usage:read scope', async () => {
      const calls = await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['calls:read'] });
      const denied = await request('GET', '/v1/usage', { key: calls.key });
      expect(denied.status).to.equal(403);
      expect(denied.body.error).to.include({ type: 'permission_error', code: 'scope_missing' });
      const reader = await createKey({ orgId: t.orgId, mode: 'test', kind: 'restricted', scopes: ['usage:read'] });
      expect((await usage(reader.key, '?from=2024-01-01&to=2024-12-31')).daily).to.have.length(366);
      expect((await request('GET', '/v1/usage')).status).to.equal(401);
    });
  });
});
