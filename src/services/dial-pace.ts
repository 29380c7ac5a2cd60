/**
 * The dialing pacer: every live dial of the service (a call's `placeCall`, a warm transfer's
 * `dialTransferLeg`, src/activities/telephony.ts; so calls placed through the API, campaign calls and
 * their redials, callbacks and scheduled calls alike) takes a turn of its Twilio account before it sends
 * the Calls create, and sends it in its turn. Turns come at the account's calls per second
 * (`calls_per_second`, the operator's `svcctl pace set`, 1 by default).
 *
 * Why: Twilio admits a fixed number of new calls per second per account, its CPS, 1 by default, each
 * subaccount its own (https://www.twilio.com/docs/glossary/cps; "How fast can I place or receive phone
 * calls with Twilio?", https://help.twilio.com/articles/223180028). Calls created faster are not dialed
 * faster: Twilio queues them (the Call's `QueueTime`, https://www.twilio.com/en-us/changelog/outbound-call-queue-insights-in-programmable-voice-rest-api),
 * refuses them past 24 hours of queue (error 22005), and a SIP trunk refuses them with 503. A call that
 * waits in Twilio's queue still rings at the time Twilio picks, not the time the service decided (calling
 * hours, the ring timeout), and every process of the service pushing as fast as it can would make
 * Twilio's queue the only pacer. So the service keeps the pace itself, one schedule per account shared by
 * every API and worker process.
 *
 * How (the choice, and why not a Temporal workflow): turns are ticks of the account, tick n at
 * n × `tickLengthMs(cps)` ms since the epoch; a turn is taken by inserting `<account SID>:<instant>` against the
 * unique `_id` of `dial_pace_ticks` (src/models/dial-pace.ts). A unique-key insert is atomic on MongoDB and
 * on the embedded FerretDB 1.x, whose updates (`$inc` included) are read-modify-writes that lose
 * concurrent writers, so two processes never hold one turn. A burst costs one write per batch, not one
 * per dial: the dials of one process waiting for one account go together (src/shared/group-commit.ts),
 * one unordered `insertMany` of as many consecutive ticks as dials, the ticks another process took
 * skipped (duplicate keys) and asked again further on. No Temporal update is involved, so the 10 updates
 * in flight a workflow admits (`history.maxInFlightUpdates`) cannot refuse a burst, as they refused the
 * call-slot semaphore's requests after a worker restart; a workflow per account would also put every dial
 * behind that workflow's task, a worker's restart included.
 *
 * Never faster than the account's CPS: ticks are 20% longer than 1/cps (`PACE_MARGIN`), and a dial goes
 * only within `PACE_LATE_MS` (50 ms) after its tick's instant; a dial later than that (a worker paused, a
 * retry after a crash) takes a new turn. So any one-second window holds at most `cps` dials as sent
 * (consecutive dials at 1 CPS leave at least 1,150 ms apart), with room for the jitter between a send
 * and its arrival (a few ms at the loopback fake Twilio of test/integration/dial-pacer.test.ts on the
 * 2-core test machine; up to 140 ms while the `twilio` package loaded its Calls resource inside the turn,
 * when with a 10% margin two creates came 899 ms apart).
 *
 * Durable: a dial's turn is kept in `dial_pace_holds` under the dial's own id before it waits, so a
 * retried activity (its worker killed while waiting) finds the same turn and keeps it while it is not
 * past; a turn further ahead than the activity may wait (`PACE_ACTIVITY_WAIT_MS`) is answered to the
 * workflow, which waits on a durable timer and asks again (src/shared/dial-pace.ts). A dial is never
 * sent twice: the activities record their dial intent first (src/activities/telephony.ts).
 */
import { telephonyAccount } from './telephony-accounts';
import { Org, type OrgDoc } from '../models/orgs';
import { DialPaceHead, DialPaceHold, DialPaceTick } from '../models/dial-pace';
import { findByIdShared, insertIfAbsent, insertManyIfAbsent } from '../models/store';
import { groupCommit } from '../shared/group-commit';
import { DEFAULT_CALLS_PER_SECOND, PACE_ACTIVITY_WAIT_MS } from '../shared/dial-pace';

