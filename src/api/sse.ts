/**
 * Server-sent events (the WHATWG HTML standard's `text/event-stream`, what a browser's `EventSource`
 * reads), for every stream the API serves: the widget's conversation stream (src/api/widget.ts), a live
 * call's stream (src/api/calls.ts) and the console's (src/api/console-stream.ts).
 *
 * A stream here is a numbered log read from the store: event `n` is the `n`-th entry (1, 2, …, no gaps),
 * so any API process serves any reconnect, and a client that reconnects with `Last-Event-ID: n` gets
 * every event after `n`, once, in order. A stream reads its log by id until it finds nothing new, then
 * waits until its watch wakes it (one poller per API process for all its streams of a kind,
 * src/services/change-poller.ts), which holds across API processes without a broker and costs an idle
 * stream nothing.
 */
import type { Request, Response } from 'express';
import { invalidParam } from '../errors';
import { logger, type LogFields } from '../logger';

/** One event of a stream: its `event:` name, its `id:` (its place in the log) and its `data:` (JSON). */
export interface StreamEvent {
  event: string;
  id: number;
  data: unknown;
}

/** How a stream is served. */
export interface EventStreamOptions {
  /** The event after `last` (`last + 1`), or null when there is none yet. Errors end the stream. */
  next: (last: number) => Promise<StreamEvent | null>;
  /** Whether the stream may go on (a session's expiry); checked before each read and at each heartbeat. */
  live: () => boolean;
  /**
   * Starts watching the log: calls `wake` whenever the log may have an entry after `last()` (the id of the
   * last event sent); returns the function that stops watching (called when the stream ends).
   */
  watch: (wake: () => void, last: () => number) => () => void;
  /** The reconnection delay asked of `EventSource` (the `retry:` field, ms). */
  retryMs: number;
  /** How often a `: heartbeat` comment is sent (ms): proxies close connections silent for 30–60 s. */
  heartbeatMs: number;
  /** What the stream is, for the warning logged when an error ends it (`widget stream`). */
  name: string;
  /** Logged with that warning (`{session: …}`). */
  logFields: LogFields;
}

/**
 * The OpenAPI schema of one event of a `text/event-stream` response, as a client's parser reads it (the
 * WHATWG fields; `data` is JSON text whose shape each route describes): what schema-aware tools check
 * each event against.
 */
export const SSE_EVENT_SCHEMA = {
  type: 'object',
  properties: {
    event: { type: 'string' },
    id: { type: 'string' },
    data: { type: 'string' },
    retry: { type: 'integer' },
  },
} as const;

/**
 * The id of the last event a reconnecting client has: the `Last-Event-ID` header, else the
 * `last_event_id` query parameter (for clients that cannot set headers), else 0 (a new stream).
 * @param maxDigits the longest id the stream gives: 10 for the public streams (their documented
 *   `last_event_id` maximum), 16 for the console's (its ids are microsecond times)
 * @throws ApiError 400 naming `last_event_id` when it is not an integer of at most `maxDigits` digits
 */
export function lastEventId(req: Request, maxDigits = 10): number {
  const query = req.query.last_event_id;
  // A repeated query parameter (an array) is no id either.
  const raw = req.get('Last-Event-ID') ?? (query === undefined ? '0' : typeof query === 'string' ? query : '');
  if (!new RegExp(`^\\d{1,${maxDigits}}$`).test(raw.trim()))
    throw invalidParam(
      'last_event_id',
      'Invalid Last-Event-ID: must be the id of an event of this stream (an integer).',
    );
  return Number(raw.trim());
}

/**
 * Answers `req` with an event stream of every event after `after`: the headers (no caching, no proxy
 * buffering), `retry:` first, then each event as `event:`, `id:`, `data:`: read with `next` until there
 * is none, then again each time `watch` wakes the stream; a heartbeat comment every `heartbeatMs`. Returns when the client leaves, `live()` turns false, or
 * `next` fails (logged as a warning; the client reconnects with its `Last-Event-ID`); the response is
 * ended in every case.
 */
export async function serveEventStream(
  req: Request,
  res: Response,
  after: number,
  opts: EventStreamOptions,
): Promise<void> {
  let last = after;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no', // nginx: do not buffer this response
  });
  req.socket.setNoDelay(true);
  res.write(`retry: ${opts.retryMs}\n\n`);
  let open = true;
  // `pending`: the log may hold an event after `last` (true at first, after each event sent and on a wake).
  let pending = true;
  let resume: (() => void) | null = null;
  const close = () => {
    open = false;
    resume?.();
  };
  const wake = () => {
    pending = true;
    resume?.();
  };
  req.on('close', close);
  res.on('error', close);
  const unwatch = opts.watch(wake, () => last);
  // Proxies close connections silent for longer than 30–60 s; a comment every 15 s keeps them open.
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), opts.heartbeatMs);
  heartbeat.unref();
  try {
    while (open && opts.live()) {
      if (!pending) {
        // Asleep until woken, closed, or the next heartbeat (which checks `live()` again).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, opts.heartbeatMs);
          resume = () => (clearTimeout(timer), resolve());
        });
        resume = null;
        continue;
      }
      pending = false;
      const event = await opts.next(last);
      if (!event) continue;
      pending = true;
      last = event.id;
      if (!open) break;
      res.write(`event: ${event.event}\nid: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
  } catch (err) {
    logger.warn(`${opts.name} ended by an error`, { ...opts.logFields, error: String(err) });
  } finally {
    unwatch();
    clearInterval(heartbeat);
    res.end();
  }
}

/** The reconnection delay the stream asks of `EventSource` (ms; the `retry:` field). */
export const STREAM_RETRY_MS = 1_000;
