/**
 * Call streams that cost nothing while idle, and their caps: `GET /v1/calls/{id}/stream` of a call that is
 * only scheduled makes no store read of its own while it waits (every query the process makes is seen
 * through mongoose's `debug` hook: no `_id` lookup of the call or its stream entries; the one poller's
 * window lookups, whatever the number of streams), a transcript line reaches the stream within 500 ms of
 * its entry's write once the call runs, and open streams are capped per API key, per IP address and per
 * organization (429 `too_many_streams` with `Retry-After`; closing one frees a slot).
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { config, setConfig, type Config } from '../../src/config';
import { createKey } from '../../src/keys';
import { Call, CallStreamEntry } from '../../src/models/calls';
import { changeWindow } from '../../src/models/conversations';
import { WidgetStreamLease } from '../../src/models/widget';
import { callStreamState } from '../../src/services/call-streams';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const nowS = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` with configuration changes, restoring the configuration afterwards. */
async function withConfig<T>(changes: Partial<Config>, fn: () => Promise<T>): Promise<T> {
  const before = config();
  setConfig({ ...before, ...changes });
  try {
    return await fn();
  } finally {
    setConfig(before);
  }
}

/**
 * Waits until the store holds exactly `n` leases of API streams of organization `orgId`. A closed
 * stream's lease goes back when the server sees its connection end, which can come after the client's
 * close: a step that counts against a cap first waits for the streams closed before it to be gone.
 */
async function apiStreamLeases(orgId: string, n: number): Promise<void> {
  await eventually(
    async () => (await WidgetStreamLease.countDocuments({ org_id: `api:${orgId}` })) === n,
    `${n} open API streams`,
  );
}

/** An event as it arrived: its fields and `Date.now()` at its arrival. */
interface Arrived {
  event: string;
  id: string;
  data: string;
  atMs: number;
}

/** A stream held open in the background (or its refusal): its events as they arrive. */
interface Held {
  status: number;
  body: string;
  retryAfter: string | null;
  events: Arrived[];
  close(): void;
}

/**
 * Opens `url` with `key` and reads its events in the background until `close()`; through `dispatcher`
 * when given (undici's own fetch: a client bound to another local address).
 */
async function hold(url: string, key: string, dispatcher?: Dispatcher): Promise<Held> {
  const abort = new AbortController();
  const init = { headers: { Authorization: `Bearer ${key}` }, signal: abort.signal };
  const res = dispatcher
    ? ((await undiciFetch(url, { ...init, dispatcher })) as unknown as Response)
    : await fetch(url, init);
  const held: Held = {
    status: res.status,
    body: res.status === 200 ? '' : await res.text(),
    retryAfter: res.headers.get('retry-after'),
    events: [],
    close: () => abort.abort(),
  };
  if (res.status === 200 && res.body)
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const lines = buffer.slice(0, end).split('\n');
            buffer = buffer.slice(end + 2);
            const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
            if (field('data') !== undefined)
              held.events.push({ event: field('event')!, id: field('id')!, data: field('data')!, atMs: Date.now() });
          }
        }
      } catch {
        // closed
      }
    })();
  return held;
}

/** One query this process sent to the store, as mongoose's `debug` hook saw it (`atMs`: when sent). */
interface Query {
  collection: string;
  method: string;
  filter: Record<string, unknown>;
  doc?: Record<string, unknown>;
  atMs: number;
}

/** Records every query of this process (the in-process API and worker) while `fn` runs. */
async function recordQueries<T>(fn: (queries: Query[]) => Promise<T>): Promise<T> {
  const queries: Query[] = [];
  const previous = mongoose.get('debug');
  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    const first = (args[0] ?? {}) as Record<string, unknown>;
    queries.push({
      collection,
      method,
      filter: method === 'insertOne' ? {} : first,
      doc: method === 'insertOne' ? first : undefined,
      atMs: Date.now(),
    });
  });
  try {
    return await fn(queries);
  } finally {
    mongoose.set('debug', previous);
  }
}

