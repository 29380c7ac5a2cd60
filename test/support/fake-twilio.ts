/**
 * A Twilio-shaped REST server on loopback for tests: the real `twilio` package talks to it through
 * `TWILIO_API_BASE_URL`. It implements the Calls resource as far as the service uses it — create
 * (`POST /2010-04-01/Accounts/{sid}/Calls.json`), list (`GET …/Calls.json?To=&From=`) and update
 * (`POST …/Calls/{CallSid}.json`, `Twiml` or `Status`) — checks HTTP basic auth like Twilio, and records
 * every request.
 *
 * Accounts: the fake holds several Twilio accounts (`accounts`): the platform's (`accountSid`,
 * `authToken`), its subaccounts, made through the Accounts API as Twilio does
 * (`POST /2010-04-01/Accounts.json` `FriendlyName`; `GET …/Accounts.json?FriendlyName=&Status=` lists the
 * caller's account and its subaccounts; `GET …/Accounts/{Sid}.json`;
 * https://www.twilio.com/docs/iam/api/subaccounts), and main accounts a test adds (`addAccount`: an
 * organization's own account) with API keys (`addApiKey`). Every request is authenticated with an
 * account's SID and auth token or an API key's SID and secret (401 otherwise) and acts only in that
 * account or its subaccounts (404 otherwise); each account's calls, messages, call recordings and
 * conferences are its own (a call created in one account is not found in another). Callbacks about a call
 * are signed with the auth token of the account the call is in (`signerOf`).
 *
 * Parameters: every request's path, query and form parameters are checked against Twilio's published
 * OpenAPI description of the 2010 API and of the Voice v1 API (test/support/twilio-oai.ts): one Twilio does not describe is
 * answered 400 and listed in `oaiRefusals`, so a test that makes the service send it fails. `behave` lets a test delay or fail requests (a create whose answer comes too late, a
 * hang-up that fails with 5xx).
 *
 * Answering-machine detection: a create may ask for it as Twilio takes it (`MachineDetection`
 * `Enable` or `DetectMessageEnd`, `AsyncAmd`, `AsyncAmdStatusCallback`, `MachineDetectionTimeout` 3–59;
 * others are 400 like Twilio's); the fake records them with the create, and `twilioCallback` lets a test
 * post the AMD result (or any callback) signed as Twilio signs it.
 *
 * Conferences and their Participants (warm transfer): a call whose TwiML (a create's `Twiml`, an
 * update's `Twiml`) has `<Dial><Conference>` waits to join that conference; `joinConference` lets a test
 * join it (the participant appears in `GET …/Conferences.json?FriendlyName=` and
 * `GET …/Conferences/{ConferenceSid}/Participants.json`) and posts the conference's signed
 * `participant-join` callback to its `statusCallback`, as Twilio does; `legStatus` posts a call's signed
 * status callback to the `StatusCallback` of its create.
 *
 * `<Connect action>` (an inbound call's ConversationRelay session): a call whose TwiML the fake has seen
 * (`answerInbound`'s answer to the incoming-call webhook, a create's or an update's `Twiml`) has a
 * `<Connect action="…">`; when an update then gives the call other TwiML (`Twiml` or `Url`: the caller
 * redirected into a warm transfer's conference, or to a cold `<Dial>`), the session ends with the caller
 * still on the line, and the fake requests the action URL as Twilio does (signed, `CallStatus:
 * in-progress`), after answering the update; `connectActions` records each request and its answer.
 *
 * `<Pay>` (card payments): a call whose update's `Twiml` has `<Pay>` is in card entry: the fake keeps its
 * attributes (`payTwiml`), and `completePay` plays the caller and the processor as Twilio does — a test
 * card "keyed in", the action callback posted signed with the outcome and the card number masked
 * (`xxxxxxxxxxxx4242`), its answer (the TwiML the call goes on with) returned. Recording controls:
 * `POST …/Calls/{CallSid}/Recordings/{Sid}.json` (`Status`, `PauseBehavior`; `Twilio.CURRENT` for the
 * running recording) is answered 200 and kept in `recordingUpdates`.
 *
 * BYOC trunks and Connection Policies of the Voice v1 API (`/v1/…`, test/support/fake-twilio-sip.ts), in
 * the account the request's credentials name. A Calls create's `To` may be a SIP URI (with
 * `SipAuthUsername`/`SipAuthPassword`), recorded like any create.
 *
 * `<Dial><Sip>` to OpenAI's Realtime API (a realtime call's leg, src/api/twilio/index.ts `dialRealtime`):
 * TwiML the fake follows (`fetchTwiml`: a test fetching a call's TwiML as Twilio does) that dials a SIP URI
 * is rung at the Realtime API's simulated SIP side (`sipSimulatorUrl`, test/support/fake-openai-realtime.ts
 * `simulatorUrl`, as `ringRealtimeSimulation` rings it for a test-mode call) with the URI's `X-` headers
 * (our call id) and the caller's lines of `sipCallers`; `sipDials` records each. An update of such a call
 * with a `Url` (the fallback to the pipeline) ends the `<Dial>` leg and the fake fetches the URL as Twilio
 * does (signed, `CallStatus: in-progress`), following its TwiML in turn; `urlFetches` records each fetch
 * and its answer once in.
 *
 * Messages resource: create (`POST …/Messages.json`: `To`, `From`, `Body` or `ContentSid` +
 * `ContentVariables`, `StatusCallback`) and list (`GET …/Messages.json` filtered by `To`, `From`,
 * `DateSent>`). Recordings resource: `recordings` holds the WAV of each recording SID a test
 * registers, served at `GET …/Recordings/{RecordingSid}.wav`; `DELETE …/Recordings/{RecordingSid}.json`
 * removes it (204; 404 when unknown) and lists the SID in `deletedRecordings`; a recording started on a
 * live call (`POST …/Calls/{CallSid}/Recordings.json`) is kept in `callRecordings` and listed by
 * `GET` of the same path (status `in-progress`). Knobs for failure tests: `rejectMessagesTo` (a `To` answered with a Twilio 4xx error),
 * `lostResponses` (the next N message creates are accepted, then answered 500, as when the answer is lost
 * on the way), `messageDelayMs` (held before answering a create).
 */
