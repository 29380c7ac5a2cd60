/**
 * Fixed-window rate limits shared by every API process. A window is `windowMs` long, aligned to the epoch;
 * a request is admitted when it takes one of the window's `limit` numbered slots in the store
 * (src/models/rate-limits.ts): an insert against a unique id, atomic on MongoDB and FerretDB alike, so two
 * processes behind a load balancer never admit more than `limit` together. Each process remembers the
 * highest slot it saw taken per window, so its own requests do not race each other for a slot, and once a
 * window is full it refuses without touching the store. The answer carries what the IETF `RateLimit-*`
 * headers (draft-ietf-httpapi-ratelimit-headers) and `Retry-After` need.
 *
 * A busy process reserves its slots ahead (one store round trip less on most requests):
 * the first request of a window takes one slot, and each time the process needs more it inserts a block
 * twice the last (one `insertMany`, unordered: the slots another process holds are skipped), up to
 * `limit / 20` slots (at most `MAX_BLOCK`). Every slot still has one owner, so the processes together
 * never admit more than `limit`; a process may end a window holding unused slots (at most a block), so
 * another may be refused a little early. Limits under 40 are counted a slot at a time, as before.
 */
import { RateLimitSlot } from '../models/rate-limits';
import { insertIfAbsent, insertManyIfAbsent } from '../models/store';

/** What one request's count in its bucket says. */
export interface RateLimitResult {
  /** False once the window's `limit` slots are taken: answer 429. */
  allowed: boolean;
  /** The limit asked for (requests per window). */
  limit: number;
  /** Requests left in this window, as far as this process knows (0 when refused). */
  remaining: number;
  /** When the window ends, ms since the epoch. */
  resetMs: number;
  /** Whole seconds until the window ends (at least 1): the `Retry-After` of a 429. */
  retryAfterSeconds: number;
}

/** Most slots one reservation inserts. */
export const MAX_BLOCK = 32;

/**
 * Per bucket window (`<bucket>:<start>`): the next slot number this process will try, the slots it holds
 * and has not used yet, how many its next reservation asks for at least, and the requests waiting for
 * the reservations on their way.
 */
interface WindowState {
  next: number;
  resetMs: number;
  spare: number[];
  block: number;
  /** Requests of this process asking for a slot now. */
  wanting: number;
  /** Slots the reservations on their way ask for. */
  coming: number;
  waiters: (() => void)[];
}
const nextSlot = new Map<string, WindowState>();

/** Slots of finished windows are pruned at most this often per process. */
const PRUNE_EVERY_MS = 60_000;
let lastPruneMs = 0;

/**
 * Counts one request in `bucket` (e.g. `key:<key hash>`) against `limit` requests per `windowMs`.
 * @param nowMs the clock (tests pass one)
 * @throws whatever the store throws (the caller decides whether a store outage refuses or lets through)
 */
export async function consumeRateLimit(
  bucket: string,
  limit: number,
  windowMs: number,
  nowMs = Date.now(),
): Promise<RateLimitResult> {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  const resetMs = start + windowMs;
  const window = `${bucket}:${start}`;
  let state = nextSlot.get(window);
  if (!state)
    nextSlot.set(window, (state = { next: 1, resetMs, spare: [], block: 1, wanting: 0, coming: 0, waiters: [] }));
  const taken = await takeSlot(state, window, limit);
  if (nowMs - lastPruneMs > PRUNE_EVERY_MS) {
    lastPruneMs = nowMs;
    for (const [key, s] of nextSlot) if (s.resetMs <= nowMs) nextSlot.delete(key);
    void RateLimitSlot.deleteMany({ expires_ms: { $lt: nowMs } }).catch(() => undefined);
  }
  return {
    allowed: taken !== null,
    limit,
    remaining: taken === null ? 0 : Math.max(0, limit - (state.next - 1) + state.spare.length),
    resetMs,
    retryAfterSeconds: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
  };
}

/**
 * One slot of the window for this request: a spare one; else one of those a reservation on its way
 * brings, when they are more than the requests already waiting for them; else a fresh reservation of
 * the slots the waiting requests need, or of `block` slots ahead when fewer (doubling each time, at most
 * `limit / 20` and `MAX_BLOCK`), so a process holds at most one block it has no request for. Null when
 * every number of the window is handed out and nothing is on its way.
 */
async function takeSlot(state: WindowState, window: string, limit: number): Promise<number | null> {
  const maxBlock = Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 20)));
  state.wanting++;
  try {
    for (;;) {
      if (state.spare.length > 0) return state.spare.shift()!;
      if (state.wanting <= state.coming || state.next > limit) {
        if (state.coming === 0) return null;
        await new Promise<void>((resolve) => state.waiters.push(resolve));
        continue;
      }
      // This process's requests each reserve their own numbers; taken by another process, the next ones.
      const first = state.next;
      const size = Math.min(Math.max(state.block, state.wanting - state.coming), limit - first + 1);
      state.next += size;
      state.block = Math.min(maxBlock, state.block * 2);
      state.coming += size;
      try {
        state.spare.push(...(await reserveSlots(window, first, size, state.resetMs)));
      } finally {
        state.coming -= size;
        for (const wake of state.waiters.splice(0)) wake();
      }
    }
  } finally {
    state.wanting--;
  }
}

/**
 * Inserts the slots `first` … `first + size - 1` of a window (one insert of one document, or one unordered
 * `insertMany`) and returns the numbers this process now holds: those no other process held.
 * @throws whatever the store throws other than duplicate keys
 */
async function reserveSlots(window: string, first: number, size: number, resetMs: number): Promise<number[]> {
  const numbers = Array.from({ length: size }, (_, i) => first + i);
  const docs = numbers.map((n) => ({ _id: `${window}:${n}`, expires_ms: resetMs }));
  const inserted =
    size === 1 ? [await insertIfAbsent(RateLimitSlot, docs[0])] : await insertManyIfAbsent(RateLimitSlot, docs);
  return numbers.filter((_, i) => inserted[i]);
}
