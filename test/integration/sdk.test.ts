/**
 * The official SDKs against the real service: sdk/typescript (in this process)
 * and sdk/python (the cached virtual environment of scripts/install-sdk-python.sh, running
 * sdk/python/tests/flow.py) each run the flow a new user runs — an agent, a webhook endpoint, test calls
 * with metadata, waiting for completion by polling and reading the list across pages, the transcript, a
 * 422 caught as a typed error, a delivery verified with the SDK's `constructEvent` (and a forged one
 * refused) — and the retry test: a loopback proxy in front of the API answers the first two
 * `POST /v1/calls` 503, the SDK retries with the same `Idempotency-Key`, and exactly one call exists.
 */
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  IdempotencyError,
  InvalidRequestError,
  SignatureVerificationError,
  Svc,
  signatureHeader,
} from '../../sdk/typescript/src';
import { h, newTenant } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const ROOT = path.resolve(__dirname, '../../..');

/** A proxy to the API that answers the first `failures` `POST /v1/calls` with 503, recording their keys. */
async function flakyProxy(failures: number) {
  const keys: string[] = [];
  let failed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/calls') {
        keys.push(String(req.headers['idempotency-key']));
        if (failed < failures) {
          failed++;
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
          res.end(
            JSON.stringify({
              error: { type: 'api_error', code: 'service_unavailable', message: 'The store did not answer.' },
            }),
          );
          return;
        }
      }
      const target = new URL(req.url ?? '/', h().api.url);
      const headers = { ...req.headers, host: target.host };
      const upstream = http.request(target, { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, keys, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The Python of the SDK's virtual environment (installed once per machine). */
function sdkPython(): string {
  return execFileSync('bash', [path.join(ROOT, 'scripts/install-sdk-python.sh')], { encoding: 'utf8' }).trim();
}

/** Runs sdk/python/tests/flow.py `command` with `env`; resolves to the JSON it prints last. */
function runPython(python: string, command: string, env: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [path.join(ROOT, 'sdk/python/tests/flow.py'), command], {
      env: { ...process.env, PYTHONPATH: path.join(ROOT, 'sdk/python'), PYTHONDONTWRITEBYTECODE: '1', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`flow.py ${command} exited ${code}: ${err}\n${out}`));
      const lines = out.trim().split('\n');
      resolve(JSON.parse(lines[lines.length - 1]));
    });
  });
}

