/**
 * Operator metrics and what is built on them: the gauges read from the store at scrape time
 * (calls not ended, webhook backlog, campaigns) and their outage rule, `svc_build_info`, messages and
 * hand-overs, the store's command latency, 429s by key id, Twilio request timing, route labels of
 * requests refused before their route ran; and deploy/'s Prometheus alert rules and Grafana dashboard, whose every PromQL expression is
 * parsed with the Prometheus project's own grammar (@prometheus-io/lezer-promql) and may name only
 * metrics this service exports (its registry, and the Temporal SDK's metrics in a real scrape).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import YAML from 'yaml';
import { parser } from '@prometheus-io/lezer-promql';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { registry, twilioRequestErrors } from '../../src/platform/metrics';
import { READING_WAIT_MS, StoreReading } from '../../src/platform/store-gauges';
import { measureTwilio, twilioResource } from '../../src/providers/twilio';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { inbound } from '../support/conversations';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const ROOT = path.resolve(__dirname, '../../..');

async function scrape(): Promise<string> {
  const res = await fetch(`${h().api.url}/metrics`);
  expect(res.status).to.equal(200);
  return res.text();
}

/** Value of the sample `name{labels…}` whose labels include `labels` (summed), from raw sample lines. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let found: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) found = (found ?? 0) + Number(m[4]);
  }
  return found;
}

async function eventually<T>(until: () => Promise<T | undefined | false>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await until();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The series names a family of `type` exposes (`x` → `x_bucket`, `x_sum`, `x_count` for a histogram). */
function seriesNames(name: string, type: string): string[] {
  const t = type.toLowerCase();
  if (t === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (t === 'summary') return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

/** Every PromQL expression of deploy/: the alert rules' `expr`, the dashboard's targets' `expr`. */
function deployExpressions(): { where: string; expr: string }[] {
  const rules = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8'));
  const out: { where: string; expr: string }[] = [];
  for (const group of rules.groups) {
    for (const rule of group.rules) {
      expect(rule.alert ?? rule.record, 'every rule is named').to.be.a('string');
      expect(rule.for ?? '0s', `${rule.alert}: for`).to.match(/^(\d+[smhdwy])+$/);
      if (rule.alert) expect(rule.annotations?.summary, `${rule.alert}: summary`).to.be.a('string');
      out.push({ where: `alerts.yml ${rule.alert ?? rule.record}`, expr: String(rule.expr) });
    }
  }
  const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/grafana/svc-assistant.json'), 'utf8'));
  const panels = (dashboard.panels as any[]).flatMap((p) => [p, ...(p.panels ?? [])]);
  for (const p of panels)
    for (const t of p.targets ?? []) out.push({ where: `dashboard "${p.title}" ${t.refId}`, expr: String(t.expr) });
  return out;
}

/**
 * Parses `expr` (Grafana's `$__rate_interval` read as a duration) with the Prometheus grammar.
 * @returns the metric names its selectors name, with the label names each selector matches on
 * @throws when the expression does not parse, or a selector names no metric (`{__name__=…}` alone)
 */
function parsePromQL(expr: string): { metric: string; labels: string[] }[] {
  const text = expr.replaceAll('$__rate_interval', '5m');
  const tree = parser.parse(text);
  const selectors: { metric: string; labels: string[] }[] = [];
  const errors: number[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      if (node.name !== 'VectorSelector') return;
      const name = node.node.getChild('Identifier');
      if (!name) throw new Error(`a selector without a metric name in: ${expr}`);
      const labels: string[] = [];
      const matchers = node.node.getChild('LabelMatchers');
      matchers?.toTree().iterate({
        enter(m) {
          if (m.name === 'LabelName') labels.push(text.slice(matchers.from + m.from, matchers.from + m.to));
        },
      });
      selectors.push({ metric: text.slice(name.from, name.to), labels });
    },
  });
  if (errors.length) throw new Error(`PromQL syntax error at ${errors[0]}: ${text}`);
  return selectors;
}

