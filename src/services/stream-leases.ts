/**
 * Caps on open streams, counted across API processes: each open stream holds a lease
 * (`widget_stream_leases`, src/models/widget.ts) naming its opener (`session_id`: a widget session, an API
 * key, a console user), its address (`ip_key`), its organization (`org_id`) and the holder id of the API
 * process serving it. Each kind of stream writes its own prefix into those keys (`wses_…` alone for the
 * widget, `api:` for the call and console streams), so each kind's caps count only its own streams.
 *
 * Opening a stream inserts the lease, then counts the leases of each key (an equality on an indexed key;
 * past the cap, the leases of live holders only) and gives it back past a cap: 429 with `Retry-After`.
 * Two streams opened at the same instant may both be refused at the limit, never both admitted past it.
 * A process renews its holder document (`widget_stream_holders`) every 15 s while it holds leases; the
 * leases of a holder expired for 45 s (a killed process) count for nothing and are deleted by the count
 * that meets them.
 */
import ipaddr from 'ipaddr.js';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { insertIfAbsent, isDuplicateKey } from '../models/store';
import { WidgetStreamHolder, WidgetStreamLease } from '../models/widget';
import { newId } from '../shared/ids';

/** The holder id of this API process: its leases name it. */
const HOLDER_ID = newId('wsth');
/** How long a holder counts as alive after its last renewal (ms). */
export const HOLDER_TTL_MS = 45_000;
/** How often a process holding leases renews its holder (ms). */
const HOLDER_RENEW_MS = 15_000;
/** How long a refused stream is asked to wait before trying again (s; `Retry-After`). */
export const STREAM_RETRY_AFTER_S = 5;

/** Leases this process holds, and leases whose deletion failed (retried at each renewal). */
let held = 0;
const undeleted = new Set<string>();
let renewal: NodeJS.Timeout | null = null;

async function renewHolder(): Promise<void> {
  const renew = () =>
    WidgetStreamHolder.updateOne(
      { _id: HOLDER_ID },
      { $set: { expires_ms: Date.now() + HOLDER_TTL_MS } },
      { upsert: true },
    );
  // Two upserts of a missing document at once: one inserts, the other meets its key; once more updates it.
  await renew().catch((err) => (isDuplicateKey(err) ? renew() : Promise.reject(err)));
}

/** The holder written and its renewal running (null while this process holds no lease). */
let holderReady: Promise<void> | null = null;

/** Keeps the holder alive while this process holds leases (or has leases left to delete). */
function startRenewal(): Promise<void> {
  holderReady ??= renewHolder().then(
    () => {
      renewal ??= setInterval(() => {
        if (held === 0 && undeleted.size === 0) {
          clearInterval(renewal!);
          renewal = null;
          holderReady = null;
          return;
        }
        renewHolder().catch((err) => logger.warn('stream holder not renewed', { error: String(err) }));
        for (const id of undeleted)
          WidgetStreamLease.deleteOne({ _id: id })
            .then(() => undeleted.delete(id))
            .catch(() => undefined);
      }, HOLDER_RENEW_MS);
      renewal.unref();
    },
    (err) => {
      holderReady = null;
      throw err;
    },
  );
  return holderReady;
}

/** Open streams among the leases matching `filter` (one indexed key): those of live holders. */
async function openStreams(filter: Record<string, string>): Promise<number> {
  const rows = await WidgetStreamLease.find(filter, { _id: 0, holder: 1 }).lean();
  const byHolder = new Map<string, number>();
  for (const row of rows) byHolder.set(row.holder, (byHolder.get(row.holder) ?? 0) + 1);
  let open = 0;
  for (const [holder, n] of byHolder) {
    if (holder === HOLDER_ID) {
      open += n;
      continue;
    }
    const doc = await WidgetStreamHolder.findById(holder, { expires_ms: 1 }).lean();
    if (doc && doc.expires_ms > Date.now()) open += n;
    else
      WidgetStreamLease.deleteMany({ holder }).catch((err) =>
        logger.warn('leases of an expired stream holder not deleted', { holder, error: String(err) }),
      );
  }
  return open;
}

/**
 * One spelling per address: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a dual-stack listener
 * sees) as its IPv4 form (ipaddr.js `process`), so a client counts once whichever process it reaches.
 * Anything that is not an address is kept as it is.
 */
export function clientAddress(ip: string): string {
  return ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : ip;
}

/** One cap a new stream is checked against. */
export interface StreamCap {
  /** The lease field counted, and this stream's value of it. */
  field: 'session_id' | 'ip_key' | 'org_id';
  value: string;
  /** At most this many open streams with that value; 0 turns the cap off. */
  limit: number;
  /** Says whose streams, in the refusal: `from this IP address`. */
  subject: string;
}

/** A kind of stream's caps and the refusal past them. */
export interface StreamLeaseRequest {
  /** Exactly one cap per field. */
  caps: StreamCap[];
  /** The refusal's `code` (`stream_limit_exceeded` for the widget's, `too_many_streams` for the API's). */
  code: string;
  /** What the streams are, in the refusal: `widget streams`. */
  what: string;
  /** How to close one, in the refusal: `EventSource.close()`. */
  howToClose: string;
}

/**
 * Takes a lease for a new stream and checks `request.caps`. Returns the function that gives the lease
 * back when the stream ends (never throws; a failed deletion is retried). With every cap off, takes none.
 * @throws ApiError 429 `rate_limit_error` / `request.code` with `Retry-After: 5` past a cap (the lease
 *   given back); the store's error when it does not answer
 */
export async function acquireLease(request: StreamLeaseRequest): Promise<() => Promise<void>> {
  const { caps } = request;
  if (caps.every((cap) => cap.limit === 0)) return async () => undefined;
  await startRenewal();
  const id = newId('wstr');
  const fields = Object.fromEntries(caps.map((cap) => [cap.field, cap.value]));
  await insertIfAbsent(WidgetStreamLease, {
    _id: id,
    holder: HOLDER_ID,
    session_id: fields.session_id,
    ip_key: fields.ip_key,
    org_id: fields.org_id,
    created_ms: Date.now(),
  });
  held++;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    held--;
    try {
      await WidgetStreamLease.deleteOne({ _id: id });
    } catch {
      undeleted.add(id);
    }
  };
  try {
    for (const { field, value, limit, subject } of caps) {
      if (limit === 0) continue;
      // A count first (no rows sent); only past the cap are the holders checked (a dead process's leases).
      if ((await WidgetStreamLease.countDocuments({ [field]: value })) <= limit) continue;
      if ((await openStreams({ [field]: value })) > limit)
        throw new ApiError(
          429,
          'rate_limit_error',
          request.code,
          `Too many open ${request.what} ${subject}: at most ${limit}. Close one (${request.howToClose}) before opening another.`,
          undefined,
          { 'Retry-After': String(STREAM_RETRY_AFTER_S) },
        );
    }
  } catch (err) {
    await release();
    throw err;
  }
  return release;
}