describe('SDKs against the real service', function () {
  this.timeout(240_000);
  let receiver: HttpsReceiver;

  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver.close();
  });

  it('TypeScript: agent, webhook endpoint, calls with metadata, pages, transcript, a typed 422, a verified delivery', async () => {
    const tenant = await newTenant();
    const svc = new Svc({ apiKey: tenant.testKey, baseUrl: h().api.url });
    const agent = await svc.agents.create({ name: 'SDK agent', instructions: 'You confirm appointments.' });
    const endpoint = await svc.webhookEndpoints.create({ url: receiver.url('/sdk-ts'), events: ['call.ended'] });
    const placed = [];
    for (const n of [1, 2]) {
      placed.push(
        await svc.calls.create({
          to: `+1415555${String(7100 + n)}`,
          agent_id: agent.id,
          metadata: { sdk: 'typescript', n: String(n) },
          simulation: { caller: ['Hi, is my appointment at ten?', 'Thanks, bye.'] },
        }),
      );
    }
    const ended = await Promise.all(
      placed.map((c) => svc.calls.waitForEnd(c.id, { intervalMs: 250, timeoutMs: 180_000 })),
    );
    expect(ended.map((c) => c.status)).to.deep.equal(['completed', 'completed']);
    expect(ended[0].metadata).to.deep.equal({ sdk: 'typescript', n: '1' });

    // One object per page: iterating crosses pages through starting_after, newest first.
    const first = await svc.calls.list({ limit: 1 });
    expect(first.data).to.have.length(1);
    expect(first.has_more).to.equal(true);
    const all = await svc.calls.list({ limit: 1 }).autoPagingToArray();
    expect(all.map((c) => c.id)).to.deep.equal([placed[1].id, placed[0].id]);

    const transcript = await svc.calls.transcript(placed[0].id);
    expect(JSON.stringify(transcript)).to.include('Hi, is my appointment at ten?');

    const refused = await svc.messages
      .send({ channel: 'whatsapp', to: '+14155557199', text: 'Hello out of the blue' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).to.be.instanceOf(InvalidRequestError);
    expect(refused).to.include({ statusCode: 422, code: 'whatsapp_window_closed', type: 'invalid_request_error' });

    const reused = await svc.calls
      .create({ to: '+14155557198', agent_id: agent.id }, { idempotencyKey: 'sdk-ts-reused-key' })
      .then(() => svc.calls.create({ to: '+14155557197', agent_id: agent.id }, { idempotencyKey: 'sdk-ts-reused-key' }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(reused).to.be.instanceOf(IdempotencyError);
    expect(reused).to.include({ statusCode: 422, code: 'idempotency_key_reused' });

    await receiver.waitFor(
      (r) => r.filter((x) => x.path === '/sdk-ts').length >= 2,
      60_000,
      'two call.ended deliveries',
    );
    const delivery = receiver.at('/sdk-ts')[0];
    const event = Svc.webhooks.constructEvent(
      delivery.rawBody,
      delivery.headers['svc-signature'] as string,
      endpoint.secret as string,
    ) as { type: string; data: { object: { id: string } } };
    expect(event.type).to.equal('call.ended');
    expect(placed.map((c) => c.id)).to.include(event.data.object.id);
    const forged = signatureHeader(delivery.rawBody, 'whsec_not_the_secret');
    expect(() => Svc.webhooks.constructEvent(delivery.rawBody, forged, endpoint.secret as string)).to.throw(
      SignatureVerificationError,
    );
  });

  it('TypeScript: two 503s are retried with one Idempotency-Key, and one call is created', async () => {
    const tenant = await newTenant();
    const proxy = await flakyProxy(2);
    try {
      const svc = new Svc({ apiKey: tenant.testKey, baseUrl: proxy.url, maxRetries: 3 });
      const call = await svc.calls.create({ to: '+14155557201', agent_id: tenant.agentId, metadata: { sdk: 'retry' } });
      expect(proxy.keys).to.have.length(3);
      expect(new Set(proxy.keys).size).to.equal(1);
      const calls = await new Svc({ apiKey: tenant.testKey, baseUrl: h().api.url }).calls.list().autoPagingToArray();
      expect(calls.map((c) => c.id)).to.deep.equal([call.id]);
    } finally {
      await proxy.close();
    }
  });

  describe('Python', () => {
    let python: string;
    before(function () {
      this.timeout(300_000);
      python = sdkPython();
    });

    it('runs the flow: agent, webhook endpoint, calls with metadata, pages, transcript, a typed 422', async () => {
      const tenant = await newTenant();
      const result = await runPython(python, 'flow', {
        SVC_BASE_URL: h().api.url,
        SVC_API_KEY: tenant.testKey,
        SVC_WEBHOOK_URL: receiver.url('/sdk-py'),
      });
      expect(result.statuses).to.deep.equal(['completed', 'completed']);
      expect(result.metadata).to.deep.equal({ sdk: 'python', n: '1' });
      expect(result.paged_ids).to.deep.equal([...result.call_ids].reverse());
      expect(result.first_page).to.deep.equal({ count: 1, has_more: true });
      expect(result.transcript_has_line).to.equal(true);
      expect(result.streamed, 'the ended call replayed as typed stream events').to.include('turn');
      expect(result.options_override, "options={'api_key': …} overrides the client's key").to.equal(true);
      expect(result.unauthenticated).to.equal(401);
      expect(result.missing).to.deep.equal({ code: 'resource_missing', has_request_id: true });
      expect(result.from_filtered, 'from_ sent as from: no call from that number').to.deep.equal([]);
      expect(result.streamed[result.streamed.length - 1]).to.equal('end');
      expect(result.error).to.deep.equal({
        class: 'UnprocessableEntityError',
        status: 422,
        code: 'whatsapp_window_closed',
      });
      expect(result.async_agent_name).to.equal('SDK agent (async)');
      expect(result.event_models, 'events typed by their type').to.include('CallEvent').and.not.include('dict');

      await receiver.waitFor((r) => r.filter((x) => x.path === '/sdk-py').length >= 2, 60_000, 'deliveries');
      const delivery = receiver.at('/sdk-py')[0];
      const verified = await runPython(python, 'verify', {
        SVC_PAYLOAD: delivery.rawBody,
        SVC_SIGNATURE: delivery.headers['svc-signature'] as string,
        SVC_SECRET: result.webhook_secret,
      });
      expect(verified).to.deep.equal({
        type: 'call.ended',
        id: delivery.body.id,
        model: 'CallEvent',
        forged_refused: true,
        newer_type: ['GenericEvent', 'call.teleported'],
      });
    });

    it('retries two 503s with one Idempotency-Key, and one call is created', async () => {
      const tenant = await newTenant();
      const proxy = await flakyProxy(2);
      try {
        const result = await runPython(python, 'retry', {
          SVC_BASE_URL: proxy.url,
          SVC_API_KEY: tenant.testKey,
          SVC_AGENT_ID: tenant.agentId,
        });
        expect(proxy.keys).to.have.length(3);
        expect(new Set(proxy.keys).size).to.equal(1);
        const svc = new Svc({ apiKey: tenant.testKey, baseUrl: h().api.url });
        const calls = await svc.calls.list().autoPagingToArray();
        expect(calls.map((c) => c.id)).to.deep.equal([result.call_id]);
      } finally {
        await proxy.close();
      }
    });
  });
});
