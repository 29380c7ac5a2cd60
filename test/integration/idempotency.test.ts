/**
 * Idempotency-Key semantics (DESIGN.md section 5): replay, reuse with another body, in-flight conflict,
 * concurrent retries, crash recovery without a second call, expiry, mode scoping.
 */
import { expect } from 'chai';
import { IdempotencyRecord } from '../../src/models/idempotency';
import { RateLimitSlot } from '../../src/models/rate-limits';
import { findByIds, findByIdShared, insertIfAbsentGrouped, updateOneGrouped } from '../../src/models/store';
import { countCalls, countInserts } from '../support/store-calls';
import { startApi } from '../../src/api/server';
import { h, newTenant, request, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('idempotency', () => {
  let t: Tenant;
  const callBody = () => ({ to: '+14155550123', agent_id: t.agentId, simulation: { outcome: 'busy' } });
  const callsOf = async (key: string) => (await request('GET', '/v1/calls?limit=100', { key })).body.data as any[];

  beforeEach(async () => {
    t = await newTenant();
  });

  it('replays the first response for the same key and body, creating one call', async () => {
    const first = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect((await callsOf(t.testKey)).map((c) => c.id)).to.deep.equal([first.body.id]);
  });

  it('refuses the same key with another body (422 idempotency_key_reused)', async () => {
    await request('POST', '/v1/calls', { key: t.testKey, body: callBody(), headers: { 'Idempotency-Key': 'k-2' } });
    const other = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), to: '+14155550124' },
      headers: { 'Idempotency-Key': 'k-2' },
    });
    expect(other.status).to.equal(422);
    expect(other.body.error).to.include({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    const otherPath = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'a', instructions: 'b' },
      headers: { 'Idempotency-Key': 'k-2' },
    });
    expect(otherPath.status).to.equal(422);
    expect(await callsOf(t.testKey)).to.have.length(1);
  });

  it('creates exactly one call under concurrent retries', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        request('POST', '/v1/calls', { key: t.testKey, body: callBody(), headers: { 'Idempotency-Key': 'k-3' } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const inUse = results.filter((r) => r.status === 409);
    expect(ok.length + inUse.length).to.equal(8);
    expect(ok.length).to.be.greaterThan(0);
    expect(new Set(ok.map((r) => r.body.id)).size).to.equal(1);
    for (const r of inUse) expect(r.body.error.code).to.equal('idempotency_key_in_use');
    expect(await callsOf(t.testKey)).to.have.length(1);
  });

  it('holds across several API processes sharing the store', async () => {
    const second = await startApi({ temporal: h().env.client, port: 0, host: '127.0.0.1' });
    try {
      const send = (base: string) =>
        fetch(`${base}/v1/calls`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${t.testKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'k-multi',
          },
          body: JSON.stringify(callBody()),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const results = await Promise.all(
        [h().api.url, second.url, h().api.url, second.url, h().api.url, second.url].map(send),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).to.be.greaterThan(0);
      expect(
        results.every((r) => r.status === 200 || (r.status === 409 && r.body.error.code === 'idempotency_key_in_use')),
      ).to.equal(true);
      expect(new Set(ok.map((r) => r.body.id)).size).to.equal(1);
      // a later retry on either process replays the one call
      const late = await send(second.url);
      expect(late.status).to.equal(200);
      expect(late.body.id).to.equal(ok[0].body.id);
      expect(await callsOf(t.testKey)).to.have.length(1);
    } finally {
      await second.close();
    }
  });

  it('answers 409 idempotency_key_in_use while the first request is executing', async () => {
    const first = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-4' },
    });
    // Put the record back in the state it has while the first request runs.
    await IdempotencyRecord.updateOne(
      { resource_id: first.body.id },
      { $set: { state: 'in_progress', locked_until_ms: Date.now() + 60_000 } },
    );
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-4' },
    });
    expect(res.status).to.equal(409);
    expect(res.body.error).to.include({ type: 'idempotency_error', code: 'idempotency_key_in_use' });
  });

  it('recovers a request that crashed after starting the workflow without starting a second call', async () => {
    const first = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), simulation: { caller: ['TOOL end_call {}'] } },
      headers: { 'Idempotency-Key': 'k-5' },
    });
    await waitForCall(t.testKey, first.body.id);
    // As if the API process died after the workflow started: the response was never stored.
    await IdempotencyRecord.updateOne(
      { resource_id: first.body.id },
      { $set: { state: 'in_progress', locked_until_ms: Date.now() - 1, status_code: null, response_json: null } },
    );
    const retry = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), simulation: { caller: ['TOOL end_call {}'] } },
      headers: { 'Idempotency-Key': 'k-5' },
    });
    expect(retry.status).to.equal(200);
    expect(retry.body.id).to.equal(first.body.id);
    expect(await callsOf(t.testKey)).to.have.length(1);
    const events = (await request('GET', '/v1/events?type=call.ended&limit=100', { key: t.testKey })).body.data;
    expect(events.filter((e: any) => e.data.object.id === first.body.id)).to.have.length(1);
    // and the record is completed now: a further retry is a replay
    const replay = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), simulation: { caller: ['TOOL end_call {}'] } },
      headers: { 'Idempotency-Key': 'k-5' },
    });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('does not consume the key on a validation error', async () => {
    const bad = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), to: 'nope' },
      headers: { 'Idempotency-Key': 'k-6' },
    });
    expect(bad.status).to.equal(400);
    const good = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-6' },
    });
    expect(good.status).to.equal(200);
  });

  it('treats a key older than 24 hours as new', async () => {
    const first = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'k-7' },
    });
    await IdempotencyRecord.updateOne({ resource_id: first.body.id }, { $set: { expires_ms: Date.now() - 1 } });
    const second = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), to: '+14155550124' },
      headers: { 'Idempotency-Key': 'k-7' },
    });
    expect(second.status).to.equal(200);
    expect(second.body.id).to.not.equal(first.body.id);
  });

  it('scopes keys to the organization and mode', async () => {
    const body = { name: 'Same', instructions: 'x' };
    const test = await request('POST', '/v1/agents', { key: t.testKey, body, headers: { 'Idempotency-Key': 'k-8' } });
    const live = await request('POST', '/v1/agents', { key: t.liveKey, body, headers: { 'Idempotency-Key': 'k-8' } });
    const other = await newTenant();
    const otherOrg = await request('POST', '/v1/agents', {
      key: other.testKey,
      body,
      headers: { 'Idempotency-Key': 'k-8' },
    });
    expect([test, live, otherOrg].map((r) => r.status)).to.deep.equal([200, 200, 200]);
    expect(new Set([test.body.id, live.body.id, otherOrg.body.id]).size).to.equal(3);
    expect(live.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('makes a retried end safe: the retry replays instead of answering 409', async () => {
    const call = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { ...callBody(), simulation: { caller: ['a', 'b'], pause_seconds: 5 } },
    });
    await waitForCall(t.testKey, call.body.id, (c) => c.status === 'in_progress');
    const end = await request('POST', `/v1/calls/${call.body.id}/end`, {
      key: t.testKey,
      headers: { 'Idempotency-Key': 'end-1' },
    });
    expect(end.status).to.equal(200);
    const retry = await request('POST', `/v1/calls/${call.body.id}/end`, {
      key: t.testKey,
      headers: { 'Idempotency-Key': 'end-1' },
    });
    expect(retry.status).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal('true');
    expect(retry.body.status).to.equal('completed');
  });

  it('refuses an over-long key', async () => {
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: callBody(),
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'idempotency_key_invalid', param: 'Idempotency-Key' });
  });
});