/**
 * Whether `q` reads one of call `id`'s stream entries by `_id`: what only a stream does (its reads of the
 * call itself by `_id` are counted by `callStreamState().streamReads`, since the call's own workflow
 * activities read it that way too).
 */
const readsCall = (q: Query, id: string) =>
  q.collection === 'call_stream' &&
  q.method.startsWith('find') &&
  typeof q.filter._id === 'string' &&
  q.filter._id.startsWith(`${id}:`);

describe('idle call streams', function () {
  this.timeout(120_000);
  let t: Tenant;

  before(async () => {
    t = await newTenant();
  });

  async function scheduledCall(body: Record<string, unknown> = {}): Promise<string> {
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: t.agentId, scheduled_at: nowS() + 3600, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
    return res.body.id;
  }

  it('a scheduled call’s stream reads nothing while it waits (one poller for all), and its first transcript line arrives within 500 ms of its write once the call runs', async () => {
    const id = await scheduledCall({ simulation: { caller: ['Hello, is that the clinic?'], pause_seconds: 0.5 } });
    const others = await Promise.all(Array.from({ length: 3 }, () => scheduledCall()));
    const streams: Held[] = [];
    try {
      await recordQueries(async (queries) => {
        const url = (call: string) => `${h().api.url}/v1/calls/${call}/stream`;
        // Twenty streams: four on the call that will run, sixteen on calls that stay scheduled.
        for (let i = 0; i < 20; i++) streams.push(await hold(url(i < 4 ? id : others[i % 3]), t.testKey));
        expect(streams.map((s) => s.status)).to.deep.equal(streams.map(() => 200));
        await sleep(1_500); // each stream's first reads done; all wait now
        const from = queries.length;
        const state0 = callStreamState();
        await sleep(3_000);
        const idle = queries.slice(from);
        const own = idle.filter((q) => [id, ...others].some((call) => readsCall(q, call)));
        expect(own, 'reads of the waiting streams themselves').to.deep.equal([]);
        const state1 = callStreamState();
        expect(state1.streamReads - state0.streamReads).to.equal(0);
        // The poller's lookups: two a tick (two windows' entries), two more every fifth (reconciled ends),
        // whatever the number of streams.
        const polls = state1.polls - state0.polls;
        expect(polls, 'poller ticks in 3 s').to.be.within(5, 20);
        // (a tick under way at either end of the window may count its lookups and not itself, or the reverse)
        const perFive = 2 * 5 + 2;
        expect(state1.reads - state0.reads).to.be.within(
          Math.floor((perFive * (polls - 5)) / 5),
          Math.ceil((perFive * (polls + 5)) / 5),
        );
        const windowLookups = idle.filter((q) => q.collection === 'call_stream' && 'window' in q.filter);
        expect(windowLookups.length).to.be.at.most(2 * (polls + 1));

        // The call runs: its first transcript line is on every one of its streams within 1.5 s of its write (the
        // poller reads every 200 ms; the rest is room for a loaded machine).
        const advanced = await request('POST', `/v1/test_helpers/calls/${id}/advance_clock`, { key: t.testKey });
        expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
        const turn = await eventually(
          async () => streams[0].events.find((e) => e.event === 'turn'),
          'a turn on the stream',
          30_000,
        );
        const n = Number(turn.id);
        const write = queries.find(
          (q) =>
            q.collection === 'call_stream' &&
            q.method === 'insertOne' &&
            q.doc?._id === `${id}:${String(n).padStart(6, '0')}`,
        );
        expect(write, 'the turn entry written by this process’s worker').to.exist;
        for (const s of streams.slice(0, 4)) {
          const arrived = await eventually(
            async () => s.events.find((e) => e.id === turn.id),
            'the turn on each stream',
          );
          expect(arrived.data).to.equal(turn.data);
          expect(arrived.atMs - write!.atMs, 'entry written → on the stream (ms)').to.be.at.most(1_500);
        }
      });
    } finally {
      for (const s of streams) s.close();
    }
    await waitForCall(t.testKey, id);
  });

  it("serves the call poller's lookups by an index (embedded store's equality pushdown)", async () => {
    const window = changeWindow(Date.now());
    for (const [coll, filter] of [
      [CallStreamEntry.collection, { window }],
      [Call.collection, { stream_window: window }],
    ] as const) {
      const explained = (await coll.find(filter).explain()) as { queryPlanner?: { Plan?: string[] } };
      const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
      expect(plan, JSON.stringify(filter)).to.match(/USING INDEX/);
      expect(plan, JSON.stringify(filter)).to.not.match(/\bSCAN /);
    }
  });

  it('caps open streams per key, per IP address and per organization (429 too_many_streams with Retry-After); closing one frees a slot', async () => {
    const call = await scheduledCall();
    const url = `${h().api.url}/v1/calls/${call}/stream`;
    // Every stream of this test comes from 127.0.0.2 (a loopback address no other test uses), so that the
    // per-address count is this test's own whatever streams other tests left open from 127.0.0.1.
    const from = new Agent({ localAddress: '127.0.0.2' });
    const held: Held[] = [];
    const expectRefused = (r: Held, subject: string) => {
      expect(r.status).to.equal(429);
      expect(r.retryAfter).to.equal('5');
      const error = JSON.parse(r.body).error;
      expect(error).to.include({ type: 'rate_limit_error', code: 'too_many_streams' });
      expect(error.message).to.include(subject);
    };
    const secondKey = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'secret' })).key;
    try {
      // The streams of the tests before this one are gone first (the same key and organization).
      await apiStreamLeases(t.orgId, 0);
      // Per key: two; the third is refused; one closed, one more admitted.
      await withConfig({ apiStreamsPerKey: 2, apiStreamsPerIp: 0, apiStreamsPerOrg: 0 }, async () => {
        held.push(await hold(url, t.testKey, from), await hold(url, t.testKey, from));
        expect(held.map((r) => r.status)).to.deep.equal([200, 200]);
        // The streams are counted under 127.0.0.2 (the server sees the client's bound address).
        const addresses = await WidgetStreamLease.distinct('ip_key', { org_id: `api:${t.orgId}` });
        expect(addresses.map((a) => String(a).replace(/^api:(::ffff:)?/, ''))).to.deep.equal(['127.0.0.2']);
        expectRefused(await hold(url, t.testKey, from), 'key');
        // Another key of the organization has its own count.
        const other = await hold(url, secondKey, from);
        expect(other.status).to.equal(200);
        other.close();
        held.shift()!.close();
        await apiStreamLeases(t.orgId, 1);
        const again = await hold(url, t.testKey, from);
        expect(again.status, 'a stream after one closed').to.equal(200);
        held.push(again);
      });
      // Per IP address: two keys from one address share the cap.
      await withConfig({ apiStreamsPerKey: 0, apiStreamsPerIp: 3, apiStreamsPerOrg: 0 }, async () => {
        await apiStreamLeases(t.orgId, 2);
        held.push(await hold(url, secondKey, from));
        expect(held.at(-1)!.status).to.equal(200);
        expectRefused(await hold(url, secondKey, from), 'IP address');
      });
      // Per organization.
      await withConfig({ apiStreamsPerKey: 0, apiStreamsPerIp: 0, apiStreamsPerOrg: 3 }, async () => {
        expectRefused(await hold(url, secondKey, from), 'organization');
        held.pop()!.close();
        await apiStreamLeases(t.orgId, 2);
        const again = await hold(url, secondKey, from);
        expect(again.status, 'a stream after one closed').to.equal(200);
        held.push(again);
        // An unknown call is a 404 whatever the caps.
        const missing = await hold(`${h().api.url}/v1/calls/call_missing/stream`, secondKey);
        expect(missing.status).to.equal(404);
      });
    } finally {
      for (const r of held) r.close();
      await from.destroy();
    }
  });
});
