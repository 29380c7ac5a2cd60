/**
 * Card payments the model never hears (`collect_payment`): offered only with the organization's payment
 * connector (`POST /v1/account` `payments.connector`); a simulated call (test mode) takes the test card
 * without Twilio; a live call is handed to Twilio `<Pay>` (the loopback Twilio's simulation: the
 * recording paused, the card "keyed in", the action posted with the number masked, the recording
 * resumed) and comes back in a new ConversationRelay session. The transcript shows
 * `[payment details collected]`, the model gets the outcome only, and neither any collection of the
 * store nor the call's Temporal history (its payloads decoded) holds the card number — not even when a
 * connector echoes it unmasked. Without a connector the tool is an error and no `<Pay>` is sent; a card
 * number the caller reads aloud in a normal turn is stored redacted, redaction off.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import type { Payload } from '@temporalio/common';
import { configuredCodec } from '../../src/platform/payload-codec';
import { callWorkflowId } from '../../src/shared/calls';
import { PAYMENT_LINES, PAYMENT_TRANSCRIPT_LINE } from '../../src/shared/payments';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { completePay, twilioCallback, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Twilio's test Visa: what the fake "keys in" at `<Pay>`. */
const TEST_CARD = /4242[ -]?4242[ -]?4242[ -]?4242/;
/** What a caller reads aloud in a normal turn. */
const SPOKEN_CARD = '4111 1111 1111 1111';
const SPOKEN_CARD_RE = /4111[ -]?1111[ -]?1111[ -]?1111/;
const PAYMENT = { amount: '24.99', currency: 'usd', description: 'Order 1042' };
const PAY_LINE = `TOOLONCE collect_payment ${JSON.stringify(PAYMENT)}`;

async function setConnector(key: string, connector: string | null): Promise<void> {
  const res = await request('POST', '/v1/account', { key, body: { payments: { connector } } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.payments).to.deep.equal({ connector });
}

async function turnsOf(key: string, callId: string): Promise<any[]> {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.turns;
}

/** Polls `check` every 100 ms until it returns a value (not undefined), at most `ms`. */
async function eventually<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The collections of the store whose documents (as JSON) match `re`, each with the first match's context. */
async function collectionsHolding(re: RegExp): Promise<string[]> {
  const db = mongoose.connection.db!;
  const found: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      const json = JSON.stringify(doc);
      const m = re.exec(json);
      if (m) {
        found.push(`${name}: …${json.slice(Math.max(0, m.index - 80), m.index + 40)}…`);
        break;
      }
    }
  }
  return found;
}

/** Every payload of the call's workflow history, opened with the service's codec, as one text. */
async function decodedHistory(callId: string): Promise<string> {
  const history = await h().env.client.workflow.getHandle(callWorkflowId(callId)).fetchHistory();
  const payloads: Payload[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 40) return;
    const o = v as Record<string, unknown>;
    if (o.data instanceof Uint8Array && o.metadata && typeof o.metadata === 'object') payloads.push(o as Payload);
    else for (const x of Array.isArray(v) ? v : Object.values(o)) walk(x, depth + 1);
  };
  walk(history, 0);
  const opened = await configuredCodec().decode(payloads);
  return (
    JSON.stringify(history) + opened.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8')).join('\n')
  );
}

/** The LLM requests of call `callId` whose last user message is `text`. */
function llmRequestsAfter(callId: string, text: string) {
  return h().llm.requests.filter(
    (r) => r.user === callId && r.messages.filter((m) => m.role === 'user').at(-1)?.content === text,
  );
}

