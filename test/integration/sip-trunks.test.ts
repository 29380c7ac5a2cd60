/**
 * Bring your own carrier: SIP trunks (`/v1/sip_trunks`, src/services/sip-trunks.ts), tried as their owner
 * and as a second tenant would. Live trunks are made as Twilio BYOC trunks with a Connection Policy in the
 * organization's subaccount at the fake (test/support/fake-twilio-sip.ts, requests checked against
 * twilio-oai's Voice v1 description); their numbers are the organization's numbers (caller ID, inbound
 * routing, one organization per number); a live call from one dials `sip:<to>@<termination host>` with
 * the trunk's SIP credentials after the dial gate and in the pacer's turn; a call arriving from the
 * trunk (a SIP `To`) is answered by the number's agent.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Call } from '../../src/models/calls';
import { PhoneNumber } from '../../src/models/conversations';
import { DialPaceHold } from '../../src/models/dial-pace';
import { SipTrunk } from '../../src/models/sip-trunks';
import { byocFriendlyName, createSipTrunk } from '../../src/services/sip-trunks';
import { telephonyAccount } from '../../src/services/telephony-accounts';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { legStatus, twilioCallback, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { relayClient } from '../support/relay-client';
import { fakeSip, seedByocTrunk, type FakeSipAccount } from '../support/fake-twilio-sip';
import { customerNumber, eventually } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const PASSWORD = 'pw-' + crypto.randomBytes(8).toString('hex');
const TERMINATION = 'sip:sip.carrier.example;transport=tls';

describe('SIP trunks (bring your own carrier)', function () {
  this.timeout(120_000);
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let a: Tenant;
  let b: Tenant;
  let agentA: string;
  let agentB: string;
  /** The BYOC resources of A's and B's subaccounts at the fake. */
  let sipA: FakeSipAccount;
  let sipB: FakeSipAccount;
  let accountA: string;
  let accountB: string;
  const numberA = customerNumber();
  let trunkA: any;

  const liveAgent = async (t: Tenant, name: string) => {
    const res = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name, instructions: 'Be brief.', first_message: `Hi, this is ${name}.` },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };
  const createTrunk = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request('POST', '/v1/sip_trunks', { key, body, headers });
  const call = (t: Tenant, agentId: string, to: string, from: string) =>
    request('POST', '/v1/calls', { key: t.liveKey, body: { to, agent_id: agentId, from } });
  const end = (t: Tenant, id: string) => request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });

  before(async () => {
    ({ fake, restore } = await useFakeTwilio());
    a = await newTenant();
    b = await newTenant();
    agentA = await liveAgent(a, 'A desk');
    agentB = await liveAgent(b, 'B desk');
    accountA = (await telephonyAccount(a.orgId)).accountSid;
    accountB = (await telephonyAccount(b.orgId)).accountSid;
    sipA = fakeSip(accountA);
    sipB = fakeSip(accountB);
  });
  after(() => restore());

  describe('test mode: create, list, retrieve, update, delete', () => {
    it('stores a trunk and its numbers as the organization’s numbers; the password is never shown', async () => {
      const [n1, n2, n3] = [customerNumber(), customerNumber(), customerNumber()];
      const created = await createTrunk(a.testKey, {
        termination_uri: 'sip:pbx.example.com:5061;transport=tls',
        numbers: [n1, n2],
        username: 'acme',
        password: PASSWORD,
        name: 'Carrier A',
        agent_id: a.agentId,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.deep.include({
        object: 'sip_trunk',
        livemode: false,
        name: 'Carrier A',
        termination_uri: 'sip:pbx.example.com:5061;transport=tls',
        username: 'acme',
        password_set: true,
        agent_id: a.agentId,
        byoc_trunk_sid: null,
      });
      expect(created.body.id).to.match(/^trk_/);
      expect(created.body.numbers).to.deep.equal([n1, n2].sort());
      const id = created.body.id as string;
      const stored = await SipTrunk.findById(id).lean();
      expect(stored!.password, 'sealed at rest').to.be.a('string').and.not.equal(PASSWORD);
      expect(stored!.password).not.to.contain(PASSWORD);

      const numbers = await request('GET', '/v1/phone_numbers?limit=100', { key: a.testKey });
      const rows = numbers.body.data.filter((n: any) => n.sip_trunk_id === id);
      expect(rows.map((n: any) => n.number).sort()).to.deep.equal([n1, n2].sort());
      expect(rows[0]).to.include({ source: 'sip_trunk', agent_id: a.agentId });
      expect(rows[0].channels).to.deep.equal(['voice']);

      const listed = await request('GET', '/v1/sip_trunks', { key: a.testKey });
      expect(listed.status).to.equal(200);
      expect(listed.body).to.include({ object: 'list', url: '/v1/sip_trunks' });
      expect(listed.body.data.map((t: any) => t.id)).to.include(id);
      const one = await request('GET', `/v1/sip_trunks/${id}`, { key: a.testKey });
      expect(one.body).to.deep.equal(created.body);
      const other = await request('GET', `/v1/sip_trunks/${id}`, { key: b.testKey });
      expect(other.status, "another organization's key").to.equal(404);
      const live = await request('GET', `/v1/sip_trunks/${id}`, { key: a.liveKey });
      expect(live.status, 'a live key does not see test trunks').to.equal(404);

      const updated = await request('POST', `/v1/sip_trunks/${id}`, {
        key: a.testKey,
        body: { numbers: [n2, n3], password: null, username: null, name: null },
      });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body).to.include({ password_set: false, username: null, name: null });
      expect(updated.body.numbers).to.deep.equal([n2, n3].sort());
      expect(await PhoneNumber.countDocuments({ sip_trunk_id: id, number: n1 }), 'left out: released').to.equal(0);

      const removedByNumber = await PhoneNumber.findOne({ sip_trunk_id: id, number: n3 }).lean();
      const gone = await request('DELETE', `/v1/phone_numbers/${removedByNumber!._id}`, { key: a.testKey });
      expect(gone.status).to.equal(200);
      expect((await request('GET', `/v1/sip_trunks/${id}`, { key: a.testKey })).body.numbers).to.deep.equal([n2]);

      const deleted = await request('DELETE', `/v1/sip_trunks/${id}`, { key: a.testKey });
      expect(deleted.body).to.deep.equal({ id, object: 'sip_trunk', deleted: true });
      expect(await PhoneNumber.countDocuments({ sip_trunk_id: id })).to.equal(0);
      expect((await request('GET', `/v1/sip_trunks/${id}`, { key: a.testKey })).status).to.equal(404);
      for (const res of [created, listed, one, updated])
        expect(JSON.stringify(res.body), 'no password in any answer').not.to.contain(PASSWORD);
    });

    it('refuses a termination URI that is not sip:<host> (400 naming termination_uri), and a password without a username', async () => {
      for (const uri of [
        'http://carrier.example',
        'sip:',
        'sip:;transport=tls',
        'sips:carrier.example',
        'sip:alice@carrier.example',
        'sip:carrier.example:70000',
        'carrier.example',
        'sip:carrier example',
      ]) {
        const res = await createTrunk(a.testKey, { termination_uri: uri, numbers: [customerNumber()] });
        expect(res.status, uri).to.equal(400);
        expect(res.body.error.param, uri).to.equal('termination_uri');
      }
      const noUser = await createTrunk(a.testKey, {
        termination_uri: 'sip:carrier.example',
        numbers: [customerNumber()],
        password: PASSWORD,
      });
      expect(noUser.status).to.equal(400);
      expect(noUser.body.error.param).to.equal('password');
      expect(JSON.stringify(noUser.body)).not.to.contain(PASSWORD);
      const badNumber = await createTrunk(a.testKey, {
        termination_uri: 'sip:carrier.example',
        numbers: ['4155550100'],
      });
      expect(badNumber.status).to.equal(400);
      expect(badNumber.body.error.param).to.match(/^numbers/);
    });
  });

  describe('live mode', () => {
    it('makes a Connection Policy (target: the termination URI) and a BYOC trunk whose Voice URL is the inbound webhook', async () => {
      const res = await createTrunk(a.liveKey, {
        termination_uri: TERMINATION,
        numbers: [numberA],
        username: 'acme',
        password: PASSWORD,
        agent_id: agentA,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      trunkA = res.body;
      expect(JSON.stringify(res.body)).not.to.contain(PASSWORD);
      expect(res.body.byoc_trunk_sid).to.match(/^BY[0-9a-f]{32}$/);
      const trunk = sipA.trunks.get(res.body.byoc_trunk_sid)!;
      expect(trunk).to.include({
        friendlyName: byocFriendlyName(res.body.id),
        voiceUrl: `${h().api.url}/twilio/voice/inbound`,
        voiceMethod: 'POST',
        statusCallbackUrl: `${h().api.url}/twilio/status/inbound`,
      });
      const policy = sipA.policies.get(trunk.connectionPolicySid)!;
      expect([...policy.targets.values()].map((t) => t.target)).to.deep.equal([TERMINATION]);
      expect(sipB.trunks.size, "nothing in another organization's account").to.equal(0);
      expect(fake.oaiRefusals, 'every request is one twilio-oai describes').to.deep.equal([]);
      const row = await PhoneNumber.findOne({ route_key: `live:${numberA}` }).lean();
      expect(row).to.include({ org_id: a.orgId, source: 'sip_trunk', sip_trunk_id: res.body.id, pending: false });
    });

    it('a second organization cannot carry the first’s number on its trunk, nor buy it, nor call from it', async () => {
      const before = sipB.trunkCreates.length;
      const res = await createTrunk(b.liveKey, { termination_uri: 'sip:evil.example', numbers: [numberA] });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ code: 'phone_number_not_owned', param: 'numbers' });
      expect(JSON.stringify(res.body), 'the refusal names nobody').not.to.contain(a.orgId);
      expect(sipB.trunkCreates.length, 'no BYOC trunk made').to.equal(before);
      expect(await SipTrunk.countDocuments({ org_id: b.orgId, livemode: true })).to.equal(0);
      expect(await PhoneNumber.countDocuments({ number: numberA }), 'still the first’s only').to.equal(1);
      const bought = await request('POST', '/v1/phone_numbers', {
        key: b.liveKey,
        body: { number: numberA, channels: ['voice'] },
      });
      expect(bought.status).to.equal(400);
      const borrowed = await call(b, agentB, customerNumber(), numberA);
      expect(borrowed.status).to.equal(400);
      expect(borrowed.body.error).to.include({ code: 'from_not_owned', param: 'from' });
      const own = await createTrunk(a.liveKey, { termination_uri: 'sip:other.example', numbers: [numberA] });
      expect(own.status, 'the same organization: already its number').to.equal(409);
      expect(own.body.error).to.include({ code: 'phone_number_already_connected', param: 'numbers' });
    });

    it('a live call from a trunk number dials sip:<to>@<host> with the SIP credentials, after the dial gate and in the pacer’s turn', async () => {
      const to = customerNumber();
      const res = await call(a, agentA, to, numberA);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const placed = await eventually(async () => fake.created.find((c) => c.From === numberA), 'the dial at Twilio');
      expect(placed).to.include({
        To: `sip:${to}@sip.carrier.example;transport=tls`,
        SipAuthUsername: 'acme',
        SipAuthPassword: PASSWORD,
        AccountSid: accountA,
      });
      expect(fake.oaiRefusals).to.deep.equal([]);
      const doc = await Call.findById(res.body.id).lean();
      expect(JSON.parse(doc!.compliance_json!).to, 'the gate judged the E.164 number').to.equal(to);
      const hold = await DialPaceHold.findById(`call:${res.body.id}`).lean();
      expect(hold, 'the dial took a turn of the account’s pace').to.include({ account_sid: accountA });
      expect(hold!.at_ms).to.be.at.most(Number(placed.AtMs) + 5);
      const got = await request('GET', `/v1/calls/${res.body.id}`, { key: a.liveKey });
      expect(JSON.stringify(got.body)).not.to.contain(PASSWORD);

      // Answered, then transferred to an E.164 number: `<Dial><Sip>` on the trunk, with its credentials.
      const subA = fake.accounts.get(accountA)!;
      const answered = await twilioCallback(subA, `/twilio/status/${res.body.id}`, {
        AccountSid: accountA,
        CallSid: placed.Sid,
        CallStatus: 'in-progress',
      });
      expect(answered.status).to.equal(204);
      await waitForCall(a.liveKey, res.body.id, (c) => c.status === 'in_progress');
      const person = customerNumber();
      const transfer = await request('POST', `/v1/calls/${res.body.id}/transfer`, {
        key: a.liveKey,
        body: { to: person },
      });
      expect(transfer.status, JSON.stringify(transfer.body)).to.equal(200);
      const dial = fake.updates.find((u) => (u.params.Twiml ?? '').includes(person));
      expect(dial?.params.Twiml).to.contain(
        `<Dial><Sip username="acme" password="${PASSWORD}">sip:${person}@sip.carrier.example;transport=tls</Sip></Dial>`,
      );
      expect(dial?.accountSid).to.equal(accountA);

      const abroad = await call(a, agentA, '+442071838750', numberA);
      expect(abroad.status, 'a country outside the permissions').to.equal(400);
      expect(abroad.body.error).to.include({ code: 'destination_not_allowed', param: 'to' });
      expect(fake.created.some((c) => String(c.To).includes('+442071838750'))).to.equal(false);
    });

    it('a call arriving from the trunk (To: a SIP URI) is answered by the number’s agent; from another organization’s account or the platform’s it is 403', async () => {
      const subA = fake.accounts.get(accountA)!;
      const subB = fake.accounts.get(accountB)!;
      const callSid = 'CA' + crypto.randomBytes(16).toString('hex');
      const caller = customerNumber();
      const params = (accountSid: string, sid: string) => ({
        AccountSid: accountSid,
        CallSid: sid,
        From: `sip:${caller}@sip.carrier.example`,
        To: `sip:${numberA}@svc-a.sip.twilio.com`,
        CallStatus: 'ringing',
      });
      const foreign = await twilioCallback(subB, '/twilio/voice/inbound', params(subB.sid, callSid));
      expect(foreign.status, "B's account speaking of A's trunk number").to.equal(403);
      expect(foreign.text).to.include('twilio_account_mismatch');
      const platform = fake.accounts.get(fake.accountSid)!;
      const fromPlatform = await twilioCallback(platform, '/twilio/voice/inbound', params(platform.sid, callSid));
      expect(fromPlatform.status, "the platform's account speaking of A's trunk number").to.equal(403);
      expect(fromPlatform.text).to.include('twilio_account_mismatch');
      expect(await Call.countDocuments({ provider_call_sid: callSid })).to.equal(0);

      const answered = await twilioCallback(subA, '/twilio/voice/inbound', params(subA.sid, callSid));
      expect(answered.status).to.equal(200);
      expect(answered.text).to.contain('<Connect');
      const inbound = await eventually(async () => Call.findOne({ provider_call_sid: callSid }).lean(), 'inbound call');
      expect(inbound).to.include({
        org_id: a.orgId,
        from: caller,
        to: numberA,
        agent_id: agentA,
        direction: 'inbound',
      });
      await end(a, inbound._id);
    });

    it('a warm transfer from a trunk call dials the person’s leg through the trunk, after the gate and in its pace turn', async () => {
      const subA = fake.accounts.get(accountA)!;
      const to = customerNumber();
      const res = await call(a, agentA, to, numberA);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(a.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      await twilioCallback(subA, `/twilio/status/${id}`, {
        AccountSid: accountA,
        CallSid: sid,
        CallStatus: 'in-progress',
      });
      await waitForCall(a.liveKey, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, subA.authToken, { from: numberA, to });
      await session.say('Put me through to billing, please');
      const person = customerNumber();
      const pending = request('POST', `/v1/calls/${id}/transfer`, {
        key: a.liveKey,
        body: { to: person, mode: 'warm' },
      });
      const leg = await eventually(
        async () => fake.created.find((c) => c.StatusCallback?.endsWith(`/twilio/transfer/${id}/status`)),
        'the person’s leg',
      );
      session.ws.close();
      expect(leg).to.include({
        To: `sip:${person}@sip.carrier.example;transport=tls`,
        From: numberA,
        SipAuthUsername: 'acme',
        SipAuthPassword: PASSWORD,
        AccountSid: accountA,
      });
      const legTurn = await DialPaceHold.findById(`leg:${id}:1`).lean();
      expect(legTurn, 'the leg took a turn of the account’s pace').to.include({ account_sid: accountA });
      const doc = await Call.findById(id).lean();
      const legs = JSON.parse(doc!.compliance_json!).transfer_legs as { to: string }[];
      expect(
        legs.map((l) => l.to),
        'the gate judged the E.164 number',
      ).to.deep.equal([person]);
      await legStatus(fake, leg.Sid, 'busy');
      expect((await pending).status).to.equal(200);
      await end(a, id);
      expect(fake.oaiRefusals).to.deep.equal([]);
    });

    it('Twilio refusing the BYOC trunk is 400 sip_trunk_rejected with its code and message, nothing stored or left at Twilio', async () => {
      const number = customerNumber();
      sipA.refuseTrunk = { code: 21219, message: 'Trunk limit reached for this account' };
      try {
        const res = await createTrunk(a.liveKey, { termination_uri: 'sip:refused.example', numbers: [number] });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error).to.include({
          code: 'sip_trunk_rejected',
          param: 'termination_uri',
          twilio_code: 21219,
          twilio_message: 'Trunk limit reached for this account',
        });
      } finally {
        sipA.refuseTrunk = null;
      }
      expect(await PhoneNumber.countDocuments({ number })).to.equal(0);
      expect(await SipTrunk.countDocuments({ org_id: a.orgId, termination_uri: 'sip:refused.example' })).to.equal(0);
      const policies = [...sipA.policies.values()].filter((p) =>
        [...p.targets.values()].some((t) => t.target === 'sip:refused.example'),
      );
      expect(policies, 'the Connection Policy made first is removed').to.deep.equal([]);
    });

    it('an answer lost after Twilio made the BYOC trunk leaves none behind; the retry makes exactly one', async () => {
      const number = customerNumber();
      const trunksBefore = sipA.trunks.size;
      sipA.lostTrunkAnswers = 1;
      const key = crypto.randomUUID();
      const body = { termination_uri: 'sip:lossy.example', numbers: [number] };
      const first = await createTrunk(a.liveKey, body, { 'Idempotency-Key': key });
      expect(first.status, JSON.stringify(first.body)).to.be.at.least(500);
      expect(sipA.trunks.size, 'the trunk Twilio made is found by its FriendlyName and removed').to.equal(trunksBefore);
      expect(await PhoneNumber.countDocuments({ number })).to.equal(0);
      const retry = await createTrunk(a.liveKey, body, { 'Idempotency-Key': key });
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(sipA.trunks.size).to.equal(trunksBefore + 1);
      const named = [...sipA.trunks.values()].filter((t) => t.friendlyName === byocFriendlyName(retry.body.id));
      expect(named).to.have.length(1);
      expect((await request('DELETE', `/v1/sip_trunks/${retry.body.id}`, { key: a.liveKey })).status).to.equal(200);
    });

    it('a creation resumed after a crash finds the BYOC trunk an earlier attempt made (by FriendlyName), making no second one', async () => {
      const id = newId('trk');
      const seeded = seedByocTrunk(accountA, byocFriendlyName(id), 'sip:old.example');
      const creates = sipA.trunkCreates.length;
      const number = customerNumber();
      const doc = await createSipTrunk({ orgId: a.orgId, livemode: true }, id, {
        termination_uri: 'sip:resumed.example',
        numbers: [number],
      });
      expect(doc).to.include({ byoc_trunk_sid: seeded.sid, pending: false });
      expect(sipA.trunkCreates.length, 'no second BYOC trunk').to.equal(creates);
      const policy = sipA.policies.get(seeded.connectionPolicySid)!;
      expect(
        [...policy.targets.values()].map((t) => t.target),
        'its target pointed at the URI',
      ).to.deep.equal(['sip:resumed.example']);
      expect((await request('DELETE', `/v1/sip_trunks/${id}`, { key: a.liveKey })).status).to.equal(200);
      expect(sipA.trunks.has(seeded.sid), 'removed at Twilio').to.equal(false);
      expect(sipA.policies.has(seeded.connectionPolicySid)).to.equal(false);
    });

    it('updating the termination URI points the live target at it; DELETE removes the BYOC trunk and releases the numbers', async () => {
      const res = await request('POST', `/v1/sip_trunks/${trunkA.id}`, {
        key: a.liveKey,
        body: { termination_uri: 'sip:new.carrier.example:5080' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const trunk = sipA.trunks.get(trunkA.byoc_trunk_sid)!;
      const policy = sipA.policies.get(trunk.connectionPolicySid)!;
      expect([...policy.targets.values()].map((t) => t.target)).to.deep.equal(['sip:new.carrier.example:5080']);

      const deleted = await request('DELETE', `/v1/sip_trunks/${trunkA.id}`, { key: a.liveKey });
      expect(deleted.status).to.equal(200);
      expect(sipA.trunks.has(trunkA.byoc_trunk_sid)).to.equal(false);
      expect(sipA.policies.has(trunk.connectionPolicySid)).to.equal(false);
      expect(await PhoneNumber.countDocuments({ number: numberA }), 'released').to.equal(0);
      const after = await call(a, agentA, customerNumber(), numberA);
      expect(after.body.error, 'no longer a caller ID of the organization').to.include({ code: 'from_not_owned' });
      expect(fake.oaiRefusals).to.deep.equal([]);
    });
  });
});
