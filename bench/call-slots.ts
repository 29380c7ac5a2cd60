/**
 * Call-slot benchmark (not a timed test). Starts the test harness (real Temporal dev server and
 * FerretDB, the API, the in-process worker, the loopback LLM) and measures what the concurrency limit
 * costs and whether it holds, first on an empty store and again on one filled with other tenants' rows
 * (BENCH_FILL_CALLS calls, BENCH_FILL_NUMBERS phone numbers, BENCH_FILL_CONTACTS contacts):
 *
 *   - a slot asked and freed: `tryAcquireCallSlot` (update-with-start of the organization's
 *     `callSlotsWorkflow`, answered at once) then the release signal, one at a time, p50/p99 ms
 *   - `POST /v1/calls` with a free slot (1 client; the place in line is one update of that round trip)
 *   - the hand-off: limit BENCH_LIMIT, BENCH_QUEUED_CALLS short simulated calls placed at once; for the
 *     k-th call that waited, its `dialed_ms` minus the k-th end (`ended_ms`): the release, the
 *     semaphore's workflow task, the grant signal, the call's workflow task and its transition activity,
 *     p50/p99 ms; and the most calls live at once from the calls' own [dialed_ms, ended_ms] (must be the
 *     limit)
 *   - an inbound test call to a connected number (`POST /v1/test_helpers/inbound_calls`: number, contact,
 *     slot, document, workflow start), 1 client, p50/p99 ms
 *
 * Knobs: BENCH_SAMPLES (default 100), BENCH_LIMIT (default 4), BENCH_QUEUED_CALLS (default 40),
 * BENCH_FILL_CALLS (default 20000), BENCH_FILL_NUMBERS (default 5000), BENCH_FILL_CONTACTS (default 20000).
 *
 *   npm run bench:slots
 *
 * Measured on the project's 2-core machine (2026-11-25, `BENCH_SAMPLES=60 npm run bench:slots`; filled:
 * 20,000 calls, 5,000 numbers, 20,000 contacts of other tenants), ms, empty / filled store:
 *
 *   a slot asked (update-with-start)     p50 21 / 33, p99 70 / 53
 *   POST /v1/calls, a slot free          p50 71 / 465, p99 129 / 629
 *   hand-off (an end → the next dialed)  p50 257 / 242, p99 1,592 / 370 (36 hand-offs each)
 *   most calls live at once, limit 4     4 / 4
 *   an inbound test call                 p50 57 / 688, p99 117 / 961
 *
 * The filled store's POST /v1/calls and inbound calls pay the scans of a contact by phone (and an inbound
 * call's number by `route_key`): FerretDB indexes only `_id`. README "Benchmarks" has the table.
 */
import { Call } from '../src/models/calls';
import { Contact } from '../src/models/contacts';
import { PhoneNumber, numberRouteKey } from '../src/models/conversations';
import { releaseCallSlot, tryAcquireCallSlot } from '../src/services/call-slots';
import { setOrgCallLimit } from '../src/services/limits';
import { newId } from '../src/shared/ids';
import { h, isEnded, newTenant, request, startHarness, stopHarness, waitForCall } from '../test/support/harness';
import { mostAtOnce } from '../test/support/call-slots';
import { percentile } from './stats';

const num = (name: string, def: number, max: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`${name} must be an integer 1–${max}`);
  return v;
};
const progress = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);

function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(percentile(s, 50)), p99: r(percentile(s, 99)), max: r(s[s.length - 1]) };
}
const show = (x: ReturnType<typeof stats>) => `p50 ${x.p50} / p99 ${x.p99} / max ${x.max} (n ${x.n})`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Other tenants' rows in the collections the paths read: calls, phone numbers, contacts. */
async function fillStore(calls: number, numbers: number, contacts: number): Promise<void> {
  const orgs = Array.from({ length: 50 }, () => newId('org'));
  const now = Date.now();
  const batch = async (
    n: number,
    row: (i: number) => Record<string, unknown>,
    insert: (r: any[]) => Promise<unknown>,
  ) => {
    for (let i = 0; i < n; i += 500) await insert(Array.from({ length: Math.min(500, n - i) }, (_, k) => row(i + k)));
  };
  await batch(
    calls,
    (i) => ({
      _id: newId('call'),
      org_id: orgs[i % orgs.length],
      livemode: false,
      agent_id: newId('agent'),
      to: '+14155550123',
      status: 'completed',
      direction: i % 2 ? 'inbound' : 'outbound',
      end_reason: 'caller_hung_up',
      simulated: true,
      max_duration_seconds: 600,
      created: Math.floor(now / 1000),
      answered_ms: now,
      ended_ms: now,
    }),
    (rows) => Call.insertMany(rows, { ordered: false }),
  );
  await batch(
    numbers,
    (i) => {
      const org = orgs[i % orgs.length];
      const number = `+1646${String(1_000_000 + i).slice(1)}`;
      return {
        _id: newId('pn'),
        route_key: numberRouteKey(org, false, number),
        org_id: org,
        livemode: false,
        number,
        channels: ['voice', 'sms'],
        created: Math.floor(now / 1000),
      };
    },
    (rows) => PhoneNumber.insertMany(rows, { ordered: false }),
  );
  await batch(
    contacts,
    (i) => ({
      _id: newId('cont'),
      org_id: orgs[i % orgs.length],
      livemode: false,
      phone: `+1718${String(10_000_000 + i).slice(1)}`,
      created: Math.floor(now / 1000),
      updated: Math.floor(now / 1000),
    }),
    (rows) => Contact.collection.insertMany(rows as never[], { ordered: false }),
  );
}

