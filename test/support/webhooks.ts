/**
 * Helpers of the webhook tests (test/integration/webhooks*.test.ts): the receiver-side signature check as
 * the README shows it, polling, calls and their events, delivery states.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { newTenant, request } from './harness';
import type { HttpsReceiver } from './https-receiver';

export type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** The receiver-side check, written as the README shows it (5-minute tolerance). */
export function verify(rawBody: string, header: string, secret: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!(Math.abs(Date.now() / 1000 - t) <= 300)) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts.some(
    ([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v) && crypto.timingSafeEqual(Buffer.from(v, 'hex'), expected),
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `until()` returns a truthy value. */
export async function eventually<T>(
  until: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await until();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function createWebhookEndpoint(
  receiver: HttpsReceiver,
  key: string,
  pathname: string,
  events: string[],
  extra: Record<string, unknown> = {},
) {
  const res = await request('POST', '/v1/webhook-endpoints', {
    key,
    body: { url: receiver.url(pathname), events, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

export async function placeCall(tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await request('POST', '/v1/calls', {
    key: tenant.testKey,
    body: { to: '+14155550123', agent_id: tenant.agentId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** The call's events (oldest first), once `count` of them exist. */
export async function callEvents(key: string, callId: string, count: number) {
  return eventually(async () => {
    const res = await request('GET', '/v1/events?limit=100', { key });
    const mine = (res.body.data as any[]).filter((e) => e.data.object.id === callId).reverse();
    return mine.length >= count ? mine : undefined;
  }, `${count} events of ${callId}`);
}

/** `GET /v1/events/{id}` once `until(event)` holds. */
export async function eventWhen(key: string, eventId: string, until: (e: any) => boolean, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const res = await request('GET', `/v1/events/${eventId}`, { key });
      expect(res.status).to.equal(200);
      return until(res.body) ? res.body : undefined;
    },
    `event ${eventId} delivery state`,
    timeoutMs,
  );
}

export const deliveredTo = (e: any, endpointId: string) =>
  (e.webhook_deliveries as any[]).filter((d) => d.webhook_endpoint === endpointId);
export const settled = (e: any) => e.pending_webhooks === 0 && e.webhook_deliveries.length > 0;
