/**
 * Pricing arithmetic (src/pricing): price strings to micro-units, tokens per million rounded half up,
 * realtime audio tokens, dated model names, Twilio's negative price strings, country rates and the
 * default, and the table's validation naming each problem's JSON path. Amounts are worked out here from
 * the tables' own numbers.
 */
import { expect } from 'chai';
import { callCost, countryOf, modelCost, perMillion, type TokenUse } from '../../src/pricing/costs';
import { fromMicros, loadPriceTable, parsePriceTable, toMicros } from '../../src/pricing/prices';
import defaultTable from '../../src/pricing/prices.default.json';

const none = { input: 0, cachedInput: 0, output: 0, audioInput: 0, audioCachedInput: 0, audioOutput: 0 };
const use = (model: string, parts: Partial<TokenUse>): TokenUse => ({ model, ...none, ...parts });

describe('pricing', () => {
  const table = loadPriceTable();

  it('turns decimal strings into micro-units and back, exactly', () => {
    expect(toMicros('0.0140')).to.equal(14_000);
    expect(toMicros('2.50')).to.equal(2_500_000);
    expect(toMicros('12')).to.equal(12_000_000);
    expect(toMicros('0.000001')).to.equal(1);
    expect(fromMicros(74_230)).to.equal('0.074230');
    expect(fromMicros(12_000_001)).to.equal('12.000001');
  });

  it('prices tokens per million, rounded half up to the micro-unit', () => {
    expect(perMillion(1_000_000, 2_500_000)).to.equal(2_500_000);
    expect(perMillion(1, 400_000)).to.equal(0); // 0.4 micro-unit
    expect(perMillion(1, 500_000)).to.equal(1); // 0.5 → 1
    expect(perMillion(3, 150_000)).to.equal(0); // 0.45
    expect(perMillion(7, 150_000)).to.equal(1); // 1.05
  });

  it("prices a realtime model's text and audio tokens apart, and a dated model name as its model", () => {
    const rt = defaultTable.models['gpt-realtime'];
    const million = 1_000_000;
    const cost = modelCost(table, [
      use('gpt-realtime', {
        input: million,
        audioInput: million,
        audioCachedInput: million,
        output: million,
        audioOutput: million,
      }),
    ]);
    expect(cost).to.equal(
      toMicros(rt.input) +
        toMicros(rt.audio_input) +
        toMicros(rt.audio_cached_input) +
        toMicros(rt.output) +
        toMicros(rt.audio_output),
    );
    expect(modelCost(table, [use('gpt-4o-mini-2024-07-18', { input: million })])).to.equal(
      toMicros(defaultTable.models['gpt-4o-mini'].input),
    );
    expect(modelCost(table, [use('no-such-model', { input: 1 })]), 'never a guessed price').to.equal(null);
    // Audio tokens on a model with no audio prices: unknown, not free.
    expect(modelCost(table, [use('gpt-4o', { audioInput: 10 })])).to.equal(null);
  });

  it("prices telephony by direction and the number's country, with Twilio's reported price first", () => {
    const base = { minutes: 3, sip: false, recorded: true, tokens: [] as TokenUse[] };
    const us = callCost(table, { ...base, direction: 'outbound', to: '+14155550123' });
    expect(countryOf('+14155550123')).to.equal('US');
    expect(us.telephony).to.equal(3 * toMicros(defaultTable.telephony.per_minute.outbound.US));
    expect(us.recording).to.equal(3 * toMicros(defaultTable.telephony.recording_per_minute));
    expect(us.total).to.equal(us.telephony + us.recording + us.platform + (us.model ?? 0));
    const gb = callCost(table, { ...base, direction: 'inbound', to: '+442071838750' });
    expect(countryOf('+442071838750')).to.equal('GB');
    expect(gb.telephony).to.equal(3 * toMicros(defaultTable.telephony.per_minute.inbound.GB));
    const elsewhere = callCost(table, { ...base, direction: 'outbound', to: '+81312345678' });
    expect(elsewhere.telephony).to.equal(3 * toMicros(defaultTable.telephony.per_minute.outbound.default));
    const sip = callCost(table, { ...base, direction: 'outbound', to: 'sip:desk@example.com', sip: true });
    expect(sip.telephony).to.equal(3 * toMicros(defaultTable.telephony.sip_per_minute));
    const twilio = callCost(table, {
      ...base,
      direction: 'outbound',
      to: '+14155550123',
      reported: { price: '-0.0420050', unit: 'USD' },
    });
    expect(twilio).to.include({ telephony: 42_005, source: 'twilio' });
    const euros = callCost(table, {
      ...base,
      direction: 'outbound',
      to: '+14155550123',
      reported: { price: '-0.04', unit: 'EUR' },
    });
    expect(euros.source, 'another currency: the table').to.equal('table');
  });

  it('names every problem of a malformed table by its JSON path', () => {
    const bad = JSON.parse(JSON.stringify(defaultTable));
    bad.models['gpt-4o'].input = '2,50';
    delete bad.telephony.per_minute.inbound.default;
    bad.currency = 'eur';
    expect(() => parsePriceTable(bad, 'prices.json'))
      .to.throw(/^price table prices\.json: /)
      .and.match(/models\.gpt-4o\.input: must be a decimal string/)
      .and.match(/telephony\.per_minute\.inbound: must have a "default" price/)
      .and.match(/currency: /);
    expect(() => loadPriceTable('/nonexistent/prices.json')).to.throw(/\/nonexistent\/prices\.json.*cannot be read/);
  });
});
