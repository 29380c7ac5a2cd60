/**
 * PII redaction before storage, end to end: with redaction on for a test organization,
 * a simulated call's stored transcript, an inbound WhatsApp message and the assistant's reply, an
 * analysis and the webhook deliveries carry placeholders and `redaction` counts, while the fake LLM
 * (test/support/fake-llm.ts `requests`) received the raw words; with redaction off (the default) only card
 * numbers are replaced (no full card number is ever stored).
 */
import { expect } from 'chai';
import { Analysis } from '../../src/models/analyses';
import { BulkCallResult } from '../../src/models/bulk-calls';
import { Call, CallTurn } from '../../src/models/calls';
import { Event } from '../../src/models/events';
import { Conversation, Message } from '../../src/models/conversations';
import { saveAnalysis } from '../../src/services/analysis';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createWebhookEndpoint, eventually } from '../support/webhooks';
import { customerNumber, inbound, waitForMessages } from '../support/conversations';
import { allResults, startCampaign, waitForCampaign } from '../support/bulk-calls';

const CARD = '4111 1111 1111 1111';
const CARD_DIGITS = '4111111111111111';
const EMAIL = 'jane.doe+orders@mail.example.com';
const CALLED = '+14155550123';
const CALLER_LINE = `My card is ${CARD} and my email is ${EMAIL}; my wife is on 212-555-0147, I am on (415) 555-0123. Order #100234987, $1,299.00.`;

