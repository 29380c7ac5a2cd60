/**
 * `Idempotency-Key` for POSTs (spec section 4; DESIGN.md section 5; IETF httpapi idempotency-key draft;
 * Stripe). Records live in MongoDB, so the rules hold across any number of API processes:
 *
 * - same key, same request (method, path, body) → the first response replayed, `Idempotent-Replayed: true`;
 * - same key, another request → 422 `idempotency_error` / `idempotency_key_reused`;
 * - same key while the first is still executing → 409 `idempotency_error` / `idempotency_key_in_use`;
 * - keys are scoped to the organization and mode, and expire after 24 hours.
 *
 * The first execution picks the id of what it creates (`resourceId`) and stores it in the record before
 * doing anything, so a crash between "workflow started" and "response stored" is repaired by the retry:
 * it takes over the abandoned record and runs the handler again with the same id, and starting a
 * workflow with that id again is a no-op. Handlers must therefore be idempotent for a given id.
 * Validation errors (400) are raised before the record is written, or beside its insert (a handler's
 * `prepare`: the record is then deleted), so a corrected retry may reuse the key.
 *
 * The executing request holds a lease (`lease_token`, `locked_until_ms`, `IDEMPOTENCY_LEASE_MS`, default
 * 8 s) that it renews every third of the lease while its handler runs, however long; so a retry takes over
 * the key of a request whose API process died within one lease of its last renewal (within 10 s).
 * Its completion and release writes name its token, so a request whose lease was taken over (it stalled
 * past the lease) cannot overwrite the record of the one that took over. A 503 (a dependency that did not
 * answer) releases the key like a 429, so the retry it asks for runs again.
 */
import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import { ApiError } from '../errors';
import { config } from '../config';
import { IdempotencyRecord } from '../models/idempotency';
import { insertIfAbsentGrouped, updateOneGrouped } from '../models/store';
import { newId } from '../shared/ids';
import { openSecret, sealSecret } from '../secrets';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an executing request holds its record before a retry may take it over, unless renewed (ms). */
const leaseMs = () => config().idempotencyLeaseMs;

export interface HandlerResult {
  status: number;
  body: unknown;
  /**
   * A write the answer waits for, run beside the record's completion rather than before it, one
   * store round trip less on the request's path (e.g. the call document, which the call's workflow also
   * writes). Its failure answers the error;
   * the completed record then replays `body`, which must stay true without it.
   */
  alongside?: Promise<unknown>;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');
const newLeaseToken = () => crypto.randomBytes(12).toString('hex');

/**
 * Runs `handler` at most once per idempotency key and sends its result.
 * @param prefix id prefix of the resource the handler creates (`call`), used for `resourceId`
 * @param handler gets the resource id to use and what `prepare` resolved to; returns status and body. An
 *   `ApiError` it throws is stored and replayed like a response; a 429 or any other error releases the
 *   record for a retry.
 * @param prepare reads and checks the handler needs (run beside the record's insert, not
 *   before it). What it throws is answered and not kept: a record this request inserted is deleted, one it
 *   took over released, so a corrected request may reuse the key, as for a 400 of the body's validation.
 *   A request whose key was already used is answered from the record (replay, 409, 422) whatever it resolves to.
 */
export async function idempotent<P = undefined>(
  req: Request,
  res: Response,
  prefix: string,
  handler: (resourceId: string, prepared: P) => Promise<HandlerResult>,
  prepare: () => Promise<P> = async () => undefined as P,
): Promise<void> {
  const key = req.get('Idempotency-Key');
  const auth = req.auth!;
  if (key === undefined) {
    const result = await handler(newId(prefix), await prepare());
    await result.alongside;
    return void res.status(result.status).json(result.body);
  }
  if (key.length === 0 || key.length > 255) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'idempotency_key_invalid',
      'Idempotency-Key must be 1 to 255 characters.',
      'Idempotency-Key',
    );
  }
  // Keys are the organization's; a widget visitor's are its session's own (visitors share a publishable key).
  const holder = auth.kind === 'publishable' ? `|${auth.keyId}` : '';
  const id = sha256(`${auth.orgId}|${auth.livemode}${holder}|${key}`);
  const fingerprint = sha256(`${req.method} ${req.baseUrl}${req.path}\n${canonical(req.body)}`);
  const now = Date.now();

  const [claimed, prepared] = await Promise.allSettled([claim(id, fingerprint, prefix, req, now), prepare()]);
  if (claimed.status === 'rejected') {
    // The checks' own answer (a 404, a 400) before the store's failure to keep the record.
    throw prepared.status === 'rejected' && prepared.reason instanceof ApiError ? prepared.reason : claimed.reason;
  }
  let record = claimed.value;
  if (record.claimed === false) {
    const taken = await replayOrTakeOver(res, id, fingerprint, record.doc, now);
    if (taken === null) return;
    record = { claimed: true, doc: taken };
  }

  const token = record.doc.lease_token!;
  const mine = { _id: id, state: 'in_progress' as const, lease_token: token };
  if (prepared.status === 'rejected') {
    // Nothing ran: a record inserted by this request goes, one taken over (its resource may exist) is released.
    await (
      claimed.value.claimed
        ? IdempotencyRecord.deleteOne(mine)
        : IdempotencyRecord.updateOne(mine, { $set: { locked_until_ms: 0 } })
    ).catch(() => undefined);
    throw prepared.reason;
  }
  // Renew the lease while the handler runs (an /end may wait for the call's hang-up).
  const renewal = setInterval(
    () => {
      IdempotencyRecord.updateOne(mine, { $set: { locked_until_ms: Date.now() + leaseMs() } }).catch(() => undefined);
    },
    Math.max(50, Math.floor(leaseMs() / 3)),
  );
  let result: HandlerResult;
  try {
    result = await runCatching(req, (resourceId) => handler(resourceId, prepared.value), record.doc.resource_id);
  } catch (err) {
    clearInterval(renewal);
    await IdempotencyRecord.updateOne(mine, { $set: { locked_until_ms: 0 } }).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(renewal);
  }
  const json = JSON.stringify(result.body);
  // Stored sealed: a replayed response may carry a secret shown once (a webhook endpoint's). Grouped with
  // concurrent requests' completions; the filter names this request's lease.
  await Promise.all([
    updateOneGrouped(IdempotencyRecord, mine, {
      $set: { state: 'completed', status_code: result.status, response_json: sealSecret(json), locked_until_ms: 0 },
    }),
    result.alongside,
  ]);
  res.status(result.status).type('application/json').send(json);
}

