/**
 * The Twilio account each organization's live telephony runs in (models: src/models/telephony-accounts.ts).
 *
 * - By default, a subaccount of the platform's account (https://www.twilio.com/docs/iam/api/subaccounts),
 *   created on the organization's first live use through the Accounts API (`POST /2010-04-01/Accounts.json`
 *   `FriendlyName`, with the platform's credentials) and kept with the organization: its SID and its own
 *   auth token (sealed, src/secrets.ts). Creation never makes two subaccounts for one organization: the
 *   FriendlyName is the organization's (`subaccountFriendlyName`), looked up before creating
 *   (`GET /2010-04-01/Accounts.json?FriendlyName=`), and concurrent first uses are serialized — in a
 *   process by one promise per organization, across processes by a claim on the organization's document
 *   (only its holder asks Twilio; a claim left by a crashed process lapses after `CLAIM_LEASE_MS`, and the
 *   next holder finds the subaccount the crashed one may have created, by its FriendlyName).
 * - Or the organization's own Twilio account, connected with an API key (`connectOwnAccount`): requests act
 *   in it with the key (https://www.twilio.com/docs/iam/api-keys), and its webhooks are verified with its
 *   auth token, given for that alone: Twilio signs webhooks with the account's auth token, never with an
 *   API key (https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 *
 * A live call keeps the account it was placed or received in (`provider_account_sid` on the call), so a
 * call placed before the organization connected its own account, or before subaccounts existed (the
 * platform account), is still handled in its own account.
 */
import type twilio from 'twilio';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { Call } from '../models/calls';
import { Recording } from '../models/recordings';
import { insertIfAbsent } from '../models/store';
import { TelephonyAccount, type TelephonyAccountDoc } from '../models/telephony-accounts';
import { clientWith, platformCredentials, type TwilioCredentials } from '../providers/twilio';
import { openSecret, sealSecret } from '../secrets';
import { TELEPHONY_REJECTED } from '../shared/calls';

/** Which account an organization's telephony runs in. */
export type TelephonyMode = 'subaccount' | 'connected';

/** The credentials of an organization's account, with its mode. */
export type AccountCredentials = TwilioCredentials & { mode: TelephonyMode };

/** How long a claim to create an organization's subaccount holds before another process may take it over (ms). */
export const CLAIM_LEASE_MS = 30_000;

/** How often a process waiting on another's claim looks again (ms). */
const CLAIM_POLL_MS = 200;

/**
 * The FriendlyName of an organization's subaccount: deterministic, so a creation whose answer was lost
 * (a crash, a timeout) is found again rather than made twice. Twilio's FriendlyName is up to 64 characters.
 */
export const subaccountFriendlyName = (orgId: string): string => `svc-assistant ${orgId}`.slice(0, 64);

/** The first uses of each organization's subaccount under way in this process (one at a time). */
const inflight = new Map<string, Promise<AccountCredentials>>();

/**
 * The Twilio account organization `orgId`'s live telephony runs in: its connected own account, else its
 * subaccount of the platform's account (created on first use, see the file's comment).
 * @throws ApplicationFailure `TelephonyRejected` (not retried) when Twilio is not configured or refuses
 *   the subaccount (4xx); Error when Twilio fails otherwise or another process's creation is still under
 *   way after the lease (retried by the caller)
 */
export async function telephonyAccount(orgId: string): Promise<{ accountSid: string; mode: TelephonyMode }> {
  const { accountSid, mode } = await accountCredentials(orgId);
  return { accountSid, mode };
}

/**
 * A `twilio` REST client acting in organization `orgId`'s account (`telephonyAccount`): the subaccount's
 * SID and auth token, or the connected account's API key.
 * @throws like `telephonyAccount`
 */
export async function twilioClientFor(orgId: string): Promise<twilio.Twilio> {
  return clientWith(await accountCredentials(orgId));
}

