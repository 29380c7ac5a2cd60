/**
 * The audit trail survives a crash and covers every read of transcript text:
 * - an API process SIGKILLed the moment a write's answer reaches the client leaves that write's entry in
 *   the store. Its store traffic goes through a proxy that delays what the API sends and drops what it
 *   still holds when the API dies, as the process's own memory would: an entry written after the answer
 *   is lost, one written before it is found;
 * - reads of a conversation's messages and of a message are audited once per request, whatever the
 *   number of messages returned; a stream's opening through `auditTranscriptRead` once per request.
 */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import type { Request, Response } from 'express';
import { AuditEvent } from '../../src/models/audit';
import { auditTranscriptRead } from '../../src/api/audit-reads';
import { h, newTenant, request } from '../support/harness';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** A TCP proxy to `target` that can hold what its clients send for `delayMs`; a client gone drops what it held. */
async function delayingProxy(target: { host: string; port: number }) {
  const state = { delayMs: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    client.on('data', (chunk) => {
      const send = () => {
        if (!upstream.destroyed && !client.destroyed) upstream.write(chunk);
      };
      if (state.delayMs > 0) setTimeout(send, state.delayMs);
      else send();
    });
    upstream.on('data', (chunk) => client.destroyed || client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    client.on('error', close);
    upstream.on('close', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    uri(path: string) {
      return `mongodb://127.0.0.1:${(server.address() as net.AddressInfo).port}${path}`;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** POSTs JSON to `url` and kills `proc` with SIGKILL in the same tick the answer's head arrives. */
function postThenKill(url: string, key: string, body: unknown, api: ApiProcess) {
  return new Promise<{ status: number; requestId: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } },
      (res) => {
        api.proc.kill('SIGKILL');
        res.resume();
        resolve({ status: res.statusCode!, requestId: String(res.headers['request-id']) });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('audit trail: crash-safe, every transcript read', function () {
  this.timeout(120_000);

  it('finds the entry of a write whose API process was SIGKILLed right after answering', async () => {
    const t = await newTenant();
    const store = new URL(h().ferret.uri);
    const proxy = await delayingProxy({ host: store.hostname, port: Number(store.port) });
    const api = await startApiProcess({ MONGODB_URI: proxy.uri(store.pathname + store.search) });
    try {
      // Warm the key's cache and the connection pool, then slow every store write the API sends.
      expect(
        (await fetch(`${api.url}/v1/calls`, { headers: { Authorization: `Bearer ${t.testKey}` } })).status,
      ).to.equal(200);
      proxy.state.delayMs = 150;
      const answer = await postThenKill(`${api.url}/v1/contacts`, t.testKey, { phone: customerNumber() }, api);
      expect(answer.status).to.equal(200);
      await new Promise((r) => api.proc.once('exit', r));
      proxy.state.delayMs = 0;
      const entry = await AuditEvent.findOne({ org_id: t.orgId, request_id: answer.requestId }).lean();
      expect(entry, 'the entry of the answered write').to.not.equal(null);
      expect(entry!.action).to.equal('POST /v1/contacts');
      expect(entry!.outcome).to.deep.include({ status: 200 });
      expect(entry!.object_ids.some((id) => id.startsWith('cont_'))).to.equal(true);
    } finally {
      await api.stop();
      await proxy.close();
    }
  });

  it('audits every read of a conversation’s messages and of a message once per request', async () => {
    const t = await newTenant();
    const first = await inbound(t.testKey, { channel: 'sms', from: customerNumber(), text: 'Hello, my order?' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const conv = first.body.conversation_id as string;
    const messages = await waitForMessages(t.testKey, conv, 2); // one read of the list (waits for the answer)
    const before = await AuditEvent.countDocuments({ org_id: t.orgId, action: 'GET /v1/conversations/{id}/messages' });
    expect(before, 'the reads of waitForMessages').to.be.at.least(1);

    const list = await request('GET', `/v1/conversations/${conv}/messages?limit=100`, { key: t.testKey });
    expect(list.status).to.equal(200);
    expect(list.body.data.length).to.be.at.least(2);
    const one = await request('GET', `/v1/messages/${messages[0].id}`, { key: t.testKey });
    expect(one.status).to.equal(200);

    const listed = await AuditEvent.find({ org_id: t.orgId, request_id: list.headers.get('request-id') }).lean();
    expect(listed.map((e) => [e.action, e.object_ids, e.outcome?.status])).to.deep.equal([
      ['GET /v1/conversations/{id}/messages', [conv], 200],
    ]);
    const read = await AuditEvent.find({ org_id: t.orgId, request_id: one.headers.get('request-id') }).lean();
    expect(read.map((e) => [e.action, e.object_ids])).to.deep.equal([['GET /v1/messages/{id}', [messages[0].id]]]);
    // Listed through the API too, with the reader as the actor.
    const log = await eventually(async () => {
      const res = await request('GET', `/v1/audit_events?object_id=${conv}`, { key: t.testKey });
      return res.body.data?.length ? res.body.data : null;
    }, 'the audit entries of the conversation');
    expect(log[0].actor.type).to.equal('api_key');
  });

  it('auditTranscriptRead writes one entry per stream request, stored before it resolves', async () => {
    const t = await newTenant();
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hello', 'TOOL end_call {}'] } },
    });
    // A stream request as Express hands it to the stream's handler (authenticated, path matched).
    const req = {
      method: 'GET',
      originalUrl: `/v1/calls/${call.body.id}/stream?last_event_id=3`,
      baseUrl: '/v1/calls',
      route: { path: '/:id/stream' },
      params: { id: call.body.id },
      auth: { kind: 'secret', orgId: t.orgId, livemode: false, keyId: 'key_0123456789abcdef', scopes: [] },
      requestId: 'req_stream_probe_1',
      ip: '127.0.0.1',
    } as unknown as Request;
    const res = { locals: {} } as unknown as Response;
    await auditTranscriptRead(req, res);
    await auditTranscriptRead(req, res); // a second call of the same request adds nothing
    const found = await AuditEvent.find({ org_id: t.orgId, request_id: 'req_stream_probe_1' }).lean();
    expect(found.map((e) => [e.action, e.object_ids, e.actor_id, e.outcome?.status])).to.deep.equal([
      ['GET /v1/calls/{id}/stream', [call.body.id], 'key_0123456789abcdef', 200],
    ]);
  });
});
