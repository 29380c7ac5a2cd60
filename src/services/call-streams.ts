/**
 * Call streams (`GET /v1/calls/{id}/stream`, src/api/calls.ts) that cost nothing while idle, and the caps
 * on the API's streams (the call streams and the console's, src/api/console-stream.ts).
 *
 * The poller. A stream reads its call's stream entries by `_id` (`CallStreamEntry`, numbered by the
 * call's workflow), one after the other; once it has read everything it waits and reads nothing until
 * this process's one poller (src/services/change-poller.ts `WindowPoller`) wakes it: while the process
 * serves a call stream, every `WIDGET_STREAM_POLL_MS` (200 ms) the poller reads the entries of the current
 * and the previous change window (`call_stream.window`), and every fifth tick the calls whose end the
 * reconciler recorded in them (`calls.stream_window`: that end has no entry): two lookups on
 * `{window: 1}`-type indexes a tick (four every fifth) whatever the number of streams, and wakes only the
 * streams of the calls they name. So a stream of a call that is only scheduled reads nothing from its
 * first wait until the call starts (its first entry after the ones sent), and 1,000 idle streams cost the
 * poller's lookups only.
 *
 * The caps (`API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`): open API streams per
 * API key or console user, per client IP address and per organization, across API processes
 * (src/services/stream-leases.ts); beyond, 429 `too_many_streams` with `Retry-After`.
 */
import { config } from '../config';
import { Call, CallStreamEntry, callStreamEntryId, type CallDoc, type CallStreamEntryDoc } from '../models/calls';
import type { WithId } from '../models/store';
import { WindowPoller, type PollerState } from './change-poller';
import { acquireLease, clientAddress } from './stream-leases';

/** Ticks between two lookups of the reconciler's ends (one a second at the default 200 ms tick). */
export const RECONCILED_EVERY_TICKS = 5;

/** This process's one poller of the calls' stream entries and of the reconciler's ends. */
const poller = new WindowPoller('call stream', [
  {
    read: async (window) =>
      (await CallStreamEntry.find({ window }, { _id: 0, call_id: 1, n: 1 }).lean()).map((row) => ({
        key: row.call_id,
        seq: row.n,
      })),
  },
  {
    // The reconciler records an end a minute or more after the run closed: a second more is nothing.
    read: async (window) =>
      (await Call.find({ stream_window: window }, { _id: 1 }).lean()).map((row) => ({
        key: String(row._id),
        seq: Infinity,
      })),
    every: RECONCILED_EVERY_TICKS,
  },
]);

/** Reads the call streams of this process made by `_id` (entries and call status): idle streams make none. */
let streamReads = 0;

/**
 * Registers a stream of call `callId` with this process's poller (started by the first stream) and
 * returns the function that removes it: `wake` is called when the call has an entry after `last()`, or
 * its end was recorded by the reconciler, or a poll failed before.
 */
export function watchCall(callId: string, wake: () => void, last: () => number): () => void {
  return poller.watch({ key: callId, wake, last });
}

/** The call-stream poller's state in this process, and the reads its streams made themselves. */
export function callStreamState(): PollerState & { streamReads: number } {
  return { ...poller.state(), streamReads };
}

/** Entry `n` of call `callId`'s stream (one `_id` lookup, counted), or null when not written yet. */
export async function readCallStreamEntry(callId: string, n: number): Promise<CallStreamEntryDoc | null> {
  streamReads++;
  return (await CallStreamEntry.findById(callStreamEntryId(callId, n)).lean()) as CallStreamEntryDoc | null;
}

/** Call `callId` as stored now (one `_id` lookup, counted), or null when gone. */
export async function readStreamedCall(callId: string): Promise<WithId<CallDoc> | null> {
  streamReads++;
  return (await Call.findById(callId).lean()) as WithId<CallDoc> | null;
}

/** Who opens an API stream: the organization, the API key (or console user) and the client's address. */
export interface ApiStreamOpener {
  orgId: string;
  /** The key id, or the console user's id (`req.auth.keyId`). */
  keyId: string;
  /** `req.ip` (the client's behind a proxy with `TRUST_PROXY`). */
  ip: string;
}

/**
 * Takes a lease for a new API stream of `opener` and checks the caps (`API_STREAMS_PER_KEY`,
 * `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`; 0 turns one off), counted across API processes. Returns the
 * function that gives the lease back when the stream ends (never throws).
 * @throws ApiError 429 `rate_limit_error` / `too_many_streams` with `Retry-After: 5` past a cap; the
 *   store's error when it does not answer
 */
export async function acquireApiStreamLease(opener: ApiStreamOpener): Promise<() => Promise<void>> {
  const cfg = config();
  // `api:` keeps these counts apart from the widget's, which share the lease collection.
  return acquireLease({
    caps: [
      { field: 'session_id', value: `api:${opener.keyId}`, limit: cfg.apiStreamsPerKey, subject: 'for this key' },
      {
        field: 'ip_key',
        value: `api:${clientAddress(opener.ip)}`,
        limit: cfg.apiStreamsPerIp,
        subject: 'from this IP address',
      },
      { field: 'org_id', value: `api:${opener.orgId}`, limit: cfg.apiStreamsPerOrg, subject: 'for this organization' },
    ],
    code: 'too_many_streams',
    what: 'streams',
    howToClose: 'end a request to a `/stream` route',
  });
}