describe('grouped inserts (insertIfAbsentGrouped)', () => {
  it('answers each insert like insertIfAbsent, duplicates included, in fewer round trips than inserts', async () => {
    const prefix = `grouped:${Date.now()}:${Math.random()}`;
    await insertIfAbsentGrouped(RateLimitSlot, { _id: `${prefix}:0`, expires_ms: 1 });
    // 0 exists already; 3 and 7 are asked twice at once.
    const ids = [0, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9].map((n) => `${prefix}:${n}`);
    const { result, insertOne, insertMany } = await countInserts(RateLimitSlot.collection, () =>
      Promise.all(ids.map((_id) => insertIfAbsentGrouped(RateLimitSlot, { _id, expires_ms: 1 }))),
    );
    expect(result).to.deep.equal([false, true, true, true, false, true, true, true, true, false, true, true]);
    expect(insertOne + insertMany, 'round trips for 12 inserts').to.be.within(1, 3);
    const stored = await findByIds(
      RateLimitSlot,
      Array.from({ length: 10 }, (_, n) => `${prefix}:${n}`),
    );
    expect(stored).to.have.length(10);
  });
});

describe('grouped updates (updateOneGrouped)', () => {
  it('applies each update whose filter matches, and no other, in fewer round trips than updates', async () => {
    const prefix = `grouped-update:${Date.now()}:${Math.random()}`;
    const ids = Array.from({ length: 12 }, (_, n) => `${prefix}:${n}`);
    await RateLimitSlot.collection.insertMany(ids.map((_id) => ({ _id: _id as never, expires_ms: 1 })));
    // Every third filter names a value the document does not hold (as a completion whose lease was taken).
    const { updateOne, bulkWrite } = await countCalls(RateLimitSlot.collection, ['updateOne', 'bulkWrite'], () =>
      Promise.all(
        ids.map((_id, n) =>
          updateOneGrouped(RateLimitSlot, { _id, expires_ms: n % 3 === 2 ? 2 : 1 }, { $set: { expires_ms: 100 + n } }),
        ),
      ),
    );
    expect(updateOne + bulkWrite, 'round trips for 12 updates').to.be.within(1, 3);
    const stored = await findByIds(RateLimitSlot, ids);
    const byId = new Map(stored.map((d) => [d._id, d.expires_ms]));
    expect(ids.map((id) => byId.get(id))).to.deep.equal(ids.map((_, n) => (n % 3 === 2 ? 1 : 100 + n)));
  });
});

