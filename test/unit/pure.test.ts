/** Unit tests of pure helpers: ids, E.164, transfer targets, the demo model's rules, the system prompt. */
import { expect } from 'chai';
import { idTime, isId, newId } from '../../src/shared/ids';
import { isE164 } from '../../src/api/validation';
import { isTransferTarget } from '../../src/shared/calls';
import { demoReply } from '../../src/dev/demo-model';
import { callSystemPrompt } from '../../src/workflows/assistant';

describe('ids', () => {
  it('are prefixed, time-ordered and decode their time', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0);
    const a = newId('call', t);
    const b = newId('call', t + 1);
    expect(isId('call', a)).to.equal(true);
    expect(a < b).to.equal(true);
    expect(idTime(a)).to.equal(t);
  });

  it('stay ordered within one millisecond and when the clock steps back', () => {
    const t = Date.UTC(2030, 0, 1);
    const ids = [newId('evt', t), newId('evt', t), newId('evt', t), newId('evt', t - 5)];
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(4);
  });
});

describe('phone numbers and transfer targets', () => {
  it('accepts only valid numbers written in E.164', () => {
    expect(isE164('+14155550123')).to.equal(true);
    expect(isE164('+442071838750')).to.equal(true);
    for (const bad of ['14155550123', '+1 415 555 0123', '+1415555012', '+10000000000', '+1415555012345678', '']) expect(isE164(bad), bad).to.equal(false);
  });

  it('accepts E.164, sip: and client: transfer targets', () => {
    for (const ok of ['+14155550123', 'sip:desk@example.com', 'client:alice']) expect(isTransferTarget(ok), ok).to.equal(true);
    for (const bad of ['desk', 'sip:nohost', 'client:', 'tel:+1415']) expect(isTransferTarget(bad), bad).to.equal(false);
  });
});

describe('demo model rules', () => {
  const system = { role: 'system', content: 'You are "Ava", speaking…\nTransfer destination: +14155550199' };
  it('ends on goodbye, transfers on request, otherwise answers', () => {
    expect(demoReply([system, { role: 'user', content: 'Okay, goodbye!' }], ['end_call']).toolCall?.name).to.equal('end_call');
    const transfer = demoReply([system, { role: 'user', content: 'Can I talk to a person?' }], ['transfer_call']);
    expect(transfer.toolCall).to.deep.equal({ name: 'transfer_call', arguments: '{"to":"+14155550199"}' });
    const hello = demoReply([system, { role: 'user', content: 'Hello?' }], ['end_call']);
    expect(hello.toolCall).to.equal(undefined);
    expect(hello.content).to.contain('Ava');
  });
});

describe('system prompt', () => {
  it('carries the instructions, the context and the transfer destination', () => {
    const prompt = callSystemPrompt({
      agent: { id: 'agt_x', name: 'Ava', instructions: 'Confirm the booking.', first_message: null, model: null, transfer_to: '+14155550199' },
      to: '+14155550123',
      context: { booking: 'B-17' },
    });
    expect(prompt).to.contain('Confirm the booking.').and.contain('"booking": "B-17"').and.contain('Transfer destination: +14155550199');
  });
});