/** Turns the organization's redaction on in test mode, as its owner does: `POST /v1/account`. */
async function enableRedaction(key: string): Promise<void> {
  const res = await request('POST', '/v1/account', { key, body: { redaction: { enabled: true } } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.redaction).to.deep.equal({ enabled: true });
}

/** Whether a raw value appears anywhere in `text` (digits compared without their separators too). */
const holdsCard = (text: string) => text.includes(CARD) || text.replace(/[ -]/g, '').includes(CARD_DIGITS);

describe('PII redaction before storage', function () {
  this.timeout(120_000);
  let receiver: HttpsReceiver;
  let on: Awaited<ReturnType<typeof newTenant>>;
  let off: Awaited<ReturnType<typeof newTenant>>;

  before(async () => {
    receiver = await startHttpsReceiver();
    on = await newTenant({ analysis: { summary: true } });
    off = await newTenant({ analysis: { summary: true } });
    await enableRedaction(on.testKey);
  });
  after(() => receiver?.close());

  it('stores a call transcript redacted, with counts, while the model heard the caller', async () => {
    const endpoint = await createWebhookEndpoint(receiver, on.testKey, '/redacted-calls', [
      'call.ended',
      'call.analyzed',
    ]);
    const placed = await request('POST', '/v1/calls', {
      key: on.testKey,
      body: {
        to: CALLED,
        agent_id: on.agentId,
        metadata: { note: `card ${CARD_DIGITS}` },
        simulation: { caller: [CALLER_LINE, 'Bye!'] },
      },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
    const callId = placed.body.id as string;
    await waitForCall(on.testKey, callId);

    const tr = await request('GET', `/v1/calls/${callId}/transcript`, { key: on.testKey });
    expect(tr.status).to.equal(200);
    const caller = (tr.body.turns as any[]).find((t) => t.role === 'caller' && t.text.startsWith('My card'));
    expect(caller.text).to.equal(
      'My card is [card] and my email is [email]; my wife is on [phone], I am on (415) 555-0123. Order #100234987, $1,299.00.',
    );
    expect(caller.redaction).to.deep.equal({ card: 1, email: 1, phone: 1 });
    // The assistant's answer repeated it (the fake model echoes): stored redacted too.
    const answer = (tr.body.turns as any[]).find((t) => t.role === 'assistant' && t.text.includes('My card'));
    expect(answer.text).to.include('[card]').and.include('[email]');
    expect(answer.redaction).to.deep.equal({ card: 1, email: 1, phone: 1 });
    const bye = (tr.body.turns as any[]).find((t) => t.text === 'Bye!');
    expect(bye).to.not.have.property('redaction');
    // Nothing raw in the store's rows of the call.
    const rows = await CallTurn.find({ call_id: callId }).lean();
    for (const r of rows) expect(holdsCard(r.text) || r.text.includes(EMAIL), r.text).to.equal(false);

    // The model heard the caller: a request of this call carried the raw line.
    const heard = h().llm.requests.filter(
      (r) => r.user === callId && r.messages.some((m) => m.role === 'user' && m.content === CALLER_LINE),
    );
    expect(heard.length).to.be.at.least(1);

    // The analysis quoting the caller is stored redacted; every delivery's payload too.
    const analysed = await waitForCall(on.testKey, callId, (c) => c.analysis !== null);
    expect(analysed.analysis.summary).to.include('[card]');
    expect(holdsCard(analysed.analysis.summary)).to.equal(false);
    await receiver.waitFor(
      (all) => all.filter((r) => r.path === '/redacted-calls').length >= 2,
      30_000,
      'call.ended and call.analyzed delivered',
    );
    const delivered = receiver.at('/redacted-calls');
    expect(delivered.map((d) => d.body.type).sort()).to.deep.equal(['call.analyzed', 'call.ended']);
    for (const d of delivered) {
      expect(holdsCard(d.rawBody), d.rawBody).to.equal(false);
      expect(d.body.data.object.metadata).to.deep.equal({ note: 'card [card]' });
      expect(d.body.data.object.to).to.equal(CALLED); // the party's number is kept
    }
    const stored = await Event.find({ org_id: on.orgId, object_id: callId }).lean();
    expect(stored.length).to.be.at.least(2);
    for (const e of stored) expect(holdsCard(e.payload_json)).to.equal(false);
    expect(endpoint.id).to.match(/^we_/);
  });

  it("stores a tool call's arguments redacted, with the tool turn's count", async () => {
    const placed = await request('POST', '/v1/calls', {
      key: on.testKey,
      body: {
        to: CALLED,
        agent_id: on.agentId,
        simulation: { caller: [`TOOL transfer_call {"to":"nowhere ${CARD}"}`, 'bye'] },
      },
    });
    const callId = placed.body.id as string;
    await waitForCall(on.testKey, callId);
    const tr = await request('GET', `/v1/calls/${callId}/transcript`, { key: on.testKey });
    const tool = (tr.body.turns as any[]).find((t) => t.role === 'tool');
    expect(tool.tool).to.deep.equal({ name: 'transfer_call', arguments: { to: 'nowhere [card]' } });
    expect(tool.redaction.card).to.be.at.least(1);
    const rows = await CallTurn.find({ call_id: callId }).lean();
    for (const r of rows) expect(holdsCard(`${r.text} ${r.tool_arguments_json ?? ''}`)).to.equal(false);
    // The model asked for the tool with the raw arguments it was given.
    expect(h().llm.requests.some((r) => r.user === callId && JSON.stringify(r.messages).includes(CARD))).to.equal(true);
  });

  it('stores an inbound WhatsApp message and the reply redacted; the reply is still made from the raw text', async () => {
    const endpoint = await createWebhookEndpoint(receiver, on.testKey, '/redacted-messages', ['message.received']);
    const from = customerNumber();
    const text = `Please charge ${CARD}, or mail ${EMAIL}. You can call me on ${from}.`;
    const res = await inbound(on.testKey, { channel: 'whatsapp', from, text });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.text).to.equal(`Please charge [card], or mail [email]. You can call me on ${from}.`);
    expect(res.body.redaction).to.deep.equal({ card: 1, email: 1 });

    const [received, reply] = await waitForMessages(on.testKey, res.body.conversation_id, 2);
    expect(received.redaction).to.deep.equal({ card: 1, email: 1 });
    expect(reply).to.include({ direction: 'outbound', author: 'assistant' });
    expect(reply.text).to.equal(`You said: Please charge [card], or mail [email]. You can call me on ${from}.`);
    expect(reply.redaction).to.deep.equal({ card: 1, email: 1 });
    const row = await Message.findById(received.id).lean();
    expect(holdsCard(row!.text)).to.equal(false);
    expect(JSON.parse(row!.redaction_json!)).to.deep.equal({ card: 1, email: 1 });
    // The model read the customer's raw words.
    expect(h().llm.requests.some((r) => r.messages.some((m) => m.content === text))).to.equal(true);

    await receiver.waitFor(
      (all) => all.some((r) => r.path === '/redacted-messages' && r.body.data.object.id === received.id),
      30_000,
      'message.received delivered',
    );
    const delivery = receiver.at('/redacted-messages').find((r) => r.body.data.object.id === received.id)!;
    expect(holdsCard(delivery.rawBody)).to.equal(false);
    expect(delivery.body.data.object.text).to.equal(received.text);
    expect(delivery.body.data.object.redaction).to.deep.equal({ card: 1, email: 1 });
    expect(endpoint.id).to.match(/^we_/);
  });

  it("stores a campaign call's fill_form answers redacted, on the call and on its result row", async () => {
    const form = await request('POST', '/v1/forms', {
      key: on.testKey,
      body: {
        name: 'Refund',
        fields: [
          { key: 'notes', type: 'string', description: 'what they want' },
          { key: 'attending', type: 'boolean' },
        ],
      },
    });
    expect(form.status, JSON.stringify(form.body)).to.equal(200);
    const notes = `refund to ${CARD}, receipt to ${EMAIL}`;
    const fill = `TOOL fill_form ${JSON.stringify({ fields: { notes, attending: true } })}`;
    const campaign = await startCampaign(on.testKey, {
      agent_id: on.agentId,
      form_id: form.body.id,
      contacts: [{ phone: '+14155557101', simulation: { caller: [fill, 'Bye'] } }],
    });
    await waitForCampaign(on.testKey, campaign.id);
    const [result] = await allResults(on.testKey, campaign.id);
    const redacted = { notes: 'refund to [card], receipt to [email]', attending: true };
    expect(result.form, 'the result row').to.deep.equal(redacted);
    const call = (await request('GET', `/v1/calls/${result.call_ids[0]}`, { key: on.testKey })).body;
    expect(call.form, 'the call').to.deep.equal(redacted);
    const callDoc = await Call.findById(call.id).lean();
    const rowDoc = await BulkCallResult.findOne({ bulk_call_id: campaign.id }).lean();
    for (const stored of [callDoc!.form_json!, rowDoc!.form_json!]) {
      expect(holdsCard(stored), stored).to.equal(false);
      expect(stored).not.to.include(EMAIL);
    }
    // The model filled the form from the raw words.
    expect(h().llm.requests.some((r) => r.user === call.id && JSON.stringify(r.messages).includes(CARD))).to.equal(
      true,
    );
  });

  it("stores a conversation's handoff_reason redacted, the customer's own number kept", async () => {
    const from = customerNumber();
    const reason = `wants the refund to ${CARD}, call back on ${from} or mail ${EMAIL}`;
    const res = await inbound(on.testKey, {
      channel: 'whatsapp',
      from,
      text: `TOOL handoff_to_person ${JSON.stringify({ reason })}`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const convId = res.body.conversation_id as string;
    const conversation = async () => (await request('GET', `/v1/conversations/${convId}`, { key: on.testKey })).body;
    await eventually(async () => (await conversation()).status === 'needs_person', 'needs_person');
    expect((await conversation()).handoff_reason).to.equal(
      `wants the refund to [card], call back on ${from} or mail [email]`,
    );
    const doc = await Conversation.findById(convId).lean();
    expect(holdsCard(doc!.handoff_reason!)).to.equal(false);
    expect(doc!.handoff_reason).not.to.include(EMAIL);
  });

  it("stores an analysis's summary, structured data and reason redacted, with counts", async () => {
    const placed = await request('POST', '/v1/calls', {
      key: on.testKey,
      body: { to: CALLED, agent_id: on.agentId, simulation: { caller: ['Hi.'] } },
    });
    const callId = placed.body.id as string;
    await waitForCall(on.testKey, callId);
    const analysisId = newId('ana');
    const analysis = await saveAnalysis(h().env.client, {
      input: {
        analysisId,
        subject: { kind: 'call', id: callId },
        orgId: on.orgId,
        livemode: false,
        plan: { summary: true },
        model: null,
      },
      answer: {
        ok: true,
        model: 'fake-model',
        values: {
          summary: `The caller read ${CARD} aloud and asked to be called on (415) 555-0123.`,
          structured_data: { contact: { email: EMAIL, order: 'ORD-4481-2209-1177' } },
          success: { verdict: 'pass', reason: 'Gave SSN 123-45-6789.' },
        },
      },
    });
    expect(analysis.summary).to.equal('The caller read [card] aloud and asked to be called on (415) 555-0123.');
    expect(analysis.structured_data).to.deep.equal({ contact: { email: '[email]', order: 'ORD-4481-2209-1177' } });
    expect(analysis.success).to.deep.equal({ verdict: 'pass', reason: 'Gave SSN [ssn].' });
    expect(analysis.redaction).to.deep.equal({ card: 1, email: 1, ssn: 1 });
    const got = await request('GET', `/v1/calls/${callId}`, { key: on.testKey });
    expect(got.body.analysis.redaction).to.deep.equal({ card: 1, email: 1, ssn: 1 });
    const row = await Analysis.findById(analysisId).lean();
    expect(holdsCard(row!.summary!)).to.equal(false);
  });

  it('redacts card numbers only with redaction off (the default)', async () => {
    const placed = await request('POST', '/v1/calls', {
      key: off.testKey,
      body: { to: CALLED, agent_id: off.agentId, simulation: { caller: [CALLER_LINE] } },
    });
    const callId = placed.body.id as string;
    await waitForCall(off.testKey, callId);
    const tr = await request('GET', `/v1/calls/${callId}/transcript`, { key: off.testKey });
    const caller = (tr.body.turns as any[]).find((t) => t.role === 'caller');
    // No full card number is ever stored (PCI DSS); the rest of the caller's words are kept as said.
    expect(caller.text).to.equal(CALLER_LINE.replace(CARD, '[card]'));
    expect(caller.redaction).to.deep.equal({ card: 1 });

    const from = customerNumber();
    const text = `Please charge ${CARD}.`;
    const res = await inbound(off.testKey, { channel: 'whatsapp', from, text });
    expect(res.body.text).to.equal('Please charge [card].');
    expect(res.body.redaction).to.deep.equal({ card: 1 });
    const [, reply] = await waitForMessages(off.testKey, res.body.conversation_id, 2);
    expect(reply.text).to.equal('You said: Please charge [card].');
    const analysis = await eventually(
      async () => (await request('GET', `/v1/calls/${callId}`, { key: off.testKey })).body.analysis?.summary,
      'an analysis',
    );
    expect(analysis).to.include(EMAIL).and.not.to.include(CARD);
  });
});