import http from 'node:http';
import twilio from 'twilio';
import { config, setConfig } from '../../src/config';
import { h } from './harness';
import { fakeNumbersRoute, numberHolder } from './fake-twilio-numbers';
import { fakeSipRoute } from './fake-twilio-sip';
import { Call } from '../../src/models/calls';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import { twilioOaiRefusal } from './twilio-oai';

/**
 * A Twilio account at the fake: the platform's (the fake's own `accountSid`), a subaccount created
 * through the Accounts API (`ownerAccountSid` its parent), or a standalone account a test adds (an
 * organization's own account, `addAccount`). Each has its auth token and API keys; HTTP basic auth is
 * checked per request (account SID + auth token, or API key SID + secret), 401 otherwise.
 */
export interface FakeAccount {
  sid: string;
  authToken: string;
  friendlyName: string;
  /** The parent account (itself for a main account). */
  ownerAccountSid: string;
  status: 'active' | 'suspended' | 'closed';
  dateCreated: Date;
  /** API keys (`SK…` → secret): each acts in its own account (and its subaccounts). */
  apiKeys: Map<string, string>;
}

export interface FakeTwilio {
  url: string;
  /** The platform account (the service's `TWILIO_ACCOUNT_SID`). */
  accountSid: string;
  authToken: string;
  /** Every account at the fake by SID: the platform's first, its subaccounts, accounts added by tests. */
  accounts: Map<string, FakeAccount>;
  /** Adds a main account (an organization's own Twilio account), or a subaccount of `parent`. */
  addAccount(opts?: { friendlyName?: string; parent?: string }): FakeAccount;
  /** Adds an API key to account `accountSid`. */
  addApiKey(accountSid: string): { sid: string; secret: string };
  /** The subaccounts of the platform account (created through the Accounts API or added), oldest first. */
  subaccounts(): FakeAccount[];
  /**
   * The account call `callSid` is in: the one it was created in, or, for an inbound call the fake signed
   * the incoming-call webhook of (`answerInbound`, `webhookSigner`), the account holding the number called
   * (undefined for a call the fake knows nothing of).
   */
  accountOfCall(callSid: string): FakeAccount | undefined;
  /** Inbound calls' accounts: Call SID → the account holding the number called. */
  inboundCalls: Map<string, string>;
  /**
   * What a fetch of a call (`GET …/Calls/{CallSid}.json`) reports as its `price` and `price_unit` (Twilio:
   * a negative decimal string for a charge, e.g. `"-0.02100"`, `USD`); a call not in the map reports `price: null`.
   */
  callPrices: Map<string, { price: string; price_unit: string }>;
  /** Every Accounts API create request (`POST /2010-04-01/Accounts.json`), accepted or not, in order. */
  accountCreates: Record<string, string>[];
  /** Requests refused because twilio-oai does not describe them (test/support/twilio-oai.ts), with why. */
  oaiRefusals: { method: string; path: string; reason: string }[];
  /** Call creates accepted (form parameters), with their `Sid`, the `AccountSid` they were made in and when they came (`AtMs`, epoch ms). */
  created: Record<string, string>[];
  updates: { callSid: string; params: Record<string, string>; accountSid: string }[];
  /** How many list requests were made. */
  lists: number;
  /** Test hooks: delay (ms) or fail (HTTP status) the next requests; reset by assigning `{}`. */
  behave: {
    create?: (n: number) => { delayMs?: number; status?: number };
    update?: (n: number) => { delayMs?: number; status?: number };
    /** The n-th subaccount create: `lost` creates it and then answers 500 (the answer lost on the way). */
    createAccount?: (n: number) => { delayMs?: number; status?: number; lost?: boolean };
  };
  /** Every message create request (form parameters) that was accepted, with the SID given, when (`AtMs`) and its `AccountSid`. */
  messages: (Record<string, string> & { Sid: string; AtMs: string })[];
  /** Every request to the Messages resource (create and list), accepted or not. */
  messageRequests: { method: string; url: string; params: Record<string, string> }[];
  /** Called with each accepted message create (the benchmark's clock). */
  onMessage: ((m: Record<string, string>) => void) | null;
  rejectMessagesTo: Map<string, { status: number; code: number; message: string }>;
  lostResponses: number;
  messageDelayMs: number;
  /**
   * Recordings registered by tests (SID → WAV bytes), served until deleted, in whichever account the
   * service asks (a test registers the audio of a call without naming its account).
   */
  recordings: Map<string, Buffer>;
  /** The SIDs of recordings deleted through the API, in order. */
  deletedRecordings: string[];
  /** Recordings started on a live call through the API (`POST …/Calls/{CallSid}/Recordings.json`), in order. */
  callRecordings: { callSid: string; params: Record<string, string>; sid: string; accountSid?: string }[];
  /** Conferences by FriendlyName (created by the first join, in that call's account), with their participants' Call SIDs. */
  conferences: Map<string, FakeConference>;
  /** The `<Conference>` each call's latest TwiML dials (Call SID → it), until it joins. */
  conferenceTwiml: Map<string, ConferenceTwiml>;
  /** The `<Connect action>` URL of each call whose TwiML runs a ConversationRelay session (Call SID → URL). */
  connectAction: Map<string, string>;
  /** Each `<Connect action>` request the fake made (a session ended by a redirect), with its answer once in. */
  connectActions: {
    callSid: string;
    url: string;
    params: Record<string, string>;
    answer: Promise<{ status: number; text: string }>;
  }[];
  /** The `<Pay>` attributes of each call whose latest TwiML is card entry (Call SID → attributes). */
  payTwiml: Map<string, Record<string, string>>;
  /** Each recording control request (`POST …/Calls/{CallSid}/Recordings/{Sid}.json`), in order. */
  recordingUpdates: { callSid: string; sid: string; params: Record<string, string> }[];
  /** Where a followed `<Dial><Sip>` is rung (the fake Realtime API's `simulatorUrl`); null: not rung. */
  sipSimulatorUrl: string | null;
  /** What the person on each call (Call SID) says on its SIP leg: the simulated Realtime caller's lines. */
  sipCallers: Map<string, string[]>;
  /** Each `<Dial><Sip>` the fake followed: the call, the URI dialed, its `X-` headers, the simulator's status (0: not rung). */
  sipDials: { callSid: string; uri: string; headers: Record<string, string>; status: number }[];
  /** Each TwiML URL fetched after a `Url` update of a call on a SIP leg, with its answer once in. */
  urlFetches: { callSid: string; url: string; answer: Promise<{ status: number; text: string }> }[];
  close(): Promise<void>;
}

