/**
 * `GET /console/api/stream`: the console's server-sent events, through the API's one
 * event-stream writer (src/api/sse.ts `serveEventStream`) over this connection's queue of changes, which
 * the process's console poller fills (src/services/console-changes.ts). Event ids are the changes'
 * positions (microseconds of the time they were seen): a console reconnecting with `Last-Event-ID` (or
 * `last_event_id`) first gets what it missed within the last minute (`changesSince`), then the live changes.
 */
import type { Request, Response } from 'express';
import { acquireApiStreamLease } from '../services/call-streams';
import { changesSince, watchConsoleChanges, type ConsoleChange } from '../services/console-changes';
import { lastEventId, serveEventStream, type StreamEvent } from './sse';
import { auditTranscriptRead } from './audit-reads';

/** Whose changes a stream follows: the session's organization and mode. */
export interface ConsoleStreamScope {
  orgId: string;
  livemode: boolean;
}

/** At most this many events wait for a slow client; beyond it the stream ends (the console reconnects). */
const MAX_QUEUED = 1_000;

/**
 * Serves the stream until the client leaves: after a `Last-Event-ID`, the changes missed first. Counted
 * with the call streams by the API's stream caps (src/services/call-streams.ts `acquireApiStreamLease`:
 * the signed-in user as the key, the client's address, the organization).
 * @throws ApiError 400 naming `last_event_id` when it is not an id, 429 `too_many_streams` with
 *   `Retry-After` past a cap (both before the stream starts)
 */
export async function serveConsoleStream(req: Request, res: Response, scope: ConsoleStreamScope): Promise<void> {
  const after = lastEventId(req, 16);
  const release = await acquireApiStreamLease({ orgId: scope.orgId, keyId: req.auth!.keyId, ip: req.ip ?? '' });
  try {
    await auditTranscriptRead(req, res); // conversations' messages follow: one entry per stream, stored first
    await serveChanges(req, res, scope, after);
  } finally {
    await release();
  }
}

/** The stream itself: the changes after `after` (missed ones first), then the live ones. */
async function serveChanges(req: Request, res: Response, scope: ConsoleStreamScope, after: number): Promise<void> {
  const queue: StreamEvent[] = [];
  let overflow = false;
  let wake: (() => void) | null = null;
  const enqueue = (change: ConsoleChange) => {
    if (queue.length >= MAX_QUEUED) overflow = true;
    else queue.push({ event: change.event, id: change.id, data: change.data });
    wake?.();
  };
  const unwatch = await watchConsoleChanges({ ...scope, push: enqueue });
  try {
    // Live changes seen meanwhile are queued already: they go after the missed ones, ids kept increasing.
    if (after > 0) {
      const missed = await changesSince(scope, after);
      const live = queue.splice(0);
      let id = 0;
      for (const change of [...missed, ...live.map((e) => ({ ...e, id: Number(e.id) }) as ConsoleChange)])
        enqueue({ ...change, id: (id = Math.max(id + 1, change.id)) });
    }
    await serveEventStream(req, res, after, {
      next: async (last) => {
        while (queue.length && queue[0].id <= last) queue.shift();
        return queue[0] ?? null;
      },
      live: () => !overflow,
      watch: (w) => {
        wake = w;
        return () => (wake = null);
      },
      retryMs: 2_000,
      heartbeatMs: 15_000,
      name: 'console stream',
      logFields: { org_id: scope.orgId },
    });
  } finally {
    unwatch();
  }
}
