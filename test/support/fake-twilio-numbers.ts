/**
 * The fake Twilio's number resources (test/support/fake-twilio.ts hands every request it does not serve
 * itself to `fakeNumbersRoute`), kept per account SID so that several accounts (subaccounts, connected
 * accounts) each have their own:
 *
 * - AvailablePhoneNumbers: `GET /2010-04-01/Accounts/{sid}/AvailablePhoneNumbers/{Country}/{Local|Mobile|TollFree}.json`
 *   (`AreaCode`, `Contains`, `PageSize`): ten made-up numbers of the area code (`+1<area>2000000`…),
 *   or of 800 for toll-free, minus those some account holds; a country other than US/CA answers 404
 *   like Twilio's unknown country.
 * - IncomingPhoneNumbers: list (`PhoneNumber` filter), create (buy: `PhoneNumber`, `VoiceUrl`, `SmsUrl`,
 *   `StatusCallback`, `FriendlyName`, the methods), update (`POST …/IncomingPhoneNumbers/{sid}.json`),
 *   remove (`DELETE`, 204). A number held by any account of the fake cannot be bought by another (21422,
 *   as Twilio refuses a number that is not available).
 * - OutgoingCallerIds: list (`PhoneNumber` filter), remove; ValidationRequests: create (answers a
 *   six-digit `validation_code`; `completeValidation` plays the person entering it, adding the caller ID).
 *
 * Test knobs, per account (`fakeNumbers(accountSid)`): `refusePurchase` (number → Twilio error: a
 * purchase answered 400 with that code and nothing bought, e.g. 21422 or 21631 address required),
 * `refuseValidation` (number → Twilio error answered to its ValidationRequests create),
 * `purchaseDelayMs` (the number is bought at once, the answer held: a crash test kills the worker
 * meanwhile), `seedIncoming` and `seedCallerId` (what the account holds before the test), and the request
 * logs `purchases`, `releases`, `updates`, `validations`.
 */
import crypto from 'node:crypto';
import { telephonyAccount } from '../../src/services/telephony-accounts';
import { request } from './harness';

/** One IncomingPhoneNumber of an account. */
export interface FakeIncomingNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  smsUrl: string;
  statusCallback: string;
}

/** The number resources of one account at the fake. */
export interface FakeNumbersAccount {
  accountSid: string;
  incoming: Map<string, FakeIncomingNumber>;
  /** Verified caller IDs: SID → number. */
  callerIds: Map<string, string>;
  /** Numbers with a verification call under way → the validation code asked for. */
  pendingValidations: Map<string, string>;
  refusePurchase: Map<string, { status?: number; code: number; message: string }>;
  /** Numbers whose ValidationRequests create is refused with that Twilio error (400). */
  refuseValidation: Map<string, { code: number; message: string }>;
  purchaseDelayMs: number;
  /** Every accepted purchase (create) request's form parameters, in order. */
  purchases: Record<string, string>[];
  /** The SIDs released (removed), in order. */
  releases: string[];
  /** Every update request: SID and form parameters. */
  updates: { sid: string; params: Record<string, string> }[];
  /** Every ValidationRequests create's form parameters. */
  validations: Record<string, string>[];
  /** Every request to these resources: method and path (a test counts lookups). */
  requests: { method: string; path: string; query: string }[];
}

const accounts = new Map<string, FakeNumbersAccount>();

/** The number resources of account `accountSid` at the fake (made empty on first use). */
export function fakeNumbers(accountSid: string): FakeNumbersAccount {
  let a = accounts.get(accountSid);
  if (!a) {
    a = {
      accountSid,
      incoming: new Map(),
      callerIds: new Map(),
      pendingValidations: new Map(),
      refusePurchase: new Map(),
      refuseValidation: new Map(),
      purchaseDelayMs: 0,
      purchases: [],
      releases: [],
      updates: [],
      validations: [],
      requests: [],
    };
    accounts.set(accountSid, a);
  }
  return a;
}

/**
 * The number resources of organization `orgId`'s own Twilio account at the fake (the service acts there,
 * not in the platform's account): its subaccount, created through the fake's Accounts API if it does not
 * exist yet (as the service's first live use would), or its connected account.
 */
