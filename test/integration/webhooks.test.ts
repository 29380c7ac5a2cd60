/**
 * Webhooks end to end: endpoints through the real API, deliveries by the real
 * `webhookDeliveryWorkflow` on the real Temporal dev server, to a real HTTPS receiver on loopback with a
 * self-signed certificate (test/support/https-receiver.ts). The harness trusts it through
 * `config().webhookCaFile` (the crash test, webhooks-crash.test.ts, its worker process through `NODE_EXTRA_CA_CERTS`). Retries are
 * fast here (200 ms doubling to 2 s, src/config.ts knobs set by the harness).
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Client } from '@temporalio/client';
import { Event } from '../../src/models/events';
import { deliveryRetry, startDeliveriesForEvent, startWebhookDelivery } from '../../src/services/webhooks';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { sweepExpiredWebhookSecrets, WebhookEndpoint } from '../../src/models/webhooks';
import { IdempotencyRecord } from '../../src/models/idempotency';
import { openSecret } from '../../src/secrets';
import { refusedAddressKind } from '../../src/providers/webhook-address';
import { signatureHeader, verifySignature } from '../../src/providers/webhook-signing';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedWebhook } from '../support/https-receiver';
import {
  callEvents,
  createWebhookEndpoint,
  deliveredTo,
  eventually,
  eventWhen,
  placeCall,
  settled,
  sleep,
  verify,
  type Tenant,
} from '../support/webhooks';

describe('webhooks', function () {
  this.timeout(120_000);
  let receiver: HttpsReceiver;
  let t: Tenant;

  before(async () => {
    receiver = await startHttpsReceiver();
    t = await newTenant();
  });
  after(async () => {
    await receiver?.close();
  });

  const createEndpoint = (key: string, pathname: string, events: string[], extra: Record<string, unknown> = {}) =>
    createWebhookEndpoint(receiver, key, pathname, events, extra);

  describe('signing helpers and address rules', () => {
    it('signs like Stripe and verifies with a 5-minute tolerance', () => {
      const payload = '{"id":"evt_1"}';
      const header = signatureHeader(payload, ['whsec_a', 'whsec_b'], 1_700_000_000);
      expect(header).to.match(/^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      const expected = crypto.createHmac('sha256', 'whsec_b').update(`1700000000.${payload}`).digest('hex');
      expect(header.split(',')[2]).to.equal(`v1=${expected}`);
      expect(verifySignature(payload, header, 'whsec_a', 300, 1_700_000_299)).to.equal(true);
      expect(verifySignature(payload, header, 'whsec_b', 300, 1_700_000_000)).to.equal(true);
      expect(verifySignature(payload, header, 'whsec_c', 300, 1_700_000_000)).to.equal(false);
      expect(verifySignature(payload + ' ', header, 'whsec_a', 300, 1_700_000_000)).to.equal(false);
      expect(verifySignature(payload, header, 'whsec_a', 300, 1_700_000_301)).to.equal(false);
    });

    it('classifies loopback, private, link-local, metadata and mapped addresses', () => {
      const cases: [string, string | null][] = [
        ['127.0.0.1', 'loopback'],
        ['::1', 'loopback'],
        ['10.1.2.3', 'private'],
        ['172.31.255.255', 'private'],
        ['192.168.0.10', 'private'],
        ['100.64.0.1', 'private'],
        ['fd12:3456::1', 'private'],
        ['169.254.169.254', 'metadata'],
        ['fd00:ec2::254', 'metadata'],
        ['169.254.1.1', 'link_local'],
        ['fe80::1%eth0', 'link_local'],
        ['0.0.0.0', 'unspecified'],
        ['::', 'unspecified'],
        ['::ffff:127.0.0.1', 'loopback'],
        ['::ffff:a9fe:a9fe', 'metadata'],
        ['64:ff9b::10.0.0.1', 'private'],
        ['2002:c0a8:0101::1', 'private'],
        ['224.0.0.1', 'multicast'],
        ['255.255.255.255', 'reserved'],
        ['8.8.8.8', null],
        ['172.32.0.1', null],
        ['2606:4700:4700::1111', null],
        ['::ffff:8.8.8.8', null],
      ];
      for (const [ip, kind] of cases) expect(refusedAddressKind(ip), ip).to.equal(kind);
    });
  });

  describe('endpoints API', () => {
    it('creates an endpoint and shows its secret only at creation', async () => {
      const created = await createEndpoint(t.testKey, '/api-1', ['call.ended', 'call.started'], {
        description: 'CRM',
        metadata: { team: 'ops' },
      });
      expect(created).to.include({
        object: 'webhook_endpoint',
        livemode: false,
        url: receiver.url('/api-1'),
        status: 'enabled',
        description: 'CRM',
        api_version: '2026-10-04',
      });
      expect(created.id).to.match(/^we_[0-9a-z]{26}$/);
      expect(created.secret).to.match(/^whsec_[A-Za-z0-9_-]{40,}$/);
      expect(created.events).to.deep.equal(['call.ended', 'call.started']);
      expect(created.metadata).to.deep.equal({ team: 'ops' });
      expect(created.created).to.be.a('number');

      const got = await request('GET', `/v1/webhook-endpoints/${created.id}`, { key: t.testKey });
      expect(got.status).to.equal(200);
      expect(got.body).to.not.have.property('secret');
      const { secret: _secret, ...withoutSecret } = created;
      expect(got.body).to.deep.equal(withoutSecret);
      const list = await request('GET', '/v1/webhook-endpoints', { key: t.testKey });
      expect(list.body).to.include({ object: 'list', url: '/v1/webhook-endpoints' });
      expect(list.body.data[0]).to.deep.equal(withoutSecret);
      expect(JSON.stringify(list.body)).to.not.contain('whsec_');
    });

    it('refuses non-HTTPS URLs, unknown event types, a mixed wildcard and unknown fields, naming the param', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ url: 'http://example.com/hook', events: ['*'] }, 'url', 'parameter_invalid'],
        [{ url: 'not a url', events: ['*'] }, 'url', 'parameter_invalid'],
        [
          { url: receiver.url('/x').replace('https://', 'https://user:pass@'), events: ['*'] },
          'url',
          'parameter_invalid',
        ],
        [{ url: receiver.url('/x'), events: ['call.exploded'] }, 'events', 'parameter_invalid'],
        [{ url: receiver.url('/x'), events: ['*', 'call.ended'] }, 'events', 'parameter_invalid'],
        [{ url: receiver.url('/x'), events: [] }, 'events', 'parameter_invalid'],
        [{ url: receiver.url('/x') }, 'events', 'parameter_missing'],
        [{ events: ['*'] }, 'url', 'parameter_missing'],
        [{ url: receiver.url('/x'), events: ['*'], secret: 'whsec_mine' }, 'secret', 'parameter_unknown'],
        [
          { url: receiver.url('/x'), events: ['*'], metadata: { k: 'v'.repeat(501) } },
          'metadata.k',
          'parameter_invalid',
        ],
      ];
      for (const [body, param, code] of cases) {
        const res = await request('POST', '/v1/webhook-endpoints', { key: t.testKey, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error, JSON.stringify(body)).to.include({ type: 'invalid_request_error', param, code });
      }
    });

    it('refuses URLs resolving to loopback, private, link-local or metadata addresses unless WEBHOOK_ALLOW_PRIVATE is on', async () => {
      const saved = config();
      setConfig({ ...saved, webhookAllowPrivate: false });
      try {
        for (const url of [
          receiver.url('/x'),
          `https://localhost:${receiver.port}/x`,
          'https://10.0.0.7/hook',
          'https://192.168.1.1/hook',
          'https://169.254.169.254/latest/meta-data',
          'https://[::1]/hook',
          'https://[::ffff:127.0.0.1]/hook',
          'https://0x7f000001/hook',
          'https://100.64.1.1/hook',
        ]) {
          const res = await request('POST', '/v1/webhook-endpoints', { key: t.testKey, body: { url, events: ['*'] } });
          expect(res.status, url).to.equal(400);
          expect(res.body.error, url).to.include({ param: 'url', code: 'url_private_address' });
        }
        const unresolvable = await request('POST', '/v1/webhook-endpoints', {
          key: t.testKey,
          body: { url: 'https://no-such-host.invalid/hook', events: ['*'] },
        });
        expect(unresolvable.status).to.equal(400);
        expect(unresolvable.body.error).to.include({ param: 'url', code: 'url_unresolvable' });
      } finally {
        setConfig(saved);
      }
    });

    it('updates url, events, description, metadata and enabled/disabled; deletes', async () => {
      const ep = await createEndpoint(t.testKey, '/upd-1', ['call.ended'], { metadata: { a: '1', b: '2' } });
      const upd = await request('POST', `/v1/webhook-endpoints/${ep.id}`, {
        key: t.testKey,
        body: {
          url: receiver.url('/upd-2'),
          events: ['*'],
          description: 'now all',
          metadata: { b: '', c: '3' },
          disabled: true,
        },
      });
      expect(upd.status, JSON.stringify(upd.body)).to.equal(200);
      expect(upd.body).to.include({
        url: receiver.url('/upd-2'),
        description: 'now all',
        status: 'disabled',
        disabled_reason: 'api',
      });
      expect(upd.body.events).to.deep.equal(['*']);
      expect(upd.body.metadata).to.deep.equal({ a: '1', c: '3' });
      expect(upd.body).to.not.have.property('secret');

      const bad = await request('POST', `/v1/webhook-endpoints/${ep.id}`, {
        key: t.testKey,
        body: { url: 'http://example.com' },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.param).to.equal('url');
      const badEvents = await request('POST', `/v1/webhook-endpoints/${ep.id}`, {
        key: t.testKey,
        body: { events: ['nope'] },
      });
      expect(badEvents.body.error.param).to.equal('events');

      const enabled = await request('POST', `/v1/webhook-endpoints/${ep.id}`, {
        key: t.testKey,
        body: { disabled: false },
      });
      expect(enabled.body).to.include({ status: 'enabled', disabled_reason: null });

      const del = await request('DELETE', `/v1/webhook-endpoints/${ep.id}`, { key: t.testKey });
      expect(del.status).to.equal(200);
      expect(del.body).to.deep.equal({ id: ep.id, object: 'webhook_endpoint', deleted: true });
      for (const [method, p] of [
        ['GET', ''],
        ['POST', ''],
        ['DELETE', ''],
        ['POST', '/rotate_secret'],
        ['GET', '/deliveries'],
      ]) {
        const res = await request(method, `/v1/webhook-endpoints/${ep.id}${p}`, {
          key: t.testKey,
          body: method === 'POST' ? {} : undefined,
        });
        expect(res.status, `${method} ${p}`).to.equal(404);
        expect(res.body.error).to.include({ code: 'resource_missing', param: 'id' });
      }
      const doc = await WebhookEndpoint.findById(ep.id).lean();
      expect(doc!.secret, 'a deleted endpoint keeps no secret').to.equal(null);
    });

    it('pages the list and keeps modes, organizations and scopes apart', async () => {
      const tenant = await newTenant();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createEndpoint(tenant.testKey, `/page-${i}`, ['*'])).id);
      const page1 = await request('GET', '/v1/webhook-endpoints?limit=2', { key: tenant.testKey });
      expect(page1.body.data.map((e: any) => e.id)).to.deep.equal([ids[2], ids[1]]);
      expect(page1.body.has_more).to.equal(true);
      const page2 = await request('GET', `/v1/webhook-endpoints?limit=2&starting_after=${ids[1]}`, {
        key: tenant.testKey,
      });
      expect(page2.body.data.map((e: any) => e.id)).to.deep.equal([ids[0]]);
      expect(page2.body.has_more).to.equal(false);
      expect(
        (await request('GET', '/v1/webhook-endpoints?limit=0', { key: tenant.testKey })).body.error.param,
      ).to.equal('limit');

      expect((await request('GET', '/v1/webhook-endpoints', { key: tenant.liveKey })).body.data).to.deep.equal([]);
      expect((await request('GET', `/v1/webhook-endpoints/${ids[0]}`, { key: tenant.liveKey })).status).to.equal(404);
      expect((await request('GET', `/v1/webhook-endpoints/${ids[0]}`, { key: t.testKey })).status).to.equal(404);

      const reader = (
        await createKey({ orgId: tenant.orgId, mode: 'test', kind: 'restricted', scopes: ['webhooks:read'] })
      ).key;
      expect((await request('GET', '/v1/webhook-endpoints', { key: reader })).status).to.equal(200);
      const denied = await request('POST', '/v1/webhook-endpoints', {
        key: reader,
        body: { url: receiver.url('/x'), events: ['*'] },
      });
      expect(denied.status).to.equal(403);
      expect(denied.body.error).to.include({ type: 'permission_error', code: 'scope_missing' });
      expect(denied.body.error.message).to.contain('webhooks:write');
      const eventsOnly = (
        await createKey({ orgId: tenant.orgId, mode: 'test', kind: 'restricted', scopes: ['events:read'] })
      ).key;
      expect((await request('GET', '/v1/webhook-endpoints', { key: eventsOnly })).status).to.equal(403);
      expect(
        (await request('POST', `/v1/events/evt_00000000000000000000000000/redeliver`, { key: eventsOnly, body: {} }))
          .status,
      ).to.equal(403);
    });

    it('replays a creation with the same Idempotency-Key (same id and secret) and refuses another body', async () => {
      const tenant = await newTenant();
      const headers = { 'Idempotency-Key': `we-${Math.random()}` };
      const body = { url: receiver.url('/idem'), events: ['call.ended'] };
      const first = await request('POST', '/v1/webhook-endpoints', { key: tenant.testKey, body, headers });
      const second = await request('POST', '/v1/webhook-endpoints', { key: tenant.testKey, body, headers });
      expect(second.status).to.equal(200);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      expect((await request('GET', '/v1/webhook-endpoints', { key: tenant.testKey })).body.data).to.have.length(1);
      const other = await request('POST', '/v1/webhook-endpoints', {
        key: tenant.testKey,
        body: { ...body, events: ['*'] },
        headers,
      });
      expect(other.status).to.equal(422);
      expect(other.body.error.code).to.equal('idempotency_key_reused');
    });
  });

  describe('deliveries', () => {
    it('delivers signed events to matching endpoints only: type filters, the wildcard, same organization and mode', async () => {
      const tenant = await newTenant();
      const endedOnly = await createEndpoint(tenant.testKey, '/f-ended', ['call.ended']);
      const all = await createEndpoint(tenant.testKey, '/f-all', ['*']);
      const transferredOnly = await createEndpoint(tenant.testKey, '/f-transferred', ['call.transferred']);
      const disabled = await createEndpoint(tenant.testKey, '/f-disabled', ['*']);
      await request('POST', `/v1/webhook-endpoints/${disabled.id}`, { key: tenant.testKey, body: { disabled: true } });
      const live = await createEndpoint(tenant.liveKey, '/f-live', ['*']);
      const otherOrg = await newTenant();
      await createEndpoint(otherOrg.testKey, '/f-other-org', ['*']);
      expect(live.livemode).to.equal(true);

      const call = await placeCall(tenant, {
        metadata: { order_id: 'A-42' },
        simulation: { caller: ['Hello', 'TOOL end_call {}'] },
      });
      await waitForCall(tenant.testKey, call.id);
      const [started, ended] = await callEvents(tenant.testKey, call.id, 2);
      expect([started.type, ended.type]).to.deep.equal(['call.started', 'call.ended']);
      await eventWhen(tenant.testKey, ended.id, (e) => e.pending_webhooks === 0 && e.webhook_deliveries.length === 2);
      await eventWhen(tenant.testKey, started.id, (e) => e.pending_webhooks === 0 && e.webhook_deliveries.length === 1);
      await receiver.waitFor(
        () => receiver.at('/f-all').filter((r) => r.body?.data?.object?.id === call.id).length === 2,
      );

      const endedGot = receiver.at('/f-ended').filter((r) => r.body.data.object.id === call.id);
      const allGot = receiver.at('/f-all').filter((r) => r.body.data.object.id === call.id);
      expect(endedGot.map((r) => r.body.type)).to.deep.equal(['call.ended']);
      expect(allGot.map((r) => r.body.type).sort()).to.deep.equal(['call.ended', 'call.started']);
      await sleep(500);
      for (const p of ['/f-transferred', '/f-disabled', '/f-live', '/f-other-org'])
        expect(receiver.at(p), p).to.deep.equal([]);

      for (const [got, endpoint] of [
        [endedGot, endedOnly],
        [allGot, all],
      ] as [ReceivedWebhook[], any][]) {
        for (const r of got) {
          const header = r.headers['svc-signature'] as string;
          expect(header).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
          expect(verify(r.rawBody, header, endpoint.secret), 'signature verifies with the endpoint secret').to.equal(
            true,
          );
          expect(verify(r.rawBody, header, transferredOnly.secret), 'not with another endpoint secret').to.equal(false);
          expect(r.headers['svc-event-id']).to.equal(r.body.id);
          expect(r.headers['svc-event-type']).to.equal(r.body.type);
          expect(r.headers['svc-delivery-attempt']).to.equal('1');
          expect(r.headers['svc-delivery-id']).to.equal(`${r.body.id}:${endpoint.id}`);
          expect(r.headers['content-type']).to.match(/^application\/json/);
          expect(r.headers['user-agent']).to.match(/^Svc-Webhooks\//);
          // Rule 1 of spec section 6: every webhook about a call carries its metadata.
          expect(r.body.data.object.metadata).to.deep.equal({ order_id: 'A-42' });
          expect(r.body).to.include({ object: 'event', livemode: false, api_version: '2026-10-04' });
          expect(r.body).to.not.have.property('webhook_deliveries');
        }
      }
      // The delivered JSON is the event as rendered at creation; GET adds the live delivery state.
      const got = await request('GET', `/v1/events/${ended.id}`, { key: tenant.testKey });
      const { pending_webhooks, webhook_deliveries, ...asCreated } = got.body;
      expect(asCreated).to.deep.equal(endedGot[0].body);
      expect(pending_webhooks).to.equal(0);
      expect(webhook_deliveries.map((d: any) => d.webhook_endpoint).sort()).to.deep.equal(
        [endedOnly.id, all.id].sort(),
      );
      for (const d of webhook_deliveries) {
        expect(d).to.include({
          object: 'webhook_delivery',
          event: ended.id,
          event_type: 'call.ended',
          trigger: 'automatic',
          status: 'succeeded',
          attempts: 1,
          livemode: false,
        });
        expect(d.last_attempt).to.include({ status_code: 200, error: null });
        expect(d.last_attempt.latency_ms).to.be.a('number');
      }
    });

    it('never starts a delivery twice: a retried emission meets the finished workflow (REJECT_DUPLICATE)', async () => {
      const tenant = await newTenant();
      const ep = await createEndpoint(tenant.testKey, '/once', ['call.ended']);
      const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      await eventWhen(tenant.testKey, ended.id, settled);
      await h().env.client.workflow.getHandle(`${ended.id}:${ep.id}`).result();
      // The emission running again, and a start through the worker's own kind of
      // client (on the NativeConnection, as activities get it): both refused, nothing sent.
      const stored = await Event.findById(ended.id).lean();
      await startDeliveriesForEvent(h().env.client, { ...JSON.parse(stored!.payload_json), org_id: tenant.orgId });
      const native = new Client({ connection: h().env.nativeConnection, namespace: config().temporalNamespace });
      const again = await startWebhookDelivery(native, {
        deliveryId: `${ended.id}:${ep.id}`,
        eventId: ended.id,
        eventType: 'call.ended',
        endpointId: ep.id,
        orgId: tenant.orgId,
        livemode: false,
        trigger: 'automatic',
        retry: deliveryRetry(),
        requestedMs: Date.now(),
      });
      expect(again).to.equal(false);
      await sleep(500);
      expect(receiver.at('/once').map((r) => r.eventId)).to.deep.equal([ended.id]);
      expect(
        (await request('GET', `/v1/events/${ended.id}`, { key: tenant.testKey })).body.webhook_deliveries,
      ).to.have.length(1);
    });

    it('retries an endpoint that fails twice and delivers on the third attempt, with every attempt listed', async () => {
      const tenant = await newTenant();
      receiver.route('/flaky', (_r, n) => (n <= 2 ? { status: 500, body: 'oops' } : { status: 200 }));
      const ep = await createEndpoint(tenant.testKey, '/flaky', ['call.ended']);
      const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      const event = await eventWhen(tenant.testKey, ended.id, settled);
      expect(deliveredTo(event, ep.id)[0]).to.include({ status: 'succeeded', attempts: 3 });
      const got = receiver.at('/flaky');
      expect(got.map((r) => r.attempt)).to.deep.equal([1, 2, 3]);
      expect(new Set(got.map((r) => r.eventId))).to.deep.equal(new Set([ended.id]));
      for (const r of got) expect(verify(r.rawBody, r.headers['svc-signature'] as string, ep.secret)).to.equal(true);
      // First retry well within 10 s (200 ms in tests; 5 s by default).
      expect(got[1].receivedMs - got[0].receivedMs).to.be.lessThan(10_000);

      const attempts = await request('GET', `/v1/webhook-endpoints/${ep.id}/deliveries`, { key: tenant.testKey });
      expect(attempts.status).to.equal(200);
      expect(attempts.body).to.include({
        object: 'list',
        has_more: false,
        url: `/v1/webhook-endpoints/${ep.id}/deliveries`,
      });
      expect(attempts.body.data.map((a: any) => [a.attempt, a.status_code, a.succeeded])).to.deep.equal([
        [3, 200, true],
        [2, 500, false],
        [1, 500, false],
      ]);
      const failed = attempts.body.data[2];
      expect(failed).to.include({
        object: 'webhook_delivery_attempt',
        webhook_endpoint: ep.id,
        event: ended.id,
        event_type: 'call.ended',
        error: 'HTTP 500',
        error_code: 'http_status',
        response_body: 'oops',
        url: ep.url,
      });
      expect(failed.id).to.match(/^wda_/);
      expect(failed.latency_ms).to.be.a('number');
      expect(failed.created).to.be.a('number');
      const page = await request(
        'GET',
        `/v1/webhook-endpoints/${ep.id}/deliveries?limit=1&starting_after=${attempts.body.data[0].id}&event=${ended.id}`,
        { key: tenant.testKey },
      );
      expect(page.body.data.map((a: any) => a.attempt)).to.deep.equal([2]);
      expect(page.body.has_more).to.equal(true);
      const none = await request(
        'GET',
        `/v1/webhook-endpoints/${ep.id}/deliveries?event=evt_00000000000000000000000000`,
        { key: tenant.testKey },
      );
      expect(none.body.data).to.deep.equal([]);
      expect(
        (await request('GET', `/v1/webhook-endpoints/${ep.id}/deliveries?event=nope`, { key: tenant.testKey })).body
          .error.param,
      ).to.equal('event');
    });

    it("verifies the endpoint's TLS certificate", async () => {
      const tenant = await newTenant();
      const untrusted = await createEndpoint(tenant.testKey, '/untrusted', ['call.ended']);
      const saved = config();
      setConfig({ ...saved, webhookCaFile: undefined }); // the receiver's self-signed certificate is no longer trusted
      try {
        const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
        const [ended] = await callEvents(tenant.testKey, call.id, 1);
        const refused = await eventually(async () => {
          const res = await request('GET', `/v1/webhook-endpoints/${untrusted.id}/deliveries`, { key: tenant.testKey });
          return res.body.data[0];
        }, 'an attempt to the untrusted endpoint');
        expect(refused).to.include({ succeeded: false, status_code: null, error_code: 'tls_error' });
        expect(refused.error).to.match(/certificate/i);
        expect(receiver.at('/untrusted')).to.deep.equal([]);
        await request('DELETE', `/v1/webhook-endpoints/${untrusted.id}`, { key: tenant.testKey });
        const event = await eventWhen(tenant.testKey, ended.id, settled);
        expect(deliveredTo(event, untrusted.id)[0]).to.include({ status: 'canceled', reason: 'endpoint_deleted' });
      } finally {
        setConfig(saved);
      }
    });

    it('honours Retry-After on a 429 and counts no answer within 10 seconds as a failure', async function () {
      this.timeout(90_000);
      const tenant = await newTenant();
      receiver.route('/limited', (_r, n) =>
        n === 1 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 },
      );
      receiver.route('/silent', (_r, n) => (n === 1 ? 'hold' : { status: 200 }));
      await createEndpoint(tenant.testKey, '/limited', ['call.ended']);
      const silent = await createEndpoint(tenant.testKey, '/silent', ['call.ended']);
      const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      await receiver.waitFor(() => receiver.at('/limited').length === 2, 30_000, 'the retry after Retry-After');
      const [a, b] = receiver.at('/limited');
      expect(b.receivedMs - a.receivedMs, 'waited for Retry-After (2 s), not the 200 ms schedule').to.be.at.least(1900);

      const event = await eventWhen(tenant.testKey, ended.id, settled, 60_000);
      expect(deliveredTo(event, silent.id)[0]).to.include({ status: 'succeeded', attempts: 2 });
      const attempts = (await request('GET', `/v1/webhook-endpoints/${silent.id}/deliveries`, { key: tenant.testKey }))
        .body.data;
      expect(attempts[1]).to.include({ attempt: 1, succeeded: false, status_code: null, error_code: 'timeout' });
      expect(attempts[1].latency_ms).to.be.within(9_900, 12_000);
      expect(attempts[0]).to.include({ attempt: 2, succeeded: true, status_code: 200 });
    });

    it('disables an endpoint that answers 410 Gone and tells the other endpoints, not that one', async () => {
      const tenant = await newTenant();
      receiver.route('/gone', () => ({ status: 410 }));
      const gone = await createEndpoint(tenant.testKey, '/gone', ['*']);
      const watcher = await createEndpoint(tenant.testKey, '/gone-watcher', ['webhook_endpoint.delivery_failed']);
      const call = await placeCall(tenant, { simulation: { outcome: 'no_answer' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      const event = await eventWhen(tenant.testKey, ended.id, settled);
      expect(deliveredTo(event, gone.id)[0]).to.include({ status: 'failed', reason: 'endpoint_gone', attempts: 1 });
      const ep = await request('GET', `/v1/webhook-endpoints/${gone.id}`, { key: tenant.testKey });
      expect(ep.body).to.include({ status: 'disabled', disabled_reason: 'http_410' });

      await receiver.waitFor(() => receiver.at('/gone-watcher').length === 1, 30_000, 'the delivery_failed webhook');
      const notice = receiver.at('/gone-watcher')[0];
      expect(notice.body.type).to.equal('webhook_endpoint.delivery_failed');
      expect(notice.body.data.object).to.include({
        object: 'webhook_delivery',
        webhook_endpoint: gone.id,
        event: ended.id,
        status: 'failed',
        reason: 'endpoint_gone',
      });
      expect(verify(notice.rawBody, notice.headers['svc-signature'] as string, watcher.secret)).to.equal(true);
      const listed = await request('GET', '/v1/events?type=webhook_endpoint.delivery_failed', { key: tenant.testKey });
      expect(listed.body.data.map((e: any) => e.id)).to.deep.equal([notice.body.id]);
      await sleep(300);
      expect(receiver.at('/gone').map((r) => r.body.type)).to.deep.equal(['call.ended']);
    });

    it('marks a delivery failed when its retry window ends, and emits webhook_endpoint.delivery_failed', async () => {
      const tenant = await newTenant();
      receiver.route('/down', () => ({ status: 503, body: 'down' }));
      const down = await createEndpoint(tenant.testKey, '/down', ['*']);
      const watcher = await createEndpoint(tenant.testKey, '/down-watcher', ['*']);
      const saved = config();
      // Attempts at about 0, 0.2, 0.6, 1.4, 3, 6.2 s (fewer on a loaded machine) until the window closes:
      // 10 s, as 5 s once allowed a single attempt on a machine shared with a benchmark.
      setConfig({ ...saved, webhookRetryWindowMs: 10_000 });
      let ended: any;
      try {
        const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
        [ended] = await callEvents(tenant.testKey, call.id, 1);
        await eventWhen(tenant.testKey, ended.id, (e) => e.webhook_deliveries.length === 2); // started with the short window
      } finally {
        setConfig(saved);
      }
      const event = await eventWhen(tenant.testKey, ended.id, settled);
      const failed = deliveredTo(event, down.id)[0];
      expect(failed).to.include({ status: 'failed', reason: 'retries_exhausted' });
      expect(failed.attempts, "retried within the window (how often depends on the machine's load)").to.be.at.least(2);
      expect(failed.last_attempt).to.include({ status_code: 503, error: 'HTTP 503' });
      expect(deliveredTo(event, watcher.id)[0]).to.include({ status: 'succeeded' });
      const ep = await request('GET', `/v1/webhook-endpoints/${down.id}`, { key: tenant.testKey });
      expect(ep.body.status, 'a 5xx does not disable').to.equal('enabled');

      await receiver.waitFor(
        () => receiver.at('/down-watcher').some((r) => r.body.type === 'webhook_endpoint.delivery_failed'),
        30_000,
        'the delivery_failed webhook',
      );
      const notice = receiver.at('/down-watcher').find((r) => r.body.type === 'webhook_endpoint.delivery_failed')!;
      expect(notice.body.data.object).to.include({
        webhook_endpoint: down.id,
        event: ended.id,
        reason: 'retries_exhausted',
      });
      await sleep(500);
      // The failing endpoint is not told about its own failure through itself.
      expect(receiver.at('/down').every((r) => r.body.type === 'call.ended')).to.equal(true);
      // Every attempt is in the log, including one that was in flight when the window closed (it ends
      // after the delivery is marked failed, and counts then).
      await eventually(async () => {
        const attempts = (
          await request('GET', `/v1/webhook-endpoints/${down.id}/deliveries?limit=100`, { key: tenant.testKey })
        ).body.data;
        const delivery = deliveredTo(
          (await request('GET', `/v1/events/${ended.id}`, { key: tenant.testKey })).body,
          down.id,
        )[0];
        return attempts.length >= failed.attempts && attempts.length === delivery.attempts;
      }, 'the attempt log and the delivery agree');
    });

    it('refuses at delivery time an address that became private, and cancels the delivery when the endpoint is deleted', async () => {
      const tenant = await newTenant();
      const ep = await createEndpoint(tenant.testKey, '/turned-private', ['call.ended']);
      const saved = config();
      setConfig({ ...saved, webhookAllowPrivate: false });
      try {
        const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
        const [ended] = await callEvents(tenant.testKey, call.id, 1);
        const attempts = await eventually(async () => {
          const res = await request('GET', `/v1/webhook-endpoints/${ep.id}/deliveries`, { key: tenant.testKey });
          return res.body.data.length >= 2 ? res.body.data : undefined;
        }, 'two refused attempts');
        expect(attempts[attempts.length - 1]).to.include({
          succeeded: false,
          status_code: null,
          error_code: 'address_refused',
        });
        expect(attempts[attempts.length - 1].error).to.match(/127\.0\.0\.1, a loopback address/);
        expect(receiver.at('/turned-private')).to.deep.equal([]);

        await request('DELETE', `/v1/webhook-endpoints/${ep.id}`, { key: tenant.testKey });
        const event = await eventWhen(tenant.testKey, ended.id, settled);
        expect(deliveredTo(event, ep.id)[0]).to.include({ status: 'canceled', reason: 'endpoint_deleted' });
        expect(receiver.at('/turned-private')).to.deep.equal([]);
      } finally {
        setConfig(saved);
      }
    });

    it('rotates the secret: for 24 hours deliveries carry a v1 signature for each secret', async () => {
      const tenant = await newTenant();
      const ep = await createEndpoint(tenant.testKey, '/rotate', ['call.ended']);
      const rotated = await request('POST', `/v1/webhook-endpoints/${ep.id}/rotate_secret`, { key: tenant.testKey });
      expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
      expect(rotated.body.id).to.equal(ep.id);
      expect(rotated.body.secret)
        .to.match(/^whsec_/)
        .and.not.equal(ep.secret);
      const expiresIn = rotated.body.secret_rotation_expires_at - Date.now() / 1000;
      expect(expiresIn).to.be.within(24 * 3600 - 60, 24 * 3600 + 1);
      expect(
        (await request('GET', `/v1/webhook-endpoints/${ep.id}`, { key: tenant.testKey })).body,
      ).to.not.have.property('secret');

      const call = await placeCall(tenant, { simulation: { outcome: 'busy' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      await receiver.waitFor(() => receiver.at('/rotate').length === 1);
      const r = receiver.at('/rotate')[0];
      const header = r.headers['svc-signature'] as string;
      expect(header).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(verify(r.rawBody, header, rotated.body.secret), 'new secret').to.equal(true);
      expect(verify(r.rawBody, header, ep.secret), 'old secret').to.equal(true);

      // Once the overlap is over only the new secret signs (moved into the past rather than waited for).
      await WebhookEndpoint.updateOne({ _id: ep.id }, { $set: { previous_secret_expires_ms: Date.now() - 1000 } });
      expect(
        (await request('GET', `/v1/webhook-endpoints/${ep.id}`, { key: tenant.testKey })).body
          .secret_rotation_expires_at,
      ).to.equal(null);
      const again = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint_id: ep.id },
      });
      expect(again.status).to.equal(200);
      await receiver.waitFor(() => receiver.at('/rotate').length === 2);
      const r2 = receiver.at('/rotate')[1];
      expect(r2.headers['svc-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verify(r2.rawBody, r2.headers['svc-signature'] as string, rotated.body.secret)).to.equal(true);
      expect(verify(r2.rawBody, r2.headers['svc-signature'] as string, ep.secret)).to.equal(false);

      // A rotation replayed with its Idempotency-Key returns the same secret and does not rotate again.
      const headers = { 'Idempotency-Key': `rot-${Math.random()}` };
      const a = await request('POST', `/v1/webhook-endpoints/${ep.id}/rotate_secret`, { key: tenant.testKey, headers });
      const b = await request('POST', `/v1/webhook-endpoints/${ep.id}/rotate_secret`, { key: tenant.testKey, headers });
      expect(b.body.secret).to.equal(a.body.secret);
      const stored = (await WebhookEndpoint.findById(ep.id).lean())!;
      expect(openSecret(stored.secret)).to.equal(a.body.secret);
    });

    it('keeps secrets sealed at rest: endpoint secrets, previous secrets and replayable responses; clears expired previous secrets', async () => {
      const tenant = await newTenant();
      const headers = { 'Idempotency-Key': `sealed-${Math.random()}` };
      const created = await request('POST', '/v1/webhook-endpoints', {
        key: tenant.testKey,
        headers,
        body: { url: receiver.url('/sealed'), events: ['*'] },
      });
      expect(created.status).to.equal(200);
      const rotated = await request('POST', `/v1/webhook-endpoints/${created.body.id}/rotate_secret`, {
        key: tenant.testKey,
      });
      const stored = (await WebhookEndpoint.findById(created.body.id).lean())!;
      for (const value of [stored.secret, stored.previous_secret]) {
        expect(value).to.match(/^enc:v1:/);
        expect(value).to.not.contain('whsec_');
      }
      expect(openSecret(stored.secret)).to.equal(rotated.body.secret);
      expect(openSecret(stored.previous_secret)).to.equal(created.body.secret);
      const record = (await IdempotencyRecord.findOne({ resource_id: created.body.id }).lean())!;
      expect(record.response_json)
        .to.match(/^enc:v1:/)
        .and.not.contain(created.body.secret);
      const replay = await request('POST', '/v1/webhook-endpoints', {
        key: tenant.testKey,
        headers,
        body: { url: receiver.url('/sealed'), events: ['*'] },
      });
      expect(replay.body.secret, 'the replay still shows the secret').to.equal(created.body.secret);

      await WebhookEndpoint.updateOne(
        { _id: created.body.id },
        { $set: { previous_secret_expires_ms: Date.now() - 1 } },
      );
      expect(await sweepExpiredWebhookSecrets()).to.be.greaterThan(0);
      const swept = (await WebhookEndpoint.findById(created.body.id).lean())!;
      expect(swept.previous_secret).to.equal(null);
      expect(openSecret(swept.secret)).to.equal(rotated.body.secret);
    });

    it('redelivers an event on request, to one endpoint or to every subscribed one, idempotently', async () => {
      const tenant = await newTenant();
      const one = await createEndpoint(tenant.testKey, '/redeliver-1', ['call.ended']);
      const two = await createEndpoint(tenant.testKey, '/redeliver-2', ['*']);
      const call = await placeCall(tenant, { metadata: { r: '1' }, simulation: { outcome: 'busy' } });
      const [ended] = await callEvents(tenant.testKey, call.id, 1);
      await eventWhen(tenant.testKey, ended.id, (e) => settled(e) && e.webhook_deliveries.length === 2);

      const headers = { 'Idempotency-Key': `redeliver-${Math.random()}` };
      const res = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint_id: one.id },
        headers,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ object: 'list', has_more: false, url: `/v1/events/${ended.id}/redeliver` });
      expect(res.body.data).to.have.length(1);
      expect(res.body.data[0]).to.include({
        object: 'webhook_delivery',
        webhook_endpoint: one.id,
        event: ended.id,
        trigger: 'redelivery',
        status: 'pending',
        attempts: 0,
      });
      const replay = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint_id: one.id },
        headers,
      });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(res.body);

      await receiver.waitFor(() => receiver.at('/redeliver-1').length === 2);
      const [first, second] = receiver.at('/redeliver-1');
      expect(second.eventId).to.equal(first.eventId);
      expect(second.rawBody, 'the same event JSON, rendered once').to.equal(first.rawBody);
      expect(second.headers['svc-delivery-id']).to.equal(res.body.data[0].id);
      expect(second.attempt).to.equal(1);
      expect(verify(second.rawBody, second.headers['svc-signature'] as string, one.secret)).to.equal(true);

      const all = await request('POST', `/v1/events/${ended.id}/redeliver`, { key: tenant.testKey });
      expect(all.status).to.equal(200);
      expect(all.body.data.map((d: any) => d.webhook_endpoint).sort()).to.deep.equal([one.id, two.id].sort());
      await receiver.waitFor(
        () => receiver.at('/redeliver-1').length === 3 && receiver.at('/redeliver-2').length === 2,
      );
      const event = await eventWhen(tenant.testKey, ended.id, (e) => settled(e) && e.webhook_deliveries.length === 5);
      expect(event.webhook_deliveries.map((d: any) => d.trigger)).to.deep.equal([
        'automatic',
        'automatic',
        'redelivery',
        'redelivery',
        'redelivery',
      ]);
      await sleep(300);
      expect(receiver.at('/redeliver-1')).to.have.length(3);

      const missing = await request('POST', `/v1/events/evt_00000000000000000000000000/redeliver`, {
        key: tenant.testKey,
      });
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.include({ code: 'resource_missing', param: 'id' });
      const noEndpoint = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint_id: 'we_00000000000000000000000000' },
      });
      expect(noEndpoint.status).to.equal(404);
      expect(noEndpoint.body.error.param).to.equal('endpoint_id');
      await request('POST', `/v1/webhook-endpoints/${one.id}`, { key: tenant.testKey, body: { disabled: true } });
      const disabled = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint_id: one.id },
      });
      expect(disabled.status).to.equal(409);
      expect(disabled.body.error).to.include({ code: 'webhook_endpoint_disabled', param: 'endpoint_id' });
      const unknownField = await request('POST', `/v1/events/${ended.id}/redeliver`, {
        key: tenant.testKey,
        body: { endpoint: one.id },
      });
      expect(unknownField.body.error).to.include({ code: 'parameter_unknown', param: 'endpoint' });
      const fromLive = await request('POST', `/v1/events/${ended.id}/redeliver`, { key: tenant.liveKey });
      expect(fromLive.status).to.equal(404);
    });
  });
});
