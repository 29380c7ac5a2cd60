/**
 * Pure rules of the conversations domain: status order, the WhatsApp window in whole seconds, opt-out
 * words per channel, template placeholders, the workflow id, and the demo model's hand-over.
 */
import { expect } from 'chai';
import { placeholderCount, renderTemplateBody, renderUnregisteredTemplate } from '../../src/services/conversations';
import { demoReply } from '../../src/dev/demo-model';
import {
  chatMessageOf,
  conversationWorkflowId,
  keywordOf,
  nextStatus,
  windowClosesAt,
  windowOpen,
} from '../../src/shared/conversations';

describe('conversation rules', () => {
  it('moves a message status only forward; failed only from queued or sent, and never left', () => {
    expect(nextStatus('queued', 'sent')).to.equal('sent');
    expect(nextStatus('queued', 'delivered')).to.equal('delivered');
    expect(nextStatus('delivered', 'sent')).to.equal(null);
    expect(nextStatus('read', 'delivered')).to.equal(null);
    expect(nextStatus('sent', 'sent')).to.equal(null);
    expect(nextStatus('sent', 'failed')).to.equal('failed');
    expect(nextStatus('delivered', 'failed')).to.equal(null);
    expect(nextStatus('failed', 'delivered')).to.equal(null);
  });

  it('counts the WhatsApp window in whole seconds: open at 23:59:59, closed at 24:00:00', () => {
    const received = Date.UTC(2026, 0, 1, 12, 0, 0, 700);
    expect(windowClosesAt(received)).to.equal(Date.UTC(2026, 0, 2, 12, 0, 0) / 1000);
    expect(windowOpen(received, Date.UTC(2026, 0, 2, 11, 59, 59, 999))).to.equal(true);
    expect(windowOpen(received, Date.UTC(2026, 0, 2, 12, 0, 0, 0))).to.equal(false);
    expect(windowOpen(null, received)).to.equal(false);
  });

  it('knows the opt-out and opt-in words of each channel, as a whole message', () => {
    expect(keywordOf('sms', ' stop ')).to.equal('opt_out');
    expect(keywordOf('sms', 'Cancel')).to.equal('opt_out');
    expect(keywordOf('whatsapp', 'Cancel'), 'a request in a chat, not an opt-out').to.equal(null);
    expect(keywordOf('whatsapp', 'UNSUBSCRIBE!')).to.equal('opt_out');
    expect(keywordOf('sms', 'unstop')).to.equal('opt_in');
    expect(keywordOf('whatsapp', 'start')).to.equal('opt_in');
    expect(keywordOf('sms', 'please stop calling')).to.equal(null);
  });

  it('checks and renders template placeholders', () => {
    expect(placeholderCount('Hi {{1}}, at {{2}} ({{1}})')).to.equal(2);
    expect(placeholderCount('No variables')).to.equal(0);
    expect(placeholderCount('Skips {{1}} {{3}}')).to.equal(null);
    expect(renderTemplateBody('Hi {{1}}, at {{ 2 }}.', ['Ana', '10:00'])).to.equal('Hi Ana, at 10:00.');
    expect(renderUnregisteredTemplate('reminder', 'en', ['a', 'b'])).to.equal('[reminder (en)] a | b');
  });

  it('names one workflow per organization, mode, channel and customer number', () => {
    expect(conversationWorkflowId('org_1', false, 'whatsapp', '+14155550123')).to.equal(
      'conv:org_1:test:whatsapp:+14155550123',
    );
    expect(conversationWorkflowId('org_1', true, 'sms', '+14155550123')).to.equal('conv:org_1:live:sms:+14155550123');
  });

  it("shows a person's messages to the assistant as notes, not as its own words", () => {
    expect(chatMessageOf('customer', 'hi')).to.deep.equal({ role: 'user', content: 'hi' });
    expect(chatMessageOf('assistant', 'hello')).to.deep.equal({ role: 'assistant', content: 'hello' });
    expect(chatMessageOf('person', 'Sam here')).to.deep.equal({
      role: 'system',
      content: 'A person of the organization wrote to the customer: "Sam here"',
    });
  });

  it('has the demo model hand a text conversation over when the customer asks for a person', () => {
    const reply = demoReply(
      [
        { role: 'system', content: 'You are "Desk"' },
        { role: 'user', content: 'Can I talk to a human?' },
      ],
      ['handoff_to_person'],
    );
    expect(reply.toolCall?.name).to.equal('handoff_to_person');
    expect(JSON.parse(reply.toolCall!.arguments)).to.deep.equal({ reason: 'The customer asked for a person.' });
  });
});
