/**
 * A conversation's assistant knows what a call's assistant knows (issue: "given to every call and
 * conversation"): the customer's contact (found by the customer number, shown as `contact_id`), the
 * contact's records and the agent's knowledge reach the LLM; and the conversation is metered in
 * `GET /v1/usage` (messages by channel and direction, the LLM request of the reply).
 */
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import { customerNumber, inbound, waitForMessages } from '../support/conversations';

describe('conversations: the contact, records and knowledge given to the assistant; usage', function () {
  this.timeout(120_000);

  it('gives the assistant the contact, their records and the knowledge, and meters the exchange', async () => {
    const t = await newTenant();
    const from = customerNumber();
    const contact = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone: from, name: 'Rosa Diaz' } });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
    const records = await request('POST', '/v1/records', {
      key: t.testKey,
      body: {
        contact: { phone: from },
        records: [{ type: 'order', title: 'Order 5521', text: 'Order 5521: a blue kayak, shipped on Monday.' }],
      },
    });
    expect(records.status, JSON.stringify(records.body)).to.equal(200);
    const doc = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: {
        agent_id: t.agentId,
        title: 'Kayak returns',
        text: 'Kayaks may be returned within 60 days when unused; the paddle is included.',
      },
    });
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);

    const res = await inbound(t.testKey, { channel: 'whatsapp', from, text: 'Can I return my kayak?' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const convId = res.body.conversation_id as string;
    await waitForMessages(t.testKey, convId, 2);

    const conversation = (await request('GET', `/v1/conversations/${convId}`, { key: t.testKey })).body;
    expect(conversation.contact_id).to.equal(contact.body.id);
    const llmRequest = h()
      .llm.requests.filter((r) => r.user === convId)
      .pop()!;
    const system = String(llmRequest.messages.find((m) => m.role === 'system')?.content);
    expect(system)
      .to.contain('Rosa Diaz')
      .and.contain('Order 5521: a blue kayak')
      .and.contain('returned within 60 days');

    const today = new Date().toISOString().slice(0, 10);
    const usage = (await request('GET', `/v1/usage?from=${today}&to=${today}`, { key: t.testKey })).body;
    expect(usage.totals.messages.inbound.whatsapp, JSON.stringify(usage.totals.messages)).to.equal(1);
    expect(usage.totals.messages.outbound.whatsapp).to.equal(1);
    expect(usage.totals.llm.requests).to.be.at.least(1);
  });
});
