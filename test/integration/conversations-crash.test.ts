/**
 * A worker process killed (SIGKILL, no clean shutdown) while a conversation is being answered, then
 * started again: the customer gets exactly one reply. Once while the assistant's LLM request is in flight
 * (test mode), once while the reply's send to Twilio is in flight (live mode, the fake Twilio holding its
 * answer): the send's retry finds the message Twilio already accepted instead of sending it again.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { Message } from '../../src/models/conversations';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess } from '../support/harness';
import { postAsTwilio, startFakeTwilio } from '../support/fake-twilio';
import {
  customerNumber,
  eventsAbout,
  eventually,
  inbound,
  messagesOf,
  sleep,
  waitForMessages,
} from '../support/conversations';

describe('a worker killed while a conversation is answered', function () {
  this.timeout(240_000);
  let child: ChildProcess | undefined;
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  it('answers exactly once after a crash during the LLM request', async () => {
    const queue = `svc-test-conv-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // conversations started now run on the child process's queue only
    try {
      child = await startWorkerProcess(queue);
      const t = await newTenant();
      const from = customerNumber();
      const first = await inbound(t.testKey, { channel: 'whatsapp', from, text: 'SLOW 3000' });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const convId = first.body.conversation_id as string;
      await eventually(async () => h().llm.requests.some((r) => r.user === convId), 'the LLM request in flight');
      await stopWorkerProcess(child, 'SIGKILL');
      await sleep(4000); // the model answers the dead worker; nobody takes the answer
      expect(
        (await messagesOf(t.testKey, convId)).map((m) => m.author),
        'nothing sent without a worker',
      ).to.deep.equal(['customer']);

      child = await startWorkerProcess(queue);
      // The lost LLM attempt times out (30 s) and is retried.
      const [reply] = await waitForMessages(t.testKey, convId, 1, (m) => m.author === 'assistant', 120_000);
      expect(reply.text).to.equal('Slow reply.');
      await eventually(async () => (await eventsAbout(t.testKey, reply.id)).length === 2, 'the reply delivered');
      await inbound(t.testKey, { channel: 'whatsapp', from, text: 'after the crash' });
      await waitForMessages(t.testKey, convId, 2, (m) => m.author === 'assistant');
      await sleep(1000);

      expect((await messagesOf(t.testKey, convId)).map((m) => [m.author, m.text])).to.deep.equal([
        ['customer', 'SLOW 3000'],
        ['assistant', 'Slow reply.'],
        ['customer', 'after the crash'],
        ['assistant', 'You said: after the crash'],
      ]);
      expect((await eventsAbout(t.testKey, reply.id)).map((e) => e.type).reverse()).to.deep.equal([
        'message.sent',
        'message.delivered',
      ]);
      expect((await eventsAbout(t.testKey, first.body.id)).map((e) => e.type)).to.deep.equal(['message.received']);
      expect(
        h().llm.requests.filter((r) => r.user === convId).length,
        'the lost request, its retry, the second turn',
      ).to.equal(3);
    } finally {
      setConfig(saved);
    }
  });

  it('sends exactly one reply through Twilio after a crash during the send', async () => {
    const fake = await startFakeTwilio();
    const queue = `svc-test-conv-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    const twilioEnv = {
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_API_BASE_URL: fake.url,
      PUBLIC_BASE_URL: h().api.url,
    };
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
      const service = customerNumber();
      expect(
        (await request('POST', '/v1/phone_numbers', { key: t.liveKey, body: { number: service, channels: ['sms'] } }))
          .status,
      ).to.equal(200);
      await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'Be brief.' } });

      fake.messageDelayMs = 60_000; // Twilio accepts the message and answers only after the worker is dead
      const from = customerNumber();
      const params = {
        MessageSid: 'SM' + crypto.randomBytes(16).toString('hex'),
        From: from,
        To: service,
        Body: 'Hello',
        NumMedia: '0',
        AccountSid: fake.accountSid,
      };
      const res = await postAsTwilio(fake, '/twilio/messaging', params); // signed by the account holding `service`
      expect(res.status).to.equal(200);
      await eventually(async () => fake.messages.some((m) => m.To === from), 'the send reached Twilio');
      await stopWorkerProcess(child, 'SIGKILL');
      fake.messageDelayMs = 0;

      child = await startWorkerProcess(queue, twilioEnv);
      const reply = await eventually(
        async () => {
          const row = await Message.findOne({ to: from, author: 'assistant' }).lean();
          return row?.provider_sid ? row : null;
        },
        'the reply recorded with its provider id',
        120_000,
      );
      expect(
        fake.messages.filter((m) => m.To === from),
        'one message at Twilio',
      ).to.have.length(1);
      expect(reply.provider_sid).to.equal(fake.messages.find((m) => m.To === from)!.Sid);
      expect(await Message.countDocuments({ to: from, author: 'assistant' })).to.equal(1);
    } finally {
      setConfig(saved);
      await fake.close();
    }
  });
});