export async function orgNumbers(orgId: string): Promise<FakeNumbersAccount> {
  return fakeNumbers((await telephonyAccount(orgId)).accountSid);
}

/** The account holding `number` at the fake, if any. */
function holderOf(number: string): FakeNumbersAccount | undefined {
  return [...accounts.values()].find((a) => [...a.incoming.values()].some((n) => n.phoneNumber === number));
}

/** The SID of the account holding `number` at the fake (an IncomingPhoneNumber of it), if any. */
export const numberHolder = (number: string): string | undefined => holderOf(number)?.accountSid;

/** Puts `number` in the account as if bought earlier (outside the service), with the given URLs. */
export function seedIncoming(
  accountSid: string,
  number: string,
  urls: Partial<Pick<FakeIncomingNumber, 'voiceUrl' | 'smsUrl' | 'statusCallback'>> = {},
): FakeIncomingNumber {
  const n: FakeIncomingNumber = {
    sid: 'PN' + crypto.randomBytes(16).toString('hex'),
    phoneNumber: number,
    friendlyName: number,
    voiceUrl: urls.voiceUrl ?? 'https://demo.twilio.com/welcome/voice/',
    smsUrl: urls.smsUrl ?? '',
    statusCallback: urls.statusCallback ?? '',
  };
  fakeNumbers(accountSid).incoming.set(n.sid, n);
  return n;
}

/** Adds `number` to the account's verified caller IDs (as if verified earlier); returns its SID. */
export function seedCallerId(accountSid: string, number: string): string {
  const sid = 'PN' + crypto.randomBytes(16).toString('hex');
  fakeNumbers(accountSid).callerIds.set(sid, number);
  return sid;
}

/**
 * Plays the person who answered Twilio's verification call of `number` and entered `code` (default: the
 * code asked for): a right code makes it a verified caller ID of the account. Answers whether it did.
 */
export function completeValidation(accountSid: string, number: string, code?: string): boolean {
  const a = fakeNumbers(accountSid);
  const asked = a.pendingValidations.get(number);
  if (!asked || (code !== undefined && code !== asked)) return false;
  a.pendingValidations.delete(number);
  seedCallerId(accountSid, number);
  return true;
}

type Send = (status: number, body: unknown) => void;

const listJson = (key: string, items: unknown[], path: string, query: string) => {
  const uri = `${path}${query ? `?${query}` : ''}`;
  return {
    [key]: items,
    first_page_uri: uri,
    next_page_uri: null,
    previous_page_uri: null,
    page: 0,
    page_size: 50,
    start: 0,
    end: Math.max(items.length - 1, 0),
    uri,
  };
};

const notFound = { code: 20404, message: 'The requested resource was not found', status: 404 };

