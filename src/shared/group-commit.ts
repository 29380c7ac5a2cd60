/**
 * Group commit: items for the same destination that come while a send to it is on its
 * way gather and go together in the next send, so concurrent requests share round trips, and a lone item
 * goes at once (no added wait). Used for inserts into one collection, single-document updates and lookups
 * of one `_id` (src/models/store.ts `insertIfAbsentGrouped`, `updateOneGrouped`, `findByIdShared`: no
 * linger), and for the calls put in one organization's line (src/services/call-slots.ts
 * `queueCallForSlot`, which also lingers a moment after each send). Pure TypeScript, no I/O of its own.
 */

/** One destination's items not sent yet, and whether a send is on its way. */
interface Outbox<T, R> {
  items: { item: T; settle: (result: { ok: R } | { err: unknown }) => void }[];
  sending: boolean;
}

/**
 * Makes a committer: `commit(key, item)` resolves with what `send` answered for that item, or rejects with
 * the error of the send that carried it (every item of a failed send gets its error).
 * @param send sends the items of one destination, in the order they came (at most `max`); resolves with
 *   one result per item, in order
 * @param max most items one send carries
 * @param lingerMs after the last send to a destination, how long items for it still gather before the
 *   next goes (ms; default 0: at once). A lone item after a quiet spell goes at once; under a steady
 *   stream items go together at most every `lingerMs` (Kafka's producer `linger.ms`, PostgreSQL's
 *   `commit_delay`), where without it each one that came between two sends would go alone.
 */
export function groupCommit<T, R>(
  send: (key: string, items: T[]) => Promise<R[]>,
  max: number,
  lingerMs = 0,
): (key: string, item: T) => Promise<R> {
  const outboxes = new Map<string, Outbox<T, R>>();
  const drain = async (key: string, outbox: Outbox<T, R>) => {
    outbox.sending = true;
    for (;;) {
      while (outbox.items.length > 0) {
        const batch = outbox.items.splice(0, max);
        try {
          const results = await send(
            key,
            batch.map((b) => b.item),
          );
          batch.forEach((b, i) => b.settle({ ok: results[i] }));
        } catch (err) {
          for (const b of batch) b.settle({ err });
        }
      }
      if (lingerMs <= 0) break;
      // Items that come within the linger gather and go together when it ends.
      await new Promise((r) => setTimeout(r, lingerMs));
      if (outbox.items.length === 0) break;
    }
    outbox.sending = false;
    outboxes.delete(key);
  };
  return (key, item) => {
    let outbox = outboxes.get(key);
    if (!outbox) outboxes.set(key, (outbox = { items: [], sending: false }));
    const done = new Promise<R>((resolve, reject) =>
      outbox.items.push({ item, settle: (r) => ('ok' in r ? resolve(r.ok) : reject(r.err)) }),
    );
    if (!outbox.sending) void drain(key, outbox);
    return done;
  };
}
