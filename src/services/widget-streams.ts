/**
 * Widget streams that cost nothing while idle: one poller per API process shared by all the
 * streams it serves (src/services/change-poller.ts), and caps on open streams counted across API
 * processes (src/services/stream-leases.ts).
 *
 * The poller. A stream (src/api/widget.ts, src/api/sse.ts) reads its conversation's log by `_id`, entry
 * after entry; once it has read everything it waits, and only this process's poller wakes it: every
 * `WIDGET_STREAM_POLL_MS` (default 200 ms), while the process serves at least one stream, it reads the
 * log entries of the current and the previous change window (`conversation_log.window`,
 * src/models/conversations.ts `changeWindow`), and wakes a stream only when an entry of its own
 * conversation is newer than the last it sent.
 *
 * The caps. Per session (`WIDGET_STREAMS_PER_SESSION`), per organization and IP address
 * (`WIDGET_STREAMS_PER_IP`) and per organization (`WIDGET_STREAMS_PER_ORG`): 429 `stream_limit_exceeded`
 * with `Retry-After` beyond.
 */
import { config } from '../config';
import { ConversationLogEntry } from '../models/conversations';
import { WindowPoller } from './change-poller';
import { acquireLease, clientAddress } from './stream-leases';

/** A stream waiting for its conversation's next log entry. */
export interface ConversationWatcher {
  conversationId: string;
  /** The `seq` of the last log entry the stream has sent (0: none). */
  last(): number;
  /** Called when the conversation has an entry after `last()` (or may have, after a failed poll). */
  wake(): void;
}

/** This process's one poller of the conversation log. */
const poller = new WindowPoller('widget stream', [
  {
    read: async (window) =>
      (await ConversationLogEntry.find({ window }, { _id: 0, conversation_id: 1, seq: 1 }).lean()).map((row) => ({
        key: row.conversation_id,
        seq: row.seq,
      })),
  },
]);

/**
 * Registers `watcher` with this process's poller (started by the first watcher) and returns the function
 * that removes it; the poller stops once no watcher is left.
 */
export function watchConversation(watcher: ConversationWatcher): () => void {
  return poller.watch({ key: watcher.conversationId, last: () => watcher.last(), wake: () => watcher.wake() });
}

/** The poller's state in this process: conversations watched and polls run so far. */
export function conversationPollerState(): { conversations: number; polling: boolean; polls: number } {
  const state = poller.state();
  return { conversations: state.watched, polling: state.polling, polls: state.polls };
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
  return acquireLease({
    caps: [
      {
        field: 'session_id',
        value: opener.sessionId,
        limit: cfg.widgetStreamsPerSession,
        subject: 'in this widget session',
      },
      {
        field: 'ip_key',
        value: `${opener.orgId}:${clientAddress(opener.ip)}`,
        limit: cfg.widgetStreamsPerIp,
        subject: 'from this IP address',
      },
      { field: 'org_id', value: opener.orgId, limit: cfg.widgetStreamsPerOrg, subject: 'for this organization' },
    ],
    code: 'stream_limit_exceeded',
    what: 'widget streams',
    howToClose: 'EventSource.close()',
  });
}