/** The calls per second an operator may set (inclusive). */
export const CALLS_PER_SECOND_RANGE = { min: 1, max: 100 } as const;
/** Ticks are this much longer than 1/cps: the pace stays under Twilio's with room for timers and jitter. */
export const PACE_MARGIN = 0.2;
/** A dial goes at most this long after its tick's instant (ms); later, it takes a new turn. */
export const PACE_LATE_MS = 50;
/** Most dials one reservation (one `insertMany`) carries. */
const MAX_PER_RESERVATION = 200;
/** Rounds of a reservation before it gives up (the activity is retried). */
const MAX_ROUNDS = 20;
/** Rows of past turns are kept this long after their instant (ms), holds a day. */
const TICK_KEEP_MS = 3_600_000;
const HOLD_KEEP_MS = 86_400_000;
/** Past turns and holds are pruned at most this often per process (ms). */
const PRUNE_EVERY_MS = 600_000;

/** The length of one turn at `cps` calls per second (ms): 1/cps with `PACE_MARGIN`. */
export function tickLengthMs(cps: number): number {
  return Math.ceil((1000 * (1 + PACE_MARGIN)) / cps);
}

/** A Twilio account's pace: its SID and calls per second. */
export interface PaceAccount {
  accountSid: string;
  callsPerSecond: number;
}

/**
 * Checks a calls-per-second value an operator asked for: an integer within `CALLS_PER_SECOND_RANGE`.
 * @param shown how the message quotes the value (default `n`)
 * @throws Error naming the range and the value
 */
export function checkCallsPerSecond(n: number, shown = String(n)): number {
  const { min, max } = CALLS_PER_SECOND_RANGE;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`calls_per_second must be an integer from ${min} to ${max}; got ${shown}.`);
  return n;
}

/** An organization's calls per second as stored, the default when unset. */
export const callsPerSecondOf = (org: Pick<OrgDoc, 'calls_per_second'> | null): number =>
  org?.calls_per_second ?? DEFAULT_CALLS_PER_SECOND;

/**
 * Sets the calls per second of the organization's Twilio account (`svcctl pace set`): the rate its live
 * dials are paced at from their next turn on. Set it to the CPS Twilio gives the account (Console, Voice
 * settings), never above.
 * @throws Error for a value outside 1–100 or not an integer, or an organization that does not exist
 * @returns what `svcctl pace set` prints
 */
export async function setOrgCallsPerSecond(
  orgId: string,
  n: number,
): Promise<{ object: 'pace'; org: string; calls_per_second: number }> {
  checkCallsPerSecond(n);
  const { matchedCount } = await Org.updateOne({ _id: orgId }, { $set: { calls_per_second: n } });
  if (matchedCount === 0) throw new Error(`No such organization: ${orgId}`);
  return { object: 'pace', org: orgId, calls_per_second: n };
}

/**
 * The organization's calls per second, default applied (`svcctl pace get`).
 * @throws Error when the organization does not exist
 */
export async function orgCallsPerSecond(
  orgId: string,
): Promise<{ object: 'pace'; org: string; calls_per_second: number }> {
  const org = await Org.findById(orgId, { calls_per_second: 1 }).lean();
  if (!org) throw new Error(`No such organization: ${orgId}`);
  return { object: 'pace', org: orgId, calls_per_second: callsPerSecondOf(org) };
}

/**
 * The Twilio account the organization's live calls are dialed in (src/services/telephony-accounts.ts: its
 * subaccount of the platform, or its connected own account), and its pace. Twilio admits calls per second
 * per account, a subaccount having its own (https://help.twilio.com/articles/223180028), so each
 * organization's turns are its own account's.
 * @throws like `telephonyAccount` (Twilio not configured, or refusing the subaccount)
 */