/** A conference at the fake (Conferences resource). */
export interface FakeConference {
  sid: string;
  friendlyName: string;
  participants: string[];
  /** The account it is in (its first participant's). */
  accountSid?: string;
}

/** What a call's TwiML says of the conference it dials: its name and `<Conference>` attributes. */
export interface ConferenceTwiml {
  name: string;
  attributes: Record<string, string>;
}

/** The `<Conference>` a TwiML document dials, or null (a regex over the TwiML the service writes). */
export function conferenceInTwiml(twiml: string | undefined): ConferenceTwiml | null {
  const m = /<Conference([^>]*)>([^<]+)<\/Conference>/.exec(twiml ?? '');
  if (!m) return null;
  const attributes = Object.fromEntries(
    [...m[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, '&')]),
  );
  return { name: m[2], attributes };
}

const hex32 = () => crypto.randomBytes(16).toString('hex');

/** A new account (main when `parent` is absent). */
function newAccount(friendlyName: string, parent?: string): FakeAccount {
  const sid = 'AC' + hex32();
  return {
    sid,
    authToken: hex32(),
    friendlyName,
    ownerAccountSid: parent ?? sid,
    status: 'active',
    dateCreated: new Date(),
    apiKeys: new Map(),
  };
}

/** Twilio's JSON of an account (Accounts resource; the auth token shown, as to its owner). */
function accountJson(a: FakeAccount) {
  return {
    sid: a.sid,
    owner_account_sid: a.ownerAccountSid,
    friendly_name: a.friendlyName,
    auth_token: a.authToken,
    status: a.status,
    type: 'Full',
    date_created: a.dateCreated.toUTCString(),
    date_updated: a.dateCreated.toUTCString(),
    uri: `/2010-04-01/Accounts/${a.sid}.json`,
    subresource_uris: {},
  };
}

