/**
 * Widget streams that cost nothing while idle: one poller per API process shared by all the
 * streams it serves, and caps on open streams counted across API processes.
 *
 * The poller. A stream (src/api/widget.ts, src/api/sse.ts) reads its conversation's log by `_id`, entry
 * after entry; once it has read everything it waits, and only this process's poller wakes it. While the
 * process serves at least one stream, every `WIDGET_STREAM_POLL_MS` (default 200 ms) the poller asks the
 * store which log entries were written lately: the entries of the current and the previous change window
 * (`conversation_log.window`, src/models/conversations.ts `changeWindow`, 5 s each), two equality
 * lookups on the `{window: 1}` index, so an idle service reads no rows at all, whatever the number of open
 * streams, and a busy one reads the last 5–10 s of web messages. A stream is woken only when an entry of
 * its own conversation is newer than the last it sent. With no open stream the poller stops (no timer, no
 * query). Every API process polls the store itself, so any process serves any stream and nothing in
 * memory matters across processes. A poll that fails (the store unreachable) is retried at the next tick,
 * and the first poll that succeeds after it wakes every stream once (each reads its next entry by `_id`),
 * so an entry written during the outage is not missed. Assumes the clocks of the API and worker hosts
 * agree within the 5 s a window is wide (NTP).
 *
 * The caps. Each open stream holds a lease (`widget_stream_leases`) naming its session, its
 * organization and IP address, its organization and the holder id of the API process serving it. Opening
 * a stream inserts the lease, then counts the leases of each key (an equality on an indexed key; past the
 * cap, the leases of live holders only) and gives it back past a cap: 429 `stream_limit_exceeded`. Two streams opened at the same instant may both be
 * refused at the limit, never both admitted past it. A process renews its holder document
 * (`widget_stream_holders`) every 15 s while it holds leases; the leases of a holder expired for 45 s (a
 * killed process) count for nothing and are deleted by the count that meets them.
 */
import ipaddr from 'ipaddr.js';
import { config } from '../config';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { changeWindow, CHANGE_WINDOW_MS, ConversationLogEntry } from '../models/conversations';
import { insertIfAbsent, isDuplicateKey } from '../models/store';
import { WidgetStreamHolder, WidgetStreamLease } from '../models/widget';
import { newId } from '../shared/ids';

/** A stream waiting for its conversation's next log entry. */
export interface ConversationWatcher {
  conversationId: string;
  /** The `seq` of the last log entry the stream has sent (0: none). */
  last(): number;
  /** Called when the conversation has an entry after `last()` (or may have, after a failed poll). */
  wake(): void;
}

/** The watchers of this process, by conversation id. */
const watchers = new Map<string, Set<ConversationWatcher>>();
/** Whether the poll loop runs (a timer is set or a poll is under way). */
let polling = false;
/** A poll failed: the next one that succeeds wakes every watcher. */
let missed = false;
/** Polls run by this process since it started (for tests and operators). */
let polls = 0;

/**
 * Registers `watcher` with this process's poller (started by the first watcher) and returns the function
 * that removes it; the poller stops once no watcher is left.
 */
export function watchConversation(watcher: ConversationWatcher): () => void {
  let set = watchers.get(watcher.conversationId);
  if (!set) watchers.set(watcher.conversationId, (set = new Set()));
  set.add(watcher);
  if (!polling) {
    polling = true;
    schedulePoll();
  }
  return () => {
    const current = watchers.get(watcher.conversationId);
    current?.delete(watcher);
    if (current?.size === 0) watchers.delete(watcher.conversationId);
  };
}

/** The poller's state in this process: conversations watched and polls run so far. */
export function conversationPollerState(): { conversations: number; polling: boolean; polls: number } {
  return { conversations: watchers.size, polling, polls };
}

function schedulePoll(): void {
  setTimeout(() => void poll(), config().widgetStreamPollMs).unref();
}