describe('collect_payment: card payments the model never hears', function () {
  this.timeout(120_000);

  describe('test mode (simulated calls)', () => {
    let t: Tenant;
    let bare: Tenant;
    before(async () => {
      t = await newTenant();
      bare = await newTenant();
      await setConnector(t.testKey, 'test_connector');
    });

    it('takes a simulated payment: transcript, model and store see the outcome only', async () => {
      const placed = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: [PAY_LINE, 'Thanks'] } },
      });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      const id = placed.body.id as string;
      await waitForCall(t.testKey, id);
      const [offered] = llmRequestsAfter(id, PAY_LINE);
      expect(offered.tools!.map((x) => x.function.name)).to.include('collect_payment');

      const turns = await turnsOf(t.testKey, id);
      const tool = turns.find((x) => x.role === 'tool');
      expect(tool.tool).to.deep.equal({ name: 'collect_payment', arguments: PAYMENT });
      expect(tool.text).to.match(
        /^Payment succeeded: 24\.99 USD charged to the card ending 4242, confirmation code sim_/,
      );
      expect(turns.map((x) => x.text))
        .to.include(PAYMENT_TRANSCRIPT_LINE)
        .and.to.include(PAYMENT_LINES.succeeded);
      expect(turns.find((x) => x.text === PAYMENT_TRANSCRIPT_LINE).role).to.equal('caller');

      // The model's next request: the outcome as the tool's result, nothing more of the card.
      const next = llmRequestsAfter(id, 'Thanks');
      expect(next.length).to.be.greaterThan(0);
      const toolMessages = next[0].messages.filter((m) => m.role === 'tool');
      expect(toolMessages.map((m) => m.content)).to.deep.equal([tool.text]);
      expect(JSON.stringify(next[0].messages)).not.to.match(/\d{12,}/);
    });

    it('sets the payment connector per mode, refusing a name Twilio would not take', async () => {
      const other = await newTenant();
      await setConnector(other.testKey, 'acme-pay_1');
      expect((await request('GET', '/v1/account', { key: other.liveKey })).body.payments).to.deep.equal({
        connector: null,
      });
      const bad = await request('POST', '/v1/account', {
        key: other.testKey,
        body: { payments: { connector: 'not a name' } },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'payments.connector' });
      expect((await request('GET', '/v1/account', { key: other.testKey })).body.payments.connector).to.equal(
        'acme-pay_1',
      );
      await setConnector(other.testKey, null);
    });

    it('without a payment connector: not offered, and a call of it is a tool error', async () => {
      const placed = await request('POST', '/v1/calls', {
        key: bare.testKey,
        body: { to: '+14155550124', agent_id: bare.agentId, simulation: { caller: [PAY_LINE] } },
      });
      const id = placed.body.id as string;
      await waitForCall(bare.testKey, id);
      const asked = llmRequestsAfter(id, PAY_LINE);
      expect(asked.length).to.be.greaterThan(0);
      for (const r of asked) expect((r.tools ?? []).map((x) => x.function.name)).not.to.include('collect_payment');
      const tool = (await turnsOf(bare.testKey, id)).find((x) => x.role === 'tool');
      expect(tool.text).to.equal(
        'Error: payments are not set up for this organization (no payment connector); no payment was taken.',
      );
      expect((await turnsOf(bare.testKey, id)).map((x) => x.text)).not.to.include(PAYMENT_TRANSCRIPT_LINE);
    });

    it('stores a card number the caller reads aloud redacted, with redaction off', async () => {
      const line = `My card is ${SPOKEN_CARD}, it expires 12/30.`;
      const placed = await request('POST', '/v1/calls', {
        key: bare.testKey,
        body: { to: '+14155550125', agent_id: bare.agentId, simulation: { caller: [line] } },
      });
      const id = placed.body.id as string;
      await waitForCall(bare.testKey, id);
      const turns = await turnsOf(bare.testKey, id);
      const caller = turns.find((x) => x.role === 'caller');
      expect(caller.text).to.equal('My card is [card], it expires 12/30.');
      expect(caller.redaction).to.deep.equal({ card: 1 });
      expect(turns.find((x) => x.role === 'assistant' && x.text.startsWith('You said')).text).to.equal(
        'You said: My card is [card], it expires 12/30.',
      );
      expect(await collectionsHolding(SPOKEN_CARD_RE)).to.deep.equal([]);
    });
  });

  describe('live, through Twilio <Pay>', () => {
    let fake: FakeTwilio;
    let restore: () => Promise<void>;
    let t: Tenant;
    let agentId: string;
    const parties = { from: '+14155550100', to: '+14155550123' };

    before(async () => {
      ({ fake, restore } = await useFakeTwilio());
      t = await newTenant();
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Payments', instructions: 'Take payments.', first_message: 'Hi, this is Payments.' },
      });
      agentId = agent.body.id;
    });
    after(() => restore());

    const sidOf = (id: string) => fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;

    /** A recorded live call, answered, its first ConversationRelay session open. */
    async function liveCall() {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { ...parties, agent_id: agentId, recording: { enabled: true } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = sidOf(id);
      await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      return { id, sid, session: await relayClient(id, sid, fake.authToken, parties) };
    }

    /** Asks for a payment on `session`, waits for `<Pay>`, plays it; returns the comeback session and the TwiML. */
    async function pay(id: string, sid: string, session: Awaited<ReturnType<typeof relayClient>>, opts = {}) {
      session.ws.send(JSON.stringify({ type: 'prompt', voicePrompt: PAY_LINE, lang: 'en-US', last: true }));
      const attributes = await eventually('<Pay>', () => fake.payTwiml.get(sid));
      session.ws.close(); // Twilio ends the session when the call leaves for other TwiML
      const answer = await completePay(fake, sid, opts);
      expect(answer.status).to.equal(200);
      const query = /\/twilio\/relay\/call_[0-9a-z]+\?sid=CA[0-9a-f]+(&amp;payment=\d+)/.exec(answer.text)?.[1];
      expect(query, answer.text).to.be.a('string');
      const back = await relayClient(id, sid, fake.authToken, parties, query!.replace('&amp;', '&'));
      return { attributes, answer, back };
    }

    it('without a payment connector: a tool error, no <Pay> sent', async () => {
      const { id, sid, session } = await liveCall();
      session.ws.send(JSON.stringify({ type: 'prompt', voicePrompt: PAY_LINE, lang: 'en-US', last: true }));
      await eventually('the tool turn', () =>
        h().llm.requests.some(
          (r) => r.user === id && r.messages.some((m) => m.role === 'tool' && m.content?.includes('not set up')),
        )
          ? true
          : undefined,
      );
      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      expect(fake.updates.some((u) => u.callSid === sid && (u.params.Twiml ?? '').includes('<Pay'))).to.equal(false);
      expect(fake.recordingUpdates.filter((u) => u.callSid === sid)).to.deep.equal([]);
      const tool = (await turnsOf(t.liveKey, id)).find((x) => x.role === 'tool');
      expect(tool.text).to.include('payments are not set up');
    });

    it('hands the caller to <Pay>, pauses the recording, and keeps no card number anywhere', async () => {
      await setConnector(t.liveKey, 'stripe_live');
      const { id, sid, session } = await liveCall();
      const first = await pay(id, sid, session);
      expect(first.attributes).to.include({
        paymentConnector: 'stripe_live',
        chargeAmount: '24.99',
        currency: 'usd',
        description: 'Order 1042',
        input: 'dtmf',
      });
      expect(first.attributes.action).to.match(new RegExp(`/twilio/pay/${id}/\\d+$`));
      expect(first.answer.text).to.include(PAYMENT_LINES.succeeded);
      // Recording paused (the pause kept out of the file) before the redirect, resumed after.
      const recordingCalls = () => fake.recordingUpdates.filter((u) => u.callSid === sid);
      await eventually('the recording resumed', () => (recordingCalls().length >= 2 ? true : undefined));
      expect(recordingCalls().map((u) => [u.sid, u.params.Status, u.params.PauseBehavior])).to.deep.equal([
        ['Twilio.CURRENT', 'paused', 'skip'],
        ['Twilio.CURRENT', 'in-progress', undefined],
      ]);

      expect((await first.back.say('Thanks')).token).to.equal('You said: Thanks');
      const next = llmRequestsAfter(id, 'Thanks').at(-1)!;
      const result = next.messages.filter((m) => m.role === 'tool').at(-1)!.content!;
      expect(result).to.match(
        /^Payment succeeded: 24\.99 USD charged to the card ending 4242, confirmation code ch_[0-9a-f]+\./,
      );

      // A connector that echoes the whole number (and puts it in its code): still nothing kept of it.
      const second = await pay(id, sid, first.back, { unmasked: true, confirmationCode: 'ch_4242424242424242' });
      expect((await second.back.say('And now?')).token).to.equal('You said: And now?');
      const echoed = llmRequestsAfter(id, 'And now?')
        .at(-1)!
        .messages.filter((m) => m.role === 'tool')
        .at(-1)!.content!;
      expect(echoed).to.include('card ending unknown').and.include('confirmation code ch_[digits]');

      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      const turns = await turnsOf(t.liveKey, id);
      expect(turns.filter((x) => x.text === PAYMENT_TRANSCRIPT_LINE && x.role === 'caller')).to.have.length(2);
      expect(JSON.stringify(h().llm.requests)).not.to.match(TEST_CARD);

      expect(await collectionsHolding(TEST_CARD)).to.deep.equal([]);
      const history = await decodedHistory(id);
      expect(history, 'the decoded history holds the outcome').to.include('"last4":"4242"');
      expect(history).not.to.match(TEST_CARD);
    });
  });
});
