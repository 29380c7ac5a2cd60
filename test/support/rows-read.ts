/**
 * Counting the rows the embedded store reads for one request (test/integration/list-pushdown*.test.ts): the
 * patched FerretDB (scripts/ferretdb-patches/0003-sqlite-sort-and-ranges-use-indexes.patch) reports, in
 * serverStatus, MongoDB's `metrics.queryExecutor.scannedObjects` (documents its queries read from SQLite).
 */
import mongoose from 'mongoose';
import { expect } from 'chai';
import type { FillPlan } from './scale-fill';
import { request } from './harness';

/** A fill plan of nothing: spread it and set what a test needs. */
export const NONE: FillPlan = {
  calls: 0,
  turnsPerCall: 0,
  conversations: 0,
  messagesPerConversation: 0,
  webEvery: 1_000_000,
  usageRows: 0,
  contacts: 0,
  recordsPerContact: 0,
  knowledgeDocuments: 0,
  chunksPerDocument: 0,
  events: 0,
  deliveries: 0,
  attemptsPerDelivery: 0,
  campaigns: 0,
  resultsPerCampaign: 0,
  auditEvents: 0,
  testSuiteRuns: 0,
};

/**
 * The store's count of documents its queries have read since it started.
 * @throws Error on a store that does not report it (FerretDB without the 0003 patch, MongoDB without the metric)
 */
export async function scannedObjects(): Promise<number> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('store not connected');
  const status = (await db.admin().serverStatus()) as { metrics?: { queryExecutor?: { scannedObjects?: unknown } } };
  const n = status.metrics?.queryExecutor?.scannedObjects;
  if (typeof n !== 'number')
    throw new Error('the store reports no metrics.queryExecutor.scannedObjects (FerretDB without the 0003 patch)');
  return n;
}

/**
 * The rows the store read while answering `GET path` with `key` (expected 200), and the response body. The
 * fewest of five tries, 50 ms apart: anything else the service reads meanwhile (a background job: an
 * earlier test's workflows, a webhook retry) can only add to a try's count, and a burst of it rarely covers
 * all five.
 */
export async function rowsRead(path: string, key: string): Promise<{ rows: number; body: any }> {
  let best = Infinity;
  let body: any;
  for (let i = 0; i < 5; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    const before = await scannedObjects();
    const res = await request('GET', path, { key });
    const after = await scannedObjects();
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    body = res.body;
    best = Math.min(best, after - before);
  }
  return { rows: best, body };
}

/** The ids of `collection`'s rows matching `filter`, newest first (ids are time-ordered). */
export async function idsOf(collection: string, filter: Record<string, unknown>): Promise<string[]> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('store not connected');
  const docs = await db
    .collection(collection)
    .find(filter, { projection: { _id: 1 } })
    .toArray();
  return docs
    .map((d) => String(d._id))
    .sort()
    .reverse();
}