/** One tick: the entries of the previous and the current change window; wakes the streams they concern. */
async function poll(): Promise<void> {
  if (watchers.size === 0) {
    polling = false;
    return;
  }
  try {
    const now = Date.now();
    for (const window of [changeWindow(now - CHANGE_WINDOW_MS), changeWindow(now)]) {
      const rows = await ConversationLogEntry.find({ window }, { _id: 0, conversation_id: 1, seq: 1 }).lean();
      for (const row of rows)
        for (const watcher of watchers.get(row.conversation_id) ?? []) if (row.seq > watcher.last()) watcher.wake();
    }
    if (missed) {
      missed = false;
      for (const set of watchers.values()) for (const watcher of set) watcher.wake();
    }
  } catch (err) {
    if (!missed) logger.warn('widget stream poll failed; retried at the next tick', { error: String(err) });
    missed = true;
  } finally {
    polls++;
    schedulePoll();
  }
}

/** The holder id of this API process: its leases name it. */
const HOLDER_ID = newId('wsth');
/** How long a holder counts as alive after its last renewal (ms). */
export const HOLDER_TTL_MS = 45_000;
/** How often a process holding leases renews its holder (ms). */
const HOLDER_RENEW_MS = 15_000;
/** How long a refused stream is asked to wait before trying again (s; `Retry-After`). */
const STREAM_RETRY_AFTER_S = 5;

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
        renewHolder().catch((err) => logger.warn('widget stream holder not renewed', { error: String(err) }));
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
        logger.warn('leases of an expired widget stream holder not deleted', { holder, error: String(err) }),
      );
  }
  return open;
}

/**
 * One spelling per address: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a dual-stack listener
 * sees) as its IPv4 form (ipaddr.js `process`), so a visitor counts once whichever process it reaches.
 * Anything that is not an address is kept as it is.
 */
function clientAddress(ip: string): string {
  return ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : ip;
}

/** Who opens a stream. */
export interface StreamOpener {
  orgId: string;
  sessionId: string;
  /** The client's IP address (`req.ip`: the visitor's behind a proxy with `TRUST_PROXY`). */
  ip: string;
}

/**
 * Takes a lease for a new stream of `opener` and checks the caps (`WIDGET_STREAMS_PER_SESSION`,
 * `WIDGET_STREAMS_PER_IP` per organization, `WIDGET_STREAMS_PER_ORG`; 0 turns one off). Returns the
 * function that gives the lease back when the stream ends (never throws; a failed deletion is retried).
 * @throws ApiError 429 `rate_limit_error` / `stream_limit_exceeded` with `Retry-After` past a cap (the
 *   lease given back); the store's error when it does not answer
 */
export async function acquireStreamLease(opener: StreamOpener): Promise<() => Promise<void>> {
  const cfg = config();
  const ipKey = `${opener.orgId}:${clientAddress(opener.ip)}`;
  const caps: [Record<string, string>, number, string][] = [
    [{ session_id: opener.sessionId }, cfg.widgetStreamsPerSession, 'in this widget session'],
    [{ ip_key: ipKey }, cfg.widgetStreamsPerIp, 'from this IP address'],
    [{ org_id: opener.orgId }, cfg.widgetStreamsPerOrg, 'for this organization'],
  ];
  if (caps.every(([, limit]) => limit === 0)) return async () => undefined;
  await startRenewal();
  const id = newId('wstr');
  await insertIfAbsent(WidgetStreamLease, {
    _id: id,
    holder: HOLDER_ID,
    session_id: opener.sessionId,
    ip_key: ipKey,
    org_id: opener.orgId,
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
    for (const [filter, limit, subject] of caps) {
      if (limit === 0) continue;
      // A count first (no rows sent); only past the cap are the holders checked (a dead process's leases).
      if ((await WidgetStreamLease.countDocuments(filter)) <= limit) continue;
      if ((await openStreams(filter)) > limit)
        throw new ApiError(
          429,
          'rate_limit_error',
          'stream_limit_exceeded',
          `Too many open widget streams ${subject}: at most ${limit}. Close one (EventSource.close()) before opening another.`,
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
