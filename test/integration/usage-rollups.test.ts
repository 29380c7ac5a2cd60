/**
 * `GET /v1/usage` from the per-day rollups (src/services/usage-rollups.ts): the same report as summing
 * the rows (`usageReportFromRows`, kept as the reference) for a mix of rows, modes, tenants, agents and
 * time zones; a month read from about 31 rollup documents, not the month's rows (counted by the store's
 * own statistics, as test/integration/list-pushdown.test.ts counts them); a row counted once when its
 * writer is retried or crashed at any step; rows stored before rollups added by the backfill.
 */
import { expect } from 'chai';
import { createKey, createOrg } from '../../src/keys';
import { Call } from '../../src/models/calls';
import { UsageRecord, type UsageRow } from '../../src/models/usage';
import { UsageRollup } from '../../src/models/usage-rollups';
import { newId } from '../../src/shared/ids';
import {
  recordUsage,
  usageReport,
  usageReportFromRows,
  type UsagePeriod,
  type UsageScope,
} from '../../src/services/usage';
import { backfillUsageRollups, buildDayTotals, rollupKey } from '../../src/services/usage-rollups';
import { fillStore } from '../support/scale-fill';
import { NONE, scannedObjects } from '../support/rows-read';
import { request } from '../support/harness';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-04-15T12:00:00Z');

/** Rows the store read while `fn` ran: the fewest of three tries (a background job can only add). */
async function rowsRead<T>(fn: () => Promise<T>): Promise<{ rows: number; result: T }> {
  let best = Infinity;
  let result!: T;
  for (let i = 0; i < 3; i++) {
    const before = await scannedObjects();
    result = await fn();
    best = Math.min(best, (await scannedObjects()) - before);
  }
  return { rows: best, result };
}

/** A row of each kind at `ms` (ids unique per call), for `subject` (a call id, for its agent). */
function rowsAt(owner: { orgId: string; livemode: boolean }, ms: number, subject: string, n: number): UsageRow[] {
  const base = { org_id: owner.orgId, livemode: owner.livemode, occurred_ms: ms, subject_id: subject };
  const id = () => `${newId('u')}:${n}`;
  return [
    {
      ...base,
      _id: `call:${id()}`,
      kind: 'call',
      status: n % 3 ? 'completed' : 'busy',
      answered: n % 3 ? 1 : 0,
      talk_seconds: n % 3 ? 61 + n : 0,
      billable_minutes: n % 3 ? 2 : 0,
    },
    { ...base, _id: `llm:${id()}`, kind: 'llm_request', model: 'm', prompt_tokens: 100 + n, completion_tokens: 7 },
    {
      ...base,
      _id: `msg:${id()}`,
      kind: 'message',
      channel: 'whatsapp',
      direction: 'outbound',
      template: (n % 2) as 0 | 1,
    },
    { ...base, _id: `msg:${id()}`, kind: 'message', channel: 'sms', direction: 'inbound', template: 0 },
    { ...base, _id: `wh:${id()}`, kind: 'webhook_attempt', succeeded: (n % 2) as 0 | 1 },
    { ...base, _id: `ks:${id()}`, kind: 'knowledge_search' },
    { ...base, _id: `ana:${id()}`, kind: 'analysis', model: 'm', prompt_tokens: 30, completion_tokens: 3 + n },
  ];
}

/** Instants around the boundaries the reports below cut days at (UTC midnight, local midnights, DST changes). */
const INSTANTS = [
  '2026-03-01T00:00:00.000Z',
  '2026-03-07T23:59:59.999Z',
  '2026-03-08T00:00:00.000Z',
  '2026-03-08T06:59:59.999Z', // New York: the last instant of 7 March (EST)
  '2026-03-08T07:00:00.000Z', // New York: 8 March starts (DST starts at 2:00 that day)
  '2026-03-08T18:29:59.999Z', // Kolkata: the last instant of 8 March
  '2026-03-08T18:30:00.000Z', // Kolkata: 9 March starts
  '2026-03-08T18:15:00.000Z', // Kathmandu (+5:45): 9 March starts
  '2026-03-14T13:14:59.000Z',
  '2026-03-31T23:59:59.999Z',
  '2026-04-01T00:00:00.000Z',
  '2026-02-28T23:59:59.999Z',
  '2026-04-05T14:30:00.000Z', // Lord Howe: DST ends (30-minute shift)
].map(at);

