/**
 * Limits per tenant: the widget's per-IP limit counts per organization and IP address
 * (one organization's visitors never spend another's budget), and with `TRUST_PROXY` the address is the
 * visitor's from `X-Forwarded-For` (behind a load balancer every visitor is not one bucket); without it
 * the header is ignored.
 */
import { expect } from 'chai';
import { createKey } from '../../src/keys';
import { config, setConfig } from '../../src/config';
import { h, newTenant } from '../support/harness';
import { startApiProcess, type ApiProcess } from '../support/widget';

/** A tenant with a test-mode publishable key. */
async function widgetTenant() {
  const t = await newTenant();
  return { ...t, pk: (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key };
}

/** Opens a widget session through `base`, as a visitor at `forwardedFor` (a load balancer's header). */
async function openSession(base: string, pk: string, visitor: string, forwardedFor?: string): Promise<number> {
  const res = await fetch(`${base}/v1/widget/session`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${pk}`,
      'Content-Type': 'application/json',
      ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
    },
    body: JSON.stringify({ visitor_id: visitor }),
  });
  await res.text();
  return res.status;
}

/** Opens sessions until one is refused 429 (at most `max`); answers how many were admitted. */
async function admittedUntilLimited(base: string, pk: string, forwardedFor?: string, max = 12): Promise<number> {
  for (let i = 0; i < max; i++) {
    const status = await openSession(base, pk, `v-${Date.now()}-${i}`, forwardedFor);
    if (status === 429) return i;
    expect(status).to.equal(200);
  }
  return max;
}

describe('widget limits per tenant', function () {
  this.timeout(120_000);
  let api: ApiProcess | undefined;
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  it('counts per organization and IP address, and behind a proxy (TRUST_PROXY) per visitor address', async () => {
    api = await startApiProcess({ WIDGET_RATE_LIMIT_IP: '3', TRUST_PROXY: 'loopback' });
    const [a, b] = await Promise.all([widgetTenant(), widgetTenant()]);
    // Three a minute each (four if the minute turns meanwhile): org A's visitor at 203.0.113.7 is limited…
    expect(await admittedUntilLimited(api.url, a.pk, '203.0.113.7')).to.be.within(3, 6);
    // …org B's visitor at the same address is not (its own bucket), nor org A's visitor at another address.
    expect(await openSession(api.url, b.pk, 'b-1', '203.0.113.7')).to.equal(200);
    expect(await openSession(api.url, a.pk, 'a-other', '198.51.100.9')).to.equal(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: every forwarded visitor of an organization is its one address', async () => {
    const saved = config();
    setConfig({ ...saved, widgetRateLimitIp: 3 });
    try {
      const a = await widgetTenant();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push(await openSession(h().api.url, a.pk, `x-${i}`, `198.51.100.${i + 1}`));
      expect(statuses.filter((s) => s === 429).length, statuses.join(',')).to.be.at.least(1);
      // Another organization from the same address still opens sessions.
      const b = await widgetTenant();
      expect(await openSession(h().api.url, b.pk, 'b-1')).to.equal(200);
    } finally {
      setConfig(saved);
    }
  });
});