/**
 * The credentials of organization `orgId`'s account (`telephonyAccount`).
 * @throws like `telephonyAccount`
 */
export async function accountCredentials(orgId: string): Promise<AccountCredentials> {
  const doc = await TelephonyAccount.findById(orgId).lean();
  const platform = platformCredentials();
  const known = doc ? credentialsOf(doc, platform.accountSid) : null;
  if (known) return known;
  let pending = inflight.get(orgId);
  if (!pending) {
    pending = ensureSubaccount(orgId, platform).finally(() => inflight.delete(orgId));
    inflight.set(orgId, pending);
  }
  return await pending;
}

/** The account a document names: connected first, else a subaccount made under `platformSid`; null when none. */
function credentialsOf(doc: TelephonyAccountDoc, platformSid: string): AccountCredentials | null {
  if (doc.connected_sid && doc.connected_key_sid && doc.connected_key_secret)
    return {
      mode: 'connected',
      accountSid: doc.connected_sid,
      username: doc.connected_key_sid,
      password: openSecret(doc.connected_key_secret)!,
    };
  if (doc.subaccount_sid && doc.subaccount_token && doc.parent_account_sid === platformSid)
    return {
      mode: 'subaccount',
      accountSid: doc.subaccount_sid,
      username: doc.subaccount_sid,
      password: openSecret(doc.subaccount_token)!,
    };
  return null;
}

/** Settles whether a Twilio error is the caller's fault (4xx but 429): not retried then. */
function twilioFailure(err: unknown, what: string): unknown {
  const status = (err as { status?: number }).status;
  if (status && status >= 400 && status < 500 && status !== 429)
    return ApplicationFailure.nonRetryable(
      `Twilio refused ${what} (${status}): ${(err as Error).message}`,
      TELEPHONY_REJECTED,
    );
  return err;
}

/**
 * Finds or creates organization `orgId`'s subaccount, holding the claim on its document while it asks
 * Twilio (see the file's comment). A process that does not hold the claim waits for the holder's result,
 * or for the claim to lapse. A failure releases the claim at once (only a crash leaves it to lapse).
 */
async function ensureSubaccount(orgId: string, platform: TwilioCredentials): Promise<AccountCredentials> {
  const deadline = Date.now() + 2 * CLAIM_LEASE_MS;
  for (;;) {
    const claimMs = Date.now();
    const claimed = await claimCreation(orgId, platform.accountSid, claimMs);
    if (typeof claimed === 'object') return claimed;
    if (claimed) {
      try {
        return await createSubaccount(orgId, platform, claimMs);
      } catch (err) {
        await TelephonyAccount.updateOne({ _id: orgId, claim_ms: claimMs }, { $set: { claim_ms: null } });
        throw twilioFailure(err, "the organization's subaccount");
      }
    }
    if (Date.now() > deadline)
      throw new Error(`The subaccount of organization ${orgId} is still being created by another process.`);
    await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
  }
}

/**
 * Claims the creation of `orgId`'s subaccount at `claimMs`: true when this process holds the claim, false
 * when another does (still within its lease), or the credentials when the account is there already.
 */
async function claimCreation(
  orgId: string,
  platformSid: string,
  claimMs: number,
): Promise<boolean | AccountCredentials> {
  const fresh = await insertIfAbsent(TelephonyAccount, {
    _id: orgId,
    claim_ms: claimMs,
    subaccount_sid: null,
    subaccount_token: null,
    parent_account_sid: null,
    subaccount_created_ms: null,
    connected_sid: null,
    connected_key_sid: null,
    connected_key_secret: null,
    connected_auth_token: null,
    connected_ms: null,
  });
  if (fresh) return true;
  const doc = await TelephonyAccount.findById(orgId).lean();
  if (!doc) return false; // removed meanwhile: try again
  const known = credentialsOf(doc, platformSid);
  if (known) return known;
  // A subaccount made under another platform account is a stale record (the platform account changed):
  // taken over at once. Else a claim within its lease is another process's creation under way.
  const stale = doc.subaccount_sid != null;
  if (!stale && doc.claim_ms != null && claimMs - doc.claim_ms < CLAIM_LEASE_MS) return false;
  const taken = await TelephonyAccount.updateOne(
    { _id: orgId, claim_ms: doc.claim_ms ?? null, subaccount_sid: doc.subaccount_sid ?? null },
    { $set: { claim_ms: claimMs, subaccount_sid: null, subaccount_token: null, parent_account_sid: null } },
  );
  return taken.modifiedCount === 1;
}

