/**
 * The fake Twilio's BYOC resources of the Voice v1 API (`voice.twilio.com/v1`, which the service's client
 * sends to the same base URL: src/providers/twilio.ts), served by `fakeSipRoute` (test/support/fake-twilio.ts
 * hands it every `/v1/` request), kept per account: the account whose credentials the request carries
 * (an account SID and auth token, or an API key of that account), as Voice v1 paths name no account.
 *
 * - ConnectionPolicies: list, create (`FriendlyName`), fetch, remove (its Targets with it)
 *   (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/connectionpolicy-resource).
 * - ConnectionPolicies/{sid}/Targets: list, create (`Target` required, a `sip:` URI — `sips:` and other
 *   schemes are refused as Twilio documents: "This must be a sip: schema. sips is NOT supported"), update
 *   (`Target`), remove (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/connectionpolicytarget-resource).
 * - ByocTrunks: list, create (`FriendlyName`, `VoiceUrl`, `VoiceMethod`, `StatusCallbackUrl`,
 *   `StatusCallbackMethod`, `ConnectionPolicySid`: a policy of the same account), fetch, remove
 *   (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/byoctrunk-resource).
 *
 * Lists answer every item on one page with Voice v1's `meta` (`key`, `next_page_url: null`), as the
 * `twilio` package reads them. Test knobs, per account (`fakeSip(accountSid)`): `refuseTrunk` (the next
 * ByocTrunks creates are answered with that Twilio error, nothing made), `lostTrunkAnswers` (the next N
 * creates make the trunk, then answer 500: the answer lost on the way), and the request log `requests`.
 */
import crypto from 'node:crypto';

/** A Connection Policy target. */
export interface FakeTarget {
  sid: string;
  target: string;
  friendlyName: string;
}

/** A Connection Policy with its targets. */
export interface FakePolicy {
  sid: string;
  friendlyName: string;
  targets: Map<string, FakeTarget>;
}

/** A BYOC trunk. */
export interface FakeByocTrunk {
  sid: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallbackUrl: string;
  statusCallbackMethod: string;
  connectionPolicySid: string;
}

/** The BYOC resources of one account at the fake. */
export interface FakeSipAccount {
  accountSid: string;
  policies: Map<string, FakePolicy>;
  trunks: Map<string, FakeByocTrunk>;
  /** Each ByocTrunks create accepted (form parameters), in order. */
  trunkCreates: Record<string, string>[];
  /** Each request: method, path, form parameters. */
  requests: { method: string; path: string; params: Record<string, string> }[];
  /** When set, ByocTrunks creates are refused with this Twilio error (status default 400). */
  refuseTrunk: { status?: number; code: number; message: string } | null;
  /** How many of the next ByocTrunks creates make the trunk and then answer 500. */
  lostTrunkAnswers: number;
}

const accounts = new Map<string, FakeSipAccount>();

/** The BYOC resources of account `accountSid` at the fake (made empty on first use). */
export function fakeSip(accountSid: string): FakeSipAccount {
  let a = accounts.get(accountSid);
  if (!a) {
    a = {
      accountSid,
      policies: new Map(),
      trunks: new Map(),
      trunkCreates: [],
      requests: [],
      refuseTrunk: null,
      lostTrunkAnswers: 0,
    };
    accounts.set(accountSid, a);
  }
  return a;
}

/** Adds a BYOC trunk (and its policy) to the account as if made earlier, e.g. by an attempt that died. */
export function seedByocTrunk(accountSid: string, friendlyName: string, target: string): FakeByocTrunk {
  const a = fakeSip(accountSid);
  const policy: FakePolicy = { sid: 'NY' + hex32(), friendlyName, targets: new Map() };
  const t: FakeTarget = { sid: 'NE' + hex32(), target, friendlyName };
  policy.targets.set(t.sid, t);
  a.policies.set(policy.sid, policy);
  const trunk: FakeByocTrunk = {
    sid: 'BY' + hex32(),
    friendlyName,
    voiceUrl: '',
    voiceMethod: 'POST',
    statusCallbackUrl: '',
    statusCallbackMethod: 'POST',
    connectionPolicySid: policy.sid,
  };
  a.trunks.set(trunk.sid, trunk);
  return trunk;
}

