/**
 * Recording consent and AI disclosure, the pure parts: the US all-party-consent area codes against
 * Google's libphonenumber geocoding data, the jurisdiction of numbers, the decision of a new call, how a
 * caller's answer is understood, and the opening's turns.
 */
import { expect } from 'chai';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { geocoder } from 'libphonenumber-geo-carrier';
import {
  classifyConsentAnswer,
  consentJurisdiction,
  decideRecordingConsent,
  numberJurisdiction,
  US_ALL_PARTY_CONSENT_AREA_CODES,
} from '../../src/services/recording-consent';
import { openingSentences, openingTurns, spokenOpening } from '../../src/shared/recording-consent';

const STATE_NAMES: Record<string, string> = {
  California: 'CA',
  Connecticut: 'CT',
  Delaware: 'DE',
  Florida: 'FL',
  Illinois: 'IL',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Montana: 'MT',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  Pennsylvania: 'PA',
  'Washington State': 'WA',
};

describe('recording consent (unit)', function () {
  this.timeout(60_000);

  it('lists every area code the geocoder places in an all-party-consent state', async function () {
    this.timeout(300_000); // 1,600 lookups of the geocoder's data
    const found: Record<string, number[]> = {};
    for (let npa = 200; npa <= 999; npa++) {
      for (const nxx of [234, 627]) {
        const parsed = parsePhoneNumberFromString(`+1${npa}${nxx}1234`);
        if (!parsed || parsed.country !== 'US') continue;
        const place = await geocoder(parsed);
        if (!place) continue;
        const state = /, ([A-Z]{2})$/.exec(place)?.[1] ?? STATE_NAMES[place];
        if (state && state in US_ALL_PARTY_CONSENT_AREA_CODES) {
          (found[state] ??= []).includes(npa) || found[state].push(npa);
        }
      }
    }
    for (const [state, codes] of Object.entries(found))
      for (const code of codes) expect(US_ALL_PARTY_CONSENT_AREA_CODES[state], `${code} (${state})`).to.include(code);
  });

  it('places numbers: US states by area code, notice countries, nothing elsewhere', () => {
    expect(numberJurisdiction('+14155550123')).to.equal('US-CA');
    expect(numberJurisdiction('+13055550123')).to.equal('US-FL');
    expect(numberJurisdiction('+12065550123')).to.equal('US-WA');
    expect(numberJurisdiction('+12125550123'), 'New York: one-party').to.equal(null);
    expect(numberJurisdiction('+15035550123'), 'Oregon: phone calls one-party').to.equal(null);
    expect(numberJurisdiction('+15005550006'), 'non-geographic').to.equal(null);
    expect(numberJurisdiction('+442071234567')).to.equal('GB');
    expect(numberJurisdiction('+447911123456'), 'Guernsey shares +44').to.equal('GG');
    expect(numberJurisdiction('+4930123456')).to.equal('DE');
    expect(numberJurisdiction('+14165550123')).to.equal('CA');
    expect(numberJurisdiction('+61291234567')).to.equal('AU');
    expect(numberJurisdiction('+5215512345678'), 'Mexico').to.equal(null);
    expect(numberJurisdiction(null)).to.equal(null);
    expect(consentJurisdiction(['+12125550123', '+14155550100']), 'either party').to.equal('US-CA');
  });

  it('decides a new call: announce by default where consent applies, the configured mode otherwise', () => {
    const base = { notice: null, language: null, recorded: true };
    expect(decideRecordingConsent({ ...base, configured: null, numbers: ['+14155550123', null] })).to.include({
      mode: 'announce',
      configured: false,
      jurisdiction: 'US-CA',
      recording: 'on',
      words: 'This call is recorded.',
    });
    expect(decideRecordingConsent({ ...base, configured: null, numbers: ['+12125550123', null] })).to.include({
      mode: 'none',
      recording: 'on',
      words: null,
    });
    expect(
      decideRecordingConsent({ ...base, configured: 'announce', numbers: ['+12125550123'], notice: 'Recorded.' }),
    ).to.include({ mode: 'announce', configured: true, words: 'Recorded.' });
    expect(
      decideRecordingConsent({ ...base, configured: 'ask', numbers: ['+12125550123'], language: 'de-DE' }),
    ).to.include({
      mode: 'ask',
      asked: true,
      recording: 'off',
      words: 'Darf ich dieses Gespräch aufzeichnen? Bitte sagen Sie ja oder nein.',
      language: 'de',
    });
    expect(decideRecordingConsent({ ...base, configured: 'off', numbers: ['+14155550123'] })).to.include({
      mode: 'off',
      recording: 'off',
      words: null,
    });
    // A call that is not recorded says nothing about recording, whatever the jurisdiction.
    expect(
      decideRecordingConsent({ ...base, recorded: false, configured: null, numbers: ['+14155550123'] }),
    ).to.include({
      mode: 'none',
      recording: 'off',
      words: null,
    });
  });

  it("understands a caller's answer per language; a doubt is never a yes", () => {
    const cases: [string, string | null, string][] = [
      ['Yes, that is fine.', 'en-US', 'yes'],
      ['Sure, go ahead', null, 'yes'],
      ['No problem at all', 'en', 'yes'],
      ["I don't mind", 'en', 'yes'],
      ['No, please do not record me.', 'en', 'no'],
      ["I'd rather not", 'en', 'no'],
      ['Yes... actually no.', 'en', 'no'],
      ['Hello?', 'en', 'unclear'],
      ['', 'en', 'unclear'],
      ['Know what, okay', 'en', 'yes'],
      ['Sí, claro', 'es-MX', 'yes'],
      ['No, gracias', 'es', 'no'],
      ['No hay problema', 'es', 'yes'],
      ['Oui, d’accord', 'fr-FR', 'yes'],
      ['Non merci', 'fr', 'no'],
      ['Ja, gerne', 'de', 'yes'],
      ['Nein, lieber nicht', 'de', 'no'],
      ['Kein Problem', 'de', 'yes'],
      ['はい、大丈夫です', 'ja-JP', 'yes'],
      ['いいえ', 'ja', 'no'],
      ['可以', 'zh-CN', 'yes'],
      ['不可以', 'zh', 'no'],
      ['没问题', 'zh', 'yes'],
      ['OK', 'pt-BR', 'yes'],
    ];
    for (const [text, language, expected] of cases)
      expect(classifyConsentAnswer(text, language), `${text} (${language})`).to.equal(expected);
  });

  it('puts the opening together: the disclosure first, the consent words, the notice, the first message', () => {
    const consent = decideRecordingConsent({
      configured: null,
      recorded: true,
      notice: null,
      numbers: ['+14155550123'],
      language: 'en-US',
    });
    const disclosure = openingSentences('en-US').disclosure;
    expect(openingTurns({ aiDisclosure: disclosure, recordingConsent: consent, firstMessage: 'Hi.' })).to.deep.equal({
      opening: "You're speaking with an automated assistant. This call is recorded.",
      notice: null,
      firstMessage: 'Hi.',
    });
    const ask = { ...consent, mode: 'ask' as const, recording: 'off' as const, words: 'May I record this call?' };
    expect(
      spokenOpening({ aiDisclosure: disclosure, recordingConsent: ask, notice: 'N.', firstMessage: 'Hi.' }),
    ).to.equal("You're speaking with an automated assistant. May I record this call?");
    // A call made before consent and the disclosure existed: the notice, then the first message, as before.
    expect(openingTurns({ notice: 'Recorded.', firstMessage: 'Hi.' })).to.deep.equal({
      opening: null,
      notice: 'Recorded.',
      firstMessage: 'Hi.',
    });
    expect(openingSentences('es-ES').disclosure).to.equal('Está hablando con un asistente automático.');
    expect(openingSentences('xx').disclosure, 'English fallback').to.equal(disclosure);
  });
});