async function paceAccountOf(orgId: string): Promise<PaceAccount> {
  const [org, account] = await Promise.all([findByIdShared<OrgDoc>(Org, orgId), telephonyAccount(orgId)]);
  return { accountSid: account.accountSid, callsPerSecond: callsPerSecondOf(org) };
}

/** Per account and tick length, the tick this process tries first (it saw the ones before taken). */
const nextTick = new Map<string, number>();
let lastPruneMs = 0;

/** The head hint of an account: the latest turn seen taken (epoch ms), or -Infinity. */
async function headOf(accountSid: string): Promise<number> {
  const head = await DialPaceHead.findById(accountSid).lean();
  return head?.at_ms ?? -Infinity;
}

/** The first tick of length `len` at least `len` after the turn at `headMs` (a tick number). */
const tickAfter = (headMs: number, len: number): number => Math.ceil((headMs + len) / len);

/**
 * Takes one turn per holder in `account` (in one `insertMany` per round): consecutive ticks from the
 * first one that can still be kept (the current one when less than half of `PACE_LATE_MS` passed) or
 * past the ones seen taken, each holder the tick it was inserted with; holders whose tick another process
 * holds try again past them (past the account's head hint when a whole round was taken). Raises the head
 * hint after. Ticks are keyed by their instant, so after the account's rate changes new turns start a
 * whole new tick after the latest turn taken at the old rate.
 * @returns per holder (in order), its turn's instant (epoch ms)
 * @throws the store's error, or Error after `MAX_ROUNDS` rounds (the caller's activity is retried)
 */
async function reserveTicks(account: PaceAccount, holders: string[]): Promise<number[]> {
  const len = tickLengthMs(account.callsPerSecond);
  const key = `${account.accountSid}:${len}`;
  const now = Date.now();
  let next = Math.max(
    Math.ceil((now - PACE_LATE_MS / 2) / len),
    nextTick.get(key) ?? 0,
    tickAfter(await headOf(account.accountSid), len),
  );
  const got = new Map<string, number>();
  let highest = -Infinity;
  for (let round = 0; got.size < holders.length; round++) {
    if (round >= MAX_ROUNDS) throw new Error(`dial pace: no free turn found in ${MAX_ROUNDS} rounds`);
    const want = holders.filter((h) => !got.has(h));
    const docs = want.map((holder, i) => ({
      _id: `${account.accountSid}:${(next + i) * len}`,
      holder,
      at_ms: (next + i) * len,
      expires_ms: (next + i) * len + TICK_KEEP_MS,
    }));
    const inserted =
      docs.length === 1 ? [await insertIfAbsent(DialPaceTick, docs[0])] : await insertManyIfAbsent(DialPaceTick, docs);
    inserted.forEach((ok, i) => ok && got.set(want[i], (next + i) * len));
    highest = (next + want.length - 1) * len;
    next += want.length;
    // A whole round taken by others: they are ahead, and the head says how far.
    if (!inserted.some(Boolean)) next = Math.max(next, tickAfter(await headOf(account.accountSid), len));
  }
  nextTick.set(key, next);
  // Only a hint (a lost update costs a few duplicate keys later), so a failed write does not fail the turns.
  await DialPaceHead.updateOne({ _id: account.accountSid }, { $max: { at_ms: highest } }, { upsert: true }).catch(
    () => undefined,
  );
  if (now - lastPruneMs > PRUNE_EVERY_MS) {
    lastPruneMs = now;
    void DialPaceTick.deleteMany({ expires_ms: { $lt: now } }).catch(() => undefined);
    void DialPaceHold.deleteMany({ expires_ms: { $lt: now } }).catch(() => undefined);
  }
  return holders.map((h) => got.get(h)!);
}