/**
 * Holding the claim made at `claimMs`: the subaccount named `subaccountFriendlyName(orgId)` under the
 * platform account if Twilio has one (not closed; the oldest, should there be several), else a new one;
 * stored with its auth token sealed, the claim released.
 */
async function createSubaccount(
  orgId: string,
  platform: TwilioCredentials,
  claimMs: number,
): Promise<AccountCredentials> {
  const parent = clientWith(platform);
  const friendlyName = subaccountFriendlyName(orgId);
  const found = (await parent.api.v2010.accounts.list({ friendlyName, limit: 20 }))
    .filter((a) => a.status !== 'closed' && a.sid !== platform.accountSid)
    .sort((a, b) => (a.dateCreated?.getTime() ?? 0) - (b.dateCreated?.getTime() ?? 0));
  const account = found[0] ?? (await parent.api.v2010.accounts.create({ friendlyName }));
  await TelephonyAccount.updateOne(
    { _id: orgId, claim_ms: claimMs },
    {
      $set: {
        claim_ms: null,
        subaccount_sid: account.sid,
        subaccount_token: sealSecret(account.authToken),
        parent_account_sid: platform.accountSid,
        subaccount_created_ms: Date.now(),
      },
    },
  );
  return { mode: 'subaccount', accountSid: account.sid, username: account.sid, password: account.authToken };
}

/**
 * The credentials to act in account `accountSid` (a call's `provider_account_sid`): the platform's, an
 * organization's subaccount or its connected account (by its API key).
 * @throws ApplicationFailure `TelephonyRejected` when Twilio is not configured, or the account is no
 *   longer connected to any organization (its calls cannot be reached any more)
 */
export async function credentialsOfAccount(accountSid: string): Promise<TwilioCredentials> {
  const platform = platformCredentials();
  if (accountSid === platform.accountSid) return platform;
  const [sub, connected] = await Promise.all([
    TelephonyAccount.findOne({ subaccount_sid: accountSid }).lean(),
    TelephonyAccount.findOne({ connected_sid: accountSid }).lean(),
  ]);
  if (connected?.connected_key_sid && connected.connected_key_secret)
    return { accountSid, username: connected.connected_key_sid, password: openSecret(connected.connected_key_secret)! };
  if (sub?.subaccount_token && sub.parent_account_sid === platform.accountSid)
    return { accountSid, username: accountSid, password: openSecret(sub.subaccount_token)! };
  throw ApplicationFailure.nonRetryable(`Twilio account ${accountSid} is no longer connected.`, TELEPHONY_REJECTED);
}

/**
 * The credentials of the account live call `callId` is in: the one recorded on the call
 * (`provider_account_sid`), else the platform's (a call placed before organizations had accounts).
 * @throws like `credentialsOfAccount`
 */
export async function callCredentials(callId: string): Promise<TwilioCredentials> {
  const call = await Call.findById(callId, { provider_account_sid: 1 }).lean();
  return call?.provider_account_sid ? await credentialsOfAccount(call.provider_account_sid) : platformCredentials();
}

/** `callCredentials` of the call whose Twilio Call SID is `providerCallSid`. */
export async function callCredentialsBySid(providerCallSid: string): Promise<TwilioCredentials> {
  const call = await Call.findOne({ provider_call_sid: providerCallSid }, { provider_account_sid: 1 }).lean();
  return call?.provider_account_sid ? await credentialsOfAccount(call.provider_account_sid) : platformCredentials();
}

