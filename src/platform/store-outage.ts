/**
 * Riding out a store outage on a turn of a conversation: what a turn reads from the
 * store that it can do without for a while, and what it writes that can wait, must not keep a caller
 * waiting while the store does not answer (a command then waits mongoose's `bufferTimeoutMS` or the
 * driver's `serverSelectionTimeoutMS`, 10 s on a worker, before it fails).
 * - `readOrLastKnown`: a read given `STORE_WAIT_MS`; past it, or failed because the store is unavailable
 *   (src/models/store.ts `isStoreUnavailable`), the last value this process read under the same key.
 * - `writeWhenStored`: a write given `STORE_WAIT_MS`; past it, or failed because the store is unavailable,
 *   it goes on in the background, tried again with backoff (up to `WRITE_BEHIND_MS`) until the store takes
 *   it. Only for idempotent writes (a row with its own id: src/models/store.ts `insertIfAbsent`), since a
 *   write that timed out here may still be applied.
 * Both are per process: a worker that dies during an outage loses its pending background writes (they are
 * logged as they are deferred) and its last-known copies.
 */
import mongoose from 'mongoose';
import { logger } from '../logger';
import { isStoreUnavailable } from '../models/store';

/**
 * How long a turn waits for the store before it goes on without it (ms): longer than a busy store takes
 * (a knowledge index loaded on a saturated machine), shorter than a turn deadline; the model's time is
 * not spent meanwhile (src/activities/llm.ts `deadlineMs`).
 */
export const STORE_WAIT_MS = 4_000;
/** How long a deferred write is tried again before it is given up (ms): past the longest outage ridden out. */
export const WRITE_BEHIND_MS = 15 * 60_000;
/** Last-known values kept per process (the oldest is dropped beyond). */
const LAST_KNOWN_MAX = 2_000;

const lastKnown = new Map<string, unknown>();
const TIMED_OUT = Symbol('timed out');

/** `promise`, or `TIMED_OUT` when it has not settled within `ms` (at once when mongoose is not connected). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  if (mongoose.connection.readyState !== mongoose.ConnectionStates.connected) ms = 0;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<typeof TIMED_OUT>((r) => (timer = setTimeout(r, ms, TIMED_OUT)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads with `read()`, remembering the value under `key`; when the store does not answer within
 * `STORE_WAIT_MS` (or at once when mongoose is disconnected), or the read fails because it is unavailable,
 * returns the value last read under `key` instead.
 * @returns the value, `fresh` false when it is the last-known copy; null when there is none
 * @throws the read's error when it is not the store's unavailability
 */
export async function readOrLastKnown<T>(
  key: string,
  read: () => Promise<T>,
): Promise<{ value: T; fresh: boolean } | null> {
  const pending = read();
  try {
    const value = await within(pending, STORE_WAIT_MS);
    if (value !== TIMED_OUT) {
      lastKnown.delete(key);
      lastKnown.set(key, value);
      if (lastKnown.size > LAST_KNOWN_MAX) lastKnown.delete(lastKnown.keys().next().value!);
      return { value, fresh: true };
    }
    pending.catch(() => undefined); // settles later, unobserved
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
  }
  return lastKnown.has(key) ? { value: lastKnown.get(key) as T, fresh: false } : null;
}

/**
 * Writes with `write()` (idempotent), waiting at most `STORE_WAIT_MS` for it; when the store does not take
 * it in time, or it fails because the store is unavailable, the write goes on in the background (the same
 * `write()` again after 0.5 s, 1 s, … up to 10 s apart, for `WRITE_BEHIND_MS`) and this returns.
 * @param label what is written, for the log
 * @throws the write's error when it is not the store's unavailability
 */
export async function writeWhenStored(label: string, write: () => Promise<unknown>): Promise<void> {
  const first = write();
  try {
    if ((await within(first, STORE_WAIT_MS)) !== TIMED_OUT) return;
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    void retryWrite(label, write, Promise.reject(err));
    return;
  }
  void retryWrite(label, write, first);
}

/** Awaits `attempt`, then tries `write()` again with backoff until it succeeds or `WRITE_BEHIND_MS` passes. */
async function retryWrite(label: string, write: () => Promise<unknown>, attempt: Promise<unknown>): Promise<void> {
  logger.warn('store unavailable: write deferred', { write: label });
  const giveUpMs = Date.now() + WRITE_BEHIND_MS;
  for (let delayMs = 500; ; delayMs = Math.min(delayMs * 2, 10_000)) {
    try {
      await attempt;
      logger.info('store back: deferred write done', { write: label });
      return;
    } catch (err) {
      if (Date.now() > giveUpMs || !isStoreUnavailable(err)) {
        logger.error('deferred write lost', { write: label, error: err instanceof Error ? err.message : String(err) });
        return;
      }
    }
    await new Promise((r) => setTimeout(r, delayMs));
    attempt = write();
  }
}