/** The answer to a request whose key is held by an execution still running (or just taken over by another). */
const keyInUse = () =>
  new ApiError(
    409,
    'idempotency_error',
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Retry after it completes.',
    'Idempotency-Key',
  );

/**
 * A key already used (`existing`, its record): 422 `idempotency_key_reused` for another request; the
 * stored answer replayed once completed (returns null, the answer sent); 409 while its execution holds
 * the lease; else the first execution died (or failed with an unexpected error): its record is taken over,
 * with its resource id, under a new lease (409 when another retry took it first).
 * @returns the record taken over, or null when the answer was replayed
 */
async function replayOrTakeOver(
  res: Response,
  id: string,
  fingerprint: string,
  existing: IdempotencyDoc,
  now: number,
): Promise<IdempotencyDoc | null> {
  if (existing.fingerprint !== fingerprint) {
    throw new ApiError(
      422,
      'idempotency_error',
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
      'Idempotency-Key',
    );
  }
  if (existing.state === 'completed') {
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(existing.status_code!).type('application/json').send(openSecret(existing.response_json)!);
    return null;
  }
  if (existing.locked_until_ms > now) throw keyInUse();
  const taken = await IdempotencyRecord.findOneAndUpdate(
    {
      _id: id,
      state: 'in_progress',
      locked_until_ms: existing.locked_until_ms,
      lease_token: existing.lease_token ?? null,
    },
    { $set: { locked_until_ms: now + leaseMs(), lease_token: newLeaseToken() } },
    { returnDocument: 'after' },
  ).lean();
  if (!taken) throw keyInUse();
  return taken as IdempotencyDoc;
}

type IdempotencyDoc = {
  _id: string;
  fingerprint: string;
  resource_id: string;
  state: string;
  locked_until_ms: number;
  lease_token?: string | null;
  status_code?: number | null;
  response_json?: string | null;
  expires_ms: number;
};

/** Inserts a fresh record, or returns the live one already there (an expired one is replaced). */
async function claim(
  id: string,
  fingerprint: string,
  prefix: string,
  req: Request,
  now: number,
): Promise<{ claimed: boolean; doc: IdempotencyDoc }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const doc = {
      _id: id,
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
      key_id: req.auth!.keyId,
      method: req.method,
      path: req.baseUrl + req.path,
      fingerprint,
      resource_id: newId(prefix),
      state: 'in_progress',
      locked_until_ms: now + leaseMs(),
      lease_token: newLeaseToken(),
      status_code: null,
      response_json: null,
      created_ms: now,
      expires_ms: now + IDEMPOTENCY_TTL_MS,
    };
    // Grouped with concurrent requests' records; a duplicate is a key already used.
    if (await insertIfAbsentGrouped(IdempotencyRecord, doc)) return { claimed: true, doc };
    const existing = (await IdempotencyRecord.findById(id).lean()) as IdempotencyDoc | null;
    if (!existing) continue; // deleted between the insert and the read: try again
    if (existing.expires_ms > now) return { claimed: false, doc: existing };
    await IdempotencyRecord.deleteOne({ _id: id, expires_ms: existing.expires_ms });
  }
  throw new ApiError(
    409,
    'idempotency_error',
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is being processed. Retry shortly.',
    'Idempotency-Key',
  );
}

/**
 * Runs the handler; an ApiError becomes a stored result, like Stripe stores the first response, except a
 * 429 (`retryable`: the key is released, as for a 5xx).
 */
async function runCatching(
  req: Request,
  handler: (resourceId: string) => Promise<HandlerResult>,
  resourceId: string,
): Promise<HandlerResult> {
  try {
    return await handler(resourceId);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500 && !err.retryable)
      return { status: err.status, body: { error: { ...err.toBody(), request_id: req.requestId } } };
    throw err;
  }
}

/** Deletes expired records (FerretDB has no TTL indexes); run periodically by the API. */
export async function sweepIdempotencyRecords(now = Date.now()): Promise<number> {
  const { deletedCount } = await IdempotencyRecord.deleteMany({ expires_ms: { $lte: now } });
  return deletedCount;
}
