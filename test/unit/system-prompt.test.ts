/**
 * The assistant's system message has one builder for calls and conversations (src/shared/assistant.ts
 * `systemPrompt`): the texts below are what the call's (`callSystemPrompt`) and the conversation's builders
 * gave before they were one function, so a call or a conversation is prompted exactly as before.
 */
import { expect } from 'chai';
import { callSystemPrompt, systemPrompt } from '../../src/shared/assistant';

const agent = { name: 'Ava', instructions: '  Confirm the booking.\n', transfer_to: '+14155550199' };
const TEXT_RULES =
  'Answer in plain text, briefly (a few sentences at most), without markdown.\n' +
  'Call the tool handoff_to_person with a short reason when the customer asks for a person or you cannot help; ' +
  'after that a person answers them.';
const CALL_RULES =
  'Your words are read aloud: answer in one to three short sentences, no lists or markup.\n' +
  'Call the tool end_call when the conversation is over (after saying goodbye), and transfer_call when the ' +
  'caller asks for a person or you cannot help.';

describe('system prompt of calls and conversations', () => {
  it('prompts an outbound call with its transfer destination and its context as facts', () => {
    const expected =
      'Confirm the booking.\n\nYou are "Ava", speaking on a phone call with +14155550123. ' +
      CALL_RULES +
      '\nTransfer destination: +14155550199\n\nFacts for this call (use them; do not read them out verbatim):\n' +
      '{\n  "booking": "B-17"\n}';
    const setting = { to: '+14155550123', context: { booking: 'B-17' } };
    expect(systemPrompt(agent, { medium: 'call', ...setting })).to.equal(expected);
    expect(callSystemPrompt({ agent, ...setting })).to.equal(expected);
  });

  it('prompts an inbound call without a transfer destination or facts', () => {
    const noTransfer = { ...agent, transfer_to: null };
    const expected = `Confirm the booking.\n\nYou are "Ava", answering a phone call from +14155550100. ${CALL_RULES}`;
    expect(systemPrompt(noTransfer, { medium: 'call', to: '+14155550100', inbound: true, context: {} })).to.equal(
      expected,
    );
  });

  it("adds a campaign call's form", () => {
    const form = {
      id: 'form_1',
      name: 'Booking',
      fields: [{ key: 'date', type: 'date' as const, required: true, description: 'The day', options: null }],
    };
    const prompt = systemPrompt(agent, { medium: 'call', to: '+14155550123', context: {}, form });
    expect(prompt).to.contain(
      '\n\nOn this call you fill the form "Booking". Its fields:\n- date (date YYYY-MM-DD, required): The day',
    );
  });

  it('prompts WhatsApp, SMS and web conversations, without the call-only parts', () => {
    const text = (channel: 'whatsapp' | 'sms' | 'web', customerNumber: string) =>
      systemPrompt(agent, { medium: 'text', channel, customerNumber });
    expect(text('whatsapp', '+14155550123')).to.equal(
      `Confirm the booking.\n\nYou are "Ava", writing with the customer +14155550123 over WhatsApp. ${TEXT_RULES}`,
    );
    expect(text('sms', '+14155550123')).to.equal(
      `Confirm the booking.\n\nYou are "Ava", writing with the customer +14155550123 over SMS. ${TEXT_RULES}`,
    );
    expect(text('web', 'visitor:v1')).to.equal(
      `Confirm the booking.\n\nYou are "Ava", writing with a visitor over the chat on our website. ${TEXT_RULES}`,
    );
  });
});
