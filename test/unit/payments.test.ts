/**
 * Unit tests of what is kept of a card payment (src/services/payments.ts, src/shared/payments.ts) and of
 * the card-only redaction applied whatever the organization's setting (src/redaction.ts `kinds`).
 */
import { expect } from 'chai';
import twilio from 'twilio';
import { redactText } from '../../src/redaction';
import { payResultOf, payTwiml, stripLongDigitRuns } from '../../src/services/payments';
import { paymentStatusOf, paymentSummary } from '../../src/shared/payments';
import { parseToolArguments } from '../../src/shared/tools';

const ids = { attempt: 1764400000000, providerCallSid: 'CA' + 'ab'.repeat(16) };

describe('card payments: what is kept', () => {
  it("keeps the status, the masked number's last four and the confirmation code of a <Pay> action", () => {
    expect(
      payResultOf(
        {
          Result: 'success',
          PaymentCardNumber: 'xxxxxxxxxxxx1111',
          PaymentConfirmationCode: 'ch_3NqX',
          PaymentToken: 'tok_secret',
          ExpirationDate: '1230',
        },
        ids,
      ),
    ).to.deep.equal({ ...ids, status: 'succeeded', result: 'success', last4: '1111', confirmationCode: 'ch_3NqX' });
  });

  it('keeps no card number a connector echoes unmasked, nor a digit run of 12 or more anywhere it reads', () => {
    const r = payResultOf(
      { Result: 'success', PaymentCardNumber: '4111111111111111', PaymentConfirmationCode: 'ok 4111-1111-1111-1111' },
      ids,
    );
    expect(r.last4).to.equal(null);
    expect(r.confirmationCode).to.equal('ok [digits]');
    expect(JSON.stringify({ ...r, attempt: 0 })).not.to.match(/\d{12,}/);
    expect(stripLongDigitRuns('ref 123456789012 and 12345678901')).to.equal('ref [digits] and 12345678901');
    expect(payResultOf({ Result: '<script>', PaymentCardNumber: 'xxxx1111' }, ids)).to.include({
      result: 'unknown',
      status: 'failed',
    });
  });

  it("maps Twilio's results to statuses, and tells the model the outcome only", () => {
    expect(
      ['success', 'caller-hung-up', 'caller-interrupted-with-star', 'payment-connector-error'].map(paymentStatusOf),
    ).to.deep.equal(['succeeded', 'canceled', 'canceled', 'failed']);
    const base = { attempt: 1, amount: '5.00', currency: 'EUR', description: 'x', result: 'success' };
    expect(paymentSummary({ ...base, status: 'succeeded', last4: '4242', confirmation_code: 'ch_1' })).to.match(
      /^Payment succeeded: 5\.00 EUR charged to the card ending 4242, confirmation code ch_1\./,
    );
    expect(
      paymentSummary({
        ...base,
        status: 'failed',
        result: 'payment-connector-error',
        last4: null,
        confirmation_code: null,
      }),
    ).to.match(/^Error: the payment failed \(payment-connector-error\); nothing was charged\./);
  });

  it('writes <Pay> with the connector, the amount and its action', () => {
    const response = new twilio.twiml.VoiceResponse();
    payTwiml(response, {
      callId: 'call_x',
      attempt: 7,
      connector: 'stripe',
      amount: '24.99',
      currency: 'USD',
      description: 'Order',
    });
    const xml = response.toString();
    expect(xml).to.match(/<Pay [^>]*paymentConnector="stripe"/);
    expect(xml).to.include('chargeAmount="24.99"').and.include('currency="usd"').and.include('/twilio/pay/call_x/7"');
  });

  it('checks collect_payment arguments: a positive decimal amount, an ISO 4217 code', () => {
    const ok = parseToolArguments('collect_payment', '{"amount":"24.99","currency":"usd","description":"Order 1"}');
    expect(ok.ok).to.equal(true);
    for (const bad of [
      '{"amount":"0","currency":"USD","description":"x"}',
      '{"amount":"2,50","currency":"USD","description":"x"}',
      '{"amount":"2.5","currency":"dollars","description":"x"}',
    ])
      expect(parseToolArguments('collect_payment', bad).ok, bad).to.equal(false);
  });

  it('redacts card numbers alone when asked for cards only (redaction off)', () => {
    const text = 'Card 4111 1111 1111 1111, mail jane@example.com, call 212-555-0147.';
    expect(redactText(text, { kinds: ['card'] })).to.deep.equal({
      text: 'Card [card], mail jane@example.com, call 212-555-0147.',
      counts: { card: 1 },
    });
    expect(redactText(text).text).to.equal('Card [card], mail [email], call [phone].');
  });
});