/** The basic-auth credentials of a request, or null. */
function basicAuth(req: http.IncomingMessage): { user: string; password: string } | null {
  const raw = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
  const i = raw.indexOf(':');
  return i > 0 ? { user: raw.slice(0, i), password: raw.slice(i + 1) } : null;
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const platform = newAccount('platform');
  const accounts = new Map<string, FakeAccount>([[platform.sid, platform]]);
  const accountSid = platform.sid;
  const authToken = platform.authToken;
  const created: FakeTwilio['created'] = [];
  const updates: FakeTwilio['updates'] = [];
  const calls: { sid: string; to: string; from: string; created: Date; accountSid: string }[] = [];
  const messages: FakeTwilio['messages'] = [];
  const messageRequests: FakeTwilio['messageRequests'] = [];
  const fake = {
    lists: 0,
    accounts,
    accountCreates: [] as Record<string, string>[],
    oaiRefusals: [] as FakeTwilio['oaiRefusals'],
    behave: {} as FakeTwilio['behave'],
    onMessage: null as FakeTwilio['onMessage'],
    rejectMessagesTo: new Map<string, { status: number; code: number; message: string }>(),
    lostResponses: 0,
    messageDelayMs: 0,
    recordings: new Map<string, Buffer>(),
    deletedRecordings: [] as string[],
    callRecordings: [] as FakeTwilio['callRecordings'],
    conferences: new Map<string, FakeConference>(),
    conferenceTwiml: new Map<string, ConferenceTwiml>(),
    connectAction: new Map<string, string>(),
    connectActions: [] as FakeTwilio['connectActions'],
    payTwiml: new Map<string, Record<string, string>>(),
    recordingUpdates: [] as FakeTwilio['recordingUpdates'],
    sipSimulatorUrl: null as string | null,
    sipCallers: new Map<string, string[]>(),
    sipDials: [] as FakeTwilio['sipDials'],
    urlFetches: [] as FakeTwilio['urlFetches'],
    addAccount(opts: { friendlyName?: string; parent?: string } = {}): FakeAccount {
      const a = newAccount(opts.friendlyName ?? 'own account', opts.parent);
      accounts.set(a.sid, a);
      return a;
    },
    addApiKey(sid: string): { sid: string; secret: string } {
      const account = accounts.get(sid);
      if (!account) throw new Error(`no account ${sid}`);
      const key = { sid: 'SK' + hex32(), secret: crypto.randomBytes(24).toString('base64url') };
      account.apiKeys.set(key.sid, key.secret);
      return key;
    },
    subaccounts: () =>
      [...accounts.values()].filter((a) => a.ownerAccountSid === platform.sid && a.sid !== platform.sid),
    accountOfCall: (callSid: string) => {
      const call = calls.find((c) => c.sid === callSid);
      const sid = call?.accountSid ?? fake.inboundCalls.get(callSid);
      return sid ? accounts.get(sid) : undefined;
    },
    inboundCalls: new Map<string, string>(),
    callPrices: new Map<string, { price: string; price_unit: string }>(),
  };
  /** The account whose credentials a request carries (the account itself, or the owner of the API key), or null. */
  const authenticated = (req: http.IncomingMessage): FakeAccount | null => {
    const auth = basicAuth(req);
    if (!auth) return null;
    if (auth.user.startsWith('SK')) {
      const owner = [...accounts.values()].find((a) => a.apiKeys.get(auth.user) === auth.password);
      return owner && owner.status === 'active' ? owner : null;
    }
    const a = accounts.get(auth.user);
    return a && a.status === 'active' && a.authToken === auth.password ? a : null;
  };
  /** True when credentials of `caller` may act in account `target`: itself, or a subaccount of it. */
  const mayActIn = (caller: FakeAccount, target: FakeAccount | undefined) =>
    Boolean(target && (target.sid === caller.sid || target.ownerAccountSid === caller.sid));
  const messageJson = (m: FakeTwilio['messages'][number]) => ({
    sid: m.Sid,
    account_sid: m.AccountSid,
    to: m.To,
    from: m.From,
    body: m.Body ?? `[content ${m.ContentSid}]`,
    status: 'queued',
    date_created: m.DateCreated,
    date_sent: null,
    direction: 'outbound-api',
    num_segments: '1',
    api_version: '2010-04-01',
  });
  /** Calls (SIDs) whose TwiML the fake followed last is a `<Dial><Sip>` leg. */
  const sipLegs = new Set<string>();
  let creates = 0;
  let updatesSeen = 0;
  let accountCreatesSeen = 0;
  const sleep = (ms = 0) => new Promise((r) => setTimeout(r, ms));
  const notFound = { code: 20404, message: 'The requested resource was not found', status: 404 };
  const server = http.createServer((req, res) => {
    const arrivedMs = Date.now(); // when the request came (its headers), before the body is read
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const caller = authenticated(req);
      if (!caller) return send(401, { code: 20003, message: 'Authenticate', status: 401 });
      const params = Object.fromEntries(new URLSearchParams(raw));
      const [pathname, query = ''] = (req.url ?? '').split('?');
      const refusal = twilioOaiRefusal(
        req.method ?? 'GET',
        pathname,
        new URLSearchParams(query).keys(),
        new URLSearchParams(raw).keys(),
      );
      if (refusal) {
        fake.oaiRefusals.push({ method: req.method ?? '', path: pathname, reason: refusal });
        return send(400, { code: 20001, message: `twilio-oai: ${refusal}`, status: 400 });
      }
      // The Voice v1 API's BYOC resources (test/support/fake-twilio-sip.ts), in the caller's own account.
      if (fakeSipRoute(req.method ?? 'GET', caller.sid, pathname, params, send)) return;
      // The Accounts resource: the caller's own account and subaccounts (https://www.twilio.com/docs/iam/api/account).
      if (pathname === '/2010-04-01/Accounts.json') {
        if (req.method === 'POST') {
          fake.accountCreates.push(params);
          if (caller.ownerAccountSid !== caller.sid)
            return send(403, { code: 20008, message: 'A subaccount cannot create subaccounts.', status: 403 });
          const b = fake.behave.createAccount?.(++accountCreatesSeen) ?? {};
          if (b.status) return send(b.status, { code: 20500, message: 'fake failure', status: b.status });
          const a = fake.addAccount({
            friendlyName: params.FriendlyName ?? `SubAccount ${Date.now()}`,
            parent: caller.sid,
          });
          await sleep(b.delayMs);
          if (b.lost) return send(500, { code: 20500, message: 'Internal Server Error', status: 500 });
          return send(201, accountJson(a));
        }
        const q = new URLSearchParams(query);
        const found = [...accounts.values()].filter(
          (a) =>
            mayActIn(caller, a) &&
            (!q.get('FriendlyName') || a.friendlyName === q.get('FriendlyName')) &&
            (!q.get('Status') || a.status === q.get('Status')),
        );
        const uri = req.url;
        return send(200, {
          accounts: found.map(accountJson),
          first_page_uri: uri,
          next_page_uri: null,
          previous_page_uri: null,
          page: 0,
          page_size: 50,
          start: 0,
          end: found.length,
          uri,
        });
      }
      const own = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})(\.json|\/.*)$/.exec(pathname);
      const account = own ? accounts.get(own[1]) : undefined;
      if (!own || !account || !mayActIn(caller, account)) return send(404, notFound);
      if (own[2] === '.json') return req.method === 'GET' ? send(200, accountJson(account)) : send(404, notFound);
      const acct = account.sid;
      const rec = new RegExp(`^/2010-04-01/Accounts/${acct}/Recordings/(RE[0-9a-f]{32})\\.(wav|json)$`).exec(pathname);
      if (rec) {
        const audio = fake.recordings.get(rec[1]);
        if (!audio) return send(404, notFound);
        if (req.method === 'GET' && rec[2] === 'wav') {
          res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': String(audio.length) });
          return res.end(audio);
        }
        if (req.method === 'DELETE' && rec[2] === 'json') {
          fake.recordings.delete(rec[1]);
          fake.deletedRecordings.push(rec[1]);
          res.writeHead(204);
          return res.end();
        }
      }
      const conferencesPath = `/2010-04-01/Accounts/${acct}/Conferences`;
      const conferenceJson = (c: FakeConference) => ({
        sid: c.sid,
        account_sid: c.accountSid ?? acct,
        friendly_name: c.friendlyName,
        status: 'in-progress',
        api_version: '2010-04-01',
      });
      const inAccount = (c: FakeConference) => (c.accountSid ?? accountSid) === acct;
      if (req.method === 'GET' && pathname === `${conferencesPath}.json`) {
        const name = new URLSearchParams(query).get('FriendlyName');
        const found = [...fake.conferences.values()].filter((c) => inAccount(c) && (!name || c.friendlyName === name));
        return send(200, { conferences: found.map(conferenceJson), page: 0, page_size: 50, next_page_uri: null });
      }
      const participants = new RegExp(`^${conferencesPath}/(CF[0-9a-f]{32})/Participants\\.json$`).exec(pathname);
      if (req.method === 'GET' && participants) {
        const conf = [...fake.conferences.values()].find((c) => c.sid === participants[1] && inAccount(c));
        if (!conf) return send(404, notFound);
        return send(200, {
          participants: conf.participants.map((callSid) => ({
            call_sid: callSid,
            conference_sid: conf.sid,
            account_sid: acct,
            status: 'connected',
          })),
          page: 0,
          page_size: 50,
          next_page_uri: null,
        });
      }
      if (pathname === `/2010-04-01/Accounts/${acct}/Messages.json`) {
        messageRequests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          params: req.method === 'GET' ? Object.fromEntries(new URLSearchParams(query)) : params,
        });
        if (req.method === 'GET') {
          const q = Object.fromEntries(new URLSearchParams(query));
          const since = q['DateSent>'] ? Date.parse(q['DateSent>']) : 0;
          const found = messages.filter(
            (m) =>
              m.AccountSid === acct &&
              (!q.To || m.To === q.To) &&
              (!q.From || m.From === q.From) &&
              Date.parse(m.DateCreated) >= since - 1000,
          );
          return send(200, {
            messages: [...found].reverse().map(messageJson),
            page: 0,
            page_size: 50,
            uri: req.url,
            first_page_uri: req.url,
            next_page_uri: null,
            previous_page_uri: null,
          });
        }
        if (req.method === 'POST') {
          const address = /^(whatsapp:)?\+[1-9]\d{6,14}$/;
          if (!address.test(params.To ?? '') || !address.test(params.From ?? ''))
            return send(400, { code: 21211, message: `Invalid 'To' Phone Number: ${params.To}`, status: 400 });
          if (!params.Body && !params.ContentSid)
            return send(400, { code: 21602, message: 'Message body is required.', status: 400 });
          const rejection = fake.rejectMessagesTo.get(params.To);
          if (rejection)
            return send(rejection.status, {
              code: rejection.code,
              message: rejection.message,
              status: rejection.status,
            });
          const msg = {
            ...params,
            Sid: 'SM' + hex32(),
            DateCreated: new Date().toUTCString(),
            AtMs: String(Date.now()),
            AccountSid: acct,
          };
          messages.push(msg);
          fake.onMessage?.(msg);
          await sleep(fake.messageDelayMs); // the message exists at Twilio even if its answer comes too late
          if (fake.lostResponses > 0) {
            fake.lostResponses--;
            return send(500, { code: 20500, message: 'Internal Server Error', status: 500 });
          }
          return send(201, messageJson(msg));
        }
      }
      const base = `/2010-04-01/Accounts/${acct}/Calls`;
      const callJson = (c: (typeof calls)[number]) => ({
        sid: c.sid,
        account_sid: c.accountSid,
        to: c.to,
        from: c.from,
        status: 'queued',
        date_created: c.created.toUTCString(),
        direction: 'outbound-api',
        api_version: '2010-04-01',
      });
      if (req.method === 'POST' && pathname === `${base}.json`) {
        // A phone number, or a SIP URI (https://www.twilio.com/docs/voice/api/sip-making-calls: under 255 characters).
        if (!/^\+[1-9]\d{6,14}$/.test(params.To ?? '') && !/^sip:[^\s]{1,250}$/.test(params.To ?? ''))
          return send(400, {
            code: 21211,
            message: `The 'To' number ${params.To} is not a valid phone number.`,
            status: 400,
          });
        const amdRefusal = machineDetectionRefusal(params);
        if (amdRefusal) return send(400, { code: 21210, message: amdRefusal, status: 400 });
        const b = fake.behave.create?.(++creates) ?? {};
        if (b.status) return send(b.status, { code: 20500, message: 'fake failure', status: b.status });
        const sid = 'CA' + hex32();
        created.push({ ...params, Sid: sid, AccountSid: acct, AtMs: String(arrivedMs) }); // AtMs: when the create came (the pace tests)
        const dials = conferenceInTwiml(params.Twiml);
        if (dials) fake.conferenceTwiml.set(sid, dials);
        const action = connectActionInTwiml(params.Twiml);
        if (action) fake.connectAction.set(sid, action);
        const call = { sid, to: params.To, from: params.From, created: new Date(), accountSid: acct };
        calls.push(call);
        await sleep(b.delayMs); // the call exists at Twilio even if its answer comes too late
        return send(201, callJson(call));
      }
      if (req.method === 'GET' && pathname === `${base}.json`) {
        fake.lists++;
        const q = new URLSearchParams(query);
        const found = calls
          .filter(
            (c) =>
              c.accountSid === acct &&
              (!q.get('To') || c.to === q.get('To')) &&
              (!q.get('From') || c.from === q.get('From')),
          )
          .reverse();
        const uri = `${base}.json?${query}`;
        return send(200, {
          calls: found.map(callJson),
          first_page_uri: uri,
          next_page_uri: null,
          previous_page_uri: null,
          page: 0,
          page_size: 50,
          start: 0,
          end: found.length,
          uri,
        });
      }
      // A call the fake created is only reached in its own account (an inbound call it never saw, in any).
      const callSidInPath = new RegExp(`^${base}/(CA[0-9a-f]{32})[./]`).exec(pathname)?.[1];
      const knownCall = callSidInPath ? calls.find((c) => c.sid === callSidInPath) : undefined;
      if (knownCall && knownCall.accountSid !== acct) return send(404, notFound);
      const recording = new RegExp(
        `^${base}/(CA[0-9a-f]{32})/Recordings/(RE[0-9a-f]{32}|Twilio\\.CURRENT)\\.json$`,
      ).exec(pathname);
      if (req.method === 'POST' && recording) {
        fake.recordingUpdates.push({ callSid: recording[1], sid: recording[2], params });
        return send(200, {
          sid: 'RE' + hex32(),
          account_sid: acct,
          call_sid: recording[1],
          status: params.Status,
          api_version: '2010-04-01',
        });
      }
      const callRec = new RegExp(`^${base}/(CA[0-9a-f]{32})/Recordings\\.json$`).exec(pathname);
      if (callRec) {
        const recordingJson = (r: FakeTwilio['callRecordings'][number]) => ({
          sid: r.sid,
          account_sid: acct,
          call_sid: r.callSid,
          status: 'in-progress',
          channels: r.params.RecordingChannels === 'dual' ? 2 : 1,
          source: 'StartCallRecordingAPI',
          date_created: new Date().toUTCString(),
          api_version: '2010-04-01',
        });
        if (req.method === 'POST') {
          const started = { callSid: callRec[1], params, sid: 'RE' + hex32(), accountSid: acct };
          fake.callRecordings.push(started);
          return send(201, recordingJson(started));
        }
        const found = fake.callRecordings.filter((r) => r.callSid === callRec[1] && (r.accountSid ?? acct) === acct);
        const uri = `${base}/${callRec[1]}/Recordings.json`;
        return send(200, {
          recordings: found.map(recordingJson),
          first_page_uri: uri,
          next_page_uri: null,
          previous_page_uri: null,
          page: 0,
          page_size: 50,
          start: 0,
          end: found.length,
          uri,
        });
      }
      const m = new RegExp(`^${base}/(CA[0-9a-f]{32})\\.json$`).exec(pathname);
      if (req.method === 'GET' && m && knownCall) {
        const priced = fake.callPrices.get(m[1]);
        return send(200, {
          ...callJson(knownCall),
          status: 'completed',
          price: priced?.price ?? null,
          price_unit: priced?.price_unit ?? 'USD',
        });
      }
      if (req.method === 'POST' && m) {
        const b = fake.behave.update?.(++updatesSeen) ?? {};
        await sleep(b.delayMs);
        if (b.status) return send(b.status, { code: 20500, message: 'fake failure', status: b.status });
        updates.push({ callSid: m[1], params, accountSid: acct });
        const dials = conferenceInTwiml(params.Twiml);
        if (dials) fake.conferenceTwiml.set(m[1], dials);
        else if (params.Twiml || params.Url) fake.conferenceTwiml.delete(m[1]); // left for other TwiML
        const pay = payInTwiml(params.Twiml);
        if (pay) fake.payTwiml.set(m[1], pay);
        else if (params.Twiml || params.Url) fake.payTwiml.delete(m[1]);
        send(200, { sid: m[1], account_sid: acct, status: params.Status ?? 'in-progress' });
        // Redirected while on a SIP leg (`<Dial><Sip>`): the leg ends and Twilio fetches the new TwiML.
        if (params.Url && sipLegs.delete(m[1])) {
          const fetchParams = { CallSid: m[1], CallStatus: 'in-progress' };
          const answer = twilioCallback(account, params.Url, { ...fetchParams, AccountSid: acct })
            .then(async (got) => {
              if (got.status === 200) await followTwiml(fake as FakeTwilio, m[1], got.text);
              return got;
            })
            .catch((err: Error) => ({ status: 0, text: err.message }));
          fake.urlFetches.push({ callSid: m[1], url: params.Url, answer });
        }
        // Redirected while in a ConversationRelay session: the session ends, the caller still on the line,
        // and Twilio requests the `<Connect>`'s action (after the update is answered), signed by the call's account.
        const action = fake.connectAction.get(m[1]);
        if (action && (params.Twiml || params.Url)) {
          fake.connectAction.delete(m[1]);
          const next = connectActionInTwiml(params.Twiml);
          if (next) fake.connectAction.set(m[1], next);
          const actionParams = { AccountSid: acct, CallSid: m[1], CallStatus: 'in-progress' };
          fake.connectActions.push({
            callSid: m[1],
            url: action,
            params: actionParams,
            answer: twilioCallback(account, action, actionParams).catch((err: Error) => ({
              status: 0,
              text: err.message,
            })),
          });
        }
        return;
      }
      if (await fakeNumbersRoute(req.method ?? '', acct, pathname, query, params, send)) return;
      send(404, notFound);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  currentFake = fake as FakeTwilio;
  sipLegsOf.set(fake as FakeTwilio, sipLegs);
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accountSid,
    authToken,
    created,
    updates,
    messages,
    messageRequests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  });
}

