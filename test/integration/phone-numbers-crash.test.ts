/**
 * A worker process killed (SIGKILL) between Twilio's answer to a number purchase and the store write:
 * the fake Twilio buys the number at once and holds its answer, the worker dies waiting for it; a new
 * worker's retry of the provisioning activity looks the number up in the account before buying, finds
 * it, and stores it. The number is bought once and stored once, and `POST /v1/phone_numbers` answers it.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { PhoneNumber } from '../../src/models/conversations';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess } from '../support/harness';
import { startFakeTwilio } from '../support/fake-twilio';
import { orgNumbers } from '../support/fake-twilio-numbers';
import { customerNumber, eventually } from '../support/conversations';

describe('a worker killed while it buys a number', function () {
  this.timeout(180_000);
  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('buys the number once and stores it once after a restart', async () => {
    const fake = await startFakeTwilio();
    const queue = `svc-test-number-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    const twilioEnv = {
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_API_BASE_URL: fake.url,
      PUBLIC_BASE_URL: h().api.url,
    };
    // The provisioning workflow runs on the child process's queue only.
    setConfig({
      ...saved,
      taskQueue: queue,
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      twilioApiBaseUrl: fake.url,
      publicBaseUrl: h().api.url,
    });
    try {
      child = await startWorkerProcess(queue, twilioEnv);
      const t = await newTenant();
      const number = customerNumber();
      const account = await orgNumbers(t.orgId); // the service buys in the organization's own account
      account.purchaseDelayMs = 120_000; // bought at once; the answer comes only after the worker is dead

      const answer = request('POST', '/v1/phone_numbers', {
        key: t.liveKey,
        body: { number, channels: ['voice', 'sms'] },
        headers: { 'Idempotency-Key': `buy-${number}` },
      });
      await eventually(async () => account.purchases.length === 1, 'the purchase at Twilio');
      await stopWorkerProcess(child, 'SIGKILL');
      const pending = await PhoneNumber.findOne({ number }).lean();
      expect(pending, 'the row holds the number while it is bought').to.include({ pending: true, buying: true });
      expect((await request('GET', '/v1/phone_numbers', { key: t.liveKey })).body.data, 'not listed yet').to.deep.equal(
        [],
      );

      account.purchaseDelayMs = 0;
      child = await startWorkerProcess(queue, twilioEnv);
      const res = await answer; // the activity's retry (after its 30 s timeout) completes the request
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ number, source: 'bought' });

      expect(account.purchases, 'bought once').to.have.length(1);
      const held = [...account.incoming.values()].filter((n) => n.phoneNumber === number);
      expect(held).to.have.length(1);
      const rows = await PhoneNumber.find({ number }).lean();
      expect(rows, 'stored once').to.have.length(1);
      expect(rows[0]).to.include({ twilio_sid: held[0].sid, source: 'bought', pending: false, org_id: t.orgId });
      const lookups = account.requests.filter((r) => r.method === 'GET' && r.path === '/IncomingPhoneNumbers.json');
      expect(lookups.length, 'each attempt looked the number up first').to.equal(2);
      const listed = (await request('GET', '/v1/phone_numbers', { key: t.liveKey })).body.data;
      expect(listed.map((n: any) => n.number)).to.deep.equal([number]);
    } finally {
      setConfig(saved);
      await fake.close();
    }
  });
});
