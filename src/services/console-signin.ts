/**
 * How fast the console's sign-in may be guessed at: only failed sign-ins count, and past a number of them
 * each further attempt waits a delay that doubles with every failure (1 s, 2 s, 4 s, … at most
 * `MAX_DELAY_MS`), never a lock that outlasts it. Three counts, each over the last `FAILURE_WINDOW_MS`:
 *
 * - per IP address, any email (`CONSOLE_SIGNIN_PER_IP` failures, default 10): one address guessing many
 *   accounts;
 * - per email and IP address (`CONSOLE_SIGNIN_PER_EMAIL`, default 5): one address guessing one account;
 *   the owner signing in from another address is not slowed by it;
 * - per email from every address together (4 × `CONSOLE_SIGNIN_PER_EMAIL`): many addresses guessing one
 *   account; it does not slow an address the email signed in from within `KNOWN_ADDRESS_MS`.
 *
 * OWASP's Authentication Cheat Sheet ("Protect Against Automated Attacks": throttling rather than an account
 * lock-out an attacker could use to lock the owner out). An attempt is written before the password is
 * checked (src/models/console-signin.ts) and judged by its place among its bucket's attempts, so a burst of
 * concurrent guesses counts in full; it is deleted again when it signs in or is refused unchecked.
 */
import crypto from 'node:crypto';
import { config } from '../config';
import { ConsoleSigninAttempt } from '../models/console-signin';

/** Failures older than this are forgotten: 1 hour. */
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** The first delay past a limit (doubled per further failure): 1 s. */
export const FIRST_DELAY_MS = 1000;
/** The longest delay between two attempts: 15 minutes. */
export const MAX_DELAY_MS = 15 * 60 * 1000;
/** How long a successful sign-in makes its address known for the email: 30 days. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/** The per-email count over every address is this many times `CONSOLE_SIGNIN_PER_EMAIL`. */
export const ALL_ADDRESSES_FACTOR = 4;
/** Attempts of a bucket read at most to judge one (more than any limit plus its delays let in). */
const READ_AT_MOST = 500;

const hash = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 32);

/** One bucket an attempt counts in. */
interface Bucket {
  key: string;
  limit: number;
  /** The refusal's words: whose failures slowed the attempt. */
  subject: string;
}

/** An attempt under way: its documents, deleted by `finishSignin` unless it failed. */
export interface SigninTicket {
  ids: string[];
  knownKey: string;
  atMs: number;
}

/** The wait between attempts after `failures` failures against `limit` (0 below it). */
export function delayAfter(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(30, failures - limit));
}

/** The buckets of an attempt by `email` from `ip` (the limits of the configuration; 0 turns one off). */
async function bucketsOf(email: string, ip: string): Promise<{ buckets: Bucket[]; knownKey: string }> {
  const { consoleSigninPerIp: perIp, consoleSigninPerEmail: perEmail } = config();
  const knownKey = `known:${hash(`${email}\n${ip}`)}`;
  const buckets: Bucket[] = [];
  if (perIp > 0) buckets.push({ key: `ip:${hash(ip)}`, limit: perIp, subject: 'from this IP address' });
  if (perEmail > 0) {
    buckets.push({
      key: `pair:${hash(`${email}\n${ip}`)}`,
      limit: perEmail,
      subject: 'for this email address from this IP address',
    });
    const known = await ConsoleSigninAttempt.exists({ _id: knownKey, expires_ms: { $gt: Date.now() } });
    if (!known)
      buckets.push({
        key: `email:${hash(email)}`,
        limit: perEmail * ALL_ADDRESSES_FACTOR,
        subject: 'for this email address',
      });
  }
  return { buckets, knownKey };
}

/**
 * How long the attempt `id` of `bucket` must still wait, ms (0: go ahead): the failures before it in the
 * window, and the delay that many earn after the latest of them.
 */
async function waitOf(bucket: Bucket, id: string, nowMs: number): Promise<number> {
  const before = (await ConsoleSigninAttempt.find(
    { bucket: bucket.key, _id: { $lt: id }, at_ms: { $gt: nowMs - FAILURE_WINDOW_MS } },
    { at_ms: 1 },
  )
    .sort({ _id: -1 })
    .limit(READ_AT_MOST)
    .lean()) as { at_ms: number }[];
  const delay = delayAfter(before.length, bucket.limit);
  return delay === 0 ? 0 : Math.max(0, before[0].at_ms + delay - nowMs);
}

/** Occasional prune of forgotten attempts (at most once a minute per process). */
let lastPruneMs = 0;

/**
 * Starts a sign-in attempt by `email` (normalized) from `ip`: counts it in its buckets and judges it.
 * @returns `ok` with the ticket for `finishSignin`, or the refusal: whole seconds to wait (`Retry-After`,
 *   at least 1) and whose failures earned it
 */
export async function beginSignin(
  email: string,
  ip: string,
  nowMs = Date.now(),
): Promise<{ ok: true; ticket: SigninTicket } | { ok: false; retryAfterSeconds: number; subject: string }> {
  if (nowMs - lastPruneMs > 60_000) {
    lastPruneMs = nowMs;
    void ConsoleSigninAttempt.deleteMany({ expires_ms: { $lt: nowMs } }).catch(() => undefined);
  }
  const { buckets, knownKey } = await bucketsOf(email, ip);
  const suffix = `${String(nowMs).padStart(15, '0')}|${crypto.randomBytes(8).toString('hex')}`;
  const docs = buckets.map((b) => ({
    _id: `${b.key}|${suffix}`,
    bucket: b.key,
    at_ms: nowMs,
    expires_ms: nowMs + FAILURE_WINDOW_MS,
  }));
  if (docs.length > 0) await ConsoleSigninAttempt.insertMany(docs, { ordered: false });
  const ticket: SigninTicket = { ids: docs.map((d) => d._id), knownKey, atMs: nowMs };
  let worst: { waitMs: number; subject: string } | null = null;
  for (const [i, b] of buckets.entries()) {
    const waitMs = await waitOf(b, docs[i]._id, nowMs);
    if (waitMs > 0 && (!worst || waitMs > worst.waitMs)) worst = { waitMs, subject: b.subject };
  }
  if (!worst) return { ok: true, ticket };
  // Refused unchecked: not a guess, so it does not count.
  await forget(ticket);
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(worst.waitMs / 1000)), subject: worst.subject };
}

/** Deletes an attempt's documents (at most three, one point delete each by `_id`). */
async function forget(ticket: SigninTicket): Promise<void> {
  for (const _id of ticket.ids) await ConsoleSigninAttempt.deleteOne({ _id });
}

/**
 * Ends an attempt: a failure stays counted; a success is taken back from every count and makes its
 * address known for the email (`KNOWN_ADDRESS_MS`).
 */
export async function finishSignin(ticket: SigninTicket, succeeded: boolean): Promise<void> {
  if (!succeeded) return;
  await forget(ticket);
  await ConsoleSigninAttempt.updateOne(
    { _id: ticket.knownKey },
    { $set: { bucket: ticket.knownKey, at_ms: ticket.atMs, expires_ms: ticket.atMs + KNOWN_ADDRESS_MS } },
    { upsert: true },
  );
}
