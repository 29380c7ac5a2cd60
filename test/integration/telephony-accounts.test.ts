/**
 * Each organization's live telephony runs in its own Twilio account (src/services/telephony-accounts.ts):
 * a subaccount of the platform's account, created once on first use, or the organization's own account
 * connected with an API key; its webhooks verify only under that account's auth token and only for that
 * organization's calls and numbers. Driven through the real `twilio` package against the multi-account
 * fake Twilio (test/support/fake-twilio.ts).
 */
import { expect } from 'chai';
import twilio from 'twilio';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { useFakeTwilio, type FakeAccount, type FakeTwilio } from '../support/fake-twilio';
import { seedCallerId, verifiedCallerId } from '../support/fake-twilio-numbers';
import { newId } from '../../src/shared/ids';
import { Call } from '../../src/models/calls';
import { CallerId } from '../../src/models/caller-ids';
import { Conversation, numberRouteKey, PhoneNumber } from '../../src/models/conversations';
import { TelephonyAccount } from '../../src/models/telephony-accounts';
import { subaccountFriendlyName, telephonyAccount } from '../../src/services/telephony-accounts';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('telephony accounts', function () {
  this.timeout(120_000);
  let fake: FakeTwilio;
  let restore: () => Promise<void>;

  before(async () => {
    ({ fake, restore } = await useFakeTwilio());
  });
  after(async () => restore());

  /**
   * A tenant with a live agent and `+14155550100` as its verified caller ID (a live call's `from` must be
   * the organization's own). `callerId: 'api'` verifies it through `POST /v1/caller_ids`, which acts in
   * the organization's Twilio account and so creates its subaccount; `'stored'` writes the row a finished
   * verification leaves, for tests whose first live use of the account must be the calls they place.
   */
  async function liveTenant(callerId: 'api' | 'stored' = 'api'): Promise<Tenant & { liveAgent: string }> {
    const t = await newTenant();
    const agent = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hello.' },
    });
    expect(agent.status).to.equal(200);
    if (callerId === 'api') await verifiedCallerId(fake, t.liveKey);
    else
      await CallerId.create({
        _id: newId('cid'),
        org_id: t.orgId,
        livemode: true,
        phone_number: '+14155550100',
        status: 'verified',
        twilio_sid: 'PN' + 'c'.repeat(32),
        created: Math.floor(Date.now() / 1000),
      });
    return { ...t, liveAgent: agent.body.id };
  }

  /** Places a live call and waits until Twilio has it; answers the call id and the create the fake got. */
  async function placeLive(t: Tenant & { liveAgent: string }, to = '+14155550123') {
    const res = await request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to, from: '+14155550100', agent_id: t.liveAgent },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitForCall(t.liveKey, res.body.id, (c) => c.status === 'ringing');
    const placed = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${res.body.id}`));
    expect(placed, 'the call reached Twilio').to.not.equal(undefined);
    return { id: res.body.id as string, placed: placed! };
  }

  /** The subaccounts at the fake named for organization `orgId`. */
  const subaccountsOf = (orgId: string) =>
    fake.subaccounts().filter((a) => a.friendlyName === subaccountFriendlyName(orgId));

  /** Posts a Twilio callback to `path` signed with `signer`'s auth token. */
  async function signedPost(signer: { authToken: string }, path: string, params: Record<string, string>) {
    const url = h().api.url + path;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': twilio.getExpectedTwilioSignature(signer.authToken, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, text: await res.text() };
  }

  describe('the subaccount of an organization', () => {
    it('is created once on first live use, even by concurrent first calls, and the calls are placed in it', async () => {
      const t = await liveTenant('stored');
      const creates = fake.accountCreates.length;
      const calls = await Promise.all([0, 1, 2].map((i) => placeLive(t, `+1415555013${i}`)));
      const subs = subaccountsOf(t.orgId);
      expect(subs, 'one subaccount for the organization').to.have.length(1);
      expect(fake.accountCreates.length - creates, 'one create request').to.equal(1);
      expect(subs[0].ownerAccountSid, 'a subaccount of the platform account').to.equal(fake.accountSid);
      for (const { placed } of calls) expect(placed.AccountSid, 'placed in the subaccount').to.equal(subs[0].sid);
      const shown = await request('GET', '/v1/telephony/connection', { key: t.liveKey });
      expect(shown.status).to.equal(200);
      expect(shown.body).to.include({ object: 'telephony_connection', mode: 'subaccount', account_sid: subs[0].sid });
      expect(JSON.stringify(shown.body)).to.not.include(subs[0].authToken);
      const doc = await TelephonyAccount.findById(t.orgId).lean();
      expect(doc?.subaccount_token, 'the auth token sealed at rest').to.match(/^enc:v1:/);
    });

    it('finds the subaccount a crashed process created instead of creating another (a lapsed claim)', async () => {
      const t = await liveTenant('stored');
      // A process claimed the creation a minute ago, had Twilio create the subaccount, and died before storing it.
      const orphan = fake.addAccount({ friendlyName: subaccountFriendlyName(t.orgId), parent: fake.accountSid });
      await TelephonyAccount.collection.insertOne({ _id: t.orgId as any, claim_ms: Date.now() - 60_000 });
      const creates = fake.accountCreates.length;
      const { placed } = await placeLive(t);
      expect(placed.AccountSid).to.equal(orphan.sid);
      expect(fake.accountCreates.length, 'no second subaccount').to.equal(creates);
      expect(subaccountsOf(t.orgId)).to.have.length(1);
    });

    it('finds the subaccount whose create answer was lost, on the retry', async () => {
      const t = await liveTenant('stored');
      const creates = fake.accountCreates.length;
      fake.behave = { createAccount: (n) => (n === 1 ? { lost: true } : {}) };
      let first: unknown;
      try {
        await telephonyAccount(t.orgId);
      } catch (err) {
        first = err;
      } finally {
        fake.behave = {};
      }
      expect(first, 'the lost answer fails the first attempt').to.be.instanceOf(Error);
      const account = await telephonyAccount(t.orgId);
      expect(subaccountsOf(t.orgId).map((a) => a.sid)).to.deep.equal([account.accountSid]);
      expect(fake.accountCreates.length - creates, 'created once').to.equal(1);
    });

    it("waits for another process's creation under way rather than creating a second", async () => {
      const t = await liveTenant('stored');
      await TelephonyAccount.collection.insertOne({ _id: t.orgId as any, claim_ms: Date.now() });
      const creates = fake.accountCreates.length;
      const waiting = telephonyAccount(t.orgId);
      await new Promise((r) => setTimeout(r, 500));
      // The other process finishes: its subaccount stored, its claim released.
      const theirs = fake.addAccount({ friendlyName: subaccountFriendlyName(t.orgId), parent: fake.accountSid });
      const { sealSecret } = await import('../../src/secrets');
      await TelephonyAccount.updateOne(
        { _id: t.orgId },
        {
          $set: {
            claim_ms: null,
            subaccount_sid: theirs.sid,
            subaccount_token: sealSecret(theirs.authToken),
            parent_account_sid: fake.accountSid,
            subaccount_created_ms: Date.now(),
          },
        },
      );
      expect((await waiting).accountSid).to.equal(theirs.sid);
      expect(fake.accountCreates.length).to.equal(creates);
    });

    it("puts two organizations' live calls in two different accounts, each unseen from the other", async () => {
      const a = await liveTenant();
      const b = await liveTenant();
      const callA = await placeLive(a);
      const callB = await placeLive(b);
      expect(callA.placed.AccountSid).to.not.equal(callB.placed.AccountSid);
      expect(callA.placed.AccountSid).to.equal(subaccountsOf(a.orgId)[0].sid);
      expect(callB.placed.AccountSid).to.equal(subaccountsOf(b.orgId)[0].sid);
      // Kept apart at Twilio: B's account does not list A's call.
      const subB = fake.accounts.get(callB.placed.AccountSid)!;
      const res = await fetch(`${fake.url}/2010-04-01/Accounts/${subB.sid}/Calls.json`, {
        headers: { authorization: `Basic ${Buffer.from(`${subB.sid}:${subB.authToken}`).toString('base64')}` },
      });
      const listed = ((await res.json()) as { calls: { sid: string }[] }).calls.map((c) => c.sid);
      expect(listed).to.include(callB.placed.Sid).and.not.include(callA.placed.Sid);
    });
  });

  describe("an organization's own connected account", () => {
    it('refuses wrong credentials (nothing stored), connects right ones, places calls there, never shows the secret', async () => {
      const t = await liveTenant();
      const own = fake.addAccount({ friendlyName: 'their own' });
      const key = fake.addApiKey(own.sid);
      const body = {
        account_sid: own.sid,
        api_key_sid: key.sid,
        api_key_secret: key.secret,
        auth_token: own.authToken,
      };

      const wrongKey = await request('POST', '/v1/telephony/connection', {
        key: t.liveKey,
        body: { ...body, api_key_secret: 'not-the-secret' },
      });
      expect(wrongKey.status).to.equal(400);
      expect(wrongKey.body.error).to.include({ code: 'twilio_credentials_invalid', param: 'api_key_secret' });
      const wrongToken = await request('POST', '/v1/telephony/connection', {
        key: t.liveKey,
        body: { ...body, auth_token: 'f'.repeat(32) },
      });
      expect(wrongToken.status).to.equal(400);
      expect(wrongToken.body.error).to.include({ code: 'twilio_credentials_invalid', param: 'auth_token' });
      const otherKey = fake.addApiKey(fake.addAccount().sid); // a real key, of another account
      const foreign = await request('POST', '/v1/telephony/connection', {
        key: t.liveKey,
        body: { ...body, api_key_sid: otherKey.sid, api_key_secret: otherKey.secret },
      });
      expect(foreign.status).to.equal(400);
      expect((await TelephonyAccount.findById(t.orgId).lean())?.connected_sid ?? null, 'nothing stored').to.equal(null);
      expect((await request('GET', '/v1/telephony/connection', { key: t.liveKey })).body.mode).to.equal('subaccount');

      const testKey = await request('POST', '/v1/telephony/connection', { key: t.testKey, body });
      expect(testKey.status).to.equal(403);
      expect(testKey.body.error.code).to.equal('live_mode_only');

      const connected = await request('POST', '/v1/telephony/connection', { key: t.liveKey, body });
      expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
      expect(connected.body).to.include({ object: 'telephony_connection', mode: 'connected', account_sid: own.sid });
      const shown = await request('GET', '/v1/telephony/connection', { key: t.liveKey });
      expect(shown.body).to.include({ mode: 'connected', account_sid: own.sid });
      for (const res of [connected, shown]) {
        expect(JSON.stringify(res.body)).to.not.include(key.secret).and.not.include(own.authToken);
      }
      const doc = await TelephonyAccount.findById(t.orgId).lean();
      expect(doc?.connected_key_secret)
        .to.match(/^enc:v1:/)
        .and.not.include(key.secret);
      expect(doc?.connected_auth_token).to.match(/^enc:v1:/);

      // A caller ID belongs to the account it was verified in: the connected account verified it too.
      seedCallerId(own.sid, '+14155550100');
      const { id, placed } = await placeLive(t);
      expect(placed.AccountSid, 'placed in the connected account').to.equal(own.sid);
      expect(fake.accountOfCall(placed.Sid)?.sid).to.equal(own.sid);
      // Its callbacks come signed with the connected account's auth token, and are taken.
      const status = await signedPost(own, `/twilio/status/${id}`, {
        AccountSid: own.sid,
        CallSid: placed.Sid,
        CallStatus: 'in-progress',
      });
      expect(status.status).to.equal(204);
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');

      // Another organization cannot connect the same account.
      const other = await liveTenant();
      const taken = await request('POST', '/v1/telephony/connection', { key: other.liveKey, body });
      expect(taken.status).to.equal(400);
      expect(taken.body.error.code).to.equal('twilio_account_taken');

      const back = await request('DELETE', '/v1/telephony/connection', { key: t.liveKey });
      expect(back.status).to.equal(200);
      expect(back.body.mode).to.equal('subaccount');
      const after = await placeLive(t, '+14155550177');
      expect(after.placed.AccountSid).to.equal(subaccountsOf(t.orgId)[0].sid);
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
    });

    it("no longer calls from the subaccount's caller IDs and numbers once its own account is connected, until that account verifies them", async () => {
      const t = await liveTenant(); // +14155550100 verified in its subaccount
      const sub = subaccountsOf(t.orgId)[0];
      const bought = '+14155550142';
      const number = await request('POST', '/v1/phone_numbers', {
        key: t.liveKey,
        body: { number: bought, channels: ['voice'], agent_id: t.liveAgent },
      });
      expect(number.status, JSON.stringify(number.body)).to.equal(200);
      const own = fake.addAccount({ friendlyName: 'their own, later' });
      const key = fake.addApiKey(own.sid);
      const connected = await request('POST', '/v1/telephony/connection', {
        key: t.liveKey,
        body: { account_sid: own.sid, api_key_sid: key.sid, api_key_secret: key.secret, auth_token: own.authToken },
      });
      expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
      const creates = fake.created.length;
      for (const from of ['+14155550100', bought]) {
        const res = await request('POST', '/v1/calls', {
          key: t.liveKey,
          body: { to: '+14155550123', from, agent_id: t.liveAgent },
        });
        expect(res.status, `${from}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error).to.include({ code: 'from_not_owned', param: 'from' });
      }
      const listed = await request('GET', '/v1/caller_ids', { key: t.liveKey });
      expect(listed.body.data[0]).to.include({
        phone_number: '+14155550100',
        status: 'verified',
        account_sid: sub.sid,
        active: false,
      });
      // The connected account verifies it too: active there, and calls show it again.
      seedCallerId(own.sid, '+14155550100');
      const again = await request('GET', '/v1/caller_ids', { key: t.liveKey });
      expect(again.body.data[0]).to.include({ account_sid: own.sid, active: true });
      const { id, placed } = await placeLive(t);
      expect(placed.AccountSid).to.equal(own.sid);
      expect(fake.created.length, 'only that call reached Twilio').to.equal(creates + 1);
      await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });
      // Disconnected: the subaccount's number is a from again.
      await request('DELETE', '/v1/telephony/connection', { key: t.liveKey });
      const fromNumber = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: bought, agent_id: t.liveAgent },
      });
      expect(fromNumber.status, JSON.stringify(fromNumber.body)).to.equal(200);
      await request('POST', `/v1/calls/${fromNumber.body.id}/end`, { key: t.liveKey });
    });
  });

  describe("Twilio's webhooks", () => {
    let a: Tenant & { liveAgent: string };
    let b: Tenant & { liveAgent: string };
    let subA: FakeAccount;
    let subB: FakeAccount;
    const numberA = '+14155550188';

    before(async () => {
      a = await liveTenant();
      b = await liveTenant();
      await placeLive(b); // B's subaccount exists
      subB = fake.accounts.get(subaccountsOf(b.orgId)[0].sid)!;
      subA = fake.accounts.get((await placeLive(a, '+14155550155')).placed.AccountSid)!;
      const connect = await request('POST', '/v1/phone_numbers', {
        key: a.liveKey,
        body: { number: numberA, channels: ['voice', 'sms'], agent_id: a.liveAgent },
      });
      expect(connect.status, JSON.stringify(connect.body)).to.equal(200);
    });

    it("takes a call's callback signed by its own account, and refuses another organization's account (403)", async () => {
      const { id, placed } = await placeLive(a);
      const params = (accountSid: string) => ({ AccountSid: accountSid, CallSid: placed.Sid, CallStatus: 'ringing' });
      const mismatch = await signedPost(subB, `/twilio/status/${id}`, params(subB.sid));
      expect(mismatch.status, "B's account speaking of A's call").to.equal(403);
      expect(mismatch.text).to.include('twilio_account_mismatch');
      const forged = await signedPost(subB, `/twilio/status/${id}`, params(subA.sid));
      expect(forged.status, "signed with B's token, naming A's account").to.equal(403);
      expect(forged.text).to.include('twilio_signature_invalid');
      const unknown = await signedPost(subB, `/twilio/status/${id}`, params('AC' + 'e'.repeat(32)));
      expect(unknown.status, 'an account nobody holds').to.equal(403);
      const own = await signedPost(subA, `/twilio/status/${id}`, params(subA.sid));
      expect(own.status, "A's own subaccount").to.equal(204);
      await request('POST', `/v1/calls/${id}/end`, { key: a.liveKey });
    });

    it("refuses an inbound call or SMS to A's number from B's account; nothing is created", async () => {
      const callSid = 'CA' + 'b'.repeat(32);
      const inbound = await signedPost(subB, '/twilio/voice/inbound', {
        AccountSid: subB.sid,
        CallSid: callSid,
        From: '+14155550999',
        To: numberA,
        CallStatus: 'ringing',
      });
      expect(inbound.status).to.equal(403);
      const sms = await signedPost(subB, '/twilio/messaging', {
        AccountSid: subB.sid,
        MessageSid: 'SM' + 'b'.repeat(32),
        From: '+14155550999',
        To: numberA,
        Body: 'your code is 123456',
      });
      expect(sms.status).to.equal(403);
      expect(await Call.findOne({ provider_call_sid: callSid }).lean(), 'no call').to.equal(null);
      const conversation = await Conversation.findOne({ org_id: a.orgId, customer_number: '+14155550999' }).lean();
      expect(conversation, 'no conversation').to.equal(null);
      // The same message from A's own subaccount is taken.
      const own = await signedPost(subA, '/twilio/messaging', {
        AccountSid: subA.sid,
        MessageSid: 'SM' + 'a'.repeat(32),
        From: '+14155550998',
        To: numberA,
        Body: 'hello',
      });
      expect(own.status, "A's own account").to.equal(200);
      expect(await Conversation.findOne({ org_id: a.orgId, customer_number: '+14155550998' }).lean()).to.not.equal(
        null,
      );
    });

    it("refuses the platform's account speaking of A's call, number or messages, which live in A's subaccount; takes it for what lives in the platform's account", async () => {
      const platform = fake.accounts.get(fake.accountSid)!;
      const { id, placed } = await placeLive(a, '+14155550167');
      const status = await signedPost(platform, `/twilio/status/${id}`, {
        AccountSid: platform.sid,
        CallSid: placed.Sid,
        CallStatus: 'in-progress',
      });
      expect(status.status, "the platform's account speaking of A's call").to.equal(403);
      expect(status.text).to.include('twilio_account_mismatch');
      const unnamed = await signedPost(platform, `/twilio/status/${id}`, {
        CallSid: placed.Sid,
        CallStatus: 'completed',
      });
      expect(unnamed.status, 'no AccountSid: the platform').to.equal(403);
      const callSid = 'CA' + 'c'.repeat(32);
      const inbound = await signedPost(platform, '/twilio/voice/inbound', {
        AccountSid: platform.sid,
        CallSid: callSid,
        From: '+14155550997',
        To: numberA,
        CallStatus: 'ringing',
      });
      expect(inbound.status).to.equal(403);
      const sms = await signedPost(platform, '/twilio/messaging', {
        AccountSid: platform.sid,
        MessageSid: 'SM' + 'c'.repeat(32),
        From: '+14155550996',
        To: numberA,
        Body: 'your code is 654321',
      });
      expect(sms.status).to.equal(403);
      expect(await Call.findOne({ provider_call_sid: callSid }).lean(), 'no call').to.equal(null);
      expect(await Conversation.findOne({ org_id: a.orgId, customer_number: '+14155550996' }).lean()).to.equal(null);
      expect((await request('GET', `/v1/calls/${id}`, { key: a.liveKey })).body.status, 'unchanged').to.equal(
        'ringing',
      );

      // A number stored before numbers needed proof lives in the platform's account: its webhooks are taken.
      const legacy = '+14155550186';
      await PhoneNumber.collection.insertOne({
        _id: newId('pn'),
        route_key: numberRouteKey(a.orgId, true, legacy),
        org_id: a.orgId,
        livemode: true,
        number: legacy,
        channels: ['sms'],
        agent_id: a.liveAgent,
        source: null,
        created: Math.floor(Date.now() / 1000),
      } as never);
      const legacySms = await signedPost(platform, '/twilio/messaging', {
        AccountSid: platform.sid,
        MessageSid: 'SM' + 'd'.repeat(32),
        From: '+14155550995',
        To: legacy,
        Body: 'hello',
      });
      expect(legacySms.status, "the platform's own number").to.equal(200);
      await request('POST', `/v1/calls/${id}/end`, { key: a.liveKey });
    });

    it("refuses a ConversationRelay handshake signed with another organization's account", async () => {
      const { id, placed } = await placeLive(a, '+14155550166');
      await signedPost(subA, `/twilio/status/${id}`, {
        AccountSid: subA.sid,
        CallSid: placed.Sid,
        CallStatus: 'in-progress',
      });
      await waitForCall(a.liveKey, id, (c) => c.status === 'in_progress');
      const url = `${h().api.url.replace(/^http/, 'ws')}/twilio/relay/${id}?sid=${placed.Sid}`;
      const status = async (token: string) => {
        const { default: WebSocket } = await import('ws');
        return await new Promise<number>((resolve) => {
          const ws = new WebSocket(url, {
            headers: { 'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, url, {}) },
          });
          ws.on('open', () => (ws.close(), resolve(101)));
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('error', () => resolve(0));
        });
      };
      expect(await status(subB.authToken), "B's token").to.equal(403);
      expect(await status(fake.authToken), "the platform's token, for a call in A's subaccount").to.equal(403);
      expect(await status(subA.authToken), "A's subaccount's own token").to.equal(101);
      await request('POST', `/v1/calls/${id}/end`, { key: a.liveKey });
    });
  });
});
