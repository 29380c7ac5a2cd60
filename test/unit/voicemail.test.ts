/**
 * Unit tests of the voicemail rules: what Twilio's `AnsweredBy` means, the setting a call
 * follows, a campaign contact's result for a call a machine answered, and which attempt of a campaign
 * leaves the message under `leave_message_on: "last_attempt"`.
 */
import { expect } from 'chai';
import { countBucket, resultOfCall } from '../../src/shared/bulk-calls';
import { answeredByOf, effectiveVoicemail, TWILIO_ANSWERED_BY, type VoicemailSetting } from '../../src/shared/calls';
import { attemptVoicemail } from '../../src/services/bulk-calls';

const LEAVE: VoicemailSetting = {
  detection: true,
  action: 'leave_message',
  message: 'Call us back.',
  leave_message_on: 'last_attempt',
};

describe('voicemail rules', () => {
  it("maps Twilio's AnsweredBy values: machines and faxes are machines", () => {
    expect(TWILIO_ANSWERED_BY.map(answeredByOf)).to.deep.equal([
      'human',
      'machine',
      'machine',
      'machine',
      'machine',
      'machine',
      'unknown',
    ]);
  });

  it("follows the call's own setting, else its agent's, else none", () => {
    const agent = { id: 'agt_1', name: 'A', instructions: 'x', first_message: null, model: null, transfer_to: null };
    expect(effectiveVoicemail({ agent })).to.equal(null);
    expect(effectiveVoicemail({ agent: { ...agent, voicemail: LEAVE } })).to.equal(LEAVE);
    const own: VoicemailSetting = { detection: true, action: 'hang_up' };
    expect(effectiveVoicemail({ agent: { ...agent, voicemail: LEAVE }, voicemail: own })).to.equal(own);
  });

  it('says voicemail for a completed call a machine answered, counted as not reached', () => {
    expect(resultOfCall('completed', 'voicemail')).to.equal('voicemail');
    expect(resultOfCall('completed', 'caller_hung_up')).to.equal('completed');
    expect(resultOfCall('completed')).to.equal('completed');
    expect(countBucket('voicemail')).to.equal('not_reached');
  });

  it('leaves the message on the last attempt only, when voicemail is redialed', () => {
    const retry = { max_attempts: 3, on: ['voicemail'] };
    expect(attemptVoicemail(LEAVE, retry, 1)).to.deep.equal({ ...LEAVE, action: 'hang_up' });
    expect(attemptVoicemail(LEAVE, retry, 2)?.action).to.equal('hang_up');
    expect(attemptVoicemail(LEAVE, retry, 3)).to.equal(LEAVE);
    expect(attemptVoicemail(LEAVE, { max_attempts: 3, on: ['busy'] }, 1), 'never redialed: leave it').to.equal(LEAVE);
    const every = { ...LEAVE, leave_message_on: 'every_attempt' as const };
    expect(attemptVoicemail(every, retry, 1)).to.equal(every);
    expect(attemptVoicemail(null, retry, 1)).to.equal(null);
  });
});
