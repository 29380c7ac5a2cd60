/**
 * The embedded store serves equality filters from indexes: our FerretDB build carries
 * scripts/ferretdb-patches/0002-sqlite-equality-pushdown-uses-indexes.patch, which pushes top-level
 * equality on the leading fields of an index down to SQLite's expression index. Without it every filter but
 * `{_id}` reads the whole table (explain says `SCAN`), and this test fails.
 *
 * Checked through the MongoDB driver against the harness's FerretDB, as the service queries it: the plan of
 * each filter (FerretDB's explain carries SQLite's EXPLAIN QUERY PLAN lines), and that the documents found
 * are exactly MongoDB's answer, including documents whose field is an array holding the value (MongoDB's
 * equality matches those; the pushed-down clause must not lose them).
 */
import mongoose from 'mongoose';
import { expect } from 'chai';
import { newId } from '../../src/shared/ids';

/** The SQLite plan lines and the pushdown flag FerretDB's explain reports for `filter` on `coll`. */
async function planOf(
  coll: mongoose.mongo.Collection,
  filter: Record<string, unknown>,
): Promise<{ plan: string; pushdown: boolean }> {
  const explained = (await coll.find(filter).explain()) as unknown as {
    queryPlanner?: { Plan?: string[] };
    filterPushdown?: boolean;
  };
  return { plan: (explained.queryPlanner?.Plan ?? []).join('\n'), pushdown: explained.filterPushdown === true };
}

describe('store: equality filters use indexes (FerretDB SQLite pushdown patch)', function () {
  this.timeout(60_000);
  let coll: mongoose.mongo.Collection;

  before(async () => {
    const db = mongoose.connection.db;
    if (!db) throw new Error('store not connected');
    coll = db.collection(`pushdown_${newId('tst').slice(4).toLowerCase()}`);
    await coll.createIndex({ org_id: 1, livemode: 1, created: -1 }, { name: 'org_live_created' });
    await coll.createIndex({ call_id: 1, seq: 1 }, { name: 'call_seq' });
    const rows: Record<string, unknown>[] = [];
    // Other tenants' rows, so that a scan and a search differ; then the rows the filters look for.
    for (let i = 0; i < 300; i++) {
      rows.push({
        _id: `other_${i}`,
        org_id: `org_other_${i % 7}`,
        livemode: i % 2 === 0,
        created: i,
        call_id: `c_o${i}`,
        seq: i,
      });
    }
    rows.push(
      { _id: 'a', org_id: 'org_a', livemode: false, created: 1, call_id: 'c1', seq: 1 },
      { _id: 'b', org_id: 'org_a', livemode: true, created: 2, call_id: 'c1', seq: 2 },
      { _id: 'c', org_id: ['org_a', 'org_b'], livemode: false, created: 3, call_id: 'c2', seq: 1 },
      { _id: 'd', org_id: 'org_a', livemode: [false], created: 4, call_id: ['c1'], seq: 3 },
      { _id: 'e', org_id: 'org_<a>', livemode: false, created: 5, call_id: 'c3', seq: 1 },
    );
    await coll.insertMany(rows as never[]);
  });

  after(async () => {
    await coll.drop().catch(() => undefined);
  });

  const ids = async (filter: Record<string, unknown>) =>
    (await coll.find(filter).toArray()).map((d) => String(d._id)).sort();

  it('answers a compound equality prefix from the compound index, arrays included', async () => {
    const filter = { org_id: 'org_a', livemode: false };
    const { plan, pushdown } = await planOf(coll, filter);
    expect(pushdown, plan).to.equal(true);
    expect(plan).to.match(/SEARCH \S+ USING INDEX \S+_org_live_created \(/);
    expect(plan).to.not.match(/\bSCAN /);
    expect(await ids(filter)).to.deep.equal(['a', 'c', 'd']);
  });

  it('answers equality plus a range and a sort from the index prefix', async () => {
    const filter = { call_id: 'c1', seq: { $gte: 2 } };
    const { plan } = await planOf(coll, filter);
    expect(plan).to.match(/USING INDEX \S+_call_seq \(/);
    expect(plan).to.not.match(/\bSCAN /);
    const sorted = await coll.find(filter).sort({ seq: -1 }).toArray();
    expect(sorted.map((d) => String(d._id))).to.deep.equal(['d', 'b']);
  });

  it('answers a count and a delete through the same index', async () => {
    expect(await coll.countDocuments({ org_id: 'org_a', livemode: true })).to.equal(1);
    await coll.insertOne({ _id: 'tmp' as never, org_id: 'org_tmp', livemode: true, created: 9, call_id: 'c9', seq: 1 });
    expect((await coll.deleteMany({ org_id: 'org_tmp' })).deletedCount).to.equal(1);
    expect(await coll.countDocuments({ org_id: 'org_tmp' })).to.equal(0);
  });

  it('reads the whole table (correctly) where no index leads with the filter, or the value has escapes', async () => {
    const noIndex = await planOf(coll, { livemode: true });
    expect(noIndex.pushdown).to.equal(false);
    expect(noIndex.plan).to.match(/\bSCAN /);
    const escaped = { org_id: 'org_<a>' };
    expect((await planOf(coll, escaped)).plan).to.match(/\bSCAN /);
    expect(await ids(escaped)).to.deep.equal(['e']);
  });
});
