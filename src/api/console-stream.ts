/**
 * `GET /console/api/stream` (issue 35 item 2): the console's server-sent events, through the API's one
 * event-stream writer (src/api/sse.ts `serveEventStream`) over this connection's queue of changes, which
 * the process's console poller fills (src/services/console-changes.ts). Event ids number one connection's
 * events (1, 2, …); a reconnecting console reloads its lists and follows the new stream.
 */
import type { Request, Response } from 'express';
import { watchConsoleChanges, type ConsoleChange } from '../services/console-changes';
import { serveEventStream, type StreamEvent } from './sse';

/** Whose changes a stream follows: the session's organization and mode. */
export interface ConsoleStreamScope {
  orgId: string;
  livemode: boolean;
}

/** At most this many events wait for a slow client; beyond it the stream ends (the console reconnects). */
const MAX_QUEUED = 1_000;

/** Serves the stream until the client leaves. */
export async function serveConsoleStream(req: Request, res: Response, scope: ConsoleStreamScope): Promise<void> {
  const queue: StreamEvent[] = [];
  let lastId = 0;
  let overflow = false;
  let wake: (() => void) | null = null;
  const unwatch = await watchConsoleChanges({
    ...scope,
    push(change: ConsoleChange) {
      if (queue.length >= MAX_QUEUED) overflow = true;
      else queue.push({ event: change.event, id: ++lastId, data: change.data });
      wake?.();
    },
  });
  try {
    await serveEventStream(req, res, 0, {
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
