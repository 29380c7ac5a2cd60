/**
 * Gauges read from the store at scrape time, registered by the API (src/api/observe.ts) on the process's
 * registry (./metrics.ts): what no single process counts, since calls, deliveries and campaigns run on
 * any worker and outlive them.
 *
 * - `svc_calls_active{status, direction, mode}`: calls queued, ringing or in progress;
 * - `svc_webhook_backlog` and `svc_webhook_backlog_oldest_age_seconds`: deliveries still pending (being
 *   attempted or waiting for a retry) and the age of the oldest one;
 * - `svc_bulk_calls_active{status}` and `svc_bulk_call_contacts{status}`: campaigns running or paused, and
 *   their contacts by status (the counts each campaign's workflow keeps on its document).
 *
 * Each reading is a few indexed queries (calls and deliveries by `status`, campaigns by `status`), made
 * at most once per `READING_TTL_MS` whatever the number of scrapers, and never fails a scrape: a store
 * that does not answer within `READING_WAIT_MS` leaves the last values read (none before the first),
 * and `svc_store_reading_failures_total{reading}` counts it.
 */
import client from 'prom-client';
import { Call } from '../models/calls';
import { WebhookDelivery } from '../models/webhooks';
import { BulkCall } from '../models/bulk-calls';
import { CALL_DIRECTIONS } from '../shared/calls';
import { logger } from '../logger';
import { registry } from './metrics';

/** How long a reading is served before the store is asked again (ms). */
export const READING_TTL_MS = 5_000;
/** How long a scrape waits for a reading in flight before it answers with the last values (ms). */
export const READING_WAIT_MS = 1_000;

/** The statuses of a call that has not ended, as `svc_calls_active` reports them. */
const ACTIVE_CALL_STATUSES = ['queued', 'ringing', 'in_progress'] as const;
/** The statuses of a campaign still dialing or able to resume. */
const ACTIVE_BULK_CALL_STATUSES = ['running', 'paused'] as const;
/** The contact counts a campaign document keeps (src/models/bulk-calls.ts `counts`), `total` aside. */
const CONTACT_STATUSES = ['pending', 'in_progress', 'completed', 'not_reached', 'failed', 'skipped'] as const;

const readingFailures = new client.Counter({
  name: 'svc_store_reading_failures_total',
  help: 'Store readings of scrape-time gauges that failed or took longer than 1 s (the last values were served), by reading.',
  labelNames: ['reading'] as const,
  registers: [registry],
});

/**
 * One value read from the store, shared by every scrape for `READING_TTL_MS` (a failure waits as long
 * before the next try). `get()` never rejects: it resolves to the last value read, or undefined before
 * the first.
 */
export class StoreReading<T> {
  private value: T | undefined;
  private nextReadMs = 0;
  private inflight: Promise<void> | undefined;

  /**
   * @param name the `reading` label of failures
   * @param read the queries; rejects when the store fails
   */
  constructor(
    private readonly name: string,
    private readonly read: () => Promise<T>,
  ) {}

  /** The reading: fresh when the last one is older than the TTL and the store answers within the wait. */
  async get(): Promise<T | undefined> {
    if (!this.inflight && Date.now() >= this.nextReadMs) {
      this.nextReadMs = Date.now() + READING_TTL_MS;
      this.inflight = this.read().then(
        (v) => {
          this.value = v;
        },
        (err) => {
          readingFailures.inc({ reading: this.name });
          logger.debug('metrics: store reading failed', { reading: this.name, error: String(err) });
        },
      );
      void this.inflight.finally(() => (this.inflight = undefined));
    }
    if (this.inflight) {
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        this.inflight.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READING_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (!waited) readingFailures.inc({ reading: this.name });
    }
    return this.value;
  }
}

/** Active calls by status, direction and mode (`test`, `live`), every combination present (0 if none). */
async function readActiveCalls(): Promise<{ status: string; direction: string; mode: string; n: number }[]> {
  // One equality per status, not `$in`: the embedded store answers only equality from an index (FerretDB
  // patch 0002), and the calls table holds every call ever made; these read only the calls not ended.
  const perStatus = await Promise.all(
    ACTIVE_CALL_STATUSES.map(
      (status) =>
        Call.aggregate([
          { $match: { status } },
          { $group: { _id: { status: '$status', direction: '$direction', livemode: '$livemode' }, n: { $sum: 1 } } },
        ]).option({ maxTimeMS: READING_WAIT_MS * 5 }) as Promise<
          { _id: { status: string; direction: string | null; livemode: boolean }; n: number }[]
        >,
    ),
  );
  const groups = perStatus.flat();
  const rows = ACTIVE_CALL_STATUSES.flatMap((status) =>
    CALL_DIRECTIONS.flatMap((direction) => ['test', 'live'].map((mode) => ({ status, direction, mode, n: 0 }))),
  );
  for (const g of groups) {
    const direction = g._id.direction ?? 'outbound'; // calls stored before `direction` existed
    const row = rows.find(
      (r) => r.status === g._id.status && r.direction === direction && r.mode === (g._id.livemode ? 'live' : 'test'),
    );
    if (row) row.n += g.n;
  }
  return rows;
}

