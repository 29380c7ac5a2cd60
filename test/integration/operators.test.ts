/**
 * What operators see: `GET /metrics` (Prometheus text, read back with a text-format parser), its access
 * rule, the Temporal Web UI's summaries and details (user metadata on workflow starts and activities),
 * the search attributes, structured logs with request and call ids and without credentials, the
 * docker-compose stack's wiring, and scripts/build-infra.sh's contract.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import YAML from 'yaml';
import mongoose from 'mongoose';
import { defaultPayloadConverter, SearchAttributeType } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { config, setConfig } from '../../src/config';
import { callSummary, maskNumber } from '../../src/services/calls';
import { metricsAccess } from '../../src/platform/metrics';
import { devServerSearchAttributeFlags, searchAttributeKeys } from '../../src/platform/temporal';
import { logFormat, logger, redact } from '../../src/logger';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { decodePayload } from '../support/history';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const ROOT = path.resolve(__dirname, '../../..');
const MESSAGE = Symbol.for('message');

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

async function eventually<T>(
  until: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await until();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sample lines of the text exposition format 0.0.4 (name, optional labels, value, optional timestamp). */
const SAMPLE_LINE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*,?\})? (-?[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|[+-]Inf)( -?\d+)?$/;

async function scrape(
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; contentType: string | null }> {
  const res = await fetch(`${h().api.url}/metrics`, { headers });
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
}

/**
 * Label sets of the series `name` (e.g. `…_count`) read from the raw sample lines: the parser folds the
 * buckets of a labelled histogram into one entry, so histogram labels are checked here.
 */
function seriesLabels(text: string, name: string): Record<string, string>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .map((l) =>
      Object.fromEntries(
        [...l.slice(name.length + 1, l.lastIndexOf('}')).matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
          (m) => [m[1], m[2]],
        ),
      ),
    );
}

/** Sum of a counter's samples whose labels include `labels`. */
function counter(families: Family[], name: string, labels: Record<string, string>): number {
  const family = families.find((f) => f.name === name);
  if (!family) return 0;
  return family.metrics
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number((m as { value: string }).value), 0);
}

/** Captures what the logger writes (the rendered line and the record) while `fn` runs at level info. */
async function captureLogs(fn: () => Promise<void>): Promise<{ lines: string[]; records: Record<string, unknown>[] }> {
  const lines: string[] = [];
  const records: Record<string, unknown>[] = [];
  const transport = new winston.transports.Stream({ stream: new Writable({ write: (_c, _e, cb) => cb() }) });
  transport.log = (info: Record<string | symbol, unknown>, next: () => void) => {
    lines.push(String(info[MESSAGE]));
    records.push({ ...info });
    next();
  };
  const level = logger.level;
  const quieted = logger.transports.filter((tr) => !tr.silent);
  quieted.forEach((tr) => (tr.silent = true)); // the console stays at the harness's level
  logger.level = 'info';
  logger.add(transport);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50)); // the last request line is written on 'finish'
  } finally {
    logger.remove(transport);
    quieted.forEach((tr) => (tr.silent = false));
    logger.level = level;
  }
  return { lines, records };
}