/** Per account and tick length, a group committer of turns (one reservation carries a burst's dials). */
const reserve = groupCommit<{ account: PaceAccount; holder: string }, number>(
  (_key, items) =>
    reserveTicks(
      items[0].account,
      items.map((i) => i.holder),
    ),
  MAX_PER_RESERVATION,
);

/**
 * The turn `holder` holds in the organization's account: its kept turn while it can still be used
 * (not more than `PACE_LATE_MS` past), else a new one, recorded under the holder before it is answered.
 * @param holder the dial: `call:<call id>` or `leg:<call id>:<attempt>`
 * @returns the turn's instant (epoch ms)
 * @throws the store's errors
 */
export async function takeTurn(orgId: string, holder: string): Promise<number> {
  const account = await paceAccountOf(orgId);
  const held = await DialPaceHold.findById(holder).lean();
  if (held && held.account_sid === account.accountSid && Date.now() <= held.at_ms + PACE_LATE_MS) return held.at_ms;
  const atMs = await reserve(`${account.accountSid}:${tickLengthMs(account.callsPerSecond)}`, { account, holder });
  const hold = {
    account_sid: account.accountSid,
    tick_id: `${account.accountSid}:${atMs}`,
    at_ms: atMs,
    expires_ms: atMs + HOLD_KEEP_MS,
  };
  await DialPaceHold.collection.replaceOne({ _id: holder as never }, hold, { upsert: true });
  return atMs;
}

/**
 * Drops `holder`'s claim on its turn at `atMs` (its `dial_pace_holds` row), when the dial will not be
 * sent in it: the holder's next ask takes a new turn rather than finding this one kept. The turn itself
 * stays taken (its `dial_pace_ticks` row): the turns of other dials were reserved past it, and a turn is
 * never handed to a second dial, so at most one dial is ever sent per turn.
 */
async function giveUpTurn(holder: string, atMs: number): Promise<void> {
  await DialPaceHold.deleteOne({ _id: holder, at_ms: atMs });
}

/** True while a dial may still be sent in the turn at `atMs` (at most `PACE_LATE_MS` after it). */
export const inTurn = (atMs: number, nowMs = Date.now()): boolean => nowMs <= atMs + PACE_LATE_MS;

/**
 * Waits for `holder`'s turn and answers when the dial may be sent: `{ atMs }` (now is within `PACE_LATE_MS`
 * after the turn's instant: send the Calls create at once, checking `inTurn(atMs)` again after any write
 * in between), or `{ waitUntilMs }` when the turn is more than `PACE_ACTIVITY_WAIT_MS` away (the workflow
 * waits on a durable timer and asks again; the turn is kept). A turn missed (this process woke too late)
 * is replaced by a new one.
 * @param prepare run once the turn is near, before the wait, with the turn's instant (a dial intent
 *   written then costs no time in the turn; a check of the dial at that instant, such as the callee's
 *   calling hours). Answering `false` gives the turn up: nothing is dialed in it, the holder's claim on
 *   it is dropped (`giveUpTurn`) and `{ givenUpAtMs }` is answered, so the holder takes a new turn when
 *   it asks again
 * @param sleep how to wait (ms)
 * @throws the store's errors (the activity is retried, its turn kept)
 */
export async function awaitTurn(
  orgId: string,
  holder: string,
  prepare: (atMs: number) => Promise<unknown> = async () => undefined,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<{ atMs: number } | { waitUntilMs: number; givenUp?: true }> {
  for (let tries = 0; ; tries++) {
    const atMs = await takeTurn(orgId, holder);
    if (atMs - Date.now() > PACE_ACTIVITY_WAIT_MS) return { waitUntilMs: atMs };
    if ((await prepare(atMs)) === false) {
      await giveUpTurn(holder, atMs);
      return { waitUntilMs: atMs, givenUp: true };
    }
    const left = atMs - Date.now();
    if (left > 0) await sleep(left);
    if (inTurn(atMs)) return { atMs };
    if (tries >= 5) throw new Error(`dial pace: ${holder} missed its turn ${tries + 1} times`);
  }
}