const PERIODS: UsagePeriod[] = [
  { from: '2026-03-01', to: '2026-03-31', timezone: 'UTC' },
  { from: '2026-03-08', to: '2026-03-08', timezone: 'UTC' },
  { from: '2026-03-01', to: '2026-03-31', timezone: 'America/New_York' },
  { from: '2026-03-07', to: '2026-03-09', timezone: 'America/New_York' },
  { from: '2026-03-01', to: '2026-04-01', timezone: 'Asia/Kolkata' },
  { from: '2026-03-08', to: '2026-03-09', timezone: 'Asia/Kathmandu' },
  { from: '2026-02-28', to: '2026-04-10', timezone: 'Australia/Lord_Howe' },
  { from: '2026-03-01', to: '2026-03-31', timezone: 'Pacific/Kiritimati' },
];

describe('usage rollups: GET /v1/usage from per-day sums', function () {
  this.timeout(600_000);

  it('answers exactly what summing the rows answers: kinds, modes, tenants, agents, time zones', async () => {
    const orgs = [await createOrg('Rollups A'), await createOrg('Rollups B')];
    const agentId = newId('agent');
    const owners = orgs.flatMap((o) => [
      { orgId: o.id, livemode: false },
      { orgId: o.id, livemode: true },
    ]);
    // Calls of the first owner's agent (version 1 and 2, and none) that its rows meter.
    await fillStore({ ...NONE, calls: 3 }, [{ ...owners[0], agentId }]);
    const calls = (await Call.find({ org_id: owners[0].orgId, livemode: false }, { _id: 1 }).lean()).map((c) => c._id);
    await Call.updateOne({ _id: calls[0] }, { $set: { agent_version: 1 } });
    await Call.updateOne({ _id: calls[1] }, { $set: { agent_version: 2 } });
    let n = 0;
    for (const [i, owner] of owners.entries())
      for (const ms of INSTANTS)
        for (const row of rowsAt(owner, ms + i, i === 0 ? calls[n % 3] : 'call_none', n++))
          expect(await recordUsage(row)).to.equal(true);

    const scopes: ((o: (typeof owners)[number]) => UsageScope)[] = [
      (o) => o,
      (o) => ({ ...o, agentId }),
      (o) => ({ ...o, agentId, agentVersion: 1 }),
      (o) => ({ ...o, agentId, agentVersion: 2 }),
      (o) => ({ ...o, agentId, agentVersion: 3 }),
    ];
    let nonEmpty = 0;
    for (const owner of owners)
      for (const scope of scopes)
        for (const period of PERIODS) {
          const expected = await usageReportFromRows(scope(owner), period, NOW);
          const actual = await usageReport(scope(owner), period, NOW);
          expect(actual, `${JSON.stringify(scope(owner))} ${JSON.stringify(period)}`).to.deep.equal(expected);
          if (expected.totals.llm.requests > 0) nonEmpty++;
        }
    // The reference saw rows: every owner in every period; the agent and its versions for the first owner.
    expect(nonEmpty).to.equal(4 * PERIODS.length + 3 * PERIODS.length);

    // A zone whose 1971 days do not start on quarter-hours (−0:44:30) is summed from the rows: same answer.
    const liberia: UsagePeriod = { from: '1971-06-01', to: '1971-06-03', timezone: 'Africa/Monrovia' };
    for (const row of rowsAt(owners[1], at('1971-06-02T00:44:30Z'), 'call_none', 0)) await recordUsage(row);
    const old = await usageReport(owners[1], liberia, NOW);
    expect(old).to.deep.equal(await usageReportFromRows(owners[1], liberia, NOW));
    expect(old.daily.map((d) => d.llm.requests)).to.deep.equal([0, 1, 0]);

    // Through the API: the same report.
    const key = (await createKey({ orgId: owners[0].orgId, mode: 'test', kind: 'secret' })).key;
    const res = await request(
      'GET',
      `/v1/usage?from=2026-03-01&to=2026-04-01&timezone=Asia/Kolkata&agent_id=${agentId}`,
      {
        key,
      },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = await usageReportFromRows(
      { ...owners[0], agentId },
      { from: '2026-03-01', to: '2026-04-01', timezone: 'Asia/Kolkata' },
    );
    expect({ ...res.body, as_of: 0 }).to.deep.equal({ ...expected, as_of: 0 });
  });

  it('reads about one rollup per day of the month, not the 5,000 rows of the month', async () => {
    const filled = { orgId: (await createOrg('Rollups filled')).id, livemode: false };
    const empty = { orgId: (await createOrg('Rollups empty')).id, livemode: false };
    const month = { from: '2026-03-01', to: '2026-03-31', timezone: 'UTC' };
    const rows: UsageRow[] = [];
    for (let i = 0; rows.length < 5_000; i++)
      rows.push(
        ...rowsAt(filled, at('2026-03-01T00:00:00Z') + Math.floor((i * 31 * 86_400_000) / 715), 'call_none', i),
      );
    rows.length = 5_000;
    // Stored as rows from before rollups and added in batches (the backfill), as the benchmark's fill does;
    // `recordUsage` adds rows one by one through the same updates (the tests above).
    await UsageRecord.collection.insertMany(rows.map((r) => ({ ...r, recorded_ms: r.occurred_ms })) as never[]);
    expect(await backfillUsageRollups({ force: true })).to.be.at.least(5_000);

    const fromRows = await rowsRead(() => usageReportFromRows(filled, month, NOW));
    expect(fromRows.rows, 'summing the rows reads every row of the month').to.be.at.least(5_000);
    const fromRollups = await rowsRead(() => usageReport(filled, month, NOW));
    const onEmpty = await rowsRead(() => usageReport(empty, month, NOW));
    expect(fromRollups.result).to.deep.equal(fromRows.result);
    expect(fromRollups.result.totals.llm.requests).to.be.greaterThan(700);
    expect(fromRollups.rows - onEmpty.rows, 'rollup documents read beyond an empty tenant').to.be.at.most(31);

    // And a year of it in Kolkata: once summed, a UTC day's twin and a local day's kept sums per day with
    // usage (31 of each here: small documents), still not the rows.
    const year = { from: '2025-12-01', to: '2026-11-30', timezone: 'Asia/Kolkata' };
    const yearRead = await rowsRead(() => usageReport(filled, year, NOW));
    expect(yearRead.result).to.deep.equal(await usageReportFromRows(filled, year, NOW));
    expect(yearRead.rows).to.be.at.most(2 * 32);
  });

  it('adds concurrent rows to a new day exactly (writers racing to create its rollup)', async () => {
    const owner = { orgId: (await createOrg('Rollups concurrent')).id, livemode: false };
    const day = { from: '2026-03-12', to: '2026-03-12', timezone: 'UTC' };
    const messages = Array.from({ length: 40 }, (_, i) => rowsAt(owner, at('2026-03-12T08:00:00Z') + i, 'm', i)[2]);
    expect(await Promise.all(messages.map((r) => recordUsage(r)))).to.deep.equal(messages.map(() => true));
    const report = await usageReport(owner, day, NOW);
    expect(report.totals.messages.outbound.whatsapp + report.totals.messages.outbound.whatsapp_template).to.equal(40);
    expect(report).to.deep.equal(await usageReportFromRows(owner, day, NOW));
  });

  it('counts a row once when its writer is retried or crashed after storing it', async () => {
    const owner = { orgId: (await createOrg('Rollups retries')).id, livemode: false };
    const day = { from: '2026-03-10', to: '2026-03-10', timezone: 'UTC' };
    const requests = async () => (await usageReport(owner, day, NOW)).totals.llm.requests;
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => rowsAt(owner, at('2026-03-10T10:00:00Z'), 'call_none', i)[1]);

    // A retry of a write that completed: stored once, counted once.
    expect(await recordUsage(a)).to.equal(true);
    expect(await recordUsage(a)).to.equal(false);
    // Two attempts at once (a retry while the first is still running).
    expect((await Promise.all([recordUsage(b), recordUsage(b)])).sort()).to.deep.equal([false, true]);
    expect(await requests()).to.equal(2);

    // A crash between storing the row and adding it: pending, with its writer's lease run out. A retry
    // of the activity adds it, once.
    const expired = { rollup: 'pending', rollup_key: rollupKey(c._id), rollup_lease_ms: Date.now() - 1 };
    await UsageRecord.collection.insertOne({ ...c, recorded_ms: Date.now(), ...expired } as never);
    expect(await recordUsage(c)).to.equal(false);
    expect(await requests()).to.equal(3);
    expect(await recordUsage(c)).to.equal(false);
    expect(await requests()).to.equal(3);

    // A crash after adding it to the rollups (the quarter-hours and their `day:` twin) but before marking
    // the row: both still hold its key. Found pending by the next report, which adds it again: no change.
    await UsageRecord.collection.updateOne({ _id: c._id } as never, { $set: expired });
    const rollupOfDay = { org_id: owner.orgId, livemode: false, scope: { $in: ['all', 'day:all'] }, day: '2026-03-10' };
    await UsageRollup.collection.updateMany(rollupOfDay, { $push: { applied: rollupKey(c._id) } } as never);
    expect(await requests()).to.equal(3);
    expect((await UsageRecord.findById(c._id).lean())?.rollup).to.equal('done');
    for (const doc of await UsageRollup.find(rollupOfDay).lean()) expect(doc.applied ?? []).to.deep.equal([]);
    // A crash between the two: the quarter-hours hold its key, the twin does not yet. Added to the twin alone.
    await UsageRecord.collection.updateOne({ _id: c._id } as never, { $set: expired });
    await UsageRollup.collection.updateOne({ ...rollupOfDay, scope: 'all' }, {
      $push: { applied: rollupKey(c._id) },
    } as never);
    await UsageRollup.collection.updateOne({ ...rollupOfDay, scope: 'day:all' }, {
      $inc: {
        'total.llm.requests': -1,
        'total.llm.prompt_tokens': -(c as { prompt_tokens: number }).prompt_tokens,
        'total.llm.completion_tokens': -7,
      },
    } as never);
    expect(await requests()).to.equal(3);
    expect(await usageReport(owner, day, NOW)).to.deep.equal(await usageReportFromRows(owner, day, NOW));

    // A crash between storing the row and adding it, never retried: the next report adds it.
    await UsageRecord.collection.insertOne({
      ...d,
      recorded_ms: Date.now(),
      ...expired,
      rollup_key: rollupKey(d._id),
    } as never);
    expect(await requests()).to.equal(4);
    expect(await requests()).to.equal(4);
    // While its writer's lease runs, a stored row is left to its writer.
    const e = rowsAt(owner, at('2026-03-10T10:00:00Z'), 'call_none', 4)[1];
    await UsageRecord.collection.insertOne({
      ...e,
      recorded_ms: Date.now(),
      rollup: 'pending',
      rollup_key: rollupKey(e._id),
      rollup_lease_ms: Date.now() + 60_000,
    } as never);
    expect(await requests(), 'left to its writer').to.equal(4);
    await UsageRecord.collection.updateOne({ _id: e._id } as never, { $set: { rollup_lease_ms: Date.now() - 1 } });
    expect(await requests(), 'its writer did not add it in time').to.equal(5);
    expect(await usageReport(owner, day, NOW)).to.deep.equal(await usageReportFromRows(owner, day, NOW));
  });

  it('reads the day sums for UTC days and the quarter-hours (once) for other zones', async () => {
    const owner = { orgId: (await createOrg('Rollups day twins')).id, livemode: false };
    for (const [i, ms] of INSTANTS.entries())
      for (const row of rowsAt(owner, ms, 'call_none', i)) await recordUsage(row);
    const utc = { from: '2026-03-01', to: '2026-03-31', timezone: 'UTC' };
    const kolkata = { from: '2026-03-01', to: '2026-03-31', timezone: 'Asia/Kolkata' };
    const reference = {
      utc: await usageReportFromRows(owner, utc, NOW),
      kolkata: await usageReportFromRows(owner, kolkata, NOW),
    };
    expect(reference.utc.totals.llm.requests).to.be.greaterThan(5);
    const twins = await UsageRollup.find({ org_id: owner.orgId, scope: 'day:all' }).lean();
    const quarterHours = await UsageRollup.find({ org_id: owner.orgId, scope: 'all' }).lean();
    expect(twins.map((t) => t.day).sort()).to.deep.equal(quarterHours.map((q) => q.day).sort());

    // Without their quarter-hours, UTC days still add up (read from the twins); Kolkata's days cannot.
    await UsageRollup.collection.updateMany({ org_id: owner.orgId, scope: 'all' }, { $set: { slots: {} } });
    expect(await usageReport(owner, utc, NOW)).to.deep.equal(reference.utc);
    expect((await usageReport(owner, kolkata, NOW)).totals.llm.requests).to.equal(0);
  });

  it("keeps a time zone's days once summed, and sums a day again when a row is added to it", async () => {
    const owner = { orgId: (await createOrg('Rollups zone cache')).id, livemode: false };
    for (const [i, ms] of INSTANTS.entries())
      for (const row of rowsAt(owner, ms, 'call_none', i)) await recordUsage(row);
    const kolkata = { from: '2026-03-01', to: '2026-03-31', timezone: 'Asia/Kolkata' };
    expect(await usageReport(owner, kolkata, NOW)).to.deep.equal(await usageReportFromRows(owner, kolkata, NOW));
    const cached = { org_id: owner.orgId, livemode: false, scope: 'zone:Asia/Kolkata:all', day: '2026-03-09' };
    expect(await UsageRollup.countDocuments(cached), 'the day is kept').to.equal(1);
    const kept = (await UsageRollup.countDocuments({ org_id: owner.orgId, scope: 'zone:Asia/Kolkata:all' })) as number;
    expect(kept, 'days without usage are not kept').to.be.below(31);

    // Read from what was kept (altered here to tell it apart), not summed again.
    await UsageRollup.collection.updateOne(cached, { $set: { 'total.knowledge.searches': 999 } });
    const fromCache = await usageReport(owner, kolkata, NOW);
    expect(fromCache.daily.find((d) => d.date === '2026-03-09')!.knowledge.searches).to.equal(999);

    // A row added to one of its UTC days: that local day is summed again (and only the days it touches).
    const late = rowsAt(owner, at('2026-03-08T20:00:00Z'), 'call_none', 99)[1];
    expect(await recordUsage(late)).to.equal(true);
    const after = await usageReport(owner, kolkata, NOW);
    expect(after).to.deep.equal(await usageReportFromRows(owner, kolkata, NOW));
    expect(after.daily.find((d) => d.date === '2026-03-09')!.llm.requests).to.equal(
      fromCache.daily.find((d) => d.date === '2026-03-09')!.llm.requests + 1,
    );

    // A day kept with other bounds (a time zone database update moved them) is summed again.
    await UsageRollup.collection.updateOne(cached, { $set: { bounds: [0, 1], 'total.knowledge.searches': 999 } });
    expect(await usageReport(owner, kolkata, NOW)).to.deep.equal(await usageReportFromRows(owner, kolkata, NOW));
  });

  it('gives the quarter-hour documents of an older store their day sums, once, with rows in flight counted once', async () => {
    const owner = { orgId: (await createOrg('Rollups upgrade')).id, livemode: true };
    const rows = INSTANTS.flatMap((ms, i) => rowsAt(owner, ms, 'call_none', i));
    for (const row of rows) await recordUsage(row);
    const utc = { from: '2026-03-01', to: '2026-03-31', timezone: 'UTC' };
    const reference = await usageReportFromRows(owner, utc, NOW);
    // The store as the previous release left it: no twins, no marker; one row in flight (added to its
    // quarter-hours, its key still there, the row pending after its writer crashed).
    await UsageRollup.collection.deleteMany({ org_id: owner.orgId, scope: /^day:/ } as never);
    await UsageRollup.collection.deleteOne({ _id: 'backfill:day-totals:v1' } as never);
    const inFlight = rows[1];
    await UsageRecord.collection.updateOne({ _id: inFlight._id } as never, {
      $set: { rollup: 'pending', rollup_lease_ms: Date.now() - 1 },
    });
    await UsageRollup.collection.updateOne(
      {
        org_id: owner.orgId,
        livemode: true,
        scope: 'all',
        day: new Date(inFlight.occurred_ms).toISOString().slice(0, 10),
      },
      { $push: { applied: rollupKey(inFlight._id) } } as never,
    );
    expect(await UsageRollup.countDocuments({ org_id: owner.orgId, scope: /^day:/ }), 'no twins yet').to.equal(0);

    expect(await buildDayTotals()).to.be.at.least(INSTANTS.length / 2);
    expect(await usageReport(owner, utc, NOW)).to.deep.equal(reference);
    expect(await buildDayTotals(), 'once').to.equal(0);
    expect(await backfillUsageRollups({ force: true }), 'the rebuild folds nothing new').to.equal(0);
    expect(await usageReport(owner, utc, NOW)).to.deep.equal(reference);
  });

  it('adds the rows stored before rollups (backfill), once', async () => {
    const owner = { orgId: (await createOrg('Rollups backfill')).id, livemode: true };
    const month = { from: '2026-03-01', to: '2026-03-31', timezone: 'Europe/Paris' };
    const legacy = INSTANTS.flatMap((ms, i) => rowsAt(owner, ms, 'call_none', i)).map((r) => ({
      ...r,
      recorded_ms: r.occurred_ms,
    }));
    await UsageRecord.collection.insertMany(legacy as never[]);
    const reference = await usageReportFromRows(owner, month, NOW);
    expect(reference.totals.llm.requests).to.be.greaterThan(5);
    expect((await usageReport(owner, month, NOW)).totals.llm.requests, 'not in the rollups yet').to.equal(0);

    expect(await backfillUsageRollups({ force: true })).to.be.at.least(legacy.length);
    expect(await usageReport(owner, month, NOW)).to.deep.equal(reference);
    expect(await backfillUsageRollups({ force: true })).to.equal(0);
    expect(await backfillUsageRollups()).to.equal(0);
    expect(await usageReport(owner, month, NOW)).to.deep.equal(reference);
  });
});
