/**
 * Fixed-window rate limits shared by every API process. A window is `windowMs` long, aligned to the epoch;
 * a request is admitted when it takes one of the window's `limit` numbered slots in the store
 * (src/models/rate-limits.ts): an insert against a unique id, atomic on MongoDB and FerretDB alike, so two
 * processes behind a load balancer never admit more than `limit` together. Each process remembers the
 * highest slot it saw taken per window, so its own requests do not race each other for a slot, and once a
 * window is full it refuses without touching the store. The answer carries what the IETF `RateLimit-*`
 * headers (draft-ietf-httpapi-ratelimit-headers) and `Retry-After` need.
 */
import { RateLimitSlot } from '../models/rate-limits';
import { insertIfAbsent } from '../models/store';

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

/** Per bucket window (`<bucket>:<start>`): the next slot number this process will try. */
const nextSlot = new Map<string, { next: number; resetMs: number }>();

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
  if (!state) nextSlot.set(window, (state = { next: 1, resetMs }));
  let taken: number | null = null;
  while (state.next <= limit) {
    const n = state.next++; // this process's requests each try their own slot
    if (await insertIfAbsent(RateLimitSlot, { _id: `${window}:${n}`, expires_ms: resetMs })) {
      taken = n;
      break;
    }
    // Another process holds slot n: try the next one.
  }
  if (nowMs - lastPruneMs > PRUNE_EVERY_MS) {
    lastPruneMs = nowMs;
    for (const [key, s] of nextSlot) if (s.resetMs <= nowMs) nextSlot.delete(key);
    void RateLimitSlot.deleteMany({ expires_ms: { $lt: nowMs } }).catch(() => undefined);
  }
  return {
    allowed: taken !== null,
    limit,
    remaining: taken === null ? 0 : Math.max(0, limit - Math.max(taken, state.next - 1)),
    resetMs,
    retryAfterSeconds: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
  };
}
