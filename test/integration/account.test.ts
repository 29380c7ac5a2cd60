/**
 * `GET /v1/account` (issue 28 item 5): the key's organization in the key's mode, with its concurrency
 * limit (default 10 in each mode; a limit set for one mode shows in that mode only); every secret and
 * restricted key may read it, a publishable key may not, no key is 401.
 */
import { expect } from 'chai';
import { createKey } from '../../src/keys';
import { DEFAULT_MAX_CONCURRENT_CALLS, orgCallLimit, setOrgCallLimit } from '../../src/services/limits';
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
      limits: { max_concurrent_calls: 10 },
    });
    const live = await request('GET', '/v1/account', { key: t.liveKey });
    expect(live.body).to.include({ id: t.orgId, livemode: true, mode: 'live' });
    expect(live.body.limits).to.deep.equal({ max_concurrent_calls: DEFAULT_MAX_CONCURRENT_CALLS });
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
    });
    expect((await request('GET', '/v1/account', { key: t.testKey })).body.limits).to.deep.equal({
      max_concurrent_calls: 10,
    });
    expect(await orgCallLimit({ orgId: t.orgId, livemode: true })).to.equal(3);
    expect(await orgCallLimit({ orgId: t.orgId, livemode: false })).to.equal(10);
    expect(await orgCallLimit({ orgId: 'org_missing', livemode: true })).to.equal(10);
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
