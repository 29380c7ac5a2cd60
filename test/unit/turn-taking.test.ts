/**
 * Unit tests of turn-taking (src/shared/turn-taking.ts): backchannels per language, the Realtime
 * session's `turn_detection` (typed against the `openai` package's own type), the yes/no reading of a
 * confirmation, and the `<ConversationRelay>` attributes of `turn_taking` (src/providers/twilio.ts).
 */
import { expect } from 'chai';
import type { RealtimeAudioInputTurnDetection } from 'openai/resources/realtime/realtime';
import { conversationRelayAttributes } from '../../src/providers/twilio';
import {
  backchannelsFor,
  confirmationOf,
  isBackchannel,
  realtimeTurnDetection,
  type TurnTaking,
} from '../../src/shared/turn-taking';

describe('turn-taking', () => {
  it('recognizes utterances made only of backchannels, per language', () => {
    const en = backchannelsFor(undefined, 'en-US');
    expect(isBackchannel('Mhmm.', en)).to.equal(true);
    expect(isBackchannel('uh-huh, yeah', en)).to.equal(true);
    expect(isBackchannel('OK!', en)).to.equal(true);
    expect(isBackchannel('I see', en)).to.equal(true);
    expect(isBackchannel('yeah, but on Friday', en)).to.equal(false);
    expect(isBackchannel('', en)).to.equal(false);
    const es = backchannelsFor(undefined, 'es-MX');
    expect(isBackchannel('Sí, claro', es)).to.equal(true);
    expect(isBackchannel('vale', backchannelsFor(undefined, 'en'))).to.equal(false);
    // The agent's own list replaces its language's default; [] switches them off; a full tag wins.
    const own: TurnTaking = { backchannels: { en: ['gotcha'], 'en-GB': ['righto'], fr: [] } };
    expect(backchannelsFor(own, 'en-US')).to.deep.equal(['gotcha']);
    expect(backchannelsFor(own, 'en-GB')).to.deep.equal(['righto']);
    expect(isBackchannel('ouais', backchannelsFor(own, 'fr-FR'))).to.equal(false);
    expect(backchannelsFor(own, 'de')).to.include('genau');
    // Unknown language: English's.
    expect(backchannelsFor(undefined, 'ja-JP')).to.include('mhmm');
  });

  it("builds the Realtime session's turn_detection from turn_taking (openai's type)", () => {
    const server: RealtimeAudioInputTurnDetection = realtimeTurnDetection({
      turn_detection: { type: 'server_vad', threshold: 0.6, prefix_padding_ms: 200, silence_duration_ms: 700 },
      interrupt_response: false,
    });
    expect(server).to.deep.equal({
      type: 'server_vad',
      threshold: 0.6,
      prefix_padding_ms: 200,
      silence_duration_ms: 700,
      interrupt_response: false,
      create_response: true,
    });
    const semantic: RealtimeAudioInputTurnDetection = realtimeTurnDetection({
      turn_detection: { type: 'semantic_vad', eagerness: 'high' },
    });
    expect(semantic).to.deep.equal({ type: 'semantic_vad', eagerness: 'high', create_response: true });
    expect(realtimeTurnDetection(undefined)).to.deep.equal({ type: 'server_vad', create_response: true });
    expect(realtimeTurnDetection({ interrupt_response: true })).to.deep.equal({
      type: 'server_vad',
      interrupt_response: true,
      create_response: true,
    });
  });

  it('reads a yes only when it is unambiguous', () => {
    expect(confirmationOf('Yes, please do.', 'en-US')).to.equal('yes');
    expect(confirmationOf("That's right", undefined)).to.equal('yes');
    expect(confirmationOf('No, not yet.', 'en')).to.equal('no');
    expect(confirmationOf('Yes, but wait', 'en')).to.equal('no');
    expect(confirmationOf('What time was it again?', 'en')).to.equal('other');
    expect(confirmationOf('Sí, adelante', 'es-ES')).to.equal('yes');
    expect(confirmationOf('Non, merci', 'fr')).to.equal('no');
    expect(confirmationOf('Ja, genau', 'de-DE')).to.equal('yes');
    expect(confirmationOf('Nein danke', 'de')).to.equal('no');
    // English counts in every language.
    expect(confirmationOf('yes', 'de')).to.equal('yes');
  });

  it("puts turn_taking's pipeline settings into <ConversationRelay>; the older interruptible still works", () => {
    expect(conversationRelayAttributes({ interruptible: 'speech' })).to.deep.equal({
      interruptible: 'speech',
      welcomeGreetingInterruptible: 'speech',
    });
    expect(
      conversationRelayAttributes({
        interruptible: 'any',
        transcription: { provider: 'Deepgram', hints: ['Acme'] },
        turn_taking: {
          interruptible: 'dtmf',
          preemptible: false,
          interrupt_sensitivity: 'low',
          speech_model: 'nova-3-general',
          hints: ['Zyrtec'],
          turn_detection: { type: 'semantic_vad' },
        },
      }),
    ).to.deep.equal({
      transcriptionProvider: 'Deepgram',
      hints: 'Acme,Zyrtec',
      interruptible: 'dtmf',
      welcomeGreetingInterruptible: 'dtmf',
      preemptible: false,
      interruptSensitivity: 'low',
      speechModel: 'nova-3-general',
    });
    // An empty turn_taking (every call made since it exists) adds nothing.
    expect(conversationRelayAttributes({ turn_taking: {} })).to.deep.equal({});
  });
});