function incomingJson(a: FakeNumbersAccount, n: FakeIncomingNumber) {
  return {
    sid: n.sid,
    account_sid: a.accountSid,
    phone_number: n.phoneNumber,
    friendly_name: n.friendlyName,
    voice_url: n.voiceUrl,
    voice_method: 'POST',
    sms_url: n.smsUrl,
    sms_method: 'POST',
    status_callback: n.statusCallback,
    status_callback_method: 'POST',
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    origin: 'twilio',
    status: 'in-use',
    date_created: new Date().toUTCString(),
    api_version: '2010-04-01',
    uri: `/2010-04-01/Accounts/${a.accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
  };
}

/** The made-up numbers AvailablePhoneNumbers offers for a type and area code (before filters). */
function inventory(type: string, areaCode: string | null): string[] {
  const area = type === 'TollFree' ? '800' : (areaCode ?? '415');
  const exchange = type === 'Mobile' ? '300' : '200';
  return Array.from({ length: 10 }, (_, i) => `+1${area}${exchange}${String(i).padStart(4, '0')}`);
}

/**
 * Serves a request to the number resources of account `accountSid`, or answers false (not one of them).
 * `params` are the form parameters of a POST; `query` the query string of a GET.
 */
export async function fakeNumbersRoute(
  method: string,
  accountSid: string,
  pathname: string,
  query: string,
  params: Record<string, string>,
  send: Send,
): Promise<boolean> {
  const prefix = `/2010-04-01/Accounts/${accountSid}`;
  if (!pathname.startsWith(prefix + '/')) return false;
  const path = pathname.slice(prefix.length);
  const a = fakeNumbers(accountSid);
  const q = new URLSearchParams(query);
  const available = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/(Local|Mobile|TollFree)\.json$/.exec(path);
  if (available && method === 'GET') {
    a.requests.push({ method, path, query });
    if (!['US', 'CA'].includes(available[1])) return (send(404, notFound), true);
    const contains = (q.get('Contains') ?? '').replace(/\*/g, '');
    const found = inventory(available[2], q.get('AreaCode'))
      .filter((n) => !holderOf(n) && n.includes(contains))
      .slice(0, Number(q.get('PageSize') ?? 50));
    const items = found.map((n) => ({
      friendly_name: `(${n.slice(2, 5)}) ${n.slice(5, 8)}-${n.slice(8)}`,
      phone_number: n,
      locality: available[2] === 'TollFree' ? null : 'San Francisco',
      region: available[2] === 'TollFree' ? null : 'CA',
      postal_code: null,
      iso_country: available[1],
      address_requirements: 'none',
      beta: false,
      capabilities: { voice: true, SMS: true, MMS: available[2] !== 'TollFree' },
    }));
    return (send(200, listJson('available_phone_numbers', items, pathname, query)), true);
  }
  if (path === '/IncomingPhoneNumbers.json') {
    a.requests.push({ method, path, query });
    if (method === 'GET') {
      const want = q.get('PhoneNumber');
      const items = [...a.incoming.values()].filter((n) => !want || n.phoneNumber === want);
      return (
        send(
          200,
          listJson(
            'incoming_phone_numbers',
            items.map((n) => incomingJson(a, n)),
            pathname,
            query,
          ),
        ),
        true
      );
    }
    if (method === 'POST') return (await buy(a, params, send), true);
  }
  const one = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(path);
  if (one) {
    a.requests.push({ method, path, query });
    const n = a.incoming.get(one[1]);
    if (!n) return (send(404, notFound), true);
    if (method === 'DELETE') {
      a.incoming.delete(n.sid);
      a.releases.push(n.sid);
      return (send(204, null), true);
    }
    if (method === 'POST') {
      a.updates.push({ sid: n.sid, params });
      if (params.VoiceUrl !== undefined) n.voiceUrl = params.VoiceUrl;
      if (params.SmsUrl !== undefined) n.smsUrl = params.SmsUrl;
      if (params.StatusCallback !== undefined) n.statusCallback = params.StatusCallback;
      if (params.FriendlyName !== undefined) n.friendlyName = params.FriendlyName;
      return (send(200, incomingJson(a, n)), true);
    }
    if (method === 'GET') return (send(200, incomingJson(a, n)), true);
  }
  return callerIdRoute(a, method, path, pathname, query, params, send);
}

/** IncomingPhoneNumbers create: Twilio's refusals first, then the number is the account's. */
async function buy(a: FakeNumbersAccount, params: Record<string, string>, send: Send): Promise<void> {
  const number = params.PhoneNumber ?? '';
  if (!/^\+[1-9]\d{6,14}$/.test(number))
    return send(400, { code: 21421, message: `PhoneNumber ${number} is invalid.`, status: 400 });
  const refusal = a.refusePurchase.get(number);
  if (refusal) {
    const status = refusal.status ?? 400;
    return send(status, { code: refusal.code, message: refusal.message, status });
  }
  if (holderOf(number))
    return send(400, { code: 21422, message: `Phone number ${number} is not available.`, status: 400 });
  const n: FakeIncomingNumber = {
    sid: 'PN' + crypto.randomBytes(16).toString('hex'),
    phoneNumber: number,
    friendlyName: params.FriendlyName ?? number,
    voiceUrl: params.VoiceUrl ?? '',
    smsUrl: params.SmsUrl ?? '',
    statusCallback: params.StatusCallback ?? '',
  };
  a.incoming.set(n.sid, n);
  a.purchases.push({ ...params, Sid: n.sid });
  // The number is bought at Twilio even when its answer comes too late (or to a worker that died).
  if (a.purchaseDelayMs) await new Promise((r) => setTimeout(r, a.purchaseDelayMs));
  send(201, incomingJson(a, n));
}

/** OutgoingCallerIds (list, remove) and ValidationRequests (create). */
function callerIdRoute(
  a: FakeNumbersAccount,
  method: string,
  path: string,
  pathname: string,
  query: string,
  params: Record<string, string>,
  send: Send,
): boolean {
  const q = new URLSearchParams(query);
  const json = (sid: string, number: string) => ({
    sid,
    account_sid: a.accountSid,
    phone_number: number,
    friendly_name: number,
    date_created: new Date().toUTCString(),
    uri: `/2010-04-01/Accounts/${a.accountSid}/OutgoingCallerIds/${sid}.json`,
  });
  if (path === '/OutgoingCallerIds.json' && method === 'GET') {
    a.requests.push({ method, path, query });
    const want = q.get('PhoneNumber');
    const items = [...a.callerIds.entries()].filter(([, n]) => !want || n === want).map(([s, n]) => json(s, n));
    return (send(200, listJson('outgoing_caller_ids', items, pathname, query)), true);
  }
  const one = /^\/OutgoingCallerIds\/(PN[0-9a-f]{32})\.json$/.exec(path);
  if (one && method === 'DELETE') {
    a.requests.push({ method, path, query });
    if (!a.callerIds.delete(one[1])) return (send(404, notFound), true);
    return (send(204, null), true);
  }
  if (path === '/OutgoingCallerIds.json' && method === 'POST') {
    // ValidationRequests is posted to the OutgoingCallerIds list URL (Twilio's API 2010).
    a.requests.push({ method, path, query });
    a.validations.push(params);
    const number = params.PhoneNumber ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(number))
      return (send(400, { code: 21212, message: `Invalid phone number ${number}.`, status: 400 }), true);
    const refused = a.refuseValidation.get(number);
    if (refused) return (send(400, { ...refused, status: 400 }), true);
    if ([...a.callerIds.values()].includes(number))
      return (send(400, { code: 21450, message: 'Phone number already verified for your account', status: 400 }), true);
    const code = String(crypto.randomInt(100000, 1000000));
    a.pendingValidations.set(number, code);
    return (
      send(201, {
        account_sid: a.accountSid,
        call_sid: 'CA' + crypto.randomBytes(16).toString('hex'),
        friendly_name: params.FriendlyName ?? number,
        phone_number: number,
        validation_code: code,
      }),
      true
    );
  }
  return false;
}

/**
 * Verifies caller ID `number` for the organization of `key` (a live key) the way a person would: starts
 * the verification (`POST /v1/caller_ids`, which runs in the organization's own Twilio account, its
 * subaccount created on first use), then plays the person entering the code (the caller ID added to the
 * account that asked, at the fake), then reads it back (`GET /v1/caller_ids/{id}` checks Twilio) until
 * it is `verified`. `fake` is unused but kept for the callers' signature: the account is the one the
 * validation request reached.
 * @throws Error when the verification is refused or the caller ID does not read back verified
 */
export async function verifiedCallerId(
  fake: { accountSid: string },
  key: string,
  number = '+14155550100',
): Promise<void> {
  void fake;
  const res = await request('POST', '/v1/caller_ids', { key, body: { phone_number: number } });
  if (res.status !== 200 && res.body?.error?.code !== 'caller_id_exists')
    throw new Error(`caller ID ${number} not verified: ${JSON.stringify(res.body)}`);
  if (res.status !== 200 || res.body.status === 'verified') return;
  const asked = [...accounts.values()].filter((a) => a.validations.some((v) => v.PhoneNumber === number));
  for (const a of asked) if (![...a.callerIds.values()].includes(number)) seedCallerId(a.accountSid, number);
  const read = await request('GET', `/v1/caller_ids/${res.body.id}`, { key });
  if (read.body?.status !== 'verified') throw new Error(`caller ID ${number} is ${JSON.stringify(read.body)}`);
}
