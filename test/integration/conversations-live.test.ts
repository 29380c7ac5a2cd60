/**
 * Live messaging through Twilio, with a Twilio-shaped REST server on loopback driven by the real `twilio`
 * package (test/support/fake-twilio.ts) and Twilio's webhooks signed as Twilio signs them: inbound
 * messages answered by the assistant through the Messages API (`whatsapp:` addressing, status callback),
 * templates through the Content API, the window checked before any provider request, duplicates,
 * out-of-order status callbacks, refusals, a lost provider response, signature rejection, isolation.
 */
import { expect } from 'chai';
import { Message } from '../../src/models/conversations';
import { h, newTenant, request } from '../support/harness';
import { postAsTwilio, signedAsTwilio, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { customerNumber, eventsAbout, eventually, messagesOf, sleep, waitForMessages } from '../support/conversations';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const DAY = 24 * 60 * 60;
const sid = (prefix = 'SM') =>
  prefix + Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');

describe('conversations through Twilio (live mode)', function () {
  this.timeout(120_000);
  let fake: FakeTwilio;
  let restoreTwilio: () => Promise<void>;
  let t: Tenant;
  let agentId: string;
  let service: string;

  before(async () => {
    ({ fake, restore: restoreTwilio } = await useFakeTwilio());
    t = await newTenant();
    agentId = (
      await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live desk', instructions: 'You answer for the live desk.' },
      })
    ).body.id;
    service = customerNumber();
    const connected = await request('POST', '/v1/phone_numbers', {
      key: t.liveKey,
      body: { number: service, channels: ['sms', 'whatsapp'], agent_id: agentId },
    });
    expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
    expect(connected.body.livemode).to.equal(true);
  });
  after(async () => restoreTwilio());

  /** Posts a Twilio webhook, signed by the account it speaks of (or with `signature` as given). */
  const twilioPost = (path: string, params: Record<string, string>, signature?: string) =>
    postAsTwilio(fake, path, params, signature);
  /** Twilio's inbound message webhook for `from` writing `text` to the service number. */
  const inboundParams = (from: string, text: string, channel: 'whatsapp' | 'sms' = 'whatsapp', messageSid = sid()) => {
    const a = (n: string) => (channel === 'whatsapp' ? `whatsapp:${n}` : n);
    return {
      MessageSid: messageSid,
      SmsMessageSid: messageSid,
      AccountSid: fake.accountSid,
      From: a(from),
      To: a(service),
      Body: text,
      NumMedia: '0',
      ...(channel === 'whatsapp' ? { ProfileName: 'Ana', WaId: from.slice(1) } : {}),
    };
  };
  const conversationOf = async (customer: string, channel = 'whatsapp') =>
    eventually(
      async () =>
        (
          await request('GET', `/v1/conversations?channel=${channel}&customer_number=${encodeURIComponent(customer)}`, {
            key: t.liveKey,
          })
        ).body.data[0],
      `conversation with ${customer}`,
    );
  const createsTo = (to: string) => fake.messages.filter((m) => m.To === to);
  const send = (body: Record<string, unknown>) => request('POST', '/v1/messages', { key: t.liveKey, body });

  it('answers an inbound WhatsApp message through the Messages API, and moves statuses forward whatever the callback order', async () => {
    const from = customerNumber();
    const res = await twilioPost('/twilio/messaging', inboundParams(from, 'Do you open on Sundays?'));
    expect(res.status).to.equal(200);
    expect(res.type).to.match(/text\/xml/);
    expect(res.text).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?><Response\/>$/);

    const conv = await conversationOf(from);
    expect(conv).to.include({
      livemode: true,
      channel: 'whatsapp',
      service_number: service,
      agent_id: agentId,
      status: 'open',
    });
    const [inbound, reply] = await waitForMessages(t.liveKey, conv.id, 2);
    expect(inbound).to.include({
      author: 'customer',
      status: 'received',
      text: 'Do you open on Sundays?',
      from,
      to: service,
    });
    expect(reply).to.include({ author: 'assistant', text: 'You said: Do you open on Sundays?', status: 'queued' });
    await eventually(async () => createsTo(`whatsapp:${from}`).length === 1, 'the reply sent through Twilio');
    const created = createsTo(`whatsapp:${from}`)[0];
    expect(created).to.include({
      From: `whatsapp:${service}`,
      Body: 'You said: Do you open on Sundays?',
      StatusCallback: `${h().api.url}/twilio/messaging/status/${reply.id}`,
    });
    expect(h().llm.requests.filter((r) => r.user === conv.id)[0].messages[0].content).to.contain(
      'You answer for the live desk.',
    );
    await eventually(
      async () => (await Message.findById(reply.id).lean())?.provider_sid === created.Sid,
      'provider sid stored',
    );

    const path = `/twilio/messaging/status/${reply.id}`;
    const status = async (MessageStatus: string, extra: Record<string, string> = {}) => {
      const r = await twilioPost(path, {
        MessageSid: created.Sid,
        MessageStatus,
        AccountSid: fake.accountSid,
        ...extra,
      });
      expect(r.status).to.equal(204);
    };
    const statusOf = async () => (await request('GET', `/v1/messages/${reply.id}`, { key: t.liveKey })).body.status;
    await status('delivered');
    await eventually(async () => (await statusOf()) === 'delivered', 'delivered');
    await status('sent'); // late
    await status('failed', { ErrorCode: '30008' }); // after delivery: ignored
    await status('read');
    await eventually(async () => (await statusOf()) === 'read', 'read');
    await status('sent');
    await sleep(500);
    expect(await statusOf()).to.equal('read');
    const events = (await eventsAbout(t.liveKey, reply.id)).map((e) => e.type).reverse();
    expect(events, 'each event once, in rank order').to.deep.equal(['message.sent', 'message.delivered']);
    const received = await eventsAbout(t.liveKey, inbound.id);
    expect(received.map((e) => [e.type, e.livemode])).to.deep.equal([['message.received', true]]);
    expect(await eventsAbout(t.testKey, inbound.id), 'not in test mode').to.deep.equal([]);
    expect((await request('GET', `/v1/conversations/${conv.id}`, { key: t.testKey })).status).to.equal(404);
  });

  it('stores one message and sends one reply for the same webhook posted five times at once', async () => {
    const from = customerNumber();
    const params = inboundParams(from, 'Hello once', 'sms');
    const results = await Promise.all(Array.from({ length: 5 }, () => twilioPost('/twilio/messaging', params)));
    expect(results.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
    const conv = await conversationOf(from, 'sms');
    await waitForMessages(t.liveKey, conv.id, 1, (m) => m.author === 'assistant');
    await eventually(async () => createsTo(from).length >= 1, 'the reply sent');
    await sleep(1500); // time for any duplicate to show up
    const messages = await messagesOf(t.liveKey, conv.id);
    expect(messages.map((m) => [m.author, m.text])).to.deep.equal([
      ['customer', 'Hello once'],
      ['assistant', 'You said: Hello once'],
    ]);
    expect(createsTo(from), 'one provider request').to.have.length(1);
    expect(createsTo(from)[0].From).to.equal(service);
    expect((await eventsAbout(t.liveKey, messages[0].id)).length).to.equal(1);
  });

  it('checks the WhatsApp window against the stored last inbound time, to the second, before any provider request', async () => {
    const to = customerNumber();
    const requestsTo = () => fake.messageRequests.filter((r) => r.params.To === `whatsapp:${to}`).length;
    const never = await send({ channel: 'whatsapp', to, text: 'Hello?' });
    expect(never.status).to.equal(422);
    expect(never.body.error.code).to.equal('whatsapp_window_closed');
    expect(requestsTo()).to.equal(0);

    await twilioPost('/twilio/messaging', inboundParams(to, 'Hi'));
    const conv = await conversationOf(to);
    const [first] = await waitForMessages(t.liveKey, conv.id, 1, (m) => m.author === 'customer');
    await waitForMessages(t.liveKey, conv.id, 1, (m) => m.author === 'assistant');
    await eventually(async () => requestsTo() === 1, 'the assistant reply sent');

    const backdate = (seconds: number) =>
      Message.updateOne({ _id: first.id }, { $set: { received_ms: seconds * 1000 } });
    await backdate(Math.floor(Date.now() / 1000) - DAY);
    const closed = await send({ channel: 'whatsapp', to, text: 'At 24:00:00' });
    expect(closed.status).to.equal(422);
    expect(closed.body.error.code).to.equal('whatsapp_window_closed');
    expect(requestsTo(), 'zero provider requests').to.equal(1);

    let accepted: any;
    for (let attempt = 0; attempt < 5 && !accepted; attempt++) {
      while (Date.now() % 1000 > 300) await sleep(20);
      const nowS = Math.floor(Date.now() / 1000);
      await backdate(nowS - (DAY - 1));
      const res = await send({ channel: 'whatsapp', to, text: 'At 23:59:59' });
      if (res.status === 200) accepted = res.body;
      else if (Math.floor(Date.now() / 1000) === nowS)
        expect.fail(`refused within the same second: ${JSON.stringify(res.body)}`);
    }
    expect(accepted).to.include({ status: 'queued', author: 'api' });
    await eventually(async () => requestsTo() === 2, 'one provider request for the accepted message');
    expect(createsTo(`whatsapp:${to}`).map((m) => m.Body)).to.deep.equal(['You said: Hi', 'At 23:59:59']);
  });

  it('sends registered templates through the Content API, and refuses unregistered ones and missing numbers in live mode', async () => {
    const contentSid = 'HX' + 'a'.repeat(32);
    const name = `visit_${Date.now()}`;
    expect(
      (
        await request('POST', '/v1/message_templates', {
          key: t.liveKey,
          body: { name, language: 'en_US', body: 'Hi {{1}}, see you at {{2}}.' },
        })
      ).body.error,
    ).to.include({ code: 'parameter_missing', param: 'content_sid' });
    const tpl = await request('POST', '/v1/message_templates', {
      key: t.liveKey,
      body: { name, language: 'en_US', body: 'Hi {{1}}, see you at {{2}}.', content_sid: contentSid },
    });
    expect(tpl.status, JSON.stringify(tpl.body)).to.equal(200);
    expect(
      (await request('GET', `/v1/message_templates/${tpl.body.id}`, { key: t.testKey })).status,
      'live templates are not test templates',
    ).to.equal(404);

    const to = customerNumber();
    const sent = await send({
      channel: 'whatsapp',
      to,
      template: { name, language: 'en_US', parameters: ['Ana', '10:00'] },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body).to.include({ text: 'Hi Ana, see you at 10:00.', status: 'queued', author: 'api' });
    await eventually(async () => createsTo(`whatsapp:${to}`).length === 1, 'template sent');
    const created = createsTo(`whatsapp:${to}`)[0];
    expect(created).to.include({
      ContentSid: contentSid,
      ContentVariables: '{"1":"Ana","2":"10:00"}',
      From: `whatsapp:${service}`,
    });
    expect(created.Body).to.equal(undefined);

    const unknown = await send({
      channel: 'whatsapp',
      to,
      template: { name: 'not_registered', language: 'en', parameters: [] },
    });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.param).to.equal('template.name');

    const bare = await newTenant();
    const none = await request('POST', '/v1/messages', {
      key: bare.liveKey,
      body: { channel: 'whatsapp', to, template: { name, language: 'en_US', parameters: ['A', 'B'] } },
    });
    expect(none.status).to.equal(404); // the template is this organization's, not theirs
    const noNumber = await request('POST', '/v1/messages', {
      key: bare.liveKey,
      body: { channel: 'sms', to, text: 'hi' },
    });
    expect(noNumber.status).to.equal(422);
    expect(noNumber.body.error.code).to.equal('sms_number_not_connected');
    const waNumber = await request('POST', '/v1/phone_numbers', {
      key: bare.liveKey,
      body: { number: customerNumber(), channels: ['sms'] },
    });
    expect(waNumber.status).to.equal(200);
    const noWa = await request('POST', '/v1/messages', {
      key: bare.liveKey,
      body: { channel: 'whatsapp', to, text: 'hi' },
    });
    expect(noWa.body.error.code).to.equal('whatsapp_number_not_connected');
    const taken = await request('POST', '/v1/phone_numbers', {
      key: bare.liveKey,
      body: { number: service, channels: ['sms'] },
    });
    // A live number routes to one organization; another's ask gets the answer for a number Twilio does not
    // sell, which does not tell that a tenant holds it.
    expect(taken.status).to.equal(400);
    expect(taken.body.error).to.include({ code: 'phone_number_purchase_failed', twilio_code: 21422 });
  });

  it('marks a message Twilio refuses as failed with its error code, and emits message.failed', async () => {
    const to = customerNumber();
    fake.rejectMessagesTo.set(to, { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
    await twilioPost('/twilio/messaging', inboundParams(to, 'Hi', 'sms'));
    const conv = await conversationOf(to, 'sms');
    const [reply] = await waitForMessages(t.liveKey, conv.id, 1, (m) => m.author === 'assistant');
    await eventually(
      async () => (await request('GET', `/v1/messages/${reply.id}`, { key: t.liveKey })).body.status === 'failed',
      'failed',
    );
    const failed = (await request('GET', `/v1/messages/${reply.id}`, { key: t.liveKey })).body;
    expect(failed.error).to.deep.equal({ code: 'twilio_21610', message: 'Attempt to send to unsubscribed recipient' });
    expect((await eventsAbout(t.liveKey, reply.id)).map((e) => e.type)).to.deep.equal(['message.failed']);
  });

  it('does not send twice when Twilio accepted a message but its answer was lost: the retry finds it', async () => {
    const to = customerNumber();
    fake.lostResponses = 1;
    await twilioPost('/twilio/messaging', inboundParams(to, 'Are you there?', 'sms'));
    const conv = await conversationOf(to, 'sms');
    const [reply] = await waitForMessages(t.liveKey, conv.id, 1, (m) => m.author === 'assistant');
    await eventually(
      async () => Boolean((await Message.findById(reply.id).lean())?.provider_sid),
      'the provider sid adopted',
    );
    expect(fake.lostResponses).to.equal(0);
    expect(createsTo(to), 'one message at Twilio').to.have.length(1);
    expect((await Message.findById(reply.id).lean())!.provider_sid).to.equal(createsTo(to)[0].Sid);
    expect(
      fake.messageRequests.some((r) => r.method === 'GET' && r.params.To === to),
      'looked it up',
    ).to.equal(true);
  });

  it('refuses unsigned or wrongly signed Twilio messaging requests, and ignores numbers that are not connected', async () => {
    const from = customerNumber();
    const params = inboundParams(from, 'forged');
    const forged = await twilioPost('/twilio/messaging', params, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.status).to.equal(403);
    expect(JSON.parse(forged.text).error.code).to.equal('twilio_signature_invalid');
    expect((await twilioPost('/twilio/messaging', params, '')).status).to.equal(403);
    const real = await signedAsTwilio(fake, '/twilio/messaging', params);
    const tampered = await twilioPost('/twilio/messaging', { ...real.params, Body: 'changed' }, real.signature);
    expect(tampered.status).to.equal(403);
    expect(
      (await twilioPost('/twilio/messaging/status', { MessageSid: sid(), MessageStatus: 'delivered' }, 'forged'))
        .status,
    ).to.equal(403);
    await sleep(500);
    expect(await Message.countDocuments({ from }), 'nothing stored').to.equal(0);

    const elsewhere = { ...params, To: `whatsapp:${customerNumber()}` };
    const unrouted = await twilioPost('/twilio/messaging', elsewhere);
    expect(unrouted.status).to.equal(200);
    await sleep(300);
    expect(await Message.countDocuments({ from })).to.equal(0);
    const bad = await twilioPost('/twilio/messaging', { ...params, From: 'whatsapp:nobody' });
    expect(bad.status).to.equal(400);
  });
});