describe('monitoring', function () {
  this.timeout(120_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  let receiver: HttpsReceiver;
  let endpointId: string;

  before(async () => {
    receiver = await startHttpsReceiver();
    receiver.route('/down', () => ({ status: 500 })); // every delivery stays pending, retrying
    t = await newTenant({ name: 'Monitoring Assistant' });
    const endpoint = await request('POST', '/v1/webhook-endpoints', {
      key: t.testKey,
      body: { url: receiver.url('/down'), events: ['call.ended'] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(200);
    endpointId = endpoint.body.id;
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550177', agent_id: t.agentId },
    });
    expect(call.status, JSON.stringify(call.body)).to.equal(200);
    await waitForCall(t.testKey, call.body.id);
  });

  after(async () => {
    // A deleted endpoint: its pending deliveries end as canceled at their next attempt.
    if (endpointId) await request('DELETE', `/v1/webhook-endpoints/${endpointId}`, { key: t.testKey });
    await receiver?.close();
  });

  describe('/metrics', () => {
    it('reads the webhook backlog, calls not ended and campaigns from the store at scrape time', async () => {
      await receiver.waitFor((r) => r.some((w) => w.path === '/down'), 30_000, 'a failing delivery');
      const text = await eventually(async () => {
        const s = await scrape();
        return (sample(s, 'svc_webhook_backlog') ?? 0) >= 1 && s;
      }, 'a pending delivery in svc_webhook_backlog');
      expect(sample(text, 'svc_webhook_backlog_oldest_age_seconds')).to.be.greaterThan(0);
      for (const status of ['queued', 'ringing', 'in_progress'])
        for (const direction of ['inbound', 'outbound'])
          for (const mode of ['test', 'live'])
            expect(
              sample(text, 'svc_calls_active', { status, direction, mode }),
              `${status} ${direction} ${mode}`,
            ).to.be.a('number');
      for (const status of ['pending', 'in_progress', 'completed', 'not_reached', 'failed', 'skipped'])
        expect(sample(text, 'svc_bulk_call_contacts', { status }), status).to.be.at.least(0);
      expect(sample(text, 'svc_bulk_calls_active', { status: 'running' })).to.be.at.least(0);
    });

    it('says what runs in svc_build_info: version, commit, API version, Node.js version', async () => {
      const families = parsePrometheusTextFormat(await scrape());
      const info = families.find((f) => f.name === 'svc_build_info');
      expect(info?.type).to.equal('GAUGE');
      const labels = (info!.metrics[0] as { labels: Record<string, string> }).labels;
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
      expect(labels).to.include({ version: pkg.version, node_version: process.version, api_version: '2026-10-04' });
      expect(labels.commit).to.match(/^([0-9a-f]{40}|unknown)$/);
    });

    it("times the store's commands and labels requests refused before their route ran with that route", async () => {
      const refusals = [
        // 415: a body that is not JSON, refused before any parser
        await fetch(`${h().api.url}/v1/calls`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${t.testKey}` },
          body: 'to=+14155550177',
        }),
        // 401: a key that does not exist, refused by authentication
        await fetch(`${h().api.url}/v1/calls/call_01jx0000000000000000000000`, {
          headers: { Authorization: 'Bearer svc_sk_test_00000000000000000000000000000000' },
        }),
        // 403: a Twilio callback without a valid signature
        await fetch(`${h().api.url}/twilio/status/call_01jx0000000000000000000000`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'CallStatus=completed',
        }),
        // 404: no route at all
        await fetch(`${h().api.url}/no-such-thing`),
      ];
      expect(refusals.map((r) => r.status)).to.deep.equal([415, 401, 403, 404]);
      await new Promise((r) => setTimeout(r, 100)); // the samples are taken on 'finish'
      const text = await scrape();
      const count = (method: string, route: string, status: string) =>
        sample(text, 'svc_http_request_duration_seconds_count', { method, route, status });
      expect(count('POST', '/v1/calls', '415')).to.be.at.least(1);
      expect(count('GET', '/v1/calls/:id', '401')).to.be.at.least(1);
      expect(count('POST', '/twilio/status/:callId', '403')).to.be.at.least(1);
      expect(count('GET', 'unmatched', '404')).to.be.at.least(1);

      expect(
        sample(text, 'svc_store_command_duration_seconds_count', { command: 'find', outcome: 'ok' }),
      ).to.be.greaterThan(0);
      expect(
        sample(text, 'svc_store_command_duration_seconds_count', { command: 'insert', outcome: 'ok' }),
      ).to.be.greaterThan(0);
    });

    it('counts inbound messages and hand-overs to a person', async () => {
      const before =
        sample(await scrape(), 'svc_conversation_handovers_total', { channel: 'whatsapp', mode: 'test' }) ?? 0;
      const res = await inbound(t.testKey, {
        channel: 'whatsapp',
        from: '+14155550180',
        text: 'TOOL handoff_to_person {"reason":"asks for a human"}', // the fake model calls the tool
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const text = await eventually(async () => {
        const s = await scrape();
        return (
          (sample(s, 'svc_conversation_handovers_total', { channel: 'whatsapp', mode: 'test' }) ?? 0) > before && s
        );
      }, 'the hand-over counted');
      expect(
        sample(text, 'svc_messages_total', {
          channel: 'whatsapp',
          direction: 'inbound',
          status: 'received',
          mode: 'test',
        }),
      ).to.be.at.least(1);
    });

    it('counts messages by channel, direction and status', async () => {
      const sent = await request('POST', '/v1/messages', {
        key: t.testKey,
        body: { channel: 'sms', to: '+14155550179', text: 'Your appointment is at 3 pm.' },
      });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      // Test mode simulates the provider: sent, then delivered.
      await eventually(async () => {
        const text = await scrape();
        const labels = { channel: 'sms', direction: 'outbound', mode: 'test' };
        return (
          (sample(text, 'svc_messages_total', { ...labels, status: 'sent' }) ?? 0) >= 1 &&
          (sample(text, 'svc_messages_total', { ...labels, status: 'delivered' }) ?? 0) >= 1
        );
      }, 'the message counted as sent and delivered');
    });

    it("counts 429s by the key's id, never the key", async () => {
      const key = await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' });
      const saved = config();
      setConfig({ ...saved, apiRateLimit: 1, apiRateLimitWindowMs: 60_000 });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await request('GET', '/v1/agents', { key: key.key })).status);
        expect(statuses).to.include(429);
      } finally {
        setConfig(saved);
      }
      const text = await scrape();
      expect(sample(text, 'svc_rate_limited_total', { limit: 'api_key', key_id: key.id })).to.be.at.least(1);
      expect(text).to.not.contain(key.key);
    });

    it('never fails a scrape on the store: a failed or slow reading serves the last value', async () => {
      let answer: () => Promise<number> = async () => 7;
      const reading = new StoreReading('test', () => answer());
      expect(await reading.get()).to.equal(7);
      (reading as unknown as { nextReadMs: number }).nextReadMs = 0; // past the TTL
      answer = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:27017'));
      expect(await reading.get()).to.equal(7);
      (reading as unknown as { nextReadMs: number }).nextReadMs = 0;
      answer = () => new Promise(() => undefined); // a store that never answers
      const started = Date.now();
      expect(await reading.get()).to.equal(7);
      expect(Date.now() - started, 'at the wait, not never').to.be.lessThan(READING_WAIT_MS + 2_000);
      expect(await new StoreReading('test', () => Promise.reject(new Error('down'))).get()).to.equal(undefined);
      const text = await registry.metrics();
      expect(sample(text, 'svc_store_reading_failures_total', { reading: 'test' })).to.be.at.least(2);
    });

    it("times Twilio's REST requests by resource and counts the failed ones", async () => {
      const sid = 'AC' + '0'.repeat(32);
      expect(
        twilioResource(`https://api.twilio.com/2010-04-01/Accounts/${sid}/Calls/CA${'1'.repeat(32)}.json`),
      ).to.equal('Calls');
      expect(twilioResource(`https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json`)).to.equal('Messages');
      expect(
        twilioResource(`http://127.0.0.1:9/2010-04-01/Accounts/${sid}/Recordings/RE${'2'.repeat(32)}.wav`),
      ).to.equal('Recordings');
      const errors = async () =>
        ((await twilioRequestErrors.get()).values.find(
          (v) => v.labels.resource === 'Queues' && v.labels.status === 'network',
        )?.value ?? 0) as number;
      const before = await errors();
      const url = `https://api.twilio.com/2010-04-01/Accounts/${sid}/Queues.json`;
      await measureTwilio(
        'post',
        url,
        () => Promise.reject(new Error('socket hang up')),
        () => 0,
      ).catch(() => undefined);
      expect(
        await measureTwilio(
          'get',
          url,
          async () => ({ statusCode: 200 }),
          (r) => r.statusCode,
        ),
      ).to.deep.equal({
        statusCode: 200,
      });
      expect(await errors()).to.equal(before + 1);
      const text = await registry.metrics();
      expect(
        sample(text, 'svc_twilio_request_duration_seconds_count', { method: 'GET', resource: 'Queues', status: '200' }),
      ).to.equal(1);
    });
  });

  describe('deploy/: Prometheus alert rules and the Grafana dashboard', () => {
    it('parse as PromQL and name only metrics, and labels, the service exports', async () => {
      // What the service exports: its registry (every family, observed or not) and a real scrape (the
      // Temporal SDK's families, present once the worker has run workflows and activities).
      const exported = new Map<string, string[]>();
      // The registry holds the metric objects themselves (prom-client types them as plain descriptions).
      type Declared = { get(): Promise<{ name: string; type: string }>; labelNames: string[] };
      for (const metric of registry.getMetricsAsArray() as unknown as Declared[]) {
        const { name, type } = await metric.get();
        const labels = metric.labelNames;
        for (const n of seriesNames(name, String(type))) exported.set(n, [...labels, 'le', 'quantile']);
      }
      // Labels of a family come from the registry's declaration; a label-less registry entry (default
      // metrics) and the SDK's families accept any label their samples carry.
      const text = await scrape();
      for (const line of text.split('\n')) {
        const m = /^# TYPE (\S+) (\S+)$/.exec(line);
        if (m) for (const n of seriesNames(m[1], m[2])) if (!exported.has(n)) exported.set(n, []);
      }
      for (const line of text.split('\n')) {
        const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} /.exec(line);
        if (!m || m[1].startsWith('svc_')) continue;
        const labels = exported.get(m[1]) ?? [];
        for (const l of m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) if (!labels.includes(l[1])) labels.push(l[1]);
        exported.set(m[1], labels);
      }
      expect(
        exported.has('temporal_activity_schedule_to_start_latency_bucket'),
        'the SDK metrics are in the scrape',
      ).to.equal(true);

      const expressions = deployExpressions();
      expect(expressions.length).to.be.greaterThan(20);
      const problems: string[] = [];
      const named = new Set<string>();
      for (const { where, expr } of expressions) {
        let selectors: { metric: string; labels: string[] }[];
        try {
          selectors = parsePromQL(expr);
        } catch (err) {
          problems.push(`${where}: ${(err as Error).message}`);
          continue;
        }
        if (!selectors.length) problems.push(`${where}: names no metric`);
        for (const s of selectors) {
          named.add(s.metric);
          const labels = exported.get(s.metric);
          if (!labels) problems.push(`${where}: ${s.metric} is not exported`);
          else
            for (const l of s.labels) if (!labels.includes(l)) problems.push(`${where}: ${s.metric} has no label ${l}`);
        }
      }
      expect(problems).to.deep.equal([]);
      // The alerts the issue asks for, on the metrics they are about.
      for (const metric of [
        'svc_webhook_backlog_oldest_age_seconds',
        'svc_calls_total',
        'svc_llm_request_duration_seconds_count',
        'temporal_activity_schedule_to_start_latency_bucket',
      ])
        expect([...named], metric).to.include(metric);
      // A typo is caught: the check is not vacuous.
      expect(() => parsePromQL('sum(rate(svc_calls_total[5m])')).to.throw(/syntax error/);
    });
  });
});
