/**
 * Numbers with proof and caller ID that cannot be borrowed, tried as a second tenant would: live numbers
 * are bought or imported through Twilio (the fake's AvailablePhoneNumbers, IncomingPhoneNumbers,
 * OutgoingCallerIds and ValidationRequests, test/support/fake-twilio-numbers.ts), a number one
 * organization holds is never another's (and the refusal does not tell that someone holds it), a live
 * call's `from` must be the organization's, and Twilio's refusal of a purchase stores nothing.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Call } from '../../src/models/calls';
import { CallerId } from '../../src/models/caller-ids';
import { PhoneNumber } from '../../src/models/conversations';
import { h, newTenant, request } from '../support/harness';
import { answerInbound, twilioCallback, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import {
  completeValidation,
  fakeNumbers,
  orgNumbers,
  seedIncoming,
  type FakeNumbersAccount,
} from '../support/fake-twilio-numbers';
import { customerNumber, eventually } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('phone numbers with proof, caller IDs', function () {
  this.timeout(120_000);
  let fake: FakeTwilio;
  let restore: () => Promise<void>;
  let a: Tenant;
  let b: Tenant;
  let agentA: string;
  let agentB: string;
  /** The number resources of A's and B's own Twilio accounts (their subaccounts) at the fake. */
  let acctA: FakeNumbersAccount;
  let acctB: FakeNumbersAccount;

  const liveAgent = async (t: Tenant, name: string) => {
    const res = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name, instructions: 'Be brief.', first_message: `Hi, this is ${name}.` },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };
  const addNumber = (t: Tenant, number: string, extra: Record<string, unknown> = {}) =>
    request('POST', '/v1/phone_numbers', { key: t.liveKey, body: { number, channels: ['voice', 'sms'], ...extra } });
  const numbersOf = async (t: Tenant) =>
    (await request('GET', '/v1/phone_numbers?limit=100', { key: t.liveKey })).body.data.map((n: any) => n.number);
  const call = (t: Tenant, agentId: string, from?: string) =>
    request('POST', '/v1/calls', {
      key: t.liveKey,
      body: { to: customerNumber(), agent_id: agentId, ...(from ? { from } : {}) },
    });
  const end = (t: Tenant, id: string) => request('POST', `/v1/calls/${id}/end`, { key: t.liveKey });

  before(async () => {
    ({ fake, restore } = await useFakeTwilio());
    a = await newTenant();
    b = await newTenant();
    agentA = await liveAgent(a, 'A desk');
    agentB = await liveAgent(b, 'B desk');
    acctA = await orgNumbers(a.orgId);
    acctB = await orgNumbers(b.orgId);
  });
  after(() => restore());

  describe('GET /v1/available_phone_numbers', () => {
    it('lists numbers for sale from Twilio with a live key, a simulated list with a test key, and checks its parameters', async () => {
      const live = await request('GET', '/v1/available_phone_numbers?country=US&area_code=212&type=local&limit=3', {
        key: a.liveKey,
      });
      expect(live.status, JSON.stringify(live.body)).to.equal(200);
      expect(live.body).to.include({ object: 'list', has_more: false, url: '/v1/available_phone_numbers' });
      expect(live.body.data.map((n: any) => n.number)).to.deep.equal(['+12122000000', '+12122000001', '+12122000002']);
      expect(live.body.data[0]).to.deep.include({
        object: 'available_phone_number',
        country: 'US',
        type: 'local',
        capabilities: { voice: true, sms: true, mms: true },
      });
      const asked = acctA.requests.filter((r) => r.path.startsWith('/AvailablePhoneNumbers/'));
      expect(asked.at(-1)!.path).to.equal('/AvailablePhoneNumbers/US/Local.json');
      expect(asked.at(-1)!.query).to.contain('AreaCode=212');

      const tollFree = await request('GET', '/v1/available_phone_numbers?type=toll_free&contains=0003', {
        key: a.liveKey,
      });
      expect(tollFree.body.data.map((n: any) => n.number)).to.deep.equal(['+18002000003']);

      const simulated = await request('GET', '/v1/available_phone_numbers?area_code=415&limit=2', { key: a.testKey });
      expect(simulated.status).to.equal(200);
      expect(simulated.body.data.map((n: any) => n.number)).to.deep.equal(['+14155550100', '+14155550101']);

      for (const [query, param] of [
        ['country=USA', 'country'],
        ['type=landline', 'type'],
        ['area_code=41', 'area_code'],
        ['country=GB&area_code=415', 'area_code'],
        ['contains=%2B1-415', 'contains'],
        ['limit=51', 'limit'],
        ['colour=red', 'colour'],
      ]) {
        const bad = await request('GET', `/v1/available_phone_numbers?${query}`, { key: a.liveKey });
        expect(bad.status, query).to.equal(400);
        expect(bad.body.error.param, query).to.equal(param);
      }
    });
  });

  describe('buying, importing, releasing', () => {
    it('buys a number Twilio offers in the organization’s account, its Voice and SMS URLs set to the service; DELETE releases it', async () => {
      const number = '+12122000005';
      const before = acctA.purchases.length;
      const res = await addNumber(a, number, { agent_id: agentA });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ number, source: 'bought', livemode: true });
      const purchases = acctA.purchases.slice(before);
      expect(purchases).to.have.length(1);
      expect(purchases[0]).to.include({
        PhoneNumber: number,
        VoiceUrl: `${h().api.url}/twilio/voice/inbound`,
        SmsUrl: `${h().api.url}/twilio/messaging`,
        StatusCallback: `${h().api.url}/twilio/status/inbound`,
      });
      const stored = await PhoneNumber.findById(res.body.id).lean();
      expect(stored).to.include({ twilio_sid: purchases[0].Sid, source: 'bought', pending: false });

      const gone = await request('DELETE', `/v1/phone_numbers/${res.body.id}`, { key: a.liveKey });
      expect(gone.status).to.equal(200);
      expect(acctA.releases).to.include(purchases[0].Sid);
      expect(acctA.incoming.has(purchases[0].Sid)).to.equal(false);
    });

    it('imports a number the account already holds (no purchase); DELETE only detaches it, its old URLs put back', async () => {
      const number = customerNumber();
      const held = seedIncoming(acctA.accountSid, number, { voiceUrl: 'https://example.com/old-voice' });
      const before = acctA.purchases.length;
      const res = await addNumber(a, number);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.source).to.equal('imported');
      expect(acctA.purchases.length, 'nothing bought').to.equal(before);
      expect(held.voiceUrl).to.equal(`${h().api.url}/twilio/voice/inbound`);

      const again = await addNumber(a, number);
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('phone_number_already_connected');

      expect((await request('DELETE', `/v1/phone_numbers/${res.body.id}`, { key: a.liveKey })).status).to.equal(200);
      expect(acctA.releases).not.to.include(held.sid);
      expect(acctA.incoming.has(held.sid), 'still in the account').to.equal(true);
      expect(held.voiceUrl).to.equal('https://example.com/old-voice');
    });

    it('Twilio refusing a purchase (address required) is a 400 with Twilio’s code and message, and nothing is stored', async () => {
      const number = customerNumber();
      acctA.refusePurchase.set(number, {
        code: 21631,
        message: 'Phone Number Requires an Address',
      });
      const res = await addNumber(a, number);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({
        code: 'phone_number_purchase_failed',
        param: 'number',
        twilio_code: 21631,
        twilio_message: 'Phone Number Requires an Address',
      });
      expect(await PhoneNumber.countDocuments({ number })).to.equal(0);
      expect(await numbersOf(a)).not.to.include(number);
      const none = await call(a, agentA, number);
      expect(none.body.error?.code).to.equal('from_not_owned');
    });
  });

  describe('a second organization', () => {
    let ours: string;
    let oursId: string;
    before(async () => {
      ours = '+12122000007';
      const res = await addNumber(a, ours, { agent_id: agentA });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      oursId = res.body.id;
    });

    it('cannot connect, buy or import a number the first holds, and the refusal is the one for a number nobody can have', async () => {
      const creates = () =>
        acctB.requests.filter((r) => r.method === 'POST' && r.path === '/IncomingPhoneNumbers.json').length;
      const before = creates();
      const taken = await addNumber(b, ours, { agent_id: agentB });
      expect(taken.status, JSON.stringify(taken.body)).to.equal(400);
      // The same answer as a number Twilio will not sell at all.
      const nobodys = customerNumber();
      acctB.refusePurchase.set(nobodys, {
        code: 21422,
        message: `Phone number ${nobodys} is not available.`,
      });
      const unavailable = await addNumber(b, nobodys);
      expect(unavailable.status).to.equal(400);
      const shape = (e: any, n: string) => ({
        ...e,
        message: e.message.replaceAll(n, 'N'),
        twilio_message: e.twilio_message.replaceAll(n, 'N'),
        request_id: null,
      });
      expect(shape(taken.body.error, ours)).to.deep.equal(shape(unavailable.body.error, nobodys));
      expect(taken.body.error).to.include({
        code: 'phone_number_purchase_failed',
        twilio_code: 21422,
        param: 'number',
      });
      const said = JSON.stringify(taken.body);
      for (const secret of [a.orgId, a.org.name, oursId, 'already', 'another'])
        expect(said, `the refusal names ${secret}`).not.to.contain(secret);
      expect(creates() - before, 'Twilio asked to sell only the free one').to.equal(1);
      expect(await numbersOf(b)).to.deep.equal([]);
      expect(await PhoneNumber.countDocuments({ number: ours })).to.equal(1);
    });

    it('cannot take a number held in another Twilio account (not the platform’s), nor receive its calls and messages', async () => {
      const elsewhere = customerNumber();
      seedIncoming(`AC${crypto.randomBytes(16).toString('hex')}`, elsewhere); // someone's own Twilio account
      const res = await addNumber(b, elsewhere, { agent_id: agentB });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ code: 'phone_number_purchase_failed', twilio_code: 21422 });
      expect(await PhoneNumber.countDocuments({ number: elsewhere })).to.equal(0);

      const sid = 'CA' + crypto.randomBytes(16).toString('hex');
      const twiml = await answerInbound(fake, { CallSid: sid, From: customerNumber(), To: elsewhere });
      expect(twiml.text).not.to.contain('<Connect');
      expect(await Call.countDocuments({ provider_call_sid: sid })).to.equal(0);
    });

    it('with its own connected Twilio account, imports only what that account holds and buys nothing', async () => {
      const c = await newTenant();
      const own = fake.addAccount({ friendlyName: 'their own' });
      const key = fake.addApiKey(own.sid);
      const connected = await request('POST', '/v1/telephony/connection', {
        key: c.liveKey,
        body: { account_sid: own.sid, api_key_sid: key.sid, api_key_secret: key.secret, auth_token: own.authToken },
      });
      expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
      const theirs = customerNumber();
      const held = seedIncoming(own.sid, theirs, { voiceUrl: 'https://example.com/their-voice' });
      const imported = await addNumber(c, theirs);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      expect(imported.body.source).to.equal('imported');
      expect(held.voiceUrl, 'pointed at the service in their account').to.equal(`${h().api.url}/twilio/voice/inbound`);

      // A number for sale, and the first organization's number: neither is in the connected account.
      const forSale = customerNumber();
      for (const number of [forSale, ours]) {
        const res = await addNumber(c, number);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error).to.include({ code: 'phone_number_not_owned', param: 'number' });
        expect(JSON.stringify(res.body), 'the refusal names nobody').not.to.contain(a.orgId);
      }
      expect(fakeNumbers(own.sid).purchases, 'nothing bought in their account').to.deep.equal([]);
      expect(await PhoneNumber.countDocuments({ number: forSale })).to.equal(0);
      expect(await PhoneNumber.countDocuments({ number: ours }), 'still the first organization’s only').to.equal(1);
      expect(await numbersOf(c)).to.deep.equal([theirs]);
    });

    it('cannot receive the first’s inbound calls or SMS: they reach the first only', async () => {
      const sid = 'CA' + crypto.randomBytes(16).toString('hex');
      const caller = customerNumber();
      const twiml = await answerInbound(fake, { CallSid: sid, From: caller, To: ours });
      expect(twiml.text).to.contain('<Connect');
      const inbound = await eventually(async () => Call.findOne({ provider_call_sid: sid }).lean(), 'inbound call');
      expect(inbound.org_id).to.equal(a.orgId);
      expect(await Call.countDocuments({ org_id: b.orgId, livemode: true })).to.equal(0);
      await end(a, inbound._id);

      const texter = customerNumber();
      const messageSid = 'SM' + crypto.randomBytes(16).toString('hex');
      const sms = await twilioCallback(fake, '/twilio/messaging', {
        MessageSid: messageSid,
        SmsMessageSid: messageSid,
        AccountSid: fake.accountSid,
        From: texter,
        To: ours,
        Body: 'My code is 123456',
        NumMedia: '0',
      });
      expect(sms.status).to.equal(200);
      const convA = await eventually(
        async () =>
          (
            await request('GET', `/v1/conversations?channel=sms&customer_number=${encodeURIComponent(texter)}`, {
              key: a.liveKey,
            })
          ).body.data[0],
        'the first organization’s conversation',
      );
      expect(convA).to.be.an('object');
      const convB = await request('GET', `/v1/conversations?customer_number=${encodeURIComponent(texter)}`, {
        key: b.liveKey,
      });
      expect(convB.body.data).to.deep.equal([]);
    });

    it('cannot call with the first’s number as from (400 from_not_owned naming from); the first can, and a call without from uses it', async () => {
      const borrowed = await call(b, agentB, ours);
      expect(borrowed.status, JSON.stringify(borrowed.body)).to.equal(400);
      expect(borrowed.body.error).to.include({ code: 'from_not_owned', param: 'from' });
      const campaign = await request('POST', '/v1/bulk-calls', {
        key: b.liveKey,
        body: { agent_id: agentB, form_id: await formOf(b), from: ours, contacts: [customerNumber()] },
      });
      expect(campaign.status, JSON.stringify(campaign.body)).to.equal(400);
      expect(campaign.body.error).to.include({ code: 'from_not_owned', param: 'from' });
      const bNoFrom = await call(b, agentB);
      expect(bNoFrom.status).to.equal(400);
      expect(bNoFrom.body.error).to.include({ code: 'parameter_missing', param: 'from' });

      const own = await call(a, agentA, ours);
      expect(own.status, JSON.stringify(own.body)).to.equal(200);
      expect(own.body.from).to.equal(ours);
      await end(a, own.body.id);
      const defaulted = await call(a, agentA);
      expect(defaulted.status, JSON.stringify(defaulted.body)).to.equal(200);
      expect(defaulted.body.from, "the agent's number").to.equal(ours);
      await end(a, defaulted.body.id);
    });
  });

  describe('caller IDs', () => {
    it('a caller ID is usable as from only once Twilio verified it, and no longer once deleted', async () => {
      const mobile = customerNumber();
      const started = await request('POST', '/v1/caller_ids', {
        key: b.liveKey,
        body: { phone_number: mobile, friendly_name: 'Front desk' },
      });
      expect(started.status, JSON.stringify(started.body)).to.equal(200);
      expect(started.body).to.include({ object: 'caller_id', phone_number: mobile, status: 'pending' });
      const account = acctB;
      expect(started.body.validation_code).to.equal(account.pendingValidations.get(mobile));
      expect(account.validations.at(-1)).to.include({ PhoneNumber: mobile, FriendlyName: 'Front desk' });

      const early = await call(b, agentB, mobile);
      expect(early.body.error).to.include({ code: 'from_not_owned', param: 'from' });

      expect(completeValidation(acctB.accountSid, mobile, started.body.validation_code)).to.equal(true);
      const listed = await request('GET', '/v1/caller_ids', { key: b.liveKey });
      expect(listed.body.data.find((c: any) => c.id === started.body.id)).to.include({
        status: 'verified',
        validation_code: null,
      });
      const ok = await call(b, agentB, mobile);
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      await end(b, ok.body.id);

      const again = await request('POST', '/v1/caller_ids', { key: b.liveKey, body: { phone_number: mobile } });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('caller_id_exists');

      const sid = (await CallerId.findById(started.body.id).lean())!.twilio_sid!;
      expect((await request('DELETE', `/v1/caller_ids/${started.body.id}`, { key: b.liveKey })).status).to.equal(200);
      expect(account.callerIds.has(sid), 'removed from the account').to.equal(false);
      const after = await call(b, agentB, mobile);
      expect(after.body.error).to.include({ code: 'from_not_owned' });
    });

    it('Twilio refusing the verification is a 400 with its code; test keys verify at once and test calls keep any from', async () => {
      const landline = customerNumber();
      acctB.refuseValidation.set(landline, { code: 21211, message: 'Invalid phone number' });
      const refused = await request('POST', '/v1/caller_ids', { key: b.liveKey, body: { phone_number: landline } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.include({
        code: 'caller_id_verification_failed',
        param: 'phone_number',
        twilio_code: 21211,
        twilio_message: 'Invalid phone number',
      });
      expect(await CallerId.countDocuments({ phone_number: landline })).to.equal(0);

      const sim = await request('POST', '/v1/caller_ids', { key: b.testKey, body: { phone_number: '+14155550142' } });
      expect(sim.status).to.equal(200);
      expect(sim.body).to.include({ livemode: false, status: 'verified' });
      const test = await request('POST', '/v1/calls', {
        key: b.testKey,
        body: { to: '+14155550123', from: '+14155550999', agent_id: b.agentId, simulation: { caller: ['Bye.'] } },
      });
      expect(test.status, JSON.stringify(test.body)).to.equal(200);
    });
  });
});

/** A form of the tenant's live mode (a campaign needs one). */
async function formOf(t: Tenant): Promise<string> {
  const res = await request('POST', '/v1/forms', {
    key: t.liveKey,
    body: { name: 'Intake', fields: [{ key: 'ok', type: 'boolean', description: 'Agreed.' }] },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id as string;
}
