/**
 * The embedded FerretDB's SQLite `synchronous` setting (src/dev/infra.ts
 * `embeddedStoreSync`): `normal` unless `EMBEDDED_STORE_SYNC` says `full`; anything else is refused by name.
 */
import { expect } from 'chai';
import { embeddedStoreSync } from '../../src/dev/infra';

describe('embedded store: EMBEDDED_STORE_SYNC', () => {
  it('is normal by default, full or normal when set (any case), and refuses anything else naming the variable', () => {
    expect(embeddedStoreSync({})).to.equal('normal');
    expect(embeddedStoreSync({ EMBEDDED_STORE_SYNC: 'FULL' })).to.equal('full');
    expect(embeddedStoreSync({ EMBEDDED_STORE_SYNC: 'normal' })).to.equal('normal');
    expect(() => embeddedStoreSync({ EMBEDDED_STORE_SYNC: 'off' })).to.throw(
      /EMBEDDED_STORE_SYNC must be normal or full; got "off"/,
    );
  });
});