/** `callCredentials` of the call whose recording at Twilio is `recordingSid` (the platform's when unknown). */
export async function recordingCredentials(recordingSid: string): Promise<TwilioCredentials> {
  const recording = await Recording.findOne({ provider_recording_sid: recordingSid }, { call_id: 1 }).lean();
  return recording ? await callCredentials(recording.call_id) : platformCredentials();
}

/** A `twilio` client acting in the account live call `callId` is in (`callCredentials`). */
export async function callClient(callId: string): Promise<twilio.Twilio> {
  return clientWith(await callCredentials(callId));
}

/**
 * The account a Twilio webhook names (its `AccountSid`; none: the platform's) and the auth token its
 * `X-Twilio-Signature` is made with: the platform's (`orgId` null), an organization's subaccount, or an
 * organization's connected account. Null when no such account is known here (or Twilio is not configured).
 */
export async function webhookAccount(
  accountSid: string | undefined,
): Promise<{ accountSid: string; orgId: string | null; authToken: string } | null> {
  const cfg = config();
  if (!cfg.twilioAccountSid || !cfg.twilioAuthToken) return null;
  if (!accountSid || accountSid === cfg.twilioAccountSid)
    return { accountSid: cfg.twilioAccountSid, orgId: null, authToken: cfg.twilioAuthToken };
  if (!/^AC[0-9a-f]{32}$/i.test(accountSid)) return null;
  const [sub, connected] = await Promise.all([
    TelephonyAccount.findOne({ subaccount_sid: accountSid }).lean(),
    TelephonyAccount.findOne({ connected_sid: accountSid }).lean(),
  ]);
  if (connected?.connected_auth_token)
    return { accountSid, orgId: connected._id, authToken: openSecret(connected.connected_auth_token)! };
  if (sub?.subaccount_token && sub.parent_account_sid === cfg.twilioAccountSid)
    return { accountSid, orgId: sub._id, authToken: openSecret(sub.subaccount_token)! };
  return null;
}

/**
 * The SID of the account organization `orgId`'s live telephony runs in now, as stored: its connected own
 * account, else its subaccount of the current platform account; null while it has neither (nothing is
 * created here, unlike `telephonyAccount`). What a number or caller ID recorded under another account is
 * compared with: a caller ID is verified in one Twilio account, and a number held by one, and a call
 * placed in another account can show neither (https://www.twilio.com/docs/voice/api/outgoing-caller-ids).
 */
export async function accountInUse(orgId: string): Promise<string | null> {
  const doc = await TelephonyAccount.findById(orgId, {
    connected_sid: 1,
    subaccount_sid: 1,
    parent_account_sid: 1,
  }).lean();
  if (doc?.connected_sid) return doc.connected_sid;
  return doc?.subaccount_sid && doc.parent_account_sid === config().twilioAccountSid ? doc.subaccount_sid : null;
}

/** What `GET /v1/telephony/connection` shows (never a secret). */
export interface TelephonyConnection {
  object: 'telephony_connection';
  mode: TelephonyMode;
  /** The account in use; null while the subaccount is not created yet (it is on first live use). */
  account_sid: string | null;
  /** When that account was connected or created (unix seconds); null likewise. */
  created: number | null;
}

/** Organization `orgId`'s telephony connection as the API shows it. */
export async function telephonyConnection(orgId: string): Promise<TelephonyConnection> {
  const doc = await TelephonyAccount.findById(orgId).lean();
  const seconds = (ms: number | null | undefined) => (ms == null ? null : Math.floor(ms / 1000));
  if (doc?.connected_sid)
    return {
      object: 'telephony_connection',
      mode: 'connected',
      account_sid: doc.connected_sid,
      created: seconds(doc.connected_ms),
    };
  const current = doc?.subaccount_sid && doc.parent_account_sid === config().twilioAccountSid;
  return {
    object: 'telephony_connection',
    mode: 'subaccount',
    account_sid: current ? doc.subaccount_sid! : null,
    created: current ? seconds(doc.subaccount_created_ms) : null,
  };
}