/**
 * Starts the fake and points the service's configuration at it (its account SID and auth token,
 * `TWILIO_API_BASE_URL`, `PUBLIC_BASE_URL` = the test API, whose URLs Twilio's signatures cover);
 * `restore()` puts the configuration back and stops the fake.
 */
export async function useFakeTwilio(): Promise<{ fake: FakeTwilio; restore(): Promise<void> }> {
  const fake = await startFakeTwilio();
  const saved = config();
  setConfig({
    ...saved,
    twilioAccountSid: fake.accountSid,
    twilioAuthToken: fake.authToken,
    twilioApiBaseUrl: fake.url,
    publicBaseUrl: h().api.url,
  });
  return {
    fake,
    restore: async () => {
      setConfig(saved);
      await fake.close();
    },
  };
}

/** The `action` URL of the `<Connect>` a TwiML document runs, or null (a regex over the TwiML the service writes). */
export function connectActionInTwiml(twiml: string | undefined): string | null {
  const m = /<Connect\b[^>]*\baction="([^"]*)"/.exec(twiml ?? '');
  return m ? m[1].replace(/&amp;/g, '&') : null;
}

/**
 * Twilio's incoming-call webhook for an inbound call (`CallSid`, `From`, `To`, `CallStatus: ringing`),
 * posted to `POST /twilio/voice/inbound` signed by the account holding `To` (`signedAsTwilio`); the fake keeps the answer's `<Connect action>` for the
 * call, so a later redirect requests it as Twilio does.
 * @returns the webhook's answer (the TwiML)
 */
