/**
 * Unit tests of the speech pieces: how an interruption cuts the assistant's turns
 * (src/shared/speech.ts `cutByInterruption`), the `<ConversationRelay>` attributes of an agent's speech
 * settings (src/providers/twilio.ts `conversationRelayAttributes`), the language check
 * (src/models/agents.ts `canonicalLanguage`) and `send_dtmf`'s digits (src/shared/tools.ts).
 */
import { expect } from 'chai';
import { canonicalLanguage } from '../../src/models/agents';
import { conversationRelayAttributes } from '../../src/providers/twilio';
import { cutByInterruption } from '../../src/shared/speech';
import { parseToolArguments } from '../../src/shared/tools';

describe('speech settings and interruptions', () => {
  it('cuts the turn during which the caller talked over the assistant, and the ones after it', () => {
    expect(cutByInterruption(['You said: hello there'], 'You said:')).to.deep.equal([
      { text: 'You said:', interrupted: true },
    ]);
    // A greeting of two turns (the recording notice, the first message), spoken with a space between.
    expect(
      cutByInterruption(['This call is recorded.', 'Hi, this is Acme.', 'More.'], 'This call is recorded. Hi,'),
    ).to.deep.equal([
      { text: 'This call is recorded.', interrupted: false },
      { text: 'Hi,', interrupted: true },
      { text: '', interrupted: true },
    ]);
    // Heard whole: the last turn keeps its text and is still marked.
    expect(cutByInterruption(['Done.'], 'Done.')).to.deep.equal([{ text: 'Done.', interrupted: true }]);
    expect(cutByInterruption(['Nothing heard.'], '')).to.deep.equal([{ text: '', interrupted: true }]);
  });

  it('maps the settings onto ConversationRelay attributes; unset ones add nothing', () => {
    expect(conversationRelayAttributes({})).to.deep.equal({});
    expect(
      conversationRelayAttributes({
        voice: { provider: 'Google', voice_id: 'en-US-Journey-O' },
        language: 'en-US',
        transcription: { provider: 'Google', hints: ['Acme', 'Zyrtec'] },
        interruptible: 'none',
        dtmf: false,
      }),
    ).to.deep.equal({
      ttsProvider: 'Google',
      voice: 'en-US-Journey-O',
      language: 'en-US',
      transcriptionProvider: 'Google',
      hints: 'Acme,Zyrtec',
      interruptible: 'none',
      welcomeGreetingInterruptible: 'none',
      dtmfDetection: false,
    });
  });

  it('accepts BCP 47 tags in canonical form only', () => {
    expect(canonicalLanguage('en-us')).to.equal('en-US');
    expect(canonicalLanguage('zh-Hant-TW')).to.equal('zh-Hant-TW');
    expect(canonicalLanguage('en_US')).to.equal(null);
    expect(canonicalLanguage('not a tag')).to.equal(null);
  });

  it('takes 1 to 32 of 0-9, *, # and w as send_dtmf digits', () => {
    expect(parseToolArguments('send_dtmf', '{"digits":"123*#w9"}')).to.deep.equal({
      ok: true,
      args: { digits: '123*#w9' },
    });
    for (const digits of ['', '12a', 'x'.repeat(3), '1'.repeat(33)]) {
      const parsed = parseToolArguments('send_dtmf', JSON.stringify({ digits }));
      expect(parsed.ok, digits).to.equal(false);
    }
  });
});
