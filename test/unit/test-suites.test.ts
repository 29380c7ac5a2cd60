/**
 * Unit tests of the test suites' pure rules: the persona's view of the call (roles flipped,
 * src/services/simulator.ts), its hang-up, the judge's answer checked against the schema and the
 * transcript (src/services/test-suites.ts `judgeProblems`), and a run compared with the previous one.
 */
import { expect } from 'chai';
import { personaLine, personaMessages, personaPrompt } from '../../src/services/simulator';
import { compareRuns, judgeProblems } from '../../src/services/test-suites';

const PERSONA = { persona: 'Maria, in a hurry.', goal: 'A table for two at 8 pm.', max_turns: 5 };

describe('persona callers', () => {
  it("flips the roles of the call's conversation and leaves out system, tool and tool-call-only messages", () => {
    const messages = personaMessages(PERSONA, [
      { role: 'system', content: 'You are the assistant of Luigi’s.' },
      { role: 'assistant', content: 'Luigi’s, how can I help?' },
      { role: 'user', content: 'A table for two, please.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'search_knowledge', arguments: '{}' }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Open until 11 pm.' },
      { role: 'assistant', content: 'Sure, at what time?' },
    ]);
    expect(messages[0]).to.deep.equal({ role: 'system', content: personaPrompt(PERSONA) });
    expect(messages.slice(1)).to.deep.equal([
      { role: 'user', content: 'Luigi’s, how can I help?' },
      { role: 'assistant', content: 'A table for two, please.' },
      { role: 'user', content: 'Sure, at what time?' },
    ]);
  });

  it('tells the persona the call connected when the assistant has not spoken first', () => {
    const messages = personaMessages(PERSONA, [{ role: 'system', content: 'prompt' }]);
    expect(messages.slice(1)).to.deep.equal([{ role: 'user', content: '(The call connects. You speak first.)' }]);
    expect(messages[0].content).to.include(PERSONA.persona).and.include(PERSONA.goal).and.include('hang_up');
  });

  it('hangs up on the hang_up tool or the [HANG UP] marker, keeping the words said', () => {
    expect(personaLine('Thanks, bye.', ['hang_up'])).to.deep.equal({ text: 'Thanks, bye.', hangUp: true });
    expect(personaLine('Thanks, bye. [HANG UP]', [])).to.deep.equal({ text: 'Thanks, bye.', hangUp: true });
    expect(personaLine('ok [hang up]', [])).to.deep.equal({ text: 'ok', hangUp: true });
    expect(personaLine(null, ['hang_up'])).to.deep.equal({ text: null, hangUp: true });
    expect(personaLine('  Eight, please. ', [])).to.deep.equal({ text: 'Eight, please.', hangUp: false });
  });
});

describe("the judge's verdict", () => {
  const lines = ['Assistant: Luigi’s, how can I help?', 'Caller: A table for two at eight, please.'];
  const verdict = (quote: string) =>
    JSON.stringify({ verdict: 'pass', score: 80, reasons: [{ quote, explanation: 'Booked.' }] });

  it('accepts a valid verdict whose quotes the transcript holds (case, spacing and quotes aside)', () => {
    const ok = judgeProblems(verdict('"a table  for two at EIGHT"'), lines);
    expect(ok).to.deep.include({ ok: true });
    const fenced = judgeProblems('```json\n' + verdict('How can I help?') + '\n```', lines);
    expect(fenced.ok).to.equal(true);
  });

  it('refuses text that is not JSON, an answer off the schema, and quotes nobody said', () => {
    const garbage = judgeProblems('It went fine!', lines);
    expect(garbage.ok).to.equal(false);
    expect((garbage as { errors: string[] }).errors[0]).to.match(/not valid JSON/);
    const offSchema = judgeProblems(JSON.stringify({ verdict: 'maybe', score: 150, reasons: [] }), lines);
    expect(offSchema.ok).to.equal(false);
    expect((offSchema as { errors: string[] }).errors.join(' '))
      .to.match(/verdict/)
      .and.match(/score/);
    const invented = judgeProblems(verdict('I would like a refund'), lines);
    expect(invented).to.deep.equal({
      ok: false,
      errors: ['reasons[0].quote: not found in the transcript (quote its words exactly)'],
    });
  });
});

describe('a run compared with the previous one', () => {
  it('lists the scenarios whose status changed, by name; none for a first run', () => {
    const current = [
      { name: 'a', status: 'failed' as const },
      { name: 'b', status: 'passed' as const },
      { name: 'new', status: 'passed' as const },
    ];
    expect(compareRuns(current, null)).to.deep.equal({ previous_run_id: null, changed: [] });
    const previous = {
      id: 'tsrun_1',
      results: [
        { name: 'a', status: 'passed' as const },
        { name: 'b', status: 'passed' as const },
        { name: 'gone', status: 'failed' as const },
      ],
    };
    expect(compareRuns(current, previous)).to.deep.equal({
      previous_run_id: 'tsrun_1',
      changed: [{ scenario: 'a', previous: 'passed', current: 'failed' }],
    });
  });
});
