/** Unit tests of the assistant's tool table (src/workflows/tools.ts) and of the offline demo model (src/dev/demo-model.ts). */
import { expect } from 'chai';
import { applyTool, type ToolEffect } from '../../src/workflows/tools';
import { callSystemPrompt } from '../../src/shared/assistant';
import { demoReply } from '../../src/dev/demo-model';

describe('demo model rules', () => {
  const system = { role: 'system', content: 'You are "Ava", speaking…\nTransfer destination: +14155550199' };
  it('ends on goodbye, transfers on request, otherwise answers', () => {
    expect(demoReply([system, { role: 'user', content: 'Okay, goodbye!' }], ['end_call']).toolCall?.name).to.equal(
      'end_call',
    );
    const transfer = demoReply([system, { role: 'user', content: 'Can I talk to a person?' }], ['transfer_call']);
    expect(transfer.toolCall).to.deep.equal({ name: 'transfer_call', arguments: '{}' });
    const named = demoReply(
      [
        {
          role: 'system',
          content: 'You are "Ava".\nTransfer destinations (name one in transfer_call): billing (Bills); sales',
        },
        { role: 'user', content: 'Transfer me please' },
      ],
      ['transfer_call'],
    );
    expect(named.toolCall).to.deep.equal({ name: 'transfer_call', arguments: '{"destination":"billing"}' });
    const hello = demoReply([system, { role: 'user', content: 'Hello?' }], ['end_call']);
    expect(hello.toolCall).to.equal(undefined);
    expect(hello.content).to.contain('Ava');
  });
});

describe('system prompt', () => {
  it('carries the instructions, the context and the transfer destination', () => {
    const prompt = callSystemPrompt({
      agent: { name: 'Ava', instructions: 'Confirm the booking.', transfer_to: '+14155550199' },
      to: '+14155550123',
      context: { booking: 'B-17' },
    });
    expect(prompt)
      .to.contain('Confirm the booking.')
      .and.contain('"booking": "B-17"')
      .and.contain('Transfer destination: +14155550199');
  });
});

describe('tool table', () => {
  const tools = { end_call: () => ({ summary: 'Call ended.', ends: true }) };
  it('applies an offered tool and answers unknown tools and bad JSON to the model', () => {
    expect(applyTool(tools, { id: 't1', name: 'end_call', arguments: '{}' })).to.deep.equal({
      summary: 'Call ended.',
      ends: true,
    });
    expect((applyTool(tools, { id: 't2', name: 'transfer_call', arguments: '{}' }) as ToolEffect).summary).to.match(
      /not available/,
    );
    expect(applyTool(tools, { id: 't3', name: 'end_call', arguments: '{nope' })).to.deep.equal({
      summary: 'Error: the arguments of end_call are not valid JSON.',
      ends: false,
    });
  });
});