const hex32 = () => crypto.randomBytes(16).toString('hex');
const notFound = { code: 20404, message: 'The requested resource was not found', status: 404 };
const BASE = 'https://voice.twilio.com';

type Send = (status: number, body: unknown) => void;

/** A Voice v1 list page: every item, `meta.key` naming them. */
function page(key: string, items: unknown[], path: string) {
  return {
    [key]: items,
    meta: {
      page: 0,
      page_size: 1000,
      first_page_url: BASE + path,
      previous_page_url: null,
      url: BASE + path,
      next_page_url: null,
      key,
    },
  };
}

const policyJson = (accountSid: string, p: FakePolicy) => ({
  account_sid: accountSid,
  sid: p.sid,
  friendly_name: p.friendlyName,
  url: `${BASE}/v1/ConnectionPolicies/${p.sid}`,
  links: { targets: `${BASE}/v1/ConnectionPolicies/${p.sid}/Targets` },
});
const targetJson = (accountSid: string, p: FakePolicy, t: FakeTarget) => ({
  account_sid: accountSid,
  connection_policy_sid: p.sid,
  sid: t.sid,
  friendly_name: t.friendlyName,
  target: t.target,
  priority: 10,
  weight: 10,
  enabled: true,
  url: `${BASE}/v1/ConnectionPolicies/${p.sid}/Targets/${t.sid}`,
});
const trunkJson = (accountSid: string, t: FakeByocTrunk) => ({
  account_sid: accountSid,
  sid: t.sid,
  friendly_name: t.friendlyName,
  voice_url: t.voiceUrl,
  voice_method: t.voiceMethod,
  voice_fallback_url: null,
  voice_fallback_method: null,
  status_callback_url: t.statusCallbackUrl,
  status_callback_method: t.statusCallbackMethod,
  cnam_lookup_enabled: false,
  connection_policy_sid: t.connectionPolicySid,
  from_domain_sid: null,
  url: `${BASE}/v1/ByocTrunks/${t.sid}`,
});

/** Twilio's refusal of a target that is not a `sip:` URI with a host. */
function targetRefusal(target: string | undefined): string | null {
  if (!target) return 'Missing required parameter Target in the post body';
  if (!/^sip:[^@\s]*@?[A-Za-z0-9.[\]:-]+/.test(target))
    return `Target ${target} must be a sip: URI (sips is not supported)`;
  return null;
}

/** Serves the ConnectionPolicies (and Targets) requests of account `a`; false for another path. */
function policiesRoute(a: FakeSipAccount, method: string, path: string, params: Record<string, string>, send: Send) {
  if (path === '/v1/ConnectionPolicies') {
    if (method === 'GET')
      return (
        send(
          200,
          page(
            'connection_policies',
            [...a.policies.values()].map((p) => policyJson(a.accountSid, p)),
            path,
          ),
        ),
        true
      );
    const p: FakePolicy = { sid: 'NY' + hex32(), friendlyName: params.FriendlyName ?? '', targets: new Map() };
    a.policies.set(p.sid, p);
    return (send(201, policyJson(a.accountSid, p)), true);
  }
  const m = /^\/v1\/ConnectionPolicies\/(NY[0-9a-f]{32})(?:\/Targets(?:\/(NE[0-9a-f]{32}))?)?$/.exec(path);
  if (!m) return false;
  const policy = a.policies.get(m[1]);
  if (!policy) return (send(404, notFound), true);
  if (!path.includes('/Targets')) {
    if (method === 'DELETE') {
      a.policies.delete(policy.sid);
      return (send(204, null), true);
    }
    return (send(200, policyJson(a.accountSid, policy)), true);
  }
  if (!m[2]) {
    if (method === 'GET') {
      const items = [...policy.targets.values()].map((t) => targetJson(a.accountSid, policy, t));
      return (send(200, page('targets', items, path)), true);
    }
    const refusal = targetRefusal(params.Target);
    if (refusal) return (send(400, { code: 21201, message: refusal, status: 400 }), true);
    const t: FakeTarget = { sid: 'NE' + hex32(), target: params.Target, friendlyName: params.FriendlyName ?? '' };
    policy.targets.set(t.sid, t);
    return (send(201, targetJson(a.accountSid, policy, t)), true);
  }
  const target = policy.targets.get(m[2]);
  if (!target) return (send(404, notFound), true);
  if (method === 'DELETE') {
    policy.targets.delete(target.sid);
    return (send(204, null), true);
  }
  if (method === 'POST' && params.Target !== undefined) {
    const refusal = targetRefusal(params.Target);
    if (refusal) return (send(400, { code: 21201, message: refusal, status: 400 }), true);
    target.target = params.Target;
  }
  return (send(200, targetJson(a.accountSid, policy, target)), true);
}

