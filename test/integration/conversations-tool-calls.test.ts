/**
 * A conversation's tool calls that no reply carries (the assistant wrote nothing after them) are recorded
 * on the customer's message the turn answered, and stored as the rest of the row is: redacted when the
 * organization redacts, the counts added to the message's `redaction`.
 */
import { expect } from 'chai';
import { newTenant, request } from '../support/harness';
import { customerNumber, eventually, inbound, messagesOf } from '../support/conversations';

const CARD = '4111 1111 1111 1111';

describe('conversations: tool calls with no text after them', function () {
  this.timeout(120_000);

  it('are stored redacted on the customer message when the organization redacts', async () => {
    const t = await newTenant();
    const on = await request('POST', '/v1/account', { key: t.testKey, body: { redaction: { enabled: true } } });
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    const from = customerNumber();
    const first = await inbound(t.testKey, {
      channel: 'whatsapp',
      from,
      text: `TOOLQUIET handoff_to_person {"reason":"card ${CARD}"}`,
    });
    const convId = first.body.conversation_id as string;
    const [message] = await eventually(async () => {
      const messages = await messagesOf(t.testKey, convId);
      return messages[0]?.tool_calls ? messages : null;
    }, 'the tool call on the message');
    expect(message).to.include({ author: 'customer', id: first.body.id });
    expect(JSON.stringify(message), 'no card number stored').to.not.include(CARD);
    expect(message.tool_calls.map((c: any) => c.name)).to.deep.equal(['handoff_to_person']);
    expect(message.tool_calls[0].arguments.reason).to.match(/^card \[/);
    // One card in the text, one in the tool call's arguments.
    expect(message.redaction).to.deep.equal({ card: 2 });
  });
});
