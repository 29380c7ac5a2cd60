/** Unit tests of the calls domain's pure rules: E.164 numbers (src/api/validation.ts) and transfer targets (src/shared/calls.ts). */
import { expect } from 'chai';
import { isE164 } from '../../src/api/validation';
import { isTransferTarget } from '../../src/shared/calls';

describe('phone numbers and transfer targets', () => {
  it('accepts only valid numbers written in E.164', () => {
    expect(isE164('+14155550123')).to.equal(true);
    expect(isE164('+442071838750')).to.equal(true);
    for (const bad of ['14155550123', '+1 415 555 0123', '+1415555012', '+10000000000', '+1415555012345678', ''])
      expect(isE164(bad), bad).to.equal(false);
  });

  it('accepts E.164, sip: and client: transfer targets', () => {
    for (const ok of ['+14155550123', 'sip:desk@example.com', 'client:alice'])
      expect(isTransferTarget(ok), ok).to.equal(true);
    for (const bad of ['desk', 'sip:nohost', 'client:', 'tel:+1415'])
      expect(isTransferTarget(bad), bad).to.equal(false);
  });
});