async function measure(label: string, samples: number, limit: number, queued: number) {
  progress(`${label}: a slot asked and freed, ${samples} times`);
  const t = await newTenant();
  const tenant = { orgId: t.orgId, livemode: false };
  const first = newId('call');
  await tryAcquireCallSlot(h().env.client, tenant, first); // starts the semaphore
  await releaseCallSlot(h().env.client, tenant, first);
  const slot: number[] = [];
  for (let i = 0; i < samples; i++) {
    const callId = newId('call');
    slot.push(await timed(() => tryAcquireCallSlot(h().env.client, tenant, callId)));
    await releaseCallSlot(h().env.client, tenant, callId);
  }

  progress(`${label}: POST /v1/calls with a free slot, ${samples} calls`);
  await setOrgCallLimit(t.orgId, 'test', 1000);
  const post: number[] = [];
  const placed: string[] = [];
  for (let i = 0; i < samples; i++)
    post.push(
      await timed(async () => {
        const res = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Bye'] } },
        });
        if (res.status !== 200) throw new Error(`POST /v1/calls: ${res.status} ${JSON.stringify(res.body)}`);
        placed.push(res.body.id);
      }),
    );
  for (const id of placed) await waitForCall(t.testKey, id, isEnded, 120_000);

  progress(`${label}: limit ${limit}, ${queued} calls placed at once`);
  await setOrgCallLimit(t.orgId, 'test', limit);
  const ids = await Promise.all(
    Array.from({ length: queued }, async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['One', 'Two'] } },
      });
      if (res.status !== 200) throw new Error(`POST /v1/calls (burst): ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    }),
  );
  for (const id of ids) await waitForCall(t.testKey, id, isEnded, 300_000);
  const docs = await Call.find({ _id: { $in: ids } }).lean();
  const intervals = docs.map((d) => [d.dialed_ms!, d.ended_ms!] as [number, number]);
  const dials = intervals.map(([a]) => a).sort((a, b) => a - b);
  const ends = intervals.map(([, b]) => b).sort((a, b) => a - b);
  const handoff = dials.slice(limit).map((dialed, k) => dialed - ends[k]);

  progress(`${label}: inbound test calls to a connected number, ${samples} calls`);
  await setOrgCallLimit(t.orgId, 'test', 1000);
  await request('POST', '/v1/phone_numbers', {
    key: t.testKey,
    body: { number: '+14155550160', channels: ['voice'] },
  });
  const inbound: number[] = [];
  const answered: string[] = [];
  for (let i = 0; i < samples; i++)
    inbound.push(
      await timed(async () => {
        const res = await request('POST', '/v1/test_helpers/inbound_calls', {
          key: t.testKey,
          body: { from: '+14155550177', to: '+14155550160', simulation: { caller: ['Bye'] } },
        });
        if (res.status !== 200) throw new Error(`inbound: ${res.status} ${JSON.stringify(res.body)}`);
        answered.push(res.body.id);
      }),
    );
  for (const id of answered) await waitForCall(t.testKey, id, isEnded, 120_000);
  return {
    slot: stats(slot),
    post: stats(post),
    handoff: stats(handoff),
    most: mostAtOnce(intervals),
    inbound: stats(inbound),
  };
}

async function main(): Promise<void> {
  const samples = num('BENCH_SAMPLES', 100, 10_000);
  const limit = num('BENCH_LIMIT', 4, 1000);
  const queued = num('BENCH_QUEUED_CALLS', 40, 10_000);
  const fill = {
    calls: num('BENCH_FILL_CALLS', 20_000, 1_000_000),
    numbers: num('BENCH_FILL_NUMBERS', 5000, 1_000_000),
    contacts: num('BENCH_FILL_CONTACTS', 20_000, 1_000_000),
  };
  await startHarness();
  try {
    const empty = await measure('empty store', samples, limit, queued);
    progress(`filling: ${fill.calls} calls, ${fill.numbers} phone numbers, ${fill.contacts} contacts of other tenants`);
    await fillStore(fill.calls, fill.numbers, fill.contacts);
    const filled = await measure('filled store', samples, limit, queued);
    console.log(`| figure (ms) | empty store | filled store |`);
    console.log('|---|---|---|');
    console.log(`| a slot asked (update-with-start, answered at once) | ${show(empty.slot)} | ${show(filled.slot)} |`);
    console.log(`| POST /v1/calls, a slot free, 1 client | ${show(empty.post)} | ${show(filled.post)} |`);
    console.log(
      `| hand-off: a call's end (ended_ms) → the next call in line dialed | ${show(empty.handoff)} | ${show(filled.handoff)} |`,
    );
    console.log(`| most calls live at once (limit ${limit}) | ${empty.most} | ${filled.most} |`);
    console.log(`| POST /v1/test_helpers/inbound_calls, 1 client | ${show(empty.inbound)} | ${show(filled.inbound)} |`);
  } finally {
    await stopHarness();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
