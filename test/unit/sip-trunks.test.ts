/**
 * SIP trunks' pure rules (src/shared/sip-trunks.ts): the termination URIs taken (Twilio's BYOC targets
 * take `sip:` only), the SIP URI a call through a trunk dials, and the number a SIP `To` names; and the
 * fake Twilio's check of Voice v1 requests against twilio-oai (test/support/twilio-oai.ts).
 */
import { expect } from 'chai';
import { numberOfSipTo, parseTerminationUri, trunkDialUri } from '../../src/shared/sip-trunks';
import { twilioOaiRefusal } from '../support/twilio-oai';

describe('SIP trunk URIs', () => {
  it('takes sip:<host>[:port][;params] and dials sip:<E.164>@ that host', () => {
    const cases: [string, string][] = [
      ['sip:carrier.example', 'sip:+14155550100@carrier.example'],
      ['sip:pbx.example.com:5061;transport=tls', 'sip:+14155550100@pbx.example.com:5061;transport=tls'],
      ['sip:203.0.113.7;region=ie1;edge=dublin', 'sip:+14155550100@203.0.113.7;region=ie1;edge=dublin'],
      ['sip:[2001:db8::1]:5060', 'sip:+14155550100@[2001:db8::1]:5060'],
    ];
    for (const [uri, dialed] of cases) {
      const parsed = parseTerminationUri(uri);
      expect(parsed, uri).not.to.have.property('error');
      expect(trunkDialUri('+14155550100', parsed as Exclude<typeof parsed, { error: string }>)).to.equal(dialed);
    }
  });

  it('refuses other schemes, sips:, a user part, headers, no host, a bad port', () => {
    for (const uri of [
      'http://carrier.example',
      'sips:carrier.example',
      'sip:',
      'sip:;transport=tls',
      'sip:alice@carrier.example',
      'sip:carrier.example?X-Header=1',
      'sip:carrier.example:0',
      'sip:carrier.example:65536',
      'sip:-bad.example',
      'sip:carrier example',
      'sip:' + 'a'.repeat(250) + '.example',
    ])
      expect(parseTerminationUri(uri), uri).to.have.property('error');
  });

  it('reads the E.164 number of a SIP To, and leaves anything else as it is', () => {
    expect(numberOfSipTo('sip:+14155550100@svc.sip.twilio.com')).to.equal('+14155550100');
    expect(numberOfSipTo('sip:+14155550100@10.0.0.1:5060;transport=tcp')).to.equal('+14155550100');
    expect(numberOfSipTo('+14155550100')).to.equal('+14155550100');
    expect(numberOfSipTo('sip:alice@example.com')).to.equal('sip:alice@example.com');
    expect(numberOfSipTo('client:alice')).to.equal('client:alice');
  });

  it('the fake checks Voice v1 BYOC requests against twilio-oai', () => {
    expect(
      twilioOaiRefusal('POST', '/v1/ByocTrunks', [], ['FriendlyName', 'VoiceUrl', 'ConnectionPolicySid']),
    ).to.equal(null);
    expect(
      twilioOaiRefusal('POST', '/v1/ConnectionPolicies/NY' + '0'.repeat(32) + '/Targets', [], ['Target']),
    ).to.equal(null);
    expect(twilioOaiRefusal('POST', '/v1/ByocTrunks', [], ['FriendlyName', 'Colour'])).to.include('Colour');
    expect(twilioOaiRefusal('GET', '/v1/ByocTrunks', ['FriendlyName'], [])).to.include('FriendlyName');
    expect(twilioOaiRefusal('GET', '/v1/Nothing', [], [])).to.include('no path');
  });
});