describe('shared reads by _id (findByIdShared)', () => {
  it('answers concurrent lookups of one _id with fewer reads, each its own copy', async () => {
    const _id = `shared-read:${Date.now()}:${Math.random()}`;
    await RateLimitSlot.collection.insertOne({ _id: _id as never, expires_ms: 7 });
    const { result, findOne } = await countCalls(RateLimitSlot.collection, ['findOne'], () =>
      Promise.all(
        Array.from({ length: 10 }, () => findByIdShared<{ _id: string; expires_ms: number }>(RateLimitSlot, _id)),
      ),
    );
    expect(findOne, 'reads for 10 lookups').to.be.within(1, 3);
    for (const doc of result) expect(doc).to.deep.equal({ _id, expires_ms: 7 });
    result[0]!.expires_ms = 0;
    expect(result[1]!.expires_ms, 'a copy of its own').to.equal(7);
    expect(await findByIdShared(RateLimitSlot, `${_id}:none`)).to.equal(null);
  });

  it('never answers a lookup with a read that began before it: a write done before the lookup is seen', async () => {
    const _id = `shared-read-fresh:${Date.now()}:${Math.random()}`;
    await RateLimitSlot.collection.insertOne({ _id: _id as never, expires_ms: 1 });
    let first = true;
    const { result } = await countCalls(
      RateLimitSlot.collection,
      ['findOne'],
      async () => {
        // The first read is made at once and held 300 ms on its way back; meanwhile the document is
        // changed, and then another lookup is asked: it must see the change.
        const early = findByIdShared<{ expires_ms: number }>(RateLimitSlot, _id);
        await new Promise((r) => setTimeout(r, 50));
        await RateLimitSlot.collection.updateOne({ _id: _id as never }, { $set: { expires_ms: 2 } });
        const late = findByIdShared<{ expires_ms: number }>(RateLimitSlot, _id);
        return Promise.all([early, late]);
      },
      async (_m, call) => {
        const answer = await call();
        if (first) ((first = false), await new Promise((r) => setTimeout(r, 300)));
        return answer;
      },
    );
    expect(result[0]!.expires_ms, 'the read made before the write').to.equal(1);
    expect(result[1]!.expires_ms, 'the lookup asked after the write').to.equal(2);
  });
});
