/**
 * The fake Twilio's check of requests against Twilio's published OpenAPI description of the 2010 API
 * (test/support/twilio-oai.ts, from twilio-oai): a parameter Twilio does not take is refused, at the
 * checker and at the fake's HTTP door, so a test whose service code sent one would fail.
 */
import { expect } from 'chai';
import { twilioOaiRefusal, twilioOaiVersion } from '../support/twilio-oai';
import { startFakeTwilio } from '../support/fake-twilio';

const ACCOUNT = 'AC' + '0'.repeat(32);
const CALLS = `/2010-04-01/Accounts/${ACCOUNT}/Calls.json`;

describe('the fake Twilio checks requests against twilio-oai', () => {
  it('names its source and version', () => {
    const { source, version } = twilioOaiVersion();
    expect(source).to.include('twilio/twilio-oai');
    expect(version).to.match(/twilio-oai \d+\.\d+\.\d+/);
  });

  it('takes the parameters the operation lists', () => {
    expect(twilioOaiRefusal('POST', CALLS, [], ['To', 'From', 'Url', 'StatusCallbackEvent', 'AsyncAmd'])).to.equal(
      null,
    );
    expect(twilioOaiRefusal('GET', CALLS, ['To', 'From', 'PageSize'], [])).to.equal(null);
    expect(twilioOaiRefusal('GET', '/2010-04-01/Accounts.json', ['FriendlyName'], [])).to.equal(null);
    expect(
      twilioOaiRefusal(
        'POST',
        `/2010-04-01/Accounts/${ACCOUNT}/Calls/CA${'1'.repeat(32)}/Recordings/Twilio.CURRENT.json`,
        [],
        ['Status', 'PauseBehavior'],
      ),
    ).to.equal(null);
  });

  it('refuses a form or query parameter the operation does not take, a method or a path Twilio lacks', () => {
    expect(twilioOaiRefusal('POST', CALLS, [], ['To', 'From', 'Url', 'CallerName'])).to.include('CallerName');
    expect(twilioOaiRefusal('GET', CALLS, ['Direction'], [])).to.include('Direction');
    expect(twilioOaiRefusal('DELETE', CALLS, [], [])).to.include('no DELETE');
    expect(twilioOaiRefusal('GET', `/2010-04-01/Accounts/${ACCOUNT}/Nothing.json`, [], [])).to.include('no path');
  });

  it('answers 400 at the fake for such a request, and lists it', async () => {
    const fake = await startFakeTwilio();
    try {
      const auth = `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`;
      const post = (form: Record<string, string>) =>
        fetch(`${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Calls.json`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
      const bad = await post({ To: '+14155550123', From: '+14155550100', Url: 'https://x.test/', Colour: 'red' });
      expect(bad.status).to.equal(400);
      expect(((await bad.json()) as { message: string }).message).to.include('Colour');
      expect(fake.oaiRefusals.map((r) => r.reason).join()).to.include('Colour');
      expect(fake.created, 'no call created').to.have.length(0);
      const good = await post({ To: '+14155550123', From: '+14155550100', Url: 'https://x.test/' });
      expect(good.status).to.equal(201);
    } finally {
      await fake.close();
    }
  });
});