describe('operators', function () {
  this.timeout(120_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  let receiver: HttpsReceiver;
  let callId: string;
  let endpoint: { id: string; secret: string };
  let postRequestId: string | null;
  let logs: { lines: string[]; records: Record<string, unknown>[] };

  before(async () => {
    receiver = await startHttpsReceiver();
    logs = await captureLogs(async () => {
      t = await newTenant({ name: 'Demo Assistant' });
      const created = await request('POST', '/v1/webhook-endpoints', {
        key: t.testKey,
        body: { url: receiver.url('/ops'), events: ['call.ended'] },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      endpoint = created.body;
      const call = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, metadata: { order_id: '1234' } },
      });
      expect(call.status, JSON.stringify(call.body)).to.equal(200);
      callId = call.body.id;
      postRequestId = call.headers.get('request-id');
      await waitForCall(t.testKey, callId);
      await receiver.waitFor(
        (r) => r.some((w) => w.path === '/ops' && w.body?.data?.object?.id === callId),
        30_000,
        'the call.ended delivery',
      );
      await request('GET', '/v1/nothing-here', { key: t.testKey });
    });
  });
  after(async () => {
    await receiver?.close();
  });

  describe('GET /metrics', () => {
    it('serves Prometheus text that a text-format parser reads whole: HTTP by route, calls, deliveries, LLM, SDK worker metrics', async () => {
      // The delivery's outcome is counted once its activity has returned: poll for it.
      const { text, contentType, families } = await eventually(async () => {
        const s = await scrape();
        const parsed = parsePrometheusTextFormat(s.text);
        return (
          counter(parsed, 'svc_webhook_deliveries_total', { outcome: 'succeeded' }) >= 1 && { ...s, families: parsed }
        );
      }, 'a counted webhook delivery');
      expect(contentType).to.match(/^text\/plain; version=0\.0\.4/);

      // Every line is a comment or a well-formed sample; every family is declared once, with a type.
      const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
      const bad = lines.filter((l) => !SAMPLE_LINE.test(l));
      expect(bad, bad.slice(0, 3).join('\n')).to.deep.equal([]);
      const declared = text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .map((l) => l.split(' ')[2]);
      expect(new Set(declared).size, 'a family declared twice').to.equal(declared.length);
      expect(families.map((f) => f.name).sort()).to.deep.equal([...declared].sort());
      for (const f of families)
        expect(f.type, f.name).to.be.oneOf(['COUNTER', 'GAUGE', 'HISTOGRAM', 'SUMMARY', 'UNTYPED']);

      // HTTP latency labelled by the route pattern, never by a raw path with ids in it.
      expect(families.find((f) => f.name === 'svc_http_request_duration_seconds')?.type).to.equal('HISTOGRAM');
      const routes = seriesLabels(text, 'svc_http_request_duration_seconds_count').map(
        (l) => `${l.method} ${l.route} ${l.status}`,
      );
      expect(routes).to.include.members([
        'POST /v1/calls 200',
        'GET /v1/calls/:id 200',
        'POST /v1/webhook-endpoints 200',
        'GET unmatched 404',
      ]);
      expect(routes.filter((r) => /call_|we_/.test(r))).to.deep.equal([]);

      expect(counter(families, 'svc_calls_total', { status: 'in_progress', mode: 'test' })).to.be.at.least(1);
      expect(counter(families, 'svc_calls_total', { status: 'completed', mode: 'test' })).to.be.at.least(1);
      expect(counter(families, 'svc_webhook_attempts_total', { result: 'succeeded' })).to.be.at.least(1);
      expect(families.find((f) => f.name === 'svc_llm_request_duration_seconds')?.type).to.equal('HISTOGRAM');
      expect(seriesLabels(text, 'svc_llm_request_duration_seconds_count')).to.deep.include({
        model: 'fake-model',
        outcome: 'ok',
      });
      expect(counter(families, 'svc_llm_tokens_total', { model: 'fake-model', type: 'prompt' })).to.be.at.least(1);
      expect(counter(families, 'svc_llm_tokens_total', { model: 'fake-model', type: 'completion' })).to.be.at.least(1);

      // The Temporal SDK's own worker metrics, from its Prometheus exporter, in the same scrape.
      const sdk = families.filter((f) => f.name.startsWith('temporal_')).map((f) => f.name);
      expect(
        sdk.some((n) => n.startsWith('temporal_activity_execution_latency')),
        sdk.join(', '),
      ).to.equal(true);
      expect(
        sdk.some((n) => n.startsWith('temporal_workflow_completed')),
        sdk.join(', '),
      ).to.equal(true);
    });

    it('requires the Bearer METRICS_TOKEN when one is set, and a loopback client otherwise', async () => {
      const before = config();
      setConfig({ ...before, metricsToken: 'm3trics-token-for-tests' });
      try {
        expect((await scrape()).status).to.equal(401);
        expect((await scrape({ Authorization: 'Bearer wrong-token-of-other-size' })).status).to.equal(401);
        const ok = await scrape({ Authorization: 'Bearer m3trics-token-for-tests' });
        expect(ok.status).to.equal(200);
        expect(ok.text).to.contain('svc_http_request_duration_seconds');
      } finally {
        setConfig(before);
      }
      const from = (remoteAddress: string, authorization?: string) =>
        metricsAccess({ socket: { remoteAddress }, headers: { authorization } } as never, undefined)?.status ?? 200;
      expect(from('127.0.0.1')).to.equal(200);
      expect(from('::1')).to.equal(200);
      expect(from('::ffff:127.0.0.1')).to.equal(200);
      expect(from('10.0.0.5')).to.equal(403);
      expect(from('203.0.113.9', 'Bearer anything')).to.equal(403);
    });
  });

  describe('the Temporal Web UI', () => {
    it("shows a call's run with a summary, details and activity summaries (Temporal user metadata)", async () => {
      const handle = h().env.client.workflow.getHandle(callId);
      const desc = await handle.describe();
      expect(await desc.staticSummary()).to.equal('Call +1415…23 → Demo Assistant, test');
      const details = await desc.staticDetails();
      expect(details)
        .to.contain('- **To** +14155550123 · outbound · test mode')
        .and.to.contain(`\`${t.orgId}\``)
        .and.to.contain('**Metadata** order_id=1234');
      expect(desc.searchAttributes.CallStatus).to.deep.equal(['completed']);

      const history = await handle.fetchHistory();
      // Scheduled activities, and local activities (their markers name the activity type in `data`).
      const localType = (e: (typeof history.events & object)[number]) => {
        const a = e.markerRecordedEventAttributes;
        if (a?.markerName !== 'core_local_activity') return undefined;
        const data = a.details?.data?.payloads?.[0];
        return data
          ? defaultPayloadConverter.fromPayload<{ activity_type: string }>(data as never).activity_type
          : undefined;
      };
      // Summaries are sealed by the payload codec; the marker's `data` is the SDK's own.
      const summaries = await Promise.all(
        (history.events ?? [])
          .filter((e) => e.activityTaskScheduledEventAttributes || localType(e))
          .map(async (e) => {
            const type = e.activityTaskScheduledEventAttributes?.activityType?.name ?? localType(e);
            const summary = e.userMetadata?.summary
              ? await decodePayload<string>(e.userMetadata.summary as never)
              : undefined;
            return `${type}: ${summary}`;
          }),
      );
      expect(summaries).to.include.members([
        // A phone that answers at once goes straight to in_progress.
        'transitionCall: queued → in_progress (call.started)',
        'generateReply: LLM turn 1',
        'generateReply: LLM turn 3',
        'releaseCallSlot: free the call slot',
      ]);
      expect(
        summaries.some((s) => /^transitionCall: in_progress → completed \(call\.ended\)$/.test(s)),
        summaries.join('\n'),
      ).to.equal(true);
    });

    it('shows each webhook delivery as "Deliver evt_… (type) to we_…"', async () => {
      const delivery = receiver.received.find((w) => w.path === '/ops' && w.body?.data?.object?.id === callId)!;
      const handle = h().env.client.workflow.getHandle(`${delivery.eventId}:${endpoint.id}`);
      const desc = await handle.describe();
      expect(await desc.staticSummary()).to.equal(`Deliver ${delivery.eventId} (call.ended) to ${endpoint.id}`);
      expect(await desc.staticDetails()).to.contain('**Trigger** automatic');
      const history = await handle.fetchHistory();
      const scheduled = history.events!.find(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhook',
      )!;
      expect(await decodePayload(scheduled.userMetadata!.summary as never)).to.equal(
        `POST ${delivery.eventId} (call.ended) to ${endpoint.id}`,
      );
    });

    it('masks the number in the summary and keeps it on one line', () => {
      expect(maskNumber('+14155550123')).to.equal('+1415…23');
      const summary = callSummary({
        to: '+442071838750',
        livemode: true,
        agent: { name: 'Front\n desk   bot' },
      } as never);
      expect(summary).to.equal('Call +4420…50 → Front desk bot, live');
    });

    it('registers the search attributes of calls, conversations and campaigns', async () => {
      expect(Object.keys(searchAttributeKeys)).to.include.members([
        'CallStatus',
        'AgentId',
        'OrgId',
        'Livemode',
        'ConversationId',
        'Channel',
        'CampaignId',
      ]);
      expect(devServerSearchAttributeFlags.join(' '))
        .to.contain('--search-attribute ConversationId=Keyword')
        .and.to.contain('--search-attribute Livemode=Bool');
      const { customAttributes } = await h().env.client.connection.operatorService.listSearchAttributes({
        namespace: 'default',
      });
      for (const key of Object.values(searchAttributeKeys))
        expect(customAttributes, key.name).to.have.property(key.name);
    });
  });

  describe('logs', () => {
    it('writes one line per request with its request_id, and call_id / workflow_id where one applies', () => {
      const post = logs.records.find((r) => r.route === '/v1/calls' && String(r.message).startsWith('POST '));
      expect(post, logs.lines.join('\n')).to.not.equal(undefined);
      expect(post!.request_id).to.equal(postRequestId);
      expect(post!.call_id).to.equal(callId);
      expect(post!.workflow_id).to.equal(callId);
      expect(post!.status).to.equal(200);
      const get = logs.records.find((r) => r.route === '/v1/calls/:id' && r.call_id === callId);
      expect(get, 'GET /v1/calls/:id line with call_id').to.not.equal(undefined);
      expect(get!.request_id).to.match(/^req_/);
      const unmatched = logs.records.find((r) => r.route === 'unmatched');
      expect(unmatched?.status).to.equal(404);
      expect(
        logs.lines.some((l) => /^\d\d:\d\d:\d\d\.\d{3} info POST \/v1\/calls 200 \d+ ms \{/.test(l)),
        'human-readable line',
      ).to.equal(true);
    });

    it('never writes an API key, a Bearer credential or a webhook secret', async () => {
      expect(logs.lines.length).to.be.greaterThan(3);
      const all = logs.lines.join('\n');
      expect(all).to.not.contain(t.testKey);
      expect(all).to.not.contain(endpoint.secret);
      expect(all).to.not.match(/Bearer svc_/);
      // Even if a caller passed them by mistake:
      const careless = await captureLogs(async () => {
        logger.info(`using ${t.testKey}`, {
          authorization: `Bearer ${t.testKey}`,
          endpoint: { secret: endpoint.secret, url: 'https://x' },
          note: `secret is ${endpoint.secret}`,
        });
      });
      const line = careless.lines.join('\n');
      expect(line).to.not.contain(t.testKey).and.to.not.contain(endpoint.secret);
      expect(line).to.contain('[redacted]').and.to.contain('https://x');
      expect(redact({ headers: { Authorization: 'Basic dXNlcjpwYXNz' } })).to.deep.equal({
        headers: { Authorization: '[redacted]' },
      });
      expect(redact('token svc_rk_live_abcdefghijklmnopqrstuvwx1234 end')).to.equal('token [redacted] end');
    });

    it('writes JSON lines with LOG_FORMAT=json', () => {
      const info = logFormat('json').transform({
        level: 'info',
        message: 'GET /v1/calls 200 3 ms',
        request_id: 'req_1',
        authorization: 'Bearer x',
      }) as Record<string | symbol, unknown>;
      const parsed = JSON.parse(String(info[MESSAGE]));
      expect(parsed).to.include({
        level: 'info',
        message: 'GET /v1/calls 200 3 ms',
        request_id: 'req_1',
        authorization: '[redacted]',
      });
      expect(parsed.timestamp).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it("adds the workflow's ids and the activity to lines written in an activity", async () => {
      const env = new MockActivityEnvironment({
        activityType: 'transitionCall',
        attempt: 2,
        workflowExecution: { workflowId: 'call_01jx0000000000000000000000', runId: 'r' },
      });
      const captured = await captureLogs(() => env.run(async () => void logger.info('inside an activity')));
      expect(captured.records[0]).to.include({
        workflow_id: 'call_01jx0000000000000000000000',
        call_id: 'call_01jx0000000000000000000000',
        activity: 'transitionCall',
        attempt: 2,
      });
    });
  });

  describe('docker-compose.yml', () => {
    const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }); // `<<:` as Compose reads it

    it('gives every long-running service a healthcheck', () => {
      for (const name of ['mongodb', 'postgresql', 'temporal', 'temporal-ui', 'api', 'worker']) {
        expect(compose.services[name]?.healthcheck?.test, name).to.be.an('array');
      }
    });

    it('registers every search attribute with its type, as src/shared/search-attributes.ts defines them', () => {
      const script = compose.services['temporal-admin-tools'].command.join('\n') as string;
      for (const key of Object.values(searchAttributeKeys)) {
        expect(script, key.name).to.contain(
          `${key.name}:${key.type === SearchAttributeType.BOOL ? 'Bool' : 'Keyword'}`,
        );
      }
    });

    it('passes SECRETS_KEY, METRICS_TOKEN and JSON logs to the API and the workers, and exposes worker metrics', () => {
      for (const name of ['api', 'worker']) {
        const env = compose.services[name].environment;
        expect(env, name).to.include.keys('SECRETS_KEY', 'METRICS_TOKEN');
        expect(env.LOG_FORMAT, name).to.equal('json');
      }
      expect(compose.services.worker.environment.METRICS_WORKER_PORT).to.equal('9464');
    });
  });

  describe('scripts/build-infra.sh', () => {
    it('prints the two executables, and a cached Temporal CLI is the pinned version', () => {
      const out = execFileSync('bash', [path.join(ROOT, 'scripts/build-infra.sh'), 'all'], { encoding: 'utf8' });
      const temporal = /^TEMPORAL_BIN=(.+)$/m.exec(out)![1];
      const ferretdb = /^FERRETDB_BIN=(.+)$/m.exec(out)![1];
      fs.accessSync(temporal, fs.constants.X_OK);
      fs.accessSync(ferretdb, fs.constants.X_OK);
      const version = (process.env.TEMPORAL_CLI_VERSION ?? 'v1.5.1').replace(/^v/, '');
      if (temporal.includes(`temporal-v${version}/`) || temporal.includes(`venv-temporal-${version}/`)) {
        expect(
          execFileSync(temporal, ['--version'], { encoding: 'utf8' }).startsWith(`temporal version ${version} `),
        ).to.equal(true);
      }
    });

    it('builds a FerretDB whose lookups by _id use the _id index (scripts/ferretdb-patches/0001)', async () => {
      // FerretDB's `explain` on SQLite answers SQLite's EXPLAIN QUERY PLAN for the statement it runs.
      const plan = async (filter: Record<string, unknown>) =>
        JSON.stringify(await mongoose.connection.db!.collection('calls').find(filter).explain());
      expect(await plan({ _id: 'call_missing' })).to.match(/SEARCH calls_[0-9a-f]+ USING INDEX calls_[0-9a-f]+__id_/);
      // A filter on a field that leads no index is a scan (patch 0002 pushes down only equality on an
      // index's leading fields: test/integration/store-pushdown.test.ts): the plan tells the two apart.
      expect(await plan({ answered_by: 'machine' })).to.match(/SCAN calls_[0-9a-f]+/);
    });
  });
});