/** Why `connectOwnAccount` refused: the API's error code and message. */
export class ConnectionRefused extends Error {
  constructor(
    readonly code: 'twilio_credentials_invalid' | 'twilio_account_taken',
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * Connects organization `orgId`'s own Twilio account: verified by fetching the account
 * (`GET /2010-04-01/Accounts/{AccountSid}.json`) with the API key, and again with the auth token (the
 * key of the account's webhook signatures); then stored, the secrets sealed. Nothing is stored when either
 * fetch fails. An account connected to another organization is refused (the error does not say which).
 * @throws ConnectionRefused `twilio_credentials_invalid` (naming the field) or `twilio_account_taken`;
 *   Error when Twilio cannot be reached (5xx, network)
 */
export async function connectOwnAccount(
  orgId: string,
  input: { accountSid: string; apiKeySid: string; apiKeySecret: string; authToken: string },
): Promise<TelephonyConnection> {
  const other = await TelephonyAccount.findOne({ connected_sid: input.accountSid }, { _id: 1 }).lean();
  if ((other && other._id !== orgId) || input.accountSid === config().twilioAccountSid)
    throw new ConnectionRefused(
      'twilio_account_taken',
      'This Twilio account is connected to another organization.',
      'account_sid',
    );
  const sub = await TelephonyAccount.findOne({ subaccount_sid: input.accountSid }, { _id: 1 }).lean();
  if (sub)
    throw new ConnectionRefused(
      'twilio_account_taken',
      'This Twilio account is connected to another organization.',
      'account_sid',
    );
  await verifyCredentials(
    { accountSid: input.accountSid, username: input.apiKeySid, password: input.apiKeySecret },
    'api_key_secret',
  );
  await verifyCredentials(
    { accountSid: input.accountSid, username: input.accountSid, password: input.authToken },
    'auth_token',
  );
  const now = Date.now();
  const connected = {
    connected_sid: input.accountSid,
    connected_key_sid: input.apiKeySid,
    connected_key_secret: sealSecret(input.apiKeySecret),
    connected_auth_token: sealSecret(input.authToken),
    connected_ms: now,
  };
  const inserted = await insertIfAbsent(TelephonyAccount, {
    _id: orgId,
    claim_ms: null,
    subaccount_sid: null,
    subaccount_token: null,
    parent_account_sid: null,
    subaccount_created_ms: null,
    ...connected,
  });
  if (!inserted) await TelephonyAccount.updateOne({ _id: orgId }, { $set: connected });
  return await telephonyConnection(orgId);
}

/** Fetches `creds.accountSid` with `creds`; a 401/403/404 is `ConnectionRefused` naming `param`. */
async function verifyCredentials(creds: TwilioCredentials, param: string): Promise<void> {
  try {
    const account = await clientWith(creds).api.v2010.accounts(creds.accountSid).fetch();
    if (account.sid !== creds.accountSid) throw Object.assign(new Error('another account answered'), { status: 403 });
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500 && status !== 429)
      throw new ConnectionRefused(
        'twilio_credentials_invalid',
        `Twilio did not accept these credentials for account ${creds.accountSid} (${status}).`,
        param,
      );
    throw err;
  }
}

/**
 * Disconnects organization `orgId`'s own account: its telephony runs in its platform subaccount again
 * (created on next use if it has none). The connected account's secrets are erased.
 */
export async function disconnectOwnAccount(orgId: string): Promise<TelephonyConnection> {
  await TelephonyAccount.updateOne(
    { _id: orgId },
    {
      $set: {
        connected_sid: null,
        connected_key_sid: null,
        connected_key_secret: null,
        connected_auth_token: null,
        connected_ms: null,
      },
    },
  );
  return await telephonyConnection(orgId);
}