export async function answerInbound(
  fake: FakeTwilio,
  params: { CallSid: string; From: string; To: string },
): Promise<{ status: number; text: string }> {
  const signed = await signedAsTwilio(fake, '/twilio/voice/inbound', { ...params, CallStatus: 'ringing' });
  const answer = await twilioCallback(signed.signer, '/twilio/voice/inbound', signed.params);
  const action = connectActionInTwiml(answer.text);
  if (action) fake.connectAction.set(params.CallSid, action);
  return answer;
}

/** Each fake's calls on a `<Dial><Sip>` leg (Call SIDs), which a `Url` update takes off it. */
const sipLegsOf = new WeakMap<FakeTwilio, Set<string>>();

/**
 * The SIP URI a TwiML document's `<Dial><Sip>` dials, with the `X-` headers its URI carries after `?`
 * (https://www.twilio.com/docs/voice/twiml/sip#custom-headers), or null (a regex over the TwiML the
 * service writes).
 */
export function sipInTwiml(twiml: string | undefined): { uri: string; headers: Record<string, string> } | null {
  const m = /<Dial\b[^>]*>\s*<Sip\b[^>]*>([^<]+)<\/Sip>/.exec(twiml ?? '');
  if (!m) return null;
  const uri = m[1].trim().replace(/&amp;/g, '&');
  const headers: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(uri.split('?')[1] ?? '')) headers[name] = value;
  return { uri, headers };
}