/** Serves the ByocTrunks requests of account `a`; false for another path. */
function trunksRoute(a: FakeSipAccount, method: string, path: string, params: Record<string, string>, send: Send) {
  if (path === '/v1/ByocTrunks') {
    if (method === 'GET')
      return (
        send(
          200,
          page(
            'byoc_trunks',
            [...a.trunks.values()].map((t) => trunkJson(a.accountSid, t)),
            path,
          ),
        ),
        true
      );
    if (a.refuseTrunk) {
      const r = a.refuseTrunk;
      return (send(r.status ?? 400, { code: r.code, message: r.message, status: r.status ?? 400 }), true);
    }
    if (params.ConnectionPolicySid && !a.policies.has(params.ConnectionPolicySid))
      return (send(400, { code: 21201, message: 'ConnectionPolicySid not found', status: 400 }), true);
    a.trunkCreates.push(params);
    const t: FakeByocTrunk = {
      sid: 'BY' + hex32(),
      friendlyName: params.FriendlyName ?? '',
      voiceUrl: params.VoiceUrl ?? '',
      voiceMethod: params.VoiceMethod ?? 'POST',
      statusCallbackUrl: params.StatusCallbackUrl ?? '',
      statusCallbackMethod: params.StatusCallbackMethod ?? 'POST',
      connectionPolicySid: params.ConnectionPolicySid ?? '',
    };
    a.trunks.set(t.sid, t);
    if (a.lostTrunkAnswers > 0) {
      a.lostTrunkAnswers--;
      return (send(500, { code: 20500, message: 'Internal Server Error', status: 500 }), true);
    }
    return (send(201, trunkJson(a.accountSid, t)), true);
  }
  const m = /^\/v1\/ByocTrunks\/(BY[0-9a-f]{32})$/.exec(path);
  if (!m) return false;
  const trunk = a.trunks.get(m[1]);
  if (!trunk) return (send(404, notFound), true);
  if (method === 'DELETE') {
    a.trunks.delete(trunk.sid);
    return (send(204, null), true);
  }
  return (send(200, trunkJson(a.accountSid, trunk)), true);
}

/**
 * Serves a Voice v1 BYOC request of account `accountSid` (the one the request's credentials name), or
 * answers false (not one of these paths).
 */
export function fakeSipRoute(
  method: string,
  accountSid: string,
  pathname: string,
  params: Record<string, string>,
  send: Send,
): boolean {
  if (!pathname.startsWith('/v1/ConnectionPolicies') && !pathname.startsWith('/v1/ByocTrunks')) return false;
  const a = fakeSip(accountSid);
  a.requests.push({ method, path: pathname, params });
  return policiesRoute(a, method, pathname, params, send) || trunksRoute(a, method, pathname, params, send);
}
