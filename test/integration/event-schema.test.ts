/**
 * The OpenAPI document's `Event` (src/models/events.ts `EventObject`), which the SDKs' typed events and
 * `constructEvent` are generated from, against what the service really sends: webhook deliveries received
 * by a loopback HTTPS receiver (test/support/https-receiver.ts), and the same events as `GET /v1/events`
 * lists them and `GET /v1/events/{id}` retrieves them. A delivery is the event as rendered at creation;
 * the API adds its delivery state (`pending_webhooks`, `webhook_deliveries`), so the schema requires
 * neither.
 */
import { expect } from 'chai';
import { request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { describeErrors, documentSchema } from '../support/response-schemas';
import { inbound, customerNumber } from '../support/conversations';
import { createWebhookEndpoint, eventually, verify, type Tenant } from '../support/webhooks';
import { newTenant } from '../support/harness';

describe('the Event schema of the OpenAPI document', function () {
  this.timeout(120_000);
  let receiver: HttpsReceiver;
  let t: Tenant;

  before(async () => {
    receiver = await startHttpsReceiver();
    t = await newTenant();
  });
  let endpointId: string | undefined;
  after(async () => {
    // No delivery of a later event to the closed receiver retries in the background of later tests.
    if (endpointId) await request('DELETE', `/v1/webhook-endpoints/${endpointId}`, { key: t.testKey });
    await receiver?.close();
  });

  /** The event against `components.schemas.Event`: the Ajv errors, or '' when it matches. */
  const mismatch = (event: unknown): string => {
    const validate = documentSchema('components', 'schemas', 'Event');
    return validate(event) ? '' : describeErrors(validate.errors);
  };

  it('matches every delivery, and every listed and retrieved event', async () => {
    const endpoint = await createWebhookEndpoint(receiver, t.testKey, '/schema', ['*']);
    endpointId = endpoint.id;
    const placed = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    await waitForCall(t.testKey, placed.body.id);
    const sent = await inbound(t.testKey, { channel: 'sms', from: customerNumber(), text: 'Hello' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);

    const types = (received: { body: { type: string } }[]) => new Set(received.map((r) => r.body?.type));
    await receiver.waitFor(
      () => ['call.started', 'call.ended', 'message.received'].every((type) => types(receiver.at('/schema')).has(type)),
      60_000,
      'call.started, call.ended and message.received',
    );

    const deliveries = receiver.at('/schema');
    for (const d of deliveries) {
      expect(verify(d.rawBody, String(d.headers['svc-signature']), endpoint.secret), 'signed').to.equal(true);
      expect(mismatch(d.body), `delivery of ${d.body.type} ${d.body.id}`).to.equal('');
      expect(d.body, 'a delivery carries no delivery state').to.not.have.any.keys(
        'pending_webhooks',
        'webhook_deliveries',
      );
    }

    const ids = new Set(deliveries.map((d) => d.body.id as string));
    const listed = await eventually(async () => {
      const res = await request('GET', '/v1/events?limit=100', { key: t.testKey });
      const mine = (res.body.data as any[]).filter((e) => ids.has(e.id));
      return mine.length === ids.size ? mine : undefined;
    }, 'the delivered events listed');
    for (const e of listed) {
      expect(mismatch(e), `listed ${e.type} ${e.id}`).to.equal('');
      expect(e.pending_webhooks, 'the API adds the delivery state').to.be.a('number');
      const retrieved = await request('GET', `/v1/events/${e.id}`, { key: t.testKey });
      expect(retrieved.status).to.equal(200);
      expect(mismatch(retrieved.body), `retrieved ${e.type} ${e.id}`).to.equal('');
      expect(retrieved.body.webhook_deliveries.map((w: any) => w.webhook_endpoint)).to.include(endpoint.id);
      const { pending_webhooks: _p, webhook_deliveries: _w, ...rendered } = retrieved.body;
      const delivered = deliveries.find((d) => d.body.id === e.id)!.body;
      expect(rendered, 'the delivery is the retrieved event without its delivery state').to.deep.equal(delivered);
    }
  });

  it('refuses an event that breaks it (the check can fail)', () => {
    const event = {
      id: 'evt_01jd5x2v7c0000000000000000',
      object: 'event',
      type: 'call.ended',
      created: 1_700_000_000,
      livemode: false,
      api_version: '2025-01-01',
      data: { object: { id: 'call_1' } },
    };
    expect(mismatch(event)).to.not.equal('');
    expect(mismatch({ ...event, data: undefined })).to.match(/data/);
  });
});