/**
 * Follows TwiML call `callSid` runs as Twilio would, as far as the fake plays it: a `<Dial><Sip>` is rung at
 * `fake.sipSimulatorUrl` (`POST {sim}/sip/calls` `{to, headers, caller}`), the call then on that SIP leg.
 * @returns the dial recorded (null when the TwiML dials no SIP URI)
 */
export async function followTwiml(
  fake: FakeTwilio,
  callSid: string,
  twiml: string,
): Promise<FakeTwilio['sipDials'][number] | null> {
  const sip = sipInTwiml(twiml);
  if (!sip) return null;
  sipLegsOf.get(fake)?.add(callSid);
  const dial = { callSid, ...sip, status: 0 };
  fake.sipDials.push(dial);
  if (fake.sipSimulatorUrl) {
    const res = await fetch(`${fake.sipSimulatorUrl}/sip/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: sip.uri, headers: sip.headers, caller: fake.sipCallers.get(callSid) ?? [] }),
    });
    dial.status = res.status;
    await res.text();
  }
  return dial;
}

/**
 * Twilio fetching a call's TwiML (`POST` to `path` on the test API, signed: `postAsTwilio`) and following
 * it (`followTwiml`: a `<Dial><Sip>` is rung at the Realtime simulator).
 * @returns the TwiML's answer
 */
export async function fetchTwiml(
  fake: FakeTwilio,
  path: string,
  params: Record<string, string> & { CallSid: string },
): Promise<{ status: number; type: string | null; text: string }> {
  const answer = await postAsTwilio(fake, path, params);
  if (answer.status === 200) await followTwiml(fake, params.CallSid, answer.text);
  return answer;
}

/** Why Twilio would refuse a create's answering-machine detection parameters, or null when they are fine. */
function machineDetectionRefusal(params: Record<string, string>): string | null {
  if (params.MachineDetection === undefined) {
    return params.AsyncAmd !== undefined ? 'AsyncAmd requires MachineDetection.' : null;
  }
  if (!['Enable', 'DetectMessageEnd'].includes(params.MachineDetection))
    return `MachineDetection must be Enable or DetectMessageEnd, not ${params.MachineDetection}.`;
  if (params.AsyncAmd !== undefined && !['true', 'false'].includes(params.AsyncAmd))
    return 'AsyncAmd must be true or false.';
  if (params.AsyncAmd === 'true' && !/^https?:\/\//.test(params.AsyncAmdStatusCallback ?? ''))
    return 'AsyncAmdStatusCallback must be a URL.';
  const timeout = params.MachineDetectionTimeout;
  if (timeout !== undefined && !(Number(timeout) >= 3 && Number(timeout) <= 59))
    return 'MachineDetectionTimeout must be between 3 and 59.';
  return null;
}

/** The current fake (the last started): tests that sign as Twilio find an account's auth token here. */
let currentFake: FakeTwilio | null = null;

/** The auth token of account `accountSid` at the current fake, if it has it. */
export function fakeAccountToken(accountSid: string | null | undefined): string | undefined {
  return accountSid ? currentFake?.accounts.get(accountSid)?.authToken : undefined;
}

/**
 * The account Twilio signs a webhook about `params` (posted to `path`) with: the account what it speaks
 * of is in (Twilio signs each account's webhooks with that account's auth token, a subaccount's with its
 * own). The call `CallSid` (one the fake created, or an inbound call it signed), else the call whose id
 * `path` names (the account the service recorded it in, `provider_account_sid`), else the message
 * `MessageSid` the fake created, else the account holding the number `To` (`whatsapp:` taken off: an
 * inbound call or message; an inbound call is remembered in that account), else the platform's.
 */
export async function webhookSigner(fake: FakeTwilio, params: Record<string, string>, path = ''): Promise<FakeAccount> {
  const platform = fake.accounts.get(fake.accountSid)!;
  const byCall = params.CallSid ? fake.accountOfCall(params.CallSid) : undefined;
  if (byCall) return byCall;
  const callId = /\/twilio\/(?:voice|status|amd|transfer|recording|pay)\/(call_[0-9a-z]+)/.exec(path)?.[1];
  const recorded = callId
    ? (await Call.findById(callId, { provider_account_sid: 1 }).lean())?.provider_account_sid
    : null;
  if (recorded && fake.accounts.get(recorded)) return fake.accounts.get(recorded)!;
  const message = params.MessageSid ? fake.messages.find((m) => m.Sid === params.MessageSid) : undefined;
  if (message) return fake.accounts.get(message.AccountSid) ?? platform;
  const holder = params.To ? numberHolder(params.To.replace(/^whatsapp:/, '')) : undefined;
  const account = holder ? fake.accounts.get(holder) : undefined;
  if (!account) return platform;
  if (params.CallSid) fake.inboundCalls.set(params.CallSid, account.sid);
  return account;
}

/**
 * A webhook as Twilio sends it: `params` with `AccountSid` set to the signing account's
 * (`webhookSigner`, or `signer` when given) and the `X-Twilio-Signature` for `url` (absolute, or a path
 * on the test API).
 */
export async function signedAsTwilio(
  fake: FakeTwilio,
  url: string,
  params: Record<string, string>,
  signer?: FakeAccount,
): Promise<{ signer: FakeAccount; params: Record<string, string>; signature: string }> {
  const full = url.startsWith('/') ? h().api.url + url : url;
  const account = signer ?? (await webhookSigner(fake, params, full));
  const withAccount = { ...params, AccountSid: account.sid };
  return {
    signer: account,
    params: withAccount,
    signature: twilio.getExpectedTwilioSignature(account.authToken, full, withAccount),
  };
}

/**
 * Posts `params` to `path` (on the test API) as Twilio does (`signedAsTwilio`), or with `signature` as
 * given (a forged or missing one: the parameters then as given).
 */
export async function postAsTwilio(
  fake: FakeTwilio,
  path: string,
  params: Record<string, string>,
  signature?: string,
): Promise<{ status: number; type: string | null; text: string }> {
  const signed = signature === undefined ? await signedAsTwilio(fake, path, params) : null;
  const res = await fetch(h().api.url + path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Twilio-Signature': signed?.signature ?? signature ?? '',
    },
    body: new URLSearchParams(signed?.params ?? params).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/**
 * The account Twilio signs call `callSid`'s callbacks with: the one the call was created in, else (an
 * inbound call the fake never created) the platform's.
 */
export function signerOf(fake: FakeTwilio, callSid: string): FakeAccount {
  return fake.accountOfCall(callSid) ?? fake.accounts.get(fake.accountSid)!;
}

/**
 * Posts a Twilio callback to `url` (an absolute URL of the API, e.g. a create's `AsyncAmdStatusCallback`,
 * or a path on the test API) as Twilio does: a form body, signed (`X-Twilio-Signature`) over the URL and
 * the parameters with the auth token of `signer`: a `FakeAccount`, that account's; the fake itself, the
 * account what the callback speaks of is in (`signedAsTwilio`, `AccountSid` set to it), as Twilio signs
 * each account's webhooks with its own token.
 */
export async function twilioCallback(
  signer: FakeTwilio | FakeAccount,
  url: string,
  params: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const full = url.startsWith('/') ? h().api.url + url : url;
  const signed =
    'accounts' in signer
      ? await signedAsTwilio(signer, full, params)
      : { params, signature: twilio.getExpectedTwilioSignature(signer.authToken, full, params) };
  const res = await fetch(full, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Twilio-Signature': signed.signature,
    },
    body: new URLSearchParams(signed.params).toString(),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Call `callSid` joins the conference its TwiML dials, as Twilio does once its TwiML reaches
 * `<Conference>` (the caller at once; the person after the `<Say>` before it): the conference is created
 * on the first join, and its signed `participant-join` callback is posted to the `<Conference>`'s
 * `statusCallback` when its `statusCallbackEvent` lists `join`.
 * @returns the callback's answer (null when none was posted)
 */
export async function joinConference(fake: FakeTwilio, callSid: string): Promise<{ status: number } | null> {
  const dials = fake.conferenceTwiml.get(callSid);
  if (!dials) throw new Error(`call ${callSid} dials no conference`);
  const signer = signerOf(fake, callSid);
  let conf = fake.conferences.get(dials.name);
  if (!conf) {
    conf = {
      sid: 'CF' + crypto.randomBytes(16).toString('hex'),
      friendlyName: dials.name,
      participants: [],
      accountSid: signer.sid,
    };
    fake.conferences.set(dials.name, conf);
  }
  if (!conf.participants.includes(callSid)) conf.participants.push(callSid);
  const { statusCallback, statusCallbackEvent = '' } = dials.attributes;
  if (!statusCallback || !statusCallbackEvent.split(' ').includes('join')) return null;
  return await twilioCallback(signer, statusCallback, {
    AccountSid: signer.sid,
    ConferenceSid: conf.sid,
    FriendlyName: conf.friendlyName,
    CallSid: callSid,
    StatusCallbackEvent: 'participant-join',
  });
}

/** Posts call `callSid`'s signed status callback (`CallStatus`) to the `StatusCallback` its create named. */
export async function legStatus(
  fake: FakeTwilio,
  callSid: string,
  status: string,
): Promise<{ status: number; text: string }> {
  const create = fake.created.find((c) => c.Sid === callSid);
  if (!create?.StatusCallback) throw new Error(`call ${callSid} has no status callback`);
  const signer = signerOf(fake, callSid);
  return await twilioCallback(signer, create.StatusCallback, {
    AccountSid: signer.sid,
    CallSid: callSid,
    CallStatus: status,
  });
}

/** The attributes of the `<Pay>` a TwiML document runs, or null (a regex over the TwiML the service writes). */
export function payInTwiml(twiml: string | undefined): Record<string, string> | null {
  const m = /<Pay\b([^>]*?)\/?>/.exec(twiml ?? '');
  if (!m) return null;
  return Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, '&')]));
}

/**
 * Plays `<Pay>` for call `callSid` as Twilio does once the caller has keyed in `card` (default: Twilio's
 * test Visa 4242 4242 4242 4242) and the processor answered: posts the `<Pay>` action, signed, with
 * `Result` (default `success`), the card number masked but for its last four digits, the card type and a
 * confirmation code (a success only). `unmasked` posts the whole number instead, as a misconfigured
 * connector might (what the service keeps must still hold no card number).
 * @returns the action's answer (the TwiML the call goes on with)
 */
export async function completePay(
  fake: FakeTwilio,
  callSid: string,
  opts: { card?: string; result?: string; unmasked?: boolean; confirmationCode?: string } = {},
): Promise<{ status: number; text: string }> {
  const pay = fake.payTwiml.get(callSid);
  if (!pay?.action) throw new Error(`call ${callSid} is not in <Pay>`);
  const card = (opts.card ?? '4242424242424242').replace(/\D/g, '');
  const result = opts.result ?? 'success';
  fake.payTwiml.delete(callSid);
  const signer = signerOf(fake, callSid);
  return await twilioCallback(signer, pay.action, {
    AccountSid: signer.sid,
    CallSid: callSid,
    Result: result,
    PaymentCardNumber: opts.unmasked ? card : 'x'.repeat(card.length - 4) + card.slice(-4),
    PaymentCardType: 'visa',
    ExpirationDate: '1230',
    ...(result === 'success'
      ? { PaymentConfirmationCode: opts.confirmationCode ?? 'ch_' + crypto.randomBytes(6).toString('hex') }
      : { PaymentError: 'The payment was not completed.' }),
  });
}
