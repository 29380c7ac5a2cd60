/**
 * Unit tests of the linear-time engine of tenant patterns (src/services/linear-regexp.ts) and of a GET
 * tool's URL (src/services/tool-calls.ts `getToolUrl`): ECMA-262 `u`-mode patterns RE2 can run give
 * JavaScript's answers; backreferences and lookaround are refused, also where re2js's translation would
 * have turned them into literals (`\k<n>`, `\8`); a GET tool's fixed query wins over the arguments.
 */
import { expect } from 'chai';
import { linearRegExp, UnsupportedPatternError } from '../../src/services/linear-regexp';
import { getToolUrl } from '../../src/services/tool-calls';

const refused = (pattern: string): string => {
  try {
    linearRegExp(pattern);
  } catch (err) {
    expect(err).to.be.instanceOf(UnsupportedPatternError);
    return (err as UnsupportedPatternError).reason;
  }
  throw new Error(`/${pattern}/ was accepted`);
};

describe('linear-time patterns (src/services/linear-regexp.ts)', () => {
  it('answers as JavaScript does for what RE2 can run', () => {
    const cases: [string, string, boolean][] = [
      ['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-29', true],
      ['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-2', false],
      ['^[a-z0-9-]+$', 'acme-1', true],
      ['^\\u00e9t\\u{e9}$', 'été', true],
      ['^(?<year>\\d{4})$', '2026', true],
      ['^[(?=]+$', '(?=', true], // inside a class nothing is a group
      ['^\\(\\?=x\\)$', '(?=x)', true], // escaped: a literal
      ['^a/b$', 'a/b', true],
      ['b', 'abc', true], // `test` finds a match anywhere, as RegExp.prototype.test does
      ['^\\p{L}+$', 'Ωmega', true],
    ];
    for (const [pattern, text, expected] of cases) {
      expect(linearRegExp(pattern).test(text), `/${pattern}/ on ${text}`).to.equal(expected);
      expect(new RegExp(pattern, 'u').test(text), `JavaScript: /${pattern}/ on ${text}`).to.equal(expected);
    }
  });

  it('refuses backreferences and lookaround, never running them on another engine', () => {
    expect(refused('(a)\\1')).to.match(/backreferences/);
    expect(refused('(?<n>a)\\k<n>')).to.match(/backreferences/); // re2js alone would read `k<n>` literally
    expect(refused('(a)(b)(c)(d)(e)(f)(g)(h)\\8')).to.match(/backreferences/); // and `\8` as `8`
    for (const p of ['(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b']) expect(refused(p)).to.match(/lookahead and lookbehind/);
  });

  it('refuses bad syntax and what RE2 cannot run, with the reason', () => {
    expect(refused('[')).to.match(/Unterminated character class/);
    expect(refused('\\a')).to.match(/Invalid escape/); // u mode: no identity escapes
    expect(refused('a{1001}')).to.match(/RE2 cannot run it/);
  });

  it('matches ^(a+)+$ against a long value in linear time', () => {
    const re = linearRegExp('^(a+)+$');
    const start = performance.now();
    expect(re.test(`${'a'.repeat(50_000)}!`)).to.equal(false);
    expect(re.test('a'.repeat(50_000))).to.equal(true);
    expect(performance.now() - start).to.be.below(1000);
  });

  it('names each pattern apart (Ajv keys its compiled patterns by toString)', () => {
    expect(String(linearRegExp('a'))).not.to.equal(String(linearRegExp('b')));
    expect(String(linearRegExp('a', 'u'))).not.to.equal(String(linearRegExp('a', '')));
  });
});

describe("a GET tool's URL (src/services/tool-calls.ts getToolUrl)", () => {
  it('keeps the fixed query as written, adds the other arguments, and always its own tool_call_id', () => {
    const url = getToolUrl(
      'https://tools.example.com/orders?account=acme&lang=en%20GB&tool_call_id=fixed',
      { account: 'evil', order_id: 'A 1', n: 2, tool_call_id: 'tc_forged' },
      'tc_real',
    );
    expect(url.pathname + url.search).to.equal(
      '/orders?account=acme&lang=en%20GB&order_id=A+1&n=2&tool_call_id=tc_real',
    );
    expect(getToolUrl('https://tools.example.com/o', { a: 'x&b=y' }, 'tc_1').search).to.equal(
      '?a=x%26b%3Dy&tool_call_id=tc_1',
    );
  });
});