/** Pending webhook deliveries and the creation time of the oldest (ms), null when none. */
async function readWebhookBacklog(): Promise<{ pending: number; oldestMs: number | null }> {
  const [pending, oldest] = await Promise.all([
    WebhookDelivery.countDocuments({ status: 'pending' }).maxTimeMS(READING_WAIT_MS * 5),
    WebhookDelivery.findOne({ status: 'pending' }, { created_ms: 1 })
      .sort({ status: 1, created_ms: 1 })
      .maxTimeMS(READING_WAIT_MS * 5)
      .lean(),
  ]);
  return { pending, oldestMs: oldest?.created_ms ?? null };
}

/** Campaigns running or paused, by status, and the sum of their contacts by status. */
async function readBulkCalls(): Promise<{ campaigns: Record<string, number>; contacts: Record<string, number> }> {
  // One equality per status (see readActiveCalls): only the campaigns running or paused are read.
  const docs = (
    await Promise.all(
      ACTIVE_BULK_CALL_STATUSES.map((status) =>
        BulkCall.find({ status }, { status: 1, counts: 1 })
          .maxTimeMS(READING_WAIT_MS * 5)
          .lean(),
      ),
    )
  ).flat();
  const campaigns = Object.fromEntries(ACTIVE_BULK_CALL_STATUSES.map((s) => [s, 0]));
  const contacts = Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0]));
  for (const doc of docs) {
    campaigns[doc.status] = (campaigns[doc.status] ?? 0) + 1;
    for (const s of CONTACT_STATUSES) contacts[s] += doc.counts?.[s] ?? 0;
  }
  return { campaigns, contacts };
}

let registered = false;

/**
 * Registers the store gauges on the process's registry (once; later calls do nothing). The API calls it:
 * one kind of process answers them, so that a dashboard's `max()` over API instances is the value.
 */
export function registerStoreGauges(): void {
  if (registered) return;
  registered = true;
  const calls = new StoreReading('calls', readActiveCalls);
  const backlog = new StoreReading('webhook_backlog', readWebhookBacklog);
  const bulk = new StoreReading('bulk_calls', readBulkCalls);

  new client.Gauge({
    name: 'svc_calls_active',
    help: 'Calls that have not ended, by status (queued, ringing, in_progress), direction and mode; read from the store at scrape time.',
    labelNames: ['status', 'direction', 'mode'] as const,
    registers: [registry],
    async collect() {
      const rows = await calls.get();
      if (rows) for (const r of rows) this.set({ status: r.status, direction: r.direction, mode: r.mode }, r.n);
    },
  });
  new client.Gauge({
    name: 'svc_webhook_backlog',
    help: 'Webhook deliveries pending (being attempted or waiting for a retry); read from the store at scrape time.',
    registers: [registry],
    async collect() {
      const b = await backlog.get();
      if (b) this.set(b.pending);
    },
  });
  new client.Gauge({
    name: 'svc_webhook_backlog_oldest_age_seconds',
    help: 'Age in seconds of the oldest pending webhook delivery (0 when none is pending); read from the store at scrape time.',
    registers: [registry],
    async collect() {
      const b = await backlog.get();
      if (b) this.set(b.oldestMs === null ? 0 : Math.max(0, (Date.now() - b.oldestMs) / 1000));
    },
  });
  new client.Gauge({
    name: 'svc_bulk_calls_active',
    help: 'Bulk call campaigns running or paused, by status; read from the store at scrape time.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const b = await bulk.get();
      if (b) for (const [status, n] of Object.entries(b.campaigns)) this.set({ status }, n);
    },
  });
  new client.Gauge({
    name: 'svc_bulk_call_contacts',
    help: "Contacts of the running and paused bulk call campaigns, by status (pending, in_progress, completed, not_reached, failed, skipped), as each campaign's workflow counts them.",
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const b = await bulk.get();
      if (b) for (const [status, n] of Object.entries(b.contacts)) this.set({ status }, n);
    },
  });
}
